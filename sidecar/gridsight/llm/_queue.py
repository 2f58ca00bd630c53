"""One model per process, behind a queue: requests run one at a time on a worker thread.

Why a queue: a llama.cpp context is single-threaded and the model is too big to load twice. Why
cancellation: the task pane sends "suggest while typing" requests on every pause; a newer request from
the same session cancels the older ones, queued or running, so the model never works on stale text. A
running request stops at its next token (the runtime's stopping criteria consult the request's
:class:`Control`), which frees the queue within one token's time.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from gridsight.errors import GridSightError, ModelError
from gridsight.llm._runtime import (
    Completion,
    Control,
    Message,
    Request,
    Runtime,
    as_messages,
    finish,
    logprob_of,
    raise_for_abort,
    runtime_factory,
)
from gridsight.llm.grammars import Grammar

_DONE = object()


class Ticket:
    """A submitted request: stream its text, wait for its result, or cancel it."""

    def __init__(self, request: Request, session: str | None, control: Control, number: int) -> None:
        self.request = request
        self.session = session
        self.control = control
        self.number = number
        self._pieces: queue.Queue[Any] = queue.Queue()
        self._done = threading.Event()
        self._completion: Completion | None = None
        self._error: BaseException | None = None
        self.started_at: float | None = None
        self.finished_at: float | None = None

    def cancel(self) -> None:
        """Stop this request: at once if still queued, at its next token if running."""
        self.control.cancel()

    @property
    def cancelled(self) -> bool:
        return self.control.cancel_requested

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def result(self, timeout: float | None = None) -> Completion:
        """The completion; raises the request's error, RequestCancelledError or RequestTimeoutError."""
        if not self._done.wait(timeout):
            raise TimeoutError("the model request is still running")
        if self._error is not None:
            raise self._error
        assert self._completion is not None
        return raise_for_abort(self._completion)

    def stream(self) -> Iterator[str]:
        """Text pieces as the worker produces them; ends with the request (errors re-raised)."""
        while True:
            piece = self._pieces.get()
            if piece is _DONE:
                break
            yield piece
        self.result()

    # worker side
    def _put(self, piece: str) -> None:
        self._pieces.put(piece)

    def _finish(self, completion: Completion | None, error: BaseException | None) -> None:
        self._completion, self._error = completion, error
        self.finished_at = self.control.clock()
        self._pieces.put(_DONE)
        self._done.set()


class ModelQueue:
    """Serialises requests to one runtime on a daemon worker thread (the runtime is loaded lazily there)."""

    def __init__(self, runtime: Runtime | Callable[[], Runtime]) -> None:
        self._runtime = runtime if isinstance(runtime, Runtime) else None
        self._factory = None if isinstance(runtime, Runtime) else runtime
        self._queue: queue.Queue[Ticket | None] = queue.Queue()
        self._lock = threading.Lock()
        self._sessions: dict[str, list[Ticket]] = {}
        self._numbers = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._closed = False
        self._load_error: GridSightError | None = None
        self.current: Ticket | None = None

    @property
    def loaded(self) -> bool:
        """Whether the runtime is loaded (reading this never loads it)."""
        return self._runtime is not None

    @property
    def runtime(self) -> Runtime:
        """The runtime, loading it on first use (in the caller's thread)."""
        with self._lock:
            return self._ensure_runtime()

    def _ensure_runtime(self) -> Runtime:
        if self._runtime is None:
            if self._load_error is not None:
                raise self._load_error
            assert self._factory is not None
            try:
                self._runtime = self._factory()
            except ModelError as exc:
                self._load_error = exc
                raise
        return self._runtime

    def submit(
        self,
        prompt: str | Sequence[Message],
        *,
        grammar: Grammar | None = None,
        max_tokens: int = 256,
        timeout_s: float | None = 60.0,
        session: str | None = None,
        continuation: str | None = None,
        temperature: float = 0.0,
        seed: int = 0,
    ) -> Ticket:
        """Queue a request. With ``session``, every older request of that session is cancelled first.
        With ``continuation``, the request scores that text as the reply (see :meth:`score`)."""
        request = Request(
            as_messages(prompt),
            grammar,
            max_tokens,
            timeout_s,
            continuation=continuation,
            temperature=temperature,
            seed=seed,
        )
        with self._lock:
            if self._closed:
                raise ModelError("the model queue is closed")
            ticket = Ticket(request, session, Control(timeout_s), next(self._numbers))
            if session is not None:
                for older in self._sessions.get(session, []):
                    older.cancel()
                self._sessions[session] = [ticket]
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="gridsight-model", daemon=True)
                self._thread.start()
        self._queue.put(ticket)
        return ticket

    def complete(self, prompt: str | Sequence[Message], **kwargs: Any) -> Completion:
        """Submit and wait (convenience for callers that do not stream)."""
        return self.submit(prompt, **kwargs).result()

    @property
    def can_score(self) -> bool:
        """Whether the runtime behind the queue can score text (loads it on first use)."""
        return self.runtime.can_score

    def score(
        self, prompt: str | Sequence[Message], continuation: str, *, timeout_s: float | None = 60.0
    ) -> float:
        """:meth:`Runtime.score` in turn with every other request on the one model."""
        if not self.can_score:
            raise ModelError(f"the {self.runtime.name} runtime cannot score text")
        ticket = self.submit(prompt, max_tokens=0, timeout_s=timeout_s, continuation=continuation)
        return logprob_of(ticket.result(), self.runtime.name)

    def close(self, timeout: float = 5.0) -> None:
        """Cancel what is queued and running, and stop the worker."""
        with self._lock:
            self._closed = True
            tickets = [t for ts in self._sessions.values() for t in ts]
        for t in tickets:
            t.cancel()
        if self.current is not None:
            self.current.cancel()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout)

    def _work(self) -> None:
        while True:
            ticket = self._queue.get()
            if ticket is None:
                return
            if ticket.cancelled:  # cancelled while queued: never touches the model
                ticket.control.should_stop()
                ticket._finish(finish(ticket.control, []), None)
                continue
            self.current = ticket
            ticket.started_at = ticket.control.clock()
            pieces: list[str] = []
            try:
                with self._lock:
                    runtime = self._ensure_runtime()
                for piece in runtime.execute(ticket.request, ticket.control):
                    pieces.append(piece)
                    ticket._put(piece)
                    if ticket.control.should_stop():  # between tokens, in case the runtime did not check
                        ticket.control.mark_stopped()
                        break
                ticket._finish(finish(ticket.control, pieces), None)
            except GridSightError as exc:
                ticket._finish(None, exc)
            except Exception as exc:  # a runtime bug must not kill the worker and hang every later request
                ticket._finish(None, ModelError(f"the model failed: {type(exc).__name__}: {exc}"))
            finally:
                self.current = None
                with self._lock:
                    if ticket.session is not None:
                        live = self._sessions.get(ticket.session, [])
                        if ticket in live:
                            live.remove(ticket)
                        if not live:
                            self._sessions.pop(ticket.session, None)


_shared: ModelQueue | None = None
_shared_lock = threading.Lock()


def loaded_queue() -> ModelQueue | None:
    """The shared queue when its model is already loaded; None otherwise (nothing is loaded for it)."""
    with _shared_lock:
        q = _shared
    return q if q is not None and q.loaded else None


def shared_queue() -> ModelQueue:
    """The process's one model queue over the configured model (loaded on its first request)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = ModelQueue(runtime_factory("llama"))
        return _shared

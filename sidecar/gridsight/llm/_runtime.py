"""The one small interface every model runtime implements, after Simon Willison's ``llm``.

A runtime implements :meth:`Runtime.execute` (yield text pieces, one per token, while honouring a
:class:`Control`) and :meth:`Runtime.count_tokens`, and declares its capabilities as attributes. The base
class provides :meth:`~Runtime.complete` and :meth:`~Runtime.stream`. :class:`ScriptedRuntime` is the
package's test double for orchestration tests (queue, cancellation, streaming); every feature is also
tested against the real default model.
"""

from __future__ import annotations

import math
import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from gridsight.errors import ModelError, PromptTooLongError, RequestCancelledError, RequestTimeoutError
from gridsight.llm.grammars import Grammar


class Message(TypedDict):
    role: str  # "system" | "user" | "assistant"
    content: str


def as_messages(prompt: str | Sequence[Message]) -> list[Message]:
    """A bare string is one user message."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    return [{"role": m["role"], "content": m["content"]} for m in prompt]


@dataclass(frozen=True)
class Request:
    """One generation: chat messages, an optional grammar, a token budget and a time limit."""

    messages: Sequence[Message]
    grammar: Grammar | None = None
    max_tokens: int = 256
    timeout_s: float | None = 60.0
    stop: tuple[str, ...] = ()
    #: 0 is greedy (the default everywhere); above 0 samples, with ``seed`` making it repeatable.
    temperature: float = 0.0
    seed: int = 0
    #: Score this text as the reply instead of generating one (runtimes with ``can_score``): the
    #: completion's ``logprob`` is the sum of its tokens' log-probabilities and its text is empty.
    continuation: str | None = None


class Control:
    """Shared by caller, queue and runtime: the cancel flag, the deadline, and per-token bookkeeping.

    The runtime calls :meth:`on_token` once per generated token (llama-cpp-python's stopping
    criteria); a True return stops generation before the next token, which is how a cancel or a
    timeout frees the model within one token's time.
    """

    def __init__(self, timeout_s: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()
        self.deadline = self.started + timeout_s if timeout_s is not None else None
        self._cancel = threading.Event()
        self.cancelled_at: float | None = None
        self.reason: str | None = None  # "cancelled" or "timeout" once a stop was requested
        self.stopped_at: float | None = None  # when the first token after the stop request arrived
        self.finish_reason: str = "stop"  # set by the runtime: "stop" or "length"
        self.tokens = 0
        self.token_times: list[float] = []
        self.prompt_tokens = 0
        self.logprob: float | None = None  # set by a scoring request (Request.continuation)

    def cancel(self) -> None:
        if not self._cancel.is_set():
            self.cancelled_at = self.clock()
            self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def should_stop(self) -> bool:
        """True once cancelled or past the deadline (and records which)."""
        if self.reason is None:
            if self._cancel.is_set():
                self.reason = "cancelled"
            elif self.deadline is not None and self.clock() > self.deadline:
                self.reason = "timeout"
        return self.reason is not None

    def mark_stopped(self, at: float | None = None) -> None:
        """Record when generation stopped (the first time only): by :meth:`on_token`, or between
        tokens when the queue's own check after a streamed piece honours the stop request."""
        if self.stopped_at is None:
            self.stopped_at = self.clock() if at is None else at

    def on_token(self) -> bool:
        """Called when a token has been sampled: return True to drop it and stop here, else count it."""
        now = self.clock()
        if self.should_stop():
            self.mark_stopped(now)
            return True
        self.tokens += 1
        self.token_times.append(now)
        return False


@dataclass(frozen=True)
class Completion:
    """What a finished request produced; ``finish_reason`` is stop, length, cancelled or timeout."""

    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    first_token_s: float | None = None
    token_times: tuple[float, ...] = field(default=(), repr=False)
    logprob: float | None = None  # a scoring request's log-probability of the continuation

    @property
    def truncated(self) -> bool:
        """True when the text did not end naturally (budget, cancel or timeout): do not parse it."""
        return self.finish_reason != "stop"

    @property
    def tokens_per_s(self) -> float:
        if self.first_token_s is None or self.completion_tokens < 2:
            return 0.0
        span = self.seconds - self.first_token_s
        return (self.completion_tokens - 1) / span if span > 0 else 0.0


def finish(control: Control, pieces: list[str]) -> Completion:
    """Turn a control's record into a Completion (the cancel/timeout reason wins over the runtime's)."""
    first = control.token_times[0] - control.started if control.token_times else None
    return Completion(
        text="".join(pieces),
        finish_reason=control.reason or control.finish_reason,
        prompt_tokens=control.prompt_tokens,
        completion_tokens=control.tokens,
        seconds=control.clock() - control.started,
        first_token_s=first,
        token_times=tuple(control.token_times),
        logprob=control.logprob,
    )


def logprob_of(completion: Completion, runtime: str) -> float:
    """A finished scoring request's log-probability (abort errors raised first)."""
    done = raise_for_abort(completion)
    if done.logprob is None:
        raise ModelError(f"the {runtime} runtime returned no score")
    return done.logprob


def shares(logprobs: Sequence[float]) -> list[float]:
    """Each option's share of the probability, from log-probabilities (a softmax)."""
    top = max(logprobs)
    weights = [math.exp(x - top) for x in logprobs]
    total = sum(weights)
    return [w / total for w in weights]


def raise_for_abort(completion: Completion) -> Completion:
    """Typed errors for requests that were cancelled or ran out of time."""
    if completion.finish_reason == "cancelled":
        raise RequestCancelledError("the model request was cancelled")
    if completion.finish_reason == "timeout":
        raise RequestTimeoutError(
            f"the model request timed out after {completion.seconds:.1f} s", partial=completion.text
        )
    return completion


class Runtime(ABC):
    """A loaded model. Subclasses implement :meth:`execute` and :meth:`count_tokens`."""

    name: str = "runtime"
    context_length: int = 0
    threads: int = 1
    can_stream: bool = True
    supports_grammar: bool = False
    #: Can score a given reply (log-probability) instead of generating one: see :meth:`score`.
    can_score: bool = False

    @abstractmethod
    def execute(self, request: Request, control: Control) -> Iterator[str]:
        """Yield the reply's text piece by piece; call ``control.on_token()`` per token and stop when it
        returns True; set ``control.prompt_tokens`` and ``control.finish_reason``."""

    @abstractmethod
    def count_tokens(self, text: str) -> int:
        """Tokens in ``text`` by this model's own tokenizer."""

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of the whole chat prompt as the model will see it (template included)."""
        return sum(self.count_tokens(m["content"]) + 4 for m in messages) + 2

    def check_fits(self, prompt_tokens: int, max_tokens: int) -> None:
        """Refuse a prompt that, with its output budget, does not fit the context (never truncate it)."""
        if self.context_length and prompt_tokens + max_tokens > self.context_length:
            raise PromptTooLongError(
                f"the prompt needs {prompt_tokens:,} tokens plus {max_tokens:,} for the answer,"
                " but the model's"
                f" context holds {self.context_length:,}; trim it with gridsight.llm.fit_prompt"
            )

    def tokens(self, text: str) -> int:
        return self.count_tokens(text)

    def complete(
        self,
        prompt: str | Sequence[Message],
        *,
        grammar: Grammar | None = None,
        max_tokens: int = 256,
        timeout_s: float | None = 60.0,
        control: Control | None = None,
        temperature: float = 0.0,
        seed: int = 0,
    ) -> Completion:
        """Run a request to the end in this thread (the queue is the way to share one model).

        Raises:
            PromptTooLongError, GrammarError, RequestCancelledError, RequestTimeoutError.
        """
        request = Request(
            as_messages(prompt), grammar, max_tokens, timeout_s, temperature=temperature, seed=seed
        )
        control = control or Control(timeout_s)
        pieces = list(self.execute(request, control))
        return raise_for_abort(finish(control, pieces))

    def score(
        self, prompt: str | Sequence[Message], continuation: str, *, timeout_s: float | None = 60.0
    ) -> float:
        """The log-probability of ``continuation`` as the model's reply to ``prompt``.

        Small models rank options far better this way (how likely is the question, given each
        option?) than by naming an option under a grammar, where they mostly name the first one.

        Raises:
            ModelError when the runtime cannot score; RequestCancelledError, RequestTimeoutError.
        """
        if not self.can_score:
            raise ModelError(f"the {self.name} runtime cannot score text")
        request = Request(as_messages(prompt), None, 0, timeout_s, continuation=continuation)
        control = Control(timeout_s)
        for _ in self.execute(request, control):
            pass
        return logprob_of(finish(control, []), self.name)

    def stream(
        self,
        prompt: str | Sequence[Message],
        *,
        grammar: Grammar | None = None,
        max_tokens: int = 256,
        timeout_s: float | None = 60.0,
        control: Control | None = None,
    ) -> Iterator[str]:
        """Yield text as it is generated; raises RequestTimeoutError at the end if time ran out."""
        request = Request(as_messages(prompt), grammar, max_tokens, timeout_s)
        control = control or Control(timeout_s)
        pieces: list[str] = []
        for piece in self.execute(request, control):
            pieces.append(piece)
            yield piece
        raise_for_abort(finish(control, pieces))

    def describe(self) -> dict[str, object]:
        return {"name": self.name, "context_length": self.context_length, "threads": self.threads}


#: Runtimes by name: a factory, or "module:attribute" imported on first use (llama_cpp stays unimported).
_RUNTIMES: dict[str, str | Callable[..., Runtime]] = {"llama": "gridsight.llm._llama:LlamaRuntime"}


def register_runtime(name: str, factory: str | Callable[..., Runtime]) -> None:
    """Add a runtime (built-ins register the same way an add-on would)."""
    _RUNTIMES[name] = factory


def runtime_factory(name: str) -> Callable[..., Runtime]:
    """The factory registered under ``name``; a ModelError naming the known ones otherwise."""
    factory = _RUNTIMES.get(name)
    if factory is None:
        raise ModelError(f"unknown model runtime {name!r}; known: {', '.join(sorted(_RUNTIMES))}")
    if isinstance(factory, str):
        import importlib

        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        _RUNTIMES[name] = factory
    return factory


_TOKEN = re.compile(r"\s*[\w]+|\s*[^\w\s]")


class ScriptedRuntime(Runtime):
    """A test double: replies from a script, one word or symbol per "token", optionally slowed down.

    It honours the whole contract (token budget, cancel, timeout, prompt length) but not grammars:
    its replies are whatever the script says. Use it for orchestration tests only.
    """

    name = "scripted"
    context_length = 4096
    threads = 1
    supports_grammar = False

    def __init__(
        self,
        replies: Sequence[str] | Callable[[Sequence[Message]], str],
        token_delay_s: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._replies = replies
        self._next = 0
        self.token_delay_s = token_delay_s
        self._sleep = sleep
        self.requests: list[Request] = []

    def count_tokens(self, text: str) -> int:
        return len(_TOKEN.findall(text))

    def _reply(self, messages: Sequence[Message]) -> str:
        if callable(self._replies):
            return self._replies(messages)
        reply = self._replies[self._next % len(self._replies)]
        self._next += 1
        return reply

    def execute(self, request: Request, control: Control) -> Iterator[str]:
        self.requests.append(request)
        control.prompt_tokens = self.prompt_tokens(request.messages)
        self.check_fits(control.prompt_tokens, request.max_tokens)
        control.finish_reason = "stop"
        for n, piece in enumerate(_TOKEN.findall(self._reply(request.messages))):
            if n >= request.max_tokens:
                control.finish_reason = "length"
                return
            if self.token_delay_s:
                self._sleep(self.token_delay_s)
            if control.on_token():
                return
            yield piece


register_runtime("scripted", ScriptedRuntime)

"""Server-Sent Events for long work: progress and partial text as they happen, then one result.

A handler hands :func:`stream` a function ``work(emit) -> result``; the work runs on its own thread
and calls ``emit(event, data)`` as often as it likes; the response yields ``event: progress`` (or any
name) lines, then ``event: result`` with the final JSON -- or ``event: error`` with the same
``{error: {code, message, detail}}`` body a plain request would get. If the client goes away, the
``cancelled`` event passed to the work is set so it can stop early.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, request, stream_with_context

from gridsight.api._errors import ApiError, status_of

log = logging.getLogger("gridsight.api")
Emit = Callable[[str, Any], None]
Work = Callable[[Emit, threading.Event], Any]
#: Seconds between keep-alive comments while the work is silent (proxies and clients time out).
HEARTBEAT_S = 10.0
_DONE = object()


def wants_stream() -> bool:
    """True when the client asked for an event stream (``Accept: text/event-stream``)."""
    return "text/event-stream" in (request.headers.get("Accept") or "")


def format_event(event: str, data: Any) -> str:
    """One SSE frame. ``data`` is JSON on one line (JSON never holds a raw newline)."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'), default=str)}\n\n"


def _error_body(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, ApiError):
        return {
            "error": {"code": exc.code, "message": exc.message, "detail": exc.detail},
            "status": exc.status,
        }
    status, code = status_of(exc)
    if status == 500:
        log.exception("unexpected error in streamed work", exc_info=exc)
        return {
            "error": {
                "code": "internal",
                "message": "internal error in the GridSight sidecar; see its log",
                "detail": {"type": type(exc).__name__},
            },
            "status": 500,
        }
    return {"error": {"code": code, "message": str(exc), "detail": None}, "status": status}


def events(work: Work, heartbeat_s: float = HEARTBEAT_S) -> tuple[Iterator[str], threading.Event]:
    """Run ``work`` on a thread; iterate its frames. Separate from Flask so it is testable alone."""
    q: queue.Queue[Any] = queue.Queue(maxsize=1000)
    cancelled = threading.Event()

    def emit(event: str, data: Any) -> None:
        if not cancelled.is_set():
            q.put((event, data))

    def run() -> None:
        try:
            q.put(("result", work(emit, cancelled)))
        except BaseException as exc:  # reported to the client, never raised into the server
            q.put(("error", _error_body(exc)))
        finally:
            q.put(_DONE)

    threading.Thread(target=run, name="gridsight-sse", daemon=True).start()

    def frames() -> Iterator[str]:
        try:
            while True:
                try:
                    item = q.get(timeout=heartbeat_s)
                except queue.Empty:
                    yield ": keep-alive\n\n"
                    continue
                if item is _DONE:
                    return
                yield format_event(*item)
        finally:
            cancelled.set()

    return frames(), cancelled


def stream(work: Work) -> Response:
    """An SSE response running ``work``."""
    frames, _cancelled = events(work)
    resp = Response(stream_with_context(frames), mimetype="text/event-stream")
    resp.headers["X-Accel-Buffering"] = "no"
    return resp

"""A time limit for one evaluation, where the platform allows it (an interval timer on POSIX, in the
main thread); elsewhere the limit is a no-op and only the workbook budget applies."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


class CellTimeout(BaseException):
    """Raised by the interval timer inside a cell's evaluation (a BaseException so that the
    engine's broad ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def cell_guard(seconds: float) -> Iterator[None]:
    """Interrupt one evaluation after ``seconds`` (POSIX main thread only; elsewhere a no-op)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable or seconds <= 0:
        yield
        return

    def ring(_sig: int, _frame: Any) -> None:
        raise CellTimeout

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

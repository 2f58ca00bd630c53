"""An exclusive lock on a file, so two processes never assemble the default model at the same time.

The lock is the OS's own (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows) through
``filelock``, so it is released when the holder dies and this module imports on every OS.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from gridsight.errors import ModelError


@contextmanager
def file_lock(path: Path, timeout_s: float = 600.0) -> Iterator[None]:
    """Hold an OS-level exclusive lock on ``path`` (created if needed); released on exit or process death."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(path), timeout=timeout_s, poll_interval=0.1)
    try:
        lock.acquire()
    except Timeout:
        raise ModelError(f"timed out waiting for the lock {path} (another GridSight busy?)") from None
    try:
        yield
    finally:
        lock.release()

"""Where the sidecar keeps its per-user files: certificates, the API secret, undo journals."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

#: Environment variable that moves the whole data folder (tests, portable installs).
HOME_ENV = "GRIDSIGHT_HOME"


def data_dir() -> Path:
    """``$GRIDSIGHT_HOME``, else the platform's per-user data folder (~/.local/share/gridsight on Linux)."""
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / "GridSight"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "GridSight"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else home / ".local" / "share") / "gridsight"


def private_dir(path: Path) -> Path:
    """Create a folder only this user can enter (0700 where the OS has modes)."""
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        path.chmod(0o700)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write a secret file atomically with mode 0600 from its first byte (never world-readable)."""
    private_dir(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.chmod(tmp, 0o600)
    os.replace(tmp, path)

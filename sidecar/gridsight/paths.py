"""Where GridSight keeps per-user data: the assembled default model, settings, certificates, the API
secret and undo journals. One place, so every part agrees on the folder."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from gridsight.errors import GridSightError

#: Environment variable that moves the whole data folder (tests, portable installs).
HOME_ENV = "GRIDSIGHT_HOME"

SETTINGS_FILE = "settings.json"


def data_dir() -> Path:
    """``$GRIDSIGHT_HOME``, else the platform's per-user data folder (not site-packages: it may be
    read-only, and a pip upgrade would delete a 0.5 GB file we would then rebuild)."""
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


def settings_path() -> Path:
    return data_dir() / SETTINGS_FILE


def read_settings() -> dict[str, Any]:
    """The settings file as a dict; a missing file is empty settings, a broken one is a clear error."""
    path = settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise GridSightError(f"cannot read settings file {path}: {exc.strerror}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GridSightError(
            f"settings file {path} is not valid JSON ({exc.msg} at line {exc.lineno})"
        ) from None
    if not isinstance(doc, dict):
        raise GridSightError(f"settings file {path} must hold a JSON object")
    return doc


def write_setting(key: str, value: Any) -> Path:
    """Set (or with ``None`` remove) one key, writing atomically so a crash never leaves half a file."""
    doc = read_settings()
    if value is None:
        doc.pop(key, None)
    else:
        doc[key] = value
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


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

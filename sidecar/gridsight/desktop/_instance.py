"""One desktop window per user: the first one holds a lock and says where its sidecar listens; a
second one hands its workbooks to the first (over the same HTTPS API) and asks it to come forward.

The lock is an OS file lock (``filelock``), so it dies with its holder: a crashed window never blocks
the next start. The focus request is a small file the first window polls, which needs no second port.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from gridsight.errors import AlreadyRunningError

LOCK_FILE = "desktop.lock"
STATE_FILE = "desktop.json"
FOCUS_FILE = "desktop.focus"


@dataclass
class Instance:
    """This process owns the desktop window (and its sidecar) for this data folder."""

    home: Path
    lock: FileLock

    def announce(self, url: str, port: int) -> None:
        """Tell later starts where the sidecar is."""
        doc = {"pid": os.getpid(), "url": url, "port": port, "started": time.time()}
        tmp = self.home / (STATE_FILE + ".tmp")
        tmp.write_text(json.dumps(doc), encoding="utf-8")
        tmp.replace(self.home / STATE_FILE)

    def release(self) -> None:
        (self.home / STATE_FILE).unlink(missing_ok=True)
        self.lock.release()


def claim(home: Path) -> Instance | None:
    """The lock, or None when another window holds it."""
    home.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(home / LOCK_FILE), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return None
    return Instance(home, lock)


def running_state(home: Path) -> dict[str, object] | None:
    try:
        doc = json.loads((home / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def request_focus(home: Path, workbook_id: str | None = None, folder: Path | None = None) -> None:
    """Ask the first window to come to the front (and show ``workbook_id``, or folder mode on ``folder``,
    when given)."""
    doc = {"t": time.time(), "workbook": workbook_id, "folder": str(folder) if folder else None}
    tmp = home / (FOCUS_FILE + ".tmp")
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    tmp.replace(home / FOCUS_FILE)


def read_focus(home: Path, since: float) -> dict[str, Any] | None:
    """A focus request newer than ``since``, if any."""
    try:
        doc = json.loads((home / FOCUS_FILE).read_text(encoding="utf-8"))
        fresh = isinstance(doc, dict) and float(doc.get("t", 0)) > since
    except (OSError, ValueError, TypeError):  # unreadable, not JSON, or a "t" that is no number
        return None
    return doc if fresh else None


def post_json(
    url: str, secret: str, ca_file: Path, body: dict[str, object], timeout: float = 120.0
) -> object:
    """POST to the running sidecar's API, trusting only our own CA."""
    import ssl

    from gridsight.api import SECRET_HEADER

    ctx = ssl.create_default_context(cafile=str(ca_file))
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json", SECRET_HEADER: secret},
        method="POST",
    )
    with urllib.request.urlopen(req, context=ctx, timeout=timeout) as resp:
        return json.loads(resp.read().decode("utf-8"))


def hand_off(home: Path, paths: list[Path], folder: Path | None = None) -> AlreadyRunningError:
    """Open ``paths`` in the window that already runs (in folder mode on ``folder`` when given), bring
    it forward, and say so."""
    from gridsight.api._security import load_or_create_secret
    from gridsight.api._tls import cert_paths

    state = running_state(home) or {}
    url = str(state.get("url") or "")
    where = f" (pid {state.get('pid')}, {url})" if url else ""
    opened: list[str] = []
    last_id: str | None = None
    for p in paths:
        if not url:
            break
        try:
            doc = post_json(
                f"{url}/api/v1/workbooks",
                load_or_create_secret(home),
                cert_paths(home).ca_cert,
                {"path": str(p)},
            )
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            return AlreadyRunningError(
                f"GridSight is already open{where}, but it did not take {p.name}: {reason}"
            )
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            last_id = doc["id"]
            opened.append(p.name)
    request_focus(home, last_id, folder)
    extra = f"; opened {', '.join(opened)} there" if opened else ""
    if folder is not None and url:
        extra += f" (folder mode on {folder.name})"
    return AlreadyRunningError(
        f"GridSight is already open{where}: brought it to the front{extra} "
        "(one window and one sidecar per user)"
    )

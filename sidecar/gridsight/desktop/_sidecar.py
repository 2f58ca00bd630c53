"""The window's own sidecar: the HTTPS API on loopback, workbooks opened into it, stop and restart."""

from __future__ import annotations

import errno
import json
import logging
import socket
import ssl
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsight.errors import DesktopError, GridSightError

log = logging.getLogger("gridsight.desktop")


def who_listens(port: int, timeout: float = 2.0) -> str | None:
    """'gridsight' when a GridSight sidecar answers on https://localhost:PORT, 'other' for anything
    else that accepts the connection, None when nothing does."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # only reading the public signpost, which holds no secret
    req = urllib.request.Request(f"https://localhost:{port}/", headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, context=ctx, timeout=timeout) as resp:
            doc = json.loads(resp.read(4096).decode("utf-8", "replace"))
    except (OSError, ValueError):
        return "other"
    return "gridsight" if isinstance(doc, dict) and doc.get("service") == "gridsight" else "other"


def port_taken(port: int) -> bool:
    """Something accepts connections on 127.0.0.1:PORT."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


def port_in_use_message(port: int, who: str | None) -> str:
    if who == "gridsight":
        return (
            f"port {port} is already used by another GridSight sidecar (`gridsight serve`?): stop it first, "
            "or start the window on a free port with --port 0 (never two sidecars on one port)"
        )
    return (
        f"port {port} is already in use by another program; choose another with --port (0 picks a free one)"
    )


@dataclass
class Sidecar:
    """A started sidecar the window talks to; restartable on the same port with the same sessions."""

    running: Any  # gridsight.api.Running
    port: int

    @classmethod
    def start(cls, port: int, home: Path) -> Sidecar:
        from gridsight.api import build_server

        if port and port_taken(
            port
        ):  # checked first: on Windows waitress's SO_REUSEADDR would share the port
            raise DesktopError(port_in_use_message(port, who_listens(port)))
        try:
            running = build_server(port, home, threads=4)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise DesktopError(port_in_use_message(port, who_listens(port))) from None
            raise DesktopError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
        running.server.start()
        log.info("sidecar on %s", running.url)
        return cls(running, running.port)

    @property
    def url(self) -> str:
        return str(self.running.url)

    @property
    def sessions(self) -> Any:
        return self.running.app.extensions["gridsight"].sessions

    @property
    def serving(self) -> bool:
        return not self.running.server._stopping.is_set()

    def stop(self) -> None:
        self.running.stop()
        log.info("sidecar stopped")

    def restart(self) -> None:
        """Serve again on the same port with the same app (its open workbooks survive)."""
        from gridsight.api import Server
        from gridsight.api._tls import server_context

        if self.serving:
            return
        try:
            server = Server(self.running.app, server_context(self.running.certs), port=self.port, threads=4)
        except OSError as exc:
            raise DesktopError(
                f"cannot listen on 127.0.0.1:{self.port} again: {exc.strerror or exc}"
            ) from None
        self.running.server = server.start()
        log.info("sidecar restarted on %s", self.url)

    def open_file(self, path: Path) -> str:
        """Open a file as a session; its id."""
        from gridsight.api._errors import ApiError
        from gridsight.api._routes_workbooks import session_from_file

        try:
            session = session_from_file(path.expanduser().resolve())
        except (ApiError, GridSightError) as exc:
            msg = exc.message if isinstance(exc, ApiError) else str(exc)
            raise DesktopError(msg if msg.startswith(path.name) else f"{path.name}: {msg}") from None
        return str(self.sessions.add(session).id)

    def open_excel(self) -> str:
        """The active Excel workbook (xlwings) as a session; its id."""
        from gridsight.api._errors import ApiError
        from gridsight.api._routes_workbooks import session_from_xlwings

        try:
            session = session_from_xlwings({})
        except ApiError as exc:
            raise DesktopError(exc.message) from None
        except GridSightError as exc:
            raise DesktopError(f"Excel is not reachable: {exc}") from None
        except Exception as exc:  # COM/AppleScript errors when Excel is not running
            raise DesktopError(f"Excel is not reachable ({type(exc).__name__}: {exc})") from None
        return str(self.sessions.add(session).id)

    def open_demo(self, home: Path) -> str:
        from gridsight.demo import DEMO_NAME, build_demo_workbook

        target = home / "demo" / DEMO_NAME
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            build_demo_workbook(target)
        return self.open_file(target)

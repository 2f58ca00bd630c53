"""The sidecar service: HTTPS JSON API on 127.0.0.1 for the add-in, the task pane and scripts.

>>> from gridsight.api import start_server
>>> running = start_server(port=0)            # certificates and secret created on first run
>>> running.url, running.secret               # ('https://localhost:PORT', '...')
>>> running.stop()

The engine never imports this package; this package is a thin face over the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gridsight.api._app import create_app
from gridsight.api._errors import ApiError
from gridsight.api._home import data_dir
from gridsight.api._security import SECRET_FILE, SECRET_HEADER, load_or_create_secret
from gridsight.api._server import Server, TLSChannel
from gridsight.api._state import ServerConfig
from gridsight.api._tls import CertPaths, client_context, ensure_certificates, server_context

DEFAULT_PORT = 8765


@dataclass
class Running:
    """A started sidecar: where it listens, the secret clients send, and how to stop it."""

    server: Server
    app: object
    config: ServerConfig
    certs: CertPaths

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def secret(self) -> str:
        return self.config.secret

    def stop(self) -> None:
        self.server.stop()


def build_server(
    port: int = DEFAULT_PORT, home: Path | None = None, *, threads: int = 8, **limits: int
) -> Running:
    """Certificates, secret, app and a bound (not yet serving) server on 127.0.0.1."""
    home = home or data_dir()
    certs = ensure_certificates(home)
    config = ServerConfig(home=home, secret=load_or_create_secret(home), **limits)  # type: ignore[arg-type]
    app = create_app(config)
    server = Server(app, server_context(certs), port=port, threads=threads, max_body=config.max_body * 4)
    return Running(server, app, config, certs)


def start_server(port: int = 0, home: Path | None = None, **kwargs: int) -> Running:
    """Build and serve on a background thread (tests, benchmark, desktop window)."""
    running = build_server(port, home, **kwargs)
    running.server.start()
    return running


__all__ = [
    "DEFAULT_PORT",
    "SECRET_FILE",
    "SECRET_HEADER",
    "ApiError",
    "CertPaths",
    "Running",
    "Server",
    "ServerConfig",
    "TLSChannel",
    "build_server",
    "client_context",
    "create_app",
    "data_dir",
    "ensure_certificates",
    "load_or_create_secret",
    "server_context",
    "start_server",
]

"""waitress, speaking TLS, on 127.0.0.1 only.

waitress has no TLS of its own, and a TLS proxy in front would be a second process to ship. Its
channels are plain non-blocking sockets driven by one event loop, so TLS fits in one subclass:
accepted sockets are wrapped in a non-blocking SSLSocket, the handshake runs inside the loop
(never blocking it), "would block" from OpenSSL is treated as "try later", every byte OpenSSL has
already decrypted is drained on each read (select() cannot see those), and one lock per connection
keeps the event-loop thread and a task thread from touching the same SSL object at once.
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import create_server

LOOPBACK = "127.0.0.1"
log = logging.getLogger("gridsight.api.server")


class TLSChannel(HTTPChannel):
    """An HTTPChannel over a non-blocking TLS socket."""

    def __init__(self, server: Any, sock: socket.socket, addr: Any, adj: Any, map: Any = None) -> None:
        self._tls_lock = threading.Lock()
        self._tls_ready = False
        self._hs_want_write = False
        tls_sock = server.ssl_context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        super().__init__(server, tls_sock, addr, adj, map)

    # -- handshake inside the event loop --------------------------------------------------
    def _handshake(self) -> None:
        try:
            with self._tls_lock:
                self.socket.do_handshake()
        except ssl.SSLWantReadError:
            self._hs_want_write = False
            return
        except ssl.SSLWantWriteError:
            self._hs_want_write = True
            return
        except (ssl.SSLError, OSError) as exc:  # untrusted cert, plain HTTP, a port scanner
            log.debug("TLS handshake failed from %s: %s", self.addr, exc)
            self.handle_close()
            return
        self._tls_ready = True
        self._hs_want_write = False
        self.last_activity = time.time()

    def readable(self) -> bool:
        if not self._tls_ready:
            return True
        return bool(super().readable())

    def writable(self) -> bool:
        if not self._tls_ready:
            return self._hs_want_write
        return bool(super().writable())

    def handle_write(self) -> None:
        if not self._tls_ready:
            self._handshake()
            return
        super().handle_write()

    def handle_read(self) -> None:
        if not self._tls_ready:
            self._handshake()
            if not self._tls_ready:
                return
        while self.socket is not None:
            try:
                with self._tls_lock:
                    data = self.socket.recv(self.adj.recv_bytes)
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
                return
            except (ssl.SSLError, OSError):
                self.handle_close()
                return
            if not data:
                self.handle_close()
                return
            self.last_activity = time.time()
            self.received(data)
            with self._tls_lock:
                if self.socket is None or not self.socket.pending():
                    return

    def send(self, data: bytes, do_close: bool = True) -> int:
        if self.socket is None:
            return 0
        try:
            with self._tls_lock:
                return int(self.socket.send(data))
        except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
            return 0
        except (ssl.SSLError, OSError):
            if do_close:
                self.handle_close()
            return 0


class Server:
    """A running sidecar: waitress + TLS on 127.0.0.1, stoppable (tests, the desktop window)."""

    def __init__(
        self,
        app: Callable[..., Any],
        context: ssl.SSLContext,
        port: int = 0,
        threads: int = 8,
        max_body: int = 64 * 1024 * 1024,
    ) -> None:
        self._server = create_server(
            app,
            host=LOOPBACK,
            port=port,
            threads=threads,
            url_scheme="https",
            ident="GridSight",
            max_request_body_size=max_body,
            channel_timeout=120,
            clear_untrusted_proxy_headers=True,
            expose_tracebacks=False,
        )
        self._server.ssl_context = context
        self._server.channel_class = TLSChannel
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def url(self) -> str:
        return f"https://localhost:{self.port}"

    def serve_forever(self) -> None:
        """Run the event loop until :meth:`stop` (or Ctrl-C)."""
        from waitress import wasyncore

        srv = self._server
        try:
            while not self._stopping.is_set():
                wasyncore.loop(timeout=0.2, map=srv._map, use_poll=srv.adj.asyncore_use_poll, count=1)
        finally:
            srv.task_dispatcher.shutdown(timeout=5)
            wasyncore.close_all(srv._map)

    def start(self) -> Server:
        """Serve on a background thread (tests, the benchmark, the desktop window)."""
        self._thread = threading.Thread(target=self.serve_forever, name="gridsight-waitress", daemon=True)
        self._thread.start()
        return self

    def request_stop(self) -> None:
        """Ask the loop to end (safe from a signal handler); :meth:`serve_forever` then returns."""
        self._stopping.set()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

"""Who may talk to the sidecar: the per-install secret, allowed origins (CORS) and Host names.

Three locks, each for a different attacker:
- the secret (header ``X-GridSight-Secret``, compared in constant time) stops other local programs
  and web pages that do not have it;
- CORS answers only the sidecar's own origin and Office's hosts, so other web pages cannot read
  responses (and a custom header forces a preflight they cannot pass);
- the Host check refuses names other than localhost/127.0.0.1/[::1], which defeats DNS rebinding
  (a hostile page whose domain suddenly resolves to 127.0.0.1).
"""

from __future__ import annotations

import hmac
import re
import secrets
from pathlib import Path

from flask import Flask, Response, request

from gridsight.api._errors import error_response
from gridsight.api._home import write_private

SECRET_HEADER = "X-GridSight-Secret"
SECRET_FILE = "api-secret"
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})
#: Office on the web and Office's own add-in hosts.
OFFICE_ORIGIN = re.compile(
    r"^https://([a-z0-9-]+\.)*(officeapps\.live\.com|office\.com|office365\.com|microsoft365\.com"
    r"|officeppe\.com|cdn\.office\.net)$",
    re.IGNORECASE,
)
_ALLOW_HEADERS = f"Content-Type, Accept, Last-Event-ID, {SECRET_HEADER}"
_ALLOW_METHODS = "GET, POST, PUT, DELETE, OPTIONS"


def load_or_create_secret(home: Path) -> str:
    """The per-install secret: created once (0600), then read on every start."""
    path = home / SECRET_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 32:
            return text
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    secret = secrets.token_urlsafe(32)
    write_private(path, secret.encode("ascii") + b"\n")
    return secret


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if ":" in host else host


def origin_allowed(origin: str, host: str) -> bool:
    """The sidecar's own origin (any local name, same port) or an Office host."""
    origin = origin.strip()
    if OFFICE_ORIGIN.match(origin):
        return True
    m = re.match(r"^https://(localhost|127\.0\.0\.1|\[::1\])(?::(\d+))?$", origin, re.IGNORECASE)
    if not m:
        return False
    port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else "443"
    return (m.group(2) or "443") == port


def install_security(app: Flask, secret: str) -> None:
    """Host check, CORS preflights, and the secret on every /api/ call."""
    expected = secret.encode("utf-8")

    @app.before_request
    def _guard() -> Response | None:
        host = request.host or ""
        if _hostname(host) not in LOCAL_HOSTS:
            return error_response(
                403, "bad_host", f"host {host[:100]!r} is not served; use https://localhost"
            )
        origin = request.headers.get("Origin")
        if origin is not None and origin != "null" and not origin_allowed(origin, host):
            return error_response(403, "forbidden_origin", f"origin {origin[:200]!r} may not call this API")
        if request.method == "OPTIONS":
            if origin is None:
                return error_response(400, "bad_request", "a CORS preflight needs an Origin header")
            return Response(status=204)
        if request.path.startswith("/api/"):
            given = request.headers.get(SECRET_HEADER, "").encode("utf-8")
            if not given:
                return error_response(401, "unauthorized", f"missing {SECRET_HEADER} header")
            if not hmac.compare_digest(given, expected):
                return error_response(401, "unauthorized", f"wrong {SECRET_HEADER}")
        return None

    @app.after_request
    def _headers(resp: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin and origin_allowed(origin, request.host or ""):
            resp.headers["Access-Control-Allow-Origin"] = origin
            resp.headers["Access-Control-Allow-Headers"] = _ALLOW_HEADERS
            resp.headers["Access-Control-Allow-Methods"] = _ALLOW_METHODS
            resp.headers["Access-Control-Max-Age"] = "600"
            if request.headers.get("Access-Control-Request-Private-Network") == "true":
                resp.headers["Access-Control-Allow-Private-Network"] = "true"
        resp.headers.add("Vary", "Origin")
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Cache-Control"] = "no-store"
        return resp

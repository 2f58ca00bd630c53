"""The task pane and add-in files, served on the API's own origin (Office requires HTTPS, and one
origin means no CORS for the pane's own calls).

- ``/`` -- for a browser (``Accept: text/html``) the task pane with the per-install secret
  injected; for anything else a small JSON signpost (it tells nothing, so it needs no secret);
- ``/taskpane/...`` and ``/addin/...`` -- the files, read from :func:`gridsight.webroot.web_root`;
  ``index.html`` gets the secret injected wherever it is asked for;
- ``/manifest.xml`` -- the add-in manifest for the port this request reached.

The page that holds the secret is protected the same way the API is: the Host check defeats DNS
rebinding, foreign origins are refused, and ``frame-ancestors`` lets only Office frame it.
"""

from __future__ import annotations

import html
import mimetypes
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, jsonify, request, send_file

from gridsight.api._errors import ApiError
from gridsight.webroot import WebFilesMissingError, web_root

#: Folders under the web root that are served, and nothing else (manifests/ goes out rendered).
SERVED = ("taskpane", "addin")
SECRET_PLACEHOLDER = "__GRIDSIGHT_SECRET__"
OFFICE_PLACEHOLDER = "<!--GRIDSIGHT_OFFICE_JS-->"
#: Office.js comes from Microsoft's CDN, and only inside Office: a plain browser never waits for it.
OFFICE_JS = '<script src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"></script>'
#: Windows' registry sometimes maps .js to text/plain, which browsers refuse for modules (Flask
#: adds "; charset=utf-8" to text types).
TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".xml": "application/xml",
}
OFFICE_FRAMERS = (
    "https://*.officeapps.live.com https://*.office.com https://*.office365.com "
    "https://*.microsoft365.com https://*.officeppe.com https://*.cdn.office.net"
)
PAGE_CSP = f"frame-ancestors 'self' {OFFICE_FRAMERS}; base-uri 'none'; object-src 'none'; form-action 'self'"


def _root() -> Path:
    try:
        return web_root()
    except WebFilesMissingError as exc:
        raise ApiError(503, "web_files_missing", str(exc)) from None


def _wants_html() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "text/html" and "text/html" in (request.headers.get("Accept") or "")


def _index_page(secret: str) -> Response:
    text = (_root() / "taskpane" / "index.html").read_text(encoding="utf-8")
    body = text.replace(SECRET_PLACEHOLDER, html.escape(secret, quote=True))
    in_office = request.args.get("host") == "excel" or "_host_Info" in request.args
    body = body.replace(OFFICE_PLACEHOLDER, OFFICE_JS if in_office else "")
    resp = Response(body, mimetype="text/html")
    resp.headers["Content-Security-Policy"] = PAGE_CSP
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


def _file(folder: str, rel: str) -> Response:
    root = (_root() / folder).resolve()
    path = (root / rel).resolve()
    if not path.is_relative_to(root) or not path.is_file() or path.name.startswith("."):
        abort(404)
    ctype = TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    resp = send_file(path, mimetype=ctype, conditional=False, etag=False, max_age=0)
    resp.headers["Content-Security-Policy"] = PAGE_CSP
    return resp


def install_static(app: Flask, secret: str) -> None:
    """Mount ``/``, ``/taskpane/...``, ``/addin/...`` and ``/manifest.xml`` on the app."""

    @app.get("/")
    def index() -> Any:
        """The task pane for browsers; a JSON signpost for scripts (no secret needed: it tells nothing)."""
        if _wants_html():
            return _index_page(secret)
        return jsonify(
            {
                "service": "gridsight",
                "api": "/api/v1/",
                "openapi": "/api/v1/openapi.json",
                "taskpane": "/taskpane/index.html",
                "manifest": "/manifest.xml",
            }
        )

    @app.get("/taskpane/")
    @app.get("/taskpane/index.html")
    def taskpane_index() -> Any:
        return _index_page(secret)

    @app.get("/<any(taskpane, addin):folder>/<path:rel>")
    def static_file(folder: str, rel: str) -> Any:
        return _file(folder, rel)

    @app.get("/manifest.xml")
    def manifest() -> Any:
        from gridsight.manifest import render_manifest

        host = request.host or ""
        port_text = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else "443"
        template = (_root() / "manifests" / "manifest.xml").read_text("utf-8")
        try:
            text = render_manifest(int(port_text), template)
        except ValueError:
            abort(400)
        resp = Response(text, mimetype="application/xml")
        resp.headers["Content-Disposition"] = 'attachment; filename="gridsight-manifest.xml"'
        return resp

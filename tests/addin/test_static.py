"""The sidecar serves the task pane and add-in files on its own origin, with the secret injected
into the pane's page only, Office.js only inside Office, and nothing outside the two folders."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from gridsight.api import SECRET_HEADER, Running, client_context
from gridsight.webroot import ENV, MARKERS, WebFilesMissingError, candidates, web_root


def _get(r: Running, path: str, accept: str = "*/*", **headers: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPSConnection("localhost", r.port, context=client_context(r.certs), timeout=30)
    try:
        conn.request("GET", path, headers={"Accept": accept, **headers})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def test_root_is_the_pane_for_browsers_and_json_for_scripts(sidecar: Running) -> None:
    status, headers, body = _get(sidecar, "/", "text/html,application/xhtml+xml,*/*;q=0.8")
    assert status == 200 and headers["content-type"].startswith("text/html")
    page = body.decode()
    assert f'<meta name="gridsight-secret" content="{sidecar.secret}">' in page
    assert "appsforoffice.microsoft.com" not in page  # a plain browser never waits for Office.js
    assert "frame-ancestors 'self' https://*.officeapps.live.com" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"
    status, headers, body = _get(sidecar, "/", "application/json")
    assert status == 200 and headers["content-type"] == "application/json"
    assert sidecar.secret.encode() not in body
    assert b'"taskpane":"/taskpane/index.html"' in body.replace(b" ", b"")


def test_office_gets_office_js(sidecar: Running) -> None:
    _, _, body = _get(sidecar, "/taskpane/index.html?host=excel")
    page = body.decode()
    assert '<script src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"></script>' in page
    assert sidecar.secret in page


@pytest.mark.parametrize(
    ("path", "ctype"),
    [
        ("/taskpane/app.js", "text/javascript; charset=utf-8"),
        ("/taskpane/taskpane.css", "text/css; charset=utf-8"),
        ("/addin/bridge.js", "text/javascript; charset=utf-8"),
        ("/addin/assets/icon-32.png", "image/png"),
    ],
)
def test_files_are_served_with_their_types(sidecar: Running, path: str, ctype: str) -> None:
    status, headers, body = _get(sidecar, path)
    assert status == 200 and headers["content-type"] == ctype
    assert body == (web_root() / path.lstrip("/")).read_bytes()


@pytest.mark.parametrize(
    "path",
    [
        "/taskpane/../pyproject.toml",
        "/taskpane/%2e%2e/pyproject.toml",
        "/addin/..%2fmanifests/manifest.xml",
        "/manifests/manifest.xml",
        "/taskpane/missing.js",
        "/sidecar/gridsight/api/_security.py",
    ],
)
def test_nothing_else_is_served(sidecar: Running, path: str) -> None:
    status, _, body = _get(sidecar, path)
    assert status == 404, (path, body[:200])


def test_manifest_for_this_port(sidecar: Running) -> None:
    status, headers, body = _get(sidecar, "/manifest.xml")
    assert status == 200 and headers["content-type"].startswith("application/xml")
    assert f"https://localhost:{sidecar.port}/taskpane/index.html?host=excel".encode() in body


def test_foreign_origins_cannot_read_the_page(sidecar: Running) -> None:
    status, _, body = _get(sidecar, "/", "text/html", Origin="https://evil.example")
    assert status == 403 and sidecar.secret.encode() not in body
    status, _, body = _get(sidecar, "/", "text/html", Host="attacker.example")
    assert status == 403 and sidecar.secret.encode() not in body
    # the API itself still wants the secret
    status, _, _ = _get(sidecar, "/api/v1/health")
    assert status == 401
    status, _, _ = _get(sidecar, "/api/v1/health", **{SECRET_HEADER: sidecar.secret})
    assert status == 200


def test_web_root_search_and_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = web_root()
    for m in MARKERS:
        assert (good / m).is_file()
    monkeypatch.setenv(ENV, str(tmp_path))
    assert candidates()[0] == tmp_path
    import gridsight.webroot as wr

    monkeypatch.setattr(wr, "candidates", lambda: [tmp_path])
    wr.web_root.cache_clear()
    try:
        with pytest.raises(WebFilesMissingError, match=f"set {ENV}"):
            wr.web_root()
    finally:
        wr.web_root.cache_clear()

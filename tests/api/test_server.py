"""Transport and guard rails: HTTPS with our own CA, loopback only, the secret, CORS, Host, JSON errors."""

from __future__ import annotations

import http.client
import socket
import ssl
import stat

import pytest

from gridsight import __version__
from gridsight.api import SECRET_HEADER, Running

from .conftest import Client


def test_health_over_https_with_our_ca(client: Client) -> None:
    r = client.get("/health")
    assert r.status == 200
    doc = r.json
    assert doc["status"] == "ok" and doc["version"] == __version__
    assert set(doc["features"]) >= {"formula", "detect", "encode", "model"}
    assert r.headers["Content-Type"] == "application/json"
    assert r.headers["Cache-Control"] == "no-store"


def test_listens_on_loopback_only(running: Running) -> None:
    assert running.server._server.socket.getsockname()[0] == "127.0.0.1"


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_certificate_is_valid_for_local_names(running: Running, host: str) -> None:
    c = Client(running, host=host)
    try:
        assert c.get("/health").status == 200
    finally:
        c.close()


def test_certificate_not_trusted_without_our_ca(running: Running) -> None:
    ctx = ssl.create_default_context()  # system roots only
    conn = http.client.HTTPSConnection("localhost", running.port, context=ctx, timeout=10)
    with pytest.raises(ssl.SSLCertVerificationError):
        conn.request("GET", "/api/v1/health")
    conn.close()


def test_plain_http_gets_no_answer(running: Running) -> None:
    with socket.create_connection(("127.0.0.1", running.port), timeout=10) as s:
        s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        try:
            data = s.recv(100)
        except ConnectionResetError:
            data = b""
    assert b"HTTP/1.1 200" not in data


def test_private_keys_and_secret_are_0600(running: Running) -> None:
    for p in (running.certs.key, running.certs.ca_key, running.config.home / "api-secret"):
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/v1/health"),
        ("GET", "/api/v1/openapi.json"),
        ("GET", "/api/v1/workbooks"),
        ("POST", "/api/v1/workbooks"),
        ("GET", "/api/v1/workbooks/wb_x/range?ref=A1"),
        ("POST", "/api/v1/workbooks/wb_x/plans"),
        ("POST", "/api/v1/workbooks/wb_x/undo"),
        ("GET", "/api/v1/no-such-route"),
    ],
)
@pytest.mark.parametrize("secret", [None, "", "wrong-secret-of-some-length-0123456789"])
def test_every_api_call_needs_the_secret(client: Client, method: str, path: str, secret: str | None) -> None:
    r = client.request(method, path, {} if method == "POST" else None, secret=secret)
    assert r.status == 401
    assert r.error["code"] == "unauthorized"


@pytest.mark.parametrize(
    "origin",
    [
        "https://localhost:{port}",
        "https://127.0.0.1:{port}",
        "https://excel.officeapps.live.com",
        "https://outlook.office.com",
        "https://word-edit.officeapps.live.com",
    ],
)
def test_allowed_origins_get_cors_headers(client: Client, origin: str) -> None:
    origin = origin.format(port=client.running.port)
    r = client.get("/health", headers={"Origin": origin})
    assert r.status == 200
    assert r.headers["Access-Control-Allow-Origin"] == origin
    pre = client.request(
        "OPTIONS",
        "/api/v1/workbooks",
        secret=None,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": SECRET_HEADER,
        },
    )
    assert pre.status == 204
    assert SECRET_HEADER in pre.headers["Access-Control-Allow-Headers"]
    assert pre.headers["Access-Control-Allow-Origin"] == origin


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example",
        "http://localhost:{port}",
        "https://localhost:1",
        "https://officeapps.live.com.evil.io",
        "https://evil-office.com",
        "null-ish",
    ],
)
def test_other_origins_are_refused(client: Client, origin: str) -> None:
    origin = origin.format(port=client.running.port)
    r = client.get("/health", headers={"Origin": origin})
    assert r.status == 403
    assert r.error["code"] == "forbidden_origin"
    assert "Access-Control-Allow-Origin" not in r.headers
    pre = client.request("OPTIONS", "/api/v1/health", secret=None, headers={"Origin": origin})
    assert pre.status == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:443", "192.168.1.5"])
def test_foreign_host_names_are_refused(client: Client, host: str) -> None:
    r = client.get("/health", headers={"Host": host})
    assert r.status == 403
    assert r.error["code"] == "bad_host"


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("GET", "/api/v1/nothing-here", None, 404, "not_found"),
        ("DELETE", "/api/v1/health", None, 405, "method_not_allowed"),
        ("POST", "/api/v1/workbooks", b"{not json", 400, "bad_json"),
        ("POST", "/api/v1/workbooks", b'{"path": NaN}', 400, "bad_json"),
        ("POST", "/api/v1/workbooks", b"[" * 100_000 + b"]" * 100_000, 400, "bad_json"),
        ("POST", "/api/v1/workbooks", b"\xff\xfe\x00", 400, "bad_json"),
        ("POST", "/api/v1/workbooks", b"", 400, "empty_body"),
        ("POST", "/api/v1/workbooks", b"[1, 2]", 400, "bad_request"),
        ("POST", "/api/v1/workbooks", b'{"path": "/x.xlsx", "snapshot": {}}', 400, "bad_request"),
        ("POST", "/api/v1/workbooks", b'{"paht": "/x.xlsx"}', 400, "bad_request"),
        ("GET", "/api/v1/schemas/nope", None, 404, "not_found"),
    ],
)
def test_errors_are_json_never_html(
    client: Client, method: str, path: str, body: bytes | None, status: int, code: str
) -> None:
    r = client.request(method, path, body)
    assert r.status == status, r.body[:300]
    assert r.headers["Content-Type"] == "application/json"
    assert r.error["code"] == code
    assert b"<html" not in r.body.lower() and b"Traceback" not in r.body


def test_body_over_the_cap_is_413_json(client: Client) -> None:
    big = b'{"snapshot": "' + b"x" * (1024 * 1024 + 10) + b'"}'
    r = client.post("/workbooks", big)
    assert r.status == 413
    assert r.error["code"] == "payload_too_large"
    assert "1,048,576-byte limit" in r.error["message"]


def test_schemas_are_served(client: Client) -> None:
    assert client.get("/schemas/snapshot.v1").json["properties"]["schema"] == {
        "const": "gridsight.snapshot.v1"
    }
    assert client.get("/schemas/editplan.v1.json").json["properties"]["schema"] == {
        "const": "gridsight.editplan.v1"
    }

"""The `serve` and `cert` commands for real, the SSE helper, the live-Excel bridge (where Excel exists)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gridsight.api._sse import events, format_event
from gridsight.api._tls import client_context, ensure_certificates
from gridsight.cli import cli
from gridsight.errors import SnapshotError

REPO = Path(__file__).resolve().parents[2]


def test_cert_status_and_install_print_the_trust_step(tmp_path: Path) -> None:
    env = {"GRIDSIGHT_HOME": str(tmp_path)}
    runner = CliRunner()
    r = runner.invoke(cli, ["cert", "status", "--format", "json"], env=env)
    assert r.exit_code == 0 and json.loads(r.output) == {"folder": str(tmp_path / "tls"), "exists": False}
    r = runner.invoke(cli, ["cert", "install"], env=env)
    assert r.exit_code == 0
    ca = tmp_path / "tls" / "gridsight-ca.pem"
    assert f"GridSight's local CA is {ca}" in r.output
    assert "It can sign certificates for localhost, 127.0.0.1 and ::1 only." in r.output
    assert str(ca) in r.output.splitlines()[3]  # the OS command names the CA file
    doc = json.loads(runner.invoke(cli, ["cert", "status", "--format", "json"], env=env).output)
    assert doc["exists"] is True and doc["certificate"]["signed_by_ca"] is True
    assert doc["key_modes"] == {"gridsight-ca.key": "0o600", "localhost.key": "0o600"}
    assert 390 <= doc["certificate"]["days_left"] <= 397


def test_certificates_are_reused_then_renewed(tmp_path: Path) -> None:
    import datetime as dt

    first = ensure_certificates(tmp_path)
    ca, leaf = first.ca_cert.read_bytes(), first.cert.read_bytes()
    ensure_certificates(tmp_path)
    assert first.ca_cert.read_bytes() == ca and first.cert.read_bytes() == leaf
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=380)
    ensure_certificates(tmp_path, now=later)
    assert first.ca_cert.read_bytes() == ca  # the trusted CA stays
    assert first.cert.read_bytes() != leaf  # the leaf was renewed


def test_serve_command_end_to_end(tmp_path: Path) -> None:
    env = {**os.environ, "GRIDSIGHT_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gridsight", "serve", "--port", "0", "--demo", "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        cwd=REPO,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        facts = json.loads(line)
        assert facts["url"] == f"https://localhost:{facts['port']}"
        assert facts["secret_header"] == "X-GridSight-Secret"
        assert [Path(w["path"]).name for w in facts["workbooks"]] == ["gridsight-demo.xlsx"]
        secret = Path(facts["secret_file"]).read_text().strip()
        ctx = client_context(ensure_certificates(tmp_path))
        conn = http.client.HTTPSConnection("localhost", facts["port"], context=ctx, timeout=20)
        wid = facts["workbooks"][0]["id"]
        conn.request("GET", f"/api/v1/workbooks/{wid}/range?ref=A1", headers={"X-GridSight-Secret": secret})
        resp = conn.getresponse()
        assert resp.status == 200
        assert json.loads(resp.read())["values"] == [["Regional sales 2024"]]
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0
    assert err.strip().endswith("stopped") and "Traceback" not in err


def test_serve_refuses_a_busy_port(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = CliRunner().invoke(cli, ["serve", "--port", str(port)], env={"GRIDSIGHT_HOME": str(tmp_path)})
    assert r.exit_code == 2
    assert r.output.strip() == f"error: port {port} is already in use; choose another with --port"


def _parse(frames: list[str]) -> list[tuple[str, Any]]:
    out = []
    for f in frames:
        if f.startswith(":"):
            continue
        event, data = f.strip().split("\n")
        out.append((event.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


def test_sse_progress_then_result() -> None:
    def work(emit: Any, cancelled: threading.Event) -> Any:
        for i in range(3):
            emit("progress", {"step": i})
        emit("partial", {"text": "Sal"})
        return {"answer": "Sales"}

    frames, _ = events(work)
    assert _parse(list(frames)) == [
        ("progress", {"step": 0}),
        ("progress", {"step": 1}),
        ("progress", {"step": 2}),
        ("partial", {"text": "Sal"}),
        ("result", {"answer": "Sales"}),
    ]


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [(SnapshotError("bad chunk"), 422, "invalid_snapshot"), (RuntimeError("boom"), 500, "internal")],
)
def test_sse_errors_have_the_api_error_shape(exc: Exception, status: int, code: str) -> None:
    def work(emit: Any, cancelled: threading.Event) -> Any:
        emit("progress", {"step": 0})
        raise exc

    got = _parse(list(events(work)[0]))
    assert got[0] == ("progress", {"step": 0})
    kind, body = got[1]
    assert kind == "error" and body["status"] == status and body["error"]["code"] == code
    assert "boom" not in json.dumps(body)  # internal details stay in the log


def test_sse_heartbeat_and_cancel_on_disconnect() -> None:
    release = threading.Event()
    seen_cancel = threading.Event()

    def work(emit: Any, cancelled: threading.Event) -> Any:
        release.wait(5)
        if cancelled.wait(5):
            seen_cancel.set()
        return None

    frames, cancelled = events(work, heartbeat_s=0.05)
    assert next(frames) == ": keep-alive\n\n"
    frames.close()  # the client went away
    release.set()
    assert cancelled.is_set() and seen_cancel.wait(5)
    assert format_event("x", {"a": "b\nc"}) == 'event: x\ndata: {"a":"b\\nc"}\n\n'


def _excel_available() -> bool:
    if sys.platform not in ("win32", "darwin"):
        return False
    try:
        import xlwings

        return bool(xlwings.apps.count)
    except Exception:
        return False


@pytest.mark.skipif(
    not _excel_available(),
    reason="needs Microsoft Excel with xlwings (Windows/macOS); this machine has no Excel",
)
def test_live_excel_round_trip() -> None:  # pragma: no cover - runs only where Excel is installed
    import xlwings as xw

    from gridsight.edits import CellContent, CellWrite
    from gridsight.sources.live_excel import LiveExcelSource

    book = xw.Book()
    try:
        sheet = book.sheets[0]
        sheet["A1"].value = "Units"
        sheet["A2"].value = 3
        sheet["B2"].formula = "=A2*2"
        src = LiveExcelSource(book.name)
        wb = src.read()
        s = wb.sheets[0]
        assert s.cell("A1").value == "Units" and s.cell("B2").formula == "=A2*2" and s.cell("B2").value == 6
        src.apply_writes([CellWrite(s.name, 2, 0, CellContent("n", 4, "=A2+1"), CellContent("e", None))])
        assert sheet["A3"].formula == "=A2+1"
        with pytest.raises(Exception, match="changed in Excel"):
            src.apply_writes([CellWrite(s.name, 0, 0, CellContent("s", "x"), CellContent("s", "not Units"))])
    finally:
        book.close()


def test_live_excel_source_says_what_is_missing() -> None:
    if _excel_available():  # pragma: no cover
        pytest.skip("Excel is present; the round trip test covers it")
    from gridsight.errors import SourceNotFoundError
    from gridsight.sources.live_excel import LiveExcelSource

    with pytest.raises(SourceNotFoundError, match=r"xlwings|Excel"):
        LiveExcelSource()

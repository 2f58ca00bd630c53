"""Workbook sessions: snapshots (whole and chunked), files, range reads, streaming, bad input."""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path
from typing import Any

import pytest

from gridsight.grid import Workbook
from gridsight.sources import dump_snapshot, load_snapshot

from .conftest import Client, write_xlsx

SNAP = {
    "schema": "gridsight.snapshot.v1",
    "workbook": {"name": "Budget.xlsx"},
    "sheets": [
        {
            "name": "Plan",
            "range": "A1:C3",
            "values": [["Item", "Q1", "Q2"], ["Rent", 1200, 1250], ["Total", 1200, 1250]],
            "types": ["sss", "snn", "snn"],
            "formulas": {"B3": "=SUM(B2:B2)", "C3": "=SUM(C2:C2)"},
            "number_formats": {"B2:C3": "#,##0"},
            "styles": {"A1:C1": 1},
            "merges": [],
        }
    ],
}


def _open_snapshot(client: Client, snap: dict[str, Any] = SNAP) -> dict[str, Any]:
    r = client.post("/workbooks", {"snapshot": snap})
    assert r.status == 201, r.body
    return r.json  # type: ignore[no-any-return]


def test_snapshot_session_and_range_read(client: Client) -> None:
    info = _open_snapshot(client)
    assert info["kind"] == "snapshot" and info["name"] == "Budget.xlsx"
    assert info["sheets"] == [
        {"name": "Plan", "used_range": "A1:C3", "values": 9, "formulas": 2, "merges": 0}
    ]
    r = client.get(f"/workbooks/{info['id']}/range?ref=Plan!B2:C3")
    assert r.status == 200
    assert r.json == {
        "sheet": "Plan",
        "range": "B2:C3",
        "values": [[1200, 1250], [1200, 1250]],
        "types": ["nn", "nn"],
        "formulas": {"B3": "=SUM(B2:B2)", "C3": "=SUM(C2:C2)"},
        "number_formats": {"B2": "#,##0", "C2": "#,##0", "B3": "#,##0", "C3": "#,##0"},
    }
    assert client.get("/workbooks").json["workbooks"][-1]["id"] == info["id"]


def _chunks(wb: Workbook, n: int, uid: str) -> list[dict[str, Any]]:
    doc = dump_snapshot(wb)
    out = []
    sheets = doc["sheets"]
    for i in range(n):
        part = {
            "schema": doc["schema"],
            "workbook": doc["workbook"],
            "chunk": {"id": uid, "index": i, "count": n},
            "sheets": sheets[i::n],
        }
        out.append(part)
    return out


def test_chunked_upload_in_any_order(client: Client) -> None:
    wb = Workbook.from_dict(
        {f"S{i}": {"A1": f"sheet {i}", "B2": i, "C3": f"=B2*{i}"} for i in range(6)}, name="Big.xlsx"
    )
    chunks = _chunks(wb, 3, "upload-1")
    random.Random(7).shuffle(chunks)
    statuses = []
    for ch in chunks:
        r = client.post("/workbooks/chunks", ch)
        statuses.append(r.status)
    assert statuses == [202, 202, 201]
    info = r.json
    assert [s["name"] for s in info["sheets"]] == [f"S{i}" for i in (0, 3, 1, 4, 2, 5)]
    got = client.get(f"/workbooks/{info['id']}/range?ref=S4!A1:C3").json
    assert got["values"] == [["sheet 4", None, None], [None, 4, None], [None, None, None]]
    assert got["formulas"] == {"C3": "=B2*4"}
    assert load_snapshot(chunks).sheet("S4") == wb.sheet("S4")


def test_chunk_replayed_or_inconsistent(client: Client) -> None:
    wb = Workbook.from_dict({"A": {"A1": 1}, "B": {"A1": 2}})
    first, second = _chunks(wb, 2, "upload-2")
    assert client.post("/workbooks/chunks", first).status == 202
    dup = client.post("/workbooks/chunks", first)
    assert dup.status == 409 and dup.error["code"] == "duplicate_chunk"
    other_count = {**second, "chunk": {"id": "upload-2", "index": 1, "count": 3}}
    bad = client.post("/workbooks/chunks", other_count)
    assert bad.status == 409 and bad.error["code"] == "bad_chunk"
    assert client.post("/workbooks/chunks", second).status == 201


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda s: s["sheets"][0].update(values=[["a", "b", "c"]] * 4), "has 3 rows, values has 4"),
        (
            lambda s: s["sheets"][0].update(values=[["a", "b"]] * 3, types=["ss"] * 3),
            "values row 0 has 2 cells",
        ),
        (lambda s: s["sheets"][0].update(types=["sss", "snn", "sbn"]), "type b needs true or false"),
        (lambda s: s["sheets"][0].update(range="A1:ZZZZ9"), "snapshot.v1 invalid at sheets/0/range"),
        (lambda s: s.update(schema="gridsight.snapshot.v9"), "snapshot.v1 invalid at schema"),
        (
            lambda s: s["sheets"][0].update(formulas={"B3": "SUM(B2)"}),
            "snapshot.v1 invalid at sheets/0/formulas/B3",
        ),
        (lambda s: s["sheets"][0].update(name="a/b"), "snapshot.v1 invalid at sheets/0/name"),
        (lambda s: s["sheets"][0].update(types=["sxs", "snn", "snn"]), "is not an Excel error value"),
    ],
)
def test_lying_snapshots_are_422(client: Client, mutate: Any, fragment: str) -> None:
    snap = json.loads(json.dumps(SNAP))
    mutate(snap)
    r = client.post("/workbooks", {"snapshot": snap})
    assert r.status == 422, r.body
    assert r.error["code"] == "invalid_snapshot"
    assert fragment in r.error["message"]


def test_chunk_sent_to_the_plain_endpoint(client: Client) -> None:
    snap = {**SNAP, "chunk": {"id": "x", "index": 0, "count": 2}}
    r = client.post("/workbooks", {"snapshot": snap})
    assert r.status == 422 and "POST /api/v1/workbooks/chunks" in r.error["message"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/workbooks/wb_nope"),
        ("DELETE", "/workbooks/wb_nope"),
        ("GET", "/workbooks/wb_nope/range?ref=A1"),
        ("POST", "/workbooks/wb_nope/plans"),
        ("GET", "/workbooks/wb_nope/plans/plan_x"),
        ("POST", "/workbooks/wb_nope/plans/plan_x/preview"),
        ("POST", "/workbooks/wb_nope/plans/plan_x/apply"),
        ("POST", "/workbooks/wb_nope/undo"),
        ("GET", "/workbooks/wb_nope/journal"),
        ("POST", "/workbooks/wb_nope/reload"),
        ("POST", "/workbooks/wb_nope/formula/evaluate"),
        ("GET", "/workbooks/wb_nope/detect"),
    ],
)
def test_unknown_workbook_ids_are_404(client: Client, method: str, path: str) -> None:
    r = client.request(
        method,
        "/api/v1" + path,
        {"writes": [{"cell": "A1", "value": 1}], "formula": "=1"} if method == "POST" else None,
    )
    assert r.status == 404
    assert r.error["code"] == "unknown_workbook"
    assert "wb_nope" in r.error["message"]


def test_file_session_reads_real_xlsx(client: Client, tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "sales.xlsx")
    r = client.post("/workbooks", {"path": str(path)})
    assert r.status == 201, r.body
    info = r.json
    assert info["kind"] == "file" and info["path"] == str(path.resolve()) and len(info["sha256"]) == 64
    assert [s["name"] for s in info["sheets"]] == ["Sales", "Other"]
    got = client.get(f"/workbooks/{info['id']}/range?ref=A1:F3").json
    assert got["values"] == [
        ["Month", "Units", "Price", "Revenue", "Checked", "#N/A"],
        [45292, 10, 2.5, None, True, None],
        [45323, 12, 2.75, None, None, None],
    ]
    assert got["types"] == ["sssssx", "dnnebe", "dnneee"]
    assert got["formulas"] == {"D2": "=B2*C2", "D3": "=B3*C3"}
    assert got["number_formats"] == {
        "A2": "yyyy-mm-dd",
        "C2": "#,##0.00",
        "A3": "yyyy-mm-dd",
        "C3": "#,##0.00",
    }
    assert client.delete(f"/workbooks/{info['id']}").status == 204
    assert client.get(f"/workbooks/{info['id']}").status == 404


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"path": "/no/such/file.xlsx"}, 404, "file_not_found"),
        ({"path": "relative/file.xlsx"}, 400, "bad_request"),
        ({"path": ""}, 400, "bad_request"),
        ({"path": "/etc"}, 422, "unsupported_format"),
        ({"xlwings": {}}, 503, "feature_unavailable"),
        ({"path": "/x.xlsx", "sheets": "Sales"}, 400, "bad_request"),
    ],
)
def test_bad_open_requests(client: Client, body: dict[str, Any], status: int, code: str) -> None:
    r = client.post("/workbooks", body)
    assert r.status == status, r.body
    assert r.error["code"] == code


def test_corrupt_file_is_422(client: Client, tmp_path: Path) -> None:
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    r = client.post("/workbooks", {"path": str(bad)})
    assert r.status == 422 and r.error["code"] == "corrupt_file"


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("ref=A1:Z1000", 413, "range_too_large"),
        ("ref=A1:B2&sheet=Nope", 404, "unknown_sheet"),
        ("ref=A1:", 400, "bad_range"),
        ("", 400, "bad_request"),
        ("ref=Nope!A1", 404, "unknown_sheet"),
    ],
)
def test_bad_range_reads(client: Client, query: str, status: int, code: str) -> None:
    wid = _open_snapshot(client)["id"]
    r = client.get(f"/workbooks/{wid}/range?{query}")
    assert r.status == status, r.body
    assert r.error["code"] == code


def test_whole_column_reads_are_clipped_to_the_used_range(client: Client) -> None:
    wid = _open_snapshot(client)["id"]
    got = client.get(f"/workbooks/{wid}/range?ref=B:B").json
    assert got["range"] == "B1:B3" and got["values"] == [["Q1"], [1200], [1200]]


def test_open_file_streams_progress_then_result(client: Client, tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "stream.xlsx")
    r = client.post("/workbooks", {"path": str(path)}, headers={"Accept": "text/event-stream"})
    assert r.status == 200
    assert r.headers["Content-Type"].startswith("text/event-stream")
    frames = [f for f in r.body.decode().split("\n\n") if f.strip()]
    events = [
        (f.split("\n")[0].removeprefix("event: "), json.loads(f.split("\n")[1].removeprefix("data: ")))
        for f in frames
    ]
    assert [e for e, _ in events[:-1]] == ["progress"] * (len(events) - 1) and len(events) >= 2
    assert events[0][1]["sheet"] == "Sales"
    kind, result = events[-1]
    assert kind == "result" and result["kind"] == "file" and result["name"] == "stream.xlsx"
    assert client.get(f"/workbooks/{result['id']}").status == 200


def test_stream_reports_errors_as_events(client: Client, tmp_path: Path) -> None:
    missing = client.post("/workbooks", {"path": "/no/such.xlsx"}, headers={"Accept": "text/event-stream"})
    assert missing.status == 404  # found before streaming starts: a plain JSON error
    bad = tmp_path / "not-a-workbook.xlsx"  # a real zip, so it passes the up-front sniff
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("hello.txt", "not a workbook")
    r = client.post("/workbooks", {"path": str(bad)}, headers={"Accept": "text/event-stream"})
    assert r.status == 200
    frame = r.body.decode().strip()
    assert frame.startswith("event: error\ndata: ")
    doc = json.loads(frame.split("data: ", 1)[1])
    assert doc["status"] == 422 and doc["error"]["code"] == "corrupt_file"


def test_formula_feature_evaluates_on_the_session(client: Client) -> None:
    wid = _open_snapshot(client)["id"]
    r = client.post(f"/workbooks/{wid}/formula/evaluate", {"formula": "=SUM(B2:C2)", "sheet": "Plan"})
    assert r.status == 200 and r.json["value"] == 2450 and r.json["ok"] is True
    bad = client.post(f"/workbooks/{wid}/formula/evaluate", {"formula": '=WEBSERVICE("http://x")'})
    assert bad.json["ok"] is False and bad.json["refused"] is True

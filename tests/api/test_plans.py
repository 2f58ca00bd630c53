"""Edit plans end to end over HTTPS: preview, apply to a real file, conflicts, replays, undo, restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from gridsight.api import start_server
from gridsight.edits import validate_editplan

from .conftest import Client, write_xlsx

WRITES = [
    {"cell": "D4", "formula": "=SUM(D2:D3)"},
    {"cell": "B2", "value": 20},
    {"cell": "A1", "value": "Month start"},
    {"cell": "C3", "value": 3, "number_format": "0.000"},
    {"cell": "E2", "value": None},
]


def _cells(path: Path) -> dict[str, tuple[Any, str, str]]:
    """Every cell of every sheet as (value, data type, number format): what "exactly restored" means."""
    wb = openpyxl.load_workbook(path)
    out = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.value is not None or c.number_format != "General":
                    out[f"{ws.title}!{c.coordinate}"] = (c.value, c.data_type, c.number_format)
    return out


def _open(client: Client, path: Path) -> str:
    r = client.post("/workbooks", {"path": str(path)})
    assert r.status == 201, r.body
    return r.json["id"]  # type: ignore[no-any-return]


def _plan(client: Client, wid: str, writes: list[dict[str, Any]] = WRITES, **extra: Any) -> str:
    r = client.post(f"/workbooks/{wid}/plans", {"writes": writes, **extra})
    assert r.status == 201, r.body
    return r.json["id"]  # type: ignore[no-any-return]


def test_preview_apply_undo_on_a_file(client: Client, tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "book.xlsx")
    original_bytes, original = path.read_bytes(), _cells(path)
    wid = _open(client, path)
    pid = _plan(client, wid, description="totals")
    pv = client.post(f"/workbooks/{wid}/plans/{pid}/preview")
    assert pv.status == 200
    doc = pv.json
    assert doc["ok"] is True and doc["conflicts"] == 0 and doc["checked_by"] == "gridsight.formula"
    d4 = doc["cells"][0]
    assert d4["before"] == {"type": "e", "value": None, "formula": None, "number_format": "General"}
    # B2 becomes 20 in the same plan, so D2 (=B2*C2) is stale in the model; D4 sums the cached results.
    assert d4["after"]["formula"] == "=SUM(D2:D3)" and d4["formula_check"]["ok"] is True
    assert doc["cells"][1]["before"]["value"] == 10 and doc["cells"][1]["after"]["value"] == 20

    ap = client.post(f"/workbooks/{wid}/plans/{pid}/apply")
    assert ap.status == 200, ap.body
    res = ap.json
    assert res["target"] == "file" and res["cells_written"] == 5 and res["plan_id"] == pid
    assert Path(res["backup"]).read_bytes() == original_bytes
    after = _cells(path)
    assert after["Sales!D4"] == ("=SUM(D2:D3)", "f", "General")
    assert after["Sales!B2"] == (20, "n", "General")
    assert after["Sales!A1"] == ("Month start", "s", "General")
    assert after["Sales!C3"] == (3, "n", "0.000")
    assert "Sales!E2" not in after
    assert after["Sales!F1"] == original["Sales!F1"] and after["Other!A1"] == original["Other!A1"]
    # The session follows the file.
    got = client.get(f"/workbooks/{wid}/range?ref=B2").json
    assert got["values"] == [[20]]

    again = client.post(f"/workbooks/{wid}/plans/{pid}/apply")
    assert again.status == 409 and again.error["code"] == "plan_state"
    assert "already applied" in again.error["message"]

    journal = client.get(f"/workbooks/{wid}/journal").json["entries"]
    assert [(e["id"], e["target"], e["cells"], e["description"]) for e in journal] == [
        (pid, "file", 5, "totals")
    ]

    un = client.post(f"/workbooks/{wid}/undo")
    assert un.status == 200, un.body
    assert un.json["undone_plan_id"] == pid and un.json["cells_restored"] == 5
    assert _cells(path) == original
    assert client.get(f"/workbooks/{wid}/range?ref=B2").json["values"] == [[10]]

    nothing = client.post(f"/workbooks/{wid}/undo")
    assert nothing.status == 409 and nothing.error["code"] == "nothing_to_undo"


def test_file_changed_between_preview_and_apply(client: Client, tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "race.xlsx")
    wid = _open(client, path)
    pid = _plan(client, wid, [{"cell": "B2", "value": 99}])
    assert client.post(f"/workbooks/{wid}/plans/{pid}/preview").json["ok"] is True
    wb = openpyxl.load_workbook(path)  # someone else saves the file meanwhile (another cell)
    wb["Sales"]["H1"] = "edited elsewhere"
    wb.save(path)
    changed = path.read_bytes()
    r = client.post(f"/workbooks/{wid}/plans/{pid}/apply")
    assert r.status == 409
    assert r.error["code"] == "file_changed"
    assert "changed on disk since it was previewed" in r.error["message"]
    assert path.read_bytes() == changed and not (tmp_path / "race.xlsx.bak").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.xlsx"]  # no temp files left
    # A new preview also refuses until the workbook is reloaded; then the plan can be made again.
    again = client.post(f"/workbooks/{wid}/plans/{pid}/preview")
    assert again.status == 409 and again.error["code"] == "file_changed"
    assert client.post(f"/workbooks/{wid}/reload").status == 200
    pid2 = _plan(client, wid, [{"cell": "B2", "value": 99}])
    assert client.post(f"/workbooks/{wid}/plans/{pid2}/preview").json["ok"] is True
    assert client.post(f"/workbooks/{wid}/plans/{pid2}/apply").status == 200
    assert _cells(path)["Sales!H1"] == ("edited elsewhere", "s", "General")
    assert _cells(path)["Sales!B2"] == (99, "n", "General")


def test_expected_content_mismatch_is_a_conflict(client: Client, tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "conflict.xlsx")
    wid = _open(client, path)
    writes = [
        {"cell": "B2", "value": 11, "expected": {"type": "n", "value": 10, "formula": None}},
        {"cell": "B3", "value": 13, "expected": {"type": "n", "value": 999, "formula": None}},
    ]
    pid = _plan(client, wid, writes)
    pv = client.post(f"/workbooks/{wid}/plans/{pid}/preview").json
    assert pv["ok"] is False and pv["conflicts"] == 1
    assert [c["conflict"] for c in pv["cells"]] == [False, True]
    before = path.read_bytes()
    r = client.post(f"/workbooks/{wid}/plans/{pid}/apply")
    assert r.status == 409 and r.error["code"] == "conflict"
    assert r.error["detail"]["conflicts"] == [
        {
            "sheet": "Sales",
            "cell": "B3",
            "expected": {"type": "n", "value": 999, "formula": None},
            "found": {"type": "n", "value": 12, "formula": None, "number_format": "General"},
        }
    ]
    assert path.read_bytes() == before


def test_refused_and_invalid_formulas_block_apply(client: Client, tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "refuse.xlsx")
    wid = _open(client, path)
    writes = [
        {"cell": "G1", "formula": '=WEBSERVICE("https://example.com")'},
        {"cell": "G2", "formula": "=cmd|' /C calc'!A0"},
        {"cell": "G3", "formula": "=FOOBAR(1)"},
        {"cell": "G4", "formula": "=SUM(B2:B3"},
        {"cell": "G5", "formula": "=1/0"},
        {"cell": "G6", "formula": "=SUM(B2:B3)"},
    ]
    pid = _plan(client, wid, writes)
    pv = client.post(f"/workbooks/{wid}/plans/{pid}/preview").json
    assert pv["ok"] is False and pv["invalid"] == 5
    problems = [c["problems"] for c in pv["cells"]]
    assert any("WEBSERVICE is not allowed" in p for p in problems[0])
    assert any("DDE" in p or "outside this workbook" in p for p in problems[1])
    assert problems[2] and "FOOBAR" in problems[2][0]
    assert problems[3]
    assert any("#DIV/0!" in p for p in problems[4])
    assert problems[5] == [] and pv["cells"][5]["after"]["value"] == 22
    before = path.read_bytes()
    r = client.post(f"/workbooks/{wid}/plans/{pid}/apply")
    assert r.status == 422 and r.error["code"] == "invalid_plan"
    assert {p["cell"] for p in r.error["detail"]["problems"]} == {"G1", "G2", "G3", "G4", "G5"}
    assert path.read_bytes() == before


def test_apply_needs_a_preview(client: Client, tmp_path: Path) -> None:
    wid = _open(client, write_xlsx(tmp_path / "np.xlsx"))
    pid = _plan(client, wid, [{"cell": "B2", "value": 1}])
    r = client.post(f"/workbooks/{wid}/plans/{pid}/apply")
    assert r.status == 409 and "must be previewed" in r.error["message"]
    assert client.post(f"/workbooks/{wid}/plans/plan_nope/apply").error["code"] == "unknown_plan"


@pytest.mark.parametrize(
    ("writes", "fragment"),
    [
        ([], "non-empty `writes`"),
        ([{"cell": "B2"}], "exactly one of `formula` or `value`"),
        ([{"cell": "B2", "value": 1, "formula": "=1"}], "exactly one of"),
        ([{"cell": "B2:B3", "value": 1}], "one cell"),
        ([{"cell": "ZZZZ1", "value": 1}], "writes[0]"),
        ([{"cell": "B2", "value": "=1+1"}], "starts with '='"),
        ([{"cell": "B2", "formula": "SUM(A1)"}], "starting with '='"),
        ([{"cell": "Nope!B2", "value": 1}], "no sheet named 'Nope'"),
        ([{"cell": "B2", "value": 1}, {"cell": "b2", "value": 2}], "already written by writes[0]"),
        ([{"cell": "B2", "value": {"x": 1}}], "writes[0]"),
        ([{"cell": "B2", "value": 1, "colour": "red"}], "unknown field(s) colour"),
        ([{"cell": "B2", "value": 1, "expected": {"type": "q"}}], "type must be one of"),
        ([{"cell": "B2", "value": "#N/A"}], "error values"),
        ([{"cell": "B2", "value": "x" * 32768}], "32,767"),
    ],
)
def test_malformed_plans_are_422(client: Client, tmp_path: Path, writes: list[Any], fragment: str) -> None:
    wid = _open(client, write_xlsx(tmp_path / "m.xlsx"))
    r = client.post(f"/workbooks/{wid}/plans", {"writes": writes})
    assert r.status == 422, r.body
    assert r.error["code"] == "invalid_plan"
    assert fragment in r.error["message"]


def test_snapshot_apply_returns_editplan_v1_and_undo_inverts_it(client: Client) -> None:
    snap = {
        "schema": "gridsight.snapshot.v1",
        "workbook": {"name": "Live.xlsx"},
        "sheets": [{"name": "S", "range": "A1:B2", "values": [[1, 2], [3, None]], "types": ["nn", "ne"]}],
    }
    wid = client.post("/workbooks", {"snapshot": snap, "journal_key": "live-test"}).json["id"]
    pid = _plan(client, wid, [{"cell": "B2", "formula": "=A1+B1+A2"}, {"cell": "A1", "value": 10}], id="p-1")
    assert client.post(f"/workbooks/{wid}/plans/{pid}/preview").json["ok"] is True
    res = client.post(f"/workbooks/{wid}/plans/{pid}/apply").json
    assert res["target"] == "snapshot"
    doc = res["editplan"]
    validate_editplan(doc)
    assert doc["kind"] == "apply" and doc["id"] == "p-1"
    assert doc["actions"] == [
        {
            "sheet": "S",
            "cell": "B2",
            "write": {"type": "e", "value": None, "formula": "=A1+B1+A2"},
            "expected": {"type": "e", "value": None, "formula": None, "number_format": "General"},
        },
        {
            "sheet": "S",
            "cell": "A1",
            "write": {"type": "n", "value": 10, "formula": None},
            "expected": {"type": "n", "value": 1, "formula": None, "number_format": "General"},
        },
    ]
    assert client.get(f"/workbooks/{wid}/range?ref=A1:B2").json["values"] == [[10, 2], [3, 15]]
    # Replays: the same id again on this workbook is refused, even in a new session of it.
    wid2 = client.post("/workbooks", {"snapshot": snap, "journal_key": "live-test"}).json["id"]
    replay = client.post(f"/workbooks/{wid2}/plans", {"writes": [{"cell": "A1", "value": 10}], "id": "p-1"})
    assert replay.status == 409 and "replayed" in replay.error["message"]
    un = client.post(f"/workbooks/{wid}/undo").json
    validate_editplan(un["editplan"])
    assert un["editplan"]["kind"] == "undo"
    assert [
        (a["cell"], a["write"]["value"], a["write"]["formula"], a["expected"]["formula"])
        for a in un["editplan"]["actions"]
    ] == [("B2", None, None, "=A1+B1+A2"), ("A1", 1, None, None)]
    assert client.get(f"/workbooks/{wid}/range?ref=A1:B2").json["values"] == [[1, 2], [3, None]]


def test_undo_survives_a_restart(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = write_xlsx(tmp_path / "restart.xlsx")
    original = _cells(path)
    first = start_server(0, home, threads=2)
    try:
        c = Client(first)
        wid = _open(c, path)
        pid = _plan(c, wid, [{"cell": "A2", "value": "not a date"}, {"cell": "D2", "value": 0}])
        assert c.post(f"/workbooks/{wid}/plans/{pid}/preview").json["ok"] is True
        assert c.post(f"/workbooks/{wid}/plans/{pid}/apply").status == 200
        c.close()
    finally:
        first.stop()
    assert _cells(path)["Sales!A2"] == ("not a date", "s", "yyyy-mm-dd")
    second = start_server(0, home, threads=2)
    try:
        c = Client(second)
        wid = _open(c, path)
        r = c.post(f"/workbooks/{wid}/undo")
        assert r.status == 200, r.body
        assert r.json["undone_plan_id"] == pid
        c.close()
    finally:
        second.stop()
    assert _cells(path) == original  # the date, its format, and the formula are back exactly

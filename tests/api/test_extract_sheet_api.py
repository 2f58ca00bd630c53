"""Extracted records to a new sheet over the real HTTPS server: POST …/extract/sheet makes an edit plan,
which is previewed, applied (atomically, to the real .xlsx) and undone with the ordinary plan routes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from .conftest import write_assay

SCHEMA = [
    {"value": "xx", "type": "Other"},
    {"value": "xx", "type": "IC50", "unit": "xx", "compound": "xx"},
]


def _open(client: Any, path: Path) -> str:
    r = client.post("/workbooks", {"path": str(write_assay(path))})
    assert r.status == 201, r.body
    return str(r.json["id"])


def test_records_to_a_new_sheet_preview_apply_undo(client: Any, tmp_path: Path) -> None:
    book = tmp_path / "assay.xlsx"
    wid = _open(client, book)
    records = client.post(f"/workbooks/{wid}/extract", {"schema": SCHEMA, "range": "A1:C3"}).json["records"]
    assert len(records) == 4
    before = book.read_bytes()
    plan = client.post(f"/workbooks/{wid}/extract/sheet", {"records": records, "sheet_name": "Records"})
    assert plan.status == 201, plan.body
    assert plan.json["sheet"] == "Records" and plan.json["rows"] == 5
    pid = plan.json["id"]
    pv = client.post(f"/workbooks/{wid}/plans/{pid}/preview")
    assert pv.status == 200 and pv.json["ok"] is True and pv.json["conflicts"] == 0, pv.body
    assert book.read_bytes() == before  # a preview writes nothing
    done = client.post(f"/workbooks/{wid}/plans/{pid}/apply")
    assert done.status == 200, done.body
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames == ["Assay", "Records"]
    rows = [[c.value for c in r] for r in wb["Records"].iter_rows()]
    assert rows[0][:5] == ["address", "value", "type", "unit", "compound"]
    assert rows[1][:4] == ["B2", "12", "IC50", "nM"] and len(rows) == 5
    assert "text" not in rows[0] and "filled_by" not in rows[0]
    info = client.get(f"/workbooks/{wid}").json
    assert [s["name"] for s in info["sheets"]] == ["Assay", "Records"]
    # The same name again is refused before anything is planned.
    again = client.post(f"/workbooks/{wid}/extract/sheet", {"records": records, "sheet_name": "records"})
    assert again.status == 422 and "already has a sheet" in again.error["message"]
    undo = client.post(f"/workbooks/{wid}/undo")
    assert undo.status == 200, undo.body
    assert openpyxl.load_workbook(book).sheetnames == ["Assay"]
    assert [s["name"] for s in client.get(f"/workbooks/{wid}").json["sheets"]] == ["Assay"]


def test_hostile_records_and_names(client: Any, tmp_path: Path) -> None:
    book = tmp_path / "assay.xlsx"
    wid = _open(client, book)
    before = book.read_bytes()
    good = [{"address": "B2", "value": "12", "type": "IC50"}]
    for body, status, words in (
        ({"records": good}, 400, "sheet_name"),
        ({"records": good, "sheet_name": "a/b"}, 422, "not a valid sheet name"),
        ({"records": good, "sheet_name": "x" * 32}, 422, "not a valid sheet name"),
        ({"records": good, "sheet_name": 5}, 400, "sheet_name"),
        ({"records": [], "sheet_name": "R"}, 400, "non-empty"),
        ({"records": "B2", "sheet_name": "R"}, 400, "records"),
        ({"records": [1, 2], "sheet_name": "R"}, 400, "records[0]"),
        ({"records": [{"value": {"nested": 1}}], "sheet_name": "R"}, 400, "records[0].value"),
        ({"records": [{"": 1}], "sheet_name": "R"}, 400, "key"),
        ({"records": [{"a": 1}] * 10_001, "sheet_name": "R"}, 413, "records"),
        ({"records": good, "sheet_name": "R", "path": "/etc/passwd"}, 400, "unknown field"),
    ):
        r = client.post(f"/workbooks/{wid}/extract/sheet", body)
        assert r.status == status, (str(body)[:80], r.body[:300])
        assert words.lower() in r.error["message"].lower(), r.error
    assert client.post(f"/workbooks/{wid}/extract/sheet", b'{"records": [').error["code"] == "bad_json"
    # A value that looks like a formula is written as text, never as a formula.
    evil = [{"address": "B2", "value": '=HYPERLINK("file:///etc/passwd")', "type": "=CALL(1)"}]
    pid = client.post(f"/workbooks/{wid}/extract/sheet", {"records": evil, "sheet_name": "R"}).json["id"]
    assert client.post(f"/workbooks/{wid}/plans/{pid}/preview").json["ok"] is True
    assert client.post(f"/workbooks/{wid}/plans/{pid}/apply").status == 200
    cell = openpyxl.load_workbook(book)["R"]["B2"]
    assert cell.value == '=HYPERLINK("file:///etc/passwd")' and cell.data_type == "s"
    assert client.post(f"/workbooks/{wid}/undo").status == 200
    assert book.read_bytes() != before or openpyxl.load_workbook(book).sheetnames == ["Assay"]
    assert openpyxl.load_workbook(book).sheetnames == ["Assay"]


def test_hostile_schemas_are_400s(client: Any, tmp_path: Path) -> None:
    wid = _open(client, tmp_path / "assay.xlsx")
    deep: Any = {"type": "object"}
    for _ in range(200):
        deep = {"oneOf": [deep]}
    for schema in (
        {"$ref": "https://example.invalid/schema.json"},  # never fetched
        deep,
        '[{"value": ',
        [{"value": "xx", "type": "Other"}] * 100,
        {"type": 12},
        [],
        "",
    ):
        r = client.post(f"/workbooks/{wid}/extract", {"schema": schema, "range": "A1:C3"})
        assert r.status == 400, (str(schema)[:80], r.body[:300])
        assert r.error["message"], r.error

"""Edit plans without HTTP: content rules, formula policy, atomic file writes, the on-disk journal."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from gridsight.edits import (
    CellContent,
    EditPlan,
    Journal,
    apply_plan,
    apply_to_file,
    content_of_raw,
    editplan_document,
    fingerprint,
    house_policy,
    parse_writes,
    patch_workbook,
    preview_writes,
    read_raw,
    same_value,
    undo_last,
    validate_editplan,
)
from gridsight.edits._check import _fallback_check
from gridsight.edits._xlsx import FileWrite
from gridsight.errors import (
    EditConflictError,
    EditPlanError,
    FileChangedError,
    GridSightError,
    NothingToUndoError,
)
from gridsight.grid import Workbook
from gridsight.sources import open_workbook


@pytest.mark.parametrize(
    ("t1", "v1", "t2", "v2", "same"),
    [
        ("n", 1, "n", 1.0, True),
        ("n", 0.1 + 0.2, "n", 0.3, True),
        ("n", 1, "n", 1.0001, False),
        ("d", 45292, "n", 45292, True),
        ("s", "1", "n", 1, False),
        ("e", None, "s", "", True),
        ("e", None, "n", 0, False),
        ("b", True, "n", 1, False),
        ("s", "abc", "s", "ABC", False),
        ("x", "#N/A", "s", "#N/A", False),
        ("x", "#N/A", "x", "#N/A", True),
    ],
)
def test_value_equality(t1: str, v1: Any, t2: str, v2: Any, same: bool) -> None:
    assert same_value(t1, v1, t2, v2) is same
    assert same_value(t2, v2, t1, v1) is same


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (CellContent("e", None, "=A1"), CellContent("n", 5, "=A1"), True),  # cached results are not compared
        (CellContent("e", None, "=A1"), CellContent("e", None, "=A2"), False),
        (CellContent("n", 5), CellContent("n", 5, "=A1"), False),
        (CellContent("n", 5, None, "0.00"), CellContent("n", 5, None, "General"), True),  # formats are looks
    ],
)
def test_content_equality(a: CellContent, b: CellContent, same: bool) -> None:
    assert a.same_content(b) is same


@pytest.mark.parametrize(
    ("formula", "refused"),
    [
        ('=WEBSERVICE("http://x")', ["WEBSERVICE is not allowed: it fetches data from the internet"]),
        ('=_xlfn.WEBSERVICE("http://x")', ["WEBSERVICE is not allowed: it fetches data from the internet"]),
        ('=CALL("kernel32","x","J")', ["CALL is not allowed: it calls code in a DLL"]),
        ('=REGISTER("a","b")', ["REGISTER is not allowed: it registers code from a DLL"]),
        (
            '=FILTERXML(A1,"//a")',
            ["FILTERXML is not allowed: it parses XML fetched from outside the workbook"],
        ),
        ("=cmd|' /C calc'!A0", ["DDE links (program|topic!item) are not allowed: they start other programs"]),
        ('=DDE("excel","sheet","r1c1")', ["DDE is not allowed: it opens a DDE channel to another program"]),
        ('="WEBSERVICE(x) | CALL("&A1', []),  # inside a string literal: just text
        ("=SUM(A1:A3)", []),
    ],
)
def test_house_policy(formula: str, refused: list[str]) -> None:
    assert house_policy(formula) == refused


@pytest.mark.parametrize(
    ("formula", "ok", "problem"),
    [
        ("=SUM(A1:A3)+XLOOKUP(1,A:A,B:B)", True, None),
        ("=FOO(1)", False, "FOO is not a known Excel function (#NAME?)"),
        ("=SUM(A1", False, "it does not parse: Mismatched or misplaced parentheses!"),
    ],
)
def test_fallback_checker_parses_and_checks_names(formula: str, ok: bool, problem: str | None) -> None:
    wb = Workbook.from_dict({"S": {"A1": 1}})
    check = _fallback_check(formula, wb, "S", 0, 1)
    assert check.ok is ok and check.checked_by == "formulas-parse"
    assert list(check.problems) == ([problem] if problem else [])


def _book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws["A1"] = dt.datetime(2024, 5, 17, 13, 30)
    ws["A1"].number_format = "yyyy-mm-dd hh:mm"
    ws["A2"] = dt.time(8, 15)
    ws["A2"].number_format = "h:mm"
    ws["B1"] = "=A1+1"
    ws["B2"] = 7
    ws["B2"].number_format = "0.0%"
    ws["C1"] = True
    ws["C2"] = "#DIV/0!"
    ws["D1"] = "text"
    ws["D2"] = 12345678901234
    ws["E1"] = "=1"  # becomes a formula in openpyxl; we check the text case below
    ws["E2"] = "'quoted"
    wb.save(path)
    # Make E1 the *text* "=1" (a string cell), which naive writers turn into a formula.
    wb = openpyxl.load_workbook(path)
    wb["S"]["E1"].value = "=1"
    wb["S"]["E1"].data_type = "s"
    wb.save(path)
    return path


CELLS = [("S", r, c) for r in range(2) for c in range(5)]


def test_apply_and_undo_restore_every_kind_exactly(tmp_path: Path) -> None:
    path = _book(tmp_path / "kinds.xlsx")
    before = read_raw(path, CELLS)
    assert before[4] == {"t": "s", "v": "=1", "nf": "General"}
    wb = open_workbook(path)
    writes = parse_writes(
        {"writes": [{"cell": f"{'ABCDE'[c]}{r + 1}", "value": f"new {r}{c}"} for _s, r, c in CELLS]}, wb
    )
    # E1 as text "=1": the model reads it as text, so the expected content matches the file.
    plan = EditPlan("p1", "wb", tuple(writes))
    preview = preview_writes(writes, wb)
    assert preview.ok
    plan.status, plan.preview_fingerprint = "previewed", fingerprint(path)
    journal = Journal(tmp_path / "journal")
    done = apply_plan(plan, preview, wb, journal, "file:" + str(path), path=path)
    assert [r["v"] for r in read_raw(path, CELLS)] == [f"new {r}{c}" for _s, r, c in CELLS]
    assert (tmp_path / "kinds.xlsx.bak").exists()
    # A fresh Journal object (as after a restart) finds the entry.
    undone = undo_last(done.workbook, Journal(tmp_path / "journal"), "file:" + str(path), path=path)
    assert read_raw(path, CELLS) == before
    assert undone.result["cells_restored"] == 10
    with pytest.raises(NothingToUndoError):
        undo_last(undone.workbook, journal, "file:" + str(path), path=path)


def test_failed_save_leaves_the_file_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _book(tmp_path / "atomic.xlsx")
    data = path.read_bytes()
    real_replace = os.replace

    def failing_replace(src: Any, dst: Any) -> None:
        if Path(dst) == path:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    writes = [FileWrite("S", 1, 1, CellContent("n", 7), CellContent("n", 8))]
    with pytest.raises(GridSightError, match="nothing was written"):
        apply_to_file(path, writes)
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".bak")) == ["atomic.xlsx"]


def test_conflicts_write_nothing_and_name_every_cell(tmp_path: Path) -> None:
    path = _book(tmp_path / "c.xlsx")
    data = path.read_bytes()
    writes = [
        FileWrite("S", 1, 1, CellContent("n", 7), CellContent("n", 1)),  # matches
        FileWrite("S", 0, 3, CellContent("s", "other"), CellContent("n", 2)),  # does not
        FileWrite("S", 0, 1, CellContent("e", None, "=A1+2"), CellContent("n", 3)),
    ]  # does not
    with pytest.raises(EditConflictError) as err:
        apply_to_file(path, writes)
    assert [c["cell"] for c in err.value.conflicts] == ["D1", "B1"]
    assert err.value.conflicts[1]["found"] == {
        "type": "e",
        "value": None,
        "formula": "=A1+1",
        "number_format": "General",
    }
    assert path.read_bytes() == data
    with pytest.raises(FileChangedError):
        apply_to_file(path, writes[:1], expect_sha="0" * 64)
    assert path.read_bytes() == data


@pytest.mark.parametrize(
    ("name", "fragment"),
    [("book.csv", "writes only .xlsx/.xlsm"), ("book.xls", "writes only .xlsx/.xlsm")],
)
def test_unwritable_types(tmp_path: Path, name: str, fragment: str) -> None:
    p = tmp_path / name
    p.write_text("a,b\n1,2\n")
    with pytest.raises(GridSightError, match=fragment):
        apply_to_file(p, [])


def test_files_with_charts_are_refused_not_damaged(tmp_path: Path) -> None:
    from openpyxl.chart import BarChart, Reference

    path = tmp_path / "chart.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    for i in range(1, 4):
        ws.cell(row=i, column=1, value=i)
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=1, min_row=1, max_row=3))
    ws.add_chart(chart, "C1")
    wb.save(path)
    data = path.read_bytes()
    with pytest.raises(GridSightError, match="contains charts"):
        apply_to_file(path, [FileWrite("Sheet", 0, 0, CellContent("n", 1), CellContent("n", 5))])
    assert path.read_bytes() == data


def test_patch_keeps_everything_else() -> None:
    from gridsight.grid import Sheet

    sheet = Sheet.from_cells(
        "S",
        {"A1": "Title", "B2": 3, "C3": "=B2*2"},
        formats={"B2": "0.00", "C2": "0%"},
        styles={"A1": 1},
        merges=("A1:C1",),
    )
    wb = Workbook([sheet, Sheet.from_cells("T", {"A1": 1})])
    out = patch_workbook(wb, [("s", 1, 1, CellContent("n", 4)), ("S", 9, 0, CellContent("s", "new"))])
    s = out.sheet("S")
    assert s.cell("B2").value == 4 and s.cell("B2").number_format == "0.00"
    assert s.cell("A10").value == "new" and s.cell("A1").style == 1 and s.cell("C3").formula == "=B2*2"
    assert s.cell("C2").number_format == "0%" and [m.ref() for m in s.merges] == ["A1:C1"]
    assert out.sheet("T") is wb.sheet("T")


def test_journal_is_per_workbook_and_atomic(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j")
    j.push("file:/a.xlsx", {"id": "p1", "target": "file", "cells": []})
    j.push("file:/b.xlsx", {"id": "p2", "target": "file", "cells": []})
    assert [e["id"] for e in Journal(tmp_path / "j").entries("file:/a.xlsx")] == ["p1"]
    assert j.was_applied("file:/b.xlsx", "p2") and not j.was_applied("file:/a.xlsx", "p2")
    j.pop("file:/a.xlsx", "p1")
    with pytest.raises(NothingToUndoError):
        j.peek("file:/a.xlsx")
    assert j.was_applied("file:/a.xlsx", "p1")  # replay protection outlives the undo
    assert not list((tmp_path / "j").glob("*.tmp"))


def test_editplan_documents_validate_against_the_schema() -> None:
    wb = Workbook.from_dict({"S": {"A1": 1}})
    writes = parse_writes({"writes": [{"cell": "A1", "value": 2}, {"cell": "B1", "formula": "=A1*2"}]}, wb)
    doc = editplan_document("p", writes, workbook_id="wb_1", workbook_name="x.xlsx")
    validate_editplan(doc)
    broken = {**doc, "actions": [{**doc["actions"][0], "cell": "A1:B2"}]}
    with pytest.raises(EditPlanError, match=r"editplan\.v1 invalid at actions/0/cell"):
        validate_editplan(broken)
    sheets = editplan_document("p", writes, new_sheets=["Records"], drop_sheets=["Old"])
    validate_editplan(sheets)
    assert sheets["new_sheets"] == ["Records"] and sheets["drop_sheets"] == ["Old"]
    assert "new_sheets" not in doc and "drop_sheets" not in doc  # only when a plan adds or drops one
    for bad in ({"new_sheets": ["x" * 32]}, {"new_sheets": "Records"}, {"drop_sheets": [""]}):
        with pytest.raises(EditPlanError, match=r"editplan\.v1 invalid"):
            validate_editplan({**doc, **bad})


def test_raw_dates_compare_as_serials() -> None:
    raw = {"t": "d", "v": "2024-01-01T00:00:00", "py": "datetime", "nf": "yyyy-mm-dd"}
    assert content_of_raw(raw).same_content(CellContent("d", 45292))

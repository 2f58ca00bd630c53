"""Defined names as Excel saves them: relative references seen from the cell that uses the name
(stored as seen from A1), and names of the workbook itself written with its index (``[0]!Name``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from gridsight.commands.recalc import recalc_file
from gridsight.formula._reftext import from_a1


@pytest.mark.parametrize(
    ("text", "at", "seen"),
    [
        ("Sheet1!$B1", (4, 2), "Sheet1!$B5"),  # used in C5: the row moves, the $B stays
        ("Sheet1!A$4:A$8", (9, 2), "Sheet1!C$4:C$8"),
        ("Sheet1!XFD1048576+Sheet1!A1048576", (10, 10), "Sheet1!J10+Sheet1!K10"),  # wraps: left, up
        ("Sheet1!$H$8", (3, 3), "Sheet1!$H$8"),
        ('"B1"&Sheet1!B1', (1, 1), '"B1"&Sheet1!C2'),
        ("'My B1'!B1", (0, 0), "'My B1'!B1"),
    ],
)
def test_from_a1(text: str, at: tuple[int, int], seen: str) -> None:
    assert from_a1(text, at) == seen


def test_relative_names_and_own_workbook_index(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {
        "B1": 7.5,
        "A4": 3,
        "A5": 4,
        "B4": 8,
        "B5": 6,
        "C4": F("HOURS*RATE", 60),  # HOURS is $B of the row using it: 8 * 7.5
        "C5": F("HOURS*RATE", 45),
        "A6": F("SUM(VALUES)", 7),  # VALUES is rows 4:5 of the column using it
        "B6": F("SUM(VALUES)", 14),
        "D1": F("[0]!RATE*2", 15),  # [0] is the workbook itself
        "D2": F("SUM([0]!VALUES)", 0),  # seen from D2: D4:D5, blank
    }
    names = {"RATE": "S!$B$1", "HOURS": "S!$B1", "VALUES": "S!A$4:A$5"}
    result = recalc_file(excel.write(tmp_path / "names.xlsx", {"S": cells}, names=names))
    assert [(c.cell, c.excel, c.ours, c.kind) for c in result.cells if c.status != "agree"] == []
    assert result.agreed == 6


def test_deleted_ranges_and_names_that_are_not_names(tmp_path: Path, excel: SimpleNamespace) -> None:
    """``SUM(#REF!:B4)`` (a range whose start was deleted) is #REF!, and a name Excel cannot hold
    (``A\\b``) is #NAME?, as Excel saves them."""
    F = excel.F
    cells = {
        "B4": 2,
        "C1": F("SUM(#REF!:B4)", "#REF!"),
        "C2": F("IFERROR(SUBTOTAL(1,B4:#REF!),-1)", -1),
        "C3": F('IF(HSI\\10_1___val<>"",1,0)', "#NAME?"),
    }
    result = recalc_file(excel.write(tmp_path / "deleted.xlsx", {"S": cells}))
    assert [(c.cell, c.excel, c.ours, c.kind) for c in result.cells if c.status != "agree"] == []

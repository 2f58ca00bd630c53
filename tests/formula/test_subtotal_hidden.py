"""SUBTOTAL and AGGREGATE leave out hidden rows as Excel documents: 101-111 and AGGREGATE's options
1, 3, 5, 7 every hidden row, 1-11 only the rows a filter hid; hidden columns count."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from gridsight.commands.recalc import recalc_file
from gridsight.sources._xlsx_rows import HiddenRows, read_hidden_rows

_FILTER_ON = ('<sheetPr filterMode="1"/>', '<autoFilter ref="A1:B5"><filterColumn colId="0"/></autoFilter>')


def _disagreements(path: Path) -> list[tuple[str, object, object]]:
    return [(c.cell, c.excel, c.ours) for c in recalc_file(path).cells if c.status != "agree"]


def test_rows_hidden_by_hand(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {
        "B1": 1,
        "B2": 2,
        "B3": 4,  # row 3 hidden by hand
        "B4": 8,
        "C3": 100,
        "D1": F("SUBTOTAL(9,B1:B4)", 15),  # 1-11 count rows hidden by hand
        "D2": F("SUBTOTAL(109,B1:B4)", 11),
        "D3": F("SUBTOTAL(102,B1:C4)", 3),  # the whole row goes, C3 too
        "D4": F("SUBTOTAL(104,B:B)", 8),
        "D5": F("_xlfn.AGGREGATE(9,5,B1:B4)", 11),  # option 5: ignore hidden rows
        "D6": F("_xlfn.AGGREGATE(9,4,B1:B4)", 15),  # option 4: ignore nothing
        "D7": F("_xlfn.AGGREGATE(4,7,B1:B4)", 8),
        "D8": F("SUBTOTAL(109,B3)", 0),  # nothing left: over no values
        "D9": F("SUBTOTAL(101,B3)", "#DIV/0!"),
        "D10": F("SUM(B1:B4)", 15),
    }
    path = excel.write(tmp_path / "hand.xlsx", {"S": cells}, rows={"S": {3: 'hidden="1"'}})
    assert read_hidden_rows(path) == {"S": HiddenRows(frozenset({2}), frozenset())}
    assert _disagreements(path) == []


def test_rows_a_filter_hid(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {
        "A1": "k",
        "B1": 1,
        "B2": 2,
        "B3": 4,  # hidden by the filter
        "B4": 8,
        "B5": 16,  # hidden, with a height set by hand: hidden by hand
        "D1": F("SUBTOTAL(9,B1:B5)", 27),  # 1-11 leave out the filtered row only
        "D2": F("SUBTOTAL(109,B1:B5)", 11),
        "D3": F("SUBTOTAL(3,B1:B5)", 4),
        "D4": F("SUM(B1:B5)", 31),
    }
    rows = {"S": {3: 'hidden="1"', 5: 'hidden="1" ht="15.75" customHeight="1"'}}
    path = excel.write(tmp_path / "filter.xlsx", {"S": cells}, rows=rows, around={"S": _FILTER_ON})
    assert read_hidden_rows(path) == {"S": HiddenRows(frozenset({2, 4}), frozenset({2}))}
    assert _disagreements(path) == []


def test_an_autofilter_without_criteria_filters_nothing(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {"B1": 1, "B2": 2, "B3": 4, "D1": F("SUBTOTAL(9,B1:B3)", 7), "D2": F("SUBTOTAL(109,B1:B3)", 3)}
    around = {"S": ("", '<autoFilter ref="A1:B3"/>')}
    path = excel.write(tmp_path / "nofilter.xlsx", {"S": cells}, rows={"S": {3: 'hidden="1"'}}, around=around)
    assert read_hidden_rows(path)["S"].filtered == frozenset()
    assert _disagreements(path) == []


def test_running_subtotals_down_a_column_each_see_their_own_hidden_rows(
    tmp_path: Path, excel: SimpleNamespace
) -> None:
    """A filled column of SUBTOTAL(109,B$1:Bn): each cell's hidden rows are its own (a formula one
    fill away from one that needed no rewrite still needs its own)."""
    F = excel.F
    cells: dict[str, object] = {}
    total = 0
    for r in range(1, 13):
        cells[f"B{r}"] = r
        total += 0 if r in (5, 9) else r
        cells[f"C{r}"] = F(f"SUBTOTAL(109,B$1:B{r})", total)
    path = excel.write(tmp_path / "run.xlsx", {"S": cells}, rows={"S": {5: 'hidden="1"', 9: 'hidden="1"'}})
    assert _disagreements(path) == []


def test_a_deleted_reference_in_subtotal_is_ref_error(tmp_path: Path, excel: SimpleNamespace) -> None:
    path = excel.write(tmp_path / "ref.xlsx", {"S": {"A1": 1, "B1": excel.F("SUBTOTAL(3,#REF!)", "#REF!")}})
    assert _disagreements(path) == []


@pytest.mark.parametrize("content", [b"not a zip", b""])
def test_hidden_rows_of_a_file_that_is_no_package_are_none(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.xlsx"
    path.write_bytes(content)
    assert read_hidden_rows(path) == {}

"""Error values where a function takes a reference or an array, and arrays of different sizes, as
Excel computes them: what Excel saves once the ranges a formula read were deleted (``#REF!`` in
place of each), and what an array formula gives for ranges of different lengths."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gridsight.commands.recalc import recalc_file
from gridsight.formula import evaluate_formula
from gridsight.grid import Workbook

BOOK = Workbook.from_dict(
    {"S": {"A1": 1, "A2": 2, "A3": 3, "B1": "x", "B2": "y", "B3": "x", "C1": 10, "C2": "#N/A", "C3": 30}}
)


def value(formula: str) -> Any:
    ev = evaluate_formula(formula, BOOK, "S", at="H10")
    assert ev.ok, ev.problems
    return ev.error if ev.error is not None else ev.value


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # the reference of OFFSET, the ranges of criteria functions and lookups: the error itself
        ("=OFFSET(#REF!,-1,0)", "#REF!"),
        ("=OFFSET(#REF!,-1,0)+1/24", "#REF!"),
        ("=OFFSET(#N/A,1,1)", "#N/A"),
        ("=OFFSET(A1,#DIV/0!,0)", "#DIV/0!"),
        ('=SUMIF(#REF!,">0")', "#REF!"),
        ("=SUMIF(#REF!,1)*0.5", "#REF!"),
        ("=COUNTIF(#REF!,1)", "#REF!"),
        ("=AVERAGEIF(#REF!,1)", "#REF!"),
        ("=SUMIFS(A1:A3,#REF!,1)", "#REF!"),
        ("=COUNTIFS(A1:A3,1,#REF!,1)", "#REF!"),
        ("=MATCH(1,#REF!,0)", "#REF!"),
        ("=VLOOKUP(C1,#REF!,2,0)", "#REF!"),
        ("=HLOOKUP(1,#REF!,2,0)", "#REF!"),
        ("=INDEX(#REF!:#REF!,1,1)", "#REF!"),
        ("=INDEX(#REF!:#REF!,COUNTA(#REF!:#REF!),MATCH(A1,#REF!,0))", "#REF!"),
        ("=LARGE(#REF!,1)", "#REF!"),
        ("=RANK(1,#REF!)", "#REF!"),
        ("=ROWS(#REF!)", "#REF!"),
        ("=COLUMNS(#N/A)", "#N/A"),
        # the first error among the arguments: the lookup value comes before the table
        ("=VLOOKUP(#N/A,#REF!,2,0)", "#N/A"),
        # Excel's exceptions: IFERROR/ISERROR see the error, COUNTA counts it, COUNT skips it
        ("=IFERROR(OFFSET(#REF!,-1,0),5)", 5),
        ("=IFERROR(MATCH(1,#REF!,0),9)", 9),
        ("=ISERROR(SUMIF(#REF!,1))", True),
        ("=ERROR.TYPE(COUNTIF(#REF!,1))", 4),
        ("=COUNTA(#REF!,1)", 2),
        ("=COUNT(#REF!,1)", 1),
        ("=ISREF(#REF!)", False),
        ('=IF(A1=1,"ok",SUMIF(#REF!,1))', "ok"),
        # a cell holding an error inside a range is no error argument: lookups and criteria skip it
        ("=MATCH(30,C1:C3,0)", 3),
        ('=SUMIF(C1:C3,">5")', 40),
        ("=COUNTIF(C2,1)", 0),
    ],
)
def test_an_error_given_for_a_reference_is_the_result(formula: str, excel: Any) -> None:
    assert value(formula) == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # an array of one row or column repeats; a shorter one is padded with #N/A
        ("=SUM({1;2;3}*{1;2})", "#N/A"),
        ("=ISNA(INDEX({1;2;3}*{1;2},3))", True),
        ("=SUM({1;2}*{1,2})", 9),
        ("=SUM(IF({1;1;0},{1;2}*{1,1;1,1;1,1},0))", 6),
        ("=SUM(IF({TRUE;FALSE;FALSE},{5;6}*A1:A3,0))", 5),
        ("=SUM(IF({TRUE;FALSE;TRUE},{5;6}*A1:A3,0))", "#N/A"),
    ],
)
def test_arrays_of_different_sizes(formula: str, excel: Any) -> None:
    assert value(formula) == excel, formula


def test_deleted_ranges_as_excel_saves_them(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A sheet whose ranges were deleted, as Excel saves it: each formula's Excel result."""
    F = excel.F
    cells = {
        "A1": 4,
        "B1": F("OFFSET(#REF!,-1,0)+OFFSET(#REF!,-12,0)-#REF!", "#REF!"),
        "B2": F('SUMIF(#REF!,">0")', "#REF!"),
        "B3": F("SUM(#REF!)+SUM(OFFSET(#REF!,-1,0):#REF!)+#REF!", "#REF!"),
        "B4": F("INDEX(#REF!:#REF!,COUNTA(#REF!:#REF!),MATCH(A1,#REF!,0))", "#REF!"),
        "B5": F("IFERROR(B1,0)+A1", 4),
    }
    path = excel.write(tmp_path / "deleted.xlsx", {"S": cells})
    result = recalc_file(path)
    assert [(c.cell, c.status, c.excel, c.ours) for c in result.cells if c.status != "agree"] == []

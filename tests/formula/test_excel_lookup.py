"""XLOOKUP and XMATCH (``_excel_lookup``) against the values Excel gives."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.formula import evaluate_formula
from gridsight.grid import Workbook

from .conftest import excel_result

BOOK = Workbook.from_dict(
    {
        "S": {
            # A1:B7: an unsorted column of several types
            **{f"A{i}": v for i, v in enumerate([2, 5, 4, 5, 3, True, "ala"], start=1)},
            **{f"B{i}": v for i, v in enumerate("abcdefg", start=1)},
            # D1:E13 sorted ascending with repeats; F1:G13 the same descending
            **{f"D{i}": v for i, v in enumerate([1, 2, 3, 4, 5, 5, 5, 6, 7, 7, 7, 8, 9], start=1)},
            **{f"E{i}": v for i, v in enumerate("ABCDEFGHIJKLM", start=1)},
            **{f"F{i}": v for i, v in enumerate([9, 8, 7, 7, 7, 6, 5, 5, 5, 4, 3, 2, 1], start=1)},
            **{f"G{i}": v for i, v in enumerate("nopqrstuvwxyz", start=1)},
            "I1": "Germany",
            "I2": "Spain",
            "I3": "Italy",
        }
    }
)


def value(formula: str) -> Any:
    return excel_result(formula, BOOK, at="Z1")


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # an omitted if_not_found is #N/A (the engine received 0)
        ("=XLOOKUP(9,A1:A7,B1:B7,,0,-1)", "#N/A"),
        ('=XLOOKUP(9,A1:A7,B1:B7,"none")', "none"),
        # next smaller / larger in Excel's order of types: the first of equal items
        ("=XLOOKUP(10,A1:A7,B1:B7,,-1)", "b"),
        ("=XLOOKUP(1.8,A1:A7,B1:B7,,-1)", "#N/A"),
        ("=XLOOKUP(FALSE,A1:A7,B1:B7,,-1)", "g"),  # text comes before FALSE
        ('=XLOOKUP("b",A1:A7,B1:B7,,1)', "f"),  # TRUE comes after text
        ("=XLOOKUP(4.5,A1:A7,B1:B7,,1,-1)", "d"),  # last to first: the last 5
        # binary search: the first of equals ascending, the last descending
        ("=XLOOKUP(5,D1:D13,E1:E13,,0,2)", "E"),
        ("=XLOOKUP(7.1,D1:D13,E1:E13,,-1,2)", "K"),
        ("=XLOOKUP(5,F1:F13,G1:G13,,0,-2)", "v"),
        ("=XLOOKUP(7.1,F1:F13,G1:G13,,-1,-2)", "p"),
        ("=XLOOKUP(7.1,F1:F13,G1:G13,,1,-2)", "o"),
        # a blank value finds a blank cell; a blank result is 0
        ('=XLOOKUP(Z9,A1:A9,B1:B9,"none")', 0),
        # sizes and modes
        ("=XLOOKUP(2,A1:A7,B1:B6)", "#VALUE!"),
        ("=XLOOKUP(2,A1:B7,B1:B7)", "#VALUE!"),
        ("=XLOOKUP(2,A1:A7,B1:B7,,12)", "#VALUE!"),
        ('=XLOOKUP("a*",A1:A7,B1:B7,,2,2)', "#VALUE!"),
        ("=XLOOKUP(2,A1:A7,B1:B7,,,TRUE)", "a"),
        ('=XLOOKUP("a?a",A1:A7,B1:B7,,2)', "g"),
        ('=XMATCH("[A-Z][a-z]+y",I1:I3,3,1)', 1),
        ('=XMATCH("[A-Z][a-z]+y",I1:I3,3,-1)', 3),
        ("=XMATCH(5,A1:A7,0,-1)", 4),
    ],
)
def test_xlookup(formula: str, excel: Any) -> None:
    assert value(formula) == excel, formula


REF_BOOK = Workbook.from_dict(
    {"S": {"A1": 5, "J3": "A4", "J4": "D5:E7", "J5": "05:05", "J6": "SS077:SW090", "J7": "nowhere"}}
)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # ROW/COLUMN of what INDIRECT and OFFSET point at (the engine: #VALUE!)
        ("=ROW(INDIRECT(J3))", 4),
        ("=COLUMN(INDIRECT(J4))", [[4, 5]]),
        ("=ROW(INDIRECT(J5))", 5),  # written with a leading zero
        ("=COLUMN(INDIRECT(J6))", [[513, 514, 515, 516, 517]]),
        ("=ROW(INDIRECT(J7))", "#REF!"),
        ('=ROW(OFFSET(INDIRECT("A1"),2,3))', 3),
        ('=OFFSET(INDIRECT("A1"),B9,C9)', 5),  # blank rows and columns are 0
        ('=COLUMN(OFFSET(INDIRECT("AA23"),12,56))', 83),
        # sizes of whole columns and rows (the engine: the rows the sheet uses)
        ("=ROWS(C:C)", 1048576),
        ("=COLUMNS(14:14)", 16384),
        ("=ROW(D:D)", 1),  # alone in a cell: its first row
    ],
)
def test_references_of_indirect_and_offset(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, REF_BOOK, "S", at="K3")
    assert ev.ok, ev.problems
    assert (ev.error if ev.error is not None else ev.value) == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # binary search halves as Excel does, also over unsorted data
        ("=XMATCH(4.1,{TRUE,4.1,FALSE,1.1},-1,2)", 2),
        ('=XMATCH(4.1,{"","a",1.1,4.1},0,2)', "#N/A"),
        ('=XMATCH("ss",{1,"SS","c bau c",4.1},0,2)', 2),
        ('=XMATCH(4.1,{1.1,4.1,"","a"},-1,-2)', 2),
        ('=XMATCH(FALSE,{"a",2,FALSE,4.1,3,2.1,2,FALSE,9,9},-1,2)', 8),
        # a blank value comes after everything: the next smaller is the largest item
        ("=XMATCH(Z9,{FALSE,2.1,TRUE,4.1},-1)", 3),
        ("=XMATCH(Z9,{TRUE,4.1,FALSE,1.1},-1,2)", 4),
        # next larger than text among numbers: none (text comes after numbers)
        ('=XMATCH("*b?u*",{-1.1,2.1,3.1,4.1},1)', "#N/A"),
        ("=XMATCH(TRUE,{-1.1,2.1,3.1,4.1},-1)", 4),
        # the value's error before the modes; modes rounded down (-1.1 is -2)
        ("=XMATCH(NA(),{4.1,3.1},2,2)", "#N/A"),
        ('=XLOOKUP(-1.1,{-1.1,2.1,3.1,4.1},{"L","ML","MR","R"},1,1,-1.1)', "R"),
    ],
)
def test_xmatch_as_excel_saves(formula: str, excel: Any) -> None:
    assert value(formula) == excel, formula

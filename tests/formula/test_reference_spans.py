"""The range operator beside functions that give references (``A1:OFFSET(A1,4,0)``,
``INDEX(r,1,1):INDEX(r,1,n)``), resolved to the range before the engine runs."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gridsight.commands.recalc import recalc_file
from gridsight.formula import evaluate_formula
from gridsight.formula._translate import reference_spans
from gridsight.grid import Workbook

BOOK = Workbook.from_dict({"S": {**{f"A{r}": r for r in range(1, 7)}, "B1": 2, "C1": 3}})


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=SUM(A1:OFFSET(A1,3,0))", 10),
        ("=SUM(OFFSET(A1,1,0):OFFSET(A1,3,0))", 9),
        ('=SUM(INDIRECT("A2"):INDIRECT("A4"))', 9),
        ("=SUM(INDEX(A1:A6,2):INDEX(A1:A6,B1+2))", 9),
        ("=SUM(INDEX(A1:A6,1,1):A3)", 6),
        ("=SUM(CHOOSE(2,A1,A2,A3):CHOOSE(3,A1,A4,A5))", 14),
        ("=SUM(OFFSET(A1,1,0):A6)", 20),
        ('=SUM(A1:OFFSET(A1,C1,0))&":"', "10:"),
        ("=SUM(A1:OFFSET(A1,-1,0))", "#REF!"),
    ],
)
def test_spans(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, BOOK, "S", at="H10")
    assert ev.ok, ev.problems
    assert (ev.error if ev.error is not None else ev.value) == excel, formula


def test_text_and_plain_ranges_are_left_alone() -> None:
    assert reference_spans('="a:b"&OFFSET(A1,1,1)') is None
    assert reference_spans("=SUM(A1:B2)") is None


def test_subtotal_over_a_span_leaves_out_hidden_rows(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {
        **{f"A{r}": r for r in range(1, 6)},
        "B1": F("SUBTOTAL(109,OFFSET(A1,0,0):OFFSET(A1,4,0))", 12),  # row 3 hidden
        "B2": F("SUBTOTAL(101.2,A1:A5)", 3),  # function numbers are truncated
    }
    path = excel.write(tmp_path / "s.xlsx", {"S": cells}, rows={"S": {3: 'hidden="1"'}})
    result = recalc_file(path)
    assert [(c.cell, c.excel, c.ours) for c in result.cells if c.status != "agree"] == []


def _named_book() -> Workbook:
    from gridsight.grid import DefinedName

    base = Workbook.from_dict(
        {
            "S": {
                **{f"A{r}": r for r in range(1, 7)},
                **{f"B{r}": "x" if r % 2 else "y" for r in range(1, 7)},
            },
            "Imps": {"M4": 5, "M5": 6, "M6": 7},
        }
    )
    names = [
        DefinedName("EndA", "S!$A$4", None),  # a name of the range's last cell
        DefinedName("ColA", "S!$A$1:EndA", None),  # a name whose range ends at a name
        DefinedName("EndB", "S!$B$4", None),
        DefinedName("ColB", "S!$B$1:EndB", None),
    ]
    return Workbook(base.sheets, names=names)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # the second end naming its sheet again: the same range
        ("=SUM(Imps!M4:'Imps'!M6)", 18),
        ("=SUM(Imps!M4:Imps!M5)", 11),
        # a defined name as an end, in the formula or inside another name
        ("=SUM(S!A1:EndA)", 10),
        ("=SUM(A2:EndA)", 9),
        ("=SUM(EndA:A6)", 15),
        ("=SUM(ColA)", 10),
        ('=SUM(IF(ColB="x",ColA,0))', 4),
        ("=SUM(OFFSET(ColA,1,0))", 14),
        # an end deleted (#REF!) beside a function that gives a reference
        ("=SUM(OFFSET(#REF!,-1,0):#REF!)", "#REF!"),
        ("=SUM(OFFSET(A1,1,0):#REF!)", "#REF!"),
        ("=SUM(#REF!:OFFSET(A1,1,0))", "#REF!"),
    ],
)
def test_range_ends_that_name_a_sheet_a_name_or_an_error(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, _named_book(), "S", at="H10")
    assert ev.ok, ev.problems
    assert (ev.error if ev.error is not None else ev.value) == excel, formula


def test_plain_ranges_and_whole_columns_are_not_taken_for_names() -> None:
    from gridsight.formula._refops import range_endpoints

    def never(name: str, sheet: str | None) -> str | None:
        return None

    for text in ("=SUM(A1:B2)", "=SUM(A:A)", "=SUM(Jan:Mar!B2)", '="A1:Imps!B2"', "=SUM(S!A1:Imps!M5)"):
        assert range_endpoints(text, never) is None, text

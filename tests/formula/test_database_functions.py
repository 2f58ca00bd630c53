"""Excel's database functions (DSUM, DAVERAGE, DGET...) over a range with labels and a criteria range."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.formula import evaluate_formula
from gridsight.grid import Workbook

# A1:C7 the database, E1:F3 criteria (Tree = Apple and Height > 10, or Tree = Pear), H1:H2 a prefix
BOOK = Workbook.from_dict(
    {
        "S": {
            **{f"{c}1": v for c, v in zip("ABC", ("Tree", "Height", "Profit"), strict=True)},
            **{
                f"A{r}": v
                for r, v in enumerate(("Apple", "Pear", "Cherry", "Apple", "Apple", "Pear"), start=2)
            },
            **{f"B{r}": v for r, v in enumerate((18, 12, 13, 14, 9, 8), start=2)},
            **{f"C{r}": v for r, v in enumerate((105, 96, 105, 75, 76.8, 45), start=2)},
            "E1": "Tree",
            "F1": "Height",
            "E2": "Apple",
            "F2": ">10",
            "E3": "Pear",
            "H1": "Tree",
            "H2": "Ch",
            "J1": "Tree",
            "J2": '="=Apple"',  # the text =Apple, as a criteria cell holds it
            "K1": "Colour",
            "K2": "red",
        }
    }
)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ('=DSUM(A1:C7,"Profit",E1:F3)', 105 + 96 + 75 + 45),  # Apple 18, Pear, Apple 14, Pear
        ("=DCOUNT(A1:C7,3,E1:F3)", 4),
        ('=DAVERAGE(A1:C7,"profit",E1:F3)', (105 + 96 + 75 + 45) / 4),
        ('=DMAX(A1:C7,"Height",E1:F3)', 18),
        ('=DMIN(A1:C7,"Height",E1:F3)', 8),
        ('=DPRODUCT(A1:C7,"Height",E1:F2)', 18 * 14),
        ('=DCOUNTA(A1:C7,"Tree",E1:F3)', 4),
        ('=DGET(A1:C7,"Profit",H1:H2)', 105),  # plain text matches what begins with it: Cherry
        ('=DGET(A1:C7,"Profit",E1:F3)', "#NUM!"),  # several records
        ('=DGET(A1:C7,"Profit",K1:K2)', "#VALUE!"),  # a criteria label that is no column
        ('=DSUM(A1:C7,"Height",J1:J2)', 18 + 14 + 9),  # "=Apple": exactly Apple
        ('=ROUND(DVAR(A1:C7,"Height",E1:F3),6)', round(sum((x - 13) ** 2 for x in (18, 12, 14, 8)) / 3, 6)),
        (
            '=ROUND(DSTDEVP(A1:C7,"Height",E1:F3),6)',
            round((sum((x - 13) ** 2 for x in (18, 12, 14, 8)) / 4) ** 0.5, 6),
        ),
        ('=DSUM(A1:C7,"Nope",E1:F3)', "#VALUE!"),
    ],
)
def test_database_functions(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, BOOK, "S")
    assert ev.ok, ev.problems
    if isinstance(excel, str):
        assert ev.error == excel
    else:
        assert ev.error is None and ev.value == pytest.approx(excel)


EDGE_BOOK = Workbook.from_dict(
    {
        "S": {
            "A1": "Tree",
            "B1": 1,  # a column labelled by a number
            "C1": True,  # ... and by a logical
            **{f"A{r}": v for r, v in enumerate(("Apple", "Pear"), start=2)},
            **{f"B{r}": v for r, v in enumerate((5, "x"), start=2)},
            **{f"C{r}": v for r, v in enumerate((7, 8), start=2)},
            "E2": "Apple",  # a condition under a blank label (E1)
            "F1": "Tree",
            "F2": "*",
        }
    }
)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=DCOUNT(A1:C1,C1,F1:F2)", "#VALUE!"),  # a database of its labels only
        ("=DCOUNT(A1:C3,C1,E1:E2)", 0),  # a condition under no label meets no record
        ("=DAVERAGE(A1:C3,C1,E1:E2)", "#DIV/0!"),
        ('=DCOUNTA(A1:C3,"1",F1:F2)', 2),  # the text "1" names the column labelled 1
        ('=DCOUNT(A1:C3,"1",F1:F2)', 1),
        ("=DSUM(A1:C3,TRUE,F1:F2)", 15),  # TRUE names the column labelled TRUE
    ],
)
def test_database_edges(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, EDGE_BOOK, "S")
    assert (ev.error if ev.error is not None else ev.value) == excel, formula

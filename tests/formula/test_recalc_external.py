"""Formulas whose value comes from outside the workbook are reported as ``external``, not counted:
no engine could recompute them from the file (Excel's own functions GridSight lacks stay unsupported)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from gridsight.commands.recalc import recalc_file
from gridsight.formula._compare import external_kind


@pytest.mark.parametrize(
    ("kind", "problem", "formula", "expected"),
    [
        ("unknown function MYFUNC", "", "=myFunc(A1)", "user-defined function MYFUNC"),
        ("unknown function _FV", "", '=_FV(A2,"High")', "linked data type (_FV)"),
        ("unknown function DDE", "", '=DDE("RT","x","y")', "external data (DDE)"),
        (
            "refused by policy",
            "WEBSERVICE is not allowed: it fetches data",
            "=_xlfn.WEBSERVICE(A1)",
            "external data (WEBSERVICE)",
        ),
        ("external link", "it links outside this workbook ([1]!)", "=[1]!X", "external link"),
        # Excel's own functions, old (openpyxl's list) or written with _xlfn.: GridSight's gaps
        ("unknown function DAVERAGE", "", "=DAVERAGE(A1:B3,1,D1:D2)", None),
        ("unknown function ECMA.CEILING", "", "=_xlfn.ECMA.CEILING(A1,2)", None),
        ("defined name", "", "=Rate", None),
    ],
)
def test_external_kind(kind: str, problem: str, formula: str, expected: str | None) -> None:
    assert external_kind(kind, problem, formula) == expected


def test_a_lambda_the_workbook_names_is_not_external() -> None:
    assert external_kind("unknown function MYLAMBDA", "", "=MYLAMBDA(2)", lambda n: n == "MYLAMBDA") is None


def test_external_cells_are_not_counted(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {
        "A1": 2,
        "B1": F("SROUND(A1*1.5)", 3),  # an add-in's function: Excel's value is kept for what reads it
        "C1": F("B1+1", 4),
        "D1": F("PHONETIC(A1)", "2"),
        "E1": F("NOSUCHMACRO(A1)", "#NAME?"),  # saved with no macro to supply it: Excel's #NAME?
    }
    result = recalc_file(excel.write(tmp_path / "udf.xlsx", {"S": cells}))
    by = {c.cell: c for c in result.cells}
    assert (by["B1"].status, by["B1"].kind) == ("external", "user-defined function SROUND")
    assert by["C1"].status == "agree"
    s = result.summary()
    assert by["E1"].status == "agree"
    assert (s["formulas"], s["agreed"], s["unsupported"], s["external"]) == (3, 2, 1, 1)
    assert s["by_kind"] == {
        "external: user-defined function SROUND": 1,
        "unsupported: unknown function PHONETIC": 1,
    }


def test_locale_separators_are_a_kind_of_their_own() -> None:
    from gridsight.formula._compare import difference_kind

    assert (
        difference_kind("=SUBTOTAL(9;$B2:$B4)", "=SUBTOTAL(9,$B2:$B4)")
        == "text in another locale's separators"
    )
    assert difference_kind("1,5", "1.5") == "text in another locale's separators"
    assert difference_kind("abc", "abd") == "text"

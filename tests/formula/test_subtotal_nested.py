"""SUBTOTAL and AGGREGATE leave out the subtotals inside their ranges (Excel's documented rule)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from gridsight.commands.recalc import recalc_file
from gridsight.formula import evaluate_formula
from gridsight.sources import open_workbook


def test_nested_subtotals_are_left_out(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {
        "B1": 1,
        "B2": 2,
        "B3": F("SUBTOTAL(9,B1:B2)", 3),
        "B4": 10,
        "B5": F("SUBTOTAL(9,B4)", 10),
        "B6": F("SUBTOTAL(9,B1:B5)", 13),  # not 26: B3 and B5 are subtotals
        "B7": F("SUBTOTAL(109,B1:B5,B6)", 13),
        "B8": F("_xlfn.AGGREGATE(9,0,B1:B6)", 13),
        "B9": F("_xlfn.AGGREGATE(9,4,B1:B5)", 26),  # option 4 keeps nested subtotals
        "B10": F("SUM(B1:B5)", 26),  # other functions read them
        "C1": F("SUBTOTAL(2,S!B1:B6)", 3),  # counts B1, B2, B4
    }
    result = recalc_file(excel.write(tmp_path / "sub.xlsx", {"S": cells}))
    assert [(c.cell, c.excel, c.ours) for c in result.cells if c.status != "agree"] == []
    book = open_workbook(tmp_path / "sub.xlsx")
    # B1 + B2 + B4 + B10 (the SUM): every SUBTOTAL and AGGREGATE in B1:B10 is left out
    assert evaluate_formula("=SUBTOTAL(9,B1:B10)", book, "S").value == 1 + 2 + 10 + 26

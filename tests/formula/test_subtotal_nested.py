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


def test_aggregate_options_in_cells_and_order_functions(tmp_path: Path, excel: SimpleNamespace) -> None:
    """AGGREGATE's function and option may come from cells (a blank option is 0); functions 13-19
    (MODE.SNGL, LARGE, SMALL, PERCENTILE, QUARTILE) take their k after the array, which is split
    around the subtotals inside it as for 1-12."""
    F = excel.F
    cells = {
        "B1": 1,
        "B2": 2,
        "B3": F("SUBTOTAL(9,B1:B2)", 3),
        "B4": 10,
        "B5": 2,
        "C1": 9,  # SUM
        "C2": 14,  # LARGE
        "D1": F("_xlfn.AGGREGATE(C1,E1,B1:B5)", 15),  # E1 blank: option 0 leaves B3 out
        "D2": F("_xlfn.AGGREGATE(C2,0,B1:B5,2)", 2),  # the second largest of 1, 2, 10, 2
        "D3": F("_xlfn.AGGREGATE(15,4,B1:B5,2)", 2),  # option 4 keeps B3: 1, 2, 2, 3, 10
        "D4": F("_xlfn.AGGREGATE(13,0,B1:B5)", 2),  # MODE.SNGL
        "D5": F("_xlfn.AGGREGATE(16,0,B1:B5,0.5)", 2),  # PERCENTILE.INC
        "D6": F("_xlfn.AGGREGATE(17,0,B1:B5,3)", 4),  # QUARTILE.INC
        "D7": F("_xlfn.AGGREGATE(14,0,B1:B5,9)", "#NUM!"),
        "F1": F("1/0", "#DIV/0!"),
        "F2": 5,
        "D8": F("_xlfn.AGGREGATE(3,6,F1:F2)", 1),  # COUNTA without the error
    }
    result = recalc_file(excel.write(tmp_path / "agg.xlsx", {"S": cells}))
    assert [(c.cell, c.excel, c.ours) for c in result.cells if c.status != "agree"] == []

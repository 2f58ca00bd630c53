"""An array a function computes (MMULT, MINVERSE, TRANSPOSE...) in a formula that is not an array
formula shows its top-left item, as in Excel; a reference a function returns (INDEX with row 0) is
still intersected with the formula's own row."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from gridsight.commands.recalc import recalc_file


def test_computed_arrays_show_their_first_item(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    cells = {
        "C1": 1,
        "D1": 2,
        "C2": 3,
        "D2": 4,
        "E1": 5,
        "F1": 6,
        "E2": 7,
        "F2": 8,
        "B5": F("MMULT(C1:D2,E1:F2)", 19),  # [[19,22],[43,50]]
        "B6": F("MINVERSE(C1:D2)", -1.9999999999999996),  # [[-2,1],[1.5,-0.5]]
        "B7": F("MINVERSE(C1:D2)*2", -4),
        "B8": F("TRANSPOSE(C1:D2)", 1),
        "B9": F("MDETERM(C1:D2)", -2),
        "G1": F("MMULT(C1:D2,E1:F2)", 19, array="G1:H2"),  # an array formula keeps the whole array
        "H2": 50,
        "I2": F("H2+1", 51),
        "B2": F("INDEX(E1:E2,0)", 7),  # a reference: the item in the formula's row
    }
    path = excel.write(tmp_path / "arrays.xlsx", {"S": cells})
    assert [(c.cell, c.excel, c.ours) for c in recalc_file(path).cells if c.status != "agree"] == []

"""COUNTIF and company: blank cells against empty text, numbers stored as text, and the blank cells of
whole columns past the data, as Excel counts them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from gridsight.commands.recalc import recalc_file


def test_criteria_blanks_and_numeric_text(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    # A2:A9: 23, "23" (text), TRUE, 1, -23, "hey", "" (a formula's empty text), blank
    cells = {
        "A1": "Range",
        "A2": 23,
        "A3": "23",
        "A4": True,
        "A5": 1,
        "A6": -23,
        "A7": "hey",
        "A8": F('""', ""),
        "B1": F("COUNTIF(A2:A9,23)", 2),  # the text "23" equals 23
        "B2": F('COUNTIF(A2:A9,"<>23")', 7),  # ... but is not the number 23
        "B3": F('COUNTIF(A2:A9,"<=23")', 3),  # only numbers compare
        "B4": F('COUNTIF(A2:A9,">")', 0),  # an operator with nothing after: no cell
        "B5": F('COUNTIF(A2:A9,"<>")', 7),  # empty text is not blank
        "B6": F('COUNTIF(A2:A9,"=")', 1),  # only the blank A9
        "B7": F('COUNTIF(A2:A9,"")', 2),  # blank and empty text
        # whole columns: the blank cells past the data count
        "C1": F('COUNTIF(A:A,"<>23")', 1048575),
        "C2": F('COUNTIF(A:A,"<>")', 8),
        "C3": F("COUNTBLANK(A:A)", 1048569),  # empty text is blank for COUNTBLANK
        "C4": F('COUNTIFS(A:A,"<>1",D:D,"")', 1048575),
        "C5": F('COUNTIF(A:A,"<>*e*")', 1048574),  # all but Range and hey
        "C6": F("COUNTIF(A:A,NA())", 0),
    }
    result = recalc_file(excel.write(tmp_path / "c.xlsx", {"S": cells}))
    assert [(c.cell, c.excel, c.ours) for c in result.cells if c.status != "agree"] == []

"""LAMBDAs kept as defined names and called like functions, LAMBDAs applied in place, and LETs whose
names use the names before them, as Excel computes them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from gridsight.commands.recalc import recalc_file


def test_named_lambdas_and_chained_lets(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    names = {
        "year": "S!$B$1",
        "week": '_xlfn.LAMBDA(LEFT(TEXT(2+_xlfn.SEQUENCE(1,7,0),"ddd")))',
        "first_day": (
            "_xlfn.LAMBDA(_xlpm.mo,_xlfn.LET(_xlpm.a,DATE(year,_xlpm.mo,1),_xlpm.b,_xlpm.a+1,_xlpm.b-1))"
        ),
        "Hyp": "_xlfn.LAMBDA(_xlpm.x,_xlpm.y,SQRT(_xlpm.x*_xlpm.x+_xlpm.y*_xlpm.y))",
    }
    cells = {
        "B1": 2024,
        "A2": F("week()", "M"),  # a LAMBDA with no parameter
        "A3": F("first_day(3)", 45352),  # a LAMBDA whose LET chains its names
        "A4": F("Hyp(3,4)+hyp(6,8)", 15),  # names ignore case
        "A5": F("_xlfn.LAMBDA(_xlpm.x, _xlpm.x+1)(5)", 6),  # applied in place
        "A6": F("_xlfn.LET(_xlpm.x,1,_xlpm.y,_xlpm.x*2,_xlpm.y+_xlpm.x)", 3),
        "A7": F('_xlfn.LET(_xlpm.x,"x,y",_xlpm.y,_xlpm.x&"!",_xlpm.y)', "x,y!"),  # text kept
    }
    result = recalc_file(excel.write(tmp_path / "l.xlsx", {"S": cells}, names))
    assert [(c.cell, c.excel, c.ours, c.reason) for c in result.cells if c.status != "agree"] == []

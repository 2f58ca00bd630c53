"""docs/recalc.md's examples, run as written on the workbook the page describes."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from gridsight.cli import cli

DOC = (Path(__file__).resolve().parents[2] / "docs" / "recalc.md").read_text(encoding="utf-8")


def prices(path: Path, excel: SimpleNamespace) -> Path:
    """The workbook the page describes, with the results Excel saves for it."""
    F = excel.F
    cells = {
        "A1": "Item", "B1": "Price", "C1": "Qty", "D1": "Total",
        "A2": "Tea", "B2": 2.5, "C2": 4, "D2": F("B2*C2", 10),
        "A3": "Cake", "B3": 3.25, "C3": 2, "D3": F("B3*C3", 6.5),
        "A4": "Jam", "B4": "n/a", "C4": 1, "D4": F("IFERROR(B4*C4,NA())", "#N/A"),
        "A5": "Total", "D5": F('SUMIF(D2:D4,"<>#N/A")', 16.5),
        "E5": F('CUBEVALUE("ThisWorkbookDataModel","[Measures].[Total]")', 16.5),
        "A6": "Printed", "D6": F("TODAY()", 45600),
    }  # fmt: skip
    return excel.write(path, {"Prices": cells})


def _seconds(text: str) -> str:
    return re.sub(r"\(\d+\.\d s\)", "(… s)", text)


def test_documented_command(tmp_path: Path, excel: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> None:
    block = re.search(r"```console\n\$ (gridsight recalc prices.xlsx)\n(.*?)```", DOC, flags=re.S)
    assert block is not None
    monkeypatch.chdir(tmp_path)
    prices(tmp_path / "prices.xlsx", excel)
    r = CliRunner().invoke(cli, block.group(1).split()[1:])
    assert r.exit_code == 0, r.output
    assert _seconds(r.output) == _seconds(block.group(2))


def test_documented_python(tmp_path: Path, excel: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> None:
    code = re.search(r"```python\n(.*?)```", DOC, flags=re.S)
    shown = re.search(r"```\n\nprints `(.*?)`", DOC)
    assert code is not None and shown is not None
    monkeypatch.chdir(tmp_path)
    prices(tmp_path / "prices.xlsx", excel)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), "docs/recalc.md", "exec"), {"__name__": "doc"})
    assert out.getvalue().strip() == shown.group(1)

"""Explain this region: exact facts on the demo workbook, edge cases, the CLI."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.demo import build_demo_workbook
from gridsight.grid import SheetBuilder, Workbook
from gridsight.region import explain_region
from gridsight.sources import open_workbook


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_workbook(tmp_path_factory.mktemp("region") / "demo.xlsx")


def test_sales_table_facts(demo: Path) -> None:
    wb = open_workbook(demo)
    got = explain_region(wb, "Sales 2024", "A1:G17")
    assert [f.text for f in got.facts] == [
        "A1:G17 holds 48 numbers, 9 texts, 12 dates, 17 formulas.",
        "Table A3:F16 with columns Month, North, South, East, West, Total; 13 rows below its header "
        '(titled "Regional sales 2024"; in USD (thousands); total row 16).',
        "F4:F15 (12 formulas like =SUM(B4:E4), one per row): Returns the sum of North to West (B4:E4).",
        "B16:F16 (5 formulas like =SUM(B4:B15), one per column): Returns the sum of North (B4:B15).",
        "Merged cells: A1:F1.",
    ]
    assert got.facts[1].cells == ("A3:F16", "A1:F1", "A2")
    assert [g["count"] for g in got.formula_groups] == [12, 5]
    assert got.tables[0]["range"] == "A3:F16"
    doc = got.to_dict()
    assert doc["sheet"] == "Sales 2024" and doc["range"] == "A1:G17"
    assert doc["summary"].startswith("A1:G17 holds 48 numbers")


def test_second_table_and_whole_columns(demo: Path) -> None:
    wb = open_workbook(demo)
    got = explain_region(wb, "Sales 2024", "H:J")  # whole columns clip to the used range
    assert got.range == "H1:J19"
    assert [f.text for f in got.facts] == [
        "H1:J19 holds 8 numbers, 7 texts.",
        "Table H3:J7 with columns Region, Target, Growth; 4 rows below its header.",
    ]


def test_empty_region(demo: Path) -> None:
    wb = open_workbook(demo)
    got = explain_region(wb, "Sales 2024", "Z100:Z200")
    assert [f.text for f in got.facts] == ["Z100:Z200 is empty."]
    assert got.tables == [] and got.formula_groups == []


def test_huge_selection_is_bounded() -> None:
    """A million formulas selected: counted, the first 20,000 grouped, an answer in seconds."""
    b = SheetBuilder("Big")
    for r in range(25_000):
        b.set(r, 0, float(r))
        b.set(r, 1, None, formula=f"=A{r + 1}*2")
    wb = Workbook([b.build()])
    start = time.perf_counter()
    got = explain_region(wb, "Big", "A1:XFD1048576")
    assert time.perf_counter() - start < 30
    texts = [f.text for f in got.facts]
    assert texts[0] == "A1:B25000 holds 25,000 numbers, 25,000 formulas."
    assert "B1:B20000 (20,000 formulas like =A1*2, one per row): Returns A1 times 2." in texts
    assert "5,000 more formulas not itemised." in texts


def test_unknown_sheet_is_an_error(demo: Path) -> None:
    wb = open_workbook(demo)
    with pytest.raises(KeyError):
        explain_region(wb, "Nope", "A1:B2")


def test_cli_text_json_and_errors(demo: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["explain", str(demo), "--range", "H3:J7"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [
        "Sales 2024!H3:J7",
        "• H3:J7 holds 8 numbers, 7 texts.",
        "• Table H3:J7 with columns Region, Target, Growth; 4 rows below its header.",
    ]
    r = runner.invoke(cli, ["explain", str(demo), "--range", "'Sales 2024'!F4:F5", "--format", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["facts"][2] == {
        "text": "F4:F5 (2 formulas like =SUM(B4:E4), one per row): Returns the sum of North to West (B4:E4).",
        "cells": ["F4:F5"],
    }
    r = runner.invoke(cli, ["explain", str(demo), "--range", "B2:"])
    assert r.exit_code == 2 and "error:" in r.output and "Traceback" not in r.output
    r = runner.invoke(cli, ["explain", str(demo), "--range", "A1", "--sheet", "Missing"])
    assert r.exit_code == 2 and "Missing" in r.output and "Traceback" not in r.output

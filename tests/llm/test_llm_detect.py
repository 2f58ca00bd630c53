"""Table detection's model refinement with the real default model (Qwen2.5-Coder 0.5B)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from gridsight.detect import detect_tables
from gridsight.detect._refine import TableRangeRefiner
from gridsight.grid import Sheet
from gridsight.sources import open_workbook

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "tables" / "tasi"


def test_the_real_model_only_ever_picks_one_of_the_two_readings(runtime: Any) -> None:
    cells: dict[str, object] = {"A1": "Sales", "A2": "Region", "B2": "Q1", "C2": "Q2"}
    for i in range(3, 7):
        cells.update({f"A{i}": f"r{i}", f"B{i}": i, f"C{i}": i * 2})
    sheet = Sheet.from_cells("S", cells)
    refiner = TableRangeRefiner(runtime, runtime.name, sheet_budget_s=30.0)  # the choice, not speed
    t = time.perf_counter()
    det = detect_tables(sheet, refiner=refiner)
    assert time.perf_counter() - t < 30
    assert det.model == runtime.name and det.model_questions == 1
    assert [x.range.ref() for x in det.tables] in (["A2:C6"], ["A1:C6"])


@pytest.mark.parametrize("name", ["1.xlsx", "7.xlsx", "33.xlsx", "38.xlsx", "41.xlsx", "49.xlsx"])
def test_the_real_model_keeps_the_rules_right_answers(runtime: Any, name: str) -> None:
    """Sheets where the rules are exactly right and have a doubtful edge the model is asked about:
    the position-bias gate must keep the rules' answer."""
    if not CORPUS.is_dir():
        pytest.skip("shared corpus not present")
    entry = json.loads((CORPUS / "labels.json").read_text(encoding="utf-8"))[name]
    wb = open_workbook(CORPUS / "xlsx" / name)
    refiner = TableRangeRefiner(runtime, runtime.name, sheet_budget_s=30.0)  # the choice, not speed
    for sheet in {t["sheet"] for t in entry["tables"]}:
        rules = [t.range.ref() for t in detect_tables(wb.sheet(sheet)).tables]
        refined = detect_tables(wb.sheet(sheet), refiner=refiner)
        assert refined.model_questions >= 1
        assert [t.range.ref() for t in refined.tables] == rules
        labels = {t["range"] for t in entry["tables"] if t["sheet"] == sheet}
        assert labels <= set(rules)

"""Question answering with the real default model: the model tier may fill in, never invents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gridsight.demo import build_demo_workbook
from gridsight.qa import answer_question
from gridsight.qa._ask import evidence_valid
from gridsight.sources import open_workbook


def test_answers_with_the_real_model(runtime: Any, tmp_path: Path) -> None:
    wb = open_workbook(build_demo_workbook(tmp_path / "demo.xlsx"))
    ans = answer_question(wb, "What is the total of North?", model=runtime)
    assert (ans.status, ans.value, ans.route) == ("answered", 1815, "formula")  # the rules answer first
    ans = answer_question(wb, "How many unicorns have wings?", model=runtime)
    assert ans.status == "abstained" and ans.value is None  # nothing the table names: no model guess
    ans = answer_question(wb, "What is the median of West in the second half of the year?", model=runtime)
    if ans.status == "answered":  # whatever the model wrote was validated and reads the sheet
        assert ans.route == "formula" and ans.formula and evidence_valid(ans, wb)
    else:
        assert ans.reason


def test_real_model_breaks_a_tie_only_among_detected_tables(runtime: Any, tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    north = wb.active
    north.title = "North"
    south = wb.create_sheet("South")
    for ws, rows in (
        (north, (("Product", "Sales"), ("Tea", 5), ("Cake", 7))),
        (south, (("Product", "Sales"), ("Tea", 1), ("Cake", 2))),
    ):
        for row in rows:
            ws.append(row)
    wb.save(tmp_path / "two.xlsx")
    book = open_workbook(tmp_path / "two.xlsx")
    assert answer_question(book, "What is the total of Sales?").status == "abstained"  # no model: say which
    ans = answer_question(book, "What is the total of Sales?", model=runtime)
    assert ans.status == "answered" and (ans.table, ans.value) in {("North!A1:B3", 12), ("South!A1:B3", 3)}

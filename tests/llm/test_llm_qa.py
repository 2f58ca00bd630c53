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

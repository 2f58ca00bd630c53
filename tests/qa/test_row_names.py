"""Rows named by an initialism the question writes, and rows the planner leaves unnamed when only a
weak likeness in meaning points at one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from gridsight.qa import answer_question
from gridsight.sources import open_workbook

#: Operating statistics and balance lines (figures for 2022 and 2023).
_ROWS: list[tuple[str, tuple[float, float]]] = [
    ("Revenue passenger miles (RPMs)", (108_035, 113_400)),
    ("Available seat miles (ASMs)", (148_522, 153_811)),
    ("Cost per available seat mile (CASM)", (13.1, 13.4)),
    ("Fuel consumed, in gallons", (2_045, 2_103)),
    ("Short-term investments", (440.7, 455.2)),
    ("Treasury stock, at cost", (-87.0, -91.5)),
    ("Common stock", (206.0, 206.0)),
    ("Accumulated other comprehensive income (loss)", (-58.4, -41.2)),
]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Operating data", 2022, 2023])
    for label, figures in _ROWS:
        ws.append([label, *figures])
    path: Path = tmp_path_factory.mktemp("row-names") / "operating.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What were the ASMs in 2023?", 153_811),  # the label's own initialism, in brackets
        ("What was the RPM figure for 2022?", 108_035),  # a plural initialism read without its s
        ("What was the cost per ASM in 2023?", 13.4),  # a run of the label's words that it spells
        ("What was AOCI in 2022?", -58.4),  # initials of the label without its bracketed "(loss)"
    ],
)
def test_a_row_named_by_an_initialism(book: Any, question: str, value: float) -> None:
    answer = answer_question(book, question)
    assert answer.status == "answered", answer.reason
    assert answer.value == pytest.approx(value)


def test_a_row_only_weakly_near_in_meaning_is_not_taken(book: Any) -> None:
    # to MiniLM "marketable securities" is about as near ``Treasury stock, at cost`` as the
    # ``Short-term investments`` it means, and no word of theirs is the question's: no guess
    answer = answer_question(book, "Marketable securities for 2023?")
    assert answer.status == "abstained"

"""A ten-year record (years newest first, lines under captions, a ratio line and a head count): "revenue
per employee" divides one line by another, while a label with its own "per" ("dividend per share")
is that line; the year a line grew or fell the most is read against the year before. The figures
are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

YEARS = [str(y) for y in range(2025, 2019, -1)]
ROWS: list[list[Any]] = [
    ["Halloran Foods plc -- Six-year financial record"],
    [None, *YEARS],
    ["Income statement (£m)"],
    ["Revenue", 900.0, 880.0, 850.0, 800.0, 760.0, 700.0],
    ["Operating profit", 90.0, 70.0, 85.0, 60.0, 76.0, 50.0],
    ["Per share data (pence)"],
    ["Dividend per share", 12.0, 12.0, 11.0, 11.0, 10.0, 10.0],
    ["Other"],
    ["Average number of employees", 5_000, 4_900, 4_800, 4_700, 4_600, 4_500],
]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "record", ROWS, title="Record")


def test_a_line_per_another_line_divides(record: Any) -> None:
    assert answered(record, "What was revenue per employee in 2025?") == pytest.approx(900 / 5_000)
    assert answered(record, "What was the dividend per share in 2024?") == 12.0  # (a label's own "per")


def test_the_year_a_line_moved_the_most(record: Any) -> None:
    # (operating profit: 50, 76, 60, 85, 70, 90 from 2020: +26, -16, +25, -15, +20)
    assert answered(record, "In which year did operating profit fall the most?") == "2022"
    assert answered(record, "In which year did operating profit grow the most?") == "2021"


@pytest.mark.parametrize(
    "question",
    ["What was revenue per unicorn in 2025?", "What was revenue per?", "Per employee?"],
)
def test_odd_questions_get_an_answer_or_a_reason(record: Any, question: str) -> None:
    answers_or_says_why(record, question)

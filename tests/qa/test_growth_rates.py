"""A compound annual growth rate between two periods: (later / earlier) ^ (1 / years) - 1, over the
years the question says or the years between the periods, a fraction unless asked in per cent. The
figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

SUMMARY: list[list[Any]] = [
    ["Five-year record"],
    ["$m"],
    [None, "FY21", "FY22", "FY23", "FY24", "FY25"],
    ["Revenue", 200, 230, 250, 270, 320],
    ["Operating profit", 20, 24, 25, 27, 36],
]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "record.xlsx", SUMMARY, title="Record")


def test_a_cagr_compounds_over_the_years_between_the_periods(record: Any) -> None:
    assert answered(record, "What was the CAGR of revenue from FY21 to FY25?") == pytest.approx(
        (320 / 200) ** (1 / 4) - 1
    )
    asked = "What was the compound annual growth rate of operating profit between FY21 and FY25, in %?"
    assert answered(record, asked) == pytest.approx(100 * ((36 / 20) ** (1 / 4) - 1))


def test_a_cagr_compounds_over_the_years_the_question_says(record: Any) -> None:
    asked = "Calculate the 2-year CAGR of operating profit between FY23 and FY25 (in percent)."
    assert answered(record, asked) == pytest.approx(100 * ((36 / 25) ** 0.5 - 1))


def test_power_is_in_every_view_and_null_where_no_real_number() -> None:
    from gridsight.qa._sql import _power

    assert _power(4, 0.5) == 2.0
    assert _power(-8, 1 / 3) is None  # (a complex root is no answer)
    assert _power("x", 2) is None


@pytest.mark.parametrize(
    "question",
    ["What was the CAGR of revenue from FY25 to FY25?", "CAGR?", "What was the 0-year CAGR of revenue?"],
)
def test_odd_questions_get_an_answer_or_a_reason(record: Any, question: str) -> None:
    answers_or_says_why(record, question)

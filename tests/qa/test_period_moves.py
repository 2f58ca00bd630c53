"""The period in which a line moved the most from the period before -- "in which quarter did cash
fall the most", "which year saw the largest increase in revenue", "... grow the most in percentage
terms" -- over quarter-end dates written as dates (a balance sheet at five quarter ends) and over
years with a unit row under them (``2026 › $m``), put in time order whatever order the columns
stand in. And every day of a run of quarter ends takes part in a mean ("over the five quarter
ends"), though each of its words also stands in another's header. The figures are made up; each
answer is worked out beside its question."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

ENDS = [
    dt.datetime(2024, 12, 31),
    dt.datetime(2025, 3, 31),
    dt.datetime(2025, 6, 30),
    dt.datetime(2025, 9, 30),
    dt.datetime(2025, 12, 31),
]
QUARTERS: list[list[Any]] = [
    ["Quillfeather Labs, Inc."],
    ["Condensed Consolidated Balance Sheets (unaudited)"],
    [],
    [None, *ENDS],
    ["Cash and cash equivalents", 50_000, 49_000, 47_000, 43_000, 42_000],
    ["Accounts receivable, net", 20_000, 21_000, 22_000, 23_000, 24_000],
    ["Total current assets", 70_000, 70_000, 69_000, 66_000, 66_000],
    ["Deferred revenue, current", 30_000, 32_000, 35_000, 37_000, 38_000],
    ["Total current liabilities", 33_000, 35_200, 38_100, 40_300, 41_400],
    ["Net retention rate", 1.08, 1.10, 1.11, 1.10, 1.12],
]
# (newest year first, a unit row under the years)
YEARS: list[list[Any]] = [
    ["Statement of cash flows"],
    [None, "2026", "2025", "2024", "2023"],
    [None, "$m", "$m", "$m", "$m"],
    ["Receipts from customers", 2_100.0, 2_250.5, 1_980.2, 1_900.0],
    ["Payments to suppliers", -1_500.0, -1_620.0, -1_400.0, -1_380.0],
    ["Net cash from operating activities", 600.0, 630.5, 580.2, 520.0],
]


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "quarters", QUARTERS, title="Balance Sheet")


@pytest.fixture(scope="module")
def years(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "years", YEARS, title="Cash flow")


def test_the_quarter_a_balance_fell_the_most(quarters: Any) -> None:
    # (cash: -1,000, -2,000, -4,000, -1,000; the fall to 30 September 2025 is the largest)
    assert (
        answered(quarters, "In which quarter did cash and cash equivalents fall the most?")
        == "30 September 2025"
    )
    # (deferred revenue: +6.7%, +9.4%, +5.7%, +2.7%)
    q = "In which quarter did deferred revenue, current grow the most in percentage terms?"
    assert answered(quarters, q) == "30 June 2025"


def test_the_year_a_line_moved_the_most_newest_first(years: Any) -> None:
    # (receipts: 1,900 -> 1,980.2 -> 2,250.5 -> 2,100: up 80.2, up 270.3, down 150.5)
    assert answered(years, "In which year did receipts from customers grow the most?") == "2025"
    assert answered(years, "In which year did receipts from customers fall the most?") == "2026"
    # (net cash from operations: 520 -> 580.2 -> 630.5 -> 600: up 60.2, up 50.3, down 30.5)
    assert (
        answered(years, "Which year saw the largest increase in net cash from operating activities?")
        == "2024"
    )


def test_every_quarter_end_takes_part_in_a_mean(quarters: Any) -> None:
    mean = answered(quarters, "What was the average net retention rate over the five quarter ends?")
    assert mean == pytest.approx((1.08 + 1.10 + 1.11 + 1.10 + 1.12) / 5)


@pytest.mark.parametrize(
    "question",
    [
        "In which quarter did unicorns fall the most?",
        "In which quarter did cash fall the most and the least?",
        "Which year saw the largest increase?",
        "In which decade did receipts from customers grow the most?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(quarters: Any, years: Any, question: str) -> None:
    answers_or_says_why(quarters, question)
    answers_or_says_why(years, question)


def test_a_share_in_one_year_is_over_that_years_total(tmp_path_factory: pytest.TempPathFactory) -> None:
    # (a column headed by a year alone adds up nothing: the whole is the year's total line)
    rows: list[list[Any]] = [
        ["Operating revenue"],
        [None, "2017", "2016", "2015"],
        ["Passenger revenue", 900.0, 850.0, 800.0],
        ["Freight and mail revenue", 20.0, 18.0, 40.0],
        ["Other revenue", 80.0, 82.0, 60.0],
        ["Total operating revenue", 1_000.0, 950.0, 900.0],
    ]
    book = book_of(tmp_path_factory, "revenue", rows, title="Revenue")
    q = "What fraction of revenue was from freight and mail in 2017?"
    assert answered(book, q) == pytest.approx(0.02)

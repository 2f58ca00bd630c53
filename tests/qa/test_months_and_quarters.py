"""Monthly management accounts: a quarter or a half named over month columns is the sum of its
months, whatever total column stands beside them, and the table whose columns are those months is
the one read where another table (a budget-versus-actual report) fits the words as well. The figures
are made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of, book_of_sheets

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
REVENUE = [120, 130, 140, 150, 160, 170, 165, 155, 175, 180, 185, 200]
COSTS = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]

MONTHLY: list[list[Any]] = [
    ["Monthly profit and loss account, year ending 31 December 2025"],
    ["£000"],
    [None, *MONTHS, "FY25 total"],
    ["Revenue", *REVENUE, sum(REVENUE)],
    ["Technology", *COSTS, sum(COSTS)],
]

#: Months stored as dates on one sheet, the month's report against budget on another.
BY_DATE: list[list[Any]] = [
    ["Management accounts - profit and loss account"],
    [None, *(dt.datetime(2025, m, 1) for m in range(1, 7)), "H1 total"],
    ["Revenue", *REVENUE[:6], sum(REVENUE[:6])],
    ["Technology", *COSTS[:6], sum(COSTS[:6])],
]
REPORT: list[list[Any]] = [
    ["Budget vs actual - June 2025"],
    [None, "Actual", "Budget", "Variance"],
    ["Revenue", 170, 160, 10],
    ["Technology", 15, 14, -1],
]


@pytest.fixture(scope="module")
def monthly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "monthly.xlsx", MONTHLY, title="P&L 2025")


@pytest.fixture(scope="module")
def two_reports(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of_sheets(tmp_path_factory, "reports", {"P&L H1": BY_DATE, "BvA Jun-25": REPORT})


def test_a_quarter_over_month_columns_adds_up_its_months(monthly: Any) -> None:
    assert answered(monthly, "What was revenue in Q2?") == 150 + 160 + 170
    assert answered(monthly, "What was revenue in the second quarter?") == 480
    assert answered(monthly, "What was revenue in H1 2025?") == sum(REVENUE[:6])


def test_total_beside_a_quarter_names_no_total_column(monthly: Any) -> None:
    # "total" asks the quarter's sum: ``FY25 total`` is the year's
    assert answered(monthly, "What was total revenue in Q2 2025?") == 480
    assert answered(monthly, "What was the technology cost for the full year?") == sum(COSTS)


def test_the_table_of_the_months_named_is_read(two_reports: Any) -> None:
    # both tables have a Technology line; only one has the months of the first quarter as columns
    assert answered(two_reports, "What were total technology costs in Q1 2025?") == 10 + 11 + 12
    asked = "What were technology costs for the first quarter of 2025 (January to March)?"
    assert answered(two_reports, asked) == 33


@pytest.mark.parametrize(
    "question",
    ["What was revenue in Q5?", "What was revenue in Q2 1999?", "Revenue in the thirteenth month?", "Q2"],
)
def test_odd_quarters_get_an_answer_or_a_reason(monthly: Any, two_reports: Any, question: str) -> None:
    answers_or_says_why(monthly, question)
    answers_or_says_why(two_reports, question)


#: Months written in figures (``2025-01``, ``01/2025``) or short with a two-digit year (``Jan-25``);
#: costs shown negative, as many management accounts show them.
NEGATIVE_COSTS = [-c * 7 for c in COSTS]


def _monthly_in(headers: list[str]) -> list[list[Any]]:
    return [
        ["Monthly profit and loss account - 2025"],
        ["£000"],
        [None, *headers, "Total"],
        ["Revenue", *REVENUE, sum(REVENUE)],
        ["Cost of sales", *NEGATIVE_COSTS, sum(NEGATIVE_COSTS)],
    ]


@pytest.fixture(
    scope="module",
    params=[
        [f"2025-{m:02d}" for m in range(1, 13)],
        [f"{m:02d}/2025" for m in range(1, 13)],
        [f"{m}-25" for m in MONTHS],
    ],
    ids=["iso", "slash", "short"],
)
def in_figures(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "figures.xlsx", _monthly_in(request.param), title="P&L")


def test_months_written_in_figures_are_months(in_figures: Any) -> None:
    assert answered(in_figures, "What was revenue in March 2025?") == 140
    assert answered(in_figures, "What was revenue in Q3?") == 165 + 155 + 175
    assert answered(in_figures, "How much did revenue grow from January to December?") == 200 - 120
    assert answered(in_figures, "What was the average monthly revenue?") == pytest.approx(sum(REVENUE) / 12)
    assert answered(in_figures, "In how many months did revenue exceed 160?") == 6


def test_which_month_is_answered_by_its_header(in_figures: Any) -> None:
    best = answered(in_figures, "In which month was revenue highest?")
    assert best in ("2025-12", "12/2025", "Dec-25")


def test_a_cost_shown_negative_is_ranked_and_compared_by_its_size(in_figures: Any) -> None:
    # the lowest cost is January's 70, not December's -147
    assert answered(in_figures, "Which month had the lowest cost of sales?") in (
        "2025-01",
        "01/2025",
        "Jan-25",
    )
    assert answered(in_figures, "Which month had the highest cost of sales?") in (
        "2025-12",
        "12/2025",
        "Dec-25",
    )
    assert answered(in_figures, "Was cost of sales higher in June than in May?") is True


def test_months_written_with_two_year_figures_are_listed_when_named_in_a_row(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # ``Apr-24`` is April 2024: three months named with "and" and no word of a sum ask for each
    heads = ["Apr-24", "May-24", "Jun-24", "Jul-24"]
    book = book_of(
        tmp_path_factory,
        "mgmt",
        [["Monthly accounts", None], ["£"], [None, *heads], ["Net profit", 105, 160, 237, 90]],
    )
    assert answered(book, "Net profit for Apr-24, May-24 and Jun-24?") == [105, 160, 237]
    assert answered(book, "Total net profit for Apr-24, May-24 and Jun-24?") == 502

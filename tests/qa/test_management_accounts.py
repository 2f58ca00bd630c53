"""Monthly management accounts: a financial year that opens in April, its months across
(``Apr-25`` …), and beside them the year to date set against the budget (``Actual | Budget |
Variance``). Quarters and halves of the financial year count from its first month; a question about
months reads the table of months; a figure set against its budget is ``Actual`` less ``Budget`` (or
the ``Variance`` the table shows), not the budget. The figures are made up; each answer is worked out
beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

MONTHS = ["Apr-25", "May-25", "Jun-25", "Jul-25", "Aug-25", "Sep-25"]
LINES: dict[str, list[float]] = {
    "Revenue": [100.0, 110.0, 120.0, 130.0, 90.0, 150.0],  # YTD 700
    "Cost of sales": [40.0, 45.0, 50.0, 52.0, 38.0, 60.0],  # YTD 285
    "Gross profit": [60.0, 65.0, 70.0, 78.0, 52.0, 90.0],  # YTD 415
    "Overheads": [50.0, 50.0, 55.0, 50.0, 50.0, 55.0],  # YTD 310
    "Operating profit": [10.0, 15.0, 15.0, 28.0, 2.0, 35.0],  # YTD 105
}
# (line, actual, budget): the year to date against the budget
AGAINST = [("Revenue", 700.0, 720.0), ("Gross profit", 415.0, 400.0), ("Operating profit", 105.0, 90.0)]


def _rows() -> list[list[Any]]:
    rows: list[list[Any]] = [
        ["Larkspur Bakeries Ltd"],
        ["Monthly management accounts - FY2025/26"],
        ["£000, actuals to 30 September 2025"],
        [],
        [None, *MONTHS, "YTD", None, None, "Actual", "Budget", "Variance"],
    ]
    against = {line: (a, b) for line, a, b in AGAINST}
    for line, figures in LINES.items():
        beside: list[Any] = [None, None, None, None]
        if line in against:
            a, b = against[line]
            beside = [None, line, a, b, a - b]
        rows.append([line, *figures, sum(figures), *beside])
    return rows


@pytest.fixture(scope="module")
def accounts(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "mgmt.xlsx", _rows(), title="Management P&L")


def test_a_question_about_months_reads_the_table_of_months(accounts: Any) -> None:
    # (both tables hold a ``Gross profit`` line; only one has months)
    assert answered(accounts, "Which month had the highest gross profit?") == "Sep-25"
    assert answered(accounts, "In which month was operating profit lowest?") == "Aug-25"


def test_quarters_of_a_financial_year_count_from_its_first_month(accounts: Any) -> None:
    # (Q2 of a year that opens in April: July, August, September)
    assert answered(accounts, "What was revenue in Q2 of FY2025/26?") == 130 + 90 + 150
    assert answered(accounts, "What was revenue in the first quarter of the financial year?") == 330
    # (a calendar quarter the question writes with the months' own year stays calendar: April-June)
    assert answered(accounts, "What was revenue in Q2 2025?") == 330


def test_a_variance_against_budget_is_the_variance_not_the_budget(accounts: Any) -> None:
    assert answered(accounts, "What was the variance against budget for gross profit?") == 15
    assert answered(accounts, "What was the budget for revenue?") == 720


def test_a_figure_set_against_its_budget_is_actual_less_budget(accounts: Any) -> None:
    assert answered(accounts, "By how much did operating profit beat budget?") == 105 - 90
    assert answered(accounts, "By how much did operating profit exceed the budget?") == 15
    # (below it: the budget less the actual, a distance)
    assert answered(accounts, "How far below budget was revenue?") == 720 - 700
    assert answered(accounts, "By how much did revenue miss budget?") == 20
    assert answered(accounts, "Did revenue beat budget?") is False


@pytest.mark.parametrize(
    "question",
    [
        "By how much did revenue beat budget in 2031?",
        "What was the variance against against budget?",
        "What was revenue in Q7 of the financial year?",
        "Which month?",
        "",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(accounts: Any, question: str) -> None:
    answers_or_says_why(accounts, question)


def test_a_budget_beside_the_actual_alone_is_no_answer_to_by_how_much(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # (no ``Variance`` column: the difference is worked out, the ``Budget`` cell is not the answer)
    rows: list[list[Any]] = [
        ["Year to date against budget"],
        [],
        [None, "Actual", "Budget"],
        ["Revenue", 700.0, 720.0],
        ["Operating profit", 105.0, 90.0],
    ]
    book = book_of(tmp_path_factory, "ytd.xlsx", rows, title="YTD")
    assert answered(book, "By how much did operating profit beat budget?") == 15
    assert answered(book, "How far below budget was revenue?") == 20
    assert answered(book, "What was the budget for revenue?") == 720

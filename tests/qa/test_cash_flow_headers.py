"""A cash-flow statement whose headers carry more than periods: a unit row under the years (``$m``)
and, over the first year alone, the sign convention of every figure (``Inflows/(Outflows)``). The
convention names no column apart and the unit is no period, so "over the three years" and "from
2024 to 2026" take the three year columns. Also: a share whose part is said after its verb ("what
percentage of net cash from operating activities was paid out as dividends"), and the balance "at
the start of fiscal 2026" as the line ``... at the beginning of the financial year``. The figures
are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

ROWS: list[list[Any]] = [
    ["Wattle Creek Minerals Limited"],
    ["Consolidated statement of cash flows"],
    ["For the year ended 30 June 2026"],
    [],
    [None, "Note", "2026", "2025", "2024"],
    [None, None, "$m", "$m", "$m"],
    [None, None, "Inflows/(Outflows)", None, None],
    ["Cash flows from operating activities"],
    ["Receipts from customers", None, 1_800.0, 1_950.0, 1_700.0],
    ["Payments to suppliers and employees", None, -1_300.0, -1_420.0, -1_210.0],
    ["Income taxes paid", None, -80.0, -95.0, -75.0],
    ["Net cash inflow from operating activities", None, 420.0, 435.0, 415.0],
    [],
    ["Cash flows from financing activities"],
    ["Proceeds from borrowings", None, 100.0, 250.0, 50.0],
    ["Dividends paid", "21", -126.0, -150.0, -110.0],
    ["Net cash (outflow) from financing activities", None, -26.0, 100.0, -60.0],
    [],
    ["Net increase in cash and cash equivalents", None, 394.0, 535.0, 355.0],
    ["Cash and cash equivalents at the beginning of the financial year", None, 900.0, 365.0, 10.0],
    ["Cash and cash equivalents at the end of the financial year", "9", 1_294.0, 900.0, 365.0],
]


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "flows", ROWS, title="Cash flow")


def test_the_sign_convention_and_the_unit_name_no_period(flows: Any) -> None:
    assert answered(flows, "What were total dividends paid over the three years?") == pytest.approx(-386.0)
    mean = answered(flows, "What was the average income tax paid from 2024 to 2026?")
    assert mean == pytest.approx((-80.0 - 95.0 - 75.0) / 3)  # (a mean, not the change 2024 -> 2026)


def test_a_part_said_after_the_shares_verb(flows: Any) -> None:
    q = "What percentage of net cash from operating activities was paid out as dividends in 2026?"
    assert answered(flows, q) == pytest.approx(100 * 126.0 / 420.0)


def test_a_labels_own_and_lists_nothing(flows: Any) -> None:
    # ("suppliers and employees" is ``Payments to suppliers and employees``, not "paid" for
    # ``Dividends paid`` and "employees" for the payments)
    q = "What percentage of receipts from customers was paid to suppliers and employees in 2026?"
    assert answered(flows, q) == pytest.approx(100 * 1_300.0 / 1_800.0)
    # (a list that adds a line beside such a label stays a list: three lines, added as shown, as the
    # statement's own ``Net cash inflow from operating activities`` adds them)
    q = "Add up receipts from customers, payments to suppliers and employees and income taxes paid in 2025."
    assert answered(flows, q) == pytest.approx(1_950.0 - 1_420.0 - 95.0)


def test_the_balance_at_the_start_of_the_financial_year(flows: Any) -> None:
    assert answered(flows, "What was the cash balance at the start of fiscal 2026?") == 900.0
    assert answered(flows, "What was the cash balance at the end of fiscal 2024?") == 365.0


@pytest.mark.parametrize(
    "question",
    [
        "What percentage of unicorns was paid out as dividends in 2026?",
        "What was the cash balance at the start of fiscal 1999?",
        "Inflows/(Outflows)?",
        "What were total dividends paid over the seventeen years?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(flows: Any, question: str) -> None:
    answers_or_says_why(flows, question)

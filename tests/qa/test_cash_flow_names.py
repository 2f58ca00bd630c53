"""A cash flow statement's lines by the names analysts give them (capital expenditures, closing cash,
working-capital changes), a sign asked as "carry a negative sign", and an income statement whose
figures are written as German accounts write them (``48.210.334,12``). The figures are made up; each
answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

CASH_FLOWS: list[list[Any]] = [
    ["CONSOLIDATED STATEMENTS OF CASH FLOWS"],
    ["(in thousands)"],
    [None, "2025", "2024"],
    ["Cash flows from operating activities:"],
    ["Net income", 400, 380],
    ["Changes in operating assets and liabilities:"],
    ["Accounts receivable", -70, -31],
    ["Inventories", 49, -64],
    ["Accounts payable", 44, 64],
    ["Deferred revenue", -20, 45],
    ["Net cash provided by operating activities", 403, 394],
    ["Cash flows from investing activities:"],
    ["Purchases of property and equipment", -300, -220],
    ["Net cash used in investing activities", -300, -220],
    ["Net increase (decrease) in cash and cash equivalents", 103, 174],
    ["Cash and cash equivalents at beginning of period", 900, 726],
    ["Cash and cash equivalents at end of period", 1003, 900],
]


INCOME: list[list[Any]] = [
    ["CONSOLIDATED STATEMENTS OF OPERATIONS"],
    ["(in millions)"],
    [None, "Fiscal 2025", "Fiscal 2024", "Fiscal 2023"],
    ["Net sales", 5600, 5450, 5300],
    ["Operating income", 700, 650, 600],
    ["Income before income taxes", 680, 620, 560],
    ["Provision for income taxes", 136, 118, 84],
    ["Net income", 544, 502, 476],
]


def _german(x: float) -> str:
    """``x`` as German accounts write it: points between thousands, a decimal comma."""
    text = f"{abs(x):,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return ("-" if x < 0 else "") + text


GUV: list[list[Any]] = [
    ["Gewinn- und Verlustrechnung 2025"],
    [None, "2025", "2024"],
    [None, "EUR", "EUR"],
    ["1. Umsatzerlöse", _german(48210334.12), _german(45390118.50)],
    ["2. Personalaufwand", _german(-13620668.30), _german(-12860554.00)],
    ["3. Jahresüberschuss", _german(3684144.62), _german(3685000.00)],
]


@pytest.fixture(scope="module")
def cash_flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "cash_flows.xlsx", CASH_FLOWS)


@pytest.fixture(scope="module")
def income(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "income.xlsx", INCOME)


@pytest.fixture(scope="module")
def guv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "guv_text.xlsx", GUV)


def test_lines_by_the_names_analysts_give_them(cash_flows: Any) -> None:
    asked = "Give capital expenditures (capex) for 2024 exactly as presented, including its sign."
    assert answered(cash_flows, asked) == -220
    assert answered(cash_flows, "How large was closing cash in 2024?") == 900
    assert answered(cash_flows, "What was opening cash in 2025?") == 900
    assert answered(cash_flows, "What was the net change in cash in 2024?") == 174


def test_an_income_statement_by_analysts_words(income: Any) -> None:
    # the top line is net sales: 5600 - 5300; pre-tax income is ``Income before income taxes``
    top_line = "How much did the top line increase between fiscal 2023 and fiscal 2025?"
    assert answered(income, top_line) == 300
    asked = "What was the effective tax rate for 2023 (provision for income taxes as a percentage of pre-tax"
    asked += " income)?"
    assert answered(income, asked) == pytest.approx(15.0)


def test_free_cash_flow_by_its_usual_definition(cash_flows: Any) -> None:
    # operating cash flow less capital expenditure, paid out as shown: 403 - 300
    assert answered(cash_flows, "What was free cash flow in 2025?") == 103


def test_a_sign_carried_by_the_lines_of_a_section(cash_flows: Any) -> None:
    # "working-capital change lines" are the lines under ``Changes in operating assets and liabilities``
    asked = "For 2025, which working-capital change lines carry a negative sign?"
    assert answered(cash_flows, asked) == ["Accounts receivable", "Deferred revenue"]


def test_figures_written_as_german_accounts_write_them(guv: Any) -> None:
    assert answered(guv, "What were the Umsatzerlöse in 2025?") == pytest.approx(48210334.12)
    assert answered(guv, "By how much did Personalaufwand change from 2024 to 2025?") == pytest.approx(
        -760114.30
    )


@pytest.mark.parametrize(
    "question",
    ["Give capex for 1999.", "Which lines carry a purple sign?", "Umsatzerlöse 2025 minus nichts?"],
)
def test_odd_questions_get_an_answer_or_a_reason(cash_flows: Any, guv: Any, question: str) -> None:
    answers_or_says_why(cash_flows, question)
    answers_or_says_why(guv, question)


def test_a_figure_that_improved_rose_and_one_that_worsened_fell(cash_flows: Any) -> None:
    # net cash from operations: 394 in 2024, 403 in 2025; closing cash 900, then 1003
    assert (
        answered(cash_flows, "Did net cash provided by operating activities improve in 2025 on 2024?") is True
    )
    assert (
        answered(
            cash_flows, "Did net cash provided by operating activities worsen in 2025 compared with 2024?"
        )
        is False
    )
    assert answered(cash_flows, "By how much did cash at end of period improve from 2024 to 2025?") == 103

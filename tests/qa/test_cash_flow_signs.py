"""Signs and movements over a cash-flow statement's years: an outflow or an inflow asked of a flow,
in how many years a line rose (a line that is itself a change by its sign, any other against the
year before), which years, whether in each year, and the sections a ``Net cash ...`` total closes.
The figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

STATEMENT: list[list[Any]] = [
    ["Consolidated statement of cash flows"],
    ["£000"],
    [None, 2023, 2024, 2025],
    ["Cash flows from operating activities", None, None, None],
    ["Operating profit", 900, 1_100, 1_000],
    ["Depreciation", 200, 220, 240],
    ["Tax paid", -150, -170, -160],
    ["Net cash generated from operating activities", 950, 1_150, 1_080],
    ["Cash flows from investing activities", None, None, None],
    ["Purchase of equipment", -700, -400, -1_500],
    ["Sale of equipment", 50, 0, 30],
    ["Net cash used in investing activities", -650, -400, -1_470],
    ["Cash flows from financing activities", None, None, None],
    ["New loans", 0, 150, 600],
    ["Repayment of loans", -50, -80, -100],
    ["Dividends paid", -100, -120, -150],
    ["Net cash (used in)/from financing activities", -150, -50, 350],
    ["Net increase/(decrease) in cash", 150, 700, -40],
    ["Cash at beginning of year", 300, 450, 1_150],
    ["Cash at end of year", 450, 1_150, 1_110],
]


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "flows.xlsx", STATEMENT, title="Cash flow")


def test_an_outflow_or_an_inflow_asked_of_a_flow_is_its_sign(flows: Any) -> None:
    assert answered(flows, "Was there a net cash outflow from investing activities in 2024?") is True
    assert answered(flows, "Did financing activities generate net cash in 2025?") is True
    assert answered(flows, "Did the group have a net cash inflow from financing activities in 2024?") is False
    assert answered(flows, "Was net cash from financing activities an outflow in 2023?") is True


def test_years_a_line_rose_in_are_counted_against_the_year_before(flows: Any) -> None:
    # 1,100 over 900, then 1,000 under 1,100
    assert answered(flows, "In how many years did operating profit increase?") == 1
    assert answered(flows, "Which years saw operating profit rise?") == ["2024"]
    # dividends paid, shown negative, grew in size each year
    assert answered(flows, "Did dividends paid grow in each of the years shown?") is True


def test_a_line_that_is_a_change_rose_where_it_is_above_zero(flows: Any) -> None:
    assert answered(flows, "In how many of the three years did cash increase?") == 2
    assert answered(flows, "In which year did cash decrease?") == ["2025"]
    assert answered(flows, "Did cash increase in every year?") is False
    assert answered(flows, "Did cash decrease in 2025?") is True


def test_a_bound_met_in_each_year_is_met_in_all_of_them(flows: Any) -> None:
    assert answered(flows, "Was net cash from investing activities negative in every year?") is True
    asked = "Was net cash from financing activities an outflow in each of the three years?"
    assert answered(flows, asked) is False


def test_a_net_cash_total_closes_its_section_of_activities(flows: Any) -> None:
    # the lines after ``Net cash (used in)/from financing activities`` are no financing lines
    assert answered(flows, "Which financing activity lines were positive in 2025?") == ["New loans"]


@pytest.mark.parametrize(
    "question",
    [
        "In how many of the three years did cash increase and decrease?",
        "Was there a net cash outflow from nowhere in 2024?",
        "Did the moon generate net cash in 2025?",
        "Which years saw?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(flows: Any, question: str) -> None:
    answers_or_says_why(flows, question)

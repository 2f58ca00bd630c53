"""A fund family's statement of assets and liabilities: one column per fund, lettered notes on the
labels (``Investments, at value (a)`` with its note line ``(a) Investments, at cost`` below the
table), and each share class's net assets under a class heading beside the fund's ``NET ASSETS``.
The lettered note is no word of the label ("investments at value" names that line, not the one at
cost); a class's share of the fund is its ``Net assets`` over the fund's own ``NET ASSETS``, not over
the sum of the class's lines. The figures are made up; each answer is worked out beside it."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.text import without_marks

ROWS: list[list[Any]] = [
    ["Brookfield Lane Trust"],
    ["Statements of Assets and Liabilities"],
    ["March 31, 2026"],
    [],
    [None, "Core Bond Fund", "Global Equity Fund", "Money Market Fund"],
    ["ASSETS"],
    ["Investments, at value (a)", 900_000, 1_500_000, 400_000],
    ["Cash", 20_000, 35_000, 60_000],
    ["Total assets", 920_000, 1_535_000, 460_000],
    ["LIABILITIES"],
    ["Management fees payable", 400, 1_100, 150],
    ["Total liabilities", 400, 1_100, 150],
    ["NET ASSETS", 919_600, 1_533_900, 459_850],
    ["Paid-in capital", 939_600, 1_500_000, 460_000],
    ["Total distributable earnings (accumulated loss)", -20_000, 33_900, -150],
    [],
    ["INVESTOR CLASS:"],
    ["Net assets", 400_000, 600_000, 200_000],
    ["Shares outstanding", 40_000, 25_000, 200_000],
    ["Net asset value per share", 10.0, 24.0, 1.0],
    [],
    ["ADMIRAL CLASS:"],
    ["Net assets", 519_600, 933_900, 259_850],
    ["Shares outstanding", 51_960, 38_500, 259_850],
    ["Net asset value per share", 10.0, 24.26, 1.0],
    [],
    ["(a) Investments, at cost", 930_000, 1_300_000, 400_000],
]


@pytest.fixture(scope="module")
def funds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "funds", ROWS, title="Statement")


def test_a_lettered_note_is_no_word_of_the_label() -> None:
    assert without_marks("Investments, at value (a)") == "Investments, at value"
    assert without_marks("(b) Investments, at cost") == "Investments, at cost"
    assert without_marks("Class (A)") == "Class (A)"  # (a capital in brackets is a name: share class A)
    assert without_marks("(a)") == "(a)"  # (nothing but the mark: kept)


def test_value_and_cost_are_two_lines(funds: Any) -> None:
    q = "For the Global Equity Fund, what was the difference between investments at value and at cost?"
    assert answered(funds, q) == 1_500_000 - 1_300_000
    q = "What was the Core Bond Fund's investments at value minus investments at cost?"
    assert answered(funds, q) == -30_000


def test_a_class_share_of_the_fund(funds: Any) -> None:
    q = "What share of the Core Bond Fund's net assets belonged to the Investor Class?"
    assert answered(funds, q) == pytest.approx(400_000 / 919_600)
    q = "What percentage of the Global Equity Fund's net assets was in the Admiral Class?"
    assert answered(funds, q) == pytest.approx(100 * 933_900 / 1_533_900)


def test_funds_counted_by_the_side_of_a_line_they_hold(funds: Any) -> None:
    # (``... earnings (accumulated loss)``: "losses" is its negative side; "paid-in capital" any figure)
    assert answered(funds, "How many funds had accumulated losses?") == 2
    assert answered(funds, "How many funds had paid-in capital?") == 3


@pytest.mark.parametrize(
    "question",
    [
        "What share of the Core Bond Fund's net assets belonged to the Platinum Class?",
        "What share of the fund's unicorns belonged to the Investor Class?",
        "(a)",
        "What was the difference between (a) and (b)?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(funds: Any, question: str) -> None:
    answers_or_says_why(funds, question)

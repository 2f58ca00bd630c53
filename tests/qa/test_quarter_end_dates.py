"""A quarterly balance sheet of a bank: three dates across (the latest quarter end, the one before it
and the last year end), named in a question by their place -- "the most recent quarter end", "the
prior quarter end", a linked-quarter change, a year-to-date change -- and a line written with its
sign before it (``Less: Allowance for credit losses``), named by its words alone. The figures are made
up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._periods import with_dates

DATES = ["September 30, 2025", "June 30, 2025", "December 31, 2024"]
LINES: list[tuple[str, list[float] | None]] = [
    ("ASSETS", None),
    ("Cash and due from banks", [150.0, 140.0, 120.0]),
    ("Loans, net of unearned income", [4_000.0, 3_900.0, 3_700.0]),
    ("Less: Allowance for credit losses", [-50.0, -48.0, -45.0]),
    ("Loans, net", [3_950.0, 3_852.0, 3_655.0]),
    ("Total assets", [4_100.0, 3_992.0, 3_775.0]),
    ("LIABILITIES", None),
    ("Total deposits", [3_600.0, 3_520.0, 3_300.0]),
    ("Total liabilities", [3_700.0, 3_600.0, 3_390.0]),
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows: list[list[Any]] = [
        ["Harbourline Bancorp -- Consolidated Balance Sheets (dollars in thousands)"],
        [],
        [None, *DATES],
        *([label, *(figures or [])] for label, figures in LINES),
    ]
    return book_of(tmp_path_factory, "bank.xlsx", rows, title="Balance Sheet")


def test_quarter_ends_named_by_their_place_are_the_dates_the_headers_write() -> None:
    asked = "What were total deposits at the most recent quarter end?"
    assert with_dates(asked, DATES) == "What were total deposits at September 30, 2025?"
    asked = "What were total deposits at the prior quarter end?"
    assert with_dates(asked, DATES) == "What were total deposits at June 30, 2025?"
    asked = "What was the linked-quarter change in total deposits?"
    assert with_dates(asked, DATES).endswith("from June 30, 2025 to September 30, 2025?")
    asked = "What was the year-to-date change in total deposits?"
    assert with_dates(asked, DATES).endswith("from December 31, 2024 to September 30, 2025?")
    # (no quarter before the latest among the columns: the prior quarter is left as written)
    assert with_dates("At the prior quarter end?", ["September 30, 2025", "December 31, 2024"]) == (
        "At the prior quarter end?"
    )
    assert with_dates("At the latest quarter end?", ["2025", "2024"]) == "At the latest quarter end?"


def test_a_quarter_end_by_its_place(bank: Any) -> None:
    assert answered(bank, "What were total deposits at the most recent quarter end?") == 3_600
    assert answered(bank, "What were total deposits at the prior quarter end?") == 3_520
    assert answered(bank, "What was the linked-quarter change in total deposits?") == 80
    assert answered(bank, "What was the year-to-date increase in total assets?") == 4_100 - 3_775


def test_a_lines_sign_is_no_word_of_its_name(bank: Any) -> None:
    asked = (
        "What was the allowance for credit losses as a percentage of loans, net of unearned income, at "
        "June 30, 2025?"
    )
    assert answered(bank, asked) == pytest.approx(100 * 48 / 3_900)


@pytest.mark.parametrize(
    "question",
    [
        "What were total deposits at the quarter end before the prior quarter end?",
        "What was the year-to-date change in nothing at all?",
        "linked-quarter linked-quarter year-to-date",
        "",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(bank: Any, question: str) -> None:
    answers_or_says_why(bank, question)

"""A balance sheet whose group heads carry their own sums above their lines (``FIXED ASSETS``,
``Long-term liabilities``), as Nordic and German accounts set them out, with a column of note
references: a heading with a note but no figure (``LIABILITIES | 9 |``) heads the groups under it,
so "total liabilities" adds the lines of both its groups; two lines under a head are its group when
a group named with the same last word follows (``Long-term liabilities`` then ``Short-term
liabilities``); "total loans from financial institutions" adds the line each group writes. The
figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._groups import sum_groups

ROWS: list[list[Any]] = [
    ["Savon Puutuote Oy"],
    ["BALANCE SHEET 31.12.2025"],
    [],
    [None, "Note", "31.12.2025", "31.12.2024"],
    ["ASSETS"],
    ["FIXED ASSETS", None, 60_000, 58_000],
    ["Intangible assets", "1", 5_000, 4_000],
    ["Tangible assets", "2", 55_000, 54_000],
    ["CURRENT ASSETS", None, 40_000, 37_000],
    ["Inventories", "3", 15_000, 13_000],
    ["Short-term receivables", "4", 17_000, 16_500],
    ["Cash in hand and at banks", "5", 8_000, 7_500],
    ["TOTAL ASSETS", None, 100_000, 95_000],
    ["EQUITY AND LIABILITIES"],
    ["EQUITY", "6", 50_000, 47_500],
    ["Share capital", None, 1_000, 1_000],
    ["Retained earnings", None, 45_000, 43_500],
    ["Profit for the financial year", None, 4_000, 3_000],
    ["LIABILITIES", "7", None, None],
    ["Long-term liabilities", None, 20_000, 21_000],
    ["Loans from financial institutions", None, 18_000, 19_500],
    ["Other long-term liabilities", None, 2_000, 1_500],
    ["Short-term liabilities", None, 30_000, 26_500],
    ["Loans from financial institutions", None, 6_000, 4_000],
    ["Trade payables", None, 14_000, 13_000],
    ["Other liabilities", None, 4_000, 3_500],
    ["Accrued liabilities", None, 6_000, 6_000],
    ["TOTAL EQUITY AND LIABILITIES", None, 100_000, 95_000],
]


@pytest.fixture(scope="module")
def fas(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "fas", ROWS, title="Balance sheet")


def test_two_lines_are_a_group_beside_a_sibling_group() -> None:
    figures = [[20.0, 21.0], [18.0, 19.5], [2.0, 1.5], [30.0, 26.5], [6.0, 4.0], [14.0, 13.0], [10.0, 9.5]]
    names = ["Long-term liabilities", "Loans", "Other", "Short-term liabilities", "Loans", "Payables"]
    names.append("Other")
    assert sum_groups(figures, [None] * 7, None, names) == {0: 2, 3: 6}
    # (the same figures under heads of other names: "Revenue" over two lines adds them by arithmetic)
    other = ["Revenue", "Cost of sales", "Gross profit", "Expenses", "Staff", "Rent", "Other"]
    assert sum_groups(figures, [None] * 7, None, other) == {3: 6}


def test_a_heading_with_a_note_heads_its_groups(fas: Any) -> None:
    assert answered(fas, "What were total liabilities at 31.12.2025?") == 20_000 + 30_000
    assert answered(fas, "What were total liabilities at 31.12.2024?") == 21_000 + 26_500


def test_a_line_each_group_writes_is_added_when_its_total_is_asked(fas: Any) -> None:
    assert answered(fas, "What were total loans from financial institutions at 31.12.2025?") == 18_000 + 6_000
    assert answered(fas, "What were short-term loans from financial institutions at 31.12.2025?") == 6_000
    q = "Which long-term liability was the largest at 31.12.2024?"
    assert answered(fas, q) == "Loans from financial institutions"


@pytest.mark.parametrize(
    "question",
    [
        "What were total unicorns at 31.12.2025?",
        "What was note 7?",
        "What were total loans from financial institutions at 31.12.1999?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(fas: Any, question: str) -> None:
    answers_or_says_why(fas, question)

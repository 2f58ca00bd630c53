"""A statement of changes in equity: the equity components across, the same movements down once per
year between balance lines (``Balance at 1 January 2024`` … ``Balance at 31 December 2025``). A
movement is placed by its label and the year of the balance that closes its block. The workbook is a
real .xlsx written by openpyxl; the company and figures are made up."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

COMPONENTS = ["Share capital", "Retained earnings", "Total", "Non-controlling interests", "Total equity"]
#: label, then one figure per component (None: a section line).
MOVEMENTS: list[tuple[str, list[int] | None]] = [
    ("Balance at 1 January 2024", [50, 1200, 1250, 80, 1330]),
    ("Profit for the year", [0, 210, 210, 12, 222]),
    ("Transactions with owners", None),
    ("Dividends", [0, -90, -90, 0, -90]),
    ("Dividends paid to non-controlling interests", [0, 0, 0, -5, -5]),
    ("Balance at 31 December 2024", [50, 1320, 1370, 87, 1457]),
    ("Profit for the year", [0, 185, 185, 9, 194]),
    ("Transactions with owners", None),
    ("Dividends", [0, -101, -101, 0, -101]),
    ("Dividends paid to non-controlling interests", [0, 0, 0, -6, -6]),
    ("Balance at 31 December 2025", [50, 1404, 1454, 90, 1544]),
]


@pytest.fixture(scope="module")
def equity(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows: list[list[Any]] = [
        ["Wrenfield Foods plc"],
        ["Consolidated statement of changes in equity"],
        [],
        [None, "Attributable to owners of the Company"],
        [None, *COMPONENTS],
        [None, *(["£m"] * len(COMPONENTS))],
        *([label, *(figures or [])] for label, figures in MOVEMENTS),
    ]
    return book_of(tmp_path_factory, "equity", rows, title="SOCIE")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # (the movement of the year asked, not the other year's line of the same name)
        ("How much did dividends reduce retained earnings by in 2025?", -101),
        ("What profit for the year was credited to non-controlling interests in 2024?", 12),
        (
            "What was the dividend payout ratio for 2024, defined as dividends in retained earnings "
            "divided by profit for the year in retained earnings? Answer in %.",
            pytest.approx(100 * 90 / 210),  # (dividends, shown negative, by their size)
        ),
        # ("total equity" names ``Total equity``, not the ``Total`` column, which holds only its "total")
        ("What was total equity at 31 December 2024?", 1457),
    ],
)
def test_movements_by_year(equity: Any, question: str, answer: Any) -> None:
    assert answered(equity, question) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # (the balance lines that write the days asked, set against each other in the order asked)
        ("Was total equity higher at 31 December 2024 than at 1 January 2024?", True),
        ("Was retained earnings lower at 31 December 2025 than at 31 December 2024?", False),
        # (the start and the end of a year: its first and last balance line)
        ("Was total equity higher at the end of 2025 than at the start of 2024?", True),
        ("Was non-controlling interests lower at the start of 2024 than at the end of 2024?", True),
    ],
)
def test_balances_named_by_their_days(equity: Any, question: str, answer: Any) -> None:
    assert answered(equity, question) is answer


@pytest.mark.parametrize(
    "question",
    ["What was profit for the year in 2031?", "Dividends dividends dividends in 2024 2025?", "Balance at?"],
)
def test_hostile_questions_get_an_answer_or_a_reason(equity: Any, question: str) -> None:
    answers_or_says_why(equity, question)

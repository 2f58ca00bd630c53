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
    ("question", "answer"),
    [
        # (the day that closes a year names the year's movements, not the balance written on it)
        ("How much were dividends in retained earnings in the year ended 31 December 2025?", -101),
        ("What profit for the year went to non-controlling interests in the year to 31 December 2024?", 12),
        # (a line written once a year, asked over the years: their sum, their mean, the year it peaks)
        ("What were total dividends in retained earnings across the two years?", -90 - 101),
        ("What was the average profit for the year in total equity over the two years?", (222 + 194) / 2),
        ("In which year were dividends in retained earnings the largest?", "2025"),  # (by their size)
        ("In which year was profit for the year in retained earnings highest?", "2024"),
    ],
)
def test_a_years_movements_and_a_line_over_the_years(equity: Any, question: str, answer: Any) -> None:
    assert answered(equity, question) == answer


@pytest.mark.parametrize(
    "question",
    [
        "What was profit for the year in 2031?",
        "Dividends dividends dividends in 2024 2025?",
        "Balance at?",
        "What were total dividends across the years ended 31 December 2099?",
        "In which year?",
    ],
)
def test_hostile_questions_get_an_answer_or_a_reason(equity: Any, question: str) -> None:
    answers_or_says_why(equity, question)


def test_the_day_a_year_ends_names_its_movements_not_the_balance_on_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # (balances written ``At 30 June 2024``: "the year ended 30 June 2024" writes every word of one)
    rows: list[list[Any]] = [
        ["Statement of changes in equity for the three years ended 30 June 2025"],
        [None, "Share capital", "Retained earnings", "Total equity"],
        [None, "£m", "£m", "£m"],
        ["At 1 July 2022", 90, 3300, 3390],
        ["Profit for the year", 0, 390, 390],
        ["Dividends", 0, -200, -200],
        ["At 30 June 2023", 90, 3490, 3580],
        ["Profit for the year", 0, 380, 380],
        ["Dividends", 0, -170, -170],
        ["At 30 June 2024", 90, 3700, 3790],
        ["Profit for the year", 0, 400, 400],
        ["Dividends", 0, -175, -175],
        ["At 30 June 2025", 90, 3925, 4015],
    ]
    book = book_of(tmp_path_factory, "soce3.xlsx", rows, title="Changes in equity")
    assert answered(book, "How much were dividends in the year ended 30 June 2024?") == -170
    assert answered(book, "What was total equity at 30 June 2024?") == 3790
    assert answered(book, "What were total dividends over the three years?") == -545


RESERVES: list[list[Any]] = [
    ["Consolidated statement of changes in equity", None, None, None, None, None, None],
    [None, "Share capital", "Own shares", "Hedging reserve", "Retained earnings", "Total", "Total equity"],
    ["At 1 January 2025", 50, -18, 2, 654, 688, 688],
    ["Profit for the year", None, None, None, 100, 100, 100],
    ["Other comprehensive income", None, None, 6, -2, 4, 4],
    ["Dividends", None, None, None, -45, -45, -45],
    ["Purchase of own shares", None, -5, None, None, -5, -5],
    ["At 31 December 2025", 50, -23, 8, 707, 742, 742],
]


@pytest.fixture(scope="module")
def reserves(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "reserves", RESERVES, title="SOCE")


def test_which_columns_moved_over_the_year(reserves: Any) -> None:
    # (each component's closing balance less its opening one; the totals are no component)
    assert answered(reserves, "Which reserves decreased during 2025?") == ["Own shares"]
    q = "Which component of equity increased the most during 2025?"
    assert answered(reserves, q) == "Retained earnings"
    assert answered(reserves, "By how much did retained earnings increase in 2025?") == 707 - 654

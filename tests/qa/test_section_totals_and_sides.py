"""Statements read by their groups of lines: a total of a section that no line totals, a definition
written after a colon or with "over", kinds in brackets that share a head, lines put in order by
their group ("ranking the long-term asset lines"), the side of the balance sheet a line stands on,
and the parent company's columns.

The figures are made up; every answer is worked out by hand beside its question.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: An insurer's statement of financial position: its liabilities are listed and closed only by
#: ``Total equity and liabilities``; "Derivatives" stands on both sides.
INSURER: list[list[Any]] = [
    ["Statement of financial position"],
    ["", "31 Dec 2025", "31 Dec 2024"],
    ["Assets"],
    ["Buildings", 500, 480],
    ["Derivatives", 40, 35],
    ["Bonds held", 900, 850],
    ["Cash", 160, 135],
    ["Total assets", 1600, 1500],
    ["Equity"],
    ["Share capital", 100, 100],
    ["Retained profits", 300, 250],
    ["Total equity", 400, 350],
    ["Liabilities"],
    ["Claims reserves", 950, 900],
    ["Derivatives", 30, 25],
    ["Loan notes", 220, 225],
    ["Total equity and liabilities", 1600, 1500],
]

#: A balance sheet in the UK format: sections closed by unlabelled totals, a ``Borrowings`` line
#: under each liability heading.
UK_FORMAT: list[list[Any]] = [
    ["Balance sheet"],
    ["", "31 Mar 2025", "31 Mar 2024"],
    ["Non-current assets"],
    ["Plant", 700, 650],
    ["Software", 90, 95],
    ["Long-term deposits", 30, 30],
    ["", 820, 775],
    ["Current assets"],
    ["Stock", 210, 190],
    ["Trade debtors", 260, 240],
    ["Cash at bank", 75, 90],
    ["", 545, 520],
    ["Current liabilities"],
    ["Suppliers", -180, -170],
    ["Borrowings", -60, -50],
    ["", -240, -220],
    ["Non-current liabilities"],
    ["Borrowings", -340, -380],
    ["", -340, -380],
    ["Net assets", 785, 695],
    ["Equity"],
    ["Share capital", 200, 200],
    ["Retained earnings", 585, 495],
    ["Total equity", 785, 695],
]

#: A council's balance sheet: each block closed by a bold line that says no "Total".
COUNCIL: list[list[Any]] = [
    ["Balance Sheet"],
    ["", "Notes", "31 March 2025", "31 March 2024"],
    ["Land and Buildings", 10, 8000, 7800],
    ["Community Assets", 11, 600, 650],
    ["Investment Estate", 12, 900, 700],
    ["Long Term Debtors", 13, 150, 160],
    ["Long Term Assets", None, 9650, 9310],
    ["Short Term Debtors", 14, 820, 690],
    ["Cash Equivalents", 15, 240, 260],
    ["Current Assets", None, 1060, 950],
    ["Short Term Borrowing", 16, -300, -250],
    ["Short Term Creditors", 17, -500, -480],
    ["Current Liabilities", None, -800, -730],
    ["Long Term Borrowing", 16, -2000, -2100],
    ["Long Term Creditors", None, -100, -90],
    ["Long Term Liabilities", None, -2100, -2190],
    ["Net Assets", None, 7810, 7340],
]

#: Group and company balance sheets side by side (the UK format's ``Company`` is the parent).
GROUP_AND_COMPANY: list[list[Any]] = [
    ["Group and company balance sheets"],
    ["", "Group", None, "Company", None],
    ["", "2025", "2024", "2025", "2024"],
    ["Fixed assets"],
    ["Tangible assets", 4000, 3800, 300, 320],
    ["Shares in group undertakings", 0, 0, 2500, 2500],
    ["", 4000, 3800, 2800, 2820],
    ["Net assets", 5200, 5000, 2950, 2990],
]

#: A charity's statement of financial activities: fund columns, and a ``Total funds`` column per year.
ACTIVITIES: list[list[Any]] = [
    ["Statement of financial activities"],
    ["", "Note", "Unrestricted funds", "Restricted funds", "Total funds 2025", "Total funds 2024"],
    ["Income and endowments from:"],
    ["Gifts and bequests", 3, 52000, 31000, 83000, 80000],
    ["Charitable work", 4, 14000, 30000, 44000, 41000],
    ["Shop sales", 5, 9000, 0, 9000, 12000],
    ["Interest", 6, 2500, 400, 2900, 2100],
    ["Total income", None, 77500, 61400, 138900, 135100],
    ["Expenditure on:"],
    ["Raising funds", 7, 8000, 1000, 9000, 8500],
    ["Charitable work", 8, 60000, 58000, 118000, 121000],
    ["Total expenditure", None, 68000, 59000, 127000, 129500],
]


@pytest.fixture(scope="module")
def activities(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "activities", ACTIVITIES)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "source of income": a line of the income section; "(total funds)" places the column
        ("What was the largest source of income in 2025 (total funds)?", "Gifts and bequests"),
        ("What was the smallest source of income in 2024 (total funds)?", "Interest"),
        # "in total" places the column too: Gifts 83000 and Charitable work 44000
        ("How many income lines brought in more than 40,000 in total in 2025?", 2),
    ],
)
def test_a_group_named_beside_total_columns(activities: Any, question: str, answer: Any) -> None:
    assert answered(activities, question) == answer


#: The top of a cash flow statement: the cash from operations is about twice the profit.
OPERATIONS: list[list[Any]] = [
    ["Statement of cash flows"],
    ["", "2025", "2024"],
    ["Profit before tax", 1000, 1200],
    ["Depreciation", 900, 850],
    ["Working capital movements", 100, -50],
    ["Cash generated from operations", 2000, 2000],
    ["Tax paid", -250, -260],
    ["Net cash from operating activities", 1750, 1740],
]


@pytest.fixture(scope="module")
def operations(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "operations", OPERATIONS)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "A as a % of B" is A over B, though A is the larger: 2000 / 1000
        ("Cash conversion in 2025: cash generated from operations as a % of profit before tax?", 200),
        ("What was cash generated from operations as a percentage of profit before tax in 2024?", 2000 / 12),
        ("What was profit before tax as a percentage of cash generated from operations in 2024?", 60),
    ],
)
def test_a_figure_as_a_percentage_of_another(operations: Any, question: str, answer: float) -> None:
    assert answered(operations, question) == pytest.approx(answer)


@pytest.fixture(scope="module")
def insurer(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "insurer", INSURER)


@pytest.fixture(scope="module")
def uk_format(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "uk_format", UK_FORMAT)


@pytest.fixture(scope="module")
def council(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "council", COUNCIL)


@pytest.fixture(scope="module")
def group_and_company(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "group_and_company", GROUP_AND_COMPANY, merges=("B2:C2", "D2:E2"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # no line totals the liabilities: their lines added up, 950 + 30 + 220 = 1200, over 400
        ("Leverage at 31 Dec 2025: total liabilities divided by total equity?", 3.0),
        ("What is total liabilities divided by total equity at 31 Dec 2024?", 1150 / 350),
        # "over" divides; the colon opens the definition
        ("Cover at 31 Dec 2025: total assets over total liabilities", 1600 / 1200),
    ],
)
def test_a_section_no_line_totals(insurer: Any, question: str, answer: float) -> None:
    assert answered(insurer, question) == pytest.approx(answer)


def test_the_side_a_line_stands_on(insurer: Any) -> None:
    # "on the asset side" places ``Derivatives`` (40) under Assets; ``Total assets`` is no third line
    question = "At 31 Dec 2025, were derivatives on the asset side smaller than bonds held?"
    assert answered(insurer, question) is True
    question = "At 31 Dec 2025, were derivatives on the asset side larger than cash?"
    assert answered(insurer, question) is False


def test_kinds_in_brackets_share_their_head(uk_format: Any) -> None:
    # "(current + non-current borrowings)": both ``Borrowings`` lines, by size, (60 + 340) / 785
    question = "Gearing 31 Mar 2025: total debt (current + non-current borrowings) over total equity, in %"
    assert answered(uk_format, question) == pytest.approx(100 * 400 / 785)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the lines of both asset sections, smallest first: Software 90 is second after deposits 30
        (
            "Ranking the asset lines (non-current and current) at 31 Mar 2025, which comes second "
            "by size (counting from the smallest)?",
            "Cash at bank",
        ),
    ],
)
def test_lines_ranked_by_their_group(uk_format: Any, question: str, answer: str) -> None:
    assert answered(uk_format, question) == answer


def test_lines_ranked_above_their_closing_line(council: Any) -> None:
    # the lines ``Long Term Assets`` adds up, largest first: Land 7800, then Investment Estate 700
    question = "Ranking the long-term asset lines as at 31 March 2024, which comes second by size?"
    assert answered(council, question) == "Investment Estate"


def test_modifiers_in_brackets_take_the_name(council: Any) -> None:
    # "(short term plus long term)" are kinds of the borrowing named before them: 300 + 2000
    question = "How much did the council owe in total borrowing (short term plus long term) at 31 March 2025?"
    assert answered(council, question) == 2300


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "the parent" is the ``Company`` columns
        ("How much does the parent hold in shares in group undertakings (2025)?", 2500),
        ("Parent company net assets, 2024?", 2990),
        ("Group net assets, 2024?", 5000),
    ],
)
def test_the_parent_company(group_and_company: Any, question: str, answer: float) -> None:
    assert answered(group_and_company, question) == pytest.approx(answer)


#: Revenue by segment, with the line consolidation takes away between them.
SEGMENTS: list[list[Any]] = [
    ["Revenue by segment"],
    ["Segment", "FY2025", "FY2024"],
    ["Ferries", 820, 760],
    ["Harbours", 1400, 1350],
    ["Warehousing", 1100, 1180],
    ["Inter-segment eliminations", -90, -80],
    ["Total revenue", 3230, 3210],
]


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "segments", SEGMENTS)


def test_eliminations_are_no_segment(segments: Any) -> None:
    assert answered(segments, "Name the segment with the lowest revenue in FY2024.") == "Ferries"
    assert answered(segments, "Which segment had the lowest revenue in FY2024?") == "Ferries"

"""Statements read as their readers word them: a column with no year under a title that gives one,
a line under two headings told apart by what the question means ("spent"), a section shown in
brackets ranked by size, "the 2024 year", debt "less cash" by its size, lines that "were cash
outflows", and a cell two rows fit alike, which no route reads.

The figures are made up; every answer is worked out by hand beside its question.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: A charity's statement of activities: two fund columns with no year, under a title that gives it.
ACTIVITIES: list[list[Any]] = [
    ["Fernbrook Wildlife Fund"],
    ["Statement of activities for the year ended 31 March 2025"],
    [],
    ["", "Note", "General funds", "Designated funds", "Total 2025", "Total 2024"],
    ["Income from:"],
    ["Gifts", 2, 4100, 2200, 6300, 5900],
    ["Schools programme", 3, 1500, 900, 2400, 2100],
    ["Total income", None, 5600, 3100, 8700, 8000],
    ["Expenditure on:"],
    ["Fundraising", 4, 700, 100, 800, 750],
    ["Schools programme", 5, 3300, 2600, 5900, 5600],
    ["Total expenditure", None, 4000, 2700, 6700, 6350],
]

#: A balance sheet: liabilities in brackets, borrowings and leases under two headings each.
POSITION: list[list[Any]] = [
    ["Balance sheet"],
    ["", 2025, 2024],
    ["Current assets"],
    ["Stock", 300, 280],
    ["Cash at bank", 500, 450],
    ["Total current assets", 800, 730],
    ["Current liabilities"],
    ["Suppliers", -260, -240],
    ["Borrowings", -120, -100],
    ["Leases", -40, -35],
    ["Total current liabilities", -420, -375],
    ["Non-current liabilities"],
    ["Borrowings", -900, -950],
    ["Leases", -160, -170],
    ["Total non-current liabilities", -1060, -1120],
]

#: An income statement with a "Profit for the year" line, and a cash flow statement.
RESULTS: list[list[Any]] = [
    ["Income statement"],
    ["", 2024, 2023],
    ["Revenue", 9000, 8200],
    ["Cost of sales", -5000, -4700],
    ["Gross profit", 4000, 3500],
    ["Overheads", -2500, -2300],
    ["Other income", 300, 350],
    ["Profit for the year", 1800, 1550],
]
FLOWS: list[list[Any]] = [
    ["Cash flow statement"],
    ["", 2024, 2023],
    ["Investing activities"],
    ["Purchase of vans", -640, -500],
    ["Purchase of software", -90, -80],
    ["Sale of old vans", 45, 30],
    ["Grants received", 0, 20],
    ["Interest received", 12, 10],
    ["Net cash used in investing activities", -673, -520],
    ["Financing activities"],
    ["Interest paid", -75, -70],
    ["Income taxes paid", -210, -190],
    ["Net cash used in financing activities", -285, -260],
]


@pytest.fixture(scope="module")
def activities(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "activities", ACTIVITIES)


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "position", POSITION)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "results", RESULTS)


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "flows", FLOWS)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # ``Designated funds`` writes no year; the title's year is its own: D
        ("Designated gifts 2025?", 2200),
        # "spent" means the line under "Expenditure on:", not the same line under "Income from:"
        ("How much general money was spent on the schools programme in 2025?", 3300),
        ("How much general money was spent on the schools programme?", 3300),
        # the year of the title names no column that writes another year
        ("What was total income in 2024?", 8000),
    ],
)
def test_title_year_and_meant_heading(activities: Any, question: str, answer: float) -> None:
    assert answered(activities, question) == pytest.approx(answer)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # each line of the section in brackets: the smallest by size is Leases (-40), not Suppliers
        ("Smallest item under current liabilities in 2025?", "Leases"),
        ("Largest item under current liabilities in 2025?", "Suppliers"),
        # "borrowings" under both liability headings, added up, as a debt less the cash: 1020 - 500
        ("What was net debt (borrowings less cash at bank) in 2025?", 520),
        # (leases plus borrowings) less cash: 200 + 1020 - 500
        ("What was net debt (leases plus borrowings less cash at bank) in 2025?", 720),
    ],
)
def test_brackets_read_by_size(position: Any, question: str, answer: Any) -> None:
    got = answered(position, question)
    assert got == (pytest.approx(answer) if isinstance(answer, int | float) else answer)


def test_the_year_written_after_its_number(results: Any) -> None:
    # "the 2024 year" is the year's column; its "year" names no ``Profit for the year`` line
    assert answered(results, "By how much did gross profit change from 2023 to the 2024 year?") == 500
    assert answered(results, "Gross profit in the 2024 year?") == 4000


def test_a_fall_asked_with_its_sign(results: Any) -> None:
    # "how much did it fall" is a size (50); "as a signed number" asks the change, later less earlier
    assert answered(results, "How much did other income fall from 2023 to 2024?") == 50
    question = "How much did other income fall from 2023 to 2024? Give the change as a signed number."
    assert answered(results, question) == -50


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the two purchases: -640 and -90 (a nil line is no outflow)
        ("How many of the investing activity lines were cash outflows in 2024?", 2),
        ("How many investing activity lines were inflows in 2024?", 2),
        # the taxes paid (210) set against the interest paid (75) by size
        ("Were more income taxes paid than interest paid in 2024?", True),
        # "than in interest" leaves "paid" unsaid: the interest paid, not the interest received
        ("In 2024, was more paid in taxes than in interest?", True),
        ("In 2023, was less paid in interest than in taxes?", True),
    ],
)
def test_flows_by_their_sign(flows: Any, question: str, answer: Any) -> None:
    assert answered(flows, question) == answer

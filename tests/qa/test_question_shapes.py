"""Ways of asking that name no new operation: "List the three ... with the highest", "by how many
per cent did ... rise or fall", "Express A as a percentage of B", "Is it true that ...", "was "A" or
"B" the bigger figure", "the share of X made up by Y", a ratio "of women to men", context clauses
before the question ("Using the balance sheet: ...", "In the statement, at 31 December 2024, how
many ..."). The figures are made up."""

from __future__ import annotations

from typing import Any

import pytest
from openpyxl import Workbook

from gridsight.qa import answer_question
from gridsight.sources import open_workbook

#: year, users (total, male, female), usage rate (total, male, female)
USERS = [
    (2019, 3000, 1600, 1400, 70.0, 72.5, 67.5),
    (2020, 3300, 1700, 1600, 74.1, 75.0, 73.2),
    (2021, 3600, 1900, 1700, 78.3, 80.1, 76.4),
    (2022, 3500, 1800, 1700, 77.0, 78.2, 75.8),
    (2023, 3900, 2000, 1900, 81.2, 82.0, 80.4),
]

#: line, 31 Dec 2023, 31 Dec 2024
STATEMENT = [
    ("Non-current assets", None, None),
    ("Property, plant and equipment", 5200, 5000),
    ("Right-of-use assets", 800, 950),
    ("Intangible assets", 1200, 1300),
    ("Total non-current assets", 7200, 7250),
    ("Current assets", None, None),
    ("Inventories", 900, 1100),
    ("Trade receivables", 1400, 1300),
    ("Cash and cash equivalents", 500, 650),
    ("Total current assets", 2800, 3050),
    ("Total assets", 10000, 10300),
]


def _book(
    tmp_path_factory: pytest.TempPathFactory, name: str, rows: list[list[Any]], merges: tuple[str, ...] = ()
) -> Any:
    wb = Workbook()
    ws = wb.active
    for row in rows:
        ws.append(row)
    for cells in merges:
        ws.merge_cells(cells)
    path = tmp_path_factory.mktemp(name) / f"{name}.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.fixture(scope="module")
def users(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Years down the rows, a count band and a rate band, each by sex with a total."""
    head = [
        ["Internet use by sex"],
        [],
        ["Year", "Users (thousands)", None, None, "Usage rate (%)", None, None],
    ]
    head.append([None, "Total", "Male", "Female", "Total", "Male", "Female"])
    book = _book(tmp_path_factory, "users", [*head, *map(list, USERS)], ("A3:A4", "B3:D3", "E3:G3"))
    return book


@pytest.fixture(scope="module")
def statement(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows = [["Consolidated statement of financial position"], ["EUR thousand", "31 Dec 2023", "31 Dec 2024"]]
    return _book(tmp_path_factory, "statement", [*rows, *map(list, STATEMENT)])


def _value(book: Any, question: str) -> Any:
    ans = answer_question(book, question)
    assert ans.status == "answered", ans.reason
    return ans.value


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("List the three years with the highest number of internet users (total).", ["2023", "2021", "2022"]),
        (
            "Between 2019 and 2023, by how many per cent did the number of male internet users rise or fall?",
            25.0,
        ),
        (
            "Express the number of male internet users in 2021 as a percentage of the number of internet "
            "users for both sexes combined in 2021, to one decimal place.",
            52.8,
        ),
        ("What is the ratio of the usage rate for women to that for men in 2019? Two decimals.", 0.93),
    ],
)
def test_statistics_shapes(users: Any, question: str, expected: Any) -> None:
    assert _value(users, question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Using the balance sheet: is it true that inventories fell between 2023 and 2024?", False),
        (
            'Was "Right-of-use assets" or "Intangible assets" the bigger figure at 31 December 2024? '
            "Answer with the line label.",
            "Intangible assets",
        ),
        (
            'Calculate the share of total assets made up by "Right-of-use assets" at 31 December 2023, '
            "in percent.",
            8.0,
        ),
        (
            "In the statement, at 31 December 2024, how many individual lines under current assets are "
            "greater than 1,000?",
            2,
        ),
        # the noise of binary fractions is no part of an answer: 0.1 + 0.2 is 0.3
        ("What were inventories plus cash and cash equivalents at 31 December 2024?", 1750),
    ],
)
def test_statement_shapes(statement: Any, question: str, expected: Any) -> None:
    assert _value(statement, question) == expected


@pytest.fixture(scope="module")
def monthly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A PX-Web export: months coded ``2023M01`` down the rows, one column per sector."""
    rows: list[list[Any]] = [["month", "Households", "Services"]]
    for i in range(1, 13):
        rows.append([f"2023M{i:02d}", 1000 + 10 * i, 700 - (-1) ** i * 20 - i])
    return _book(tmp_path_factory, "monthly", rows)


@pytest.fixture(scope="module")
def quarterly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Quarters coded as trimesters (``2023T1``) and semesters (``S1 2023``) across."""
    rows = [
        ["Province", "2022T4", "2023T1", "2023T2", "S1 2023", "S2 2023"],
        ["Arlen", 210, 230, 190, 420, 400],
        ["Brisk", 150, 160, 170, 330, 360],
        ["Total", 360, 390, 360, 750, 760],
    ]
    return _book(tmp_path_factory, "quarterly", rows)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # statistics offices' period codes are the periods a question names in words
        ("What was the electricity use by households in February 2023?", 1020),
        ("In how many of the months from March 2023 to August 2023 was the use by services over 690?", 3),
        ("What was the number for Arlen in the second quarter of 2023?", 190),
        ("By how much did Brisk change from the first semester of 2023 to the second semester of 2023?", 30),
    ],
)
def test_period_codes(monthly: Any, quarterly: Any, question: str, expected: Any) -> None:
    book = monthly if "month" in question or "use" in question else quarterly
    assert _value(book, question) == expected

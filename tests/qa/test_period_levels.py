"""Periods as one header level among others, and stub columns of codes that are more than one
token (``A00-B99, U07``, ``C00-D48 (rest)``): "which year ..." chooses among the periods under the
measure the question names, and the names beside the codes name the rows. The figures are made up."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import answered, book_of

#: (code, cause, count 2021, 2022, 2023, rate 2021, 2022, 2023)
CAUSES = [
    ("A00-Z99, U07", "All causes", 5000, 5200, 5100, 400.0, 410.5, 405.2),
    ("B10-B19", "Infections", 1200, 1100, 1300, 95.1, 87.0, 102.3),
    ("C00-C97 (part)", "Tumours", 2100, 2300, 2000, 166.2, 181.9, 158.7),
    ("D50-D89", "Blood disorders", 1700, 1800, 1800, 134.7, 141.6, 144.2),
]


@pytest.fixture(scope="module")
def causes(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Deaths by cause: a code column, the causes beside it, a count band and a rate band over the
    same three years."""
    rows: list[list[Any]] = [
        ["Table 2: Deaths by cause, 2021 to 2023"],
        [],
        ["Code", "Cause", "Deaths (number)", None, None, "Per 100 000 population", None, None],
        [None, None, 2021, 2022, 2023, 2021, 2022, 2023],
        *map(list, CAUSES),
    ]
    return book_of(tmp_path_factory, "causes", rows, ("C3:E3", "F3:H3"), title="Table 2")


@pytest.fixture(scope="module")
def airports(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A flat ranking: two years of passengers, a change column and a rank."""
    rows: list[list[Any]] = [
        ["Airport", "2022", "2023", "% change", "Rank"],
        ["Harbour Field", 812.5, 790.1, -2.8, 1],
        ["Moor End", 402.0, 455.3, 13.3, 2],
        ["Stonebridge", 120.4, 131.0, 8.8, 3],
    ]
    return book_of(tmp_path_factory, "airports", rows)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the counts are read when the question asks no rate; the rate band when it does
        ("Which year had the highest number of deaths from tumours?", "2022"),
        ("In which year was the death rate per 100 000 population for blood disorders highest?", "2023"),
        # codes with spaces and brackets beside the causes: the causes name the rows
        ("Which cause had the fewest deaths in 2023?", "Infections"),
        ("What was the number of deaths from infections in 2021 and 2022 combined?", 2300),
    ],
)
def test_periods_under_the_measure_named(causes: Any, question: str, expected: Any) -> None:
    assert answered(causes, question) == expected


def test_which_year_in_a_flat_table(airports: Any) -> None:
    assert answered(airports, "For which year was the passenger number at Harbour Field lowest?") == "2023"
    # a rank column beside the years is derived from them, as the change column is: lines over periods
    assert answered(airports, "What were the passengers at Stonebridge summed over 2022 and 2023?") == 251.4


@pytest.fixture(scope="module")
def industries(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An output index by industry: code ranges (``B-E``) over the codes they span, weights that add
    up under them and indices that do not, and an "of which" line."""
    rows: list[list[Any]] = [
        ["Industry", "Code", "Weight", "Index 2023", "Index 2024"],
        ["All industries", "A-F", 1000, 101.5, 103.0],
        ["Farming", "A", 90, 99.0, 98.2],
        ["Industry", "B-E", 400, 102.0, 104.4],
        ["Mining", "B", 50, 97.3, 99.9],
        ["Factories", "C", 220, 104.1, 106.0],
        ["of which: Food", "C10", 60, 101.0, 102.2],
        ["Power", "D", 80, 100.2, 103.1],
        ["Water", "E", 50, 98.8, 101.7],
        ["Building", "F", 510, 101.9, 102.6],
    ]
    return book_of(tmp_path_factory, "industries", rows)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a range code holds the codes inside it: its lines are a group named by the range's line
        ("Within industry, which sub-industry had the lowest index in 2023?", "Mining"),
        ("Within industry, how many sub-industries had a weight above 60?", 2),
        # an "of which" line is a part already counted: no member of a count, even when quoted
        (
            "Excluding the total and the 'of which' line, how many industries had an index above 101 "
            "in 2024?",
            4,
        ),
    ],
)
def test_groups_of_a_classification(industries: Any, question: str, expected: Any) -> None:
    assert answered(industries, question) == expected

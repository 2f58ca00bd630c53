"""A superlative that asks for a row without "which": "Lowest jobless rate of the listed countries
in 2020?", "Second-highest country for the rate in 2021?" name a row of a flat table whose one label
column holds the countries; "Highest rate in 2020?" still asks the figure; "values 2019 through
2021" lists them. And "which sex had the higher all-ages rate" over a ``Sex and age group`` column,
the age groups under ``Men`` and ``Women``, chooses between the sections; "for each quarter" over
``Jan to Mar`` ... lists the quarters of the stacked table the question names.

The figures are made up; every answer is worked out by hand beside its question.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: A statistics office's download: one label column, a year in each column, ":" where not available.
RATES: list[list[Any]] = [
    ["Jobless rate by country"],
    ["GEO (Labels)", "2019", "2020", "2021"],
    ["Union - 5 countries", 7.0, 7.4, 6.9],
    ["Arland", 5.1, 5.6, 4.9],
    ["Belmoor", 9.8, 10.2, 9.1],
    ["Corvia", ":", 4.8, 5.3],
    ["Dunmark", 6.2, 6.9, 7.3],
    ["Esterra", 8.4, 9.5, 8.0],
]


#: Age groups under each sex, the row header naming both levels.
BY_SEX: list[list[Any]] = [
    ["Admissions by sex and age group"],
    ["Sex and age group", "Admissions", None, "Rate per 100,000", None],
    [None, "2022", "2023", "2022", "2023"],
    ["Men"],
    ["0 to 39", 2100, 2200, 120.5, 125.0],
    ["40 and over", 5400, 5600, 610.2, 640.8],
    ["All ages", 7500, 7800, 301.0, 312.4],
    ["Women"],
    ["0 to 39", 2300, 2250, 131.1, 128.3],
    ["40 and over", 5200, 5900, 580.9, 655.0],
    ["All ages", 7500, 8150, 298.7, 321.9],
]


@pytest.fixture(scope="module")
def by_sex(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "by_sex", BY_SEX)


@pytest.fixture(scope="module")
def rates(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "rates", RATES)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Lowest jobless rate of the listed countries in 2020?", "Corvia"),  # 4.8
        ("Highest jobless rate among the countries in 2019?", "Belmoor"),  # 9.8 (Corvia has none)
        ("Second-lowest country for the jobless rate in 2021?", "Corvia"),  # 4.9, then 5.3
        ("Highest jobless rate in 2020?", 10.2),  # (the figure: no kind of row said)
        ("Lowest rate in 2021?", 4.9),
    ],
)
def test_a_superlative_names_a_row_by_its_kind(rates: Any, question: str, expected: Any) -> None:
    assert answered(rates, question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which sex had the higher all-ages rate in 2022?", "Men"),  # 301.0 against 298.7
        ("Which sex had the higher all-ages rate in 2023?", "Women"),  # 321.9 against 312.4
        ("Which sex had more admissions aged 0 to 39 in 2023?", "Women"),  # 2250 against 2200
    ],
)
def test_which_names_the_first_level_of_the_row_header(by_sex: Any, question: str, expected: Any) -> None:
    assert answered(by_sex, question) == expected


@pytest.mark.parametrize(
    "question", ["Belmoor: values 2019 through 2021?", "Belmoor figures from 2019 to 2021?"]
)
def test_values_over_a_span_are_listed(rates: Any, question: str) -> None:
    # (one figure per year, not their sum nor the change between the ends)
    assert answered(rates, question) == [9.8, 10.2, 9.1]


def test_a_span_with_an_operation_is_no_list() -> None:
    from gridsight.qa._pipeline import expected_type

    assert expected_type("Belmoor: values 2019 through 2021?") == "list"
    assert expected_type("What is the sum of the values from 2019 to 2021 for Belmoor?") == "number"
    assert expected_type("How did the figures change from 2019 to 2021?") is None


#: Two tables stacked under one header each, their quarters written as runs of months.
STACKED: list[list[Any]] = [
    ["Table 1: Trips abroad by purpose, 2025"],
    ["Units: thousands of trips"],
    ["Purpose", "Jan to Mar", "Apr to Jun", "Jul to Sep", "Oct to Dec", "2025"],
    ["Holiday", 900, 850, 1200, 950, 3900],
    ["Business", 300, 320, 280, 310, 1210],
    ["All purposes", 1200, 1170, 1480, 1260, 5110],
    [None],
    ["Table 2: Spending abroad by purpose, 2025"],
    ["Units: £ million"],
    ["Purpose", "Jan to Mar", "Apr to Jun", "Jul to Sep", "Oct to Dec", "2025"],
    ["Holiday", 610, 580, 900, 640, 2730],
    ["Business", 210, 230, 190, 220, 850],
    ["All purposes", 820, 810, 1090, 860, 3580],
]


@pytest.fixture(scope="module")
def stacked(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "stacked", STACKED)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("List the all purposes trips for each quarter, in order.", [1200, 1170, 1480, 1260]),
        ("List business spending for each quarter.", [210, 230, 190, 220]),
    ],
)
def test_each_quarter_written_as_months_in_the_table_named(
    stacked: Any, question: str, expected: Any
) -> None:
    assert answered(stacked, question) == expected

"""The top row of a section asked other ways than "which ... had the highest": "Name the X with the
largest Y", "Looking at Y, which X ranks highest?"; and the top group where a label repeats ("across all
products": each region's lines added up). The figures are made up; each answer is worked
out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: Emissions by sector, the energy sub-sectors indented under their section line.
EMISSIONS: list[list[Any]] = [
    ["Table 1. Emissions by source sector"],
    ["kt CO2-eq."],
    ["Source sector", "2022", "2023"],
    ["Energy", 500, 480],
    ["  Energy industries", 200, 170],
    ["  Transport", 180, 190],
    ["  Other sectors", 120, 120],
    ["Agriculture", 90, 85],
    ["Waste", 40, 35],
    ["Total emissions", 630, 600],
]


#: Units by region and product: the best single line is West's, the best region East.
UNITS: list[list[Any]] = [
    ["Region", "Product", "Q1", "Q2"],
    ["East", "Basic", 40, 30],
    ["East", "Pro", 35, 30],
    ["West", "Basic", 50, 20],
    ["West", "Pro", 5, 10],
]


@pytest.fixture(scope="module")
def units(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "units", UNITS)


def test_the_top_group_across_the_other_label(units: Any) -> None:
    # Q1: East 40 + 35 = 75 against West 50 + 5 = 55 (West's Basic line, 50, is the best single line)
    assert answered(units, "Which region had the highest Q1 sales across all products?") == "East"
    assert answered(units, "Which region had the highest total Q1 sales?") == "East"


#: Inspections, one row each: the inspection type repeats more than any cuisine.
VISITS: list[list[Any]] = [
    ["Restaurant", "Cuisine Description", "Inspection Type", "Score"],
    ["Aldo", "Italian", "Initial", 12],
    ["Bamboo", "Chinese", "Initial", 20],
    ["Casa", "Italian", "Initial", 9],
    ["Dragon", "Chinese", "Initial", 15],
    ["Elia", "Italian", "Re-inspection", 7],
]


@pytest.fixture(scope="module")
def visits(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "visits", VISITS)


def test_the_records_named_as_a_whole_name_no_column(visits: Any) -> None:
    # Italian 3 against Chinese 2 ("inspection records" are the rows, not ``Inspection Type``)
    assert answered(visits, "Which cuisine appears most often in the inspection records?") == "Italian"
    assert answered(visits, "How many restaurants are in the table?") == 5


@pytest.fixture(scope="module")
def emissions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "emissions", EMISSIONS)


def test_name_the_row_with_the_largest(emissions: Any) -> None:
    # 2023's energy sub-sectors: transport 190 over industries 170 and other 120
    assert (
        answered(emissions, "Name the energy sub-sector with the largest emissions in 2023.") == "Transport"
    )
    # 2022: industries 200
    asked = "Identify the energy sub-sector that had the highest emissions in 2022."
    assert answered(emissions, asked) == "Energy industries"


def test_looking_at_a_measure_which_row_ranks(emissions: Any) -> None:
    asked = "Looking at the emissions in 2023, which energy sub-sector ranks highest?"
    assert answered(emissions, asked) == "Transport"
    asked = "Looking at the emissions in 2022, which energy sub-sector comes last?"
    assert answered(emissions, asked) == "Other sectors"


def test_odd_rank_questions_get_an_answer_or_a_reason(emissions: Any) -> None:
    answers_or_says_why(emissions, "Name the the with the largest?")
    answers_or_says_why(emissions, "Looking at nothing at all, which ranks highest?")

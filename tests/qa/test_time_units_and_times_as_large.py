"""A span of time asked in another unit than the column keeps ("over an hour" of ``Duration (min)``,
"more than two weeks" of ``LengthOfStay_days``), and "how many times as large as A was B" (B over A).
The figures are made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: Rides, their minutes and fares.
RIDES: list[list[Any]] = [
    ["ride_id", "Duration (min)", "fare_usd"],
    [1, 12, 3.5],
    [2, 75, 9.0],
    [3, 61, 8.0],
    [4, 45, 6.0],
    [5, 130, 14.0],
    [6, 25, 4.5],
]

#: Hospital stays and their length in days.
STAYS: list[list[Any]] = [
    ["PatientID", "Department", "LengthOfStay_days"],
    [101, "Surgery", 3],
    [102, "Surgery", 16],
    [103, "Cardiology", 21],
    [104, "Cardiology", 9],
    [105, "Oncology", 15],
]

#: Landings by species and year, under a two-row header.
LANDINGS: list[list[Any]] = [
    ["Landings by species"],
    ["Species", "Quantity (tonnes)", None, "Value (EUR thousand)", None],
    [None, "2023", "2024", "2023", "2024"],
    ["Cod", 400, 500, 900, 1000],
    ["Herring", 1200, 900, 700, 600],
    ["Sprat", 300, 240, 150, 120],
]


@pytest.fixture(scope="module")
def rides(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "rides", RIDES)


@pytest.fixture(scope="module")
def stays(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "stays", STAYS)


@pytest.fixture(scope="module")
def landings(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "landings", LANDINGS, merges=("B2:C2", "D2:E2"))


def test_a_span_of_time_in_the_columns_unit(rides: Any, stays: Any) -> None:
    # 75, 61 and 130 minutes are over 60
    assert answered(rides, "How many rides lasted over an hour?") == 3
    # 12 and 25 are under 30 minutes
    assert answered(rides, "How many rides took less than half an hour?") == 2
    # 16, 21 and 15 days are more than 14
    assert answered(stays, "How many patients stayed for more than two weeks?") == 3


def test_how_many_times_as_large_as_the_first_was_the_second(landings: Any) -> None:
    # sprat 2023 over sprat 2024: 300 / 240
    asked = "How many times as large as the quantity of sprat in 2024 was the quantity of sprat in 2023?"
    assert answered(landings, asked) == pytest.approx(1.25)


def test_odd_spans_get_an_answer_or_a_reason(rides: Any) -> None:
    answers_or_says_why(rides, "How many rides lasted over an an hour hours?")
    answers_or_says_why(rides, "How many rides lasted more than 0 weeks?")

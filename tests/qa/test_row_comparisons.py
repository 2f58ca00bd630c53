"""Flat tables asked about rows that two measures single out, ordinals that name a value, group
averages between long names, a column asked for that shares its name with another column's value,
and a measure named only by meaning: "is the courier with the most parcels also the one with the
highest cost?", "how many crews work the second shift?", "on average, is the load heavier for vans
leaving Quay St & 3 Ave than for vans leaving Old Mill Yard?", "which depot has the most vans with a
route above 40 km?" where a cause column holds ``Depot``, "the range of song lengths" over
``duration_ms``. The tables are made up."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.formula._generate import generate_formula

from .conftest import answered, answers_or_says_why

#: van, depot, shift, start point, delay cause, parcels, load (kg), route_km, cost, driver_age, arrival
#: and departure delays (minutes)
VANS = [
    ("V01", "North", 1, "North Quay St & W 3 Ave Gate", "Traffic", 120, 400, 35, 410, 52, 12, 5),
    ("V02", "North", 2, "Old Mill Yard", "Depot", 95, 650, 48, 380, 31, 40, 22),
    ("V03", "South", 1, "North Quay St & W 3 Ave Gate", "Weather", 140, 900, 44, 520, 45, 7, 9),
    ("V04", "South", 3, "Old Mill Yard", "Weather", 80, 500, 52, 300, 60, 55, 30),
    ("V05", "East", 2, "North Quay St & W 3 Ave Gate", "Traffic", 60, 720, 41, 610, 28, 3, 1),
    ("V06", "East", 2, "Old Mill Yard", "Weather", 150, 540, 30, 450, 39, 18, 14),
    ("V07", "South", 1, "Harbour Gate", "Depot", 110, 610, 46, 470, 44, 26, 35),
    ("V08", "North", 3, "Harbour Gate", "Depot", 70, 480, 43, 290, 57, 9, 11),
]
HEAD = (
    "van_id",
    "Depot",
    "shift",
    "start_point",
    "delay_reason",
    "parcels",
    "load_kg",
    "route_km",
    "cost",
    "driver_age",
    "arr_delay",
    "dep_delay",
)

#: song, artist, duration_ms, plays
SONGS = [
    ("Blue Fields", "Ana Ruiz", 201000, 900),
    ("Low Tide", "Ben Okafor", 187500, 1200),
    ("Paper Moon", "Ana Ruiz", 243250, 700),
    ("Signal", "Cleo Marsh", 176000, 1500),
]


@pytest.fixture(scope="module")
def vans(flat_book: Any) -> Any:
    return flat_book(HEAD, VANS)


@pytest.fixture(scope="module")
def songs(flat_book: Any) -> Any:
    return flat_book(("song", "artist", "duration_ms", "plays"), SONGS)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the van with the most parcels (V06) has cost 450, not the highest (610)
        ("Is the van with the most parcels also the one with the highest cost?", False),
        # the oldest driver (V04, 60) has the longest route (52)
        ("Does the oldest driver also have the longest route?", True),
        ("Is the van with the heaviest load also the one with the most parcels?", False),
        # the depot of the most parcels (East, V06) and of the highest cost (East, V05)
        ("Is the depot with the most parcels the same as the depot with the highest cost?", True),
    ],
)
def test_one_row_first_by_two_measures(vans: Any, question: str, expected: bool) -> None:
    assert answered(vans, question) is expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Is the maximum load greater than the maximum cost?", True),
        ("Is the minimum route lower than the minimum parcels?", True),
    ],
)
def test_extremes_of_two_columns_compared(vans: Any, question: str, expected: bool) -> None:
    assert answered(vans, question) is expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How many vans work the second shift?", 3),
        ("How many vans are on the 3rd shift?", 2),
        ("What is the total cost of first shift vans?", 1400),
    ],
)
def test_an_ordinal_names_a_value(vans: Any, question: str, expected: float) -> None:
    assert answered(vans, question) == pytest.approx(expected)


def test_group_averages_between_long_names(vans: Any) -> None:
    # North Quay St & W 3 Ave Gate: (400 + 900 + 720) / 3 = 673.3; Old Mill Yard: (650 + 500 + 540) / 3
    # = 563.3 (the first rows alone say otherwise: 400 < 650)
    question = (
        "On average, is the load greater for vans leaving North Quay St & W 3 Ave Gate than for vans"
        " leaving Old Mill Yard?"
    )
    assert answered(vans, question) is True


def test_a_column_asked_for_is_no_value_of_another(vans: Any) -> None:
    # routes above 40 km: North V02, V08; South V03, V04, V07; East V05 -- South has the most (the
    # delay cause Depot, which only V02 and V08 of those have, is not meant)
    assert answered(vans, "Which depot has the most vans with a route above 40 km?") == "South"


def test_what_is_counted_comes_before_its_conditions(vans: Any) -> None:
    # routes above 40 km by cause: Depot V02, V07, V08; Weather V03, V04; Traffic V05 (V04, the
    # longest route, has Weather); the formula counts too, not the longest route's cause
    question = "Which delay cause has the most deliveries with a route above 40 km?"
    assert answered(vans, question) == "Depot"
    formula = generate_formula(question, vans)
    assert formula.shape == "most-common" and formula.value == "Depot"


def test_listed_values_of_the_column_ranked(vans: Any) -> None:
    # (not the delay causes with the highest total delay)
    assert answered(vans, "List the 3 highest arrival delays.") in ([55, 40, 26], [[55], [40], [26]])
    assert generate_formula("List the 3 highest arrival delays.", vans).shape == "top-n-values"


def test_a_measure_named_by_meaning(songs: Any) -> None:
    assert answered(songs, "What is the range of song lengths?") == 243250 - 176000


@pytest.mark.parametrize(
    "question",
    [
        "Is the zorp with the highest blarg also the one with the most quux?",
        "How many vans work the ninth shift?",
        "Is the maximum nothing greater than the maximum of itself?",
    ],
)
def test_odd_questions_answer_or_say_why(vans: Any, question: str) -> None:
    answers_or_says_why(vans, question)

"""Flat tables: a measure named by meaning beside a category whose value starts the same word ("the
total rainfall" beside a sky of ``Rain``), the things a table of their days lists counted once
("how many sites are there"), and "what % of" as a share of a measure.

Each answer is computed here from the rows themselves, and the question pipeline must give it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

SITES = ["Hollow Tor", "Gull Head", "Reed Flats", "Ash Moor"]
SKIES = ["Rain", "Sun", "Cloud"]
HEADER = ["Site", "Day", "Zone", "Sky", "Precipitation (mm)", "Humidity (%)", "Wind (km/h)"]


def _days() -> list[list[Any]]:
    rng = random.Random(11)
    rows = []
    for site in SITES:
        for day in range(1, 31):
            sky = SKIES[rng.randrange(3)]
            rain = round(rng.random() * 12, 1) if sky == "Rain" else round(rng.random() * 2, 1)
            rows.append(
                [site, f"2025-06-{day:02d}", "Coast" if "Head" in site else "Upland", sky, rain,
                 rng.randint(40, 99), round(rng.random() * 40, 1)]
            )  # fmt: skip
    return rows


DAYS = _days()


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "days", [HEADER, *DAYS], title="Weather sites")


def test_a_measure_by_meaning_is_no_value_by_its_start(days: Any) -> None:
    # "rainfall" means the precipitation column; its start is no sky of ``Rain`` to keep rows by
    total = sum(r[4] for r in DAYS if r[0] == "Gull Head")
    assert answered(days, "What is the total rainfall measured at Gull Head?") == pytest.approx(total)
    # ... while "rainy days" keeps the days of rain
    rainy = [r[4] for r in DAYS if r[3] == "Rain"]
    assert answered(days, "What is the average rainfall on rainy days?") == pytest.approx(
        sum(rainy) / len(rainy)
    )


@pytest.mark.parametrize(("question", "answer"), [
    ("How many sites are there?", len(SITES)),
    ("How many weather sites are in the data?", len(SITES)),
    ("How many zones are there?", 2),
])  # fmt: skip
def test_things_listed_are_counted_once(days: Any, question: str, answer: int) -> None:
    assert answered(days, question) == answer


def test_percent_sign_asks_a_share_of_a_measure(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows = [["Unit", "Sales", "Staff"], ["North", 120, 9], ["South", 300, 14], ["East", 80, 6]]
    book = book_of(tmp_path_factory, "units", rows)
    assert answered(book, "What % of sales came from South?") == pytest.approx(100 * 300 / 500)


#: Rooms to let: a price per night beside the fewest nights, and a flag whose header's first word
#: the second holds (``seller_is_powerseller``: "powerseller rooms" names it).
ROOMS_HEADER = [
    "room_id",
    "Town",
    "Fare per Night (€)",
    "fewest_nights",
    "seller_is_powerseller",
    "Elevation (m)",
]
ROOMS = [
    [
        f"r{i:03d}",
        ["Lyle", "Orton", "Brede"][i % 3],
        40 + (i * 37) % 260,
        1 + (i * 7) % 30,
        i % 4 == 0,
        10 * i,
    ]
    for i in range(40)
]


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "rooms", [ROOMS_HEADER, *ROOMS])


def test_a_unit_and_a_linking_word_need_no_naming(rooms: Any) -> None:
    # "nightly fares" names ``Fare per Night (€)`` whole (its "per" and its unit are not missed),
    # not ``fewest_nights`` by "nightly" alone
    top = sorted((r[2] for r in ROOMS if r[4]), reverse=True)[:3]
    assert answered(rooms, "What are the 3 highest nightly fares among powerseller rooms?") == top
    assert answered(rooms, "What is the highest elevation?") == max(r[5] for r in ROOMS)

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


#: Crossings: a fare in a currency, a captain and a vessel per sailing, and a flag whose header's
#: letters a run of other words could spell (``onboard_cafe_open``).
CROSSING_HEADER = [
    "sailing_id",
    "Vessel",
    "Captain",
    "Fare (EUR)",
    "Delay (min)",
    "onboard_cafe_open",
    "Cancelled",
]
VESSELS, CAPTAINS = ["MV Kite", "MV Heron", "MV Puffin"], ["Ana Lutz", "Bo Kerr", "Cy Moss", "Di Penn"]
CROSSINGS = [
    [9000 + i, VESSELS[i % 3], CAPTAINS[i % 4], round(10 + (i * 7.3) % 15, 2), (i * 11) % 47, i % 5 != 0,
     i % 7 in (0, 1) or i in (2, 4)]
    for i in range(30)
]  # fmt: skip


@pytest.fixture(scope="module")
def crossings(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "crossings", [CROSSING_HEADER, *CROSSINGS])


def _top(col: int, n: int, by: int) -> list[Any]:
    return [r[col] for r in sorted(CROSSINGS, key=lambda r: -r[by])[:n]]


def test_who_was_the_noun_reads_its_column(crossings: Any) -> None:
    # "who was the captain": the captain of the row, never the vessel another route reads
    assert (
        answered(crossings, "Who was the captain on the sailing with the biggest delay?") == _top(2, 1, 4)[0]
    )


def test_a_fare_in_a_currency_is_what_expensive_ranks(crossings: Any) -> None:
    # the currency says the fare is a price: "most expensive" and "priciest" rank it
    assert answered(crossings, "Who was the captain on the most expensive sailing?") == _top(2, 1, 3)[0]
    assert answered(crossings, "Who was the captain on the 3 priciest sailings?") == _top(2, 3, 3)
    # "cheapest fare" is no abbreviation of ``cafe``: every sailing counts
    assert answered(crossings, "What was the cheapest fare?") == min(r[3] for r in CROSSINGS)


def test_the_most_of_a_flag_counts_its_rows(crossings: Any) -> None:
    # "the most cancellations": the sailings whose ``Cancelled`` holds, counted per vessel; "name the
    # 2 vessels" asks which two
    counts: dict[str, int] = {}
    for r in CROSSINGS:
        counts[r[1]] = counts.get(r[1], 0) + int(r[6])
    ranked = sorted(counts, key=lambda v: -counts[v])
    assert len(set(counts.values())) == len(counts)  # (no tie to settle)
    assert answered(crossings, "Which vessel had the most cancellations?") == ranked[0]
    assert answered(crossings, "Name the 2 vessels that had the most cancellations.") == ranked[:2]


#: Loans: a kind of member, a renewals count, and job adverts by place.
LOANS_HEADER = ["loan_ref", "member_no", "Member Type", "Renewals", "Item Title"]
KINDS = ["Adult", "Child", "Senior"]
LOANS = [
    [f"L{i}", 500 + i % 9, KINDS[i % 3], (i * 5) % 7 + (i % 3 == 2), f"Book {i % 11}"] for i in range(45)
]
ADVERTS_HEADER = ["advert_id", "Job Title", "Location", "hirer", "applicants"]
ADVERTS = [[i, ["Analyst", "Engineer", "Designer"][i % 3], ["Oslo", "Lyon", "Porto", "Lyon"][i % 4],
            ["Acme Ltd", "Borealis", "Cobalt Co"][i % 3], (i * 37) % 101] for i in range(24)]  # fmt: skip


def test_groups_by_what_the_words_before_the_superlative_name(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    loans = book_of(tmp_path_factory, "loans", [LOANS_HEADER, *LOANS])
    means = {
        t: sum(r[3] for r in LOANS if r[2] == t) / sum(1 for r in LOANS if r[2] == t)
        for t in ("Adult", "Child", "Senior")
    }
    # "renews ... the most on average": the verb before the superlative names ``Renewals``
    assert answered(loans, "Which member type renews loans the most on average?") == max(means, key=means.get)
    adverts = book_of(tmp_path_factory, "adverts", [ADVERTS_HEADER, *ADVERTS])
    # "city" names ``Location`` by meaning; "job" of "job postings" names no group
    assert answered(adverts, "Which city has the most job postings?") == "Lyon"
    # "posted the job with the most applicants": that one row's hirer, not a group's
    top = max(ADVERTS, key=lambda r: r[4])
    assert answered(adverts, "Which hirer posted the job with the most applicants?") == top[3]


def test_a_year_inside_a_value_names_no_dates(tmp_path_factory: pytest.TempPathFactory) -> None:
    # "the 2021/22 season" is the ``Season`` value; its matches run into 2022, and every one counts
    import datetime as dt

    rows: list[list[Any]] = [["match_no", "Season", "Played on", "Crowd"]]
    for i in range(24):
        season = "2021/22" if i < 12 else "2022/23"
        day = dt.datetime(2021 + (i >= 12), 9, 1) + dt.timedelta(days=25 * (i % 12))
        rows.append([i + 1, season, day, 9000 + (i * 613) % 4000])
    book = book_of(tmp_path_factory, "matches", rows)
    crowds = sorted(r[3] for r in rows[1:13])[:3]
    assert answered(book, "List the 3 smallest crowds of the 2021/22 season.") == crowds


def test_the_noun_and_the_word_it_heads_name_the_answer(tmp_path_factory: pytest.TempPathFactory) -> None:
    # "what tile makers": ``tileMaker``, not ``Tile Count`` (whose "count" names no word of a header)
    rows: list[list[Any]] = [["roof_id", "Roof Area (m2)", "Tile Count", "tileMaker"]]
    makers = ["Redland", "Marley", "Sandtoft", "Forterra"]
    rows += [[i, 40 + (i * 17) % 90, 300 + (i * 31) % 500, makers[i % 4]] for i in range(20)]
    book = book_of(tmp_path_factory, "roofs", rows)
    top = sorted(rows[1:], key=lambda r: -r[1])[:3]
    assert len({r[1] for r in rows[1:]}) == 20
    assert answered(book, "What tile makers were used on the 3 biggest roofs?") == [r[3] for r in top]

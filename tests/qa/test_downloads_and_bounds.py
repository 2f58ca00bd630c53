"""A statistics download as it comes (a title, metadata lines, then the table, ``:`` where a figure
is not available), asked the way people ask: a bound set by another row ("above the EU figure"),
the latest figure there is, the year of a peak, a mean over the years that have figures. And a flat
list ranked by an adjective made from a header's word ("the priciest", "the best-attended") or by a
noun that means a column ("the largest crowd"). The figures are made up; each answer is worked out
by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: Jobless rates (per cent) by country and year, under a dataset title and two metadata lines.
DOWNLOAD: list[list[Any]] = [
    ["Jobless rate by country – annual data [jr_a]"],
    [],
    ["UNIT", None, "Percentage of the labour force"],
    ["AGE", None, "From 15 to 74 years"],
    [],
    ["GEO (Labels)", "2019", "2020", "2021", "2022"],
    ["European Union - 27 countries (from 2020)", 7.0, 7.4, 7.2, 6.5],
    ["Norland", 5.0, 5.5, 5.1, 4.8],
    ["Sudmark", 9.1, 9.9, ":", 8.7],
    ["Ostavia", 6.2, 7.9, 7.5, 6.9],
    ["Westerby", 8.0, 8.2, 8.4, ":"],
]

#: Rooms to let, one row each.
ROOMS: list[list[Any]] = [
    ["room_id", "Kind of room", "Price per Night (€)", "minimum_nights", "Bedrooms", "Attendance"],
    [1, "Entire home", 120, 2, 2, 30],
    [2, "Private room", 60, 1, 1, 45],
    [3, "Entire home", 310, 3, 4, 12],
    [4, "Shared room", 35, 7, 1, 60],
    [5, "Private room", 95, 2, 1, 25],
]


#: Offences by area: a code column, the areas' names, and the total of them all on the first row.
AREAS: list[list[Any]] = [
    ["Table 5: Offences recorded, by area"],
    ["Area code", "Area name", "Number of offences", "Rate per 1,000 population"],
    ["K0000000", "All areas shown [note 1]", 4000, 5.0],
    ["E0000001", "Ashby", 1200, 6.0],
    ["E0000002", "Brinton", 900, 4.0],
    ["E0000003", "Calder", 1400, 5.5],
    ["E0000004", "Dunmore", 500, 3.5],
]


@pytest.fixture(scope="module")
def download(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "download", DOWNLOAD)


@pytest.fixture(scope="module")
def areas(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "areas", AREAS)


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "rooms", ROOMS)


def test_the_table_under_a_download_s_metadata_lines(download: Any) -> None:
    # the question names a country and no year: the table below the metadata lines, not them
    assert answered(download, "In which year was Norland's jobless rate lowest?") == "2022"
    assert answered(download, "When was the EU jobless rate at its peak?") == "2020"


def test_a_bound_set_by_another_rows_figure(download: Any) -> None:
    # 2020, the EU at 7.4: Sudmark 9.9, Ostavia 7.9 and Westerby 8.2 above, Norland below
    assert answered(download, "How many countries were above the EU figure in 2020?") == 3
    assert answered(download, "Which countries were below the EU value in 2020?") == ["Norland"]


def test_the_latest_figure_there_is_and_a_mean_over_the_years_with_figures(download: Any) -> None:
    # Westerby's 2022 is ":": its latest available figure is 2021's
    assert answered(download, "What's the most recent available jobless rate for Westerby?") == 8.4
    # Sudmark's three years with figures: (9.1 + 9.9 + 8.7) / 3
    asked = "What was Sudmark's average jobless rate from 2019 to 2022, over the years that have data?"
    assert answered(download, asked) == pytest.approx(9.2333, abs=1e-3)


def test_ranked_by_an_adjective_made_from_a_headers_word(rooms: Any) -> None:
    # the priciest rooms: 310 and 120 a night, with 4 and 2 bedrooms
    assert answered(rooms, "How many bedrooms do the 2 priciest rooms have?") == [4, 2]
    assert answered(rooms, "What kind of room is the best-attended one?") == "Shared room"
    # no header says "crowd": the column it means
    assert answered(rooms, "What was the largest crowd?") == 60


def test_a_total_on_the_first_row_is_passed_over(areas: Any) -> None:
    # the fewest of the four areas, not the total above them
    assert answered(areas, "Which area recorded the fewest offences?") == "Dunmore"
    assert answered(areas, "Offences in Ashby and Calder combined?") == 2600
    assert answered(areas, "Difference in offences between Ashby and Brinton (Ashby minus Brinton)?") == 300
    # (6.0 + 4.0 + 5.5 + 3.5) / 4, the total's own rate left out as the question says
    asked = "What is the average rate per 1,000 across the areas, ignoring the total row?"
    assert answered(areas, asked) == pytest.approx(4.75)

"""A statistics download as it comes (a title, metadata lines, then the table, ``:`` where a figure
is not available), asked the way people ask: a bound set by another row ("above the EU figure"),
the latest figure there is, the year of a peak, a mean over the years that have figures. And a flat
list ranked by an adjective made from a header's word ("the priciest", "the best-attended") or by a
noun that means a column ("the largest crowd"). The figures are made up; each answer is worked out
by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

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


#: Events by year, years down the rows (the latest two marked revised and provisional), with a rate
#: and each year's % change on the year before.
SERIES: list[list[Any]] = [
    ["Table 6: Births and deaths, 2016 to 2022"],
    [
        "Year",
        "Live births",
        "Deaths",
        "Birth rate (per 1,000 population)",
        "Live births: % change on previous year",
    ],
    ["2016", 5000, 4800, 10.0, "[x]"],
    ["2017", 4900, 4900, 9.8, -2.0],
    ["2018", 4850, 5000, 9.7, -1.0],
    ["2019", 4900, 5100, 9.8, 1.0],
    ["2020", 4700, 5600, 9.4, -4.1],
    ["2021 [r]", 4750, 5500, 9.5, 1.1],
    ["2022 [p]", 4600, 5400, 9.2, -3.2],
]


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "series", SERIES)


def test_years_down_the_rows_with_their_marks(series: Any) -> None:
    # the span runs through the marked years
    assert answered(series, "Live births, 2019 to 2022, as a list?") == [4900, 4700, 4750, 4600]
    # the five latest years: (9.7 + 9.8 + 9.4 + 9.5 + 9.2) / 5
    assert answered(series, "Average birth rate over the five most recent years?") == pytest.approx(9.52)
    # the rate's own column, not the births its words also touch
    assert answered(series, "What was the birth rate for 2018?") == 9.7
    # the column that says "on previous year" is read as it stands ...
    assert answered(series, "What was the % change in births on the previous year in 2020?") == -4.1
    # ... and a span of years is a change between their rows: (4,600 - 5,000) / 5,000
    assert answered(series, "What's the % change in live births between 2016 and 2022?") == pytest.approx(
        -8.0
    )


#: Population (thousands) of two countries and the regions under each, the countries' lines adding
#: up their regions, and the two countries together on top.
REGIONS: list[list[Any]] = [
    ["Table 1: Mid-year population estimates, thousands"],
    ["Area code", "Area name", "Mid-2021", "Mid-2022"],
    ["K0001", "England and Wales", 10300, 10450],
    ["E0001", "England", 9000, 9120],
    ["E1001", "North East", 2500, 2520],
    ["E1002", "London", 4300, 4400],
    ["E1003", "South West", 2200, 2200],
    ["W0001", "Wales", 1300, 1330],
    ["W1001", "North Wales", 400, 410],
    ["W1002", "Mid Wales", 300, 290],
    ["W1003", "South Wales", 600, 630],
]


@pytest.fixture(scope="module")
def regions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "regions", REGIONS)


def test_a_section_named_by_an_adjective(regions: Any) -> None:
    # "English" is no letter of ``England``'s, but means it: its regions, not the countries
    assert answered(regions, "Which English region had the largest population in mid-2022?") == "London"
    assert answered(regions, "Which English region ranked second by population in mid-2021?") == "North East"
    assert answered(regions, "Which Welsh area had the smallest population in mid-2022?") == "Mid Wales"


#: People in work (thousands) by age band, in three years each split by sex, the persons beside.
WORKERS: list[list[Any]] = [
    ["Table 2: People in employment by age and sex, thousands"],
    ["Age band", "2021", None, None, "2022", None, None, "2023 [p]", None, None],
    [None, "Male", "Female", "Persons", "Male", "Female", "Persons", "Male", "Female", "Persons"],
    ["16 to 24", 160, 150, 310, 187, 188, 375, 167, 154, 321],
    ["25 to 49", 870, 880, 1750, 900, 930, 1830, 940, 890, 1830],
    ["50 and over", 390, 370, 760, 385, 400, 785, 395, 330, 725],
]


@pytest.fixture(scope="module")
def workers(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "workers", WORKERS, merges=("B2:D2", "E2:G2", "H2:J2"))


def test_a_part_meant_across_the_years(workers: Any) -> None:
    # men aged 25-49: 870, 900, 940 -- the latest year, marked provisional; persons peak in 2022 too
    assert answered(workers, "In which year was the figure for men aged 25-49 highest?") == "2023"
    assert answered(workers, "List the figures for women aged 16-24 for each year, in order.") == [
        150,
        188,
        154,
    ]


#: Two tables stacked on one sheet, quarters written as runs of months, the last provisional.
TRIPS: list[list[Any]] = [
    ["Table 3.1: Trips abroad by purpose, 2024"],
    ["Units: thousands of trips"],
    ["Purpose", "Jan to Mar", "Apr to Jun", "Jul to Sep", "Oct to Dec [p]", "2024 [note 2]"],
    ["Holiday", 900, 800, 1100, 950, 3750],
    ["Business", 300, 310, 280, 290, 1180],
    ["Study", 60, 50, 70, 52, 232],
    ["All purposes", 1260, 1160, 1450, 1292, 5162],
    [],
    [],
    ["Table 3.2: Spending abroad by purpose, 2024"],
    ["Units: £ million"],
    ["Purpose", "Jan to Mar", "Apr to Jun", "Jul to Sep", "Oct to Dec [p]", "2024 [note 2]"],
    ["Holiday", 600, 520, 800, 650, 2570],
    ["Business", 220, 230, 200, 210, 860],
    ["Study", 50, 40, 45, 40, 175],
    ["All purposes", 870, 790, 1045, 900, 3605],
]


@pytest.fixture(scope="module")
def trips(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "trips", TRIPS)


def test_quarters_written_as_runs_of_months(trips: Any) -> None:
    # Q1 is ``Jan to Mar``, Q4 ``Oct to Dec [p]``: (40 - 50) / 50 for Study's spending
    assert answered(trips, "% change in spending (£m) for Study from Q1 to Q4?") == pytest.approx(-20.0)
    # the trips table's quarters, the provisional one among them
    assert answered(trips, "Which quarter had the most trips for Holiday?") == "Jul to Sep"
    assert answered(trips, "Which quarter had the fewest trips for Study?") == "Apr to Jun"


#: Admissions and their rate by sex and age, two years, and the rate's change between them.
ADMISSIONS: list[list[Any]] = [
    ["Table 4: Emergency admissions by sex and age"],
    ["Sex and age group", "Number of admissions", None, "Rate per 100,000", None, "% change in rate"],
    [None, "2022", "2023 [p]", "2022", "2023 [p]", "2022 to 2023"],
    ["Men"],
    ["0 to 39", 2000, 2100, 100.0, 105.0, 5.0],
    ["40 to 64", 3500, 3400, 400.0, 390.0, -2.5],
    ["65 and over", 9000, 9300, 1500.0, 1550.0, 3.3],
    ["All ages", 14500, 14800, 500.0, 510.0, 2.0],
    ["Women"],
    ["0 to 39", 1800, 1900, 90.0, 95.0, 5.6],
    ["40 to 64", 3600, 3300, 410.0, 370.0, -9.8],
    ["65 and over", 9500, 9700, 1600.0, 1620.0, 1.3],
    ["All ages", 14900, 14900, 520.0, 515.0, -1.0],
]


@pytest.fixture(scope="module")
def admissions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "admissions", ADMISSIONS, merges=("B2:C2", "D2:E2"))


def test_a_change_column_named_and_a_place_led_question(admissions: Any) -> None:
    # the column of each band's change, named by its words with no year said
    assert answered(admissions, "What was the % change in the rate for women aged 40-64?") == -9.8
    # men in 2022: 9,000, then 3,500
    assert answered(admissions, "Second largest age group for men by number in 2022?") == "40 to 64"


#: Households by tenure (thousands) and region, the whole of the tenures in the last column.
TENURE: list[list[Any]] = [
    ["Table 2a: Households by tenure and region, thousands"],
    ["Region", "Owned outright", "Owned with mortgage", "Social rented", "Private rented", "All tenures"],
    ["North East", 424, 351, 216, 303, 1294],
    ["West Midlands", 824, 642, 499, 597, 2562],
    ["London", 1208, 1030, 668, 1097, 4003],
]


@pytest.fixture(scope="module")
def tenure(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "tenure", TENURE)


def test_a_which_noun_the_table_does_not_say_is_the_kind_its_whole_column_names(tenure: Any) -> None:
    # "category" names nothing here; ``All tenures`` says the columns are tenures
    assert answered(tenure, "In West Midlands, which category is the largest?") == "Owned outright"
    assert answered(tenure, "In London, which category is the smallest?") == "Social rented"


#: Appointments, one row each, a yes/no column whose own name is a negation.
VISITS: list[list[Any]] = [
    ["AppointmentID", "Department", "Wait Time (min)", "No-Show"],
    [1, "Cardiology", 30.5, True],
    [2, "Cardiology", 12.0, False],
    [3, "Orthopedics", 45.0, True],
    [4, "Orthopedics", 50.0, False],
    [5, "Dermatology", 8.0, True],
]


@pytest.fixture(scope="module")
def visits(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "visits", VISITS)


def test_a_yes_no_column_whose_name_is_a_negation(visits: Any) -> None:
    # "no-show appointments" are the rows ``No-Show`` is TRUE: 45.0, 30.5 -- not the 50.0 attended
    from gridsight.qa._pipeline import answer_items

    waits = answered(visits, "What are the 2 longest waits among no-show appointments?")
    assert answer_items(waits) == [45.0, 30.5]


@pytest.mark.parametrize(
    "question",
    [
        'How many rows are marked "[zzz]"?',
        'Which country has a figure shown as ":" in 1850?',
        "Average jobless rate over the 99 most recent years?",
        "How many countries were above the Atlantis figure in 2020?",
        "betwen betwen percentge qtr qtr yr?",
        "Biggest?",
        "When was the  at its peak?",
    ],
)
def test_odd_questions_over_a_download_get_an_answer_or_a_reason(download: Any, question: str) -> None:
    answers_or_says_why(download, question)

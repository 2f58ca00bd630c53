"""Statistics-office tables read the way people ask about them: columns of twelve months across two
years (``Apr 2021 to Mar 2022``) named "2021/22", "the year to March 2022" or "the year ending March
2022"; "how many fires were recorded" over a column of the number of fires (a figure, not a count of
rows); the spread of a column ("how far apart were the largest and smallest"); and a word of the
table's title ("in Wales") that names no row by itself. The figures are made up; each answer is
worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: Fires attended, by type, three financial years, numbers and rates, a spacer column between.
SPANS = ["Apr 2021 to Mar 2022", "Apr 2022 to Mar 2023", "Apr 2023 to Mar 2024"]
FIRES: list[list[Any]] = [
    ["Table 3: Fires attended by fire and rescue services, by type of fire"],
    ["Number of fires; rate per 10,000 population", "Number of fires", None, None, None, "Rate per 10,000"],
    ["Type of fire", *SPANS, None, *SPANS],
    ["All fires", 15200, 16900, 16100, None, 49.1, 54.4, 51.6],
    ["Primary fires", None, None, None, None, None, None, None],
    ["Dwelling fires", 2900, 3050, 2980, None, 9.4, 9.8, 9.6],
    ["Other building fires", 1800, 1920, 1870, None, 5.8, 6.2, 6.0],
    ["Vehicle fires", 1500, 1610, 1580, None, 4.8, 5.2, 5.1],
    ["Secondary fires", None, None, None, None, None, None, None],
    ["Grassland fires", 5200, 6300, 5800, None, 16.8, 20.3, 18.6],
    ["Refuse fires", 3800, 4020, 3870, None, 12.3, 12.9, 12.4],
]

#: Shares of adults who cycle weekly in one country, by age group and by area; the country is the
#: title's, and one area's name holds it too.
CYCLING: list[list[Any]] = [
    ["Table 2: Adults who cycle at least once a week, by age group and area, Wales, 2022 to 2023"],
    ["Percentage of adults", "2022", None, "2023", None],
    [None, "Men", "Women", "Men", "Women"],
    ["All adults", 14.2, 8.1, 14.8, 8.6],
    ["By age group", None, None, None, None],
    ["16-24", 18.5, 9.9, 19.1, 10.4],
    ["25-44", 16.1, 9.2, 16.6, 9.9],
    ["45-64", 12.9, 7.6, 13.5, 7.8],
    ["65 and over", 6.8, 3.1, 7.2, 3.5],
    ["By area", None, None, None, None],
    ["Mid Wales", 12.5, 6.9, 13.1, 7.4],
    ["South East Wales", 15.0, 8.8, 15.2, 9.0],
    ["North Wales", 13.8, 7.5, 14.4, 8.0],
]


#: Jobs by sex and year, persons first: the persons' figures add up the men's and the women's.
JOBS: list[list[Any]] = [
    ["Table 4: Jobs held by residents, thousands"],
    ["Area", "Persons", None, None, "Men", None, None, "Women", None, None],
    [None, "2021", "2022", "2023", "2021", "2022", "2023", "2021", "2022", "2023"],
    ["Northvale", 420.5, 431.0, 428.2, 220.1, 225.3, 224.0, 200.4, 205.7, 204.2],
    ["Southmere", 310.2, 305.8, 312.6, 160.0, 157.9, 161.1, 150.2, 147.9, 151.5],
    ["Eastbury", 150.0, 155.4, 153.3, 80.5, 82.4, 81.0, 69.5, 73.0, 72.3],
]


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "jobs", JOBS, merges=("B2:D2", "E2:G2", "H2:J2"))


def test_the_whole_of_a_breakdown_is_read_where_no_part_is_named(jobs: Any) -> None:
    # persons = men + women on every row: "jobs" with no sex named are the persons'
    assert answered(jobs, "Jobs in 2022: Northvale divided by Eastbury?") == pytest.approx(431.0 / 155.4)
    assert answered(jobs, "In which year were jobs in Southmere at their lowest?") == "2022"
    assert answered(jobs, "How many jobs did women in Eastbury hold in 2023?") == 72.3


@pytest.fixture(scope="module")
def fires(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "fires", FIRES, merges=("B2:D2", "F2:H2"))


@pytest.fixture(scope="module")
def cycling(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "cycling", CYCLING, merges=("B2:C2", "D2:E2"))


def test_a_financial_year_column_named_by_its_two_years_or_its_closing_month(fires: Any) -> None:
    assert answered(fires, "How many vehicle fires were there in 2022/23?") == 1610
    assert answered(fires, "Dwelling fires in the year to March 2024?") == 2980
    assert answered(fires, "What was the rate of refuse fires in the year ending March 2022?") == 12.3
    assert answered(fires, "Were there more than 6,000 grassland fires in 2022-23?") is True


def test_how_many_of_what_a_column_counts_is_its_figure(fires: Any) -> None:
    assert answered(fires, "How many fires were recorded as refuse fires in 2021/22?") == 3800


def test_the_spread_of_a_column_over_a_group_of_rows(fires: Any) -> None:
    # secondary fires in 2023/24: 5800 and 3870
    assert answered(
        fires, "Among secondary fires, how far apart were the largest and smallest counts in 2023/24?"
    ) == (1930)


def test_a_word_of_the_title_names_no_row_by_itself(cycling: Any) -> None:
    # the age groups' shares for women in 2023: 10.4 down to 3.5 (not ``Mid Wales``, which holds "Wales")
    value = answered(
        cycling, "Across the age groups, what is the range of the cycling rate for women in Wales in 2023?"
    )
    assert value == pytest.approx(6.9)
    assert answered(cycling, "What share of men in North Wales cycled weekly in 2022?") == 13.8


@pytest.mark.parametrize(
    "question",
    [
        "How many fires were there in 2019/20?",
        "How far apart were the largest and smallest?",
        "Range of 2022/23 minus 2023/24 over 2021/22?",
        "how many fires",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(fires: Any, question: str) -> None:
    answers_or_says_why(fires, question)


def test_the_whole_of_both_breakdowns_where_no_column_is_named(tmp_path_factory: Any) -> None:
    # ``Number of deaths`` heads the labels: "how many deaths" reads a figure, counts no rows; no sex
    # or age named: ``Persons › All ages``, the whole of both breakdowns
    rows: list[list[Any]] = [
        ["Table 4: Number of deaths by cause, sex and age"],
        ["Number of deaths", None, "Males", None, None, "Females", None, None, "Persons", None, None],
        [None, None, "All ages", "Under 65", "65 and over"] * 1
        + ["All ages", "Under 65", "65 and over", "All ages", "Under 65", "65 and over"],
        ["All causes", None, 1000, 300, 700, 1100, 250, 850, 2100, 550, 1550],
        ["Cancers", None, 300, 100, 200, 280, 90, 190, 580, 190, 390],
        [None, "Lung cancer", 120, 40, 80, 100, 30, 70, 220, 70, 150],
        [None, "Other cancers", 180, 60, 120, 180, 60, 120, 360, 120, 240],
        ["Respiratory diseases", None, 150, 20, 130, 170, 25, 145, 320, 45, 275],
        ["All other causes", None, 550, 180, 370, 650, 135, 515, 1200, 315, 885],
    ]
    book = book_of(tmp_path_factory, "deaths", rows, merges=("C2:E2", "F2:H2", "I2:K2"))
    assert answered(book, "How many deaths from respiratory diseases were there?") == 320
    assert answered(book, "How many deaths from lung cancer were there among females aged 65 and over?") == 70


def test_each_period_a_question_lists(tmp_path_factory: Any) -> None:
    # one line's cell in each period written, in the order written, however each is written
    rows: list[list[Any]] = [
        ["Completions by tenure"],
        ["Area", "2020-21", None, "2021-22", None, "2022-23", None],
        [None, "Private", "Total", "Private", "Total", "Private", "Total"],
        ["Northvale", 9000, 11000, 9500, 12000, 9800, 12500],
        ["Eastbury", 7000, 8000, 7100, 8300, 7400, 8800],
        ["Westmere", 5000, 6000, 5200, 6100, 5300, 6400],
    ]
    book = book_of(tmp_path_factory, "tenure", rows, merges=("B2:C2", "D2:E2", "F2:G2"))
    asked = "What were completions in total in Eastbury in each of 2020-21, 2021/22 and 2022/23?"
    assert answered(book, asked) == [8000, 8300, 8800]
    assert answered(book, "List private completions in Westmere for 2022-23 and 2020-21.") == [5300, 5000]
    # summed, not listed
    assert answered(book, "Add up total completions in Northvale for 2020-21 and 2021-22.") == 23000
    # the whole of the parts named "combined"
    rows = [
        ["Population estimates (thousands)"],
        ["Area", "Persons", None, "Males", None, "Females", None],
        [None, "2022", "2023", "2022", "2023", "2022", "2023"],
        ["Northvale", 310.5, 312.0, 150.2, 151.0, 160.3, 161.0],
        ["Eastbury", 205.0, 207.5, 100.0, 101.5, 105.0, 106.0],
        ["Westmere", 120.0, 121.0, 59.0, 59.5, 61.0, 61.5],
    ]
    book = book_of(tmp_path_factory, "population", rows, merges=("B2:C2", "D2:E2", "F2:G2"))
    asked = "List the population of males and females combined in Eastbury for 2022 and 2023."
    assert answered(book, asked) == [205.0, 207.5]


#: Homes finished each financial year, down the rows, in two districts by builder.
FINISHED: list[list[Any]] = [
    ["Table 6: Homes finished, by district and builder"],
    ["Financial year", "Northvale", None, "Southmere", None],
    [None, "Private builders", "Social landlords", "Private builders", "Social landlords"],
    ["2016-17", 900, 210, 640, 150],
    ["2017-18", 940, 230, 655, 171],
    ["2018-19", 910, 245, 662, 164],
    ["2019-20", 880, 250, 640, 163],
    ["2020-21", 860, 262, 690, 168],
    ["2021-22", 905, 270, 700, 175],
]


def test_a_list_of_periods_after_the_place(tmp_path_factory: pytest.TempPathFactory) -> None:
    # the list opens after "in", not after the verb: four years, each the Southmere social landlords'
    book = book_of(tmp_path_factory, "finished", FINISHED)
    question = (
        "What were social landlord homes finished in Southmere in 2017/18, 2018/19, 2019/20 and 2020/21?"
    )
    assert answered(book, question) == [171, 164, 163, 168]


#: People by sex in each year, with a persons column that adds the two up but is not called a total.
PEOPLE: list[list[Any]] = [
    ["Table 1: Residents by area and sex"],
    ["Area", "2023", None, None, "2024", None, None],
    [None, "Men", "Women", "Persons", "Men", "Women", "Persons"],
    ["All areas", 1231.6, 1300.9, 2532.5, 1239.3, 1306.0, 2545.3],
    ["Kelby", 410.2, 431.5, 841.7, 412.0, 433.9, 845.9],
    ["Orrin", 220.4, 219.1, 439.5, 221.8, 220.0, 441.8],
    ["Tamsworth", 601.0, 650.3, 1251.3, 605.5, 652.1, 1257.6],
]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the whole is the row the question names before the verb: Orrin's persons, not all women
        ("What percentage of the population of Orrin was female in 2024?", 100 * 220.0 / 441.8),
        ("What share of Kelby's population was male in 2023?", 410.2 / 841.7),
        # the whole named after the share: all the women of 2024, on the total line
        ("What share of all women in 2024 lived in Tamsworth?", 652.1 / 1306.0),
    ],
)
def test_a_column_that_adds_its_siblings_is_their_whole(
    tmp_path_factory: pytest.TempPathFactory, question: str, answer: float
) -> None:
    book = book_of(tmp_path_factory, "people", PEOPLE)
    assert answered(book, question) == pytest.approx(answer)


#: Land by use and district: groups of lines under headings with no figures of their own, a total
#: column and a total line, none for a group.
LAND: list[list[Any]] = [
    ["Table 4: Farmed land by use and district"],
    ["Thousand hectares"],
    ["Land use", "Ferndale", "Stoke Marsh", "Upwold", "Total"],
    ["Root crops", None, None, None, None],
    ["Beet", 12.5, 8.0, 4.5, 25.0],
    ["Carrots", 3.5, 2.0, 6.5, 12.0],
    ["Pasture", None, None, None, None],
    ["Meadow", 40.0, 22.5, 18.0, 80.5],
    ["Hill grazing", 15.0, 30.0, 9.5, 54.5],
    ["Total farmed area", 71.0, 62.5, 38.5, 172.0],
]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "total" names the ``Total`` column no more than "Upwold" names its own: the district's,
        # and the group named in full, not ``Total farmed area`` by its "area": 4.5 + 6.5
        ("What was the total area of root crops in Upwold?", 11.0),
        ("What was the total farmed area in Ferndale?", 71.0),
        ("What was the total farmed area?", 172.0),
    ],
)
def test_a_group_named_in_full_over_a_total(
    tmp_path_factory: pytest.TempPathFactory, question: str, answer: float
) -> None:
    book = book_of(tmp_path_factory, "land", LAND)
    assert answered(book, question) == pytest.approx(answer)


#: Workers by age band over three years, a total line last.
WORKERS: list[list[Any]] = [
    ["Table 2: Workers by age band"],
    ["Age band", "2021", "2022", "2023"],
    ["16 to 39", 1200, 1260, 1250],
    ["40 and over", 1800, 1790, 1850],
    ["All workers", 3000, 3050, 3100],
]


def test_a_percentage_change_over_a_span_is_between_its_ends(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # "the total" names the total line; the change is from 2021 to 2023, not the years added up
    book = book_of(tmp_path_factory, "workers", WORKERS)
    question = "What was the percentage change in the total from 2021 to 2023?"
    assert answered(book, question) == pytest.approx(100 * (3100 - 3000) / 3000)
    assert answered(book, "What was the total for all workers from 2021 to 2023?") == 9150


#: Homes finished by builder, one year: a column whose word the question's subject holds too.
BUILT: list[list[Any]] = [
    ["Table 9: Homes finished by builder, 2024"],
    ["District", "Housing trusts", "Councils", "Private", "Total"],
    ["Ferndale", 120, 40, 610, 770],
    ["Upwold", 95, 15, 420, 530],
]


def test_in_total_asks_the_total_column(tmp_path_factory: pytest.TempPathFactory) -> None:
    # "housing completions in total": the total, though "housing" names ``Housing trusts``
    book = book_of(tmp_path_factory, "built", BUILT)
    assert answered(book, "What were housing completions in total in Ferndale?") == 770
    assert answered(book, "What were completions by housing trusts in Upwold?") == 95

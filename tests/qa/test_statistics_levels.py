"""Statistics-office tables asked the way people ask: a rate's whole (``All persons`` beside ``Men``
and ``Women``, which it lies between, no sum); footnote marks written the accessible way
(``2020-21 [note 1]``, ``2022-23 [p]``); rows at two levels (countries, and the regions of one of
them) and the section a "which ..." noun names; periods running down the rows with modes in groups
across; the quarters of a year listed "by quarter". The figures are made up; each answer is worked
out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: Adults who smoke, per cent, by sex and year; the persons' rate lies between the men's and the
#: women's (no sum of them). The first year carries a note mark.
SMOKING: list[list[Any]] = [
    ["Table 6: Proportion of adults who smoke, by sex, age group and region"],
    ["Percentage of adults", "2020 [note 1]", None, None, "2021", None, None, "2022", None, None],
    [None, "Men", "Women", "All persons", "Men", "Women", "All persons", "Men", "Women", "All persons"],
    ["All adults", 14.0, 11.0, 12.5, 13.4, 10.4, 11.9, 13.0, 10.0, 11.5],
    ["By age group", None, None, None, None, None, None, None, None, None],
    ["18-24", 13.0, 10.6, 11.8, 12.8, 10.2, 11.5, 12.2, 9.6, 10.9],
    ["25-34", 19.0, 14.4, 16.7, 17.2, 13.4, 15.3, 16.4, 12.8, 14.6],
    ["65 and over", 8.4, 6.8, 7.6, 8.0, 6.4, 7.2, 7.8, 6.2, 7.0],
    ["By region", None, None, None, None, None, None, None, None, None],
    ["Northfield", 16.2, 12.4, 14.3, 15.0, 11.8, 13.4, 14.2, 11.0, 12.6],
    ["Eastmoor", 15.6, 12.0, 13.8, 14.4, 11.2, 12.8, 13.2, 10.8, 12.0],
    ["Westdale", 12.6, 9.4, 11.0, 12.0, 9.0, 10.5, 11.2, 9.2, 10.2],
]

#: Population (thousands, made up): a union, its four countries in the first column, the regions
#: of one country in the second; the union and that country add up their parts. Which level a noun
#: names is read by meaning, so the places are real ones.
POPULATION: list[list[Any]] = [
    ["Table 2: Estimated resident population, thousands"],
    ["Area", None, "2022", "2023"],
    ["United Kingdom", None, 6840.0, 6930.0],
    ["England", None, 5000.0, 5060.0],
    [None, "North East", 1200.0, 1210.0],
    [None, "London", 2300.0, 2330.0],
    [None, "South West", 1500.0, 1520.0],
    ["Wales", None, 820.0, 830.0],
    ["Scotland", None, 610.0, 620.0],
    ["Northern Ireland", None, 410.0, 420.0],
]

#: Passenger journeys (millions): financial years down the rows, modes in two groups across and the
#: total of all modes.
JOURNEYS: list[list[Any]] = [
    ["Table 8: Passenger journeys by mode"],
    ["Financial year", "Rail", None, None, "Local bus", None, "Total"],
    [None, "Heavy rail", "Metro", "Tram (b)", "Bus (city)", "Bus (county)", None],
    ["2018/19", 1800.0, 1300.0, 290.0, 2200.0, 2150.0, 7740.0],
    ["2019/20", 1850.0, 1380.0, 280.0, 2040.0, 2010.0, 7560.0],
    ["2020/21 (a)", 420.0, 340.0, 95.0, 960.0, 900.0, 2715.0],
]

#: Dwellings completed, by tenure, in three financial years written with marks; the regions'
#: figures only (no totals), so every answer is a cell or cells of one row.
COMPLETIONS: list[list[Any]] = [
    ["Table 3.1: Permanent dwellings completed, by tenure"],
    ["Area", "2020-21 [note 1]", None, "2021-22", None, "2022-23 [p]", None],
    [None, "Private enterprise", "Housing associations [note 2]"] * 1
    + [
        "Private enterprise",
        "Housing associations [note 2]",
        "Private enterprise",
        "Housing associations [note 2]",
    ],
    ["Upland", 14100, 2700, 15700, 3200, 17800, 3300],
    ["Lowland", 11300, 2160, 13700, 2740, 15000, 2940],
]

#: Turnover by quarter (rows) in two years (columns), as a small company's accounts show it.
QUARTERS: list[list[Any]] = [
    ["Quarterly turnover (financial year to April)"],
    ["£", "2024", "2023"],
    ["Q1", 804261, 668378],
    ["Q2", 712217, 663175],
    ["Q3", 910276, 725231],
    ["Q4", 720309, 607209],
]


@pytest.fixture(scope="module")
def smoking(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "smoking", SMOKING, merges=("B2:D2", "E2:G2", "H2:J2"))


@pytest.fixture(scope="module")
def population(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "population", POPULATION, merges=("A2:B2",))


@pytest.fixture(scope="module")
def journeys(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "journeys", JOURNEYS, merges=("B2:D2", "E2:F2", "G2:G3"))


@pytest.fixture(scope="module")
def completions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "completions", COMPLETIONS, merges=("B2:C2", "D2:E2", "F2:G2"))


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "quarters", QUARTERS)


def test_a_rates_whole_is_read_where_no_sex_is_named(smoking: Any) -> None:
    # All persons lies between Men and Women on every row: the rate with no sex named
    assert answered(smoking, "What was the smoking rate for Northfield in 2021?") == 13.4
    assert answered(smoking, "Smoking rate for 18-24 year olds in 2021?") == 11.5
    assert answered(smoking, "The proportion who smoke for the 65 and over age group in 2022?") == 7.0
    # the persons' column of each year asked: 14.3 in 2020, 12.6 in 2022
    assert answered(smoking, "Was the smoking rate for Northfield lower in 2020 or in 2022?") == "2022"
    # a sex named still reads its own column
    assert answered(smoking, "What was the smoking rate for women in Westdale in 2022?") == 9.2


def test_a_bound_after_than_is_no_row_and_last_year_is_the_latest_of_a_run(smoking: Any) -> None:
    # "more than 15%" is a bound (Eastmoor 2022 persons: 12.0), not the ``18-24`` row
    assert answered(smoking, "Was the smoking rate for Eastmoor in 2022 more than 15%?") is False
    assert answered(smoking, "Was the smoking rate for 18-24 higher than for 25-34 in 2022?") is False
    # three years shown: "last year" is the latest, 2022
    assert answered(smoking, "What was the smoking rate for Westdale last year?") == 10.2


def test_which_countries_reads_the_level_of_countries(population: Any) -> None:
    # the four countries (England 5060, Wales 830, Scotland 620, Northern Ireland 420 in 2023), not
    # England's regions beside three of them
    assert answered(population, "How many countries had a population above 800 thousand in 2023?") == 2
    assert answered(population, "Which countries had a population under 1,000 in 2022?") == [
        "Wales",
        "Scotland",
        "Northern Ireland",
    ]
    assert answered(population, "Which country had the largest population in 2022?") == "England"
    # all but the one left out: England 5000 + Scotland 610 + Northern Ireland 410
    assert (
        answered(population, "What was the combined population of all countries except Wales in 2022?")
        == 6020
    )


def test_which_mode_ranks_every_group_unless_one_is_named(journeys: Any) -> None:
    # 2019/20: the smallest of the five modes is Tram (280), the largest Bus (city) (2040)
    assert answered(journeys, "Which mode had the fewest journeys in 2019/20?") == "Tram"
    assert answered(journeys, "Which mode had the most journeys in 2019/20?") == "Bus (city)"
    # "rail" names its group: Heavy rail (1800) over Metro and Tram in 2018/19
    assert answered(journeys, "Which rail mode had the most journeys in 2018/19?") == "Heavy rail"


def test_marked_headers_and_split_years_written_either_way(completions: Any) -> None:
    # 2020-21 [note 1] to 2022-23 [p]: 17,800 - 14,100
    change = "How much did completions by private enterprise in Upland change between 2020/21 and 2022-23?"
    assert answered(completions, change) == 3700
    # the three years, averaged: (2,160 + 2,740 + 2,940) / 3
    mean = "What was the average completions by housing associations in Lowland from 2020-21 to 2022/23?"
    assert answered(completions, mean) == pytest.approx(7840 / 3)
    # the year's label without its mark
    which = "Completions by housing associations in Upland: which year was the smallest?"
    assert answered(completions, which) == "2020-21"


def test_the_quarters_of_a_year_by_quarter(quarters: Any) -> None:
    assert answered(quarters, "Give me 2024 turnover by quarter, in order.") == [
        804261,
        712217,
        910276,
        720309,
    ]
    assert answered(quarters, "Weakest quarter for turnover in 2024") == "Q2"
    assert answered(quarters, "Strongest quarter for turnover in 2023") == "Q3"
    # the year's turnover is its four quarters added up: 804,261 + 712,217 + 910,276 + 720,309
    assert answered(quarters, "What was annual turnover in 2024?") == 3147063
    assert answered(quarters, "What was turnover for the year 2023?") == 668378 + 663175 + 725231 + 607209


#: Exports and imports by partner (made up): the world, the union's members and the rest, each
#: group with its own residual line.
TRADE: list[list[Any]] = [
    ["Table 4: Exports and imports of goods by partner, EUR million"],
    ["Partner", "2021", None, "2022", None],
    [None, "Exports", "Imports", "Exports", "Imports"],
    ["World", 1000, 1240, 1150, 1320],
    ["European Union (EU-27)", 700, 560, 790, 600],
    ["Germany", 260, 200, 300, 220],
    ["Belgium", 150, 130, 170, 140],
    ["Poland", 40, 30, 50, 40],
    ["Other EU countries", 250, 200, 270, 200],
    ["Extra-EU", 300, 680, 360, 720],
    ["United Kingdom", 90, 70, 110, 80],
    ["China", 30, 200, 40, 230],
    ["Japan", 10, 20, 12, 25],
    ["Other non-EU countries", 170, 390, 198, 385],
]


@pytest.fixture(scope="module")
def trade(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "trade", TRADE, merges=("B2:C2", "D2:E2"))


def test_the_rest_of_a_kind_is_no_member_and_outside_names_the_other_section(trade: Any) -> None:
    # "which country": Germany (260), not ``Other EU countries`` (250) that the words touch
    assert answered(trade, "In the EU, which country had the biggest exports in 2021?") == "Germany"
    # outside the EU: the ``Extra-EU`` section's members; Japan's 10 is the lowest
    assert answered(trade, "Exports in 2021: which country outside the EU was lowest?") == "Japan"
    # non-EU partners with imports under 100 in 2022: United Kingdom 80 and Japan 25
    assert answered(trade, "Which non-EU partners had imports in 2022 lower than 100?") == [
        "United Kingdom",
        "Japan",
    ]
    # (China 40 and Japan 12; the EU's Poland, 50, is left out with its section)
    assert answered(trade, "How many countries outside the EU had exports below 60 in 2022?") == 2
    # the residual line is still read where it is asked for
    assert answered(trade, "What were imports from other non-EU countries in 2022?") == 385


#: Employment and unemployment rates (per cent, made up) by sex section and age band, two quarters:
#: the age bands repeat under each section, and each section closes with its whole.
RATES: list[list[Any]] = [
    ["Table 3: Employment and unemployment rates by sex and age group"],
    ["Sex and age group", "Jan-Mar 2024", None, "Apr-Jun 2024", None],
    [None, "Employment rate (%)", "Unemployment rate (%)", "Employment rate (%)", "Unemployment rate (%)"],
    ["Men", None, None, None, None],
    ["16-24", 52.0, 14.0, 53.0, 15.0],
    ["25-34", 82.0, 7.0, 83.0, 6.0],
    ["35-49", 85.0, 4.0, 84.0, 4.5],
    ["All aged 16-64", 73.0, 7.5, 73.5, 7.7],
    ["Women", None, None, None, None],
    ["16-24", 51.0, 13.0, 52.0, 12.0],
    ["25-34", 78.0, 5.5, 77.0, 5.0],
    ["35-49", 83.0, 3.0, 85.0, 2.8],
    ["All aged 16-64", 71.0, 6.5, 71.5, 6.0],
    ["All people", None, None, None, None],
    ["16-24", 51.5, 13.5, 52.5, 13.5],
    ["25-34", 80.0, 6.2, 80.0, 5.5],
    ["35-49", 84.0, 3.5, 84.5, 3.6],
    ["All aged 16-64", 72.0, 7.0, 72.5, 6.8],
]


@pytest.fixture(scope="module")
def rates(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "rates", RATES, merges=("B2:C2", "D2:E2"))


def test_rates_by_their_own_words_and_the_whole_section_by_default(rates: Any) -> None:
    # ``Unemployment rate (%)`` beside ``Employment rate (%)``: the word that tells them apart
    assert answered(rates, "What was the unemployment rate for men aged 25-34 in Apr-Jun 2024?") == 6.0
    assert answered(rates, "What was the employment rate for men aged 25-34 in Apr-Jun 2024?") == 83.0
    # no sex named: the ``All people`` section, not the first one
    assert answered(rates, "What was the employment rate for people aged 35-49 in Jan-Mar 2024?") == 84.0
    # an aside that rules men and women out
    combined = (
        "What was the employment rate for those aged 25-34 in Apr-Jun 2024 "
        "(the combined figure, not men or women separately)?"
    )
    assert answered(rates, combined) == 80.0
    # the order the question names them in: women's 16-24 rate (51.0) is not above men's (52.0)
    asked = (
        "Is the employment rate for women aged 16-24 in Jan-Mar 2024 above the rate for men aged 16-24 "
        "in Jan-Mar 2024?"
    )
    assert answered(rates, asked) is False


def test_the_whole_row_is_no_member_and_ordinal_places(rates: Any) -> None:
    # above 5% among women in Jan-Mar 2024: 16-24 (13.0) and 25-34 (5.5), not ``All aged 16-64``
    assert answered(
        rates, "List every age group where the unemployment rate exceeded 5% among women in Jan-Mar 2024."
    ) == [
        "16-24",
        "25-34",
    ]
    # ranked second: 35-49 (83.0) is first among women in Jan-Mar 2024, 25-34 (78.0) second
    assert (
        answered(rates, "Which age group ranked second for employment rate among women in Jan-Mar 2024?")
        == "25-34"
    )
    assert (
        answered(rates, "Which age group had the second-lowest unemployment rate among men in Apr-Jun 2024?")
        == "25-34"
    )
    # "which comes second": from the top (men, Jan-Mar 2024: 35-49 85.0, then 25-34 82.0)
    asked = "Ranking the age groups by employment rate among men in Jan-Mar 2024, which comes second?"
    assert answered(rates, asked) == "25-34"


#: Median weekly pay (made up) by occupation group: most groups' names end in "occupations", the
#: first does not; the labels' header names the kind every row is.
PAY: list[list[Any]] = [
    ["Table 8: Median gross weekly pay by occupation, £"],
    ["Occupation (SOC major group)", "2023", None, "2024", None],
    [None, "Male", "Female", "Male", "Female"],
    ["All employees", 780.0, 750.0, 830.0, 815.0],
    ["1 Managers, directors and senior officials", 1240.0, 1060.0, 1320.0, 1130.0],
    ["2 Professional occupations", 1165.0, 980.0, 1210.0, 1020.0],
    ["3 Associate professional occupations", 965.0, 985.0, 990.0, 1010.0],
    ["4 Administrative and secretarial occupations", 920.0, 800.0, 985.0, 900.0],
    ["5 Skilled trades occupations", 780.0, 760.0, 830.0, 805.0],
]


@pytest.fixture(scope="module")
def pay(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "pay", PAY, merges=("B2:C2", "D2:E2"))


def test_a_noun_that_names_the_labels_header_ranks_every_row(pay: Any) -> None:
    # "occupation group" is every row (the labels' header), not the rows whose names end in "occupations"
    asked = "Which occupation group had the highest male median weekly pay in 2024?"
    assert answered(pay, asked) == "1 Managers, directors and senior officials"
    assert answered(pay, "Count the occupation groups with male pay over £1,000 in 2024.") == 2


#: Land use by region (thousand hectares, made up): regions across, land uses down in sections, one
#: section and one line named ``Other land``, the grand total after the last section.
LAND: list[list[Any]] = [
    ["Table 7a: Agricultural land use by region"],
    ["Land use", "Region", None, None, "Total"],
    [None, "Northmark", "Eastvale", "Westreach", None],
    ["Arable crops", None, None, None, None],
    ["Wheat", 134.8, 56.9, 66.0, 257.7],
    ["Barley", 38.0, 19.1, 64.0, 121.1],
    ["Grassland", None, None, None, None],
    ["Permanent grass", 105.8, 136.8, 51.5, 294.1],
    ["Other land", None, None, None, None],
    ["Woodland", 46.2, 6.5, 7.5, 60.2],
    ["Other land", 7.5, 8.5, 9.7, 25.7],
    ["Total agricultural area", 332.3, 227.8, 198.7, 758.8],
]


@pytest.fixture(scope="module")
def land(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "land", LAND, merges=("B2:D2", "E2:E3"))


def test_the_labels_kind_ranks_every_line(land: Any) -> None:
    # "land use" is the labels' header: every line ranked, not the ``Other land`` section's
    assert answered(land, "Which land use had the highest area in Westreach?") == "Wheat"
    assert answered(land, "Which land use had the highest area in Eastvale?") == "Permanent grass"
    assert answered(land, "What was other land in Westreach?") == 9.7


def test_regions_across_under_one_heading_are_the_entities_counted(land: Any) -> None:
    # ``Region › Northmark`` .. ``Region › Westreach``, added up by ``Total``: the regions
    asked = "List every region where the area of permanent grass exceeded 100 thousand hectares."
    assert answered(land, asked) == ["Northmark", "Eastvale"]
    assert (
        answered(land, "Count the regions with total agricultural area less than 300 thousand hectares.") == 2
    )
    assert answered(land, "Which region had the largest area of wheat?") == "Northmark"
    # the top two by permanent grass: Eastvale (136.8), Northmark (105.8)
    assert answered(land, "What are the top 2 regions by area of permanent grass?") == [
        "Eastvale",
        "Northmark",
    ]


#: Pupils (headcount, made up) by local authority, two school years, three phases and their whole.
PUPILS: list[list[Any]] = [
    ["Table 4a: Pupils on roll by phase"],
    ["Local authority", "2023/24", None, None, None, "2024/25", None, None, None],
    [
        None,
        "Primary",
        "Secondary",
        "Special",
        "All schools",
        "Primary",
        "Secondary",
        "Special",
        "All schools",
    ],
    ["Fairhaven", 5100, 3616, 280, 8996, 5150, 3607, 275, 9032],
    ["Eastfold", 4200, 3900, 190, 8290, 4180, 3950, 200, 8330],
]


@pytest.fixture(scope="module")
def pupils(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "pupils", PUPILS, merges=("B2:E2", "F2:I2"))


def test_a_series_reads_the_part_named_in_each_period(pupils: Any) -> None:
    asked = "Give me the number of special school pupils in Fairhaven for each period shown (oldest first)."
    assert answered(pupils, asked) == [280, 275]
    asked = "Give me the number of pupils in all schools in Eastfold for each year shown, newest first."
    assert answered(pupils, asked) == [8330, 8290]

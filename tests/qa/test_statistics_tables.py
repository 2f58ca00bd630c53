"""Tables as statistics offices publish them: years with status marks (``2022 (p)``), a derived
change column beside the years, figures stored as text, a table of amounts stacked above its
percentage breakdown with the same row labels. The figures are made up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from tests.qa.conftest import answers_or_says_why

from gridsight.qa import answer_question
from gridsight.sources import open_workbook

MODES = [
    ("Cars", 6100, 6200, 6300),
    ("Buses", 640, 610, 700),
    ("Rail", 1020, 990, 1100),
    ("Ferries", 30, 25, 28),
]


def _saved(wb: Workbook, factory: pytest.TempPathFactory, name: str) -> Any:
    """The workbook written to a real .xlsx and opened as the product opens files."""
    path = factory.mktemp(name) / f"{name}.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.fixture(scope="module")
def transport(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Passenger-km by mode (figures stored as text with a thousands separator, the last year
    provisional, a change column), and below it the modal split in percent."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Transport"
    ws.append(["Table 4.1 Passenger-kilometres by mode of transport"])
    ws.append(["Million passenger-km"])
    ws.append(["Mode", "2021", "2022", "2023 (p)", "Change (%) 2022-2023"])
    for mode, *years in MODES:
        ws.append([mode, *(f"{v:,}" for v in years), round(100 * (years[2] - years[1]) / years[1], 1)])
    ws.append(["Total", *(f"{sum(m[i] for m in MODES):,}" for i in (1, 2, 3)), None])
    for _ in range(3):
        ws.append([])
    ws.append(["Table 4.1a Modal split of passenger transport (%)"])
    ws.append(["Mode", "2021", "2022", "2023 (p)"])
    for mode, *years in MODES:
        ws.append([mode, *(round(100 * v / sum(m[i + 1] for m in MODES), 1) for i, v in enumerate(years))])
    return _saved(wb, tmp_path_factory, "transport")


def _value(book: Any, question: str) -> Any:
    ans = answer_question(book, question)
    assert ans.status == "answered", ans.reason
    return ans.value


def test_amounts_not_their_percentage_breakdown(transport: Any) -> None:
    # both tables hold every word: the question asks no share, so the amounts answer
    assert _value(transport, "Which mode had the lowest passenger-kilometres in 2022?") == "Ferries"
    assert _value(transport, "What was the passenger-kilometres travelled by bus in 2021?") == 640


def test_the_breakdown_when_a_share_is_asked(transport: Any) -> None:
    share = round(100 * 1100 / (6300 + 700 + 1100 + 28), 1)
    assert _value(transport, "What was the modal share of rail in percent in 2023?") == pytest.approx(share)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # years with a status mark and a derived column beside them: lines over periods all the same
        ("By how much did passenger-kilometres by rail change between 2022 and 2023?", 110),
        ("Summing 2021 and 2022, what were the passenger-kilometres by cars?", 12300),
        # a relative change is a fraction of where it started
        ("What was the relative change in passenger-kilometres by buses between 2021 and 2023?", 60 / 640),
        (
            "What was the percentage growth in passenger-kilometres by cars from 2021 to 2022?",
            100 * 100 / 6100,
        ),
    ],
)
def test_lines_over_marked_years(transport: Any, question: str, expected: float) -> None:
    assert _value(transport, question) == pytest.approx(expected)


def test_a_figure_stored_as_text_is_a_number(transport: Any) -> None:
    assert _value(transport, "Give the passenger-kilometres by cars in 2023.") == 6300


#: Groups whose lines carry the sum of the lines under them (indentation is not read: the figures
#: say which lines are groups), under a grand total given first.
GROUPED = [
    ("All offences", 1000, 1100),
    ("  Violence", 430, 470),
    ("    With injury", 250, 300),
    ("    Without injury", 180, 170),
    ("  Theft", 520, 580),
    ("    Burglary", 120, 110),
    ("    Shoplifting", 150, 200),
    ("    Other theft", 250, 270),
    ("  Drug offences", 50, 50),
]


@pytest.fixture(scope="module")
def crime(tmp_path_factory: pytest.TempPathFactory) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 2.7 Recorded offences by offence group"])
    ws.append(["Offence", 2022, 2023])
    for row in GROUPED:
        ws.append(list(row))
    return _saved(wb, tmp_path_factory, "crime")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a group's own line is read as a line
        ("How many theft offences were recorded in 2023?", 580),
        ("By how much did violence offences change from 2022 to 2023?", 40),
        # the lines of a group are chosen among; the group's line is not one of them
        ("Which offence within theft had the most recorded offences in 2022?", "Other theft"),
        # the lines under no group and the groups' lines: the lowest line, not a group's sum
        ("Which offence had the fewest recorded offences in 2022?", "Drug offences"),
        # a share of all offences is of the grand total, not of the group the line stands in
        ("What proportion of all recorded offences in 2023 was shoplifting?", 200 / 1100),
    ],
)
def test_groups_by_their_sums(crime: Any, question: str, expected: Any) -> None:
    got = _value(crime, question)
    assert got == (pytest.approx(expected) if isinstance(expected, float) else expected)


def test_sum_groups_finds_nested_groups_and_no_coincidence() -> None:
    from gridsight.qa._groups import sum_groups

    rows = [[float(a), float(b)] for _, a, b in GROUPED]
    spaces = [len(label) - len(label.lstrip()) for label, _, _ in GROUPED]
    assert sum_groups(rows, [None] * len(rows), spaces) == {0: 8, 1: 3, 4: 7}
    # two lines that add up to the one above but stand level with it: a statement's arithmetic
    # (revenue, cost of sales, gross profit), no group (nor, then, the total above it); three are
    assert sum_groups(rows, [None] * len(rows)) == {4: 7}
    # a line that equals the next lines in one column only is no group
    assert sum_groups([[10.0, 5.0], [4.0, 1.0], [3.0, 1.0], [3.0, 1.0]], [None] * 4) == {}
    # lines in different sections are no group
    assert sum_groups(rows, ["a", "a", "b", "b", "b", "b", "b", "b", "b"], spaces) == {4: 7}
    # small whole numbers: 0 is no sum of 0, 0 and 1, and columns of zeros add up nothing (a squad's
    # appearances and goals: apps, goals, cup apps, cup goals)
    squad = [[12.0, 5.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [15.0, 0.0, 0.0, 0.0], [21.0, 5.0, 1.0, 0.0]]
    assert sum_groups(squad, [None] * 4) == {}


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the mean over a span of periods, its ends named (one of them marked provisional)
        (
            "Averaged over the years 2021 to 2023, what were the passenger-kilometres by rail?",
            (1020 + 990 + 1100) / 3,
        ),
        ("What was the average passenger-kilometres by buses over 2021–2023?", (640 + 610 + 700) / 3),
    ],
)
def test_the_mean_over_a_span_of_years(transport: Any, question: str, expected: float) -> None:
    assert _value(transport, question) == pytest.approx(expected)


def test_counting_lines_within_a_group(crime: Any) -> None:
    assert (
        _value(crime, "For how many offences within theft were more than 140 offences recorded in 2022?") == 2
    )


@pytest.fixture(scope="module")
def shares(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Shares of spending stored as fractions, shown as percentages, under a code column."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 3.5 Structure of household consumption expenditure (%)"])
    ws.append(["Code", "Expenditure group", 2019, 2020])
    for code, group, a, b in [
        ("C1", "Food", 0.25, 0.27),
        ("C2", "Housing", 0.31, 0.33),
        ("C3", "Transport", 0.18, 0.12),
        ("C4", "Leisure", 0.26, 0.28),
    ]:
        ws.append([code, group, a, b])
    ws.append([None, "Total expenditure", 1, 1])
    for row in ws.iter_rows(min_row=3, min_col=3):
        for cell in row:
            cell.number_format = "0.0%"
    return _saved(wb, tmp_path_factory, "shares")


def test_counting_against_a_percentage_over_fractions(shares: Any) -> None:
    # "below 20%" over shares stored as 0.12: 0.2; the total the words touch is not counted within
    assert _value(shares, "How many expenditure groups had a share below 20% in 2020?") == 1
    assert _value(shares, "How many expenditure groups had a share above 25% in 2019?") == 2


@pytest.fixture(scope="module")
def beds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Two label columns, the outer written once per block (region, then ownership under it)."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 1.9 Hospital beds by region and ownership"])
    ws.append(["Region", "Ownership", 2022, 2023])
    for region, public, private in [
        ("Northfield", (400, 410), (90, 95)),
        ("Southdale", (350, 340), (120, 130)),
    ]:
        ws.append([region, "Public hospitals", *public])
        ws.append([None, "Private hospitals", *private])
        ws.append([None, "Total", public[0] + private[0], public[1] + private[1]])
    return _saved(wb, tmp_path_factory, "beds")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How many beds were there in private hospitals in Southdale in 2023?", 130),
        (
            "How much higher was the number of beds in private hospitals in Southdale than in Northfield"
            " in 2022?",
            30,
        ),
        ("In 2023, which region had the most beds in private hospitals?", "Southdale"),
    ],
)
def test_the_outer_label_repeats_down_its_block(beds: Any, question: str, expected: Any) -> None:
    assert _value(beds, question) == expected


@pytest.fixture(scope="module")
def activities(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A code column before the names of the rows, a grand total first (bold, no code), a year with
    a footnote mark."""
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.append(["Table 9.6 Active enterprises by economic activity"])
    ws.append(["NACE", "Economic activity", 2021, "2022¹"])
    ws.append([None, "Total business economy", 1500, 1530])
    for code, name, a, b in [
        ("B", "Mining and quarrying", 40, 42),
        ("C", "Manufacturing", 600, 590),
        ("F", "Construction", 480, 510),
        ("H", "Transportation and storage", 380, 388),
    ]:
        ws.append([code, name, a, b])
    for cell in ws[3]:
        cell.font = Font(bold=True)
    return _saved(wb, tmp_path_factory, "activities")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which activity had the most active enterprises in 2021?", "Manufacturing"),
        ("By how much did active enterprises in construction change between 2021 and 2022?", 30),
        # a header's footnote mark is no part of the answer
        ("Were there more active enterprises in manufacturing in 2021 or in 2022?", "2021"),
        ("Was the number of active enterprises in construction higher in 2021 or in 2022?", "2022"),
    ],
)
def test_names_beside_a_code_column_name_the_rows(activities: Any, question: str, expected: Any) -> None:
    assert _value(activities, question) == expected


@pytest.fixture(scope="module")
def completions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Row labels crossed with the categories of one measure, every other column a figure."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 2.1 Dwellings completed by region and tenure, 2023"])
    ws.append(["Region", "Private enterprise", "Housing associations", "Local authorities", "All dwellings"])
    for region, a, b, c in [
        ("Northmoor", 4100, 1300, 270),
        ("Eastvale", 2200, 690, 210),
        ("Riverside", 560, 220, 60),
    ]:
        ws.append([region, a, b, c, a + b + c])
    return _saved(wb, tmp_path_factory, "completions")


def test_a_cross_table_compares_two_rows_of_a_category(completions: Any) -> None:
    question = (
        "Was the number of dwellings completed by private developers in Eastvale lower than in Riverside?"
    )
    assert _value(completions, question) is False


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the measure's word ("dwellings") names the column that adds up the parts, the part is asked
        ("Give the number of dwellings completed by housing associations in Riverside.", 220),
        ("How many dwellings were completed by local authorities in Northmoor and Eastvale?", 480),
        ("What was the number of all dwellings completed in Riverside?", 840),
        # "exceed" sets one amount against the other: by how much, the first less the second
        (
            "By how much did dwellings completed by housing associations exceed those by local authorities "
            "in Eastvale?",
            480,
        ),
        # one line named, "which tenure": its parts compared; a part that outweighs the others is a part
        ("Which tenure had the lowest number of dwellings completed in Northmoor?", "Local authorities"),
        ("Which tenure had the most dwellings completed in Eastvale?", "Private enterprise"),
    ],
)
def test_a_cross_tables_parts_under_the_measures_word(completions: Any, question: str, expected: Any) -> None:
    assert _value(completions, question) == expected


@pytest.fixture(scope="module")
def quintiles(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Each quintile's spending split by group, as fractions: no column adds up the others."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 3.6 Household expenditure by income quintile (%)"])
    ws.append(["Group", "Income quintile", None, None, None])
    ws.append([None, "First quintile", "Second quintile", "Third quintile", "All households"])
    ws.merge_cells("A2:A3")
    ws.merge_cells("B2:E2")
    for group, *values in [
        ("Food", 0.30, 0.26, 0.22, 0.25),
        ("Housing", 0.40, 0.39, 0.41, 0.40),
        ("Leisure", 0.06, 0.09, 0.10, 0.09),
        ("Other", 0.24, 0.26, 0.27, 0.26),
    ]:
        ws.append([group, *values])
    for row in ws.iter_rows(min_row=4, min_col=2):
        for cell in row:
            cell.number_format = "0.0%"
    return _saved(wb, tmp_path_factory, "quintiles")


def test_fractions_within_a_hundredth_are_no_row_total(quintiles: Any) -> None:
    from gridsight.qa._cells import row_total
    from gridsight.qa._pick import candidates
    from gridsight.qa._relational import relation_of

    best = candidates(quintiles, None, "the share spent on leisure")[0]
    assert row_total(relation_of(best.sheet, best.table)) is None
    # 0.30 + 0.26 + 0.22 is no "0.25 give or take half a unit per column": every quintile is ranked
    assert _value(quintiles, "For which quintile was the share spent on leisure lowest?") == "First quintile"
    assert _value(quintiles, "For which quintile was the share spent on food highest?") == "First quintile"


def test_lines_under_section_lines_are_read_by_their_cells(tmp_path: Path) -> None:
    # a flat table whose label-only lines are sections: "rural areas in Riverside" is the line in
    # that section, read by the cells plan before any query over the column
    wb = Workbook()
    ws = wb.active
    ws.append(["Region / area type", "Live births", "Deaths", "Marriages"])
    for region, urban, rural in [
        ("Riverside", (8305, 11296, 3665), (3291, 3798, 1787)),
        ("Upper Dales", (1527, 2073, 735), (2257, 2602, 840)),
    ]:
        ws.append([region])
        ws.append(["  Urban areas", *urban])
        ws.append(["  Rural areas", *rural])
        ws.append(["  Total", *(u + r for u, r in zip(urban, rural, strict=True))])
    wb.save(tmp_path / "vital.xlsx")
    book = open_workbook(tmp_path / "vital.xlsx")
    question = (
        "How much higher was the number of live births in rural areas in Riverside than in Upper Dales?"
    )
    assert _value(book, question) == 3291 - 2257
    assert _value(book, "How many deaths were there in urban areas in Upper Dales?") == 2073
    # "in total" set against a line names the section's own ``Total`` line
    question = (
        "What was the difference between deaths in total in Upper Dales and in rural areas in Upper Dales?"
    )
    assert _value(book, question) == 2073
    question = (
        "How much higher was the number of marriages in total in Riverside than in urban areas in Riverside?"
    )
    assert _value(book, question) == 1787


def test_in_total_over_a_table_with_no_total_line(tmp_path: Path) -> None:
    # "in total" set against a line where no line is marked a total: an answer, no crash
    wb = Workbook()
    ws = wb.active
    ws.append(["Road category", "Dunhallow", None])
    ws.append([None, "km", "% of regional total"])
    ws.merge_cells("B1:C1")
    ws.merge_cells("A1:A2")
    for road, km in [("Motorways", 120), ("Main roads", 300), ("Local roads", 580)]:
        ws.append([road, km, km / 10])
    wb.save(tmp_path / "roads.xlsx")
    book = open_workbook(tmp_path / "roads.xlsx")
    ans = answer_question(
        book, "What was the difference between road length in total and main roads in Dunhallow?"
    )
    assert ans.status in ("answered", "abstained")


def test_lines_over_two_years_and_their_change(tmp_path: Path) -> None:
    # two period columns and the change between them: named lines over periods, read cell by cell
    wb = Workbook()
    ws = wb.active
    ws.append([None, 2019, 2018, "Increase (Decrease)", "% Change"])
    for line, a, b in [("Salaries", 12000, 11200), ("Fuel", 4500, 4700), ("Rents", 2300, 2250)]:
        ws.append([line, a, b, a - b, round(100 * (a - b) / b, 1)])
    ws.append(["Total expenses", 18800, 18150, 650, 3.6])
    wb.save(tmp_path / "expenses.xlsx")
    book = open_workbook(tmp_path / "expenses.xlsx")
    assert _value(book, "How much rise was there in salaries from 2018 to 2019?") == 800
    assert _value(book, "What was the increase in rents in 2019 from the previous year?") == 50


def test_a_price_beside_counts_adds_nothing_to_them(tmp_path: Path) -> None:
    # 1,084,498 + 63.06 + ... is no total of 1,084,498: the row's finest digit bounds the rounding
    wb = Workbook()
    ws = wb.active
    ws.append(
        ["Period", "Shares purchased", "Average price per share", "Shares under the plan", "Value left ($m)"]
    )
    for month, n, price, left in [("October", 1084498, 63.06, 1800), ("November", 950100, 61.2, 1740)]:
        ws.append([month, n, price, n, left])
    wb.save(tmp_path / "buybacks.xlsx")
    book = open_workbook(tmp_path / "buybacks.xlsx")
    assert _value(book, "What was the average price paid per share in October?") == 63.06
    assert _value(book, "How many shares were purchased in November?") == 950100


def test_sum_groups_is_bounded_and_ignores_what_is_no_number() -> None:
    from gridsight.qa._groups import MAX_ROWS, sum_groups

    big = [[float(i), float(i + 1)] for i in range(MAX_ROWS + 1)]
    assert sum_groups(big, [None] * len(big)) == {}
    odd: list[list[float | None]] = [[float("nan"), None], [float("inf"), 1.0], [None, None], [1.0, 2.0]]
    assert sum_groups(odd, [None] * 4) == {}


@pytest.mark.parametrize(
    "question",
    [
        "Averaged over the years 1900 to 2100, what were the passenger-kilometres by rail?",
        "For how many modes was the passenger-kilometres above 99999999999999999999 in 2022?",
        "Which mode within ' OR 1=1 -- had the lowest passenger-kilometres in 2022?",
        "How many " + "modes " * 300 + "were there?",
        "¿Cuántos pasajeros-kilómetro hubo en ferrocarril en 2022?",
        # the wording this table's new readings take, given nothing to read
        "÷ ÷ ÷",
        "As a positive amount?",
        "True or false:",
        "Could you look up",
        "How many years over 2021–2023 came in above £?",
        "Which months from January–March were negative?",
        "Give them in that order, in that order, in that order.",
    ],
)
def test_hostile_questions_over_statistics_tables(transport: Any, question: str) -> None:
    answers_or_says_why(transport, question)


def test_own_terms_with_hostile_text() -> None:
    from gridsight.qa._glossary import in_own_terms

    texts = ["Stocks", "Group", "(.*)+", "Debtors"]
    long = "inventory " * 20000
    assert in_own_terms(long, texts).count("stocks") == 20000
    assert in_own_terms("receivables [a-z]+ (.*) consolidated", texts) == "debtors [a-z]+ (.*) group"


@pytest.fixture(scope="module")
def population(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Sections by sex, each closed by a line that adds up the age groups above it but says no
    "total" (``All ages``); the figures stored as text with a space between thousands."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 3.4 Resident population by sex and age group"])
    ws.append(["Sex and age group", 2018, 2023])
    males = [(1000, 1100), (3000, 2900), (2000, 2200)]
    females = [(900, 950), (3100, 3000), (2400, 2650)]
    for sex, groups in [("Males", males), ("Females", females)]:
        ws.append([sex, None, None])
        for label, (a, b) in zip(("0–19", "20–59", "60 and over"), groups, strict=True):
            ws.append([label, f"{a:,}".replace(",", " "), f"{b:,}".replace(",", " ")])
        whole = (sum(g[0] for g in groups), sum(g[1] for g in groups))
        ws.append(["All ages", *(f"{v:,}".replace(",", " ") for v in whole)])
    return _saved(wb, tmp_path_factory, "population")


def test_a_line_adding_up_its_section_is_its_whole(population: Any) -> None:
    question = "What share of the population among females in 2023 was aged 60 and over?"
    assert _value(population, question) == pytest.approx(2650 / (950 + 3000 + 2650))
    assert _value(population, "Which age group had the largest female population in 2018?") == "20–59"


def test_a_definition_after_a_name_the_table_holds_is_not_read() -> None:
    from gridsight.qa._glossary import named_not_defined

    texts = ["Live births", "Deaths", "Natural increase", "Urban areas"]
    asked = "Give the natural increase (live births minus deaths) in urban areas in 2022."
    assert named_not_defined(asked, texts) == "Give the natural increase in urban areas in 2022."
    # a measure the table does not hold keeps its definition
    ratio = "What was the quick ratio (current assets minus inventories, over current liabilities)?"
    assert named_not_defined(ratio, texts) == ratio
    assert named_not_defined("((( " * 5000, texts) == "((( " * 5000
    # brackets that define nothing stay: "urban areas (provisional)" names what is read
    assert (
        named_not_defined("deaths in urban areas (provisional)", texts)
        == "deaths in urban areas (provisional)"
    )


def test_a_part_of_the_line_above_is_no_line_of_the_sums(tmp_path: Path) -> None:
    # "of which: Manufacturing" is counted in the line above it: the first line still adds up the
    # rest, so it is the grand total, not an industry to rank
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 6.1 Employment by industry (thousands)"])
    ws.append(["Industry", 2022, 2023])
    for row in [
        ("All industries", 1000, 1050),
        ("Agriculture", 100, 90),
        ("Industry", 400, 420),
        ("of which: Manufacturing", 300, 310),
        ("Services", 500, 540),
    ]:
        ws.append(list(row))
    wb.save(tmp_path / "employment.xlsx")
    book = open_workbook(tmp_path / "employment.xlsx")
    assert _value(book, "In 2023, which industry had the largest employment?") == "Services"


@pytest.fixture(scope="module")
def enrolment(tmp_path_factory: pytest.TempPathFactory) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 5.8 Students enrolled by level and sex"])
    ws.append(["Level", "2022/23", None, None])
    ws.append([None, "Males", "Females", "Total"])
    ws.merge_cells("B2:D2")
    for row in [("Primary", 150, 200, 350), ("Secondary", 130, 160, 290), ("Tertiary", 90, 110, 200)]:
        ws.append(list(row))
    return _saved(wb, tmp_path_factory, "enrolment")


def test_a_part_named_by_meaning_comes_before_a_total(enrolment: Any) -> None:
    # "men" names ``Males`` by meaning; ``Total`` leaves no word unnamed only because its word is common
    assert _value(enrolment, "How many men were enrolled in secondary education in 2022/23?") == 130
    assert _value(enrolment, "How many women were enrolled in tertiary education in 2022/23?") == 110


def test_a_share_whose_part_is_a_column_divides_by_the_total_beside(enrolment: Any) -> None:
    # the whole is named before the verb, the part after it: women over the row's own Total
    question = (
        "What share of the students enrolled in secondary education in 2022/23 was accounted for by women?"
    )
    assert _value(enrolment, question) == pytest.approx(160 / 290)


@pytest.fixture(scope="module")
def institutions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Levels whose lines add up the public and private institutions indented under them."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 5.9 Students enrolled by level, type of institution and sex"])
    ws.append(["Level / type of institution", "Males", "Females", "Total"])
    for level, public, private in [
        ("Primary education", (120, 180), (27, 17)),
        ("Secondary education", (110, 130), (15, 27)),
        ("Bachelor's or equivalent", (56, 60), (13, 8)),
    ]:
        ws.append([level, *(a + b for a, b in zip(public, private, strict=True)), sum(public) + sum(private)])
        ws.append(["  Public institutions", *public, sum(public)])
        ws.append(["  Private institutions", *private, sum(private)])
    return _saved(wb, tmp_path_factory, "institutions")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # one line named within two groups named: that line of each group, not the group lines
        (
            "How much higher was the number of men in private institutions in primary education than in "
            "secondary education?",
            12,
        ),
        # an "or" inside a label does not make "was A higher than B" a question of which
        (
            "Was the number of women in private institutions in bachelor's or equivalent higher than in "
            "primary education?",
            False,
        ),
    ],
)
def test_a_line_within_the_groups_named(institutions: Any, question: str, expected: Any) -> None:
    assert _value(institutions, question) == expected


@pytest.fixture(scope="module")
def regions(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Sales by region over the quarters, and the column that adds them up (``FY2025``)."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Revenue by region"])
    ws.append(["Region", "Q1", "Q2", "Q3", "Q4", "FY2025"])
    for region, quarters in [
        ("North", (10, 12, 14, 16)),
        ("South", (20, 18, 16, 14)),
        ("West", (5, 6, 7, 8)),
    ]:
        ws.append([region, *quarters, sum(quarters)])
    return _saved(wb, tmp_path_factory, "regions")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was full-year revenue in West?", 26),
        ("Which region was the largest by annual revenue?", "South"),
    ],
)
def test_annual_reads_the_column_that_adds_up_the_periods(regions: Any, question: str, expected: Any) -> None:
    assert _value(regions, question) == expected


def test_years_running_down_the_first_column_name_the_rows(tmp_path: Path) -> None:
    # a five-year summary turned on its side: the years are the row labels, the measures the columns
    wb = Workbook()
    ws = wb.active
    ws.append(["Dividend history"])
    ws.append(["Year", "Interim (cents)", "Final (cents)", "Total (cents)"])
    history = [(2021, 9.0, 19.3), (2022, 11.8, 18.4), (2023, 12.5, 19.3), (2024, 11.4, 20.5)]
    for year, interim, final in history:
        ws.append([year, interim, final, round(interim + final, 1)])
    wb.save(tmp_path / "dividends.xlsx")
    book = open_workbook(tmp_path / "dividends.xlsx")
    assert _value(book, "What was the interim dividend for the year ended 31 December 2023?") == 12.5
    assert _value(book, "How much did the final dividend fall from 2021 to 2022?") == pytest.approx(0.9)


@pytest.fixture(scope="module")
def long_form(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One row per region, year and indicator: the figures in one column, the labels placing them."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Regional indicators, 2022–2023"])
    ws.append(["Region", "Year", "Indicator", "Value"])
    data = {
        "Harlow Reach": {2022: (1175.6, 43395, 9.6), 2023: (1199.6, 44627, 10.3)},
        "Ivystone": {2022: (404.9, 12412, 3.9), 2023: (410.2, 12980, 4.4)},
        "Ashmere": {2022: (240.3, 8710, 5.2), 2023: (241.9, 9005, 5.0)},
    }
    for region, years in data.items():
        for year, figures in years.items():
            for indicator, value in zip(
                ("Population (thousands)", "GDP (EUR million)", "Unemployment rate (%)"), figures, strict=True
            ):
                ws.append([region, year, indicator, value])
    return _saved(wb, tmp_path_factory, "long_form")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was the population (thousands) of Ivystone in 2023?", 410.2),
        (
            "What was the combined population of Harlow Reach and Ashmere in 2022?",
            pytest.approx(1175.6 + 240.3),
        ),
        ("Which region had the lowest unemployment rate in 2023?", "Ivystone"),
        ("How much higher was GDP in Harlow Reach than in Ivystone in 2022?", 43395 - 12412),
        (
            "What was the relative change in GDP for Ashmere between 2022 and 2023?",
            pytest.approx(9005 / 8710 - 1),
        ),
    ],
)
def test_a_long_form_table_places_its_figures_by_its_labels(
    long_form: Any, question: str, expected: Any
) -> None:
    assert _value(long_form, question) == expected


def test_records_whose_columns_repeat_are_no_long_form() -> None:
    from gridsight.grid import Range
    from gridsight.qa._relational import RelColumn, is_long

    def col(name: str, role: str, kind: str) -> RelColumn:
        return RelColumn(name, role, kind, Range(0, 0, 0, 0))

    columns = [col("Orchard", "key", "text"), col("Fruit", "data", "text"), col("Weight", "data", "number")]
    grid = [["N", "N", "S", "S"], ["apple", "pear", "apple", "pear"], [3.0, 5.0, 4.0, 1.0]]
    records = [["N", "N", "S", "S"], ["apple", "pear", "apple", "plum"], [3.0, 5.0, 4.0, 1.0]]
    assert is_long(columns, grid)  # every orchard with every fruit: a grid of labels
    assert not is_long(columns, records)  # 2 orchards x 3 fruits, 4 rows: records


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a count after a leading phrase, or opened by "number of" / "count the" with a threshold
        ("For 2023, how many modes carried fewer than 1,000 million passenger-km?", 2),
        ("Number of modes with passenger-km over 1,000, 2022?", 1),
        ("Count the modes with passenger-km below 700 in 2021.", 2),
    ],
)
def test_counting_lines_however_the_count_opens(transport: Any, question: str, expected: Any) -> None:
    assert _value(transport, question) == expected


def test_a_count_of_lines_is_no_reading_of_the_total_its_measure_touches(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Marriages by type of ceremony"])
    ws.append([None, 2021, 2022])
    for line, a, b in [
        ("Civil ceremony", 14200, 14900),
        ("Religious ceremony", 1900, 2100),
        ("Other ceremony", 861, 924),
    ]:
        ws.append([line, a, b])
    ws.append(["All marriages", 16961, 17924])
    wb.save(tmp_path / "marriages.xlsx")
    book = open_workbook(tmp_path / "marriages.xlsx")
    assert _value(book, "Number of types of ceremony with marriages over 1,000, 2022?") == 2


@pytest.fixture(scope="module")
def price_index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Index numbers on a base year beside their year-on-year rates (which start a year later)."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Producer price index by industry"])
    ws.append(["Industry", "Index (2020 = 100)", None, None, "Year-on-year change (%)", None])
    ws.append([None, 2021, 2022, 2023, 2022, 2023])
    ws.merge_cells("B2:D2")
    ws.merge_cells("E2:F2")
    ws.merge_cells("A2:A3")
    for industry, a, b, c in [("Wood and paper", 104.0, 112.5, 113.6), ("Basic metals", 108.2, 121.0, 118.4)]:
        ws.append([industry, a, b, c, round(100 * (b / a - 1), 1), round(100 * (c / b - 1), 1)])
    return _saved(wb, tmp_path_factory, "price_index")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the base year names no column; the years named are all in the index's group, not the rates'
        ("What was the increase in the index for wood and paper from 2021 to 2023?", pytest.approx(9.6)),
        ("List the years in which the index for basic metals was greater than 115.", ["2022", "2023"]),
    ],
)
def test_index_numbers_beside_their_rates(price_index: Any, question: str, expected: Any) -> None:
    assert _value(price_index, question) == expected


def test_words_of_a_row_label_written_whole_name_no_column(tmp_path: Path) -> None:
    # "persons employed" is the size class's own words, not the ``Persons employed`` columns
    wb = Workbook()
    ws = wb.active
    ws.append(["Enterprises by size class"])
    ws.append(["Size class", "Enterprises", None, "Persons employed", None])
    ws.append([None, 2023, 2024, 2023, 2024])
    ws.merge_cells("B2:C2")
    ws.merge_cells("D2:E2")
    ws.merge_cells("A2:A3")
    for size, a, b, c, d in [
        ("0–1 persons employed", 47998, 59313, 52000, 63100),
        ("2–9 persons employed", 11770, 12746, 57531, 61980),
        ("10 and more persons employed", 2404, 2390, 98000, 97500),
    ]:
        ws.append([size, a, b, c, d])
    wb.save(tmp_path / "sizes.xlsx")
    book = open_workbook(tmp_path / "sizes.xlsx")
    assert _value(book, "How much was enterprises with 0–1 persons employed for 2024?") == 59313
    question = "What is the sum of enterprises across 0–1 persons employed and 2–9 persons employed for 2023?"
    assert _value(book, question) == 47998 + 11770


def test_names_after_codes_written_as_text_name_the_rows(tmp_path: Path) -> None:
    # codes stored as text ("1", "2") in the first column and no row-header column found: the names
    wb = Workbook()
    ws = wb.active
    ws.append(["Table 7.1 Average gross monthly earnings by occupation and sex"])
    ws.append(["EUR"])
    ws.append([])
    ws.append(["ISCO-08", "Major group", "2022", None, None, "2023", None, None])
    ws.append([None, None, "Men", "Women", "Total", "Men", "Women", "Total"])
    ws.merge_cells("C4:E4")
    ws.merge_cells("F4:H4")
    for code, group, a, b in [
        ("1", "Managers", (6248, 5218), (6405, 5300)),
        ("2", "Professionals", (4960, 4062), (5051, 4100)),
        ("3", "Technicians", (3612, 2942), (3714, 3010)),
        ("6", "Farm workers", (1718, 1500), (1790, 1560)),
    ]:
        ws.append([code, group, *a, sum(a) // 2, *b, sum(b) // 2])
    wb.save(tmp_path / "earnings.xlsx")
    book = open_workbook(tmp_path / "earnings.xlsx")
    assert _value(book, "For 2023, which major group had the lowest earnings among men?") == "Farm workers"


@pytest.fixture(scope="module")
def journeys(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Years down the rows with status letters fused to them (``2022r``, ``2023p``), amounts beside
    their shares of the whole."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Passenger journeys by sector"])
    ws.append(["Year", "Journeys (millions)", None, None, "Share of all journeys (%)", None])
    ws.append([None, "Regional", "Commuter", "All sectors", "Regional", "Commuter"])
    ws.merge_cells("B2:D2")
    ws.merge_cells("E2:F2")
    for row in [
        ("2019", 47.4, 100.2, 147.6, 32.1, 67.9),
        ("2020 (1)", 19.4, 44.0, 63.4, 30.6, 69.4),
        ("2021", 37.4, 75.8, 113.2, 33.0, 67.0),
        ("2022r", 52.4, 112.1, 164.5, 31.9, 68.1),
        ("2023p", 54.2, 103.6, 157.8, 34.3, 65.7),
    ]:
        ws.append(row)
    return _saved(wb, tmp_path_factory, "journeys")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a year with its status letter fused on names the row ("2023" is ``2023p``)
        ("How much was journeys across all sectors in 2023?", 157.8),
        ("What were all-sector journeys for 2019 and 2023 combined?", pytest.approx(147.6 + 157.8)),
        # the answer is the year, without its mark
        ("Which year had the lowest share of journeys in the Commuter sector?", "2023"),
        # a percentage change reads the amounts, not the shares beside them
        (
            "What was the percentage change in journeys on Regional services between 2019 and 2020?",
            pytest.approx(100 * (19.4 - 47.4) / 47.4),
        ),
    ],
)
def test_years_down_with_status_letters(journeys: Any, question: str, expected: Any) -> None:
    ans = answer_question(journeys, question)
    assert (ans.status, ans.value) == ("answered", expected), (ans.reason, ans.query)


def test_a_slash_in_a_label_is_no_division(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Median price paid (£)"])
    ws.append(["Region", "Detached", None, "Flat/maisonette", None])
    ws.append([None, "2022", "2023", "2022", "2023"])
    ws.merge_cells("B2:C2")
    ws.merge_cells("D2:E2")
    ws.append(["Eastwold", 410000, 425000, 176000, 179000])
    ws.append(["Southmere", 380000, 391000, 154000, 160000])
    wb.save(tmp_path / "prices.xlsx")
    book = open_workbook(tmp_path / "prices.xlsx")
    ans = answer_question(
        book,
        "How much higher or lower was the median price for flats/maisonettes in Eastwold in 2023 "
        "than in 2022?",
    )
    assert (ans.status, ans.value) == ("answered", 3000), (ans.reason, ans.query)


def test_a_whole_of_rates_and_counts_is_a_total() -> None:
    from gridsight.qa._groups import closing_totals, sum_groups

    # regions' rates and counts, the country last: its count adds up, its rates lie among theirs
    regions = [[15.0, 14.1, 46.0], [16.2, 15.5, 176.0], [13.7, 13.2, 353.0], [14.5, 13.8, 60.0]]
    country = [[14.8, 14.0, 635.0]]
    assert closing_totals(regions + country, [None] * 5) == {4}
    # the country first, over all the regions
    assert sum_groups(country + regions, [None] * 5) == {0: 4}
    # a rate outside the parts' range is no mean: no total
    assert closing_totals([*regions, [19.0, 14.0, 635.0]], [None] * 5) == set()
    # a line that is not the last of its section is not read so
    assert closing_totals([*regions, *country, [1.0, 2.0, 3.0]], [None] * 6) == set()
    # a whole that is one of its parts, the others nothing, is no evidence (a squad's goals: the
    # seventh player's 5 league goals, 1 cup appearance and 5 goals are the sums of those above)
    squad = [[22, 0, 0, 22, 0], [38, 0, 1, 39, 0], [4, 0, 0, 4, 0], [12, 5, 0, 12, 5], [21, 5, 1, 22, 5]]
    assert closing_totals([[float(v) for v in row] for row in squad], [None] * 5) == set()


def test_counting_regions_under_a_country_row(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Adults who smoke, by region (%)"])
    ws.append(["Region", "Men", "Women", "All adults", "Smokers (thousands)"])
    for row in [
        ("Ardmoray", 15.0, 13.2, 14.1, 46),
        ("Kelvance", 16.2, 14.3, 15.5, 176),
        ("Mirrendale", 13.7, 12.1, 13.2, 353),
        ("Vennick", 14.5, 13.4, 13.8, 60),
        ("Caldoria", 14.8, 13.1, 14.0, 635),
    ]:
        ws.append(row)
    wb.save(tmp_path / "smoking.xlsx")
    book = open_workbook(tmp_path / "smoking.xlsx")
    ans = answer_question(
        book, "How many regions (not counting totals) had a smoking rate for all adults above 13.9?"
    )
    assert (ans.status, ans.value) == ("answered", 2), (ans.reason, ans.query)
    ans = answer_question(book, "What total is shown for smokers (thousands) in Caldoria?")
    assert (ans.status, ans.value) == ("answered", 635), (ans.reason, ans.query)


def test_years_down_as_numbers_then_marked_labels(tmp_path: Path) -> None:
    # years typed as numbers, the last two as labels with their status letter: all name the rows;
    # "(2023 minus 2010)" orders a difference of one column, no second column after "minus"
    wb = Workbook()
    ws = wb.active
    ws.append(["Household waste by management method (thousand tonnes)"])
    ws.append(["Year", "Recycled", "Energy recovery", "Landfill", "Total"])
    for row in [
        (2010, 1043, 397, 1561, 3001),
        (2011, 1127, 424, 1431, 2982),
        (2012, 1109, 506, 1234, 2849),
        ("2022r", 1290, 1191, 610, 3091),
        ("2023p", 1301, 1189, 598, 3088),
    ]:
        ws.append(row)
    wb.save(tmp_path / "waste.xlsx")
    book = open_workbook(tmp_path / "waste.xlsx")
    for question, value in [
        ("What is the amount of household waste sent for energy recovery in 2022?", 1191),
        ("What is the difference in the tonnage sent for energy recovery between 2023 and 2010 "
         "(2023 minus 2010)? (thousand tonnes)", 792),
    ]:  # fmt: skip
        ans = answer_question(book, question)
        assert (ans.status, ans.value) == ("answered", value), (question, ans.reason, ans.query)


@pytest.fixture(scope="module")
def by_land(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Each Land written once over its years (the Land column blank below it), a change column
    holding "." where no previous year is shown."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Employees by Land and age group (thousands)"])
    ws.append(["Land", "Year", "Total", "Age group", None, "Change on previous year (%)"])
    ws.append([None, None, None, "Under 25", "25 and over", None])
    for cells in ("A2:A3", "B2:B3", "C2:C3", "D2:E2", "F2:F3"):
        ws.merge_cells(cells)
    for land, rows in [
        (
            "Avelland",
            [("2021", 796, 106, 690, "."), ("2022", 827, 107, 720, 3.9), ("2023", 842, 111, 731, 1.8)],
        ),
        (
            "Brunnfeld",
            [("2021", 1456, 161, 1295, "."), ("2022", 1470, 158, 1312, 1.0), ("2023", 1488, 170, 1318, 1.2)],
        ),
        (
            "Grünthal",
            [("2021", 512, 60, 452, "[c]"), ("2022", 518, 61, 457, 1.2), ("2023", 520, 59, 461, 0.4)],
        ),
    ]:
        for i, row in enumerate(rows):
            ws.append([land if i == 0 else None, *row])
        ws.append([])
    return _saved(wb, tmp_path_factory, "by_land")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the change on the previous year (%) in Grünthal in 2022?", 1.2),
        ("Was the number of employees under 25 higher in Brunnfeld in 2023 than in Avelland in 2023?", True),
        ("For which age group was the number of employees in Avelland in 2023 lowest?", "Under 25"),
    ],
)
def test_a_label_written_once_over_its_years(by_land: Any, question: str, expected: Any) -> None:
    ans = answer_question(by_land, question)
    assert (ans.status, ans.value) == ("answered", expected), (ans.reason, ans.query)


def test_numbers_of_a_header_and_a_code_explain_themselves(tmp_path: Path) -> None:
    # "per 100,000" is the chosen header's 100,000 (written with its comma); "ICD-10" is the row
    # labels' own header; "J00-J99" the row named: no number is left unexplained
    wb = Workbook()
    ws = wb.active
    ws.append(["Deaths by cause and sex, 2022"])
    ws.append(["ICD-10 code", "Cause of death", "Males", None, "Females", None])
    ws.append([None, None, "Number", "Rate per 100,000", "Number", "Rate per 100,000"])
    ws.merge_cells("C2:D2")
    ws.merge_cells("E2:F2")
    for row in [
        ("C00-D48", "Neoplasms", 1500, 50.0, 1400, 46.0),
        ("C18-C21", "  Colorectal cancer", 600, 20.0, 500, 16.0),
        ("C33-C34", "  Lung cancer", 900, 30.0, 900, 30.0),
        ("J00-J99", "Respiratory diseases", 1650, 56.7, 1742, 57.7),
        ("J09-J18", "  Influenza and pneumonia", 700, 24.0, 750, 24.8),
        ("J40-J47", "  Chronic lower respiratory diseases", 950, 32.7, 992, 32.9),
    ]:
        ws.append(row)
    wb.save(tmp_path / "deaths.xlsx")
    ans = answer_question(
        open_workbook(tmp_path / "deaths.xlsx"),
        "What was the death rate per 100,000 for ICD-10 code J00-J99 for women?",
    )
    assert (ans.status, ans.value) == ("answered", 57.7), (ans.reason, ans.query)


def test_which_part_of_a_whole_column(tmp_path: Path) -> None:
    # "which sector" names ``All sectors`` by its word, but asks which of its parts; the largest
    # part outweighs the two others together, yet ``All sectors`` beside them adds all three up
    wb = Workbook()
    ws = wb.active
    ws.append(["Passenger journeys by sector"])
    ws.append(["Year", "Journeys (millions)", None, None, None, "Share of all journeys (%)"])
    ws.append([None, "Long distance", "Regional", "Commuter", "All sectors", "Commuter"])
    ws.merge_cells("B2:E2")
    for row in [
        ("2012", 17.2, 38.9, 79.9, 136.0, 58.8),
        ("2013", 17.7, 38.7, 81.8, 138.2, 59.2),
        ("2014", 16.6, 42.6, 91.0, 150.2, 60.6),
    ]:
        ws.append(row)
    wb.save(tmp_path / "rail.xlsx")
    ans = answer_question(
        open_workbook(tmp_path / "rail.xlsx"), "Which sector had the highest rail journeys in 2012?"
    )
    assert (ans.status, ans.value) == ("answered", "Commuter"), (ans.reason, ans.query)

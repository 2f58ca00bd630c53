"""The SQL planner's readings of row conditions, on small workbooks made up here (none of their headers
comes from a benchmark corpus)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from gridsight.qa import answer_question
from gridsight.sources import open_workbook

#: an annual report's table: one row per year, the year in the first column, no date column
ANNUAL = [
    ("Year", "Tonnes Shipped (thousands)", "Freight Revenue (in millions)", "Revenue per Tonne"),
    (2021, 410, 820, 2.0),
    (2020, 380, 722, 1.9),
    (2019, 395, 711, 1.8),
]
#: people with the year each joined: a column of years beside a name is no key of the rows
BOARD = [
    ("Name", "Role", "Age", "Director Since"),
    ("Ana Ruiz", "Chair", 61, 2011),
    ("Tom Berg", "Treasurer", 48, 2019),
    ("Lea Wong", "Secretary", 39, 2021),
]


def _book(path: Path, rows: list[tuple[Any, ...]]) -> Path:
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    wb.save(path)
    return path


def _answered(path: Path, rows: list[tuple[Any, ...]], question: str) -> Any:
    """The value the rules answer ``question`` with over a workbook of ``rows`` (it must answer)."""
    ans = answer_question(open_workbook(_book(path, rows)), question)
    assert ans.status == "answered", ans.reason
    return ans.value


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How much freight revenue was earned in 2020?", 722),
        # the counted noun names a measure (its bracketed unit unsaid): its value, not a row count
        ("How many tonnes were shipped in the year 2019?", 395),
        ("What was the revenue per tonne in 2021?", 2.0),
    ],
)
def test_a_year_in_the_question_picks_the_row_of_a_first_column_of_years(
    tmp_path: Path, question: str, value: Any
) -> None:
    assert _answered(tmp_path / "annual.xlsx", ANNUAL, question) == value


def test_a_year_a_first_column_does_not_hold_is_no_row_condition(tmp_path: Path) -> None:
    book = open_workbook(_book(tmp_path / "annual.xlsx", ANNUAL))
    ans = answer_question(book, "How much freight revenue was earned in 2015?")
    assert ans.status == "abstained", ans.value


def test_a_column_of_years_beside_a_name_is_no_key(tmp_path: Path) -> None:
    book = open_workbook(_book(tmp_path / "board.xlsx", BOARD))
    ans = answer_question(book, "What was the role of Lea Wong in 2019?")
    assert ans.status == "answered", ans.reason
    assert ans.value == "Secretary"


#: a report's row labels that share their first words: one is named by the word only it holds
CREWS = [
    ("Crew Group", "Headcount", "Union"),
    ("Harbor Line Captains", 820, "Guild A"),
    ("Harbor Line Deckhands", 1450, "Guild B"),
    ("Harbor Line Engineers", 240, "Guild A"),
    ("Harbor Line Cooks", 35, "Guild C"),
    ("Harbor Line Engine Room Trainees", 12, "Guild A"),
]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What is the total headcount of deckhands at Harbor Line?", 1450),
        ("What headcount do the cooks have?", 35),
        # two labels hold "engine(er)": the one named by more words
        ("What was the headcount of engine room trainees?", 12),
    ],
)
def test_a_row_label_named_by_a_word_only_it_holds_is_the_row(
    tmp_path: Path, question: str, value: Any
) -> None:
    assert _answered(tmp_path / "crews.xlsx", CREWS, question) == value


def test_a_word_every_label_holds_in_some_form_names_no_row(tmp_path: Path) -> None:
    rows = [("Program", "Shares", "Cash"), *((f"Q{i} Share Repurchase", i, 100 * i) for i in (1, 2, 3))]
    rows += [("Open Market Share Repurchases", 0.5, 20), ("Total", 6.5, 620)]
    book = open_workbook(_book(tmp_path / "buyback.xlsx", rows))
    ans = answer_question(book, "What was the total cash paid for share repurchases?")
    assert ans.status == "answered", ans.reason
    assert ans.value == 620


def test_who_reads_the_rows_names_where_another_label_is_named_in_part(tmp_path: Path) -> None:
    rows = [
        ("", "Position", "Age"),
        ("Ana Ruiz", "Chair of the Board & Chief Executive Officer", 61),
        ("Tom Berg", "Executive Vice President & Chief Financial Officer", 48),
        ("Lea Wong", "Executive Vice President & Chief Legal Officer", 39),
    ]
    book = open_workbook(_book(tmp_path / "officers.xlsx", rows))
    ans = answer_question(book, "Who was the chief financial officer as of March 2024?")
    assert ans.status == "answered", ans.reason
    assert ans.value == "Tom Berg"


#: headers written as abbreviations, and yes/no columns written as text
HOMES = [
    ("price", "lotarea", "cenheat", "waterfr"),
    (250000, 5200, "yes", "no"),
    (410000, 8800, "yes", "yes"),
    (180000, 3100, "no", "no"),
    (320000, 6400, "no", "yes"),
    (275000, 4900, "yes", "no"),
]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How many homes have central heating?", 3),  # cenheat: yes, counted as a yes/no column
        ("How many homes are on the waterfront?", 2),
        ("What is the average price of homes with central heating?", 311666.6666666667),
        ("What is the largest lot area?", 8800),
    ],
)
def test_abbreviated_headers_and_yes_no_text_columns(tmp_path: Path, question: str, value: Any) -> None:
    assert _answered(tmp_path / "homes.xlsx", HOMES, question) == pytest.approx(value)


def test_a_label_named_in_part_with_quotes_in_it_is_a_value_never_sql(tmp_path: Path) -> None:
    rows = [
        ("Group", "Headcount"),
        ("O'Brien's \"Deck\" Crew", 14),
        ("Main Engine Crew", 30),
        ("Galley Crew", 6),
    ]
    assert _answered(tmp_path / "quotes.xlsx", rows, "What is the headcount of the deck crew?") == 14


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # text in a column of numbers ("n/a", "..", a year written as text) is no number to compare
        # or add: sqlite sets text above every number, Excel's COUNTIFS passes over it
        ("How many years did West sell more than 5 units?", 1),
        ("How many units were sold in West?", 12),
        ("How many years did East sell more than 5 units?", 2),
    ],
)
def test_text_among_numbers_is_no_number(tmp_path: Path, question: str, value: int) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Region", "Year", "Units"])
    for row in [("East", "2023", 10), ("East", 2024, "11"), ("West", 2023, "n/a"), ("West", 2024, 12)]:
        ws.append(row)
    wb.save(tmp_path / "units.xlsx")
    ans = answer_question(open_workbook(tmp_path / "units.xlsx"), question)
    assert (ans.status, ans.value) == ("answered", value), (ans.reason, ans.query)

"""The SQL planner's readings of which rows and which column a question asks for, on a small staff
table made up here (none of its headers or values comes from a benchmark corpus). Each test runs the
planner's query (the "sql" route) on the table, so it checks the reading and its result together."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from gridsight.qa import answer_question
from gridsight.qa._ask import candidates
from gridsight.qa._route_sql import by_query, plan_query
from gridsight.sources import open_workbook

STAFF = [
    ("Name", "Grade", "Gender", "Site", "Tenure", "Pay", "Started", "Reviewed"),
    ("Ada", "SnrTech", "Female", "North", 12, 61000, dt.date(2012, 3, 1), dt.date(2024, 3, 1)),
    ("Ben", "JnrTech", "Male", "South", 2, 33000, dt.date(2022, 5, 9), dt.date(2024, 5, 9)),
    ("Cy", "Mgr", "Male", "North", 20, 90000, dt.date(2004, 1, 15), dt.date(2023, 1, 15)),
    ("Dee", "JnrTech", "Female", "East", 1, 31000, dt.date(2023, 2, 1), dt.date(2024, 2, 1)),
    ("Eli", "SnrTech", "Male", "East", 8, 58000, dt.date(2016, 7, 4), dt.date(2022, 7, 4)),
    ("Fay", "Mgr", "Female", "South", 15, 87000, dt.date(2009, 9, 30), dt.date(2023, 9, 30)),
    ("Gus", "JnrTech", "Male", "North", 3, 35000, dt.date(2021, 4, 1), dt.date(2024, 4, 1)),
    ("Hal", "JnrTech", "Male", "South", 4, 36000, dt.date(2020, 6, 1), dt.date(2024, 6, 1)),
    ("Ivy", "SnrTech", "Female", "East", 6, 52000, dt.date(2018, 8, 1), dt.date(2024, 8, 1)),
    ("Jo", "JnrTech", "Female", "North", 2, 34000, dt.date(2022, 10, 1), dt.date(2024, 10, 1)),
    ("Kim", "SnrTech", "Male", "South", 7, 56000, dt.date(2017, 11, 1), dt.date(2024, 11, 1)),
    ("Lu", "JnrTech", "Male", "East", 3, 32000, dt.date(2021, 12, 1), dt.date(2024, 12, 1)),
]


def _book(factory: pytest.TempPathFactory, rows: list[tuple[Any, ...]]) -> Any:
    """A workbook of one flat table (its first row the header), saved as .xlsx and opened."""
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    path: Path = factory.mktemp("plan_rows") / "table.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.fixture(scope="module")
def staff(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _book(tmp_path_factory, STAFF)


def _sql_value(book: Any, question: str) -> Any:
    """What the planner's query answers (the sql route alone; it must answer)."""
    cand = candidates(book, None, question)[0]
    plan, view = plan_query(cand, question)
    ans = by_query(cand, question, plan, view)
    assert ans.status == "answered", ans.reason
    return ans.value


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a column named before the superlative is read from the top row, not aggregated
        ("What site has the highest pay?", "North"),
        ("What's the gender of the worker with the lowest pay?", "Female"),
        # the things a top-N lists: rows by a noun that names no column, values by one naming the
        # ranked column
        ("Which are the top 2 workers with the highest pay?", ["Cy", "Fay"]),
        ("What are the top 3 pays in the table?", [90000, 87000, 61000]),
        # 'top' before a count says how many; the superlative after it says which end
        ("List the top 2 names with the lowest pay.", ["Dee", "Lu"]),
        # a relative 'who' does not ask for the rows' names
        ("List the top 2 pays of people who work in the North.", [90000, 61000]),
    ],
)
def test_what_a_ranking_question_reads(staff: Any, question: str, value: Any) -> None:
    assert _sql_value(staff, question) == value


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What is the highest pay among women?", 87000),  # by meaning: Female
        ("What is the lowest pay of senior technicians?", 52000),  # shortened: SnrTech
    ],
)
def test_a_category_named_shortened_or_by_meaning_filters_the_query(
    staff: Any, question: str, value: Any
) -> None:
    assert _sql_value(staff, question) == value


def test_a_yes_no_question_tests_the_value_it_names_last(staff: Any) -> None:
    # 'manager' says whose rows are ranked; 'woman' is the test of the best-paid one (Cy)
    assert _sql_value(staff, "Is the best-paid manager a woman?") is False
    assert _sql_value(staff, "Is the best-paid senior technician a woman?") is True


def test_dates_come_back_as_the_sheet_shows_them(staff: Any) -> None:
    # the asked 'date' names both date columns; the one ranked is read (no time of day added)
    assert _sql_value(staff, "On what date did the earliest starter start?") == "2004-01-15"
    assert _sql_value(staff, "What was the review date of the best-paid worker?") == "2023-01-15"


#: sales by region and month: the months are columns
MONTHS = [
    ("Region", "Jan", "Feb", "Mar", "Apr", "May", "Jun"),
    ("Coast", 10, 12, 14, 16, 18, 20),
    ("Hills", 5, 6, 7, 8, 9, 10),
    ("Plains", 3, 3, 3, 3, 3, 3),
    ("Delta", 1, 2, 3, 4, 5, 6),
]


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _book(tmp_path_factory, MONTHS)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What were the sales of Coast from Feb to Apr?", 42),  # every column between, in order
        ("What were Hills sales in Jan and Jun combined?", 15),
        ("What were Delta sales in Mar plus May?", 8),
        ("What were the sales of Coast in Feb?", 12),  # one column: a lookup
    ],
)
def test_columns_named_together_are_added_up(months: Any, question: str, value: Any) -> None:
    assert _sql_value(months, question) == value


def test_a_change_between_columns_is_no_sum(months: Any) -> None:
    cand = candidates(months, None, "How much did Coast sales grow from Feb to Apr?")[0]
    plan, _view = plan_query(cand, "How much did Coast sales grow from Feb to Apr?")
    assert plan is None or plan.kind != "columns"


@pytest.mark.parametrize(
    "question",
    ["On average, how much did Hills sell per month?", "What were the average monthly sales of Hills?"],
)
def test_per_month_is_the_mean_of_the_month_columns(months: Any, question: str) -> None:
    assert _sql_value(months, question) == 7.5


@pytest.mark.parametrize(
    "question",
    [
        "What were Coast sales from " + "Jan to Feb to " * 120 + "Jun?",
        "What were Hills sales in " + "Mar and " * 200 + "May combined?",
        "How much did Delta sell per month per quarter " * 40 + "on average?",
        "Which are the top 999999999999 workers with the highest pay?",
    ],
)
def test_hostile_questions_for_the_planner_readings(months: Any, staff: Any, question: str) -> None:
    # an answer or a reason, never an exception
    for book in (months, staff):
        ans = answer_question(book, question[:2000])
        assert ans.status == "answered" or ans.reason

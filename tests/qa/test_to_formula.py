"""The winning query as an Excel formula: each SQL construct's translation, checked by the real formula
engine on a real .xlsx file against the query's own result on the table's relational view."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook as XlsxWorkbook
from tests.qa.conftest import table_book, translated

from gridsight.detect import detect_tables
from gridsight.grid import Workbook
from gridsight.qa._pipeline import same_value
from gridsight.qa._relational import Relation, build_relation
from gridsight.qa._to_formula import translate, translations, verified_formula
from gridsight.sources import open_workbook

ROWS = [
    ("Player", "Team", "Points", "Games", "Joined", "Active"),
    ("Ann", "Red", 30, 10, dt.date(2019, 3, 1), True),
    ("Bob", "Blue", 12, 6, dt.date(2020, 5, 17), False),
    ("Cyd", "Red", 25, 10, dt.date(2021, 1, 9), False),
    ("Dee", None, 8, 4, dt.date(2018, 7, 30), True),
    ("Eve", "Green", 40, 12, dt.date(2022, 2, 2), True),
    ("Fay", "Blue", None, 3, dt.date(2020, 11, 5), False),
    ("Gus", "Red", 18, 9, dt.date(2019, 8, 21), True),
]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workbook, Relation]:
    path: Path = tmp_path_factory.mktemp("tofx") / "players.xlsx"
    return table_book(path, "Players", ROWS, relation=build_relation)


@pytest.mark.parametrize(
    ("sql", "expected", "shape", "value"),
    [
        (  # the difference of two lookups: scalar subqueries
            'SELECT (SELECT "Points" FROM data WHERE "Player" = \'Eve\') - '
            '(SELECT "Points" FROM data WHERE "Player" = \'Bob\') FROM data',
            "number",
            'XLOOKUP("Eve",A2:A8,C2:C8)-XLOOKUP("Bob",A2:A8,C2:C8)',
            28,
        ),
        (  # a ratio of two aggregates
            'SELECT (SELECT CAST(SUM("Points") AS REAL) FROM data WHERE "Team" = \'Red\') / '
            '(SELECT SUM("Points") FROM data) FROM data',
            "number",
            "SUMIFS(C2:C8",
            73 / 133,
        ),
        (  # integers divide as integers in SQLite
            'SELECT (SELECT SUM("Points") FROM data WHERE "Team" = \'Red\') / COUNT(*) FROM data',
            "number",
            "TRUNC(",
            10,
        ),
        (
            'SELECT COUNT(DISTINCT "Team") FROM data WHERE "Games" > 5',
            "number",
            "COUNTA(UNIQUE(FILTER(B2:B8,",
            3,
        ),
        (
            "SELECT COUNT(*) FROM data WHERE \"Team\" IN ('Red', 'Green')",
            "number",
            "ISNUMBER(MATCH(B2:B8,",
            4,
        ),
        ('SELECT COUNT(*) FROM data WHERE "Team" = \'Blue\' OR "Points" > 35', "number", "+", 3),
        ('SELECT SUM("Points") FROM data WHERE "Games" BETWEEN 6 AND 10', "number", '">=6"', 85),
        # NULL team: neither (NOT x = 'Red' is x <> 'Red' on the cells that hold one)
        ("SELECT COUNT(*) FROM data WHERE NOT \"Team\" = 'Red'", "number", 'B2:B8,"<>Red",B2:B8,"<>"', 3),
        ('SELECT "Player" FROM data WHERE NOT "Team" = \'Red\'', "list", "(1-", ["Bob", "Eve", "Fay"]),
        ("SELECT COUNT(*) FROM data WHERE \"Team\" != 'Red'", "number", "<>", 3),
        (
            'SELECT "Player" FROM data WHERE "Points" = (SELECT MAX("Points") FROM data)',
            "category",
            "MAX(",
            "Eve",
        ),
        (
            'SELECT "Player" FROM data WHERE "Points" > (SELECT AVG("Points") FROM data)',
            "list",
            "AVERAGE(",
            ["Ann", "Cyd", "Eve"],
        ),
        ("SELECT COUNT(*) FROM data WHERE \"Player\" LIKE '%y%'", "number", '"*y*"', 2),
        ('SELECT COUNT(*) FROM data WHERE "Player" LIKE \'%Y%\' OR "Points" > 35', "number", "SEARCH(", 3),
        (
            "SELECT COUNT(*) FROM data WHERE \"Player\" LIKE 'b%' OR \"Player\" LIKE '%e'",
            "number",
            "LEFT(",
            3,
        ),
        (
            'SELECT "Player" FROM data WHERE "Team" = \'Red\' ORDER BY "Points" DESC LIMIT 2',
            "list",
            "TAKE(SORTBY(FILTER(",
            ["Ann", "Cyd"],
        ),
        (
            'SELECT SUM(CASE WHEN "Team" = \'Red\' THEN "Points" ELSE 0 END) FROM data',
            "number",
            "IF(",
            73,
        ),
        ('SELECT COUNT(*) > 0 FROM data WHERE "Points" > 35', "boolean", ">0", True),
        ('SELECT COUNT(*) FROM data WHERE "Team" IS NULL', "number", '(B2:B8="")', 1),
        (
            'SELECT "Team" FROM data GROUP BY "Team" HAVING COUNT(*) >= 2 '
            'ORDER BY AVG("Points") DESC LIMIT 1',
            "category",
            "FILTER(",
            "Red",
        ),
        (  # a condition no criterion spells: each group's count by MAP
            'SELECT "Team" FROM data WHERE "Points" > 10 OR "Games" > 11 GROUP BY "Team" '
            "ORDER BY COUNT(*) DESC LIMIT 1",
            "category",
            "MAP(",
            "Red",
        ),
        (
            'SELECT ROUND(AVG(CAST("Points" AS REAL) / "Games"), 2) FROM data WHERE "Games" >= 9',
            "number",
            "ROUND(",
            2.71,
        ),
        ("SELECT COUNT(*) FROM data WHERE \"Joined\" >= '2020-01-01'", "number", "DATE(2020,1,1)", 4),
        # calendar parts as the same text: the year, the month, the weekday (Sunday is 0)
        (
            "SELECT COUNT(*) FROM data WHERE strftime('%Y', \"Joined\") = '2020'",
            "number",
            'TEXT(E2:E8,"yyyy")',
            2,
        ),
        (
            "SELECT COUNT(*) FROM data WHERE strftime('%m', \"Joined\") = '01'",
            "number",
            'TEXT(E2:E8,"mm")',
            1,
        ),
        (
            "SELECT COUNT(*) FROM data WHERE strftime('%w', \"Joined\") IN ('0', '6')",
            "number",
            "WEEKDAY(E2:E8)-1",
            2,
        ),
        ('SELECT DISTINCT "Team" FROM data WHERE "Points" > 10', "list", "UNIQUE(", ["Red", "Blue", "Green"]),
        # a row's place in the table
        ('SELECT "Player" FROM data ORDER BY "Row number" DESC LIMIT 1', "category", "SEQUENCE(ROWS(", "Gus"),
        ('SELECT MAX("Row number") FROM data WHERE "Team" = \'Red\'', "number", "MAX(FILTER(SEQUENCE(", 7),
        ('SELECT COUNT("Row number") FROM data', "number", "ROWS(SEQUENCE(", 7),
        ('SELECT CAST(AVG("Games") AS INTEGER) FROM data', "number", "TRUNC(AVERAGE(", 7),
        # TRUE/FALSE cells are SQL's 1/0
        ('SELECT COUNT(*) FROM data WHERE "Active" = 1', "number", "F2:F8,TRUE", 4),
        ('SELECT AVG("Active") FROM data WHERE "Team" = \'Red\'', "number", "--(F2:F8)", 2 / 3),
        (
            'SELECT "Player" FROM data WHERE "Active" AND "Points" > 20',
            "list",
            "(F2:F8=TRUE)",
            ["Ann", "Eve"],
        ),
        # "does every Red player have 9 games or more?": no Red row without them
        (
            'SELECT NOT EXISTS (SELECT 1 FROM data WHERE "Team" = \'Red\' AND NOT ("Games" >= 9))',
            "boolean",
            'NOT((COUNTIFS(B2:B8,"Red",D2:D8,"<9")>0))',
            True,
        ),
        ('SELECT EXISTS (SELECT 1 FROM data WHERE "Points" > 35)', "boolean", 'COUNTIFS(C2:C8,">35")', True),
        # a part of a text (case kept), an empty cell read as a value, the spaces trimmed
        ("SELECT COUNT(*) FROM data WHERE INSTR(\"Player\", 'y') > 0", "number", 'FIND("y",A2:A8)', 2),
        ('SELECT COUNT(*) FROM data WHERE COALESCE("Points", 0) = 0', "number", 'IF(C2:C8="",0,C2:C8)', 1),
        (
            "SELECT COUNT(*) FROM data WHERE LOWER(TRIM(COALESCE(\"Team\", ''))) IN ('', 'red')",
            "number",
            'LOWER(TRIM(IF(B2:B8="","",B2:B8)))',
            4,
        ),
        # groups by a computed key: the year of a date; the weekday, named from its number
        (
            "SELECT strftime('%Y', \"Joined\") FROM data GROUP BY strftime('%Y', \"Joined\") "
            'ORDER BY SUM("Points") DESC LIMIT 1',
            "category",
            'UNIQUE(TEXT(E2:E8,"yyyy"))',
            "2019",
        ),
        (
            "SELECT CASE WHEN strftime('%w', \"Joined\") = '3' THEN 'Wednesday' ELSE 'another day' END "
            "FROM data GROUP BY strftime('%w', \"Joined\") ORDER BY COUNT(*) DESC LIMIT 1",
            "category",
            'LAMBDA(k,IF((k="3")',
            "Wednesday",
        ),
        # rows of values joined: the planner's counts of listed items, and its lists of cells
        (
            "SELECT 'Red' AS item, COUNT(*) AS n FROM data WHERE \"Team\" = 'Red' UNION ALL "
            "SELECT 'Blue' AS item, COUNT(*) AS n FROM data WHERE \"Team\" = 'Blue' UNION ALL "
            "SELECT 'Green' AS item, COUNT(*) AS n FROM data WHERE \"Team\" = 'Green' "
            "ORDER BY n DESC LIMIT 2",
            "list",
            'TAKE(SORTBY(VSTACK("Red","Blue","Green"),VSTACK(COUNTIFS(',
            ["Red", "Blue"],
        ),
        (
            'SELECT (SELECT "Points" FROM data WHERE "Player" = \'Ann\') UNION ALL '
            'SELECT (SELECT "Points" FROM data WHERE "Player" = \'Eve\')',
            "list",
            "VSTACK(XLOOKUP(",
            [30, 40],
        ),
    ],
)
def test_each_construct_translates_and_the_engine_agrees(
    book: tuple[Workbook, Relation], sql: str, expected: str, shape: str, value: Any
) -> None:
    formula, got = translated(book, sql, expected)
    assert shape in formula
    assert same_value(got, value)


def test_sql_null_is_no_match_where_excel_would_match_an_empty_cell(book: tuple[Workbook, Relation]) -> None:
    """``Points < 15`` is unknown for Fay (no points) in SQL; Excel compares her empty cell as 0."""
    _wb, rel = book
    formula = translate(rel, 'SELECT COUNT(*) FROM data WHERE "Points" < 15 AND "Games" > 0')
    assert formula == '=COUNTIFS(C2:C8,"<15",C2:C8,"<>",D2:D8,">0")'
    formula = translate(rel, 'SELECT COUNT(*) FROM data WHERE "Points" < 15 OR "Games" > 11')
    assert formula is not None and '(C2:C8<15)*(C2:C8<>"")' in formula
    assert translated(book, 'SELECT COUNT(*) FROM data WHERE "Points" < 15 AND "Games" > 0')[1] == 2


def test_a_plain_spelling_first(book: tuple[Workbook, Relation]) -> None:
    _wb, rel = book
    assert translate(rel, 'SELECT AVG("Points") FROM data WHERE "Team" = \'Red\'') == (
        '=AVERAGEIFS(C2:C8,B2:B8,"Red")'
    )
    assert translate(rel, "SELECT \"Player\" FROM data WHERE \"Team\" IN ('Red','Blue')") == (
        '=FILTER(A2:A8,ISNUMBER(MATCH(B2:B8,{"Red","Blue"},0)))'
    )


def test_a_group_column_tested_not_empty_needs_no_criterion_of_its_own(
    book: tuple[Workbook, Relation],
) -> None:
    sql = (
        'SELECT "Team" FROM data WHERE "Team" IS NOT NULL GROUP BY "Team" ORDER BY SUM("Games") DESC LIMIT 1'
    )
    formula, value = translated(book, sql, "category")
    assert value == "Red"
    keys = 'UNIQUE(FILTER(B2:B8,(B2:B8<>"")))'
    assert formula == f"=TAKE(SORTBY({keys},SUMIFS(D2:D8,B2:B8,{keys}),-1),1)"


def test_a_yes_no_count_is_the_count_above_zero(book: tuple[Workbook, Relation]) -> None:
    wb, rel = book
    sql = "SELECT COUNT(*) FROM data WHERE \"Team\" = 'Green'"
    assert verified_formula(rel, wb, sql, True) == '=(COUNTIFS(B2:B8,"Green"))>0'
    assert verified_formula(rel, wb, sql, False) is None


@pytest.mark.parametrize(
    "sql",
    [
        'SELECT "Team", COUNT(*) FROM data GROUP BY "Team", "Games" ORDER BY COUNT(*) DESC LIMIT 1',
        "SELECT * FROM data",
        'SELECT "Player" FROM other',
        "SELECT strftime('%j', \"Joined\") FROM data",  # the day of the year: no TEXT picture
        "not a query at all (",
        'SELECT COUNT(*) FROM data WHERE "No such column" = 1',
        "SELECT 1",
        'SELECT "Player" FROM data AS a JOIN data AS b ON a."Team" = b."Team"',
        'SELECT "Player" FROM data LIMIT "Points"',
        'SELECT "Player" FROM data WHERE "Team" IN (SELECT "Team" FROM data)',
        'SELECT SUM(DISTINCT "Points") FROM data',
        "DROP TABLE data",
        'SELECT "Player" FROM data UNION ALL SELECT "Team" FROM data',  # rows, not one value each
        "SELECT 'a' UNION SELECT 'b'",  # duplicates dropped: no VSTACK does that
        'SELECT EXISTS (SELECT 1 FROM other WHERE "Points" > 3)',
        'SELECT EXISTS (SELECT "Team" FROM data GROUP BY "Team")',
        # past Excel's 8,192 characters: no formula a cell could hold
        " UNION ALL ".join(
            f"SELECT 'item {i}' AS item, COUNT(*) AS n FROM data WHERE \"Points\" > {i}" for i in range(300)
        )
        + " ORDER BY n DESC LIMIT 3",
    ],
)
def test_no_translation_is_none(book: tuple[Workbook, Relation], sql: str) -> None:
    _wb, rel = book
    assert translations(rel, sql) == []


def test_a_formula_the_engine_does_not_agree_with_is_not_kept(book: tuple[Workbook, Relation]) -> None:
    wb, rel = book
    sql = 'SELECT "Player" FROM data ORDER BY "Points" DESC LIMIT 1'
    # (Fay's empty cell sorts last in SORTBY, as in Excel, and her NULL last in SQL: the plain spelling)
    assert verified_formula(rel, wb, sql, "Eve") == "=TAKE(SORTBY(A2:A8,C2:C8,-1),1)"
    # a result the engine does not give gets no formula
    assert verified_formula(rel, wb, sql, "Ann") is None


def test_one_value_from_several_rows_is_the_first(book: tuple[Workbook, Relation]) -> None:
    """The pipeline answers a one-value question from several rows with the first; so does the formula."""
    formula, value = translated(book, 'SELECT "Player" FROM data WHERE "Team" = \'Red\'', "category")
    assert value == "Ann" and formula == '=INDEX(FILTER(A2:A8,(B2:B8="Red")),1)'


def test_numbers_written_as_text_are_read_as_numbers(tmp_path: Path) -> None:
    """A column of numbers the file holds as text: the view reads them as numbers, so does ``--``."""
    path = tmp_path / "scores.xlsx"
    xb = XlsxWorkbook()
    ws = xb.active
    ws.title = "Players"
    for line in [("Player", "Score"), ("Ann", "0.25"), ("Bob", "0.75"), ("Cyd", "0.5"), ("Dee", "0.125")]:
        ws.append(list(line))
    xb.save(path)
    wb = open_workbook(path)
    sheet = wb.sheets[0]
    rel = build_relation(sheet, detect_tables(sheet).tables[0])
    formula, value = translated((wb, rel), 'SELECT MAX("Score") FROM data', "number")
    assert value == 0.75 and formula == "=MAX((--B2:B5))"
    formula, value = translated((wb, rel), 'SELECT COUNT(*) FROM data WHERE "Score" > 0.3', "number")
    assert value == 2 and formula == "=SUM(--((--B2:B5)>0.3))"

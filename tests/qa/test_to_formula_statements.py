"""Formulas over statements and published tables: the cells the view reads otherwise than Excel does.

A statement's line labels are indented with spaces, a series' years are typed as numbers, a published
table writes ``..`` or ``-`` where it has no figure, and the view's ``Section`` and ``Is total``
columns have no cells at all. Each query below is the question pipeline's own, run on a real .xlsx
file, and its formula must give the query's result in the real formula engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.qa.conftest import table_book, translated

from gridsight.grid import Range, Workbook
from gridsight.qa import answer_question, formula_from_question
from gridsight.qa._pipeline import same_value
from gridsight.qa._relational import Relation, relation_of
from gridsight.qa._to_formula import translations, verified_formula

STATEMENT = [
    ("Moorfield Tools plc",),
    ("Balance sheet",),
    ("£000",),
    (),
    (None, "2025", "2024"),
    ("Current assets",),
    ("   Inventories", 420, 380),
    ("   Trade receivables", 610, 555),
    ("   Cash at bank", 275, 310),
    ("Total current assets", 1305, 1245),
    (),
    ("Current liabilities",),
    ("   Trade payables", 330, 300),
    ("   Accruals", 95, 120),
    ("   Bank overdraft", "-", 40),
    ("Total current liabilities", 425, 460),
]

SERIES = [
    ("Births and deaths",),
    ("Year", "Births", "Deaths", "Rate"),
    (2019, 480, 510, 8.9),
    (2020, 470, 560, ".."),
    (2021, 455, 540, 8.4),
    (2022, 461, 530, 8.5),
    (2023, 449, 520, 8.3),
]


def _book(tmp_path: Path, name: str, rows: list[tuple[Any, ...]]) -> tuple[Workbook, Relation]:
    return table_book(tmp_path / f"{name}.xlsx", name, rows, relation=relation_of)


@pytest.fixture(scope="module")
def statement(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workbook, Relation]:
    return _book(tmp_path_factory.mktemp("st"), "Statement", STATEMENT)


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workbook, Relation]:
    return _book(tmp_path_factory.mktemp("se"), "Series", SERIES)


SECTION = (
    '("Section" = \'Current liabilities\' OR "Section" LIKE \'Current liabilities › %\') AND "Is total" = 0'
)


@pytest.mark.parametrize(
    ("sql", "expected", "shape", "value"),
    [
        (  # an indented line label: the view holds it trimmed, and so does TRIM(cells&"")
            'SELECT "2025" FROM data WHERE "Row" = \'Cash at bank\'',
            "number",
            'TRIM(A7:A16&"")="Cash at bank"',
            275,
        ),
        (  # a section's lines with no total: the block of rows they fill, no condition left
            f'SELECT "Row" FROM data WHERE {SECTION} ORDER BY "2024" DESC LIMIT 1',
            "category",
            "A13:A15",
            "Trade payables",
        ),
        (  # the second largest: OFFSET is DROP
            f'SELECT "Row" FROM data WHERE {SECTION} ORDER BY "2024" DESC LIMIT 1 OFFSET 1',
            "category",
            "TAKE(DROP(SORTBY(",
            "Accruals",
        ),
        (  # a "-" is no figure: no count of it, however the comparison goes
            f'SELECT COUNT(*) FROM data WHERE {SECTION} AND "2025" < 1000',
            "number",
            "ISNUMBER(B13:B15)",
            2,
        ),
        (  # two lookups and SQLite's two-argument MAX
            'SELECT MAX((SELECT "2025" FROM data WHERE "Row" = \'Inventories\'), '
            '(SELECT "2024" FROM data WHERE "Row" = \'Inventories\'))',
            "number",
            "MAX(XLOOKUP(",
            420,
        ),
    ],
)
def test_statement_queries_translate(
    statement: tuple[Workbook, Relation], sql: str, expected: str, shape: str, value: Any
) -> None:
    formula, got = translated(statement, sql, expected, "cells")
    assert shape in formula and got == value, formula


@pytest.mark.parametrize(
    ("sql", "expected", "shape", "value"),
    [
        (  # a year typed as a number, read as the text the view holds
            'SELECT "Deaths" FROM data WHERE "Year" = \'2021\'',
            "number",
            'TRIM(A3:A7&"")="2021"',
            540,
        ),
        (  # the mean of listed cells leaves out the one marked "..", as SQL's AVG leaves out NULL
            'SELECT AVG(v) FROM (SELECT (SELECT "Rate" FROM data WHERE "Year" = \'2019\') AS v '
            'UNION ALL SELECT (SELECT "Rate" FROM data WHERE "Year" = \'2020\') AS v '
            'UNION ALL SELECT (SELECT "Rate" FROM data WHERE "Year" = \'2021\') AS v)',
            "number",
            "AVERAGE(VSTACK(",
            8.65,
        ),
        (  # which listed year was highest: the label beside the largest value
            "SELECT p FROM (SELECT '2019' AS p, (SELECT \"Births\" FROM data WHERE \"Year\" = '2019') AS v "
            "UNION ALL SELECT '2023' AS p, (SELECT \"Births\" FROM data WHERE \"Year\" = '2023') AS v) "
            "ORDER BY v DESC LIMIT 1",
            "category",
            'SORTBY(VSTACK("2019","2023")',
            "2019",
        ),
        (  # CASE x WHEN: SWITCH; the stand-in -1e308 written as Excel takes it
            'SELECT CASE MAX(COALESCE((SELECT "Births" FROM data WHERE "Year" = \'2019\'), -1e308), '
            'COALESCE((SELECT "Deaths" FROM data WHERE "Year" = \'2019\'), -1e308)) WHEN -1e308 THEN NULL '
            "WHEN COALESCE((SELECT \"Births\" FROM data WHERE \"Year\" = '2019'), -1e308) THEN 'Births' "
            "ELSE 'Deaths' END",
            "category",
            "SWITCH(MAX(",
            "Deaths",
        ),
        (  # the latest figure there is: COALESCE over several columns, nested IFs
            'SELECT COALESCE("Rate", "Deaths") FROM data WHERE "Year" = \'2020\'',
            "number",
            'IF(IFERROR(--D3:D7,"")=""',
            560,
        ),
        (  # rows where a marked cell holds no figure are not below anything
            'SELECT COUNT(*) FROM data WHERE "Rate" > 8.4',
            "number",
            "ISNUMBER(D3:D7)",
            2,
        ),
    ],
)
def test_series_queries_translate(
    series: tuple[Workbook, Relation], sql: str, expected: str, shape: str, value: Any
) -> None:
    formula, got = translated(series, sql, expected, "cells")
    assert shape in formula and same_value(got, value), formula
    assert "9.99E+307" in formula or "1e308" not in formula.lower()


def test_section_rows_that_are_not_one_block_keep_no_formula(statement: tuple[Workbook, Relation]) -> None:
    # the lines of every section but no totals: two blocks with totals between, no range holds them
    _wb, rel = statement
    assert (
        translations(rel, 'SELECT SUM("2025") FROM data WHERE "Is total" = 0 AND "Section" IS NOT NULL') == []
    )


def test_a_column_the_view_lacks_is_no_translation(statement: tuple[Workbook, Relation]) -> None:
    _wb, rel = statement
    assert translations(rel, 'SELECT "Nope" FROM data WHERE "Row" = \'Accruals\'') == []


@pytest.mark.parametrize(
    ("question", "value", "shape"),
    [
        ("What was cash at bank in 2025?", 275, "B9"),
        ("Which current asset was largest in 2024?", "Trade receivables", "SORTBY("),
        ("Which current liability was the second largest in 2024?", "Accruals", "DROP("),
    ],
)
def test_gridsight_formula_reads_a_statement_as_a_question(
    statement: tuple[Workbook, Relation], question: str, value: Any, shape: str
) -> None:
    # `gridsight formula` takes the question pipeline's answer and the formula it checked
    wb, _rel = statement
    asked = answer_question(wb, question)
    ans = formula_from_question(question, wb)
    assert ans.value == asked.value == value and ans.formula == asked.formula
    assert ans.formula is not None and shape in ans.formula and ans.shape == "question"


def test_a_range_the_user_chose_keeps_the_formula_inside_it(tmp_path: Path) -> None:
    # two tables side by side with the same headers: the question read over the sheet would take
    # the first; the range chosen is the second, and so is the formula
    rows = [
        ("Region", "Sales", None, None, "Region", "Sales"),
        ("North", 10, None, None, "East", 100),
        ("South", 20, None, None, "West", 200),
        ("Central", 30, None, None, "Coast", 300),
    ]
    wb, _rel = table_book(tmp_path / "two.xlsx", "Two", rows, relation=relation_of)
    whole = formula_from_question("What are the total sales in the North?", wb, "Two")
    assert (whole.formula, whole.value) == ('=SUMIFS(B2:B4,A2:A4,"North")', 10)
    chosen = formula_from_question("What are the total sales in the North?", wb, "Two", area="E1:F4")
    assert chosen.evaluation is not None and chosen.evaluation.references
    assert all(Range.parse(r).intersect(Range.parse("E1:F4")) for r in chosen.evaluation.references)


def test_a_flat_tables_total_row_is_left_out_where_the_query_left_it_out(tmp_path: Path) -> None:
    # the planner's view reads the segments, not the total under them: so does the formula
    # (``rows``: the sheet rows of that view, as :func:`gridsight.qa._to_formula.view_rows` gives them)
    rows = [
        ("Segment", "Revenue", "Operating profit"),
        ("Bakery", 540, 61),
        ("Dairy", 410, 38),
        ("Snacks", 300, 52),
        ("Drinks", 250, 12),
        ("Total", 1500, 163),
    ]
    wb, _rel = table_book(tmp_path / "segments.xlsx", "Segments", rows, relation=relation_of)
    sql = 'SELECT "Segment" FROM data WHERE "Revenue" IS NOT NULL ORDER BY "Revenue" DESC LIMIT 1'
    # over the whole relation the total row ranks first: no formula gives the query's Bakery
    assert verified_formula(_rel, wb, sql, "Bakery") is None
    # over the rows of the view the query ran on (the planner's, without the total): the formula
    assert verified_formula(_rel, wb, sql, "Bakery", rows=(1, 4)) == "=TAKE(SORTBY(A2:A5,B2:B5,-1),1)"
    count = 'SELECT COUNT(*) FROM data WHERE "Operating profit" > 40'
    assert verified_formula(_rel, wb, count, 2, rows=(1, 4)) == '=COUNTIFS(C2:C5,">40")'

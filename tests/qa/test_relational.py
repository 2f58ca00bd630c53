"""The relational view of a detected table: header paths, row labels, sections, totals, typed numbers."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import Workbook as XlWorkbook
from openpyxl.styles import Font

from gridsight.detect import detect_tables
from gridsight.grid import SheetBuilder
from gridsight.qa._relational import SECTION, TOTAL, build_relation, parse_number
from gridsight.qa._sql import run_query
from gridsight.sources import open_workbook


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("46,300", 46300),
        ("$1,694", 1694),
        ("(12,760)", -12760),
        ("−3.5", -3.5),
        ("84.6%", 84.6),
        ("12*", 12),
        ("*7*", 7),
        ("**", None),
        ("7 [a]", 7),
        (".32", 0.32),
        ("1:52:21.3", None),
        ("10–4", None),
        ("2nd", None),
        ("(12", None),
        ("", None),
        ("abc", None),
    ],
)
def test_parse_number(text: str, number: float | None) -> None:
    assert parse_number(text) == number


def _statement(path: Path) -> Path:
    """Merged years over quarters, a unit line, section rows, a total row."""
    wb = XlWorkbook()
    ws = wb.active
    ws.title = "Ops"
    ws["A1"] = "Fleet statistics"
    ws["A1"].font = Font(bold=True)
    ws["B2"], ws["D2"] = "2022", "2023"
    ws.merge_cells("B2:C2")
    ws.merge_cells("D2:E2")
    for col, q in zip("BCDE", ("Q1", "Q2", "Q1", "Q2"), strict=True):
        ws[f"{col}3"] = q
    for col in "ABCDE":
        for row in (2, 3):
            ws[f"{col}{row}"].font = Font(bold=True)
    rows = [
        ("Passenger flights:", None, None, None, None),
        ("Departures", "1,200", "1,350", "1,410", "1,500"),
        ("Block hours", 3000, 3100, 3300, 3400),
        ("Cargo flights:", None, None, None, None),
        ("Departures", 90, 95, 99, 101),
        ("Total departures", "1,290", "1,445", "1,509", "1,601"),
    ]
    for i, line in enumerate(rows):
        for j, v in enumerate(line):
            if v is not None:
                ws.cell(4 + i, 1 + j, v)
    wb.save(path)
    return path


def test_multi_header_table_becomes_one_column_per_header_path(tmp_path: Path) -> None:
    wb = open_workbook(_statement(tmp_path / "ops.xlsx"))
    sheet = wb.sheets[0]
    table = detect_tables(sheet).tables[0]
    rel = build_relation(sheet, table)
    names = [c.name for c in rel.columns]
    assert names[:2] == ["Row", SECTION]
    assert "2022 › Q1" in names and "2023 › Q2" in names
    assert {c.name: c.kind for c in rel.columns}["2022 › Q1"] == "number"  # "1,200" typed as a number
    rows, _ = run_query(
        'SELECT "2023 › Q1" FROM data WHERE "Row" = \'Departures\' AND "Section" = \'Cargo flights:\'',
        rel.view,
    )
    assert rows == [(99,)]
    rows, _ = run_query('SELECT "2022 › Q1" FROM data WHERE "Row" = \'Departures\' ORDER BY 1', rel.view)
    assert rows == [(90,), (1200,)]  # one departures row per section, told apart by the Section column
    if TOTAL in names:
        rows, _ = run_query(f'SELECT "Row" FROM data WHERE "{TOTAL}" = 1', rel.view)
        assert rows == [("Total departures",)]


def test_flat_table_keeps_its_headers_and_types_times_dates_and_text_numbers() -> None:
    b = SheetBuilder("t")
    for c, name in enumerate(("Runner", "Time", "Date", "Prize", "Finished")):
        b.set(0, c, name)
    data = [
        ("Ann", dt.time(1, 52, 21), dt.datetime(2024, 5, 1), "$1,000", True),
        ("Bo", dt.time(1, 55, 2), dt.datetime(2024, 5, 2), "$800", False),
        ("Cy", dt.time(2, 1, 0), dt.datetime(2024, 5, 3), "n/a", True),
        ("Di", dt.time(2, 3, 9), dt.datetime(2024, 5, 4), "$650", True),
        ("Ed", dt.time(2, 9, 9), dt.datetime(2024, 5, 5), "$600", True),
    ]
    for r, line in enumerate(data, 1):
        for c, v in enumerate(line):
            b.set(r, c, v)
    sheet = b.build()
    table = detect_tables(sheet).tables[0]
    rel = build_relation(sheet, table)
    kinds = {c.name: c.kind for c in rel.columns}
    assert kinds == {
        "Runner": "text",
        "Time": "date",
        "Date": "date",
        "Prize": "number",
        "Finished": "boolean",
        "Row number": "number",
    }
    rows, _ = run_query('SELECT SUM("Prize") FROM data WHERE "Finished" = 1', rel.view)
    assert rows == [(2250,)]  # "n/a" is no number: left empty, not 0 and not text
    rows, _ = run_query('SELECT "Runner" FROM data ORDER BY "Time" DESC LIMIT 1', rel.view)
    assert rows == [("Ed",)]


def test_empty_table_has_no_rows() -> None:
    b = SheetBuilder("t")
    for c, name in enumerate(("a", "b")):
        b.set(0, c, name)
    b.set(1, 0, "x")
    sheet = b.build()
    for table in detect_tables(sheet).tables:
        rel = build_relation(sheet, table)
        assert len(rel.rows) <= 1


def test_a_wrong_section_guess_is_dropped_when_the_row_label_names_the_row(tmp_path: Path) -> None:
    """The small model names a row by its label and guesses its section wrong: the query finds no
    rows, so it runs again without the section test (only then, and only beside a label test)."""
    from gridsight.qa._pipeline import run_attempt, without_section

    wb = open_workbook(_statement(tmp_path / "ops.xlsx"))
    sheet = wb.sheets[0]
    rel = build_relation(sheet, detect_tables(sheet).tables[0])
    wrong = 'SELECT "2022 › Q2" FROM data WHERE "Section" = \'Cargo flights:\' AND "Row" = \'Block hours\''
    assert without_section(wrong, rel) == 'SELECT "2022 › Q2" FROM data WHERE "Row" = \'Block hours\''
    attempt = run_attempt(rel, "model", wrong, "number")
    assert attempt.value == 3100 and "Section" not in str(attempt.sql)
    # A right section guess runs as written; a section test alone is not dropped.
    right = 'SELECT "2022 › Q1" FROM data WHERE "Row" = \'Departures\' AND "Section" = \'Cargo flights:\''
    assert run_attempt(rel, "model", right, "number").value == 90
    assert without_section("SELECT COUNT(*) FROM data WHERE \"Section\" = 'Cargo flights:'", rel) is None


def test_formulas_never_calculated_hold_their_results_in_the_view(tmp_path: Path) -> None:
    # a statement written by a script: its subtotal and total rows are formulas with no saved result
    from .conftest import write_balance

    sheet = open_workbook(write_balance(tmp_path / "balance.xlsx")).sheets[0]
    rel = build_relation(sheet, detect_tables(sheet).tables[0])
    rows, _ = run_query(
        'SELECT "2023 › H1 › Actual", "2024 › H2 › Plan" FROM data WHERE "Item" = \'Total assets\'', rel.view
    )
    assert rows == [(1060, 1150)]  # (120 + 80 + 60) + 300 + 500; (150 + 95 + 75) + 330 + 500


def test_formulas_that_fail_or_are_too_many_stay_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a division by zero, an unknown function and a reference to another workbook: no value, no
    # traceback; past the bound, none is computed (a generated sheet must not stall the first question)
    from gridsight.qa import _relational

    wb = XlWorkbook()
    ws = wb.active
    ws.append(["Item", "Value"])
    ws.append(["a", 5])
    for label, formula in [
        ("zero", "=1/0"),
        ("unknown", "=NOSUCHFN(B2)"),
        ("link", "='[x.xlsx]S'!A1"),
        ("ok", "=B2*2"),
    ]:
        ws.append([label, formula])
    wb.save(tmp_path / "bad.xlsx")
    sheet = open_workbook(tmp_path / "bad.xlsx").sheets[0]
    table = detect_tables(sheet).tables[0]
    rel = build_relation(sheet, table)
    assert rel.values[[c.name for c in rel.columns].index("Value")] == [5, None, None, None, 10]
    monkeypatch.setattr(_relational, "MAX_COMPUTED", 3)
    rel = build_relation(sheet, table)
    assert rel.values[[c.name for c in rel.columns].index("Value")] == [5, None, None, None, None]

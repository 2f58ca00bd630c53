"""Structured references (Excel tables): read from real .xlsx table parts, expanded before the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook as XlWorkbook
from openpyxl.worksheet.table import Table

from gridsight.formula import evaluate_formula, explain_formula, validate_formula
from gridsight.grid import ExcelTable, Range
from gridsight.sources import open_workbook
from gridsight.sources.snapshot import dump_snapshot, load_snapshot


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Cover sheet first, then 'Orders' with table Orders at B3:D7 (header row 3, totals row 7)."""
    wb = XlWorkbook()
    wb.active.title = "Cover"
    wb.active["A1"] = "notes"
    ws = wb.create_sheet("Orders")
    rows = [("Region", "Unit Price", "Qty"), ("East", 2.5, 4), ("West", 10, 1), ("East", 4, 5)]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            ws.cell(3 + i, 2 + j, v)
    ws["B7"], ws["D7"] = "Total", "=SUBTOTAL(109,[Qty])"
    table = Table(displayName="Orders", ref="B3:D7")
    table.totalsRowCount = 1
    ws.add_table(table)
    path = tmp_path_factory.mktemp("structured") / "orders.xlsx"
    wb.save(path)
    return path


def test_tables_are_read_from_the_file(book: Path) -> None:
    wb = open_workbook(book)
    assert wb.tables == (
        ExcelTable("Orders", "Orders", Range.parse("B3:D7"), ("Region", "Unit Price", "Qty"), 1, 1),
    )
    assert wb.table("orders") is wb.tables[0]
    assert open_workbook(book, sheets=["Cover"]).tables == ()  # a table on a sheet not read is dropped
    assert load_snapshot(dump_snapshot(wb)) == wb  # and they round-trip through snapshot.v1


@pytest.mark.parametrize(
    ("formula", "value"),
    [
        ("=SUM(Orders[Qty])", 10),  # data rows only: 4 + 1 + 5, not the totals row
        ("=SUMPRODUCT(Orders[Unit Price],Orders[Qty])", 40),  # 2.5*4 + 10*1 + 4*5
        ('=COUNTIFS(Orders[Region],"East")', 2),
        ("=ROWS(Orders[#All])", 5),
        ("=ROWS(Orders[#Data])", 3),
        ("=COLUMNS(Orders[[Unit Price]:[Qty]])", 2),
        ("=ROWS(Orders[[#Headers],[#Data]])", 4),
        ('=Orders[[#Totals],[Region]]&""', "Total"),
        ("=ROWS(Orders)", 3),  # a bare table name is its data rows
        ('=SUMIFS(orders[qty],ORDERS[region],"West")', 1),  # names are case-insensitive
    ],
)
def test_values(book: Path, formula: str, value: Any) -> None:
    ev = evaluate_formula(formula, open_workbook(book), "Orders")
    assert ev.ok and ev.error is None, ev
    assert ev.value == value


def test_this_row_and_other_sheets(book: Path) -> None:
    wb = open_workbook(book)
    assert evaluate_formula("=Orders[@Qty]*2", wb, "Orders", at="E5").value == 2  # row 5: West, qty 1
    assert evaluate_formula("=Orders[@Qty]*Orders[@[Unit Price]]", wb, "Orders", at="E6").value == 20
    assert evaluate_formula("=[@Qty]*2", wb, "Orders", at="C6").value == 10  # unqualified: inside the table
    assert not evaluate_formula("=[@Qty]*2", wb, "Orders", at="E6").ok  # outside it: no table to mean
    assert evaluate_formula("=SUM(Orders[Qty])", wb, "Cover").value == 10  # qualified with 'Orders'!


@pytest.mark.parametrize(
    ("formula", "problem"),
    [
        ("=SUM(Nope[Qty])", "there is no table named 'Nope' (#REF!)"),
        ("=SUM(Orders[Price])", "table 'Orders' has no column 'Price' (#REF!)"),
        ("=Orders[@Qty]", "a this-row reference (@) needs a cell inside the table's rows (#VALUE!)"),
        ("=SUM(Orders[Qty)", "a structured reference is missing its closing ']'"),
    ],
)
def test_bad_references(book: Path, formula: str, problem: str) -> None:
    v = validate_formula(formula, open_workbook(book), "Orders")
    assert not v.ok and v.problems == (problem,)


def test_explained_by_header(book: Path) -> None:
    wb = open_workbook(book)
    assert explain_formula('=SUMIFS(Orders[Qty],Orders[Region],"East")', wb, "Orders") == (
        'Returns the sum of Qty (D4:D6) where Region (B4:B6) is "East".'
    )


def test_column_names_with_spaces_at_the_end_and_commas(tmp_path: Path) -> None:
    """A column name keeps its own spaces (``"Qty "`` is ``[Qty ]``) and may hold a comma
    (``[[#This Row],[Price, net]]``); ``Qty`` still finds ``"Qty "`` when nothing matches exactly."""
    wb = XlWorkbook()
    ws = wb.active
    ws.title = "T"
    for i, row in enumerate([("Item", "Price, net", "Qty "), ("a", 2, 3), ("b", 5, 7)]):
        for j, v in enumerate(row):
            ws.cell(1 + i, 1 + j, v)
    ws.add_table(Table(displayName="Stock", ref="A1:C3"))
    path = tmp_path / "spaces.xlsx"
    wb.save(path)
    book = open_workbook(path)
    assert book.tables[0].columns == ("Item", "Price, net", "Qty ")
    assert evaluate_formula("=SUM(Stock[[Qty ]])", book, "T").value == 10
    assert evaluate_formula("=SUM(Stock[Qty])", book, "T").value == 10
    at_row_3 = evaluate_formula(
        "=Stock[[#This Row],[Price, net]]*Stock[[#This Row],[Qty ]]", book, "T", at="D3"
    )
    assert at_row_3.value == 35
    assert evaluate_formula("=SUM(Stock[[#Data], [Price, net]])", book, "T").value == 7


def test_table_and_column_names_as_excel_writes_them(tmp_path: Path) -> None:
    """A table name of any letters (``テーブル15``), a column name with ``'`` escaped in the formula
    (``[Column'']`` is the column ``Column'``) and one holding a line break, which the table part
    saves as ``_x000a_`` and formulas write as the character; the range operator beside a
    structured reference (``INDEX(T[Qty],1):T[@Qty]``)."""
    import re
    import zipfile

    wb = XlWorkbook()
    ws = wb.active
    ws.title = "S"
    rows = [("Item", "Column'", "Ending balance"), ("a", 1, 100), ("b", 2, 200), ("c", 3, 300)]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            ws.cell(1 + i, 1 + j, v)
    ws.add_table(Table(displayName="テーブル15", ref="A1:C4"))
    plain = tmp_path / "plain.xlsx"
    wb.save(plain)
    path = tmp_path / "names.xlsx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.startswith("xl/tables/"):
                data = re.sub(rb'name="Ending balance"', b'name="Ending_x000a_balance"', data)
            dst.writestr(info, data)
    book = open_workbook(path)
    assert book.tables[0].columns == ("Item", "Column'", "Ending\nbalance")
    at_row_3 = {
        "=テーブル15[[#This Row],[Column'']]*4": 8,
        "=SUBTOTAL(109,テーブル15[Column''])": 6,
        "=SUM(テーブル15[Ending\nbalance])": 600,
        "=SUM(INDEX(テーブル15[Column''],1,1):テーブル15[[#This Row],[Column'']])": 3,
        "=SUM(テーブル15[Column'']:INDEX(テーブル15[Column''],2))": 6,
    }
    for formula, excel in at_row_3.items():
        ev = evaluate_formula(formula, book, "S", at="D3")
        assert ev.ok and ev.value == excel, (formula, ev)

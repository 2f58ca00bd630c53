"""Sheets for the encoder tests: built in memory, or written by openpyxl and read back for real."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook as OpenpyxlWorkbook
from openpyxl.styles import Border, Font, PatternFill, Side

from gridsight.grid import Sheet
from gridsight.sources import open_workbook


def two_tables_sheet(rows: int = 60) -> dict[str, Any]:
    """A title, a long table (header + ``rows`` data rows), a note, then a second small table."""
    cells: dict[str, Any] = {"A1": "Sales report 2024"}
    cells.update({"A3": "Region", "B3": "Units", "C3": "Price"})
    regions = ("North", "South", "East", "West")
    for i in range(rows):
        r = 4 + i
        cells[f"A{r}"] = regions[i % 4]
        cells[f"B{r}"] = 10 + i
        cells[f"C{r}"] = 1.25 + i
    end = 3 + rows
    cells[f"A{end + 2}"] = "Source: internal"
    cells.update({f"A{end + 4}": "Year", f"B{end + 4}": "Total"})
    cells.update({f"A{end + 5}": 2023, f"B{end + 5}": 100, f"A{end + 6}": 2024, f"B{end + 6}": 120})
    return cells


@pytest.fixture
def two_tables() -> Sheet:
    return Sheet.from_cells("Report", two_tables_sheet())


@pytest.fixture
def styled_book(tmp_path: Path) -> Path:
    """A real .xlsx: merged bold title, bordered header, formats, a formula, an error, long text."""
    wb = OpenpyxlWorkbook()
    ws = wb.active
    ws.title = "Budget"
    ws["B2"] = "Budget 2024"
    ws["B2"].font = Font(bold=True)
    ws.merge_cells("B2:E2")
    thin = Side(style="thin")
    for col, name in zip("BCDE", ("Item", "Cost", "Share", "Due"), strict=True):
        cell = ws[f"{col}4"]
        cell.value = name
        cell.font = Font(bold=True)
        cell.border = Border(bottom=thin)
        cell.fill = PatternFill("solid", fgColor="DDDDDD")
    import datetime as dt

    for i in range(30):
        r = 5 + i
        ws[f"B{r}"] = f"Item {i + 1}"
        ws[f"C{r}"] = 100 + i * 2.5
        ws[f"C{r}"].number_format = "#,##0.00"
        ws[f"D{r}"] = (i + 1) / 100
        ws[f"D{r}"].number_format = "0%"
        ws[f"E{r}"] = dt.datetime(2024, 1, 1) + dt.timedelta(days=i)
        ws[f"E{r}"].number_format = "yyyy-mm-dd"
    ws["B35"] = "Total"
    ws["C35"] = "=SUM(C5:C34)"
    ws["B37"] = "Note: figures\nare estimates | unaudited"
    path = tmp_path / "budget.xlsx"
    wb.save(path)
    return path


@pytest.fixture
def budget(styled_book: Path) -> Sheet:
    return open_workbook(styled_book).sheet("Budget")

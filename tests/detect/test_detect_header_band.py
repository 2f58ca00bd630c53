"""A table's header band, not only its top row, says which edge columns are its own.

Each case is a real .xlsx written by openpyxl: a two-row header with groups merged on its first row.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from gridsight.detect import detect_tables
from gridsight.sources import open_workbook


def _two_row_header(ws: Worksheet, last: str) -> None:
    """``Month | Production (Units, Value) | Sales (Units, Value)`` with groups merged on row 1."""
    ws["B1"], ws["D1"] = "Production", "Sales"
    ws.merge_cells("B1:C1")
    ws.merge_cells("D1:E1")
    for col, name in zip("ABCDE", ("Month", "Units", "Value", "Units", "Value"), strict=True):
        ws[f"{col}2"] = name
    ws["F2"] = last


def _trimmed(tmp_path: Path, fill: str) -> str:
    wb = Workbook()
    ws = wb.active
    ws.title = "Data"
    _two_row_header(ws, "Remark")
    for i in range(8):
        r = 3 + i
        ws[f"A{r}"], ws[f"B{r}"], ws[f"C{r}"] = f"month {i + 1}", 10 + i, 2.5 * i
        if fill == "all":
            ws[f"D{r}"], ws[f"E{r}"] = 7 + i, 1.5 * i
        if i in (1, 4, 6):
            ws[f"F{r}"] = f"checked {i}"
    path = tmp_path / f"{fill}.xlsx"
    wb.save(path)
    (t,) = detect_tables(open_workbook(path).sheet("Data")).tables
    return t.range.ref()


def test_a_sparse_last_column_named_on_the_second_header_row_stays_in_the_table(tmp_path: Path) -> None:
    # its name sits on the header's second row, under no group label: a field, not remarks beside
    assert _trimmed(tmp_path, "all") == "A1:F10"


def test_a_group_with_no_figures_yet_stays_in_the_table(tmp_path: Path) -> None:
    # the Sales group is headed on both header rows but not reported yet (a form still to fill)
    assert _trimmed(tmp_path, "none") == "A1:F10"

"""Remarks typed in the column right of a table, on most of its rows, are its notes.

Each case is a real .xlsx written by openpyxl.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook

from gridsight.detect import DetectedTable, detect_tables
from gridsight.sources import open_workbook

REMARKS = [
    "These figures exclude the overseas branches of the group.",
    "Revised after the audit of the second quarter results.",
    "Totals may not add up because of rounding to thousands.",
    "The northern region includes the former eastern district.",
    "Prices are shown before taxes and delivery charges apply.",
    "Data for the last month are preliminary estimates only.",
]


def _table(tmp_path: Path, head: str) -> DetectedTable:
    wb = Workbook()
    ws = wb.active
    ws.title = "Sales"
    for col, name in zip("ABC", ("Region", "Q1", "Q2"), strict=True):
        ws[f"{col}1"] = name
    for i in range(8):
        ws[f"A{2 + i}"], ws[f"B{2 + i}"], ws[f"C{2 + i}"] = f"region {i}", 1.5 * i + 1, 2.5 * i + 1
    ws["D1"] = head
    for i, text in enumerate(REMARKS[1:]):
        ws[f"D{2 + i}"] = text
    path = tmp_path / "notes.xlsx"
    wb.save(path)
    (t,) = detect_tables(open_workbook(path).sheet("Sales")).tables
    return t


def test_remarks_on_most_rows_from_the_header_row_down_are_notes(tmp_path: Path) -> None:
    t = _table(tmp_path, REMARKS[0])
    assert t.range.ref() == "A1:C9"
    assert [n.text for n in t.notes][:2] == REMARKS[:2]


def test_a_labelled_column_of_long_texts_is_a_field(tmp_path: Path) -> None:
    # the counter-case: a short column label heads the long texts (a Description field)
    assert _table(tmp_path, "Comment").range.ref() == "A1:D9"

"""A unit typed over a table's last column, right above its header, is a unit line, not a header row.

Each case is a real .xlsx written by openpyxl.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

from gridsight.detect import DetectedTable, detect_tables
from gridsight.sources import open_workbook


def _table(tmp_path: Path, over_last: str) -> DetectedTable:
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance"
    ws["A1"] = "Balance sheet"
    ws["D2"] = over_last
    for col, name in zip("ABCD", ("Item", "2021", "2022", "2023"), strict=True):
        ws[f"{col}3"] = name
        ws[f"{col}3"].font = Font(bold=True)
    for i in range(6):
        ws[f"A{4 + i}"] = f"item {i}"
        for j, col in enumerate("BCD"):
            ws[f"{col}{4 + i}"] = 10.5 * (i + 1) + j
    path = tmp_path / "units.xlsx"
    wb.save(path)
    (t,) = detect_tables(open_workbook(path).sheet("Balance")).tables
    return t


def test_a_unit_over_the_last_column_is_a_unit_line(tmp_path: Path) -> None:
    t = _table(tmp_path, "EUR thousands")
    assert t.range.ref() == "A3:D9"
    assert [u.text for u in t.units] == ["EUR thousands"]


def test_a_label_over_the_last_column_that_states_no_unit_heads_it(tmp_path: Path) -> None:
    # the counter-case: ``Forecast`` over ``2023`` is the first line of that column's header
    t = _table(tmp_path, "Forecast")
    assert t.range.ref() == "A2:D9"

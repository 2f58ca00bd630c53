"""Form fields (``Prepared by: | J. Smith``) typed right above a table's header are its metadata.

Each case is a real .xlsx written by openpyxl.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook

from gridsight.detect import detect_tables
from gridsight.sources import open_workbook


def _detect(tmp_path: Path, cells: dict[str, object]) -> list[tuple[str, list[str]]]:
    wb = Workbook()
    ws = wb.active
    ws.title = "Order"
    for ref, value in cells.items():
        ws[ref] = value
    path = tmp_path / "fields.xlsx"
    wb.save(path)
    det = detect_tables(open_workbook(path).sheet("Order"))
    return [(t.range.ref(), [x.text for x in t.titles]) for t in det.tables]


def _items(cells: dict[str, object], top: int) -> None:
    for i in range(6):
        cells.update({f"A{top + i}": f"item {i}", f"B{top + i}": 2 * i + 1, f"C{top + i}": 1.25 * (i + 1)})


def test_field_lines_touching_the_header_are_not_rows_of_the_table(tmp_path: Path) -> None:
    cells: dict[str, object] = {"A1": "Prepared by:", "B1": "J. Smith", "A2": "Ship date:", "B2": "next week"}
    cells.update({"A3": "Item", "B3": "Qty", "C3": "Price"})
    _items(cells, 4)
    ((ref, titles),) = _detect(tmp_path, cells)
    assert ref == "A3:C9"
    assert any("J. Smith" in t or "Prepared by" in t for t in titles)


def test_a_header_whose_labels_end_in_colons_stays_the_header(tmp_path: Path) -> None:
    # the counter-case: a row that fills every column is the header, whatever its punctuation
    cells: dict[str, object] = {"A1": "Item:", "B1": "Qty:", "C1": "Price:"}
    _items(cells, 2)
    assert [ref for ref, _ in _detect(tmp_path, cells)] == ["A1:C7"]


def test_field_lines_with_no_header_under_them_are_left_alone(tmp_path: Path) -> None:
    # the counter-case: colon lines over rows of figures with no header row between them
    cells: dict[str, object] = {"A1": "Batch:", "B1": 7}
    _items(cells, 2)
    assert [ref for ref, _ in _detect(tmp_path, cells)] == ["A1:C7"]


def test_a_merged_group_label_ending_in_a_colon_stays_the_header_s_first_line(tmp_path: Path) -> None:
    # the counter-case: ``Change from last year:`` merged over the value columns groups them
    wb = Workbook()
    ws = wb.active
    ws.title = "Order"
    ws["B1"] = "Change from last year:"
    ws.merge_cells("B1:D1")
    for col, name in zip("BCD", ("North", "South", "Total"), strict=True):
        ws[f"{col}2"] = name
    for i in range(5):
        ws[f"A{3 + i}"] = f"line {i}"
        for j, col in enumerate("BCD"):
            ws[f"{col}{3 + i}"] = 0.01 * (i + j + 1)
    path = tmp_path / "group.xlsx"
    wb.save(path)
    (t,) = detect_tables(open_workbook(path).sheet("Order")).tables
    assert t.range.ref() == "A1:D7"
    assert t.header_rows == (0, 1)


def test_filled_in_fields_right_under_a_table_sign_it_off(tmp_path: Path) -> None:
    cells: dict[str, object] = {"A1": "Item", "B1": "Qty", "C1": "Price"}
    _items(cells, 2)
    cells.update({"A8": "Prepared by:", "B8": "Finance", "A9": "Checked by:", "B9": "Audit"})
    ((ref, _),) = _detect(tmp_path, cells)
    assert ref == "A1:C7"


def test_a_total_row_whose_label_ends_in_a_colon_stays_in_the_table(tmp_path: Path) -> None:
    # the counter-case: ``Total: | 42`` closes the table, it is no form field
    cells: dict[str, object] = {"A1": "Item", "B1": "Qty", "C1": "Price"}
    _items(cells, 2)
    cells.update({"A8": "Total:", "B8": 42, "A9": "Subtotal:", "B9": 40})
    assert [ref for ref, _ in _detect(tmp_path, cells)] == ["A1:C9"]

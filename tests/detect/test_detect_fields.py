"""Form fields (``Prepared by: | J. Smith``) typed right above a table's header are its metadata.

Each case is a real .xlsx written by openpyxl (``detect_xlsx``).
"""

from __future__ import annotations

from collections.abc import Callable

from gridsight.detect import Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)


def _detect(
    detect_xlsx: DetectXlsx, cells: dict[str, object], merges: tuple[str, ...] = ()
) -> list[tuple[str, list[str]]]:
    return [(t.range.ref(), [x.text for x in t.titles]) for t in detect_xlsx(cells, merges).tables]


def _items(cells: dict[str, object], top: int) -> None:
    for i in range(6):
        cells.update({f"A{top + i}": f"item {i}", f"B{top + i}": 2 * i + 1, f"C{top + i}": 1.25 * (i + 1)})


def test_field_lines_touching_the_header_are_not_rows_of_the_table(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {"A1": "Prepared by:", "B1": "J. Smith", "A2": "Ship date:", "B2": "next week"}
    cells.update({"A3": "Item", "B3": "Qty", "C3": "Price"})
    _items(cells, 4)
    ((ref, titles),) = _detect(detect_xlsx, cells)
    assert ref == "A3:C9"
    assert any("J. Smith" in t or "Prepared by" in t for t in titles)


def test_a_header_whose_labels_end_in_colons_stays_the_header(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: a row that fills every column is the header, whatever its punctuation
    cells: dict[str, object] = {"A1": "Item:", "B1": "Qty:", "C1": "Price:"}
    _items(cells, 2)
    assert [ref for ref, _ in _detect(detect_xlsx, cells)] == ["A1:C7"]


def test_field_lines_with_no_header_under_them_are_left_alone(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: colon lines over rows of figures with no header row between them
    cells: dict[str, object] = {"A1": "Batch:", "B1": 7}
    _items(cells, 2)
    assert [ref for ref, _ in _detect(detect_xlsx, cells)] == ["A1:C7"]


def test_a_merged_group_label_ending_in_a_colon_stays_the_header_s_first_line(
    detect_xlsx: DetectXlsx,
) -> None:
    # the counter-case: ``Change from last year:`` merged over the value columns groups them
    cells: dict[str, object] = {"B1": "Change from last year:", "B2": "North", "C2": "South", "D2": "Total"}
    for i in range(5):
        cells[f"A{3 + i}"] = f"line {i}"
        cells.update({f"{col}{3 + i}": 0.01 * (i + j + 1) for j, col in enumerate("BCD")})
    (t,) = detect_xlsx(cells, ("B1:D1",)).tables
    assert t.range.ref() == "A1:D7"
    assert t.header_rows == (0, 1)


def test_filled_in_fields_right_under_a_table_sign_it_off(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {"A1": "Item", "B1": "Qty", "C1": "Price"}
    _items(cells, 2)
    cells.update({"A8": "Prepared by:", "B8": "Finance", "A9": "Checked by:", "B9": "Audit"})
    ((ref, _),) = _detect(detect_xlsx, cells)
    assert ref == "A1:C7"


def test_a_total_row_whose_label_ends_in_a_colon_stays_in_the_table(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: ``Total: | 42`` closes the table, it is no form field
    cells: dict[str, object] = {"A1": "Item", "B1": "Qty", "C1": "Price"}
    _items(cells, 2)
    cells.update({"A8": "Total:", "B8": 42, "A9": "Subtotal:", "B9": 40})
    assert [ref for ref, _ in _detect(detect_xlsx, cells)] == ["A1:C9"]


def test_statistics_rows_with_colon_labels_stay_in_the_table(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: ``Mean: | 5.1`` rows under a table hold its figures, not a sign-off
    cells: dict[str, object] = {"A1": "Item", "B1": "Qty", "C1": "Price"}
    _items(cells, 2)
    cells.update({"A8": "Mean:", "B8": 6.0, "A9": "Median:", "B9": 6.0})
    assert [ref for ref, _ in _detect(detect_xlsx, cells)] == ["A1:C9"]

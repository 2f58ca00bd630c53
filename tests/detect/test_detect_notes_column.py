"""Remarks typed in the column right of a table, on most of its rows, are its notes.

Each case is a real .xlsx written by openpyxl (``detect_xlsx``).
"""

from __future__ import annotations

from collections.abc import Callable

from gridsight.detect import DetectedTable, Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)

REMARKS = [
    "These figures exclude the overseas branches of the group.",
    "Revised after the audit of the second quarter results.",
    "Totals may not add up because of rounding to thousands.",
    "The northern region includes the former eastern district.",
    "Prices are shown before taxes and delivery charges apply.",
    "Data for the last month are preliminary estimates only.",
]


def _table(detect_xlsx: DetectXlsx, head: str) -> DetectedTable:
    cells: dict[str, object] = {"A1": "Region", "B1": "Q1", "C1": "Q2", "D1": head}
    for i in range(8):
        cells.update({f"A{2 + i}": f"region {i}", f"B{2 + i}": 1.5 * i + 1, f"C{2 + i}": 2.5 * i + 1})
    cells.update({f"D{2 + i}": text for i, text in enumerate(REMARKS[1:])})
    (t,) = detect_xlsx(cells).tables
    return t


def test_remarks_on_most_rows_from_the_header_row_down_are_notes(detect_xlsx: DetectXlsx) -> None:
    t = _table(detect_xlsx, REMARKS[0])
    assert t.range.ref() == "A1:C9"
    assert [n.text for n in t.notes][:2] == REMARKS[:2]


def test_a_labelled_column_of_long_texts_is_a_field(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: a short column label heads the long texts (a Description field)
    assert _table(detect_xlsx, "Comment").range.ref() == "A1:D9"

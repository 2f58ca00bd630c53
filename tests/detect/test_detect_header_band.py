"""A table's header band, not only its top row, says which edge columns are its own.

Each case is a real .xlsx written by openpyxl (``detect_xlsx``): a two-row header with groups merged
on its first row.
"""

from __future__ import annotations

from collections.abc import Callable

from gridsight.detect import Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)


def _range(detect_xlsx: DetectXlsx, fill: str) -> str:
    """``Month | Production (Units, Value) | Sales (Units, Value) | Remark``, groups merged on row 1,
    the remark column named on row 2 only and filled on 3 of 8 rows; Sales filled when ``fill``."""
    cells: dict[str, object] = {"B1": "Production", "D1": "Sales", "F2": "Remark"}
    for col, name in zip("ABCDE", ("Month", "Units", "Value", "Units", "Value"), strict=True):
        cells[f"{col}2"] = name
    for i in range(8):
        r = 3 + i
        cells.update({f"A{r}": f"month {i + 1}", f"B{r}": 10 + i, f"C{r}": 2.5 * i})
        if fill == "all":
            cells.update({f"D{r}": 7 + i, f"E{r}": 1.5 * i})
        if i in (1, 4, 6):
            cells[f"F{r}"] = f"checked {i}"
    (t,) = detect_xlsx(cells, ("B1:C1", "D1:E1")).tables
    return str(t.range.ref())


def test_a_sparse_last_column_named_on_the_second_header_row_stays_in_the_table(
    detect_xlsx: DetectXlsx,
) -> None:
    # its name sits on the header's second row, under no group label: a field, not remarks beside
    assert _range(detect_xlsx, "all") == "A1:F10"


def test_a_group_with_no_figures_yet_stays_in_the_table(detect_xlsx: DetectXlsx) -> None:
    # the Sales group is headed on both header rows but not reported yet (a form still to fill)
    assert _range(detect_xlsx, "none") == "A1:F10"

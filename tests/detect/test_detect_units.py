"""A unit typed over a table's last column, right above its header, is a unit line, not a header row.

Each case is a real .xlsx written by openpyxl (``detect_xlsx``).
"""

from __future__ import annotations

from collections.abc import Callable

from gridsight.detect import DetectedTable, Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)


def _table(detect_xlsx: DetectXlsx, over_last: str) -> DetectedTable:
    cells: dict[str, object] = {"A1": "Balance sheet", "D2": over_last}
    cells.update(
        {f"{col}3": name for col, name in zip("ABCD", ("Item", "2021", "2022", "2023"), strict=True)}
    )
    for i in range(6):
        cells[f"A{4 + i}"] = f"item {i}"
        cells.update({f"{col}{4 + i}": 10.5 * (i + 1) + j for j, col in enumerate("BCD")})
    (t,) = detect_xlsx(cells, (), ("A3", "B3", "C3", "D3")).tables
    return t


def test_a_unit_over_the_last_column_is_a_unit_line(detect_xlsx: DetectXlsx) -> None:
    t = _table(detect_xlsx, "EUR thousands")
    assert t.range.ref() == "A3:D9"
    assert [u.text for u in t.units] == ["EUR thousands"]


def test_a_label_over_the_last_column_that_states_no_unit_heads_it(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: ``Forecast`` over ``2023`` is the first line of that column's header
    assert _table(detect_xlsx, "Forecast").range.ref() == "A2:D9"


def test_a_currency_s_thousands_over_the_header_is_a_unit_line(detect_xlsx: DetectXlsx) -> None:
    # ``£000`` right above ``Jan | Feb | ...``: a caption, not the figure 0 opening the body
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun")
    cells: dict[str, object] = {"A1": "Monthly profit and loss account 2025", "A2": "£000"}
    cells.update({f"{col}3": m for col, m in zip("BCDEFG", months, strict=True)})
    for i, label in enumerate(("Revenue", "Costs", "Profit")):
        cells[f"A{4 + i}"] = label
        cells.update({f"{col}{4 + i}": 100 + 10 * i + j for j, col in enumerate("BCDEFG")})
    (t,) = detect_xlsx(cells).tables
    assert t.range.ref() == "A3:G6"
    assert t.header_rows == (2,)

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from gridsight.errors import RangeSyntaxError, ResourceLimitError, UnknownSheetError
from gridsight.grid import (
    Cell,
    CellError,
    Kind,
    Range,
    Sheet,
    SheetBuilder,
    Style,
    Workbook,
    _sheet,
    datetime_to_serial,
    format_number,
    format_value,
    is_date_format,
    serial_to_datetime,
)


def sample() -> Sheet:
    return Sheet.from_cells(
        "Data",
        {
            "B2": "Year",
            "C2": "Profit",
            "B3": 2023,
            "C3": 1250.5,
            "B4": 2024,
            "C4": "=C3*1.1",
            "D3": True,
            "D4": CellError("#N/A"),
            "E3": dt.datetime(2024, 3, 1, 12, 30),
        },
        formats={"C3": "#,##0.00", "E3": "yyyy-mm-dd hh:mm"},
        styles={"B2": Style.BOLD | Style.BORDER_BOTTOM, "C2": Style.BOLD},
        merges=("B1:C1",),
    )


def test_used_range_and_counts() -> None:
    s = sample()
    assert str(s.used_range) == "Data!B2:E4"
    assert s.origin == (1, 1) and s.shape == (3, 4)
    assert (s.n_values, s.n_formulas, s.n_number_formats, s.n_styled) == (8, 1, 2, 2)
    assert s.merges == (Range.parse("Data!B1:C1"),)


def test_cells_are_typed() -> None:
    s = sample()
    assert s.cell("B3") == Cell(2, 1, Kind.NUMBER, 2023)
    assert s.cell("C3") == Cell(2, 2, Kind.NUMBER, 1250.5, None, "#,##0.00")
    assert s.cell("B2") == Cell(1, 1, Kind.TEXT, "Year", None, "General", Style.BOLD | Style.BORDER_BOTTOM)
    assert s.cell("C4") == Cell(3, 2, Kind.EMPTY, None, "=C3*1.1")
    assert s.cell("D3").value is True and s.cell("D3").kind == Kind.BOOL
    assert s.cell("D4").value == "#N/A" and isinstance(s.cell("D4").value, CellError)
    assert s.cell("E3").value == dt.datetime(2024, 3, 1, 12, 30)
    assert s.cell("Z99") == Cell(98, 25, Kind.EMPTY, None)
    assert s.cell(2, 1) == s.cell("B3")


def test_values_rectangle_and_iteration() -> None:
    s = sample()
    assert s.values("A2:C3") == [[None, "Year", "Profit"], [None, 2023, 1250.5]]
    assert [c.address for c in s.iter_cells("B2:C4")] == ["B2", "C2", "B3", "C3", "B4", "C4"]
    # ranges reaching past the used range read empty there, every kind converts as cell() does
    assert s.values("A1:F5") == [[s.cell(r, c).value for c in range(6)] for r in range(5)]
    assert s.column_values("D2:D6") == [s.cell(r, 3).value for r in range(1, 6)]
    assert s.column_values("Z1:Z3") == [None, None, None]
    with pytest.raises(RangeSyntaxError):
        s.column_values("A1:B2")


def test_arrays_are_read_only() -> None:
    s = sample()
    with pytest.raises(ValueError):
        s.kinds[0, 0] = 0
    with pytest.raises(ValueError):
        s.numbers[0, 0] = 1.0


def test_empty_sheet() -> None:
    s = Sheet.from_cells("Empty", {})
    assert s.used_range is None and s.shape == (0, 0) and s.is_empty
    assert s.cell("A1").kind == Kind.EMPTY
    assert list(s.iter_cells()) == []


def test_style_only_cells_outside_content_are_not_used_range() -> None:
    s = Sheet.from_cells("S", {"B2": 1}, styles={"Z100": Style.FILL}, formats={"B2": "0.0"})
    assert s.used_range == Range.parse("S!B2")
    assert s.cell("B2").number_format == "0.0"


def test_equality_ignores_interning_order() -> None:
    a = SheetBuilder("S")
    a.set(0, 0, "x")
    a.set(0, 1, "y")
    b = SheetBuilder("S")
    b.set(0, 1, "y")
    b.set(0, 0, "x")
    assert a.build() == b.build()
    assert sample() != Sheet.from_cells("Data", {"B2": "Year"})


def test_workbook_lookup_is_case_insensitive_and_errors_name_the_sheets() -> None:
    wb = Workbook([sample(), Sheet.from_cells("Notes", {"A1": "hi"})])
    assert wb.sheet("data").name == "Data" and wb["Notes"].name == "Notes" and wb.sheet(1).name == "Notes"
    with pytest.raises(UnknownSheetError, match="no sheet named 'Dat'; sheets are: 'Data', 'Notes'"):
        wb.sheet("Dat")
    with pytest.raises(UnknownSheetError):
        wb.sheet(5)


def test_sheet_spanning_too_many_cells_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_sheet, "MAX_SHEET_CELLS", 1000)
    b = SheetBuilder("Far")
    b.set(0, 0, 1)
    b.set(999, 999, 2)
    with pytest.raises(ResourceLimitError, match="spans A1:ALL1000"):
        b.build()


def test_a_million_cells_costs_about_twenty_bytes_each() -> None:
    b = SheetBuilder("Big")
    n = 1000
    for r in range(n):
        for c in range(0, n, 10):
            b.add(r, c, Kind.NUMBER, float(r))
    b.add(n - 1, n - 1, Kind.NUMBER, 1.0)
    s = b.build()
    assert s.shape == (1000, 1000)
    arrays = (s.kinds, s.numbers, s.text_ids, s.formula_ids, s.format_ids, s.styles)
    assert sum(a.nbytes for a in arrays) == 20 * 1_000_000
    assert int(np.count_nonzero(s.kinds)) == 100 * 1000 + 1


@pytest.mark.parametrize(
    ("value", "serial"),
    [
        (dt.date(1900, 1, 1), 1.0),
        (dt.date(1900, 2, 28), 59.0),
        (dt.date(1900, 3, 1), 61.0),
        (dt.date(2024, 1, 1), 45292.0),
        (dt.datetime(2024, 1, 1, 12, 0), 45292.5),
        (dt.time(6, 0), 0.25),
        (dt.timedelta(hours=36), 1.5),
    ],
)
def test_excel_serials(value: object, serial: float) -> None:
    assert datetime_to_serial(value) == serial  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("serial", "expected"),
    [
        (1.0, dt.datetime(1900, 1, 1)),
        (59.0, dt.datetime(1900, 2, 28)),
        (61.0, dt.datetime(1900, 3, 1)),
        (45292.5, dt.datetime(2024, 1, 1, 12, 0)),
        (0.75, dt.time(18, 0)),
    ],
)
def test_serials_to_datetimes(serial: float, expected: object) -> None:
    assert serial_to_datetime(serial) == expected


def test_1904_date_system() -> None:
    assert datetime_to_serial(dt.date(1904, 1, 2), date1904=True) == 1.0
    assert serial_to_datetime(1.0, date1904=True) == dt.datetime(1904, 1, 2)


@pytest.mark.parametrize(
    ("fmt", "is_date"),
    [
        ("General", False),
        ("0.00", False),
        ("#,##0", False),
        ('"$"#,##0.00', False),
        ("0%", False),
        ("yyyy-mm-dd", True),
        ("m/d/yyyy", True),
        ("h:mm AM/PM", True),
        ("[h]:mm:ss", True),
        ("mmm yyyy", True),
        ('"Day" 0', False),
        ("[Red]0.00", False),
        ("dd/mm/yy;@", True),
    ],
)
def test_date_formats(fmt: str, is_date: bool) -> None:
    assert is_date_format(fmt) is is_date


@pytest.mark.parametrize(
    ("x", "fmt", "text"),
    [
        (1234.5, "General", "1234.5"),
        (3.0, "General", "3"),
        (1234.5, "#,##0.00", "1,234.50"),
        (0.125, "0.0%", "12.5%"),
        (1800, '"$"#,##0', "$1,800"),
        (-5.5, '"$"#,##0.00', "-$5.50"),
        (1500, "0.00E+00", "1.50E+03"),
        (2 / 3, "General", "0.6666666667"),
    ],
)
def test_number_display(x: float, fmt: str, text: str) -> None:
    assert format_number(x, fmt) == text


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("mmm yyyy", "Mar 2024"),
        ("yyyy-mm-dd", "2024-03-05"),
        ("m/d/yyyy h:mm", "3/5/2024 14:07"),
        ("h:mm AM/PM", "2:07 PM"),
        ("dd/mm/yy;@", "05/03/24"),
        ("[$-409]d-mmm-yy", "5-Mar-24"),
        ("hh:mm:ss", "14:07:09"),
        ("dddd, mmmm d, yyyy", "Tuesday, March 5, 2024"),
        ("mm:ss", "07:09"),
        ('yyyy"年"m"月"', "2024年3月"),
    ],
)
def test_date_display(fmt: str, text: str) -> None:
    cell = Cell(0, 0, Kind.DATETIME, dt.datetime(2024, 3, 5, 14, 7, 9), None, fmt)
    assert format_value(cell) == text


def test_sheets_and_workbooks_are_immutable() -> None:
    s = sample()
    with pytest.raises(AttributeError, match="immutable"):
        s.name = "Other"  # type: ignore[misc]
    wb = Workbook([s])
    with pytest.raises(AttributeError, match="immutable"):
        wb.sheets = ()  # type: ignore[misc]

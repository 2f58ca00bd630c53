"""A statement laid out for print: a header of period-end dates over sections cut apart by blank
rows, section lines and lines of figures standing alone between totals. Each case is a real .xlsx
written by openpyxl (``detect_xlsx``); the figures are made up."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import numpy as np

from gridsight.detect import Detection
from gridsight.detect._cells import TEXT, VALUE, _period_dates, _text_class, _year_series
from gridsight.grid import Kind

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)


def _statement(header: tuple[object, object]) -> dict[str, object]:
    """A two-period statement: title lines, a header (``Notes`` and the periods), a blank row, then
    sections of lines closed by totals, a line standing alone, and a last section."""
    cells: dict[str, object] = {"A1": "Harbour Tools plc", "A2": "Statement of financial position"}
    cells.update({"B4": "Notes", "C4": header[0], "D4": header[1], "D5": "Restated"})
    rows: list[tuple[str, int | None, int | None]] = [
        ("ASSETS", None, None),
        ("Non-current assets", None, None),
        ("Plant and machinery", 420, 390),
        ("Software", 55, 61),
        ("Total non-current assets", 475, 451),
        ("", None, None),
        ("Current assets", None, None),
        ("Stock", 130, 118),
        ("Cash", 90, 104),
        ("Total current assets", 220, 222),
        ("Total assets", 695, 673),
        ("", None, None),
        ("Current liabilities", None, None),
        ("Trade payables", 140, 151),
        ("Total current liabilities", 140, 151),
        ("", None, None),
        ("Net assets", 555, 522),
        ("", None, None),
        ("Equity", None, None),
        ("Share capital", 100, 100),
        ("Retained earnings", 455, 422),
        ("Total equity", 555, 522),
    ]
    for i, (label, now, before) in enumerate(rows, start=7):
        if label:
            cells[f"A{i}"] = label
        if now is not None:
            cells[f"C{i}"], cells[f"D{i}"] = now, before
    return cells


def _ranges(detect_xlsx: DetectXlsx, cells: dict[str, object]) -> list[str]:
    return [t.range.ref() for t in detect_xlsx(cells).tables]


def test_a_statement_under_a_header_of_years_is_one_table(detect_xlsx: DetectXlsx) -> None:
    assert _ranges(detect_xlsx, _statement((2024, 2023))) == ["A4:D28"]


def test_period_end_dates_head_a_statement_as_years_do(detect_xlsx: DetectXlsx) -> None:
    cells = _statement((dt.datetime(2024, 3, 31), dt.datetime(2023, 3, 31)))
    assert _ranges(detect_xlsx, cells) == ["A4:D28"]


def test_a_date_column_of_a_body_is_no_header() -> None:
    d, n, e = Kind.DATETIME, Kind.NUMBER, Kind.EMPTY
    kinds = np.array([[d, n], [d, n], [d, n], [e, e], [d, e], [e, e], [n, e]], dtype=np.uint8)
    # dates with dates under them are the body's; a date over a figure heads it
    assert _period_dates(kinds)[:, 0].tolist() == [False, False, False, False, True, False, False]


def test_a_table_under_a_total_with_a_header_of_its_own_stays_apart(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: the block under the total opens with a header row, not a named line
    cells = {"A1": "Item", "B1": "2024", "C1": "2023"}
    for i, (label, a, b) in enumerate([("Tools", 5, 4), ("Parts", 7, 6), ("Total", 12, 10)], start=2):
        cells.update({f"A{i}": label, f"B{i}": a, f"C{i}": b})
    cells.update({"A6": "Region", "B6": "Staff", "C6": "Sites"})
    for i, (label, a, b) in enumerate([("North", 11, 2), ("South", 14, 3), ("East", 9, 1)], start=7):
        cells.update({f"A{i}": label, f"B{i}": a, f"C{i}": b})
    assert _ranges(detect_xlsx, cells) == ["A1:C4", "A6:C9"]


def test_figures_in_the_range_of_years_are_no_header(detect_xlsx: DetectXlsx) -> None:
    # a section opening with a line whose figures fall in 1800..2200 is no row of years
    cells = _statement((2024, 2023))
    cells.update({"C20": 1837, "D20": 2091, "C21": 1837, "D21": 2091})  # Trade payables and its total
    assert _ranges(detect_xlsx, cells) == ["A4:D28"]


def test_an_unchanged_balance_in_the_range_of_years_is_no_header(detect_xlsx: DetectXlsx) -> None:
    # the first line under a section opens with the same figure in both years (2200 | 2200), the
    # lines under it are figures: a balance, not a row of years heading them
    cells = _statement((2024, 2023))
    cells.update({"A13": "III - Financial fixed assets", "C14": 2200, "D14": 2200})
    assert _ranges(detect_xlsx, cells) == ["A4:D28"]


def test_a_date_beside_a_unit_over_the_header_is_a_title_line(detect_xlsx: DetectXlsx) -> None:
    # ``As at 31 December 2025 | | | Unit: RMB yuan`` over ``Item | Note | Closing balance | ...``
    cells = _statement(("Closing balance", "Opening balance"))
    cells.update({"A3": "As at 31 December 2025", "D3": "Unit: RMB yuan", "A4": "Item", "D5": None})
    assert _ranges(detect_xlsx, cells) == ["A4:D28"]


def test_a_memo_line_of_figures_under_a_table_is_one_of_its_lines(detect_xlsx: DetectXlsx) -> None:
    # ``(a) Investments at cost`` a blank row under the statement, figures in its columns: a line
    # of it, too short to be a table of its own; a sentence under it stays a note
    cells: dict[str, object] = {"A1": "Statements of Assets and Liabilities", "A2": "June 30, 2025"}
    cells.update({"B4": "Core Fund", "C4": "Growth Fund", "D4": "Bond Fund"})
    blocks = [
        [("ASSETS", None), ("Investments, at value (a)", 1000), ("Cash", 10), ("Total assets", 1010)],
        [("LIABILITIES", None), ("Payables", 5), ("Total liabilities", 5), ("NET ASSETS", 1005)],
        [
            ("CLASS A SHARES:", None),
            ("Net assets", 500),
            ("Shares outstanding", 50),
            ("Net asset value", 10.0),
        ],
        [
            ("CLASS I SHARES:", None),
            ("Net assets", 505),
            ("Shares outstanding", 48),
            ("Net asset value", 10.5),
        ],
    ]
    row = 5
    for block in blocks:
        for label, v in block:
            cells[f"A{row}"] = label
            if v is not None:
                cells[f"B{row}"], cells[f"C{row}"], cells[f"D{row}"] = v, v * 2, v * 3
            row += 1
        row += 1  # (a blank row between blocks)
    cells.update({f"A{row}": "(a) Investments, at cost", f"B{row}": 900, f"C{row}": 1900, f"D{row}": 3100})
    cells[f"A{row + 2}"] = "Maximum sales charge on Class A: 5.75%."
    assert _ranges(detect_xlsx, cells) == [f"A4:D{row}"]


def test_year_series() -> None:
    n, e = Kind.NUMBER, Kind.EMPTY
    kinds = np.array([[n, n, n], [n, n, e], [n, n, n]], dtype=np.uint8)
    nums = np.array([[1950, 1960, 1970], [1837, 2091, 0], [2024, 2023, 5]], dtype=np.float64)
    assert _year_series(kinds, nums).tolist() == [
        [True, True, True],
        [False, False, False],
        [True, True, False],
    ]
    # one figure repeated over figures is a balance; one year repeated over labels heads them
    t = Kind.TEXT
    kinds = np.array([[n, n], [n, n], [n, n], [t, t]], dtype=np.uint8)
    nums = np.array([[2200, 2200], [310, 290], [2024, 2024], [0, 0]], dtype=np.float64)
    assert _year_series(kinds, nums).tolist() == [
        [False, False],
        [False, False],
        [True, True],
        [False, False],
    ]


def test_a_later_year_across_a_spacer_cut_at_section_lines_joins(detect_xlsx: DetectXlsx) -> None:
    # the earlier year stands a blank column apart; the section lines, which hold nothing in its
    # column, cut it in pieces the label column runs through
    cells: dict[str, object] = {"B1": "Balance sheets", "B2": "(in thousands)", "C4": "December 31,"}
    cells.update({"C5": 2024, "E5": 2023, "B6": "ASSETS", "B7": "Current assets:"})
    lines = [
        ("Cash", 350, 280),
        ("Receivables", 270, 240),
        ("Total current assets", 620, 520),
        ("Equipment, net", 390, 410),
        ("Total assets", 1010, 930),
        ("LIABILITIES AND EQUITY", None, None),
        ("Current liabilities:", None, None),
        ("Payables", 140, 125),
        ("Total current liabilities", 140, 125),
        ("Long-term debt", 370, 260),
        ("Total liabilities", 510, 385),
        ("Commitments (Note 9)", None, None),
        ("Equity:", None, None),
        ("Share capital", 70, 70),
        ("Retained earnings", 430, 475),
        ("Total equity", 500, 545),
        ("Total liabilities and equity", 1010, 930),
    ]
    for r, (label, now, before) in enumerate(lines, start=8):
        cells[f"B{r}"] = label
        if now is not None:
            cells[f"C{r}"], cells[f"E{r}"] = now, before
    assert _ranges(detect_xlsx, cells) == ["B4:E24"]


def test_a_column_of_other_rows_across_a_spacer_stays_apart(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: figures on rows where the statement has none (its blank and section rows)
    cells = _statement((2024, 2023))
    cells.update({"F12": 5, "F13": 6, "F18": 7, "F19": 8})
    assert "A4:D28" in _ranges(detect_xlsx, cells)


def test_a_bold_total_first_under_the_header_is_body(detect_xlsx: DetectXlsx) -> None:
    # statistics tables put the grand total first, bold like the header: its figures head nothing
    cells: dict[str, object] = {"A1": "Table 9.6 Enterprises by activity", "A3": "Code", "B3": "Activity"}
    cells.update({"C3": "Active", "C4": 2021, "D4": "2022 (p)"})
    rows = [("A-C", "All activities", 900, 960), ("A", "Mining", 100, 90), ("B", "Manufacturing", 500, 560)]
    rows.append(("C", "Services", 300, 310))
    for i, (code, label, a, b) in enumerate(rows, start=5):
        cells.update({f"A{i}": code, f"B{i}": label, f"C{i}": a, f"D{i}": b})
    bold = ("A3", "B3", "C3", "C4", "D4", "B5", "C5", "D5")
    found = detect_xlsx(cells, merges=("C3:D3",), bold=bold).tables
    assert [t.header_paths for t in found] == [("Code", "Activity", "Active › 2021", "Active › 2022 (p)")]


def test_figures_as_german_accounts_write_them_and_a_currency_s_thousands() -> None:
    # points between thousands and a decimal comma are a figure; ``£000`` over a column is a unit
    assert [_text_class(t) for t in ("48.210.334,12", "-13.620.668,30", "1.234", "£000", "$'000")] == [
        VALUE,
        VALUE,
        VALUE,
        TEXT,
        TEXT,
    ]

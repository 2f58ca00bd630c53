"""Statements as a PDF converter leaves them, and a section line with a line code beside it.

A balance sheet converted from a PDF keeps its layout in columns: the "$" of the first and total
rows in a column of its own, blank spacer columns, amounts as text, the years over the amounts
only (the row labels have no header). A results booklet sets its line codes in a column beside
the labels, so the section line between assets and liabilities (``EQUITY AND LIABILITIES |
SFP160``) holds two labels. Each case is a real .xlsx written by openpyxl (``detect_xlsx``); the
figures are made up.
"""

from __future__ import annotations

from collections.abc import Callable

from gridsight.detect import Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)


def _converted() -> dict[str, object]:
    cells: dict[str, object] = {
        "A1": "Quillfeather Systems, Inc.",
        "A2": "CONSOLIDATED BALANCE SHEETS",
        "A3": "(In thousands)",
        "C6": "December 31,",
        "D7": "2025",
        "G7": "2024",
        "A8": "Assets",
        "A9": "Current assets:",
    }
    lines = [
        ("Cash and cash equivalents", "$", "35,844", "$", "31,840"),
        ("Accounts receivable, net", None, "50,845", None, "56,066"),
        ("Inventories", None, "30,751", None, "26,760"),
        (None, None, "117,440", None, "114,666"),
        ("Goodwill", None, "98,127", None, "99,141"),
        ("Total assets", "$", "215,567", "$", "213,807"),
    ]
    for i, (label, s1, a, s2, b) in enumerate(lines, start=10):
        cells.update({f"A{i}": label, f"C{i}": s1, f"D{i}": a, f"F{i}": s2, f"G{i}": b})
    cells.update({"A17": "Liabilities", "A18": "Accounts payable", "D18": "20,625", "G18": "20,190"})
    cells.update({"A19": "Total liabilities", "C19": "$", "D19": "20,625", "F19": "$", "G19": "20,190"})
    return {k: v for k, v in cells.items() if v is not None}


def test_a_converted_statement_is_one_table_under_its_years(detect_xlsx: DetectXlsx) -> None:
    (table,) = detect_xlsx(_converted()).tables
    assert table.range.ref().startswith("A")  # (the row labels are the table's)
    named = [p for p in table.header_paths if p]
    assert named == ["2025", "2024"]
    assert table.range.bottom == 18  # (row 19, 0-based 18: the liabilities too)


def test_a_section_line_with_a_line_code_continues_the_table(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {
        "A1": "Condensed consolidated statement of financial position",
        "B3": "Line code",
        "C3": "2025",
        "D3": "2024",
        "A4": "ASSETS",
        "B4": "SFP010",
        "A5": "Inventories",
        "B5": "SFP020",
        "C5": 3049,
        "D5": 2512,
        "A6": "Cash",
        "B6": "SFP030",
        "C6": 2604,
        "D6": 2430,
        "A7": "Total assets",
        "B7": "SFP040",
        "C7": 5653,
        "D7": 4942,
        "A9": "EQUITY AND LIABILITIES",
        "B9": "SFP050",
        "A10": "Total equity",
        "B10": "SFP060",
        "C10": 4000,
        "D10": 3500,
        "A11": "Trade payables",
        "B11": "SFP070",
        "C11": 1653,
        "D11": 1442,
        "A12": "Total equity and liabilities",
        "B12": "SFP080",
        "C12": 5653,
        "D12": 4942,
    }
    (table,) = detect_xlsx(cells, bold=("A4", "B4", "A7", "A9", "B9", "A12")).tables
    assert table.range.ref() == "A3:D12"

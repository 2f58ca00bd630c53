"""Statements whose lines are numbered in a column of their own, and statements converted from PDF.

A balance sheet in the Schedule III style numbers its lines ``I.``, ``(1)``, ``(a)``, ``(i)`` in a
column left of the names, heads the figures with ``As at 31.03.2025``, and stacks its assets under
its equity and liabilities after a blank row. An income statement converted from PDF sets its line
names a few empty columns (one of them holding "$") left of the amounts, and its unlabelled
subtotals cut that column of names into pieces. Each case is a real .xlsx written by openpyxl; the
company and figures are made up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from tests.qa.conftest import answered, answers_or_says_why

from gridsight.detect import detect_tables
from gridsight.sources import open_workbook
from gridsight.text import is_outline_mark, outline_kind

#: outline number, line, note, 31.03.2025, 31.03.2024 (None: a section line, no figures).
NUMBERED: list[tuple[str | None, str, str | None, float | None, float | None]] = [
    ("I.", "EQUITY AND LIABILITIES", None, None, None),
    ("(1)", "Equity", None, None, None),
    ("(a)", "Share capital", "3", 500.0, 500.0),
    ("(b)", "Other equity", "4", 2210.5, 1980.25),
    (None, "Total equity", None, 2710.5, 2480.25),
    ("(2)", "Non-current liabilities", None, None, None),
    ("(a)", "Financial liabilities", None, None, None),
    ("(i)", "Borrowings", "5", 900.0, 1100.0),
    ("(ii)", "Lease liabilities", "6", 140.0, 120.0),
    ("(b)", "Provisions", "7", 1260.0, 75.0),
    (None, "Total non-current liabilities", None, 2300.0, 1295.0),
    ("(3)", "Current liabilities", None, None, None),
    ("(a)", "Trade payables", "8", 610.0, 580.0),
    ("(b)", "Other current liabilities", "9", 95.0, 88.0),
    (None, "Total current liabilities", None, 705.0, 668.0),
    (None, "TOTAL EQUITY AND LIABILITIES", None, 5715.5, 4443.25),
]
ASSETS: list[tuple[str | None, str, str | None, float | None, float | None]] = [
    ("II.", "ASSETS", None, None, None),
    ("(1)", "Non-current assets", None, None, None),
    ("(a)", "Property, plant and equipment", "10", 3100.0, 2400.0),
    ("(b)", "Intangible assets", "11", 215.5, 190.25),
    (None, "Total non-current assets", None, 3315.5, 2590.25),
    ("(2)", "Current assets", None, None, None),
    ("(a)", "Inventories", "12", 1400.0, 1050.0),
    ("(b)", "Cash and cash equivalents", "13", 1000.0, 803.0),
    (None, "Total current assets", None, 2400.0, 1853.0),
    (None, "TOTAL ASSETS", None, 5715.5, 4443.25),
]


def _numbered(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance Sheet"
    ws.append(["Kaveri Looms Limited"])
    ws.append(["Standalone Balance Sheet as at 31st March, 2025"])
    ws.append(["(All amounts in ₹ crore, unless otherwise stated)"])
    ws.append([])
    ws.append([None, "Particulars", "Note No.", "As at 31.03.2025", "As at 31.03.2024"])
    for block in (NUMBERED, ASSETS):
        for line in block:
            ws.append(list(line))
        ws.append([])
    wb.save(folder / "numbered.xlsx")
    return open_workbook(folder / "numbered.xlsx")


#: label (None: an unlabelled subtotal), fiscal 2025, 2024, 2023 as the converter wrote them.
CONVERTED: list[tuple[str | None, str, str, str]] = [
    ("Net sales", "2,410,500", "2,205,000", "1,980,250"),
    ("Cost of goods sold", "1,500,500", "1,390,000", "1,250,250"),
    (None, "910,000", "815,000", "730,000"),
    ("Selling, general and administrative expenses", "520,000", "480,000", "455,000"),
    ("Depreciation and amortization", "60,000", "58,000", "51,000"),
    (None, "580,000", "538,000", "506,000"),
    ("Operating income", "330,000", "277,000", "224,000"),
    ("Interest expense, net", "12,000", "9,500", "10,000"),
    ("Net income", "318,000", "267,500", "214,000"),
]


def _converted(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Table 1"
    ws["A1"] = "ALDER TRAIL OUTFITTERS, INC."
    ws["A2"] = "CONSOLIDATED STATEMENTS OF INCOME"
    ws["A3"] = "(In thousands)"
    ws["D5"] = "Fiscal Year Ended"
    ws["D6"], ws["G6"], ws["J6"] = "Fiscal 2025", "Fiscal 2024", "Fiscal 2023"
    for row, (label, *amounts) in enumerate(CONVERTED, start=7):
        if label is not None:
            ws.cell(row, 1, label)
        for col, amount in zip((4, 7, 10), amounts, strict=True):
            if row == 7:
                ws.cell(row, col - 1, "$")
            ws.cell(row, col, amount)
    wb.save(folder / "converted.xlsx")
    return open_workbook(folder / "converted.xlsx")


@pytest.fixture(scope="module")
def numbered(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _numbered(tmp_path_factory.mktemp("numbered"))


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _converted(tmp_path_factory.mktemp("converted"))


def test_outline_numbers_and_their_kinds() -> None:
    assert all(is_outline_mark(m) for m in ("I.", "(1)", "(a)", "(iii)", "b)", "2."))
    assert not any(is_outline_mark(m) for m in ("(1,234)", "Note 4", "2024", "(a) Share capital"))
    assert outline_kind("(a)") == outline_kind("(b) Provisions") != outline_kind("(i)")
    assert outline_kind("I.") != outline_kind("(1)") != outline_kind("1.")
    assert outline_kind("Provisions") is None


def test_a_numbered_statement_is_one_table_named_by_its_lines(numbered: Any) -> None:
    (table,) = detect_tables(numbered.sheets[0]).tables
    assert table.range.ref().endswith("A5:E32")  # (the assets after the blank row are more of it)
    assert table.header_rows == (4,)  # (``I. | EQUITY AND LIABILITIES`` is the body's first section)
    assert [p for p in table.header_paths if p][-2:] == ["As at 31.03.2025", "As at 31.03.2024"]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How large were inventories as at 31 March 2025?", 1400.0),
        ("What were inventories at the previous year-end?", 1050.0),
        ("By how much did borrowings change from 31 March 2024 to the current reporting date?", -200.0),
        # "(b) Provisions" closes the section "(a) Financial liabilities" opened: not one of its lines
        ("Which line within financial liabilities was the largest as at 31.03.2025?", "Borrowings"),
        ("What was the smallest item within the non-current assets as at 31.03.2024?", "Intangible assets"),
    ],
)
def test_numbered_statement(numbered: Any, question: str, answer: Any) -> None:
    assert answered(numbered, question) == answer


def test_a_converted_statement_takes_its_line_names(converted: Any) -> None:
    (table,) = detect_tables(converted.sheets[0]).tables
    assert table.range.ref().endswith("A6:J15")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What was net income in fiscal 2024?", 267500),
        ("By how much did operating income grow from fiscal 2023 to fiscal 2025?", 106000),
    ],
)
def test_converted_statement(converted: Any, question: str, answer: Any) -> None:
    assert answered(converted, question) == answer


#: label, 2025, 2024 written as a French filing's text amounts (None: a section line).
TEXT_AMOUNTS: list[tuple[str, str | None, str | None]] = [
    ("Revenue", None, None),
    ("Electricity sales", "3 120,4", "2 980,1"),
    ("Other revenue", "210,6", "190,9"),
    ("Total revenue", "3 331,0", "3 171,0"),
    ("Operating profit", "402,5", "377,0"),
    ("Financial income", "35,2", "28,8"),
    ("Financial expenses", "-80,7", "-71,8"),
    ("Profit before tax", "357,0", "334,0"),
    ("Income tax", "-96,4", "-90,2"),
    ("Net profit for the period", "260,6", "243,8"),
]


def _text_amounts(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Compte de résultat"
    ws.append(["Société Électrique du Lac S.A."])
    ws.append(["Consolidated income statement (translation)"])
    ws.append(["(in millions of euros)"])
    ws.append([])
    ws.append([None, "2025", "2024"])
    for line in TEXT_AMOUNTS:
        ws.append(list(line))
    wb.save(folder / "text_amounts.xlsx")
    return open_workbook(folder / "text_amounts.xlsx")


@pytest.fixture(scope="module")
def text_amounts(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _text_amounts(tmp_path_factory.mktemp("text_amounts"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # ("financial year 2025" names the year: its "financial" names no ``Financial income`` line)
        ("What figure does the statement report for income tax for financial year 2025?", -96.4),
        # (between two lines, "over" divides; the tax charge taken as a size)
        (
            "What was the income tax in absolute terms over profit before tax in 2024?",
            pytest.approx(90.2 / 334.0),
        ),
    ],
)
def test_text_amounts_and_financial_years(text_amounts: Any, question: str, answer: Any) -> None:
    assert answered(text_amounts, question) == answer


@pytest.mark.parametrize(
    "question",
    [
        "What was (1) at the previous year-end?",
        "Which line within (a) was the largest as at 31.03.2025?",
        "By how much did borrowings change from the current reporting date to the current reporting date?",
        "What was II. in the latest closing date of the earliest closing date?",
        "(i) (ii) (iii) (iv)",
        "What were inventories as at 31.13.2025?",
    ],
)
def test_hostile_questions_get_an_answer_or_a_reason(numbered: Any, question: str) -> None:
    answers_or_says_why(numbered, question)


@pytest.mark.parametrize("text", ["", "   ", "(", "()", "(1,234)", "I", "x" * 5000, "(a)(b)(c)"])
def test_outline_readers_take_any_text(text: str) -> None:
    assert not is_outline_mark(text)  # (no outline number alone, whatever else the text is)
    assert outline_kind(text) is None

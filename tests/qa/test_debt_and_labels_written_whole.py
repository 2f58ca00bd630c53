"""Debt asked as a whole ("net debt (total borrowings minus cash)") over a balance sheet that spreads
it over several lines, labels written out whole that hold a comma or an operator word
(``Long-term debt, less current portion``, ``Accounts receivable, net``), a section of an income
statement that a line in bold ends, and a sales table whose regions are written once over their
products. The figures are made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from openpyxl.styles import Font
from tests.qa.conftest import answered, answers_or_says_why

from gridsight.qa._debt import debt_lines, debt_written_out
from gridsight.qa._definition import Apply, Line, parse

#: The balance sheet: (label, 2023, 2024); a label with no figures is a section, in bold.
BALANCE: list[tuple[Any, ...]] = [
    ("Assets",),
    ("Current assets",),
    ("Cash and cash equivalents", 300, 350),
    ("Accounts receivable, net", 200, 220),
    ("Inventories, net", 150, 160),
    ("Income taxes receivable", 20, 25),
    ("Total current assets", 670, 755),
    ("Fixed assets, net", 900, 950),
    ("Total assets", 1570, 1705),
    ("Liabilities",),
    ("Current liabilities",),
    ("Accounts payable", 120, 140),
    ("Current portion of long-term debt", 80, 90),
    ("Accrued expenses", 60, 70),
    ("Total current liabilities", 260, 300),
    ("Non-current liabilities",),
    ("Long-term debt, less current portion", 500, 420),
    ("Lease liabilities", 100, 90),
    ("Deferred tax liabilities", 40, 45),
    ("Total non-current liabilities", 640, 555),
    ("Total liabilities", 900, 855),
    ("Total equity", 670, 850),
]

#: The income statement: (label, 2023, 2024, bold).
INCOME: list[tuple[Any, ...]] = [
    ("Revenue", 1000, 1100, False),
    ("Cost of goods sold", 600, 640, False),
    ("Gross profit", 400, 460, True),
    ("Operating expenses:", None, None, True),
    ("Selling, general and administrative expenses", 150, 160, False),
    ("Depreciation and amortization", 50, 55, False),
    ("Income from operations", 200, 245, True),
    ("Interest expense", 20, 18, False),
    ("Income before income taxes", 180, 227, True),
    ("Income tax expense", 40, 50, False),
    ("Net income", 140, 177, True),
]

#: A cash-flow statement whose lines mention borrowings without being any.
CASH_FLOW: list[tuple[Any, ...]] = [
    ("Net cash from operating activities", 210, 260),
    ("Proceeds from borrowings", 50, 30),
    ("Repayments of debt", -40, -100),
]


def _statement(wb: Any, title: str, name: str, lines: list[tuple[Any, ...]]) -> None:
    ws = wb.create_sheet(title)
    ws["A1"], ws["A2"], ws["A3"] = "Harbor Tools Inc.", name, "USD thousands"
    ws["B4"] = "Year ended December 31,"
    ws.merge_cells("B4:C4")
    ws["B5"], ws["C5"] = "2023", "2024"
    for cell in ("A1", "A2", "B4", "B5", "C5"):
        ws[cell].font = Font(bold=True)
    for i, line in enumerate(lines, start=6):
        ws.cell(i, 1, line[0])
        for j, v in enumerate(line[1:3], start=2):
            ws.cell(i, j, v)
        bold = line[3] if len(line) > 3 else len(line) == 1 or str(line[0]).startswith("Total")
        ws.cell(i, 1).font = Font(bold=bool(bold))


def _opened(path: Path) -> Any:
    from gridsight.sources import open_workbook

    return open_workbook(path)


@pytest.fixture(scope="module")
def harbor(tmp_path_factory: pytest.TempPathFactory) -> Any:
    wb = Workbook()
    wb.remove(wb.active)
    _statement(wb, "Balance sheet", "Consolidated balance sheet", BALANCE)
    _statement(wb, "Income statement", "Consolidated statement of income", INCOME)
    _statement(wb, "Cash flow", "Consolidated statement of cash flows", CASH_FLOW)
    path = tmp_path_factory.mktemp("harbor") / "harbor.xlsx"
    wb.save(path)
    return _opened(path)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # (90 + 420) - 350; not ``Proceeds from borrowings`` of the cash-flow statement
        ("What was net debt (total borrowings minus cash and cash equivalents) in 2024?", 160),
        ("What was net debt (total borrowings minus cash and cash equivalents) in 2023?", 280),  # 580 - 300
        ("What was total debt at the end of 2023?", 580),  # 80 + 500
        ("What was net debt in 2024?", 160),  # the measure named alone: the same lines less cash
        # a label that writes "less" is one line, added to the next: 420 + 45
        (
            "What were long-term debt, less current portion and deferred tax liabilities combined in 2024?",
            465,
        ),
        # a label with a comma inside a list is one member: 200 + 300 + 20 (no ``Inventories, net``)
        (
            "What is the sum of accounts receivable, net, cash and cash equivalents and income taxes "
            "receivable in 2023?",
            520,
        ),
        # "profit for the year" inside "gross profit for the year ended ..." names no net income
        ("What was gross profit for the year ended December 31, 2023?", 400),
        # the section ``Operating expenses:`` ends at the line in bold after its items: 160 + 55
        ("What were total operating expenses in 2024?", 215),
        # property, plant and equipment where the statement heads it ``Fixed assets, net``
        ("What was PP&E in 2024?", 950),
        ("What were tangible assets in 2023?", 900),
        # "receivables" are the trade receivables (``Accounts receivable, net``), not the tax line
        ("What were receivables in 2024?", 220),
    ],
)
def test_figures_asked_over_debt_and_whole_labels(harbor: Any, question: str, expected: float) -> None:
    assert answered(harbor, question) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Which was larger in 2024: current portion of long-term debt or accounts payable?",
            "Accounts payable",
        ),
        # (90 against 70: the current portion itself, not ``Long-term debt, less current portion``'s 420)
        (
            "Which was larger in 2024: current portion of long-term debt or accrued expenses?",
            "Current portion of long-term debt",
        ),
    ],
)
def test_a_line_named_whole_is_that_line(harbor: Any, question: str, expected: str) -> None:
    assert answered(harbor, question) == expected


def test_a_line_headed_total_borrowings_is_read_as_it_is(tmp_path: Path) -> None:
    wb = Workbook()
    wb.remove(wb.active)
    lines = [
        ("Cash", 40, 50),
        ("Bank loans", 100, 90),
        ("Bonds", 200, 200),
        ("Total borrowings", 300, 290),
    ]
    _statement(wb, "Debt", "Net debt", lines)
    path = tmp_path / "debt.xlsx"
    wb.save(path)
    book = _opened(path)
    assert answered(book, "What were total borrowings in 2024?") == 290
    # (and net debt by its definition reads that line: 290 - 50)
    assert answered(book, "What was net debt (total borrowings minus cash) in 2024?") == 240


def test_debt_lines_leave_out_flows_costs_and_measures() -> None:
    cells = [
        "Proceeds from borrowings",
        "Repayments of debt",
        "Interest expense",
        "Net debt",
        "Loans to customers",
        "Borrowings",
        "Borrowings",
        "Interest-bearing loans and borrowings",
        "Notes payable",
        "Debt issuance costs",
    ]
    assert debt_lines(cells) == [
        ("Borrowings", 2),
        ("Interest-bearing loans and borrowings", 1),
        ("Notes payable", 1),
    ]


def test_debt_written_out() -> None:
    cells = ["Borrowings", "Cash", "Borrowings", "Convertible notes"]
    said = debt_written_out("What was net debt (total borrowings minus cash) in 2024?", lambda: cells)
    assert said == (
        "What was net debt (current Borrowings plus non-current Borrowings plus Convertible notes "
        "minus cash) in 2024?"
    )
    # kinds of debt and other names stay as written
    for question in (
        "What was long-term debt in 2024?",
        "What was net debt in 2024?",
        "What was the debt-to-equity ratio in 2024?",
        "What were borrowings classified as current in 2024?",
    ):
        assert debt_written_out(question, lambda: cells) == question
    # one line of debt: the words find it
    assert debt_written_out("What was total debt?", lambda: ["Long-term debt"]) == "What was total debt?"


def test_a_label_in_quotes_is_one_line() -> None:
    expr = parse('"Long-term debt, less current portion" plus deferred tax liabilities')
    assert expr == Apply("+", Line("Long-term debt, less current portion"), Line("deferred tax liabilities"))
    assert parse("total debt less current portion") == Apply("-", Line("total debt"), Line("current portion"))


#: A balance sheet by quarter with a sales table beside it (from column H): each region written once
#: over its products, as a report lays them out.
QUARTER_LINES: list[tuple[Any, ...]] = [
    ("Cash", 100, 110, 120, 130),
    ("Receivables", 50, 55, 60, 65),
    ("Total current assets", 150, 165, 180, 195),
]
SALES: list[tuple[Any, ...]] = [
    ("Region", "Product", "Q1", "Q2", "Q3", "Q4"),
    ("North", "Standard", 10, 20, 30, 40),
    (None, "Pro", 5, 6, 7, 8),
    ("South", "Standard", 1, 2, 3, 4),
    (None, "Pro", 50, 60, 70, 80),
]


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "BS"
    ws["A1"], ws["A2"] = "Harbor Tools Inc.", "Balance sheet"
    ws["B3"] = "2024"
    ws.merge_cells("B3:E3")
    for j, q in enumerate(("Q1", "Q2", "Q3", "Q4"), start=2):
        ws.cell(4, j, q).font = Font(bold=True)
    for i, line in enumerate(QUARTER_LINES, start=5):
        for j, v in enumerate(line, start=1):
            ws.cell(i, j, v)
    for i, row in enumerate(SALES, start=3):
        for j, v in enumerate(row, start=8):
            ws.cell(i, j, v).font = Font(bold=i == 3)
    path = tmp_path_factory.mktemp("quarters") / "quarters.xlsx"
    wb.save(path)
    return _opened(path)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What were South's total unit sales for the full year?", 270),  # (1+2+3+4) + (50+60+70+80)
        ("How many Pro units were sold in total?", 286),  # (5+6+7+8) + (50+60+70+80)
        ("What was cash in Q3?", 120),
    ],
)
def test_sales_beside_a_statement(quarters: Any, question: str, expected: float) -> None:
    assert answered(quarters, question) == pytest.approx(expected)


def test_combined_figures_of_two_rows(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    for row in (
        ("Product", "Units", "Revenue"),
        ("Gear pump", 10, 1500),
        ("Valve kit", 4, 200),
        ("Hose", 7, 70),
    ):
        ws.append(row)
    path = tmp_path / "products.xlsx"
    wb.save(path)
    book = _opened(path)
    assert answered(book, "What was the combined revenue of Gear pump and Valve kit?") == 1700
    assert answered(book, "Gear pump plus Valve kit revenue?") == 1700
    answers_or_says_why(book, "What was the combined revenue of Gear pump and the moon?")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # operating profit over interest: 245 / 18 (a measure the glossary defines)
        ("What was interest cover in 2024?", 245 / 18),
        # a margin named alone is a percentage: 100 * 140 / 1000 (defined by the question, it is
        # what the question writes: see tests/qa/test_definitions.py)
        ("What was the net margin in 2023?", 14.0),
        # "percentage movement" is a relative change: 100 * (350 - 300) / 300
        ("Percentage movement in cash and cash equivalents from 2023 to 2024?", 100 * 50 / 300),
    ],
)
def test_measures_by_their_usual_names(harbor: Any, question: str, expected: float) -> None:
    assert answered(harbor, question) == pytest.approx(expected)


def test_the_larger_of_two_named_after_a_test(harbor: Any) -> None:
    question = (
        "In 2024, were accrued expenses greater than accounts payable, or the other way round? "
        "Name the larger line."
    )
    assert answered(harbor, question) == "Accounts payable"  # (140 against 70)


def test_section_totals_no_line_gives(tmp_path: Path) -> None:
    wb = Workbook()
    wb.remove(wb.active)
    us = [
        ("Accounts payable", 200, 220),
        ("Total current liabilities", 260, 300),
        ("Long-term debt", 500, 420),
        ("Other non-current liabilities", 40, 45),
        ("Total liabilities", 800, 765),
    ]
    _statement(wb, "US", "Consolidated balance sheet", us)
    uk = [
        ("Creditors: amounts falling due within one year",),
        ("Trade creditors", 100, 120),
        ("Total creditors: amounts falling due within one year", 100, 120),
        ("Creditors: amounts falling due after more than one year",),
        ("Bank loans", 550, 600),
        ("Obligations under finance leases", 50, 60),
        ("Provisions for liabilities",),
        ("Deferred taxation", 70, 80),
    ]
    _statement(wb, "UK", "Balance sheet", uk)
    path = tmp_path / "sections.xlsx"
    wb.save(path)
    book = _opened(path)
    from gridsight.qa import answer_question

    # ``Other non-current liabilities`` is one of them: total liabilities less current, 765 - 300
    ans = answer_question(book, "What is the sum of all non-current liabilities in 2024?", "US")
    assert ans.value == 465, ans.reason
    # (the one line of that name is read as it is)
    ans = answer_question(book, "What were other non-current liabilities in 2024?", "US")
    assert ans.value == 45, ans.reason
    # a UK section named without "amounts": its lines added up, 600 + 60
    ans = answer_question(book, "Total creditors falling due after more than one year in 2024?", "UK")
    assert ans.value == 660, ans.reason


def test_a_line_written_whole_keeps_its_of(tmp_path: Path) -> None:
    wb = Workbook()
    wb.remove(wb.active)
    for title, label, figures in (
        ("Balance sheet", "Property, plant and equipment", (900, 950)),
        ("Cash flow", "Proceeds from sale of property, plant and equipment", (5, 7)),
    ):
        ws = wb.create_sheet(title)
        for row in (("Harbor Tools Inc.",), (title,), (None, "Q3 2024", "Q4 2024"), (label, *figures)):
            ws.append(row)
    path = tmp_path / "ppe.xlsx"
    wb.save(path)
    question = (
        "Compute proceeds from sale of property, plant and equipment for Q4 2024 minus proceeds from sale "
        "of property, plant and equipment for Q3 2024."
    )
    assert answered(_opened(path), question) == 2  # (7 - 5; not the balance sheet's 950 less 5)

"""Balance sheets in three more forms: a line named inside its section among lines of the same words
outside it, sections whose totals have no label set against each other, and columns named
``Closing balance`` / ``Opening balance`` instead of dates. Each case is a real .xlsx written by
openpyxl; the companies and figures are made up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from tests.qa.conftest import answered, answers_or_says_why

from gridsight.qa import answer_question
from gridsight.sources import open_workbook

Line = tuple[str | None, float | None, float | None]

#: label (None: a subtotal with no label), 2025, 2024 (None, None: a section line).
SECTIONED: list[Line] = [
    ("Non-current assets", None, None),
    ("Financial assets", None, None),
    ("Investments", 830.0, 790.0),
    ("Other financial assets", 210.0, 185.0),
    (None, 1040.0, 975.0),
    ("Property, plant and equipment", 5200.0, 4900.0),
    ("Other non-current assets", 640.0, 615.0),
    (None, 6880.0, 6490.0),
    ("Current assets", None, None),
    ("Inventories", 1320.0, 1250.0),
    ("Trade receivables", 980.0, 1010.0),
    ("Other financial assets", 75.0, 60.0),
    ("Cash and cash equivalents", 425.0, 380.0),
    (None, 2800.0, 2700.0),
    ("Current liabilities", None, None),
    ("Trade creditors", 1150.0, 1090.0),
    ("Bank borrowings", 450.0, 410.0),
    (None, 1600.0, 1500.0),
    ("Net current assets", 1200.0, 1200.0),
    ("Total assets less current liabilities", 8080.0, 7690.0),
]


def _book(folder: Path, name: str, header: list[str | None], lines: list[Line]) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance sheet"
    ws.append(["Harbourview Holdings Limited"])
    ws.append(["Consolidated statement of financial position"])
    ws.append(["HK$'000"])
    ws.append([])
    ws.append(header)
    for line in lines:
        ws.append(list(line))
    wb.save(folder / name)
    return open_workbook(folder / name)


def _hong_kong(folder: Path) -> Any:
    """A Hong Kong statement: a ``Notes`` column, the unit under each year, a blank row after each
    section's unlabelled total."""
    wb = Workbook()
    ws = wb.active
    ws.title = "CSOFP"
    ws.append(["Harbourview Holdings Limited"])
    ws.append(["CONSOLIDATED STATEMENT OF FINANCIAL POSITION"])
    ws.append(["As at 31 December 2025"])
    ws.append([])
    ws.append([None, "Notes", "2025", "2024"])
    ws.append([None, None, "HK$'000", "HK$'000"])
    for i, (label, *figures) in enumerate(SECTIONED):
        ws.append([label, str(14 + i) if label and figures[0] is not None and i % 2 else None, *figures])
        if label is None:
            ws.append([])
    wb.save(folder / "sectioned.xlsx")
    return open_workbook(folder / "sectioned.xlsx")


@pytest.fixture(scope="module")
def sectioned(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _hong_kong(tmp_path_factory.mktemp("sectioned"))


#: A Chinese Accounting Standards balance sheet names its columns by when, not by a date.
BALANCES: list[Line] = [
    ("Current assets", None, None),
    ("Cash at bank and on hand", 9100.0, 8700.0),
    ("Accounts receivable", 4400.0, 4650.0),
    ("Total current assets", 13500.0, 13350.0),
    ("Non-current assets", None, None),
    ("Intangible assets", 2300.0, 2450.0),
    ("Total non-current assets", 2300.0, 2450.0),
    ("Current liabilities", None, None),
    ("Trade creditors", 3900.0, 3600.0),
    ("Total current liabilities", 3900.0, 3600.0),
]


@pytest.fixture(scope="module")
def balances(tmp_path_factory: pytest.TempPathFactory) -> Any:
    header: list[str | None] = ["Item", "Closing balance", "Opening balance"]
    return _book(tmp_path_factory.mktemp("balances"), "balances.xlsx", header, BALANCES)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # (``Other financial assets`` under non-current financial assets, not ``Other non-current
        # assets`` beside that section, which holds as many of the words)
        ("What were other non-current financial assets in 2024?", 185.0),
        # (the sections' own figures, which no label names, set against each other)
        (
            "Calculate the current ratio (total current assets divided by total current liabilities) "
            "in 2025.",
            pytest.approx(2800.0 / 1600.0),
        ),
        ("What was total current assets minus total current liabilities in 2024?", 1200.0),
        # (a line of the section alone is its line, whatever else the question sets it against)
        ("What were other financial assets under current assets minus inventories in 2025?", -1245.0),
    ],
)
def test_sections_and_their_unlabelled_totals(sectioned: Any, question: str, answer: Any) -> None:
    assert answered(sectioned, question) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Was intangible assets higher at the end of the year than at the beginning of the year?", False),
        ("What were accounts receivable at the beginning of the year?", 4650.0),
        (
            "At the end of the year, how much was working capital, i.e. total current assets minus total "
            "current liabilities?",
            9600.0,
        ),
        # ("trade payables" is the UK formats' ``Trade creditors``)
        ("By how much did trade payables change from the opening balance to the closing balance?", 300.0),
    ],
)
def test_closing_and_opening_balances(balances: Any, question: str, answer: Any) -> None:
    assert answered(balances, question) == answer


@pytest.mark.parametrize(
    "question",
    [
        "What was it at the end of the year at the beginning of the year?",
        "total current assets divided by total current assets divided by",
        "Which other financial assets were other financial assets in 2025?",
        "What were the opening balance's closing balance?",
    ],
)
def test_hostile_questions_get_an_answer_or_a_reason(sectioned: Any, balances: Any, question: str) -> None:
    for book in (sectioned, balances):
        answers_or_says_why(book, question)


#: A quarterly deck: the balance sheet at each quarter's end, and a box of key metrics of its own.
QUARTERS = ["Mar 31, 2025", "Jun 30, 2025", "Sep 30, 2025", "Dec 31, 2025"]
DECK: list[tuple[str, list[float] | None]] = [
    ("Current assets", None),
    ("Cash and cash equivalents", [5100.0, 4800.0, 5350.0, 6010.0]),
    ("Accounts receivable", [2200.0, 2460.0, 2390.0, 2750.0]),
    ("Total current assets", [7300.0, 7260.0, 7740.0, 8760.0]),
    ("Non-current assets", None),
    ("Capitalized software", [900.0, 960.0, 1010.0, 1100.0]),
    ("Total assets", [8200.0, 8220.0, 8750.0, 9860.0]),
]


def _deck(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance sheet"
    ws.append(["Northwind Cloud, Inc."])
    ws.append(["Condensed balance sheets ($ thousands)"])
    ws.append([])
    ws.append([None, *QUARTERS])
    for label, figures in DECK:
        ws.append([label, *(figures or [])])
    metrics = wb.create_sheet("Key metrics")
    metrics.append(
        ["Key metrics (unaudited)", "31 March 2025", "30 June 2025", "30 September 2025", "31 December 2025"]
    )
    metrics.append(["ARR ($ thousands)", 40000, 42500, 44100, 47000])
    metrics.append(["Customers", 1210, 1260, 1335, 1390])
    wb.save(folder / "deck.xlsx")
    return open_workbook(folder / "deck.xlsx")


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _deck(tmp_path_factory.mktemp("deck"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # (the day that closes the quarter named: ``Sep 30, 2025``)
        ("What was cash and cash equivalents at the end of Q3 2025?", 5350.0),
        ("Did cash and cash equivalents rise from the end of Q1 2025 to June 30, 2025?", False),
        (
            "Between the end of Q1 2025 and the end of Q2 2025, what was the change in accounts receivable?",
            260.0,
        ),
        # (a day in any form names its column: "Jun-30-2025" is ``Jun 30, 2025``)
        (
            "By what percentage did total assets grow from Jun-30-2025 to September 30, 2025?",
            pytest.approx(100 * (8750 - 8220) / 8220),
        ),
    ],
)
def test_quarter_end_columns(deck: Any, question: str, answer: Any) -> None:
    assert answered(deck, question) == answer


def test_a_box_of_metrics_by_day(deck: Any) -> None:
    # (a table of lines over columns that are each a day, with no sections: a statement all the same)
    ans = answer_question(
        deck, "By what percentage did ARR grow from March 31, 2025 to December 31, 2025?", sheet="Key metrics"
    )
    assert ans.status == "answered", ans.reason
    assert ans.value == pytest.approx(17.5)

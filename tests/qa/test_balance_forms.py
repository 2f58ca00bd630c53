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


def _value(book: Any, question: str) -> Any:
    ans = answer_question(book, question)
    assert ans.status == "answered", ans.reason
    return ans.value


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
    assert _value(sectioned, question) == answer


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
    assert _value(balances, question) == answer


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
        ans = answer_question(book, question)
        assert ans.status in ("answered", "abstained")
        assert ans.status == "answered" or ans.reason

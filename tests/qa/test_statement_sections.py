"""A statement whose sections close with their totals and whose later lines have no section line
of their own (US layout: ``Property, plant and equipment`` after ``Total current assets``); the
figures are made up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from gridsight.qa import answer_question
from gridsight.qa._relational import _closed_at
from gridsight.sources import open_workbook

LINES: list[tuple[str, int | None, int | None]] = [
    ("Assets", None, None),
    ("Current assets:", None, None),
    ("Cash", 210, 260),
    ("Receivables", 330, 250),
    ("Inventories", 140, 150),
    ("Total current assets", 680, 660),
    ("Property and equipment, net", 900, 700),
    ("Goodwill", 310, 330),
    ("Total assets", 1890, 1690),
    ("Liabilities", None, None),
    ("Current liabilities:", None, None),
    ("Accounts payable", 120, 110),
    ("Total current liabilities", 120, 110),
    ("Long-term debt", 600, 650),
    ("Total liabilities", 720, 760),
]


def _book(folder: Path, lines: list[tuple[str, int | None, int | None]], title: str | None = None) -> Any:
    """A statement of ``lines`` under a header of two years (and a title line above it)."""
    wb = Workbook()
    ws = wb.active
    if title:
        ws.append([title])
    ws.append(["", 2024, 2023])
    for label, now, before in lines:
        ws.append([label, now, before])
    wb.save(folder / "statement.xlsx")
    return open_workbook(folder / "statement.xlsx")


@pytest.fixture(scope="module")
def statement(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _book(tmp_path_factory.mktemp("sections"), LINES, "Balance sheet (in millions)")


def _value(book: Any, question: str) -> Any:
    ans = answer_question(book, question)
    assert ans.status == "answered", ans.reason
    return ans.value


def test_a_total_closes_its_section(statement: Any) -> None:
    # property rose most (+200), but it stands after the current assets' total: not one of them
    assert _value(statement, "Which current asset increased the most from 2023 to 2024?") == "Receivables"


def test_how_much_lower_is_by_how_much_the_other_exceeds(statement: Any) -> None:
    assert _value(statement, "How much lower was goodwill in 2024 than in 2023?") == 20
    assert _value(statement, "How much higher was goodwill in 2023 than in 2024?") == 20


@pytest.mark.parametrize(
    ("sections", "total", "open_levels"),
    [
        (["Assets", "Current assets:"], "Total current assets", 1),
        (["Assets", "Current assets:"], "Total assets", 0),
        (["Assets", "Current assets:"], "Subtotal of items", 2),  # closes nothing it names
        (["Equity"], "Total equity attributable to owners", 0),
    ],
)
def test_closed_at(sections: list[str], total: str, open_levels: int) -> None:
    assert _closed_at(sections, total) == open_levels


#: a statement repeating line labels under two sections (current and non-current)
REPEATED: list[tuple[str, int | None, int | None]] = [
    ("Current liabilities", None, None),
    ("Trade payables", 300, 280),
    ("Borrowings", 120, 100),
    ("Lease liabilities", 40, 35),
    ("Total current liabilities", 460, 415),
    ("Non-current liabilities", None, None),
    ("Borrowings", 800, 850),
    ("Lease liabilities", 210, 190),
    ("Total non-current liabilities", 1010, 1040),
]


@pytest.fixture(scope="module")
def repeated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _book(tmp_path_factory.mktemp("repeated"), REPEATED)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What is the total of current borrowings and non-current borrowings in 2024?", 920),
        ("Add up non-current borrowings and current borrowings for 2023.", 950),
        ("What were non-current borrowings in 2023?", 850),
    ],
)
def test_one_label_in_two_sections_named_twice(repeated: Any, question: str, value: int) -> None:
    assert _value(repeated, question) == value

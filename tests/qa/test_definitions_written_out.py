"""Definitions written out in the question win over the glossary's and say their answer's form: a
quick ratio the question defines itself, "(loans / deposits, %, 1dp)", "A plus B at Q2 2024"; and
one line "for both balance sheet dates", in the order the header shows them.

The figures are made up; every answer is worked out by hand beside its question.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: A US-style balance sheet, the latest date first.
US_STYLE: list[list[Any]] = [
    ["CONSOLIDATED BALANCE SHEETS"],
    [None, "December 31, 2025", "December 31, 2024"],
    ["Current assets:"],
    ["Cash and cash equivalents", 400, 350],
    ["Short-term investments", 100, 120],
    ["Accounts receivable, net", 500, 530],
    ["Inventories", 300, 280],
    ["Prepaid expenses and other current assets", 60, 55],
    ["Total current assets", 1360, 1335],
    ["Current liabilities:"],
    ["Accounts payable", 450, 430],
    ["Accrued expenses and other current liabilities", 350, 340],
    ["Total current liabilities", 800, 770],
]

#: A bank's quarterly balance sheet.
BANK: list[list[Any]] = [
    ["Summary balance sheet"],
    [None, "31 Mar 2025", "30 Jun 2025"],
    ["Assets"],
    ["Cash and balances at central banks", 900, 950],
    ["Loans and advances to banks", 150, 160],
    ["Loans and advances to customers", 4800, 4900],
    ["Total assets", 5850, 6010],
    ["Liabilities"],
    ["Customer deposits", 5000, 5100],
    ["Other liabilities", 300, 310],
    ["Total liabilities", 5300, 5410],
]


@pytest.fixture(scope="module")
def us_style(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "us_style", US_STYLE)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "bank", BANK)


def test_the_questions_own_definition_wins(us_style: Any) -> None:
    # (400 + 100 + 500) / 800, not the glossary's current assets less inventories
    question = "Quick ratio at the end of 2025: cash, short-term investments and receivables over "
    question += "current liabilities?"
    assert answered(us_style, question) == pytest.approx(1000 / 800)


def test_one_line_for_both_dates(us_style: Any) -> None:
    question = "Accounts receivable for both balance sheet dates, in the order shown?"
    assert answered(us_style, question) == [500, 530]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "%, 1dp" is the answer's form: 4900 / 5100 = 96.08 %, to one place
        (
            "What was the loan-to-deposit ratio at 30 June 2025 "
            "(customer loans / customer deposits, %, 1dp)?",
            96.1,
        ),
        # a sum written as the question: 950 + 160
        ("Cash at central banks plus loans to banks at Q2 2025?", 1110),
    ],
)
def test_forms_and_sums_written_out(bank: Any, question: str, answer: float) -> None:
    assert answered(bank, question) == pytest.approx(answer)

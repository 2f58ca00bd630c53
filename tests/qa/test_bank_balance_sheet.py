"""A bank's balance sheet: ``Interest-bearing deposits in other banks`` among the assets, and under
``Deposits:`` among the liabilities ``Non-interest-bearing`` and ``Interest-bearing``. "Interest-bearing
deposits" is the liability line, named in full with the section that holds it, not the asset line
whose words run on past the question's ("in other banks"); the asset line is read where the question
writes it whole. The figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

ROWS: list[list[Any]] = [
    ["Lakeshore Bancorp, Inc. -- Consolidated Balance Sheets (dollars in thousands)"],
    [None, "March 31, 2026", "December 31, 2025"],
    ["ASSETS"],
    ["Cash and due from banks", 50_000, 52_000],
    ["Interest-bearing deposits in other banks", 80_000, 60_000],
    ["Total cash and cash equivalents", 130_000, 112_000],
    ["Loans, net", 1_975_000, 1_926_000],
    ["Total assets", 2_105_000, 2_038_000],
    ["LIABILITIES AND SHAREHOLDERS' EQUITY"],
    ["Deposits:"],
    ["Non-interest-bearing", 600_000, 580_000],
    ["Interest-bearing", 1_200_000, 1_170_000],
    ["Total deposits", 1_800_000, 1_750_000],
    ["Other liabilities", 50_000, 52_000],
    ["Total liabilities", 1_850_000, 1_802_000],
    ["Total shareholders' equity", 255_000, 236_000],
    ["Total liabilities and shareholders' equity", 2_105_000, 2_038_000],
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "bank", ROWS, title="Balance Sheet")


def test_a_line_named_with_its_section_beats_a_wider_label(bank: Any) -> None:
    assert answered(bank, "What were interest-bearing deposits at March 31, 2026?") == 1_200_000
    q = "What were interest-bearing deposits in other banks at December 31, 2025?"
    assert answered(bank, q) == 60_000
    assert answered(bank, "What were non-interest-bearing deposits at December 31, 2025?") == 580_000


@pytest.mark.parametrize(
    "question",
    ["What were interest-bearing unicorns at March 31, 2026?", "Deposits?", "What were deposits in banks?"],
)
def test_odd_questions_get_an_answer_or_a_reason(bank: Any, question: str) -> None:
    answers_or_says_why(bank, question)

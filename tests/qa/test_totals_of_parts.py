"""A total the statement does not give, read as the sum of the totals of its parts, and labels whose
words all belong to a longer label, named where the question writes them whole."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.qa import answer_question
from gridsight.qa._glossary import totals_of_parts

#: An IFRS-style statement: no "Total liabilities", only its two parts and equity and liabilities.
_LINES: list[tuple[str, tuple[int, int] | None]] = [
    ("Equity", None),
    ("Share capital", (400, 400)),
    ("Retained earnings", (350, 420)),
    ("Total equity", (750, 820)),
    ("Non-current liabilities", None),
    ("Loans and borrowings", (300, 280)),
    ("Other non-current liabilities", (50, 60)),
    ("Total non-current liabilities", (350, 340)),
    ("Current liabilities", None),
    ("Trade payables", (200, 230)),
    ("Income tax payable", (40, 45)),
    ("Total current liabilities", (240, 275)),
    ("Total equity and liabilities", (1340, 1435)),
]


@pytest.fixture(scope="module")
def book(flat_book: Any) -> Any:
    return flat_book(
        ("EUR thousand", "2023", "2024"), [(label, *(figures or ())) for label, figures in _LINES]
    )


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What were total liabilities in 2024?", 615),
        ("What was the debt-to-equity ratio in 2023? Two decimals.", 0.79),
        ("Compute the debt-to-equity ratio, defined as total liabilities divided by total equity, in 2024. "
         "Two decimals.", 0.75),
        # each total written whole, though every word of the current one is the non-current one's too
        ("What was total non-current liabilities plus total current liabilities in 2023?", 590),
        ("What was total current liabilities in 2024?", 275),
        # the line that totals both is read as it is
        ("Tell me total liabilities and equity for 2024.", 1435),
    ],
)  # fmt: skip
def test_a_total_given_only_by_its_parts(book: Any, question: str, value: float) -> None:
    answer = answer_question(book, question)
    assert (answer.status, answer.value) == ("answered", value), (answer.reason, answer.query)


def test_totals_of_parts_only_where_no_line_totals_the_whole() -> None:
    lines = ["Total non-current liabilities", "Total current liabilities", "Total equity"]
    assert totals_of_parts("total liabilities in 2024", lines) == (
        "(total non-current liabilities plus total current liabilities) in 2024"
    )
    assert (
        totals_of_parts("total liabilities in 2024", [*lines, "Total liabilities"])
        == "total liabilities in 2024"
    )
    assert totals_of_parts("total assets in 2024", lines) == "total assets in 2024"  # no parts of it

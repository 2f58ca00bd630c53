"""A definition whose terms name columns, read over the one row the rest of the question names:
"the pay gap for sales occupations, defined as (men's median - women's median) / men's median".

The figures are made up; every answer is worked out by hand beside its question.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

#: Median weekly pay by occupation, two years, each split by sex (merged year headings).
PAY: list[list[Any]] = [
    ["Table 3: Median weekly pay by occupation"],
    ["Occupation", "2024", None, None, "2025", None, None],
    [None, "Men", "Women", "All", "Men", "Women", "All"],
    ["Sales occupations", 500, 400, 440, 520, 430, 470],
    ["Care occupations", 450, 420, 430, 470, 445, 455],
    ["Trades", 640, 560, 630, 660, 590, 650],
    ["All employees", 560, 470, 515, 580, 490, 535],
]


@pytest.fixture(scope="module")
def pay(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "pay", PAY, merges=("B2:D2", "E2:G2"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # (500 - 400) / 500, in percent
        (
            "What was the pay gap for sales occupations in 2024, defined as (men - women) / men, in percent?",
            20,
        ),
        # (590 - 560) / 560: the row and the year placed by the rest of the question
        ("For trades in 2025, what is women divided by all?", 590 / 650),
    ],
)
def test_terms_that_name_columns(pay: Any, question: str, answer: float) -> None:
    assert answered(pay, question) == pytest.approx(answer)

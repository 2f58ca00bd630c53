"""Headers typed short (``temp_max``, ``avginc``, ``enrltot``) are named by the words they shorten."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.formula import generate_formula
from gridsight.qa import answer_question

#: day, temp_max, temp_min, avginc, enrltot
_ROWS = [
    ("2024-03-01", 12.5, 4.0, 310.0, 120),
    ("2024-03-02", 9.0, -1.5, 295.5, 80),
    ("2024-03-03", 15.5, 6.0, 402.0, 95),
    ("2024-03-04", 7.5, 2.5, 288.0, 150),
    ("2024-03-05", 11.0, -3.0, 350.0, 60),
]


@pytest.fixture(scope="module")
def book(flat_book: Any) -> Any:
    return flat_book(("day", "temp_max", "temp_min", "avginc", "enrltot"), _ROWS)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What are the 2 lowest daily maximum temperatures?", [7.5, 9.0]),
        ("On which day was the lowest minimum temperature recorded?", "2024-03-05"),
        ("What was the highest average income?", 402),
        ("How many were enrolled in total?", 505),
    ],
)
def test_a_shortened_header_is_named_by_the_words_it_shortens(
    book: Any, question: str, answer: object
) -> None:
    ans = answer_question(book, question)
    value = (
        [v[0] if isinstance(v, list) else v for v in ans.value] if isinstance(ans.value, list) else ans.value
    )
    assert (ans.status, value) == ("answered", answer), (ans.reason, ans.query)


def test_a_formula_reads_the_shortened_column(book: Any) -> None:
    ans = generate_formula("the 2 lowest daily maximum temperatures", book)
    assert (ans.formula, ans.value) == ("=TAKE(SORT(B2:B6,,1),2)", [[7.5], [9]]), ans.reason


def test_a_header_of_one_long_run_of_letters_is_read_whole_or_not_at_all(flat_book: Any) -> None:
    odd = flat_book(("day", "temp" * 500, "temp_max"), [("2024-03-01", 1, 12.5), ("2024-03-02", 2, 9.0)])
    ans = answer_question(odd, "What was the highest maximum temperature?")
    assert (ans.status, ans.value) == ("answered", 12.5), (ans.reason, ans.query)

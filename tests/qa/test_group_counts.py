"""Rows counted per group: "the most home games" counts the rows (the games) per home side, the
word before the plural naming which column groups them."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.qa import answer_question

#: host_side, guest_side, host_points, guest_points
_GAMES = [
    ("Owls", "Bats", 2, 1),
    ("Owls", "Cats", 0, 0),
    ("Owls", "Bats", 3, 2),
    ("Bats", "Cats", 1, 4),
    ("Cats", "Bats", 2, 2),
    ("Cats", "Bats", 1, 0),
    ("Bats", "Owls", 0, 1),
]


@pytest.fixture(scope="module")
def book(flat_book: Any) -> Any:
    return flat_book(("host_side", "guest_side", "host_points", "guest_points"), _GAMES)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which side has played the most host games?", "Owls"),  # Owls 3, Bats 2, Cats 2
        ("Which side has played the most guest matches?", "Bats"),  # Bats 4
        ("Which 2 sides have played the fewest guest games?", ["Owls", "Cats"]),  # 1, 2
    ],
)
def test_the_most_rows_per_group_named_by_the_words_before_the_plural(
    book: Any, question: str, answer: object
) -> None:
    ans = answer_question(book, question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which side has played the second most guest games?", "Cats"),  # Bats 4, Cats 2, Owls 1
        ("What is the third highest host points figure?", 2),  # 3, 2, 2: Excel's LARGE(..., 3)
    ],
)
def test_a_place_before_the_superlative_skips_the_rows_above_it(
    book: Any, question: str, answer: object
) -> None:
    ans = answer_question(book, question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)

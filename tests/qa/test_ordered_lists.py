"""A request for every item in an order ("from the most to the fewest", "deepest first", "in
chronological order") lists them all, the way its first direction word says."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.qa import answer_question
from gridsight.text import orders_all

#: orchard, fruit, year, weight (kg)
_ROWS = [
    ("North", "apple", 2021, 3.0),
    ("North", "pear", 2022, 5.0),
    ("South", "apple", 2021, 4.0),
    ("South", "plum", 2023, 1.0),
    ("South", "apple", 2022, 2.0),
    ("East", "pear", 2023, 6.0),
]


@pytest.fixture(scope="module")
def book(flat_book: Any) -> Any:
    return flat_book(("orchard", "fruit", "year", "weight"), _ROWS)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("List the orchards from the most to the fewest harvests.", ["South", "North", "East"]),
        ("List the fruits from least to most common.", ["plum", "pear", "apple"]),
        ("Order the fruits by average weight, heaviest first.", ["pear", "apple", "plum"]),
        ("Which years are covered, in chronological order?", [2021, 2022, 2023]),
    ],
)
def test_every_item_in_the_order_asked(book: Any, question: str, answer: object) -> None:
    ans = answer_question(book, question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("List the islands from the most to the fewest penguins.", True),
        ("Sort the cities by population", True),
        ("Rank the teams by wins and give the top 3.", False),  # a count: the top 3, not all
        ("How many flights went from Boston to Denver?", False),  # places, not an order
        ("What changed from 2019 to 2020?", False),
    ],
)
def test_orders_all(question: str, expected: bool) -> None:
    assert orders_all(question) is expected

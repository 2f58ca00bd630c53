"""A flat export whose rows are named by a name column and numbered by an id: "the 3 highest rated
dishes" lists the dishes (ranked by ``AvgRating``, which "rated" names), "the 3 most reviewed
dishes" lists them by ``num_reviews``; "how many reviews does the highest rated dish have" reads
the reviews of that row. An id ranks nothing unless the question says "id" ("the highest rated
dish" is no ``DishId``), and a superlative whose participle names no column ("the price of the
best liked dish") ranks by nothing here: no answer, rather than the highest price; nor are "the
scores of the 3 cheapest dishes" their prices. "How many
cuisines are represented in the menu" counts the cuisines once each.

Every expected answer is worked out by code from the rows below.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

CUISINES = ("Thai", "Greek", "Mexican", "Italian", "Korean")
HEADER = ["DishId", "title", "Cuisine", "AvgRating", "num_reviews", "price", "hasDishPhoto"]
ROWS: list[list[Any]] = [  # (7 and 11 are prime to 26: every rating and review count differs)
    [
        9000 + 7 * i,
        f"Dish {chr(65 + i)}",
        CUISINES[i % 5],
        round(3.0 + (i * 7 % 26) / 13, 2),
        (i * 11 % 26) * 3 + 1,
        5 + i % 9,
        i % 3 == 0,
    ]
    for i in range(26)
]


def _top(n: int, by: str, show: str) -> list[Any]:
    at, to = HEADER.index(by), HEADER.index(show)
    return [r[to] for r in sorted(ROWS, key=lambda r: -r[at])[:n]]


@pytest.fixture(scope="module")
def dishes(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "dishes", [HEADER, *ROWS])


def _flat(value: Any) -> list[Any]:
    return [v[0] if isinstance(v, list) else v for v in value]


def test_the_rows_are_ranked_apart() -> None:
    # (no ties where the questions cut: each answer below is one list)
    for by in ("AvgRating", "num_reviews"):
        at = HEADER.index(by)
        figures = sorted((r[at] for r in ROWS), reverse=True)
        assert figures[2] != figures[3] and figures[0] != figures[1]


def test_the_highest_rated_rows_are_listed_by_name(dishes: Any) -> None:
    assert _flat(answered(dishes, "What are the 3 highest rated dishes?")) == _top(3, "AvgRating", "title")


def test_the_most_reviewed_rows_are_listed_by_name(dishes: Any) -> None:
    assert _flat(answered(dishes, "What are the 3 most reviewed dishes?")) == _top(3, "num_reviews", "title")


def test_a_yes_no_column_a_noun_names_in_part_is_not_listed(dishes: Any) -> None:
    # ("dishes" is a word of ``hasDishPhoto`` and of ``DishId``: the dishes are named by their titles)
    assert _flat(answered(dishes, "Name the 3 dishes with the most reviews.")) == _top(
        3, "num_reviews", "title"
    )
    assert answered(dishes, "Which dish has the most reviews?") == _top(1, "num_reviews", "title")[0]


def test_a_figure_of_the_highest_rated_row(dishes: Any) -> None:
    expected = _top(1, "AvgRating", "num_reviews")[0]
    assert answered(dishes, "How many reviews does the highest rated dish have?") == expected


def test_an_id_ranks_only_when_named(dishes: Any) -> None:
    assert answered(dishes, "What is the title of the dish with the highest id?") == max(ROWS)[1]


@pytest.mark.parametrize(
    "question",
    [
        "What is the price of the best liked dish?",  # (no header says how liked a dish is)
        "What scores did the 3 cheapest dishes get?",  # (nor what its score is)
    ],
)
def test_what_no_column_names_is_not_answered_by_another(dishes: Any, question: str) -> None:
    from gridsight.qa import answer_question

    ans = answer_question(dishes, question)
    assert ans.status == "abstained", ans.value
    assert ans.reason


def test_things_represented_are_counted_once_each(dishes: Any) -> None:
    assert answered(dishes, "How many cuisines are represented in the menu?") == len(CUISINES)

"""The noun after "what" / "which" names the column an answer is read from (``qa._asked``), and a
superlative adjective ranks by its own measure, not by the rows' id the noun after it names."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._asked import asked_columns

COLUMNS = ["parcel_id", "Weekday", "weight_kg", "fee", "Courier", "Listing Month", "Age"]


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Which weekday has the most parcels?", ["Weekday"]),
        ("What fees went with the 3 heaviest parcels?", ["fee"]),
        ("In which 2 months were most parcels listed?", ["Listing Month"]),
        ("For which couriers is the fee highest?", ["Courier"]),
        ("What community couriers are there?", ["Courier"]),
        # a bin of a column, or a figure computed over it, is none of its values
        ("Which age range is the most common: (0-18, 18-30, 30+)?", []),
        ("Which age group sends the heaviest parcels?", []),
        ("What total fee did Swift charge?", []),
        ("What share of parcels went by Swift?", []),
        # no "what" / "which" noun first: nothing is named
        ("How many parcels weigh over 10 kg?", []),
        ("Name the 3 heaviest parcels.", []),
        ("What is the heaviest parcel?", []),
        ("Which is heavier, the first or the last parcel?", []),
    ],
)
def test_the_noun_after_the_question_word_names_columns(question: str, names: list[str]) -> None:
    assert asked_columns(question, COLUMNS) == names


def _parcels() -> list[list[Any]]:
    rng = random.Random(7)
    rows: list[list[Any]] = [["parcel_id", "Weekday", "weight_kg", "fee", "Courier"]]
    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    for i in range(60):
        weight = round(rng.uniform(0.5, 30), 2)
        fee = round(3 + weight * 0.8 + rng.uniform(0, 4), 2)
        rows.append([1000 + i, rng.choice(days), weight, fee, rng.choice(["Swift", "Parcelo", "Nordpost"])])
    return rows


@pytest.fixture(scope="module")
def parcels(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "parcels", _parcels())


def _heaviest(k: int, column: int) -> list[Any]:
    data = sorted(_parcels()[1:], key=lambda r: -r[2])
    return [r[column] for r in data[:k]]


def _items(value: Any) -> list[Any]:
    return [x[0] if isinstance(x, list) else x for x in value]


def test_an_attribute_of_the_top_rows_is_read_from_the_column_asked(parcels: Any) -> None:
    # the weights (or the ids) of the heaviest parcels answer none of these
    assert _items(answered(parcels, "What fees went with the 3 heaviest parcels?")) == _heaviest(3, 3)
    assert _items(answered(parcels, "What weekdays were the 4 heaviest parcels sent on?")) == _heaviest(4, 1)
    assert _items(answered(parcels, "Which couriers carried the 3 heaviest parcels?")) == _heaviest(3, 4)


def test_the_rows_ids_still_rank_when_the_question_asks_for_them(parcels: Any) -> None:
    assert _items(answered(parcels, "What are the 3 highest parcel ids?")) == [1059, 1058, 1057]


@pytest.mark.parametrize(
    "question",
    [
        "Which which which?",
        "What",
        "which 3",
        "What 12 fees went with the 0 heaviest parcels?",
        "Which range ranges?",
        "What fees fees fees fees went with?",
    ],
)
def test_odd_wh_questions_answer_or_say_why(parcels: Any, question: str) -> None:
    answers_or_says_why(parcels, question)


def test_an_option_the_question_names_answers_it(tmp_path_factory: pytest.TempPathFactory) -> None:
    from gridsight.detect import detect_tables
    from gridsight.qa._asked import from_asked
    from gridsight.qa._relational import relation_of

    rows: list[list[Any]] = [["Chapter code", "Description", "Imports"]]
    rows += [["84", "Boilers and machinery", 120], ["85", "Electrical equipment", 340], ["95", "Toys", 60]]
    book = book_of(tmp_path_factory, "chapters", rows)
    sheet = book.sheets[0]
    rel = relation_of(sheet, detect_tables(sheet).tables[0])
    question = "Which chapter had the higher imports, 'Toys' or 'Electrical equipment'?"
    assert from_asked(rel, question, "Electrical equipment")
    assert from_asked(rel, question, "85")
    assert not from_asked(rel, question, 340)
    assert from_asked(rel, "Which code had the most imports?", "85")
    assert not from_asked(rel, "Which code had the most imports?", "Boilers and machinery")


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What was the weather on the windiest day?", ["Weather Condition"]),
        ("What are the ages of the 5 oldest respondents?", ["Age (years)"]),
        ("What were the 3 lowest wind speeds in May?", ["Wind Speed (m/s)"]),
        ("What's the weather of the first day?", ["Weather Condition"]),
        # a figure computed over the column is none of its values
        ("What is the median age of the respondents?", []),
        ("What was the average wind speed in May?", []),
        ("What is the growth of the wind speed over May?", []),
    ],
)
def test_the_noun_after_what_is_the_names_columns(question: str, names: list[str]) -> None:
    assert (
        asked_columns(question, ["Date", "dayOfWeek", "Weather Condition", "Wind Speed (m/s)", "Age (years)"])
        == names
    )

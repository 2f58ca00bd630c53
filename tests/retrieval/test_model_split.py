"""The model's sub-queries, under a JSON-schema grammar, with the real default model."""

from __future__ import annotations

import pytest

from gridsight.retrieval import Library
from gridsight.retrieval._model_split import faithful, model_parts


@pytest.mark.parametrize(
    ("part", "ok"),
    [
        ("youngest surviving passenger", True),
        ("Youngest Billionaire", True),
        ("oldest billionaire", False),  # a word the question does not hold: a fact the model brought in
        ("", False),
    ],
)
def test_faithful(part: str, ok: bool) -> None:
    q = "Are the youngest surviving passenger and the youngest billionaire the same sex?"
    assert faithful(part, q) is ok


def test_the_model_splits_a_question_into_what_it_looks_up(model: object) -> None:
    q = "Is the highest fare paid by a passenger greater than the highest age of a billionaire?"
    parts = model_parts(model, q)
    assert len(parts) == 2
    assert "fare" in parts[0] and "billionaire" in parts[1]


def test_no_model_no_parts() -> None:
    assert model_parts(None, "What is the average age?") == []


def test_search_with_the_model(library: Library, model: object) -> None:
    q = "Is the highest fare paid by a passenger greater than the highest age of a billionaire?"
    found = library.search(q, k=2, model=model)
    assert any("billionaire" in p and "fare" not in p for p in found.subqueries)
    assert {t.file for t in found.tables} == {"passengers.xlsx", "billionaires.csv"}

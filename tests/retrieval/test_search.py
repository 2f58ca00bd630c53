"""Retrieval over a small library: each strategy finds the table, says why, spans tables, abstains."""

from __future__ import annotations

import pytest

from gridsight.retrieval import STRATEGIES, Library


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(
    ("question", "file"),
    [
        ("What is the average fare paid by the passengers?", "passengers.xlsx"),
        ("Which billionaire has the highest final worth?", "billionaires.csv"),
        ("How many stores opened after 2016?", "shops/shops.xlsx"),
    ],
)
def test_the_right_table_first(library: Library, strategy: str, question: str, file: str) -> None:
    found = library.search(question, k=3, strategy=strategy)
    assert found.tables[0].file == file
    assert found.answerable and found.tables[0].reason
    assert found.seconds < 1.0


def test_reasons_name_the_columns(library: Library) -> None:
    top = library.search("How old is the youngest billionaire?", k=2, strategy="columns").tables[0]
    assert top.file == "billionaires.csv"
    assert "age" in top.reason and "'youngest'" in top.reason  # the word means the header


def test_a_value_finds_its_table(library: Library) -> None:
    """No header says 'Kisumu': the Stores sheet holds it as a value."""
    top = library.search("When did the Kisumu shop open?", k=3, strategy="columns").tables[0]
    assert (top.file, top.sheet) == ("shops/shops.xlsx", "Stores")
    assert "its values" in top.reason


def test_a_question_spanning_two_tables_retrieves_both(library: Library) -> None:
    found = library.search(
        "Are the youngest surviving passenger and the youngest billionaire the same gender?", k=2
    )
    assert len(found.subqueries) > 2
    assert {t.file for t in found.tables} == {"passengers.xlsx", "billionaires.csv"}


def test_no_table_is_about_the_question(library: Library) -> None:
    found = library.search("What is the boiling point of liquid nitrogen on Venus?", k=3)
    assert not found.answerable
    assert "closest" in found.reason and found.tables[0].file in found.reason


def test_unknown_strategy(library: Library) -> None:
    with pytest.raises(ValueError, match="unknown strategy"):
        library.search("age", strategy="magic")


def test_the_first_tables_are_ordered_by_the_words_they_name(library: Library) -> None:
    """Among the first three, the table whose headers or named values hold more of the question's words
    comes first, whatever order the fusion gave; a tie keeps the fusion's order."""
    ids = {library.sheets[t]["file"]: t for t in library.sheets}
    p, b = ids["passengers.xlsx"], ids["billionaires.csv"]
    q = "What is the average fare of the survivors?"  # a passengers header names it; none of the others
    found = library.search(q, k=3)
    assert library._by_words(q, [b, p], found.columns)[:2] == [p, b]
    q = "What is the age of Dana Wu?"  # both have an age header; only the billionaires hold 'Dana Wu'
    found = library.search(q, k=3)
    assert library._by_words(q, [p, b], found.columns)[:2] == [b, p]
    q = "What is the average age?"  # one word each: the given order stays
    found = library.search(q, k=3)
    assert library._by_words(q, [p, b], found.columns) == [p, b]
    assert library._by_words(q, [b, p], found.columns) == [b, p]

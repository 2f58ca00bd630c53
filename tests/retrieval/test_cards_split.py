"""Cards carry facts from the relational view, deterministically; the split is by form."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsight.detect import detect_tables
from gridsight.retrieval import split_question
from gridsight.retrieval._cards import cards_of, spoken
from gridsight.sources import open_workbook

from .conftest import make_library


def _cards(path: Path, sheet: str | None = None):  # type: ignore[no-untyped-def]
    wb = open_workbook(path)
    sh = wb.sheet(sheet) if sheet else wb.sheets[0]
    return cards_of(sh, list(detect_tables(sh).tables), path.name)


def test_column_cards_hold_the_facts(tmp_path: Path) -> None:
    folder = make_library(tmp_path)
    [(card, cols)] = _cards(folder / "passengers.xlsx")
    assert (card.file, card.sheet, card.range, card.rows) == ("passengers.xlsx", "Passengers", "A1:E6", 5)
    by = {c.column: c for c in cols}
    age = by["Age"]
    assert (age.kind, age.low, age.high, age.distinct) == ("number", "2", "54", 5)
    assert by["Survived"].kind == "boolean"
    sex = by["Sex"]
    assert (
        sex.kind == "text" and sex.distinct == 2 and set(sex.values_text.split(" | ")) == {"female", "male"}
    )
    assert "age" in age.text and "from 2 to 54" in age.text
    assert card.description.startswith("passengers: a table of 5 rows")


def test_null_share_date_format_and_sentences(tmp_path: Path) -> None:
    folder = make_library(tmp_path)
    stores = {c.column: c for c in _cards(folder / "shops" / "shops.xlsx", "Stores")[0][1]}
    assert stores["Opened"].date_format == "ISO" and stores["Opened"].kind == "date"
    orders = {c.column: c for c in _cards(folder / "shops" / "shops.xlsx", "Orders")[0][1]}
    comment = orders["Comment"]
    assert comment.null_share == 0.5
    assert comment.values_text == ""  # sentences are not names: they would match any question
    assert orders["Store"].values_text  # names are searched


def test_cards_are_deterministic(tmp_path: Path) -> None:
    folder = make_library(tmp_path)
    assert _cards(folder / "billionaires.csv") == _cards(folder / "billionaires.csv")


@pytest.mark.parametrize(
    ("header", "words"),
    [("finalWorth", "final worth"), ("Siblings_Spouses Aboard", "siblings spouses aboard"), ("Age", "age")],
)
def test_spoken(header: str, words: str) -> None:
    assert spoken(header) == words


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("What is the average age?", ["What is the average age?"]),
        (
            "Are the youngest passenger and the youngest billionaire the same sex?",
            [
                "Are the youngest passenger and the youngest billionaire the same sex?",
                "Are the youngest passenger",
                "the youngest billionaire",
                "sex",
            ],
        ),
        (
            "Is the richest billionaire older than the oldest passenger?",
            [
                "Is the richest billionaire older than the oldest passenger?",
                "Is the richest billionaire older",
                "the oldest passenger",
            ],
        ),
        ("How many rows and columns?", ["How many rows and columns?"]),  # the parts name nothing
    ],
)
def test_split(question: str, parts: list[str]) -> None:
    assert split_question(question) == parts

"""Two-sided questions: split by form, each side answered over the library, combined by code."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsight.retrieval import Library
from gridsight.retrieval._answer import ask_library
from gridsight.retrieval._compose import Plan, combine, plan

from .conftest import BILLIONAIRES, PASSENGERS


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Is the average age of the passengers higher than the average age of the billionaires?",
            Plan(
                "gt",
                "What is the average age of the passengers?",
                "What is the average age of the billionaires?",
            ),
        ),
        (
            "Are the youngest surviving passenger and the youngest billionaire the same sex?",
            Plan(
                "eq",
                "What is the sex of the youngest surviving passenger?",
                "What is the sex of the youngest billionaire?",
            ),
        ),
        ("Is the lowest fare less than 10?", Plan("lt", "What is the lowest fare?", "What is 10?")),
        (
            "What is the difference between the highest final worth and the highest fare?",
            Plan("diff", "What is the highest final worth?", "What is the highest fare?"),
        ),
        ("Did any children below the age of 18 survive?", None),
        ("How many passengers are older than 30?", None),
    ],
)
def test_plan(question: str, expected: Plan | None) -> None:
    assert plan(question) == expected


@pytest.mark.parametrize(
    ("op", "a", "b", "value"),
    [("gt", 3, 2.5, True), ("lt", [3], 2, False), ("eq", "Male", "male", True), ("eq", 2.0, 2, True),
     ("diff", 10, 2.5, 7.5), ("sum", 1, 2, 3), ("gt", "x", 2, None)],
)  # fmt: skip
def test_combine(op: str, a: object, b: object, value: object) -> None:
    assert combine(op, a, b) == value


def test_a_question_across_two_files(library_dir: tuple[Path, Path], library: Library) -> None:
    folder, _db = library_dir
    q = "Is the average age of the passengers higher than the average age of the billionaires?"
    result = ask_library(library, folder, q)
    ans = result.answer
    passengers = [r[2] for r in PASSENGERS[1:]]
    billionaires = [r[2] for r in BILLIONAIRES[1:]]
    assert ans.status == "answered" and ans.route == "compose"
    assert ans.value is (sum(passengers) / len(passengers) > sum(billionaires) / len(billionaires))
    assert {e["file"] for e in ans.evidence} == {"passengers.xlsx", "billionaires.csv"}
    assert "25.8" in ans.explanation and "45.5" in ans.explanation


def test_a_difference_across_two_files(library_dir: tuple[Path, Path], library: Library) -> None:
    folder, _db = library_dir
    q = "What is the difference between the highest final worth and the highest fare?"
    ans = ask_library(library, folder, q).answer
    top_worth = max(r[3] for r in BILLIONAIRES[1:])
    top_fare = max(r[4] for r in PASSENGERS[1:])
    assert ans.status == "answered" and ans.value == pytest.approx(top_worth - top_fare)


def test_a_side_that_cannot_be_answered_falls_back(library_dir: tuple[Path, Path], library: Library) -> None:
    folder, _db = library_dir
    ans = ask_library(library, folder, "Is the lowest fare less than 10?").answer
    assert ans.status == "answered" and ans.value is True and ans.route == "compose"
    ans = ask_library(library, folder, "Is the boiling point of nitrogen higher than that of neon?").answer
    assert ans.status == "abstained"

"""Two tables a question fits equally -- an income statement and the non-GAAP reconciliation under
it, both with ``Restructuring and other charges`` -- are each read: where they give the same figure,
that is the answer (cited in the first, the other named); where they differ, the question must say
which. The figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa import answer_question


def _rows(reconciled: int) -> list[list[Any]]:
    return [
        ["CONSOLIDATED STATEMENTS OF INCOME (in millions)"],
        [None, "2025", "2024"],
        ["Total net sales", 3_000, 2_800],
        ["Research and development", 300, 250],
        ["Restructuring and other charges", 50, 80],
        ["Operating income", 550, 480],
        ["Net income", 432, 351],
        [],
        [],
        ["Reconciliation of GAAP net income to non-GAAP net income"],
        [None, "FY2025", "FY2024"],
        ["GAAP net income", 432, 351],
        ["Share-based compensation expense", 150, 140],
        ["Restructuring and other charges", 50, reconciled],
        ["Non-GAAP net income", 632, 571],
    ]


@pytest.fixture(scope="module")
def alike(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "alike", _rows(80), title="Income")


def test_tables_that_answer_alike_answer(alike: Any) -> None:
    ans = answer_question(alike, "What were restructuring and other charges in 2024?")
    assert ans.status == "answered" and ans.value == 80
    assert "give the same" in ans.explanation


def test_tables_that_differ_ask_which(tmp_path_factory: pytest.TempPathFactory) -> None:
    book = book_of(tmp_path_factory, "differ", _rows(75), title="Income")
    ans = answer_question(book, "What were restructuring and other charges in 2024?")
    assert ans.status == "abstained" and "say which" in (ans.reason or "")
    assert answered(book, "What was non-GAAP net income in FY2024?") == 571  # (one table: no tie)


@pytest.mark.parametrize(
    "question",
    [
        "What were restructuring and other unicorns in 2024?",
        "Restructuring?",
        "What were restructuring and other charges in 1999?",
        "'; DROP TABLE data; --",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(alike: Any, question: str) -> None:
    answers_or_says_why(alike, question)

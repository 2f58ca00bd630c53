"""An interim statement of comprehensive loss: three-month and nine-month columns beside the prior
year's, costs shown in brackets and no label saying "expense". "Which expense was the largest" ranks
the lines below nil by their size, not every line by its figure (revenue would win). The figures are
made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa import answer_question

ROWS: list[list[Any]] = [
    ["Unaudited condensed consolidated statement of comprehensive loss"],
    [None, "Three months ended", "Three months ended", "Nine months ended", "Nine months ended"],
    [None, "30 September 2026", "30 September 2025", "30 September 2026", "30 September 2025"],
    ["Product sales, net", 20_000, 18_000, 60_000, 50_000],
    ["Royalty revenue", 5_000, 4_000, 14_000, 12_000],
    ["Total revenue", 25_000, 22_000, 74_000, 62_000],
    ["Cost of product sales", -3_000, -2_800, -9_000, -8_000],
    ["Research and development", -12_000, -18_000, -40_000, -45_000],
    ["Selling, general and administrative", -14_000, -7_000, -30_000, -20_000],
    ["Operating loss", -4_000, -5_800, -5_000, -11_000],
]


@pytest.fixture(scope="module")
def interim(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "interim", ROWS, title="Q3 2026")


def test_which_expense_ranks_the_lines_in_brackets_by_size(interim: Any) -> None:
    q = "Which expense was the largest in the three months ended 30 September 2026?"
    assert answered(interim, q) == "Selling, general and administrative"
    q = "Which expense was the largest in the nine months ended 30 September 2025?"
    assert answered(interim, q) == "Research and development"


@pytest.mark.parametrize(
    "question",
    ["Which expense was the largest in 1999?", "Which expense?", "Which expense was the largest unicorn?"],
)
def test_odd_questions_get_an_answer_or_a_reason(interim: Any, question: str) -> None:
    answers_or_says_why(interim, question)


def test_words_as_written_before_their_stems(tmp_path_factory: pytest.TempPathFactory) -> None:
    # ("services revenue" names ``Services``; by stems it would touch ``Revenues:`` and ``Total
    # revenues`` too: the words as written go first, and the answer is the cell itself)
    rows: list[list[Any]] = [
        ["Consolidated statements of operations"],
        [None, "2025", "2024"],
        ["Revenues:"],
        ["Products", 2_600, 2_550],
        ["Services", 2_730, 2_610],
        ["Total revenues", 5_330, 5_160],
        ["Cost of revenues", 2_470, 2_460],
    ]
    book = book_of(tmp_path_factory, "operations", rows, title="Income Statement")
    ans = answer_question(book, "For 2024, what was services revenue?")
    assert (ans.status, ans.value, ans.formula) == ("answered", 2_610, "='Income Statement'!C5")


def test_two_routes_that_agree_on_a_cell_stay_sure(tmp_path_factory: pytest.TempPathFactory) -> None:
    # ("ASM" is ``Available seat miles ("ASMs") ... (e)`` by its initials: the cells route reads it,
    # the header-path route cites the same cell less surely; together the cell itself is the answer)
    rows: list[list[Any]] = [
        ["Operating statistics"],
        [None, "Year Ended December 31,", None],
        [None, "2017 (a)", "2016 (a)"],
        ["Passengers (thousands)", 150, 140],
        ['Revenue passenger miles ("RPMs") (millions) (d)', 200_000, 190_000],
        ['Available seat miles ("ASMs") (millions) (e)', 250_000, 240_000],
        ["Passenger load factor (f)", 0.8, 0.79],
    ]
    book = book_of(tmp_path_factory, "ops", rows, merges=("B2:C2",), title="Ops")
    ans = answer_question(book, "What was ASM in the year 2016?")
    assert (ans.status, ans.value, ans.formula) == ("answered", 240_000, "=Ops!C6")

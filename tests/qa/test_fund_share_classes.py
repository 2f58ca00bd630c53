"""A funds' statement of assets and liabilities with a block per share class: a class named by its
letter ("Class I") is its block, not another class's whose words are the same but for the letter; a
line the question writes on from a shorter one's words ("net asset value per share" past ``Net
assets``) is the longer line; a line repeated in each class's block and once on its own (``NET
ASSETS``) is the one on its own where no class is named. The figures are made up; each answer is
worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

STATEMENT: list[list[Any]] = [
    ["Statements of Assets and Liabilities"],
    [None, "Balanced Fund", "Income Fund", "Growth Fund"],
    ["Investments, at value", 5_000, 3_000, 8_000],
    ["Cash", 100, 50, 200],
    ["Total assets", 5_100, 3_050, 8_200],
    ["Total liabilities", 100, 50, 200],
    ["NET ASSETS", 5_000, 3_000, 8_000],
    ["CLASS A SHARES:", None, None, None],
    ["Net assets", 2_000, 1_000, 6_000],
    ["Shares of beneficial interest outstanding (no par value)", 100, 200, 300],
    ["Net asset value per share", 20.0, 5.0, 20.0],
    ["CLASS I (INSTITUTIONAL) SHARES:", None, None, None],
    ["Net assets", 3_000, 2_000, 2_000],
    ["Shares of beneficial interest outstanding (no par value)", 150, 250, 80],
    ["Net asset value per share", 20.0, 8.0, 25.0],
]


@pytest.fixture(scope="module")
def funds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "funds.xlsx", STATEMENT, title="Assets and Liabilities")


def test_a_class_named_by_its_letter_is_its_block(funds: Any) -> None:
    assert answered(funds, "What were Class I net assets of the Income Fund?") == 2_000
    assert answered(funds, "What were Class A net assets of the Income Fund?") == 1_000
    assert answered(funds, "How many Class I shares of the Growth Fund were outstanding?") == 80


def test_a_line_written_on_past_a_shorter_one_is_the_longer(funds: Any) -> None:
    asked = "What was the net asset value per share of Class I shares of the Growth Fund?"
    assert answered(funds, asked) == 25.0
    assert answered(funds, "Which fund had the highest Class I net asset value per share?") == "Growth Fund"


def test_a_line_on_its_own_is_read_where_no_class_is_named(funds: Any) -> None:
    assert answered(funds, "What were the net assets of the Balanced Fund?") == 5_000
    assert answered(funds, "What were total net assets across all three funds?") == 16_000


def test_a_classs_share_of_a_line_is_its_blocks_line_over_the_line_on_its_own(funds: Any) -> None:
    asked = "What share of the Balanced Fund's net assets belonged to Class I shares?"
    assert answered(funds, asked) == pytest.approx(3_000 / 5_000)
    asked = "What percentage of the Growth Fund's net assets were in Class A shares?"
    assert answered(funds, asked) == pytest.approx(100 * 6_000 / 8_000)


@pytest.mark.parametrize(
    "question",
    [
        "What were Class Z net assets of the Income Fund?",
        "Class I?",
        "What was the net asset value per share?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(funds: Any, question: str) -> None:
    answers_or_says_why(funds, question)

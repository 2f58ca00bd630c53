"""Lines that share a family name before a dash (``Cash flow hedges - effective portion of changes in
fair value``, ``Cash flow hedges - reclassified to profit or loss``), as statements of comprehensive
income write them: a question that names the family and no member's own words ("how much did cash
flow hedges contribute to OCI") adds the members up; one that names a member's own words reads that
line. The figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

ROWS: list[list[Any]] = [
    ["Consolidated statement of comprehensive income"],
    [None, "Note", "2025", "2024", "2023"],
    ["Profit for the year", None, 500.0, 520.0, 560.0],
    ["Items that are or may be reclassified subsequently to profit or loss:"],
    ["Foreign operations - translation differences", None, 10.0, 6.0, -60.0],
    ["Cash flow hedges - effective portion of changes in fair value", "25", 20.0, 7.0, -2.0],
    ["Cash flow hedges - reclassified to profit or loss", None, -3.0, 2.0, -8.0],
    ["Related tax", None, -4.0, -2.0, 2.0],
    ["Total items that may be reclassified", None, 23.0, 13.0, -68.0],
    ["Total comprehensive income for the year", None, 523.0, 533.0, 492.0],
]


@pytest.fixture(scope="module")
def oci(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "oci", ROWS, title="OCI")


def test_the_family_named_adds_its_members(oci: Any) -> None:
    assert answered(oci, "How much did cash flow hedges contribute to OCI in 2024?") == 7.0 + 2.0
    # ("effect" is no word of the member's "effective")
    assert answered(oci, "What was the combined effect of cash flow hedges on OCI in 2025?") == 20.0 - 3.0


def test_a_member_named_by_its_own_words_is_that_line(oci: Any) -> None:
    assert answered(oci, "What were cash flow hedges reclassified to profit or loss in 2024?") == 2.0
    assert answered(oci, "What were foreign operations translation differences in 2023?") == -60.0


@pytest.mark.parametrize(
    "question",
    [
        "How much did unicorn hedges contribute to OCI in 2024?",
        "Which cash flow hedge was the largest?",
        "Cash flow hedges - ?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(oci: Any, question: str) -> None:
    answers_or_says_why(oci, question)

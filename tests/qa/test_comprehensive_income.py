"""A statement of comprehensive income over three years: other comprehensive income in two groups
("items that will not be reclassified" and "items that are or may be reclassified subsequently"),
each closed by a total that shortens its heading, and the total comprehensive income "attributable
to:" the owners and non-controlling interests. The figures are made up; each answer is worked out
beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

ROWS: list[list[Any]] = [
    ["Ostwind Materials AG -- Consolidated statement of comprehensive income"],
    [None, "2025", "2024", "2023"],
    ["Profit for the year", 500.0, 480.0, 450.0],
    ["Other comprehensive income", None, None, None],
    ["Items that will not be reclassified to profit or loss:", None, None, None],
    ["Remeasurement of pension plans", 20.0, 5.0, -30.0],
    ["Related tax", -6.0, -1.0, 9.0],
    ["Total items that will not be reclassified", 14.0, 4.0, -21.0],
    ["Items that are or may be reclassified subsequently to profit or loss:", None, None, None],
    ["Currency translation differences", 12.0, 8.0, -60.0],
    ["Cash flow hedges", 25.0, -4.0, 6.0],
    ["Related tax", -5.0, 1.0, -2.0],
    ["Total items that may be reclassified", 32.0, 5.0, -56.0],
    ["Other comprehensive income for the year, net of tax", 46.0, 9.0, -77.0],
    ["Total comprehensive income for the year", 546.0, 489.0, 373.0],
    ["Total comprehensive income attributable to:", None, None, None],
    ["Owners of the Company", 520.0, 470.0, 360.0],
    ["Non-controlling interests", 26.0, 19.0, 13.0],
]


@pytest.fixture(scope="module")
def oci(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "oci.xlsx", ROWS, title="Comprehensive income")


def test_a_total_that_shortens_its_heading_closes_the_group(oci: Any) -> None:
    # (the group's lines, not the owners' share written after the total: ``Cash flow hedges``)
    asked = "Which item that may be reclassified was the largest in 2025?"
    assert answered(oci, asked) == "Cash flow hedges"
    assert answered(oci, "What was the related tax on items that may be reclassified in 2023?") == -2


def test_a_heading_that_says_attributable_to_heads_the_lines_after_it(oci: Any) -> None:
    asked = "What was total comprehensive income attributable to owners of the Company in 2024?"
    assert answered(oci, asked) == 470


def test_which_year_a_line_had_a_sign(oci: Any) -> None:
    asked = "In which year was other comprehensive income for the year, net of tax, negative?"
    assert answered(oci, asked) in ("2023", ["2023"])
    # (two years pass: both, not one picked)
    assert answered(oci, "In which year was profit for the year above 470?") == ["2025", "2024"]


@pytest.mark.parametrize(
    "question",
    [
        "In which year was profit for the year negative?",
        "In which year was nothing at all positive?",
        "Which item that may be reclassified was the largest in 2031?",
        "",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(oci: Any, question: str) -> None:
    answers_or_says_why(oci, question)

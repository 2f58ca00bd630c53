"""A nonprofit's statement of activities: the year's columns by donor restriction beside the year's
total and the prior year's, expenses under ``Program services:`` and ``Supporting services:``, and
the net assets at the beginning and end of the year named by those words, not by a day. The figures
are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

ROWS: list[list[Any]] = [
    ["Meadowbrook Family Services -- Statement of activities, year ended December 31, 2025"],
    [None, "2025", None, None, None, "2024"],
    [None, "Without Donor Restrictions", "With Donor Restrictions", "2025 Total", None, "2024 Total"],
    ["REVENUE AND SUPPORT", None, None, None, None, None],
    ["Contributions", 500.0, 300.0, 800.0, None, 700.0],
    ["Client service fees", 900.0, 0.0, 900.0, None, 850.0],
    ["Total revenue and support", 1_400.0, 300.0, 1_700.0, None, 1_550.0],
    ["EXPENSES", None, None, None, None, None],
    ["Program services:", None, None, None, None, None],
    ["Youth programs", 600.0, 0.0, 600.0, None, 560.0],
    ["Family counseling", 450.0, 0.0, 450.0, None, 470.0],
    ["Total program services", 1_050.0, 0.0, 1_050.0, None, 1_030.0],
    ["Supporting services:", None, None, None, None, None],
    ["Management and general", 200.0, 0.0, 200.0, None, 190.0],
    ["Fundraising", 120.0, 0.0, 120.0, None, 130.0],
    ["Total supporting services", 320.0, 0.0, 320.0, None, 320.0],
    ["Total expenses", 1_370.0, 0.0, 1_370.0, None, 1_350.0],
    ["Change in net assets", 30.0, 300.0, 330.0, None, 200.0],
    ["Net assets, beginning of year", 2_000.0, 1_000.0, 3_000.0, None, 2_800.0],
    ["Net assets, end of year", 2_030.0, 1_300.0, 3_330.0, None, 3_000.0],
]


@pytest.fixture(scope="module")
def activities(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "activities.xlsx", ROWS, title="Activities")


def test_a_section_named_is_ranked_by_its_lines_not_the_columns(activities: Any) -> None:
    # ("program service" names the section ``Program services:``: its lines, not the restriction columns)
    assert answered(activities, "Which program service had the largest expense in 2025?") == "Youth programs"
    assert answered(activities, "Which supporting service cost the least in 2024?") == "Fundraising"


def test_a_restrictions_share_is_over_its_years_total_column(activities: Any) -> None:
    # (``2025 Total`` adds up the year's restriction columns: its year is its group's, no word of its own)
    asked = "What share of total revenue and support in 2025 was with donor restrictions?"
    assert answered(activities, asked) == pytest.approx(300 / 1_700)
    assert answered(activities, "What proportion of contributions in 2025 came with donor restrictions?") == (
        pytest.approx(300 / 800)
    )


def test_a_restriction_column_under_its_year_is_read_alone(activities: Any) -> None:
    # (``2025 › 2025 Total`` is named only by the year the restriction's group writes: no second column)
    asked = "What were net assets without donor restrictions at the end of 2025?"
    assert answered(activities, asked) == 2_030


def test_the_start_or_end_of_a_year_names_the_balance_line_that_says_so(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    rows: list[list[Any]] = [
        ["Statement of activities"],
        [None, "2025", "2024"],
        ["Contributions", 900.0, 800.0],
        ["Change in net assets", 120.0, 90.0],
        ["Net assets, beginning of year", 1_000.0, 910.0],
        ["Net assets, end of year", 1_120.0, 1_000.0],
    ]
    book = book_of(tmp_path_factory, "activities1.xlsx", rows, title="Activities")
    assert answered(book, "What were net assets at the start of 2025?") == 1_000
    assert answered(book, "What were net assets at the end of 2024?") == 1_000
    assert answered(book, "What were net assets at the beginning of 2024?") == 910


@pytest.mark.parametrize(
    "question",
    [
        "Which program service had the largest expense in 2031?",
        "What were net assets at the end of the world?",
        "Which service?",
        "",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(activities: Any, question: str) -> None:
    answers_or_says_why(activities, question)

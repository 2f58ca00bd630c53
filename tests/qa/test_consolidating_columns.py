"""A consolidating balance sheet with each entity's column by date (``Parent › Dec 31, 2025``) or in
blocks by date: the entities are the columns the ``Consolidated`` column adds up (with the
eliminations), ranked without the combining columns and without blank cells; an entity named
inside another's name (``Subsidiary Guarantors`` in ``Non-Guarantor Subsidiaries``) is not the
other; "eliminated on consolidation" is the ``Eliminations`` column. The figures are made up; each
answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

ENTITIES = ["Parent", "Subsidiary Guarantors", "Non-Guarantor Subsidiaries", "Eliminations", "Consolidated"]
# (2025 then 2024, per entity; None is a dash)
LINES: list[tuple[str, list[Any], list[Any]]] = [
    ("Cash and cash equivalents", [30, 120, 80, None, 230], [25, 100, 90, None, 215]),
    ("Inventories", [None, 200, 150, None, 350], [None, 180, 160, None, 340]),
    ("Intercompany receivables", [90, 60, 50, -200, None], [70, 40, 30, -140, None]),
    ("Investment in subsidiaries", [800, None, None, -800, None], [700, None, None, -700, None]),
    ("Total assets", [920, 380, 280, -1000, 580], [795, 320, 280, -840, 555]),
]


def _side_by_side() -> list[list[Any]]:
    rows: list[list[Any]] = [["Condensed consolidating balance sheets (in millions)"], []]
    rows.append([None, *[e for e in ENTITIES for _ in (0, 1)]])
    rows.append([None, *["Dec 31, 2025", "Dec 31, 2024"] * len(ENTITIES)])
    for label, now, before in LINES:
        rows.append([label, *[v for pair in zip(now, before, strict=True) for v in pair]])
    return rows


@pytest.fixture(scope="module")
def side(tmp_path_factory: pytest.TempPathFactory) -> Any:
    merges = tuple(f"{c}3:{d}3" for c, d in zip("BDFHJ", "CEGIK", strict=True))
    return book_of(tmp_path_factory, "side.xlsx", _side_by_side(), merges=merges, title="Consolidating BS")


def test_entities_by_date_are_ranked_without_the_combining_columns(side: Any) -> None:
    assert answered(side, "Which entity held the most cash at December 31, 2025?") == "Subsidiary Guarantors"
    # (the Parent's dash is no inventory to rank)
    assert answered(side, "Which entity had the largest inventories in 2024?") == "Subsidiary Guarantors"


def test_an_entity_named_inside_anothers_name_is_not_the_other(side: Any) -> None:
    asked = "What share of consolidated inventories did the Non-Guarantor Subsidiaries hold at Dec 31, 2025?"
    assert answered(side, asked) == pytest.approx(150 / 350)


def test_what_was_eliminated_on_consolidation_is_the_eliminations_column(side: Any) -> None:
    asked = "How much of intercompany receivables was eliminated on consolidation in 2025?"
    assert answered(side, asked) == -200
    asked = "What amount of investment in subsidiaries was eliminated in consolidation at Dec 31, 2024?"
    assert answered(side, asked) == -700


@pytest.mark.parametrize(
    "question",
    [
        "Which entity held the most cash in 1999?",
        "What share of consolidated inventories did the Martians hold?",
        "How much was eliminated on consolidation?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(side: Any, question: str) -> None:
    answers_or_says_why(side, question)

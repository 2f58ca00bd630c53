"""A statement whose periods stand on sheets of their own -- a condensed consolidating balance sheet
at each year end on a sheet named by its date, the same lines and entity columns on both -- is read
as one table where the question names both periods or none apart: "how much did consolidated total
assets change from 2024 to 2025" sets one sheet's cell against the other's, and the answer cites
both sheets (its formula reads the other sheet by name). A question naming one date still reads that
date's sheet alone. The figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from tests.qa.conftest import answered, answers_or_says_why

from gridsight.qa import answer_question

ENTITIES = ["Parent", "Guarantor Subsidiaries", "Non-Guarantor Subsidiaries", "Eliminations", "Consolidated"]
# (line, parent, guarantors, non-guarantors, eliminations); consolidated = their sum
LINES = {
    "December 31, 2025": [
        ("Cash and cash equivalents", 40, 120, 60, "—"),
        ("Inventories", "—", 210, 150, "—"),
        ("Due from affiliates", 70, 30, 20, -120),
        ("Total current assets", 110, 360, 230, -120),
        ("Investment in subsidiaries", 900, "—", "—", -900),
        ("Total assets", 1010, 360, 230, -1020),
    ],
    "December 31, 2024": [
        ("Cash and cash equivalents", 35, 100, 58, "—"),
        ("Inventories", "—", 190, 140, "—"),
        ("Due from affiliates", 50, 25, 15, -90),
        ("Total current assets", 85, 315, 213, -90),
        ("Investment in subsidiaries", 850, "—", "—", -850),
        ("Total assets", 935, 315, 213, -940),
    ],
}


def _nil(v: Any) -> int:
    return 0 if v == "—" else int(v)


def _write(path: Path, lines: dict[str, list[tuple[Any, ...]]]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for date, rows in lines.items():
        ws = wb.create_sheet(date.replace(",", ""))
        for text in ("Ridgeway Containers, Inc.", "Condensed Consolidating Balance Sheet", date, "($m)"):
            ws.append([text])
        ws.append([])
        ws.append([None, *ENTITIES])
        for label, *figures in rows:
            total = sum(_nil(v) for v in figures)
            ws.append([label, *figures, total if total else "—"])
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from gridsight.sources import open_workbook

    return open_workbook(_write(tmp_path_factory.mktemp("periods") / "consolidating.xlsx", LINES))


def _consolidated(date: str, label: str) -> int:
    return sum(_nil(v) for line, *figures in LINES[date] if line == label for v in figures)


def test_a_change_between_the_sheets_reads_both(book: Any) -> None:
    q = "By how much did consolidated total assets change from December 31, 2024 to December 31, 2025?"
    ans = answer_question(book, q)
    assert ans.status == "answered", ans.reason
    late, early = (_consolidated(f"December 31, {y}", "Total assets") for y in (2025, 2024))
    change = late - early
    assert ans.value == change == 580 - 523
    assert {e["sheet"] for e in ans.evidence} == {"December 31 2025", "December 31 2024"}
    assert ans.formula is not None and "'December 31 2024'!" in ans.formula  # (the other sheet, by name)


def test_a_rise_and_a_rate_across_the_sheets(book: Any) -> None:
    q = "Did the guarantor subsidiaries' inventories increase from December 31, 2024 to December 31, 2025?"
    assert answered(book, q) is True  # (210 against 190)
    rate = answered(book, "What was the percentage change in consolidated inventories from 2024 to 2025?")
    assert rate == pytest.approx(100 * (360 - 330) / 330)


def test_one_date_reads_its_own_sheet(book: Any) -> None:
    q = "What was consolidated cash and cash equivalents at December 31, 2024?"
    assert answered(book, q) == 35 + 100 + 58
    assert answered(book, "How much inventory did the parent hold at December 31, 2025?") == 0  # (a dash)


def test_two_qualifiers_share_their_noun(book: Any) -> None:
    # "guarantor" alone reads as a word of ``Non-Guarantor Subsidiaries``: spelt out, both columns
    q = "What was the combined cash of the guarantor and non-guarantor subsidiaries at December 31, 2025?"
    assert answered(book, q) == 120 + 60


def test_a_lines_object_is_no_kind_of_line(book: Any) -> None:
    # (``Investment in subsidiaries`` is an investment: "which subsidiaries" ranks the columns)
    q = "Which subsidiaries held the most inventories at December 31, 2025?"
    assert answered(book, q) == "Guarantor Subsidiaries"


def test_entities_counted_by_the_line_they_hold(book: Any) -> None:
    # (the parent's inventories are a dash: two entities hold some)
    assert answered(book, "How many entities reported inventories at December 31, 2025?") == 2


def test_consolidating_adjustments_are_no_entity(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from gridsight.sources import open_workbook

    path = _write(tmp_path / "adjusted.xlsx", LINES)
    wb = load_workbook(path)
    for ws in wb.worksheets:
        ws["E6"] = "Consolidating Adjustments"
    wb.save(path)
    book = open_workbook(path)
    # (due from affiliates: parent 70, guarantors 30, non-guarantors 20; the adjustment's -120 no entity's)
    assert answered(book, "Which entity had the least due from affiliates at December 31, 2025?") == (
        "Non-Guarantor Subsidiaries"
    )


def test_sheets_with_other_lines_are_no_periods_of_one_table(tmp_path: Path) -> None:
    from gridsight.sources import open_workbook

    fewer = [line for line in LINES["December 31, 2024"] if line[0] != "Inventories"]
    other = {**LINES, "December 31, 2024": fewer}
    book = open_workbook(_write(tmp_path / "other.xlsx", other))
    q = "By how much did consolidated total assets change from December 31, 2024 to December 31, 2025?"
    ans = answer_question(book, q)
    assert ans.status == "abstained"  # (two tables, neither read with the other: say which)
    assert "say which" in (ans.reason or "")


@pytest.mark.parametrize(
    "question",
    [
        "By how much did consolidated unicorns change from December 31, 2024 to December 31, 2025?",
        "What changed between 1999 and 2001?",
        "Compare the sheets.",
        "'; DROP TABLE data; --",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(book: Any, question: str) -> None:
    answers_or_says_why(book, question)

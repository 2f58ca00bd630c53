"""A statement with a sales table beside it whose title shares the statement's title rows, figures
written as text after a rupee sign, and ways of asking for the top row that open with "what" or
name the rank by a verb ("led", "top-selling"). The figures are made up; answers are worked out by
hand beside their questions.

Found on an independent blind set of financial statements (kept outside the repository): its
held-out half was scored only; these layouts and wordings were then written here from scratch.
"""

from __future__ import annotations

from typing import Any

import pytest
from openpyxl import Workbook
from tests.qa.conftest import answered, answers_or_says_why

from gridsight.detect import detect_tables
from gridsight.grid import Sheet
from gridsight.qa._phrasing import as_which
from gridsight.qa._pipeline import asks_name

#: Statement lines (label, 2024, 2023) starting on row 6, in columns A, D and E (a note column B).
LINES: list[tuple[Any, ...]] = [
    ("Assets",),
    ("Cash and cash equivalents", 19455, 17947),
    ("Trade and other receivables", 43648, 48952),
    ("Inventories", 38183, 38856),
    ("Total current assets", 101286, 105755),
    ("Property, plant and equipment", 82137, 87370),
    ("Total assets", 183423, 193125),
]
#: The sales table beside it, from row 4 in columns G to I.
SALES = [("Asia Pacific", 65403, 64077), ("Europe", 28517, 30963), ("North America", 66596, 64802)]


def _side_by_side(rupees: bool = False) -> dict[str, object]:
    cells: dict[str, object] = {
        "A1": "TIDEWATER ENERGY INC.",
        "G1": "Sales by geographic market",
        "A2": "Consolidated balance sheet",
        "G2": "(in thousands)",
        "A3": "As at 31 December 2024",
        "A4": "(in thousands)",
        "H4": 2024,
        "I4": 2023,
        "B5": "Note",
        "D5": "31 Dec 2024",
        "E5": "31 Dec 2023",
    }
    for i, (label, *figures) in enumerate(LINES, start=6):
        cells[f"A{i}"] = label
        for col, v in zip("DE", figures, strict=False):
            cells[f"{col}{i}"] = f"₹{v:,}" if rupees else v
    for i, (region, a, b) in enumerate(SALES, start=5):
        cells.update({f"G{i}": region, f"H{i}": a, f"I{i}": b})
    return cells


@pytest.fixture(scope="module")
def tidewater(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from gridsight.sources import open_workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "BalanceSheet"
    for ref, v in _side_by_side(rupees=True).items():
        ws[ref] = v
    path = tmp_path_factory.mktemp("tidewater") / "tidewater.xlsx"
    wb.save(path)
    return open_workbook(path)


def test_a_side_tables_title_on_the_statements_title_rows_keeps_the_tables_apart() -> None:
    """The statement's titles down column A, the sales table's title in column I on the same rows,
    its quarters over the statement's header row: two tables, each with its titles."""
    cells: dict[str, object] = {
        "A1": "Hollins Resources Limited",
        "I1": "Quarterly sales by product line, 2023",
        "A2": "Statement of financial position",
        "I2": "A$m",
        "A3": "As at 30 June 2023",
        "A4": "A$m",
        **{f"{c}4": f"Q{j}" for j, c in enumerate("JKLM", start=1)},
        "B6": "Note",
        **{f"{c}6": f"30 Jun {2023 - j}" for j, c in enumerate("DEFG")},
        "A7": "ASSETS",
        "A8": "Non-current assets",
    }
    for i, line in enumerate(("Software", "Services", "Beverages", "Household", "Total"), start=5):
        cells.update({f"I{i}": line, **{f"{c}{i}": 10 * i + j for j, c in enumerate("JKLM")}})
    for i, line in enumerate(("Property", "Intangibles", "Total non-current assets"), start=9):
        cells.update({f"A{i}": line, **{f"{c}{i}": 100 * i + j for j, c in enumerate("DEFG")}})
    tables = {
        t.range.ref(): [x.text for x in t.titles] for t in detect_tables(Sheet.from_cells("S", cells)).tables
    }
    assert tables == {
        "A6:G11": [
            "Hollins Resources Limited",
            "Statement of financial position",
            "As at 30 June 2023",
            "A$m",
        ],
        "I4:M9": ["Quarterly sales by product line, 2023", "A$m"],
    }


def test_titles_side_by_side_close_together_are_still_one_tables() -> None:
    # the counter-case: a one-column label block beside a table's own columns joins it as before
    cells = {"A1": "Region", "B1": "Sales", "A2": "North", "B2": 10, "A3": "South", "B3": 20}
    assert [t.range.ref() for t in detect_tables(Sheet.from_cells("S", cells)).tables] == ["A1:B3"]


def test_figures_written_after_a_rupee_sign_are_figures(tidewater: Any) -> None:
    # (₹ text read as numbers: the totals are rows of the statement, not headers of new tables)
    assert answered(tidewater, "What were total current assets at 31 Dec 2024?") == 101286
    assert answered(tidewater, "What was the change in inventories from 2023 to 2024?") == 38183 - 38856


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What region brought in the highest sales in 2024?", "North America"),
        ("Which region led sales in 2023?", "North America"),  # 64802 > 64077
        ("What was the top-selling region in 2024?", "North America"),
        ("Worst-selling region in 2024?", "Europe"),
        ("What was the single largest current asset at 31 Dec 2024?", "Trade and other receivables"),
    ],
)
def test_the_top_row_asked_with_what_or_a_verb_of_rank(tidewater: Any, question: str, expected: str) -> None:
    assert answered(tidewater, question) == expected


def test_the_rewrites_leave_questions_that_ask_a_figure_alone() -> None:
    for q in (
        "What was the highest revenue in 2024?",
        "What percentage of sales came from the largest region?",
        "What is the largest current asset?",
    ):
        assert as_which(q) == q
    assert as_which("What regions had sales above 500?") == "Which regions had sales above 500?"
    assert asks_name("Which region led sales in 2023?")
    assert not asks_name("Which year had the most sales?")
    assert not asks_name("Which rating is most common?")


def test_odd_questions_over_the_side_by_side_sheet(tidewater: Any) -> None:
    for q in ("Which ₹ led?", "What region had the highest ₹₹₹ in 1850?", "Top-selling in?"):
        answers_or_says_why(tidewater, q)

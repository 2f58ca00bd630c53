"""Stage 1 (which table), the tie-breakers' order, the model's fallback choice, the merge of two
weak routes and the appendix M.2 table split -- all without the real model (tests/llm has those)."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from gridsight.detect import detect_tables
from gridsight.grid import Range
from gridsight.llm import ScriptedRuntime
from gridsight.qa import QAAnswer, answer_question
from gridsight.qa._ask import _merge
from gridsight.qa._choose import choose
from gridsight.qa._pick import _matches, candidates, pick_table
from gridsight.qa._route_blocks import Block, split_table
from gridsight.sources import open_workbook

from .conftest import write_balance


def _sheets(path: Path, *sheets: tuple[str, tuple[tuple[object, ...], ...]]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets:
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


SALES = (("Product", "Sales"), ("Tea", 5), ("Cake", 7))


def test_tables_the_question_cannot_tell_apart_are_never_guessed(tmp_path: Path) -> None:
    book = open_workbook(_sheets(tmp_path / "two.xlsx", ("North", SALES), ("South", SALES)))
    scripted = ScriptedRuntime(["1"])
    q = "What is the total of Sales?"
    pick = pick_table(q, candidates(book, None, q), scripted)
    assert pick.table is None and pick.tied == ("North!A1:B3", "South!A1:B3")
    assert pick.reason == "several tables fit the question equally (North!A1:B3, South!A1:B3); say which"
    assert scripted.requests == []  # the model was never asked
    ans = answer_question(book, "What is the total of Sales in the North?")  # the sheet's name tells
    assert (ans.status, ans.value, ans.table, ans.chosen_by) == ("answered", 12, "North!A1:B3", None)


def test_meaning_breaks_a_tie_the_words_cannot(tmp_path: Path) -> None:
    """Both tables name 'price'; 'produce' is in neither, and MiniLM places it with the fruit."""
    book = open_workbook(
        _sheets(
            tmp_path / "shop.xlsx",
            ("Fruit", (("Item", "Price"), ("Apples", 2), ("Pears", 3))),
            ("Cars", (("Item", "Price"), ("Sedan", 20000), ("Truck", 35000))),
        )
    )
    ans = answer_question(book, "What is the total price of the produce?")
    assert (ans.status, ans.value, ans.table, ans.chosen_by) == ("answered", 5, "Fruit!A1:B3", "meaning")
    assert ans.explanation.endswith("(meaning chose Fruit!A1:B3 over Cars!A1:B3, which also fit)")
    assert ans.confidence <= 0.6


def test_an_initialism_in_capitals_names_the_table_of_its_label(tmp_path: Path) -> None:
    # "COGS" spells the initials of "Cost of goods sold", a row of the second sheet only; a word
    # that happens to spell a label's initials in lower case ("top": Trade and other payables) does not
    book = open_workbook(
        _sheets(
            tmp_path / "books.xlsx",
            ("Position", (("Item", "Amount"), ("Trade and other payables", 40), ("Cash", 90))),
            ("Results", (("Item", "Amount"), ("Revenue", 500), ("Cost of goods sold", 320))),
        )
    )
    assert candidates(book, None, "What was the COGS amount?")[0].ref == "Results!A1:B3"
    assert all("top" not in c.named for c in candidates(book, None, "What is the top payables amount?"))


def test_an_initialism_outweighs_a_word_any_table_holds(tmp_path: Path) -> None:
    # "AOCI" spells ``Accumulated other comprehensive income (loss)`` (its bracketed part aside), a
    # row of the balance sheet only; "year" heads the other table's column: the initialism decides
    book = open_workbook(
        _sheets(
            tmp_path / "books.xlsx",
            ("Sales", (("Year", "Sales"), (2023, 500), (2024, 520))),
            ("Position", (("Item", 2023, 2024), ("Accumulated other comprehensive income (loss)", -58, -41))),
        )
    )
    assert candidates(book, None, "In which year was AOCI the lowest?")[0].ref == "Position!A1:C2"


@pytest.mark.parametrize(
    ("replies", "chosen"),
    [
        (["1", "2"], 0),  # option 1 first, then (reversed) the same option listed second: it agrees
        (["2", "1"], 1),
        (["1", "1"], None),  # always the first listed: position, not meaning -- no choice
    ],
)
def test_a_model_that_cannot_score_must_agree_with_itself_in_both_orders(
    replies: list[str], chosen: int | None
) -> None:
    scripted = ScriptedRuntime(replies)
    assert choose(scripted, "How many cakes?", ["staff table", "sales table"]) == chosen
    first, second = (r.messages[-1]["content"] for r in scripted.requests)
    assert first.endswith("1. staff table\n2. sales table") and second.endswith(
        "1. sales table\n2. staff table"
    )


def _answer(value: object, confidence: float, route: str) -> QAAnswer:
    return QAAnswer("q", "answered", value, str(value), "number", route=route, confidence=confidence)


def test_two_weak_routes_that_agree_are_merged_and_disagreeing_ones_are_not() -> None:
    merged = _merge([_answer(12, 0.4, "formula"), _answer(12.0, 0.45, "sql")])
    assert merged is not None and (merged.value, merged.confidence, merged.route) == (12, 0.6, "formula")
    assert merged.explanation.endswith("The sql route computed the same.")
    assert _merge([_answer(12, 0.4, "formula"), _answer(13, 0.45, "sql")]) is None
    assert _merge([_answer(12, 0.2, "formula"), _answer(12, 0.2, "sql")]) is None  # still too weak


def test_a_large_table_is_split_into_header_and_row_blocks(tmp_path: Path) -> None:
    path = write_balance(tmp_path / "balance.xlsx")
    sheet = open_workbook(path).sheets[0]
    table = detect_tables(sheet).tables[0]
    assert split_table(sheet, table) == [Block(Range(2, 0, 4, 4), Range(5, 0, 11, 4))]  # fits: one block
    blocks = split_table(sheet, table, budget=40)
    assert [b.body.ref() for b in blocks] == ["A6:E8", "A9:E11", "A12:E12"]  # at least 3 rows a block
    assert {b.header.ref() for b in blocks if b.header} == {"A3:E5"}  # every block keeps the header


def test_a_cell_tie_with_every_word_placed_asks_which(tmp_path: Path) -> None:
    book = open_workbook(write_balance(tmp_path / "balance.xlsx"))
    ans = answer_question(book, "What is Inventory in 2023?", model=ScriptedRuntime(["1"]))
    assert ans.status == "abstained"
    assert "the question fits several columns (Inventory for 2023 H1 Actual; Inventory for 2023 H2" in str(
        ans.reason
    )


def test_a_total_row_is_the_whole_of_what_its_label_names(tmp_path: Path) -> None:
    """'the operating revenue' fits "Total operating revenue" and "Other operating revenue" word for
    word; the total is the whole of it, the other line a part, so the total answers."""
    from openpyxl import Workbook as XlWorkbook

    from gridsight.qa import answer_question
    from gridsight.sources import open_workbook

    xl = XlWorkbook()
    ws = xl.active
    ws.append(["Line", "2023", "2022"])
    for line in [
        ("Ticket sales", 900, 800),
        ("Freight", 50, 45),
        ("Other operating revenue", 30, 25),
        ("Total operating revenue", 980, 870),
        ("Fuel", 300, 280),
        ("Total operating expense", 700, 650),
    ]:
        ws.append(list(line))
    xl.save(tmp_path / "statement.xlsx")
    book = open_workbook(tmp_path / "statement.xlsx")
    ans = answer_question(book, "What was the operating revenue in 2022?")
    assert ans.value == 870


def test_a_question_word_names_a_table_word_by_its_stem() -> None:
    assert _matches("liability", {"current", "liabilities"})  # y / ies
    assert _matches("receivable", {"trade", "receivables"})
    assert not _matches("line", {"liabilities", "lease"})


def test_a_change_verb_names_no_table(tmp_path: Path) -> None:
    # "increase" is how the question asks the figure to move, not the cash-flow line ``Net increase``
    income = (
        ("Income statement", None, None),
        (None, 2024, 2025),
        ("Umsatzerlöse", 400, 460),
        ("Costs", 300, 320),
    )
    flows = (
        ("Cash flows", None, None),
        (None, 2024, 2025),
        ("Net increase in cash", 10, 30),
        ("Cash", 50, 80),
    )
    book = open_workbook(_sheets(tmp_path / "two.xlsx", ("Flows", flows), ("Income", income)))
    best = candidates(book, None, "By how much did Umsatzerlöse increase from 2024 to 2025?")[0]
    assert best.sheet.name == "Income"
    noun = candidates(book, None, "What was the net increase in cash in 2025?")[0]
    assert noun.sheet.name == "Flows"


def test_names_beside_outline_numbers_are_the_tables_row_labels(tmp_path: Path) -> None:
    # ``1. | Umsatzerlöse``: the names stand in the column after the numbers
    income = (
        (None, None, 2024, 2025),
        ("1.", "Umsatzerlöse", 400, 460),
        ("2.", "Materialaufwand", 300, 320),
        ("3.", "Jahresüberschuss", 100, 140),
    )
    flows = (
        ("Cash flows", None, None),
        (None, 2024, 2025),
        ("Net increase in cash", 10, 30),
        ("Cash", 50, 80),
    )
    book = open_workbook(_sheets(tmp_path / "two.xlsx", ("Flows", flows), ("GuV", income)))
    best = candidates(book, None, "By how much did Materialaufwand increase from 2024 to 2025?")[0]
    assert best.sheet.name == "GuV"

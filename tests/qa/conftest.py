"""A balance-sheet style workbook (3 header rows, a unit line, merged year headers, subtotal formulas
with no saved results) and hand-checked questions about it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from openpyxl.styles import Font

#: (question, answer, type) -- answers computed by hand from the numbers in write_balance().
BALANCE_QA = [
    ("What was Cash in 2023 H1 actual?", "120", "number"),
    ("What are current assets in 2024 H2 plan?", "320", "number"),  # 150 + 95 + 75
    ("Total assets 2024 H1?", "1120", "number"),  # (140 + 90 + 70) + 320 + 500
    ("Buildings in 2023 H2?", "500", "number"),
    ("What were receivables in 2024 H1 actual?", "90", "number"),
    ("Total assets in 2023 H1 actual?", "1060", "number"),  # (120 + 80 + 60) + 300 + 500
]


def _statement_head(ws: Any, title: str, unit: str, kinds: tuple[str, ...]) -> None:
    """Bold title, unit line, and three bold header rows: merged years, halves, ``kinds``."""
    ws["A1"] = title
    ws["A1"].font = Font(bold=True)
    ws["A2"] = unit
    ws["B3"], ws["D3"] = "2023", "2024"
    ws.merge_cells("B3:C3")
    ws.merge_cells("D3:E3")
    for col, half in zip("BCDE", ("H1", "H2", "H1", "H2"), strict=True):
        ws[f"{col}4"] = half
    for col, kind in zip("ABCDE", kinds, strict=True):
        ws[f"{col}5"] = kind
    for col in "ABCDE":
        for row in (3, 4, 5):
            ws[f"{col}{row}"].font = Font(bold=True)


def write_balance(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance"
    _statement_head(ws, "Balance sheet", "EUR thousands", ("Item", "Actual", "Actual", "Actual", "Plan"))
    lines = [("Cash", 120, 130, 140, 150), ("Receivables", 80, 85, 90, 95), ("Inventory", 60, 65, 70, 75)]
    for i, line in enumerate(lines):
        for j, v in enumerate(line):
            ws.cell(6 + i, 1 + j, v)
    ws["A9"] = "Current assets"
    ws["A9"].font = Font(bold=True)
    for col in "BCDE":
        ws[f"{col}9"] = f"=SUM({col}6:{col}8)"
    for i, line in enumerate([("Equipment", 300, 310, 320, 330), ("Buildings", 500, 500, 500, 500)]):
        for j, v in enumerate(line):
            ws.cell(10 + i, 1 + j, v)
    ws["A12"] = "Total assets"
    for col in "BCDE":
        ws[f"{col}12"] = f"={col}9+{col}10+{col}11"
    wb.save(path)
    return path


#: Questions about the income statement written beside the balance sheet by write_statements();
#: stage 1 must find the right sheet (both have the same year/half headers).
INCOME_QA = [
    ("Revenue in 2024 H2?", "590", "number"),
    ("What was gross profit in 2023 H1?", "200", "number"),  # 500 - 300, a formula never calculated
    ("Operating profit 2024 H1?", "100", "number"),  # (560 - 330) - 130
    ("Cost of sales in 2023 H2?", "310", "number"),
    ("What were operating expenses in 2024 H2 budget?", "135", "number"),
]


def write_statements(path: Path) -> Path:
    """The balance sheet plus an income statement (merged years, unit line, formula subtotals)."""
    from openpyxl import load_workbook

    write_balance(path)
    wb = load_workbook(path)
    ws = wb.create_sheet("Income")
    _statement_head(ws, "Income statement", "USD millions", ("Line", "Actual", "Actual", "Actual", "Budget"))
    ws.append(("Revenue", 500, 520, 560, 590))
    ws.append(("Cost of sales", 300, 310, 330, 340))
    ws.append(("Gross profit", *(f"={c}6-{c}7" for c in "BCDE")))
    ws.append(("Operating expenses", 120, 125, 130, 135))
    ws.append(("Operating profit", *(f"={c}8-{c}9" for c in "BCDE")))
    for row in (8, 10):
        ws[f"A{row}"].font = Font(bold=True)
    wb.save(path)
    return path


@pytest.fixture(scope="session")
def balance(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_balance(tmp_path_factory.mktemp("qa") / "balance.xlsx")


@pytest.fixture(scope="session")
def statements(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_statements(tmp_path_factory.mktemp("qa") / "statements.xlsx")


@pytest.fixture(scope="session")
def balance_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workbook-QA folder layout: xlsx/*.xlsx + qa.jsonl (the balance sheet alone, and the balance
    sheet with an income statement beside it)."""
    root = tmp_path_factory.mktemp("qa-corpus")
    (root / "xlsx").mkdir()
    write_balance(root / "xlsx" / "balance.xlsx")
    write_statements(root / "xlsx" / "statements.xlsx")
    lines = [
        json.dumps({"question": q, "answer": a, "type": t, "file": "balance.xlsx", "unit": "EUR thousands"})
        for q, a, t in BALANCE_QA
    ] + [
        json.dumps({"question": q, "answer": a, "type": t, "file": "statements.xlsx"})
        for q, a, t in BALANCE_QA + INCOME_QA
    ]
    (root / "qa.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def flat_book(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Makes a workbook of one flat table (a header row, then the rows), saved as .xlsx and opened."""
    from gridsight.sources import open_workbook

    def make(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> Any:
        wb = Workbook()
        wb.active.append(list(header))
        for row in rows:
            wb.active.append(list(row))
        path = tmp_path_factory.mktemp("flat") / "table.xlsx"
        wb.save(path)
        return open_workbook(path)

    return make


def book_of(
    factory: pytest.TempPathFactory,
    name: str,
    rows: list[list[Any]],
    merges: tuple[str, ...] = (),
    title: str | None = None,
) -> Any:
    """``rows`` written to a real .xlsx (``merges``: ranges to merge; ``title``: the sheet's name)
    and opened as the product opens files."""
    from gridsight.sources import open_workbook

    wb = Workbook()
    ws = wb.active
    if title is not None:
        ws.title = title
    for row in rows:
        ws.append(row)
    for cells in merges:
        ws.merge_cells(cells)
    path = factory.mktemp(name) / f"{name}.xlsx"
    wb.save(path)
    return open_workbook(path)


def book_of_sheets(factory: pytest.TempPathFactory, name: str, sheets: dict[str, list[list[Any]]]) -> Any:
    """Each sheet's rows (by its name, in order) written to one real .xlsx and opened as the
    product opens files."""
    from gridsight.sources import open_workbook

    wb = Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(row)
    path = factory.mktemp(name) / f"{name}.xlsx"
    wb.save(path)
    return open_workbook(path)


def answered(book: Any, question: str) -> Any:
    """The value GridSight answers ``question`` with (failing on an abstention, with its reason)."""
    from gridsight.qa import answer_question

    ans = answer_question(book, question)
    assert ans.status == "answered", ans.reason
    return ans.value


def answers_or_says_why(book: Any, question: str) -> None:
    """A hostile or odd question gets an answer or an abstention with its reason, never an error."""
    from gridsight.qa import answer_question

    ans = answer_question(book, question)
    assert ans.status in ("answered", "abstained")
    assert ans.status == "answered" or ans.reason


def translated(
    book: tuple[Any, Any], sql: str, expected: str | None = None, source: str = "model"
) -> tuple[str, Any]:
    """The verified formula for ``sql`` over ``book`` (a workbook and a table's relational view) and
    the query's value: the formula must exist and the real formula engine must give that value."""
    from gridsight.formula import evaluate_formula
    from gridsight.qa._pipeline import run_attempt, same_value
    from gridsight.qa._to_formula import translations, verified_formula

    wb, rel = book
    attempt = run_attempt(rel, source, sql, expected)
    assert attempt.error is None and attempt.value is not None, attempt
    formula = verified_formula(rel, wb, sql, attempt.value)
    assert formula is not None, (sql, translations(rel, sql), attempt.value)
    got = evaluate_formula(formula, wb, rel.sheet)
    assert got.ok and got.error is None
    flat = got.value
    if isinstance(flat, list):
        flat = [x for row in flat for x in (row if isinstance(row, list) else [row])]
        flat = flat[0] if len(flat) == 1 and not isinstance(attempt.value, list) else flat
    assert same_value(flat, attempt.value)
    return formula, attempt.value


def table_book(path: Path, title: str, rows: list[tuple[Any, ...]], *, relation: Any) -> tuple[Any, Any]:
    """``rows`` saved as a real .xlsx file at ``path`` (one sheet named ``title``), opened, and the
    relational view ``relation(sheet, table)`` builds of its first detected table."""
    from gridsight.detect import detect_tables
    from gridsight.sources import open_workbook

    xb = Workbook()
    ws = xb.active
    assert ws is not None
    ws.title = title
    for row in rows:
        ws.append(list(row))
    xb.save(path)
    wb = open_workbook(path)
    sheet = wb.sheets[0]
    return wb, relation(sheet, detect_tables(sheet).tables[0])

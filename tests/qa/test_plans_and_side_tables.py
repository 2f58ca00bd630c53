"""Management accounts and the small tables beside a balance sheet: a budget column under its own
group label beside the actual figures at two dates (read only where a question names a budget; the
variance is actual less budget), a sales table with a ``Total`` line beside the statement (a ratio
of a line of each, each named by its own phrase), the rows of a table without sections that rose or
fell, growth rates, the mean of the rows a total line adds up, and one figure set against a multiple
of another. The figures are made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.sources import open_workbook

#: (label, actual 2026, actual 2025, budget 2026); None: a section line.
LINES: list[tuple[str, tuple[int, int, int] | None]] = [
    ("Non-current assets", None),
    ("Property, plant and equipment", (5200, 4800, 5300)),
    ("Right-of-use assets", (900, 1000, 950)),
    ("Total non-current assets", (6100, 5800, 6250)),
    ("Current assets", None),
    ("Inventories", (750, 680, 700)),
    ("Trade and other receivables", (1900, 1700, 1800)),
    ("Cash and cash equivalents", (620, 910, 700)),
    ("Total current assets", (3270, 3290, 3200)),
    ("Total assets", (9370, 9090, 9450)),
    ("Current liabilities", None),
    ("Trade and other payables", (1500, 1400, 1450)),
    ("Borrowings", (300, 250, 300)),
    ("Total current liabilities", (1800, 1650, 1750)),
    ("Non-current liabilities", None),
    ("Borrowings", (2200, 2400, 2100)),
    ("Total non-current liabilities", (2200, 2400, 2100)),
    ("Net assets", (5370, 5040, 5600)),
    ("Equity", None),
    ("Share capital", (1000, 1000, 1000)),
    ("Retained earnings", (4370, 4040, 4600)),
    ("Total equity", (5370, 5040, 5600)),
]
#: Sales by division beside the statement: (division, FY2026, FY2025).
DIVISIONS = [("Road", 8200, 7600), ("Storage", 3100, 2900), ("Air", 1400, 1650), ("Customs", 600, 550)]


@pytest.fixture(scope="module")
def accounts(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Position"
    ws["A1"] = "Quayside Haulage Ltd"
    ws["A2"] = "Management accounts: balance sheet"
    ws["A3"] = "£000"
    ws["B4"], ws["D4"] = "Actual", "Budget"
    ws.merge_cells("B4:C4")
    ws["B5"], ws["C5"], ws["D5"] = "31 Mar 2026", "31 Mar 2025", "31 Mar 2026"
    for r, (label, figures) in enumerate(LINES, start=6):
        ws.cell(r, 1, label)
        for j, x in enumerate(figures or ()):
            ws.cell(r, 2 + j, x)
    ws["G4"] = "Sales by division"
    ws["G5"], ws["H5"], ws["I5"] = "Division", "FY2026", "FY2025"
    for r, (name, a, b) in enumerate(DIVISIONS, start=6):
        ws.cell(r, 7, name), ws.cell(r, 8, a), ws.cell(r, 9, b)
    ws["G10"], ws["H10"], ws["I10"] = "Total sales", 13300, 12700
    path = tmp_path_factory.mktemp("accounts") / "quayside.xlsx"
    wb.save(path)
    return open_workbook(path)


def test_a_budget_column_is_read_only_where_a_budget_is_named(accounts: Any) -> None:
    # year on year runs within the actual figures: 5370 - 5040, not against the budget beside them
    assert answered(accounts, "By how much did net assets increase over the year?") == 330
    assert answered(accounts, "Which current asset fell the most between 2025 and 2026?") == (
        "Cash and cash equivalents"
    )
    assert answered(accounts, "Net assets at 31 March 2026?") == 5370
    assert answered(accounts, "What net assets did the budget plan for 31 March 2026?") == 5600


def test_changes_asked_in_other_words(accounts: Any) -> None:
    # cash 910 -> 620: a reduction is its size; "has ... fallen" is yes or no; "lower in 2026 than at
    # the 2025 year end" names the columns by their years
    assert answered(accounts, "What was the reduction in cash over the year?") == 290
    assert answered(accounts, "Has cash fallen in 2026?") is True
    assert answered(accounts, "Have trade and other receivables risen in 2026?") is True
    assert answered(
        accounts, "Name the current assets that were lower in 2026 than at the 2025 year end."
    ) == ["Cash and cash equivalents"]


def test_actual_against_budget_is_actual_less_budget(accounts: Any) -> None:
    assert answered(accounts, "How far above or below budget was cash at the end of March 2026?") == -80
    assert answered(accounts, "What is the variance between actual and budget for inventories?") == 50
    assert answered(accounts, "Did actual total assets fall short of budget?") is True


def test_a_line_in_two_sections_is_taken_whole_in_a_ratio(accounts: Any) -> None:
    # borrowings: 300 current + 2200 non-current, over total equity
    value = answered(accounts, "What are borrowings over total equity at 31 March 2026?")
    assert value == pytest.approx(2500 / 5370)


def test_a_ratio_of_a_statement_line_to_the_side_tables_total(accounts: Any) -> None:
    value = answered(accounts, "What is FY2026 inventory as a % of FY2026 total division sales?")
    assert value == pytest.approx(100 * 750 / 13300)
    days = answered(accounts, "Receivables days for 2026: year-end receivables / total sales x 365?")
    assert days == pytest.approx(1900 / 13300 * 365)


def test_rows_that_rose_or_fell_and_growth_rates_with_no_period_named(accounts: Any) -> None:
    assert answered(accounts, "Which division's sales went down?") == ["Air"]
    # rates: Road 7.9%, Storage 6.9%, Air -15.2%, Customs 9.1% (Road grew most in amount)
    assert answered(accounts, "Which division had the fastest sales growth rate?") == "Customs"
    assert answered(accounts, "Which division grew the most in percentage terms?") == "Customs"


def test_the_mean_of_the_rows_a_total_adds_up(accounts: Any) -> None:
    assert answered(accounts, "What were average sales per division in FY2025?") == 3175


def test_one_figure_set_against_a_multiple_of_another(accounts: Any) -> None:
    assert answered(accounts, "Were Storage sales in FY2025 more than twice Air sales?") is False
    assert answered(accounts, "In FY2026 were Road sales at least double Storage sales?") is True
    assert answered(accounts, "Were Air sales in FY2026 less than half of Storage sales?") is True


@pytest.mark.parametrize(
    "question",
    [
        "Was cash more than 7 times x 365 over budget / ( ?",
        "What is divided by over plus minus as a % of ?",
        "Which division had the fastest growth rate in 3000?",
        "How far above or below budget was the weather?",
        "Were sales more than twice?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(accounts: Any, question: str) -> None:
    answers_or_says_why(accounts, question)


#: A bank's balance sheet by quarter end, with key ratios beside it (no blank column between the
#: ratios' label and the statement's last quarter but two).
QUARTERS = ["Q1 2025", "Q2 2025", "Q3 2025", "Q4 2025"]


@pytest.fixture(scope="module")
def quarterly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws["A1"], ws["A2"] = "Larkspur Savings Bank", "Balance sheet by quarter, £m"
    for j, q in enumerate(QUARTERS):
        ws.cell(4, 2 + j, q)
        ws.cell(5, 9 + j, q)
    ws["H4"] = "Capital"
    lines = [
        ("Cash", [900, 950, 930, 990]),
        ("Loans to customers", [5200, 5300, 5350, 5420]),
        ("Total assets", [6100, 6250, 6280, 6410]),
        ("Customer deposits", [4800, 4900, 4950, 5010]),
        ("Total liabilities", [5600, 5730, 5750, 5860]),
        ("Total equity", [500, 520, 530, 550]),
    ]
    for r, (label, figures) in enumerate(lines, start=5):
        ws.cell(r, 1, label)
        for j, x in enumerate(figures):
            ws.cell(r, 2 + j, x)
    ws["H6"], ws["H7"] = "Risk-weighted assets", "CET1 ratio"
    for j, (rwa, cet1) in enumerate([(2500, 0.141), (2560, 0.143), (2590, 0.139), (2620, 0.145)]):
        ws.cell(6, 9 + j, rwa)
        ws.cell(7, 9 + j, cet1)
    path = tmp_path_factory.mktemp("quarterly") / "larkspur.xlsx"
    wb.save(path)
    return open_workbook(path)


def test_a_quarter_column_is_named_by_the_day_that_closes_it(quarterly: Any) -> None:
    assert answered(quarterly, "What was total equity at 30 Sep 2025?") == 530
    assert answered(quarterly, "Cash at 31 December 2025?") == 990


def test_a_ratio_across_two_tables_read_at_the_date_written_once(quarterly: Any) -> None:
    # 530 / 2590 at the end of Q3 2025; 2620 / 6410 at 31 Dec 2025
    value = answered(quarterly, "Total equity divided by risk-weighted assets at the end of Q3 2025?")
    assert value == pytest.approx(530 / 2590)
    value = answered(quarterly, "RWA density at 31 December 2025, i.e. risk-weighted assets / total assets?")
    assert value == pytest.approx(2620 / 6410)


#: An insurer's statement with restated comparatives and a third, opening balance sheet.
RESTATED: list[list[Any]] = [
    ["Thornbury Mutual plc"],
    ["Statement of financial position", None, None, None],
    [None, "31 Dec 2025", "31 Dec 2024 (restated)", "1 Jan 2024 (restated)"],
    ["Assets", None, None, None],
    ["Investment property", 210.0, 198.5, 184.0],
    ["Cash and cash equivalents", 95.2, 88.0, 91.4],
    ["Total assets", 305.2, 286.5, 275.4],
    ["Liabilities", None, None, None],
    ["Deferred tax liabilities", 52.7, 49.5, 44.0],
    ["Total liabilities", 240.0, 226.0, 219.0],
]


@pytest.fixture(scope="module")
def restated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "restated", RESTATED)


def test_a_restated_year_end_and_the_opening_balance_sheet_beside_it(restated: Any) -> None:
    # 2024 is the restated year-end (not the 1 January opening); the 2024 financial year runs from
    # the opening to the year-end
    assert answered(restated, "What were deferred tax liabilities in 2024?") == 49.5
    assert answered(
        restated, "% change in deferred tax liabilities compared with last year?"
    ) == pytest.approx(100 * (52.7 - 49.5) / 49.5)
    assert answered(restated, "What was the increase in investment property in the 2024 financial year?") == (
        pytest.approx(14.5)
    )
    assert answered(restated, "What was cash at 1 January 2024?") == 91.4
    assert answered(restated, "What was the percentage change in cash in 2025?") == pytest.approx(
        100 * (95.2 - 88.0) / 88.0
    )

"""Financial statements read by their lines and period columns: quarters under years, sections with
their totals, a flat income statement beside, and the measures statements are read by."""

from __future__ import annotations

from typing import Any

import pytest
from openpyxl import Workbook
from openpyxl.styles import Font

from gridsight.qa import answer_question
from gridsight.qa._ask import _labels
from gridsight.qa._glossary import defined
from gridsight.sources import open_workbook

#: Balance sheet lines, figures for 2023 Q3, Q4 and 2024 Q1, Q2 (None: a section line).
_BALANCE: list[tuple[str, tuple[int, ...] | None]] = [
    ("Current assets", None),
    ("Inventories", (300, 320, 310, 290)),
    ("Trade receivables", (210, 190, 260, 240)),
    ("Other current financial assets", (40, 50, 45, 35)),
    ("Cash and cash equivalents", (150, 170, 120, 180)),
    ("Total current assets", (700, 730, 735, 745)),
    ("Current liabilities", None),
    ("Trade payables", (180, 200, 210, 190)),
    ("Short-term borrowings", (120, 90, 150, 160)),
    ("Total current liabilities", (300, 290, 360, 350)),
]
#: Income statement lines, figures for 2023 and 2024.
_INCOME: list[tuple[str, tuple[int, int]]] = [
    ("Net sales", (2000, 2400)),
    ("Cost of sales", (1200, 1500)),
    ("Gross profit", (800, 900)),
    ("Operating income", (300, 240)),
    ("Net income", (210, 180)),
]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Statements"
    ws["A1"] = "Balance sheet (EUR thousand)"
    ws["A1"].font = Font(bold=True)
    # two year groups, a spacer column between them headed by nothing of its own
    ws["B3"], ws["E3"] = "2023", "2024"
    ws.merge_cells("B3:C3")
    ws.merge_cells("E3:F3")
    for col, quarter in zip("BCEF", ("Q3", "Q4", "Q1", "Q2"), strict=True):
        ws[f"{col}4"] = quarter
    for r, (label, figures) in enumerate(_BALANCE, start=5):
        ws.cell(r, 1, label)
        for c, v in zip((2, 3, 5, 6), figures or (), strict=False):
            ws.cell(r, c, v)
        if label.startswith("Total") or figures is None:
            ws.cell(r, 1).font = Font(bold=True)
    ws["I1"] = "Income statement (EUR thousand)"
    ws["I1"].font = Font(bold=True)
    ws["J3"], ws["K3"] = "2023", "2024"
    for r, (label, (a, b)) in enumerate(_INCOME, start=4):
        ws.cell(r, 9, label)
        ws.cell(r, 10, a)
        ws.cell(r, 11, b)
    path = tmp_path_factory.mktemp("statements") / "statements.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # argmax over the period columns of one line, within the year named; the example of the
        # answer's form names no column
        ('At the end of which quarter of 2024 were inventories highest? Answer like "Q1".', "Q1"),
        ("In which year was net income highest?", "2023"),
        # argmax over the lines of a section (not its total), when a label is asked for
        ("What was the biggest item within current liabilities in Q4 2023? Give the line label.",
         "Trade payables"),
        # "Give X minus Y" orders the difference, whichever the question named first
        ("By how much did cash and cash equivalents change from Q2 2024 to Q1 2024? "
         "Give Q1 2024 minus Q2 2024.", -60),
        # a quarter paired with its year: Q4 of 2023 and Q1 of 2024, not Q1 of 2023 or Q4 of 2024
        ("By how much did total current assets change from Q4 2023 to the first quarter of 2024?", 5),
        # "add up" sums; its "up" is no rise
        ("Add up inventories and trade receivables in Q3 2023. What is the total?", 510),
        # "current financial assets" is the line that holds those words, not the total of current assets
        ("What were current financial assets in Q2 2024?", 35),
        # a definition with "excluding" and a comma that closes it before the division
        ("What was (total current assets excluding inventories, divided by total current liabilities) "
         "in Q1 2024? Two decimals.", 1.18),
        # the end of a year split into quarters is its last quarter
        ("What was the current ratio at the end of 2024? Two decimals.", 2.13),
        # a growth asked "in percent" is relative to the first named
        ("How much did trade receivables grow from Q4 2023 to Q1 2024, in percent (one decimal)?", 36.8),
    ],
)  # fmt: skip
def test_statement_questions(book: Any, question: str, answer: object) -> None:
    ans = answer_question(book, question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What was the current ratio in Q2 2024? Round to two decimals.", 2.13),
        ("What was the quick ratio at the end of Q1 2024? Two decimals.", 1.18),
        ("What was working capital in Q3 2023?", 400),
        ("Was the current ratio above 2.4 in Q3 2023?", False),
        ("Was the current ratio below 2.4 in Q3 2023?", True),
        # a comparison with a part of another line is a ratio against that part
        ("Did inventories make up more than half of total current assets in Q1 2024?", False),
        ("Were inventories at least 40% of total current assets in Q1 2024?", True),
        ("Was cash below a third of total current assets in Q1 2024?", True),
        # the income statement names its lines "Operating income" and "Net sales": the definition
        # names them by the names the workbook holds
        ("Operating margin in 2024? Percent, one decimal.", 10.0),
        ("What was the gross margin in 2023, in percent?", 40.0),
    ],
)
def test_measures_named_without_a_definition(book: Any, question: str, answer: object) -> None:
    ans = answer_question(book, question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


def test_a_measure_the_workbook_labels_or_the_question_defines_is_left_as_it_is() -> None:
    held = {"working capital"}
    assert defined("What was working capital in 2024?", lambda n: n.casefold() in held) == (
        "What was working capital in 2024?"
    )
    own = "What was the current ratio (cash divided by current liabilities) in 2024?"
    assert defined(own, lambda n: False) == own
    # a name no workbook line holds is written with its usual name
    assert defined("Net margin in 2024?", lambda n: n == "net income") == (
        "Net margin (defined as net income divided by revenue, in percent) in 2024?"
    )


def test_a_label_holds_a_name_only_as_whole_words(tmp_path: Any) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Line", "2024"])
    ws.append(["Debit balances", 10])
    ws.append(["Short-term borrowings", 5])
    wb.save(tmp_path / "b.xlsx")
    holds = _labels(open_workbook(tmp_path / "b.xlsx"))
    assert not holds("EBIT")  # inside "Debit"
    assert holds("short term borrowings")  # hyphens and spaces read alike
    assert not holds("term borrow")


def test_a_spacer_column_between_groups_is_no_column(book: Any) -> None:
    from gridsight.qa._pick import candidates, pick_table
    from gridsight.qa._relational import relation_of

    best = pick_table("inventories in Q1 2024", candidates(book, None, "inventories in Q1 2024")).table
    rel = relation_of(best.sheet, best.table)
    assert [c.name for c in rel.columns if c.role == "data"] == [
        "2023 › Q3",
        "2023 › Q4",
        "2024 › Q1",
        "2024 › Q2",
    ]


@pytest.mark.parametrize(
    "question",
    [
        "current ratio " * 150,
        'Which quarter? Answer like "' + "Q1" * 30 + '".',
        "Give the line label. " * 80,
        "Add up up up up and and and minus minus in Q9 2099?",
        # the new readings at their length limit: parts of other lines, totals, proper words, runs
        "Was cash more than half of " * 70,
        "total liabilities and total " * 70,
        "Swiss Dutch Total Current Liabilities " * 50,
        ("total current liabilities " * 90)[:1990] + "?",
    ],
)
def test_odd_questions_abstain_or_answer_without_error(book: Any, question: str) -> None:
    ans = answer_question(book, question)
    assert ans.status in ("answered", "abstained")
    assert ans.status == "answered" or ans.reason


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    # columns headed by dates of different depths (two restated), beside a column of note numbers
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "Statement of financial position"
    ws["A1"].font = Font(bold=True)
    ws["B3"], ws["C3"], ws["D3"], ws["E3"] = "Notes", "30 June 2024", "30 June 2023", "30 June 2022"
    ws["D4"], ws["E4"] = "Restated", "Restated"
    lines = [
        ("Cash and cash equivalents", 4, 90, 120, 150),
        ("Trade receivables", 5, 300, 280, 260),
        ("Total current assets", None, 390, 400, 410),
        ("Translation reserve", 9, -12, -20, 8),
    ]
    for r, (label, note, *figures) in enumerate(lines, start=5):
        ws.cell(r, 1, label)
        ws.cell(r, 2, note)
        for c, v in enumerate(figures, start=3):
            ws.cell(r, c, v)
    path = tmp_path_factory.mktemp("dated") / "dated.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # each year the question names reads the one column whose header holds it
        ("By how much did total current assets change from FY2022 to FY2024?", -20),
        ("Was cash higher in 2024 than in FY2022?", False),
        # "which year" answers with the year, among the dated columns (not the notes)
        ("In which year was cash and cash equivalents the highest?", "2022"),
        ("In which year was the translation reserve higher, 2023 or 2024?", "2024"),
    ],
)
def test_columns_headed_by_dates_of_different_depths(dated: Any, question: str, answer: object) -> None:
    ans = answer_question(dated, question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


def test_a_yes_no_answer_carries_no_unit(book: Any) -> None:
    ans = answer_question(book, "Was the current ratio above 2.4 in Q3 2023?")
    assert (ans.value, ans.unit) == (False, None)
    # an amount keeps the table's unit
    assert answer_question(book, "What were inventories in Q3 2023?").unit == "EUR thousand"


@pytest.fixture(scope="module")
def uk_quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A UK-format income statement by quarter (Companies Act names, a footnote mark on a line)."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Income statement (£m)", None, None, None, None])
    ws.append([None, "Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024"])
    for row in [
        ("Turnover", 397, 475, 482, 451),
        ("Cost of sales", -229, -269, -283, -267),
        ("Gross profit", 168, 206, 199, 184),
        ("Administrative expenses", -102, -113, -112, -105),
        ("Other operating income¹", 3, 5, 7, 3),
        ("Operating profit", 69, 98, 91, 82),
        ("Profit before taxation", 63, 91, 85, 75),
        ("Tax on profit", -12, -17, -16, -14),
        ("Profit for the financial period", 51, 74, 69, 61),
    ]:
        ws.append(row)
    ws.append([])
    ws.append(["¹ Includes government grants."])
    path = tmp_path_factory.mktemp("uk") / "uk.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # abbreviations no initials reach, written out: ETR, EBIT, GP; the definition names the
        # lines by the UK names the workbook holds ("income tax expense" is ``Tax on profit``)
        ("What ETR did the group achieve in Q3 2024? One decimal.", 18.8),
        ("How much was EBIT in Q2 2024?", 98),
        ("GP margin in Q1 2024, in percent, one decimal?", 42.3),
        ("Calculate the tax rate for Q4 2024 (income tax expense ÷ profit before tax). Two decimals.", 0.19),
        # a line whose label ends in a footnote mark is the workbook's own name: no crosswalk to
        # ``Operating profit``; a span of quarters written without its year
        ("What's the mean quarterly other operating income for Q2 to Q4?", 5),
    ],
)
def test_abbreviations_and_uk_names(uk_quarters: Any, question: str, answer: object) -> None:
    ans = answer_question(uk_quarters, question)
    assert (ans.status, ans.value) == ("answered", answer), (ans.reason, ans.query)


def test_a_measure_named_as_the_workbook_names_it(tmp_path: Any) -> None:
    # "EBIT margin" is the measure a ``Operating margin (%)`` column holds: read, not computed
    wb = Workbook()
    ws = wb.active
    ws.append(["Key figures"])
    ws.append(["Year", "Revenue (€m)", "Operating profit (€m)", "Operating margin (%)"])
    for row in [(2021, 1000, 120, 12.0), (2022, 1100, 99, 9.0), (2023, 1200, 132, 11.0)]:
        ws.append(row)
    wb.save(tmp_path / "key.xlsx")
    ans = answer_question(
        open_workbook(tmp_path / "key.xlsx"), "In how many years was EBIT margin above 10%?"
    )
    assert (ans.status, ans.value) == ("answered", 2), (ans.reason, ans.query)


def test_abbreviations_the_workbook_holds_are_left_as_they_are() -> None:
    from gridsight.qa._glossary import spelt_out

    held = {"ebit"}
    assert spelt_out("EBIT and capex in 2024?", lambda n: n.casefold() in held) == (
        "EBIT and capital expenditure in 2024?"
    )
    assert (
        spelt_out("Op. profit in the debit column", lambda n: False) == "operating profit in the debit column"
    )


def test_a_section_named_alone_is_its_closing_total(tmp_path: Any) -> None:
    # the subtotals have no label of their own: "current assets" is the blank-labelled line that
    # closes the section, not its first line
    wb = Workbook()
    ws = wb.active
    ws.append(["Statement of financial position", None, None])
    ws.append([None, "2024", "2023"])
    for row in [
        ("Current assets", None, None),
        ("Inventories", 31892, 27847),
        ("Cash and cash equivalents", 40651, 34744),
        (None, 72543, 62591),
        ("Current liabilities", None, None),
        ("Trade and other payables", 37286, 39579),
        ("Lease liabilities", 4337, 3625),
        (None, 41623, 43204),
    ]:
        ws.append(row)
    for r in (6, 10):
        for c in "BC":
            ws[f"{c}{r}"].font = Font(bold=True)
    wb.save(tmp_path / "sofp.xlsx")
    ans = answer_question(
        open_workbook(tmp_path / "sofp.xlsx"),
        "Compute current assets ÷ current liabilities in 2023. Two decimals.",
    )
    assert (ans.status, ans.value) == ("answered", 1.45), (ans.reason, ans.query)

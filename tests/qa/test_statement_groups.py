"""Statements read the way analysts ask about them: which line of a group (a section, or the lines a
total adds up outside its sections) is largest or changed most; a statement's own names for what a
question calls by another standard's name; "the growth in" a line as a rate. The figures are made
up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from tests.qa.conftest import answers_or_says_why

from gridsight.qa import answer_question
from gridsight.qa._glossary import in_own_terms
from gridsight.sources import open_workbook

#: A US-style balance sheet: long-term lines stand after ``Total current liabilities`` with no
#: section line of their own.
US: list[tuple[str, int | None, int | None]] = [
    ("Assets", None, None),
    ("Current assets:", None, None),
    ("Cash and cash equivalents", 410, 380),
    ("Accounts receivable", 520, 300),
    ("Inventories", 610, 640),
    ("Total current assets", 1540, 1320),
    ("Property and equipment, net", 900, 870),
    ("Other intangible assets, net", 200, 190),
    ("Total assets", 2440, 2190),
    ("Liabilities", None, None),
    ("Current liabilities:", None, None),
    ("Accounts payable", 300, 280),
    ("Accrued expenses", 350, 200),
    ("Total current liabilities", 650, 480),
    ("Long-term debt", 700, 760),
    ("Deferred income taxes", 90, 60),
    ("Other long-term liabilities", 120, 110),
    ("Total liabilities", 1560, 1410),
]

#: A UK-style balance sheet: Group and Company columns, "Stocks" and "Debtors".
UK_LINES: list[tuple[str, list[int | None]]] = [
    ("Fixed assets", [None, None, None, None]),
    ("Intangible assets", [120, 100, 40, 45]),
    ("Tangible assets", [800, 790, 90, 60]),
    ("Investments", [50, 55, 700, 690]),
    ("Current assets", [None, None, None, None]),
    ("Stocks", [300, 240, 0, 0]),
    ("Debtors", [260, 270, 180, 150]),
    ("Cash at bank and in hand", [90, 140, 60, 30]),
]


def _us(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.append(["Consolidated Balance Sheets"])
    ws.append(["(in millions)"])
    ws.append(["", 2024, 2023])
    for label, now, before in US:
        ws.append([label, now, before])
    wb.save(folder / "us.xlsx")
    return open_workbook(folder / "us.xlsx")


def _uk(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.append(["Consolidated and Company Balance Sheets"])
    ws.append(["", "Group", None, "Company", None])
    ws.merge_cells("B2:C2")
    ws.merge_cells("D2:E2")
    ws.append(["", 2024, 2023, 2024, 2023])
    for label, figures in UK_LINES:
        ws.append([label, *figures])
    wb.save(folder / "uk.xlsx")
    return open_workbook(folder / "uk.xlsx")


@pytest.fixture(scope="module")
def us(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _us(tmp_path_factory.mktemp("us"))


@pytest.fixture(scope="module")
def uk(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _uk(tmp_path_factory.mktemp("uk"))


def _value(book: Any, question: str) -> Any:
    ans = answer_question(book, question)
    assert ans.status == "answered", ans.reason
    return ans.value


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # a section, named singular, with "line" after it and "what was" before it
        ("What was the biggest current liability line in 2024?", "Accrued expenses"),
        ("Which current asset had the smallest balance in 2023?", "Accounts receivable"),
        ("What was the largest current asset at the end of 2023?", "Inventories"),
        # a change between the two years, within the section
        ("Which current asset increased the most from 2023 to 2024?", "Accounts receivable"),
        # the lines Total liabilities adds up outside Current liabilities, one of them touched by
        # the words ("Other long-term liabilities")
        ("Which long-term liability grew the most from 2023 to 2024?", "Deferred income taxes"),
        ("Which non-current liability was largest in 2023?", "Long-term debt"),
    ],
)
def test_a_line_of_a_group(us: Any, question: str, line: str) -> None:
    assert _value(us, question) == line


def test_a_line_of_a_group_for_one_entity(uk: Any) -> None:
    assert (
        _value(uk, "Which fixed asset rose the most from 2023 to 2024 for the company?") == "Tangible assets"
    )
    assert _value(uk, "What was the biggest current asset for the group in 2023?") == "Debtors"


def test_lines_named_whole_are_compared_not_the_group(us: Any) -> None:
    # both lines are named: the larger of the two, not the group's largest (Inventories)
    assert _value(
        us, "Which current asset was larger in 2024, cash and cash equivalents or accounts receivable?"
    ) == ("Accounts receivable")


def test_a_figure_of_the_group_is_no_line(us: Any) -> None:
    assert _value(us, "What were total current assets in 2024?") == 1540


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # another standard's names, read as the table's own
        ("What was stock on a consolidated basis in 2024?", 300),
        ("What were receivables for the parent company in 2023?", 150),
        ("By how much did stock for the group rise from 2023 to 2024?", 60),
    ],
)
def test_names_of_another_standard(uk: Any, question: str, expected: int) -> None:
    assert _value(uk, question) == expected


def test_own_terms_rewrites_only_what_the_table_does_not_hold() -> None:
    texts = ["Stocks", "Debtors", "Group", "Company", "Current assets", "Cost of sales", "Revenue"]
    assert in_own_terms("stock in the consolidated accounts", texts) == "stock in the group accounts"
    assert in_own_terms("inventories and receivables", texts) == "stocks and debtors"
    # ``Cost of sales`` holds no "sales" a line could be named by; ``Revenue`` is the line
    assert in_own_terms("the growth in sales", texts) == "the growth in revenue"
    # a label the question writes out whole keeps its words
    assert in_own_terms("cost of sales in 2024", texts) == "cost of sales in 2024"
    # a name the table holds stays as written; words of no crosswalk are untouched
    assert in_own_terms("stocks for the company", texts) == "stocks for the company"
    assert in_own_terms("short-term debt", ["Short-term debt", "Current liabilities"]) == "short-term debt"


def test_the_growth_in_a_line_is_a_rate(us: Any) -> None:
    assert _value(us, "What was the year-on-year growth in accounts payable in 2024?") == pytest.approx(
        20 / 280
    )
    # "how much did it grow" is an amount
    assert _value(us, "How much did accounts payable grow from 2023 to 2024?") == 20
    assert _value(us, "What was the absolute growth in accounts payable from 2023 to 2024?") == 20


@pytest.mark.parametrize(
    "question",
    [
        "Which " + "current " * 200 + "asset was largest in 2024?",
        "Which asset liability equity line grew the most from 2023 to 2024?",
        "What was the biggest ' OR 1=1 -- line in 2024?",
        "Which long-term long-term long-term liability was largest in 2099?",
    ],
)
def test_hostile_group_questions(us: Any, question: str) -> None:
    answers_or_says_why(us, question)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # three lines listed; the last one's words ("cash") are not all of its label's
        ("What were accounts receivable, inventories and cash combined in 2024?", 520 + 610 + 410),
        ("What was cash plus accounts receivable plus inventories in 2023?", 380 + 300 + 640),
        # two lines that share words: each is its own, no third label holds both
        ("What were accounts payable and accrued expenses combined in 2024?", 300 + 350),
        ("What were long-term debt and deferred income taxes combined in 2023?", 760 + 60),
    ],
)
def test_lines_listed(us: Any, question: str, expected: int) -> None:
    assert _value(us, question) == expected


def test_a_rare_word_names_the_line_not_a_total(us: Any) -> None:
    # "intangible" names one line; "assets" names most of them (``Total assets`` among them)
    assert _value(us, "What were cash and intangible assets combined in 2024?") == 410 + 200


#: An IFRS-style statement: ``Lease liabilities`` under both liability sections, creditors shown
#: negative (in brackets) as some UK books store them.
IFRS: list[tuple[str, int | None, int | None]] = [
    ("Current assets", None, None),
    ("Cash and cash equivalents", 300, 250),
    ("Trade receivables", 500, 450),
    ("Total current assets", 800, 700),
    ("Current liabilities", None, None),
    ("Trade payables", -400, -350),
    ("Lease liabilities", -40, -50),
    ("Total current liabilities", -440, -400),
    ("Non-current liabilities", None, None),
    ("Lease liabilities", -120, -90),
    ("Total non-current liabilities", -120, -90),
]


@pytest.fixture(scope="module")
def ifrs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("ifrs")
    wb = Workbook()
    ws = wb.active
    ws.append(["Statement of financial position", None, None])
    ws.append(["", 2025, 2024])
    for label, now, before in IFRS:
        ws.append([label, now, before])
    wb.save(folder / "ifrs.xlsx")
    return open_workbook(folder / "ifrs.xlsx")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "current lease liabilities": the line under Current liabilities, not that section's total too
        ("What were current lease liabilities in 2025?", -40),
        ("What was the movement in non-current lease liabilities from 2024 to 2025?", -30),
        # a line shown negative throughout is read by its size in a ratio or a sum
        ("What was the cash ratio (cash and cash equivalents divided by trade payables) in 2024?", 250 / 350),
        ("What were trade payables plus trade receivables combined in 2025?", 900),
        # ... but a change keeps its sign
        ("By how much did trade payables change from 2024 to 2025?", -50),
    ],
)
def test_lines_of_a_statement_shown_negative(ifrs: Any, question: str, expected: float) -> None:
    assert _value(ifrs, question) == pytest.approx(expected)


def test_a_slash_between_two_lines_divides(us: Any) -> None:
    assert _value(
        us, "What was the payables cover (accounts payable / accrued expenses) in 2024?"
    ) == pytest.approx(300 / 350)


def test_a_word_names_the_label_it_heads(tmp_path: Path) -> None:
    # "sales" heads ``Net sales``; in ``Cost of sales`` it only qualifies the cost
    wb = Workbook()
    ws = wb.active
    ws.append(["Statements of operations"])
    ws.append(["", 2024, 2023])
    for row in [("Net sales", 900, 800), ("Cost of sales", 500, 450), ("Gross profit", 400, 350)]:
        ws.append(list(row))
    wb.save(tmp_path / "operations.xlsx")
    assert _value(open_workbook(tmp_path / "operations.xlsx"), "What were sales in 2023?") == 800


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the lines a total adds up outside its sections, counted (US: no non-current section)
        ("How many of the non-current asset lines (individual lines, not totals) were above 250 in 2024?", 1),
        ("How many long-term liabilities were above 100 in 2023?", 2),
        # a section, counted by its total's name: its own lines only
        ("How many current liabilities were above 250 in 2024?", 2),
        ("Number of current asset lines above 500 in 2024?", 2),
    ],
)
def test_lines_of_a_group_counted(us: Any, question: str, expected: int) -> None:
    assert _value(us, question) == expected


def test_lines_under_a_total_counted(tmp_path: Path) -> None:
    # the question names the total that closes a section: the section's lines are counted
    wb = Workbook()
    ws = wb.active
    ws.append(["Statement of financial position (£m)", None])
    ws.append([None, 2024, 2023])
    for label, figure in [
        ("Non-current assets", None),
        ("Goodwill", 640),
        ("Deferred tax assets", 37),
        ("Total non-current assets", 677),
        ("Current assets", None),
        ("Inventories", 227),
        ("Cash", 303),
        ("Total current assets", 530),
        ("Non-current liabilities", None),
        ("Borrowings", 802),
        ("Lease liabilities", 152),
        ("Provisions", 80),
        ("Total non-current liabilities", 1034),
    ]:
        ws.append([label, figure, figure and figure - 10])
    wb.save(tmp_path / "sofp.xlsx")
    book = open_workbook(tmp_path / "sofp.xlsx")
    assert _value(book, "How many non-current liabilities were above 100 in 2024?") == 2


def test_which_year_for_a_line_named_by_its_first_word(tmp_path: Path) -> None:
    # "accrued liabilities" is ``Accrued expenses and other current liabilities`` (its first word),
    # not ``Total liabilities`` (its last); "which year" asks a period, no line of a group
    wb = Workbook()
    ws = wb.active
    ws.append(["Consolidated balance sheets ($ thousands)"])
    ws.append(["", 2023, 2024])
    for row in [
        ("Current liabilities:", None, None),
        ("Accounts payable", 27098, 23432),
        ("Accrued expenses and other current liabilities", 10385, 12267),
        ("Total current liabilities", 37483, 35699),
        ("Long-term debt", 63640, 60000),
        ("Total liabilities", 101123, 95699),
    ]:
        ws.append(row)
    wb.save(tmp_path / "us.xlsx")
    book = open_workbook(tmp_path / "us.xlsx")
    assert (
        _value(book, "Which year shows the highest figure for accrued liabilities? Give the year.") == "2024"
    )
    assert _value(book, "Which year shows the lowest figure for total liabilities?") == "2024"


def test_short_term_creditors_in_the_uk_format() -> None:
    texts = ["Creditors: amounts falling due within one year", "Current assets", "Stocks"]
    assert in_own_terms("Which year shows the lowest figure for short-term creditors?", texts) == (
        "Which year shows the lowest figure for creditors: amounts falling due within one year?"
    )
    assert in_own_terms("What were short-term borrowings?", ["Current borrowings"]) == (
        "What were current borrowings?"
    )

"""Statements read by their columns and their lists: one line "for each of the four columns", the
totals of a cash flow statement's sections by the names analysts give them ("operating cash flow"),
"what did A and B add up to", a header's initials written out ("year to date" over ``YTD``) and one
line "the same for the group and the company".

The figures are made up; every answer is worked out by hand beside its question.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: A UK group-and-company balance sheet: two years under each of two headings.
GROUP_AND_COMPANY: list[list[Any]] = [
    ["Group and company balance sheets"],
    [None, "Note", "Group", None, "Company", None],
    [None, None, "2025", "2024", "2025", "2024"],
    ["Fixed assets"],
    ["Goodwill", "9", 4000, 4200, "-", "-"],
    ["Tangible assets", "10", 21000, 22500, 3100, 3300],
    ["Investments in subsidiaries", "11", "-", "-", 18000, 18000],
    ["Current assets"],
    ["Stocks", None, 5100, 4800, "-", "-"],
    ["Debtors", "12", 9800, 9100, 1200, 1100],
    ["Cash at bank and in hand", None, 3300, 2900, 700, 650],
    ["Creditors: amounts falling due within one year", "13", -11000, -10400, -2500, -2300],
    ["Net assets", None, 32200, 33100, 20500, 20750],
    ["Capital and reserves"],
    ["Called up share capital", "14", 5000, 5000, 5000, 5000],
    ["Share premium account", None, 2500, 2500, 2500, 2000],
    ["Profit and loss account", None, 24700, 25600, 13000, 13750],
    ["Total shareholders' funds", None, 32200, 33100, 20500, 20750],
]

#: A cash flow statement whose operating section has a lead-in heading inside it.
CASH_FLOWS: list[list[Any]] = [
    ["Consolidated statement of cash flows"],
    [None, "2025", "2024"],
    ["Cash flows from operating activities"],
    ["Profit before tax", 5200, 4700],
    ["Adjustments for:"],
    ["Depreciation", 1900, 1800],
    ["Net finance costs", 600, 650],
    ["Cash generated from operations", 7700, 7150],
    ["Income taxes paid", -1100, -950],
    ["Net cash from operating activities", 6600, 6200],
    ["Cash flows from investing activities"],
    ["Purchase of property, plant and equipment", -2400, -2100],
    ["Interest received", 90, 60],
    ["Net cash used in investing activities", -2310, -2040],
    ["Cash flows from financing activities"],
    ["Repayment of borrowings", -1500, -1200],
    ["Dividends paid", -800, -750],
    ["Net cash used in financing activities", -2300, -1950],
]

#: A charity's statement of financial activities: fund columns of the year, then the two years'.
FUNDS: list[list[Any]] = [
    ["Statement of financial activities"],
    [None, "Unrestricted funds", "Restricted funds", "Total funds 2025", "Total funds 2024"],
    ["Income from:"],
    ["Donations and legacies", 300, 200, 500, 450],
    ["Trading activities", 80, "-", 80, 75],
    ["Investments", 40, 10, 50, 45],
    ["Other income", 5, "-", 5, 4],
    ["Total income", 425, 210, 635, 574],
    ["Expenditure on:"],
    ["Raising funds", -60, -5, -65, -60],
    ["Charitable activities", -300, -190, -490, -470],
    ["Total expenditure", -360, -195, -555, -530],
]

#: A month-end balance sheet whose tax lines are named by the tax alone.
MONTH_END: list[list[Any]] = [
    ["Balance sheet"],
    [None, "31 January 2025", "28 February 2025"],
    ["Current liabilities"],
    ["Trade creditors", 9000, 9400],
    ["Accruals", 1200, 1500],
    ["VAT", 1300, 1100],
    ["Total current liabilities", 11500, 12000],
]

#: Monthly management accounts with a year-to-date column.
MONTHS: list[list[Any]] = [
    ["Profit and loss"],
    [None, "Jan-25", "Feb-25", "Mar-25", "YTD"],
    ["Sales", 1000, 1100, 1200, 3300],
    ["Staff costs", 400, 410, 420, 1230],
    ["Rent", 100, 100, 100, 300],
    ["Net profit", 500, 590, 680, 1770],
]


@pytest.fixture(scope="module")
def group_and_company(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "group_and_company", GROUP_AND_COMPANY)


@pytest.fixture(scope="module")
def cash_flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "cash_flows", CASH_FLOWS)


@pytest.fixture(scope="module")
def funds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "funds", FUNDS)


@pytest.fixture(scope="module")
def month_end(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "month_end", MONTH_END)


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "months", MONTHS)


def test_one_line_in_each_of_the_columns(group_and_company: Any, funds: Any) -> None:
    # (left to right: the group's two years, then the company's; the note column is no figure)
    question = "Give the net assets figure for each of the four columns, left to right."
    assert answered(group_and_company, question) == [32200, 33100, 20500, 20750]
    assert answered(funds, "List total income across all four columns.") == [425, 210, 635, 574]


def test_a_count_of_columns_the_table_does_not_have_is_no_list(group_and_company: Any) -> None:
    # (three columns said, four held: not read as every column)
    question = "Give the net assets figure for each of the three columns, left to right."
    from gridsight.qa import answer_question

    ans = answer_question(group_and_company, question)
    assert ans.value != [32200, 33100, 20500, 20750]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Operating cash flow in 2025?", 6600),  # (not ``Cash generated from operations``)
        ("What was the net financing cash flow in 2024?", -1950),  # (not ``Net finance costs``)
        ("Investing cash flow 2025?", -2310),
        # 6600 - 2400: the purchases deducted by their size
        (
            "Free cash flow in 2025, defined as operating cash flow less purchases of property, plant "
            "and equipment?",
            4200,
        ),
    ],
)
def test_cash_flow_sections_by_the_names_analysts_give_them(
    cash_flows: Any, question: str, expected: int
) -> None:
    assert answered(cash_flows, question) == expected


def test_what_a_list_adds_up_to(funds: Any, cash_flows: Any) -> None:
    # 50 + 80: "investment income" is ``Investments`` (its section is income), no ``Other income``
    assert answered(funds, "What did investment income and trading activities add up to in 2025?") == 130
    # 65 + 490: costs shown in brackets come to what was spent
    assert answered(funds, "What did raising funds and charitable activities come to in 2025?") == 555
    # 1500 + 800 paid out, as an amount
    assert answered(cash_flows, "Add up repayment of borrowings and dividends paid for 2024.") == 1950


def test_a_headers_initials_written_out(months: Any) -> None:
    assert answered(months, "What are staff costs year to date?") == 1230
    assert answered(months, "Rent in the year to date?") == 300


def test_one_line_the_same_in_two_columns(group_and_company: Any) -> None:
    question = "Is called up share capital the same for the group and the company in 2025?"
    assert answered(group_and_company, question) is True
    assert (
        answered(
            group_and_company, "Is the share premium account the same for the group and the company in 2024?"
        )
        is False
    )
    # (a dash is nil: 4,000 against nothing)
    assert answered(group_and_company, "Is goodwill the same for the group and the company in 2025?") is False


def test_a_word_after_a_line_qualifies_it(month_end: Any) -> None:
    # ("VAT payable" is the ``VAT`` line, not "VAT trade creditors"; "payables" alone still is)
    assert answered(month_end, "Was VAT payable bigger than accruals at 31 January 2025?") is True
    assert answered(month_end, "Was VAT payable bigger than accruals at 28 February 2025?") is False
    assert answered(month_end, "What were payables at 28 February 2025?") == 9400


#: A US balance sheet whose share lines write "$0.0001" and "10,000".
US_STYLE: list[list[Any]] = [
    ["CONSOLIDATED BALANCE SHEETS"],
    ["(in thousands, except par value)"],
    [None, "December 31,", None],
    [None, "2024", "2023"],
    ["Current liabilities:"],
    ["Accounts payable", 4600, 4300],
    ["Deferred revenue, current", 9200, 8600],
    ["Total current liabilities", 13800, 12900],
    ["Deferred revenue, non-current", 1700, 1600],
    ["Stockholders' equity:"],
    ["Preferred stock, $0.0001 par value; 10,000 shares authorized", "-", "-"],
    ["Common stock, $0.0001 par value", 108, 108],
]


@pytest.fixture(scope="module")
def us_style(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "us_style", US_STYLE)


@pytest.mark.parametrize("unit", ["($000)", "($'000)", "(in thousands of dollars)", "($ in thousands)"])
def test_a_unit_in_brackets_names_no_figure(us_style: Any, unit: str) -> None:
    # 9200 - 8600: "000" names no ``10,000 shares`` line
    question = f"Current deferred revenue: what is the change from Dec 31 2023 to Dec 31 2024 {unit}?"
    assert answered(us_style, question) == 600
    assert answered(us_style, f"What was current deferred revenue at Dec 31 2024 {unit}?") == 9200


#: Shares of each region's households by tenure, with the whole in the last column.
TENURE: list[list[Any]] = [
    ["Households by tenure (percentage)"],
    ["Region", "Owned", "Social rented", "Private rented", "All tenures"],
    ["Northland", 61.5, 16.7, 21.8, 100],
    ["Southmere", 58.2, 15.1, 26.7, 100],
]


@pytest.fixture(scope="module")
def tenure(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "tenure", TENURE)


def test_each_column_but_the_total(tenure: Any) -> None:
    question = "Give the breakdown for Southmere in the order of the columns (exclude the total column)."
    assert answered(tenure, question) == [58.2, 15.1, 26.7]
    assert answered(tenure, "Give Northland's figures for each of the four columns.") == [
        61.5,
        16.7,
        21.8,
        100,
    ]


#: Monthly results that name the profit only.
MONTHLY_RESULTS: list[list[Any]] = [
    ["Profit and loss"],
    [None, "Jan-25", "Feb-25", "Mar-25", "Apr-25"],
    ["Sales", 1000, 900, 1200, 800],
    ["Costs", 950, 980, 1000, 820],
    ["Net profit", 50, -80, 200, -20],
]


@pytest.fixture(scope="module")
def monthly_results(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "monthly_results", MONTHLY_RESULTS)


def test_a_loss_is_the_profit_below_nought(monthly_results: Any) -> None:
    assert answered(monthly_results, "In how many months was there a net loss?") == 2  # Feb, Apr
    assert answered(monthly_results, "Which months made a net loss?") == ["Feb-25", "Apr-25"]


def test_two_names_offered_with_a_slash(group_and_company: Any) -> None:
    # ("fixed/non-current": the table writes ``Fixed assets``; 21000 is the largest of its lines)
    question = "Largest fixed/non-current asset line for the group in 2025?"
    assert answered(group_and_company, question) == "Tangible assets"


@pytest.mark.parametrize(
    "question",
    [
        "What did and and and add up to?",
        "Give the net assets figure for each of the 0 columns.",
        "Give the net assets figure for each of the 99999999999999999999 columns.",
        "Was more than twice than?",
        "Is the same for the and the in 2025?",
        "a/b/c/d/e/f/g/h fixed/non-current/current/fixed asset line?",
        "What were accruals (((($000)))) (£m) ()?",
        "In how many months was there a net loss " + "and a loss " * 200 + "?",
        "year to date " * 300,
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(
    group_and_company: Any, monthly_results: Any, question: str
) -> None:
    for book in (group_and_company, monthly_results):
        answers_or_says_why(book, question)

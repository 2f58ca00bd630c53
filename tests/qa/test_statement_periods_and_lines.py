"""Statements whose periods run from one date to another, whose lines hold hyphens and whose
quarters stand beside the full year; questions that leave lines out of a ranking. The figures are
made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

PREVIOUS = "Previous fiscal year (From April 1, 2023 to March 31, 2024)"
CURRENT = "Current fiscal year (From April 1, 2024 to March 31, 2025)"

INCOME: list[list[Any]] = [
    ["Consolidated Statements of Income"],
    ["(Millions of yen)", PREVIOUS, CURRENT],
    ["Net sales", 1000, 1100],
    ["Operating profit", 120, 90],
    ["Non-operating income", None, None],
    ["Interest income", 4, 6],
    ["Dividend income", 9, 12],
    ["Other", 15, 20],
    ["Total non-operating income", 28, 38],
    ["Ordinary profit", 148, 128],
    ["Profit before income taxes", 148, 128],
    ["Income taxes - current", 50, 45],
    ["Income taxes - deferred", -8, -3],
    ["Total income taxes", 42, 42],
    ["Profit", 106, 86],
]

FLOWS: list[list[Any]] = [
    ["Consolidated Statements of Cash Flows"],
    ["", "Year Ended December 31,", None, None],
    ["", "2025", "2024", "2023"],
    ["Cash flows from operating activities:", None, None, None],
    ["Net income", 500, 450, 400],
    ["Depreciation and amortization", 100, 90, 80],
    ["Net cash provided by operating activities", 600, 540, 700],
    ["Cash flows from investing activities:", None, None, None],
    ["Purchases of property and equipment", -300, -200, -250],
    ["Net cash used in investing activities", -300, -200, -250],
    ["Cash and cash equivalents at end of period", 900, 800, 750],
    ["Cash paid for interest", 30, 35, 20],
]

_QUARTERS = ["", "Q1 FY{y}", "Q2 FY{y}", "Q3 FY{y}", "Q4 FY{y}", "FY{y}"]


def _block(year: int, revenue: list[int], income: list[int]) -> list[list[Any]]:
    short = str(year)[2:]
    return [
        ["", f"Fiscal {year} (fiscal year ended January 31, {year})", None, None, None, None],
        [q.format(y=short) for q in _QUARTERS],
        ["Total revenue", *revenue, sum(revenue)],
        ["Cost of revenue", *(r // 4 for r in revenue), sum(r // 4 for r in revenue)],
        ["Gross profit", *(r - r // 4 for r in revenue), sum(r - r // 4 for r in revenue)],
        ["Operating expenses", *(r - r // 4 - i for r, i in zip(revenue, income, strict=True)), None],
        ["Operating income (loss)", *income, sum(income)],
        ["Net income (loss)", *(i - 1 for i in income), sum(i - 1 for i in income)],
    ]


QUARTERLY: list[list[Any]] = [
    ["Northwind Software Corp."],
    ["Condensed Statements of Operations - Quarterly"],
    ["(in thousands of U.S. dollars)"],
    [None],
    *_block(2025, [90, 95, 120, 110], [5, -2, 14, 9]),
    [None],
    *_block(2024, [80, 85, 88, 91], [3, 4, 6, 7]),
]


US_INCOME: list[list[Any]] = [
    ["Consolidated Statements of Income"],
    ["", "Year Ended December 31,", None, None],
    ["", "2025", "2024", "2023"],
    ["Revenues:", None, None, None],
    ["Products", 300, 280, 260],
    ["Services", 200, 190, 150],
    ["Total revenues", 500, 470, 410],
    ["Costs and expenses:", None, None, None],
    ["Cost of revenues", 200, 190, 170],
    ["Research and development", 80, 70, 60],
    ["Sales and marketing", 60, 65, 50],
    ["General and administrative", 30, 28, 25],
    ["Total costs and expenses", 370, 353, 305],
    ["Operating income", 130, 117, 105],
    ["Other income (expense), net", -5, 9, -1],
    ["Net income", 125, 126, 104],
]

BANK: list[list[Any]] = [
    ["Income statement"],
    ["", "2025 £m", "2024 £m"],
    ["Interest income", 800, 790],
    ["Interest expense", -300, -280],
    ["Net interest income", 500, 510],
    ["Net operating income", 500, 510],
    ["Staff costs", -150, -170],
    ["Administrative expenses", -90, -95],
    ["Depreciation", -20, -25],
    ["Operating expenses", -260, -290],
    ["Operating profit", 240, 220],
    ["Tax", -60, -55],
    ["Profit after tax", 180, 165],
]

IFRS: list[list[Any]] = [
    ["Income statement"],
    ["", "2025 €m", "2024 €m"],
    ["Revenue", 1000, 900],
    ["Cost of sales", -600, -560],
    ["Gross profit", 400, 340],
    ["Distribution costs", -90, -80],
    ["Administrative expenses", -120, -100],
    ["Other operating income", 15, 10],
    ["Other operating expenses", -5, -20],
    ["Operating profit", 200, 150],
    ["Finance costs", -250, -30],
    ["Profit before tax", -50, 120],
]


@pytest.fixture(scope="module")
def us_income(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "us_income.xlsx", US_INCOME, merges=("B2:D2",))


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "bank.xlsx", BANK)


@pytest.fixture(scope="module")
def ifrs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "ifrs.xlsx", IFRS)


@pytest.fixture(scope="module")
def income(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "income.xlsx", INCOME)


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "flows.xlsx", FLOWS, merges=("B2:D2",))


@pytest.fixture(scope="module")
def quarterly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "quarterly.xlsx", QUARTERLY, merges=("B5:F5", "B14:F14"))


def test_a_year_from_one_date_to_another_is_named_by_the_day_that_closes_it(income: Any) -> None:
    # ordinary profit 128 against operating profit 90 in the year to March 31, 2025
    asked = "In the fiscal year ended March 31, 2025, did ordinary profit exceed operating profit?"
    assert answered(income, asked) is True
    assert answered(income, "What was net sales in the fiscal year ended March 31, 2024?") == 1000


def test_a_year_named_by_the_month_it_ends(income: Any) -> None:
    # net sales 1000 in the year to March 2024, 1100 in the year to March 2025
    asked = (
        "How much did net sales grow in percent terms from the year to March 2024 to the year to March 2025?"
    )
    assert answered(income, asked) == pytest.approx(10.0)


def test_the_day_of_a_date_written_whole_is_no_number(tmp_path_factory: pytest.TempPathFactory) -> None:
    # the note number 30 beside a line is no "30" the question names: "30 June" is a day
    rows: list[list[Any]] = [
        ["Consolidated statement of cash flows"],
        [None, "Note", "2025", "2024"],
        ["Receipts from customers", None, 366451, 338799],
        ["Net cash from operating activities", 30, 52860, 84631],
        ["Net cash used in investing activities", None, -42845, -14903],
    ]
    book = book_of(tmp_path_factory, "days.xlsx", rows)
    asked = (
        "How much did net cash from operating activities change in percent terms from the year ended "
        "30 June 2024 to the year ended 30 June 2025?"
    )
    assert answered(book, asked) == pytest.approx(100 * (52860 - 84631) / 84631)


def test_a_hyphen_inside_a_label_is_no_minus(income: Any) -> None:
    # 50 + (-8): both lines as shown, as ``Total income taxes`` adds them (42), not 50 - 8 or 50 + 8
    asked = (
        "Add income taxes - current and income taxes - deferred for the fiscal year ended March 31, 2024. "
        "What is the total?"
    )
    assert answered(income, asked) == 42


def test_a_line_left_out_by_name_is_not_ranked(income: Any) -> None:
    # ``Other`` (20) is the largest non-operating income line; left out, ``Dividend income`` (12) is
    asked = (
        "In the fiscal year ended March 31, 2025, which non-operating income item (excluding 'Other' "
        "and the total) had the highest amount?"
    )
    assert answered(income, asked) == "Dividend income"
    asked = "In the fiscal year ended March 31, 2025, which non-operating income item had the highest amount?"
    assert answered(income, asked) == "Other"


def test_a_line_named_by_another_form_of_its_words(flows: Any) -> None:
    # "operations" names ``... operating activities``; 700 in 2023 is the highest
    assert answered(flows, "Which year recorded the highest cash from operations?") == "2023"


def test_which_quarter_chooses_among_the_quarters_not_the_full_year(quarterly: Any) -> None:
    # Q3 FY25 (120) is the largest quarter; the full year (415) is no quarter
    assert answered(quarterly, "Which quarter shows the largest total revenue in fiscal 2025?") == "Q3 FY25"


def test_the_quarters_of_a_year_in_order(quarterly: Any) -> None:
    assert answered(quarterly, "Give the quarterly revenue figures for fiscal 2025 (Q1 first).") == [
        90,
        95,
        120,
        110,
    ]


def test_an_untitled_block_under_a_titled_one_is_the_same_company(quarterly: Any) -> None:
    # the fiscal 2024 block has no title of its own: the company's name above the 2025 block is its too
    asked = "What amount did Northwind Software Corp. report for operating income (loss) in fiscal year 2024?"
    assert answered(quarterly, asked) == 20


def test_the_lines_of_a_section_whose_name_holds_the_words_asked(us_income: Any) -> None:
    # under ``Costs and expenses:``, only ``Sales and marketing`` fell (65 -> 60); the dates are the
    # header's, its day in one part and its years in the next
    asked = (
        "Which of the individual expense lines declined between the year ended December 31, 2024 and "
        "the year ended December 31, 2025?"
    )
    assert answered(us_income, asked) == ["Sales and marketing"]


def test_the_lines_an_unmarked_subtotal_adds_up(bank: Any) -> None:
    # ``Operating expenses`` (-290) adds the three lines above it; the largest of them by size is
    # ``Staff costs`` (-170), not ``Depreciation`` (-25), the greatest as a signed number
    assert answered(bank, "Which operating expense line was the largest in 2024?") == "Staff costs"
    assert answered(bank, "Which operating expense line was the smallest in 2025?") == "Depreciation"


def test_the_lines_below_a_line_up_to_the_one_that_adds_them_to_it(ifrs: Any) -> None:
    # below ``Gross profit`` (400): -90, -120, +15, -5 make ``Operating profit`` (200); ``Finance
    # costs`` (-250) is below it, not among them
    asked = (
        "Looking at 2025, which operating expense line below gross profit was highest (by absolute amount)?"
    )
    assert answered(ifrs, asked) == "Administrative expenses"


@pytest.mark.parametrize(
    "question",
    [
        "Which non-operating income item (excluding) had the highest amount?",
        "Which non-operating income item (excluding 'Nothing like it' and the total) was highest?",
        "Which item (excluding 'Other', 'Other' and the total) was lowest in the year to March 31, 2025?",
        "Give the quarterly figures (Q1 first).",
        "Which quarter?",
    ],
)
def test_broken_questions_get_an_answer_or_a_reason(income: Any, quarterly: Any, question: str) -> None:
    answers_or_says_why(income, question)
    answers_or_says_why(quarterly, question)

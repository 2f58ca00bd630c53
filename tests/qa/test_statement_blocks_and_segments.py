"""Interim periods, months stored as dates, segments side by side beside their total, a statement's
years in blocks one under another, and a German HGB income statement in thousands of euros. The
figures are made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

INTERIM: list[list[Any]] = [
    ["Altamira Devices, Inc."],
    ["Condensed Consolidated Statements of Operations (Unaudited)"],
    [None, "Three Months Ended September 30,", None, "Nine Months Ended September 30,", None],
    [None, "2025", "2024", "2025", "2024"],
    ["Revenue", 540.0, 500.0, 1560.0, 1450.0],
    ["Gross profit", 310.0, 280.0, 890.0, 820.0],
    ["Operating expenses:", None, None, None, None],
    ["Research and development", 61.0, 55.0, 179.0, 160.0],
    ["Sales and marketing", 72.0, 70.0, 215.0, 207.0],
    ["General and administrative", 33.0, 32.0, 99.0, 94.0],
    ["Total operating expenses", 166.0, 157.0, 493.0, 461.0],
    ["Operating income", 144.0, 123.0, 397.0, 359.0],
]

MONTHS: list[list[Any]] = [
    ["Monthly profit and loss account 2025"],
    [None, *(dt.datetime(2025, m, 1) for m in range(1, 7)), "H1 2025"],
    ["Revenue", 180, 175, 198, 205, 212, 220, 1190],
    ["EBITDA", -4, 6, 20, 18, 25, 31, 96],
]

SEGMENTS: list[list[Any]] = [
    ["Segment results"],
    [None, "North America", "Europe", "Asia Pacific", "Total segments", "Corporate", "Group"],
    ["Revenue", 2400, 1800, 900, 5100, 0, 5100],
    ["Adjusted EBITDA", 500, 300, 90, 890, -40, 850],
    ["Capital expenditure", 150, 120, 70, 340, 12, 352],
]

BLOCKS: list[list[Any]] = [
    ["Note 4 - Segment information"],
    ["Year ended December 31, 2025"],
    [None, "Consumer", "Professional", "Industrial", "Consolidated"],
    ["Total revenue", 3100, 3400, 2800, 9300],
    ["Operating profit", 490, 120, 320, 930],
    [None],
    ["Year ended December 31, 2024"],
    [None, "Consumer", "Professional", "Industrial", "Consolidated"],
    ["Total revenue", 3200, 3800, 3000, 10000],
    ["Operating profit", 580, 160, 350, 1090],
]

GUV: list[list[Any]] = [
    ["Gewinn- und Verlustrechnung"],
    [None, "2025 TEUR", "2024 TEUR"],
    ["1. Umsatzerlöse", 48210, 45390],
    ["2. Materialaufwand", -22180, -20800],
    ["3. Personalaufwand", -13620, -12860],
    ["a) Löhne und Gehälter", -11240, -10610],
    ["b) Soziale Abgaben", -2380, -2250],
    ["4. Jahresüberschuss", 12410, 11730],
]

FLOWS: list[list[Any]] = [
    ["Consolidated statement of cash flows"],
    [None, "2025 US$m", "2024 US$m"],
    ["Cash flows from operating activities", None, None],
    ["Receipts from customers", 2450.0, 2210.0],
    ["Payments to suppliers", -1610.0, -1500.0],
    ["Net cash from operating activities", 840.0, 710.0],
    ["Cash flows from investing activities", None, None],
    ["Purchase of property, plant and equipment", -420.0, -388.0],
    ["Exploration expenditure", -85.0, -97.0],
    ["Proceeds from sale of equipment", 12.0, 430.0],
    ["Net cash used in investing activities", -493.0, -55.0],
]


PDF_INCOME: list[list[Any]] = [
    ["CONSOLIDATED STATEMENTS OF INCOME"],
    ["(In thousands)"],
    [None, None, "Fiscal Year Ended", None, None, None, None],
    [None, None, "2025", None, "2024", None, "2023"],
    ["Net sales", "$", "2,210,455", "$", "1,980,230", "$", "1,760,112"],
    ["Selling, general and administrative expenses", None, "560,300", None, "512,870", None, "470,010"],
    ["Operating income", None, "268,525", None, "219,239", None, "172,798"],
    ["Interest expense, net", None, "14,210", None, "9,870", None, "10,412"],
    ["Other income (expense), net", None, "(2,340)", None, "1,210", None, "—"],
    ["Net income", "$", "193,765", "$", "158,379", "$", "118,286"],
]

EQUITY: list[list[Any]] = [
    ["Consolidated statement of changes in equity"],
    [
        None,
        "Share capital",
        "Share premium",
        "Other reserves",
        "Retained earnings",
        "Total",
        "Non-controlling interests",
    ],
    [None, "£m", "£m", "£m", "£m", "£m", "£m"],
    ["At 1 April 2024", 50, 210, 22, 1311, 1593, 43],
    ["Profit for the year", 0, 0, 0, 205, 205, 7],
    ["Other comprehensive income", 0, 0, 15, -6, 9, 0],
    ["Dividends", 0, 0, 0, -98, -98, -4],
    ["Issue of shares", 2, 18, 0, 0, 20, 0],
    ["At 31 March 2025", 52, 228, 37, 1412, 1729, 46],
]


@pytest.fixture(scope="module")
def pdf_income(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "pdf_income.xlsx", PDF_INCOME, merges=("C3:G3",))


@pytest.fixture(scope="module")
def equity(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "equity.xlsx", EQUITY)


@pytest.fixture(scope="module")
def interim(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "interim.xlsx", INTERIM, merges=("B3:C3", "D3:E3"))


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "months.xlsx", MONTHS)


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "segments.xlsx", SEGMENTS)


@pytest.fixture(scope="module")
def blocks(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "blocks.xlsx", BLOCKS)


@pytest.fixture(scope="module")
def guv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "guv.xlsx", GUV)


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "flows.xlsx", FLOWS)


def test_a_quarter_said_in_words_names_the_three_months_ended_column(interim: Any) -> None:
    asked = (
        "By how much did research and development grow in the third quarter of 2025 compared with the "
        "third quarter of 2024?"
    )
    assert answered(interim, asked) == pytest.approx(6.0)


def test_the_first_nine_months_is_a_period_not_nine_rows(interim: Any) -> None:
    asked = "Which operating expense was largest in the nine months ended September 30, 2024?"
    assert answered(interim, asked) == "Sales and marketing"
    asked = "What was the gross margin for the first nine months of 2025, in percent?"
    assert answered(interim, asked) == pytest.approx(100 * 890 / 1560)


def test_months_stored_as_dates(months: Any) -> None:
    # Q2 is April to June: 205 + 212 + 220
    assert answered(months, "What was total revenue for Q2 2025?") == 637
    assert answered(months, "What was the average monthly EBITDA in 2025?") == pytest.approx(96 / 6)
    assert answered(months, "In how many months was EBITDA negative?") == 1


def test_the_segments_are_the_columns_their_total_adds_up(segments: Any) -> None:
    # ``Corporate`` stands beside ``Total segments``, which adds up the three segments only
    assert answered(segments, "Which segment had the highest revenue?") == "North America"
    assert answered(segments, "Which segment had the lowest capital expenditure?") == "Asia Pacific"
    assert answered(segments, "How many segments had adjusted EBITDA above 100?") == 2


def test_a_statements_years_in_blocks_are_read_together(blocks: Any) -> None:
    asked = "How much did Industrial's total revenue change from 2024 to 2025?"
    assert answered(blocks, asked) == -200
    asked = "In 2024, which segment (Consumer, Professional or Industrial) had the largest total revenue?"
    assert answered(blocks, asked) == "Professional"
    asked = "What was Consumer's operating profit as a percentage of its total revenue in 2025?"
    assert answered(blocks, asked) == pytest.approx(100 * 490 / 3100)


def test_periods_in_thousands_of_euros_and_numbered_lines(guv: Any) -> None:
    assert answered(guv, "By how much did Personalaufwand change from 2024 to 2025?") == -760
    assert answered(guv, "What were Löhne und Gehälter in 2025?") == -11240


def test_an_outflow_is_ranked_among_the_lines_paid_out(flows: Any) -> None:
    # the largest line in 2024 is the proceeds (430); the largest outflow is the purchases (-388)
    asked = "Which investing line was the largest cash outflow in 2024?"
    assert answered(flows, asked) == "Purchase of property, plant and equipment"


def test_a_line_shown_negative_is_deducted_by_its_size(flows: Any) -> None:
    asked = (
        "What was free cash flow in 2025, net cash from operating activities less purchase of property, "
        "plant and equipment?"
    )
    assert answered(flows, asked) == pytest.approx(420.0)


def test_an_initialism_beside_a_line_named_in_full(pdf_income: Any) -> None:
    # "SG&A" is ``Selling, general and administrative expenses``; the "net" of "net sales" names no
    # ``Interest expense, net``
    asked = "What were SG&A expenses as a percentage of net sales in 2023?"
    assert answered(pdf_income, asked) == pytest.approx(100 * 470010 / 1760112)


def test_a_sign_asked_of_a_label_with_a_comma(pdf_income: Any) -> None:
    # ``(2,340)`` is negative
    assert answered(pdf_income, "Was other income (expense), net negative in 2025?") is True
    assert answered(pdf_income, "Was other income (expense), net positive in 2024?") is True


def test_the_largest_of_a_line_shown_negative_is_the_largest_in_size(flows: Any) -> None:
    # purchases -420 in 2025 and -388 in 2024: 2025's are the largest
    assert answered(flows, "In which year were purchases of property, plant and equipment largest?") == "2025"


def test_the_reserve_columns_a_total_column_adds_up(equity: Any) -> None:
    # ``Total`` adds up the four capital and reserve columns (under a row of units); not NCI
    asked = "Which reserve column (excluding totals and NCI) had the highest balance at 31 March 2025?"
    assert answered(equity, asked) == "Retained earnings"
    asked = "Which capital or reserve column had the lowest balance at 31 March 2025?"
    assert answered(equity, asked) == "Other reserves"


def test_halves_named_beside_a_percent_change_column(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows: list[list[Any]] = [
        ["Condensed consolidated income statement"],
        [None, "Six months ended", "Six months ended", "% change"],
        [None, "30 June 2025", "30 June 2024", "H1 on H1"],
        ["Revenue", 1660.0, 1671.0, -0.007],
        ["Research and development expenses", -302.2, -265.9, 0.137],
        ["Operating profit", 461.2, 431.2, 0.07],
    ]
    book = book_of(tmp_path_factory, "halves.xlsx", rows)
    asked = (
        "How much did research and development expenses increase from H1 2024 to H1 2025, comparing "
        "absolute amounts?"
    )
    assert answered(book, asked) == pytest.approx(36.3)
    asked = (
        "By what percentage did R&D expenses change from the first half of 2024 to the first half of "
        "2025, comparing absolute amounts?"
    )
    assert answered(book, asked) == pytest.approx(100 * 36.3 / 265.9)


def test_fiscal_years_told_apart_by_their_year_alone(tmp_path_factory: pytest.TempPathFactory) -> None:
    # ``Fiscal 2024 › (52 weeks)`` beside ``Fiscal 2023 › (53 weeks)``: two parts apart, a year each
    rows: list[list[Any]] = [
        ["CONSOLIDATED STATEMENTS OF INCOME"],
        [None, "Fiscal 2024", "Fiscal 2023", "Fiscal 2022"],
        [None, "(52 weeks)", "(53 weeks)", "(52 weeks)"],
        ["Net sales", 1864311, 1662868, 1415452],
        ["Selling, general and administrative expenses", 440455, 419273, 354177],
        ["Operating income", 173925, 212195, 138817],
    ]
    book = book_of(tmp_path_factory, "fiscal.xlsx", rows)
    asked = "How much did SG&A expenses increase from fiscal 2023 to fiscal 2024?"
    assert answered(book, asked) == 440455 - 419273


def test_measures_of_records_are_no_entities(tmp_path_factory: pytest.TempPathFactory) -> None:
    # beds + operating rooms = total, but each row is a hospital with its city: rows are counted
    rows: list[list[Any]] = [["Name", "City", "Hospital beds", "Operating rooms", "Total"]]
    rows += [[f"Hospital {i}", f"Town {i % 3}", 20 + 7 * i, i % 14, 20 + 7 * i + i % 14] for i in range(30)]
    book = book_of(tmp_path_factory, "hospitals.xlsx", rows)
    assert answered(book, "How many hospitals have at least 10 operating rooms?") == sum(
        1 for i in range(30) if i % 14 >= 10
    )


@pytest.mark.parametrize(
    "question",
    [
        "Which segment had the highest?",
        "How many segments?",
        "What was total revenue for Q5 2025?",
        "Which investing line was the largest cash outflow in 1999?",
        "By how much did change from 2024 to 2025?",
    ],
)
def test_broken_questions_get_an_answer_or_a_reason(
    segments: Any, blocks: Any, flows: Any, question: str
) -> None:
    for book in (segments, blocks, flows):
        answers_or_says_why(book, question)

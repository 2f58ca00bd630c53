"""A month-by-month sales list asked the way people ask: several months listed or spanned ("from
October to December", "between April and June"), the units sold with no month named, and one column
over another ("revenue per unit"); and a balance sheet asked by its company's name in the possessive
("Brightfield's largest current liability"), and a quarter's last day over quarter columns
("as of September 30, 2024" is Q3 2024). The figures are made up; each answer is worked out by
hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: Units and revenue by month.
MONTHS: list[list[Any]] = [
    ["Month", "Units", "Revenue"],
    ["Jan", 100, 5000],
    ["Feb", 120, 6600],
    ["Mar", 90, 4500],
    ["Apr", 200, 9000],
    ["May", 150, 7800],
    ["Jun", 110, 5500],
    ["Jul", 130, 6500],
    ["Aug", 80, 4000],
    ["Sep", 95, 4750],
    ["Oct", 140, 7000],
    ["Nov", 160, 8800],
    ["Dec", 210, 12600],
]

#: A small balance sheet under its company's name.
SHEET: list[list[Any]] = [
    ["Brightfield Tools plc"],
    ["Balance sheet"],
    ["in thousands of EUR"],
    [None, "2023", "2024"],
    ["Current assets", None, None],
    ["Cash", 400, 520],
    ["Trade receivables", 310, 290],
    ["Inventories", 220, 260],
    ["Total current assets", 930, 1070],
    ["Current liabilities", None, None],
    ["Trade payables", 180, 240],
    ["Short-term borrowings", 260, 150],
    ["Accrued expenses", 90, 95],
    ["Total current liabilities", 530, 485],
]


#: Quarter columns under their year.
QUARTERS: list[list[Any]] = [
    ["Lumen Freight Ltd"],
    ["Balance sheet"],
    [None, "2024", None, None, None],
    [None, "Q1", "Q2", "Q3", "Q4"],
    ["Cash", 100, 120, 140, 160],
    ["Receivables", 300, 310, 320, 330],
    ["Total current assets", 400, 430, 460, 490],
]


#: Units by region and product, a column per quarter.
BY_QUARTER: list[list[Any]] = [
    ["Region", "Product", "Q1", "Q2", "Q3", "Q4"],
    ["North", "Basic", 10, 20, 30, 40],
    ["North", "Pro", 5, 5, 5, 5],
    ["South", "Basic", 7, 8, 9, 10],
    ["South", "Pro", 1, 2, 3, 4],
]


@pytest.fixture(scope="module")
def by_quarter(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "by_quarter", BY_QUARTER)


def test_the_full_year_adds_up_the_quarter_columns(by_quarter: Any) -> None:
    # North: 100 (Basic) + 20 (Pro)
    assert answered(by_quarter, "What were North's total unit sales for the full year?") == 120
    # South, Pro: 1 + 2 + 3 + 4
    assert answered(by_quarter, "How many Pro units did South sell across all four quarters?") == 10


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "quarters", QUARTERS, merges=("B3:E3",))


def test_a_quarter_end_day_is_its_quarter_column(quarters: Any) -> None:
    # September 30 closes Q3; March 31 closes Q1
    assert answered(quarters, "What were receivables as of September 30, 2024?") == 320
    assert answered(quarters, "How much cash was there at 31 March 2024?") == 100
    assert answered(quarters, "What was cash at the close of the fourth quarter of 2024?") == 160


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "months", MONTHS)


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "brightfield", SHEET)


def test_months_listed_or_spanned_are_all_taken(months: Any) -> None:
    # Oct + Nov + Dec: 140 + 160 + 210
    assert answered(months, "How many units were sold from October to December?") == 510
    assert answered(months, "How many units were sold in October, November and December?") == 510
    # Apr + May + Jun: 9000 + 7800 + 5500
    assert answered(months, "What was the total revenue between April and June?") == 22300


def test_months_offered_as_a_choice_stay_apart(months: Any) -> None:
    # April sold 200 units, May 150
    assert answered(months, "Which month sold more units, April or May?") == "Apr"


def test_one_column_over_another_named_by_its_first_word(tmp_path_factory: pytest.TempPathFactory) -> None:
    sold = book_of(
        tmp_path_factory,
        "sold",
        [["Month", "Units sold", "Revenue (USD)"], ["January", 40, 1000], ["February", 50, 1500]],
    )
    # February: 1500 / 50
    assert answered(sold, "What was revenue per unit in February?") == pytest.approx(30)


def test_the_units_sold_and_one_column_over_another(months: Any) -> None:
    # every month's units: 1585
    assert answered(months, "How many units were sold?") == 1585
    # March: 4500 / 90
    assert answered(months, "What was revenue per unit in March?") == pytest.approx(50)
    # Oct to Dec: (7000 + 8800 + 12600) / 510
    assert answered(months, "What was the revenue per unit from October to December?") == pytest.approx(
        28400 / 510
    )


def test_the_company_named_in_the_possessive_is_the_table(sheet: Any) -> None:
    # the current liabilities of 2024: payables 240, borrowings 150, accrued 95
    assert (
        answered(sheet, "What was Brightfield's largest current liability item in 2024?") == "Trade payables"
    )
    assert answered(sheet, "What was Brightfield's smallest current asset in 2023?") == "Inventories"


def test_odd_lists_and_owners_get_an_answer_or_a_reason(months: Any, sheet: Any) -> None:
    answers_or_says_why(months, "How many units were sold from Smarch to Octember?")
    answers_or_says_why(months, "What was revenue per per unit in, and, or March?")
    answers_or_says_why(sheet, "What was Nobody's Brightfield's largest's item?")

"""A five-year summary headed by fiscal years, a budget-versus-actual report, a statement of
activities and a statement of changes in equity: questions over all the years, year on year, shares
of a whole and movements between balances. The figures are made up; each answer is worked out by
hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

FIVE_YEARS: list[list[Any]] = [
    ["Kestrel Engineering plc"],
    ["Five-year financial summary"],
    [None, "FY21", "FY22", "FY23", "FY24", "FY25"],
    ["Income statement (£m)", None, None, None, None, None],
    ["Revenue", 600.0, 620.0, 650.0, 700.0, 680.0],
    ["Gross profit", 240.0, 250.0, 255.0, 280.0, 290.0],
    ["Profit before tax", 60.0, 55.0, 50.0, 70.0, 75.0],
    ["Cash flow (£m)", None, None, None, None, None],
    ["Capital expenditure", -40.0, -30.0, -20.0, -50.0, -25.0],
    ["Free cash flow", 80.0, 50.0, 95.0, 34.0, 110.0],
    ["Balance sheet (£m)", None, None, None, None, None],
    ["Net debt", 160.0, 130.0, 150.0, 147.0, 159.0],
    ["Total equity", 500.0, 380.0, 450.0, 430.0, 420.0],
    ["Other", None, None, None, None, None],
    ["Average number of employees", 6800, 8100, 8800, 8700, 7200],
]

MONTHS: list[list[Any]] = [
    ["Management accounts - profit and loss account"],
    ["£", "Jan-25", "Feb-25", "Mar-25", "Apr-25", "May-25", "Jun-25"],
    ["Revenue", 150, 170, 210, 212, 227, 235],
    ["Gross profit", 90, 100, 120, 130, 144, 147],
    ["Total overheads", 95, 108, 98, 112, 96, 108],
    ["EBITDA", -5, -8, 22, 18, 48, 39],
]

BUDGET: list[list[Any]] = [
    ["Budget vs actual - December 2025"],
    [None, "Month - December 2025", None, None, "Year to date", None, None],
    [None, "Actual", "Budget", "Variance fav/(adv)", "Actual", "Budget", "Variance fav/(adv)"],
    ["Revenue", 300, 290, 10, 2800, 2700, 100],
    ["Gross profit", 175, 170, 5, 1680, 1600, 80],
    ["Total overheads", 98, 100, 2, 1240, 1200, -40],
    ["EBITDA", 77, 70, 7, 440, 400, 40],
]

INCOME: list[list[Any]] = [
    ["Consolidated income statement"],
    ["", "2025 £m", "2024 £m"],
    ["Revenue", None, None],
    ["Electricity sales", 450.0, 455.0],
    ["Gas sales", 180.0, 190.0],
    ["Total revenue", 630.0, 645.0],
    ["Operating profit", 100.0, 150.0],
    ["Profit after tax", 80.0, 90.0],
    ["Attributable to:", None, None],
    ["Ordinary shareholders", 72.0, 81.0],
    ["Non-controlling interests", 8.0, 9.0],
]

ACTIVITIES: list[list[Any]] = [
    ["Statement of Activities"],
    [None, "Without Donor Restrictions", "With Donor Restrictions", "Total"],
    ["REVENUE AND SUPPORT", None, None, None],
    ["Contributions", 2000, 900, 2900],
    ["Grants", 800, 500, 1300],
    ["Net assets released from restrictions", 700, -700, 0],
    ["Total revenue and support", 3500, 700, 4200],
    ["EXPENSES", None, None, None],
    ["Program services:", None, None, None],
    ["Literacy programs", 1700, 0, 1700],
    ["Early childhood education", 2100, 0, 2100],
    ["Community libraries", 1800, 0, 1800],
    ["Total program services", 5600, 0, 5600],
    ["CHANGE IN NET ASSETS", -2100, 700, -1400],
    ["NET ASSETS, BEGINNING OF YEAR", 9000, 3100, 12100],
    ["NET ASSETS, END OF YEAR", 6900, 3800, 10700],
]

EQUITY: list[list[Any]] = [
    ["Consolidated statement of changes in equity"],
    [None, "Share capital", "Translation reserve", "Retained earnings", "Total equity"],
    ["Balance at 1 January 2024", 77, 49, 3350, 3476],
    ["Profit for the year", 0, 0, 331, 331],
    ["Other comprehensive income", 0, -47, 25, -22],
    ["Dividends", 0, 0, -179, -179],
    ["Balance at 31 December 2024", 77, 2, 3527, 3606],
    ["Profit for the year", 0, 0, 308, 308],
    ["Other comprehensive income", 0, -61, -16, -77],
    ["Dividends", 0, 0, -155, -155],
    ["Balance at 31 December 2025", 77, -59, 3664, 3682],
]


@pytest.fixture(scope="module")
def five_years(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "five_years.xlsx", FIVE_YEARS)


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "months.xlsx", MONTHS)


@pytest.fixture(scope="module")
def budget(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "budget.xlsx", BUDGET, merges=("B2:D2", "E2:G2"))


@pytest.fixture(scope="module")
def income(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "income.xlsx", INCOME)


@pytest.fixture(scope="module")
def activities(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "activities.xlsx", ACTIVITIES)


@pytest.fixture(scope="module")
def equity(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "equity.xlsx", EQUITY)


def test_a_fiscal_year_heading_answers_which_year(five_years: Any) -> None:
    # ``FY25`` is a year, as a question asking "which year" takes it; "peak" is the highest
    assert answered(five_years, "In which year did free cash flow peak?") == "FY25"
    assert answered(five_years, "Which year had the lowest average number of employees?") == "FY21"


def test_every_year_of_the_table_and_a_span_of_them(five_years: Any) -> None:
    # (600 + 620 + 650 + 700 + 680) / 5; -40 - 30 - 20 - 50 - 25 as a positive number
    assert answered(five_years, "What was the average revenue across the five years shown?") == pytest.approx(
        650
    )
    asked = "What was total capital expenditure over FY21 to FY25, as a positive number?"
    assert answered(five_years, asked) == pytest.approx(165)


def test_give_a_positive_number_asks_the_size(five_years: Any) -> None:
    asked = (
        "What was total capital expenditure over the last three years shown (FY23, FY24, FY25)? "
        "Give a positive number."
    )
    assert answered(five_years, asked) == pytest.approx(95)


def test_a_label_that_says_total_is_no_sum_of_a_span(five_years: Any) -> None:
    # ``Total equity`` from FY21 (500) to FY25 (420): two ends, not the years between added up
    assert answered(five_years, "By how much did total equity change from FY21 to FY25?") == pytest.approx(
        -80
    )


def test_the_years_a_line_fell_against_the_year_before(five_years: Any) -> None:
    # profit before tax: 60, 55, 50, 70, 75 -- fell in FY22 and FY23
    asked = "List the years in which profit before tax fell compared with the previous year."
    assert answered(five_years, asked) == ["FY22", "FY23"]
    asked = "In how many years did gross profit rise compared with the prior year?"
    assert answered(five_years, asked) == 4


def test_a_rise_runs_from_the_earlier_year_whichever_is_named_first(five_years: Any) -> None:
    # net debt 147 in FY24, 159 in FY25: it rose; "higher in FY24 than in FY25" keeps the words' order
    assert answered(five_years, "Did net debt rise in FY25 compared with FY24?") is True
    assert answered(five_years, "Was net debt higher in FY24 than in FY25?") is False


def test_a_count_of_months_whose_figure_was_negative(months: Any) -> None:
    assert answered(months, "In how many months was EBITDA negative?") == 2


def test_the_words_after_against_name_what_a_figure_is_set_against(budget: Any) -> None:
    assert answered(budget, "What was the year-to-date EBITDA variance against budget?") == 40
    # "the budget vs actual report" names the report, not the columns
    asked = "What was actual gross profit in December 2025 according to the budget vs actual report?"
    assert answered(budget, asked) == 175


def test_the_share_of_a_line_in_a_whole(income: Any) -> None:
    asked = "What was the share of gas sales in total revenue in 2025, in percent?"
    assert answered(income, asked) == pytest.approx(100 * 180 / 630)
    # ``Profit after tax`` stands outside the section "attributable to" names
    asked = "What share of profit after tax in 2025 was attributable to ordinary shareholders, in percent?"
    assert answered(income, asked) == pytest.approx(90.0)


def test_the_total_column_where_the_question_names_none(activities: Any) -> None:
    # the ``Total`` column adds up the two others; ``Without Donor Restrictions`` equals it wherever
    # ``With Donor Restrictions`` is 0, which makes it no total
    assert (
        answered(activities, "Which program service had the highest expenses?") == "Early childhood education"
    )


def test_a_movement_between_worded_balances(activities: Any) -> None:
    asked = "How much did net assets with donor restrictions increase during the year?"
    assert answered(activities, asked) == 700


def test_a_movement_between_dated_balances(equity: Any) -> None:
    # closing 3,664 at 31 December 2025 less 3,527 at 31 December 2024
    asked = "How much did retained earnings change during 2025 (closing less opening)?"
    assert answered(equity, asked) == 137
    assert answered(equity, "What was the movement in translation reserve over 2024?") == -47


POSITION: list[list[Any]] = [
    ["Consolidated statement of financial position"],
    [None, "31 Dec 2025", "31 Dec 2024"],
    ["Non-current assets", None, None],
    ["Property, plant and equipment", 4210, 3980],
    ["Intangible assets", 1320, 1400],
    ["Goodwill", 2100, 2100],
    ["Total non-current assets", 7630, 7480],
    ["Current assets", None, None],
    ["Inventories", 910, 860],
    ["Cash and cash equivalents", 650, 820],
    ["Total current assets", 1560, 1680],
    ["Total assets", 9190, 9160],
    ["Equity", None, None],
    ["Share capital", 500, 500],
    ["Retained earnings", 4210, 3940],
    ["Total equity", 4710, 4440],
    ["Non-current liabilities", None, None],
    ["Borrowings", 2600, 2900],
    ["Lease liabilities", 410, 450],
    ["Total non-current liabilities", 3010, 3350],
    ["Current liabilities", None, None],
    ["Trade and other payables", 1020, 1070],
    ["Borrowings", 450, 300],
    ["Total current liabilities", 1470, 1370],
    ["Total equity and liabilities", 9190, 9160],
]


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "position.xlsx", POSITION)


def test_the_sections_whose_names_hold_the_words_together(position: Any) -> None:
    # "liability" is in ``Non-current liabilities`` and ``Current liabilities``: their lines, the
    # current ``Borrowings`` (300 -> 450) grew most; ``Retained earnings`` (+270) is equity
    asked = "Which liability line grew the most between 31 Dec 2024 and 31 Dec 2025?"
    assert answered(position, asked) == "Borrowings"


def test_a_change_over_the_year_to_a_date(position: Any) -> None:
    # "over the year to 31 Dec 2025": from the balance sheet date before it
    assert answered(position, "By how much did total equity grow over the year to 31 Dec 2025?") == 270
    assert answered(position, "What was total equity at 31 Dec 2025?") == 4710


def test_lines_listed_after_a_minus_are_all_taken_away(position: Any) -> None:
    asked = (
        "What were tangible assets, i.e. total assets minus goodwill and intangible assets, at 31 Dec 2024?"
    )
    assert answered(position, asked) == 9160 - 2100 - 1400


def test_how_much_of_a_whole_another_line_finances(position: Any) -> None:
    asked = "How much of total assets was financed by equity at 31 Dec 2025, in percent?"
    assert answered(position, asked) == pytest.approx(100 * 4710 / 9190)


@pytest.mark.parametrize(
    "question",
    [
        "How much did it change during the year?",
        "In which years did fall compared with the prior year?",
        "What was the average across the years shown?",
        "What was the share of in total revenue?",
        "How much did retained earnings change during 1999?",
    ],
)
def test_broken_questions_get_an_answer_or_a_reason(
    five_years: Any, activities: Any, equity: Any, question: str
) -> None:
    for book in (five_years, activities, equity):
        answers_or_says_why(book, question)

"""Balance sheets in the layouts of other countries and sectors: a civil-code layout with lettered and
roman sections, a council's balance sheet whose totals are named by their group (no section rows,
liabilities negative, the prior year first), a statement with opening and closing balance columns, a
consolidating balance sheet, funds side by side, quarter-ends, a hospital's net assets and a bank.
The figures are made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

CIVIL_CODE: list[list[Any]] = [
    ["Officine Rossi S.p.A."],
    ["Balance sheet - thousands of euro"],
    [None, "31/12/2024", "31/12/2025"],
    ["ASSETS"],
    ["B) Fixed assets"],
    ["I - Intangible fixed assets"],
    ["1) start-up costs", 20, 30],
    ["4) trademarks", 140, 150],
    ["Total intangible fixed assets", 160, 180],
    ["II - Tangible fixed assets"],
    ["1) land and buildings", 5000, 5100],
    ["2) plant and machinery", 7000, 6500],
    ["3) equipment", 900, 950],
    ["Total tangible fixed assets", 12900, 12550],
    ["Total fixed assets (B)", 13060, 12730],
    ["C) Current assets"],
    ["I - Inventories"],
    ["1) raw materials", 2000, 2300],
    ["4) finished products", 3100, 2900],
    ["Total inventories", 5100, 5200],
    ["Total current assets (C)", 5100, 5200],
    ["Total assets", 18160, 17930],
    ["LIABILITIES AND EQUITY"],
    ["A) Shareholders' equity"],
    ["I - Share capital", 4000, 4000],
    ["VI - Other reserves", 5000, 5590],
    ["Total shareholders' equity", 9000, 9590],
    ["D) Payables"],
    ["4) due to banks", 6000, 5000],
    ["7) due to suppliers", 3160, 3340],
    ["Total payables", 9160, 8340],
    ["Total liabilities and equity", 18160, 17930],
]

COUNCIL: list[list[Any]] = [
    ["Westhaven District Council"],
    ["Balance Sheet"],
    [None, "31 March 2024", "31 March 2025"],
    ["Property, Plant and Equipment", 300000, 310000],
    ["Heritage Assets", 12000, 12500],
    ["Long Term Debtors", 2500, 2400],
    ["Long Term Assets", 314500, 324900],
    ["Short Term Investments", 20000, 15000],
    ["Short Term Debtors", 25000, 27000],
    ["Cash and Cash Equivalents", 9000, 8000],
    ["Current Assets", 54000, 50000],
    ["Short Term Borrowing", -7000, -5000],
    ["Short Term Creditors", -30000, -33000],
    ["Current Liabilities", -37000, -38000],
    ["Long Term Borrowing", -100000, -98000],
    ["Net Assets", 231500, 238900],
    ["Usable Reserves", 50000, 52500],
    ["Unusable Reserves", 181500, 186400],
    ["Total Reserves", 231500, 238900],
]

OPENING_CLOSING: list[list[Any]] = [
    ["Hunan Lide Machinery Co., Ltd."],
    ["Consolidated Balance Sheet"],
    ["As at 31 December 2025", None, None, "Unit: RMB yuan"],
    ["Item", "Note", "Closing balance", "Opening balance"],
    ["Current assets:"],
    ["Monetary funds", None, 500000.5, 420000.25],
    ["Accounts receivable", None, 300000.0, 310000.0],
    ["Inventories", None, 250000.0, 240000.0],
    ["Total current assets", None, 1050000.5, 970000.25],
    ["Current liabilities:"],
    ["Short-term borrowings", None, 200000.0, 260000.0],
    ["Accounts payable", None, 180000.0, 150000.0],
    ["Taxes payable", None, 20000.0, 25000.0],
    ["Total current liabilities", None, 400000.0, 435000.0],
    ["Owners' equity:"],
    ["Share capital", None, 500000.0, 500000.0],
    ["Undistributed profit", None, 150000.5, 35000.25],
    ["Total owners' equity", None, 650000.5, 535000.25],
]

CONSOLIDATING: list[list[Any]] = [
    ["Condensed Consolidating Balance Sheet"],
    ["As of December 31, 2025 (in millions)"],
    [None, "Parent", "Issuer", "Guarantors", "Non-Guarantors", "Eliminations", "Consolidated"],
    ["Cash and cash equivalents", 15, 3, 60, 40, 0, 118],
    ["Inventories", 0, 0, 250, 130, 0, 380],
    ["Intercompany receivables", 100, 80, 50, 30, -260, 0],
    ["Total current assets", 115, 83, 360, 200, -260, 498],
]

FUNDS: list[list[Any]] = [
    ["Statements of Assets and Liabilities"],
    ["December 31, 2025"],
    [None, "Core Equity Fund", "Income Fund", "Emerging Markets Fund", "Short Bond Fund", "Total"],
    ["Investments, at value", 800000, 400000, 260000, 150000, 1610000],
    ["Cash", 4000, 9000, 2000, 6000, 21000],
    ["Total assets", 804000, 409000, 262000, 156000, 1631000],
    ["Total liabilities", 3000, 2500, 4500, 500, 10500],
    ["Net assets", 801000, 406500, 257500, 155500, 1620500],
]

QUARTERS: list[list[Any]] = [
    ["Condensed Consolidated Balance Sheets (unaudited)"],
    ["(in millions of U.S. dollars)"],
    [None, "Sep 30, 2025", "Jun 30, 2025", "Mar 31, 2025", "Dec 31, 2024"],
    ["Cash and cash equivalents", 180.0, 200.0, 170.0, 230.0],
    ["Accounts receivable, net", 96.0, 88.0, 92.0, 84.0],
    ["Total current assets", 276.0, 288.0, 262.0, 314.0],
    ["Long-term debt", 150.0, 150.0, 160.0, 175.0],
]

HOSPITAL: list[list[Any]] = [
    ["Statements of Financial Position"],
    ["(in thousands)"],
    [None, "2025", "2024"],
    ["Current assets:"],
    ["Cash and cash equivalents", 48000, 40000],
    ["Patient accounts receivable, net", 61000, 58000],
    ["Supplies inventory", 8000, 7600],
    ["Prepaid expenses", 5400, 6000],
    ["Total current assets", 122400, 111600],
    ["Property and equipment, net", 280000, 270000],
    ["Total assets", 402400, 381600],
    ["Total liabilities", 180000, 190000],
    ["Net assets:"],
    ["Without donor restrictions", 202400, 172600],
    ["With donor restrictions", 20000, 19000],
    ["Total net assets", 222400, 191600],
    ["Total liabilities and net assets", 402400, 381600],
]

BANK: list[list[Any]] = [
    ["Consolidated Balance Sheets"],
    ["(Dollars in thousands)"],
    [None, "December 31, 2025", "December 31, 2024"],
    ["Cash and due from banks", 40000, 38000],
    ["Loans, net", 1800000, 1700000],
    ["Total assets", 2400000, 2300000],
    ["Total deposits", 2100000, 2000000],
    ["Federal Home Loan Bank advances", 100000, 90000],
    ["Total liabilities", 2200000, 2100000],
    ["Total shareholders' equity", 200000, 200000],
    ["Total liabilities and shareholders' equity", 2400000, 2300000],
]


NESTED_FUNDS: list[list[Any]] = [
    ["Statements of Assets and Liabilities"],
    ["December 31, 2025"],
    [None, "Growth Fund", "Growth and Income Fund", "Small Cap Growth Fund", "Income Fund"],
    ["Cash", 15000, 22000, 9000, 31000],
    ["Receivable for:"],
    ["Dividends and interest", 1200, 3400, 600, 5200],
    ["Total assets", 16200, 25400, 9600, 36200],
    ["Total liabilities", 7300, 6100, 1000, 3400],
    ["Net assets", 8900, 19300, 8600, 32800],
]

GROUPED_FUNDS: list[list[Any]] = [
    ["Statements of Assets and Liabilities"],
    ["June 30, 2025 (Unaudited)"],
    [None, "Equity Funds", None, "Fixed Income Funds", None],
    [None, "Large Cap Fund", "International Fund", "Core Bond Fund", "Municipal Bond Fund"],
    ["Investments in securities, at value (a)", 2450, 880, 1120, 640],
    ["Cash", 12, 9, 21, 5],
    ["Total assets", 2462, 889, 1141, 645],
    ["Total liabilities", 10, 4, 5, 2],
    ["NET ASSETS", 2452, 885, 1136, 643],
    [],
    ["CLASS A SHARES:"],
    ["Net assets", 1200, 400, 500, 300],
    ["Net asset value per share", 20.5, 11.2, 10.1, 9.9],
    [],
    ["CLASS I SHARES:"],
    ["Net assets", 1252, 485, 636, 343],
    ["Net asset value per share", 20.9, 11.4, 10.2, 10.0],
    [],
    ["(a) Investments in securities, at cost", 2100, 800, 1100, 630],
]

GUV: list[list[Any]] = [
    ["Brandauer Feinmechanik GmbH"],
    ["Gewinn- und Verlustrechnung für die Zeit vom 1. Januar bis 31. Dezember 2025"],
    [None, "Geschäftsjahr", "Vorjahr"],
    [None, "TEUR", "TEUR"],
    ["1. Umsatzerlöse", 48210, 45390],
    ["2. Sonstige betriebliche Erträge", 1240, 980],
    ["3. Personalaufwand", -13620, -12860],
    ["4. Jahresüberschuss", 3684, 3685],
]


@pytest.fixture(scope="module")
def nested_funds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "nested_funds.xlsx", NESTED_FUNDS)


@pytest.fixture(scope="module")
def grouped_funds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "grouped_funds.xlsx", GROUPED_FUNDS, merges=("B3:C3", "D3:E3"))


@pytest.fixture(scope="module")
def guv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "guv.xlsx", GUV)


@pytest.fixture(scope="module")
def civil(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "civil.xlsx", CIVIL_CODE)


@pytest.fixture(scope="module")
def council(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "council.xlsx", COUNCIL)


@pytest.fixture(scope="module")
def balances(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "balances.xlsx", OPENING_CLOSING)


@pytest.fixture(scope="module")
def consolidating(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "consolidating.xlsx", CONSOLIDATING)


@pytest.fixture(scope="module")
def funds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "funds.xlsx", FUNDS)


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "quarters.xlsx", QUARTERS)


@pytest.fixture(scope="module")
def hospital(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "hospital.xlsx", HOSPITAL)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "bank.xlsx", BANK)


def test_roman_sections_after_a_dash_nest_under_their_letter(civil: Any) -> None:
    # ``II - Tangible fixed assets`` opens under ``B) Fixed assets`` after ``Total intangible fixed
    # assets`` closed ``I - ...``: its lines are 5100, 6500 and 950 at 31/12/2025
    assert answered(civil, "Among the tangible fixed assets, which item was largest at 31/12/2025?") == (
        "2) plant and machinery"
    )
    assert answered(civil, "Of the payables, which was the smallest at 31/12/2024?") == "7) due to suppliers"
    # the fixed assets hold the tangible ones too: 5100 and 6500 are above 1,000
    assert answered(civil, "How many fixed asset items were above 1,000 at 31/12/2025?") == 2


def test_a_section_named_beside_a_line_is_its_closing_total(civil: Any) -> None:
    # 9590 / 17930 * 100: "shareholders' equity" is ``Total shareholders' equity``, which closes
    # ``A) Shareholders' equity``, not the whole
    asked = (
        "What percentage of total liabilities and equity did shareholders' equity represent at 31/12/2025?"
    )
    assert answered(civil, asked) == pytest.approx(9590 / 17930 * 100)


def test_a_total_named_by_its_group_gathers_the_lines_above_it(council: Any) -> None:
    # no section rows: ``Current Liabilities`` adds up the two lines above it; the largest is
    # the largest by size, liabilities being negative
    assert (
        answered(council, "Which current liability was the largest at 31 March 2025?")
        == "Short Term Creditors"
    )
    assert answered(council, "Which long term asset carried the highest value at 31 March 2024?") == (
        "Property, Plant and Equipment"
    )
    # 310000 and 12500 are above 10,000; 2400 is not
    assert answered(council, "How many long term asset lines were above 10,000 at 31 March 2025?") == 2
    asked = "Which current asset lines fell between 31 March 2024 and 31 March 2025? List them in order."
    assert answered(council, asked) == ["Short Term Investments", "Cash and Cash Equivalents"]


def test_a_change_over_one_year_runs_from_the_year_before(council: Any, hospital: Any) -> None:
    # 52500 - 50000: "over 2024/25" is the year to 31 March 2025, from the balance a year before
    assert answered(council, "How much did usable reserves increase over 2024/25?") == 2500
    assert answered(council, "By how much did net assets change in 2025?") == 7400  # 238900 - 231500
    assert answered(council, "How much did unusable reserves grow during the year?") == 4900
    # 202400 - 172600; "net assets" places the line, it names no ``Total net assets`` beside it
    assert answered(
        hospital, "By how much did net assets without donor restrictions grow in fiscal 2025?"
    ) == (29800)
    # a section named apart from the line is a whole of its own: 48000 / 122400
    asked = "What proportion of current assets was cash and cash equivalents in 2025, in percent?"
    assert answered(hospital, asked) == pytest.approx(48000 / 122400 * 100)


def test_the_two_periods_shown_and_one_set_above_the_other(hospital: Any) -> None:
    assert answered(hospital, "Did patient accounts receivable rise between the two year-ends?") is True
    # cash, receivables and supplies rose; prepaid expenses fell
    assert answered(hospital, "How many current asset lines were higher in 2025 than in 2024?") == 3
    assert answered(hospital, "Which current asset lines were lower in 2025 than in 2024?") == [
        "Prepaid expenses"
    ]


def test_opening_and_closing_balance_columns(balances: Any) -> None:
    # the date and the unit above the header are a title line, not a header over two columns
    from gridsight.detect import detect_tables

    table = detect_tables(balances.sheets[0]).tables[0]
    assert [c.split(" › ")[-1] for c in table.header_paths][-2:] == ["Closing balance", "Opening balance"]
    assert answered(balances, "How much did undistributed profit change during the year?") == pytest.approx(
        115000.25
    )
    asked = "List the current liability items that decreased over the year, in the order shown."
    assert answered(balances, asked) == ["Short-term borrowings", "Taxes payable"]


def test_entity_columns_named_alike_and_left_out_by_a_clause(consolidating: Any) -> None:
    # ``Guarantors`` is an entity beside ``Non-Guarantors``, not a word of it
    assert answered(consolidating, "Which entity column reports the largest inventories?") == "Guarantors"
    # Parent 15, Guarantors 60 and Non-Guarantors 40 are above 10; the clause leaves out what no
    # entity is anyway
    asked = (
        "How many of the entities (excluding eliminations and the consolidated column) held cash above 10?"
    )
    assert answered(consolidating, asked) == 3


def test_every_fund_taken_together_and_those_past_a_bound(funds: Any) -> None:
    # 801000 + 406500 + 257500 + 155500; the Total column is not a fund
    assert answered(funds, "What were the combined net assets of all four funds?") == 1620500
    assert answered(funds, "What was the average cash across the funds?") == pytest.approx(5250)
    assert answered(funds, "Which funds had total liabilities above 2,000?") == [
        "Core Equity Fund",
        "Income Fund",
        "Emerging Markets Fund",
    ]


def test_funds_side_by_side_with_no_total_and_names_inside_names(nested_funds: Any) -> None:
    # every header ends in "Fund": the funds, though no column adds them up; ``Growth Fund`` is
    # one of them beside ``Growth and Income Fund``, and "smallest" names no ``Small Cap`` fund
    assert answered(nested_funds, "Which fund had the highest cash?") == "Income Fund"
    asked = "Dividends and interest receivable: which fund reports the smallest figure?"
    assert answered(nested_funds, asked) == "Small Cap Growth Fund"
    assert answered(nested_funds, "In how many funds were total liabilities above 3,000?") == 3
    assert answered(nested_funds, "Which funds had cash above 10,000?") == [
        "Growth Fund",
        "Growth and Income Fund",
        "Income Fund",
    ]


def test_funds_under_group_headings_and_a_memo_line_under_them(grouped_funds: Any) -> None:
    # the funds of both groups are ranked, each by its own name
    assert answered(grouped_funds, "Which fund had the highest cash?") == "Core Bond Fund"
    # ``(a) Investments in securities, at cost`` a blank row under the table is one of its lines:
    # 1120 - 1100
    asked = (
        "In the Core Bond Fund column, how much was net unrealized appreciation, i.e. investments at value "
        "minus investments at cost?"
    )
    assert answered(grouped_funds, asked) == 20


def test_current_and_prior_year_columns_take_the_title_year(guv: Any) -> None:
    # ``Geschäftsjahr`` and ``Vorjahr`` under a title for the year to 31 December 2025
    assert answered(guv, "What were the Umsatzerlöse in 2025?") == 48210
    assert answered(guv, "What was the Jahresüberschuss in the prior year?") == 3685
    assert answered(guv, "By how much did Umsatzerlöse grow from 2024 to 2025?") == 2820


def test_every_quarter_end_averaged_and_listed_in_time_order(quarters: Any) -> None:
    asked = "What was the average accounts receivable across the four balance sheet dates?"
    assert answered(quarters, asked) == pytest.approx(90.0)  # (96 + 88 + 92 + 84) / 4
    assert answered(quarters, "List total current assets from the oldest date to the most recent.") == [
        314.0,
        262.0,
        288.0,
        276.0,
    ]


def test_a_ratio_named_by_its_terms(bank: Any) -> None:
    # 200000 / 2300000: the equity-to-assets ratio is equity divided by assets
    assert answered(bank, "What was the equity-to-assets ratio at December 31, 2024?") == pytest.approx(
        200000 / 2300000
    )
    # 1800000 / 2100000: "loan" names ``Loans, net`` (not ``Federal Home Loan Bank advances``, whose
    # other words the question does not say)
    assert answered(bank, "What was the loan-to-deposit ratio at December 31, 2025?") == pytest.approx(
        1800000 / 2100000
    )


@pytest.mark.parametrize(
    "question",
    [
        "Among the tangible fixed assets, which item was largest at 31/12/2099?",
        "Which current liability; DROP TABLE data; was largest?",
        "How much did usable reserves increase over 1999/00?",
        "Quelle est la plus grande dette?",
        "List the current liability items that fell from the opening balance to the closing one of Mars.",
        "(excluding eliminations and the consolidated column)",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(
    civil: Any, council: Any, balances: Any, consolidating: Any, question: str
) -> None:
    for book in (civil, council, balances, consolidating):
        answers_or_says_why(book, question)

"""Balance sheets read the way analysts ask about them: entity columns where dashes stand for nil,
funds counted and added by their noun, lines that moved between two dates with no period named,
two lines' changes set side by side, initials of a line's words, a "non-" section that is no section
of what it negates, a group of lines that tells two tables apart, dates written over two header
rows, and changes since a date or against the same date a year before. The figures are made up;
each answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: A consolidating balance sheet at one date: eliminations are dashes on most lines, and the
#: consolidated column is a dash where they cancel the parts.
CONSOLIDATING: list[list[Any]] = [
    ["Brookvale Tooling Inc."],
    ["Condensed Consolidating Balance Sheet"],
    ["September 30, 2025"],
    ["(in millions)"],
    [None, "Issuer", "Guarantors", "Non-Guarantors", "Eliminations", "Consolidated"],
    ["Cash", 12, 40, 25, "—", 77],
    ["Receivables from affiliates", 30, 18, 7, -55, "—"],
    ["Inventories", "—", 90, 60, "—", 150],
    ["Goodwill", "—", 35, 80, "—", 115],
    ["Investment in subsidiaries", 400, "—", "—", -400, "—"],
    ["Total assets", 442, 183, 172, -455, 342],
    ["Payables to affiliates", 20, 25, 10, -55, "—"],
    ["Accounts payable", 5, 44, 31, "—", 80],
    ["Total liabilities", 25, 69, 41, -55, 80],
    ["Total equity", 417, 114, 131, -400, 262],
    ["Total liabilities and equity", 442, 183, 172, -455, 342],
]

#: Funds side by side, no total column, their names sharing no noun.
FUNDS: list[list[Any]] = [
    ["Harrowgate Trust"],
    ["Statements of Assets and Liabilities"],
    ["June 30, 2026"],
    [None, "Core Bond Portfolio", "Global Equity Portfolio", "Cash Reserve Portfolio"],
    ["Investments, at value", 5000, 9000, 3000],
    ["Cash", 120, 300, "—"],
    ["Interest receivable", 40, 10, 0],
    ["Total assets", 5160, 9310, 3000],
    ["Payable to adviser", 6, 11, 2],
    ["Total liabilities", 6, 11, 2],
    ["Net assets", 5154, 9299, 2998],
]

#: A bank's balance sheet at two dates, one label holding "from", one line known by initials.
BANK: list[list[Any]] = [
    ["Millbrook Bancorp"],
    ["Consolidated Balance Sheets"],
    ["(in thousands)"],
    [None, "December 31, 2025", "December 31, 2024"],
    ["ASSETS"],
    ["Cash and due from banks", 9000, 11000],
    ["Loans receivable", 200000, 180000],
    ["Allowance for loan losses", -2500, -2300],
    ["Loans receivable, net", 197500, 177700],
    ["Other assets", 4000, 5000],
    ["Total assets", 210500, 193700],
    ["LIABILITIES AND EQUITY"],
    ["Noninterest-bearing deposits", 40000, 38000],
    ["Interest-bearing deposits", 130000, 118000],
    ["Total deposits", 170000, 156000],
    ["Federal Home Loan Bank advances", 15000, 20000],
    ["Loans from related parties", 2000, 2600],
    ["Total liabilities", 187000, 178600],
    ["Total equity", 23500, 15100],
    ["Total liabilities and equity", 210500, 193700],
]

#: A small company's balance sheet, sections named in two languages ("Non-current" beside
#: "Current"), key figures below.
SMALL: list[list[Any]] = [
    ["Saimaa Puu Oy"],
    ["Balance sheet"],
    ["EUR thousand"],
    [None, "31.12.2025", "31.12.2024"],
    ["ASSETS"],
    ["Non-current assets / Pysyvät vastaavat"],
    ["Machinery", 900, 800],
    ["Buildings", 1200, 1250],
    ["Current assets / Vaihtuvat vastaavat"],
    ["Stocks", 300, 280],
    ["Receivables", 450, 400],
    ["Cash", 150, 210],
    ["TOTAL ASSETS", 3000, 2940],
    ["EQUITY AND LIABILITIES"],
    ["Equity"],
    ["Share capital", 100, 100],
    ["Retained earnings", 1300, 1150],
    ["Profit for the year", 200, 150],
    ["Total equity", 1600, 1400],
    ["Loans", 1000, 1100],
    ["Trade payables", 400, 440],
    ["TOTAL EQUITY AND LIABILITIES", 3000, 2940],
    [],
    ["Key figures", "2025", "2024"],
    ["Equity ratio, %", 53.3, 47.6],
    ["Return on equity, %", 12.5, 10.7],
]

#: Quarter-end columns whose dates stand on two header rows, an audit mark on a third.
QUARTERS: list[list[Any]] = [
    ["Lakemont Savings Corp."],
    ["Statements of Financial Condition"],
    ["(in thousands)"],
    [None, "June 30,", "December 31,", "June 30,"],
    [None, "2026", "2025", "2025"],
    [None, "(Unaudited)", None, "(Unaudited)"],
    ["Cash", 800, 650, 700],
    ["Loans, net", 9000, 8600, 8000],
    ["Total assets", 9800, 9250, 8700],
    ["Deposits", 8000, 7800, 7500],
    ["Borrowings", 500, 300, 400],
    ["Total liabilities", 8500, 8100, 7900],
    ["Total equity", 1300, 1150, 800],
]


#: A hospital's balance sheet: debt split into its current portion and the rest, prior year beside
#: a column of changes, a key ratio known by its initials.
HOSPITAL: list[list[Any]] = [
    ["Kestrel Valley Health"],
    ["Statements of Financial Position (in thousands)"],
    [None, "2025", "2026", "Change"],
    ["Cash and cash equivalents", 9100, 8400, -700],
    ["Patient receivables, net", 12000, 13100, 1100],
    ["Total current assets", 21100, 21500, 400],
    ["Property and equipment, net", 40000, 41000, 1000],
    ["Total assets", 61100, 62500, 1400],
    ["Current portion of long-term debt", 1100, 1200, 100],
    ["Accounts payable", 6000, 6400, 400],
    ["Total current liabilities", 7100, 7600, 500],
    ["Long-term debt, net of current portion", 25700, 24500, -1200],
    ["Pension liability", 3900, 3000, -900],
    ["Total liabilities", 36700, 35100, -1600],
    ["Total net assets", 24400, 27400, 3000],
    ["Return on capital employed (%)", 6.1, 7.4, 1.3],
]


#: Five quarter-end dates in one row of headers, key metrics in a table below.
QUARTER_ENDS: list[list[Any]] = [
    ["Tallis Software Inc."],
    ["Condensed Balance Sheets (in thousands)"],
    [None, "31 December 2024", "31 March 2025", "30 June 2025", "30 September 2025", "31 December 2025"],
    ["Cash", 500, 480, 530, 560, 610],
    ["Receivables", 200, 215, 190, 240, 260],
    ["Total assets", 700, 695, 720, 800, 870],
    ["Deferred revenue", 300, 290, 310, 335, 360],
    ["Total liabilities", 300, 290, 310, 335, 360],
    ["Total equity", 400, 405, 410, 465, 510],
    [],
    [
        "Key metrics",
        "31 December 2024",
        "31 March 2025",
        "30 June 2025",
        "30 September 2025",
        "31 December 2025",
    ],
    ["Customers", 900, 930, 955, 990, 1040],
]


@pytest.fixture(scope="module")
def quarter_ends(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "tallis.xlsx", QUARTER_ENDS)


@pytest.fixture(scope="module")
def hospital(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "kestrel.xlsx", HOSPITAL)


@pytest.fixture(scope="module")
def consolidating(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "consolidating_dashes.xlsx", CONSOLIDATING)


@pytest.fixture(scope="module")
def funds(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "portfolios.xlsx", FUNDS)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "millbrook.xlsx", BANK)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "saimaa.xlsx", SMALL)


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "lakemont.xlsx", QUARTERS)


def test_entities_known_by_the_column_that_adds_them_up_where_dashes_are_nil(consolidating: Any) -> None:
    # Consolidated = Issuer + Guarantors + Non-Guarantors + Eliminations, a dash counting nil: the
    # first three are the entities (goodwill 35 and 80; the issuer holds none)
    assert answered(consolidating, "Which entity held the most goodwill?") == "Non-Guarantors"
    asked = "Among the three legal entity columns, which had the smallest total liabilities?"
    assert answered(consolidating, asked) == "Issuer"  # 25, 69, 41


def test_funds_added_up_by_their_count_and_told_apart_by_a_nil_line(funds: Any) -> None:
    # 5154 + 9299 + 2998: "of the three portfolios" is every one of them, one sum
    assert answered(funds, "What are the combined net assets of the three portfolios?") == 5154 + 9299 + 2998
    # "both" names two of three: the two the question names, not all of them
    assert answered(funds, "What is the cash of both portfolios, Core Bond and Global Equity?") == 420
    # a dash is no cash; 0 is no interest receivable
    assert answered(funds, "Which portfolio held no cash?") in (
        "Cash Reserve Portfolio",
        ["Cash Reserve Portfolio"],
    )
    assert answered(funds, "How many portfolios reported no interest receivable?") == 1


def test_funds_ranked_filtered_and_one_set_against_them_all(funds: Any) -> None:
    # net assets 5154, 9299, 2998
    assert answered(funds, "Which two portfolios had the most net assets?") == [
        "Global Equity Portfolio",
        "Core Bond Portfolio",
    ]
    assert answered(funds, "Rank the portfolios by net assets from smallest to largest.") == [
        "Cash Reserve Portfolio",
        "Core Bond Portfolio",
        "Global Equity Portfolio",
    ]
    # a bound, not a ranking: 5000 and 9000 are above 4,000
    asked = "Which portfolio had investments, at value, above 4,000?"
    assert answered(funds, asked) == ["Core Bond Portfolio", "Global Equity Portfolio"]
    asked = "What share of the combined net assets of all portfolios does the Cash Reserve Portfolio hold?"
    assert answered(funds, asked) == pytest.approx(2998 / (5154 + 9299 + 2998))


def test_a_change_asked_with_no_period_runs_between_the_two_dates(bank: Any) -> None:
    # 20000 - 15000; "FHLB" is the initials of ``Federal Home Loan Bank advances``
    assert answered(bank, "By how much did FHLB advances fall?") == 5000
    assert answered(bank, "How much did other assets decrease?") == 1000
    # "from related parties" is part of the line's name, not the start of a span
    assert answered(bank, "How much did loans from related parties decrease in 2025?") == 600


def test_a_line_named_in_part_beside_one_named_in_full_in_a_ratio(bank: Any) -> None:
    # ``Loans receivable, net`` / ``Total deposits``: "net loans" names the first in part
    asked = "What was the ratio of net loans to total deposits at December 31, 2024?"
    assert answered(bank, asked) == pytest.approx(177700 / 156000)


def test_two_lines_changes_set_side_by_side(bank: Any) -> None:
    # interest-bearing +12000 (10.2%), noninterest-bearing +2000 (5.3%); other assets fell 1000,
    # cash 2000
    asked = (
        "Which increased more between the two dates, noninterest-bearing deposits or interest-bearing"
        " deposits?"
    )
    assert answered(bank, asked) == "Interest-bearing deposits"
    asked = "Which grew faster from 2024 to 2025, total equity or total deposits?"
    assert answered(bank, asked) == "Total equity"  # 55.6% against 9.0%
    assert answered(bank, "Did other assets fall more than cash and due from banks in 2025?") is False


def test_a_non_section_is_no_section_of_what_it_negates(small: Any) -> None:
    # the current assets are 300, 450 and 150 in 2024 terms 280, 400, 210; ``Buildings`` (1250)
    # is a non-current asset
    assert answered(small, "Which current asset was largest at 31.12.2024?") == "Receivables"


def test_a_group_of_lines_tells_the_statement_from_the_key_figures(small: Any) -> None:
    # ``Equity ratio, %`` below holds "equity" in one label; the balance sheet holds the equity lines
    assert answered(small, "Which equity line was the largest at the end of 2025?") == "Retained earnings"


def test_a_previous_period_beside_a_year_named(small: Any) -> None:
    # the previous year-end before 2025 is 31.12.2024: cash fell from 210 to 150
    asked = "Did cash decline between the previous year-end and the 2025 year-end?"
    assert answered(small, asked) is True


def test_dates_over_two_header_rows_since_a_date_and_a_year_before(quarters: Any) -> None:
    assert answered(quarters, "What were deposits at December 31, 2025?") == 7800
    assert answered(quarters, "How much did loans, net grow since December 31, 2025?") == 400
    # against June 30, 2025, not the year-end beside it
    assert answered(quarters, "What was the year-over-year growth in deposits, in percent?") == pytest.approx(
        (8000 - 7500) / 7500 * 100
    )
    assert answered(quarters, "By how much did total equity increase compared with a year earlier?") == 500
    # a change from one date shown runs to the latest; "a year ago" alone is a figure at that date
    assert answered(quarters, "How much did deposits change since the end of last year?") == 200
    assert answered(quarters, "How much did cash change compared with December 31, 2025?") == 150
    assert answered(quarters, "What was total equity a year ago?") == 800
    # quarter ends with one skipped between (six months apart) are quarters all the same
    assert answered(quarters, "Did total equity rise in every quarter shown?") is True  # 800, 1150, 1300
    assert answered(quarters, "Did borrowings rise in every quarter shown?") is False  # 400, 300, 500
    assert answered(quarters, "Which of the three dates had the most borrowings?") in (
        "June 30, 2026",
        ["June 30, 2026"],
    )


def test_a_line_and_its_current_portion_added(hospital: Any) -> None:
    # 24500 + 1200: "long-term debt" is ``Long-term debt, net of current portion`` (its words after
    # the comma only qualify it), the other phrase ``Current portion of long-term debt``
    asked = "What was long-term debt plus the current portion of long-term debt in 2026?"
    assert answered(hospital, asked) == 25700
    assert answered(hospital, "What was long-term debt, including its current portion, in 2025?") == 26800


def test_a_list_one_label_holds_is_that_label(tmp_path_factory: pytest.TempPathFactory) -> None:
    # (a guard: "long-term debt plus the current portion ..." is two lines, but "total revenue and
    # support" is the one label that holds both words, not ``Total supporting services`` beside it)
    book = book_of(
        tmp_path_factory,
        "activities.xlsx",
        [
            ["Statement of Activities"],
            ["Year ended June 30, 2026"],
            [None, "Without donor restrictions", "With donor restrictions", "Total"],
            ["REVENUE, SUPPORT, AND GAINS"],
            ["Contributions", 250, 150, 400],
            ["Program fees", 600, None, 600],
            ["Total revenue, support, and gains", 850, 150, 1000],
            ["EXPENSES"],
            ["Program services", 700, None, 700],
            ["Management and general", 100, None, 100],
            ["Fundraising", 50, None, 50],
            ["Total supporting services", 150, None, 150],
            ["Total expenses", 850, None, 850],
        ],
    )
    asked = (
        "What share of total revenue and support did contributions make up in the total column, in percent?"
    )
    assert answered(book, asked) == pytest.approx(40.0)


def test_initials_after_the_words_they_follow_and_a_clause_said_first(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    book = book_of(
        tmp_path_factory,
        "fvoci.xlsx",
        [
            ["Harbour Pearl Holdings"],
            ["Statement of financial position (HK$'000)"],
            [None, "2023", "2024", "2025"],
            ["Financial assets at fair value through other comprehensive income", 290, 310, 330],
            ["Financial assets at amortised cost", 500, 480, 470],
            ["Cash and bank balances", 120, 140, 90],
            ["Total current assets", 910, 930, 890],
            ["Total assets", 1900, 1950, 2010],
        ],
    )
    # "FVOCI" is the run of words after "financial assets at" whose initials it is
    assert answered(book, "What were financial assets at FVOCI in 2024?") == 310
    # the clause that leaves a line out, said first, applies all the same: 890 - 90
    assert answered(book, "Excluding cash and bank balances, what were total current assets in 2025?") == 800
    # "every year" with no "in" before it: 1900, 1950, 2010 rise; cash does not
    assert answered(book, "Did total assets grow every year?") is True
    assert answered(book, "Did cash and bank balances rise each year?") is False


def test_lines_listed_by_rank_and_both_years_taken_together(bank: Any) -> None:
    # the asset lines (no totals) at December 31, 2025: loans 200000, net 197500, cash 9000 ...
    asked = "List the two largest asset lines at December 31, 2025."
    assert answered(bank, asked) == ["Loans receivable", "Loans receivable, net"]
    # each year's figure added up or averaged, no change between them
    assert answered(bank, "What was the total of other assets over the two years?") == 9000
    assert answered(bank, "What was the sum of other assets across both years?") == 9000
    # dates a year apart are the years: 4000 and 5000 are both above 3,500, not both above 4,500
    assert answered(bank, "Were other assets above 3,500 in both years?") is True
    assert answered(bank, "Were other assets above 4,500 in both years?") is False


def test_a_non_current_total_no_line_names_and_growth_asked_by_what(hospital: Any, small: Any) -> None:
    # no line nor section is non-current: the total less the current total (35100 - 7600, 61100 - 21100)
    assert answered(hospital, "What were total non-current liabilities in 2026?") == 27500
    assert answered(hospital, "What were long-term assets in 2025?") == 40000
    # "what was X growth" asks the change from the earlier date to the later, here in percent
    assert answered(small, "What was retained earnings growth in percent?") == pytest.approx(150 / 1150 * 100)


def test_days_named_over_opening_and_closing_columns(tmp_path_factory: pytest.TempPathFactory) -> None:
    book = book_of(
        tmp_path_factory,
        "opening_closing.xlsx",
        [
            ["Ganzhou Lianfa Materials Co., Ltd."],
            ["Balance Sheet"],
            ["As at 31 December 2025", None, None, "Unit: RMB yuan"],
            ["Item", "Note", "Closing balance", "Opening balance"],
            ["Current assets:"],
            ["Monetary funds", None, 8100, 6900],
            ["Inventories", None, 5100, 4900],
            ["Total current assets", None, 13200, 11800],
            ["Fixed assets", None, 10200, 9800],
            ["Total assets", None, 23400, 21600],
        ],
    )
    # the title's day is the closing column; the same day a year before, or the day after it, and
    # the end of the year before, the opening one
    assert answered(book, "What were monetary funds at 31 December 2025?") == 8100
    assert answered(book, "What were monetary funds at 31 December 2024?") == 6900
    assert answered(book, "What were inventories at 1 January 2025?") == 4900
    assert answered(book, "What were fixed assets at the end of 2024?") == 9800


def test_a_line_from_each_of_two_tables_on_one_sheet(tmp_path_factory: pytest.TempPathFactory) -> None:
    from openpyxl import Workbook

    from gridsight.sources import open_workbook

    wb = Workbook()
    ws = wb.active
    for row in [
        ["Ironbark Minerals Ltd"],
        ["Balance sheet (US$ million)"],
        [None, "2025", "2024"],
        ["Cash and cash equivalents", 600, 500],
        ["Mine properties", 4000, 3800],
        ["Total assets", 4600, 4300],
        ["Borrowings", 1500, 1700],
        ["Total liabilities", 1900, 2100],
        ["Total equity", 2700, 2200],
    ]:
        ws.append(row)
    ws["F2"] = "Net debt reconciliation"
    for i, row in enumerate(
        [
            [None, "2025", "2024"],
            ["Borrowings", 1500, 1700],
            ["Less: cash", -600, -500],
            ["Net debt", 900, 1200],
        ]
    ):
        for j, v in enumerate(row):
            ws.cell(3 + i, 6 + j, v)
    path = tmp_path_factory.mktemp("across") / "ironbark.xlsx"
    wb.save(path)
    book = open_workbook(path)
    # ``Net debt`` stands only in the reconciliation, ``Total equity`` only in the statement
    assert answered(book, "What is net debt divided by total equity for 2025?") == pytest.approx(900 / 2700)
    assert answered(book, "What percentage of total equity was net debt in 2024?") == pytest.approx(
        1200 / 2200 * 100
    )
    assert answered(book, "What was net debt as a percentage of total assets in 2025?") == pytest.approx(
        900 / 4600 * 100
    )


def test_columns_offered_by_name_under_different_header_groups(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    book = book_of(
        tmp_path_factory,
        "budget.xlsx",
        [
            ["Harbour Transit Authority"],
            ["Statement of Financial Position as at 30 June 2025"],
            [None, "Actual", "Unaudited", "Actual"],
            [None, "Actual 2025", "Budget 2025", "Actual 2024"],
            [None, "$000", "$000", "$000"],
            ["Cash", 5000, 4200, 4700],
            ["Receivables", 2100, 2500, 1900],
            ["Total assets", 7100, 6700, 6600],
            ["Payables", 1500, 1700, 1400],
            ["Total liabilities", 1500, 1700, 1400],
            ["Total equity", 5600, 5000, 5200],
        ],
    )
    # ``Budget 2025`` stands under another header group than the two actual columns
    asked = "Which column (Actual 2025, Budget 2025 or Actual 2024) had the lowest total equity?"
    assert answered(book, asked) == "Budget 2025"
    assert answered(book, "Which was higher for receivables: Budget 2025 or Actual 2025?") == "Budget 2025"


def test_a_change_column_read_and_a_fall_said_as_shrinking(hospital: Any) -> None:
    assert answered(hospital, "What was the change in cash and cash equivalents?") == -700
    assert answered(hospital, "Did the pension liability shrink?") is True
    # ``ROCE``, the initials of a whole label, is read as it is (no line's words written in its place)
    assert answered(hospital, "What was ROCE in 2026?") == pytest.approx(7.4)


def test_quarter_end_dates_are_the_quarters(quarter_ends: Any) -> None:
    # receivables above 210 at 31 March, 30 September and 31 December 2025
    assert answered(quarter_ends, "At how many quarter-ends did receivables exceed 210?") == 3
    # equity rose each quarter; cash fell in the first
    assert answered(quarter_ends, "Did total equity rise in every quarter?") is True
    assert answered(quarter_ends, "Did cash rise in every quarter?") is False
    # a year named alone over quarter ends: from the year-end before to the year's last date
    assert answered(quarter_ends, "By how much did cash grow during 2025?") == 110
    assert answered(quarter_ends, "How much did customers grow in 2025?") == 140
    # from the quarter end before the date named, and before the latest where none is
    asked = "What was the quarter-on-quarter change in deferred revenue at 30 June 2025?"
    assert answered(quarter_ends, asked) == 20
    assert answered(quarter_ends, "What was the quarter-on-quarter change in deferred revenue?") == 25


@pytest.mark.parametrize(
    "question",
    [
        "Which entity held the most goodwill in 1999?",
        "How much did XYZQ advances fall since February 30, 2025?",
        "Which grew faster, the moon or the tides?",
        "What are the combined net assets of the seven portfolios?",
        "Which portfolio held no; DROP TABLE data; cash?",
        "Among the columns, which?",
        "What was XQZ, including its current portion, in 2026?",
        "What was the quarter-on-quarter change in deferred revenue at 30 February 2025?",
        "At how many quarter-ends did receivables exceed -?",
        "What were monetary funds at 31 December 1899?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(
    consolidating: Any,
    funds: Any,
    bank: Any,
    small: Any,
    quarters: Any,
    hospital: Any,
    quarter_ends: Any,
    question: str,
) -> None:
    for book in (consolidating, funds, bank, small, quarters, hospital, quarter_ends):
        answers_or_says_why(book, question)

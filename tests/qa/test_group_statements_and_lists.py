"""A group's balance sheet with Group and Company columns and a quarterly revenue table beside it,
and a small company's management accounts (fixed assets, creditors due in and after a year, a
budget column) with sales by division under them: the consolidated figures where no entity is
named, the latest period where none is named, "the prior year" as the year before the one named,
lists of lines each placed by its own words, a slash between two lines, a line of each table set
against the other ("relative to"), "total liabilities" where only its two parts are totalled, and
a table's ``Total`` line where no row is named. The figures are made up; each answer is worked out
by hand beside its question."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.sources import open_workbook
from gridsight.text import prior_year_named

#: (label, group 2026, group 2025, company 2026, company 2025); None: a section line.
GROUP_LINES: list[tuple[str, tuple[int, int, int, int] | None]] = [
    ("Non-current assets", None),
    ("Property, plant and equipment", (4100, 3900, 300, 310)),
    ("Investments in subsidiaries", (0, 0, 2500, 2400)),
    ("Total non-current assets", (4100, 3900, 2800, 2710)),
    ("Current assets", None),
    ("Inventories", (820, 760, 35, 30)),
    ("Trade and other receivables", (1300, 1150, 400, 380)),
    ("Cash and cash equivalents", (540, 610, 90, 70)),
    ("Total current assets", (2660, 2520, 525, 480)),
    ("Total assets", (6760, 6420, 3325, 3190)),
    ("Current liabilities", None),
    ("Trade and other payables", (980, 900, 120, 110)),
    ("Borrowings", (250, 200, 60, 50)),
    ("Lease liabilities", (70, 65, 0, 0)),
    ("Total current liabilities", (1300, 1165, 180, 160)),
    ("Non-current liabilities", None),
    ("Borrowings", (1600, 1700, 400, 450)),
    ("Lease liabilities", (310, 290, 0, 0)),
    ("Total non-current liabilities", (1910, 1990, 400, 450)),
    ("Net assets", (3550, 3265, 2745, 2580)),
    ("Equity", None),
    ("Share capital", (500, 500, 500, 500)),
    ("Retained earnings", (3050, 2765, 2245, 2080)),
    ("Total equity", (3550, 3265, 2745, 2580)),
]
#: Revenue by quarter beside the statement: (year, Q1, Q2, Q3, Q4, FY).
QUARTERS = [("FY26", 2100, 2300, 2250, 2550, 9200), ("FY25", 1900, 2050, 2150, 2400, 8500)]


@pytest.fixture(scope="module")
def group(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Balance sheet"
    ws["A1"] = "Kestrel Rope Works plc"
    ws["A2"] = "Consolidated and company balance sheets at 31 March 2026"
    ws["B4"], ws["E4"] = "Group", "Company"
    ws.merge_cells("B4:C4")
    ws.merge_cells("E4:F4")
    ws["B5"], ws["C5"], ws["E5"], ws["F5"] = "FY2026", "FY2025", "FY2026", "FY2025"
    for r, (label, figures) in enumerate(GROUP_LINES, start=6):
        ws.cell(r, 1, label)
        for j, x in zip((2, 3, 5, 6), figures or (), strict=False):
            ws.cell(r, j, x)
    ws["I4"] = "Revenue by quarter"
    ws["I5"], ws["J5"], ws["K5"], ws["L5"], ws["M5"], ws["N5"] = "£'000", "Q1", "Q2", "Q3", "Q4", "FY"
    for r, row in enumerate(QUARTERS, start=6):
        for j, x in enumerate(row, start=9):
            ws.cell(r, j, x)
    path = tmp_path_factory.mktemp("group") / "kestrel.xlsx"
    wb.save(path)
    return open_workbook(path)


def test_the_consolidated_figures_are_read_where_no_entity_is_named(group: Any) -> None:
    # Group beside Company at the same date: the group's statements lead with the consolidated figure
    assert answered(group, "What were inventories in FY2026?") == 820
    assert answered(group, "What was cash and cash equivalents at the FY2025 year end?") == 610
    # the company's own column where the question names it
    assert answered(group, "What were trade and other receivables for the company in FY2026?") == 400


def test_the_latest_period_is_read_where_none_is_named(group: Any) -> None:
    assert answered(group, "What was closing retained earnings?") == 3050


def test_the_prior_year_is_the_year_before_the_one_named(group: Any) -> None:
    assert answered(group, "Q4 revenue: FY2026 minus the prior year?") == 150  # 2550 - 2400
    assert answered(group, "Q2 revenue: FY2026 minus FY2025?") == 250  # 2300 - 2050
    assert (
        prior_year_named("Q4 revenue: FY2026 minus the prior year?") == "Q4 revenue: FY2026 minus the FY2025?"
    )
    assert prior_year_named("Cash at 31 March 2026 against the prior year-end") == (
        "Cash at 31 March 2026 against the 2025 year-end"
    )
    # no year named, or two: each year against the one before it, or as written
    assert prior_year_named("In which years did sales fall compared with the prior year?") == (
        "In which years did sales fall compared with the prior year?"
    )
    assert prior_year_named("Sales in 2024 and 2025 against the previous year") == (
        "Sales in 2024 and 2025 against the previous year"
    )


def test_each_line_of_a_list_is_placed_by_its_own_words(group: Any) -> None:
    # current borrowings (250) + share capital (500) + non-current lease liabilities (310)
    asked = "What do current borrowings, share capital and long-term lease liabilities add up to in FY2026?"
    assert answered(group, asked) == 1060
    # a total the words touch is not a member: 980 + 70 + 250
    asked = (
        "What is the sum of trade payables, short-term lease liabilities and current borrowings in FY2026?"
    )
    assert answered(group, asked) == 1300


def test_a_slash_between_two_lines_divides(group: Any) -> None:
    got = answered(group, "Current borrowings / total current liabilities in FY2025 for the group?")
    assert got == pytest.approx(200 / 1165)


def test_a_line_of_each_table_relative_to_the_other(group: Any) -> None:
    got = answered(
        group, "What are inventories at the FY26 year end relative to FY26 annual revenue, in percent?"
    )
    assert got == pytest.approx(100 * 820 / 9200)
    got = answered(group, "Full-year FY2025 revenue divided by total assets at the FY2025 year end?")
    assert got == pytest.approx(8500 / 6420)


#: (label, actual 2026, budget 2026, actual 2025); None: a section line.
SMALL_LINES: list[tuple[str, tuple[int, int, int] | None]] = [
    ("Fixed assets", None),
    ("Tangible fixed assets", (91000, 95000, 84000)),
    ("Total fixed assets", (91000, 95000, 84000)),
    ("Current assets", None),
    ("Stock", (30000, 28000, 26000)),
    ("Trade debtors", (52000, 50000, 47000)),
    ("Cash at bank", (18000, 20000, 21000)),
    ("Total current assets", (100000, 98000, 94000)),
    ("Current liabilities", None),
    ("Trade creditors", (26000, 27000, 24000)),
    ("VAT payable", (9000, 8500, 8000)),
    ("Bank loan - due < 1 year", (5000, 5000, 5000)),
    ("Total current liabilities", (40000, 40500, 37000)),
    ("Long term liabilities", None),
    ("Bank loan - due > 1 year", (20000, 20000, 25000)),
    ("Total long term liabilities", (20000, 20000, 25000)),
    ("Net assets", (131000, 132500, 116000)),
    ("Capital & reserves", None),
    ("Share capital", (1000, 1000, 1000)),
    ("Retained earnings", (130000, 131500, 115000)),
    ("Total capital & reserves", (131000, 132500, 116000)),
]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows: list[list[Any]] = [
        ["Larkspur Tiling Ltd"],
        ["Management accounts"],
        ["Balance sheet as at 31 December 2026 - actual vs budget"],
        [],
        ["", "Actual 31 December 2026", "Budget 31 December 2026", "Actual 31 December 2025"],
        ["", "£", "£", "£"],
    ]
    rows += [[label, *(figures or ())] for label, figures in SMALL_LINES]
    rows += [
        [],
        [],
        ["Sales by channel, 12 months to 31 December 2026"],
        ["£", "Actual", "Budget", "Variance"],
        ["Showroom", 240000, 230000, 10000],
        ["Trade", 310000, 320000, -10000],
        ["Online", 50000, 45000, 5000],
        ["Total", 600000, 595000, 5000],
    ]
    return book_of(tmp_path_factory, "larkspur", rows, title="BS vs budget")


def test_total_assets_and_liabilities_from_the_totals_of_their_parts(small: Any) -> None:
    # no "Total assets" line: fixed assets plus current assets, at the date asked, actual
    assert answered(small, "Give me actual total assets at 31 December 2026") == 191000
    # creditors due within a year plus those due after it
    assert answered(small, "Total liabilities at 31 December 2025?") == 62000
    got = answered(small, "VAT owed / total liabilities at 31 December 2026, actual?")
    assert got == pytest.approx(9000 / 60000)


def test_a_tables_total_line_where_no_row_is_named(small: Any) -> None:
    # sales by channel closed by ``Total``: "actual revenue" is its figure (the crosswalk's "revenue")
    got = answered(small, "What's closing stock relative to the year's actual revenue, in %?")
    assert got == pytest.approx(100 * 30000 / 600000)
    got = answered(small, "What is closing stock relative to the year's actual sales, as a percentage?")
    assert got == pytest.approx(100 * 30000 / 600000)


@pytest.mark.parametrize(
    "question",
    [
        "What were inventories for the joint venture in the prior year?",
        "Current borrowings / / total current liabilities?",
        "What do , , and add up to in FY2026?",
        "What was revenue relative to relative to the prior year-end FY2026?",
        "Q4 revenue: FY1999 minus the prior year?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(group: Any, question: str) -> None:
    answers_or_says_why(group, question)


#: A statement that closes each block with its figures under the block's own name (no "total"):
#: (label, 31.12.2025, 31.12.2024, 31.12.2023).
CLOSED_LINES: list[tuple[str, tuple[float | None, float | None, float | None] | None]] = [
    ("Assets", None),
    ("Intangible assets", (410.0, 400.0, 380.0)),
    ("Other financial assets", (55.0, 50.0, 45.0)),
    ("Non-current assets", (465.0, 450.0, 425.0)),
    ("Inventories", (120.0, 110.0, 100.0)),
    ("Other financial assets", (30.0, 25.0, 20.0)),
    ("Cash and cash equivalents", (90.0, 95.0, 80.0)),
    ("Assets held for sale", (15.0, None, None)),  # ("-" before it arose)
    ("Current assets", (255.0, 230.0, 200.0)),
    ("Total assets", (720.0, 680.0, 625.0)),
    ("Equity and liabilities", None),
    ("Subscribed capital", (100.0, 100.0, 100.0)),
    ("Retained earnings", (260.0, 230.0, 200.0)),
    ("Equity attributable to shareholders", (360.0, 330.0, 300.0)),
    ("Non-controlling interests", (20.0, 18.0, 15.0)),
    ("Equity", (380.0, 348.0, 315.0)),
    ("Provisions for pensions", (80.0, 82.0, 85.0)),
    ("Financial liabilities", (150.0, 140.0, 130.0)),
    ("Non-current liabilities", (230.0, 222.0, 215.0)),
    ("Financial liabilities", (40.0, 45.0, 35.0)),
    ("Trade payables", (70.0, 65.0, 60.0)),
    ("Current liabilities", (110.0, 110.0, 95.0)),
    ("Total equity and liabilities", (720.0, 680.0, 625.0)),
]


@pytest.fixture(scope="module")
def closed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows: list[list[Any]] = [
        ["Haverkamp Coatings N.V."],
        ["Consolidated balance sheet"],
        [],
        ["", "31.12.2025", "31.12.2024", "31.12.2023"],
        ["", "€ million", "€ million", "€ million"],
    ]
    rows += [[label, *("-" if x is None else x for x in (figures or ()))] for label, figures in CLOSED_LINES]
    return book_of(tmp_path_factory, "haverkamp", rows, title="Balance sheet")


def test_blocks_closed_by_their_own_names_place_their_lines(closed: Any) -> None:
    # ``Current assets`` closes its block although one line is "-" in the earlier years
    assert answered(closed, "What were current other financial assets at 31.12.2024?") == 25
    assert answered(closed, "Non-current financial liabilities at the end of 2025?") == 150


def test_total_liabilities_from_parts_named_without_total(closed: Any) -> None:
    assert answered(closed, "Total liabilities at the end of 2024?") == 332  # 222 + 110
    assert answered(closed, "Total liabilities divided by total equity at the end of 2025?") == pytest.approx(
        340 / 380
    )
    got = answered(closed, "What's the ratio of total liabilities to total equity at the end of 2023?")
    assert got == pytest.approx(310 / 315)
    got = answered(closed, "Total liabilities at each balance sheet date, most recent first?")
    assert got == [340, 332, 310]


def test_a_columns_own_words_are_not_the_prior_year() -> None:
    holds = lambda name: name.casefold() == "previous year"  # noqa: E731  (a column headed so)
    asked = "What is the change on the previous year (%) in Eastbury in 2022?"
    assert prior_year_named(asked, holds) == asked
    assert prior_year_named("Sales in 2022 against the previous year") == "Sales in 2022 against the 2021"


@pytest.fixture(scope="module")
def quarterly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows: list[list[Any]] = [
        ["Revenue - quarterly (financial year to September)"],
        [],
        ["£", "Q1", "Q2", "Q3", "Q4"],
        [2025, 804331, 913259, 919129, 951679],
        [2024, 827049, 938327, 671625, 914526],
    ]
    return book_of(tmp_path_factory, "quarterly", rows, title="Revenue")


def test_years_down_the_rows_and_quarters_across(quarterly: Any) -> None:
    assert answered(quarterly, "What was total revenue for 2025?") == 3588398
    assert answered(quarterly, "What was full-year revenue in 2024?") == 3351527
    assert answered(quarterly, "How much did Q4 revenue grow from 2024 to 2025?") == 37153
    assert answered(quarterly, "Which quarter had the highest revenue in 2025?") == "Q4"
    assert answered(quarterly, "What was Q3 revenue in 2024?") == 671625


@pytest.fixture(scope="module")
def quarter_ends(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows: list[list[Any]] = [
        ["Saltmarsh Savings Bank"],
        ["Balance sheet - quarterly trend"],
        ["EUR m", "Dec-24", "Mar-25", "Jun-25", "Sep-25", "Dec-25"],
        ["Assets"],
        ["Cash and balances at central banks", 3100, 3150, 3080, 3120, 3170],
        ["Loans and advances to banks", 900, 880, 910, 890, 905],
        ["Loans and advances to customers", 14000, 14200, 14150, 14300, 14400],
        ["Total assets", 18000, 18230, 18140, 18310, 18475],
        ["Liabilities"],
        ["Customer deposits", 15000, 15100, 14950, 15200, 15300],
        ["Other liabilities", 1900, 2000, 2050, 1950, 2000],
        ["Total liabilities", 16900, 17100, 17000, 17150, 17300],
        ["Total equity", 1100, 1130, 1140, 1160, 1175],
    ]
    return book_of(tmp_path_factory, "saltmarsh", rows, title="Balance sheet")


def test_quarter_end_columns_written_as_months(quarter_ends: Any) -> None:
    # a change within a quarter runs from the end of the one before: Sep-25 less Jun-25
    assert answered(quarter_ends, "How much did customer deposits change during Q3 2025?") == 250
    assert answered(quarter_ends, "Did total assets grow in Q2 2025?") is False  # 18140 < 18230
    # no date named: the latest quarter end
    assert answered(quarter_ends, "What was total equity?") == 1175
    # every quarter end: (1100 + 1130 + 1140 + 1160 + 1175) / 5
    assert answered(quarter_ends, "What was average total equity across the five quarter ends?") == 1141
    # a line named in part beside the whole named in full
    got = answered(quarter_ends, "What share of total assets were customer loans at Dec-25?")
    assert got == pytest.approx(14400 / 18475)


def test_how_a_figure_moved_in_a_year(small: Any) -> None:
    # "how did X move in 2026": from the 2025 year end to the 2026 one, actual figures
    assert answered(small, "How did trade creditors move in 2026?") == 2000
    # total liabilities, the sum of its two parts at each date: 60000 - 62000
    assert answered(small, "How did total liabilities move in the 2026 financial year?") == -2000


#: Management accounts at month ends (dates as headers); a line shown "-" where it is nil.
MONTHS_NIL: list[list[Any]] = [
    ["Balance sheet", None, None, None],
    [None, dt.datetime(2024, 10, 31), dt.datetime(2024, 11, 30), dt.datetime(2024, 12, 31)],
    ["Current liabilities", None, None, None],
    ["Trade creditors", 299490, 297062, 293303],
    ["Bank overdraft", "-", 17196, "-"],
    ["Total current liabilities", 299490, 314258, 293303],
]


def test_a_line_shown_as_a_dash_is_nil(tmp_path_factory: pytest.TempPathFactory) -> None:
    book = book_of(tmp_path_factory, "months_nil", MONTHS_NIL)
    assert answered(book, "Bank overdraft at Dec-24?") == 0
    assert answered(book, "Bank overdraft at Nov-24?") == 17196


#: A US balance sheet (made up): current assets under their heading, the non-current lines after
#: their total with no heading of their own.
US_ASSETS: list[list[Any]] = [
    ["Consolidated Balance Sheets (in thousands)", None, None],
    [None, "December 31, 2024", "December 31, 2023"],
    ["Assets", None, None],
    ["Current assets:", None, None],
    ["Cash and cash equivalents", 200874, 172684],
    ["Accounts receivable, net", 109141, 97135],
    ["Inventories", 53357, 53964],
    ["Total current assets", 363372, 323783],
    ["Property and equipment, net", 139231, 151099],
    ["Goodwill", 240063, 237441],
    ["Other assets", 20221, 21586],
    ["Total assets", 762887, 733909],
]


def test_non_current_lines_are_not_the_current_heading_and_periods_in_order(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    book = book_of(tmp_path_factory, "us_assets", US_ASSETS)
    # "non-current" negates ``Current assets:``: Goodwill first, Property and equipment second
    asked = "Ranking the non-current asset lines at the end of 2024, which comes second by size?"
    assert answered(book, asked) == "Property and equipment, net"
    assert (
        answered(book, "Which current asset was largest at the end of 2024?") == "Cash and cash equivalents"
    )
    # two dates listed "in that order": one figure each
    listed = "Give inventories for December 31, 2023 and December 31, 2024, in that order."
    assert answered(book, listed) == [53964, 53357]

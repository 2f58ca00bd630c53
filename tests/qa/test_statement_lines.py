"""How the rules read a balance sheet's lines and dates: restated columns, "of which" lines, the
statement named as the source, a net-debt box beside the statement, relative dates and "X other
than Y". The workbooks and figures are made up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from gridsight.detect import detect_tables
from gridsight.qa import answer_question
from gridsight.sources import open_workbook

#: label, 31 Dec 2025, 31 Dec 2024 (restated), 1 Jan 2024 (restated); None: a section line.
RESTATED: list[tuple[str, int | None, int | None, int | None]] = [
    ("Non-current assets", None, None, None),
    ("Goodwill", 410, 395, 380),
    ("Other intangible assets", 120, 131, 126),
    ("Property, plant and equipment", 900, 870, 860),
    ("Total non-current assets", 1430, 1396, 1366),
    ("Current assets", None, None, None),
    ("Inventories", 210, 190, 185),
    ("Trade and other receivables", 330, 300, 280),
    ("of which: trade receivables", 250, 240, 215),
    ("Cash and cash equivalents", 140, 160, 150),
    ("Total current assets", 680, 650, 615),
    ("Equity", None, None, None),
    ("Share capital", 100, 100, 100),
    ("Other reserves", 64, 58, 61),
    ("Retained earnings", 1146, 1098, 1030),
    ("Total equity", 1310, 1256, 1191),
    ("Non-current liabilities", None, None, None),
    ("Non-current financial liabilities", 500, 480, 470),
    ("of which lease liabilities", 90, 70, 65),
    ("Deferred tax liabilities", 45, 52, 38),
    ("Total non-current liabilities", 545, 532, 508),
    ("Current liabilities", None, None, None),
    ("Trade payables", 180, 170, 200),
    ("Current tax liabilities", 75, 88, 82),
    ("Total current liabilities", 255, 258, 282),
]


def _restated(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance sheet"
    ws.append(["Nordvik Shipping A/S"])
    ws.append(["Consolidated balance sheet"])
    ws.append(["DKK million"])
    ws.append([])
    ws.append([None, "31 Dec 2025", "31 Dec 2024", "1 Jan 2024"])
    ws.append([None, None, "Restated¹", "Restated¹"])
    for label, *figures in RESTATED:
        ws.append([label, *figures])
    ws.append([])
    ws.append(["¹ Restated for the change in accounting policy."])
    wb.save(folder / "restated.xlsx")
    return open_workbook(folder / "restated.xlsx")


@pytest.fixture(scope="module")
def restated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _restated(tmp_path_factory.mktemp("restated"))


def _value(book: Any, question: str, sheet: str | None = None) -> Any:
    ans = answer_question(book, question, sheet=sheet)
    assert ans.status == "answered", ans.reason
    return ans.value


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # each date written whole names its column, whatever stands under it (``Restated¹``)
        ("Did other reserves increase from 31 December 2024 to 31 December 2025?", True),
        ("Did deferred tax liabilities increase from 31 December 2024 to 31 December 2025?", False),
        ("By what percentage did goodwill change from 1 January 2024 to 31 December 2025? In percent.", 7.9),
        # the dates are told apart by their days, though two of them fall in one year
        ("Which balance sheet date shows the highest deferred tax liabilities?", "31 Dec 2024"),
        (
            "Across all the dates shown, when was trade payables lowest? Answer with the column header.",
            "31 Dec 2024",
        ),
        ("In how many of the 3 balance sheet dates shown was inventories above 186?", 2),
        ("In how many of the 3 balance sheet dates shown was inventories above 200?", 1),
        # a slash between two letters is a company's name, not a division
        (
            "In Nordvik Shipping A/S's statement, how much higher or lower was trade payables at "
            "31 December 2025 than at 31 December 2024?",
            10,
        ),
    ],
)
def test_restated_dates(restated: Any, question: str, answer: Any) -> None:
    value = _value(restated, question)
    assert (round(value, 1) if isinstance(value, float) else value) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "What was trade receivables (the 'of which' line under trade and other receivables) "
            "at 31 December 2025?",
            250,
        ),
        ("What was non-current lease liabilities at 31 December 2024?", 70),
        (
            "By how much did the 'of which' lease liabilities line change from 31 December 2024 "
            "to 31 December 2025?",
            20,
        ),
        # the parent and its part set against each other: both are read
        (
            "What share of non-current financial liabilities were lease liabilities at 31 December 2025? "
            "In percent.",
            18.0,
        ),
    ],
)
def test_of_which_lines(restated: Any, question: str, answer: Any) -> None:
    value = _value(restated, question)
    assert (round(value, 1) if isinstance(value, float) else value) == answer


def test_a_blank_row_under_the_headers_spreads_no_label(tmp_path: Path) -> None:
    # ``Restated*`` stands under the first date only; a blank row follows the headers
    wb = Workbook()
    ws = wb.active
    ws.append(["Consolidated statement of financial position"])
    ws.append([None, "31 March 2025", "31 March 2026"])
    ws.append([None, "Restated*", None])
    ws.append([])
    for label, a, b in [
        ("Inventories", 545, 668),
        ("Receivables", 539, 468),
        ("Total current assets", 1084, 1136),
    ]:
        ws.append([label, a, b])
    wb.save(tmp_path / "s.xlsx")
    (table,) = detect_tables(open_workbook(tmp_path / "s.xlsx").sheets[0]).tables
    assert table.header_paths[1:] == ("31 March 2025 › Restated*", "31 March 2026")


def _box(folder: Path) -> Any:
    """A balance sheet with a net-debt box beside it on the same sheet: both hold "current",
    "liabilities" and "year", only the statement writes "current assets" as one phrase."""
    wb = Workbook()
    ws = wb.active
    ws.title = "SOFP"
    ws.append(["Corran Mills plc"])
    ws.append(["Consolidated balance sheet as at 31 December 2025"])
    ws.append(["£ million"])
    ws.append([None] * 7 + ["Analysis of net debt"])
    ws.append([None, 2025, 2024, 2023, None, None, None, None, "2025", "2024", "2023"])
    box = [
        ("Borrowings due within one year", 93, 86, 80),
        ("Borrowings due after one year", 402, 432, 460),
        ("Lease liabilities (current and non-current)", 90, 96, 99),
        ("Less: cash and cash equivalents", -103, -92, -85),
        ("Net debt", 482, 522, 554),
    ]
    lines: list[tuple[str, int | None, int | None, int | None]] = [
        ("Current assets", None, None, None),
        ("  Inventories", 127, 115, 108),
        ("  Trade and other receivables", 215, 184, 179),
        ("  Cash and cash equivalents", 103, 92, 85),
        ("Total current assets", 445, 391, 372),
        ("Current liabilities", None, None, None),
        ("  Trade and other payables", 207, 227, 232),
        ("  Borrowings", 93, 86, 80),
        ("  Current tax liabilities", 12, 10, 9),
        ("Total current liabilities", 312, 323, 321),
        ("Non-current liabilities", None, None, None),
        ("  Borrowings", 402, 432, 460),
        ("  Deferred tax liabilities", 51, 50, 47),
        ("  Deposits from banks", 60, 55, 50),
        ("  Due to customers", 80, 70, 65),
        ("Total non-current liabilities", 593, 607, 622),
    ]
    for i, (label, *figures) in enumerate(lines):
        row = [label, *figures]
        if i < len(box):
            row += [None, None, None, *box[i]]
        ws.append(row)
    wb.save(folder / "box.xlsx")
    return open_workbook(folder / "box.xlsx")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the two tables hold the same words; only the statement writes "current assets" as one
        ("What was the current ratio in 2024 (current assets over current liabilities)?", 1.21),
        (
            "What was the current ratio at the prior year end (current assets over current liabilities)?",
            1.21,
        ),
        ("What was net debt in 2024?", 522),
        # the earliest date the statement shows
        ("What were inventories at the earliest balance sheet date shown?", 108),
        # a line under two sections, both named at one mention: the two cells added up
        ("What were total borrowings (non-current plus current) in 2025?", 495),
        ("What was total borrowings in 2023, calculated as non-current plus current borrowings?", 540),
        (
            "What was total borrowings (current and non-current) divided by total current assets in 2024?",
            1.32,
        ),
        # the words inside a line's name are no operation: "from ... to" in two lines' names
        ("What were deposits from banks plus due to customers in 2025?", 140),
        (
            "Which non-current liability line was the largest at the earliest balance sheet date shown?",
            "Borrowings",
        ),
    ],
)
def test_statement_beside_a_box(with_box: Any, question: str, answer: Any) -> None:
    value = _value(with_box, question, sheet="SOFP")
    assert (round(value, 2) if isinstance(value, float) else value) == answer


def _income(folder: Path) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Operations"
    ws.append(["Consolidated Statements of Operations"])
    ws.append(["(in thousands)"])
    ws.append([None, "Years ended December 31,", None])
    ws.append([None, 2025, 2024])
    for line in [
        ("Net sales", 17828, 15897),
        ("Cost of sales", 9906, 8095),
        ("Gross profit", 7922, 7802),
        ("Finance income", 310, 280),
        ("Share of profit of associates", 145, 120),
        ("Income before income taxes", 2892, 2839),
        ("Net income", 2234, 2232),
    ]:
        ws.append(list(line))
    wb.save(folder / "income.xlsx")
    return open_workbook(folder / "income.xlsx")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the statement named is where to look: its "income" names no line
        ("What did the income statement show for sales in fiscal 2025?", 17828),
        ("According to the consolidated income statement, what were sales in 2024?", 15897),
        # a line's own "share" asks for no share
        ("What is the combined total of finance income and share of profit of associates in 2025?", 455),
    ],
)
def test_the_statement_named(income: Any, question: str, answer: Any) -> None:
    assert _value(income, question) == answer


def _group(folder: Path) -> Any:
    """Group and Company columns, the non-current assets' subtotal unlabelled."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Financial position"
    ws.append(["Tolland Engineering plc"])
    ws.append(["Consolidated statement of financial position as at 31 December 2025"])
    ws.append(["£000"])
    ws.append([])
    ws.append([None, "Group", None, None, "Company", None])
    ws.append([None, "2025", "2024", None, "2025", "2024"])
    ws.append([])
    for line in [
        ("Non-current assets", None, None, None, None, None),
        ("Property, plant and equipment", 25969, 22053, None, 7858, 9072),
        ("Goodwill", 8824, 8017, None, 0, 0),
        ("Fixed asset investments", 1937, 1663, None, 1302, 1361),
        ("Other intangible assets", 4737, 4500, None, 2463, 2302),
        (None, 41467, 36233, None, 11623, 12735),
        ("Current assets", None, None, None, None, None),
        ("Inventories", 11174, 12560, None, 4797, 5381),
        ("Cash and cash equivalents", 9567, 9436, None, 4169, 4456),
        ("Total current assets", 20741, 21996, None, 8966, 9837),
        ("Current liabilities", None, None, None, None, None),
        ("Trade and other payables", 9120, 8830, None, 2950, 2710),
        ("Current tax liabilities", 820, 760, None, 355, 298),
        ("Borrowings", 1500, 1400, None, 600, 650),
        ("Total current liabilities", 11440, 10990, None, 3905, 3658),
    ]:
        ws.append(list(line))
    wb.save(folder / "group.xlsx")
    return open_workbook(folder / "group.xlsx")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a section named alone is its closing total, unlabelled as it is
        ("By how much did total non-current assets for the Group change between 2024 and 2025?", 5234),
        # the words that name the section choose among its lines, they name none of them
        (
            "Among the current liability lines, which had the highest balance in the company-only columns "
            "at the most recent balance sheet date?",
            "Trade and other payables",
        ),
        # a section's name inside a line's ("fixed asset investments") names no section figure
        ("Add up goodwill and fixed asset investments for the Group in 2025.", 10761),
        # "X other than Y" is the table's own ``Other X`` line
        (
            "Which year shows the lowest figure for intangible assets other than goodwill for the Group?",
            "2024",
        ),
        ("What were intangible assets other than goodwill for the Company in 2025?", 2463),
    ],
)
def test_group_and_company(group_company: Any, question: str, answer: Any) -> None:
    assert _value(group_company, question) == answer


@pytest.mark.parametrize(
    "question",
    [
        "Which balance sheet date shows the highest unicorn reserves?",
        "What was the 'of which' line under nothing at 31 December 2025?",
        "In how many of the 3 balance sheet dates shown was ?",
        "intangible assets other than other than other than",
        "Across all the dates shown, when was",
        "What did the income statement show?",
    ],
)
def test_hostile_questions_get_an_answer_or_a_reason(restated: Any, question: str) -> None:
    ans = answer_question(restated, question)
    assert ans.status in ("answered", "abstained")
    assert ans.status == "answered" or ans.reason


@pytest.fixture(scope="module")
def with_box(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _box(tmp_path_factory.mktemp("box"))


@pytest.fixture(scope="module")
def income(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _income(tmp_path_factory.mktemp("income"))


@pytest.fixture(scope="module")
def group_company(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _group(tmp_path_factory.mktemp("group"))


def _uk_small(folder: Path) -> Any:
    """A UK small company's balance sheet: unlabelled subtotals under the fixed and current assets,
    creditors in brackets as text, and a key-ratio box beside it."""
    wb = Workbook()
    ws = wb.active
    ws.title = "BS"
    ws.append(["Harrowgate Joinery Limited"])
    ws.append(["Balance sheet as at 31 March"])
    ws.append([None, None, None, None, "Key ratios", None, None])
    ws.append([None, "31 March 2025", "31 March 2024", None, None, "2025", "2024"])
    lines: list[tuple[Any, ...]] = [
        ("Fixed assets", None, None),
        ("  Intangible assets", 1200, 1100),
        ("  Tangible assets", 16000, 17000),
        (None, 17200, 18100),
        ("Current assets", None, None),
        ("  Stocks", 3600, 3000),
        ("  Debtors", 7900, 7950),
        ("  Cash at bank and in hand", 4500, 4000),
        (None, 16000, 14950),
        ("Creditors: amounts falling due within one year", "(6,400)", "(7,100)"),
        ("Net current assets", 9600, 7850),
        ("Total assets less current liabilities", 26800, 25950),
        ("Capital and reserves", None, None),
        ("  Called up share capital", 200, 200),
        ("  Profit and loss account", 26600, 25750),
        ("Shareholders' funds", 26800, 25950),
    ]
    box = [("Current ratio (times)", 2.5, 2.11), ("Net current assets (£)", 9600, 7850)]
    for i, line in enumerate(lines):
        row = list(line)
        if i < len(box):
            row += [None, *box[i]]
        ws.append(row)
    wb.save(folder / "uk.xlsx")
    return open_workbook(folder / "uk.xlsx")


@pytest.fixture(scope="module")
def uk_small(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _uk_small(tmp_path_factory.mktemp("uk"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the figure under the current assets is theirs, though no label names it
        ("What were current assets in 2024?", 14950),
        ("What were fixed assets at 31 March 2025?", 17200),
        # "current liabilities" are a UK balance sheet's creditors due within one year
        ("What were current liabilities in 2024?", -7100),
        # the section's own figure is an operand beside the lines named
        (
            "What was the quick ratio in 2025, i.e. (current assets minus stocks) over current liabilities?",
            1.94,
        ),
        # the lines after the unlabelled figure are no current assets
        ("Which current asset was the largest in 2024?", "Debtors"),
        ("How many current asset lines were above 4,000 in 2025?", 2),
    ],
)
def test_unlabelled_subtotals(uk_small: Any, question: str, answer: Any) -> None:
    value = _value(uk_small, question, sheet="BS")
    assert (round(value, 2) if isinstance(value, float) else value) == answer


def _fiscal(folder: Path) -> Any:
    """Two header rows (the fiscal year over its "As of" date), an "Other" line in several
    sections, a note reference inside labels."""
    wb = Workbook()
    ws = wb.active
    ws.title = "BS"
    ws.append(["Consolidated balance sheet (¥ million)"])
    ws.append([None, "Prior fiscal year", "Current fiscal year"])
    ws.append([None, "As of March 31, 2025", "As of March 31, 2026"])
    for line in [
        ("Current assets", None, None),
        ("  Cash and deposits", 5200, 6100),
        ("  Merchandise and finished goods", 3100, 2900),
        ("  Trade receivables", 1500, 1700),
        ("  Other", 740, 554),
        ("  Total current assets", 10540, 11254),
        ("Non-current assets", None, None),
        ("  Buildings and structures, net", 8800, 9100),
        ("  Other", 1210, 1390),
        ("  Total non-current assets", 10010, 10490),
        ("Current liabilities", None, None),
        ("  Current portion of long-term borrowings", 4212, 3980),
        ("  Provisions (Note 12)", 610, 655),
        ("  Total current liabilities", 4822, 4635),
        ("Non-current liabilities", None, None),
        ("  Long-term borrowings", 6100, 5800),
        ("  Provisions (Note 12)", 390, 420),
        ("  Total non-current liabilities", 6490, 6220),
    ]:
        ws.append(list(line))
    wb.save(folder / "fiscal.xlsx")
    return open_workbook(folder / "fiscal.xlsx")


@pytest.fixture(scope="module")
def fiscal(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _fiscal(tmp_path_factory.mktemp("fiscal"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a day written whole names its column, whatever "current" the question says
        ("What was current portion of long-term borrowings as at 31 March 2025?", 4212),
        # two header levels apart, one day each: the day tells the columns apart
        ("Between 31 March 2025 and March 31, 2026, did merchandise and finished goods decrease?", True),
        ("Which balance sheet date shows the lower buildings and structures, net?", "As of March 31, 2025"),
        # a quoted line, placed by the words outside the quotes
        ("By how much did 'Other' under current assets decrease from March 31, 2025 to March 31, 2026?", 186),
        ("What figure appears for 'Provisions' in the current liabilities section at 31 March 2026?", 655),
        (
            "What do 'Other' under non-current assets and long-term borrowings add up to at 31 March 2026?",
            7190,
        ),
        # a note reference is no part of a line's name
        ("Which non-current liability line was the smallest at 31 March 2026?", "Provisions"),
    ],
)
def test_fiscal_year_columns_and_quoted_lines(fiscal: Any, question: str, answer: Any) -> None:
    assert _value(fiscal, question) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "the smallest component of": a line of the group, by name
        ("What was the smallest component of current liabilities as of March 31, 2026?", "Provisions"),
        # how many of a group's lines rose (or fell) between the two dates named
        ("How many of the individual current assets lines rose from March 31, 2025 to March 31, 2026?", 2),
        ("Between 31 March 2025 and 31 March 2026, how many line items within current assets went down?", 2),
    ],
)
def test_lines_of_a_group(fiscal: Any, question: str, answer: Any) -> None:
    assert _value(fiscal, question) == answer


def _monthly(folder: Path) -> Any:
    """Management accounts: month-end columns written ``Jun-25``."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance Sheet"
    ws.append(["Brindle Bakery Ltd - Balance Sheet"])
    ws.append([None, "Jun-25", "Jul-25", "Aug-25"])
    for line in [
        ("Fixed Assets", None, None, None),
        ("Motor vehicles", 21000, 20500, 20000),
        ("Equipment", 14000, 13800, 13600),
        ("Total Fixed Assets", 35000, 34300, 33600),
        ("Current Liabilities", None, None, None),
        ("Hire purchase", 9500, 9100, 8000),
        ("Credit card", 1200, 1900, 900),
        ("Total Current Liabilities", 10700, 11000, 8900),
    ]:
        ws.append(list(line))
    wb.save(folder / "monthly.xlsx")
    return open_workbook(folder / "monthly.xlsx")


@pytest.fixture(scope="module")
def monthly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _monthly(tmp_path_factory.mktemp("monthly"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a month and year written in full name the ``Jul-25`` column
        ("How much did credit card increase from June 2025 to July 2025?", 700),
        # "by what percentage did X fall": by how much, a size
        (
            "By what percentage did hire purchase fall between Jun-25 and August 2025? One decimal.",
            15.8,
        ),
        ("By what percentage did hire purchase change from Jun-25 to Aug-25 (negative if it fell)?", -15.8),
    ],
)
def test_month_columns(monthly: Any, question: str, answer: Any) -> None:
    value = _value(monthly, question)
    assert (round(value, 1) if isinstance(value, float) else value) == answer


def test_a_statement_converted_from_pdf(tmp_path: Path) -> None:
    """ "$" in columns of their own, amounts as text, the years over the amounts only, an
    unlabelled subtotal under the current assets."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance Sheet"
    ws["A1"], ws["A2"], ws["C4"], ws["D5"], ws["G5"] = (
        "Quillfeather Systems, Inc.",
        "BALANCE SHEETS",
        "December 31,",
        "2025",
        "2024",
    )
    ws["A6"], ws["A7"] = "Assets", "Current assets:"
    for r, (label, s, a, b) in enumerate(
        [
            ("Cash and cash equivalents", "$", "35,844", "31,840"),
            ("Accounts receivable, net", None, "50,845", "56,066"),
            ("Inventories", None, "30,751", "26,760"),
            (None, None, "117,440", "114,666"),
            ("Goodwill", None, "98,127", "99,141"),
            ("Total assets", "$", "215,567", "213,807"),
        ],
        start=8,
    ):
        ws[f"A{r}"], ws[f"C{r}"], ws[f"D{r}"], ws[f"F{r}"], ws[f"G{r}"] = label, s, a, s, b
    wb.save(tmp_path / "converted.xlsx")
    book = open_workbook(tmp_path / "converted.xlsx")
    assert _value(book, "What were inventories at December 31, 2025?") == 30751
    assert _value(book, "What was the largest component of current assets at December 31, 2024?") == (
        "Accounts receivable, net"
    )


def _condensed(folder: Path) -> Any:
    """A five-year summary: a line-ID column, subtotals named without "Total" closing the lines
    above them, the same labels under non-current and current liabilities."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Summary"
    ws.append(["Five-year summary (€ million)"])
    ws.append(["Consolidated balance sheet", "Line ID", "FY2023", "FY2024", "FY2025"])
    for line in [
        ("Equity and liabilities", None, None, None, None),
        ("Share capital", "BS-13", 400.0, 400.0, 400.0),
        ("Reserves", "BS-14", 1101.6, 1144.5, 1202.0),
        ("Total equity", "BS-15", 1501.6, 1544.5, 1602.0),
        ("Borrowings", "BS-16", 488.1, 554.6, 520.0),
        ("Provisions", "BS-17", 74.8, 98.7, 90.1),
        ("Deferred tax liabilities", "BS-18", 47.8, 71.0, 66.4),
        ("Non-current liabilities", "BS-19", 610.7, 724.3, 676.5),
        ("Borrowings", "BS-20", 97.4, 135.0, 130.3),
        ("Provisions", "BS-21", 22.6, 32.7, 30.0),
        ("Trade payables", "BS-22", 407.2, 412.7, 420.9),
        ("Current liabilities", "BS-23", 527.2, 580.4, 581.2),
        ("Total equity and liabilities", "BS-24", 2639.5, 2849.2, 2859.7),
    ]:
        ws.append(list(line))
    wb.save(folder / "condensed.xlsx")
    return open_workbook(folder / "condensed.xlsx")


@pytest.fixture(scope="module")
def condensed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _condensed(tmp_path_factory.mktemp("condensed"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a subtotal named without "Total" closes a group of lines named after it
        ("Which line item under non-current liabilities had the largest balance in FY2024?", "Borrowings"),
        ("What figure appears for 'Borrowings' in the current liabilities section in FY2025?", 130.3),
        # a date's day names no line code (``BS-24``)
        ("What was 'Provisions' in current liabilities at 31 December 2024?", 32.7),
        # "later figure minus earlier figure"
        (
            "Change in trade payables between FY24 and FY25 (later figure minus earlier figure)?",
            8.2,
        ),
    ],
)
def test_a_condensed_summary(condensed: Any, question: str, answer: Any) -> None:
    value = _value(condensed, question)
    assert (round(value, 1) if isinstance(value, float) else value) == answer


def _account_form(folder: Path) -> Any:
    """A German balance sheet in account form: assets beside equity and liabilities on the same
    rows, one title over both, outline numbers before the lines, dates written ``31.12.2025``."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance sheet"
    ws["A1"] = "Feldberg Präzision GmbH"
    ws["A2"] = "Balance sheet as at 31 December 2025"
    for col, values in (
        ("A", ["ASSETS", "31.12.2025", "31.12.2024"]),
        ("E", ["EQUITY AND LIABILITIES", "31.12.2025", "31.12.2024"]),
    ):
        start = ord(col)
        for i, v in enumerate(values):
            ws[f"{chr(start + i)}4"] = v
    assets = [
        ("A. Fixed assets", None, None),
        ("1. Goodwill", 3068581.10, 3094011.54),
        ("2. Other equipment", 2910317.13, 3272529.77),
        (None, 5978898.23, 6366541.31),
        ("B. Current assets", None, None),
        ("1. Work in progress", 1701205.88, 2030792.82),
        ("2. Advance payments", 344358.68, 348734.06),
        (None, 2045564.56, 2379526.88),
        ("Total", 8024462.79, 8746068.19),
    ]
    liabilities = [
        ("A. Equity", None, None),
        ("I. Subscribed capital", 2341654.30, 2341654.30),
        ("II. Retained profits brought forward", 1136697.08, 1260617.69),
        (None, 3478351.38, 3602271.99),
        ("B. Liabilities", None, None),
        ("1. Liabilities to banks", 2622286.02, 3062229.13),
        ("2. Other liabilities", 1923825.39, 2081567.07),
        (None, 4546111.41, 5143796.20),
        ("Total", 8024462.79, 8746068.19),
    ]
    for r, (a, b) in enumerate(zip(assets, liabilities, strict=True), start=5):
        for col, line in (("A", a), ("E", b)):
            for i, v in enumerate(line):
                ws[f"{chr(ord(col) + i)}{r}"] = v
    wb.save(folder / "account_form.xlsx")
    return open_workbook(folder / "account_form.xlsx")


@pytest.fixture(scope="module")
def account_form(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _account_form(tmp_path_factory.mktemp("account"))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # the title over both sides is each side's; "December 31, 2024" is ``31.12.2024``; the
        # outline number is no word of the line's name
        ("What was other liabilities as of December 31, 2024 (in EUR)?", 2081567.07),
        ("What do work in progress and advance payments add up to as of December 31, 2025?", 2045564.56),
        (
            "Which line item under equity had the smallest balance as at 31 December 2024?",
            "II. Retained profits brought forward",
        ),
    ],
)
def test_an_account_form_balance_sheet(account_form: Any, question: str, answer: Any) -> None:
    value = _value(account_form, question, sheet="Balance sheet")
    assert (round(value, 2) if isinstance(value, float) else value) == answer


def test_a_phrase_names_the_line_it_heads(tmp_path: Path) -> None:
    # "long-term debt" heads ``Long-term debt, net of current portion``; it only qualifies
    # ``Current portion of long-term debt``, though that line holds more of the question's words
    wb = Workbook()
    ws = wb.active
    ws.append(["Consolidated Balance Sheets"])
    ws.append([None, "June 30,", None])
    ws.append([None, 2024, 2025])
    ws.append(["Current liabilities:", None, None])
    ws.append(["  Accounts payable", 55475, 55360])
    ws.append(["  Current portion of long-term debt", 31622, 54912])
    ws.append(["    Total current liabilities", 87097, 110272])
    ws.append(["Long-term debt, net of current portion", 206402, 216183])
    ws.append(["  Total liabilities", 293499, 326455])
    wb.save(tmp_path / "debt.xlsx")
    assert (
        _value(open_workbook(tmp_path / "debt.xlsx"), "How much was reported for long-term debt for 2025?")
        == 216183
    )

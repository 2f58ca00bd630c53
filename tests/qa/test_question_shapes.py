"""Ways of asking that name no new operation: "List the three ... with the highest", "by how many
per cent did ... rise or fall", "Express A as a percentage of B", "Is it true that ...", "was "A" or
"B" the bigger figure", "the share of X made up by Y", a ratio "of women to men", context clauses
before the question ("Using the balance sheet: ...", "In the statement, at 31 December 2024, how
many ..."). The figures are made up."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import answered, book_of

#: year, users (total, male, female), usage rate (total, male, female)
USERS = [
    (2019, 3000, 1600, 1400, 70.0, 72.5, 67.5),
    (2020, 3300, 1700, 1600, 74.1, 75.0, 73.2),
    (2021, 3600, 1900, 1700, 78.3, 80.1, 76.4),
    (2022, 3500, 1800, 1700, 77.0, 78.2, 75.8),
    (2023, 3900, 2000, 1900, 81.2, 82.0, 80.4),
]

#: line, 31 Dec 2023, 31 Dec 2024
STATEMENT = [
    ("Non-current assets", None, None),
    ("Property, plant and equipment", 5200, 5000),
    ("Right-of-use assets", 800, 950),
    ("Intangible assets", 1200, 1300),
    ("Total non-current assets", 7200, 7250),
    ("Current assets", None, None),
    ("Inventories", 900, 1100),
    ("Trade receivables", 1400, 1300),
    ("Cash and cash equivalents", 500, 650),
    ("Total current assets", 2800, 3050),
    ("Total assets", 10000, 10300),
]


@pytest.fixture(scope="module")
def users(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Years down the rows, a count band and a rate band, each by sex with a total."""
    head = [
        ["Internet use by sex"],
        [],
        ["Year", "Users (thousands)", None, None, "Usage rate (%)", None, None],
    ]
    head.append([None, "Total", "Male", "Female", "Total", "Male", "Female"])
    book = book_of(tmp_path_factory, "users", [*head, *map(list, USERS)], ("A3:A4", "B3:D3", "E3:G3"))
    return book


@pytest.fixture(scope="module")
def statement(tmp_path_factory: pytest.TempPathFactory) -> Any:
    rows = [["Consolidated statement of financial position"], ["EUR thousand", "31 Dec 2023", "31 Dec 2024"]]
    return book_of(tmp_path_factory, "statement", [*rows, *map(list, STATEMENT)])


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("List the three years with the highest number of internet users (total).", ["2023", "2021", "2022"]),
        (
            "Between 2019 and 2023, by how many per cent did the number of male internet users rise or fall?",
            25.0,
        ),
        (
            "Express the number of male internet users in 2021 as a percentage of the number of internet "
            "users for both sexes combined in 2021, to one decimal place.",
            52.8,
        ),
        ("What is the ratio of the usage rate for women to that for men in 2019? Two decimals.", 0.93),
        # "which <noun>" over a breakdown's parts, its bare ``Total`` aside
        ("Which sex had the most internet users in 2021?", "Male"),
        # a rate's change in percentage points is the difference; "not percentage points" is relative
        (
            "By how much did the usage rate (%) for males change between 2019 and 2023 in percentage points?",
            9.5,
        ),
        (
            "What was the percentage change in the usage rate for males from 2019 to 2023 (relative change, "
            "not percentage points)? One decimal.",
            13.1,
        ),
    ],
)
def test_statistics_shapes(users: Any, question: str, expected: Any) -> None:
    assert answered(users, question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Using the balance sheet: is it true that inventories fell between 2023 and 2024?", False),
        ("According to the statement, is it true that trade receivables fell from 2023 to 2024?", True),
        ("At which balance sheet date were intangible assets highest?", "31 Dec 2024"),
        (
            'Was "Right-of-use assets" or "Intangible assets" the bigger figure at 31 December 2024? '
            "Answer with the line label.",
            "Intangible assets",
        ),
        (
            'Calculate the share of total assets made up by "Right-of-use assets" at 31 December 2023, '
            "in percent.",
            8.0,
        ),
        (
            "In the statement, at 31 December 2024, how many individual lines under current assets are "
            "greater than 1,000?",
            2,
        ),
        ("What were inventories plus cash and cash equivalents at 31 December 2024?", 1750),
    ],
)
def test_statement_shapes(statement: Any, question: str, expected: Any) -> None:
    assert answered(statement, question) == expected


@pytest.fixture(scope="module")
def monthly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A PX-Web export: months coded ``2023M01`` down the rows, one column per sector."""
    rows: list[list[Any]] = [["month", "Households", "Services"]]
    for i in range(1, 13):
        rows.append([f"2023M{i:02d}", 1000 + 10 * i, 700 - (-1) ** i * 20 - i])
    return book_of(tmp_path_factory, "monthly", rows)


@pytest.fixture(scope="module")
def quarterly(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Quarters coded as trimesters (``2023T1``) and semesters (``S1 2023``) across."""
    rows = [
        ["Province", "2022T4", "2023T1", "2023T2", "S1 2023", "S2 2023"],
        ["Arlen", 210, 230, 190, 420, 400],
        ["Brisk", 150, 160, 170, 330, 360],
        ["Total", 360, 390, 360, 750, 760],
    ]
    return book_of(tmp_path_factory, "quarterly", rows)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # statistics offices' period codes are the periods a question names in words
        ("What was the electricity use by households in February 2023?", 1020),
        ("In how many of the months from March 2023 to August 2023 was the use by services over 690?", 3),
        ("What was the number for Arlen in the second quarter of 2023?", 190),
        ("By how much did Brisk change from the first semester of 2023 to the second semester of 2023?", 30),
    ],
)
def test_period_codes(monthly: Any, quarterly: Any, question: str, expected: Any) -> None:
    book = monthly if "month" in question or "use" in question else quarterly
    assert answered(book, question) == expected


@pytest.fixture(scope="module")
def uk_balance_sheet(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A UK small company's balance sheet: two columns under each year (lines inside, subtotals
    outside, the subtotals unlabelled), creditors negative."""
    rows: list[list[Any]] = [
        ["BALANCE SHEET AS AT 31 MARCH 2025"],
        [None, "Note", "2025", None, "2024", None],
        [None, None, "£", "£", "£", "£"],
        ["Fixed assets"],
        ["Intangible assets", "4", 2000, None, 2500, None],
        ["Tangible assets", "5", 30000, None, 28000, None],
        ["Investments", "6", 5000, None, 5000, None],
        [None, None, None, 37000, None, 35500],
        ["Current assets"],
        ["Stocks", None, 8000, None, 7000, None],
        ["Debtors", "7", 12000, None, 11000, None],
        ["Cash at bank and in hand", None, 3000, None, 4000, None],
        [None, None, 23000, None, 22000, None],
        ["Creditors: amounts falling due within one year", "8", -15000, None, -14000, None],
        ["Net current assets", None, None, 8000, None, 8000],
        ["Total assets less current liabilities", None, None, 45000, None, 43500],
    ]
    return book_of(tmp_path_factory, "uk", rows, ("C2:D2", "E2:F2"))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was the value of stocks at 31 March 2025?", 8000),
        ("What is the value of total fixed assets at 31 March 2024?", 35500),
        ("By how much did debtors change from 2024 to 2025?", 1000),
        ("What was net current assets in 2025?", 8000),
    ],
)
def test_two_columns_under_each_year(uk_balance_sheet: Any, question: str, expected: Any) -> None:
    assert answered(uk_balance_sheet, question) == expected


def test_the_noise_of_binary_fractions_is_no_part_of_an_answer() -> None:
    from gridsight.qa._answer import QAAnswer, rounded_as_asked

    assert rounded_as_asked(QAAnswer("q", "answered", 113.8 + 123.1), "q").value == 236.9
    assert rounded_as_asked(QAAnswer("q", "answered", 780 / 1320), "q").value == 780 / 1320  # a true fraction


def test_a_context_clause_before_a_yes_or_no_question() -> None:
    from gridsight.qa._pipeline import expected_type

    assert expected_type('According to the model, in 2024, was "Cash" higher than "Debt"?') == "boolean"
    # (a clause that asks something stays: a year and an amount, no yes or no)
    assert expected_type("In which year, and by how much, did sales fall?") is None
    # (a label's own colon is no context clause)
    assert expected_type("Creditors: amounts falling due within one year in 2024?") is None


def test_which_quarter_end(tmp_path_factory: pytest.TempPathFactory) -> None:
    # five quarter ends, two of them in the same year, each a period of its own
    rows = [
        ["EUR million", "31 Mar 2024", "30 Jun 2024", "30 Sep 2024", "31 Dec 2024", "31 Mar 2025"],
        ["Assets"],
        ["Trade receivables", 410, 398, 420, 405, 415],
        ["Cash", 120, 130, 110, 140, 135],
        ["Liabilities"],
        ["Trade payables", 310, 300, 295, 305, 299],
        ["Borrowings", 500, 480, 470, 460, 450],
    ]
    book = book_of(tmp_path_factory, "quarter_ends", rows)
    assert answered(book, "At which balance sheet date was trade payables at its highest?") == "31 Mar 2024"
    assert answered(book, "Which date shows the lowest cash?") == "30 Sep 2024"


def test_status_marks_leave_each_label_of_a_list(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows = [["Year", "Visitors"], ["2020", 500], ["2021", 650], ["2022r", 700], ["2023p", 720]]
    book = book_of(tmp_path_factory, "marks", rows)
    assert answered(book, "Which two years had the most visitors?") == ["2023", "2022"]


def test_which_year_between_two_years_spans_them(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows = [["Year", "Visitors", "Nights"], ["2020", 500, 900], ["2021", 650, 1000], ["2022", 600, 1100]]
    rows.append(["2023", 720, 1200])
    book = book_of(tmp_path_factory, "between", rows)
    assert answered(book, "Which year had the fewest visitors between 2021 and 2023?") == "2022"
    # (a difference between two years sets the two against each other)
    assert answered(book, "What was the difference in visitors between 2021 and 2023?") == 70


@pytest.fixture(scope="module")
def un_download(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A UN data download in long form: an area code beside each country's name, one row per
    country, year and series, a sparse footnotes column and a source on every row."""
    rows: list[list[Any]] = [
        ["Region/Country/Area", "Country", "Year", "Series", "Value", "Footnotes", "Source"]
    ]
    figures = {
        "Avalon": (11, {2015: (300, 90), 2022: (360, 95)}),
        "Brill": (22, {2015: (500, 70), 2022: (450, 80)}),
    }
    figures["Caddo"] = (33, {2015: (200, 60), 2022: (380, 120)})
    for country, (code, years) in figures.items():
        for year, (arrivals, spending) in years.items():
            rows.append(
                [code, country, year, "Arrivals (thousands)", arrivals, "2" if year == 2015 else None, "UN"]
            )
            rows.append([code, country, year, "Spending (US$ millions)", spending, None, "UN"])
    return book_of(tmp_path_factory, "un", rows)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Give the spending (US$ millions) in Brill in 2022.", 80),
        ("Which country had the fewest arrivals in 2022?", "Avalon"),
        ("What were the arrivals in Avalon over 2015 and 2022 combined?", 660),
    ],
)
def test_long_form_with_codes_footnotes_and_a_source(un_download: Any, question: str, expected: Any) -> None:
    assert answered(un_download, question) == expected


def test_name_the_top_row_of_a_group(statement: Any) -> None:
    # "name the ... with the highest" within a section: one row (its name), not the section's list
    asked = "Name the current asset with the highest value at 31 December 2024."
    assert answered(statement, asked) == "Trade receivables"


def test_a_hierarchy_written_by_column(tmp_path_factory: pytest.TempPathFactory) -> None:
    # ``Level 1 | Level 2 | Level 3``: each line's label in the column of its level, codes before
    rows: list[list[Any]] = [
        ["Code", "Level 1", "Level 2", "Level 3", "2022", "2023"],
        ["F", "Total spending", None, None, 860, 940],
        ["F01", None, "Defence", None, 60, 50],
        ["F02", None, "Health", None, 300, 320],
        ["F03", None, "Welfare", None, 500, 570],
        ["F0301", None, None, "Old age", 300, 350],
        ["F0302", None, None, "Family", 120, 130],
        ["F0303", None, None, "Housing", 80, 90],
    ]
    book = book_of(tmp_path_factory, "levels", rows)
    assert answered(book, "Within welfare, which item had the lowest spending in 2023?") == "Housing"
    # (the whole, ``Total spending``, stands within no section, though "spending" names it too)
    assert answered(book, "Is it true that total spending was greater in 2023 than in 2022?") is True
    assert answered(
        book, "By how many per cent did spending on family rise or fall between 2022 and 2023?"
    ) == pytest.approx(100 * 10 / 120)


@pytest.mark.parametrize(
    "question",
    [
        "Of the regions, " * 40 + "how many recorded a figure above 1,000?",
        "(negative if it decreased) " * 60 + "What was the change in cash?",
        "List them. " * 150,
        "Is it true that " * 100 + "cash rose?",
        "by how many per cent " * 80,
        "Name the " + "very " * 300 + "line with the highest value.",
        "Express " + "cash as a percentage of " * 60 + "total assets.",
        "2023M13 2023T5 S3 2023 [YR1999] 1999M00",
        "Which date between between 2023 and and 2024?",
        "relative change, not percentage points " * 40,
    ],
)
def test_hostile_clauses_answer_or_abstain(statement: Any, question: str) -> None:
    from gridsight.qa import answer_question

    ans = answer_question(statement, question[:2000])
    assert ans.status in ("answered", "abstained")


@pytest.fixture(scope="module")
def model_sheet(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An analyst's model: actual and estimated fiscal years across."""
    rows: list[list[Any]] = [
        ["EUR m", "FY2023A", "FY2024A", "FY2025E", "FY2026E"],
        ["Revenue", 1000, 1100, 1180, 1260],
        ["Profit before tax", 120, 95, 130, 88],
        ["Non-current assets", 2900, 3050, 3100, 2980],
    ]
    return book_of(tmp_path_factory, "model", rows)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which fiscal year shows the lowest profit before tax?", "FY2026E"),
        ('Count the fiscal years in the table for which "Non-current assets" exceeds 3,000.', 2),
        ("In how many of the 4 fiscal years shown was revenue above 1,150?", 2),
        ("Compute the relative change (in %) of revenue from FY2023A to FY2024A.", 10.0),
    ],
)
def test_fiscal_years_of_a_model(model_sheet: Any, question: str, expected: Any) -> None:
    assert answered(model_sheet, question) == expected


def test_accountants_abbreviations_with_a_slash(tmp_path_factory: pytest.TempPathFactory) -> None:
    rows = [
        ["$ in millions", "Dec. 31, 2024", "Dec. 31, 2023"],
        ["Current assets:"],
        ["Accounts receivable, net of allowances", 820, 760],
        ["Inventories", 400, 420],
        ["Current liabilities:"],
        ["Accounts payable", 510, 470],
        ["Accrued liabilities", 230, 250],
    ]
    book = book_of(tmp_path_factory, "abbreviations", rows)
    assert answered(book, "How much higher or lower was A/P at Dec. 31, 2024 than at Dec. 31, 2023?") == 40
    assert answered(book, "What was A/R at Dec. 31, 2023?") == 760


@pytest.mark.parametrize(
    "rows",
    [
        # two columns under one header that both fill a row, and text among the figures
        [[None, "2025", None], ["Stocks", 10, 12], ["Debtors", "n/a", None], [None, None, 22]],
        # a staircase of labels broken by a number, and a row with two levels filled
        [["L1", "L2", "L3", "2024"], ["All", None, None, 9], [None, 7, None, 3], [None, "A", "B", 6]],
        # a long download whose codes are missing or repeat with different names
        [["Code", "Country", "Year", "Value"], [None, "X", 2020, 1], [1, "Y", 2020, 2], [1, "Z", 2021, 3]],
        # a classification of ranges that contain nothing, and codes out of order
        [["Name", "Code", "2024"], ["All", "Z-A", 5], ["One", "B-B", 2], ["Two", "9-", 3], ["Three", "-", 0]],
    ],
)
def test_odd_layouts_answer_or_abstain(
    tmp_path_factory: pytest.TempPathFactory, rows: list[list[Any]]
) -> None:
    from gridsight.qa import answer_question

    book = book_of(tmp_path_factory, "odd", rows)
    for question in (
        "Which line had the highest value in 2024?",
        "What was stocks in 2025?",
        "How many rows?",
    ):
        assert answer_question(book, question).status in ("answered", "abstained")

"""A figure the question defines in words ("net debt (borrowings minus cash)", "define it as A divided
by B", "i.e. the sum of A, B and C"): the definition's arithmetic over the cells of the lines it
names, on a balance sheet whose two sections each hold a ``Borrowings`` line. The figures are made up;
every answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._definition import Apply, Line, definition, equality, lines_of

ROWS: list[list[Any]] = [
    ["Balance sheet (in thousands)"],
    ["", "31 Dec 2025", "31 Dec 2024"],
    ["Current assets", None, None],
    ["Cash and cash equivalents", 400, 350],
    ["Term deposits", 100, 80],
    ["Trade receivables", 300, 280],
    ["Inventories", 200, 210],
    ["Total current assets", 1000, 920],
    ["Non-current assets", None, None],
    ["Property, plant and equipment", 1500, 1400],
    ["Total assets", 2500, 2320],
    ["Current liabilities", None, None],
    ["Trade payables", 250, 240],
    ["Borrowings", 150, 120],
    ["Total current liabilities", 400, 360],
    ["Non-current liabilities", None, None],
    ["Borrowings", 600, 650],
    ["Provisions", 90, 85],
    ["Total non-current liabilities", 690, 735],
    ["Equity", None, None],
    ["Share capital", 500, 500],
    ["Retained earnings", 910, 725],
    ["Total equity", 1410, 1225],
]

#: A cash-flow statement: outflows shown negative, and a line left blank one year (a dash).
FLOWS: list[list[Any]] = [
    ["Cash flow statement"],
    ["", 2025, 2024],
    ["Net cash from operating activities", 900, 800],
    ["Purchases of property and equipment", -300, -250],
    ["Impairment of assets", None, 40],
    ["Dividends paid", -120, -100],
    ["Profit for the year", 600, 500],
]


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "defined.xlsx", ROWS)


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "flows.xlsx", FLOWS)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # 600 + 150 - 400: "current borrowings" is the line under current liabilities
        (
            "Compute net debt (non-current borrowings plus current borrowings minus cash and cash "
            "equivalents) as at 31 Dec 2025.",
            350,
        ),
        # 920 / 360
        (
            "What is the current ratio at 31 Dec 2024? Define it as total current assets divided by total "
            "current liabilities.",
            920 / 360,
        ),
        # (120 + 650) / 1225, in percent: "current plus non-current borrowings" is two lines
        (
            "Calculate the debt-to-equity ratio (current plus non-current borrowings divided by total "
            "equity) at 31 Dec 2024. Give the answer in percent.",
            100 * 770 / 1225,
        ),
        # 920 - 360
        (
            "Taking working capital as current assets minus current liabilities, how much was it at "
            "31 Dec 2024?",
            560,
        ),
        # (150 + 600) - (400 + 100): one label in two sections, and a list after "minus"
        (
            "Compute net debt (total borrowings (current and non-current) minus cash and cash equivalents "
            "and term deposits) at 31 Dec 2025.",
            250,
        ),
        # (1000 - 200) / 400: a parenthesis groups, division binds loosest
        (
            "What was the quick ratio at 31 Dec 2025, defined as (total current assets minus inventories) "
            "divided by total current liabilities?",
            2.0,
        ),
        # (150 + 600) / 1410: the kinds in brackets joined by "plus", inside the definition
        (
            "What is the gearing at 31 Dec 2025? Define it as total borrowings (non-current plus current) "
            "divided by total equity.",
            750 / 1410,
        ),
        # 400 + 100 + 300
        (
            "At 31 Dec 2025, how much were liquid assets, i.e. the sum of cash and cash equivalents, term "
            "deposits and trade receivables?",
            800,
        ),
    ],
)
def test_a_stated_definition_is_computed(sheet: Any, question: str, answer: float) -> None:
    assert answered(sheet, question) == pytest.approx(answer, rel=1e-6)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # 900 - 300: the purchases are an outflow shown negative; "minus" deducts their size
        (
            "What was free cash flow in 2025, defined as net cash from operating activities minus purchases "
            "of property and equipment?",
            600,
        ),
        # 120 / 600: a ratio of an outflow reads its size
        (
            "What was the payout ratio for 2025, defined as dividends paid divided by profit for the year? "
            "Answer in percent.",
            20.0,
        ),
        # 120 / 600 however the sign is asked for
        (
            "What was the payout ratio for 2025 (dividends paid divided by profit for the year), ignoring "
            "the sign?",
            0.2,
        ),
        # 900 + 0: the impairment line is blank in 2025, a dash
        (
            "What was the adjusted figure for 2025, i.e. net cash from operating activities plus impairment "
            "of assets?",
            900,
        ),
    ],
)
def test_signs_and_blanks_as_a_statement_shows_them(flows: Any, question: str, answer: float) -> None:
    assert answered(flows, question) == pytest.approx(answer, rel=1e-6)


def test_a_definition_reads_into_a_tree() -> None:
    found = definition("Compute net cash (cash plus deposits minus short-term and long-term debt) at FY2025.")
    assert found is not None
    assert [line.text for line in lines_of(found.expr)] == [
        "cash",
        "deposits",
        "short-term and long-term debt",
    ]
    ratio = definition(
        "What is the ratio? Define it as A plus B, divided by C (as a positive amount). Round it."
    )
    assert ratio is not None and isinstance(ratio.expr, Apply) and ratio.expr.op == "/"
    assert ratio.expr.right == Line("C", positive=True)
    assert "Round it" in ratio.rest and "Define" not in ratio.rest
    # modifiers alone in brackets take the head noun of the name before them
    split = definition("What were total borrowings (non-current plus current) in 2025?")
    assert split is not None
    assert [line.text for line in lines_of(split.expr)] == ["non-current borrowings", "current borrowings"]
    # a bracket beside an operator groups arithmetic the question writes out: no definition
    assert definition("What is (cash plus deposits) divided by payables in 2025?") is None


@pytest.mark.parametrize(
    "question",
    [
        "What was revenue in 2024, i.e. the closing figure?",  # a name, not arithmetic
        "How much did assets change from 2024 to 2025?",
        "Is the value (in thousands) above 3?",
    ],
)
def test_no_arithmetic_no_definition(question: str) -> None:
    assert definition(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "Compute net debt (borrowings plus zebra stripes minus cash) at 31 Dec 2025.",
        "What is the ratio? Define it as cash divided by",
        "Compute x (cash minus '; DROP TABLE data; --) at 31 Dec 2025.",
        "Define it as ((((cash plus plus minus divided by))))",
        "Compute y (" + " plus ".join(["cash"] * 200) + ") at 31 Dec 2025.",
        # the other shapes this file reads, broken
        "Is the balance sheet in balance for each " + "year " * 300 + "?",
        "Do total assets equal at every date?",
        "Do zebras equal unicorns in every year?",
        "Give cash at every balance sheet date, oldest first, latest first, in chronological order.",
        "Name every current asset line that grew between 31 Dec 2025 and 31 Dec 2025.",
        "In how many companies was cash above -1e999?",
        "Using , what was it?",
        "Adding and and and, how much?",
        "the ratio = = divided by /",
    ],
)
def test_hostile_definitions_answer_or_say_why(sheet: Any, question: str) -> None:
    answers_or_says_why(sheet, question)


def test_a_line_in_two_kinds_of_one_class_is_their_sum(sheet: Any) -> None:
    # two "Borrowings" lines, under current and under non-current liabilities (kinds of one class):
    # the definition's "borrowings" is both, added up: 150 + 600 - 400
    ans = answered(sheet, "Compute net debt (borrowings minus cash and cash equivalents) at 31 Dec 2025.")
    assert ans == pytest.approx(350)


def test_a_line_in_sections_of_two_classes_is_no_guess(tmp_path_factory: pytest.TempPathFactory) -> None:
    # "Grants" under income and again under spending: no class holds both, so no route guesses one
    # (the cells route reads no cell that two rows fit: its query would read the first)
    from gridsight.qa import answer_question

    rows: list[list[Any]] = [
        ["Statement of activities"],
        ["", "2025", "2024"],
        ["Income from:", None, None],
        ["Grants", 500, 450],
        ["Fees", 200, 180],
        ["Spending on:", None, None],
        ["Grants", 300, 280],
        ["Staff", 250, 240],
        ["Cash at bank", 90, 60],
    ]
    book = book_of(tmp_path_factory, "activities.xlsx", rows)
    ans = answer_question(book, "Compute the surplus (grants minus staff) for 2025.")
    assert ans.status == "abstained"
    assert "say which" in (ans.reason or "")


#: A statement of financial position that balances in 2025 and not in 2024 (its last line is 1 off).
BALANCE: list[list[Any]] = [
    ["Statement of financial position"],
    ["", "Note", "2025", "2024"],
    ["Cash", 4, 100, 90],
    ["Receivables", 5, 50, 40],
    ["Total assets", None, 150, 130],
    ["Payables", 6, 5, 5],
    ["Borrowings", 8, None, None],  # a heading with a note number beside it: no line to read
    ["Bank loans", None, 25, 20],
    ["Total borrowings", None, 25, 20],
    ["Total current liabilities", None, 30, 25],
    ["Total liabilities", None, 30, 25],
    ["Share capital", 7, 100, 100],
    ["Retained earnings", None, 20, 5],
    ["Total equity", None, 120, 105],
    ["Total liabilities and equity", None, 150, 131],
]


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "position.xlsx", BALANCE)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # 150 = 150, but 130 against 131: not in balance in every year
        ("Is the statement of financial position in balance for each year shown?", False),
        ("Does the balance sheet balance in 2025?", True),
        # 150 = 30 + 120 and 130 = 25 + 105: the lines named, not the last line
        ("Do total assets equal total liabilities plus total equity in every year?", True),
        ("Are total assets equal to total liabilities and equity at both dates?", False),
        ("Does total equity equal share capital plus retained earnings for 2025 and 2024?", True),
    ],
)
def test_sides_compared_in_each_column(position: Any, question: str, answer: bool) -> None:
    assert answered(position, question) is answer


def test_a_heading_with_a_note_is_no_line(position: Any) -> None:
    # 25 / 120: ``Total borrowings``, not the ``Borrowings`` heading whose only number is its note's
    question = "What was the leverage in 2025? Define it as total borrowings divided by total equity."
    assert answered(position, question) == pytest.approx(25 / 120)


def test_the_identity_names_its_lines_exactly(position: Any) -> None:
    # "total liabilities" is never ``Total current liabilities``; the note numbers are no figures
    from gridsight.detect import detect_tables
    from gridsight.qa._cells import cell_plan
    from gridsight.qa._relational import relation_of

    sheet = position.sheets[0]
    rel = relation_of(sheet, detect_tables(sheet).tables[0])
    plan = cell_plan(rel, "Is the balance sheet in balance in every year?", "boolean")
    assert plan is not None
    assert "'Total liabilities and equity'" in plan.sql and "Total current" not in plan.sql
    assert '"Note"' not in plan.sql


@pytest.mark.parametrize(
    ("question", "found"),
    [
        ("Does each column of the consolidating balance sheet balance?", True),
        ("Do total assets equal total liabilities plus equity at both dates?", True),
        ("Is the balance of cash above 3?", False),  # a balance is an amount here
        ("Does cash equal 5?", False),  # one cell against a number: no columns said
        ("What is the balance?", False),
    ],
)
def test_which_questions_compare_columns(question: str, found: bool) -> None:
    assert (equality(question) is not None) is found


#: A management P&L: the same lines under ``Actual`` and under ``Budget``; a fund's statement whose
#: ``Net assets`` line stands under no heading and again under each share class.
PLAN: list[list[Any]] = [
    ["Management accounts"],
    ["", "Jan 2025", "Feb 2025"],
    ["Actual", None, None],
    ["Revenue", 200, 250],
    ["Gross profit", 80, 110],
    ["Budget", None, None],
    ["Revenue", 220, 240],
    ["Gross profit", 99, 96],
]
FUND: list[list[Any]] = [
    ["Statement of assets and liabilities"],
    ["", "Core Fund", "Bond Fund"],
    ["Cash", 30, 12],
    ["Investments", 570, 388],
    ["Total assets", 600, 400],
    ["Net assets", 590, 395],
    ["Class A shares", None, None],
    ["Net assets", 200, 95],
    ["Class I shares", None, None],
    ["Net assets", 390, 300],
]


@pytest.mark.parametrize(
    ("rows", "question", "answer"),
    [
        # 80 / 200: what was achieved is the actual line; a budget only where one is said (96 / 240)
        (
            PLAN,
            "What gross margin was achieved in Jan 2025? Define it as gross profit divided by revenue.",
            0.4,
        ),
        (
            PLAN,
            "What was the budgeted margin for Feb 2025? Define it as gross profit divided by revenue.",
            0.4,
        ),
        # 12 / 395: the fund's own net assets, not a share class's
        (FUND, "Calculate the cash position (cash divided by net assets) in the Bond Fund column.", 12 / 395),
    ],
)
def test_the_line_meant_among_lines_alike(
    tmp_path_factory: pytest.TempPathFactory, rows: list[list[Any]], question: str, answer: float
) -> None:
    book = book_of(tmp_path_factory, "alike.xlsx", rows)
    assert answered(book, question) == pytest.approx(answer, rel=1e-6)


#: A balance sheet by date (dates as a bank writes them), a line new in 2025, and a ledger whose
#: columns are its opening and closing balances.
DATED: list[list[Any]] = [
    ["Balance sheet"],
    ["", "30 June 2025", "30 June 2024", "30 June 2023"],
    ["Current assets", None, None, None],
    ["Cash", 120, 100, 90],
    ["Receivables", 80, 85, 70],
    ["Assets held for sale", 15, None, None],
    ["Total current assets", 215, 185, 160],
    ["Non-current assets", None, None, None],
    ["Plant", 500, 520, 540],
    ["Goodwill", 300, 300, 300],
    ["Total non-current assets", 800, 820, 840],
]
LEDGER: list[list[Any]] = [
    ["Owners' equity"],
    ["Item", "Closing balance", "Opening balance"],
    ["Share capital", 1000, 1000],
    ["Treasury shares", 94, 88],
    ["Retained earnings", 560, 505],
]


@pytest.mark.parametrize(
    ("rows", "question", "answer"),
    [
        (DATED, "Give cash at every balance sheet date, oldest first.", [90, 100, 120]),
        (DATED, "Provide the series of plant, latest first.", [500, 520, 540]),
        (
            LEDGER,
            "Provide the series of treasury shares from the earliest to the latest date shown.",
            [88, 94],
        ),
        # the lines of a section that rose, in the table's order; a line blank before is 0 then
        (
            DATED,
            "Name every current asset line that grew between 30 June 2024 and 30 June 2025.",
            ["Cash", "Assets held for sale"],
        ),
        (
            DATED,
            "Which non-current asset lines fell from 2024 to 2025? List them in the order shown.",
            ["Plant"],
        ),
        (DATED, "Count the current asset items with a balance greater than 50 at 30 June 2024.", 2),
    ],
)
def test_a_line_over_time_and_the_lines_that_moved(
    tmp_path_factory: pytest.TempPathFactory, rows: list[list[Any]], question: str, answer: Any
) -> None:
    book = book_of(tmp_path_factory, "over_time.xlsx", rows)
    assert answered(book, question) == answer


#: An income statement: a tax line shown negative, revenue in two lines and their total, and other
#: comprehensive income that is a loss.
INCOME: list[list[Any]] = [
    ["Income statement"],
    ["", "2025", "2024"],
    ["Product revenue", 600, 500],
    ["Service revenue", 400, 300],
    ["Total revenue", 1000, 800],
    ["Gross profit", 450, 360],
    ["Finance income", 20, 25],
    ["Finance costs", -30, -20],
    ["Profit before taxation", 200, 160],
    ["Taxation", -50, -40],
    ["Profit for the year", 150, 120],
    ["Other comprehensive income for the year, net of tax", -15, 6],
]


@pytest.fixture(scope="module")
def income(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "income.xlsx", INCOME)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # 50 / 200 in percent: "using ..." states the definition; "the tax charge" is ``Taxation``
        (
            "Using the taxation charge divided by profit before taxation, what was the tax rate for 2025? "
            "Give a percentage.",
            25.0,
        ),
        # 450 / 1000: "revenue" alone is the line that totals the two
        ("For 2025, compute the gross margin = gross profit divided by revenue.", 0.45),
        # -15 / 150 in percent, the loss kept as shown
        (
            "Using other comprehensive income for the year, net of tax, divided by profit for the year (keep "
            "the sign), what was the ratio for 2025? Give a percentage.",
            -10.0,
        ),
        # 600 + 400
        ("Adding product revenue and service revenue, how much was sold in 2025?", 1000),
        # 30 against 20 by their size, the costs shown negative
        ("Were finance costs larger than finance income in 2025 (comparing magnitudes)?", True),
        # |-30| - |-20|
        ("By how much did finance costs rise from 2024 to 2025, comparing absolute amounts?", 10),
    ],
)
def test_how_definitions_and_magnitudes_are_said(income: Any, question: str, answer: Any) -> None:
    assert answered(income, question) == pytest.approx(answer)


def test_an_and_the_label_lacks_joins_two_lines(sheet: Any) -> None:
    # 2500 - (400 + 690): ``Total non-current liabilities`` has every word of "current and non-current
    # liabilities" but not its "and"; the modifier alone takes the head noun
    question = (
        "Using total assets minus current and non-current liabilities, how much was left at 31 Dec 2025?"
    )
    assert answered(sheet, question) == 1410


def test_gridsight_formula_reads_a_statement_as_a_question(sheet: Any) -> None:
    # `gridsight formula` on a statement: the question's own reading and the formula it checked
    from gridsight.formula import evaluate_formula
    from gridsight.qa import formula_from_question

    found = formula_from_question(
        "Compute net debt (non-current borrowings plus current borrowings minus cash and cash equivalents) "
        "at 31 Dec 2025.",
        sheet,
    )
    assert found.formula is not None and found.value == 350
    assert evaluate_formula(found.formula, sheet, sheet.sheets[0]).value == 350


@pytest.mark.parametrize(
    "request_",
    [
        "Compute x (cash minus '; DROP TABLE data; --) at 31 Dec 2025.",
        "Compute net debt (borrowings minus cash and cash equivalents) at 31 Dec 2025.",  # unclear line
        "Is the balance sheet in balance for each " + "year " * 300 + "?",
        "Define it as ((((cash plus plus minus divided by))))",
    ],
)
def test_gridsight_formula_on_broken_requests_says_why(sheet: Any, request_: str) -> None:
    # a checked formula or none with the reason: never an error, never a formula that fails
    from gridsight.formula import evaluate_formula
    from gridsight.qa import formula_from_question

    found = formula_from_question(request_, sheet)
    if found.formula is None:
        assert found.reason
    else:
        assert evaluate_formula(found.formula, sheet, sheet.sheets[0]).error is None

"""The SQL route: the read-only view, the query guard, the planner's SELECTs and their exact results."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import Workbook

from gridsight.grid import Range
from gridsight.grid import Workbook as GridWorkbook
from gridsight.qa import answer_question
from gridsight.qa._ask import evidence_valid
from gridsight.qa._sql import ROW_CAP, QueryRefused, check_query, run_query, view_of
from gridsight.sources import open_workbook

ROWS = [
    ("Author", "Likes", "Lang", "Links"),
    ("ana", 5, "Spanish", "[]"),
    ("Ana", 3, "Spanish", "['x']"),
    ("bo", 0, "English", "[]"),
    ("cy", 9, "Spanish", "['y']"),
    ("bo", 1, "English", "['z']"),
]


def _opened(path: Path, header: list[str], rows: list[tuple[object, ...]]) -> GridWorkbook:
    """The rows under the header saved as a real .xlsx file, opened as GridSight reads it."""
    wb = Workbook()
    ws = wb.active
    ws.append(header)
    for row in rows:
        ws.append(list(row))
    wb.save(path)
    return open_workbook(path)


def _answers(book: GridWorkbook, cases: list[tuple[str, object]]) -> None:
    """Each question is answered with its value."""
    for question, value in cases:
        ans = answer_question(book, question)
        assert (ans.status, ans.value) == ("answered", value), (question, ans.reason, ans.query, ans.formula)


@pytest.fixture
def posts(tmp_path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Posts"
    for row in ROWS:
        ws.append(row)
    wb.save(tmp_path / "posts.xlsx")
    return tmp_path / "posts.xlsx"


def _view(path: Path):  # type: ignore[no-untyped-def]
    sheet = open_workbook(path).sheets[0]
    names = [str(h) for h in ROWS[0]]
    return view_of(sheet, names, [Range(1, c, len(ROWS) - 1, c) for c in range(len(names))])


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("DELETE FROM data", "only SELECT queries run"),
        ("SELECT * FROM data; DROP TABLE data", "unexpected character ';'"),
        ('SELECT "Author" FROM data -- hi', "comments are not allowed"),
        ('SELECT "Author" FROM data /* x */', "comments are not allowed"),
        ('SELECT "Password" FROM data', "the query names a column the table does not have: 'Password'"),
        ('SELECT load_extension("x") FROM data', "the function load_extension is not allowed"),
        ("SELECT * FROM sqlite_master", "the word 'sqlite_master' is not allowed"),
        # UNION ALL over the view runs (the items of list cells are counted that way); other tables do not
        ('SELECT "Author" FROM data UNION ALL SELECT name FROM pragma_table_info', "the word 'name'"),
        ("SELECT 1 FROM data UNION ALL SELECT 1 FROM sqlite_master", "the word 'sqlite_master'"),
        ("ATTACH DATABASE 'x' AS y", "only SELECT queries run"),
    ],
)
def test_the_guard_refuses_anything_but_one_whitelisted_select(posts: Path, sql: str, message: str) -> None:
    with pytest.raises(QueryRefused) as err:
        run_query(sql, _view(posts))
    assert str(err.value).startswith(message), str(err.value)


def test_a_whitelisted_select_runs_and_reports_the_columns_it_read(posts: Path) -> None:
    view = _view(posts)
    assert check_query('SELECT COUNT(DISTINCT "Author") FROM data WHERE "Lang" = \'es\'', view) == [
        "Author",
        "Lang",
    ]
    rows, read = run_query('SELECT "Author", SUM("Likes") FROM data GROUP BY "Author" ORDER BY 2 DESC', view)
    assert rows == [("cy", 9), ("ana", 5), ("Ana", 3), ("bo", 1)] and read == ["Author", "Likes"]


def test_results_over_the_row_cap_are_refused_not_cut(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["n"])
    for i in range(ROW_CAP + 5):
        ws.append([i])
    wb.save(tmp_path / "big.xlsx")
    sheet = open_workbook(tmp_path / "big.xlsx").sheets[0]
    view = view_of(sheet, ["n"], [Range(1, 0, ROW_CAP + 5, 0)])
    with pytest.raises(QueryRefused, match=f"more than {ROW_CAP:,} rows"):
        run_query('SELECT "n" FROM data', view)


@pytest.mark.parametrize(
    ("question", "route", "value", "query"),
    [
        # exact distinct count: SQL goes first (Excel's UNIQUE would fold 'ana' and 'Ana' into one)
        (
            "How many unique authors are there?",
            "sql",
            4,
            'SELECT COUNT(DISTINCT "Author") FROM data WHERE "Author" IS NOT NULL AND "Author" <> \'\'',
        ),
        # the formula route has no shape for 'without any links'; the query does
        (
            "Are there any posts without any links?",
            "sql",
            True,
            "SELECT EXISTS (SELECT 1 FROM data WHERE LOWER(TRIM(COALESCE(\"Links\", ''))) IN "
            "('', '[]', '{}', 'none', 'nan', 'null', 'n/a', '-'))",
        ),
        ("What is the total of Likes?", "formula", 18, None),  # a formula says it as well: formula first
    ],
)
def test_routes_and_exact_answers(posts: Path, question: str, route: str, value: object, query: str) -> None:
    wb = open_workbook(posts)
    ans = answer_question(wb, question)
    assert (ans.status, ans.route, ans.value, ans.query) == ("answered", route, value, query), ans.reason
    assert evidence_valid(ans, wb) and ans.evidence


@pytest.mark.parametrize(("language", "value"), [("English", False), ("Spanish", True)])
def test_a_yes_no_question_about_the_top_row(posts: Path, language: str, value: bool) -> None:
    """'the author with the most likes' is the row with the highest Likes (a measure follows 'most'),
    not the most frequent author; the answer is a yes or no, never the author's name."""
    ans = answer_question(open_workbook(posts), f"Is the author with the most likes writing in {language}?")
    assert (ans.status, ans.type, ans.value, ans.formula) == (
        "answered",
        "boolean",
        value,
        f'=INDEX(C2:C6,MATCH(MAX(B2:B6),B2:B6,0))="{language}"',
    )


@pytest.fixture
def staff_sales(tmp_path: Path) -> Path:
    """A fact table (Sales: Name, Amount) and a lookup table of labels only (Staff: Name, Department,
    Office; bold header) on two sheets: questions that need both are answered over their join."""
    from openpyxl.styles import Font

    wb = Workbook()
    sales = wb.active
    sales.title = "Sales"
    for row in (
        ("Name", "Amount"),
        ("Ann", 120),
        ("Bo", 80),
        ("Cy", 200),
        ("Ann", 50),
        ("Di", 90),
        ("Bo", 40),
    ):
        sales.append(row)
    staff = wb.create_sheet("Staff")
    for row in (
        ("Name", "Department", "Office"),
        ("Ann", "Marketing", "Oslo"),
        ("Bo", "Finance", "Rome"),
        ("Cy", "Marketing", "Rome"),
        ("Di", "Legal", "Oslo"),
    ):
        staff.append(row)
    for cell in (*sales[1], *staff[1]):
        cell.font = Font(bold=True)
    wb.save(tmp_path / "staff.xlsx")
    return tmp_path / "staff.xlsx"


JOIN_NOTE = "(over Sales!A1:B7 joined with Staff!A1:C5 on Name)"


@pytest.mark.parametrize(
    ("question", "value", "query"),
    [
        (
            "Which department has the highest total amount?",
            "Marketing",  # Ann 120 + 50 and Cy 200
            'SELECT "Department" FROM data WHERE "Department" IS NOT NULL AND "Department" <> \'\' '
            'GROUP BY "Department" ORDER BY SUM("Amount") DESC LIMIT 1',
        ),
        (
            "What is the total amount of the Marketing department?",
            370,
            'SELECT SUM("Amount") FROM data WHERE "Department" = \'Marketing\'',
        ),
        (
            "Which office is the person with the highest amount in?",
            "Rome",  # Cy, 200
            'SELECT "Office" FROM data WHERE "Amount" IS NOT NULL ORDER BY "Amount" DESC LIMIT 1',
        ),
        (
            "How many sales were made by people in the Oslo office?",
            3,  # Ann twice, Di once
            "SELECT COUNT(*) FROM data WHERE \"Office\" = 'Oslo'",
        ),
    ],
)
def test_questions_over_two_tables_are_answered_over_their_join(
    staff_sales: Path, question: str, value: object, query: str
) -> None:
    wb = open_workbook(staff_sales)
    ans = answer_question(wb, question)
    assert (ans.status, ans.route, ans.value, ans.query) == ("answered", "sql", value, query), ans.reason
    assert JOIN_NOTE in ans.explanation and evidence_valid(ans, wb)
    # the join keys are evidence too, each on its own sheet
    assert {"sheet": "Sales", "range": "A2:A7"} in ans.evidence
    assert {"sheet": "Staff", "range": "A2:A5"} in ans.evidence


def test_a_lookup_that_finds_different_values_asks_which(staff_sales: Path) -> None:
    wb = open_workbook(staff_sales)
    assert answer_question(wb, "Which department is Bo in?").value == "Finance"
    ans = answer_question(wb, "Which office is Marketing in?")  # Ann in Oslo, Cy in Rome
    assert (
        ans.status == "abstained"
        and "rows that match hold different values (Oslo, Rome); say which" in str(ans.reason)
    )


def test_counting_different_things_counts_their_identifier(tmp_path: Path) -> None:
    # "customers" names customer_rating and customer_id alike: the id tells customers apart
    wb = Workbook()
    ws = wb.active
    ws.append(["order", "customer_rating", "customer_id"])
    for i, (rating, cid) in enumerate([(5, "C1"), (4, "C2"), (5, "C3"), (5, "C1"), (3, "C4")]):
        ws.append([f"O{i}", rating, cid])
    wb.save(tmp_path / "orders.xlsx")
    ans = answer_question(open_workbook(tmp_path / "orders.xlsx"), "How many different customers are there?")
    assert (ans.status, ans.value) == ("answered", 4), (ans.reason, ans.query)


@pytest.fixture
def shipments(tmp_path: Path) -> Path:
    # Alps holds the largest single revenue (100) but the lower average (40 against 65) and total
    # (240 against 260); Xpress ships on fewer rows (4 against 6) but more units (200 against 60).
    # Every row twice: regions and carriers are categories the rows share
    wb = Workbook()
    ws = wb.active
    ws.append(["Shipment", "Region", "Carrier", "Units", "Revenue"])
    rows = [
        ("Alps", "Xpress", 60, 100),
        ("Alps", "Yodel", 10, 10),
        ("Alps", "Yodel", 10, 10),
        ("Baltic", "Xpress", 40, 60),
        ("Baltic", "Yodel", 10, 70),
    ]
    for i, row in enumerate(rows + rows):
        ws.append([f"S{i + 1}", *row])
    wb.save(tmp_path / "shipments.xlsx")
    return tmp_path / "shipments.xlsx"


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # groups of a text column ranked by an aggregate: the groups', not the top row's
        ("Which region has the highest average revenue?", "Baltic"),
        ("Which carrier has the highest number of units?", "Xpress"),  # Units counts them: its total
        ("Which carrier has the most shipments?", "Yodel"),  # nothing counts shipments: the rows
        ("What is the region of the shipment with the most units?", "Alps"),  # one row, not a group
        # "the most <measure>" and "by <measure>" over a category the rows share: its total
        ("Which carrier moved the most units?", "Xpress"),
        ("Name the weakest region by revenue.", "Alps"),
        ("List the top 2 carriers by revenue.", ["Xpress", "Yodel"]),
        # "how many <measure>" where a column counts them: its total, not the rows
        ("How many units were shipped by Yodel?", 60),
        ("How many shipments did Yodel make?", 6),
    ],
)
def test_groups_ranked_by_an_aggregate(shipments: Path, question: str, value: object) -> None:
    ans = answer_question(open_workbook(shipments), question)
    assert (ans.status, ans.value) == ("answered", value), (ans.reason, ans.query, ans.formula)


def test_a_month_named_in_words_filters_a_month_column_of_text(tmp_path: Path) -> None:
    # sales tables often write the month as text ("Feb 2024"); questions name it in words
    wb = Workbook()
    ws = wb.active
    ws.append(["Region", "Month", "Units", "Revenue"])
    for row in [("APAC", "Jan 2024", 10, 100), ("APAC", "Feb 2024", 20, 250), ("EMEA", "Feb 2024", 40, 400)]:
        ws.append(list(row))
    wb.save(tmp_path / "sales.xlsx")
    book = open_workbook(tmp_path / "sales.xlsx")
    ans = answer_question(book, "What was revenue in APAC in February?")
    assert (ans.status, ans.value) == ("answered", 250), (ans.reason, ans.query, ans.formula)
    ans = answer_question(book, "What were the average units per sale in February 2024?")
    assert (ans.status, ans.value) == ("answered", 30), (ans.reason, ans.query, ans.formula)


def test_a_slice_named_by_categories_holds_its_total(tmp_path: Path) -> None:
    # several rows share the region and the month: the question asks for their total, and a
    # value that tells rows apart (an order id) still reads the one row's value
    rows = [("O1", "APAC", "Feb 2024", 250), ("O2", "APAC", "Feb 2024", 50), ("O3", "EMEA", "Feb 2024", 400)]
    rows += [(f"O{i}", "EMEA", "Mar 2024", 10) for i in range(4, 12)]
    book = _opened(tmp_path / "orders.xlsx", ["Order", "Region", "Month", "Revenue"], rows)
    ans = answer_question(book, "What was revenue in APAC in February?")
    assert (ans.status, ans.value) == ("answered", 300), (ans.reason, ans.query, ans.formula)
    ans = answer_question(book, "What was the revenue of order O2?")
    assert (ans.status, ans.value) == ("answered", 50), (ans.reason, ans.query, ans.formula)


def test_a_month_named_in_words_filters_a_column_of_real_dates(tmp_path: Path) -> None:
    # the month column holds dates: "in February" is the month of each date, and the slice of
    # rows one region and one month name holds their total
    rows = [
        (dt.date(2024, 1, 31), "West", 5),
        (dt.date(2024, 2, 3), "West", 7),
        (dt.date(2024, 2, 20), "West", 11),
    ]
    rows += [(dt.date(2024, 2, 9), "East", 100), (dt.date(2023, 2, 9), "West", 1000)]
    rows += [(dt.date(2024, 3, day), "East", day) for day in range(1, 5)]
    book = _opened(tmp_path / "daily.xlsx", ["Date", "Region", "Net sales"], rows)
    ans = answer_question(book, "What was net sales in West in February 2024?")
    assert (ans.status, ans.value) == ("answered", 18), (ans.reason, ans.query, ans.formula)
    ans = answer_question(book, "What was net sales in West in February?")
    assert (ans.status, ans.value) == ("answered", 1018), (ans.reason, ans.query, ans.formula)


@pytest.fixture
def patients(tmp_path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.append(["Patient ID", "Ward", "Age (years)", "total_eur"])
    for row in [(101, "Children", 7, 900), (102, "Children", 12, 1200), (103, "Adults", 45, 300)]:
        ws.append(list(row))
    ws.append([104, "Adults", None, 50])  # no age: not counted against the test
    wb.save(tmp_path / "patients.xlsx")
    return tmp_path / "patients.xlsx"


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # the last comparison is the test; the other filters say whose rows ("younger": Age, by meaning)
        ("Are all children ward patients younger than 18?", True),
        ("Are all patients younger than 18?", False),
        ("Do all adults ward patients have more than 40 years?", True),
        # "totals" names total_eur by the word its filler ("total") leaves out
        ("Are all order totals below 1,000 euros?", False),
    ],
)
def test_are_all_rows_tests_every_row_of_the_population(patients: Path, question: str, value: bool) -> None:
    ans = answer_question(open_workbook(patients), question)
    assert (ans.status, ans.value) == ("answered", value), (ans.reason, ans.query, ans.formula)


@pytest.fixture
def visits(tmp_path: Path) -> Path:
    # two date columns (the first is the event's), a yes/no column whose header holds a question
    # word inside it ("Readmitted") and one named by a compound ("eBook?")
    wb = Workbook()
    ws = wb.active
    ws.append(["Visit #", "Admit Date", "Discharge Date", "Readmitted", "eBook?", "Charge"])
    start = dt.datetime(2023, 1, 2, 8, 0)
    for k in range(120):
        admit = start + dt.timedelta(days=(k * k + 3 * k) % 700, hours=k % 5)
        ws.append([1000 + k, admit, admit + dt.timedelta(days=2), k % 4 == 0, k % 2 == 0, 10 + k])
    wb.save(tmp_path / "visits.xlsx")
    return tmp_path / "visits.xlsx"


def _admits() -> list[dt.datetime]:
    start = dt.datetime(2023, 1, 2, 8, 0)
    return [start + dt.timedelta(days=(k * k + 3 * k) % 700, hours=k % 5) for k in range(120)]


def test_calendar_parts_of_a_date_column_filter_and_group(visits: Path) -> None:
    from collections import Counter

    book = open_workbook(visits)
    admits = _admits()
    cases: list[tuple[str, object]] = [
        (
            "How many patients were admitted in March 2023?",
            sum(a.month == 3 and a.year == 2023 for a in admits),
        ),
        ("How many visits happened on a weekend?", sum(a.weekday() >= 5 for a in admits)),
        ("How many visits were there in 2024?", sum(a.year == 2024 for a in admits)),
        ("How many books were lent in 2023?", sum(a.year == 2023 for a in admits)),
        ("How many visits were on a Tuesday?", sum(a.weekday() == 1 for a in admits)),
    ]
    days = Counter(a.strftime("%A") for a in admits)
    cases.append(("On which day of the week were the most visits?", days.most_common(1)[0][0]))
    months = Counter(a.strftime("%B") for a in admits if a.year == 2023)
    cases.append(("In which month of 2023 were the most visits?", months.most_common(1)[0][0]))
    for question, value in cases:
        ans = answer_question(book, question)
        assert (ans.status, ans.value) == ("answered", value), (question, ans.reason, ans.query)


def test_rows_whose_value_is_missing_are_counted(tmp_path: Path) -> None:
    # an empty date, number or text cell is "no X yet", "missing a X", "did not give a X"
    wb = Workbook()
    ws = wb.active
    ws.append(["Order", "Ordered", "Delivered", "Rating", "Comment", "Amount"])
    for k in range(40):
        delivered = dt.date(2024, 1, 2 + k % 20) if k % 5 else None
        rating = None if k % 7 == 0 else 1 + k % 5
        comment = "" if k % 4 == 0 else f"note {k}"
        ws.append([f"O{k}", dt.date(2024, 1, 1 + k % 20), delivered, rating, comment or None, 10 * k])
    wb.save(tmp_path / "orders.xlsx")
    book = open_workbook(tmp_path / "orders.xlsx")
    _answers(
        book,
        [
            ("How many orders have no delivery date yet?", 8),
            ("How many orders are missing a rating?", 6),
            ("How many customers did not give a rating?", 6),
            ("How many orders have no comment?", 10),
        ],
    )


def test_the_items_of_list_cells_are_counted_one_by_one(tmp_path: Path) -> None:
    # pandas writes a list column as "['a', 'b']": the most common tag is the item most cells list,
    # not the most common whole list
    wb = Workbook()
    ws = wb.active
    ws.append(["Post", "Tags", "Lang"])
    cells = [
        "['red', 'blue']",
        "['blue']",
        "[]",
        "['green', 'blue']",
        "['red']",
        '["it\'s", "red"]',
        "['red']",
    ]
    for k, tags in enumerate(cells):
        ws.append([f"P{k}", tags, "en" if k % 2 else "fr"])
    wb.save(tmp_path / "posts.xlsx")
    book = open_workbook(tmp_path / "posts.xlsx")
    ans = answer_question(book, "List the two most common tags.")
    assert (ans.status, ans.value) == ("answered", ["red", "blue"]), (ans.reason, ans.query)
    ans = answer_question(book, "What is the most frequent tag among en posts?")
    assert (ans.status, ans.value) == ("answered", "blue"), (ans.reason, ans.query)
    # "used most often" ranks the items too; an item named alone keeps the rows that list it
    ans = answer_question(book, "Which tag is used most often?")
    assert (ans.status, ans.value) == ("answered", "red"), (ans.reason, ans.query)
    ans = answer_question(book, "How many posts are tagged green?")
    assert (ans.status, ans.value) == ("answered", 1), (ans.reason, ans.query)
    ans = answer_question(book, "Is there a post tagged purple?")
    assert ans.value is not True, (ans.reason, ans.query)


def test_all_rows_named_by_one_value_hold_another(tmp_path: Path) -> None:
    # "are all the Teslas automatic?": the value named last tests the rows the first names
    # (a plural names a value too)
    wb = Workbook()
    ws = wb.active
    ws.append(["Make", "Gearbox", "Price"])
    for make, box in [
        ("Tesla", "Automatic"),
        ("Tesla", "Automatic"),
        ("Ford", "Manual"),
        ("Ford", "Automatic"),
    ]:
        ws.append([make, box, 100])
    wb.save(tmp_path / "cars.xlsx")
    book = open_workbook(tmp_path / "cars.xlsx")
    _answers(book, [("Are all the Teslas automatic?", True), ("Are all Fords manual?", False)])


def test_two_groups_are_compared_by_their_averages(tmp_path: Path) -> None:
    # "do diesel cars have more kilometres on average than petrol cars?": two values of one column;
    # "than those who weren't": a yes/no group against the rest; the measure named by its letters,
    # by meaning ("bill") or by a comparative ("windier")
    rows = [
        ("Diesel", 900, True, 50, 3, 30),
        ("Diesel", 700, False, 10, 9, 50),
        ("Petrol", 100, True, 70, 1, 40),
    ]
    rows += [("Petrol", 300, False, 20, 2, 60), ("Hybrid", 50, False, 5, 20, 20)]
    book = _opened(
        tmp_path / "fleet.xlsx",
        ["Fuel", "Odometer (km)", "Returned", "Total Charges (USD)", "WindSpd km/h", "Owner Age"],
        rows,
    )
    _answers(
        book,
        [
            ("Do diesel cars have more kilometres on average than petrol cars?", True),
            ("Do petrol cars have a higher average odometer reading than diesel ones?", False),
            ("Do returned cars have a higher average bill than those that weren't returned?", True),
            ("Are diesel cars windier on average than petrol cars?", True),
        ],
    )


def test_rows_in_a_state_a_number_column_measures_are_counted(tmp_path: Path) -> None:
    # "how many loans came back late?" with a ``Days Late`` column: the rows where it is above 0
    wb = Workbook()
    ws = wb.active
    ws.append(["Loan", "Days Late", "Renewals"])
    for k in range(10):
        ws.append([f"L{k}", k % 3, 1 if k < 4 else 0])
    wb.save(tmp_path / "loans.xlsx")
    book = open_workbook(tmp_path / "loans.xlsx")
    _answers(book, [("How many loans came back late?", 6), ("How many loans were renewed?", 4)])


def test_a_comparison_reads_the_column_named_nearest_it(tmp_path: Path) -> None:
    # "has any loan been renewed four or more times?": Renewals (nearest), not Loan #; the words
    # after the number name the column too ("more than two previous owners")
    wb = Workbook()
    ws = wb.active
    ws.append(["Loan #", "Renewals", "Prev. Owners"])
    for k in range(8):
        ws.append([5000 + k, k % 3, k % 4])
    wb.save(tmp_path / "loans.xlsx")
    book = open_workbook(tmp_path / "loans.xlsx")
    _answers(
        book,
        [
            ("Has any loan been renewed four or more times?", False),
            ("How many loans had more than two previous owners?", 2),
        ],
    )


def test_gridsight_formula_takes_the_planners_checked_query(tmp_path: Path) -> None:
    # with no model, `gridsight formula` still reads calendar parts and empty values through the
    # planner (read as a question: the question pipeline's winning query), and returns the formula
    # the engine checked gives the query's result
    from gridsight.qa import formula_from_question

    wb = Workbook()
    ws = wb.active
    ws.append(["Order", "Ordered", "Rating"])
    for k in range(14):
        ws.append([f"O{k}", dt.date(2024, 1, 1) + dt.timedelta(days=k), None if k % 5 == 0 else 3])
    wb.save(tmp_path / "orders.xlsx")
    book = open_workbook(tmp_path / "orders.xlsx")
    ans = formula_from_question("How many orders were placed on a Monday?", book)
    assert (ans.formula, ans.value) == ('=SUM(--(ISNUMBER(MATCH(TEXT(WEEKDAY(B2:B15)-1,"0"),{"1"},0))))', 2)
    assert ans.evaluation is not None and ans.evaluation.value == 2 and ans.shape == "question"
    ans = formula_from_question("How many orders are missing a rating?", book)
    assert (ans.formula, ans.value) == ('=SUM(--(C2:C15=""))', 3)


def test_groups_by_their_count_or_average_codes_by_meaning_and_the_top_rows_test(tmp_path: Path) -> None:
    # a group's row count or average against a number (HAVING); "female" names the code F of a
    # one-letter column (closest in meaning to its header); "is the oldest ... in Ward B" tests the
    # top row rather than filtering the rows; "minus 5" is -5
    wards = {"A": [("F", 71), ("F", 64), ("M", 80), ("M", 50)], "B": [("M", 45), ("F", 52)]}
    wards["C"] = [("F", 90), ("F", 33), ("F", 58), ("M", 61), ("F", 40), ("M", 70)]
    rows = [
        (f"{w}{i}", f"Ward {w}", sex, age, -6 if (w, i) == ("B", 1) else i)
        for w, stays in wards.items()
        for i, (sex, age) in enumerate(stays)
    ]
    book = _opened(tmp_path / "stays.xlsx", ["Stay", "Ward", "Sex", "Age", "Score"], rows)
    _answers(
        book,
        [
            ("Which wards had more than 2 stays?", ["Ward A", "Ward C"]),
            ("Which wards have an average age above 55?", ["Ward A", "Ward C"]),
            ("How many female patients were in Ward C?", 4),
            ("Are all patients in Ward B female?", False),
            ("Is the oldest patient in Ward C?", True),
            ("Did any score ever drop below minus 5?", True),
        ],
    )


def test_the_top_distinct_values_are_each_value_once(tmp_path: Path) -> None:
    # the planner's SELECT DISTINCT and the formula tier's UNIQUE give the same three values
    from gridsight.formula import generate_formula

    rows = [("BOS", 3371), ("BOS", 2699), ("BOS", 2699), ("BOS", 2607), ("JFK", 4000), ("BOS", 2607)]
    book = _opened(tmp_path / "flights.xlsx", ["Origin", "Distance"], rows)
    ans = answer_question(book, "What are the 3 longest distinct distances of flights from BOS?")
    assert [v[0] if isinstance(v, list) else v for v in ans.value] == [3371, 2699, 2607], ans.formula
    ans = generate_formula("List the 3 longest distinct distances from BOS.", book, book.sheets[0])
    assert ans.formula is not None and "UNIQUE(" in ans.formula
    assert [v[0] if isinstance(v, list) else v for v in ans.value] == [3371, 2699, 2607]


def test_the_rows_themselves_counted_per_value_of_the_column_asked(tmp_path: Path) -> None:
    # "the most posts" names no column (or only the id that numbers the rows): rows are counted per
    # value of the column "which/what" names
    rows = [
        (f"P{k}", city, 10 * k) for k, city in enumerate(["Oslo", "Rome", "Oslo", "Lima", "Oslo", "Rome"])
    ]
    rows += [(f"P{k}", "Lima", 1) for k in range(6, 12)]
    book = _opened(tmp_path / "posts.xlsx", ["Post ID", "Location", "Likes"], rows)
    _answers(
        book,
        [
            ("From which location are the most posts sent?", "Lima"),
            ("What location do the fewest posts come from?", "Rome"),
        ],
    )

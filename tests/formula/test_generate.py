"""Request -> formula: exact formulas for each shape, the same values wherever the table sits,
and honest abstentions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gridsight.bench.formula import compare
from gridsight.cli import cli
from gridsight.formula._generate import generate_formula
from gridsight.grid import Range, Sheet, SheetBuilder, Workbook

ROWS = [
    ("name", "age", "country", "worth", "selfMade"),
    ("Ann", 50, "US", 200.0, True),
    ("Bo", 31, "CN", 120.5, False),
    ("Cy", 77, "US", 90.0, False),
    ("Di", 25, "IN", 300.0, True),
    ("Ed", 64, "US", 55.0, True),
]


def table_at(origin: str = "A1", sheet: str = "People") -> Workbook:
    o = Range.parse(origin)
    b = SheetBuilder(sheet)
    for i, row in enumerate(ROWS):
        for j, v in enumerate(row):
            b.set(o.top + i, o.left + j, v)
    return Workbook([Sheet.from_cells("Cover", {"A1": "notes"}), b.build()])


@pytest.mark.parametrize(
    ("request_text", "shape", "formula", "value"),
    [
        ("How many people are from US?", "count-if", '=COUNTIFS(C2:C6,"US")', 3),
        (
            "How many unique countries are there?",
            "count-distinct",
            '=ROWS(UNIQUE(FILTER(C2:C6,C2:C6<>"")))',
            3,
        ),
        ("What is the average age?", "aggregate-average", "=AVERAGE(B2:B6)", 49.4),
        ("What's the total worth of people from the US?", "aggregate-sum", '=SUMIFS(D2:D6,C2:C6,"US")', 345),
        ("What is the median worth?", "aggregate-median", "=MEDIAN(D2:D6)", 120.5),
        (
            "Which country does the person with the highest worth come from?",
            "lookup-extreme",
            "=INDEX(C2:C6,MATCH(MAX(D2:D6),D2:D6,0))",
            "IN",
        ),
        (
            "What is the name of the oldest person?",
            "lookup-extreme",
            "=INDEX(A2:A6,MATCH(MAX(B2:B6),B2:B6,0))",
            "Cy",
        ),
        ("What is the age of the youngest person?", "extreme-min", "=MIN(B2:B6)", 25),
        (
            "What is the most common country?",
            "most-common",
            "=INDEX(UNIQUE(C2:C6),MATCH(MAX(COUNTIF(C2:C6,UNIQUE(C2:C6))),COUNTIF(C2:C6,UNIQUE(C2:C6)),0))",
            "US",
        ),
        (
            "List the top 2 countries with the most people.",
            "top-n-by-count",
            "=TAKE(SORTBY(UNIQUE(C2:C6),COUNTIF(C2:C6,UNIQUE(C2:C6)),-1),2)",
            [["US"], ["CN"]],
        ),
        ("List the top 3 worth values.", "top-n-values", "=TAKE(SORT(D2:D6,,-1),3)", [[300], [200], [120.5]]),
        # rows listed by a word no column holds: their names; the head before "of the N": that column
        ("Name the 2 oldest people.", "top-n-lookup", "=TAKE(SORTBY(A2:A6,B2:B6,-1),2)", [["Cy"], ["Ed"]]),
        (
            "List the 2 youngest people from the US.",
            "top-n-lookup",
            '=TAKE(SORTBY(FILTER(A2:A6,(C2:C6="US")),FILTER(B2:B6,(C2:C6="US")),1),2)',
            [["Ann"], ["Ed"]],
        ),
        (
            "What are the ages of the 3 oldest people?",
            "top-n-values",
            "=TAKE(SORT(B2:B6,,-1),3)",
            [[77], [64], [50]],
        ),
        (
            "What are the countries of the 2 oldest people?",
            "top-n-lookup",
            "=TAKE(SORTBY(C2:C6,B2:B6,-1),2)",
            [["US"], ["US"]],
        ),
        (
            "What are the 3 largest worth figures?",
            "top-n-values",
            "=TAKE(SORT(D2:D6,,-1),3)",
            [[300], [200], [120.5]],
        ),
        ("Is there anyone older than 70?", "exists", '=COUNTIFS(B2:B6,">70")>0', True),
        # the noun right after the number names the column, though another is named before it
        ("How many worth rows have more than 40 age?", "count-if", '=COUNTIFS(B2:B6,">40")', 3),
        ("Is the average age above 60?", "aggregate-average", "=AVERAGE(B2:B6)>60", False),
    ],
)
def test_shapes(request_text: str, shape: str, formula: str, value: Any) -> None:
    ans = generate_formula(request_text, table_at(), "People")
    assert (ans.shape, ans.formula) == (shape, formula), ans.reason
    assert ans.value == pytest.approx(value) if isinstance(value, float) else ans.value == value
    assert ans.explanation and ans.evidence and 0 < ans.confidence <= 1


@pytest.mark.parametrize("origin", ["C5", "H200", "B2"])
def test_same_answers_wherever_the_table_sits(origin: str) -> None:
    for q in (
        "How many people are from US?",
        "Which country does the person with the highest worth come from?",
        "List the top 3 worth values.",
        "What's the total worth of people from the US?",
    ):
        here = generate_formula(q, table_at("A1"), "People")
        there = generate_formula(q, table_at(origin, "Moved"), "Moved")
        assert there.value == here.value, q
        assert there.formula != here.formula or origin == "A1"


def test_formulas_use_the_real_position() -> None:
    ans = generate_formula("How many people are from US?", table_at("C5", "Moved"), "Moved")
    assert ans.formula == '=COUNTIFS(E6:E10,"US")'


@pytest.mark.parametrize(
    ("request_text", "reason"),
    [
        ("", "the request is empty"),
        ("asdf qwer zxcv", "no formula shape matches this request"),
        ("How many unicorns have wings?", "no formula shape matches this request"),
        # names a column but no condition on it could be read: counting every row would be wrong
        ("How many people have a country all the time?", "no formula shape matches this request"),
        ("¿Cuántas personas son de Estados Unidos?", "no formula shape matches this request"),
    ],
)
def test_abstains_honestly(request_text: str, reason: str) -> None:
    ans = generate_formula(request_text, table_at(), "People")
    assert ans.formula is None and ans.value is None
    assert ans.reason is not None and ans.reason.startswith(reason)


def test_empty_sheet_abstains() -> None:
    wb = Workbook([Sheet.from_cells("Empty", {})])
    ans = generate_formula("How many rows?", wb)
    assert ans.formula is None and ans.reason == "sheet 'Empty' holds no table to compute on"


@pytest.mark.parametrize(
    ("value", "gold", "kind", "ok"),
    [
        (True, "True", "boolean", True),
        (False, "True", "boolean", False),
        (32.30542, "32.31", "number", True),
        ([[343]], "343", "number", True),
        ("US", "US", "category", True),
        (1, "1", "category", True),
        ([["US"], ["CN"]], "['CN', 'US']", "list[category]", True),
        ([["US"], ["CN"]], "['CN']", "list[category]", False),
        ([[3], [1.005]], "[1.0, 3]", "list[number]", True),
        ([[3], [3]], "[3]", "list[number]", False),
        ([[None], ["Oslo"]], "[nan, 'Oslo']", "list[category]", True),  # pandas prints a blank as nan
        ([["x"], ["Oslo"]], "[nan, 'Oslo']", "list[category]", False),
    ],
)
def test_databench_comparison(value: Any, gold: str, kind: str, ok: bool) -> None:
    assert compare(value, gold, kind) is ok


def test_cli_formula(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_text("\n".join(",".join(str(v) for v in row) for row in ROWS) + "\n", encoding="utf-8")
    res = CliRunner().invoke(cli, ["formula", str(path), "How many people are from US?", "--format", "json"])
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert (doc["formula"], doc["value"], doc["evidence"]) == ('=COUNTIFS(C2:C6,"US")', 3, ["C2:C6"])
    res = CliRunner().invoke(cli, ["formula", str(path), "How many unicorns have wings?"])
    assert res.exit_code == 1 and res.stdout.startswith("cannot: no formula shape matches this request")


def test_bench_formula_contract(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "f.json"
    res = CliRunner().invoke(
        cli, ["bench", "formula", "--corpus", str(corpus), "--limit", "6", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(out.read_text())["summary"]
    assert set(summary) >= {
        "questions",
        "execution_accuracy",
        "valid_formula_rate",
        "invalid_formulas_returned",
        "position_accuracy",
        "abstained",
        "seconds_per_question",
    }
    assert summary["questions"] == 6 and summary["invalid_formulas_returned"] == 0
    assert summary["position_accuracy"] == summary["execution_accuracy"]


@pytest.mark.parametrize(
    ("request_text", "formula", "value"),
    [
        (
            "What is the total of North?",
            "=SUM(B4:B15)",
            1815,
        ),  # the title above and the Total row below stay out
        ("What is the average Target?", "=AVERAGE(I4:I7)", 1625),  # the second table on the sheet
        ("Which region has the highest growth?", "=INDEX(H4:H7,MATCH(MAX(J4:J7),J4:J7,0))", "East"),
        ("Which month had the highest West?", "=INDEX(A4:A15,MATCH(MAX(E4:E15),E4:E15,0))", 45627),
    ],
)
def test_tables_found_by_detection(tmp_path: Path, request_text: str, formula: str, value: Any) -> None:
    from gridsight.demo import build_demo_workbook
    from gridsight.sources import open_workbook

    wb = open_workbook(build_demo_workbook(tmp_path / "demo.xlsx"))
    ans = generate_formula(request_text, wb)
    assert (ans.formula, ans.value) == (formula, value)


PASSENGERS = [
    ("Name", "Sex", "Pclass", "Survived", "Fare", "Siblings Aboard", "Favorites"),
    ("Ann", "F", 1, True, 80.0, 0, 10),
    ("Bob", "M", 3, False, 7.5, 1, 3),
    ("Cat", "F", 3, True, 8.0, 0, 7),
    ("Dan", "M", 1, False, 600.0, 2, 1),
    ("Eve", "F", 1, True, 20.0, 0, 12),
    ("Fay", "F", 3, False, 9.0, 3, 0),
]


def passengers_at(origin: str = "A1") -> Workbook:
    o = Range.parse(origin)
    b = SheetBuilder("Ship")
    for i, row in enumerate(PASSENGERS):
        for j, v in enumerate(row):
            b.set(o.top + i, o.left + j, v)
    return Workbook([b.build()])


@pytest.mark.parametrize(
    ("request_text", "shape", "formula", "value"),
    [
        ("How many passengers boarded without any siblings?", "count-if", "=COUNTIFS(F2:F7,0)", 3),
        (
            "Were there any passengers who paid a fare of more than $500?",
            "exists",
            '=COUNTIFS(E2:E7,">500")>0',
            True,
        ),
        (
            "Did any passengers below a fare of 10 survive?",
            "exists",
            '=COUNTIFS(D2:D7,TRUE,E2:E7,"<10")>0',
            True,
        ),
        (
            "Which passenger class has the highest number of survivors?",
            "most-common",
            "=INDEX(UNIQUE(FILTER(C2:C7,(D2:D7=TRUE))),MATCH(MAX(COUNTIFS(C2:C7,UNIQUE(FILTER(C2:C7,(D2:D7=TRUE))),"
            "D2:D7,TRUE)),COUNTIFS(C2:C7,UNIQUE(FILTER(C2:C7,(D2:D7=TRUE))),D2:D7,TRUE),0))",
            1,
        ),
        (
            "Is the most common sex female?",
            "most-common",
            '=INDEX(UNIQUE(B2:B7),MATCH(MAX(COUNTIF(B2:B7,UNIQUE(B2:B7))),COUNTIF(B2:B7,UNIQUE(B2:B7)),0))="F"',
            True,
        ),
        (
            "Does the passenger with the highest fare have 2 siblings aboard?",
            "lookup-extreme-test",
            "=INDEX(F2:F7,MATCH(MAX(E2:E7),E2:E7,0))=2",
            True,
        ),
        ("What is the total number of favorites?", "aggregate-sum", "=SUM(G2:G7)", 33),
        (
            "List the bottom 2 fares of female passengers.",
            "top-n-values",
            '=TAKE(SORT(FILTER(E2:E7,(B2:B7="F")),,1),2)',
            [[8], [9]],
        ),
        (
            "List the top 2 classes by average fare.",
            "top-n-by-aggregate",
            "=TAKE(SORTBY(UNIQUE(C2:C7),AVERAGEIFS(E2:E7,C2:C7,UNIQUE(C2:C7)),-1),2)",
            [[1], [3]],
        ),
        (
            "Who are the 2 most favorited passengers?",
            "top-n-lookup",
            "=TAKE(SORTBY(A2:A7,G2:G7,-1),2)",
            [["Eve"], ["Ann"]],
        ),
    ],
)
def test_more_shapes(request_text: str, shape: str, formula: str, value: Any) -> None:
    ans = generate_formula(request_text, passengers_at(), "Ship")
    assert (ans.shape, ans.formula) == (shape, formula), (ans.reason, ans.shape, ans.formula)
    assert ans.value == value
    moved = generate_formula(request_text, passengers_at("C5"), "Ship")
    assert moved.value == value and moved.formula != formula


POSTS = [
    ("author_id", "author_name", "text", "retweets"),
    (11, "Ann", "hello world", 3),
    (12, "Bo", "one two three four", 0),
    (13, "Cy", "  short  ", 7),
    (14, "Ann", "a b c", 1),
]


def posts() -> Workbook:
    b = SheetBuilder("Posts")
    for i, row in enumerate(POSTS):
        for j, v in enumerate(row):
            b.set(i, j, v)
    return Workbook([b.build()])


WORDS = 'IF(TRIM(C2:C5)="",0,LEN(TRIM(C2:C5))-LEN(SUBSTITUTE(TRIM(C2:C5)," ",""))+1)'


@pytest.mark.parametrize(
    ("request_text", "shape", "formula", "value"),
    [
        ("How many unique authors are there?", "count-distinct", '=ROWS(UNIQUE(FILTER(B2:B5,B2:B5<>"")))', 3),
        ("What is the length of the longest post in words?", "extreme-max", f"=MAX({WORDS})", 4),
        (
            "Who is the author of the post with the most words?",
            "lookup-extreme",
            f"=INDEX(B2:B5,MATCH(MAX({WORDS}),{WORDS},0))",
            "Bo",
        ),
        (
            "Who are the authors of the 2 shortest posts (number of words)?",
            "top-n-lookup",
            f"=TAKE(SORTBY(B2:B5,{WORDS},1),2)",
            [["Cy"], ["Ann"]],
        ),
        ("Is there an author who received no retweets?", "exists", "=COUNTIFS(D2:D5,0)>0", True),
        (
            "Who are the authors of the top 2 most retweeted posts?",
            "top-n-lookup",
            "=TAKE(SORTBY(B2:B5,D2:D5,-1),2)",
            [["Cy"], ["Ann"]],
        ),
    ],
)
def test_text_measures_and_names(request_text: str, shape: str, formula: str, value: Any) -> None:
    ans = generate_formula(request_text, posts(), "Posts")
    assert (ans.shape, ans.formula) == (shape, formula), (ans.reason, ans.shape, ans.formula)
    assert ans.value == value


def test_synonyms_and_rates() -> None:
    wb = passengers_at()
    ans = generate_formula("What's the most common gender among the survivors?", wb, "Ship")
    assert ans.value == "F" and ans.formula is not None and "B2:B7" in ans.formula
    ans = generate_formula("Name the top 2 passenger classes by survival rate.", wb, "Ship")
    assert ans.shape == "top-n-by-rate" and ans.value == [[1], [3]]
    assert ans.formula == (
        "=TAKE(SORTBY(UNIQUE(C2:C7),COUNTIFS(C2:C7,UNIQUE(C2:C7),D2:D7,TRUE)/COUNTIF(C2:C7,UNIQUE(C2:C7)),-1),2)"
    )


def test_ranges_listed_in_the_request() -> None:
    wb = passengers_at()
    ans = generate_formula(
        "Among survivors, which fare range was the most common: (0-50, 50-100, 100+)?", wb, "Ship"
    )
    assert ans.shape == "ranges-most" and ans.value == "0-50"
    assert ans.formula == (
        '=INDEX({"0-50";"50-100";"100+"},MATCH(MAX(VSTACK(COUNTIFS(E2:E7,">=0",E2:E7,"<50",D2:D7,TRUE),'
        'COUNTIFS(E2:E7,">=50",E2:E7,"<100",D2:D7,TRUE),COUNTIFS(E2:E7,">=100",D2:D7,TRUE))),'
        'VSTACK(COUNTIFS(E2:E7,">=0",E2:E7,"<50",D2:D7,TRUE),COUNTIFS(E2:E7,">=50",E2:E7,"<100",D2:D7,TRUE),'
        'COUNTIFS(E2:E7,">=100",D2:D7,TRUE)),0))'
    )
    ans = generate_formula(
        "List the top 2 fare ranges (0-10, 10-100, 100+) by number of passengers.", wb, "Ship"
    )
    assert ans.shape == "ranges-top-n" and ans.value == [["0-10"], ["10-100"]]


def test_blanks_are_not_a_category_and_partly_named_flags_are_not_filters() -> None:
    b = SheetBuilder("Survey")
    rows = [
        ("Country", "What's your orientation?", "Where did you meet partners? (Through Friends)"),
        ("ES", "Hetero", True),
        (None, "Hetero", False),
        ("FR", "Bi", True),
        ("ES", "Hetero", False),
    ]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if v is not None:
                b.set(i, j, v)
    wb = Workbook([b.build()])
    ans = generate_formula("List the bottom 2 countries with the least number of rows.", wb, "Survey")
    assert (
        ans.formula
        == '=TAKE(SORTBY(UNIQUE(FILTER(A2:A5,A2:A5<>"")),COUNTIF(A2:A5,UNIQUE(FILTER(A2:A5,A2:A5<>""))),1),2)'
    )
    assert ans.value == [["FR"], ["ES"]]
    ans = generate_formula("Which orientation has the highest representation among partners?", wb, "Survey")
    assert ans.shape == "most-common" and ans.value == "Hetero" and "C2:C5" not in (ans.formula or "")


@pytest.mark.parametrize(
    ("request_text", "explanation"),
    [
        (
            "Which passenger class has the highest number of survivors?",
            "Returns the most common Pclass (C2:C7) where Survived (D2:D7) equals TRUE.",
        ),
        ("What's the least common class?", "Returns the least common Pclass (C2:C7)."),
        (
            "List the top 2 classes by average fare.",
            "Returns the 2 Pclass (C2:C7) with the highest average Fare (E2:E7).",
        ),
        (
            "Name the top 2 passenger classes by survival rate.",
            "Returns the 2 Pclass (C2:C7) with the highest share of rows where Survived (D2:D7) is TRUE.",
        ),
        (
            "Who are the 2 most favorited passengers?",
            "Returns the Name (A2:A7) of the 2 rows with the largest Favorites (G2:G7).",
        ),
        ("Who paid the highest fare?", "Returns the Name (A2:A7) of the row with the largest Fare (E2:E7)."),
        (
            "Which fare range is the most common: (0-50, 50-100, 100+)?",
            'Returns the one of the ranges "0-50", "50-100" and "100+" of Fare (E2:E7) with the most rows.',
        ),
    ],
)
def test_explanations_read_like_the_request(request_text: str, explanation: str) -> None:
    ans = generate_formula(request_text, passengers_at(), "Ship")
    assert ans.explanation == explanation, (ans.formula, ans.explanation)


def test_date_results_read_as_dates(tmp_path: Path) -> None:
    from gridsight.demo import build_demo_workbook
    from gridsight.sources import open_workbook

    wb = open_workbook(build_demo_workbook(tmp_path / "demo.xlsx"))
    ans = generate_formula("Which month has the highest North?", wb)
    assert (ans.formula, ans.value, ans.display) == (
        "=INDEX(A4:A15,MATCH(MAX(B4:B15),B4:B15,0))",
        45627,
        "Dec 2024",
    )
    ans = generate_formula("What are the 2 latest months?", wb)
    assert (ans.formula, ans.display) == ("=TAKE(SORT(A4:A15,,-1),2)", "Dec 2024; Nov 2024")
    assert ans.to_dict()["display"] == "Dec 2024; Nov 2024"
    assert generate_formula("What is the total of North?", wb).display is None  # numbers need no help


def test_most_retweeted_author_totals_their_posts() -> None:
    ans = generate_formula("What is the name of the most retweeted author?", posts(), "Posts")
    assert ans.shape == "group-total-extreme" and ans.value == "Cy"  # Cy 7; Ann 3 + 1 = 4; Bo 0
    assert ans.formula == "=INDEX(SORTBY(UNIQUE(B2:B5),SUMIFS(D2:D5,B2:B5,UNIQUE(B2:B5)),-1),1)"
    assert ans.explanation == "Returns the author_name (B2:B5) with the highest total retweets (D2:D5)."


@pytest.mark.parametrize(
    ("request_text", "formula", "value"),
    [
        (
            "What is the total of North in Q1?",  # 120.5 + 132 + 128.75
            '=SUMIFS(B4:B15,A4:A15,">="&DATE(2024,1,1),A4:A15,"<"&DATE(2024,4,1))',
            381.25,
        ),
        (
            "What is the total North for months in March?",  # one year of data: March 2024
            '=SUMIFS(B4:B15,A4:A15,">="&DATE(2024,3,1),A4:A15,"<"&DATE(2024,4,1))',
            128.75,
        ),
        (
            "How many months are in 2024?",
            '=COUNTIFS(A4:A15,">="&DATE(2024,1,1),A4:A15,"<"&DATE(2025,1,1))',
            12,
        ),
    ],
)
def test_calendar_periods(tmp_path: Path, request_text: str, formula: str, value: Any) -> None:
    from gridsight.demo import build_demo_workbook
    from gridsight.sources import open_workbook

    ans = generate_formula(request_text, open_workbook(build_demo_workbook(tmp_path / "demo.xlsx")))
    assert (ans.formula, ans.value) == (formula, value)


@pytest.mark.parametrize(
    ("request_text", "missing"),
    [
        ("What is the total worth in Q1?", "Q1"),  # no date column: the period cannot be applied
        ("How many people are from 'Atlantis'?", "Atlantis"),  # no cell holds it
    ],
)
def test_filters_that_cannot_apply_abstain(request_text: str, missing: str) -> None:
    ans = generate_formula(request_text, table_at(), "People")
    assert ans.formula is None
    assert ans.reason == (
        f"the request names {missing!r}, which GridSight cannot apply to this table "
        "(no date column covers it, or no cell holds it)"
    )
    assert (
        generate_formula("What's the total worth of people from the 'US'?", table_at(), "People").value == 345
    )


def test_cli_cell_reports_the_spill(tmp_path: Path) -> None:
    from gridsight.demo import build_demo_workbook

    path = build_demo_workbook(tmp_path / "demo.xlsx")
    ask = [str(path), "What are the 3 highest North values?", "--cell"]
    res = CliRunner().invoke(cli, ["formula", *ask, "L4"])
    assert res.exit_code == 0 and "value (spills 3×1 from L4, spill area free):" in res.output
    res = CliRunner().invoke(cli, ["formula", *ask, "A4", "--format", "json"])
    doc = json.loads(res.output)
    assert (doc["cell"], doc["spill"], doc["spill_free"]) == ("A4", [3, 1], False)
    res = CliRunner().invoke(cli, ["formula", *ask, "ZZ"])
    assert res.exit_code == 2 and "error: 'ZZ' is not an A1 cell address" in res.output


@pytest.mark.parametrize(
    ("request_text", "shape", "formula", "value", "display"),
    [
        (
            "What is the growth of North from Jan 2024 to Dec 2024?",
            "growth",
            "=(B15-B4)/B4",
            59.5 / 120.5,
            "49.4%",
        ),
        ("What is the change of East from Jan 2024 to Mar 2024?", "change", "=D6-D4", 12.25, None),
        ("What is the ratio of North to South?", "ratio", "=SUM(B4:B15)/SUM(C4:C15)", 1815 / 1403.75, None),
        (
            "Join all regions with commas",
            "text-join",
            '=TEXTJOIN(", ",TRUE,H4:H7)',
            "North, South, East, West",
            None,
        ),
    ],
)
def test_growth_ratio_join(
    tmp_path: Path, request_text: str, shape: str, formula: str, value: Any, display: Any
) -> None:
    from gridsight.demo import build_demo_workbook
    from gridsight.sources import open_workbook

    ans = generate_formula(request_text, open_workbook(build_demo_workbook(tmp_path / "demo.xlsx")))
    assert (ans.shape, ans.formula, ans.display) == (shape, formula, display)
    assert ans.value == (pytest.approx(value) if isinstance(value, float) else value)


def test_existence_in_the_top_ranks_and_the_most_common_ones_row() -> None:
    b = SheetBuilder("R")
    rows = [
        ("rank", "name", "city", "country", "selfMade"),
        (1, "A", "Paris", "France", True),
        (2, "B", "Austin", "United States", False),
        (3, "C", "Austin", "United States", True),
        (4, "D", "Lyon", "France", True),
    ]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    wb = Workbook([b.build()])
    ans = generate_formula("Is there a non-self-made person in the top 2 ranks?", wb, "R")
    assert (ans.shape, ans.formula, ans.value) == ("exists", '=COUNTIFS(E2:E5,FALSE,A2:A5,"<=2")>0', True)
    ans = generate_formula("Is there a non-self-made person in the top 1 ranks?", wb, "R")
    assert ans.value is False
    ans = generate_formula("Is the city with the most people in the United States?", wb, "R")
    assert ans.shape == "mode-test" and ans.value is True  # Austin (2 people) is in the United States
    assert ans.formula == (
        "=INDEX(D2:D5,MATCH(INDEX(UNIQUE(C2:C5),MATCH(MAX(COUNTIF(C2:C5,UNIQUE(C2:C5))),"
        'COUNTIF(C2:C5,UNIQUE(C2:C5)),0)),C2:C5,0))="United States"'
    )


def test_a_filtered_column_is_not_the_one_listed() -> None:
    ans = generate_formula(
        "List the bottom 2 fares of passengers who have 0 siblings aboard.", passengers_at(), "Ship"
    )
    assert ans.formula == "=TAKE(SORT(FILTER(E2:E7,(F2:F7=0)),,1),2)" and ans.value == [[8], [20]]


RANKED = [
    ("rank", "name", "title", "selfMade"),
    (1, "Ann", "CEO", True),
    (2, "Bo", "Founder", False),
    (3, "Cy", None, False),
    (4, "Di", "Chair", True),
    (5, "Ed", None, True),
]


def ranked_table() -> Workbook:
    b = SheetBuilder("Rich")
    for i, row in enumerate(RANKED):
        for j, v in enumerate(row):
            if v is not None:
                b.set(i, j, v)
    return Workbook([b.build()])


@pytest.mark.parametrize(
    ("request_text", "formula", "value"),
    [
        # on a ranking, rank 1 is the top: "top" means the smallest numbers, "bottom" the largest
        (
            "List the top 2 ranks of people who are not self-made.",
            "=TAKE(SORT(FILTER(A2:A6,(D2:D6=FALSE)),,1),2)",
            [[2], [3]],
        ),
        ("List the bottom 2 ranks.", "=TAKE(SORT(A2:A6,,-1),2)", [[5], [4]]),
        (
            "What is the name of the person with the highest rank?",
            "=INDEX(B2:B6,MATCH(MIN(A2:A6),A2:A6,0))",
            "Ann",
        ),
        # the lowest rank is the last place; its title is an empty cell, which stays blank (not 0)
        (
            "What is the title of the person with the lowest rank?",
            "=T(INDEX(C2:C6,MATCH(MAX(A2:A6),A2:A6,0)))",
            "",
        ),
    ],
)
def test_rankings_read_rank_one_as_the_top(request_text: str, formula: str, value: Any) -> None:
    ans = generate_formula(request_text, ranked_table(), "Rich")
    assert (ans.formula, ans.value) == (formula, value), (ans.reason, ans.shape)


@pytest.mark.parametrize(
    ("request_text", "value"),
    [
        ("Which 2 countries have the most people older than 30?", [["US"], ["CN"]]),  # among those rows
        ("Which two countries are least common?", [["CN"], ["IN"]]),  # "which two ... least": a count
    ],
)
def test_which_n_categories_by_count(request_text: str, value: Any) -> None:
    ans = generate_formula(request_text, table_at(), "People")
    assert (ans.shape, ans.value) == ("top-n-by-count", value), (ans.formula, ans.reason)


def test_which_category_with_any_verb_counts_its_rows() -> None:
    # "placed", "scored", "recorded": a verb between the category and "the most" changes nothing
    ans = generate_formula("Which country recorded the most people?", table_at(), "People")
    assert (ans.shape, ans.value) == ("most-common", "US"), (ans.formula, ans.reason)


def test_a_superlative_ranks_by_the_column_named_in_brackets() -> None:
    # "the highest number of records (n)": a one-letter header is named only in brackets
    b = SheetBuilder("Jobs")
    rows = [("job", "score", "n"), ("Baker", 0.9, 3), ("Clerk", 0.2, 40), ("Diver", 0.5, 7)]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    ans = generate_formula(
        "What is the average score for the job with the highest number of records (n)?", Workbook([b.build()])
    )
    assert (ans.formula, ans.value) == ("=INDEX(B2:B4,MATCH(MAX(C2:C4),C2:C4,0))", 0.2), ans.reason


def test_a_column_of_years_runs_in_time() -> None:
    # "the oldest" planes were built in the earliest years: on a number column of years (as on a
    # date column) a time adjective orders by time, not by size
    b = SheetBuilder("Fleet")
    rows = [("tailnum", "year", "seats"), ("N1", 2004.0, 55), ("N2", 1959.0, 12), ("N3", 2013.0, 180)]
    rows += [("N4", 1956.0, 90)]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    book = Workbook([b.build()])
    oldest = generate_formula("In which years were the 2 oldest planes built?", book)
    assert (oldest.formula, oldest.value) == ("=TAKE(SORT(B2:B5,,1),2)", [[1956], [1959]]), oldest.reason


def test_the_rows_an_identifier_or_a_row_noun_names_are_counted() -> None:
    # "the most admissions" with an ``Admission ID`` column, "the most chart entries" with a
    # ``Chart pos`` column: rows are counted per group; "admissions" alone does not name the
    # yes/no column ``ER admission``
    b = SheetBuilder("Stays")
    rows = [("Admission ID", "Ward", "ER admission", "Chart pos")]
    rows += [("A1", "Cardio", False, 9), ("A2", "Cardio", False, 8), ("A3", "Cardio", False, 7)]
    rows += [("A4", "ICU", True, 90), ("A5", "ICU", True, 80)]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    book = Workbook([b.build()])
    for request_text in [
        "Which ward receives the most admissions?",
        "Which ward has the most chart entries?",
    ]:
        ans = generate_formula(request_text, book)
        assert (ans.shape, ans.value) == ("most-common", "Cardio"), (request_text, ans.formula, ans.reason)


def test_a_superlatives_noun_phrase_names_a_header_with_a_unit_code() -> None:
    # "the 3 highest order totals" names total_eur (its unit code unnamed), not order_ts;
    # "which customer ... the most orders" groups customer_id, not customer_rating
    b = SheetBuilder("Orders")
    rows = [("order_id", "customer_id", "order_ts", "total_eur", "customer_rating")]
    rows += [("O1", "C1", 45000.5, 10.0, 5), ("O2", "C2", 45001.5, 30.0, 4), ("O3", "C1", 45002.5, 20.0, 3)]
    rows += [("O4", "C3", 45003.5, 5.0, 5)]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    book = Workbook([b.build()])
    ans = generate_formula("What are the 3 highest order totals?", book)
    assert (ans.formula, ans.value) == ("=TAKE(SORT(D2:D5,,-1),3)", [[30], [20], [10]]), ans.reason
    ans = generate_formula("Which customer has placed the largest number of orders?", book)
    assert ans.value == "C1", (ans.formula, ans.reason)


@pytest.mark.parametrize(
    ("request_text", "formula", "value"),
    [
        (
            "What is the highest sales figure among German companies?",
            '=MAX(FILTER(B2:B7,(C2:C7="Germany")))',
            40,
        ),
        ("How many Canadian companies are there?", '=COUNTIFS(C2:C7,"Canada")', 2),
        # an adjective no letters derive, by meaning (MiniLM): "Swiss" is ``Switzerland``
        ("How many Swiss companies are there?", '=COUNTIFS(C2:C7,"Switzerland")', 1),
        ("What are the total sales of Dutch companies?", '=SUMIFS(B2:B7,C2:C7,"Netherlands")', 55),
    ],
)
def test_a_place_is_named_by_its_adjective(request_text: str, formula: str, value: object) -> None:
    b = SheetBuilder("Firms")
    rows = [
        ("name", "sales", "country"),
        ("Alpha", 10, "Canada"),
        ("Beta", 40, "Germany"),
        ("Gamma", 70, "Canada"),
        ("Delta", 25, "Germany"),
        ("Epsilon", 33, "Switzerland"),
        ("Zeta", 55, "Netherlands"),
    ]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    ans = generate_formula(request_text, Workbook([b.build()]), "Firms")
    assert (ans.formula, ans.value) == (formula, value), ans.reason


def _birds() -> Workbook:
    b = SheetBuilder("Birds")
    rows = [("name", "tail_length", "wing_length"), ("Kite", 30, 150), ("Wren", 5, 45), ("Swan", 20, 240)]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    return Workbook([b.build()])


@pytest.mark.parametrize(
    ("request_text", "formula", "value"),
    [
        # the superlative opens the question and names the column it ranks: its extreme value, not
        # the tail length (named only by "length", a word of the ranked column too)
        ("What is the longest wing length measured?", "=MAX(C2:C4)", 240),
        ("What is the shortest tail length of any bird?", "=MIN(B2:B4)", 5),
        # a lookup still reads the column the question asks for
        (
            "What is the name of the bird with the longest wing length?",
            "=INDEX(A2:A4,MATCH(MAX(C2:C4),C2:C4,0))",
            "Swan",
        ),
    ],
)
def test_a_superlative_that_names_its_column_asks_for_its_extreme(
    request_text: str, formula: str, value: Any
) -> None:
    ans = generate_formula(request_text, _birds(), "Birds")
    assert (ans.formula, ans.value) == (formula, value), ans.reason


@pytest.mark.parametrize(
    ("request_text", "formula", "value"),
    [
        # a place before the superlative: LARGE / SMALL, never the top row's MAX
        ("What is the second longest wing length?", "=LARGE(C2:C4,2)", 150),
        (
            "Which bird has the 2nd shortest tail length?",
            "=INDEX(A2:A4,MATCH(SMALL(B2:B4,2),B2:B4,0))",
            "Swan",
        ),
        # "which bird" names no column: the rows' names, not the measure
        ("Which bird has the longest wing length?", "=INDEX(A2:A4,MATCH(MAX(C2:C4),C2:C4,0))", "Swan"),
    ],
)
def test_a_place_before_the_superlative_and_rows_asked_by_a_noun(
    request_text: str, formula: str, value: Any
) -> None:
    ans = generate_formula(request_text, _birds(), "Birds")
    assert (ans.formula, ans.value) == (formula, value), ans.reason

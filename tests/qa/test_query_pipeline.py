"""The query pipeline's orchestration: grounding, the grammar, the guard, repair, the vote, formulas.

A scripted runtime stands in for the model here (it ignores grammars, so the guard is what stops a
hostile query); tests/llm/test_llm_query.py runs the same pipeline on the real default model."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from gridsight.detect import detect_tables
from gridsight.grid import SheetBuilder, Workbook
from gridsight.llm import ScriptedRuntime
from gridsight.llm._gbnf import check_grammar
from gridsight.qa import answer_question
from gridsight.qa._pipeline import (
    TIE_ORDER_HEADERS,
    Attempt,
    expected_type,
    model_attempts,
    result_value,
    same_value,
    vote,
)
from gridsight.qa._relational import build_relation
from gridsight.qa._sqlgen import grounded_values, match_score, sql_grammar
from gridsight.qa._to_formula import translate, verified_formula

ORDERS = [
    ("Order", "City", "Product", "Units", "Price"),
    (1, "Oslo", "Kettle", 3, 25.0),
    (2, "Bergen", "Toaster", 1, 40.0),
    (3, "Oslo", "Toaster", 2, 40.0),
    (4, "Trondheim", "Kettle", 5, 25.0),
    (5, "Oslo", "Blender", 1, 90.0),
    (6, "Bergen", "Kettle", 4, 25.0),
]


def _book() -> Workbook:
    b = SheetBuilder("Orders")
    for r, line in enumerate(ORDERS):
        for c, v in enumerate(line):
            b.set(r, c, v)
    return Workbook([b.build()])


def _relation() -> Any:
    sheet = _book().sheets[0]
    return build_relation(sheet, detect_tables(sheet).tables[0])


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Is the cheapest product sold in Oslo?", "boolean"),
        ("How many orders came from Bergen?", "number"),
        ("What is the average price?", "number"),
        ("List the three largest orders.", "list"),
        ("What are the cities with more than two orders?", "list"),
        ("Which city ordered the most units?", None),
        ("What is the highest price?", "number"),
        ("What is the most common city?", None),
        ("In Oslo in 2023, were more units sold than in Bergen?", "boolean"),  # a leading place and time
        ("In 2023, how many orders came from Bergen?", "number"),
        # a year before a superlative is no count of rows: "in 2020 lowest" asks for one name
        ("For which city was the price in 2020 lowest?", None),
        ("What are the 3 lowest prices?", "list"),
    ],
)
def test_expected_type(question: str, expected: str | None) -> None:
    assert expected_type(question) == expected


def test_values_are_grounded_in_the_question_even_misspelled() -> None:
    rel = _relation()
    lits = grounded_values(rel, "How many toasters went to Trondhiem?")
    assert lits["City"][0] == "Trondheim"  # one typo
    assert lits["Product"][0] == "Toaster"  # a plural
    assert match_score("Oslo", ["oslo"], "orders from oslo") >= 1.0


def test_grammar_names_only_the_views_columns_and_checks() -> None:
    rel = _relation()
    g = sql_grammar(rel, grounded_values(rel, "units to Oslo")).grammar
    check_grammar(g.gbnf)
    assert '"\\"Units\\""' in g.gbnf and "'Oslo'" in g.gbnf
    assert "DROP" not in g.gbnf and "ATTACH" not in g.gbnf


@pytest.mark.parametrize(
    ("rows", "expected", "value"),
    [
        ([(1,)], "boolean", True),
        ([(0,)], "boolean", False),
        ([(3.0,)], "number", 3),
        ([("Oslo",)], "number", None),
        ([("a",), ("b",)], "list", ["a", "b"]),
        ([("a",), ("b",)], None, "a"),
        ([(None,), ("b",)], None, "b"),
        ([], None, None),
        ([(None,)], None, None),
    ],
)
def test_result_value(rows: list[tuple[Any, ...]], expected: str | None, value: Any) -> None:
    assert result_value(rows, expected)[0] == value


def test_a_count_answers_yes_no_only_when_it_counts_some_rows() -> None:
    """'Are there orders from Bergen?' may be a count of matching rows; a count of every row only
    says the table is not empty, and is no answer."""
    some = "SELECT COUNT(*) FROM data WHERE \"City\" = 'Bergen'"
    assert result_value([(2,)], "boolean", some) == (True, None)
    value, why = result_value([(6,)], "boolean", "SELECT COUNT(*) FROM data")
    assert value is None and why


def test_vote_takes_the_majority_then_the_routes_then_the_model() -> None:
    a = [Attempt("model", "q1", 5), Attempt("model sample 1", "q2", 7), Attempt("rules", "f", 7)]
    v = vote(a)
    assert v is not None and v.winner.value == 7 and v.agreement == pytest.approx(2 / 3)
    v = vote([Attempt("model", "q1", 5), Attempt("rules", "f", 7)])
    assert v is not None and v.winner.source == "rules"  # a tie: the routes' answer first
    v = vote([Attempt("model", "q1", 5), Attempt("rules", "f", 7)], TIE_ORDER_HEADERS)
    assert v is not None and v.winner.source == "rules"  # multi-row headers: the header paths first
    v = vote([Attempt("model", "q1", 5), Attempt("rules", error="abstained")])
    assert v is not None and v.winner.source == "model"
    assert vote([Attempt("model", error="x")]) is None
    assert same_value(["a", "B"], ["b", "a"]) and same_value(3, 3.0000000001) and not same_value(3, "3x")


def test_hostile_model_output_never_runs_and_a_failed_query_gets_one_repair() -> None:
    rel = _relation()
    replies = iter(
        [
            "SELECT COUNT(*) FROM data; DROP TABLE data",
            'SELECT SUM("Units") FROM data WHERE "City" = \'Oslo\'',
        ]
    )
    runtime = ScriptedRuntime(lambda _m: next(replies))
    out = model_attempts(rel, "How many units went to Oslo?", runtime)
    assert out[0].error is not None and out[0].value is None  # refused by the guard
    assert out[0].error.startswith("unexpected character") or "only" in out[0].error


def test_repair_round_shows_the_error_to_the_model() -> None:
    rel = _relation()
    replies = iter(['SELECT SUM("Units") FROM data WHERE "Units" > (SELECT', 'SELECT SUM("Units") FROM data'])
    runtime = ScriptedRuntime(lambda _m: next(replies))
    out = model_attempts(rel, "How many units in all?", runtime)
    assert [a.source for a in out] == ["model", "model repaired"]
    assert out[1].value == 16
    assert "failed" in runtime.requests[1].messages[-1]["content"]


def test_answer_question_votes_and_reports_the_candidates() -> None:
    wb = _book()
    runtime = ScriptedRuntime(['SELECT SUM("Units") FROM data WHERE "City" = \'Oslo\''])
    ans = answer_question(wb, "How many units were ordered from Oslo?", model=runtime, samples=1)
    assert ans.status == "answered" and ans.value == 6
    assert ans.agreement is not None and ans.candidates[0]["source"] == "model"
    assert ans.formula == '=SUMIFS(D2:D7,B2:B7,"Oslo")'
    assert {"sheet": "Orders", "range": "D2:D7"} in ans.evidence


@pytest.mark.parametrize(
    ("sql", "formula"),
    [
        ("SELECT COUNT(*) FROM data WHERE \"City\" = 'Oslo'", '=COUNTIFS(B2:B7,"Oslo")'),
        ('SELECT AVG("Price") FROM data WHERE "Units" > 1', '=AVERAGEIFS(E2:E7,D2:D7,">1")'),
        ('SELECT MAX("Units") FROM data', "=MAX(D2:D7)"),
        ('SELECT COUNT(DISTINCT "City") FROM data', "=COUNTA(UNIQUE(B2:B7))"),
        ('SELECT "Product" FROM data ORDER BY "Price" DESC LIMIT 1', "=TAKE(SORTBY(C2:C7,E2:E7,-1),1)"),
        ('SELECT "City" FROM data WHERE "Order" = 4', "=FILTER(B2:B7,(A2:A7=4))"),
        (
            'SELECT "City" FROM data WHERE "Units" > 1 OR "Price" > 50',
            "=FILTER(B2:B7,((D2:D7>1)+(E2:E7>50)>0))",
        ),
        (
            'SELECT "City", "Product" FROM data GROUP BY "City", "Product" ORDER BY COUNT(*) DESC LIMIT 1',
            None,
        ),
        (  # a ranking of groups over some rows only
            'SELECT "City" FROM data WHERE "Price" < 50 GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 2',
            "=TAKE(SORTBY(UNIQUE(FILTER(B2:B7,(E2:E7<50))),COUNTIFS(B2:B7,UNIQUE(FILTER(B2:B7,(E2:E7<50))),"
            'E2:E7,"<50"),-1),2)',
        ),
        (  # DISTINCT beside GROUP BY the same column changes nothing
            'SELECT DISTINCT "City" FROM data GROUP BY "City" ORDER BY SUM("Units") ASC LIMIT 1',
            "=TAKE(SORTBY(UNIQUE(B2:B7),SUMIFS(D2:D7,B2:B7,UNIQUE(B2:B7)),1),1)",
        ),
        ('SELECT MEDIAN("Price") FROM data WHERE "City" = \'Oslo\'', '=MEDIAN(FILTER(E2:E7,(B2:B7="Oslo")))'),
    ],
)
def test_translate(sql: str, formula: str | None) -> None:
    assert translate(_relation(), sql) == formula


def test_formula_is_kept_only_when_the_engine_agrees() -> None:
    wb = _book()
    sheet = wb.sheets[0]
    rel = build_relation(sheet, detect_tables(sheet).tables[0])
    sql = 'SELECT "Product" FROM data ORDER BY "Price" DESC LIMIT 1'
    assert verified_formula(rel, wb, sql, "Blender") == "=TAKE(SORTBY(C2:C7,E2:E7,-1),1)"
    assert verified_formula(rel, wb, sql, "Kettle") is None


@pytest.mark.parametrize(
    ("sql", "question", "pruned"),
    [
        (
            'SELECT AVG("Price") FROM data WHERE "City" = \'Oslo\' AND "Units" = 3',
            "What is the average price in Oslo?",
            'SELECT AVG("Price") FROM data WHERE "City" = \'Oslo\'',
        ),
        (
            'SELECT COUNT(*) FROM data WHERE "Units" > 2 AND "Price" = 25',
            "How many orders have more than 2 units?",
            'SELECT COUNT(*) FROM data WHERE "Units" > 2',
        ),
        (
            'SELECT "Product" FROM data WHERE "City" = \'Bergen\' ORDER BY "Price" DESC LIMIT 1',
            "Which product is the most expensive?",
            'SELECT "Product" FROM data ORDER BY "Price" DESC LIMIT 1',
        ),
        (
            'SELECT COUNT(*) FROM data WHERE "City" = \'Oslo\' OR "Units" = 3',
            "How many orders from Oslo?",
            'SELECT COUNT(*) FROM data WHERE "City" = \'Oslo\' OR "Units" = 3',
        ),
        (  # BETWEEN's AND joins no conditions: the range is one condition, kept or dropped whole
            'SELECT COUNT(*) FROM data WHERE "Units" BETWEEN 2 AND 4 AND "Price" = 25',
            "How many orders have between 2 and 4 units?",
            'SELECT COUNT(*) FROM data WHERE "Units" BETWEEN 2 AND 4',
        ),
        (
            'SELECT COUNT(*) FROM data WHERE "Units" BETWEEN 2 AND 4',
            "How many orders are there?",
            "SELECT COUNT(*) FROM data",
        ),
        (  # a number named in words is named
            'SELECT COUNT(*) FROM data WHERE "Units" = 3 AND "Order" > 2',
            "How many orders of three units came after the second order?",
            'SELECT COUNT(*) FROM data WHERE "Units" = 3 AND "Order" > 2',
        ),
        (
            'SELECT COUNT(*) FROM data WHERE "Price" > (SELECT AVG("Price") FROM data)',
            "How many orders cost more than average?",
            'SELECT COUNT(*) FROM data WHERE "Price" > (SELECT AVG("Price") FROM data)',
        ),
    ],
)
def test_prune_drops_conditions_on_unnamed_values(sql: str, question: str, pruned: str) -> None:
    from gridsight.qa._pipeline import prune

    assert prune(sql, _relation(), question) == pruned


def test_formula_from_question_translates_the_winning_query() -> None:
    from gridsight.qa import formula_from_question

    wb = _book()
    runtime = ScriptedRuntime(['SELECT AVG("Price") FROM data WHERE "City" = \'Oslo\''])
    ans = formula_from_question(
        "What is the average price of orders from Oslo?", wb, model=runtime, samples=1
    )
    assert ans.formula == '=AVERAGEIFS(E2:E7,B2:B7,"Oslo")'
    assert ans.value == pytest.approx(155 / 3) and ans.agreement is not None


def test_formula_from_question_translates_a_group_ranking() -> None:
    from gridsight.qa import formula_from_question

    wb = _book()
    runtime = ScriptedRuntime(['SELECT "City" FROM data GROUP BY "City" ORDER BY SUM("Units") DESC LIMIT 1'])
    ans = formula_from_question("Which city ordered the most units?", wb, model=runtime, samples=1)
    assert ans.value == "Oslo"
    assert ans.formula == "=TAKE(SORTBY(UNIQUE(B2:B7),SUMIFS(D2:D7,B2:B7,UNIQUE(B2:B7)),-1),1)"


def test_formula_from_question_says_so_when_no_formula_gives_the_querys_result() -> None:
    from gridsight.qa import formula_from_question

    wb = _book()
    sql = 'SELECT SUBSTR("City", 1, 3) FROM data WHERE "Order" = 4'  # SUBSTR has no translation
    question = "What are the first three letters of the city of order 4?"
    ans = formula_from_question(question, wb, model=ScriptedRuntime([sql]), samples=1)
    assert ans.formula is None and ans.value == ["Tro"]
    ran = sql
    assert ans.reason == f"no Excel formula gives the query's result; the query {ran} gives ['Tro']"


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [
        ("trondhiem", "trondheim", True),
        ("aldr", "alder", True),
        ("toasters", "toaster", True),
        ("west", "best", False),
        ("oslo", "olso", False),
        ("bergen", "borgen", True),
        ("bergen", "mergen", False),
        ("employed", "employment", True),  # one stem, two endings
        ("unemployed", "unemployment", True),
        ("department", "departure", False),
        ("post", "posts", True),
        ("post", "postigo", False),  # no ending: another word (a name)
    ],
)
def test_near_words(a: str, b: str, near: bool) -> None:
    from gridsight.qa._sqlgen import _near

    assert _near(a, b) is near


@pytest.mark.parametrize(
    ("sql", "tidy"),
    [
        (
            'SELECT "City" FROM data GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 1',
            'SELECT "City" FROM data WHERE "City" IS NOT NULL GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 1',
        ),
        (
            'SELECT "City" FROM data WHERE "Units" > 1 GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 1',
            'SELECT "City" FROM data WHERE "Units" > 1 AND "City" IS NOT NULL GROUP BY "City" '
            "ORDER BY COUNT(*) DESC LIMIT 1",
        ),
        ('SELECT COUNT(*) FROM data GROUP BY "City"', 'SELECT COUNT(*) FROM data GROUP BY "City"'),
    ],
)
def test_ranked_groups_leave_out_empty_cells(sql: str, tidy: str) -> None:
    from gridsight.qa._pipeline import without_empty_group

    assert without_empty_group(sql) == tidy


@pytest.mark.parametrize(
    ("sql", "question", "oriented"),
    [
        (
            'SELECT "Product" FROM data ORDER BY "Price" ASC LIMIT 2',
            "What are the 2 highest priced products?",
            'SELECT "Product" FROM data ORDER BY "Price" DESC LIMIT 2',
        ),
        (
            'SELECT "Product" FROM data ORDER BY "Price" LIMIT 1',
            "Which product has the top price?",
            'SELECT "Product" FROM data ORDER BY "Price" DESC LIMIT 1',
        ),
        (
            'SELECT "City" FROM data GROUP BY "City" ORDER BY SUM("Units") DESC LIMIT 1',
            "Which city ordered the least units?",
            'SELECT "City" FROM data GROUP BY "City" ORDER BY SUM("Units") ASC LIMIT 1',
        ),
        (
            'SELECT "Product" FROM data ORDER BY "Price" ASC LIMIT 1',
            "Which product is the cheapest?",
            'SELECT "Product" FROM data ORDER BY "Price" ASC LIMIT 1',
        ),
        (
            'SELECT "Product" FROM data ORDER BY "Price" DESC LIMIT 1',
            "Which is the most expensive of the least sold?",
            'SELECT "Product" FROM data ORDER BY "Price" DESC LIMIT 1',
        ),
    ],
)
def test_orient_follows_the_questions_direction_word(sql: str, question: str, oriented: str) -> None:
    from gridsight.qa._pipeline import orient

    assert orient(sql, question) == oriented


def test_row_order_is_offered_only_when_the_question_asks_where_a_row_stands() -> None:
    from gridsight.qa._sqlgen import offered

    rel = _relation()
    assert "Row number" not in [c.name for c in offered(rel, "What are the top 2 prices?").columns]
    assert "Row number" in [c.name for c in offered(rel, "Which city is listed after Bergen?").columns]
    # a place word that picks a period is not about where a row stands
    assert "Row number" not in [c.name for c in offered(rel, "Prices in the first half of 2023?").columns]
    assert "Row number" in [c.name for c in offered(rel, "Which city is first?").columns]
    assert "Row number" not in [c.name for c in offered(rel, "").columns]  # no question: no place


@pytest.mark.parametrize(
    ("question", "value", "full"),
    [
        ("Total U.S. housing starts in 2022?", "United States", True),
        ("EU imports in 2021", "European Union", True),
        ("PP&E at year end", "Property, plant and equipment", True),  # "and" is no initial
        ("R&D costs", "Research and development", True),
        ("Imports from non-EU partners", "European Union", False),  # part of another name
        ("Tell us about the states", "United States", False),  # a pronoun, not capitals
    ],
)
def test_an_initialism_names_a_value_in_full(question: str, value: str, full: bool) -> None:
    from gridsight.qa._sqlgen import match_score, question_words

    assert (match_score(value, question_words(question), question) >= 1.0) is full


# A small statement-like table: 14 row labels (more than a category), values by year.
LEDGER = [
    ("Item", "2019", "2018"),
    ("Passenger revenue", 100, 90),
    ("Cargo revenue", 20, 18),
    ("Other revenue", 5, 4),
    ("Salaries and related costs", 40, 38),
    ("Aircraft fuel", 30, 33),
    ("Aircraft rent", 7, 8),
    ("Landing fees", 6, 6),
    ("Depreciation", 9, 9),
    ("Maintenance materials", 5, 4),
    ("Distribution expenses", 4, 4),
    ("Special charges", 1, 2),
    ("Interest expense", 3, 3),
    ("Income tax expense", 2, 1),
    ("Net income", 18, 9),
]


def _ledger() -> Any:
    b = SheetBuilder("Ledger")
    for r, line in enumerate(LEDGER):
        for c, v in enumerate(line):
            b.set(r, c, v)
    sheet = Workbook([b.build()]).sheets[0]
    return build_relation(sheet, detect_tables(sheet).tables[0])


def test_a_small_tables_row_labels_are_listed_whole_in_the_prompt_and_the_grammar() -> None:
    from gridsight.qa._sqlgen import listed, named_values, schema_text

    rel = _ledger()
    key = rel.columns[0]
    assert key.role == "key" and key.distinct == 14 and listed(key)
    question = "How much was spent to rent planes in 2019?"
    lits = grounded_values(rel, question)
    assert set(lits[key.name]) == {line[0] for line in LEDGER[1:]}
    text = schema_text(rel, named_values(rel, question))
    assert all(f"'{line[0]}'" in text for line in LEDGER[1:])
    assert "'Aircraft rent'" in sql_grammar(rel, lits).grammar.gbnf


def test_a_row_label_is_offered_by_meaning_when_no_letters_match() -> None:
    from gridsight.qa._sqlgen import named_values
    from gridsight.text import available

    if not available():
        pytest.skip("the embedding model is not installed")
    named = named_values(_ledger(), "How much did the company pay to lease its airplanes in 2019?")
    assert named["Item"][0] == "Aircraft rent"  # 'lease airplanes' ~ 'Aircraft rent', no shared word


def test_a_condition_on_a_listed_row_label_is_a_choice_and_stays() -> None:
    from gridsight.qa._pipeline import prune

    rel = _ledger()
    sql = 'SELECT "2019" FROM data WHERE "Item" = \'Aircraft rent\''
    assert prune(sql, rel, "What did leasing planes cost in 2019?") == sql
    # A large table's unnamed value is still a copied example and goes.
    sql = "SELECT COUNT(*) FROM data WHERE \"City\" = 'Oslo'"
    assert prune(sql, _relation(), "How many orders are there?") == "SELECT COUNT(*) FROM data"


def test_sums_and_averages_take_number_columns_only() -> None:
    rel = _relation()
    g = sql_grammar(rel, grounded_values(rel, "total units")).grammar
    check_grammar(g.gbnf)
    agg = next(line for line in g.gbnf.splitlines() if line.startswith("agg ::="))
    sums = set(re.search(r'\("SUM\(" \| "AVG\("\) \(([^)]*)\)', agg).group(1).split(" | "))  # type: ignore[union-attr]
    names = {c.name: f"c{i}" for i, c in enumerate(rel.columns)}
    assert {names["Units"], names["Price"]} <= sums
    assert names["City"] not in sums and names["Product"] not in sums


@pytest.mark.parametrize(
    ("question", "n"),
    [
        ("Which 5 products have the lowest prices?", 5),
        ("List the top 3 most common cities.", 3),
        ("Name the bottom three orders by units.", 3),
        ("What are the 4 least common products?", 4),
        ("Which 6 orders from Oslo have the highest price?", 6),
        ("How many orders were placed in 2019?", None),
        ("What is the highest price?", None),
        ("Which city has 2 orders?", None),
    ],
)
def test_count_asked(question: str, n: int | None) -> None:
    from gridsight.text import count_asked

    assert count_asked(question) == n


@pytest.mark.parametrize(
    ("sql", "question", "tidied"),
    [
        (  # a ranking of groups answers with the group, leaving out the empty one
            'SELECT COUNT(*) FROM data GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 1',
            "Which city has the most orders?",
            'SELECT "City" FROM data WHERE "City" IS NOT NULL GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 1',
        ),
        (  # ... unless the question asks for the number
            'SELECT COUNT(*) FROM data GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 1',
            "How many orders does the busiest city have?",
            'SELECT COUNT(*) FROM data GROUP BY "City" ORDER BY COUNT(*) DESC LIMIT 1',
        ),
        (  # as many rows as the question asks for
            'SELECT "Product" FROM data ORDER BY "Price" ASC LIMIT 1',
            "Which 3 products are the cheapest?",
            'SELECT "Product" FROM data WHERE "Price" IS NOT NULL ORDER BY "Price" ASC LIMIT 3',
        ),
        (
            'SELECT "Product" FROM data ORDER BY "Price" DESC',
            "List the top 2 products by price.",
            'SELECT "Product" FROM data WHERE "Price" IS NOT NULL ORDER BY "Price" DESC LIMIT 2',
        ),
    ],
)
def test_tidy_answers_a_group_ranking_with_the_group_and_the_asked_count(
    sql: str, question: str, tidied: str
) -> None:
    from gridsight.qa._pipeline import tidy

    assert tidy(sql, _relation(), question) == tidied


def test_the_totals_marker_filters_rows_but_is_never_selected_bare() -> None:
    b = SheetBuilder("Costs")
    for r, line in enumerate([("Item", "2019"), ("Fuel", 30), ("Rent", 7), ("Total", 37)]):
        for c, v in enumerate(line):
            b.set(r, c, v)
    sheet = Workbook([b.build()]).sheets[0]
    rel = build_relation(sheet, detect_tables(sheet).tables[0])
    marker = next(i for i, c in enumerate(rel.columns) if c.role == "total")
    g = sql_grammar(rel, grounded_values(rel, "fuel in 2019")).grammar
    check_grammar(g.gbnf)
    answers = next(line for line in g.gbnf.splitlines() if line.startswith("icol ::="))
    assert f"c{marker}" not in answers.split() and "c0" in answers.split()
    assert f"c{marker}" in next(line for line in g.gbnf.splitlines() if line.startswith("col ::=")).split()


def test_only_a_yes_no_question_may_select_a_comparison() -> None:
    rel = _relation()
    lits = grounded_values(rel, "units to Oslo")
    plain = sql_grammar(rel, lits, compare=False).grammar.gbnf
    assert "item ::= iexpr\n" in plain + "\n"
    check_grammar(plain)
    assert "item ::= iexpr (cmp" in sql_grammar(rel, lits).grammar.gbnf


def test_the_columns_the_question_names_follow_the_schema() -> None:
    from gridsight.qa._sqlgen import messages, named_columns, named_values

    rel = _relation()
    assert set(named_columns(rel, "How many units went to each city?")[:2]) == {"Units", "City"}
    assert named_columns(rel, "What is 2 + 2?") == []
    chat = messages(rel, "units by city", named_values(rel, "units by city"), ["Units", "City"])
    assert 'Columns the question names: "Units", "City"\nQuestion: units by city' in chat[-1]["content"]


# Passengers: a yes/no column, a text column, an age column with an unknown value.
SHIP = [
    ("Passenger", "Survived", "Sex", "Age", "Fare"),
    ("Ann", True, "female", 30, 70.0),
    ("Bob", False, "male", 40, 8.0),
    ("Carl", False, "male", 22, 7.5),
    ("Dora", True, "female", None, 30.0),
    ("Emil", False, "male", 35, 9.0),
    ("Frida", True, "female", 61, 80.0),
]


def _ship() -> Any:
    b = SheetBuilder("Ship")
    for r, line in enumerate(SHIP):
        for c, v in enumerate(line):
            if v is not None:
                b.set(r, c, v)
    sheet = Workbook([b.build()]).sheets[0]
    return build_relation(sheet, detect_tables(sheet).tables[0])


@pytest.mark.parametrize(
    ("sql", "question", "tidied"),
    [
        (  # a ranking leaves out the rows whose key is empty (SQLite sorts NULL first)
            'SELECT "Passenger" FROM data ORDER BY "Age" ASC LIMIT 1',
            "Who is the youngest passenger?",
            'SELECT "Passenger" FROM data WHERE "Age" IS NOT NULL ORDER BY "Age" ASC LIMIT 1',
        ),
        (  # several plain columns: the one the question names
            'SELECT "Passenger", "Fare" FROM data WHERE "Fare" IS NOT NULL ORDER BY "Fare" DESC LIMIT 2',
            "List the 2 highest fares.",
            'SELECT "Fare" FROM data WHERE "Fare" IS NOT NULL ORDER BY "Fare" DESC LIMIT 2',
        ),
        (  # ... and for 'which'/'who' the row labels
            'SELECT "Fare", "Passenger" FROM data WHERE "Fare" IS NOT NULL ORDER BY "Fare" DESC LIMIT 1',
            "Who paid the highest fare?",
            'SELECT "Passenger" FROM data WHERE "Fare" IS NOT NULL ORDER BY "Fare" DESC LIMIT 1',
        ),
        (  # a yes/no column the question names, never tested by the query, filters the rows
            'SELECT AVG("Fare") FROM data',
            "What is the average fare of the survivors?",
            'SELECT AVG("Fare") FROM data WHERE "Survived" = 1',
        ),
        (  # ... not when the question negates (which side is meant is unclear)
            'SELECT AVG("Fare") FROM data',
            "What is the average fare of those who did not survive?",
            'SELECT AVG("Fare") FROM data',
        ),
        (  # a difference between two looked-up values is a size
            'SELECT (SELECT "Age" FROM data WHERE "Passenger" = \'Ann\') - '
            '(SELECT "Age" FROM data WHERE "Passenger" = \'Bob\')',
            "What is the difference in age between Ann and Bob?",
            'SELECT ABS((SELECT "Age" FROM data WHERE "Passenger" = \'Ann\') - '
            '(SELECT "Age" FROM data WHERE "Passenger" = \'Bob\'))',
        ),
        (  # ... a change keeps its sign
            'SELECT (SELECT "Age" FROM data WHERE "Passenger" = \'Ann\') - '
            '(SELECT "Age" FROM data WHERE "Passenger" = \'Bob\')',
            "How much older is Ann than Bob?",
            'SELECT (SELECT "Age" FROM data WHERE "Passenger" = \'Ann\') - '
            '(SELECT "Age" FROM data WHERE "Passenger" = \'Bob\')',
        ),
        (  # a number said in words grounds a condition ('over a dozen' is 12)
            'SELECT COUNT(*) FROM data WHERE "Fare" > 12',
            "How many passengers paid over a dozen?",
            'SELECT COUNT(*) FROM data WHERE "Fare" > 12',
        ),
        (  # ... and a test the model wrote on it stays
            'SELECT COUNT(*) FROM data WHERE "Survived" = 1 AND "Sex" = \'male\'',
            "How many male passengers survived?",
            'SELECT COUNT(*) FROM data WHERE "Survived" = 1 AND "Sex" = \'male\'',
        ),
    ],
)
def test_tidy_reads_the_query_as_the_question_means_it(sql: str, question: str, tidied: str) -> None:
    from gridsight.qa._pipeline import tidy

    assert tidy(sql, _ship(), question) == tidied


def test_median_runs_in_the_view_and_translates_to_excel() -> None:
    from gridsight.qa._pipeline import run_attempt

    rel = _ship()
    ages = run_attempt(rel, "model", 'SELECT MEDIAN("Age") FROM data', "number")
    assert ages.value == 35  # 22, 30, 35, 40, 61: the empty age is left out, as Excel does
    women = run_attempt(rel, "model", 'SELECT MEDIAN("Fare") FROM data WHERE "Sex" = \'female\'', "number")
    assert women.value == 70
    assert "MEDIAN(" in sql_grammar(rel, {}).grammar.gbnf
    assert translate(rel, 'SELECT MEDIAN("Age") FROM data') == "=MEDIAN(D2:D7)"
    formula = translate(rel, 'SELECT MEDIAN("Fare") FROM data WHERE "Sex" = \'female\'')
    assert formula == '=MEDIAN(FILTER(E2:E7,(C2:C7="female")))'
    book = Workbook([rel.sheet])  # the engine agrees, so the formula is kept
    assert (
        verified_formula(rel, book, 'SELECT MEDIAN("Fare") FROM data WHERE "Sex" = \'female\'', 70) == formula
    )
    youngest = 'SELECT "Passenger" FROM data WHERE "Age" IS NOT NULL ORDER BY "Age" ASC LIMIT 1'
    assert verified_formula(rel, book, youngest, "Carl") is not None


def test_a_value_named_only_by_words_of_another_columns_header_is_not_named() -> None:
    """'home' in "non-home-grown" names the yes/no column, not the sector 'home goods'."""
    from gridsight.qa._pipeline import prune

    b = SheetBuilder("Firms")
    sectors = ["home goods", "oil", "retail", "tech", "banking", "media", "autos", "games", "food", "steel"]
    for c, v in enumerate(("Firm", "Sector", "homeGrown", "Rank")):
        b.set(0, c, v)
    for r, sector in enumerate(sectors, 1):
        for c, v in enumerate((f"F{r}", sector, r % 2 == 0, r)):
            b.set(r, c, v)
    sheet = Workbook([b.build()]).sheets[0]
    rel = build_relation(sheet, detect_tables(sheet).tables[0])
    sql = 'SELECT "Rank" FROM data WHERE "Sector" = \'home goods\' AND "homeGrown" = 0'
    assert prune(sql, rel, "What is the rank of the largest non-home-grown firm?") == (
        'SELECT "Rank" FROM data WHERE "homeGrown" = 0'
    )
    sql = "SELECT COUNT(*) FROM data WHERE \"Sector\" = 'home goods'"
    assert prune(sql, rel, "How many firms sell home goods?") == sql  # named whole: it stays


def test_a_like_pattern_must_be_text_the_question_names(tmp_path: Path) -> None:
    from openpyxl import Workbook

    from gridsight.detect import detect_tables
    from gridsight.qa._pipeline import unnamed_pattern
    from gridsight.qa._relational import relation_of
    from gridsight.sources import open_workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for row in [["Author", "Text", "Height"], ["Ann", "hello world", 171], ["Bo", "SFC The World", 160]]:
        ws.append(row)
    wb.save(tmp_path / "posts.xlsx")
    sheet = open_workbook(tmp_path / "posts.xlsx").sheets[0]
    rel = relation_of(sheet, detect_tables(sheet).tables[0])
    ok = """SELECT COUNT(*) FROM data WHERE "Text" LIKE '%world%'"""
    assert unnamed_pattern(ok, rel, "How many posts mention the world?") is None
    copied = (
        """SELECT COUNT(*) FROM data WHERE "Text" LIKE '%SFC The World%' ORDER BY COUNT(*) DESC LIMIT 3"""
    )
    assert unnamed_pattern(copied, rel, "What are the word counts of the 3 longest posts?")
    number = """SELECT COUNT(*) FROM data WHERE "Text" LIKE '%.170%'"""
    assert unnamed_pattern(number, rel, "Are most people taller than 170?")
    assert unnamed_pattern("""SELECT COUNT(*) FROM data WHERE "Height" LIKE '%17%'""", rel, "17 tall?")


@pytest.mark.parametrize(
    ("sql", "question", "refused"),
    [
        (
            'SELECT "Product" FROM data ORDER BY "Revenue" DESC LIMIT 3',
            "Top 3 products by total revenue?",
            True,
        ),
        (
            'SELECT "Product" FROM data GROUP BY "Product" ORDER BY SUM("Revenue") DESC LIMIT 3',
            "Top 3 products by total revenue?",
            False,
        ),
        (
            'SELECT "Product" FROM data ORDER BY "Revenue" DESC LIMIT 3',
            "The 3 rows with the most revenue?",
            False,
        ),
    ],
)
def test_a_ranking_of_groups_by_an_aggregate_needs_groups(sql: str, question: str, refused: bool) -> None:
    from gridsight.qa._pipeline import ungrouped_ranking

    assert (ungrouped_ranking(sql, question) is not None) is refused


def test_a_query_over_many_rows_leaves_out_the_total_rows(tmp_path: Path) -> None:
    # a script-written sheet: the Total row's formulas have results only in the view, and a model's
    # SUM over the column would count the months twice
    from openpyxl import Workbook

    from gridsight.detect import detect_tables
    from gridsight.qa._pipeline import run_attempt, tidy
    from gridsight.qa._relational import relation_of
    from gridsight.sources import open_workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Month", "North", "South"])
    for m, n, s in [("Jan", 10, 5), ("Feb", 20, 6), ("Mar", 30, 7)]:
        ws.append([m, n, s])
    ws.append(["Total", "=SUM(B2:B4)", "=SUM(C2:C4)"])
    wb.save(tmp_path / "sales.xlsx")
    sheet = open_workbook(tmp_path / "sales.xlsx").sheets[0]
    rel = relation_of(sheet, detect_tables(sheet).tables[0])
    total = tidy('SELECT SUM("North") FROM data', rel, "What is the total of North?")
    assert run_attempt(rel, "model", total, "number").value == 60
    top = tidy(
        'SELECT "Month" FROM data ORDER BY "North" DESC LIMIT 1', rel, "Which month had the most North?"
    )
    assert run_attempt(rel, "model", top, "text").value == "Mar"
    asked = tidy("""SELECT "North" FROM data WHERE "Month" = 'Total'""", rel, "North total?")
    assert run_attempt(rel, "model", asked, "number").value == 60  # the total row itself, asked by label

"""Columns chosen by meaning (the shipped MiniLM embedder), in both rule tiers: a word that names no
header by its letters ('cost', 'vendor') or a superlative adjective ('cheapest', 'most expensive')
finds its column only when the embedder puts it clearly closest -- never from a hand list. The
workbook is made up here; none of its headers comes from a benchmark corpus."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from gridsight import text
from gridsight.formula import generate_formula
from gridsight.qa import answer_question
from gridsight.qa._pick import candidates
from gridsight.qa._route_sql import plan_query
from gridsight.qa._sql import run_query
from gridsight.sources import open_workbook

pytestmark = pytest.mark.skipif(not text.available(), reason="the MiniLM embedding model is missing")

SHOP = [
    ("Item", "Supplier", "Unit Price", "Weight Kg", "Height Cm", "Listed"),
    ("Lamp", "Orion", 35.0, 2.5, 48, dt.datetime(2021, 3, 1)),
    ("Desk", "Vega", 220.0, 31.0, 75, dt.datetime(2019, 6, 15)),
    ("Stool", "Orion", 18.5, 4.0, 45, dt.datetime(2022, 1, 10)),
    ("Shelf", "Lyra", 95.0, 22.0, 180, dt.datetime(2020, 9, 5)),
    ("Chair", "Vega", 60.0, 7.5, 90, dt.datetime(2023, 2, 20)),
    ("Mirror", "Orion", 48.0, 6.0, 120, dt.datetime(2018, 11, 30)),
]


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Shop"
    for row in SHOP:
        ws.append(row)
    path = tmp_path_factory.mktemp("meaning") / "shop.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("question", "formula", "value"),
    [
        # superlative adjectives: the column and the end from meaning
        ("Which item is the cheapest?", "=INDEX(A2:A7,MATCH(MIN(C2:C7),C2:C7,0))", "Stool"),
        ("Which supplier sells the heaviest item?", "=INDEX(B2:B7,MATCH(MAX(D2:D7),D2:D7,0))", "Vega"),
        ("Which supplier sells the tallest item?", "=INDEX(B2:B7,MATCH(MAX(E2:E7),E2:E7,0))", "Lyra"),
        # the items listed by their names, the cheapest first
        ("List the 2 least expensive items.", "=TAKE(SORTBY(A2:A7,C2:C7,1),2)", [["Stool"], ["Lamp"]]),
        # on a date column 'earliest' is the smallest date
        ("Which item was listed earliest?", "=INDEX(A2:A7,MATCH(MIN(F2:F7),F2:F7,0))", "Mirror"),
        # synonyms by meaning: cost -> Unit Price, vendor -> Supplier
        ("What is the average cost?", "=AVERAGE(C2:C7)", pytest.approx(79.41666)),
        ("How many items cost more than 50?", '=COUNTIFS(C2:C7,">50")', 3),
        (
            "Which vendor has the most items?",
            "=INDEX(UNIQUE(B2:B7),MATCH(MAX(COUNTIF(B2:B7,UNIQUE(B2:B7))),COUNTIF(B2:B7,UNIQUE(B2:B7)),0))",
            "Orion",
        ),
    ],
)
def test_formula_tier_places_words_by_meaning(shop: Path, question: str, formula: str, value: Any) -> None:
    ans = generate_formula(question, open_workbook(shop), "Shop")
    assert (ans.formula, ans.value) == (formula, value), (ans.shape, ans.reason)


@pytest.mark.parametrize(
    ("question", "sql", "rows"),
    [
        (
            "Which item is the cheapest?",
            'SELECT "Item" FROM data WHERE "Unit Price" IS NOT NULL ORDER BY "Unit Price" ASC LIMIT 1',
            [("Stool",)],
        ),
        (
            "Which supplier sells the heaviest item?",
            'SELECT "Supplier" FROM data WHERE "Weight Kg" IS NOT NULL ORDER BY "Weight Kg" DESC LIMIT 1',
            [("Vega",)],
        ),
        (
            "List the 2 most expensive items.",
            'SELECT "Unit Price" FROM data WHERE "Unit Price" IS NOT NULL ORDER BY "Unit Price" DESC LIMIT 2',
            [(220,), (95,)],
        ),
        (
            "Which item was listed earliest?",
            'SELECT "Item" FROM data WHERE "Listed" IS NOT NULL ORDER BY "Listed" ASC LIMIT 1',
            [("Mirror",)],
        ),
        ("What is the average cost?", 'SELECT AVG("Unit Price") FROM data', [(pytest.approx(79.41666),)]),
        ("How many items cost more than 50?", 'SELECT COUNT(*) FROM data WHERE "Unit Price" > 50', [(3,)]),
    ],
)
def test_sql_planner_places_words_by_meaning(shop: Path, question: str, sql: str, rows: list[Any]) -> None:
    book = open_workbook(shop)
    plan, view = plan_query(candidates(book, None, question)[0], question)
    assert plan is not None and plan.sql == sql
    assert run_query(plan.sql, view)[0] == rows


@pytest.mark.parametrize("question", ["Which item is the fastest?", "Who supplies the most reliable item?"])
def test_an_adjective_no_column_means_is_not_guessed(shop: Path, question: str) -> None:
    """No column is about speed or reliability: both tiers abstain rather than rank by another one."""
    ans = answer_question(open_workbook(shop), question)
    assert ans.status == "abstained", (ans.route, ans.formula, ans.query, ans.value)


def test_without_the_embedder_only_letters_name_columns(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text, "_EMBEDDER", [None])
    book = open_workbook(shop)
    assert generate_formula("What is the average cost?", book, "Shop").formula is None
    assert generate_formula("What is the average unit price?", book, "Shop").formula == "=AVERAGE(C2:C7)"

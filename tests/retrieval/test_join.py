"""Questions that need tables of two files joined on a shared key, over a real lancedb index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.bench._gold import Question, score
from gridsight.cli import cli
from gridsight.qa._join import find_join, label_of
from gridsight.qa._pick import candidates
from gridsight.retrieval import Library, build_index
from gridsight.retrieval._answer import ask_library
from gridsight.sources import open_workbook

from .conftest import write_xlsx
from .join_questions import BRANCHES, SALES, gold, make_join_library


@pytest.fixture(scope="module")
def joins(tmp_path_factory: pytest.TempPathFactory, embedder: object) -> tuple[Path, Library]:
    root = tmp_path_factory.mktemp("joins")
    folder = make_join_library(root / "books")
    build_index(folder, root / "index", embedder=embedder)
    return folder, Library(root / "index", embedder)


def _right(value: object, g: dict[str, object]) -> bool:
    return (
        score(value, Question(str(g["question"]), g["answer"], str(g["type"]), "join", None, "")) is not None
    )


def test_a_column_of_another_file_is_read_over_the_join(joins: tuple[Path, Library]) -> None:
    folder, library = joins
    result = ask_library(library, folder, "What is the average revenue in the West region?")
    ans = result.answer
    west = {r[0] for r in BRANCHES[1:] if r[1] == "West"}
    revenue = [r[2] for r in SALES[1:] if r[1] in west]
    assert ans.status == "answered" and ans.route == "sql"
    assert ans.value == pytest.approx(sum(revenue) / len(revenue))
    # every table used is named by file, sheet and range: the revenue and branch cells of the sales,
    # the region and branch cells of the branches
    assert ans.evidence == [
        {"file": "sales.xlsx", "sheet": "Sales", "range": "C2:C7"},
        {"file": "branches.csv", "sheet": "branches", "range": "B2:B4"},
        {"file": "sales.xlsx", "sheet": "Sales", "range": "B2:B7"},
        {"file": "branches.csv", "sheet": "branches", "range": "A2:A4"},
    ]
    assert result.file == "branches.csv, sales.xlsx"
    note = "(over sales.xlsx Sales!A1:D7 joined with branches.csv branches!A1:C4 on Branch)"
    assert note in ans.explanation


def test_a_value_only_the_other_file_holds_asks_for_the_join(joins: tuple[Path, Library]) -> None:
    folder, library = joins
    g = next(g for g in gold() if "shops in Ireland" in str(g["question"]))
    ans = ask_library(library, folder, str(g["question"])).answer
    assert ans.status == "answered" and _right(ans.value, g)
    assert {e["file"] for e in ans.evidence} == {"deliveries.xlsx", "shops.csv"}


def test_keys_between_files_are_text_or_named_alike(tmp_path: Path) -> None:
    """Small whole numbers (ages) are found inside any column of ids: between files that is no link."""
    people = [("Name", "Age"), *((f"P{i}", i) for i in range(1, 9))]
    colours = [("Id", "Colour"), *((i, f"shade {i}") for i in range(1, 21))]
    write_xlsx(tmp_path / "a.xlsx", {"People": people, "Colours": colours})
    wb = open_workbook(tmp_path / "a.xlsx")
    q = "What is the colour of the oldest person?"
    found = {c.sheet.name: c for c in candidates(wb, None, q)}
    same_book = find_join(q, found["People"], [found["Colours"]])
    assert same_book is not None and same_book.left_key.name == "Age"  # one workbook: the old rule
    across = find_join(q, found["People"], [found["Colours"]], lambda c: label_of("b.xlsx", c.sheet.name))
    assert across is None


def test_bench_counts_the_join_questions(tmp_path: Path, joins: tuple[Path, Library]) -> None:
    """The join questions (answers computed in join_questions.py) through `bench retrieval --multi`."""
    folder, _ = joins
    questions = [
        {"question": "What is the total revenue?", "answer": "3869.5", "type": "number", "file": "sales.xlsx"}
    ]
    (folder / "qa.jsonl").write_text(json.dumps(questions[0]) + "\n", encoding="utf-8")
    multi = tmp_path / "multi.jsonl"
    multi.write_text("\n".join(json.dumps(g) for g in gold()) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    args = ["bench", "retrieval", "--corpus", str(folder), "--out", str(out), "--multi", str(multi)]
    try:
        res = CliRunner().invoke(cli, args)
    finally:
        (folder / "qa.jsonl").unlink()
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    wrong = [r for r in doc["rows"] if r.get("right_library") is False]
    assert doc["summary"]["multi_questions"] == len(gold()) >= 7
    assert doc["summary"]["accuracy_multi"] == 1.0, wrong


def test_join_with_the_real_model(joins: tuple[Path, Library], model: object) -> None:
    folder, library = joins
    asked = ("Which country has the highest total weight?", "Is the total revenue in the East region greater")
    for g in gold():
        if str(g["question"]).startswith(asked):
            ans = ask_library(library, folder, str(g["question"]), model=model).answer
            assert ans.status == "answered" and _right(ans.value, g), (g, ans.to_dict())
            assert {"deliveries.xlsx", "shops.csv"} <= {e["file"] for e in ans.evidence}


@pytest.mark.parametrize("use_model", [False, True])
def test_a_question_no_table_is_about_abstains_naming_the_closest(
    joins: tuple[Path, Library], model: object, use_model: bool
) -> None:
    """No table's columns are about the question: retrieval abstains, with or without the model."""
    folder, library = joins
    for q in ("What is the boiling point of liquid nitrogen on Venus?", "Who painted the Mona Lisa?"):
        ans = ask_library(library, folder, q, model=model if use_model else None).answer
        assert ans.status == "abstained", ans.to_dict()
        assert (ans.reason or "").startswith("no table's columns are about the question; the closest are ")
        assert ans.reason.count("!A1:") == 3  # three tables, each by file, sheet and range


def test_a_question_no_table_holds_abstains_naming_the_closest(joins: tuple[Path, Library]) -> None:
    """Tables about the question are found but none holds what it asks: each is tried, then abstention."""
    folder, library = joins
    for q in (
        "What is the average salary of the branch managers?",
        "How many goals did the billionaires score?",
    ):
        ans = ask_library(library, folder, q).answer
        assert ans.status == "abstained", ans.to_dict()
        assert (ans.reason or "").startswith("none of the closest tables (")
        assert ans.reason.split(") answered")[0].count("!A1:") == 3


def _tables(tmp_path: Path, q: str, left: list[tuple[object, ...]], right: list[tuple[object, ...]]):  # type: ignore[no-untyped-def]
    tmp_path.mkdir()
    write_xlsx(tmp_path / "left.xlsx", {"L": left})
    write_xlsx(tmp_path / "right.xlsx", {"R": right})
    a = candidates(open_workbook(tmp_path / "left.xlsx"), None, q)[0]
    b = candidates(open_workbook(tmp_path / "right.xlsx"), None, q)[0]
    return a, [b]


def test_between_files_a_lookup_adds_columns_and_ids_are_not_row_numbers(tmp_path: Path) -> None:
    def across(c: object) -> str:
        return label_of("right.xlsx", "R")

    nations = ["Kenya", "Chile", "Japan", "Norway", "Peru"]
    medals = [("Nation", "Gold", "Silver"), *((n, i, 5 - i) for i, n in enumerate(nations[:4]))]
    q = "How many gold medals did Peru win?"
    # last year's medal table repeats this one's columns: no lookup of it, though Peru is only there
    older = [("Nation", "Gold", "Silver"), *((n, i + 1, i) for i, n in enumerate(nations[1:]))]
    assert find_join(q, *_tables(tmp_path / "a", q, medals, older), across) is None
    # a table that adds a column (the continent) is one
    places = [
        ("Nation", "Continent", "Area"),
        *((n, f"continent {i}", 10 * i + 3) for i, n in enumerate(nations[1:])),
    ]
    q = "How many gold medals did the nations of continent 2 win?"
    join = find_join(q, *_tables(tmp_path / "b", q, medals, places), across)
    assert join is not None and join.right_key.name == "Nation" and join.label == "right.xlsx\x1fR"
    # numbers named alike join when they are ids, not when they count rows (1, 2, 3 ...)
    q = "What is the total of the orders of the customers in Lima?"
    orders = [("Customer ID", "Total"), (1041, 10.0), (1007, 4.5), (1041, 2.0), (1999, 8.0)]
    ids = [("Customer ID", "City", "Since"), (1041, "Lima", 2001), (1007, "Oslo", 2015), (1999, "Kyiv", 2012)]
    join = find_join(q, *_tables(tmp_path / "c", q, orders, ids), across)
    assert join is not None and join.left_key.name == "Customer ID"
    rows = [("Customer ID", "City", "Since"), (1, "Lima", 2001), (2, "Oslo", 2015), (3, "Kyiv", 2012)]
    counted = [("Customer ID", "Total"), (1, 10.0), (2, 4.5), (1, 2.0), (3, 8.0)]
    assert find_join(q, *_tables(tmp_path / "d", q, counted, rows), across) is None

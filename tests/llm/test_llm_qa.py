"""Question answering with the real default model: it only chooses among what the rules built."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from openpyxl import Workbook

from gridsight.cli import cli
from gridsight.demo import build_demo_workbook
from gridsight.llm import ModelQueue
from gridsight.qa import answer_question
from gridsight.qa._ask import evidence_valid
from gridsight.qa._choose import choose
from gridsight.qa._pick import candidates, pick_table
from gridsight.sources import open_workbook

from ..qa.conftest import BALANCE_QA, write_balance

_STAFF = "the table Staff!A1:B3: Columns: Name, Role. Rows: Ann, Bo"
_SALES = "the table Sales!A1:B3: Columns: Product, Units. Rows: Tea, Cake"
_FRUIT = "the table Fruit!A1:B3: Columns: Item, Price. Rows: Apples, Pears"
_CARS = "the table Cars!A1:B3: Columns: Item, Price. Rows: Sedan, Truck"


def _two_sheets(path: Path, first: tuple[str, tuple[tuple[Any, ...], ...]], second: tuple) -> Path:
    wb = Workbook()
    a = wb.active
    a.title = first[0]
    b = wb.create_sheet(second[0])
    for ws, rows in ((a, first[1]), (b, second[1])):
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def test_answers_with_the_real_model(runtime: Any, tmp_path: Path) -> None:
    wb = open_workbook(build_demo_workbook(tmp_path / "demo.xlsx"))
    ans = answer_question(wb, "What is the total of North?", model=runtime)
    assert (ans.status, ans.value) == ("answered", 1815)  # the model's query and the rules agree
    assert ans.formula is not None and ans.agreement == 1.0
    ans = answer_question(wb, "How many unicorns have wings?", model=runtime)
    assert ans.status == "abstained" and ans.value is None  # nothing the table names: no model guess
    ans = answer_question(wb, "What is the median of West in the second half of the year?", model=runtime)
    if ans.status == "answered":  # whatever the model wrote was validated and reads the sheet
        assert ans.route in ("formula", "sql") and evidence_valid(ans, wb)
    else:
        assert ans.reason


def test_the_model_never_guesses_between_tables_the_question_cannot_tell_apart(
    runtime: Any, tmp_path: Path
) -> None:
    rows = (("Product", "Sales"), ("Tea", 5), ("Cake", 7))
    book = open_workbook(_two_sheets(tmp_path / "two.xlsx", ("North", rows), ("South", rows)))
    for model in (None, runtime):
        ans = answer_question(book, "What is the total of Sales?", model=model)
        assert ans.status == "abstained" and ans.value is None
        assert ans.reason == "several tables fit the question equally (North!A1:B3, South!A1:B3); say which"


@pytest.mark.parametrize(
    ("question", "options", "chosen"),
    [
        ("How many cakes did we sell?", (_STAFF, _SALES), 1),
        ("Who works here?", (_STAFF, _SALES), 0),
        ("What is the total price of the produce?", (_FRUIT, _CARS), 0),
        ("What is the total price of the vehicles?", (_FRUIT, _CARS), 1),
        ("Cash in the first half of 2023?", ("Cash for 2023 H1 Actual", "Cash for 2023 H2 Actual"), 0),
        ("How much did we spend in Q3?", ("Revenue for 2023 Q3", "Costs for 2023 Q3"), 1),
    ],
)
def test_the_real_model_chooses_among_the_options_only(
    runtime: Any, question: str, options: tuple[str, str], chosen: int
) -> None:
    assert choose(runtime, question, list(options)) == chosen
    queue = ModelQueue(runtime)  # the same choice through the one-model queue
    try:
        assert choose(queue, question, list(options)) == chosen
    finally:
        queue.close()


def test_no_choice_without_two_options_or_a_model(runtime: Any) -> None:
    assert choose(runtime, "anything", [_STAFF]) is None  # one option: nothing to choose
    assert choose(None, "How many cakes did we sell?", [_STAFF, _SALES]) is None
    assert choose(runtime, "x", [f"option {i}" for i in range(7)]) is None  # too many: say which


def test_scoring_is_a_log_probability(runtime: Any) -> None:
    """The runtime scores a reply without generating it; a likelier reply scores higher."""
    prompt = [{"role": "user", "content": "What is the capital of France?"}]
    paris, cake = runtime.score(prompt, "Paris"), runtime.score(prompt, "Chocolate cake")
    assert paris < 0 and cake < paris
    assert runtime.complete("Say hi", max_tokens=3).text  # generation still works after scoring


def test_stage_one_asks_the_model_only_when_meaning_cannot_tell(runtime: Any, tmp_path: Path) -> None:
    """Both tables name 'price' and 'item'; 'produce' is a word neither holds, so meaning and then the
    model may choose; whichever decides, the table is one of the two detected ones."""
    book = open_workbook(
        _two_sheets(
            tmp_path / "shop.xlsx",
            ("Fruit", (("Item", "Price"), ("Apples", 2), ("Pears", 3))),
            ("Cars", (("Item", "Price"), ("Sedan", 20000), ("Truck", 35000))),
        )
    )
    q = "What is the total price of the produce?"
    pick = pick_table(q, candidates(book, None, q), runtime)
    assert pick.table is not None and pick.how in ("meaning", "model")
    assert pick.table.ref == "Fruit!A1:B3" and pick.tied == ("Fruit!A1:B3", "Cars!A1:B3")


def test_bench_qa_with_the_default_model(assembled_home: Path, tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    (root / "xlsx").mkdir(parents=True)
    write_balance(root / "xlsx" / "balance.xlsx")
    (root / "qa.jsonl").write_text(
        "".join(
            json.dumps({"question": q, "answer": a, "type": t, "file": "balance.xlsx"}) + "\n"
            for q, a, t in BALANCE_QA
        ),
        encoding="utf-8",
    )
    out = tmp_path / "qa.json"
    r = CliRunner().invoke(cli, ["bench", "qa", "--corpus", str(root), "--out", str(out), "--no-big"])
    assert r.exit_code == 0, r.output
    summary = json.loads(out.read_text())["summary"]
    assert summary["model"] and summary["accuracy"] == 1.0 and summary["evidence_valid_rate"] == 1.0
    assert r.output.rstrip().splitlines()[-1].endswith(f"(model {summary['model']})")


def test_the_real_model_places_words_the_labels_do_not(runtime: Any, tmp_path: Path) -> None:
    """'later half' is no header word and no period the rules read (they read 'the first half' as H1):
    without the model the two halves of 2023 tie and GridSight asks which; with it, the answer is the
    cell under 2023 › H2 -- read by the model's query, or, where its query finds nothing, chosen by the
    model among the two tied cells only."""
    book = open_workbook(write_balance(tmp_path / "balance.xlsx"))
    assert answer_question(book, "What was Cash in the first half of 2023?").value == 120  # H1, by rule
    q = "What was Cash in the later half of 2023?"
    assert answer_question(book, q).status == "abstained"
    ans = answer_question(book, q, model=runtime)
    assert (ans.status, ans.value) == ("answered", 130), ans.candidates
    assert ans.route == "sql" or (ans.route, ans.chosen_by, ans.formula) == ("blocks", "model", "=Balance!C6")
    assert evidence_valid(ans, book)


def test_the_cells_plan_votes_beside_the_real_model(runtime: Any, tmp_path: Path) -> None:
    # a change between two named cells of a multi-header table: whatever the model writes, the
    # cells plan is a candidate, the vote's answer is the change, and the cells plan agrees with it
    from ..qa.test_cells import FARMS, _write

    wb = open_workbook(_write(tmp_path / "farms.xlsx"))
    q = "By how much did the number of farms with melons in Coast change from 2019 to 2021?"
    ans = answer_question(wb, q, model=runtime)
    assert ans.status == "answered", ans.reason
    assert ans.value == FARMS["Melons"]["Coast"][1] - FARMS["Melons"]["Coast"][0]
    sources = {c["source"]: c for c in ans.candidates}
    assert sources["cells"]["value"] == ans.value and "model" in sources
    assert evidence_valid(ans, wb)

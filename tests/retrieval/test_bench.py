"""`gridsight bench retrieval` on a small DataBench-layout folder built in the test."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gridsight.bench.retrieval import _names
from gridsight.cli import cli

from .conftest import BILLIONAIRES, PASSENGERS, write_csv

QUESTIONS = {
    "passengers": [
        ("What is the average fare?", 24.86, "number", ["Fare"]),
        ("How many passengers survived?", 3, "number", ["Survived"]),
    ],
    "billionaires": [
        ("How old is the youngest billionaire?", 27, "number", ["age"]),
        ("What is the highest final worth?", 9800, "number", ["finalWorth"]),
    ],
}


def _corpus(root: Path) -> Path:
    (root / "datasets").mkdir(parents=True)
    write_csv(root / "datasets" / "passengers.csv", PASSENGERS)
    write_csv(root / "datasets" / "billionaires.csv", BILLIONAIRES)
    for ds, qs in QUESTIONS.items():
        lines = [
            json.dumps({"question": q, "answer": str(a), "type": t, "columns_used": str(cols)})
            for q, a, t, cols in qs
        ]
        (root / f"{ds}.qa.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_bench_retrieval(tmp_path: Path) -> None:
    corpus, out = _corpus(tmp_path / "corpus"), tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["bench", "retrieval", "--corpus", str(corpus), "--out", str(out)])
    assert res.exit_code == 0, res.output
    summary = json.loads(out.read_text(encoding="utf-8"))["summary"]
    for key in (
        "questions",
        "dataset_recall_at_1",
        "dataset_recall_at_5",
        "column_recall_at_5",
        "accuracy_single",
        "accuracy_multi",
        "index_seconds",
    ):
        assert key in summary
    assert summary["questions"] == 4 and summary["workbooks"] == 2 and summary["tables"] == 2
    assert summary["dataset_recall_at_1"] == 1.0 and summary["column_recall_at_5"] == 1.0
    assert summary["accuracy_single"] == summary["accuracy_given"] == 1.0
    assert summary["accuracy_multi"] is None  # not measured yet: null, never a made-up figure
    assert summary["index_seconds"] > 0 and summary["query_p95_seconds"] < 1.0
    assert res.output.rstrip().splitlines()[-1].startswith("retrieval: 4 questions over 2 workbooks")
    assert not (tmp_path / "corpus" / ".lock").exists()  # the corpus folder is only read


def test_columns_used_as_written_by_databench() -> None:
    assert _names("['Age', 'Survived']") == ["Age", "Survived"]
    assert _names(str(list("['What is your age?']"))) == ["What is your age?"]
    assert _names(str(list("[What's your height?]"))) == ["What's your height?"]
    assert _names(None) is None

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


MULTI = [
    {
        "question": "Is the highest fare greater than the lowest final worth?",
        "answer": "False",
        "type": "boolean",
        "datasets": ["passengers.csv", "billionaires.csv"],
    },
    {
        "question": "What is the sum of the highest fare and the highest age of a billionaire?",
        "answer": 71.3 + 66,
        "type": "number",
        "datasets": ["passengers.csv", "billionaires.csv"],
    },
]


def test_bench_retrieval(tmp_path: Path) -> None:
    corpus, out = _corpus(tmp_path / "corpus"), tmp_path / "r.json"
    multi = tmp_path / "multi.jsonl"
    multi.write_text("\n".join(json.dumps(m) for m in MULTI) + "\n", encoding="utf-8")
    args = ["bench", "retrieval", "--corpus", str(corpus), "--out", str(out), "--multi", str(multi)]
    res = CliRunner().invoke(cli, args)
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
    assert summary["accuracy_multi"] == 1.0 and summary["multi_questions"] == 2
    assert summary["multi_dataset_recall_at_5"] == 1.0
    assert summary["index_seconds"] > 0 and summary["query_p95_seconds"] < 1.0
    assert res.output.rstrip().splitlines()[-1].startswith("retrieval: 4 questions over 2 workbooks")
    assert not (tmp_path / "corpus" / ".lock").exists()  # the corpus folder is only read


def test_columns_used_as_written_by_databench() -> None:
    assert _names("['Age', 'Survived']") == ["Age", "Survived"]
    assert _names(str(list("['What is your age?']"))) == ["What is your age?"]
    assert _names(str(list("[What's your height?]"))) == ["What's your height?"]
    assert _names(None) is None


def test_multi_dataset_gold_is_computed_from_the_corpus() -> None:
    """The 26 questions' answers come from code over the DataBench CSVs (skipped without the corpus)."""
    import os

    import pytest

    from .multi_dataset import FILES, gold

    env = os.environ.get("GRIDSIGHT_CORPUS")
    base = Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "corpus"
    root = base / "databench"
    if not all((root / "datasets" / f).is_file() for f in FILES.values()):
        pytest.skip(f"the DataBench CSVs are not under {root}")
    questions = gold(root)
    assert len(questions) >= 25
    assert all(2 <= len(g["datasets"]) <= 3 for g in questions)
    assert {g["answer"] for g in questions if g["type"] == "boolean"} == {"True", "False"}


def test_bench_retrieval_bad_corpora_are_one_clear_error_and_no_output(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "qa.jsonl").write_text("garbage\n", encoding="utf-8")
    for corpus, message in (
        (tmp_path / "missing", "does not exist"),
        (empty, "holds neither"),
        (broken, "not valid JSON"),
    ):
        res = CliRunner().invoke(cli, ["bench", "retrieval", "--corpus", str(corpus), "--out", str(out)])
        assert res.exit_code != 0 and message in res.output, res.output
        assert "Traceback" not in res.output and not out.exists()

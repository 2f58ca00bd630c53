"""`gridsight bench qa` and `gridsight bench formula` end to end on small corpora written by the test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.qa import QAAnswer

#: Summary keys both benches write.
KEYS = {
    "questions",
    "accuracy",
    "abstention_rate",
    "evidence_valid_rate",
    "seconds_per_question",
    "p95_seconds",
    "accuracy_by_type",
    "by_dataset",
    "candidates_agree_rate",
    "errors",
    "model",
}

ROWS = [("id", "city", "amount", "name")] + [
    (r, ("Paris", "Rome", "Oslo", "Lima", "Kyiv")[r % 5], r * 10, f"n{r % 4}") for r in range(20)
]


def write_csv(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(",".join(str(v) for v in row) for row in ROWS) + "\n", encoding="utf-8")
    return path


def write_qa(path: Path, lines: list[Any]) -> None:
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    path.write_text(text, encoding="utf-8")


#: Questions the rules answer on ROWS, golds written as JSON numbers and text.
RULE_QA = [
    {"question": "What is the total amount?", "answer": 1900, "type": "number"},
    {"question": "How many rows have city Oslo?", "answer": "4", "type": "number"},
    {"question": "How many unique names are there?", "answer": 4.0},  # no type: a JSON number
]


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["bench", *args])


def summary_of(out: Path) -> dict[str, Any]:
    return json.loads(out.read_text(encoding="utf-8"))["summary"]  # type: ignore[no-any-return]


def test_workbook_qa_folder_of_any_name(tmp_path: Path) -> None:
    root = tmp_path / "my odd set (v2)"
    write_csv(root / "shop.csv")
    write_qa(root / "qa.jsonl", [q | {"file": "shop.csv"} for q in RULE_QA])
    out = tmp_path / "qa.json"
    r = invoke("qa", "--corpus", str(root), "--model", "none", "--no-big", "--out", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    summary = doc["summary"]
    assert set(summary) >= KEYS
    assert summary["questions"] == 3 and summary["accuracy"] == 1.0 and summary["errors"] == 0
    assert summary["abstention_rate"] == 0.0 and summary["evidence_valid_rate"] == 1.0
    assert summary["accuracy_by_type"] == {"number": 1.0}
    assert summary["by_dataset"] == {"my odd set (v2)": 1.0}
    assert summary["model"] is None and summary["candidates_agree_rate"] == 0.0
    assert summary["seconds_per_question"] > 0 and summary["p95_seconds"] > 0
    assert "WTQ" in doc["scoring"] and "answer_alt" in doc["scoring"]
    assert r.output.rstrip().splitlines()[-1].startswith("qa: 3/3 right (100.0%), 0 abstained, 0 errors")
    assert r.output.rstrip().endswith("(model off)")


def test_databench_folder_of_any_name(tmp_path: Path) -> None:
    root = tmp_path / "anything"
    write_csv(root / "datasets" / "900_Shop.csv")
    write_csv(root / "datasets" / "901_Shop2.csv")
    write_qa(root / "900_Shop.qa.jsonl", RULE_QA)
    write_qa(root / "901_Shop2.qa.jsonl", [RULE_QA[0] | {"answer": "1901"}])  # a wrong gold
    out = tmp_path / "qa.json"
    r = invoke("qa", "--corpus", str(root), "--no-model", "--no-big", "--out", str(out))
    assert r.exit_code == 0, r.output
    summary = summary_of(out)
    assert summary["questions"] == 4 and summary["accuracy"] == 0.75
    assert summary["by_dataset"] == {"900_Shop": 1.0, "901_Shop2": 0.0}
    out_f = tmp_path / "formula.json"
    r = invoke("formula", "--corpus", str(root), "--out", str(out_f))
    assert r.exit_code == 0, r.output
    summary = summary_of(out_f)
    assert set(summary) >= KEYS | {"execution_accuracy", "invalid_formulas_returned", "position_accuracy"}
    assert summary["by_dataset"] == {"900_Shop": 1.0, "901_Shop2": 0.0}
    assert summary["execution_accuracy"] == summary["accuracy"] == summary["position_accuracy"] == 0.75
    assert summary["invalid_formulas_returned"] == 0 and summary["model"] is None
    assert summary["evidence_valid_rate"] == 1.0
    # (no model: a query comes only from the rules' planner, and each has its checked formula; the
    # distinct count's is =ROWS(UNIQUE(FILTER(...))), so nothing abstains)
    assert summary["untranslated_queries"] == 0 and summary["abstention_rate"] == 0.0
    rows = json.loads(out_f.read_text())["rows"]
    assert all(row["tier"] == "rules" and row["formula"] for row in rows)


def test_bench_formula_on_a_workbook_qa_folder(tmp_path: Path) -> None:
    root = tmp_path / "wbqa"
    write_csv(root / "xlsx" / "shop.csv")
    write_qa(root / "qa.jsonl", [q | {"file": "shop.csv"} for q in RULE_QA])
    out = tmp_path / "formula.json"
    r = invoke("formula", "--corpus", str(root), "--model", "none", "--out", str(out))
    assert r.exit_code == 0, r.output
    summary = summary_of(out)
    assert summary["questions"] == 3 and summary["execution_accuracy"] == 1.0 and summary["errors"] == 0
    assert summary["by_dataset"] == {"wbqa": 1.0} and summary["accuracy_by_type"] == {"number": 1.0}


def _scripted(replies: dict[str, Any]) -> Any:
    """An answer_question that replies from a script: value, or (value, agreement), or an exception."""

    def answer(wb: Any, question: str, sheet: Any = None, *, model: Any = None, samples: int = 0) -> QAAnswer:
        reply = replies[question]
        if isinstance(reply, BaseException):
            raise reply
        value, agreement = reply if isinstance(reply, tuple) else (reply, None)
        ans = QAAnswer(question, "answered", value=value, evidence=[{"sheet": "shop", "range": "C2:C21"}])
        if agreement is not None:
            ans.agreement = agreement  # type: ignore[attr-defined]
        return ans

    return answer


def test_gold_kinds_alt_wtq_and_agreement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "set"
    write_csv(root / "shop.csv")
    lines = [
        {"question": "n", "answer": 19, "type": "number"},
        {"question": "b", "answer": True, "type": "boolean"},
        {"question": "l", "answer": ["Oslo", "Rome"], "type": "list[category]"},
        {"question": "ln", "answer": [1, 2.5], "type": "list[number]"},
        {"question": "p", "answer": "0.846", "answer_alt": 84.6, "type": "number"},
        {
            "question": "w",
            "answer": "17 years",
            "type": "category",
            "answer_raw": ["17 years"],
            "answer_canon": ["17.0"],
            "canon_type": "number",
        },
        {
            "question": "d",
            "answer": "December 27, 2008",
            "type": "category",
            "answer_raw": ["December 27, 2008"],
            "answer_canon": ["2008-12-27"],
            "canon_type": "date",
        },
        {"question": "wrong", "answer": "Kyiv", "type": "category"},
    ]
    write_qa(root / "qa.jsonl", [x | {"file": "shop.csv"} for x in lines])
    replies = {
        "n": (19.0, 1.0),
        "b": (True, 0.5),
        "l": [["Rome"], ["Oslo"]],
        "ln": [2.5, 1],
        "p": 84.6,
        "w": 17,
        "d": "2008-12-27",
        "wrong": ("Lima", 0.0),
    }
    monkeypatch.setattr("gridsight.bench.qa.answer_question", _scripted(replies))
    out = tmp_path / "qa.json"
    r = invoke("qa", "--corpus", str(root), "--model", "none", "--no-big", "--out", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    summary = doc["summary"]
    assert summary["questions"] == 8 and summary["accuracy"] == 7 / 8
    assert summary["right_by"] == {"answer": 4, "answer_alt": 1, "wtq": 2}
    assert summary["accuracy_by_type"] == {
        "boolean": 1.0,
        "category": round(2 / 3, 4),
        "list[category]": 1.0,
        "list[number]": 1.0,
        "number": 1.0,
    }
    assert summary["candidates_agree_rate"] == 0.5  # mean of 1.0, 0.5, 0.0 over the answers that have it
    assert summary["evidence_valid_rate"] == 1.0
    assert [row["agreement"] for row in doc["rows"]][:2] == [1.0, 0.5]


def test_errors_and_unopenable_workbooks_do_not_stop_the_bench(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gridsight.errors import UnknownSheetError

    root = tmp_path / "set"
    write_csv(root / "shop.csv")
    (root / "broken.xlsx").write_bytes(b"PK\x03\x04 a damaged zip")
    lines = [
        {"question": "ok", "answer": 19, "file": "shop.csv"},
        {"question": "boom", "answer": 1, "file": "shop.csv"},
        {"question": "sheet", "answer": 1, "file": "shop.csv"},
        {"question": "broken", "answer": 1, "file": "broken.xlsx"},
        {"question": "missing", "answer": 1, "file": "nowhere.csv"},
    ]
    write_qa(root / "qa.jsonl", lines)
    replies = {"ok": 19, "boom": RuntimeError("kaboom"), "sheet": UnknownSheetError("no sheet 'X'")}
    monkeypatch.setattr("gridsight.bench.qa.answer_question", _scripted(replies))
    out = tmp_path / "qa.json"
    r = invoke("qa", "--corpus", str(root), "--model", "none", "--no-big", "--out", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    summary, rows = doc["summary"], doc["rows"]
    assert summary["questions"] == 5 and summary["accuracy"] == 0.2 and summary["errors"] == 1
    assert summary["abstention_rate"] == 0.6  # the sheet error and the two files
    assert rows[1]["error"] == "RuntimeError: kaboom" and rows[1]["right"] is False
    assert rows[2]["error"] is None and rows[2]["reason"] == "no sheet 'X'"
    assert rows[3]["reason"].startswith("cannot open broken.xlsx")
    assert rows[4]["reason"] == "nowhere.csv is not in the corpus folder"
    assert "  errors: 1" in r.output and "1 errors" in r.output.splitlines()[-1]


def test_bench_formula_survives_an_unexpected_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "set"
    write_csv(root / "shop.csv")
    write_qa(root / "qa.jsonl", [q | {"file": "shop.csv"} for q in RULE_QA])

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("bad cell")

    monkeypatch.setattr("gridsight.bench.formula.formula_from_question", boom)
    out = tmp_path / "formula.json"
    r = invoke("formula", "--corpus", str(root), "--out", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["summary"]["errors"] == 3 and doc["summary"]["accuracy"] == 0.0
    assert doc["rows"][0]["error"] == "ValueError: bad cell"


@pytest.mark.parametrize("bench", ["qa", "formula"])
def test_a_malformed_line_is_a_clear_error(tmp_path: Path, bench: str) -> None:
    root = tmp_path / "set"
    write_csv(root / "shop.csv")
    write_qa(root / "qa.jsonl", [RULE_QA[0] | {"file": "shop.csv"}, '{"question": "half a line'])
    r = invoke(bench, "--corpus", str(root), "--model", "none", *(["--no-big"] if bench == "qa" else []))
    assert r.exit_code == 1
    assert "qa.jsonl:2: not valid JSON" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("bench", ["qa", "formula"])
def test_a_model_that_cannot_load_is_a_clear_error(tmp_path: Path, bench: str) -> None:
    root = tmp_path / "set"
    write_csv(root / "shop.csv")
    write_qa(root / "qa.jsonl", [RULE_QA[0] | {"file": "shop.csv"}])
    r = invoke(bench, "--corpus", str(root), "--model", str(tmp_path / "nope.gguf"))
    assert r.exit_code == 1 and "cannot load the model" in r.output and "--model none" in r.output
    assert "Traceback" not in r.output


def test_common_imports_without_resource(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no `resource`: the module imports and peak memory falls back (/proc, else 0.0)."""
    import ast
    import sys

    import gridsight.bench._common as common

    tree = ast.parse(Path(common.__file__).read_text(encoding="utf-8"))
    top = {a.name for node in tree.body if isinstance(node, ast.Import) for a in node.names}
    assert "resource" not in top
    monkeypatch.setitem(sys.modules, "resource", None)  # import resource -> ImportError
    got = common.peak_rss_mb()
    assert isinstance(got, float) and got >= 0.0
    assert common.peak_rss_mb(children=True) == 0.0


@pytest.mark.parametrize("bench", ["qa", "formula"])
def test_a_model_name_goes_to_load_runtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bench: str
) -> None:
    root = tmp_path / "set"
    write_csv(root / "shop.csv")
    write_qa(root / "qa.jsonl", [RULE_QA[0] | {"file": "shop.csv"}])
    asked: list[Any] = []

    class Fake:
        name = "fake model"

    def load_runtime(model: Any = None, **kwargs: Any) -> Fake:
        asked.append(model)
        return Fake()

    monkeypatch.setattr("gridsight.llm.load_runtime", load_runtime)
    monkeypatch.setattr("gridsight.bench.qa.answer_question", _scripted({RULE_QA[0]["question"]: 1900}))
    out = tmp_path / "out.json"
    extra = ["--no-big"] if bench == "qa" else []
    for model, expected in (("qwen-small", "qwen-small"), ("default", None)):
        r = invoke(bench, "--corpus", str(root), "--model", model, *extra, "--out", str(out))
        assert r.exit_code == 0, r.output
        assert asked[-1] == expected and summary_of(out)["model"] == "fake model"
    r = invoke(bench, "--corpus", str(root), "--model", "qwen-small", "--no-model", *extra, "--out", str(out))
    assert r.exit_code == 0 and len(asked) == 2 and summary_of(out)["model"] is None

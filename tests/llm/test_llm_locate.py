"""Finding, assembling and verifying the model file; the settings file and the environment override."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from gridsight.errors import GridSightError, ModelIntegrityError, ModelKindError, ModelNotFoundError
from gridsight.llm import (
    DEFAULT_MODEL,
    MODEL_ENV,
    ModelFile,
    data_dir,
    ensure_default_model,
    locate_model,
    read_settings,
    write_setting,
)
from gridsight.llm._locate import chunk_paths, sha256_file


def test_two_processes_assemble_the_default_model_once(model_home: dict[str, object]) -> None:
    reports = model_home["reports"]
    assert isinstance(reports, list)
    assert sorted(r["assembled"] for r in reports) == [False, True]
    target = Path(str(model_home["home"])) / "models" / DEFAULT_MODEL.filename
    assert {r["path"] for r in reports} == {str(target)}
    assert target.stat().st_size == DEFAULT_MODEL.size
    # no temporary or partial files left behind, only the model, its stamp and the lock file
    names = sorted(p.name for p in target.parent.iterdir())
    assert names == sorted(
        [DEFAULT_MODEL.filename, DEFAULT_MODEL.filename + ".verified.json", f".{DEFAULT_MODEL.filename}.lock"]
    )


def test_assembled_model_matches_the_pinned_checksum(default_model: ModelFile) -> None:
    assert sha256_file(default_model.path) == DEFAULT_MODEL.sha256


def test_chunks_stay_in_site_packages_and_the_model_is_not_written_there(default_model: ModelFile) -> None:
    chunks = chunk_paths()
    assert [p.name for p in chunks] == [f"part{i:02d}.bin" for i in range(1, 7)]
    assert sum(p.stat().st_size for p in chunks) == DEFAULT_MODEL.size
    assert all("site-packages" in str(p) for p in chunks)
    assert "site-packages" not in str(default_model.path)


def test_second_call_uses_the_stamp_and_does_not_rewrite(assembled_home: Path) -> None:
    target = assembled_home / "models" / DEFAULT_MODEL.filename
    before = target.stat().st_mtime_ns
    result = ensure_default_model()
    assert (result.path, result.assembled) == (target, False)
    assert target.stat().st_mtime_ns == before


def test_locate_default_model(assembled_home: Path) -> None:
    found = locate_model()
    assert found.source == "default"
    assert found.path == assembled_home / "models" / DEFAULT_MODEL.filename
    assert found.verified_sha256 == DEFAULT_MODEL.sha256
    assert found.info.architecture == "qwen2"


def test_a_damaged_default_model_is_rebuilt(tmp_path: Path, default_model: ModelFile) -> None:
    folder = tmp_path / "models"
    folder.mkdir()
    target = folder / DEFAULT_MODEL.filename
    target.write_bytes(b"GGUF" + b"\0" * 100)  # wrong size and content, no stamp
    result = ensure_default_model(folder=tmp_path)
    assert result.assembled is True
    assert sha256_file(result.path) == DEFAULT_MODEL.sha256
    result.path.unlink()  # 0.5 GB: do not leave it in pytest's kept temp folders


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (
            {"packages": (("gridsight_no_such_chunk", "part01.bin"),), "pip_names": ("no-such-chunk==1",)},
            ModelNotFoundError,
            "the default model is not installed (missing no-such-chunk==1)",
        ),
        ({"size": 123}, ModelIntegrityError, "add up to 491,400,064 bytes, expected 123"),
        ({"sha256": "0" * 64}, ModelIntegrityError, "do not match the pinned sha256"),
    ],
)
def test_broken_default_install(tmp_path: Path, change: dict[str, object], error: type, message: str) -> None:
    model = dataclasses.replace(DEFAULT_MODEL, filename="broken.gguf", **change)  # type: ignore[arg-type]
    with pytest.raises(error) as err:
        ensure_default_model(model, folder=tmp_path)
    assert message in str(err.value)
    leftovers = [p.name for p in (tmp_path / "models").glob("*")] if (tmp_path / "models").exists() else []
    assert not [n for n in leftovers if n.endswith(".partial") or n == "broken.gguf"]


def test_env_override(gguf: Any, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = gguf.write(tmp_path / "other.gguf", gguf.meta("gemma3", None))
    monkeypatch.setenv(MODEL_ENV, str(path))
    found = locate_model()
    assert (found.source, found.path, found.chat_format) == ("env", path, "gemma")
    assert not (home / "models").exists()  # the default model was not assembled


def test_env_override_beats_settings(
    gguf: Any, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = gguf.write(tmp_path / "a.gguf", gguf.meta())
    b = gguf.write(tmp_path / "b.gguf", gguf.meta())
    write_setting("model", str(a))
    assert locate_model().path == a
    monkeypatch.setenv(MODEL_ENV, str(b))
    assert locate_model().path == b


@pytest.mark.parametrize(
    ("setup", "error", "message"),
    [
        ("missing", ModelNotFoundError, "(from $GRIDSIGHT_MODEL) does not exist"),
        ("embedding", ModelKindError, "is an embedding/encoder model (bert)"),
        ("truncated", ModelIntegrityError, "is truncated"),
    ],
)
def test_bad_user_model(
    gguf: Any,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    setup: str,
    error: type,
    message: str,
) -> None:
    path = tmp_path / "user.gguf"
    if setup == "embedding":
        gguf.write(path, gguf.meta("bert", None, **{"bert.pooling_type": 1}))
    elif setup == "truncated":
        gguf.write(path, gguf.meta(), tensors=4)
        path.write_bytes(path.read_bytes()[:-40])
    monkeypatch.setenv(MODEL_ENV, str(path))
    with pytest.raises(error) as err:
        locate_model()
    assert message in str(err.value)


def test_settings_round_trip(home: Path) -> None:
    assert read_settings() == {}
    path = write_setting("model", "/x/y.gguf")
    assert path == data_dir() / "settings.json"
    assert json.loads(path.read_text()) == {"model": "/x/y.gguf"}
    write_setting("model", None)
    assert read_settings() == {}


@pytest.mark.parametrize(
    ("content", "message"), [("{oops", "is not valid JSON"), ("[1]", "must hold a JSON object")]
)
def test_broken_settings_file(home: Path, content: str, message: str) -> None:
    home.mkdir(parents=True)
    (home / "settings.json").write_text(content)
    with pytest.raises(GridSightError, match=message):
        locate_model()


def test_data_dir_default_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRIDSIGHT_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert data_dir() == Path.home() / ".local" / "share" / "gridsight"

"""Session fixtures for the model layer: the real default model, assembled once, loaded once.

The default model is assembled from the installed chunk packages into a temporary data folder by two
processes at once (exercising the lock), then loaded a single time for the whole session.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gridsight.llm import HOME_ENV, MODEL_ENV, ModelFile
from gridsight.llm._llama import LlamaRuntime
from gridsight.llm.embeddings import Embedder

_ASSEMBLE = """
import json, sys
from gridsight.llm import ensure_default_model
a = ensure_default_model()
print(json.dumps({"path": str(a.path), "assembled": a.assembled}))
"""


@pytest.fixture(scope="session")
def model_home(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A data folder with the default model assembled by two racing processes; what each reported."""
    home = tmp_path_factory.mktemp("gridsight-home")
    env = {k: v for k, v in os.environ.items() if k != MODEL_ENV} | {HOME_ENV: str(home)}
    procs = [
        subprocess.Popen([sys.executable, "-c", _ASSEMBLE], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    reports = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        assert p.returncode == 0
        reports.append(json.loads(out))
    return {"home": home, "reports": reports}


@pytest.fixture(scope="session")
def default_model(model_home: dict[str, object]) -> ModelFile:
    from gridsight.llm import DEFAULT_MODEL, check_model_file

    path = Path(str(model_home["home"])) / "models" / DEFAULT_MODEL.filename
    info, fallback = check_model_file(path)
    return ModelFile(path, "default", info, fallback, DEFAULT_MODEL.sha256)


@pytest.fixture(scope="session")
def runtime(default_model: ModelFile) -> LlamaRuntime:
    """The real default model, loaded once per test session."""
    return LlamaRuntime(default_model)


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real MiniLM embedder, loaded once per test session."""
    return Embedder()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty GridSight data folder for this test, and no model override in the environment."""
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.delenv(MODEL_ENV, raising=False)
    yield tmp_path / "home"


@pytest.fixture
def assembled_home(model_home: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> Path:
    """The session's data folder (default model already assembled) as GRIDSIGHT_HOME for this test."""
    monkeypatch.setenv(HOME_ENV, str(model_home["home"]))
    monkeypatch.delenv(MODEL_ENV, raising=False)
    return Path(str(model_home["home"]))


# --- real small GGUF files for tests: headers of other model kinds, damaged files ---------------


def _string(text: str) -> bytes:
    raw = text.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


def _value(value: Any) -> bytes:
    if isinstance(value, bool):
        return struct.pack("<I?", 7, value)
    if isinstance(value, int):
        return struct.pack("<IQ", 10, value)  # uint64
    if isinstance(value, float):
        return struct.pack("<If", 6, value)
    if isinstance(value, str):
        return struct.pack("<I", 8) + _string(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return struct.pack("<IIQ", 9, 8, len(value)) + b"".join(_string(v) for v in value)
    if isinstance(value, list):
        return struct.pack("<IIQ", 9, 5, len(value)) + b"".join(struct.pack("<i", v) for v in value)
    raise TypeError(value)


def gguf_bytes(metadata: dict[str, Any], tensors: int = 1, version: int = 3, alignment: int = 32) -> bytes:
    """A GGUF file: the metadata, then ``tensors`` F32 tensors of 8 floats each, with their data."""
    head = b"GGUF" + struct.pack("<IQQ", version, tensors, len(metadata))
    head += b"".join(_string(k) + _value(v) for k, v in metadata.items())
    for i in range(tensors):
        head += _string(f"t{i}.weight") + struct.pack("<IQIQ", 1, 8, 0, i * 32)
    pad = (-len(head)) % alignment
    return head + b"\0" * pad + b"\0" * (32 * tensors)


def write_gguf(path: Path, metadata: dict[str, Any], **kwargs: Any) -> Path:
    path.write_bytes(gguf_bytes(metadata, **kwargs))
    return path


def chat_metadata(
    arch: str = "llama", template: str | None = "{{ messages }}", **extra: Any
) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "general.architecture": arch,
        "general.type": "model",
        "general.name": f"tiny {arch}",
        f"{arch}.context_length": 2048,
        "tokenizer.ggml.tokens": ["<s>", "</s>", "a"],
    }
    if template is not None:
        meta["tokenizer.chat_template"] = template
    meta.update(extra)
    return meta


@pytest.fixture(scope="session")
def gguf() -> SimpleNamespace:
    """Writers for small, real GGUF files: ``gguf.write(path, meta)``, ``gguf.meta(arch, template)``."""
    return SimpleNamespace(write=write_gguf, meta=chat_metadata, bytes=gguf_bytes)

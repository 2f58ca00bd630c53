"""The llama-cpp runtime with the real default model: determinism, streaming, budgets, bad input."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gridsight.errors import (
    GrammarError,
    ModelIntegrityError,
    ModelKindError,
    PromptTooLongError,
    RequestCancelledError,
    RequestTimeoutError,
)
from gridsight.llm import Control, Grammar, ModelFile
from gridsight.llm._llama import LlamaRuntime


def test_loaded_with_all_cores_and_the_gguf_template(runtime: LlamaRuntime) -> None:
    import os

    assert runtime.threads == os.cpu_count()
    assert runtime.context_length == 4096
    assert runtime.name == "Qwen2.5 Coder 0.5B Instruct AWQ"
    prompt, stops = runtime.render([{"role": "system", "content": "S"}, {"role": "user", "content": "Hi"}])
    assert (
        prompt == "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
    )
    assert stops == ["<|im_end|>"]


@pytest.mark.parametrize(
    ("text", "tokens"), [("", 0), ("Hello world", 2), ("=SUM(B2:B20)", 8), ("Revenue 2024", 6)]
)
def test_token_counting_with_the_model_tokenizer(runtime: LlamaRuntime, text: str, tokens: int) -> None:
    assert runtime.count_tokens(text) == tokens


def test_prompt_tokens_count_the_template(runtime: LlamaRuntime) -> None:
    messages = [{"role": "system", "content": "S"}, {"role": "user", "content": "Hi"}]
    assert runtime.prompt_tokens(messages) == 15  # 5 ChatML markers, 3 roles, 3 newlines, S, Hi, 2 more


def test_temperature_zero_is_deterministic_and_streaming_matches(runtime: LlamaRuntime) -> None:
    prompt = "Name three spreadsheet functions, comma separated."
    first = runtime.complete(prompt, max_tokens=16)
    second = runtime.complete(prompt, max_tokens=16)
    pieces = list(runtime.stream(prompt, max_tokens=16))
    assert first.text == second.text == "".join(pieces)
    assert len(pieces) > 1  # it really streamed
    assert first.completion_tokens == second.completion_tokens <= 16
    assert first.prompt_tokens == runtime.prompt_tokens([{"role": "user", "content": prompt}])


def test_token_budget(runtime: LlamaRuntime) -> None:
    done = runtime.complete("Count from 1 to 100 separated by commas.", max_tokens=5)
    assert (done.finish_reason, done.completion_tokens, done.truncated) == ("length", 5, True)


def test_timeout_raises_with_partial_text(runtime: LlamaRuntime) -> None:
    started = time.perf_counter()
    with pytest.raises(RequestTimeoutError, match="timed out") as err:
        runtime.complete("Count from 1 to 500 separated by commas.", max_tokens=500, timeout_s=0.8)
    assert time.perf_counter() - started < 5
    assert isinstance(err.value.partial, str)


def test_cancel_before_start(runtime: LlamaRuntime) -> None:
    control = Control()
    control.cancel()
    with pytest.raises(RequestCancelledError):
        runtime.complete("Hello", max_tokens=5, control=control)


def test_prompt_longer_than_the_context_is_refused_not_truncated(runtime: LlamaRuntime) -> None:
    long = "cell value " * 3000  # ~6,000 tokens for a 4,096 window
    with pytest.raises(PromptTooLongError, match="context holds 4,096"):
        runtime.complete(long, max_tokens=8)
    assert runtime.complete("Say OK.", max_tokens=3).completion_tokens > 0  # still usable


def test_json_schema_grammar(runtime: LlamaRuntime) -> None:
    schema = {
        "type": "object",
        "properties": {"column": {"type": "string"}, "aggregate": {"enum": ["SUM", "AVERAGE", "MAX"]}},
        "required": ["column", "aggregate"],
    }
    done = runtime.complete(
        "Which column and aggregate give total revenue? Columns: Region, Revenue.",
        grammar=Grammar.from_json_schema(schema),
        max_tokens=40,
    )
    assert done.finish_reason == "stop"
    jsonschema.validate(json.loads(done.text), schema)


@pytest.mark.parametrize(
    "gbnf",
    [
        'root ::= "a" root',  # never finishes
        'root ::= "\\x00"',  # no token can produce it (crashes llama.cpp if sent)
        "root ::= foo",  # undefined rule (segfaults llama-cpp-python 0.3.x if sent)
        'root ::= "a',  # syntax error (same)
        "root ::= [^\\x00-\\U0010FFFF]",
    ],
)
def test_grammar_that_matches_nothing_is_a_clear_error(runtime: LlamaRuntime, gbnf: str) -> None:
    with pytest.raises(GrammarError):
        runtime.complete("Hi", grammar=Grammar(gbnf, "bad"), max_tokens=5)


def test_left_recursion_is_caught_by_llama_cpp_parser(runtime: LlamaRuntime) -> None:
    grammar = Grammar('root ::= root "a" | "b"', "left")
    with pytest.raises(GrammarError, match="does not compile"):
        runtime.complete("Hi", grammar=grammar, max_tokens=5)


def test_wrong_kind_and_damaged_models_fail_cleanly(
    gguf: Any, tmp_path: Path, default_model: ModelFile
) -> None:
    bert = gguf.write(tmp_path / "embed.gguf", gguf.meta("bert", None, **{"bert.pooling_type": 1}))
    with pytest.raises(ModelKindError, match="embedding/encoder model"):
        LlamaRuntime(bert)
    cut = tmp_path / "cut.gguf"
    with default_model.path.open("rb") as src, cut.open("wb") as out:
        out.write(src.read(8 << 20))
        out.truncate(200_000_000)
    with pytest.raises(ModelIntegrityError, match="truncated"):
        LlamaRuntime(cut)


def test_header_valid_but_weights_garbage_is_a_load_error(gguf: Any, tmp_path: Path) -> None:
    """A tiny GGUF whose header passes our checks but that llama.cpp cannot build a model from."""
    fake = gguf.write(tmp_path / "fake.gguf", gguf.meta("llama", "{{ messages }}"))
    with pytest.raises(ModelIntegrityError, match=r"llama\.cpp could not load fake\.gguf"):
        LlamaRuntime(fake)


def test_a_stop_honoured_between_tokens_records_when_it_stopped() -> None:
    # the queue may honour a cancel after a streamed piece, before the runtime's next token: the
    # stop time is then recorded there, once, and a later token does not move it
    ticks = iter([1.0, 2.0, 3.0, 4.0])
    control = Control(clock=lambda: next(ticks))  # started at 1.0
    control.cancel()  # 2.0
    control.mark_stopped()  # 3.0
    assert (control.cancelled_at, control.stopped_at) == (2.0, 3.0)
    assert control.on_token() is True and control.stopped_at == 3.0

"""Scoring a given reply (Runtime.score / ModelQueue.score) where it cannot be done, and the softmax
shares the choosers read (the real model's scores are tested in test_llm_qa.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.errors import ModelError
from gridsight.llm import ModelQueue, ScriptedRuntime, shares


def test_a_runtime_that_cannot_score_says_so_directly_and_through_the_queue() -> None:
    scripted = ScriptedRuntime(["hi"])
    with pytest.raises(ModelError, match="the scripted runtime cannot score text"):
        scripted.score("Hello", "Hi there")
    queue = ModelQueue(scripted)
    try:
        with pytest.raises(ModelError, match="the scripted runtime cannot score text"):
            queue.score("Hello", "Hi there")
        assert queue.complete("Hello").text == "hi"  # the queue still serves requests
    finally:
        queue.close()


@pytest.mark.parametrize(
    ("logprobs", "expected"),
    [
        ([-1.0, -1.0], [0.5, 0.5]),
        ([0.0, -math.log(4)], [0.8, 0.2]),
        ([-1000.0, -1001.0, -1002.0], [1 / (1 + math.exp(-1) + math.exp(-2)), None, None]),  # no underflow
    ],
)
def test_shares_are_a_softmax(logprobs: list[float], expected: list[float | None]) -> None:
    got = shares(logprobs)
    assert math.isclose(sum(got), 1.0)
    for g, e in zip(got, expected, strict=True):
        if e is not None:
            assert math.isclose(g, e)


def test_bench_qa_with_a_model_that_is_not_there(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    r = CliRunner().invoke(cli, ["bench", "qa", "--model", str(missing), "--limit", "1", "--no-big"])
    assert r.exit_code == 1 and "cannot load the model" in r.output and "--no-model" in r.output
    assert "Traceback" not in r.output

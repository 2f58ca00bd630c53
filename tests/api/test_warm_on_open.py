"""Opening a workbook warms it for its first question, only when the model is already loaded."""

from __future__ import annotations

import pytest

from gridsight.api._sessions import warm_soon
from gridsight.grid import SheetBuilder, Workbook
from gridsight.llm import ModelQueue, ScriptedRuntime, _queue


def _book() -> Workbook:
    b = SheetBuilder("Costs")
    for r, line in enumerate([("Item", "Amount"), ("Rent", 900), ("Fuel", 300), ("Food", 120)]):
        for c, v in enumerate(line):
            b.set(r, c, v)
    return Workbook([b.build()])


def test_no_model_loaded_means_no_warm_up_and_no_load(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    queue = ModelQueue(lambda: calls.append(1) or ScriptedRuntime(["x"]))  # type: ignore[func-returns-value]
    monkeypatch.setattr(_queue, "_shared", queue)
    assert warm_soon(_book()) is None
    assert calls == [] and not queue.loaded


def test_a_loaded_model_reads_the_tables_prompt_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    runtime = ScriptedRuntime(["ok"])
    monkeypatch.setattr(_queue, "_shared", ModelQueue(runtime))
    thread = warm_soon(_book())
    assert thread is not None
    thread.join(30)
    assert len(runtime.requests) == 1
    prompt = runtime.requests[0].messages[-1]["content"]
    assert '"Item" text' in prompt and '"Amount" number' in prompt and "Question:" not in prompt

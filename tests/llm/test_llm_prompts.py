"""Prompt templates (versioned, in one place) and trimming a prompt to the context by policy."""

from __future__ import annotations

import pytest

from gridsight.errors import GridSightError, PromptTooLongError
from gridsight.llm import PROMPTS, PromptPart, ScriptedRuntime, fit_prompt, get_prompt
from gridsight.llm._llama import LlamaRuntime


def test_every_template_is_versioned_and_named() -> None:
    assert sorted(PROMPTS) == [
        "chat",
        "detect_choose",
        "detect_tables",
        "formula",
        "qa_answer_cell",
        "qa_ask_about",
        "qa_choose",
        "qa_pick_table",
        "retrieval_split",
        "suggest",
    ]
    for name, template in PROMPTS.items():
        assert template.name == name and template.version >= 1
        assert template.id == f"{name}@v{template.version}"
        assert template.source


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("detect_tables", ["sheet"]),
        ("detect_choose", ["sheet", "first", "second"]),
        ("qa_pick_table", ["sheet", "question"]),
        ("qa_answer_cell", ["table", "question"]),
        ("qa_choose", ["question", "options"]),
        ("qa_ask_about", ["option"]),
        ("formula", ["columns", "task"]),
        ("chat", ["context", "question"]),
        ("retrieval_split", ["question"]),
    ],
)
def test_template_fields(name: str, fields: list[str]) -> None:
    assert get_prompt(name).fields == fields


def test_render_formula_prompt_exactly() -> None:
    messages = get_prompt("formula").render(columns="Sales=B2:B9", task="total sales")
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * 4 + ["user"]
    assert messages[1] == {
        "role": "user",
        "content": "Columns: Price=B2:B50, Units=C2:C50\nTask: total units",
    }
    assert messages[2] == {"role": "assistant", "content": "=SUM(C2:C50)"}
    assert messages[-1] == {"role": "user", "content": "Columns: Sales=B2:B9\nTask: total sales"}


def test_paper_prompts_are_adapted_not_copied() -> None:
    detect = get_prompt("detect_tables")
    assert "one line per value" in detect.system and "NONE" in detect.system  # the encoder's format
    assert "DON'T ADD OTHER WORDS" not in detect.system  # the grammar enforces the format instead
    assert len(detect.system.split()) < 120  # short instructions for a small model
    assert detect.examples[1][1] == "A1:B5, D1:E3"  # the range grammar's format


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"task": "x"}, "missing fields ['columns']"),
        ({"columns": "a", "task": "b", "x": "c"}, "unknown fields"),
    ],
)
def test_render_field_errors(values: dict[str, str], message: str) -> None:
    with pytest.raises(GridSightError, match=message.replace("[", r"\[").replace("]", r"\]")):
        get_prompt("formula").render(**values)


def test_unknown_template() -> None:
    with pytest.raises(GridSightError, match="no prompt template 'nope'"):
        get_prompt("nope")


COUNTER = ScriptedRuntime(["ok"])


def count(messages: list[dict[str, str]]) -> int:
    return COUNTER.prompt_tokens(messages)  # type: ignore[arg-type]


CELLS = [f"(v{i}|A{i})" for i in range(1, 201)]


def test_fits_untouched() -> None:
    parts = [PromptPart("system", "Be brief.", role="system"), PromptPart("q", "What is A1?")]
    fitted = fit_prompt(parts, 100, count)
    assert fitted.messages == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "What is A1?"},
    ]
    assert (fitted.trimmed, fitted.dropped) == (False, {})


def test_trims_whole_cells_from_the_end_and_says_so() -> None:
    parts = [
        PromptPart("system", "Find tables.", role="system"),
        PromptPart("sheet", units=CELLS, required=False, joiner=",", unit_name="cells"),
        PromptPart("q", "Question: which table?"),
    ]
    fitted = fit_prompt(parts, 300, count)
    assert fitted.tokens <= 300
    body = fitted.messages[1]["content"]
    kept = body.split("\n")[0].split(",")
    assert kept == CELLS[: len(kept)]  # a prefix of whole cells, never a cut one
    n_dropped = 200 - len(kept)
    assert fitted.dropped == {"sheet": n_dropped}
    assert f"... {n_dropped} more cells not shown (trimmed to fit the model's context)" in body
    assert body.endswith("Question: which table?")
    # the most that fits: one more cell would not
    assert count(fit_prompt(parts, 10_000, count).messages) > 300


def test_examples_drop_after_cells_and_cells_grow_back() -> None:
    parts = get_prompt("detect_tables").parts(sheet=CELLS)
    fitted = fit_prompt(parts, 200, count)
    roles = [m["role"] for m in fitted.messages]
    assert fitted.tokens <= 200
    assert "sheet" in fitted.dropped
    assert roles[0] == "system" and roles[-1] == "user"
    assert roles.count("assistant") == roles.count("user") - 1  # examples dropped as whole pairs


def test_fixed_parts_too_long() -> None:
    parts = [
        PromptPart("system", "x " * 500, role="system"),
        PromptPart("sheet", units=CELLS, required=False),
    ]
    with pytest.raises(PromptTooLongError, match="fixed parts need"):
        fit_prompt(parts, 100, count)


def test_duplicate_part_names() -> None:
    with pytest.raises(ValueError, match="unique"):
        fit_prompt([PromptPart("a", "x"), PromptPart("a", "y")], 100, count)


def test_trim_a_long_sheet_for_the_real_model(runtime: LlamaRuntime) -> None:
    """A sheet cut by whole cells to a budget counted with the model's own tokenizer and template; then the
    model answers from exactly that many prompt tokens. (A small budget keeps the prefill short.)"""
    cells = [f"(Revenue {i}|B{i}),({i * 37 % 1000}|C{i})" for i in range(1, 1500)]
    parts = get_prompt("qa_pick_table").parts(sheet=cells, question="Which table has revenue?")
    budget = 400
    fitted = fit_prompt(parts, budget, runtime.prompt_tokens)
    assert 0 < fitted.dropped["sheet"] < len(cells)
    assert fitted.tokens == runtime.prompt_tokens(fitted.messages) <= budget
    one_more = fit_prompt(parts, 10**6, runtime.prompt_tokens)
    assert one_more.tokens > budget
    done = runtime.complete(fitted.messages, max_tokens=8)
    assert done.prompt_tokens == fitted.tokens


def test_prefill_of_a_long_prompt_can_time_out(runtime: LlamaRuntime) -> None:
    """Prompt evaluation is chunked, so a timeout interrupts it instead of waiting for the whole prefill."""
    import time

    from gridsight.errors import RequestTimeoutError

    cells = ",".join(f"(Item {i}|A{i})" for i in range(1, 330))  # ~3,000 tokens: 20+ s to evaluate
    started = time.perf_counter()
    with pytest.raises(RequestTimeoutError):
        runtime.complete(f"Sheet: {cells}\nHow many items?", max_tokens=4, timeout_s=0.5)
    assert time.perf_counter() - started < 15  # one chunk past the deadline, not the whole prompt


@pytest.mark.parametrize(
    ("cells", "example"),
    [
        (
            {"A1": "Sales 2023", "A3": "Region", "B3": "Q1", "C3": "Q2", "A4": "North", "B4": 5, "C4": 6,
             "A5": "South", "B5": 7, "C5": 8, "A6": "West", "B6": 1, "C6": 2, "A8": "Source: finance"},
            get_prompt("detect_tables").examples[0][0],
        ),
        (
            {"A1": "Name", "B1": "Age", "A2": "Ann", "B2": 30, "A3": "Bo", "B3": 41, "A4": "Cy", "B4": 22,
             "A5": "Di", "B5": 35, "D1": "Item", "E1": "Price", "D2": "Pen", "E2": 1.5, "D3": "Ink",
             "E3": 2.25},
            get_prompt("detect_tables").examples[1][0],
        ),
    ],
)  # fmt: skip
def test_prompt_examples_are_what_the_encoder_writes(cells: dict[str, object], example: str) -> None:
    """The model is shown the format it will read: each example is the encoder's own output."""
    from gridsight.encode import encode_sheet
    from gridsight.grid import Sheet

    assert encode_sheet(Sheet.from_cells("S", cells)).text.rstrip("\n") == example

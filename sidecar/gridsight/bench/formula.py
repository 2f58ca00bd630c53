"""`gridsight bench formula`: DataBench questions answered by a formula over the CSV as a sheet.

Scored with DataBench's type-aware comparison (booleans by truth, numbers to 2 decimals, categories
as text, list[category] as sets, list[number] as sorted lists). The same questions are also run
with the table moved to C5 of a differently named sheet: answers must not change.
"""

from __future__ import annotations

import ast
import json
import math
import re
import time
from pathlib import Path
from typing import Any

import click

from gridsight.bench._common import BenchResult, corpus_options, emit, resolve_corpus
from gridsight.formula._generate import Answer, generate_formula
from gridsight.grid import Sheet, SheetBuilder, Workbook
from gridsight.sources import open_workbook

_STRIP = "[]'\" "


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list):
        out: list[Any] = []
        for v in value:
            out.extend(_flat(v))
        return out
    return [value]


def _parse_gold(text: str) -> Any:
    """A gold answer as written by pandas: a Python literal, where a missing value prints as nan."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    try:  # "[nan, 'Los Angeles']": the bare nan is pandas' missing value
        return ast.literal_eval(re.sub(r"(?<![\w'\"])nan(?![\w'\"])", "None", text))
    except (ValueError, SyntaxError):
        return text


def _num(v: Any) -> float | None:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else round(x, 2)


def compare(value: Any, gold: str, kind: str) -> bool:
    """DataBench's type-aware comparison of an answer with the gold answer text."""
    kind = kind.strip()
    if kind == "boolean":
        v = _flat(value)
        return len(v) == 1 and str(v[0]).strip(_STRIP).lower() == str(gold).strip(_STRIP).lower()
    if kind == "number":
        v = _flat(value)
        return len(v) == 1 and _num(v[0]) is not None and _num(v[0]) == _num(gold)
    if kind == "category":
        v = _flat(value)
        if len(v) != 1:
            return False
        a, b = str(v[0]).strip(_STRIP), str(gold).strip(_STRIP)
        return a == b or (_num(a) is not None and _num(a) == _num(b))
    gold_list = _parse_gold(gold)
    gold_items = gold_list if isinstance(gold_list, list) else [gold_list]
    got = _flat(value)
    if kind == "list[number]":
        a = sorted(x for x in (_num(g) for g in got) if x is not None)
        b = sorted(x for x in (_num(g) for g in gold_items) if x is not None)
        return len(a) == len(got) and a == b
    if kind == "list[category]":
        # an empty cell is pandas' NaN: None, "" and nan compare equal
        norm = lambda x: "nan" if x is None or x == "" else str(x).strip(_STRIP)  # noqa: E731
        return {norm(x) for x in got} == {norm(x) for x in gold_items}
    return False


def moved(sheet: Sheet, top: int = 4, left: int = 2, name: str = "Moved data") -> Workbook:
    """The same table with its top-left corner at C5 on another sheet name."""
    b = SheetBuilder(name)
    for cell in sheet.iter_cells():
        b.set(cell.row + top, cell.col + left, cell.value, number_format=cell.number_format)
    return Workbook([Sheet.from_cells("Notes", {"A1": "moved copy"}), b.build()])


def questions(root: Path) -> list[dict[str, Any]]:
    out = []
    for qa in sorted(root.glob("*.qa.jsonl")):
        for line in qa.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(json.loads(line))
    return out


def run(corpus: Path | None, limit: int | None, model: str | None = None) -> BenchResult:
    """``model``: None for the deterministic tier alone, "default" or a GGUF path to add the model tier."""
    root = resolve_corpus(corpus, "databench")
    runtime = None
    if model is not None:
        from gridsight.llm import load_runtime

        runtime = load_runtime(None if model == "default" else model)
    qs = questions(root)[:limit] if limit else questions(root)
    books: dict[str, tuple[Workbook, Workbook]] = {}
    rows: list[dict[str, Any]] = []
    right = right_moved = valid = invalid = abstained = by_model = right_by_model = 0
    total_s = 0.0
    for q in qs:
        ds = q["dataset"]
        if ds not in books:
            wb = open_workbook(root / "datasets" / f"{ds}.csv")
            books[ds] = (wb, moved(wb.sheets[0]))
        wb, mv = books[ds]
        t = time.perf_counter()
        ans: Answer = generate_formula(q["question"], wb, model=runtime)
        total_s += time.perf_counter() - t
        ans_moved = generate_formula(q["question"], mv, "Moved data", model=runtime)
        ok = ans.formula is not None and compare(ans.value, q["answer"], q["type"])
        ok_moved = ans_moved.formula is not None and compare(ans_moved.value, q["answer"], q["type"])
        if ans.formula is None:
            abstained += 1
        elif ans.evaluation is not None and ans.evaluation.ok:
            valid += 1
        else:
            invalid += 1
        right += ok
        right_moved += ok_moved
        if ans.shape == "model":
            by_model += 1
            right_by_model += ok
        rows.append(
            {
                "dataset": ds,
                "question": q["question"],
                "type": q["type"],
                "formula": ans.formula,
                "value": json.dumps(ans.value, default=str)[:80] if ans.formula else None,
                "gold": q["answer"][:60],
                "right": ok,
                "right_moved": ok_moved,
                "reason": ans.reason,
                "tier": "model" if ans.shape == "model" else "rules",
            }
        )
    n = len(qs)
    summary = {
        "questions": n,
        "execution_accuracy": round(right / n, 4) if n else 0.0,
        "valid_formula_rate": round(valid / n, 4) if n else 0.0,
        "invalid_formulas_returned": invalid,
        "position_accuracy": round(right_moved / n, 4) if n else 0.0,
        "abstained": abstained,
        "seconds_per_question": round(total_s / n, 4) if n else 0.0,
        "model": getattr(runtime, "name", None) if runtime is not None else None,
        "model_answers": by_model,
        "model_answers_right": right_by_model,
    }
    tier = (
        f"with the model tier: {by_model} answered by the model, {right_by_model} right"
        if runtime is not None
        else "deterministic tier, no model"
    )
    headline = (
        f"formula: {right}/{n} right ({summary['execution_accuracy']:.1%}), moved to C5: "
        f"{right_moved}/{n}, {valid} valid, {invalid} invalid, {abstained} abstained, "
        f"{summary['seconds_per_question'] * 1000:.0f} ms/question ({tier})"
    )
    return BenchResult(
        "formula",
        ("dataset", "question", "type", "formula", "value", "gold", "right", "right_moved"),
        rows,
        summary,
        headline,
    )


@click.command("formula")
@corpus_options
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@click.option(
    "--model",
    "model",
    default=None,
    help="Add the model tier where the rules abstain: 'default' (the bundled model) or a GGUF path.",
)
def command(corpus: Path | None, out: Path | None, limit: int | None, model: str | None) -> None:
    """Answer DataBench questions with formulas; execution accuracy, validity, position invariance."""
    emit(run(corpus, limit, model), out)

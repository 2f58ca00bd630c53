"""The model tier of formula generation: the local model writes a formula where no shape matched.

It writes under the formula grammar (only functions the engine runs, only the table's real column
ranges), with the header->range list and few-shot prompt that FINDINGS.md measured best for the 0.5B
model. Its formula is then validated and evaluated like any other; an error or a refusal means the
deterministic abstention stands. Confidence is low on purpose: the small model chooses columns
poorly, so the pane shows these answers as suggestions to check.
"""

from __future__ import annotations

from typing import Any

from gridsight.errors import GridSightError
from gridsight.formula._evaluate import evaluate_formula
from gridsight.formula._explain import explain_formula
from gridsight.formula._generate import Answer, sheet_of, table_from_sheet, tables_in_sheet
from gridsight.grid import Range, Sheet, Workbook

#: What the model may call: the aggregate, lookup and array functions the shapes use.
MODEL_FUNCTIONS = (
    "SUM", "AVERAGE", "MEDIAN", "MAX", "MIN", "COUNT", "COUNTA", "COUNTIF", "COUNTIFS", "SUMIF", "SUMIFS",
    "AVERAGEIF", "AVERAGEIFS", "MAXIFS", "MINIFS", "INDEX", "MATCH", "UNIQUE", "ROWS", "SORT", "SORTBY",
    "TAKE", "FILTER", "ROUND", "ABS", "LEN",
)  # fmt: skip
#: Columns listed in the prompt at most (the prompt must stay small: prefill dominates on CPU).
MAX_COLUMNS = 30
MODEL_CONFIDENCE = 0.3


def model_formula(
    request: str,
    workbook: Workbook,
    sheet: str | Sheet | None,
    area: Range | str | None,
    runtime: Any,
    fallback: Answer,
    *,
    timeout_s: float = 30.0,
) -> Answer:
    """A model-written, validated formula for ``request``, or ``fallback`` (the abstention)."""
    from gridsight.llm import formula_grammar, get_prompt

    sh = sheet_of(workbook, sheet)
    rng = Range.parse(area) if isinstance(area, str) else area
    table = table_from_sheet(sh, rng) if rng is not None else next(iter(tables_in_sheet(sh)), None)
    if table is None:
        return fallback
    cols = table.columns[:MAX_COLUMNS]
    try:
        grammar = formula_grammar(MODEL_FUNCTIONS, ranges=[c.ref for c in cols], max_depth=3, max_args=4)
        messages = get_prompt("formula").render(
            columns=", ".join(f"{c.name}={c.ref}" for c in cols), task=request
        )
        done = runtime.complete(messages, grammar=grammar, max_tokens=96, timeout_s=timeout_s)
    except GridSightError as exc:
        return _with_reason(fallback, f"the model could not write one ({exc})")
    formula = done.text.strip()
    named = {c.ref for c in cols if c.name in fallback.closest_columns}
    ev = evaluate_formula(formula, workbook, sh)
    if ev.ok and named and not named & {r.split("!")[-1] for r in ev.references}:
        # grounding: the small model's usual failure is the wrong column; a formula that reads none
        # of the columns the request names is refused rather than shown
        return _with_reason(
            fallback, f"the model's formula {formula} reads none of the columns the request names"
        )
    stray = _stray_criterion(formula, sh)
    if stray is not None:
        return _with_reason(fallback, f"the model's formula {formula} tests for {stray}, which no cell holds")
    if not ev.ok or ev.error is not None:
        why = ev.error or "; ".join(ev.problems) or "it is not valid"
        return _with_reason(fallback, f"the model's formula {formula} failed ({why})")
    try:
        explanation = explain_formula(formula, workbook, sh)
    except GridSightError:
        explanation = None
    return Answer(
        request,
        formula,
        ev.value,
        ev,
        explanation,
        ev.references,
        MODEL_CONFIDENCE,
        None,
        "model",
        fallback.closest_columns,
    )


def _with_reason(answer: Answer, extra: str) -> Answer:
    return Answer(
        answer.request, None, reason=f"{answer.reason}; {extra}", closest_columns=answer.closest_columns
    )


_IFS = {
    "COUNTIF": 0,
    "SUMIF": 0,
    "AVERAGEIF": 0,
    "COUNTIFS": 0,
    "SUMIFS": 1,
    "AVERAGEIFS": 1,
    "MAXIFS": 1,
    "MINIFS": 1,
}


def _stray_criterion(formula: str, sheet: Sheet) -> str | None:
    """A text criterion that is no comparison and matches no cell of its range (``"10<=Fare<=20"``):
    the model's way of inventing a filter. Such a formula computes 0 and means nothing."""
    from gridsight.formula._tree import Call, Literal, Ref, parse_formula, walk

    try:
        tree = parse_formula(formula)
    except GridSightError:
        return None
    for node in walk(tree):
        if not isinstance(node, Call) or node.name not in _IFS:
            continue
        start = _IFS[node.name]
        for rng, crit in zip(node.args[start::2], node.args[start + 1 :: 2], strict=False):
            if not (isinstance(rng, Ref) and rng.rng is not None and isinstance(crit, Literal)):
                continue
            text = str(crit.value)
            if crit.kind != "text" or text[:1] in "<>=" or "*" in text or "?" in text:
                continue
            try:
                float(text)
                continue
            except ValueError:
                pass
            values = {str(v).casefold() for row in sheet.values(rng.rng.with_sheet(None)) for v in row}
            if text.casefold() not in values:
                return f'"{text}"'
    return None

"""Suggestions while a request is typed: ranked completions, each with the formula it would give.

Only the deterministic tier runs here (build and parse, no evaluation), so a suggestion costs
milliseconds and a stale one needs no cancelling; the model tier refines when the user pauses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gridsight.formula._evaluate import validate_formula
from gridsight.formula._generate import Column, Table, candidates, sheet_of, table_from_sheet
from gridsight.grid import Sheet, Workbook
from gridsight.text import words as _words


@dataclass(frozen=True)
class Suggestion:
    text: str
    formula: str
    shape: str


_STARTERS = (
    ("total", "number", "total {col}"),
    ("sum", "number", "sum of {col}"),
    ("average", "number", "average {col}"),
    ("mean", "number", "average {col}"),
    ("median", "number", "median {col}"),
    ("highest", "number", "highest {col}"),
    ("maximum", "number", "maximum {col}"),
    ("lowest", "number", "lowest {col}"),
    ("minimum", "number", "minimum {col}"),
    ("most", "text", "most common {col}"),
    ("common", "text", "most common {col}"),
    ("unique", "text", "how many unique {col}"),
    ("distinct", "text", "how many distinct {col}"),
    ("how", "text", "how many rows have {col} {value}"),
    ("count", "text", "how many rows have {col} {value}"),
    ("top", "number", "top 5 {col}"),
    ("bottom", "number", "bottom 5 {col}"),
)


def _matches_prefix(col: Column, prefix: str) -> bool:
    return not prefix or any(w.startswith(prefix) for w in _words(col.name))


def suggest(
    partial: str, workbook: Workbook, sheet: str | Sheet | None = None, *, limit: int = 5
) -> list[Suggestion]:
    """Up to ``limit`` completions of a partly typed request over the sheet's table, best first."""
    sh = sheet_of(workbook, sheet)
    table = table_from_sheet(sh)
    text = partial.strip()
    if table is None or not text:
        return []
    words = _words(text)
    ends_in_space = partial.endswith(" ")
    prefix = "" if ends_in_space or not words else words[-1]
    starters = [s for s in _STARTERS if any(w.startswith(s[0]) or s[0].startswith(w) for w in words[:3])]
    out: list[Suggestion] = []
    seen: set[str] = set()
    for _key, kind, template in starters or _STARTERS:
        fixed = _words(template.split("{col}")[0])  # the template's words before the column
        at = len(words) - 1
        still_typing_template = bool(prefix) and at < len(fixed) and fixed[at].startswith(prefix)
        col_prefix = "" if still_typing_template else prefix
        for col in _columns(table, kind, col_prefix):
            completion = _fill(template, col)
            if completion is None or completion in seen:
                continue
            if starters and not _continues(text, completion):
                continue
            seen.add(completion)
            found = candidates(completion, table)
            if not found:
                continue
            shape, formula = found[0]
            if validate_formula(formula, workbook, sh).ok:
                out.append(Suggestion(completion, formula, shape))
            if len(out) >= limit:
                return out
    return out


def _columns(table: Table, kind: str, prefix: str) -> list[Column]:
    kinds = ("number",) if kind == "number" else ("text", "bool")
    return [c for c in table.columns if c.kind in kinds and _matches_prefix(c, prefix)]


def _fill(template: str, col: Column) -> str | None:
    if "{value}" in template:
        if not col.distinct or len(col.distinct) > 50:
            return None
        value = next((v for v in col.distinct if v.strip()), None)
        if value is None:
            return None
        return template.format(col=col.name, value=f"'{value}'")
    return template.format(col=col.name)


def _continues(typed: str, completion: str) -> bool:
    """The completion keeps what was typed: every typed word but a trailing prefix appears in it."""
    typed_words = _words(typed)
    comp = _words(completion)
    head = typed_words[:-1] if typed_words and not typed.endswith(" ") else typed_words
    last = typed_words[-1] if typed_words and not typed.endswith(" ") else ""
    ok = all(w in comp for w in head)
    return ok and (not last or any(w.startswith(last) for w in comp)) and bool(re.sub(r"\W", "", completion))


def refine_suggestions(
    partial: str,
    workbook: Workbook,
    sheet: str | Sheet | None = None,
    *,
    model: Any,
    limit: int = 5,
    session: str | None = None,
    timeout_s: float = 20.0,
) -> list[Suggestion]:
    """The deterministic suggestions, reordered by the model: the one it judges the typed words mean
    comes first. Called when the user pauses (the pane's second, slower request).

    The model can only name one of the suggestions (a grammar of their numbers), so it never adds a
    formula the rules did not build and validate. We measured it adding completions of its own: the
    0.5B model wrote fluent nonsense ("average of total") that parsed into wrong formulas, so it
    only ranks. ``model`` is a runtime or a :class:`gridsight.llm.ModelQueue`; with a queue and
    ``session``, a newer refinement for the same pane cancels this one. Any model failure (cancelled,
    timed out, not installed) leaves the deterministic order.
    """
    from gridsight.llm import Grammar, ModelQueue, get_prompt

    found = suggest(partial, workbook, sheet, limit=limit)
    if len(found) < 2:
        return found
    numbers = " | ".join(f'"{i}"' for i in range(1, len(found) + 1))
    grammar = Grammar.from_gbnf(f"root ::= {numbers}\n", "suggest-choice")
    options = "\n".join(f"{i}. {s.text}" for i, s in enumerate(found, 1))
    messages = get_prompt("suggest").render(partial=partial.strip(), options=options)
    try:
        if isinstance(model, ModelQueue):
            done = model.submit(
                messages, grammar=grammar, max_tokens=3, timeout_s=timeout_s, session=session
            ).result(timeout_s + 5)
        else:
            done = model.complete(messages, grammar=grammar, max_tokens=3, timeout_s=timeout_s)
        pick = int(done.text.strip()) - 1
    except Exception:  # cancelled by a newer keystroke, timed out, no model, not a number
        return found
    if not 0 <= pick < len(found):
        return found
    return [found[pick], *found[:pick], *found[pick + 1 :]]

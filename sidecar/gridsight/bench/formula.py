"""`gridsight bench formula`: corpus questions answered by a formula over the question's sheet.

Takes any folder of either corpus layout, whatever its name (see :mod:`gridsight.bench._gold`):
DataBench (``datasets/<id>.csv`` + ``<id>.qa.jsonl``) or workbook-QA (``qa.jsonl`` + files in ``xlsx/``
or the folder itself). Each question is asked of its sheet (the line's ``sheet``, else the first), then
again with the sheet's cells moved to C5 of a differently named sheet: answers must not change.

Scored with DataBench's type-aware comparison (booleans by truth, numbers to 2 decimals, categories
as text, list[category] as sets, list[number] as sorted lists), with ``answer_alt`` also accepted and,
for WikiTableQuestions lines (``answer_canon``/``canon_type``), WTQ's official matching as well -- the
same rules as ``bench qa``; the JSON's ``scoring`` note spells them out.

Summary keys (shares in 0..1): ``questions, accuracy`` (= ``execution_accuracy``: right values),
``abstention_rate``, ``evidence_valid_rate`` (share of returned formulas whose evidence ranges lie in the
sheet's used range), ``seconds_per_question, p95_seconds`` (the first ask only), ``accuracy_by_type``,
``by_dataset``, ``candidates_agree_rate`` (mean of an answer's ``agreement`` where it has one; 0.0 if
none), ``model``, ``execution_accuracy``, ``invalid_formulas_returned`` (a count: formulas returned that
do not evaluate), ``position_accuracy`` (right on the moved copy), ``valid_formula_rate``, ``abstained``,
``untranslated_queries`` (abstentions where a query won but no formula gives its result; each row's
``query`` holds the winning query), ``errors`` (questions that raised something other than a
GridSightError; counted wrong), ``right_by``, ``model_answers`` and ``model_answers_right``.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import click

from gridsight.bench._common import (
    BenchResult,
    corpus_options,
    emit,
    load_model,
    model_choice,
    model_options,
    p95,
    range_inside,
    resolve_corpus,
    share,
)
from gridsight.bench._gold import SCORING, Question, compare, load_questions, parse_gold, score
from gridsight.errors import GridSightError
from gridsight.formula._generate import Answer
from gridsight.grid import Sheet, SheetBuilder, Workbook
from gridsight.qa import formula_from_question
from gridsight.sources import open_workbook

__all__ = ["command", "compare", "moved", "parse_gold", "questions", "run"]


def moved(sheet: Sheet, top: int = 4, left: int = 2, name: str = "Moved data") -> Workbook:
    """The same table with its top-left corner at C5 on another sheet name."""
    b = SheetBuilder(name)
    for cell in sheet.iter_cells():
        b.set(cell.row + top, cell.col + left, cell.value, number_format=cell.number_format)
    return Workbook([Sheet.from_cells("Notes", {"A1": "moved copy"}), b.build()])


def questions(root: Path) -> list[Question]:
    """The questions of a corpus folder of either layout."""
    return load_questions(root)


_Book = tuple[Workbook, Sheet, Workbook]


def _book(q: Question, cache: dict[tuple[Path, str | None], _Book | str]) -> _Book | str:
    """(workbook, the question's sheet, its moved copy), or why it cannot be had."""
    if q.path is None:
        return f"{q.file} is not in the corpus folder"
    key = (q.path, q.sheet)
    if key not in cache:
        try:
            wb = open_workbook(q.path)
            sheet = wb.sheet(q.sheet) if q.sheet is not None else wb.sheets[0]
            cache[key] = (wb, sheet, moved(sheet))
        except Exception as exc:  # a damaged file is one dataset's problem, not the bench's
            cache[key] = f"cannot open {q.file}: {exc}"
    return cache[key]


def _ask(question: str, wb: Workbook, sheet: str, runtime: Any) -> tuple[Answer, str | None]:
    """The answer, or an abstention for a GridSightError, or (abstention, error text) for anything else."""
    try:
        return formula_from_question(question, wb, sheet, model=runtime), None
    except GridSightError as exc:
        return Answer(question, None, reason=str(exc)), None
    except Exception as exc:  # a bug on one question must not lose the other answers
        error = f"{type(exc).__name__}: {exc}"
        return Answer(question, None, reason=error), error


def run(corpus: Path | None, limit: int | None, model: str | None = None) -> BenchResult:
    """``model``: None for the deterministic tier alone, "default", a model name or a GGUF path to add
    the model tier."""
    root = resolve_corpus(corpus, "databench")
    qs = questions(root)
    qs = qs[:limit] if limit else qs
    runtime = load_model(model)
    books: dict[tuple[Path, str | None], _Book | str] = {}
    rows: list[dict[str, Any]] = []
    right = right_moved = valid = invalid = abstained = by_model = right_by_model = 0
    errors = evidence_good = returned = untranslated = 0
    right_by: Counter[str] = Counter()
    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_dataset: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    agreements: list[float] = []
    seconds: list[float] = []
    for q in qs:
        book = _book(q, books)
        error = None
        if isinstance(book, str):
            ans = ans_moved = Answer(q.question, None, reason=book)
        else:
            wb, sheet, mv = book
            t = time.perf_counter()
            ans, error = _ask(q.question, wb, sheet.name, runtime)
            seconds.append(time.perf_counter() - t)
            ans_moved, error_moved = _ask(q.question, mv, "Moved data", runtime)
            error = error or error_moved
        how = score(ans.value, q) if ans.formula is not None and error is None else None
        ok = how is not None
        ok_moved = ans_moved.formula is not None and error is None and score(ans_moved.value, q) is not None
        if error is not None:
            errors += 1
        elif ans.formula is None:
            abstained += 1
            untranslated += ans.query is not None
        elif ans.evaluation is not None and ans.evaluation.ok:
            valid += 1
        else:
            invalid += 1
        inside = None
        if ans.formula is not None and not isinstance(book, str):
            returned += 1
            inside = bool(ans.evidence) and all(range_inside(e, book[0], book[1].name) for e in ans.evidence)
            evidence_good += inside
        right += ok
        right_moved += ok_moved
        if how:
            right_by[how] += 1
        by_type[q.type][0] += ok
        by_type[q.type][1] += 1
        by_dataset[q.dataset][0] += ok
        by_dataset[q.dataset][1] += 1
        agreement = getattr(ans, "agreement", None)
        if ans.formula is not None and isinstance(agreement, int | float):
            agreements.append(float(agreement))
        if ans.shape in ("model", "query"):
            by_model += 1
            right_by_model += ok
        rows.append(
            {
                "dataset": q.dataset,
                "file": q.file,
                "id": q.id,
                "question": q.question,
                "type": q.type,
                "formula": ans.formula,
                "value": json.dumps(ans.value, default=str)[:80] if ans.formula else None,
                "gold": str(q.answer)[:60],
                "right": ok,
                "right_by": how,
                "right_moved": ok_moved,
                "reason": ans.reason,
                "error": error,
                "tier": "model" if ans.shape in ("model", "query") else "rules",
                "query": ans.query,
                "evidence_valid": inside,
            }
        )
    n = len(qs)
    summary: dict[str, Any] = {
        "questions": n,
        "accuracy": share(right, n),
        "abstention_rate": share(abstained, n),
        "evidence_valid_rate": share(evidence_good, returned),
        "seconds_per_question": round(sum(seconds) / len(seconds), 4) if seconds else 0.0,
        "p95_seconds": round(p95(seconds), 4),
        "accuracy_by_type": {t: share(r, k) for t, (r, k) in sorted(by_type.items())},
        "by_dataset": {d: share(r, k) for d, (r, k) in sorted(by_dataset.items())},
        "candidates_agree_rate": round(sum(agreements) / len(agreements), 4) if agreements else 0.0,
        "model": getattr(runtime, "name", None) if runtime is not None else None,
        "execution_accuracy": share(right, n),
        "invalid_formulas_returned": invalid,
        "position_accuracy": share(right_moved, n),
        "valid_formula_rate": share(valid, n),
        "abstained": abstained,
        "untranslated_queries": untranslated,
        "errors": errors,
        "right_by": dict(right_by),
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
        f"{right_moved}/{n}, {valid} valid, {invalid} invalid, {abstained} abstained "
        f"({summary['abstention_rate']:.0%}; {untranslated} of them a query with no formula), "
        f"{errors} errors, "
        f"{summary['seconds_per_question'] * 1000:.0f} ms/question ({tier})"
    )
    return BenchResult(
        "formula",
        ("dataset", "file", "question", "type", "formula", "value", "gold", "right", "right_moved"),
        rows,
        summary,
        headline,
        extra={"corpus": str(root), "scoring": SCORING},
    )


@click.command("formula")
@corpus_options
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@model_options("none")
def command(corpus: Path | None, out: Path | None, limit: int | None, model: str, no_model: bool) -> None:
    """Answer corpus questions with formulas; execution accuracy, validity, position invariance.

    The model tier (--model default, a NAME or a PATH) tries where the rules abstain; by default it is off.
    """
    emit(run(corpus, limit, model_choice(model, no_model)), out)

"""`gridsight bench qa`: question answering accuracy, abstention, evidence validity, routes, latency.

Takes any folder of either corpus layout, whatever its name (see :mod:`gridsight.bench._gold`):
DataBench (``datasets/<id>.csv`` + ``<id>.qa.jsonl``) or workbook-QA (``qa.jsonl`` lines
``{question, answer, type, file, sheet?}`` over files in ``xlsx/`` or the folder itself).

Scoring (the JSON's ``scoring`` note says the same): a reply is right when DataBench's type-aware
comparison accepts it against ``answer``, or against ``answer_alt`` when the line has one (AIT-QA's
percent 84.6 beside the fraction 0.846). Lines with ``answer_canon``/``canon_type`` (WikiTableQuestions)
are also scored as WTQ's official evaluator does: gold items are ``answer_raw`` typed by their canonical
values, so a reply equal to the canonical number or date is right (``17 years`` canon 17 -> 17; canon
``2008-12-27`` -> a date value or the text ``December 27, 2008``), and text matches after WTQ's
normalisation (diacritics dropped, quotes and dashes unified, trailing citations and `` (...)`` details
and outer quotes removed, final ``.`` removed, whitespace collapsed, lower-case); the reply must have as
many distinct items as the gold, each gold item matching one. DataBench folders keep the strict
comparison alone.

Summary keys (shares in 0..1): ``questions, accuracy, abstention_rate, evidence_valid_rate`` (share of
answered questions whose evidence ranges all lie in the workbook), ``seconds_per_question, p95_seconds``
(answering only, opening excluded), ``accuracy_by_type`` (gold type -> share right), ``by_dataset``
(DataBench dataset id, or the workbook-QA folder's name -> share right), ``candidates_agree_rate`` (mean
of ``QAAnswer.agreement`` over answered questions that have one; 0.0 if none), ``errors`` (questions whose
answering raised something other than a GridSightError: counted wrong, the row keeps the error),
``model``, ``right_by`` (which rule accepted the right replies), ``routes`` and ``ties_settled_by``.
A GridSightError, or a workbook that cannot be opened, is an abstention with its reason.
"""

from __future__ import annotations

import contextlib
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
from gridsight.bench._gold import SCORING, Question, load_questions, score
from gridsight.errors import GridSightError
from gridsight.grid import Workbook
from gridsight.qa import QAAnswer, answer_question
from gridsight.sources import open_workbook

#: Questions timed on the synthetic 150,000-row table (the issue's bound for huge sheets), with answers.
BIG_QUESTIONS = (
    ("What is the total amount?", 150_000 * 149_999 / 2 / 100),
    ("How many rows have city Oslo?", 30_000),
    ("How many unique names are there?", 1_000),
)


def big_table(rows: int = 150_000) -> Workbook:
    """id, city (5 repeating), amount (id / 100), name (1,000 repeating): answers known in closed form."""
    from gridsight.grid import SheetBuilder

    b = SheetBuilder("big")
    for c, name in enumerate(("id", "city", "amount", "name")):
        b.set(0, c, name)
    cities = ("Paris", "Rome", "Oslo", "Lima", "Kyiv")
    for r in range(rows):
        b.set(r + 1, 0, r)
        b.set(r + 1, 1, cities[r % 5])
        b.set(r + 1, 2, r / 100)
        b.set(r + 1, 3, f"n{r % 1000}")
    return Workbook([b.build()])


def _time_big(runtime: Any) -> dict[str, Any]:
    wb = big_table()
    seconds, right = [], 0
    for q, answer in BIG_QUESTIONS:
        start = time.perf_counter()
        ans = answer_question(wb, q, model=runtime)
        seconds.append(time.perf_counter() - start)
        number = isinstance(ans.value, int | float) and not isinstance(ans.value, bool)
        right += number and abs(float(ans.value) - answer) < 1e-6 * max(1.0, answer)
    return {
        "big_150k_rows_seconds_per_question": round(sum(seconds) / len(seconds), 3),
        "big_150k_rows_max_seconds": round(max(seconds), 3),
        "big_150k_rows_right": right,
    }


def evidence_ok(ans: QAAnswer, wb: Workbook) -> bool:
    """An answer's evidence is there and every range names a real sheet and lies in its used range."""
    ev = getattr(ans, "evidence", None) or []
    return bool(ev) and all(
        isinstance(e, dict)
        and isinstance(e.get("range"), str)
        and range_inside(e["range"], wb, e.get("sheet"))
        for e in ev
    )


class Books:
    """Workbooks opened once each; a file that cannot be opened is remembered with its reason."""

    def __init__(self) -> None:
        self._books: dict[Path, Workbook | str] = {}

    def get(self, q: Question) -> Workbook | str:
        if q.path is None:
            return f"{q.file} is not in the corpus folder"
        if q.path not in self._books:
            try:
                self._books[q.path] = open_workbook(q.path)
            except Exception as exc:  # a damaged file is one dataset's problem, not the bench's
                self._books[q.path] = f"cannot open {q.file}: {exc}"
        return self._books[q.path]


def run(
    corpus: Path | None,
    limit: int | None,
    model: str | None,
    big: bool = True,
    samples: int = 0,
    cold: bool = False,
) -> BenchResult:
    """``model``: None for the rules alone, "default" (the bundled model), a model name or a GGUF path;
    ``samples``: sampled queries per question beyond the model's greedy one. Each workbook is warmed
    when it is opened, as the sidecar does (:func:`gridsight.qa._warm.warm`), timed apart from the
    questions; ``cold`` leaves that out, so the first question on each workbook pays it."""
    from gridsight.qa._warm import warm

    root = resolve_corpus(corpus, "databench")
    qs = load_questions(root)
    qs = qs[:limit] if limit else qs
    runtime = load_model(model)
    books = Books()
    rows: list[dict[str, Any]] = []
    right = abstained = valid = answered = errors = 0
    routes: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    right_by: Counter[str] = Counter()
    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_dataset: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    agreements: list[float] = []
    seconds: list[float] = []
    warmed: dict[tuple[Path | None, str | None], float] = {}
    for q in qs:
        wb = books.get(q)
        error = None
        if not cold and not isinstance(wb, str) and (q.path, q.sheet) not in warmed:
            start = time.perf_counter()
            with contextlib.suppress(GridSightError):  # the question itself says what is wrong
                warm(wb, runtime, q.sheet)
            warmed[(q.path, q.sheet)] = time.perf_counter() - start
        took: float | None = None
        if isinstance(wb, str):
            ans = QAAnswer(q.question, "abstained", reason=wb)
        else:
            start = time.perf_counter()
            try:
                ans = answer_question(wb, q.question, q.sheet, model=runtime, samples=samples)
            except GridSightError as exc:  # a question the engine cannot take is an abstention
                ans = QAAnswer(q.question, "abstained", reason=str(exc))
            except Exception as exc:  # a bug on one question must not lose the other answers
                error = f"{type(exc).__name__}: {exc}"
                ans = QAAnswer(q.question, "error", reason=error)
            took = time.perf_counter() - start
            seconds.append(took)
        is_answered = ans.status == "answered"
        how = score(ans.value, q) if is_answered else None
        ok = how is not None
        good = is_answered and not isinstance(wb, str) and evidence_ok(ans, wb)
        right += ok
        answered += is_answered
        abstained += ans.status == "abstained"
        errors += error is not None
        valid += good
        if how:
            right_by[how] += 1
        by_type[q.type][0] += ok
        by_type[q.type][1] += 1
        by_dataset[q.dataset][0] += ok
        by_dataset[q.dataset][1] += 1
        agreement = getattr(ans, "agreement", None)
        if is_answered and isinstance(agreement, int | float):
            agreements.append(float(agreement))
        route = getattr(ans, "route", None)  # read defensively: the QA answer object is still evolving
        chosen_by = getattr(ans, "chosen_by", None)
        routes[route or "none"] += 1
        if chosen_by:
            chosen[chosen_by] += 1
        rows.append(
            {
                "dataset": q.dataset,
                "file": q.file,
                "id": q.id,
                "question": q.question,
                "type": q.type,
                "route": route,
                "value": json.dumps(ans.value, default=str)[:60] if is_answered else None,
                "gold": str(q.answer)[:60],
                "right": ok,
                "right_by": how,
                "evidence_valid": good,
                "agreement": agreement,
                "reason": ans.reason,
                "error": error,
                "seconds": round(took, 3) if took is not None else None,
            }
        )
    n = len(qs)
    summary: dict[str, Any] = {
        "questions": n,
        "accuracy": share(right, n),
        "abstention_rate": share(abstained, n),
        "evidence_valid_rate": share(valid, answered),
        "seconds_per_question": round(sum(seconds) / len(seconds), 4) if seconds else 0.0,
        "p95_seconds": round(p95(seconds), 4),
        "accuracy_by_type": {t: share(r, k) for t, (r, k) in sorted(by_type.items())},
        "by_dataset": {d: share(r, k) for d, (r, k) in sorted(by_dataset.items())},
        "candidates_agree_rate": round(sum(agreements) / len(agreements), 4) if agreements else 0.0,
        "errors": errors,
        "model": getattr(runtime, "name", None) if runtime is not None else None,
        "right_by": dict(right_by),
        "routes": dict(routes),
        "ties_settled_by": dict(chosen),
        "workbooks_warmed": len(warmed),
        "warm_seconds_per_workbook": round(sum(warmed.values()) / len(warmed), 4) if warmed else 0.0,
    }
    if big:
        summary |= _time_big(runtime)
    warm_part = (
        f"; warm-up on open {summary['warm_seconds_per_workbook'] * 1000:.0f} ms/workbook, apart"
        if warmed
        else ", cold"
    )
    headline = (
        f"qa: {right}/{n} right ({summary['accuracy']:.1%}), {abstained} abstained, {errors} errors, "
        f"evidence valid {summary['evidence_valid_rate']:.1%}, routes {dict(routes)}, "
        f"{summary['seconds_per_question'] * 1000:.0f} ms/question "
        f"(p95 {summary['p95_seconds'] * 1000:.0f} ms{warm_part}) (model {summary['model'] or 'off'})"
    )
    return BenchResult(
        "qa",
        ("dataset", "file", "question", "type", "route", "value", "gold", "right", "evidence_valid"),
        rows,
        summary,
        headline,
        extra={"corpus": str(root), "scoring": SCORING},
    )


@click.command("qa")
@corpus_options
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@model_options("default")
@click.option("--no-big", is_flag=True, help="Skip timing three questions on a 150,000-row table.")
@click.option(
    "--samples", type=click.IntRange(0, 8), default=0, show_default=True, help="Sampled queries per question."
)
@click.option(
    "--cold", is_flag=True, help="No warm-up when a workbook is opened: its first question pays it."
)
def command(
    corpus: Path | None,
    out: Path | None,
    limit: int | None,
    model: str,
    no_model: bool,
    no_big: bool,
    samples: int,
    cold: bool,
) -> None:
    """Answer the corpus's questions; accuracy, abstention, evidence validity, routes, latency.

    The model writes queries that are voted on with the rules' answer; --model none is the rules alone.
    Each workbook is warmed when it is opened, as the sidecar does, and that time is reported apart.
    """
    emit(run(corpus, limit, model_choice(model, no_model), not no_big, samples, cold), out)

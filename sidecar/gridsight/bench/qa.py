"""`gridsight bench qa`: question answering accuracy, abstention, evidence validity, routes, latency.

Two corpus layouts: DataBench (``datasets/<id>.csv`` + ``<id>.qa.jsonl``) and a workbook-QA folder
(``xlsx/*.xlsx`` or ``*.csv`` + ``qa.jsonl`` lines ``{question, answer, type, file, sheet?, unit?}``).
Answers are scored with DataBench's type-aware comparison (the same as ``bench formula``).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import click

from gridsight.bench._common import BenchResult, corpus_options, emit, resolve_corpus
from gridsight.bench.formula import compare
from gridsight.errors import GridSightError
from gridsight.grid import Workbook
from gridsight.qa._ask import answer_question, evidence_valid
from gridsight.sources import open_workbook


def _questions(root: Path) -> list[dict[str, Any]]:
    """(question, answer, type, workbook path, sheet) from either layout."""
    out: list[dict[str, Any]] = []
    if (root / "qa.jsonl").is_file():
        for line in (root / "qa.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                q = json.loads(line)
                path = next((p for p in (root / "xlsx" / q["file"], root / q["file"]) if p.is_file()), None)
                if path is None:
                    raise click.ClickException(f"qa.jsonl names {q['file']!r}, which is not in {root}")
                out.append({**q, "path": path, "dataset": q["file"]})
        return out
    for qa in sorted(root.glob("*.qa.jsonl")):
        ds = qa.name.removesuffix(".qa.jsonl")
        for line in qa.read_text(encoding="utf-8").splitlines():
            if line.strip():
                q = json.loads(line)
                out.append({**q, "path": root / "datasets" / f"{ds}.csv", "dataset": ds})
    if not out:
        raise click.ClickException(f"{root} holds neither qa.jsonl nor DataBench *.qa.jsonl files")
    return out


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


def run(corpus: Path | None, limit: int | None, model: str | None, big: bool = True) -> BenchResult:
    """``model``: None for the rules alone, "default" (the bundled model) or a GGUF path."""
    root = resolve_corpus(corpus, "databench")
    qs = _questions(root)
    qs = qs[:limit] if limit else qs
    runtime = None
    if model is not None:
        from gridsight.llm import load_runtime

        try:
            runtime = load_runtime(None if model == "default" else model)
        except GridSightError as exc:
            raise click.ClickException(
                f"cannot load the model: {exc} (use --no-model for the rules alone)"
            ) from None
    books: dict[Path, Workbook] = {}
    rows: list[dict[str, Any]] = []
    right = abstained = valid = 0
    routes: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    total_s = 0.0
    for q in qs:
        if q["path"] not in books:
            books[q["path"]] = open_workbook(q["path"])
        wb = books[q["path"]]
        start = time.perf_counter()
        try:
            ans = answer_question(wb, q["question"], q.get("sheet"), model=runtime)
        except GridSightError as exc:  # a question the engine cannot take is an abstention, not a crash
            from gridsight.qa import QAAnswer

            ans = QAAnswer(q["question"], "abstained", reason=str(exc))
        total_s += time.perf_counter() - start
        ok = ans.status == "answered" and compare(ans.value, q["answer"], q["type"])
        right += ok
        abstained += ans.status != "answered"
        good = evidence_valid(ans, wb)
        valid += good
        routes[ans.route or "none"] += 1
        if ans.chosen_by:
            chosen[ans.chosen_by] += 1
        rows.append(
            {
                "dataset": q["dataset"],
                "question": q["question"],
                "type": q["type"],
                "route": ans.route,
                "value": json.dumps(ans.value, default=str)[:60] if ans.status == "answered" else None,
                "gold": str(q["answer"])[:60],
                "right": ok,
                "evidence_valid": good,
                "reason": ans.reason,
            }
        )
    n = len(qs)
    summary = {
        "questions": n,
        "accuracy": round(right / n, 4) if n else 0.0,
        "abstention_rate": round(abstained / n, 4) if n else 0.0,
        "evidence_valid_rate": round(valid / n, 4) if n else 0.0,
        "seconds_per_question": round(total_s / n, 4) if n else 0.0,
        "model": getattr(runtime, "name", None) if runtime is not None else None,
        "routes": dict(routes),
        "ties_settled_by": dict(chosen),
    }
    if big:
        summary |= _time_big(runtime)
    headline = (
        f"qa: {right}/{n} right ({summary['accuracy']:.1%}), {abstained} abstained, evidence valid "
        f"{summary['evidence_valid_rate']:.1%}, routes {dict(routes)}, "
        f"{summary['seconds_per_question'] * 1000:.0f} ms/question "
        f"(model {summary['model'] or 'off'})"
    )
    return BenchResult(
        "qa",
        ("dataset", "question", "type", "route", "value", "gold", "right", "evidence_valid"),
        rows,
        summary,
        headline,
    )


@click.command("qa")
@corpus_options
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@click.option(
    "--model",
    default="default",
    show_default=True,
    help="'default' (the bundled model) or a GGUF path: it settles ties and fills in where rules abstain.",
)
@click.option("--no-model", is_flag=True, help="Rules alone (the model is never loaded).")
@click.option("--no-big", is_flag=True, help="Skip timing three questions on a 150,000-row table.")
def command(
    corpus: Path | None, out: Path | None, limit: int | None, model: str, no_model: bool, no_big: bool
) -> None:
    """Answer the corpus's questions; accuracy, abstention, evidence validity, routes, latency."""
    emit(run(corpus, limit, None if no_model else model, not no_big), out)

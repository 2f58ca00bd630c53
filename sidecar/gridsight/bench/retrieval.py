"""`gridsight bench retrieval`: finding the right table in a library of every file of a question folder.

Takes any folder of either layout the QA bench reads (see :mod:`gridsight.bench._gold`): every
spreadsheet under it becomes one workbook of a single library, indexed from scratch
(:func:`gridsight.retrieval.build_index`). For every question whose workbook is in the folder:

- dataset recall@k (k = 1, 3, 5, 10): its own file among the k best tables, for each strategy
  (``hybrid`` -- the default, ``columns`` -- sub-query/column-card search, ``sheets`` -- query-sheet,
  ``words`` -- the question's rare words among the tables' header and value words);
- column recall@k: the share of its ``columns_used`` (DataBench lines carry them) among the k best
  column hits of its own file (the column strategy ranks columns; ``hybrid`` uses the same list);
- retrieval latency (embedding, searches and fusion; no answering), index build time and size;
- end-to-end accuracy: the question asked of the whole library (retrieval picks, the QA pipeline
  answers) beside the same question asked of its own workbook (``accuracy_given``).

Summary keys: questions, dataset_recall_at_{1,3,5,10} (hybrid), dataset_recall_by_strategy,
column_questions, column_recall_at_{1,3,5,10}, accuracy_single (whole library), accuracy_given,
accuracy_multi (``--multi FILE``: questions that need several datasets; None without it),
multi_questions, multi_dataset_recall_at_5 (share of them whose every dataset is among the 5 best
tables), index_seconds, index_size_bytes, workbooks, workbooks_per_minute, index_cpu_seconds and
workbooks_per_cpu_minute (CPU time of every thread of the process: on a shared machine the wall clock
also counts other work), tables, columns, reindex_seconds (nothing changed), startup_seconds (loading
lancedb and the embedder), query_p50_seconds, query_p95_seconds, abstained_retrieval (questions
retrieval found no table for), answer_errors.
"""

from __future__ import annotations

import ast
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import click

from gridsight.bench._common import (
    BenchResult,
    corpus_options,
    emit,
    load_model,
    model_choice,
    model_options,
    p95,
    resolve_corpus,
    share,
)
from gridsight.bench._gold import Question, _lines, load_questions, score
from gridsight.errors import GridSightError
from gridsight.qa import QAAnswer, answer_question

KS = (1, 3, 5, 10)


def columns_used(root: Path) -> dict[str, list[str]]:
    """``columns_used`` of every question line that has it, by its ``where`` (``file.jsonl:line``)."""
    out: dict[str, list[str]] = {}
    files = [root / "qa.jsonl"] if (root / "qa.jsonl").is_file() else []
    for path in [*files, *sorted(root.glob("*.qa.jsonl"))]:
        for where, obj in _lines(path):
            used = obj.get("columns_used")
            used = _names(used)
            if used:
                out[where] = used
    return out


def _names(used: Any) -> list[str] | None:
    """``columns_used`` as a list of names. DataBench writes a Python literal; some of its lines hold the
    literal split into single characters (``['[', "'", 'W', ...]``): those are joined and read again."""
    for _ in range(2):
        if isinstance(used, str):
            try:
                used = ast.literal_eval(used)
            except (ValueError, SyntaxError):
                used = [used.strip("[]'\" ")]
        if isinstance(used, list | tuple) and used and all(isinstance(c, str) and len(c) == 1 for c in used):
            used = "".join(used)
            continue
        break
    if isinstance(used, list | tuple) and used:
        return [str(u) for u in used]
    return None


def _rank(ranking: list[str], files: dict[str, str], own: str) -> int | None:
    """1-based place of the first table of file ``own`` in ``ranking`` (table ids), or None."""
    for i, tid in enumerate(ranking, 1):
        if files.get(tid) == own:
            return i
    return None


class _Books:
    def __init__(self) -> None:
        self.books: dict[Path, Any] = {}

    def __call__(self, path: Path) -> Any:
        from gridsight.sources import open_workbook

        if path not in self.books:
            self.books[path] = open_workbook(path)
        return self.books[path]


def run(
    corpus: Path | None,
    limit: int | None,
    db: Path | None,
    model: str | None,
    answer: bool,
    answer_limit: int | None,
    multi_file: Path | None = None,
) -> BenchResult:
    from gridsight.retrieval import Library, build_index
    from gridsight.retrieval._answer import ask_library
    from gridsight.retrieval._index import spreadsheet_files
    from gridsight.retrieval._store import VERSION_FILE

    root = resolve_corpus(corpus, "databench")
    qs = load_questions(root)
    qs = qs[:limit] if limit else qs
    used = columns_used(root)
    own_db = db is None
    db = db or Path(tempfile.mkdtemp(prefix="gridsight-bench-index-"))
    try:
        if not own_db and db.exists() and any(db.iterdir()):
            if not (db / VERSION_FILE).is_file():
                raise click.ClickException(
                    f"{db} is not empty and holds no GridSight index; name another --db"
                )
            shutil.rmtree(db)  # a fresh build is what is timed
        workbooks = len(spreadsheet_files(root, skip=db))
        started = time.perf_counter()
        warm = Library.warm_up()  # loading lancedb and the embedder is start-up, not indexing
        startup = time.perf_counter() - started
        cpu = time.process_time()
        report = build_index(root, db, embedder=warm)
        cpu = time.process_time() - cpu  # all threads of this process: a fair figure on a shared machine
        again = build_index(root, db, embedder=warm)
        library = Library(db, warm)
        files = {tid: s["file"] for tid, s in library.sheets.items()}
        runtime = load_model(model) if answer else None
        books = _Books()
        strategies = ("hybrid", "columns", "sheets", "words")
        hits = {s: {k: 0 for k in KS} for s in strategies}
        col_hits = {k: 0.0 for k in KS}
        col_n = 0
        seconds: list[float] = []
        rows: list[dict[str, Any]] = []
        right_lib = right_given = asked = errors = no_table = 0
        scored = [q for q in qs if q.path is not None]
        for i, q in enumerate(scored):
            own = q.path.relative_to(root).as_posix() if q.path is not None else ""
            found = library.search(q.question, k=10)
            seconds.append(found.seconds)
            no_table += not found.answerable
            ranks = {s: _rank(found.rankings.get(s, []), files, own) for s in strategies}
            for s in strategies:
                for k in KS:
                    hits[s][k] += ranks[s] is not None and ranks[s] <= k  # type: ignore[operator]
            need = used.get(q.where)
            col_recall: dict[int, float] = {}
            if need:
                col_n += 1
                for k in KS:
                    top = {h.column.casefold() for h in found.columns[:k] if h.file == own}
                    col_recall[k] = sum(1 for c in need if c.casefold() in top) / len(need)
                    col_hits[k] += col_recall[k]
            row: dict[str, Any] = {
                "dataset": q.dataset,
                "question": q.question,
                "rank": ranks["hybrid"],
                "rank_columns": ranks["columns"],
                "rank_sheets": ranks["sheets"],
                "rank_words": ranks["words"],
                "column_recall_5": round(col_recall[5], 3) if need else None,
                "top": files.get(found.rankings["hybrid"][0]) if found.rankings.get("hybrid") else None,
            }
            if answer and (answer_limit is None or i < answer_limit):
                asked += 1
                ok_lib, ok_given, err = _answer_both(q, library, root, runtime, books, ask_library)
                right_lib += ok_lib
                right_given += ok_given
                errors += err is not None
                row |= {"right_library": ok_lib, "right_given": ok_given, "error": err}
            rows.append(row)
        multi = _multi(multi_file, library, root, runtime, books, ask_library) if multi_file else None
        rows.extend(multi["rows"] if multi else [])
        n = len(scored)
        summary: dict[str, Any] = {
            "questions": n,
            **{f"dataset_recall_at_{k}": share(hits["hybrid"][k], n) for k in KS},
            "dataset_recall_by_strategy": {
                s: {f"at_{k}": share(hits[s][k], n) for k in KS} for s in strategies
            },
            "column_questions": col_n,
            **{f"column_recall_at_{k}": round(col_hits[k] / col_n, 4) if col_n else None for k in KS},
            "accuracy_single": share(right_lib, asked) if asked else None,
            "accuracy_given": share(right_given, asked) if asked else None,
            "answered_questions": asked,
            "accuracy_multi": multi["accuracy"] if multi else None,
            "multi_questions": multi["questions"] if multi else 0,
            "multi_dataset_recall_at_5": multi["recall_at_5"] if multi else None,
            "index_seconds": round(report.seconds, 3),
            "index_size_bytes": report.size_bytes,
            "workbooks": workbooks,
            "workbooks_per_minute": round(workbooks / report.seconds * 60, 1) if report.seconds else None,
            "index_cpu_seconds": round(cpu, 3),
            "workbooks_per_cpu_minute": round(workbooks / cpu * 60, 1) if cpu else None,
            "tables": report.tables,
            "columns": report.columns,
            "skipped_files": len(report.skipped),
            "reindex_seconds": round(again.seconds, 3),
            "startup_seconds": round(startup, 3),
            "query_p50_seconds": round(sorted(seconds)[len(seconds) // 2], 4) if seconds else 0.0,
            "query_p95_seconds": round(p95(seconds), 4),
            "abstained_retrieval": no_table,
            "answer_errors": errors,
            "model": getattr(runtime, "name", None) if runtime is not None else None,
        }
    finally:
        if own_db:
            shutil.rmtree(db, ignore_errors=True)
    acc = (
        f", accuracy over the library {summary['accuracy_single']:.1%} vs given table "
        f"{summary['accuracy_given']:.1%} ({asked} q)"
        if asked
        else ""
    )
    col = f", column recall@5 {summary['column_recall_at_5']:.1%}" if col_n else ""
    if multi:
        acc += f", multi-dataset accuracy {multi['accuracy']:.1%} ({multi['questions']} q)"
    headline = (
        f"retrieval: {n} questions over {workbooks} workbooks ({report.tables} tables): dataset recall@1 "
        f"{summary['dataset_recall_at_1']:.1%}, @5 {summary['dataset_recall_at_5']:.1%}{col}{acc}; index "
        f"{report.seconds:.1f} s ({summary['workbooks_per_minute']} workbooks/min), query p95 "
        f"{summary['query_p95_seconds'] * 1000:.0f} ms"
    )
    return BenchResult(
        "retrieval",
        (
            "dataset",
            "question",
            "rank",
            "rank_columns",
            "rank_sheets",
            "rank_words",
            "column_recall_5",
            "top",
        ),
        rows,
        summary,
        headline,
        extra={"corpus": str(root), "skipped": report.skipped},
    )


def _multi(
    path: Path, library: Any, root: Path, runtime: Any, books: _Books, ask_library: Any
) -> dict[str, Any]:
    """Questions that need several datasets (lines: question, answer, type, datasets = file names):
    accuracy over the whole library, and the share whose every dataset is among the 5 best tables."""
    right = found_all = 0
    rows: list[dict[str, Any]] = []
    lines = list(_lines(path))
    for where, obj in lines:
        q = Question(str(obj["question"]), obj["answer"], str(obj.get("type", "category")), "multi", None, "")
        q.where = where
        want = {str(d) for d in obj.get("datasets", [])}
        top = library.search(q.question, k=5)
        got = {t.file.rsplit("/", 1)[-1] for t in top.tables}
        all_found = bool(want) and want <= got
        try:
            ans = ask_library(library, root, q.question, model=runtime, opener=books).answer
        except Exception as exc:  # one question's failure is one wrong answer
            ans = QAAnswer(q.question, "error", reason=f"{type(exc).__name__}: {exc}")
        ok = ans.status == "answered" and score(ans.value, q) is not None
        right += ok
        found_all += all_found
        rows.append(
            {
                "dataset": "+".join(sorted(want)),
                "question": q.question,
                "rank": None,
                "top": ", ".join(sorted(got)),
                "right_library": ok,
                "value": str(ans.value)[:60] if ans.status == "answered" else None,
                "gold": str(q.answer)[:60],
                "reason": ans.reason,
            }
        )
    n = len(lines)
    return {"questions": n, "accuracy": share(right, n), "recall_at_5": share(found_all, n), "rows": rows}


def _answer_both(
    q: Question, library: Any, root: Path, runtime: Any, books: _Books, ask_library: Any
) -> tuple[bool, bool, str | None]:
    """Whether the question is answered right over the whole library and over its own workbook."""
    err = None
    try:
        lib_ans = ask_library(library, root, q.question, model=runtime, opener=books).answer
    except GridSightError as exc:
        lib_ans = QAAnswer(q.question, "abstained", reason=str(exc))
    except Exception as exc:  # one question's bug must not lose the others
        err = f"{type(exc).__name__}: {exc}"
        lib_ans = QAAnswer(q.question, "error", reason=err)
    try:  # only scored questions come here: each has a path
        given = answer_question(books(cast(Path, q.path)), q.question, q.sheet, model=runtime)
    except GridSightError as exc:
        given = QAAnswer(q.question, "abstained", reason=str(exc))
    except Exception as exc:
        err = err or f"{type(exc).__name__}: {exc}"
        given = QAAnswer(q.question, "error", reason=str(exc))
    ok_lib = lib_ans.status == "answered" and score(lib_ans.value, q) is not None
    ok_given = given.status == "answered" and score(given.value, q) is not None
    return ok_lib, ok_given, err


@click.command("retrieval")
@corpus_options
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@click.option(
    "--db",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Build the index here (emptied first; default: a temporary folder, removed after).",
)
@model_options("none")
@click.option("--no-answer", is_flag=True, help="Retrieval only: skip end-to-end answering.")
@click.option(
    "--multi",
    "multi_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="JSONL of questions that need several datasets (question, answer, type, datasets).",
)
@click.option(
    "--answer-limit",
    type=click.IntRange(min=1),
    default=None,
    help="Answer end to end only the first N questions (retrieval is measured on all).",
)
def command(
    corpus: Path | None,
    out: Path | None,
    limit: int | None,
    db: Path | None,
    model: str,
    no_model: bool,
    no_answer: bool,
    answer_limit: int | None,
    multi_file: Path | None,
) -> None:
    """Index every file of a question folder as one library; recall@k, latency, end-to-end accuracy.

    The QA pipeline answers with its rules alone unless --model names a model.
    """
    emit(run(corpus, limit, db, model_choice(model, no_model), not no_answer, answer_limit, multi_file), out)

"""`gridsight bench extract`: schema-driven extraction on Schema-to-JSON style tables, Table-F1.

Corpus layout (root or its ``schema2json/`` folder): JSON-lines files, one table per line.

* ChemTables style (``*chem*.jsonl``): ``table_processed`` (or ``table_raw``) XML/HTML, gold records in
  ``cell_list_gold`` with ``cell_index`` ``CA(row,col)`` (0-based, spans expanded), ``type``, ``target``,
  ``treatment``, ``unit``.
* MLTables style (``*ml*.jsonl``): ``table_code`` LaTeX, ``text_chunk_selected`` context,
  ``table_numeric_cells`` ``[text, value, start, end, ...]``, gold records keyed by ``char_index``.

The schema given to the extractor is the paper's JSON templates for that kind of table (the only
supervision the task has); nothing is read from the gold records but the scores. Scoring: see
:mod:`gridsight.bench._tablef1`.
"""

from __future__ import annotations

import json
import time
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
    resolve_corpus,
    share,
)
from gridsight.bench._tablef1 import EMPTY, Counts, table_counts
from gridsight.errors import GridSightError, SourceNotFoundError
from gridsight.extract import (
    ExtractSchema,
    ModelStats,
    Record,
    from_latex,
    from_text,
    iter_records,
    parse_schema,
)

_CHEM_TYPES = ("IC50", "EC50", "CC50", "MIC", "GI50")
#: The paper's ChemTables templates (Table 6).
CHEM_TEMPLATES = [{"value": "xx", "type": "Other"}] + [
    {"value": "xx", "type": t, "unit": "xx", "treatment compound": "xx", "target compound": "xx"}
    for t in _CHEM_TYPES
]
#: The paper's MLTables templates (Table 6).
ML_TEMPLATES: list[dict[str, Any]] = [
    {"value": "xx", "type": "Other"},
    {
        "value": "xx",
        "type": "Data Stat.",
        "dataset": "xx",
        "attribute name": "xx",
        "sub-set/group name": "xx",
        "dataset features": {"xx": "yy"},
    },
    {
        "value": "xx",
        "type": "Hyper-parameter/Architecture",
        "model": "xx",
        "parameter/architecture name": "xx",
        "dataset": "xx",
    },
    {
        "value": "xx",
        "type": "Result",
        "task": "xx",
        "metric": "xx",
        "training data/set": "xx",
        "test data/set": "xx",
        "model/method": "xx",
        "model/method settings": {"xx": "yy"},
        "experimental settings": {"xx": "yy"},
    },
]


def _kind(row: dict[str, Any]) -> str:
    if "table_code" in row:
        return "latex"
    if "table_processed" in row or "table_raw" in row:
        return "markup"
    raise GridSightError("a table row has neither table_code (LaTeX) nor table_processed/table_raw (XML)")


def load_tables(root: Path) -> list[tuple[str, dict[str, Any]]]:
    """(file stem, row) for every table in the folder's JSON-lines files, files sorted by name."""
    files = sorted(root.glob("*.jsonl"))
    if not files:
        raise SourceNotFoundError(f"no *.jsonl table files in {root}")
    out = []
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                try:
                    out.append((path.stem, json.loads(line)))
                except ValueError as exc:
                    raise GridSightError(f"{path.name} line {n + 1} is not JSON: {exc}") from None
    return out


def gold_key(attr: str, keys: set[str]) -> str | None:
    """The gold field a schema attribute is scored against: the same name, the name with one of its
    ``a/b`` alternatives (``model/method settings`` -> ``model settings``), or its first word."""
    if attr in keys:
        return attr
    words = attr.split()
    for i, word in enumerate(words):
        if "/" in word:
            for alt in word.split("/"):
                cand = " ".join([*words[:i], alt, *words[i + 1 :]])
                if cand in keys:
                    return cand
    first = words[0] if words else attr
    return first if first in keys else None


def as_scored(
    rec: Record, schema: ExtractSchema, key: str, keys: set[str], fallback_scored: bool = False
) -> dict[str, Any] | None:
    """A record as the scorer reads it; None for the fallback type unless the gold scores it (the
    paper's MLTables scoring counts "Other" records, its ChemTables scoring drops them)."""
    if rec.type is None or (rec.type == schema.fallback and not fallback_scored):
        return None
    out: dict[str, Any] = {key: None, "type": rec.type}
    for name, value in rec.attributes.items():
        gk = gold_key(name, keys)
        if gk is not None:
            out[gk] = EMPTY if value is None else value
    return out


def _same_number(a: str, b: str) -> bool:
    a, b = (x.lstrip("+").replace("−", "-").replace("–", "-").replace(",", "") for x in (a, b))
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def _align_ml(records: list[Record], cells: list[list[Any]]) -> list[Any]:
    """Each record's gold ``char_index``, by walking the annotated numeric cells in the same order."""
    out: list[Any] = []
    j = 0
    for rec in records:
        found = None
        for k in range(j, min(j + 6, len(cells))):
            # an annotated cell is [value, raw text, value start, value end, ...]
            if _same_number(str(cells[k][0]), rec.value):
                found = k
                break
        if found is None:
            out.append(None)
            continue
        out.append([cells[found][2], cells[found][3]])
        j = found + 1
    return out


def score_table(
    row: dict[str, Any], model: Any, stats: ModelStats
) -> tuple[Counts, Counts, list[Record], dict[str, Any]]:
    kind = _kind(row)
    gold = row.get("cell_list_gold") or []
    if kind == "markup":
        schema = parse_schema(CHEM_TEMPLATES)
        grid = from_text(row.get("table_processed") or row["table_raw"], "xml")
        key, context = "cell_index", None
    else:
        schema = parse_schema(ML_TEMPLATES)
        grid = from_latex(row["table_code"])
        key, context = "char_index", (row.get("text_chunk_selected") or None)
    keys = {k for g in gold for k in g} - {key, "value"}
    fallback_scored = any(g.get("type") == schema.fallback for g in gold)
    try:
        records = list(iter_records(grid, schema, model=model, context=context, stats=stats))
    except GridSightError:
        records = []
    preds = []
    if kind == "markup":
        for rec in records:
            p = as_scored(rec, schema, key, keys, fallback_scored)
            if p is not None:
                p[key] = f"CA({rec.row},{rec.col})"
                preds.append(p)
        gold_rows = gold
    else:
        spans = _align_ml(records, row.get("table_numeric_cells") or [])
        for rec, span in zip(records, spans, strict=True):
            p = as_scored(rec, schema, key, keys, fallback_scored)
            if p is not None and span is not None:
                p[key] = json.dumps(span)
                preds.append(p)
        gold_rows = [{**g, key: json.dumps(list(g[key]))} for g in gold]
    by: dict[str, Counts] = {}
    fuzzy = table_counts(gold_rows, preds, key, exact=False, by=by)
    exact = table_counts(gold_rows, preds, key, exact=True)
    gold_cells = {str(g[key]) for g in gold_rows}
    found = {str(p[key]) for p in preds}
    info = {
        "gold": len(gold_rows),
        "predicted": len(preds),
        "cells": len(records),
        "typed_hit": len(gold_cells & found),
        "by_attribute": by,
    }
    return fuzzy, exact, records, info


def breakdown(by_file: dict[str, dict[str, Counts]]) -> dict[str, dict[str, dict[str, float | int]]]:
    """Per table file and attribute (``cell`` = records paired by cell): token-matched F1 and the
    counts summed over its tables, so a reader sees where the F1 is lost."""
    return {
        stem: {
            attr: {"f1": round(c.f1, 4), "tp": c.tp, "fp": c.fp, "fn": c.fn}
            for attr, c in sorted(attrs.items(), key=lambda kv: -(kv[1].fp + kv[1].fn))
        }
        for stem, attrs in sorted(by_file.items())
    }


def run(
    corpus: Path | None,
    model_name: str | None,
    limit: int | None,
    only: str | None,
    threads: int | None = None,
    start: int = 0,
) -> BenchResult:
    root = resolve_corpus(corpus, "schema2json")
    tables = load_tables(root)
    if only:
        tables = [(stem, row) for stem, row in tables if only.lower() in stem.lower()]
        if not tables:
            raise SourceNotFoundError(f"no table file in {root} has {only!r} in its name")
    if limit or start:
        by_file: dict[str, int] = {}
        kept = []
        for stem, row in tables:
            by_file[stem] = by_file.get(stem, 0) + 1
            if start < by_file[stem] <= start + (limit or len(tables)):
                kept.append((stem, row))
        tables = kept
    model = load_model(model_name, **({"n_threads": threads} if threads else {}))
    rows: list[dict[str, Any]] = []
    predictions: dict[str, list[dict[str, Any]]] = {}
    per_file: dict[str, list[tuple[float, float, float, ModelStats]]] = {}
    by_attribute: dict[str, dict[str, Counts]] = {}
    for stem, row in tables:
        stats = ModelStats()
        started = time.perf_counter()
        fuzzy, exact, records, info = score_table(row, model, stats)
        for attr, counts in info.pop("by_attribute").items():
            by_attribute.setdefault(stem, {}).setdefault(attr, Counts()).add(counts)
        predictions[f"{stem}/{row.get('id') or len(rows)}"] = [r.to_dict() for r in records]
        seconds = time.perf_counter() - started
        per_file.setdefault(stem, []).append((fuzzy.f1, exact.f1, seconds, stats))
        rows.append(
            {
                "file": stem,
                "table": str(row.get("id") or row.get("paper_table_id") or len(rows)),
                **info,
                "table_f1": round(fuzzy.f1, 4),
                "table_f1_exact": round(exact.f1, 4),
                "precision": round(fuzzy.precision, 4),
                "recall": round(fuzzy.recall, 4),
                "model_calls": stats.calls,
                "model_tokens": stats.prompt_tokens + stats.completion_tokens,
                "recoveries": stats.recoveries,
                "seconds": round(seconds, 2),
            }
        )
    n = len(rows)
    summary: dict[str, Any] = {
        "tables": n,
        "table_f1": share(sum(r["table_f1"] for r in rows), n),
        "table_f1_exact": share(sum(r["table_f1_exact"] for r in rows), n),
        "precision": share(sum(r["precision"] for r in rows), n),
        "recall": share(sum(r["recall"] for r in rows), n),
        "seconds_per_table": round(sum(r["seconds"] for r in rows) / n, 2) if n else 0.0,
        "model_tokens_per_table": round(sum(r["model_tokens"] for r in rows) / n, 1) if n else 0.0,
        "model_calls": sum(r["model_calls"] for r in rows),
        "recoveries": sum(r["recoveries"] for r in rows),
        "model": model_name or "none",
        "limit_per_file": limit or 0,
        "start_per_file": start,
    }
    for stem, items in sorted(per_file.items()):
        k = len(items)
        summary[f"{stem}_tables"] = k
        summary[f"{stem}_table_f1"] = share(sum(i[0] for i in items), k)
        summary[f"{stem}_table_f1_exact"] = share(sum(i[1] for i in items), k)
    summary["f1_by_attribute"] = breakdown(by_attribute)
    headline = (
        f"extract: Table-F1 {summary['table_f1'] * 100:.1f}"
        f" (exact {summary['table_f1_exact'] * 100:.1f}) over {n} tables, model {summary['model']},"
        f" {summary['seconds_per_table']:.1f} s/table"
    )
    return BenchResult(
        "extract",
        (
            "file",
            "table",
            "cells",
            "gold",
            "predicted",
            "table_f1",
            "table_f1_exact",
            "model_tokens",
            "recoveries",
            "seconds",
        ),
        rows,
        summary,
        headline,
        extra={"corpus": str(root), "records": predictions},
    )


@click.command("extract")
@corpus_options
@model_options("default")
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="Only the first N tables of each file."
)
@click.option("--only", default=None, help="Only the table files whose name holds this text (e.g. chem).")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="CPU threads for the model.")
@click.option("--start", type=click.IntRange(min=0), default=0, help="Skip the first N tables of each file.")
def command(
    corpus: Path | None,
    out: Path | None,
    model: str,
    no_model: bool,
    limit: int | None,
    only: str | None,
    threads: int | None,
    start: int,
) -> None:
    """Extract records from every table and score them (Table-F1, exact and token-thresholded)."""
    emit(run(corpus, model_choice(model, no_model), limit, only, threads, start), out)

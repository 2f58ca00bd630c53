"""`gridsight extract PATH --schema SCHEMA.json [--range R] [--out records.jsonl | --to-sheet NAME]`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from gridsight.errors import ExtractInputError, ExtractSchemaError, GridSightError, SourceNotFoundError
from gridsight.extract._extract import iter_records
from gridsight.extract._model import ModelStats
from gridsight.extract._records import Record
from gridsight.extract._schema import parse_schema
from gridsight.extract._table import TableGrid, from_sheet, from_text

#: Files read as table text rather than as workbooks.
TEXT_SUFFIXES = {".html": "html", ".htm": "html", ".xml": "xml", ".tex": "latex", ".txt": "csv"}
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
NO_MODEL = ("none", "off", "no", "")


def _read_table(path: Path, rng: str | None, sheet: str | None, fmt: str | None) -> tuple[TableGrid, Any]:
    """The table grid and, for a workbook, the workbook model it came from."""
    if not path.is_file():
        raise SourceNotFoundError(f"{path} does not exist")
    kind = fmt or TEXT_SUFFIXES.get(path.suffix.lower())
    if kind is None and path.suffix.lower() in (".csv", ".tsv") and not rng and not sheet:
        kind = "csv"
    if kind is not None:
        if rng:
            raise ExtractInputError("--range applies to workbooks; a table given as text is read whole")
        try:
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            raise ExtractInputError(f"{path.name} is not UTF-8 text") from None
        return from_text(text, kind), None
    from gridsight.commands._shared import load
    from gridsight.grid import Range

    wb = load(path)
    area = Range.parse(rng) if rng else None
    name = (area.sheet if area is not None else None) or sheet
    ws = wb.sheet(name) if name else wb.sheets[0]
    return from_sheet(ws, area.with_sheet(None) if area is not None else None), wb


def _load_model(model: str, threads: int | None) -> Any:
    if model.strip().lower() in NO_MODEL:
        return None
    from gridsight.llm import load_runtime

    kwargs: dict[str, Any] = {"n_threads": threads} if threads else {}
    return load_runtime(None if model == "default" else model, **kwargs)


def _write_jsonl(out: Path, records: list[Record]) -> None:
    """All records or nothing: a temporary file renamed over the target."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec.to_dict(), ensure_ascii=False) + "\n")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def _to_sheet(path: Path, wb: Any, records: list[Record], name: str, dry_run: bool) -> dict[str, Any]:
    from gridsight.edits import Journal, apply_plan, fingerprint, preview_writes
    from gridsight.extract._write import records_plan
    from gridsight.paths import data_dir

    if wb is None or path.suffix.lower() not in WORKBOOK_SUFFIXES:
        raise ExtractInputError("--to-sheet writes into an .xlsx/.xlsm workbook; use --out for other inputs")
    plan, model = records_plan(records, wb, name)
    preview = preview_writes(plan.writes, model)
    summary = {"sheet": plan.new_sheets[0], "cells": len(plan.writes), "ok": preview.ok, "plan_id": plan.id}
    if dry_run or not preview.ok:
        return {**summary, "applied": False}
    plan.status, plan.preview_fingerprint = "previewed", fingerprint(path)
    journal = Journal(data_dir() / "journal")
    applied = apply_plan(plan, preview, model, journal, str(path.resolve()), path=path)
    return {**summary, "applied": True, "backup": applied.result.get("backup")}


def _undo(path: Path) -> dict[str, Any]:
    from gridsight.commands._shared import load
    from gridsight.edits import Journal, undo_last
    from gridsight.paths import data_dir

    wb = load(path)
    done = undo_last(wb, Journal(data_dir() / "journal"), str(path.resolve()), path=path)
    return done.result


@click.command("extract")
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--schema",
    "schema_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="JSON Schema or templates.",
)
@click.option(
    "--range", "rng", default=None, help="The table's range, e.g. 'Sheet1!A1:F20' (default: the used range)."
)
@click.option("--sheet", default=None, help="The sheet (default: the first).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "xml", "latex", "csv"]),
    default=None,
    help="Read PATH as table text.",
)
@click.option("--context", default=None, help="Text around the table (a paragraph) the model may read.")
@click.option(
    "--model",
    default="none",
    show_default=True,
    help="'default', a model NAME or GGUF PATH, or 'none' (rules).",
)
@click.option("--threads", type=click.IntRange(min=1), default=None, help="CPU threads for the model.")
@click.option(
    "--out", type=click.Path(path_type=Path, dir_okay=False), default=None, help="Write records.jsonl here."
)
@click.option(
    "--to-sheet", "to_sheet", default=None, help="Write the records to this new sheet (an edit plan)."
)
@click.option("--dry-run", is_flag=True, help="With --to-sheet: preview the plan, write nothing.")
@click.option("--undo", is_flag=True, help="Undo the last plan written to PATH (e.g. a --to-sheet) and exit.")
def command(
    path: Path,
    schema_path: Path | None,
    rng: str | None,
    sheet: str | None,
    fmt: str | None,
    context: str | None,
    model: str,
    threads: int | None,
    out: Path | None,
    to_sheet: str | None,
    dry_run: bool,
    undo: bool,
) -> None:
    """Turn a table into JSON records that follow a schema: one record per numeric cell."""
    if undo:
        click.echo(json.dumps(_undo(path), ensure_ascii=False))
        return
    if schema_path is None:
        raise ExtractSchemaError("give the extraction schema with --schema SCHEMA.json")
    if out is not None and to_sheet is not None:
        raise click.UsageError("give --out or --to-sheet, not both")
    try:
        schema_text = schema_path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExtractSchemaError(f"cannot read the schema {schema_path}: {exc}") from None
    schema = parse_schema(schema_text)
    grid, wb = _read_table(path, rng, sheet, fmt)
    runtime = _load_model(model, threads)
    stats = ModelStats()
    records: list[Record] = []
    for rec in iter_records(grid, schema, model=runtime, context=context, stats=stats):
        records.append(rec)
        if out is None and to_sheet is None:
            click.echo(json.dumps(rec.to_dict(), ensure_ascii=False))
    if out is not None:
        _write_jsonl(out, records)
        click.echo(f"wrote {len(records)} records to {out}", err=True)
    elif to_sheet is not None:
        result = _to_sheet(path, wb, records, to_sheet, dry_run)
        click.echo(json.dumps(result, ensure_ascii=False))
        if not result["applied"] and not dry_run:
            raise GridSightError("the edit plan did not preview cleanly; nothing was written")

"""`gridsight index FOLDER [--db DIR]` and `gridsight find FOLDER "question"`: the folder index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option
from gridsight.retrieval._index import FileEvent, IndexReport, build_index

db_option = click.option(
    "--db",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The index folder (default: one per folder in GridSight's data folder).",
)


def index_folder(
    folder: Path,
    db: Path | None,
    *,
    quiet: bool = False,
    console: Console | None = None,
    embedder: Any = None,
) -> IndexReport:
    """Build or update the index with a progress bar (files and cells) on stderr (or ``console``)."""
    err = console or Console(stderr=True)
    progress = Progress(
        TextColumn("indexing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files, {task.fields[cells]:,} cells"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    )
    task = progress.add_task("files", total=None, cells=0)
    cells = 0

    def tick(event: FileEvent) -> None:
        nonlocal cells
        cells += event.cells
        progress.update(task, completed=event.done, total=event.total, cells=cells)

    with progress:
        return build_index(folder, db, on_file=tick, embedder=embedder)


@click.command("index")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@db_option
@format_option
def command(folder: Path, db: Path | None, fmt: str) -> None:
    """Index every spreadsheet under FOLDER (tables, column cards) for questions across files."""
    report = index_folder(folder, db)
    if fmt == "json":
        echo_json(report.to_dict())
        return
    console = stdout_console()
    console.print(
        Text(
            f"{len(report.indexed)} indexed, {len(report.unchanged)} unchanged, "
            f"{len(report.removed)} removed, {len(report.skipped)} skipped; "
            f"{report.tables} new tables, {report.columns} new columns "
            f"in {report.seconds:.1f} s"
        ),
        soft_wrap=True,
    )
    for file, reason in sorted(report.skipped.items()):
        console.print(Text(f"skipped {file}: {reason}"), soft_wrap=True)
    if report.rebuilt:
        console.print(Text("the index was written by another version and has been rebuilt"), soft_wrap=True)
    console.print(Text(f"index: {report.db} ({report.size_bytes / 1e6:.1f} MB)"), soft_wrap=True)


def ask_folder_cli(folder: Path, question: str, db: Path | None, use_model: bool, fmt: str) -> None:
    """`gridsight ask FOLDER "question"`: retrieval picks the tables, the QA pipeline answers."""
    from gridsight.errors import SourceNotFoundError
    from gridsight.retrieval._answer import ask_library
    from gridsight.retrieval._index import default_db
    from gridsight.retrieval._search import Library
    from gridsight.retrieval._store import VERSION_FILE

    if not folder.is_dir():
        raise SourceNotFoundError(f"folder {folder} does not exist")
    db = db or default_db(folder)
    if not (db / VERSION_FILE).is_file():
        index_folder(folder, db)
    runtime = None
    if use_model:
        from gridsight.llm import load_runtime

        runtime = load_runtime()
    result = ask_library(Library(db), folder, question, model=runtime)
    ans = result.answer
    if fmt == "json":
        echo_json(result.to_dict())
    else:
        console = stdout_console()
        if ans.status != "answered":
            console.print(Text(f"cannot answer: {ans.reason}"), soft_wrap=True)
        else:
            unit = f" ({ans.unit})" if ans.unit else ""
            console.print(Text(f"{ans.display}{unit}", style="bold"), soft_wrap=True)
            console.print(Text(ans.explanation), soft_wrap=True)
            how = f"query: {ans.query}" if ans.route == "sql" else f"formula: {ans.formula}"
            console.print(
                Text(f"{how}  route: {ans.route}  confidence: {ans.confidence:.2f}"), soft_wrap=True
            )
            where = ", ".join(f"{e['file']} {e['sheet']}!{e['range']}" for e in ans.evidence)
            console.print(Text(f"evidence: {where}"), soft_wrap=True)
    if ans.status != "answered":
        raise click.exceptions.Exit(1)

"""Options and helpers the file commands share: --format, loading with a progress bar."""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from gridsight.grid import CellValue, Workbook
from gridsight.sources import open_workbook
from gridsight.sources._base import source_for_path
from gridsight.sources.xlsx import XlsxSource

F = TypeVar("F", bound=Callable[..., Any])

format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Print a readable table or JSON.",
)


def path_argument(func: F) -> F:
    return click.argument("path", type=click.Path(path_type=Path, dir_okay=True))(func)


def load(
    path: Path, *, sheets: Sequence[str] | None = None, values_only: bool = False, encoding: str | None = None
) -> Workbook:
    """Read a file, with a transient progress line on stderr for large xlsx reads."""
    info = source_for_path(path, values_only=values_only)
    if info.name != "xlsx":
        return open_workbook(path, sheets=sheets, values_only=values_only, encoding=encoding)
    err = Console(stderr=True)
    start = time.monotonic()
    progress = Progress(
        SpinnerColumn(),
        TextColumn("reading {task.description}"),
        TextColumn("{task.completed:,} cells"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    task = progress.add_task(path.name, total=None)
    shown = False

    def tick(_sheet: str, count: int) -> None:
        nonlocal shown
        if not shown and time.monotonic() - start > 1.0:  # only for reads that take a while
            progress.start()
            shown = True
        progress.update(task, completed=count)

    try:
        return XlsxSource(path, progress=tick).read(sheets)
    finally:
        if shown:
            progress.stop()


def json_value(v: CellValue) -> Any:
    if isinstance(v, dt.datetime | dt.date | dt.time):
        return v.isoformat()
    return v


def echo_json(doc: Any) -> None:
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False, default=str))

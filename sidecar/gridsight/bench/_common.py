"""What every benchmark shares: corpus location, the output contract, the printed table.

Contract: the JSON written to ``--out`` has a top-level ``summary`` object (snake_case keys, plain
numbers, shares in 0..1); the printed output is a readable table whose last line is the headline.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from gridsight._console import stdout_console
from gridsight.errors import SourceNotFoundError

F = TypeVar("F", bound=Callable[..., Any])


def default_corpus() -> Path:
    """``$GRIDSIGHT_CORPUS``, else ``../shared/corpus`` from the working directory or the repo."""
    env = os.environ.get("GRIDSIGHT_CORPUS")
    if env:
        return Path(env)
    here = Path.cwd() / ".." / "shared" / "corpus"
    if here.is_dir():
        return here.resolve()
    repo = Path(__file__).resolve().parents[3]
    return (repo / ".." / "shared" / "corpus").resolve()


def resolve_corpus(corpus: Path | None, subfolder: str) -> Path:
    """Accept either the corpus root or its ``subfolder`` (e.g. ``tables``) itself."""
    root = corpus or default_corpus()
    if not root.is_dir():
        raise SourceNotFoundError(f"corpus folder {root} does not exist")
    if (root / subfolder).is_dir():
        return root / subfolder
    return root


def corpus_options(func: F) -> F:
    """Adds the two options every benchmark takes: --corpus DIR and --out FILE.json."""
    func = click.option(
        "--out",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the JSON results here.",
    )(func)
    func = click.option(
        "--corpus",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Corpus folder (default: ../shared/corpus).",
    )(func)
    return func


@dataclass
class BenchResult:
    """What a benchmark returns: rows for the table, the summary contract, a headline line."""

    name: str
    columns: Sequence[str]
    rows: list[dict[str, Any]]
    summary: dict[str, Any]
    headline: str
    extra: dict[str, Any] = field(default_factory=dict)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.3f}" if abs(v) < 1000 else f"{v:,.0f}"
    return "" if v is None else str(v)


def emit(result: BenchResult, out: Path | None, console: Console | None = None) -> None:
    """Print the table, write the JSON, and end with the headline line."""
    console = console or stdout_console()
    table = Table(title=f"gridsight bench {result.name}")
    for col in result.columns:
        table.add_column(col, overflow="fold")
    for row in result.rows:
        table.add_row(*(_fmt(row.get(c)) for c in result.columns))
    console.print(table)
    for key, value in result.summary.items():
        console.print(f"  {key}: {_fmt(value)}", highlight=False)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        doc = {"benchmark": result.name, "summary": result.summary, "rows": result.rows, **result.extra}
        tmp = out.with_suffix(out.suffix + ".tmp")
        tmp.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
        tmp.replace(out)
        console.print(f"  wrote {out}", highlight=False)
    console.print(result.headline, highlight=False, soft_wrap=True)


def peak_rss_mb(children: bool = False) -> float:
    """Peak resident memory of this process (or of its finished children), in MB."""
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    kb = resource.getrusage(who).ru_maxrss
    return kb / 1024.0 if sys.platform != "darwin" else kb / 1024.0 / 1024.0


def run_json_child(argv: list[str], *, timeout: int, what: str) -> dict[str, Any]:
    """Run a measurement in a fresh interpreter (so its time and peak memory are its own) and
    read the JSON object it prints last."""
    import subprocess

    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        from gridsight.errors import GridSightError

        raise GridSightError(f"{what} failed: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]

"""What every benchmark shares: corpus location, the output contract, the printed table.

Contract: the JSON written to ``--out`` has a top-level ``summary`` object (snake_case keys, plain
numbers, shares in 0..1); the printed output is a readable table whose last line is the headline.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape
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
        table.add_row(*(escape(_fmt(row.get(c))) for c in result.columns))
    console.print(table)
    for key, value in result.summary.items():
        console.print(f"  {key}: {escape(_fmt(value))}", highlight=False)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        doc = {"benchmark": result.name, "summary": result.summary, "rows": result.rows, **result.extra}
        tmp = out.with_suffix(out.suffix + ".tmp")
        tmp.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
        tmp.replace(out)
        console.print(f"  wrote {out}", highlight=False)
    console.print(escape(result.headline), highlight=False, soft_wrap=True)


def peak_rss_mb(children: bool = False) -> float:
    """Peak resident memory of this process (or of its finished children), in MB.

    Uses ``resource`` where it exists (POSIX); elsewhere reads ``VmHWM`` from /proc for this process,
    and returns 0.0 when neither is available (Windows), so that this module imports everywhere.
    """
    try:
        import resource
    except ImportError:
        resource = None  # type: ignore[assignment]
    if resource is not None:
        who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
        kb = resource.getrusage(who).ru_maxrss
        return kb / 1024.0 if sys.platform != "darwin" else kb / 1024.0 / 1024.0
    if not children:
        try:
            for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
        except (OSError, ValueError, IndexError):
            pass
    return 0.0


def p95(seconds: Sequence[float]) -> float:
    """The 95th percentile (nearest rank) of per-question times; 0.0 for none."""
    if not seconds:
        return 0.0
    ordered = sorted(seconds)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def share(part: float, whole: float) -> float:
    return round(part / whole, 4) if whole else 0.0


#: --model values that mean the rules alone.
NO_MODEL = ("none", "off", "no")


def model_options(default: str) -> Callable[[F], F]:
    """``--model default|NAME|PATH|none`` and ``--no-model`` (an alias of ``--model none``)."""

    def deco(func: F) -> F:
        func = click.option("--no-model", is_flag=True, help="Rules alone: the same as --model none.")(func)
        func = click.option(
            "--model",
            default=default,
            show_default=True,
            help="'default' (the bundled model), a model NAME or GGUF PATH given to gridsight.llm."
            "load_runtime, or 'none' for the rules alone.",
        )(func)
        return func

    return deco


def model_choice(model: str | None, no_model: bool = False) -> str | None:
    """The --model value as ``run`` takes it: None for the rules alone."""
    if no_model or model is None or model.strip().lower() in NO_MODEL or not model.strip():
        return None
    return model.strip()


def load_model(model: str | None, **kwargs: Any) -> Any:
    """The runtime for ``model`` ("default", a NAME or a PATH); None for None. Any failure to load is a
    ClickException that says how to run without a model. ``kwargs`` go to the runtime (``n_threads``)."""
    if model is None:
        return None
    try:
        from gridsight.llm import load_runtime

        return load_runtime(None if model == "default" else model, **kwargs)
    except Exception as exc:  # a missing file, a damaged one, llama-cpp-python absent: all say the same
        raise click.ClickException(
            f"cannot load the model {model!r}: {exc} (use --model none, or --no-model, for the rules alone)"
        ) from None


def range_inside(text: str, workbook: Any, default_sheet: str | None) -> bool:
    """``text`` (``A1:B2`` or ``Sheet!A1:B2``) names a sheet of ``workbook`` and lies in its used range."""
    from gridsight.errors import GridSightError
    from gridsight.grid import Range

    try:
        rng = Range.parse(text)
        name = rng.sheet or default_sheet
        sheet = workbook.sheet(name) if name is not None else workbook.sheets[0]
    except (GridSightError, KeyError, ValueError, IndexError):
        return False
    used = sheet.used_range
    if used is None:
        return False
    rows_in = used.top <= rng.top and rng.bottom <= used.bottom
    return rows_in and used.left <= rng.left and rng.right <= used.right


def run_json_child(argv: list[str], *, timeout: int, what: str) -> dict[str, Any]:
    """Run a measurement in a fresh interpreter (so its time and peak memory are its own) and
    read the JSON object it prints last."""
    import subprocess

    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        from gridsight.errors import GridSightError

        raise GridSightError(f"{what} failed: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])

"""`gridsight bench read`: load every workbook of a corpus, then a generated 1M-cell workbook.

Each 1M-cell read runs in a fresh subprocess so its peak RSS is its own (targets: values-only
< 3 s, with formats < 30 s, peak RSS < 1 GB).
"""

from __future__ import annotations

import datetime as dt
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from gridsight.bench._common import BenchResult, corpus_options, emit, resolve_corpus, run_json_child
from gridsight.errors import GridSightError
from gridsight.sources import open_workbook

SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods", ".csv", ".tsv")


def corpus_files(root: Path) -> list[Path]:
    """Every spreadsheet under the folder, in a stable order."""
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SPREADSHEET_SUFFIXES)


def make_big_workbook(path: Path, cells: int = 1_000_000, cols: int = 20) -> Path:
    """A workbook of ``cells`` cells: numbers, text, dates, booleans, formulas, formats, a bold header."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Data")
    header = []
    for j in range(cols):
        c = WriteOnlyCell(ws, value=f"col{j + 1}")
        c.font = Font(bold=True)
        header.append(c)
    ws.append(header)
    rows = max(cells // cols - 1, 1)
    base = dt.date(2020, 1, 1)
    for i in range(1, rows + 1):
        d = WriteOnlyCell(ws, value=base + dt.timedelta(days=i % 1000))
        d.number_format = "yyyy-mm-dd"
        row: list[Any] = [i, i * 1.5, f"item {i % 100}", d, i % 2 == 0]
        row += [i * k for k in range(5, cols - 1)]
        row.append(f"=A{i + 1}*2")
        ws.append(row[:cols])
    wb.save(path)
    return path


_CHILD = """
import json, resource, sys, time
from gridsight.sources import open_workbook
t = time.perf_counter()
wb = open_workbook(sys.argv[1], values_only=sys.argv[2] == "values")
secs = time.perf_counter() - t
cells = sum(s.shape[0] * s.shape[1] for s in wb)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": secs, "cells": cells, "rss_mb": rss}))
"""


def measure_in_child(path: Path, mode: str) -> dict[str, Any]:
    """Load ``path`` in a fresh interpreter; its own time, cell count and peak RSS."""
    return run_json_child(
        [sys.executable, "-c", _CHILD, str(path), mode], timeout=600, what=f"{mode} read of {path.name}"
    )


def run(corpus: Path | None, cells: int) -> BenchResult:
    root = resolve_corpus(corpus, "tables")
    rows: list[dict[str, Any]] = []
    failed = 0
    total = 0.0
    for path in corpus_files(root):
        rel = str(path.relative_to(root))
        t = time.perf_counter()
        try:
            wb = open_workbook(path)
            secs = time.perf_counter() - t
            ncells = sum(s.n_values for s in wb)
            row = {"file": rel, "sheets": len(wb), "cells": ncells, "seconds": secs, "error": None}
            if path.suffix.lower() in (".xlsx", ".xlsm"):
                t2 = time.perf_counter()
                open_workbook(path, values_only=True)
                row["values_only_s"] = time.perf_counter() - t2
        except GridSightError as exc:
            secs = time.perf_counter() - t
            failed += 1
            row = {"file": rel, "sheets": 0, "cells": 0, "seconds": secs, "error": str(exc)}
        total += secs
        rows.append(row)
    summary: dict[str, Any] = {"files": len(rows), "failed": failed, "seconds_total": round(total, 4)}
    big: dict[str, Any] = {}
    if cells > 0:
        status = Console(stderr=True).status("")
        with tempfile.TemporaryDirectory(prefix="gridsight-bench-") as tmp, status:
            status.update(f"writing a {cells:,}-cell workbook")
            path = make_big_workbook(Path(tmp) / "big.xlsx", cells)
            for mode in ("values", "formats"):
                status.update(f"reading it ({mode})")
                big[mode] = measure_in_child(path, mode)
        for mode in ("values", "formats"):
            rows.append(
                {
                    "file": f"(generated {cells:,} cells, {mode})",
                    "sheets": 1,
                    "cells": big[mode]["cells"],
                    "seconds": big[mode]["seconds"],
                    "rss_mb": big[mode]["rss_mb"],
                    "error": None,
                }
            )
        summary["million_cells_values_s"] = round(big["values"]["seconds"], 3)
        summary["million_cells_formats_s"] = round(big["formats"]["seconds"], 3)
        summary["peak_rss_mb"] = round(max(big["values"]["rss_mb"], big["formats"]["rss_mb"]), 1)
    else:
        summary.update(million_cells_values_s=None, million_cells_formats_s=None, peak_rss_mb=None)
    summary["generated_cells"] = cells
    headline = f"read: {len(rows) - (2 if cells else 0)} files, {failed} failed, {total:.2f} s total"
    if cells:
        headline += (
            f"; {cells:,} cells: values-only {summary['million_cells_values_s']:.2f} s, "
            f"with formats {summary['million_cells_formats_s']:.2f} s, "
            f"peak RSS {summary['peak_rss_mb']:.0f} MB"
        )
    return BenchResult(
        "read",
        ("file", "sheets", "cells", "seconds", "values_only_s", "rss_mb", "error"),
        rows,
        summary,
        headline,
    )


@click.command("read")
@corpus_options
@click.option(
    "--cells",
    type=click.IntRange(min=0),
    default=1_000_000,
    show_default=True,
    help="Size of the generated workbook (0 skips it).",
)
def command(corpus: Path | None, out: Path | None, cells: int) -> None:
    """Load time of every corpus workbook, and of a generated 1M-cell workbook (both readers)."""
    emit(run(corpus, cells), out)

"""`gridsight recalc PATH [--sheet S]`: recalculate every formula and compare with Excel's saved results."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option, load, path_argument
from gridsight.formula._platform import MAC_EXCEL
from gridsight.formula._recalc import CELL_BUDGET_S, WORKBOOK_BUDGET_S, CellCheck, RecalcResult, recalculate
from gridsight.sources._xlsx_arrays import Iteration, read_application, read_array_formulas, read_iteration
from gridsight.sources._xlsx_links import read_external_links
from gridsight.sources._xlsx_rows import read_hidden_rows


def recalc_file(
    path: Path,
    *,
    sheets: list[str] | None = None,
    budget_s: float = WORKBOOK_BUDGET_S,
    cell_budget_s: float = CELL_BUDGET_S,
) -> RecalcResult:
    """Read a workbook (with its array-formula areas and the platform that saved it) and recalculate it."""
    wb = load(path)
    package = path.suffix.lower() in (".xlsx", ".xlsm", ".xltx", ".xltm")
    arrays = read_array_formulas(path) if package else {}
    mac = package and read_application(path) == MAC_EXCEL
    iteration = read_iteration(path) if package else Iteration()
    links = read_external_links(path) if package else {}
    hidden = read_hidden_rows(path) if package else {}
    return recalculate(
        wb,
        sheets=sheets,
        arrays=arrays,
        budget_s=budget_s,
        cell_budget_s=cell_budget_s,
        mac=mac,
        iteration=iteration,
        links=links,
        hidden=hidden,
    )


def _shown(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.10g}"
    return str(v)


def grouped(result: RecalcResult) -> dict[str, list[CellCheck]]:
    """Cells that are not in agreement, by ``status: kind``, largest group first."""
    groups: dict[str, list[CellCheck]] = defaultdict(list)
    for c in result.cells:
        if c.status != "agree":
            groups[f"{c.status}: {c.kind}" if c.kind else c.status].append(c)
    return dict(sorted(groups.items(), key=lambda kv: -len(kv[1])))


def print_result(result: RecalcResult, name: str, limit: int) -> None:
    console = stdout_console()
    s = result.summary()
    for kind, cells in grouped(result).items():
        table = Table(title=f"{kind} ({len(cells)})", title_justify="left")
        for col in ("cell", "formula", "Excel", "GridSight"):
            table.add_column(col, overflow="fold")
        for c in cells[:limit]:
            table.add_row(
                escape(f"{c.sheet}!{c.cell}"),
                escape(c.formula),
                escape(_shown(c.excel)),
                escape(_shown(c.ours)),
            )
        console.print(table)
        if len(cells) > limit:
            console.print(f"  ... {len(cells) - limit} more", highlight=False)
    stopped = f"; stopped: {s['stopped']}" if s["stopped"] else ""
    console.print(
        escape(
            f"{name}: {s['agreed']}/{s['formulas']} formulas agree with Excel ({s['agreement']:.1%}), "
            f"{s['differ']} differ, {s['unsupported']} unsupported; from saved inputs "
            f"{s['saved_inputs_agreed']}/{s['formulas']}; {s['circular']} circular, "
            f"{s['volatile']} volatile, {s['external']} external not counted ({s['seconds']:.1f} s{stopped})"
        ),
        highlight=False,
        soft_wrap=True,
    )


@click.command("recalc")
@path_argument
@click.option("--sheet", "sheets", multiple=True, help="Only this sheet's formulas (repeatable).")
@click.option(
    "--budget",
    type=click.FloatRange(min=0.1),
    default=WORKBOOK_BUDGET_S,
    show_default=True,
    help="Seconds for the whole workbook; cells left after it are reported as skipped.",
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=20, show_default=True, help="Cells shown per kind."
)
@format_option
def command(path: Path, sheets: tuple[str, ...], budget: float, limit: int, fmt: str) -> None:
    """Recalculate every formula from the saved values of the other cells and compare each with the
    result Excel saved; differences are listed by kind."""
    result = recalc_file(path, sheets=list(sheets) or None, budget_s=budget)
    if fmt == "json":
        echo_json(
            {
                "file": str(path),
                "summary": result.summary(),
                "cells": [c.to_dict() for c in result.cells if c.status != "agree"],
            }
        )
        return
    print_result(result, path.name, limit)

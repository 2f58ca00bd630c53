"""`gridsight info PATH`: sheets, used ranges, and counts of what each sheet holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option, load, path_argument
from gridsight.grid import Sheet, Workbook


def sheet_summary(sheet: Sheet) -> dict[str, Any]:
    """The figures `info` reports for one sheet."""
    used = sheet.used_range
    return {
        "name": sheet.name,
        "used_range": used.ref() if used else None,
        "rows": used.height if used else 0,
        "columns": used.width if used else 0,
        "values": sheet.n_values,
        "formulas": sheet.n_formulas,
        "merges": len(sheet.merges),
        "formatted": sheet.n_number_formats,
        "styled": sheet.n_styled,
        "number_formats": [f for f in sheet.number_formats if f != "General"],
    }


def workbook_summary(wb: Workbook, path: Path | None = None) -> dict[str, Any]:
    return {
        "file": str(path) if path else wb.name,
        "sheets": [sheet_summary(s) for s in wb],
        "date1904": wb.date1904,
    }


def print_summary(doc: dict[str, Any]) -> None:
    console = stdout_console()
    table = Table(title=Text(doc["file"]), title_justify="left")
    for col, justify in (
        ("sheet", "left"),
        ("used range", "left"),
        ("values", "right"),
        ("formulas", "right"),
        ("merges", "right"),
        ("formatted", "right"),
        ("styled", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for s in doc["sheets"]:
        table.add_row(
            Text(s["name"]),
            s["used_range"] or "(empty)",
            f"{s['values']:,}",
            f"{s['formulas']:,}",
            f"{s['merges']:,}",
            f"{s['formatted']:,}",
            f"{s['styled']:,}",
        )
    console.print(table)


@click.command("info")
@path_argument
@click.option("--sheet", "sheets", multiple=True, help="Only this sheet (repeatable).")
@click.option("--values-only", is_flag=True, help="Fast read without formats, styles or formulas.")
@click.option("--encoding", default=None, help="Text encoding of a CSV (default: sniffed).")
@format_option
def command(path: Path, sheets: tuple[str, ...], values_only: bool, encoding: str | None, fmt: str) -> None:
    """Sheets, used ranges and counts of values, formulas, merges and formats."""
    wb = load(path, sheets=sheets or None, values_only=values_only, encoding=encoding)
    doc = workbook_summary(wb, path)
    if fmt == "json":
        echo_json(doc)
    else:
        print_summary(doc)

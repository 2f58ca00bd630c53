"""`gridsight show PATH --sheet S --range R`: a range as a grid, as Excel would display it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option, json_value, load, path_argument
from gridsight.errors import RangeSyntaxError
from gridsight.grid import Range, Sheet, Workbook, col_to_letters, format_value

#: Largest area `show` prints; a bigger request is clipped with a note (it is a viewer).
MAX_SHOW_ROWS = 500
MAX_SHOW_COLS = 60


def resolve_area(wb: Workbook, sheet_name: str | None, range_text: str | None) -> tuple[Sheet, Range | None]:
    """The sheet and the area to show: a qualified range wins over --sheet; whole rows/columns
    are clipped to the used range."""
    rng = Range.parse(range_text) if range_text else None
    name = (rng.sheet if rng is not None and rng.sheet else None) or sheet_name
    sheet = wb.sheet(name) if name else wb.sheets[0] if wb.sheets else None
    if sheet is None:
        raise RangeSyntaxError("the workbook has no sheets")
    used = sheet.used_range
    if rng is None:
        return sheet, used
    if rng.is_whole_columns or rng.is_whole_rows:
        return sheet, rng.intersect(used) if used else None
    return sheet, rng.with_sheet(sheet.name)


def grid_doc(sheet: Sheet, area: Range | None, formulas: bool) -> dict[str, Any]:
    if area is None:
        return {"sheet": sheet.name, "range": None, "values": [], "formulas": {}, "clipped": False}
    clipped = area.height > MAX_SHOW_ROWS or area.width > MAX_SHOW_COLS
    shown = Range(
        area.top,
        area.left,
        min(area.bottom, area.top + MAX_SHOW_ROWS - 1),
        min(area.right, area.left + MAX_SHOW_COLS - 1),
        sheet.name,
    )
    values = [[json_value(v) for v in row] for row in sheet.values(shown)]
    fdict = {c.address: c.formula for c in sheet.iter_cells(shown) if c.formula} if formulas else {}
    return {
        "sheet": sheet.name,
        "range": shown.ref(),
        "values": values,
        "formulas": fdict,
        "clipped": clipped,
        "requested": area.ref(),
    }


@click.command("show")
@path_argument
@click.option("--sheet", default=None, help="Sheet name (default: the first sheet).")
@click.option("--range", "range_text", default=None, help="A1 range such as B2:D9, A:C or 'My Sheet'!A1:B2.")
@click.option("--formulas", is_flag=True, help="Show formula text instead of the values it produced.")
@click.option("--values-only", is_flag=True, help="Fast read without formats, styles or formulas.")
@format_option
def command(
    path: Path, sheet: str | None, range_text: str | None, formulas: bool, values_only: bool, fmt: str
) -> None:
    """Print a range of a sheet as a grid (default: its used range)."""
    sheets = None
    if sheet and not (range_text and "!" in range_text):
        sheets = [sheet]
    wb = load(path, sheets=sheets, values_only=values_only)
    sh, area = resolve_area(wb, sheet, range_text)
    doc = grid_doc(sh, area, formulas)
    if fmt == "json":
        echo_json(doc)
        return
    print_grid(sh, doc, formulas)


def print_grid(sheet: Sheet, doc: dict[str, Any], formulas: bool) -> None:
    console = stdout_console()
    if doc["range"] is None:
        console.print(Text(f"{sheet.name}: (empty)"))
        return
    area = Range.parse(doc["range"])
    table = Table(title=Text(f"{sheet.name}!{area.ref()}"), title_justify="left", show_lines=False)
    table.add_column("", justify="right", style="dim")
    for c in range(area.left, area.right + 1):
        table.add_column(col_to_letters(c), overflow="ellipsis", no_wrap=True, max_width=24)
    for r in range(area.top, area.bottom + 1):
        cells = []
        for c in range(area.left, area.right + 1):
            cell = sheet.cell(r, c)
            text = cell.formula if formulas and cell.formula else format_value(cell)
            cells.append(Text(text or ""))
        table.add_row(str(r + 1), *cells)
    console.print(table)
    if doc["clipped"]:
        console.print(Text(f"(showing {area.ref()} of {doc['requested']}; ask for a smaller --range)"))

"""`gridsight explain PATH --range R [--sheet S]`: the right-click "Explain this region", in a terminal."""

from __future__ import annotations

from pathlib import Path

import click
from rich.text import Text

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option, load, path_argument
from gridsight.errors import GridSightError
from gridsight.grid import Range
from gridsight.region import explain_region


@click.command("explain")
@path_argument
@click.option("--range", "area", required=True, help="The region, e.g. B3:F17 or 'Sales'!A1:D9.")
@click.option(
    "--sheet", default=None, help="Sheet of the region (default: the range's sheet, else the first)."
)
@format_option
def command(path: Path, area: str, sheet: str | None, fmt: str) -> None:
    """Say what a region holds: its tables, header paths, units and what its formulas do."""
    try:
        rng = Range.parse(area)
    except ValueError as exc:
        raise GridSightError(f"--range {area!r} is not a cell range: {exc}") from exc
    name = sheet or rng.sheet
    wb = load(path, sheets=[name] if name else None)
    target = wb.sheet(name) if name else next(iter(wb))
    result = explain_region(wb, target, rng)
    if fmt == "json":
        echo_json(result.to_dict())
        return
    console = stdout_console()
    console.print(Text(f"{result.sheet}!{result.range}", style="bold"))
    for fact in result.facts:
        console.print(Text("• " + fact.text))

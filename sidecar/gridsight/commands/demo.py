"""`gridsight demo`: build the bundled demo workbook and print what GridSight sees in it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click
from rich.text import Text

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option
from gridsight.commands.info import print_summary, workbook_summary
from gridsight.commands.show import grid_doc, print_grid
from gridsight.demo import DEMO_NAME, build_demo_workbook
from gridsight.detect import detect_tables
from gridsight.detect.cli import describe_detection
from gridsight.formula import generate_formula
from gridsight.region import explain_region
from gridsight.sources import open_workbook

#: Questions the demo answers with formulas (deterministic tier: no model needed).
DEMO_QUESTIONS = (
    "What is the total of North?",
    "Which region has the highest growth?",
    "Which month has the highest North?",
)
#: The region the demo explains, as the right-click "Explain this region" would.
DEMO_REGION = "A3:F16"


@click.command("demo")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Keep the demo workbook here (default: a temporary folder).",
)
@format_option
def command(out: Path | None, fmt: str) -> None:
    """Build the demo workbook and show what GridSight reads from it."""
    with tempfile.TemporaryDirectory(prefix="gridsight-demo-") as tmp:
        path = build_demo_workbook(out or Path(tmp) / DEMO_NAME)
        wb = open_workbook(path)
        summary = workbook_summary(wb, Path(DEMO_NAME) if out is None else path)
        sheet = wb.sheets[0]
        grid = grid_doc(sheet, sheet.used_range, formulas=True)
        detection = detect_tables(sheet)
        answers = [generate_formula(q, wb, sheet) for q in DEMO_QUESTIONS]
        region = explain_region(wb, sheet, DEMO_REGION)
        if fmt == "json":
            echo_json(
                {
                    "workbook": summary,
                    "grid": grid,
                    "detection": detection.to_dict(),
                    "answers": [a.to_dict() for a in answers],
                    "region": region.to_dict(),
                }
            )
            return
        print_summary(summary)
        print_grid(sheet, grid, formulas=True)
        console = stdout_console()
        console.print(Text("Tables found:", style="bold"))
        for line in describe_detection(detection):
            console.print(Text(line))
        console.print(Text("Questions answered with formulas:", style="bold"))
        for a in answers:
            console.print(Text(f"  {a.request}"))
            if a.formula is None:
                console.print(Text(f"    cannot: {a.reason}"))
                continue
            shown = a.display if a.display is not None else a.value
            console.print(Text(f"    {a.formula}  ->  {shown}"))
            if a.explanation:
                console.print(Text(f"    {a.explanation}"))
        console.print(Text(f"Explain this region ({DEMO_REGION}):", style="bold"))
        for fact in region.facts:
            console.print(Text(f"  • {fact.text}"))
        if out is not None:
            stdout_console().print(Text(f"demo workbook saved to {path}"))

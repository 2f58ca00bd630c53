"""`gridsight explain-formula "=..." [--context PATH]`: check, run and explain a formula."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.text import Text

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option, load
from gridsight.errors import GridSightError
from gridsight.formula._evaluate import evaluate_formula
from gridsight.formula._explain import explain_formula
from gridsight.grid import Range, Workbook


def _value_text(v: Any) -> str:
    if isinstance(v, list):
        rows = ["  " + " | ".join("" if x is None else str(x) for x in row) for row in v[:20]]
        more = [f"  ... {len(v) - 20} more rows"] if len(v) > 20 else []
        return "\n" + "\n".join(rows + more)
    return "(empty)" if v is None else str(v)


@click.command("explain-formula")
@click.argument("formula")
@click.option(
    "--context",
    "context",
    type=click.Path(path_type=Path),
    default=None,
    help="Workbook the formula's references point into.",
)
@click.option("--sheet", default=None, help="Sheet of unqualified references (default: the first).")
@click.option("--at", "at", default=None, help="Cell the formula would live in (checks its spill area).")
@format_option
def command(formula: str, context: Path | None, sheet: str | None, at: str | None, fmt: str) -> None:
    """Validate, evaluate and explain a formula, naming ranges by their headers."""
    wb: Workbook | None = load(context, sheets=None) if context is not None else None
    if wb is not None and sheet is not None:
        wb.sheet(sheet)  # an unknown sheet is an error before anything runs
    result = evaluate_formula(formula, wb, sheet, at=at)
    try:
        explanation = explain_formula(formula, wb, sheet)
    except GridSightError:
        explanation = None
    doc = {**result.to_dict(), "explanation": explanation}
    if fmt == "json":
        echo_json(doc)
    else:
        console = stdout_console()
        console.print(Text(result.formula, style="bold"))
        if explanation:
            console.print(Text(explanation))
        if result.problems:
            for p in result.problems:
                console.print(
                    Text(f"refused: {p}" if "not allowed" in p or "outside" in p else f"invalid: {p}")
                )
        elif result.error:
            src = f" (from {result.error_source})" if result.error_source else ""
            console.print(Text(f"error: {result.error}{src}"))
        else:
            spill = ""
            if result.spill:
                h, w = result.spill
                free = {True: ", spill area free", False: ", spill area BLOCKED", None: ""}[result.spill_free]
                spill = f" (spills {h}×{w}{free})"
            console.print(Text(f"value{spill}: {_value_text(result.value)}"))
    if not result.ok:
        raise click.exceptions.Exit(1)


@click.command("formula")
@click.argument("path", type=click.Path(path_type=Path))
@click.argument("request")
@click.option("--sheet", default=None, help="Sheet holding the table (default: the first).")
@click.option("--range", "area", default=None, help="The table's range (default: the sheet's used range).")
@click.option(
    "--cell",
    "target",
    default=None,
    help="Where the formula would go: reports whether its spill area there is free.",
)
@click.option(
    "--model",
    "use_model",
    is_flag=True,
    help="The local model writes queries over the table; the winning one becomes a checked formula.",
)
@format_option
def formula_command(
    path: Path,
    request: str,
    sheet: str | None,
    area: str | None,
    target: str | None,
    use_model: bool,
    fmt: str,
) -> None:
    """Turn a request into a validated formula over a table, with its value and explanation."""
    from gridsight.formula._display import display_value
    from gridsight.formula._generate import sheet_of

    wb = load(path, sheets=[sheet] if sheet else None)
    runtime = None
    if use_model:
        from gridsight.llm import load_runtime

        runtime = load_runtime()
    from gridsight.qa import formula_from_question

    # the rules' formula tier and the planner's checked query; the model votes where loaded
    answer = formula_from_question(request, wb, sheet, area=area, model=runtime)
    if answer.formula is not None and answer.shape in ("query", "plan"):
        answer.display = display_value(answer.value, answer.formula, wb, sheet_of(wb, sheet))
    placed = None
    if target is not None:
        Range.parse(target)  # a bad address is an error before anything is reported
        if answer.formula is not None:
            placed = evaluate_formula(answer.formula, wb, sheet, at=target)
    if fmt == "json":
        doc = answer.to_dict()
        if target is not None:
            doc |= {
                "cell": target,
                "spill": list(placed.spill) if placed and placed.spill else None,
                "spill_free": placed.spill_free if placed else None,
            }
        echo_json(doc)
    else:
        console = stdout_console()
        if answer.formula is None:
            console.print(Text(f"cannot: {answer.reason}"))
        else:
            console.print(Text(answer.formula, style="bold"))
            if answer.explanation:
                console.print(Text(answer.explanation))
            shown = answer.display if answer.display is not None else _value_text(answer.value)
            spill = ""
            if placed is not None and placed.spill and target is not None:
                h, w = placed.spill
                free = "free" if placed.spill_free else "BLOCKED"
                spill = f" (spills {h}×{w} from {target.upper()}, spill area {free})"
            console.print(Text(f"value{spill}: {shown}"))
            console.print(
                Text(f"evidence: {', '.join(answer.evidence)}  confidence: {answer.confidence:.2f}")
            )
    if answer.formula is None:
        raise click.exceptions.Exit(1)

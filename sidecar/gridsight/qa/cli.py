"""`gridsight ask PATH "question" [--sheet S] [--format json] [--model]`; PATH may be a folder
(:mod:`gridsight.retrieval` picks the tables, ``--db`` names the folder's index)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.text import Text

from gridsight._console import stdout_console
from gridsight.commands._shared import echo_json, format_option, load, path_argument
from gridsight.qa._ask import answer_question


@click.command("ask")
@path_argument
@click.argument("question")
@click.option("--sheet", default=None, help="Only this sheet (default: every sheet).")
@click.option(
    "--model",
    "use_model",
    is_flag=True,
    help="The local model writes queries over the table, voted on with the rules' answer.",
)
@click.option(
    "--db",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="When PATH is a folder: its index (default: one per folder in GridSight's data folder).",
)
@format_option
def command(path: Path, question: str, sheet: str | None, use_model: bool, db: Path | None, fmt: str) -> None:
    """Answer a question about a workbook (or a folder of them), with the formula and the cells used."""
    if path.is_dir():
        from gridsight.retrieval.cli import ask_folder_cli

        ask_folder_cli(path, question, db, use_model, fmt)
        return
    wb = load(path, sheets=[sheet] if sheet else None)
    runtime = None
    if use_model:
        from gridsight.llm import load_runtime

        runtime = load_runtime()
    ans = answer_question(wb, question, sheet, model=runtime)
    if fmt == "json":
        echo_json(ans.to_dict())
    else:
        console = stdout_console()
        if ans.status != "answered":
            console.print(Text(f"cannot answer: {ans.reason}"))
        else:
            unit = f" ({ans.unit})" if ans.unit else ""
            console.print(Text(f"{ans.display}{unit}", style="bold"))
            console.print(Text(ans.explanation))
            where = ", ".join(f"{e['sheet']}!{e['range']}" for e in ans.evidence)
            how = f"query: {ans.query}" if ans.route == "sql" else f"formula: {ans.formula}"
            console.print(Text(f"{how}  route: {ans.route}  confidence: {ans.confidence:.2f}"))
            if ans.route == "sql" and ans.formula:
                console.print(Text(f"formula: {ans.formula}"))
            console.print(Text(f"evidence: {where}"))
    if ans.status != "answered":
        raise click.exceptions.Exit(1)

"""`gridsight desktop [PATH|FOLDER]`: the task pane in a native window, with its own sidecar."""

from __future__ import annotations

import json
from pathlib import Path

import click

from gridsight.errors import DesktopError


@click.command("desktop")
@click.argument("target", required=False, type=click.Path(path_type=Path))
@click.option("--excel", is_flag=True, help="Open the active Excel workbook (Windows/macOS, needs [excel]).")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help="The sidecar's port on 127.0.0.1 (default 8765, where Excel's add-in looks; 0 picks a free one).",
)
@click.option(
    "--screenshot",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Load the workbook (the demo when none), ask --question if given, save a PNG of the window, exit.",
)
@click.option(
    "--question", "-q", default=None, help="With --screenshot: ask this first and wait for the answer."
)
@click.option(
    "--timeout",
    type=click.FloatRange(1, 3600),
    default=300.0,
    show_default=True,
    help="Seconds to wait for the pane and for the answer.",
)
@click.option("--qt-probe", is_flag=True, hidden=True, help="Start Qt once and exit (the pre-flight check).")
def command(
    target: Path | None,
    excel: bool,
    port: int | None,
    screenshot: Path | None,
    question: str | None,
    timeout: float,
    qt_probe: bool,
) -> None:
    """Open GridSight in a desktop window: PATH (a workbook), FOLDER (its spreadsheets), or with
    neither the active Excel workbook (Windows/macOS with xlwings) or the demo workbook."""
    if qt_probe:
        from gridsight.desktop._preflight import start_qt

        start_qt()
        return
    from gridsight.api import DEFAULT_PORT
    from gridsight.desktop import DesktopRequest, png_facts, run_desktop

    if question and screenshot is None:
        raise click.UsageError("--question goes with --screenshot (in the window, type it in the pane)")
    req = DesktopRequest(
        target=target,
        excel=excel,
        port=DEFAULT_PORT if port is None else port,
        screenshot=screenshot.expanduser().resolve() if screenshot else None,
        question=question,
        timeout=timeout,
    )
    outcome = run_desktop(req)
    if outcome.screenshot is not None:
        facts = png_facts(outcome.screenshot)
        click.echo(f"wrote {screenshot} ({facts['width']}x{facts['height']}, {facts['colours']} colours)")
    for note in outcome.notes:
        click.echo(f"note: {note}")
    if outcome.answer is not None:
        click.echo("answer: " + json.dumps(outcome.answer, ensure_ascii=False))
    if outcome.error:
        raise DesktopError(outcome.error)
    if screenshot is not None and outcome.screenshot is None:
        raise DesktopError(f"no screenshot was written to {screenshot}")

"""`gridsight desktop`: checks, the single-instance lock, the sidecar, the workbooks, the window."""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsight.desktop._instance import claim, hand_off
from gridsight.desktop._menu import Controller
from gridsight.desktop._pane import error_page
from gridsight.desktop._preflight import (
    backend_problem,
    display_problem,
    model_problem,
    qt_environment,
    qt_probe,
    running_as_root,
    uses_qt,
)
from gridsight.desktop._sidecar import Sidecar
from gridsight.desktop._targets import Plan, pane_url, plan_targets, remember
from gridsight.desktop._window import Outcome, WindowJob, open_window
from gridsight.errors import DesktopError, GridSightError

log = logging.getLogger("gridsight.desktop")
LOG_NAME = "desktop.log"


@dataclass(frozen=True)
class DesktopRequest:
    target: Path | None = None
    excel: bool = False
    port: int = 8765
    screenshot: Path | None = None
    question: str | None = None
    timeout: float = 300.0


def setup_log(home: Path) -> Path:
    """Every message the window shows also goes to <data>/logs/desktop.log."""
    path = home / "logs" / LOG_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    if not any(isinstance(h, logging.FileHandler) and Path(h.baseFilename) == path for h in log.handlers):
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        log.addHandler(handler)
    log.setLevel(logging.INFO)
    return path


def _window_can_open() -> str | None:
    """Why no window (not even an error page) can be shown, or None; sets Qt's environment."""
    problem = display_problem(os.environ) or backend_problem()
    if problem:
        return problem
    if uses_qt():
        os.environ.update(qt_environment(os.environ, running_as_root()))
        return qt_probe(os.environ)
    return None


def _fail(req: DesktopRequest, home: Path, message: str, window_ok: bool) -> DesktopError:
    """Log the failure and show it in a window when one can open; the caller raises what it returns."""
    log.error("%s", message)
    if window_ok:
        job = WindowJob("GridSight: cannot start", home, html=error_page("GridSight cannot start", message))
        job.screenshot, job.timeout = req.screenshot, min(req.timeout, 60.0)
        try:
            open_window(job)
        except GridSightError as exc:
            log.error("the error window failed too: %s", exc)
    return DesktopError(message)


def _open_plan(sidecar: Sidecar, plan: Plan, home: Path) -> tuple[str, list[str]]:
    """Open what the plan names; the workbook to show first and notes for the window."""
    notes = list(plan.notes)
    first: str | None = None
    if plan.excel:
        try:
            first = sidecar.open_excel()
        except DesktopError as exc:
            if not plan.demo:
                raise
            notes.append(f"Live Excel is off: {exc}; showing the demo workbook")
    opened: list[Path] = []
    for p in plan.paths:
        try:
            wid = sidecar.open_file(p)
        except GridSightError as exc:
            notes.append(f"Could not open {exc}")
            continue
        first = first or wid
        opened.append(p)
    if plan.paths and not opened:
        raise DesktopError("; ".join(notes))
    if opened:
        remember(home, opened)
    if first is None and plan.demo:
        first = sidecar.open_demo(home)
    if first is None:
        raise DesktopError("nothing to show")
    return first, notes


def run_desktop(req: DesktopRequest, home: Path | None = None) -> Outcome:
    """Run the window until it closes (or the screenshot is written). Raises DesktopError with one
    clear sentence for every way it cannot (after showing it in a window where one can open)."""
    from gridsight.paths import data_dir

    home = home or data_dir()
    home.mkdir(parents=True, exist_ok=True)
    log_path = setup_log(home)
    log.info("gridsight desktop %s", " ".join(sys.argv[1:]))
    plan = plan_targets(req.target, excel=req.excel)
    why_not = _window_can_open()
    if why_not:
        raise _fail(req, home, why_not, window_ok=False)
    instance = claim(home)
    if instance is None:
        err = hand_off(home, list(plan.paths), plan.folder)
        log.info("%s", err)
        raise err
    try:
        try:
            sidecar = Sidecar.start(req.port, home)
        except DesktopError as exc:
            raise _fail(req, home, str(exc), window_ok=True) from None
        instance.announce(sidecar.url, sidecar.port)
        try:
            first, notes = _open_plan(sidecar, plan, home)
        except DesktopError as exc:
            sidecar.stop()
            raise _fail(req, home, str(exc), window_ok=True) from None
        trouble = model_problem()
        if trouble:
            log.warning("%s", trouble)
            notes.append(trouble[0].upper() + trouble[1:])
        ctl = Controller(home, sidecar)
        job = WindowJob(
            "GridSight",
            home,
            url=pane_url(sidecar.url, first, plan.folder),
            notes=notes,
            screenshot=req.screenshot,
            question=req.question,
            timeout=req.timeout,
            menu=ctl.menu(),
        )
        try:
            outcome = _open(job, ctl)
        finally:
            sidecar.stop()
    finally:
        instance.release()
    if outcome.error:
        log.error("%s (log: %s)", outcome.error, log_path)
    return outcome


def _open(job: WindowJob, ctl: Controller) -> Outcome:
    def bind(window: Any) -> None:
        ctl.window = window

    return open_window(job, on_window=bind)

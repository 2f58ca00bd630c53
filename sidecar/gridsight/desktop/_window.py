"""The pywebview window: the task pane from the sidecar (or an error page), driven from a worker
thread -- wait for the pane, show notes, ask a question, capture a PNG, answer focus requests."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from gridsight.desktop import _pane
from gridsight.desktop._instance import read_focus
from gridsight.desktop._preflight import uses_qt
from gridsight.desktop._shot import grab_window
from gridsight.errors import DesktopError

log = logging.getLogger("gridsight.desktop")
WIDTH, HEIGHT = 1280, 820


@dataclass
class WindowJob:
    """What one window shows and does."""

    title: str
    home: Path
    url: str | None = None  # the task pane; None shows ``html`` (an error page)
    html: str | None = None
    notes: list[str] = field(default_factory=list)
    screenshot: Path | None = None
    question: str | None = None
    timeout: float = 300.0
    menu: list[Any] = field(default_factory=list)


@dataclass
class Outcome:
    """What happened in the window: the answer read from the pane, a failure, the PNG written."""

    answer: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    screenshot: Path | None = None


def open_window(job: WindowJob, on_window: Callable[[Any], None] | None = None) -> Outcome:
    """Show the window until it is closed (or, with ``job.screenshot``, until the PNG is written)."""
    import webview

    if job.url:
        # The pane is served by our own sidecar with a certificate from our own local CA, which the
        # web view may not trust yet; the window never loads anything but https://localhost:PORT.
        webview.settings["IGNORE_SSL_ERRORS"] = True
    window = webview.create_window(
        job.title,
        url=job.url,
        html=job.html,
        width=WIDTH,
        height=HEIGHT,
        min_size=(480, 400),
        menu=job.menu,
    )
    if on_window is not None:
        on_window(window)
    outcome = Outcome()
    gui: Literal["qt"] | None = "qt" if uses_qt(sys.platform) else None
    try:
        webview.start(_drive, (window, job, outcome), gui=gui, private_mode=True)
    except Exception as exc:  # the backend itself failed to start (pywebview raises WebViewException)
        raise DesktopError(f"the window could not open: {exc}") from None
    return outcome


def _wait(probe: Callable[[], Any], timeout: float, what: str, step: float = 0.25) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = probe()
        if got:
            return got
        if time.monotonic() > deadline:
            raise DesktopError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)


def _drive(window: Any, job: WindowJob, outcome: Outcome) -> None:
    """The worker thread pywebview starts once the GUI loop runs."""
    try:
        if not window.events.loaded.wait(job.timeout):
            raise DesktopError(f"the window did not load within {job.timeout:.0f} s")
        if job.url:
            _drive_pane(window, job, outcome)
        if job.screenshot is not None:
            time.sleep(0.8)  # let the last layout and paint land
            grab_window(window, job.screenshot)
            outcome.screenshot = job.screenshot
            log.info("screenshot written: %s", job.screenshot)
    except Exception as exc:  # reported by the caller; the window must still close
        outcome.error = outcome.error or str(exc)
        log.error("desktop window: %s", exc, exc_info=not isinstance(exc, DesktopError))
        if job.screenshot is not None and outcome.screenshot is None:
            try:
                grab_window(window, job.screenshot)
                outcome.screenshot = job.screenshot
            except Exception:
                pass
    if job.screenshot is not None:
        window.destroy()
        return
    _answer_focus_requests(window, job.home)


def _drive_pane(window: Any, job: WindowJob, outcome: Outcome) -> None:
    state = _wait(
        lambda: (
            ("ready" if window.evaluate_js(_pane.READY) else None)
            or (("banner", window.evaluate_js(_pane.BANNER)) if window.evaluate_js(_pane.BANNER) else None)
        ),
        job.timeout,
        "the task pane to connect to the sidecar",
    )
    if state != "ready":
        outcome.error = f"the task pane could not start: {state[1]}"
        log.error(outcome.error)
        return
    if job.notes:
        window.evaluate_js(_pane.show_notice(" · ".join(job.notes)))
        outcome.notes = list(job.notes)
    if not job.question:
        return
    log.info("asking: %s", job.question)
    window.evaluate_js(_pane.ask(job.question))
    answer = _wait(lambda: window.evaluate_js(_pane.LAST_ANSWER), job.timeout, "the answer")
    outcome.answer = answer
    log.info("answer: %s", answer)
    if answer.get("status") == "error":
        outcome.error = f"the question failed: {answer.get('reason')}"
        return
    if answer.get("chips") and window.evaluate_js(_pane.SHOW_EVIDENCE):
        try:
            _wait(lambda: window.evaluate_js(_pane.EVIDENCE_CELLS), 15, "the evidence to be highlighted")
        except DesktopError as exc:
            log.warning("%s", exc)


def _answer_focus_requests(window: Any, home: Path) -> None:
    """Until the window closes: a second `gridsight desktop` asks this one to come forward."""
    since = time.time()
    while not window.events.closed.wait(0.5):
        req = read_focus(home, since)
        if req is None:
            continue
        since = float(req.get("t", time.time()))
        try:
            window.restore()
            window.show()
            window.on_top = True
            window.on_top = False
            wid = req.get("workbook")
            if isinstance(wid, str):
                window.evaluate_js(_pane.switch_workbook(wid))
            folder = req.get("folder")
            if isinstance(folder, str):
                window.evaluate_js(_pane.open_folder(folder))
        except Exception as exc:  # a window being closed while we focus it
            log.warning("could not bring the window forward: %s", exc)

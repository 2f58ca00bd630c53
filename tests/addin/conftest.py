"""Browser tests of the task pane: a real sidecar over HTTPS serving a real .xlsx, driven by
Debian's chromium through Playwright (headless, as root: --no-sandbox).

Chromium is installed here when missing (`apt-get install -y chromium`; CI runs as root on a clean
machine that reaches the Debian registry); the browser tests are skipped, with the reason, only
when that install fails or Playwright itself is not installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridsight.api import Running, start_server

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path("/tmp/gridsight-shots")


def _install_chromium() -> str | None:
    """None when chromium is there (now); else why it could not be installed."""
    if CHROMIUM.exists():
        return None
    if shutil.which("apt-get") is None:
        return "no /usr/bin/chromium and no apt-get to install it"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "install", "-y", "-q", "chromium"], ["apt-get", "update", "-q"]):
        subprocess.run(cmd, env=env, capture_output=True, timeout=900, check=False)
        if CHROMIUM.exists():
            return None
    done = subprocess.run(
        ["apt-get", "install", "-y", "-q", "chromium"], env=env, capture_output=True, text=True, timeout=900
    )
    if CHROMIUM.exists():
        return None
    return f"apt-get install chromium failed: {(done.stderr or done.stdout)[-300:]}"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])"
    )
    why = _install_chromium()
    if why:
        pytest.skip(why)
    pw = sync_api.sync_playwright().start()
    b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])
    yield b
    b.close()
    pw.stop()


def write_sales(path: Path) -> Path:
    """A small real workbook: one table, a formula column, and a sheet with a far-away cell."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Region", "Product", "Units", "Price", "Revenue"])
    rows = [
        ("North", "Apples", 10, 2.5),
        ("South", "Pears", 12, 3.0),
        ("East", "Apples", 7, 2.5),
        ("West", "Plums", 20, 1.5),
        ("North", "Pears", 5, 3.0),
    ]
    for i, r in enumerate(rows, start=2):
        ws.append([*r, f"=C{i}*D{i}"])
    big = wb.create_sheet("Big")
    big["A1"] = "Start"
    big["Z10000"] = "End"
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("addin")


@pytest.fixture(scope="module")
def sidecar(workdir: Path) -> Iterator[Running]:
    from gridsight.api._routes_workbooks import session_from_file

    book = write_sales(workdir / "sales.xlsx")
    r = start_server(0, workdir / "home", threads=4)
    r.app.extensions["gridsight"].sessions.add(session_from_file(book))  # type: ignore[attr-defined]
    yield r
    r.stop()


def shot(page: Any, name: str, artifacts: Path) -> Path:
    """Save a screenshot as a test artifact and a copy for people to look at."""
    artifacts.mkdir(parents=True, exist_ok=True)
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)
    return path


@pytest.fixture()
def snap(tmp_path: Path) -> Any:
    """snap(page, name): a screenshot under this test's tmp dir, copied to /tmp/gridsight-shots."""
    return lambda page, name: shot(page, name, tmp_path / "screenshots")


@pytest.fixture()
def open_pane(browser: Any, sidecar: Running) -> Iterator[Any]:
    """open_pane(width) -> a page showing the pane at https://localhost:PORT/, connected and ready."""
    contexts: list[Any] = []
    errors: list[str] = []

    def _open(width: int = 320, height: int = 640, running: Running | None = None, wait: bool = True) -> Any:
        r = running or sidecar
        ctx = browser.new_context(viewport={"width": width, "height": height}, ignore_https_errors=True)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{r.url}/")
        if wait:
            page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        return page

    yield _open
    for c in contexts:
        c.close()
    assert not errors, f"JavaScript errors in the pane: {errors}"

"""`gridsight desktop` for real: a Qt WebEngine window under Xvfb, its own HTTPS sidecar, the task
pane answering a question about the demo workbook, and the failures a user can cause."""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from gridsight.desktop import png_facts

from .conftest import gridsight, keep_shot


def _env(display: dict[str, str], home: Path, **extra: str) -> dict[str, str]:
    env = {**display, "GRIDSIGHT_HOME": str(home), **extra}
    env.pop("GRIDSIGHT_MODEL", None)
    env.update(extra)
    return env


def _assert_not_blank(png: Path) -> dict[str, int]:
    facts = png_facts(png)
    assert facts["width"] >= 800 and facts["height"] >= 600, facts
    assert facts["colours"] > 50, facts  # a blank or single-colour capture has 1
    return facts


def _documented_example() -> tuple[list[str], list[str]]:
    """The command and output of docs/desktop.md's --screenshot example."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "desktop.md").read_text(encoding="utf-8")
    section = doc.split("## See the window without clicking", 1)[1]
    lines = re.findall(r"```console\n(.*?)```", section, flags=re.S)[0].splitlines()
    assert lines[0].startswith("$ gridsight desktop ")
    return shlex.split(lines[0][2:])[1:], lines[1:]


def test_screenshot_answers_a_question_about_the_demo(display: dict[str, str], tmp_path: Path) -> None:
    """The documented example, run as written (plus --port 0: the test must not need port 8765)."""
    args, expected = _documented_example()
    proc = subprocess.run(
        [sys.executable, "-m", "gridsight", *args, "--port", "0"],
        env=_env(display, tmp_path / "home"),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.splitlines()
    assert len(out) == len(expected) == 2
    colours = r"\d+ colours"
    assert re.fullmatch(re.escape(expected[0]).replace(r"2187\ colours", colours), out[0])
    assert out[1] == expected[1]  # the answer: 1815, =SUM(B4:B15), evidence B4:B15
    answer = json.loads(out[1].removeprefix("answer: "))
    assert answer["status"] == "answered" and answer["value"].startswith("1815")
    png = tmp_path / "window.png"
    _assert_not_blank(png)
    shot = tmp_path / "desktop-demo-answer.png"
    png.rename(shot)
    keep_shot(shot)
    log = (tmp_path / "home" / "logs" / "desktop.log").read_text(encoding="utf-8")
    assert "asking: What is the total of North?" in log and "screenshot written" in log


def test_screenshot_of_a_workbook_given_by_path(display: dict[str, str], tmp_path: Path) -> None:
    book = tmp_path / "stock.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Stock"
    ws.append(["Item", "Qty", "Price"])
    for row in [("Bolts", 120, 0.25), ("Nuts", 300, 0.1), ("Washers", 75, 0.05)]:
        ws.append(row)
    wb.save(book)
    png = tmp_path / "desktop-path.png"
    proc = gridsight(
        ["desktop", str(book), "--port", "0", "--screenshot", str(png)], _env(display, tmp_path / "h")
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    _assert_not_blank(png)
    recent = json.loads((tmp_path / "h" / "recent.json").read_text(encoding="utf-8"))
    assert recent == [str(book.resolve())]


def test_a_folder_opens_in_folder_mode_and_answers_across_files(
    display: dict[str, str], tmp_path: Path, spreadsheet_folder: Any
) -> None:
    folder = spreadsheet_folder(tmp_path / "books")
    png = tmp_path / "desktop-folder.png"
    env = _env(display, tmp_path / "h", GRIDSIGHT_MODEL=str(tmp_path / "no-model.gguf"))  # rules only: fast
    args = ["desktop", str(folder), "--port", "0", "--screenshot", str(png)]
    proc = gridsight([*args, "--question", "How old is the youngest billionaire?"], env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    answer = json.loads(next(x for x in proc.stdout.splitlines() if x.startswith("answer: "))[8:])
    assert answer["status"] == "answered" and answer["value"] == "27", answer
    assert answer["chips"] == ["billionaires.csv · billionaires!C2:C4"]
    _assert_not_blank(png)
    keep_shot(png)
    assert (tmp_path / "h" / "indexes").is_dir()  # the folder's index lives in the data folder


def test_a_corrupt_workbook_is_explained_in_the_window(display: dict[str, str], tmp_path: Path) -> None:
    bad = tmp_path / "broken.xlsx"
    bad.write_bytes(b"PK\x03\x04 this is not really a zip")
    png = tmp_path / "desktop-broken.png"
    proc = gridsight(
        ["desktop", str(bad), "--port", "0", "--screenshot", str(png)], _env(display, tmp_path / "h")
    )
    assert proc.returncode == 2
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("error: Could not open broken.xlsx: damaged zip archive"), proc.stderr[-500:]
    assert "Traceback" not in proc.stderr + proc.stdout
    _assert_not_blank(png)  # the error page, captured
    keep_shot(png)
    assert "broken.xlsx" in (tmp_path / "h" / "logs" / "desktop.log").read_text(encoding="utf-8")


def test_port_in_use_by_another_program(display: dict[str, str], tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        png = tmp_path / "desktop-port.png"
        proc = gridsight(
            ["desktop", "--port", str(port), "--screenshot", str(png)],
            _env(display, tmp_path / "h"),
            timeout=120,
        )
    assert proc.returncode == 2
    assert f"port {port} is already in use by another program" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert png.is_file()


def test_corrupt_model_is_reported_in_the_window_and_the_log(display: dict[str, str], tmp_path: Path) -> None:
    model = tmp_path / "model.gguf"
    model.write_bytes(b"not a gguf file at all" * 10)
    png = tmp_path / "desktop-model.png"
    env = _env(display, tmp_path / "h", GRIDSIGHT_MODEL=str(model))
    proc = gridsight(["desktop", "--port", "0", "--screenshot", str(png)], env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    note = [line for line in proc.stdout.splitlines() if line.startswith("note: ")]
    assert note and f"the model file {model}" in note[0].lower() and "cannot be used" in note[0]
    assert "cannot be used" in (tmp_path / "h" / "logs" / "desktop.log").read_text(encoding="utf-8")
    _assert_not_blank(png)
    keep_shot(png)


def test_second_instance_hands_its_workbook_to_the_first(
    display: dict[str, str], tmp_path: Path, spreadsheet_folder: Any
) -> None:
    home = tmp_path / "h"
    env = _env(display, home)
    first = subprocess.Popen(
        [sys.executable, "-m", "gridsight", "desktop", "--port", "0"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        state_file = home / "desktop.json"
        deadline = time.monotonic() + 90
        while not state_file.exists():
            assert first.poll() is None, first.stderr.read() if first.stderr else ""
            assert time.monotonic() < deadline, "the first window never announced its sidecar"
            time.sleep(0.3)
        state = json.loads(state_file.read_text(encoding="utf-8"))
        book = tmp_path / "second.xlsx"
        wb = openpyxl.Workbook()
        wb.active.append(["A", 1])
        wb.save(book)
        proc = gridsight(["desktop", str(book), "--port", "0"], env, timeout=120)
        assert proc.returncode == 2
        assert "GridSight is already open" in proc.stderr and "opened second.xlsx there" in proc.stderr
        assert "Traceback" not in proc.stderr
        # the first window's sidecar (the only one) now holds the workbook
        secret = (home / "api-secret").read_text(encoding="ascii").strip()
        import ssl

        ctx = ssl.create_default_context(cafile=str(home / "tls" / "gridsight-ca.pem"))
        req = urllib.request.Request(
            f"{state['url']}/api/v1/workbooks", headers={"X-GridSight-Secret": secret}
        )
        with urllib.request.urlopen(req, context=ctx, timeout=30) as resp:
            names = [w["name"] for w in json.loads(resp.read())["workbooks"]]
        assert "second.xlsx" in names and "gridsight-demo.xlsx" in names
        assert json.loads((home / "desktop.focus").read_text(encoding="utf-8"))["workbook"]
        # A folder goes the same way, and the first window's pane opens it in folder mode.
        folder = spreadsheet_folder(tmp_path / "books")
        proc = gridsight(["desktop", str(folder), "--port", "0"], env, timeout=120)
        assert proc.returncode == 2 and "(folder mode on books)" in proc.stderr, proc.stderr
        req = urllib.request.Request(
            f"{state['url']}/api/v1/libraries", headers={"X-GridSight-Secret": secret}
        )
        deadline = time.monotonic() + 90
        while True:
            with urllib.request.urlopen(req, context=ctx, timeout=30) as resp:
                libs = json.loads(resp.read())["libraries"]
            if any(x["path"] == str(folder.resolve()) and x["status"] == "ready" for x in libs):
                break
            assert time.monotonic() < deadline, libs
            time.sleep(0.5)
    finally:
        first.terminate()
        first.wait(timeout=30)
    assert first.returncode is not None


def test_no_display_is_a_clear_error(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["GRIDSIGHT_HOME"] = str(tmp_path / "h")
    proc = gridsight(["desktop", "--port", "0", "--screenshot", str(tmp_path / "x.png")], env, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: no display: neither DISPLAY nor WAYLAND_DISPLAY is set")
    assert "Traceback" not in proc.stderr
    assert "no display" in (tmp_path / "h" / "logs" / "desktop.log").read_text(encoding="utf-8")


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="Excel exists on this OS")
def test_excel_on_linux_is_a_clear_error(tmp_path: Path) -> None:
    env = {**os.environ, "GRIDSIGHT_HOME": str(tmp_path / "h")}
    proc = gridsight(["desktop", "--excel"], env, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == "error: --excel needs Microsoft Excel, which runs on Windows and macOS only\n"

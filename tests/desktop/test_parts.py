"""The desktop window's parts without a window: what is opened, the checks made before a window,
the single-instance lock, the sidecar it owns, the pane snippets and the menus."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import types
from pathlib import Path

import openpyxl
import pytest
from PIL import Image

from gridsight.desktop import _pane
from gridsight.desktop._instance import claim, hand_off, read_focus, request_focus
from gridsight.desktop._menu import Controller, write_manifest
from gridsight.desktop._preflight import (
    display_problem,
    model_problem,
    qt_environment,
    qt_failure_message,
)
from gridsight.desktop._run import _open_plan
from gridsight.desktop._shot import png_facts
from gridsight.desktop._sidecar import Sidecar
from gridsight.desktop._targets import MAX_RECENT, Plan, load_recent, pane_url, plan_targets, remember
from gridsight.errors import AlreadyRunningError, DesktopError, SourceNotFoundError

HAS_XLWINGS = importlib.util.find_spec("xlwings") is not None


def _book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    wb.active.append(["Item", "Qty"])
    wb.active.append(["Tea", 3])
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("env", "platform", "blocked"),
    [
        ({}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({}, "win32", False),
        ({}, "darwin", False),
        ({"DISPLAY": ""}, "freebsd14", True),
    ],
)
def test_display_problem(env: dict[str, str], platform: str, blocked: bool) -> None:
    problem = display_problem(env, platform)
    assert (problem is not None) == blocked
    if problem:
        assert problem.startswith("no display") and "xvfb-run" in problem


def test_qt_environment_adds_no_sandbox_for_root_only() -> None:
    root = qt_environment({"QTWEBENGINE_CHROMIUM_FLAGS": "--foo"}, is_root=True)
    assert root["QTWEBENGINE_CHROMIUM_FLAGS"] == "--foo --no-sandbox --log-level=3"
    user = qt_environment({}, is_root=False)
    assert user["QTWEBENGINE_CHROMIUM_FLAGS"] == "--log-level=3"
    again = qt_environment(root, is_root=True)
    assert again["QTWEBENGINE_CHROMIUM_FLAGS"] == root["QTWEBENGINE_CHROMIUM_FLAGS"]


def test_qt_failure_message_names_the_fix() -> None:
    stderr = (
        "qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform "
        "plugin.\n"
        'qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "" even though it was found.\n'
        "Aborted (core dumped)\n"
    )
    msg = qt_failure_message(stderr, ":5")
    assert msg.startswith("Qt cannot open a window on display ':5': qt.qpa.plugin: From 6.5.0, xcb-cursor0")
    assert "apt-get install -y libxcb-cursor0" in msg


def test_plan_a_folder_opens_its_spreadsheets(tmp_path: Path) -> None:
    a = _book(tmp_path / "b.xlsx")
    c = tmp_path / "a.csv"
    c.write_text("x,y\n1,2\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a spreadsheet", encoding="utf-8")
    (tmp_path / "~$b.xlsx").write_bytes(b"excel lock file")
    assert plan_targets(tmp_path, platform="linux") == Plan((c, a), folder=tmp_path.resolve())
    assert plan_targets(a, platform="linux") == Plan((a,))


def test_a_folder_opens_the_pane_in_folder_mode() -> None:
    folder = Path("/data/Q3 reports & more")
    url = pane_url("https://localhost:8765", "wb_1", folder)
    assert url == "https://localhost:8765/?wb=wb_1&folder=%2Fdata%2FQ3+reports+%26+more"
    assert pane_url("https://localhost:8765", "wb_1") == "https://localhost:8765/?wb=wb_1"
    js = _pane.open_folder('C:\\it\'s "here"')
    assert json.dumps('C:\\it\'s "here"') in js and "setMode('folder'" in js


def test_plan_bad_targets(tmp_path: Path) -> None:
    with pytest.raises(DesktopError, match="holds no spreadsheet"):
        plan_targets(tmp_path, platform="linux")
    with pytest.raises(SourceNotFoundError, match="does not exist"):
        plan_targets(tmp_path / "nope.xlsx", platform="linux")
    with pytest.raises(DesktopError, match="not both"):
        plan_targets(tmp_path, excel=True)
    with pytest.raises(DesktopError, match="Windows and macOS only"):
        plan_targets(None, excel=True, platform="linux")


def test_plan_without_a_path() -> None:
    assert plan_targets(None, platform="linux") == Plan((), demo=True)
    win = plan_targets(None, platform="win32")
    if HAS_XLWINGS:
        assert win == Plan((), excel=True, demo=True)
    else:
        assert win.demo and not win.excel
        assert win.notes == (
            "live Excel is off: xlwings is not installed (pip install 'gridsight[excel]'); showing the demo",
        )
        with pytest.raises(DesktopError, match=r"--excel needs xlwings: pip install 'gridsight\[excel\]'"):
            plan_targets(None, excel=True, platform="darwin")


def test_recent_list(tmp_path: Path) -> None:
    assert load_recent(tmp_path) == []
    paths = [tmp_path / f"{i}.xlsx" for i in range(12)]
    remember(tmp_path, paths[:3])
    assert remember(tmp_path, [paths[1]]) == [paths[1], paths[0], paths[2]]
    assert len(remember(tmp_path, paths)) == MAX_RECENT
    (tmp_path / "recent.json").write_text("{not json", encoding="utf-8")
    assert load_recent(tmp_path) == []


def test_one_instance_per_data_folder(tmp_path: Path) -> None:
    held = claim(tmp_path)
    assert held is not None
    probe = (
        "import sys; from pathlib import Path; from gridsight.desktop._instance import claim; "
        "print(claim(Path(sys.argv[1])) is None)"
    )
    other = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert other.stdout.strip() == "True"  # another process cannot take it
    held.announce("https://localhost:1", 1)
    held.release()
    assert not (tmp_path / "desktop.json").exists()
    again = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert again.stdout.strip() == "False"


def test_hand_off_without_a_reachable_first_window(tmp_path: Path) -> None:
    err = hand_off(tmp_path, [])
    assert isinstance(err, AlreadyRunningError)
    assert (
        str(err) == "GridSight is already open: brought it to the front (one window and one sidecar per user)"
    )
    assert read_focus(tmp_path, 0.0) is not None
    request_focus(tmp_path, "w1")
    assert read_focus(tmp_path, 0.0)["workbook"] == "w1"  # type: ignore[index]
    request_focus(tmp_path, None, tmp_path / "books")
    assert read_focus(tmp_path, 0.0)["folder"] == str(tmp_path / "books")  # type: ignore[index]
    assert read_focus(tmp_path, 1e12) is None


@pytest.mark.parametrize("text", ['{"t": "soon"}', '{"t": [1]}', "[1, 2]", "not json", ""])
def test_a_corrupt_focus_file_is_no_request(tmp_path: Path, text: str) -> None:
    (tmp_path / "desktop.focus").write_text(text, encoding="utf-8")
    assert read_focus(tmp_path, 0.0) is None


@pytest.fixture()
def sidecar(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = Sidecar.start(0, tmp_path / "home")
    yield s
    s.stop()


def test_sidecar_port_in_use_and_restart(sidecar: Sidecar, tmp_path: Path) -> None:
    with pytest.raises(DesktopError) as err:
        Sidecar.start(sidecar.port, tmp_path / "other")
    assert str(err.value).startswith(f"port {sidecar.port} is already used by another GridSight sidecar")
    wid = sidecar.open_file(_book(tmp_path / "t.xlsx"))
    sidecar.stop()
    assert not sidecar.serving
    sidecar.restart()
    assert sidecar.serving
    assert [s.id for s in sidecar.sessions.list()] == [wid]  # the workbooks survive a restart


def test_sidecar_open_errors(sidecar: Sidecar, tmp_path: Path) -> None:
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04junk")
    with pytest.raises(DesktopError, match=r"^bad.xlsx: damaged zip archive"):
        sidecar.open_file(bad)
    if not HAS_XLWINGS:
        with pytest.raises(DesktopError, match=r"xlwings \(pip install 'gridsight\[excel\]'\)"):
            sidecar.open_excel()


def test_excel_not_running_falls_back_to_the_demo(
    sidecar: Sidecar, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """xlwings present but no Excel: the same exception shape xlwings raises when no app runs."""

    class _Books:
        @property
        def active(self) -> object:
            raise RuntimeError("No Excel instance running")

    monkeypatch.setitem(sys.modules, "xlwings", types.SimpleNamespace(books=_Books()))
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "xlwings" else None)
    with pytest.raises(DesktopError, match="Excel is not reachable"):
        sidecar.open_excel()
    first, notes = _open_plan(sidecar, Plan((), excel=True, demo=True), tmp_path / "home")
    assert sidecar.sessions.get(first).name == "gridsight-demo.xlsx"
    assert (
        notes
        and notes[0].startswith("Live Excel is off: ")
        and notes[0].endswith("showing the demo workbook")
    )


def test_open_plan_keeps_going_past_a_bad_file(sidecar: Sidecar, tmp_path: Path) -> None:
    good = _book(tmp_path / "good.xlsx")
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04junk")
    first, notes = _open_plan(sidecar, Plan((bad, good)), tmp_path / "home")
    assert sidecar.sessions.get(first).name == "good.xlsx"
    assert notes == [notes[0]] and notes[0].startswith("Could not open bad.xlsx: ")
    with pytest.raises(DesktopError, match=r"Could not open bad\.xlsx"):
        _open_plan(sidecar, Plan((bad,)), tmp_path / "home")


def test_model_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDSIGHT_HOME", str(tmp_path))
    monkeypatch.delenv("GRIDSIGHT_MODEL", raising=False)
    assert model_problem() is None  # the default model: assembled on first use
    monkeypatch.setenv("GRIDSIGHT_MODEL", str(tmp_path / "missing.gguf"))
    assert model_problem() == (
        f"the model file {tmp_path / 'missing.gguf'} (from $GRIDSIGHT_MODEL) does not exist: "
        "questions that need the model will fail"
    )
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"\x00" * 64)
    monkeypatch.setenv("GRIDSIGHT_MODEL", str(junk))
    assert "cannot be used" in (model_problem() or "")
    monkeypatch.setenv("GRIDSIGHT_MODEL", "1.5b")  # a known model's alias
    assert model_problem() is None


def test_pane_snippets_quote_user_text() -> None:
    q = 'What\'s the "total" of </script><b>North</b>?'
    assert json.dumps(q) in _pane.ask(q)
    assert "<b>North</b>" not in _pane.error_page("t", "<b>North</b>")
    assert "&lt;b&gt;North&lt;/b&gt;" in _pane.error_page("t", "<b>North</b>")


def test_menus_and_manifest(sidecar: Sidecar, tmp_path: Path) -> None:
    pytest.importorskip("webview", reason="pywebview is the [desktop] extra (pip install -e '.[dev]')")
    home = tmp_path / "home"
    remember(home, [_book(tmp_path / "r.xlsx")])
    menus = Controller(home, sidecar).menu()
    assert [m.title for m in menus] == ["Workbook", "Sidecar"]
    recent = next(i for i in menus[0].items if getattr(i, "title", "") == "Open recent")
    assert [i.title for i in recent.items] == ["r.xlsx"]
    path = write_manifest(home, sidecar.port)
    assert f"https://localhost:{sidecar.port}/" in path.read_text(encoding="utf-8")


def test_png_facts(tmp_path: Path) -> None:
    Image.new("RGB", (300, 200), (255, 255, 255)).save(tmp_path / "blank.png")
    assert png_facts(tmp_path / "blank.png") == {"width": 300, "height": 200, "colours": 1}


class _RecordingWindow:
    """Stands in for the pywebview window: records what the menu actions ask of it."""

    def __init__(self, picked: list[str] | None = None) -> None:
        self.js: list[str] = []
        self.urls: list[str] = []
        self.picked = picked

    def evaluate_js(self, code: str) -> object:
        self.js.append(code)
        return True

    def load_url(self, url: str) -> None:
        self.urls.append(url)

    def create_file_dialog(self, *args: object, **kwargs: object) -> list[str] | None:
        return self.picked


def test_menu_actions_reach_the_sidecar(sidecar: Sidecar, tmp_path: Path) -> None:
    pytest.importorskip("webview", reason="pywebview is the [desktop] extra (pip install -e '.[dev]')")
    home = tmp_path / "home"
    good, bad = _book(tmp_path / "good.xlsx"), tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04junk")
    window = _RecordingWindow(picked=[str(good), str(bad)])
    ctl = Controller(home, sidecar, window)
    ctl.open_files()
    names = [s.name for s in sidecar.sessions.list()]
    assert names == ["good.xlsx"]
    assert any("Could not open bad.xlsx: damaged zip archive" in js for js in window.js)
    assert any("switchWorkbook" in js for js in window.js)
    assert load_recent(home) == [good]  # only what opened
    ctl.stop_sidecar()
    assert not sidecar.serving and "The sidecar is stopped" in window.js[-1]
    ctl.start_sidecar()
    assert sidecar.serving and window.urls == [sidecar.url + "/"]
    ctl.copy_manifest_path()
    manifest = home / "manifest" / "gridsight-manifest.xml"
    assert manifest.is_file() and str(manifest) in window.js[-1]
    ctl.show_model()
    assert "Nothing leaves this machine." in window.js[-1]
    window.picked = [str(tmp_path)]
    ctl.open_folder()  # its spreadsheets as workbooks, and the pane in folder mode on it
    assert json.dumps(str(tmp_path)) in window.js[-1] and "f.open(" in window.js[-1]


def test_documented_apt_packages_are_the_ones_the_code_names() -> None:
    from gridsight.desktop._preflight import QT_APT_PACKAGES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "desktop.md").read_text(encoding="utf-8")
    block = doc.split("apt-get install -y ", 1)[1].split("```", 1)[0]
    assert block.replace("\\", " ").split() == list(QT_APT_PACKAGES)


def test_the_qt_probe_command_inside_and_outside_a_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridsight.desktop._preflight import probe_command

    assert probe_command()[:2] == [sys.executable, "-c"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert probe_command() == [sys.executable, "desktop", "--qt-probe"]

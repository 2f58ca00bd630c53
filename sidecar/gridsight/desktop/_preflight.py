"""Checks made before a window is attempted, each giving one clear sentence instead of a crash:
a display to draw on, a GUI backend that can start, the model the window will use."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Mapping

#: Debian/Ubuntu packages Qt's xcb platform plugin and QtWebEngine load at run time.
QT_APT_PACKAGES = (
    "libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0 "
    "libxcb-xinerama0 libxcb-xkb1 libxcb-randr0 libxcb-xfixes0 libxcb-sync1 libxcb-shm0 libxcb-glx0 "
    "libxcb-dri3-0 libx11-xcb1 libxkbcommon0 libxkbcommon-x11-0 libglib2.0-0 libdbus-1-3 libgssapi-krb5-2 "
    "libnss3 libxcomposite1 libxdamage1 libxrandr2 libxtst6 libxkbfile1 libasound2 libgbm1 libegl1 libgl1 "
    "libfontconfig1 fonts-dejavu-core"
).split()
FLAGS_ENV = "QTWEBENGINE_CHROMIUM_FLAGS"


def uses_qt(platform: str = sys.platform) -> bool:
    """pywebview draws with Qt on Linux and the BSDs (Windows: Edge WebView2; macOS: WebKit)."""
    return platform not in ("win32", "darwin")


def display_problem(env: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """Why no window can be drawn (no X11/Wayland display), or None."""
    if not uses_qt(platform) or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return (
        "no display: neither DISPLAY nor WAYLAND_DISPLAY is set, so no window can open. Run it inside a "
        "desktop session, or on a server under a virtual display (xvfb-run gridsight desktop ...); "
        "`gridsight serve` gives the same task pane to a browser without a window"
    )


def qt_environment(env: Mapping[str, str], is_root: bool) -> dict[str, str]:
    """QtWebEngine's Chromium refuses to run as root with its sandbox on: add --no-sandbox then; and
    keep its internal logging to fatal errors."""
    out = dict(env)
    flags = out.get(FLAGS_ENV, "")
    if is_root and "--no-sandbox" not in flags:
        flags += " --no-sandbox"
    if "--log-level" not in flags:
        flags += " --log-level=3"  # Chromium's own GPU/D-Bus chatter is not for users; errors still show
    out[FLAGS_ENV] = flags.strip()
    return out


def running_as_root() -> bool:
    geteuid = getattr(os, "geteuid", None)  # absent on Windows
    return bool(geteuid and geteuid() == 0)


def backend_problem(platform: str = sys.platform) -> str | None:
    """Why pywebview cannot start here (a missing package), or None."""
    if importlib.util.find_spec("webview") is None:
        return "the desktop window needs pywebview: pip install 'gridsight[desktop]'"
    if uses_qt(platform):
        missing = [m for m in ("qtpy", "PySide6") if importlib.util.find_spec(m) is None]
        if not missing and importlib.util.find_spec("PySide6.QtWebEngineWidgets") is None:
            missing = ["PySide6-WebEngine"]
        if missing:
            need = ", ".join(missing)
            return f"the desktop window needs Qt WebEngine ({need} missing): pip install 'gridsight[desktop]'"
    return None


_QT_PROBE = "from gridsight.desktop._preflight import start_qt; start_qt()"


def start_qt() -> None:
    """What the probe runs in its child process: Qt WebEngine and a QApplication on this display."""
    from qtpy import QtWebEngineWidgets  # noqa: F401  (must come before the QApplication)
    from qtpy.QtWidgets import QApplication

    QApplication(sys.argv[:1])
    print("qt-ok", flush=True)


def probe_command() -> list[str]:
    """The child process that starts Qt: ``python -c``, or in a PyInstaller bundle (where
    sys.executable is gridsight itself) a hidden option of ``gridsight desktop``."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "desktop", "--qt-probe"]
    return [sys.executable, "-c", _QT_PROBE]


def qt_probe(env: Mapping[str, str], timeout: float = 60.0) -> str | None:
    """Start Qt once in a child process: Qt aborts the whole process when its platform plugin cannot
    load (missing system libraries), which must not take the sidecar down without a word."""
    try:
        proc = subprocess.run(
            probe_command(),
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"Qt did not start within {timeout:.0f} s (is the display {env.get('DISPLAY', '')!r} alive?)"
    if proc.returncode == 0 and "qt-ok" in proc.stdout:
        return None
    return qt_failure_message(proc.stderr, env.get("DISPLAY", ""))


def qt_failure_message(stderr: str, display: str) -> str:
    """One readable sentence from what Qt printed when it failed to start."""
    keep = [
        line.strip()
        for line in stderr.splitlines()
        if line.strip() and ("qt.qpa" in line or "cannot" in line.lower() or "could not" in line.lower())
    ]
    detail = " ".join(keep[:3]) or (stderr.strip().splitlines() or ["no output"])[-1]
    return (
        f"Qt cannot open a window on display {display!r}: {detail[:400]}. On Debian/Ubuntu install its "
        f"libraries: apt-get install -y {' '.join(QT_APT_PACKAGES)}"
    )


def model_problem() -> str | None:
    """What is wrong with the chat model the sidecar would use (cheap: the file's header only)."""
    from gridsight.errors import GridSightError
    from gridsight.llm._locate import check_model_file, configured_model, configured_model_path, known_model

    try:
        choice, source = configured_model()
        path, _ = configured_model_path()
    except (GridSightError, OSError, ValueError) as exc:
        return f"the model settings cannot be read: {exc}"
    if choice is None or path is None or known_model(choice) is not None:
        return None  # a known model is assembled (and sha256-checked) on first use
    where = "$GRIDSIGHT_MODEL" if source == "env" else "the settings file"
    if not path.is_file():
        return f"the model file {path} (from {where}) does not exist: questions that need the model will fail"
    try:
        check_model_file(path)
    except (GridSightError, OSError, ValueError) as exc:
        return f"the model file {path} (from {where}) cannot be used: {exc}"
    return None

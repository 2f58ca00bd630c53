"""A PNG of the window: Qt renders its own widget (exact, no window manager needed); other backends
(Edge WebView2, WebKit) are captured from the screen where the window is."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from gridsight.errors import DesktopError


def grab_window(window: Any, path: Path, timeout: float = 20.0) -> None:
    """Write a PNG of ``window`` (a pywebview Window) to ``path``; called from a worker thread."""
    path.parent.mkdir(parents=True, exist_ok=True)
    native = getattr(window, "native", None)
    if native is not None and hasattr(native, "grab"):
        _grab_qt(native, path, timeout)
    else:
        _grab_screen(window, path)
    if not path.is_file() or path.stat().st_size == 0:
        raise DesktopError(f"the screenshot {path} could not be written")


def _grab_qt(widget: Any, path: Path, timeout: float) -> None:
    """QWidget.grab() must run on Qt's GUI thread: a signal queued to an object living there."""
    from qtpy.QtCore import QCoreApplication, QObject, Signal

    class _Grabber(QObject):
        request = Signal(str)

        def __init__(self) -> None:
            super().__init__()
            self.done = threading.Event()
            self.ok = False
            self.request.connect(self._grab)

        def _grab(self, target: str) -> None:
            try:
                self.ok = bool(widget.grab().save(target, "PNG"))
            finally:
                self.done.set()

    app = QCoreApplication.instance()
    if app is None:  # a widget without a Qt application: nothing runs a GUI thread to grab it on
        raise DesktopError("Qt has no application running; the window cannot be captured")
    grabber = _Grabber()
    grabber.moveToThread(app.thread())
    grabber.request.emit(str(path))
    if not grabber.done.wait(timeout) or not grabber.ok:
        raise DesktopError(f"Qt could not capture the window into {path}")


def _grab_screen(window: Any, path: Path) -> None:
    from PIL import ImageGrab

    x, y = int(window.x or 0), int(window.y or 0)
    box = (x, y, x + int(window.width), y + int(window.height))
    try:
        ImageGrab.grab(bbox=box, all_screens=True).save(path, "PNG")
    except OSError as exc:  # macOS without the screen-recording permission, no X server...
        raise DesktopError(f"the screen could not be captured ({exc})") from None


def png_facts(path: Path) -> dict[str, Any]:
    """Size and colour count of a PNG: what tells a real window from a blank one."""
    from PIL import Image

    with Image.open(path) as img:
        rgb = img.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 16)
        return {
            "width": rgb.width,
            "height": rgb.height,
            "colours": len(colours) if colours is not None else 1 << 16,
        }

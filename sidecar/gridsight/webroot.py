"""Where the add-in's web files are: ``taskpane/``, ``addin/`` and ``manifests/``.

They live at the top of the repository, outside the Python package, because they are not Python:
the sidecar serves them as static files and Office loads them. Four places are tried, in order:

1. ``$GRIDSIGHT_WEB_ROOT`` -- a folder holding the three (packagers, tests, a custom build);
2. the source checkout the package was imported from (an editable install, ``pip install -e .``);
3. ``<prefix>/share/gridsight`` -- where a wheel puts them (``[tool.setuptools.data-files]``);
4. ``<bundle>/web`` inside a PyInstaller bundle (``build_installer.py`` copies them there).

When none holds them, :func:`web_root` raises :class:`WebFilesMissingError` naming the places it
looked, so ``gridsight serve`` says why the task pane is missing instead of serving 404s.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from functools import cache
from pathlib import Path

from gridsight.errors import GridSightError

ENV = "GRIDSIGHT_WEB_ROOT"
#: A file each of the three folders must hold for a candidate root to count.
MARKERS = ("taskpane/index.html", "addin/bridge.js", "manifests/manifest.xml")


class WebFilesMissingError(GridSightError):
    """The task pane / add-in files are not installed next to the sidecar."""


def candidates() -> list[Path]:
    """Every place the web files may be, most specific first."""
    out: list[Path] = []
    env = os.environ.get(ENV)
    if env:
        out.append(Path(env).expanduser())
    out.append(Path(__file__).resolve().parents[2])  # sidecar/gridsight/webroot.py -> repository root
    for scheme_path in {sysconfig.get_path("data"), sys.prefix}:
        if scheme_path:
            out.append(Path(scheme_path) / "share" / "gridsight")
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        out.append(Path(bundle) / "web")
    return out


def _complete(root: Path) -> bool:
    return all((root / m).is_file() for m in MARKERS)


@cache
def web_root() -> Path:
    """The first candidate that holds all three folders."""
    tried = candidates()
    for root in tried:
        if _complete(root):
            return root
    raise WebFilesMissingError(
        "the task pane files (taskpane/, addin/, manifests/) were not found; looked in "
        + ", ".join(str(p) for p in tried)
        + f". Install GridSight from a wheel or a checkout, or set {ENV} to a folder holding them."
    )

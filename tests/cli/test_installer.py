"""build_installer.py: the PyInstaller command carries the package and the web files the sidecar serves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_dry_run_lists_the_web_folders() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "build_installer.py"), "--dry-run"],
        capture_output=True,
        text=True,
        check=True,
    )
    args = proc.stdout.split()
    assert args[1:4] == ["-m", "PyInstaller", "--noconfirm"]
    for folder in ("taskpane", "addin", "manifests"):
        assert f"{ROOT / folder}{os.pathsep}web/{folder}" in args
        assert (ROOT / folder).is_dir()

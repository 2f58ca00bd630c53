#!/usr/bin/env python3
"""Build a one-folder GridSight bundle with PyInstaller for the current OS.

    python build_installer.py            # build into dist/gridsight-<os>-<arch>/
    python build_installer.py --dry-run  # print the PyInstaller command only

PyInstaller is not a project dependency (it is only needed by whoever builds installers):
`pip install pyinstaller` first. Later steps (the add-in manifest and the localhost certificate
setup) join this script with the sidecar-service and add-in issues.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
#: Top-level folders of web files the sidecar serves (task pane, add-in bridge, manifest template).
WEB_FOLDERS = ("taskpane", "addin", "manifests")


def pyinstaller_command(dist: Path, work: Path) -> list[str]:
    """The PyInstaller invocation: one folder, the CLI entry point, the package's data files."""
    entry = ROOT / "sidecar" / "gridsight" / "__main__.py"
    name = f"gridsight-{platform.system().lower()}-{platform.machine().lower()}"
    return [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--clean",
        "--onedir",
        "--name",
        name,
        "--distpath",
        str(dist),
        "--workpath",
        str(work),
        "--specpath",
        str(work),
        "--paths",
        str(ROOT / "sidecar"),
        "--collect-data",
        "gridsight",
        "--collect-submodules",
        "gridsight",
        # the task pane, the Office.js bridge and the manifest template, where gridsight.webroot looks
        # in a bundle (<bundle>/web/<folder>)
        *(
            arg
            for folder in WEB_FOLDERS
            for arg in ("--add-data", f"{ROOT / folder}{os.pathsep}web/{folder}")
        ),
        str(entry),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the command, build nothing")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    cmd = pyinstaller_command(args.dist, ROOT / "build" / "pyinstaller")
    if args.dry_run:
        print(shlex.join(cmd))
        return 0
    if importlib.util.find_spec("PyInstaller") is None:
        print("error: PyInstaller is not installed; run `pip install pyinstaller` first", file=sys.stderr)
        return 2
    return subprocess.call(cmd)


if __name__ == "__main__":
    raise SystemExit(main())

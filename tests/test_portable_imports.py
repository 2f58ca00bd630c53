"""Windows and macOS are where Excel lives: no GridSight module may need a POSIX-only module.

Two checks: every module of the package imports in a fresh interpreter where the POSIX-only modules
are blocked (``sys.modules[name] = None`` makes ``import name`` raise ImportError, as on Windows), and
no source file imports one of them outside a ``try: ... except ImportError`` guard (imports inside
functions run later than the first check can see).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sidecar" / "gridsight"
#: Standard modules that exist on POSIX only (Windows has none of them).
POSIX_ONLY = (
    "resource fcntl pwd grp termios tty pty syslog crypt spwd nis readline curses _curses "
    "posixshmem _posixshmem"
).split()

_PROBE = r"""
import importlib, json, pkgutil, sys
blocked = [m for m in sys.argv[1].split(",") if m not in sys.modules]
for m in blocked:
    sys.modules[m] = None
import gridsight
failed = {}
names = [m.name for m in pkgutil.walk_packages(gridsight.__path__, "gridsight.")]
for name in names:
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed[name] = repr(exc)
print(json.dumps({"imported": len(names), "blocked": blocked, "failed": failed}))
"""


def test_every_module_imports_without_posix_only_modules() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, ",".join(POSIX_ONLY)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=PACKAGE.parents[1],
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "resource" in report["blocked"] and "fcntl" in report["blocked"]
    assert report["imported"] > 100  # the walk really reached the whole package
    # a missing optional extra (pywebview, xlwings) is not a POSIX-only module: only those count here
    posix = {k: v for k, v in report["failed"].items() if any(f"'{m}'" in v for m in POSIX_ONLY)}
    assert posix == {}, posix
    assert report["failed"] == {}, report["failed"]


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a ``try`` whose handlers catch ImportError (or a superclass)."""
    cur = node
    while cur in parents:
        parent = parents[cur]
        if isinstance(parent, ast.Try) and cur in parent.body:
            for h in parent.handlers:
                names = [h.type] if not isinstance(h.type, ast.Tuple) else list(h.type.elts)
                if h.type is None or any(
                    isinstance(n, ast.Name) and n.id in {"ImportError", "ModuleNotFoundError", "Exception"}
                    for n in names
                ):
                    return True
        cur = parent
    return False


def posix_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every unguarded import of a POSIX-only module in ``source``."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            mods = [node.module.split(".")[0]]
        else:
            continue
        found += [(node.lineno, m) for m in mods if m in POSIX_ONLY and not _guarded(node, parents)]
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import resource\n", [(1, "resource")]),
        ("def f():\n    import fcntl\n", [(2, "fcntl")]),
        ("from pwd import getpwnam\n", [(1, "pwd")]),
        ("try:\n    import resource\nexcept ImportError:\n    resource = None\n", []),
        ("import os, json\n", []),
    ],
)
def test_the_scan_finds_unguarded_imports(source: str, expected: list[tuple[int, str]]) -> None:
    assert posix_imports(source) == expected


def test_no_source_file_imports_a_posix_only_module_unguarded() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 100
    bad = {
        str(f.relative_to(PACKAGE)): hits
        for f in files
        if (hits := posix_imports(f.read_text(encoding="utf-8")))
    }
    assert bad == {}


def test_xlwings_licence_gated_parts_are_never_imported() -> None:
    """Only xlwings' BSD core: never ``xlwings.pro``, ``xlwings.server`` or ``xlwings.reports``."""
    gated = ("xlwings.pro", "xlwings.server", "xlwings.reports", "xlwings.ext")
    hits = [
        str(f.relative_to(PACKAGE))
        for f in PACKAGE.rglob("*.py")
        if any(g in f.read_text(encoding="utf-8") for g in gated)
    ]
    assert hits == []

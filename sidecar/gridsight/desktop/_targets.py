"""What the desktop window opens: a file, every spreadsheet in a folder, the active Excel workbook
(Windows/macOS, through xlwings) or the demo; and the list of recent workbooks."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from gridsight.errors import DesktopError, SourceNotFoundError

#: Files a folder contributes (the readers GridSight has).
SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods", ".csv", ".tsv")
#: A folder opens at most this many workbooks (the sidecar keeps a bounded number of sessions).
MAX_FOLDER_FILES = 20
RECENT_FILE = "recent.json"
MAX_RECENT = 10


@dataclass(frozen=True)
class Plan:
    """Files to open, whether to try live Excel first, and notes to show (why Excel was skipped...)."""

    paths: tuple[Path, ...]
    excel: bool = False
    demo: bool = False
    notes: tuple[str, ...] = ()
    folder: Path | None = None  # a folder: the pane starts in folder mode, asking across its files


def excel_platform(platform: str = sys.platform) -> bool:
    """Excel (and so xlwings) exists on Windows and macOS only."""
    return platform in ("win32", "darwin")


def folder_files(folder: Path) -> list[Path]:
    files = sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and p.suffix.lower() in SPREADSHEET_SUFFIXES and not p.name.startswith(("~$", "."))
    )
    return files[:MAX_FOLDER_FILES]


def plan_targets(target: Path | None, *, excel: bool = False, platform: str = sys.platform) -> Plan:
    """Decide what to open, before anything is read.

    ``target`` a file: that file; a folder: its spreadsheets (at most :data:`MAX_FOLDER_FILES`), and the
    folder itself as a library the pane asks across (folder mode);
    ``excel``: the active Excel workbook (an error when xlwings or Excel cannot be had); neither: the
    active Excel workbook when this OS has Excel and xlwings is installed, else the demo workbook.
    """
    if target is not None and excel:
        raise DesktopError("give a PATH or --excel, not both")
    if excel:
        if not excel_platform(platform):
            raise DesktopError("--excel needs Microsoft Excel, which runs on Windows and macOS only")
        if importlib.util.find_spec("xlwings") is None:
            raise DesktopError("--excel needs xlwings: pip install 'gridsight[excel]'")
        return Plan((), excel=True)
    if target is not None:
        target = target.expanduser().resolve()
        if target.is_dir():
            files = folder_files(target)
            if not files:
                raise DesktopError(
                    f"{target} holds no spreadsheet ({', '.join(SPREADSHEET_SUFFIXES)}); "
                    "give a file or another folder"
                )
            return Plan(tuple(files), folder=target)
        if not target.exists():
            raise SourceNotFoundError(f"{target} does not exist")
        return Plan((target,))
    if excel_platform(platform):
        if importlib.util.find_spec("xlwings") is None:
            note = "live Excel is off: xlwings is not installed (pip install 'gridsight[excel]')"
            return Plan((), demo=True, notes=(note + "; showing the demo",))
        return Plan((), excel=True, demo=True)  # the demo only when Excel has no open workbook
    return Plan((), demo=True)


def load_recent(home: Path) -> list[Path]:
    try:
        items = json.loads((home / RECENT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(items, list):
        return []
    return [Path(p) for p in items if isinstance(p, str)][:MAX_RECENT]


def remember(home: Path, paths: list[Path]) -> list[Path]:
    """Put ``paths`` first in the recent list (no duplicates, at most :data:`MAX_RECENT`) and save it."""
    seen: list[Path] = []
    for p in [*paths, *load_recent(home)]:
        if p not in seen:
            seen.append(p)
    seen = seen[:MAX_RECENT]
    home.mkdir(parents=True, exist_ok=True)
    tmp = home / (RECENT_FILE + ".tmp")
    tmp.write_text(json.dumps([str(p) for p in seen], indent=1), encoding="utf-8")
    tmp.replace(home / RECENT_FILE)
    return seen


def pane_url(base: str, workbook_id: str, folder: Path | None = None) -> str:
    """The task pane's address: the workbook to show first and, for a folder, folder mode on it."""
    from urllib.parse import urlencode

    query = {"wb": workbook_id, **({"folder": str(folder)} if folder is not None else {})}
    return f"{base}/?{urlencode(query)}"

"""Apply cell writes to an .xlsx/.xlsm file: all or nothing, with a .bak copy, never a partial file.

Order of work: read the file's bytes once (and hash them, so "the file changed since the preview"
is exact), parse them with openpyxl, compare every target cell with what the plan expects, write
the cells, save to a temporary file beside the original, check it is a whole zip, copy the
original to ``NAME.bak``, and only then rename the temporary file over the original. Any failure
before the rename leaves the original untouched.

Cells are recorded "raw" -- openpyxl's own value type, data type and number format -- so that an
undo puts back exactly what was there (a date stays a date, the text "=1" stays text).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import io
import os
import shutil
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsight.edits._content import CellContent
from gridsight.errors import (
    CorruptFileError,
    EditConflictError,
    EditPlanError,
    FileChangedError,
    GridSightError,
    UnsupportedFormatError,
)
from gridsight.grid import a1_to_rc, datetime_to_serial, is_date_format, rc_to_a1

#: Parts that openpyxl cannot carry through a save unchanged: refusing beats losing them.
_FRAGILE_PARTS = {
    "xl/charts/": "charts",
    "xl/drawings/drawing": "drawings or pictures",
    "xl/media/": "pictures",
    "xl/embeddings/": "embedded objects",
    "xl/slicers/": "slicers",
    "xl/timelines/": "timelines",
    "xl/ctrlProps/": "form controls",
    "xl/activeX/": "ActiveX controls",
    "xl/pivotTables/": "pivot tables",
}
WRITABLE_SUFFIXES = (".xlsx", ".xlsm", ".xltx", ".xltm")
RawCell = dict[str, Any]


def fingerprint_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(path: Path) -> str:
    """sha256 of a file's bytes: what "the file has not changed" means."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class FileWrite:
    """One cell to write in a file: the content it must hold now, and what to put (a plan's content,
    or a raw record when an undo restores one)."""

    sheet: str
    row: int
    col: int
    expected: CellContent
    new: CellContent | RawCell


@dataclass(frozen=True)
class FileApplied:
    path: Path
    backup: Path
    sha_before: str
    sha_after: str
    cells: tuple[dict[str, Any], ...]  # {sheet, cell, before: raw, after: raw}
    created_sheets: tuple[str, ...] = ()  # sheets this write added to the file


def raw_of(cell: Any) -> RawCell:
    """An openpyxl cell -> raw record (JSON-able)."""
    v, dtype, nf = cell.value, cell.data_type, cell.number_format or "General"
    if v is None:
        return {"t": "empty", "v": None, "nf": nf}
    if dtype == "f" or (isinstance(v, str) and dtype == "f"):
        if not isinstance(v, str):
            kind = type(v).__name__
            raise EditPlanError(
                f"{cell.coordinate} holds an {kind} (array or data-table formula); "
                "GridSight does not overwrite those"
            )
        return {"t": "f", "v": v, "nf": nf}
    if isinstance(v, bool):
        return {"t": "b", "v": v, "nf": nf}
    if isinstance(v, int | float):
        return {"t": "n", "v": v, "nf": nf}
    if isinstance(v, dt.datetime):
        return {"t": "d", "v": v.isoformat(), "py": "datetime", "nf": nf}
    if isinstance(v, dt.date):
        return {"t": "d", "v": v.isoformat(), "py": "date", "nf": nf}
    if isinstance(v, dt.time):
        return {"t": "d", "v": v.isoformat(), "py": "time", "nf": nf}
    if isinstance(v, dt.timedelta):
        return {"t": "d", "v": v.total_seconds(), "py": "timedelta", "nf": nf}
    if dtype == "e":
        return {"t": "e", "v": str(v), "nf": nf}
    return {"t": "s", "v": str(v), "nf": nf}


def _py_date(raw: RawCell) -> Any:
    kind, v = raw.get("py"), raw["v"]
    if kind == "datetime":
        return dt.datetime.fromisoformat(v)
    if kind == "date":
        return dt.date.fromisoformat(v)
    if kind == "time":
        return dt.time.fromisoformat(v)
    if kind == "timedelta":
        return dt.timedelta(seconds=v)
    return v  # a serial number written as a date


def put_raw(cell: Any, raw: RawCell) -> None:
    """Write a raw record into an openpyxl cell, data type included."""
    t, v = raw["t"], raw["v"]
    if t == "empty":
        cell.value = None
    elif t == "d":
        cell.value = _py_date(raw)
    else:
        cell.value = v
        if t == "s":
            cell.data_type = "s"  # text that starts with '=' stays text
        elif t == "e":
            cell.data_type = "e"
    cell.number_format = raw.get("nf") or "General"


def content_of_raw(raw: RawCell) -> CellContent:
    """Raw record -> CellContent, for comparing with what a plan expects."""
    t, v, nf = raw["t"], raw["v"], raw.get("nf")
    if t == "f":
        return CellContent("e", None, v, nf)
    if t == "empty":
        return CellContent("e", None, None, nf)
    if t == "d":
        py = _py_date(raw)
        serial = datetime_to_serial(py) if not isinstance(py, int | float) else float(py)
        return CellContent("d", serial, None, nf)
    letter = {"n": "n", "b": "b", "s": "s", "e": "x"}[t]
    return CellContent(letter, v, None, nf)


def raw_from_content(content: CellContent, old_nf: str) -> RawCell:
    """What to write for a plan's new content; unstated formats keep the cell's, dates get one."""
    nf = content.number_format if content.number_format is not None else old_nf
    if content.formula is not None:
        return {"t": "f", "v": content.formula, "nf": nf}
    if content.type == "e" or content.value is None:
        return {"t": "empty", "v": None, "nf": nf}
    if content.type == "d":
        if not is_date_format(nf):
            nf = "yyyy-mm-dd"
        return {"t": "d", "v": content.value, "py": None, "nf": nf}
    if content.type == "x":
        return {"t": "e", "v": content.value, "nf": nf}
    return {"t": content.type, "v": content.value, "nf": nf}


def check_writable(path: Path) -> None:
    """Refuse files GridSight cannot save without losing something."""
    if path.suffix.lower() not in WRITABLE_SUFFIXES:
        raise UnsupportedFormatError(
            f"{path.name}: GridSight writes only .xlsx/.xlsm files; save a copy as .xlsx to edit it"
        )


def _fragile_parts(data: bytes, name: str) -> list[str]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
    except zipfile.BadZipFile as exc:
        raise CorruptFileError(f"{name}: damaged zip archive ({exc})") from None
    found = []
    for prefix, what in _FRAGILE_PARTS.items():
        if any(n.startswith(prefix) for n in names) and what not in found:
            found.append(what)
    return found


def _load(data: bytes, path: Path) -> Any:
    import openpyxl

    from gridsight.sources._safety import check_zip

    check_zip(path)
    fragile = _fragile_parts(data, path.name)
    if fragile:
        raise UnsupportedFormatError(
            f"{path.name} contains {', '.join(fragile)}, which saving outside Excel would drop; "
            "apply this plan through the Excel add-in instead"
        )
    keep_vba = path.suffix.lower() in (".xlsm", ".xltm")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(
                io.BytesIO(data), keep_vba=keep_vba, keep_links=True, rich_text=True
            )
    except GridSightError:
        raise
    except Exception as exc:
        raise CorruptFileError(
            f"{path.name}: cannot open workbook for writing ({type(exc).__name__})"
        ) from None


def _sheet(wb: Any, name: str, fname: str) -> Any:
    for ws in wb.worksheets:
        if ws.title == name:
            return ws
    for ws in wb.worksheets:
        if ws.title.casefold() == name.casefold():
            return ws
    raise EditConflictError(
        f"{fname} no longer has a sheet named {name!r}",
        [{"sheet": name, "cell": None, "reason": "sheet missing"}],
    )


def read_raw(path: Path, cells: Sequence[tuple[str, int, int]]) -> list[RawCell]:
    """Raw records of some cells of a file (tests and diagnostics)."""
    wb = _load(path.read_bytes(), path)
    try:
        return [raw_of(_sheet(wb, s, path.name).cell(row=r + 1, column=c + 1)) for s, r, c in cells]
    finally:
        wb.close()


def apply_to_file(
    path: Path,
    writes: Sequence[FileWrite],
    *,
    expect_sha: str | None = None,
    create_sheets: Sequence[str] = (),
    drop_sheets: Sequence[str] = (),
) -> FileApplied:
    """Write all cells or none. Raises FileChangedError when the bytes differ from ``expect_sha``,
    EditConflictError (listing every cell) when a target cell does not hold its expected content.

    ``create_sheets`` are added (at the end) when the file lacks them, before the writes; ``drop_sheets``
    are removed after the writes when they are left with no content (an undo of a plan that added them).
    """
    path = Path(path)
    check_writable(path)
    try:
        st_before = path.stat()
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileChangedError(f"{path} no longer exists", [{"reason": "file missing"}]) from None
    sha = fingerprint_bytes(data)
    if expect_sha is not None and sha != expect_sha:
        raise FileChangedError(
            f"{path.name} changed on disk since it was previewed; nothing was written. "
            "Reopen the workbook and preview again.",
            [{"reason": "file changed", "expected_sha256": expect_sha, "found_sha256": sha}],
        )
    wb = _load(data, path)
    created = []
    for name in create_sheets:
        if not any(ws.title.casefold() == name.casefold() for ws in wb.worksheets):
            wb.create_sheet(title=name)
            created.append(name)
    conflicts: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    for w in writes:
        ws = _sheet(wb, w.sheet, path.name)
        cell = ws.cell(row=w.row + 1, column=w.col + 1)
        before = raw_of(cell)
        found = content_of_raw(before)
        if not w.expected.same_content(found):
            conflicts.append(
                {
                    "sheet": ws.title,
                    "cell": rc_to_a1(w.row, w.col),
                    "expected": w.expected.to_json(),
                    "found": found.to_json(),
                }
            )
            continue
        after = w.new if isinstance(w.new, dict) else raw_from_content(w.new, before["nf"])
        records.append({"sheet": ws.title, "cell": rc_to_a1(w.row, w.col), "before": before, "after": after})
    if conflicts:
        wb.close()
        raise EditConflictError(
            f"{len(conflicts)} cell(s) changed since the plan was made; nothing was written", conflicts
        )
    for rec in records:
        r, c = a1_to_rc(rec["cell"])
        put_raw(_sheet(wb, rec["sheet"], path.name).cell(row=r + 1, column=c + 1), rec["after"])
    for name in drop_sheets:
        ws = next((w for w in wb.worksheets if w.title == name), None)
        if (
            ws is not None
            and len(wb.worksheets) > 1
            and all(cell.value is None for row in ws.iter_rows() for cell in row)
        ):
            wb.remove(ws)
    with contextlib.suppress(AttributeError):
        wb.calculation.fullCalcOnLoad = True  # cached results of other formulas are gone: Excel recomputes
    backup = path.with_name(path.name + ".bak")
    _atomic_save(wb, path, backup, st_before)
    return FileApplied(path, backup, sha, fingerprint(path), tuple(records), tuple(created))


def _atomic_save(wb: Any, path: Path, backup: Path, st_before: os.stat_result) -> None:
    tmp = path.with_name(f".{path.name}.gridsight-{os.getpid()}.tmp")
    bak_tmp = backup.with_name(f".{backup.name}.gridsight-{os.getpid()}.tmp")
    try:
        wb.save(tmp)
        wb.close()
        with tmp.open("rb") as fh:
            os.fsync(fh.fileno())
        with zipfile.ZipFile(tmp) as zf:
            bad = zf.testzip()
        if bad is not None:
            raise CorruptFileError(f"saving {path.name} produced a damaged part ({bad}); nothing was written")
        shutil.copymode(path, tmp)
        st_now = path.stat()
        if (st_now.st_size, st_now.st_mtime_ns) != (st_before.st_size, st_before.st_mtime_ns):
            raise FileChangedError(
                f"{path.name} changed on disk while the plan was being applied; nothing was written",
                [{"reason": "file changed during apply"}],
            )
        shutil.copy2(path, bak_tmp)
        os.replace(bak_tmp, backup)
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    except OSError as exc:
        raise GridSightError(
            f"could not save {path.name}: {exc.strerror or exc}; nothing was written"
        ) from None
    finally:
        for p in (tmp, bak_tmp):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

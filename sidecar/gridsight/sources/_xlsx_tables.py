"""Excel table definitions (ListObjects) from an .xlsx/.xlsm package.

openpyxl's read-only mode, which the fast reader uses, does not load table parts, so they are read
here straight from the zip: workbook.xml names the sheets, the relationship parts lead from each sheet
to its ``xl/tables/tableN.xml``. Tables are optional knowledge: a damaged table part loses the tables,
never the workbook.
"""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from defusedxml import ElementTree

from gridsight.grid import DefinedName, ExcelTable, Range
from gridsight.sources._package import Package

T = TypeVar("T")

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
#: Table parts larger than this are not tables anyone wrote by hand; skip rather than parse.
MAX_PART_BYTES = 2_000_000


def read_package(path: str | Path, read: Callable[[Package], T], default: T) -> T:
    """``read`` on an .xlsx package's zip; ``default`` when the file is no package or is damaged, or
    when defusedxml refuses a part (a missing detail rather than no workbook)."""
    try:
        with Package(path) as zf:
            return read(zf)
    except (zipfile.BadZipFile, ElementTree.ParseError, OSError, ValueError, KeyError):
        return default
    except Exception as exc:
        if type(exc).__module__.startswith("defusedxml"):
            return default
        raise


def _part(zf: zipfile.ZipFile, name: str) -> bytes | None:
    try:
        info = zf.getinfo(name)
    except KeyError:
        return None
    return zf.read(info) if info.file_size <= MAX_PART_BYTES else None


def _rels(zf: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """Relationship id -> (type, absolute target) for a part."""
    folder, base = posixpath.split(part)
    raw = _part(zf, posixpath.join(folder, "_rels", base + ".rels"))
    if raw is None:
        return {}
    out = {}
    for rel in ElementTree.fromstring(raw).iter(f"{_PKG}Relationship"):
        target = rel.get("Target", "")
        path = (
            target.lstrip("/")
            if target.startswith("/")
            else posixpath.normpath(posixpath.join(folder, target))
        )
        out[rel.get("Id", "")] = (rel.get("Type", ""), path)
    return out


def read_tables(path: str | Path) -> tuple[ExcelTable, ...]:
    """Every table in the workbook, with its sheet, range and column names (empty when none)."""
    try:
        with Package(path) as zf:
            raw = _part(zf, "xl/workbook.xml")
            if raw is None:
                return ()
            book_rels = _rels(zf, "xl/workbook.xml")
            out: list[ExcelTable] = []
            for sheet in ElementTree.fromstring(raw).iter(f"{_MAIN}sheet"):
                target = book_rels.get(sheet.get(f"{_REL}id", ""))
                if target is None:
                    continue
                for kind, table_part in _rels(zf, target[1]).values():
                    if not kind.endswith("/table"):
                        continue
                    table = _table(zf, table_part, sheet.get("name", ""))
                    if table is not None:
                        out.append(table)
            return tuple(out)
    except (zipfile.BadZipFile, ElementTree.ParseError, OSError, ValueError, KeyError):
        return ()
    except Exception as exc:  # defusedxml refusals and the like: no tables rather than no workbook
        if type(exc).__module__.startswith("defusedxml"):
            return ()
        raise


def _table(zf: zipfile.ZipFile, part: str, sheet: str) -> ExcelTable | None:
    raw = _part(zf, part)
    if raw is None:
        return None
    root = ElementTree.fromstring(raw)
    name = root.get("displayName") or root.get("name")
    ref = root.get("ref")
    if not name or not ref:
        return None
    # a line break in a column's name is saved escaped (Ending_x000a_balance, ECMA-376 ST_Xstring);
    # formulas name the column with the character itself
    columns = tuple(_xstring(c.get("name", "")) for c in root.iter(f"{_MAIN}tableColumn"))
    rng = Range.parse(ref)
    if len(columns) != rng.width:
        return None
    return ExcelTable(
        name, sheet, rng, columns, int(root.get("headerRowCount", "1")), int(root.get("totalsRowCount", "0"))
    )


def _xstring(text: str) -> str:
    """OOXML text as written: characters XML cannot hold (``CHAR(1)``, a lone carriage return, a line
    break in a table column's name...) are saved as ``_xHHHH_`` (``_x005F_`` for a literal ``_``,
    ECMA-376 ST_Xstring); openpyxl leaves them escaped."""
    if "_x" not in text:
        return text
    from openpyxl.utils.escape import unescape

    return str(unescape(text))


def read_defined_names(path: str | Path) -> tuple[DefinedName, ...]:
    """The workbook's defined names (``<definedNames>`` in workbook.xml), each with the sheet it is
    local to; empty when there are none or the part cannot be read."""
    try:
        with Package(path) as zf:
            raw = _part(zf, "xl/workbook.xml")
            if raw is None:
                return ()
            root = ElementTree.fromstring(raw)
            sheets = [s.get("name", "") for s in root.iter(f"{_MAIN}sheet")]
            out: list[DefinedName] = []
            for el in root.iter(f"{_MAIN}definedName"):
                name, text = el.get("name", ""), (el.text or "").strip()
                if not name or not text:
                    continue
                local = el.get("localSheetId")
                sheet = None
                if local is not None:
                    try:
                        sheet = sheets[int(local)]
                    except (ValueError, IndexError):
                        continue
                out.append(DefinedName(name, text.removeprefix("="), sheet))
            return tuple(out)
    except (zipfile.BadZipFile, ElementTree.ParseError, OSError, ValueError, KeyError):
        return ()
    except Exception as exc:  # defusedxml refusals: no names rather than no workbook
        if type(exc).__module__.startswith("defusedxml"):
            return ()
        raise

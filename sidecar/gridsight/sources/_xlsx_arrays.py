"""Which formula cells of an .xlsx hold array formulas (``<f t="array" ref="...">``), and their areas.

The cell model keeps a formula's text only. Whether Excel treats it as an array formula (legacy
Ctrl+Shift+Enter or a dynamic-array formula that spills) changes its value: a plain formula that meets
a range where one value is expected takes the value in its own row or column (implicit intersection),
an array formula keeps the whole array. Recalculation needs to know which is which, so the anchors are
read here straight from the sheet parts, streaming, like the table parts in ``_xlsx_tables``.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from defusedxml import ElementTree

from gridsight.errors import GridSightError
from gridsight.grid import Range
from gridsight.sources._package import Package
from gridsight.sources._xlsx_tables import _MAIN, _REL, _part, _rels, read_package

#: sheet name -> {(row, col) of an array formula's anchor: the area it fills}
ArrayAreas = dict[str, dict[tuple[int, int], Range]]


def read_array_formulas(path: str | Path) -> ArrayAreas:
    """Array-formula anchors per sheet (empty for files that are not xlsx packages or have none)."""
    out: ArrayAreas = {}
    try:
        with Package(path) as zf:
            raw = _part(zf, "xl/workbook.xml")
            if raw is None:
                return out
            book_rels = _rels(zf, "xl/workbook.xml")
            for sheet in ElementTree.fromstring(raw).iter(f"{_MAIN}sheet"):
                target = book_rels.get(sheet.get(f"{_REL}id", ""))
                if target is None or not zf.has(target[1]):
                    continue
                areas = _areas(zf, target[1])
                if areas:
                    out[sheet.get("name", "")] = areas
    except (zipfile.BadZipFile, ElementTree.ParseError, OSError, ValueError, KeyError):
        return out
    except Exception as exc:  # defusedxml refusals: no array knowledge rather than no workbook
        if type(exc).__module__.startswith("defusedxml"):
            return out
        raise
    return out


def _areas(zf: zipfile.ZipFile, part: str) -> dict[tuple[int, int], Range]:
    areas: dict[tuple[int, int], Range] = {}
    with zf.open(part) as fh:
        for _event, el in ElementTree.iterparse(fh, events=("end",)):
            if el.tag != f"{_MAIN}c":
                continue
            f = el.find(f"{_MAIN}f")
            if f is not None and f.get("t") == "array" and el.get("r"):
                try:
                    anchor = Range.parse(el.get("r", ""))
                    area = Range.parse(f.get("ref") or el.get("r", ""))
                except GridSightError:
                    el.clear()
                    continue
                areas[(anchor.top, anchor.left)] = area
            el.clear()
    return areas


_APP = "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}"


def read_application(path: str | Path) -> str | None:
    """The application that last saved an .xlsx package (``docProps/app.xml``'s ``Application``, e.g.
    ``Microsoft Excel`` or ``Microsoft Macintosh Excel``), or None when the file does not say."""
    try:
        with Package(path) as zf:
            raw = _part(zf, "docProps/app.xml")
            if raw is None:
                return None
            found = ElementTree.fromstring(raw).find(f"{_APP}Application")
    except (zipfile.BadZipFile, ElementTree.ParseError, OSError, ValueError, KeyError):
        return None
    except Exception as exc:  # defusedxml refusals: unknown rather than unreadable
        if type(exc).__module__.startswith("defusedxml"):
            return None
        raise
    return found.text.strip() if found is not None and found.text else None


@dataclass(frozen=True)
class Iteration:
    """Excel's iterative-calculation setting (File > Options > Formulas, ``<calcPr iterate="1"
    iterateCount="100" iterateDelta="0.001"/>``): without it a circular reference is not calculated
    (Excel warns and saves 0); with it Excel evaluates the cycle up to ``count`` times, stopping when
    no value changes by more than ``delta``. The defaults are Excel's."""

    enabled: bool = False
    count: int = 100
    delta: float = 0.001


def read_iteration(path: str | Path) -> Iteration:
    """The workbook's iterative-calculation setting (Excel's defaults when the file does not say)."""
    return read_package(path, _iteration, Iteration())


def _iteration(zf: zipfile.ZipFile) -> Iteration:
    raw = _part(zf, "xl/workbook.xml")
    calc = ElementTree.fromstring(raw).find(f"{_MAIN}calcPr") if raw is not None else None
    if calc is None:
        return Iteration()
    try:
        count = max(1, int(calc.get("iterateCount", "100")))
        delta = abs(float(calc.get("iterateDelta", "0.001")))
    except ValueError:
        count, delta = 100, 0.001
    return Iteration(calc.get("iterate", "0").strip().lower() in ("1", "true"), count, delta)

"""The values Excel keeps of other workbooks a file links to (``xl/externalLinks/externalLinkN.xml``).

A formula such as ``=[1]Prices!B2*2`` reads another workbook; Excel stores, with the link, the last
values it read from there (``<sheetDataSet>``). Recalculation reads those, as Excel does when the other
file is not open, so the formula is checked against them instead of being left unsupported. ``[1]`` is
the first ``<externalReference>`` of ``xl/workbook.xml``, in order.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from defusedxml import ElementTree

from gridsight.grid import Range
from gridsight.sources._xlsx_tables import _MAIN, _REL, _part, _rels, read_package

#: link number (1-based) -> sheet name (casefolded) -> (row, col) 0-based -> value Excel kept
ExternalCache = dict[int, dict[str, dict[tuple[int, int], Any]]]


def read_external_links(path: str | Path) -> ExternalCache:
    """The cached values of every external workbook link (empty when there are none or the package
    cannot be read: the formulas then stay unsupported)."""
    return read_package(path, _links, {})


def _links(zf: zipfile.ZipFile) -> ExternalCache:
    out: ExternalCache = {}
    raw = _part(zf, "xl/workbook.xml")
    refs = ElementTree.fromstring(raw).find(f"{_MAIN}externalReferences") if raw is not None else None
    if refs is None:
        return out
    rels = _rels(zf, "xl/workbook.xml")
    for number, ref in enumerate(refs.iter(f"{_MAIN}externalReference"), start=1):
        target = rels.get(ref.get(f"{_REL}id", ""))
        part = _part(zf, target[1]) if target else None
        if part is not None:
            out[number] = _book(ElementTree.fromstring(part))
    return out


def _book(root: Any) -> dict[str, dict[tuple[int, int], Any]]:
    book = root.find(f"{_MAIN}externalBook")
    if book is None:
        return {}
    names = [s.get("val", "") for s in book.iter(f"{_MAIN}sheetName")]
    sheets: dict[str, dict[tuple[int, int], Any]] = {}
    for data in book.iter(f"{_MAIN}sheetData"):
        try:
            name = names[int(data.get("sheetId", "-1"))]
        except (ValueError, IndexError):
            continue
        cells: dict[tuple[int, int], Any] = {}
        for cell in data.iter(f"{_MAIN}cell"):
            try:
                at = Range.parse(cell.get("r", ""))
            except Exception:  # a malformed address loses the cell, not the link
                continue
            v = cell.find(f"{_MAIN}v")
            cells[(at.top, at.left)] = _value(cell.get("t", "n"), v.text if v is not None else None)
        if cells:  # a sheet Excel kept no cell of (<sheetData sheetId="4"/>): its values are unknown
            sheets[name.casefold()] = cells
    return sheets


def _value(kind: str, text: str | None) -> Any:
    if text is None:
        return None
    if kind == "b":
        return text.strip() in ("1", "true")
    if kind in ("s", "str", "e", "inlineStr"):
        return text
    try:
        return float(text)
    except ValueError:
        return text

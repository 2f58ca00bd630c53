"""Which rows of an .xlsx sheet are hidden, and which of them a filter hid.

SUBTOTAL and AGGREGATE depend on it, as Excel documents: SUBTOTAL 101-111 and AGGREGATE's options
1, 3, 5 and 7 leave out every hidden row, and SUBTOTAL 1-11 leaves out the rows a filter hid (it
counts rows hidden by hand). The file marks both kinds alike (``<row hidden="1">``); what tells them
apart is whether a filter is on: the sheet is in filter mode (``<sheetPr filterMode="1">``) or an
AutoFilter of the sheet or of one of its tables has a filter column. On such a sheet a hidden row is
taken as filtered unless its height was set by hand (``customHeight="1"``: a row Excel saved so on a
filtered sheet counted as hidden by hand); on a sheet without a filter every hidden row was hidden by
hand. The file does not say which kind a row is, so this is inferred: it reads Excel's own saved
SUBTOTALs right on sheets hidden by hand, by an AutoFilter and by a table's filter, with and without
a filter on (EPPlus's test workbook of these cases).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from defusedxml import ElementTree

from gridsight.sources._package import Package
from gridsight.sources._xlsx_tables import _MAIN, _REL, _part, _rels, read_package

#: Rows of a sheet beyond this many hidden ones are not read (a sheet of a million hidden rows).
MAX_HIDDEN_ROWS = 200_000


@dataclass(frozen=True)
class HiddenRows:
    """A sheet's hidden rows (0-based) and those of them a filter hid."""

    hidden: frozenset[int] = frozenset()
    filtered: frozenset[int] = frozenset()


#: sheet name -> its hidden rows (sheets with none left out)
SheetRows = dict[str, HiddenRows]


def read_hidden_rows(path: str | Path) -> SheetRows:
    """Hidden rows per sheet (empty for files that are not xlsx packages or hide none)."""
    return read_package(path, _hidden_rows, {})


def _hidden_rows(zf: Package) -> SheetRows:
    raw = _part(zf, "xl/workbook.xml")
    if raw is None:
        return {}
    book_rels = _rels(zf, "xl/workbook.xml")
    out: SheetRows = {}
    for sheet in ElementTree.fromstring(raw).iter(f"{_MAIN}sheet"):
        target = book_rels.get(sheet.get(f"{_REL}id", ""))
        if target is None or not zf.has(target[1]):
            continue
        rows = _sheet_rows(zf, target[1])
        if rows.hidden:
            out[sheet.get("name", "")] = rows
    return out


def _sheet_rows(zf: zipfile.ZipFile, part: str) -> HiddenRows:
    by_hand: set[int] = set()
    plain: set[int] = set()  # hidden, height not set by hand: filtered when a filter is on
    filtering = False
    with zf.open(part) as fh:
        for _event, el in ElementTree.iterparse(fh, events=("end",)):
            tag = el.tag
            if tag == f"{_MAIN}row":
                if (
                    el.get("hidden", "0").strip().lower() in ("1", "true")
                    and len(by_hand) + len(plain) < MAX_HIDDEN_ROWS
                ):
                    try:
                        row = int(el.get("r", "0")) - 1
                    except ValueError:
                        row = -1
                    if row >= 0:
                        custom = el.get("customHeight", "0").strip().lower() in ("1", "true")
                        (by_hand if custom else plain).add(row)
                el.clear()
            elif tag == f"{_MAIN}c":
                el.clear()
            elif tag == f"{_MAIN}sheetPr":
                filtering = filtering or el.get("filterMode", "0").strip().lower() in ("1", "true")
            elif tag == f"{_MAIN}autoFilter":
                filtering = filtering or el.find(f"{_MAIN}filterColumn") is not None
    if not filtering:
        filtering = any(
            _table_filters(zf, t) for kind, t in _rels(zf, part).values() if kind.endswith("/table")
        )
    hidden = frozenset(by_hand | plain)
    return HiddenRows(hidden, frozenset(plain) if filtering else frozenset())


def _table_filters(zf: zipfile.ZipFile, part: str) -> bool:
    """Whether a table's AutoFilter has a filter column (a filter is on)."""
    raw = _part(zf, part)
    if raw is None:
        return False
    auto = ElementTree.fromstring(raw).find(f"{_MAIN}autoFilter")
    return auto is not None and auto.find(f"{_MAIN}filterColumn") is not None

"""A new Workbook with some cells replaced: how a session's model follows the edits it applied.

The grid model is immutable, so a patched sheet is rebuilt from the old arrays (vectorised where it
counts) with the written cells swapped in; sheets without writes are shared, not copied.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from gridsight.edits._content import CellContent
from gridsight.grid import Kind, Sheet, SheetBuilder, Workbook, is_date_format

_KIND_OF = {
    "e": Kind.EMPTY,
    "n": Kind.NUMBER,
    "s": Kind.TEXT,
    "b": Kind.BOOL,
    "d": Kind.DATETIME,
    "x": Kind.ERROR,
}


def patch_workbook(workbook: Workbook, changes: Iterable[tuple[str, int, int, CellContent]]) -> Workbook:
    """``changes``: (sheet, row, col, content). Unstated number formats keep the cell's old format."""
    by_sheet: dict[str, dict[tuple[int, int], CellContent]] = {}
    for sheet, r, c, content in changes:
        name = workbook.sheet(sheet).name
        by_sheet.setdefault(name, {})[(r, c)] = content
    sheets = [_patch_sheet(s, by_sheet[s.name]) if s.name in by_sheet else s for s in workbook.sheets]
    return Workbook(sheets, name=workbook.name, date1904=workbook.date1904, tables=workbook.tables)


def with_sheets(workbook: Workbook, added: Iterable[str] = (), dropped: Iterable[str] = ()) -> Workbook:
    """The workbook with empty sheets ``added`` at the end and the sheets ``dropped`` left out (a plan
    that adds a sheet is previewed against the first; its undo leaves the second)."""
    gone = {n.casefold() for n in dropped}
    have = {s.name.casefold() for s in workbook.sheets}
    sheets = [s for s in workbook.sheets if s.name.casefold() not in gone]
    sheets += [SheetBuilder(n).build() for n in added if n.casefold() not in have]
    return Workbook(
        sheets, name=workbook.name, date1904=workbook.date1904, tables=workbook.tables, names=workbook.names
    )


def _patch_sheet(sheet: Sheet, cells: dict[tuple[int, int], CellContent]) -> Sheet:
    b = SheetBuilder(sheet.name, date1904=sheet.date1904)
    r0, c0 = sheet.origin
    mask = (sheet.kinds != 0) | (sheet.formula_ids >= 0) | (sheet.format_ids != 0) | (sheet.styles != 0)
    fmt_ids = [b.intern_format(f) for f in sheet.number_formats]
    for i, j in zip(*np.nonzero(mask), strict=True):
        r, c = int(i) + r0, int(j) + c0
        if (r, c) in cells:
            continue
        k = int(sheet.kinds[i, j])
        tid = int(sheet.text_ids[i, j])
        fid = int(sheet.formula_ids[i, j])
        b.add(
            r,
            c,
            k,
            float(sheet.numbers[i, j]),
            sheet.texts[tid] if tid >= 0 and k in (Kind.TEXT, Kind.ERROR) else None,
            sheet.formulas[fid] if fid >= 0 else None,
            fmt_ids[int(sheet.format_ids[i, j])],
            int(sheet.styles[i, j]),
        )
    for (r, c), content in cells.items():
        old = sheet.cell(r, c)
        fmt = content.number_format if content.number_format is not None else old.number_format
        kind = _KIND_OF.get(content.type, Kind.EMPTY)
        value = content.value
        num, text = 0.0, None
        if kind in (Kind.NUMBER, Kind.DATETIME, Kind.BOOL) and value is not None:
            num = float(value)
            if kind == Kind.NUMBER and is_date_format(fmt) and 0 <= num < 2958466:
                kind = Kind.DATETIME
        elif kind in (Kind.TEXT, Kind.ERROR) and value is not None:
            text = str(value)
        else:
            kind = Kind.EMPTY
        b.add(r, c, kind, num, text, content.formula, b.intern_format(fmt), int(old.style))
    for m in sheet.merges:
        b.add_merge(m)
    return b.build()

"""Display text and per-cell signatures of a block of a sheet, computed vectorised.

Why not ``format_value`` per cell: a 1M-cell sheet would need 1M Cell objects. Here each distinct
(number, format) pair is formatted once and text cells are gathered by index.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gridsight.grid import Cell, Kind, Sheet, Style, format_number, format_value, serial_to_datetime

IntArray = npt.NDArray[np.intp]
ObjArray = npt.NDArray[np.object_]


def _general(x: float) -> str:
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.10g}"


def _datetime_text(serial: float, fmt: str, date1904: bool) -> str:
    try:
        value = serial_to_datetime(serial, date1904=date1904)
    except (ValueError, OverflowError):
        return _general(serial)
    return format_value(Cell(0, 0, Kind.DATETIME, value, None, fmt))


def display_block(
    sheet: Sheet,
    rows: IntArray,
    cols: IntArray,
    *,
    formulas_when_empty: bool = True,
    skip: npt.NDArray[np.bool_] | None = None,
) -> ObjArray:
    """Display text of the cells at local ``rows`` x ``cols`` ('' for empty), as a 2-D object array.

    A formula cell without a cached value shows its formula text, so the model still sees that the
    cell is not blank. Numbers under ``skip`` (cells that will be aggregated) are not formatted; they
    get the placeholder ``"#"``.
    """
    ix = np.ix_(rows, cols)
    kinds = sheet.kinds[ix]
    out = np.full(kinds.shape, "", dtype=object)
    if kinds.size == 0:
        return out
    tids = sheet.text_ids[ix]
    texty = (kinds == Kind.TEXT) | (kinds == Kind.ERROR)
    if texty.any():
        table = np.array(sheet.texts, dtype=object)
        out[texty] = table[tids[texty]]
    boolean = kinds == Kind.BOOL
    if boolean.any():
        out[boolean] = np.where(sheet.numbers[ix][boolean] != 0, "TRUE", "FALSE")
    numeric = (kinds == Kind.NUMBER) | (kinds == Kind.DATETIME)
    if skip is not None:
        out[numeric & skip] = "#"
        numeric &= ~skip
    if numeric.any():
        nums = sheet.numbers[ix]
        fids = sheet.format_ids[ix]
        is_dt = kinds == Kind.DATETIME
        for fid in np.unique(fids[numeric]).tolist():
            fmt = sheet.number_formats[fid]
            for dt_flag in (False, True):
                sel = numeric & (fids == fid) & (is_dt if dt_flag else ~is_dt)
                if not sel.any():
                    continue
                uniq, inverse = np.unique(nums[sel], return_inverse=True)
                if dt_flag:
                    strs = [_datetime_text(x, fmt, sheet.date1904) for x in uniq.tolist()]
                elif fid == 0:
                    strs = [_general(x) for x in uniq.tolist()]
                else:
                    strs = [format_number(x, fmt) for x in uniq.tolist()]
                out[sel] = np.array(strs, dtype=object)[inverse]
    if formulas_when_empty:
        fids_f = sheet.formula_ids[ix]
        pending = (kinds == Kind.EMPTY) & (fids_f >= 0)
        if pending.any():
            ftable = np.array(sheet.formulas, dtype=object)
            out[pending] = ftable[fids_f[pending]]
    return out


def valued_cells(sheet: Sheet, rows: IntArray, cols: IntArray) -> npt.NDArray[np.bool_]:
    """Kept cells that hold a value rather than a label: numbers, dates, booleans, errors, formulas.
    A row with one of them is a data row (or a total), a row without is a header, title or note."""
    ix = np.ix_(rows, cols)
    kinds = sheet.kinds[ix]
    return (
        (kinds == Kind.NUMBER)
        | (kinds == Kind.DATETIME)
        | (kinds == Kind.BOOL)
        | (kinds == Kind.ERROR)
        | (sheet.formula_ids[ix] >= 0)
    )


def merged_mask(sheet: Sheet) -> npt.NDArray[np.bool_]:
    """Local cells that lie inside a merged range (clipped to the arrays)."""
    h, w = sheet.shape
    mask = np.zeros((h, w), dtype=bool)
    r0, c0 = sheet.origin
    for m in sheet.merges:
        t, b = max(m.top - r0, 0), min(m.bottom - r0, h - 1)
        left, right = max(m.left - c0, 0), min(m.right - c0, w - 1)
        if t <= b and left <= right:
            mask[t : b + 1, left : right + 1] = True
    return mask


_FMT_GENERAL, _FMT_NUMBER, _FMT_PERCENT, _FMT_DATE, _FMT_OTHER = 0, 1, 2, 3, 4


def _format_classes(sheet: Sheet) -> npt.NDArray[np.uint16]:
    """Per distinct number format: a coarse class (General / number / percent / date / other)."""
    from gridsight.encode._types import DataType, format_type

    classes = np.zeros(len(sheet.number_formats), dtype=np.uint16)
    for i, fmt in enumerate(sheet.number_formats):
        t = format_type(fmt)
        if t is None:
            classes[i] = _FMT_GENERAL if fmt in ("", "General", "@") else _FMT_OTHER
        elif t == DataType.PERCENTAGE:
            classes[i] = _FMT_PERCENT
        elif t in (DataType.DATE, DataType.TIME):
            classes[i] = _FMT_DATE
        else:
            classes[i] = _FMT_NUMBER
    return classes


def signatures(sheet: Sheet) -> npt.NDArray[np.uint16]:
    """One code per cell packing what makes neighbouring rows/columns differ (appendix C):
    kind (3 bits), style flags (bold/italic/underline/fill/4 borders: 8 bits), merged (1),
    formula (1), number-format class (3). 0 means an empty, unstyled, unmerged cell."""
    filled = sheet.kinds != 0
    code = sheet.kinds.astype(np.uint16)
    # Font flags on an empty cell show nothing; fills and borders on it are visible structure.
    visible = np.where(
        filled, sheet.styles, sheet.styles & ~np.uint8(Style.BOLD | Style.ITALIC | Style.UNDERLINE)
    )
    code |= visible.astype(np.uint16) << 3
    if sheet.merges:
        code |= merged_mask(sheet).astype(np.uint16) << 11
    code |= (sheet.formula_ids >= 0).astype(np.uint16) << 12
    if len(sheet.number_formats) > 1:
        code |= (_format_classes(sheet)[sheet.format_ids] * filled) << 13
    return code

"""Cell classes for detection: what a cell *is* for layout purposes, one small int per cell.

Why not the raw ``Kind``: a table's shape is about emptiness and value-versus-label, not storage.
Text that reads as a number (``"1,234"``, ``"12%"``, ``"0.3*"``), placeholders (``"-"``, ``"n/a"``)
and formula cells without a cached value all behave like values; whitespace-only text is empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gridsight.grid import Kind, Sheet, Style
from gridsight.text import CURRENCY_CLASS, CURRENCY_SIGNS, is_outline_mark

EMPTY, VALUE, TEXT = 0, 1, 2

_NUMERIC_TEXT = re.compile(
    rf"^\s*[-+−(]?\s*{CURRENCY_CLASS}?\s*(\d{{1,3}}(?:\.\d{{3}})+(?:,\d+)?|\d[\d,' ]*(\.\d*)?|\.\d+)\s*"
    r"(%|[kKmMbB]n?)?\s*\)?\s*[*†‡]*\s*$"
)  # (``48.210.334,12``: points group the thousands, a comma the decimals, as German accounts write)
#: A year written as text, with the footnote or status mark statistics offices add (``2024 1)``,
#: ``2024p``, ``2023*``, ``2022 (r)``, ``2021¹``).
_YEAR = re.compile(r"^\s*(1[89]|2[01])\d\d(?:\s*(?:\d\)|\(\w\)|[a-z]|\*+|[\u00b9\u00b2\u00b3]))?\s*$")
_ORDINAL = re.compile(r"^\s*[(\[]?\s*(\d{1,3})\s*[)\].]?\s*$")
_PLACEHOLDER = re.compile(r"^\s*(-+|–|—|\.+|…|n/?a|na|nil|none|x|\*+|\?|#)\s*$", re.IGNORECASE)


#: A currency's thousands written as a caption: ``£000``, ``$'000``, ``(€000)`` -- a unit, no figure.
_THOUSANDS = re.compile(rf"^\s*\(?\s*{CURRENCY_CLASS}\s*'?000\s*\)?\s*$")


def _text_class(text: str) -> int:
    if not text.strip() or text.strip() in CURRENCY_SIGNS:
        return EMPTY  # (a "$" in its own column, as a statement converted from PDF has it: no cell)
    if _THOUSANDS.match(text):
        return TEXT
    if _NUMERIC_TEXT.match(text) or _PLACEHOLDER.match(text):
        return VALUE
    return TEXT


@dataclass(frozen=True, slots=True)
class CellGrid:
    """Per-cell layout facts over the sheet's used range (local coordinates, origin aside)."""

    cls: npt.NDArray[np.uint8]  # EMPTY / VALUE / TEXT
    text_len: npt.NDArray[np.int32]  # characters of text cells, 0 elsewhere
    styled: npt.NDArray[np.bool_]  # bold, fill or a border: the formatting cues of headers
    bold: npt.NDArray[np.bool_]
    yearish: npt.NDArray[np.bool_]  # whole numbers 1800..2200: years used as column labels
    ordinal: npt.NDArray[np.int32]  # n for cells reading n, "(n)", "n." (n < 1000), else -1
    merge_span: npt.NDArray[np.int32]  # columns spanned by a merge anchored here (1 elsewhere)
    label_ids: npt.NDArray[np.int32]  # text id of TEXT cells, -1 elsewhere (equal labels compare equal)
    occupied: npt.NDArray[np.bool_]  # content, or covered by a vertical merge of content
    prose: npt.NDArray[np.bool_]  # lines of a paragraph typed down a column (never table cells)
    origin: tuple[int, int]

    def figures(self, rows: slice | int, cols: slice) -> npt.NDArray[np.bool_]:
        """Cells of ``rows`` x ``cols`` holding a figure that is no year (years label columns)."""
        return (self.cls[rows, cols] == VALUE) & ~self.yearish[rows, cols]

    def labels(self, rows: slice | int, cols: slice) -> npt.NDArray[np.bool_]:
        """Cells of ``rows`` x ``cols`` holding a label or a year: what header rows are made of."""
        return (self.cls[rows, cols] == TEXT) | self.yearish[rows, cols]


def _prose(sheet: Sheet, cls: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Cells holding the lines of a paragraph typed one line per row down a column.

    A paragraph shows itself by a line that continues the sentence of the line above (the upper
    one ends without a full stop, the lower starts in lower case or with a figure) among a run
    of three or more long lines (25+ characters, 4+ words). Long row labels of a table
    (``Percentage of girls married before 18``) each start a sentence of their own.
    """
    out = np.zeros(cls.shape, dtype=bool)
    texts = sheet.texts
    if not texts or cls.shape[0] < 3:
        return out
    stripped = [t.strip() for t in texts]
    long_ = np.fromiter((len(t) >= 25 and len(t.split()) >= 4 for t in stripped), bool, len(texts))
    lower = np.fromiter((bool(t) and (t[0].islower() or t[0].isdigit()) for t in stripped), bool, len(texts))
    open_ = np.fromiter((bool(t) and t[-1] not in ".:;!?)" for t in stripped), bool, len(texts))
    ids = np.where(cls == TEXT, sheet.text_ids, -1)
    safe = np.where(ids >= 0, ids, 0)
    is_long = (ids >= 0) & long_[safe]
    cont = np.zeros(cls.shape, dtype=bool)
    cont[1:] = is_long[1:] & is_long[:-1] & lower[safe[1:]] & open_[safe[:-1]]
    for c in np.flatnonzero(cont.any(axis=0)):
        col = is_long[:, c]
        padded = np.concatenate(([False], col, [False])).astype(np.int8)
        edges = np.flatnonzero(np.diff(padded))
        for a, b in zip(edges[::2], edges[1::2], strict=True):
            if b - a >= 3 and cont[a + 1 : b, c].any():
                out[a:b, c] = True
                # a short last line that ends the sentence (``the null hypothesis.``)
                if b < cls.shape[0] and ids[b, c] >= 0 and lower[safe[b, c]] and open_[safe[b - 1, c]]:
                    out[b, c] = True
    return out


def _year_series(kinds: npt.NDArray[np.uint8], nums: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Whole numbers 1800..2200 that may be years: in a row holding several, only when they run
    as years do, no more than ten apart on average (``2024 | 2023``, ``1950 | 1960 | 1970``), not
    figures that fall in that range (``Borrowings | 1837 | 2091``)."""
    years = (kinds == Kind.NUMBER) & (nums >= 1800) & (nums <= 2200) & (np.floor(nums) == nums)
    count = years.sum(axis=1)
    if not (count >= 2).any():
        return years
    lo = np.where(years, nums, np.inf).min(axis=1)
    hi = np.where(years, nums, -np.inf).max(axis=1)
    apart = (count >= 2) & (hi - lo > 10 * (count - 1))
    # one figure repeated over numbers (``Equity investments | 2200 | 2200`` above ``310 | 290``): a
    # line's unchanged balance; one year repeated heads finer labels (``2024 | 2024`` over
    # ``Actual | Budget``)
    below = np.zeros_like(years)
    below[:-1] = years[:-1] & (kinds[1:] == Kind.NUMBER)
    first = np.where(years.any(axis=1), years.argmax(axis=1), 0)
    cols = np.arange(kinds.shape[1])[None, :]
    text_after = ((kinds == Kind.TEXT) & (cols > first[:, None])).any(axis=1)  # (``2021 | 2022 (p) | 2021``)
    same = (count >= 2) & (hi == lo) & (below.sum(axis=1) == count) & ~text_after
    return years & ~(apart | same)[:, None]


#: Rows below a date looked at for what it heads.
_PERIOD_LOOK = 6


def _period_dates(kinds: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Dates that label a column as years do (``31 Mar 2024 | 31 Mar 2023`` over a statement's
    figures): the next filled cell below, within a few rows, holds no date. A date column of a
    body has dates below its dates (its last row aside, which has nothing below it)."""
    dates = kinds == Kind.DATETIME
    out = np.zeros(kinds.shape, dtype=bool)
    if not dates.any():
        return out
    pending = dates.copy()
    for k in range(1, _PERIOD_LOOK + 1):
        below = np.full(kinds.shape, Kind.EMPTY, dtype=kinds.dtype)
        below[:-k] = kinds[k:]
        filled = pending & (below != Kind.EMPTY)
        out |= filled & (below != Kind.DATETIME)
        pending &= ~filled
    return out


def _outline_columns(
    sheet: Sheet, kinds: npt.NDArray[np.uint8], cls: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint8]:
    """``cls`` with the outline numbers of a column of outline marks read as labels: where a column
    numbers a statement's lines ``I.``, ``(1)``, ``(a)``, ``(i)``, its ``(1)`` is no figure (minus one)."""
    if not sheet.texts:
        return cls
    marks = np.fromiter((is_outline_mark(t) for t in sheet.texts), dtype=bool, count=len(sheet.texts))
    is_text = kinds == Kind.TEXT
    mark = is_text & marks[np.where(is_text, sheet.text_ids, 0)]
    lettered = (mark & (cls == TEXT)).sum(axis=0)  # (``(a)``, ``I.``: marks no one reads as figures)
    numbered = mark & (cls == VALUE)
    columns = (lettered >= 2) & (mark.sum(axis=0) >= 3)
    return np.where(numbered & columns[None, :], TEXT, cls).astype(np.uint8)


def cell_grid(sheet: Sheet) -> CellGrid:
    """Classify every cell of the used range with vectorised lookups (one pass per distinct text)."""
    kinds = sheet.kinds
    cls = np.where(kinds == Kind.EMPTY, EMPTY, VALUE).astype(np.uint8)
    text_len = np.zeros(kinds.shape, dtype=np.int32)
    if sheet.texts:
        per_text = np.fromiter((_text_class(t) for t in sheet.texts), dtype=np.uint8, count=len(sheet.texts))
        lens = np.fromiter((len(t.strip()) for t in sheet.texts), dtype=np.int32, count=len(sheet.texts))
        is_text = kinds == Kind.TEXT
        ids = np.where(is_text, sheet.text_ids, 0)
        cls = np.where(is_text, per_text[ids], cls).astype(np.uint8)
        text_len = np.where(is_text & (cls == TEXT), lens[ids], 0).astype(np.int32)
    # A formula whose cached value is missing still holds a value.
    cls = np.where((cls == EMPTY) & (sheet.formula_ids >= 0), VALUE, cls).astype(np.uint8)
    st = sheet.styles
    bold = (st & Style.BOLD) != 0
    styled = (st & (Style.BOLD | Style.FILL | Style.BORDER_BOTTOM | Style.BORDER_TOP)) != 0
    nums = sheet.numbers
    yearish = _year_series(kinds, nums)
    if sheet.texts:
        year_text = np.fromiter(
            (bool(_YEAR.match(t)) for t in sheet.texts), dtype=bool, count=len(sheet.texts)
        )
        yearish |= (kinds == Kind.TEXT) & year_text[np.where(kinds == Kind.TEXT, sheet.text_ids, 0)]
    yearish |= _period_dates(kinds)
    ordinal = np.where(
        (kinds == Kind.NUMBER) & (nums >= 0) & (nums < 1000) & (np.floor(nums) == nums), nums, -1
    ).astype(np.int32)
    if sheet.texts:
        per_ord = np.fromiter(
            (int(om.group(1)) if (om := _ORDINAL.match(t)) else -1 for t in sheet.texts),
            dtype=np.int32,
            count=len(sheet.texts),
        )
        is_txt = kinds == Kind.TEXT
        ordinal = np.where(is_txt, per_ord[np.where(is_txt, sheet.text_ids, 0)], ordinal).astype(np.int32)
    cls = _outline_columns(sheet, kinds, cls)
    merge_span = np.ones(kinds.shape, dtype=np.int32)
    label_ids = np.where(cls == TEXT, sheet.text_ids, -1).astype(np.int32)
    # paragraph lines keep their text (label_ids) but leave the layout: they are lines of their
    # own beside the tables, never cells of one
    prose = _prose(sheet, cls)
    cls = np.where(prose, EMPTY, cls).astype(np.uint8)
    text_len = np.where(prose, 0, text_len).astype(np.int32)
    occupied = cls != EMPTY
    r0, c0 = sheet.origin
    h, w = kinds.shape
    for m in sheet.merges:
        r, c = m.top - r0, m.left - c0
        if 0 <= r < h and 0 <= c < w:
            merge_span[r, c] = m.right - m.left + 1
            # a header merged down over rows fills them (no false blank row under it); merges
            # across columns do not, or a merged title would bridge side-by-side tables
            if m.bottom > m.top and occupied[r, c]:
                occupied[r : m.bottom - r0 + 1, c] = True
    # ...but a label merged across columns in a row that holds other cells too (a merged row
    # label beside its values, a group header among headers) fills its columns, so a column left
    # empty by merges does not cut the table in two
    for m in sheet.merges:
        r, c = m.top - r0, m.left - c0
        if 0 <= r < h and 0 <= c < w and m.right > m.left and cls[r, c] != EMPTY:
            right = min(m.right - c0, w - 1)
            for rr in range(r, min(m.bottom - r0, h - 1) + 1):
                outside = np.count_nonzero(cls[rr, :c]) + np.count_nonzero(cls[rr, right + 1 :])
                if outside:
                    occupied[rr, c : right + 1] = True
    return CellGrid(
        cls,
        text_len,
        styled,
        bold,
        yearish,
        ordinal,
        merge_span,
        label_ids,
        occupied,
        prose,
        sheet.origin,
    )

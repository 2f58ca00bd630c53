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

EMPTY, VALUE, TEXT = 0, 1, 2

_NUMERIC_TEXT = re.compile(
    r"^\s*[-+−(]?\s*[$€£¥]?\s*(\d[\d,' ]*(\.\d*)?|\.\d+)\s*(%|[kKmMbB]n?)?\s*\)?\s*[*†‡]*\s*$"
)
_YEAR = re.compile(r"^\s*(1[89]|2[01])\d\d\s*$")
_ORDINAL = re.compile(r"^\s*[(\[]?\s*(\d{1,3})\s*[)\].]?\s*$")
_PLACEHOLDER = re.compile(r"^\s*(-+|–|—|\.+|…|n/?a|na|nil|none|x|\*+|\?|#)\s*$", re.IGNORECASE)


def _text_class(text: str) -> int:
    if not text.strip():
        return EMPTY
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
    origin: tuple[int, int]


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
    yearish = (kinds == Kind.NUMBER) & (nums >= 1800) & (nums <= 2200) & (np.floor(nums) == nums)
    if sheet.texts:
        year_text = np.fromiter(
            (bool(_YEAR.match(t)) for t in sheet.texts), dtype=bool, count=len(sheet.texts)
        )
        yearish |= (kinds == Kind.TEXT) & year_text[np.where(kinds == Kind.TEXT, sheet.text_ids, 0)]
    ordinal = np.where(
        (kinds == Kind.NUMBER) & (nums >= 0) & (nums < 1000) & (np.floor(nums) == nums), nums, -1
    ).astype(np.int32)
    if sheet.texts:
        per_ord = np.fromiter(
            (int(m.group(1)) if (m := _ORDINAL.match(t)) else -1 for t in sheet.texts),
            dtype=np.int32,
            count=len(sheet.texts),
        )
        is_txt = kinds == Kind.TEXT
        ordinal = np.where(is_txt, per_ord[np.where(is_txt, sheet.text_ids, 0)], ordinal).astype(np.int32)
    merge_span = np.ones(kinds.shape, dtype=np.int32)
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
    label_ids = np.where(cls == TEXT, sheet.text_ids, -1).astype(np.int32)
    return CellGrid(
        cls, text_len, styled, bold, yearish, ordinal, merge_span, label_ids, occupied, sheet.origin
    )

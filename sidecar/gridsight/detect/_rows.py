"""Row-level judgements shared by assembly and structure: header-like rows, text lines, notes.

Headers are recognised by contrast with the body below them, never by position alone: a header
row is mostly labels (or a run of years) where the body holds values, or it carries formatting
(bold, fill, borders) that the body does not.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from gridsight.detect._cells import TEXT, VALUE, CellGrid
from gridsight.detect._segment import Box

NOTE_MARKER = re.compile(
    # (a number with a digit after its point is no marker: ``31.12.2024`` is a date, ``1.5`` a figure)
    r"^\s*(\*|†|‡|¹|²|³|\(?\d{1,2}[).:](?!\d)|\(?[a-z]\)|notes?\b|sources?\b|nb\b|n\.b\.|footnote|remark)",
    re.IGNORECASE,
)


def row_cells(g: CellGrid, box: Box, r: int) -> np.ndarray:
    return g.cls[r, box.left : box.right + 1]


def body_value_cols(g: CellGrid, box: Box, start: int) -> np.ndarray:
    """Columns (relative to box) where rows ``start..bottom`` hold values more often than labels."""
    if start > box.bottom:
        return np.zeros(box.width, dtype=bool)
    body = g.cls[start : box.bottom + 1, box.left : box.right + 1]
    n_val = (body == VALUE).sum(axis=0)
    n_txt = (body == TEXT).sum(axis=0)
    return (n_val > n_txt) & (n_val > 0)


def _yearish(g: CellGrid, r: int, box: Box) -> bool:
    y = g.yearish[r, box.left : box.right + 1]
    occ = g.cls[r, box.left : box.right + 1] != 0
    return bool(
        occ.sum() >= 2 and (y | ~occ | (g.cls[r, box.left : box.right + 1] == TEXT)).all() and y.sum() >= 2
    )


def is_numbering_row(g: CellGrid, box: Box, r: int) -> bool:
    """Column numbers ``(1) (2) (3) ...`` (or 1 2 3): a header line of statistical tables, though
    its cells read as numbers."""
    occ = row_cells(g, box, r) != 0
    nums = g.ordinal[r, box.left : box.right + 1][occ]
    return bool(nums.size >= 3 and nums[0] == 1 and (np.diff(nums) == 1).all())


def is_header_row(g: CellGrid, box: Box, r: int) -> bool:
    """A row that labels the columns of the rows under it inside ``box``."""
    if r < box.bottom and is_numbering_row(g, box, r):
        return True
    cells = row_cells(g, box, r)
    occ = cells != 0
    n = int(occ.sum())
    if n == 0:
        return False
    n_text = int((cells == TEXT).sum())
    figures = (cells == VALUE) & ~g.yearish[r, box.left : box.right + 1]
    if figures.sum() >= 2 and r < box.bottom:
        return False  # figures that are no years (a bold total first under the header) head nothing
    merged_wide = bool(g.merge_span[r, box.left : box.right + 1].max(initial=1) >= 2)
    if n < 2 and not merged_wide:
        return False
    vals = body_value_cols(g, box, r + 1)
    style_row = g.styled[r, box.left : box.right + 1][occ].mean() >= 0.5
    if r < box.bottom:
        below = g.styled[r + 1 : box.bottom + 1, box.left : box.right + 1]
        below_occ = g.cls[r + 1 : box.bottom + 1, box.left : box.right + 1] != 0
        style_body = below[below_occ].mean() >= 0.5 if below_occ.any() else False
    else:
        style_body = False
    style_contrast = bool(style_row and not style_body)
    if _yearish(g, r, box) and vals.any():
        return True
    years = g.yearish[r, box.left : box.right + 1]
    if merged_wide and r < box.bottom and bool((years | ~occ).all()):
        return True  # a year merged across the columns under it: a band over their labels
    if n_text < 0.5 * n:
        return False
    if vals.sum() >= 2:
        # a header names most value columns (a merged label counts for every column it spans)
        spans = g.merge_span[r, box.left : box.right + 1]
        covered = np.zeros(box.width, dtype=bool)
        for j in np.flatnonzero(occ):
            covered[j : j + int(spans[j])] = True
        if (covered & vals).sum() < 0.5 * vals.sum() and not style_contrast:
            return False
    if not vals.any():
        # all-label body: only formatting can tell a header apart (or it is the only row)
        return style_contrast or r == box.bottom
    # labels above value columns, or a formatting contrast
    return bool(((cells == TEXT) & vals).any() or style_contrast)


def is_text_line(g: CellGrid, box: Box, r: int) -> bool:
    """One label alone in its row (a title, a note, a section label), or one label repeated
    across the row, which is how a merged title looks once exported to CSV."""
    cells = row_cells(g, box, r)
    occ = cells != 0
    if occ.sum() == 1:
        return bool((cells == TEXT).any())
    ids = g.label_ids[r, box.left : box.right + 1][occ]
    return bool(
        occ.sum() >= 2
        and (ids >= 0).all()
        and (ids == ids[0]).all()
        and int(g.text_len[r, box.left : box.right + 1].max()) >= 12
    )


def is_line_block(g: CellGrid, box: Box) -> bool:
    """Every row is a lone label (a title or a paragraph of notes)."""
    return all(
        is_text_line(g, box, r) or not row_cells(g, box, r).any() for r in range(box.top, box.bottom + 1)
    )


def looks_like_note(g: CellGrid, box: Box, r: int, text: str) -> bool:
    """A lone label at the bottom that reads as a footnote rather than a short last data row."""
    if NOTE_MARKER.match(text):
        return True
    col = int(np.flatnonzero(row_cells(g, box, r))[0]) + box.left
    lens = g.text_len[box.top : r, col]
    lens = lens[lens > 0]
    typical = float(np.median(lens)) if lens.size else 0.0
    return len(text.strip()) >= 25 and len(text.strip()) > 2 * typical


def names_its_columns(g: CellGrid, box: Box) -> bool:
    """In a table of labels only with no formatting (a CSV of names and categories), the first row
    is its header when it fills every column and none of its labels occurs again in its column,
    except on rows that repeat the whole header (the header printed again on every page)."""
    inside = g.cls[box.top : box.bottom + 1, box.left : box.right + 1]
    if box.height < 3 or box.width < 2 or (inside == VALUE).any() or (inside[0] != TEXT).any():
        return False
    ids = g.label_ids[box.top : box.bottom + 1, box.left : box.right + 1]
    same = ids[1:] == ids[0]
    repeats = same.all(axis=1)
    rest = same[~repeats]
    return bool(rest.shape[0] >= 2 and not rest.any())


def is_key_value_block(g: CellGrid, box: Box, text_at: Callable[[int, int], str]) -> bool:
    """Two columns of ``key | value`` lines with no header (``Source: | ...``, ``Released |
    November 2007``): the metadata beside a table, not a table. The left column holds labels; the
    right one is not a column of figures and reads as free text: its entries are longer than the
    keys, mix figures with words, or follow keys ending in a colon."""
    if box.width != 2 or box.height > 15 or box.height < 2 or is_header_row(g, box, box.top):
        return False
    area = slice(box.top, box.bottom + 1)
    left, right = g.cls[area, box.left], g.cls[area, box.right]
    if (left == VALUE).any() or not (left == TEXT).any() or (g.styled[area, box.left : box.right + 1]).any():
        return False
    n_val, n_txt = int((right == VALUE).sum()), int((right == TEXT).sum())
    if n_val >= 0.7 * max(n_val + n_txt, 1):
        return False
    keys = g.text_len[area, box.left][left == TEXT]
    vals = g.text_len[area, box.right][right == TEXT]
    colon = sum(text_at(r, box.left).rstrip().endswith(":") for r in range(box.top, box.bottom + 1))
    longer = vals.size > 0 and float(np.median(vals)) >= 1.5 * float(np.median(keys))
    return bool((n_val and n_txt) or colon * 2 >= keys.size or longer)


def is_notes_block(g: CellGrid, box: Box, text_at: Callable[[int, int], str]) -> bool:
    """Footnotes set side by side (the same notes in two languages, or in two columns): every
    filled cell is a label that starts with a note marker (``1)``, ``*``, ``Note:``). A numbered
    list's items carry the marker in their first column only."""
    area = g.cls[box.top : box.bottom + 1, box.left : box.right + 1]
    cells = np.argwhere(area != 0)
    return bool(
        cells.size
        and (area[area != 0] == TEXT).all()
        and all(NOTE_MARKER.match(text_at(box.top + int(r), box.left + int(c))) for r, c in cells)
    )


#: Rows and columns up to which a block without a header is a few labelled figures, not a table.
MAX_LINES_BLOCK = 3


def is_label_value_lines(g: CellGrid, box: Box) -> bool:
    """A few lines of ``label | figure`` (``LSD(0.05) | 2.24``, ``Energy use | MJ/TEU | 41``)
    with no header: results or parameters written beside a table, not a table of their own. A
    table shows a header, or enough rows and columns to make a pattern."""
    if box.height > MAX_LINES_BLOCK or box.width > MAX_LINES_BLOCK or is_header_row(g, box, box.top):
        return False
    rows = slice(box.top, box.bottom + 1)
    first, rest = g.cls[rows, box.left], g.cls[rows, box.left + 1 : box.right + 1]
    return bool((first == TEXT).all() and (rest == VALUE).any(axis=1).all())

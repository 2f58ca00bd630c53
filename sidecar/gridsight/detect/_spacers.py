"""Columns between blocks: an empty (or near-empty) spacer column, or none where tables touch.

A spacer column either sets apart two parts of one table or stands between two tables. The header
band tells them apart, not the width of the gap:

* the blocks on both sides open with a header band on the same rows, and their bodies start on the
  same row: one table, its columns grouped by spacing (the right block's rows are its rows, even
  where it leaves its last rows empty); unless both name their own rows, or each opens with its
  own title line (a lone label on the right block's top row that stands on a row of the left
  block's header, over a block that names no rows, is a column group of that header, not a title);
* the body of one block starts on a row where the other still has header rows (or the other way
  round): two tables whose rows do not line up, side by side;
* a column holding a stray cell or two (a footnote mark, a lone figure) but nothing in the header
  band, or one header cell over an empty body, is still a spacer: the blocks on its sides are
  weighed as if it were empty.

Tables touching with no column between are cut by the same evidence: one side's header row
standing beside the other side's body, or a second column of row names that ends on another row.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gridsight.detect._cells import TEXT, VALUE, CellGrid
from gridsight.detect._rows import is_numbering_row
from gridsight.detect._segment import Box, xy_cut

#: A spacer column may hold stray cells on at most this share of a block's body rows (and on at
#: most :data:`MAX_STRAY` rows): a footnote mark or a lone figure, not a sparse column of values.
STRAY_SHARE = 0.1
MAX_STRAY = 2
#: Column cuts weighed per block between touching tables (each reads both sides' header bands).
MAX_CUTS = 50
#: Cuts between touching tables made per sheet (a sheet of hundreds of touching blocks is noise).
MAX_TOUCHING_CUTS = 200
#: Rows a header band may span (as for a header spread over blank rows in assembly).
MAX_BAND_ROWS = 12
#: Body rows a block needs before a near-empty column may split it: stray cells in a short block
#: are as likely a sparse column as a spacer.
MIN_BODY_ROWS = 5


def header_band(g: CellGrid, box: Box) -> tuple[int, int] | None:
    """Rows ``(first, last)`` of the header band that opens ``box``: the label rows above its first
    row of figures (years and column numbers are labels), without a title line on top (a lone label
    in the first column). ``None`` when no figure follows, the label rows run longer than
    :data:`MAX_BAND_ROWS`, or no band row holds two labels."""
    area = slice(box.top, box.bottom + 1), slice(box.left, box.right + 1)
    rows = np.flatnonzero(g.figures(*area).any(axis=1))
    first_body = next(
        (box.top + int(i) for i in rows if not is_numbering_row(g, box, box.top + int(i))), None
    )
    if first_body is None or first_body == box.top:
        return None
    top = box.top
    while top < first_body:
        occ = np.flatnonzero(g.cls[top, box.left : box.right + 1] != 0)
        if occ.size == 1 and occ[0] == 0 and box.width > 1:
            top += 1  # a title line at the block's left edge
        elif occ.size == 0:
            top += 1
        else:
            break
    if top >= first_body or first_body - top > MAX_BAND_ROWS:
        return None  # (rows of labels running longer than a header: a list, not a header band)
    cols = slice(box.left, box.right + 1)
    labels = g.labels(slice(top, first_body), cols).sum(axis=1)
    if int(labels.max()) < min(2, box.width):
        return None
    return top, first_body - 1


def _key_column(g: CellGrid, box: Box, first_body: int) -> bool:
    """The block's first column names its rows: mostly labels, years, or an index (1 2 3 ...)."""
    col = g.cls[first_body : box.bottom + 1, box.left]
    filled = int(np.count_nonzero(col))
    if filled == 0:
        return False
    if (col == TEXT).sum() >= 0.7 * filled:
        return True
    if filled >= 3 and g.yearish[first_body : box.bottom + 1, box.left][col != 0].all():
        return True  # years naming the rows
    nums = g.ordinal[first_body : box.bottom + 1, box.left][col != 0]  # an index: 1 2 3 ...
    return bool(nums.size >= 3 and (nums >= 0).all() and (np.diff(nums) == 1).all())


Band = Callable[[CellGrid, Box], tuple[int, int] | None]


def spacer_verdict(g: CellGrid, a: Box, b: Box, band: Band | None = None) -> bool | None:
    """Whether two blocks side by side (``a`` left of ``b``, nothing between them) are one table by
    their header bands: ``True`` (same band rows, the right block names no rows of its own),
    ``False`` (their bodies start on different rows, or each block opens with its own title line:
    not a group label beside the left block's header, see :func:`_column_group`),
    ``None`` (the bands do not tell). ``band`` reads a block's header band (:func:`header_band`,
    or a cached copy of it)."""
    read = band or header_band
    ha, hb = read(g, a), read(g, b)
    if ha is None or hb is None:
        return None
    if ha[1] != hb[1]:
        return False
    if ha[0] > a.top and hb[0] > b.top and _title_line(g, a) and _title_line(g, b):
        if not _column_group(g, a, b, ha, hb):
            return False  # each block carries its own title line: two tables
        hb = (b.top, hb[1])  # the right block's lone label heads its columns: a group of one header
    if ha[0] != hb[0]:
        # a group row over one side only: one table when a group label merged over the gap (not
        # over the row names) heads columns on both sides, or when the left block names the rows
        # and the right one, its body on the same rows, names none of its own
        if _group_over_gap(g, a, b, min(ha[0], hb[0]), ha[1]):
            return True
        keyed = _key_column(g, a, ha[1] + 1) and not _key_column(g, b, hb[1] + 1)
        return True if keyed else None
    if _key_column(g, b, hb[1] + 1):
        # both name their rows: two tables side by side; a block of figures left of row names
        # (``Id | Score`` then ``Name | ...``) is left to the other rules
        return False if _key_column(g, a, ha[1] + 1) else None
    return True


def _title_line(g: CellGrid, box: Box) -> bool:
    """The block opens with a lone label in its first column (its title)."""
    occ = np.flatnonzero(g.cls[box.top, box.left : box.right + 1] != 0)
    return bool(occ.size == 1 and occ[0] == 0 and g.cls[box.top, box.left] == TEXT)


def _column_group(g: CellGrid, a: Box, b: Box, ha: tuple[int, int], hb: tuple[int, int]) -> bool:
    """The lone label on top of ``b`` (read as its title line) stands on a row of ``a``'s header
    band that holds a label of ``a`` too, above ``b``'s band, and ``b`` names no rows of its own:
    the label heads a group of columns of ``a``'s table (``Openings`` over its years beside
    ``Active firms`` over theirs), not a table of its own, whose title would stand above the
    headers, over rows that it names. (Both bands end on the same row.)"""
    return bool(
        ha[0] <= b.top < hb[0]
        and g.labels(b.top, slice(a.left, a.right + 1)).any()
        and not _key_column(g, b, hb[1] + 1)
    )


def _group_over_gap(g: CellGrid, a: Box, b: Box, top: int, bottom: int) -> bool:
    """A label merged across the gap between ``a`` and ``b`` on header rows ``top..bottom``,
    anchored right of ``a``'s first column (a title over side-by-side tables starts at the left)."""
    spans = g.merge_span[top : bottom + 1, a.left + 1 : a.right + 1]
    ends = np.arange(a.left + 1, a.right + 1) + spans - 1
    return bool(
        ((spans >= 2) & (ends >= b.left) & (g.cls[top : bottom + 1, a.left + 1 : a.right + 1] != 0)).any()
    )


def spacer_strays(g: CellGrid, pieces: list[Box]) -> list[tuple[int, int]]:
    """The stray cells of near-empty spacer columns that stand between two tables, to set aside
    before cutting again so that the blocks on each side come apart. A near-empty spacer is empty
    in the block's header band and holds cells on at most :data:`MAX_STRAY` body rows and
    :data:`STRAY_SHARE` of them (one at least), or holds one cell in the header band and none
    under it; it cuts where the blocks on its two sides, up to
    the next such column, read as two tables by their header bands (:func:`spacer_verdict` is
    ``False``). At most :data:`MAX_CUTS` such columns are weighed per block."""
    out: list[tuple[int, int]] = []
    for box in pieces:
        out.extend(_split(g, box))
    return out


def _split(g: CellGrid, box: Box) -> list[tuple[int, int]]:
    """The stray cells of ``box``'s near-empty spacer columns that stand between two tables."""
    if box.width < 5:
        return []
    band = header_band(g, box)
    if band is None or box.bottom - band[1] < MIN_BODY_ROWS:
        return []
    cols = slice(box.left, box.right + 1)
    in_band = g.occupied[band[0] : band[1] + 1, cols].sum(axis=0)
    body = g.occupied[band[1] + 1 : box.bottom + 1, cols]
    n = body.sum(axis=0)
    limit = min(MAX_STRAY, max(1, STRAY_SHARE * body.shape[0]))
    # a few stray body cells under no header, or one header cell over an empty body (a mark or a
    # label over a column left blank)
    stray = ((in_band == 0) & (n > 0) & (n <= limit)) | ((in_band == 1) & (n == 0))
    spacers = [box.left + int(j) for j in np.flatnonzero(stray[2 : box.width - 2]) + 2][:MAX_CUTS]
    out: list[tuple[int, int]] = []
    start = box.left
    for i, c in enumerate(spacers):
        end = spacers[i + 1] - 1 if i + 1 < len(spacers) else box.right
        left = _tight(g, Box(box.top, start, box.bottom, c - 1))
        right = _tight(g, Box(box.top, c + 1, box.bottom, end))
        if left is None or right is None or left.width < 2 or right.width < 2:
            continue
        if spacer_verdict(g, left, right) is not False:
            continue
        rows = np.flatnonzero(g.occupied[box.top : box.bottom + 1, c]) + box.top
        out.extend((int(r), c) for r in rows)
        start = c + 1
    return out


def _tight(g: CellGrid, box: Box) -> Box | None:
    """``box`` shrunk around its occupied cells (``None`` when it holds none)."""
    sub = g.occupied[box.top : box.bottom + 1, box.left : box.right + 1]
    rows, cols = np.flatnonzero(sub.any(axis=1)), np.flatnonzero(sub.any(axis=0))
    if rows.size == 0:
        return None
    return Box(
        box.top + int(rows[0]), box.left + int(cols[0]), box.top + int(rows[-1]), box.left + int(cols[-1])
    )


def _full_label_row(g: CellGrid, box: Box, r: int) -> bool:
    """Row ``r`` holds a label in every column of ``box``."""
    return bool((g.cls[r, box.left : box.right + 1] == TEXT).all())


def split_touching(g: CellGrid, pieces: list[Box]) -> list[Box]:
    """Cut each block between two tables that touch side by side with no empty column between,
    told apart by their header bands: one side's header (a row of labels over every one of its
    columns) stands on rows where the other side's body already holds figures. Rows of one table
    line up across its columns, so a header that starts below the other side's first body row heads
    another table. Each side is cut again at its own empty rows and columns."""
    out: list[Box] = []
    todo, budget = list(pieces), MAX_TOUCHING_CUTS
    while todo:
        box = todo.pop()
        parts = _split_touching(g, box) if budget > 0 else None
        if parts is None:
            out.append(box)
        else:
            budget -= 1
            todo.extend(parts)  # each side is weighed again: three tables touching in a row
    return sorted(out)


def _split_touching(g: CellGrid, box: Box) -> list[Box] | None:
    """The parts of ``box`` cut once between two touching tables, or ``None``."""
    if box.width < 4 or box.height < 3:
        return None
    # the two sides' bodies must start on different rows: first row of figures per column, then
    # the earliest over each side (prefix and suffix minima), so only those cuts are weighed
    area = slice(box.top, box.bottom + 1), slice(box.left, box.right + 1)
    figures = g.figures(*area)
    first = np.where(figures.any(axis=0), figures.argmax(axis=0), box.height)
    before, after = np.minimum.accumulate(first), np.minimum.accumulate(first[::-1])[::-1]
    n = box.height
    cuts = [
        k for k in range(2, box.width - 1) if before[k - 1] != after[k] and max(before[k - 1], after[k]) < n
    ]
    for k in (box.left + j for j in cuts[:MAX_CUTS]):
        left = _tight(g, Box(box.top, box.left, box.bottom, k - 1))
        right = _tight(g, Box(box.top, k, box.bottom, box.right))
        if left is None or right is None or min(left.width, right.width) < 2:
            continue
        ha, hb = header_band(g, left), header_band(g, right)
        if ha is None or hb is None:
            continue
        if hb[0] > ha[1]:
            later, band, other = right, hb, left
        elif ha[0] > hb[1]:
            later, band, other = left, ha, right
        else:
            continue
        rows = slice(band[0], band[1] + 1)
        if not _full_label_row(g, later, band[1]):
            continue
        if not (g.cls[rows, other.left : other.right + 1] == VALUE).any(axis=1).all():
            continue  # the other side's body does not run beside this header
        return [*_recut(g, left), *_recut(g, right)]
    return _split_at_names(g, box)


def _names_rows(g: CellGrid, box: Box, first_body: int) -> bool:
    """The block's first column names every one of its body rows, each name once."""
    col = g.cls[first_body : box.bottom + 1, box.left]
    ids = g.label_ids[first_body : box.bottom + 1, box.left][col == TEXT]
    return bool(col.size >= 2 and ids.size == col.size and np.unique(ids).size == ids.size)


def _split_at_names(g: CellGrid, box: Box) -> list[Box] | None:
    """Cut in front of a second column of row names that stops before the block's other rows do (or
    runs past them): two tables touching side by side under one header row, each naming its own
    rows (``Name | Score`` beside ``Dept | Budget``). A table's names cover all its rows, so names
    that end elsewhere name another table's rows. (Names over exactly the same rows are left to
    the row-label split of assembly.)"""
    if box.width < 4 or box.height < 3:
        return None
    text = (g.cls[box.top : box.bottom + 1, box.left : box.right + 1] == TEXT).sum(axis=0)
    cuts = [int(k) for k in np.flatnonzero(text[2 : box.width - 1] >= 2) + 2]
    for k in (box.left + j for j in cuts[:MAX_CUTS]):
        left = _tight(g, Box(box.top, box.left, box.bottom, k - 1))
        right = _tight(g, Box(box.top, k, box.bottom, box.right))
        if left is None or right is None or min(left.width, right.width) < 2 or left.bottom == right.bottom:
            continue
        ha, hb = header_band(g, left), header_band(g, right)
        if ha is None or hb is None or ha != hb:
            continue
        if _names_rows(g, left, ha[1] + 1) and _names_rows(g, right, hb[1] + 1):
            return [*_recut(g, left), *_recut(g, right)]
    return None


def _recut(g: CellGrid, box: Box) -> list[Box]:
    """``box`` cut at its own empty rows and columns."""
    sub = g.occupied[box.top : box.bottom + 1, box.left : box.right + 1]
    figures = g.cls[box.top : box.bottom + 1, box.left : box.right + 1] == VALUE
    return [
        Box(b.top + box.top, b.left + box.left, b.bottom + box.top, b.right + box.left)
        for b in xy_cut(sub, figures)
    ]


#: Blank rows at most between a table with a spacer column and the blocks under it that keep it.
SPACER_CARRY_GAP = 3
#: Blocks on a sheet beyond which spacers are not carried down (each block weighs those below it).
MAX_CARRY_BLOCKS = 500


def carry_spacers(g: CellGrid, pieces: list[Box]) -> list[Box]:
    """Join the blocks under a table that keeps an empty spacer column inside it (years set apart
    by a blank column), when they stand side by side exactly across that spacer, within the
    table's columns, at most :data:`SPACER_CARRY_GAP` blank rows down, and the right-hand block
    holds figures only (no row labels of its own): the same table's lower sections, cut apart
    only because their section lines leave the spacer's neighbours empty. Each joined block
    carries the spacer on to the blocks under it."""
    boxes = sorted(set(pieces))
    if len(boxes) > MAX_CARRY_BLOCKS:
        return boxes
    todo = list(boxes)
    while todo:
        upper = todo.pop(0)
        if upper not in boxes or upper.width < 3:
            continue
        spacers = _spacer_columns(g, upper)
        if not spacers:
            continue
        below = [
            b
            for b in boxes
            if b.top > upper.bottom
            and b.left >= upper.left
            and b.right <= upper.right
            and b.top - upper.bottom - 1 <= SPACER_CARRY_GAP
        ]
        for left in below:
            for b in below:
                if left in boxes and b in boxes and _across_spacer(g, upper, left, b, spacers):
                    joined = left.union(b)  # (and the blocks it now holds: figures below ``b``)
                    boxes = sorted([x for x in boxes if joined.union(x) != joined] + [joined])
                    todo = sorted([*todo, joined])
                    left = joined  # (it may reach across to the next block on its right too)
    return boxes


def _spacer_columns(g: CellGrid, box: Box) -> set[int]:
    """The columns of ``box`` empty on every row that holds figures (a group label may span one in
    the header above)."""
    area = slice(box.top, box.bottom + 1), slice(box.left, box.right + 1)
    body = g.occupied[area][(g.cls[area] == VALUE).any(axis=1)]
    return {box.left + int(c) for c in np.flatnonzero(~body.any(axis=0))} if body.size else set()


def _across_spacer(g: CellGrid, upper: Box, a: Box, b: Box, spacers: set[int]) -> bool:
    """``a`` and ``b`` sit side by side across spacer columns of ``upper``, and ``b`` holds figures
    and no labels."""
    area = g.cls[b.top : b.bottom + 1, b.left : b.right + 1]
    return (
        a.right < b.left
        and a.rows_overlap(b) > 0
        and b.left > upper.left
        and set(range(a.right + 1, b.left)) <= spacers
        and not (area == TEXT).any()
        and bool((area == VALUE).any())
    )

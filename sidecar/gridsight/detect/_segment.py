"""Candidate proposal: cut the sheet at empty rows and columns, then re-join what belongs together.

Recursive XY-cut (empty rows first, then empty columns, until nothing splits) gives the bounding
lines the paper's appendix C enumerates, in O(cells x depth) numpy work instead of O(n^4) candidate
rectangles. It over-splits on purpose: a sparse column, a row-label column standing apart, a header
row above a blank row all become their own pieces; ``join_columns`` puts row-aligned pieces back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

#: Beyond this many pieces a sheet is noise (a checkerboard of dots); stop cutting finer.
MAX_PIECES = 20_000


@dataclass(frozen=True, slots=True, order=True)
class Box:
    """A rectangle in local (array) coordinates, inclusive."""

    top: int
    left: int
    bottom: int
    right: int

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    def union(self, other: Box) -> Box:
        return Box(
            min(self.top, other.top),
            min(self.left, other.left),
            max(self.bottom, other.bottom),
            max(self.right, other.right),
        )

    def rows_overlap(self, other: Box) -> int:
        return max(0, min(self.bottom, other.bottom) - max(self.top, other.top) + 1)

    def width_share(self, other: Box) -> float:
        """This box's width as a share of ``other``'s."""
        return self.width / other.width

    def cols_overlap(self, other: Box) -> int:
        return max(0, min(self.right, other.right) - max(self.left, other.left) + 1)


def _runs(mask: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """Inclusive (start, end) of each run of True."""
    if not mask.any():
        return []
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


#: A band of rows between blank rows this short may leave a column of its table empty by chance.
MAX_CHANCE_ROWS = 8
#: Rows looked at above and below such a band (its blank rows included) for cells in the columns
#: it leaves empty.
CHANCE_REACH = 8


def _chance_gap(
    occ: npt.NDArray[np.bool_], first_row: npt.NDArray[np.bool_] | None, b: Box, c0: int, c1: int
) -> bool:
    """Columns ``c0..c1`` are empty in the short band of rows ``b`` only by chance: rows just above
    and just below the band (across its blank rows) hold cells in them, and the cells right of the gap
    do not start with a header (``first_row`` marks, per cell, whether it holds a figure) -- a
    sparse stretch of one table, not two tables side by side."""
    if first_row is None or b.height > MAX_CHANCE_ROWS:
        return False
    gap = slice(c0, c1 + 1)
    above = occ[max(b.top - CHANCE_REACH, 0) : b.top, gap]
    below = occ[b.bottom + 1 : b.bottom + 1 + CHANCE_REACH, gap]
    if not (above.any() and below.any()):
        return False
    right = occ[b.top : b.bottom + 1, c1 + 1 : b.right + 1]
    rows = np.flatnonzero(right.any(axis=1))
    return bool(rows.size and first_row[b.top + int(rows[0]), c1 + 1 : b.right + 1].any())


def xy_cut(occ: npt.NDArray[np.bool_], figures: npt.NDArray[np.bool_] | None = None) -> list[Box]:
    """Leaves of the recursive cut at fully empty rows/columns, each tight around its cells.

    With ``figures`` (cells holding a value), a short band of rows is not cut at a column its
    neighbours across the blank rows fill, where the part right of it starts with figures: see
    :func:`_chance_gap`.
    """
    h, w = occ.shape
    if h == 0 or w == 0 or not occ.any():
        return []
    out: list[Box] = []
    stack = [Box(0, 0, h - 1, w - 1)]
    while stack:
        b = stack.pop()
        sub = occ[b.top : b.bottom + 1, b.left : b.right + 1]
        row_runs = _runs(np.any(sub, axis=1))
        col_runs = _runs(np.any(sub, axis=0))
        if not row_runs:
            continue
        if len(out) + len(stack) > MAX_PIECES:
            out.append(
                Box(
                    b.top + row_runs[0][0],
                    b.left + col_runs[0][0],
                    b.top + row_runs[-1][1],
                    b.left + col_runs[-1][1],
                )
            )
            continue
        if len(row_runs) > 1:
            stack.extend(Box(b.top + r0, b.left, b.top + r1, b.right) for r0, r1 in row_runs)
        elif len(col_runs) > 1:
            r0, r1 = row_runs[0]
            band = Box(b.top + r0, b.left, b.top + r1, b.right)
            merged = [col_runs[0]]
            for c0, c1 in col_runs[1:]:
                if _chance_gap(occ, figures, band, b.left + merged[-1][1] + 1, b.left + c0 - 1):
                    merged[-1] = (merged[-1][0], c1)
                else:
                    merged.append((c0, c1))
            if len(merged) == 1:
                c0, c1 = merged[0]
                out.append(Box(band.top, b.left + c0, band.bottom, b.left + c1))
                continue
            stack.extend(Box(band.top, b.left + c0, band.bottom, b.left + c1) for c0, c1 in merged)
        else:
            out.append(
                Box(
                    b.top + row_runs[0][0],
                    b.left + col_runs[0][0],
                    b.top + row_runs[0][1],
                    b.left + col_runs[0][1],
                )
            )
    return sorted(out)


def _between_empty(occ: npt.NDArray[np.bool_], a: Box, b: Box) -> bool:
    """Nothing stands in the columns strictly between two horizontally ordered boxes, or only
    cells inside the rows both share: a column group many rows leave blank (a section only
    some rows fill) that xy-cut shattered into bits; the joined box then absorbs them.
    Something reaching above or below the shared rows is another table or a label.
    """
    top, bottom = min(a.top, b.top), max(a.bottom, b.bottom)
    between = occ[top : bottom + 1, a.right + 1 : b.left]
    if not between.any():
        return True
    inner_top, inner_bottom = max(a.top, b.top), min(a.bottom, b.bottom)
    rows = np.flatnonzero(between.any(axis=1)) + top
    return bool(inner_top <= rows[0] and rows[-1] <= inner_bottom)


def bridge_sections(pieces: list[Box], occ: npt.NDArray[np.bool_], max_pieces: int = 500) -> list[Box]:
    """Stack pieces that share exactly the same columns, one above the other a few rows apart,
    when a taller piece beside them spans both and the gap: the value columns of one table cut by
    section rows (``Sex``, ``Age`` alone in the label column) that leave them empty.
    """
    boxes = sorted(set(pieces))
    if len(boxes) > max_pieces:
        return boxes
    changed = True
    while changed:
        changed = False
        by_cols: dict[tuple[int, int], list[Box]] = {}
        for b in boxes:
            if b.width >= 2:
                by_cols.setdefault((b.left, b.right), []).append(b)
        for group in by_cols.values():
            group.sort()
            for a, b in pairwise(group):
                gap = b.top - a.bottom - 1
                if not 0 < gap <= 3:
                    continue
                if occ[a.bottom + 1 : b.top, a.left : a.right + 1].any():
                    continue
                beside = any(
                    c.top <= a.top
                    and c.bottom >= b.bottom
                    and (c.right < a.left or c.left > a.right)
                    and not occ[a.top : b.bottom + 1, min(c.right, a.right) + 1 : max(c.left, a.left)].any()
                    for c in boxes
                    if c not in (a, b)
                )
                if beside:
                    boxes = [x for x in boxes if x not in (a, b)] + [a.union(b)]
                    changed = True
                    break
            if changed:
                break
    return sorted(boxes)


JoinRule = Callable[[Box, Box], bool]


#: Pairs of pieces ``join_columns`` may weigh on one sheet: each join re-weighs every pair, so a
#: sheet cut into thousands of column strips would take minutes. Real sheets need a few thousand.
MAX_PAIR_CHECKS = 1_000_000


def join_columns(
    pieces: list[Box],
    occ: npt.NDArray[np.bool_],
    belongs: JoinRule,
    max_pieces: int = 3_000,
    max_checks: int = MAX_PAIR_CHECKS,
) -> list[Box]:
    """Re-join horizontally neighbouring pieces that ``belongs(left, right)`` says are one table.

    Pairs are tried best-first (largest shared row fraction); a joined box then absorbs every
    piece it touches, so a row-label column and the several pieces of its value area end as one.
    Pieces that share no row never join, so each band of rows that pieces overlap is joined on its
    own (a long table cut by blank rows is many small bands, not one quadratic problem). Work is
    bounded: past ``max_pieces`` pieces or ``max_checks`` pair checks on the sheet, the joins made
    so far stand.
    """
    boxes = sorted(set(pieces))
    if len(boxes) > max_pieces:
        return boxes
    out: list[Box] = []
    budget = [max_checks]
    for band in row_bands(boxes):
        out.extend(band if len(band) < 2 else _join_band(band, occ, belongs, budget))
    return sorted(out)


def row_bands(boxes: list[Box]) -> list[list[Box]]:
    """Boxes grouped into runs of rows that overlapping boxes chain together (sorted input)."""
    bands: list[list[Box]] = []
    bottom = -1
    for b in sorted(boxes, key=lambda x: (x.top, x.left)):
        if bands and b.top <= bottom:
            bands[-1].append(b)
            bottom = max(bottom, b.bottom)
        else:
            bands.append([b])
            bottom = b.bottom
    return bands


def _join_band(
    boxes: list[Box], occ: npt.NDArray[np.bool_], belongs: JoinRule, budget: list[int]
) -> list[Box]:
    """:func:`join_columns` on one band of rows; ``budget`` holds the pair checks left."""
    while True:
        budget[0] -= len(boxes) * (len(boxes) - 1) // 2
        if budget[0] < 0:
            return boxes
        best: tuple[float, Box, Box] | None = None
        by_left = sorted(boxes, key=lambda x: x.left)
        for i, a in enumerate(by_left):
            for b in by_left[i + 1 :]:
                if b.left <= a.right:
                    continue
                overlap = a.rows_overlap(b)
                # (a short piece inside the other's rows may still be its column, cut by blank
                # rows: the rule decides, see detect._assemble.join_rule)
                if overlap == 0 or (
                    overlap < 0.5 * max(a.height, b.height) and overlap < min(a.height, b.height)
                ):
                    continue
                frac = overlap / max(a.height, b.height)
                if best is not None and frac <= best[0]:
                    continue
                if _between_empty(occ, a, b) and belongs(a, b):
                    best = (frac, a, b)
        if best is None:
            return boxes
        _, a, b = best
        u = a.union(b)
        rest = [c for c in boxes if c not in (a, b)]
        grown = True
        while grown:
            grown = False
            keep = []
            for c in rest:
                if u.rows_overlap(c) and u.cols_overlap(c):
                    u = u.union(c)
                    grown = True
                else:
                    keep.append(c)
            rest = keep
        boxes = [*rest, u]

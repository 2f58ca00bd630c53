"""Structural-anchor extraction (section 3.2, appendix C): keep rows/columns near layout changes.

A pair of neighbouring rows (or columns) is a *discrepancy* when the cells they share differ in
kind, style, merge, formula or number-format class, or when a band of cells starts or stops there
(a table's edge). Both rows of a discrepancy are anchors; every row within ``k`` of an anchor is kept,
the homogeneous rest is dropped. Why these cues: table edges, headers, titles, notes and total rows
all change at least one of them, while the middle of a data block repeats the same signature.
Everything is a handful of vectorised numpy passes over the signature matrix.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gridsight.encode._cells import signatures
from gridsight.grid import Sheet

BoolArray = npt.NDArray[np.bool_]

#: Share of shared, non-empty cells whose signature must differ for a type/style discrepancy.
MIN_DIFF_SHARE = 0.5
#: Consecutive cells that must all start or stop at the same line to count as a band edge.
MIN_BAND = 3
#: Rows a band's occupied/empty state must hold on both sides of its edge.
PERSIST = 3


@dataclass(frozen=True)
class Anchors:
    """Local row/column anchors and what is kept around them (all relative to ``sheet.origin``)."""

    row_anchors: BoolArray
    col_anchors: BoolArray
    keep_rows: BoolArray
    keep_cols: BoolArray


def _line_discrepancies(codes: npt.NDArray[np.uint16]) -> BoolArray:
    """For rows of ``codes``: True at i when rows i-1 and i differ structurally (i >= 1)."""
    h, _w = codes.shape
    out = np.zeros(h, dtype=bool)
    if h < 2:
        return out
    prev, cur = codes[:-1], codes[1:]
    p_on, c_on = prev != 0, cur != 0
    both = p_on & c_on
    n_both = both.sum(axis=1)
    n_diff = (both & (prev != cur)).sum(axis=1)
    typed = (n_diff > 0) & (n_diff >= MIN_DIFF_SHARE * n_both)
    flip = p_on != c_on
    n_flip = flip.sum(axis=1)
    n_active = (p_on | c_on).sum(axis=1)
    # every occupied cell starts or stops here (covers narrow rows/blocks and empty <-> non-empty)
    whole = (n_flip > 0) & (n_flip == n_active)
    band = np.zeros(h - 1, dtype=bool)
    if codes.shape[1] >= MIN_BAND:
        edge = _persistent_edges(codes != 0)
        run = edge[:, : edge.shape[1] - MIN_BAND + 1].copy()
        for s in range(1, MIN_BAND):
            run &= edge[:, s : edge.shape[1] - MIN_BAND + 1 + s]
        band = run.any(axis=1)
    out[1:] = typed | whole | band
    return out


def _persistent_edges(on: BoolArray) -> BoolArray:
    """(h-1, w): True where a cell's column switches between occupied and empty at row i+1 and each
    state holds for ``PERSIST`` rows (fewer at the sheet's edge). A missing value inside a sparse table
    flips back at once; a block that starts or ends stays switched."""
    h, _w = on.shape
    c = np.zeros((h + 1, on.shape[1]), dtype=np.int32)
    np.cumsum(on, axis=0, out=c[1:])
    i = np.arange(1, h)  # the edge lies between rows i-1 and i
    lo = np.maximum(i - PERSIST, 0)
    hi = np.minimum(i + PERSIST, h)
    above = c[i] - c[lo]  # occupied cells in the rows just above
    below = c[hi] - c[i]
    n_above = (i - lo)[:, None]
    n_below = (hi - i)[:, None]
    starts = (above == 0) & (below == n_below)
    stops = (above == n_above) & (below == 0)
    return starts | stops


def _dilate(anchors: BoolArray, k: int) -> BoolArray:
    """Every index within ``k`` of an anchor (vectorised with a prefix sum)."""
    n = anchors.size
    if n == 0:
        return anchors.copy()
    c = np.concatenate(([0], np.cumsum(anchors, dtype=np.int64)))
    idx = np.arange(n)
    lo = np.clip(idx - k, 0, n)
    hi = np.clip(idx + k + 1, 0, n)
    return (c[hi] - c[lo]) > 0


def find_anchors(sheet: Sheet, k: int = 4) -> Anchors:
    """Anchor rows/columns of a sheet and the rows/columns kept within ``k`` of them.

    The first and last row and column of the used range are always anchors: they are table
    boundaries by definition, and keeping them lets the compact sheet span the original one.
    """
    if k < 0:
        raise ValueError("k must be >= 0")
    h, w = sheet.shape
    codes = signatures(sheet)
    rows = np.zeros(h, dtype=bool)
    cols = np.zeros(w, dtype=bool)
    if h and w:
        d = _line_discrepancies(codes)
        rows |= d
        rows[:-1] |= d[1:]
        d = _line_discrepancies(np.ascontiguousarray(codes.T))
        cols |= d
        cols[:-1] |= d[1:]
        rows[[0, -1]] = True
        cols[[0, -1]] = True
        r0, c0 = sheet.origin
        for m in sheet.merges:  # a merged cell's edges are boundaries of a title or header block
            for r in (m.top - r0, m.bottom - r0):
                if 0 <= r < h:
                    rows[r] = True
            for c in (m.left - c0, m.right - c0):
                if 0 <= c < w:
                    cols[c] = True
    return Anchors(rows, cols, _dilate(rows, k), _dilate(cols, k))

"""Exact rectangle cover of equal-key cells, vectorised.

Both the inverted index (equal values) and format-aware aggregation (equal types, Algorithm 1)
merge neighbouring cells into ranges. Algorithm 1 takes the bounding box of a DFS region, which can
swallow cells of other types; here every rectangle holds only cells of its key and rectangles never
overlap, so the cover decodes back to exactly the same cells. Method: maximal runs along one axis,
then runs with the same extent and key stacked along the other; both orientations are tried and the
one with fewer rectangles wins.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IntGrid = npt.NDArray[np.int64]

#: Columns of the returned array.
TOP, LEFT, BOTTOM, RIGHT, KEY = range(5)


def _row_runs_then_stack(keys: IntGrid, skip: int) -> npt.NDArray[np.int64]:
    w = keys.shape[1]
    flat = keys.ravel()
    start = np.ones(flat.size, dtype=bool)
    start[1:] = flat[1:] != flat[:-1]
    start[::w] = True  # a run never continues onto the next row
    starts = np.flatnonzero(start)
    ends = np.concatenate((starts[1:], [flat.size])) - 1
    run_keys = flat[starts]
    keep = run_keys != skip
    starts, ends, run_keys = starts[keep], ends[keep], run_keys[keep]
    if starts.size == 0:
        return np.zeros((0, 5), dtype=np.int64)
    row = starts // w
    left = starts % w
    right = ends % w
    order = np.lexsort((row, right, left, run_keys))
    row, left, right, run_keys = row[order], left[order], right[order], run_keys[order]
    cont = np.zeros(row.size, dtype=bool)
    cont[1:] = (
        (run_keys[1:] == run_keys[:-1])
        & (left[1:] == left[:-1])
        & (right[1:] == right[:-1])
        & (row[1:] == row[:-1] + 1)
    )
    group_start = np.flatnonzero(~cont)
    group_end = np.concatenate((group_start[1:], [row.size])) - 1
    out = np.empty((group_start.size, 5), dtype=np.int64)
    out[:, TOP] = row[group_start]
    out[:, BOTTOM] = row[group_end]
    out[:, LEFT] = left[group_start]
    out[:, RIGHT] = right[group_start]
    out[:, KEY] = run_keys[group_start]
    return out


def rectangles(keys: IntGrid, skip: int = -1) -> npt.NDArray[np.int64]:
    """Non-overlapping rectangles ``[top, left, bottom, right, key]`` covering every cell whose key is
    not ``skip``, each rectangle of one key; sorted row-major by top-left corner."""
    if keys.size == 0:
        return np.zeros((0, 5), dtype=np.int64)
    a = _row_runs_then_stack(keys, skip)
    b = _row_runs_then_stack(np.ascontiguousarray(keys.T), skip)
    if b.shape[0] < a.shape[0]:
        a = b[:, [LEFT, TOP, RIGHT, BOTTOM, KEY]]
    order = np.lexsort((a[:, LEFT], a[:, TOP]))
    return a[order]

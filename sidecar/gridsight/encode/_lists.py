"""Value lists: a run of cells whose values occur once is written as one range and its values in order.

Why: in the inverted index (section 3.3) every distinct value pays for its own address, and on
text-heavy sheets most labels, row names and note lines occur exactly once -- their addresses cost
about as much as the values (46% of the compressed tokens on the shared corpus). A row of headers or
a column of names is written ``A3:E3 Region|Units|Price`` instead of ``A3 Region``, ``B3 Units``, ...:
the range costs two to four tokens, each further cell one ``|`` instead of a two-token address.
Nothing is lost: the i-th item is the i-th cell of the range, an empty item an empty cell.

Only single-cell values that occur nowhere else go into lists (a repeated value keeps one index line
for all its places; listing it too cost 3-5% more tokens on the shared corpus), runs never cross a
cell of another value, at most :data:`MAX_GAP` empty cells are bridged, and a list holds cells of one
signature (kind, style, merge, number-format class -- see :func:`~gridsight.encode._cells.signatures`)
and of one row role (rows with values vs rows of text only, see :func:`list_signatures`): a header
row, a bold title or a bordered total starts its own line, so the model reads where a block starts and
ends from addresses instead of counting items (3% more tokens than lists that run through them).
Rows are listed first, then columns: a header row stays one line (choosing per sheet whichever order
gives fewer lines saved 0.3% and sometimes split a header row into a column list).

**A run repeated at several places** is one list line with every place:
``A16:AM16,A70:AM70 County|AEA|District|...`` -- the header row a report repeats over each of its
blocks. Its values occur more than once, so without this step each of them keeps an index line with
all its addresses (``A16,A70 County``, ``B16,B70 AEA``, ...). A group is taken only when its places
hold every occurrence of each of its values, so a value is written on exactly one line, as in the
index (letting the places hold only some occurrences, the rest staying on index lines, gained 0.1%
more on the shared corpus and wrote such values twice). Groups are found before the once-only lists,
rows first, then columns. Each place is a range of its own: the decoder gives the i-th item to the
i-th cell of every range.
All vectorised but the grouping, which builds one tuple per run whose length, first and last value
another run shares: a 1M-cell sheet of distinct values costs a few array passes.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import numpy.typing as npt

from gridsight.encode._rects import BOTTOM, KEY, LEFT, RIGHT, TOP

BoolGrid = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
CodeGrid = npt.NDArray[np.uint32]

#: Empty cells a list may bridge between two of its values (``a||b``); a wider gap starts a new line.
MAX_GAP = 2


def _runs_along_rows(cand: BoolGrid, occupied: BoolGrid, codes: CodeGrid, seg: IntArray) -> IntArray:
    """``[row, first_col, last_col]`` of every run of >= 2 candidate cells along a row.

    Two candidates join when they are in one row, at most MAX_GAP cells apart, only empty cells lie
    between them, their signatures ``codes`` are equal, and ``seg`` (the printed-column segment) is the
    same for both, so the range printed for the run holds exactly its cells.
    """
    w = cand.shape[1]
    flat = np.flatnonzero(cand.ravel())
    if flat.size < 2:
        return np.zeros((0, 3), dtype=np.int64)
    rows, cols = flat // w, flat % w
    blocked = np.concatenate(([0], np.cumsum((occupied & ~cand).ravel(), dtype=np.int64)))
    a, b = flat[:-1], flat[1:]
    code = codes.ravel()
    joins = (
        (code[a] == code[b])
        & (rows[:-1] == rows[1:])
        & (b - a - 1 <= MAX_GAP)
        & (blocked[b] - blocked[a + 1] == 0)
        & (seg[cols[:-1]] == seg[cols[1:]])
    )
    start = np.ones(flat.size, dtype=bool)
    start[1:] = ~joins
    first = np.flatnonzero(start)
    last = np.concatenate((first[1:], [flat.size])) - 1
    long = last > first
    first, last = first[long], last[long]
    return np.stack((rows[first], cols[first], cols[last]), axis=1).astype(np.int64)


def _cover(runs: IntArray, cand: BoolGrid) -> None:
    """Clear the candidates that ``runs`` (along rows) cover."""
    for r, c1, c2 in runs.tolist():
        cand[r, c1 : c2 + 1] = False


def list_signatures(codes: npt.NDArray[np.uint16], valued: BoolGrid) -> CodeGrid:
    """Cell signatures plus the row's role: bit 16 is set on every cell of a row that holds a value
    (``valued``: number, date, boolean, error, formula), so a column list never runs from header or
    title rows into data rows or from a total row into the notes under it."""
    return codes.astype(np.uint32) | (np.any(valued, axis=1)[:, None].astype(np.uint32) << 16)


def _cell_grid(shape: tuple[int, ...], rects: IntArray, mask: npt.NDArray[np.bool_]) -> BoolGrid:
    """True at the cell of each single-cell rectangle that ``mask`` selects."""
    grid = np.zeros(shape, dtype=bool)
    grid[rects[mask, TOP], rects[mask, LEFT]] = True
    return grid


def _repeated_groups(
    cand: BoolGrid,
    occupied: BoolGrid,
    keys: IntArray,
    codes: CodeGrid,
    seg: IntArray,
    per_key: IntArray,
    empty_key: int,
) -> list[list[list[int]]]:
    """Runs along rows (``[row, first_col, last_col]``) grouped by their sequence of values: the groups
    of two or more equal runs that hold every occurrence of each of their values."""
    runs = _runs_along_rows(cand, occupied, codes, seg)
    if runs.shape[0] < 2:
        return []
    # only runs whose length, first and last value another run shares can be equal to it: that
    # vectorised filter keeps a sheet of a million distinct rows from building a tuple per row
    r, c1, c2 = runs.T
    shape = np.stack((c2 - c1, keys[r, c1], keys[r, c2]), axis=1)
    _, inverse, count = np.unique(shape, axis=0, return_inverse=True, return_counts=True)
    runs = runs[count[inverse.ravel()] > 1]
    by_seq: dict[tuple[int, ...], list[list[int]]] = {}
    for r, c1, c2 in runs.tolist():
        by_seq.setdefault(tuple(keys[r, c1 : c2 + 1].tolist()), []).append([r, c1, c2])
    groups = []
    for seq, places in by_seq.items():
        if len(places) < 2:
            continue
        counts = Counter(seq)
        counts.pop(empty_key, None)  # the gaps a run bridges
        if all(per_key[k] == n * len(places) for k, n in counts.items()):
            groups.append(places)
    return groups


def value_lists(
    keys: IntArray,
    rects: IntArray,
    literal: npt.NDArray[np.bool_],
    empty_key: int,
    codes: CodeGrid,
    row_seg: IntArray,
    col_seg: IntArray,
) -> tuple[IntArray, IntArray]:
    """Split the index's rectangles into those still written per value and the lists.

    Args:
        keys: the key grid (kept cells).
        rects: the exact cover from :func:`~gridsight.encode._rects.rectangles`.
        literal: per key, True for a literal value (type labels never go into lists).
        empty_key: the key of empty cells (-1 if none).
        codes: the kept cells' :func:`list_signatures`; a list never joins cells whose codes differ.
        row_seg, col_seg: printed-segment id per kept row/column (all 0 for compact addresses).

    Returns:
        The rectangles not covered by a list, and the lists as ``[top, left, bottom, right, group]``
        rows, each one row or one column of the key grid; lists of one group hold the same values and
        are written as one line.
    """
    none = np.zeros((0, 5), dtype=np.int64)
    if rects.shape[0] < 2:
        return rects, none
    key = rects[:, KEY]
    per_key = np.bincount(key, minlength=len(literal))
    cell = (rects[:, TOP] == rects[:, BOTTOM]) & (rects[:, LEFT] == rects[:, RIGHT])
    only_cells = np.bincount(key[cell], minlength=len(literal)) == per_key
    single = cell & (per_key[key] == 1) & literal[key]
    repeated = cell & (per_key[key] > 1) & only_cells[key] & literal[key]
    occupied = keys != empty_key
    found: list[list[int]] = []  # [top, left, bottom, right, group]
    rep = _cell_grid(keys.shape, rects, repeated)  # cleared where a group takes the cell
    if repeated.sum() >= 4:
        for transposed in (False, True):  # rows first, then columns, as for the lists below
            grids = (rep, occupied, keys, codes)
            if transposed:
                grids = (
                    np.ascontiguousarray(rep.T),
                    np.ascontiguousarray(occupied.T),
                    np.ascontiguousarray(keys.T),
                    np.ascontiguousarray(codes.T),
                )
            seg = row_seg if transposed else col_seg
            for places in _repeated_groups(*grids, seg, per_key, empty_key):
                group = len(found)
                for r, c1, c2 in places:
                    found.append([c1, r, c2, r, group] if transposed else [r, c1, r, c2, group])
                    (rep.T if transposed else rep)[r, c1 : c2 + 1] = False
    left = _cell_grid(keys.shape, rects, single)  # cleared where a list takes the cell
    runs = none
    if single.sum() >= 2:
        along_rows = _runs_along_rows(left, occupied, codes, col_seg)
        _cover(along_rows, left)
        along_cols = _runs_along_rows(
            np.ascontiguousarray(left.T),
            np.ascontiguousarray(occupied.T),
            np.ascontiguousarray(codes.T),
            row_seg,
        )
        _cover(along_cols, left.T)
        runs = np.concatenate((along_rows[:, [0, 1, 0, 2]], along_cols[:, [1, 0, 2, 0]]))
        runs = np.concatenate((runs, len(found) + np.arange(runs.shape[0], dtype=np.int64)[:, None]), axis=1)
    pending = (rep | left)[rects[:, TOP], rects[:, LEFT]]
    listed = (single | repeated) & ~pending
    lists = np.concatenate((np.array(found, dtype=np.int64).reshape(-1, 5), runs))
    return rects[~listed], lists

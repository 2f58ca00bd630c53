"""From pieces to tables: peel titles and notes off, stack pieces across blank rows, split copies.

The rules, each a layout convention rather than a tuned gap:

* a lone label on the top row of a piece is a title (unless it is a merged group header that
  starts right of the piece's first column); a lone long or marked label at the bottom is a note;
* a blank row inside a table is spacing only when the table above has a header and the piece
  below has none of its own: a headed piece starts a new table, a headerless one continues;
* a lone label between two such parts is a section label; one left dangling at the end is a note;
* a row repeating the header's labels, or a header that repeats its first label further right,
  starts another table (stacked or side-by-side copies, appendix K.2).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from gridsight.detect._cells import TEXT, VALUE, CellGrid
from gridsight.detect._rows import (
    NOTE_MARKER,
    body_value_cols,
    is_header_row,
    is_key_value_block,
    is_line_block,
    is_notes_block,
    is_numbering_row,
    is_text_line,
    looks_like_note,
    names_its_columns,
    row_cells,
)
from gridsight.detect._segment import Box
from gridsight.detect._spacers import header_band, spacer_verdict
from gridsight.text import UNIT

#: Blank rows a table may contain between its parts (spacing rows, a section gap).
MAX_INNER_GAP = 3
#: Blank rows between a table and its title or notes.
MAX_LABEL_GAP = 3

TextAt = Callable[[int, int], str]
GRAND_TOTAL = re.compile(r"\b(grand\s+total|totals?)\b", re.IGNORECASE)
SUBTOTAL = re.compile(r"\bsub[-\s]?totals?\b", re.IGNORECASE)


@dataclass
class Piece:
    box: Box
    line: bool  # lone labels only (title / note / section label)


@dataclass
class Skeleton:
    """A table's outline before its structure is read."""

    box: Box
    parts: list[Piece] = field(default_factory=list)
    titles: list[Box] = field(default_factory=list)
    notes: list[Box] = field(default_factory=list)


def _shares(g: CellGrid, box: Box) -> tuple[float, float]:
    sub = g.cls[box.top : box.bottom + 1, box.left : box.right + 1]
    n = max(int(np.count_nonzero(sub)), 1)
    return float((sub == TEXT).sum()) / n, float((sub == VALUE).sum()) / n


def _label_seq(g: CellGrid, box: Box, r: int, text_at: TextAt) -> list[str]:
    """The labels of row ``r`` inside ``box``, left to right."""
    return [text_at(r, c).strip().casefold() for c in range(box.left, box.right + 1) if g.cls[r, c] == TEXT]


def _copies_header(g: CellGrid, a: Box, b: Box, text_at: TextAt, rows: int = 3) -> bool:
    """``b`` starts with the same column labels, in the same order, as ``a`` on one of their top
    rows, as many columns in from its left edge: a copy of the table beside it (sub-labels such as
    ``Average | Minimum`` repeated under different groups of one table do not start a row the same
    way: in ``a`` they stand right of the row names' columns, left blank on that row)."""
    for r in range(max(a.top, b.top), min(a.bottom, b.bottom, max(a.top, b.top) + rows - 1) + 1):
        sa, sb = _label_seq(g, a, r, text_at), _label_seq(g, b, r, text_at)
        if len(sb) >= 2 and sa[: len(sb)] == sb and _first_label(g, a, r) == _first_label(g, b, r):
            return True
    return False


def _first_label(g: CellGrid, box: Box, r: int) -> int:
    """How many columns in from ``box``'s left edge row ``r``'s first label stands."""
    return int(np.argmax(g.cls[r, box.left : box.right + 1] == TEXT))


def _titles_own_table(g: CellGrid, cell: Box, other: Box) -> bool:
    """``cell`` is one label over a header row of its own, a few rows down, that starts in its
    column and runs away from ``other`` (two labels or years or more, none over ``other``'s
    columns): the title of the table under it, not a lone column of the piece beside it (a sales
    table's title on the row of a balance sheet's year header)."""
    if cell.height != 1 or cell.width != 1 or g.cls[cell.top, cell.left] != TEXT:
        return False
    below = g.occupied[cell.bottom + 1 : cell.bottom + 2 + MAX_LABEL_GAP, cell.left]
    if not below.any():
        return False
    r = cell.bottom + 1 + int(np.argmax(below))
    side = slice(cell.left, None) if cell.left > other.right else slice(None, cell.left + 1)
    return int(g.labels(r, side).sum()) >= 2 and not g.occupied[r, other.left : other.right + 1].any()


def _same_figure_rows(g: CellGrid, a: Box, b: Box) -> bool:
    """``b`` holds figures only, on exactly the rows where ``a`` (which names its rows in its first
    column) holds figures: more columns of ``a``'s rows that a spacer column set apart (a balance
    sheet's later years, whose header stands rows above)."""
    if (g.cls[b.top : b.bottom + 1, b.left : b.right + 1] == TEXT).any():
        return False
    if not (g.cls[a.top : a.bottom + 1, a.left] == TEXT).any() or a.width < 2:
        return False
    top, bottom = min(a.top, b.top), max(a.bottom, b.bottom)
    rows = slice(top, bottom + 1)
    fa = (g.cls[rows, a.left + 1 : a.right + 1] == VALUE).any(axis=1)
    fb = (g.cls[rows, b.left : b.right + 1] == VALUE).any(axis=1)
    return int(fb.sum()) >= 2 and bool((fa == fb).all())


def _figure_rows_within(g: CellGrid, a: Box, b: Box) -> bool:
    """``b``, right of ``a`` and within its rows, holds figures only (two rows at least), each on a
    row where ``a`` names its row and holds figures: a section of one more column of ``a``'s lines
    that blank rows cut off from the rest of its column."""
    if not (a.top <= b.top and b.bottom <= a.bottom) or a.width < 2:
        return False
    if (g.cls[b.top : b.bottom + 1, b.left : b.right + 1] == TEXT).any():
        return False
    rows = slice(b.top, b.bottom + 1)
    fb = (g.cls[rows, b.left : b.right + 1] == VALUE).any(axis=1)
    fa = (g.cls[rows, a.left + 1 : a.right + 1] == VALUE).any(axis=1)
    named = g.cls[rows, a.left] == TEXT
    return int(fb.sum()) >= 2 and bool((fa & named)[fb].all())


def join_rule(g: CellGrid, text_at: TextAt) -> Callable[[Box, Box], bool]:
    """When two pieces side by side, sharing rows, are one table.

    * one is a single column (a row-label column, a sparse value column standing apart);
    * the left holds only labels and the right holds values (row labels beside their numbers);
    * both hold only labels on exactly the same rows (a header band cut by spacer columns);
    * they share (nearly) all rows, the right one does not start with a label column of its own
      and does not start with the left one's column labels (a copy of a table is another table).
    """

    bands: dict[Box, tuple[int, int] | None] = {}

    def band(grid: CellGrid, box: Box) -> tuple[int, int] | None:
        if box not in bands:
            bands[box] = header_band(grid, box)
        return bands[box]

    def belongs(a: Box, b: Box) -> bool:
        if a.rows_overlap(b) < 0.5 * max(a.height, b.height):
            # one short piece within the other's rows: only a section of the same lines' figures
            # (a statement's later year, cut by the blank rows between its sections)
            return _figure_rows_within(g, a, b)
        if _titles_own_table(g, b, a) or _titles_own_table(g, a, b):
            return False
        if a.width == 1 or b.width == 1:
            # (not two columns of lone labels far apart: two tables' titles side by side)
            far = b.left - a.right - 1 > MAX_LABEL_SPACERS
            return not (far and _only_labels(g, a) and _only_labels(g, b))
        ta, va = _shares(g, a)
        _, vb = _shares(g, b)
        if ta >= 0.7 and vb >= 0.5 and _beside_body(a, band(g, b)):
            return True
        if va == 0 and vb == 0 and a.top == b.top and a.bottom == b.bottom:
            return True  # a header band cut by empty spacer columns
        if not g.occupied[min(a.top, b.top) : max(a.bottom, b.bottom) + 1, a.right + 1 : b.left].any():
            verdict = spacer_verdict(g, a, b, band)  # an empty spacer column: the header bands decide
            if verdict is not None:
                return verdict and not _copies_header(g, a, b, text_at)
        if _same_figure_rows(g, a, b):
            return True
        if a.rows_overlap(b) < 0.9 * max(a.height, b.height):
            return False
        first = g.cls[b.top : b.bottom + 1, b.left]
        if (first == TEXT).sum() >= 0.7 * max(int((first != 0).sum()), 1):
            return False
        return not _copies_header(g, a, b, text_at)

    return belongs


def _only_labels(g: CellGrid, box: Box) -> bool:
    """Every filled cell of ``box`` is a label (no figure, no year)."""
    cells = g.cls[box.top : box.bottom + 1, box.left : box.right + 1]
    return not (cells == VALUE).any()


def _beside_body(labels: Box, band: tuple[int, int] | None) -> bool:
    """Whether a block of labels reaches the body of the block of figures beside it (``band``: that
    block's header rows): row labels do; a header band that ends within the other block's own header
    rows (a balance sheet's column headings beside a sales table's) names none of its rows."""
    return band is None or labels.bottom > band[1]


def _peel(g: CellGrid, box: Box, text_at: TextAt) -> list[Piece]:
    """Split lone-label rows off the top and bottom of a piece."""
    out_top: list[Piece] = []
    out_bottom: list[Piece] = []
    top, bottom = box.top, box.bottom

    def widest() -> int:
        occ = g.cls[top : bottom + 1, box.left : box.right + 1] != 0
        return int(occ.sum(axis=1).max()) if occ.size else 0

    def skip_blank(r: int) -> int:
        # rows only covered by a merge hold no cell of their own
        while r < bottom and not row_cells(g, box, r).any():
            r += 1
        return r

    fields = _field_lines(g, box, text_at)
    for r in range(box.top, box.top + fields):
        cols = np.flatnonzero(row_cells(g, box, r))
        if cols.size:
            out_top.append(Piece(Box(r, box.left + int(cols[0]), r, box.left + int(cols[-1])), True))
    top += fields
    while (
        (top := skip_blank(top)) < bottom
        and widest() >= 2
        and (
            is_text_line(g, Box(top, box.left, bottom, box.right), top)
            or _sparse_label_row(g, box, top, bottom, text_at)
        )
    ):
        occ_cols = np.flatnonzero(row_cells(g, box, top))
        col, last = int(occ_cols[0]) + box.left, int(occ_cols[-1]) + box.left
        if (col > box.left or occ_cols.size >= 2) and _group_header(g, box, top, bottom, col, text_at):
            break
        out_top.append(Piece(Box(top, col, top, last), True))
        top += 1
    # the lone lines at the bottom are notes from the first that reads as one down (``Source: ...``
    # over ``Last modified: ...``: a line under a note is more of the notes, whatever it reads)
    cut = None
    r = bottom
    while r > top and is_text_line(g, Box(top, box.left, r, box.right), r):
        col = int(np.flatnonzero(row_cells(g, box, r))[0]) + box.left
        cur = Box(top, box.left, r, box.right)
        if looks_like_note(g, cur, r, text_at(r, col)) or _spread_label(g, cur, r):
            cut = r
        r -= 1
    while cut is not None and bottom >= cut and bottom > top and widest() >= 2:
        col = int(np.flatnonzero(row_cells(g, box, bottom))[0]) + box.left
        out_bottom.append(Piece(Box(bottom, col, bottom, col), True))
        bottom -= 1
    for r in range(bottom, bottom - _field_tail(g, Box(top, box.left, bottom, box.right), text_at), -1):
        cols = np.flatnonzero(row_cells(g, box, r))
        out_bottom.append(Piece(Box(r, box.left + int(cols[0]), r, box.left + int(cols[-1])), True))
        bottom -= 1
    core = _tighten(g, Box(top, box.left, bottom, box.right))
    if core is None:
        return out_top + out_bottom[::-1]
    rest: list[Piece] = []
    cut = _total_cut(g, core, text_at)
    if cut is not None:
        # what follows a grand total: its unlabelled helper rows, then whatever comes next
        r = cut + 1
        while r <= core.bottom and g.cls[r, core.left] == 0:
            r += 1
        if r <= core.bottom:
            rest = _peel(g, Box(r, core.left, core.bottom, core.right), text_at)
        core = _tighten(g, Box(core.top, core.left, cut, core.right)) or core
    core, residue = _trim_residue(g, core)
    return [*out_top, Piece(core, is_line_block(g, core)), *residue, *out_bottom[::-1], *rest]


#: Rows of form fields looked at above a table's header.
MAX_FIELD_ROWS = 15


def _field_lines(g: CellGrid, box: Box, text_at: TextAt) -> int:
    """How many rows on top of a piece are form fields above the table's header: each holds a field
    label ending in a colon (``Prepared by: | J. Smith``, ``Ship date:``), unmerged, and leaves part
    of the width empty; at least one of them is filled in (a value right of its label); and the row
    right under them heads the rest of the piece, filling most of its columns. ``Date: | May 2024``
    lines typed on the rows right above a header are the table's metadata, not rows of it (a table
    of such lines has no header under them: nothing is peeled; a group label merged over columns
    is the header's first line, whatever its punctuation)."""
    r, filled_in = box.top, False
    while r < min(box.bottom - 1, box.top + MAX_FIELD_ROWS):
        field = _field_row(g, box, r, text_at)
        if field is None:
            break
        filled_in = filled_in or field
        r += 1
    if r == box.top or not filled_in:
        return 0
    filled = int(np.count_nonzero(row_cells(g, box, r)))
    if filled < max(2, 0.7 * box.width) or not is_header_row(g, Box(r, box.left, box.bottom, box.right), r):
        return 0
    return r - box.top


def _field_tail(g: CellGrid, box: Box, text_at: TextAt) -> int:
    """How many rows at the bottom of a headed piece are filled-in form fields of words only
    (``Prepared by: | Finance``): two or more, or one whose key marks a note (``Source: | ...``).
    They sign the table off; a total row (``Total: | 60``) and rows of figures (``Mean: | 5.1``)
    are the table's own."""
    if box.height < 4 or not _field_row(g, box, box.bottom, text_at) or not _starts_with_header(g, box):
        return 0
    r = box.bottom
    while r > box.top + 1 and _field_row(g, box, r, text_at):
        first = text_at(r, box.left + int(np.flatnonzero(row_cells(g, box, r))[0]))
        if GRAND_TOTAL.search(first) or SUBTOTAL.search(first) or (row_cells(g, box, r) == VALUE).any():
            break
        r -= 1
    n = box.bottom - r
    if n == 1:
        first = text_at(box.bottom, box.left + int(np.flatnonzero(row_cells(g, box, box.bottom))[0]))
        return 1 if NOTE_MARKER.match(first) else 0
    return n


def _field_row(g: CellGrid, box: Box, r: int, text_at: TextAt) -> bool | None:
    """Row ``r`` holds form fields: ``None`` when not, else whether a field is filled in."""
    occ = [box.left + int(j) for j in np.flatnonzero(row_cells(g, box, r) != 0)]
    if not occ or len(occ) >= box.width:
        return None
    keys = [i for i, c in enumerate(occ) if g.cls[r, c] == TEXT and text_at(r, c).rstrip().endswith(":")]
    if not keys or any(g.merge_span[r, occ[i]] >= 2 for i in keys):
        return None
    return any(i + 1 < len(occ) and i + 1 not in keys for i in keys)


def _spread_label(g: CellGrid, box: Box, r: int) -> bool:
    """One label repeated in three or more cells across the row: a merged line exported cell by
    cell (a source or date line under a table), never a row of its data."""
    ids = g.label_ids[r, box.left : box.right + 1]
    occ = g.cls[r, box.left : box.right + 1] != 0
    return bool(occ.sum() >= 3 and (ids[occ] >= 0).all() and (ids[occ] == ids[occ][0]).all())


def _total_cut(g: CellGrid, box: Box, text_at: TextAt) -> int | None:
    """The grand-total row that closes a table with row labels, when the row under it has none.

    Figures under a total without a label of their own are check sums and helper values; a
    total closes the table, so whatever follows belongs elsewhere.
    """
    if box.height < 4 or box.width < 2:
        return None
    first = g.cls[box.top : box.bottom + 1, box.left]
    if (first == TEXT).sum() < 0.6 * box.height:
        return None
    for r in range(box.top + 2, box.bottom):
        if g.cls[r, box.left] != TEXT or g.cls[r + 1, box.left] != 0:
            continue
        text = text_at(r, box.left)
        if GRAND_TOTAL.search(text) and not SUBTOTAL.search(text):
            return r
    return None


def _trim_residue(g: CellGrid, box: Box) -> tuple[Box, list[Piece]]:
    """Cut what sits on a table's edge without being part of it.

    * a last row of a few labels in the value columns, none in the row-label column:
      initials, remarks (kept as a note line);
    * a last column with no header whose cells are mostly empty (remarks beside some rows),
      or a header with nothing under it.
    """
    residue: list[Piece] = []
    if box.height < 4 or box.width < 2:
        return box, residue
    if _remark_row(g, box):
        residue.append(Piece(Box(box.bottom, box.left, box.bottom, box.right), True))
        box = Box(box.top, box.left, box.bottom - 1, box.right)
    # a column's header is what it holds in the header band (a column headed on the second row of
    # a two-row header, under a merged group label, is headed)
    band = header_band(g, box)
    h = band[1] - box.top + 1 if band is not None and band[0] == box.top else 1
    while box.width > 2:
        col = g.cls[box.top : box.bottom + 1, box.right]
        head, body = int(np.count_nonzero(col[:h])), col[h:]
        sparse = head == 0 and np.count_nonzero(body) <= 0.5 * body.size
        # a header with nothing under it (a triangle's last columns are hollow too: not those)
        hollow = (
            head != 0
            and not body.any()
            and body.size >= 3
            and np.count_nonzero(g.cls[box.top + h : box.bottom + 1, box.right - 1]) >= 0.5 * body.size
        )
        if _notes_column(g, box):
            # remarks typed beside the table with no empty column between: its notes
            for r in np.flatnonzero(col != 0):
                residue.append(Piece(Box(box.top + int(r), box.right, box.top + int(r), box.right), True))
        elif not (sparse or hollow) or not is_header_row(g, box, box.top):
            break
        box = Box(box.top, box.left, box.bottom, box.right - 1)
    return _tighten(g, box) or box, residue


def _notes_column(g: CellGrid, box: Box) -> bool:
    """The last column holds remarks, not a field: long text (25+ characters, twice as long as
    the table's other labels) on at most half of the rows, beside a body of values. When its top
    cell is such a remark too (no column label heads it), remarks on more rows are still remarks."""
    col = g.cls[box.top + 1 : box.bottom + 1, box.right]
    filled = col != 0
    if not filled.any() or (col[filled] != TEXT).any():
        return False
    rest = g.cls[box.top + 1 : box.bottom + 1, box.left : box.right]
    if (rest == VALUE).sum() < 0.3 * max(int(np.count_nonzero(rest)), 1):
        return False
    lens = g.text_len[box.top + 1 : box.bottom + 1, box.right][filled]
    others = g.text_len[box.top : box.bottom + 1, box.left : box.right]
    typical = float(np.median(others[others > 0])) if (others > 0).any() else 0.0
    long_ = float(np.median(lens))
    head = g.text_len[box.top, box.right]
    remark_head = head >= 25 and head >= 2 * typical and g.cls[box.top, box.right] == TEXT
    if filled.sum() > 0.5 * col.size and not remark_head:
        return False
    return long_ >= 25 and long_ >= 2 * typical and (head == 0 or head >= 25)


def _remark_row(g: CellGrid, box: Box) -> bool:
    """The last row holds a few labels where the body holds values, none in the row-label
    column: initials, remarks, codes scribbled under a table, not a row of it."""
    if box.height < 4 or box.width < 2:
        return False
    last = row_cells(g, box, box.bottom)
    occ = last != 0
    return bool(
        occ.any()
        and not occ[0]
        and (last[occ] == TEXT).all()
        and occ.sum() <= max(1, box.width // 3)
        and body_value_cols(g, Box(box.top, box.left, box.bottom - 1, box.right), box.top + 1)[occ].all()
    )


def _group_header(g: CellGrid, box: Box, top: int, bottom: int, col: int, text_at: TextAt) -> bool:
    """Labels on a piece's top row, starting right of its first column, that head groups of
    columns rather than title the table.

    * two or more different labels spread over the row (``Domestic ... Offshore``): groups;
    * one label merged over columns (``Revenue`` over ``2023 | 2024``);
    * one short unmerged label right above a header row: the first line of a two-line header
      (``General`` over ``Fund``), not a title, which is long or starts at the left edge, nor a
      unit typed over the last column alone (``EUR thousands``).
    """
    cells = row_cells(g, box, top)
    cols = np.flatnonzero(cells != 0)
    ids = g.label_ids[top, box.left : box.right + 1][cols]
    if len(ids) >= 2:
        # groups are spread out over the columns they head (adjacent pieces are one title's
        # words), and the row under them labels those columns more finely; a row that starts at
        # the left edge (over the row labels) is a group row only when every label has another
        # right under it (a header stack), else it is a title with a date or a place beside it
        if top >= bottom or len(set(ids.tolist())) < 2:
            return False
        if int(np.diff(cols).min()) < 2:
            return _over_finer_header(g, box, top, cols, text_at)
        if _caption_and_unit(g, box, top, text_at):
            return False
        below = g.cls[top + 1, box.left : box.right + 1] != 0
        if bool(below[cols].all()) and int(below.sum()) >= len(ids):
            return True
        if col > box.left:
            return int(below.sum()) > len(ids)
        # three or more column names spread over the row, the row-label column's among them,
        # over a finer header row: the first line of a two-line header (``Measure | Baseline |
        # Targets`` over years); a title with a date or a place beside it has fewer parts
        return len(set(ids.tolist())) >= 3 and is_header_row(
            g, Box(top + 1, box.left, bottom, box.right), top + 1
        )
    if g.merge_span[top, col] >= 2:
        # a group spans some of the columns (``Revenue`` over years may span them all); a label
        # over every column that states a unit (``Unemployment (thousands)``) is the table's
        # caption, not a group
        spans_all = col + int(g.merge_span[top, col]) - 1 >= box.right
        return not (spans_all and UNIT.search(text_at(top, col)))
    if top + 1 > bottom or len(text_at(top, col).strip()) > 30:
        return False
    if col == box.right and UNIT.search(text_at(top, col)):
        return False  # a unit over the last column alone (``EUR thousands``) groups nothing
    return is_header_row(g, Box(top + 1, box.left, bottom, box.right), top + 1)


def _over_finer_header(g: CellGrid, box: Box, top: int, cols: np.ndarray, text_at: TextAt) -> bool:
    """Labels side by side on a header's first line, read as title words before: group labels
    whose merges a CSV export dropped (``Total persons | Number of persons by age group``), or
    the row labels' own heading over their empty column beside a group label (``Country | Year``
    over ``  | 2002 | 2003``). Within three rows under them, with no figure between, comes a finer
    header row naming more columns than they do; a title with a date beside it has the table's
    own header, row labels' heading included, right under it."""
    if g.figures(top, slice(box.left, box.right + 1)).any():
        return False
    if cols[0] == 0 and len(text_at(top, box.left).strip()) > 40:
        return False
    for r in range(top + 1, min(top + 3, box.bottom - 1) + 1):
        if cols[0] == 0 and g.cls[r, box.left] != 0:
            return False  # the left column fills: the row labels' heading is on this row
        if g.figures(r, slice(box.left, box.right + 1)).any() or is_text_line(g, box, r):
            return False  # (a lone line between is a title's: ``Pinto Bean | 10 Year Average`` over one)
        if int(np.count_nonzero(row_cells(g, box, r))) > len(cols) and is_header_row(
            g, Box(r, box.left, box.bottom, box.right), r
        ):
            return True
    return False


def _caption_and_unit(g: CellGrid, box: Box, top: int, text_at: TextAt) -> bool:
    """A caption at the left edge and a unit over the last column alone, nothing between
    (``As at 31 December 2025 | | | Unit: RMB yuan``): a title line, not a header."""
    cells = row_cells(g, box, top)
    cols = np.flatnonzero(cells != 0)
    return bool(
        len(cols) == 2
        and box.width >= 3  # (something between them: ``Item | Units`` heads two columns)
        and cols[0] == 0
        and cols[-1] == box.width - 1
        and not (cells == VALUE).any()
        and UNIT.search(text_at(top, box.right))
        and len(text_at(top, box.right).strip()) <= 40
    )


def _sparse_label_row(g: CellGrid, box: Box, top: int, bottom: int, text_at: TextAt) -> bool:
    """A few labels over a wider block that do not head it: title words, not a header."""
    if _caption_and_unit(g, box, top, text_at):
        return True
    cells = row_cells(g, box, top)
    occ = cells != 0
    if (cells == VALUE).any() or occ.sum() >= 0.5 * box.width or bottom - top < 2:
        return False
    return not is_header_row(g, Box(top, box.left, bottom, box.right), top)


def _tighten(g: CellGrid, box: Box) -> Box | None:
    sub = g.cls[box.top : box.bottom + 1, box.left : box.right + 1] != 0
    rows, cols = np.flatnonzero(sub.any(axis=1)), np.flatnonzero(sub.any(axis=0))
    if rows.size == 0:
        return None
    return Box(
        box.top + int(rows[0]), box.left + int(cols[0]), box.top + int(rows[-1]), box.left + int(cols[-1])
    )


def _row_texts(g: CellGrid, box: Box, r: int, text_at: TextAt) -> list[str]:
    return [
        text_at(r, c).strip().casefold() if g.cls[r, c] == TEXT else ""
        for c in range(box.left, box.right + 1)
    ]


def _has_header(g: CellGrid, box: Box) -> bool:
    return _starts_with_header(g, box) or _header_only(g, box) or names_its_columns(g, box)


def _header_only(g: CellGrid, box: Box) -> bool:
    """A short piece of label rows only: the header of the values that follow it. Years and
    column numbers among the labels are labels too (``2009`` over a column of counts)."""
    if box.height > 6:
        return False
    area = slice(box.top, box.bottom + 1), slice(box.left, box.right + 1)
    for i in np.flatnonzero(g.figures(*area).any(axis=1)):
        if not is_numbering_row(g, box, box.top + int(i)):
            return False
    return bool((g.labels(*area).sum(axis=1) >= 2).any())


#: Rows a header band spread over blank rows may span before its body starts.
MAX_BAND_ROWS = 12


def _header_band(g: CellGrid, box: Box) -> bool:
    """Label rows with no figure yet (years and column numbers are labels): a header whose body is
    still to come, however many blank rows its lines are spread over."""
    if box.height > MAX_BAND_ROWS:
        return False
    area = slice(box.top, box.bottom + 1), slice(box.left, box.right + 1)
    figures = g.figures(*area)
    if not figures.any():
        return True
    if (g.ordinal[area][figures] < 0).any():
        return False  # a figure that is no column number
    return all(is_numbering_row(g, box, box.top + int(i)) for i in np.flatnonzero(figures.any(axis=1)))


def _join_split_headers(g: CellGrid, pieces: list[Box]) -> list[Box]:
    """Label pieces side by side that end on the same row with only empty cells between them, over
    one piece of values that spans them: one header band that empty spacer columns cut apart
    (group labels on its upper rows stand over only some of its pieces). Joined before titles are
    peeled, or a group label would read as the title of the piece it stands on."""
    heads = [
        b
        for b in pieces
        if _header_band(g, b) and (g.cls[b.top : b.bottom + 1, b.left : b.right + 1] == TEXT).any()
    ]
    bodies = [b for b in pieces if not _header_band(g, b) and b.width >= 2]
    if len(heads) < 2 or not bodies:
        return pieces
    out = [b for b in pieces if b not in heads]
    by_bottom: dict[int, list[Box]] = {}
    for h in heads:
        by_bottom.setdefault(h.bottom, []).append(h)
    for bottom, group in by_bottom.items():
        group.sort(key=lambda b: b.left)
        under = [b for b in bodies if 0 <= b.top - bottom - 1 <= MAX_INNER_GAP]
        cur = group[0]
        for h in group[1:]:
            top = min(cur.top, h.top)
            gap_empty = not g.cls[top : bottom + 1, cur.right + 1 : h.left].any()
            spans = any(b.cols_overlap(cur) and b.cols_overlap(h) for b in under)
            if h.left > cur.right and gap_empty and spans:
                cur = cur.union(h)
            else:
                out.append(cur)
                cur = h
        out.append(cur)
    return sorted(out)


def _starts_with_header(g: CellGrid, box: Box) -> bool:
    """One of the leading label rows of ``box`` heads the values below it (years are labels)."""
    for r in range(box.top, min(box.bottom, box.top + 4)):
        if g.figures(r, slice(box.left, box.right + 1)).any() and not is_numbering_row(g, box, r):
            return False
        if is_header_row(g, Box(r, box.left, box.bottom, box.right), r):
            return True
    return False


def _labels_left_of(g: CellGrid, band: Box, body: Box) -> bool:
    """Whether ``body`` is the body of the header ``band`` above it, reaching further left only by
    columns without figures (its row labels, under no header: the band heads the figures alone,
    as a statement converted from PDF sets its years over the amounts, past a "$" column)."""
    if body.left >= band.left or body.right > band.right + 1 or body.cols_overlap(band) < 0.7 * band.width:
        return False
    left = slice(body.top, body.bottom + 1), slice(body.left, band.left)
    return not g.figures(*left).any() and bool(g.labels(*left).any())


def _labels_over_figures(g: CellGrid, cand: Box, table: Box) -> bool:
    """Whether one of the leading label rows of ``cand`` labels a column that holds figures in
    ``table``: a header of its own does; a bold section line with a line code beside it
    (``EQUITY AND LIABILITIES | SFP160``) labels none of the figure columns, and continues it."""
    cols = slice(table.left, table.right + 1)
    figure_cols = g.figures(slice(table.top, table.bottom + 1), cols).any(axis=0)
    if not figure_cols.any():
        return True  # (no figures above yet: a header of its own)
    for r in range(cand.top, min(cand.bottom, cand.top + 4) + 1):
        if g.figures(r, cols).any():
            break
        if (g.labels(r, cols) & figure_cols).any():
            return True
    return False


def _repeats_header(g: CellGrid, head: Box, r: int, cand: Box, text_at: TextAt) -> bool:
    """Row ``r`` of ``cand`` carries (most of) the same labels as the header row of ``head``."""
    return bool(_repeat_rows(g, head, r, r, cand).any())


def _repeat_rows(g: CellGrid, head: Box, r0: int, r1: int, cand: Box) -> np.ndarray:
    """For rows ``r0..r1``: does each repeat (60 %+ of) the labels of ``head``'s top row?"""
    left, right = max(head.left, cand.left), min(head.right, cand.right)
    if left > right or r0 > r1:
        return np.zeros(max(r1 - r0 + 1, 0), dtype=bool)
    hdr = g.label_ids[head.top, left : right + 1]
    n = int((hdr >= 0).sum())
    if n < 2:
        return np.zeros(r1 - r0 + 1, dtype=bool)
    same = (g.label_ids[r0 : r1 + 1, left : right + 1] == hdr) & (hdr >= 0)
    return same.sum(axis=1) >= 0.6 * n


def _opens_with_figures(g: CellGrid, box: Box) -> bool:
    """The first row of ``box`` holds figures and no label right of its first column: a body row,
    not a header of its own."""
    rest = g.cls[box.top, box.left + 1 : box.right + 1]
    return bool((rest == VALUE).any() and not (rest == TEXT).any())


def _repeats_row_names(g: CellGrid, table: Box, block: Box) -> bool:
    """The row names of ``block`` (two at least, after one of its own on top, such as a group's
    name) run, in order, as rows of ``table`` already do: the same lines again for another group or
    region (``N | aver`` under each site), a copy stacked under it. The sections of one statement
    name other lines."""
    names = [int(x) for x in g.label_ids[block.top : block.bottom + 1, block.left] if x >= 0]
    above = [int(x) for x in g.label_ids[table.top : table.bottom + 1, table.left] if x >= 0]
    if names and names[0] not in above:
        names = names[1:]
    n = len(names)
    return n >= 2 and any(above[i : i + n] == names for i in range(len(above) - n + 1))


def _named_rows(g: CellGrid, box: Box) -> bool:
    """Every row of ``box`` is a label in its first column and figures after it (no header row)."""
    first = g.cls[box.top : box.bottom + 1, box.left] == TEXT
    rest = g.figures(slice(box.top, box.bottom + 1), slice(box.left + 1, box.right + 1)).any(axis=1)
    return bool(first.all() and rest.all())


def _compatible(a: Box, b: Box) -> bool:
    """``b`` sits under ``a``'s columns (a little slack on each side)."""
    overlap = a.cols_overlap(b)
    return overlap >= 0.7 * min(a.width, b.width) and b.left >= a.left - 2 and b.right <= a.right + 1


def _total_line(g: CellGrid, q: Box, table: Box, text_at: TextAt) -> bool:
    """One row under a table, starting in its label column, labelled as the grand total and
    holding figures: the table's total row, however few of its columns it fills."""
    if q.height != 1 or q.left != table.left or q.right > table.right or g.cls[q.top, q.left] != TEXT:
        return False
    text = text_at(q.top, q.left)
    return (
        bool(GRAND_TOTAL.search(text))
        and not SUBTOTAL.search(text)
        and bool((row_cells(g, q, q.top) == VALUE).any())
    )


def _ends_with_total(g: CellGrid, box: Box, text_at: TextAt) -> bool:
    """A grand-total row closes a table: what follows a blank row after it is something else."""
    r = box.bottom
    texts = [text_at(r, c) for c in range(box.left, box.right + 1) if g.cls[r, c] == TEXT]
    if texts and SUBTOTAL.search(texts[0]):
        return False
    return bool(texts) and (bool(GRAND_TOTAL.search(texts[0])) or _emphasised_last(g, box))


def _emphasised_last(g: CellGrid, box: Box) -> bool:
    """The block's last row is labelled and set in bold across its figures (two at least) where
    the figures above it, three rows at least, are not: the way a sheet sets its closing total
    (``Campus (all above)``) when no word says so."""
    r, cols = box.bottom, slice(box.left, box.right + 1)
    figures = g.figures(r, cols)
    if int(figures.sum()) < 2 or not g.bold[r, cols][figures].all():
        return False
    above = g.figures(slice(box.top, r), cols)[:, figures]
    rows_above = above.any(axis=1)
    return int(rows_above.sum()) >= 3 and not (g.bold[box.top : r, cols][:, figures] & above).any()


def assemble(g: CellGrid, pieces: list[Box], text_at: TextAt) -> list[Skeleton]:
    """Group pieces into table skeletons with their titles and notes."""
    peeled: list[Piece] = []
    for box in _join_split_headers(g, pieces):
        if box.height == box.width == 1 and g.prose[box.top, box.left]:
            peeled.append(Piece(box, True))  # a paragraph line
        elif is_notes_block(g, box, text_at):
            peeled.extend(Piece(line, True) for line in _row_lines(g, box))
        else:
            peeled.extend(_peel(g, box, text_at))
    peeled = _join_header_bands(g, peeled)
    peeled.sort(key=lambda p: (p.box.top, p.box.left))
    tables: list[Skeleton] = []
    lines: list[Piece] = []
    used: set[int] = set()
    for i, p in enumerate(peeled):
        if i in used:
            continue
        if p.line or (p.box.width < 2 and p.box.height < 2):
            lines.append(p) if p.line else None
            continue
        sk = Skeleton(p.box, [p])
        headed = _has_header(g, p.box)
        head_box = p.box
        # stack what continues this table across blank rows
        j = i + 1
        pending: list[int] = []
        while j < len(peeled):
            q = peeled[j]
            if j in used or q.box.top <= sk.box.bottom or not q.box.cols_overlap(sk.box):
                j += 1
                continue
            last_bottom = peeled[pending[-1]].box.bottom if pending else sk.box.bottom
            if q.box.top - last_bottom - 1 > MAX_INNER_GAP:
                break
            if not headed:
                break
            # a row cut in pieces by its empty cells continues the table as one row group
            group = _row_group(peeled, j, used, sk.box)
            qbox = q.box
            for k in group:
                qbox = qbox.union(peeled[k].box)
            band = len(sk.parts) == 1 and _header_band(g, sk.box)  # (a header with no body yet)
            if q.line and not group:
                if not (sk.box.left - 2 <= q.box.left or band) or q.box.left > sk.box.left + 1:
                    break
                pending.append(j)  # a section line: the block under it decides
                j += 1
                continue
            same_columns = (qbox.left, qbox.right) == (sk.box.left, sk.box.right)
            if _ends_with_total(g, sk.box, text_at) and not (
                same_columns
                and (
                    (pending and _opens_with_figures(g, qbox))
                    or _ends_with_total(g, qbox, text_at)
                    or (_opens_with_figures(g, qbox) and _named_rows(g, qbox))
                )
            ):
                # a total closes a table, unless the next block, over the same columns, is a
                # section: its own section line over figures, closed by a total the same way, or
                # lines of figures each named in the first column (``Net current assets``,
                # ``Creditors: amounts falling due ...`` between a statement's totals)
                break
            if sk.box.width > 2 and is_key_value_block(g, qbox, text_at):
                break  # ``Source: | ...`` lines under a wider table: its metadata, not its rows
            closing = _total_line(g, qbox, sk.box, text_at)
            labelled = band and _labels_left_of(g, sk.box, qbox)
            if (
                not closing
                and not labelled
                and (not _compatible(sk.box, qbox) or qbox.width_share(sk.box) < 0.5)
            ):
                break
            own_header = (
                any(_starts_with_header(g, b) for b in (qbox, *(peeled[k].box for k in [j, *group])))
                and _labels_over_figures(g, qbox, sk.box)
            ) or _repeats_header(g, head_box, qbox.top, qbox, text_at)
            if own_header and not (_header_band(g, sk.box) and qbox.height <= 3):
                break  # (a few label rows under a header that has no body yet are more of it)
            if _repeats_row_names(g, sk.box, qbox):
                break  # the same rows again for another group: a copy of the table stacked under it
            for k in [*pending, j, *group]:
                used.add(k)
                sk.parts.append(peeled[k])
                sk.box = sk.box.union(peeled[k].box)
            pending = []
            j += 1
        if len(sk.parts) > 1 and _remark_row(g, sk.box):
            # checked again once stacked: the last part may be a row with its remark under it
            sk.notes.append(Box(sk.box.bottom, sk.box.left, sk.box.bottom, sk.box.right))
            sk.box = _tighten(g, Box(sk.box.top, sk.box.left, sk.box.bottom - 1, sk.box.right)) or sk.box
        tables.append(sk)
    lines = _row_labels_beside(g, tables, lines)
    tables, lines = _title_bands(g, tables, lines)
    # lone labels still free become titles (just above) or notes (just below) of the nearest table
    taken = {id(part) for sk in tables for part in sk.parts}
    free = [
        p
        for p in lines
        if id(p) not in taken
        and not any(sk.box.rows_overlap(p.box) and sk.box.cols_overlap(p.box) for sk in tables)
    ]
    _attach_labels(tables, free)
    return [
        t
        for sk in tables
        for part in _split_at_headers(g, sk)
        for copy in _split_copies(g, part, text_at)
        for t in _split_at_row_labels(g, copy)
    ]


#: How many empty columns (a "$" column of a statement converted from PDF among them) may stand
#: between a table of figures and the labels of its rows.
MAX_LABEL_SPACERS = 3


def _row_labels_beside(g: CellGrid, tables: list[Skeleton], lines: list[Piece]) -> list[Piece]:
    """The label lines that name the rows of a table of figures with no labels of its own, moved into
    it: a statement converted from PDF sets its line names a few empty columns left of the amounts,
    and its unlabelled subtotals cut that column of names into pieces. Each label sits on a row of
    the table that holds figures, the columns between are empty, and together they name at least
    half the table's rows of figures. Returns the lines left."""
    taken: set[int] = set()
    for sk in tables:
        b = sk.box
        figured = np.asarray(g.figures(slice(b.top, b.bottom + 1), slice(b.left, b.right + 1)).any(axis=1))
        if ((g.cls[b.top : b.bottom + 1, b.left] == TEXT) & figured).any():
            continue  # (its first column names its rows already)
        beside = [
            i
            for i, p in enumerate(lines)
            if i not in taken
            and p.box.right < b.left
            and b.left - p.box.right - 1 <= MAX_LABEL_SPACERS
            and b.top < p.box.top
            and p.box.bottom <= b.bottom
            and not g.occupied[p.box.top : p.box.bottom + 1, p.box.right + 1 : b.left].any()
        ]
        rows = [
            r
            for i in beside
            for r in range(lines[i].box.top, lines[i].box.bottom + 1)
            if g.labels(r, slice(None)).any()
        ]
        if not rows or not all(figured[r - b.top] for r in rows) or len(rows) < 0.5 * figured.sum():
            continue
        left = min(lines[i].box.left for i in beside)
        sk.box = Box(b.top, left, b.bottom, b.right)
        sk.parts.extend(lines[i] for i in beside)
        taken.update(beside)
    return [p for i, p in enumerate(lines) if i not in taken]


def _title_bands(
    g: CellGrid, tables: list[Skeleton], lines: list[Piece]
) -> tuple[list[Skeleton], list[Piece]]:
    """A few rows of labels and no figures over two tables side by side or more, each label at the
    first column of one of them (``Area harvested`` over one table and ``Yield`` over the next, a
    unit line under each), are their titles: each label becomes a line of its own, which
    :func:`_attach_labels` gives to the table under it."""
    out: list[Skeleton] = []
    for sk in tables:
        b = sk.box
        cells = g.cls[b.top : b.bottom + 1, b.left : b.right + 1]
        below = [
            t
            for t in tables
            if t is not sk and 0 < t.box.top - b.bottom <= MAX_LABEL_GAP + 1 and t.box.cols_overlap(b)
        ]
        starts = {t.box.left for t in below}
        anchors = [
            (r, c)
            for r in range(b.top, b.bottom + 1)
            for c in range(b.left, b.right + 1)
            if g.cls[r, c] == TEXT and (c == b.left or g.label_ids[r, c - 1] != g.label_ids[r, c])
        ]
        if (
            b.height > 3
            or (cells == VALUE).any()
            or len(starts) < 2
            or not anchors
            or any(c not in starts for _, c in anchors)
            or len({c for _, c in anchors}) < 2
        ):
            out.append(sk)
            continue
        lines = [*lines, *(Piece(Box(r, c, r, c), True) for r, c in anchors)]
    return out, lines


def _row_label_column(g: CellGrid, box: Box, c: int, first_data: int) -> bool:
    """Column ``c`` holds one distinct label on (nearly) every body row: the names of a table's rows."""
    col = g.cls[first_data : box.bottom + 1, c]
    ids = g.label_ids[first_data : box.bottom + 1, c]
    named = ids[col == TEXT]
    return bool(col.size >= 2 and named.size >= 0.9 * col.size and np.unique(named).size == named.size)


def _split_at_row_labels(g: CellGrid, sk: Skeleton) -> list[Skeleton]:
    """Cut a table in front of a second column of row names: two tables touching side by side,
    each a column of distinct row names (under a header label) followed by columns of figures
    (``Region | Q1 | Q2 | City | Staff | Sites``). A column of labels that repeat (a category
    such as ``Continent``) is a field of one table."""
    box = sk.box
    if box.width < 5 or box.height < 3 or not _row_label_column(g, box, box.left, box.top + 1):
        return [sk]
    body = slice(box.top + 1, box.bottom + 1)
    figures = (g.cls[body, box.left : box.right + 1] == VALUE).sum(axis=0) >= 0.5 * (box.height - 1)
    for j in range(2, box.width - 1):
        c = box.left + j
        if (
            g.cls[box.top, c] == TEXT
            and figures[1:j].all()
            and figures[j + 1]
            and _row_label_column(g, box, c, box.top + 1)
        ):
            left = Skeleton(
                Box(box.top, box.left, box.bottom, c - 1),
                [Piece(Box(box.top, box.left, box.bottom, c - 1), False)],
                list(sk.titles),
                [],
            )
            right = Box(box.top, c, box.bottom, box.right)
            rest = Skeleton(right, [Piece(right, False)], [], list(sk.notes))
            return [left, *_split_at_row_labels(g, rest)]
    return [sk]


def _row_lines(g: CellGrid, box: Box) -> list[Box]:
    """Each filled row of ``box``, tight around its cells."""
    out = []
    for r in range(box.top, box.bottom + 1):
        cols = np.flatnonzero(row_cells(g, box, r))
        if cols.size:
            out.append(Box(r, box.left + int(cols[0]), r, box.left + int(cols[-1])))
    return out


def _join_header_bands(g: CellGrid, peeled: list[Piece]) -> list[Piece]:
    """Header pieces on exactly the same rows, only empty cells between them, are one header band
    (spacer columns cut it; titles peeled off its top hid that its pieces share their rows)."""
    heads = sorted(
        (p for p in peeled if not p.line and p.box.width >= 2 and _header_only(g, p.box)),
        key=lambda p: (p.box.top, p.box.bottom, p.box.left),
    )
    out = [p for p in peeled if all(p is not h for h in heads)]
    cur: Piece | None = None
    for p in heads:
        b = p.box
        if (
            cur is not None
            and (cur.box.top, cur.box.bottom) == (b.top, b.bottom)
            and not g.cls[b.top : b.bottom + 1, cur.box.right + 1 : b.left].any()
        ):
            cur = Piece(cur.box.union(b), False)
            continue
        if cur is not None:
            out.append(cur)
        cur = p
    if cur is not None:
        out.append(cur)
    return out


def _row_group(peeled: list[Piece], j: int, used: set[int], table: Box) -> list[int]:
    """Other free pieces on the rows of piece ``j``, under the table's columns: the rest of a
    row that empty cells cut apart (a blank name, a missing value)."""
    q = peeled[j].box
    out = []
    for k in range(j + 1, len(peeled)):
        b = peeled[k].box
        if b.top > q.bottom:
            break
        if k not in used and b.rows_overlap(q) and table.left <= b.left and b.right <= table.right:
            out.append(k)
    return out


def _attach_labels(tables: list[Skeleton], free: list[Piece]) -> None:
    """Lines right beside a table (inside its rows, next to its first or last column) are its
    notes; then titles chain upwards from a table (nearest first), notes chain downwards; two
    lines on one row (a label and the paragraph beside it) go together."""
    left = []
    for p in free:
        beside = [
            sk
            for sk in tables
            if sk.box.top <= p.box.top
            and p.box.bottom <= sk.box.bottom
            and (p.box.right == sk.box.left - 1 or p.box.left == sk.box.right + 1)
        ]
        if beside:
            beside[0].notes.append(p.box)
        else:
            left.append(p)
    for where in ("title", "note"):
        order = sorted(left, key=lambda x: x.box.top, reverse=where == "title")
        left = []
        for p in order:
            best: tuple[int, Skeleton] | None = None
            for sk in tables:
                b = sk.box
                if not (b.left - 1 <= p.box.left <= b.right):
                    continue
                if where == "title":
                    edge = min([b.top, *(t.top for t in sk.titles)])
                    d = edge - p.box.bottom
                else:
                    edge = max([b.bottom, *(n.bottom for n in sk.notes)])
                    d = p.box.top - edge
                labels = sk.titles if where == "title" else sk.notes
                same_row = d == 0 and any(x.top == p.box.top for x in labels)
                if (0 < d <= MAX_LABEL_GAP + 1 or same_row) and (best is None or d < best[0]):
                    best = (d, sk)
            if best is None:
                left.append(p)
            else:
                (best[1].titles if where == "title" else best[1].notes).append(p.box)
    for sk in tables:
        sk.titles.sort()
        sk.notes.sort()


def _interrupting_header(g: CellGrid, box: Box) -> int | None:
    """The first row inside ``box`` that heads the values below it while the rows above hold values
    in its columns: a new table's header, stacked without a gap (appendix K.2: tables separated
    only by a header row). Lone label lines just above it go with it."""
    sub = g.cls[box.top : box.bottom + 1, box.left : box.right + 1]
    n_text, n_val = (sub == TEXT).sum(axis=1), (sub == VALUE).sum(axis=1)
    for i in np.flatnonzero((n_text >= 2) & (n_val == 0)):
        r = int(i) + box.top
        if r < box.top + 2 or r >= box.bottom:
            continue
        if all(
            n_val[x - box.top] == 0 or is_header_row(g, Box(x, box.left, box.bottom, box.right), x)
            for x in range(box.top, r)
        ):
            continue  # only header lines above (years over a unit line): one more line of the same header
        above = r - 1
        while above > box.top and (n_val[above - box.top] == 0 and n_text[above - box.top] <= 1):
            above -= 1  # skip blank rows and lone label lines
        over_values = (sub[r - box.top] == TEXT) & (sub[above - box.top] == VALUE)
        names = g.label_ids[r, box.left : box.right + 1][over_values]
        if len(set(names.tolist())) < 2:
            continue  # one word repeated (``Time Time Time``) is a row of data, not column names
        if is_header_row(g, Box(r, box.left, box.bottom, box.right), r):
            return r
    return None


def _split_at_headers(g: CellGrid, sk: Skeleton) -> list[Skeleton]:
    """Cut a skeleton above every header row that interrupts its values."""
    r = _interrupting_header(g, sk.box)
    if r is None:
        return [sk]
    box = sk.box
    cut = r
    while cut - 1 > box.top and is_text_line(g, box, cut - 1):
        cut -= 1
    upper = _tighten(g, Box(box.top, box.left, cut - 1, box.right))
    lower = _tighten(g, Box(r, box.left, box.bottom, box.right))
    if upper is None or lower is None:
        return [sk]
    titles = [Box(x, box.left, x, box.right) for x in range(cut, r)]
    parts = []
    for i, part in enumerate((upper, lower)):
        trimmed, residue = _trim_residue(g, part)  # edges the whole did not show (a hollow column)
        notes = [x.box for x in residue] + (sk.notes if i else [])
        parts.append(Skeleton(trimmed, [Piece(trimmed, False)], titles if i else sk.titles, notes))
    return [parts[0], *_split_at_headers(g, parts[1])]


def _split_copies(g: CellGrid, sk: Skeleton, text_at: TextAt) -> list[Skeleton]:
    """Split a table whose header row repeats lower down or repeats its first label to the right."""
    box = sk.box
    if box.height < 3 or not is_header_row(g, box, box.top):
        return [sk]
    first = text_at(box.top, box.left).strip().casefold() if g.cls[box.top, box.left] == TEXT else ""
    # the header holds more than the repeated label (years, other names): copies side by side
    named = int(np.count_nonzero(g.cls[box.top, box.left : box.right + 1]))
    if first and named >= 4:
        cuts = [
            c
            for c in range(box.left + 2, box.right + 1)
            if g.cls[box.top, c] == TEXT
            and text_at(box.top, c).strip().casefold() == first
            # the same label in the cell before it is one merged label exported cell by cell
            and g.label_ids[box.top, c - 1] != g.label_ids[box.top, c]
        ]
        if cuts:
            edges = [box.left, *cuts, box.right + 1]
            out = []
            for a, b in pairwise(edges):
                sub, residue = _trim_residue(g, _tighten(g, Box(box.top, a, box.bottom, b - 1)) or box)
                titles = list(sk.titles) if a == box.left else []
                out.append(Skeleton(sub, [Piece(sub, False)], titles, [x.box for x in residue]))
            out[-1].notes = list(sk.notes)
            return out
    hits = np.flatnonzero(_repeat_rows(g, box, box.top + 2, box.bottom - 1, box))
    for r in (int(x) + box.top + 2 for x in hits[:1]):
        if r + 1 <= box.bottom:
            # lone labels right above the repeated header are the lower table's title lines
            cut = r
            while cut - 1 > box.top + 1 and is_text_line(g, box, cut - 1):
                cut -= 1
            upper = _tighten(g, Box(box.top, box.left, cut - 1, box.right)) or box
            lower = Box(r, box.left, box.bottom, box.right)
            titles = [Box(x, box.left, x, box.right) for x in range(cut, r)]
            first_sk = Skeleton(upper, [Piece(upper, False)], sk.titles, [])
            rest = _split_copies(g, Skeleton(lower, [Piece(lower, False)], titles, sk.notes), text_at)
            return [first_sk, *rest]
    return [sk]

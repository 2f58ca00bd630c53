"""Header lines spread over blank rows above a table.

Statistics offices lay a header out over several lines with blank rows between them: the
merged cells of the original leave their text on one row and blank rows under it (``Percent of
units with gross rent of--`` two rows over ``$299 or less | $300 to $499``, a ``FIPS`` line over
``STATE | Code``, a units line three rows further down). Assembly cuts the table at the first
blank row, so only the lowest header line stays with the body. This pass walks up from a table,
block by block across at most :data:`MAX_GAP` blank rows, and takes in each block that is more of
its header: labels (and years) only, within the table's columns, nothing beside it, no title line
at the left edge, until the header has :data:`MAX_WRITTEN` written lines. A block touching the
table is taken in only when each of its lines holds two labels or more (a lone line there was read
as a title, unit or field on purpose), and a table that opens with figures takes in no block across
a blank row (the "header block over a blank row" rule of assembly decides those).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gridsight.detect._cells import CellGrid
from gridsight.detect._rows import NOTE_MARKER
from gridsight.detect._segment import Box

TextAt = Callable[[int, int], str]

#: Blank rows crossed between two lines of one header.
MAX_GAP = 3
#: Lines in one block of header taken in at a time.
MAX_BLOCK = 4
#: Written lines a header may reach (as :func:`gridsight.detect._structure.header_rows` reads).
MAX_WRITTEN = 6
#: A lone label at the left edge longer than this is a title, not the row labels' heading...
MAX_STUB_HEAD = 30
#: ...and a lone label right of it longer than this a caption, not a fragment of the header.
MAX_FRAGMENT = 40
#: A label repeated across a line is a merged title exported cell by cell from this long on
#: (``total | total | total`` over figures heads them).
MIN_TITLE = 12
#: Two labels on a line, one longer than this: a title with a place or a date beside it.
MAX_TITLE_PARTS = 40


def _written(g: CellGrid, box: Box, r: int) -> bool:
    return bool((g.cls[r, box.left : box.right + 1] != 0).any())


def _spread_lines(g: CellGrid, block: Box) -> bool:
    """Every written line of ``block`` holds two labels or more: lines of a header, not a lone
    caption, unit or date line."""
    counts = np.count_nonzero(g.cls[block.top : block.bottom + 1, block.left : block.right + 1], axis=1)
    return bool((counts[counts > 0] >= 2).all())


def _lead_lines(g: CellGrid, box: Box) -> int:
    """How many written lines of labels open the table (its header so far)."""
    n = 0
    for r in range(box.top, box.bottom + 1):
        if g.figures(r, slice(box.left, box.right + 1)).any():
            break
        n += _written(g, box, r)
    return n


def _header_block(g: CellGrid, box: Box, top: int, bottom: int, text_at: TextAt) -> bool:
    """Rows ``top..bottom`` read as more of the header of the table ``box`` under them."""
    cols = slice(box.left, box.right + 1)
    if g.figures(slice(top, bottom + 1), cols).any() or g.prose[top : bottom + 1, cols].any():
        return False
    width = g.cls.shape[1]
    outside = np.ones(width, dtype=bool)
    outside[cols] = False
    if (g.cls[top : bottom + 1][:, outside] != 0).any():
        return False  # something beside it: a title line or another table's, not this header
    firsts = {
        int(np.flatnonzero(g.cls[r, cols] != 0)[0]) for r in range(top, bottom + 1) if _written(g, box, r)
    }
    singles = all(int(np.count_nonzero(g.cls[r, cols])) <= 1 for r in range(top, bottom + 1))
    if bottom > top and singles and len(firsts) == 1:
        return False  # lone labels down one column: a list of fields, not a header's lines
    for r in range(top, bottom + 1):
        occ = np.flatnonzero(g.cls[r, cols] != 0)
        if not occ.size:
            continue
        texts = [text_at(r, box.left + int(c)).strip() for c in occ]
        if NOTE_MARKER.match(texts[0]):
            return False  # a notes line
        if occ.size >= 2 and texts[0].endswith(":"):
            return False  # a form's field and its value (``Prepared by: | J. Smith``)
        if occ.size >= 2 and len(set(texts)) == 1 and len(texts[0]) >= MIN_TITLE:
            return False  # one label in every cell it spanned: a merged title exported cell by cell
        if occ.size == 1:
            # a lone label: at the left edge, the row labels' short heading within a block of more
            # lines (else a title); right of it, a short fragment of a merged header (``FIPS``)
            limit = MAX_STUB_HEAD if occ[0] == 0 else MAX_FRAGMENT
            if len(texts[0]) > limit or (occ[0] == 0 and bottom == top):
                return False
        if occ.size == 2 and (
            max(len(t) for t in texts) > MAX_TITLE_PARTS or (occ[0] == 0 and (occ[1] >= 2 or bottom == top))
        ):
            return False  # a title with a place or a date beside it (a line of its own, or far right)
    return True


def raise_header(g: CellGrid, box: Box, taken: Callable[[Box], bool], text_at: TextAt) -> Box:
    """``box`` grown upwards over the header lines that blank rows kept apart from it.

    ``taken`` tells whether rows belong to another table already (never taken in).
    """
    written = _lead_lines(g, box)
    while True:
        r = box.top - 1
        gap = 0
        while r >= 0 and not _written(g, box, r) and gap <= MAX_GAP:
            r, gap = r - 1, gap + 1
        if r < 0 or gap > MAX_GAP:
            return box
        bottom, top = r, r
        while top - 1 >= 0 and _written(g, box, top - 1) and bottom - top + 1 < MAX_BLOCK:
            top -= 1
        if top - 1 >= 0 and _written(g, box, top - 1):
            return box  # a block taller than a header's
        lines = sum(_written(g, box, x) for x in range(top, bottom + 1))
        block = Box(top, box.left, bottom, box.right)
        if written + lines > MAX_WRITTEN or taken(block) or not _header_block(g, box, top, bottom, text_at):
            return box
        if gap == 0 and not _spread_lines(g, block):
            return box  # a lone line touching the table (a unit, a date, a field) was read apart on purpose
        if written == 0 and gap > 0:
            return box  # a table that opens with figures: labels over a blank row are its title's
        box, written = Box(top, box.left, box.bottom, box.right), written + lines

"""Where the rules are unsure: other readings of a table's edges, for the model to choose among.

The rules answer every sheet on their own. At a few decisions their evidence is thin -- a layout
convention could go either way and no formatting settles it -- and there they also state the other
reading, so the local model (which is good at choosing among a few options and at little else) may
pick it:

* ``title-or-header``: a short unmerged lone label right above the header, taken for a title; the
  other reading keeps it as the header's first line;
* ``group-or-title``: one unmerged label on top of the header, kept as a group header; the other
  reading makes it a title;
* ``row-or-note``: a lone label as the last row, kept as data; the other reading makes it a note;
* ``one-or-two``: parts stacked across a blank row into one table; the other reading keeps them
  apart.

Option 0 is always the rules' own reading. Pure functions over the cell grid.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from gridsight.detect._assemble import Piece, Skeleton, TextAt, _tighten
from gridsight.detect._cells import TEXT, VALUE, CellGrid
from gridsight.detect._rows import NOTE_MARKER, is_header_row, row_cells
from gridsight.detect._segment import Box
from gridsight.text import UNIT

#: Choices asked per sheet at most (each costs one model call).
MAX_CHOICES = 3
#: Rows of context the model sees on each side of the rows the readings disagree on.
CONTEXT_ROWS = 4
#: A label longer than this reads as a title sentence, not a header line: no doubt to ask about.
SHORT_LABEL = 40


@dataclass(frozen=True)
class Choice:
    """One doubtful decision: ``options`` replace skeleton ``index``; option 0 is the rules' reading."""

    kind: str
    index: int
    options: tuple[tuple[Skeleton, ...], ...]

    @property
    def focus(self) -> Box:
        """Where the readings differ, with :data:`CONTEXT_ROWS` rows of context either way, across
        every column they cover: all the model needs to see (a short prompt answers fast)."""
        boxes = [sk.box for opt in self.options for sk in opt]
        top = min(b.top for b in boxes)
        bottom = max(b.bottom for b in boxes)
        covered = np.zeros((len(self.options), bottom - top + 1), dtype=bool)
        for i, opt in enumerate(self.options):
            for sk in opt:
                covered[i, sk.box.top - top : sk.box.bottom - top + 1] = True
        differ = np.flatnonzero((covered != covered[0]).any(axis=0))
        lo, hi = (int(differ[0]), int(differ[-1])) if differ.size else (0, bottom - top)
        return Box(
            max(top + lo - CONTEXT_ROWS, top - CONTEXT_ROWS, 0),
            min(b.left for b in boxes),
            top + hi + CONTEXT_ROWS,
            max(b.right for b in boxes),
        )


def _lone_label(g: CellGrid, box: Box, r: int) -> int | None:
    """The column of the one label on row ``r`` within ``box``'s columns, else None."""
    cells = row_cells(g, box, r)
    occ = np.flatnonzero(cells != 0)
    if occ.size != 1 or cells[occ[0]] != TEXT:
        return None
    return box.left + int(occ[0])


def _title_or_header(g: CellGrid, sk: Skeleton, text_at: TextAt) -> tuple[Skeleton, ...] | None:
    box = sk.box
    above = [t for t in sk.titles if t.top == t.bottom == box.top - 1]
    if not above or not is_header_row(g, box, box.top):
        return None
    row = box.top - 1
    col = _lone_label(g, Box(row, box.left, row, box.right), row)
    if col is None or g.merge_span[row, col] >= 2:
        return None  # a label merged across columns is a banner or a group: formatting settled it
    text = text_at(row, col).strip()
    if len(text) > SHORT_LABEL or UNIT.search(text) or NOTE_MARKER.match(text) or ":" in text:
        return None
    grown = Box(row, box.left, box.bottom, box.right)
    titles = [t for t in sk.titles if t not in above]
    return (Skeleton(grown, [*sk.parts, Piece(above[0], True)], titles, list(sk.notes)),)


def _group_or_title(g: CellGrid, sk: Skeleton) -> tuple[Skeleton, ...] | None:
    box = sk.box
    if box.height < 3:
        return None
    cells = row_cells(g, box, box.top)
    occ = cells != 0
    if (cells == VALUE).any() or occ.sum() != 1 or g.merge_span[box.top, box.left : box.right + 1].max() >= 2:
        return None  # several labels spread over groups, or merged over them: formatting settled it
    if not is_header_row(g, Box(box.top + 1, box.left, box.bottom, box.right), box.top + 1):
        return None
    rest = _tighten(g, Box(box.top + 1, box.left, box.bottom, box.right))
    if rest is None or rest.width != box.width:
        return None
    top = Box(box.top, box.left, box.top, box.right)
    return (Skeleton(rest, [Piece(rest, False)], [*sk.titles, top], list(sk.notes)),)


def _row_or_note(g: CellGrid, sk: Skeleton) -> tuple[Skeleton, ...] | None:
    box = sk.box
    if box.height < 4 or _lone_label(g, box, box.bottom) is None:
        return None
    rest = _tighten(g, Box(box.top, box.left, box.bottom - 1, box.right))
    if rest is None:
        return None
    last = Box(box.bottom, box.left, box.bottom, box.right)
    return (Skeleton(rest, [Piece(rest, False)], list(sk.titles), [last, *sk.notes]),)


def _one_or_two(g: CellGrid, sk: Skeleton) -> tuple[Skeleton, ...] | None:
    if len(sk.parts) < 2:
        return None
    box = sk.box
    sub = g.cls[box.top : box.bottom + 1, box.left : box.right + 1] != 0
    blank = np.flatnonzero(~sub.any(axis=1))
    if blank.size == 0:
        return None
    r = box.top + int(blank[0])
    upper = _tighten(g, Box(box.top, box.left, r - 1, box.right))
    lower = _tighten(g, Box(r + 1, box.left, box.bottom, box.right))
    if upper is None or lower is None or min(upper.height, lower.height) < 2:
        return None
    return (
        Skeleton(upper, [Piece(upper, False)], list(sk.titles), []),
        Skeleton(lower, [Piece(lower, False)], [], list(sk.notes)),
    )


def uncertain_points(g: CellGrid, skeletons: list[Skeleton], text_at: TextAt) -> list[Choice]:
    """The doubtful decisions on a sheet, top to bottom, at most :data:`MAX_CHOICES`, one per table."""
    out: list[Choice] = []
    for i, sk in enumerate(skeletons):
        if sk.box.width < 2 or sk.box.height < 2:
            continue
        for kind, alt in (
            ("one-or-two", _one_or_two(g, sk)),
            ("title-or-header", _title_or_header(g, sk, text_at)),
            ("group-or-title", _group_or_title(g, sk)),
            ("row-or-note", _row_or_note(g, sk)),
        ):
            if alt is not None:
                out.append(Choice(kind, i, ((replace(sk),), alt)))
                break
        if len(out) >= MAX_CHOICES:
            break
    return out

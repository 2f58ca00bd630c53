"""The detection pipeline: cells -> pieces -> skeletons -> tables (optionally refined by a model)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

import numpy as np

from gridsight.detect._alternatives import uncertain_points
from gridsight.detect._assemble import MAX_INNER_GAP, Skeleton, TextAt, assemble, join_rule
from gridsight.detect._cells import TEXT, VALUE, CellGrid, cell_grid
from gridsight.detect._header_above import raise_header
from gridsight.detect._model import DetectedTable, Detection
from gridsight.detect._refine import NOT_ASKED, SHEET_BUDGET_S
from gridsight.detect._rows import is_key_value_block, is_label_value_lines, is_notes_block
from gridsight.detect._segment import Box, bridge_sections, join_columns, xy_cut
from gridsight.detect._spacers import carry_spacers, spacer_strays, split_touching
from gridsight.detect._structure import build_table, header_rows, is_table
from gridsight.grid import Range, Sheet, Workbook

#: Separate blocks read on one sheet; beyond this the largest are kept (each costs a few ms; real
#: sheets hold at most a few hundred, a sheet of thousands is a pattern, not tables).
MAX_BLOCKS = 500
#: Beyond MAX_BLOCKS, blocks are first stacked into runs (:func:`stack_runs`), up to this many
#: (a long table cut by blank rows every few rows); more than this is noise (a grid of dots).
MAX_STACKED = 10 * MAX_BLOCKS


def candidate_pieces(g: CellGrid, text_at: TextAt) -> list[Box]:
    """Blocks cut at empty rows and columns, re-joined where they belong together.

    Paragraph lines stand apart from the tables they run beside: each is a piece of its own (it
    becomes a title or note line), never a column of the table.
    """
    cut = xy_cut(g.occupied, g.cls == VALUE)
    strays = spacer_strays(g, cut)
    if strays:
        # stray cells in a spacer column between two tables: cut without them, each a piece
        occ = g.occupied.copy()
        rows, cols = zip(*strays, strict=True)
        occ[list(rows), list(cols)] = False
        cut = xy_cut(occ, (g.cls == VALUE) & occ) + [Box(r, c, r, c) for r, c in strays]
    cut = carry_spacers(g, split_touching(g, cut))
    pieces = join_columns(bridge_sections(cut, g.occupied), g.occupied, join_rule(g, text_at))
    pieces = carry_spacers(g, pieces)  # (again: a table whose spacer only the joins above made)
    return pieces + [Box(int(r), int(c), int(r), int(c)) for r, c in np.argwhere(g.prose)]


def stack_runs(g: CellGrid, pieces: list[Box], max_gap: int = MAX_INNER_GAP) -> list[Box]:
    """Too many blocks to assemble one by one: first stack each block onto the one right above it
    (at most ``max_gap`` blank rows between, under the same columns, both two columns wide or
    more: lone cells are dots, not bands) when its first row holds figures -- the bands of one
    long table that blank rows cut, not a new table, which would start with its header. One pass
    in reading order."""
    out: list[Box] = []
    open_: list[int] = []  # indexes into ``out`` of boxes that may still grow downwards
    for b in sorted(pieces):
        first = g.cls[b.top, b.left : b.right + 1]
        starts_with_figures = b.width >= 2 and bool((first == VALUE).any())
        open_ = [i for i in open_ if b.top - out[i].bottom - 1 <= max_gap]
        target = next(
            (
                i
                for i in open_
                if starts_with_figures
                and b.top > out[i].bottom
                and out[i].width >= 2
                and b.cols_overlap(out[i]) >= 0.7 * min(b.width, out[i].width)
            ),
            None,
        )
        if target is None:
            out.append(b)
            open_.append(len(out) - 1)
        else:
            out[target] = out[target].union(b)
    return sorted(out)


#: Blank rows at most between a table and the headerless block that continues it.
CONTINUATION_GAP = 3


def join_continuations(g: CellGrid, skeletons: list[Skeleton]) -> list[Skeleton]:
    """Join to a table the block under it, over exactly its columns, that has no header rows of its
    own and labels its rows in the same first column: the same table, spaced out (a balance sheet's
    Liabilities and Equity blocks under Assets and the header). Between them: at most
    :data:`CONTINUATION_GAP` blank rows and the block's own section lines in the label column
    (``Liabilities``, ``Current liabilities``), read as its titles until now. A block with a header of
    its own is a new table."""
    out: list[Skeleton] = []
    for sk in sorted(skeletons, key=lambda s: (s.box.top, s.box.left)):
        b = sk.box
        lines = [t for t in sk.titles if t.left == b.left and t.right == b.left and t.bottom < b.top]
        top = min([b.top, *(t.top for t in lines)])
        above = next(
            (
                i
                for i in range(len(out) - 1, -1, -1)
                if out[i].box.left == b.left
                and abs(out[i].box.right - b.right) <= 1  # (a column of comments in one only)
                and 0 < top - out[i].box.bottom - 1 <= CONTINUATION_GAP
            ),
            None,
        )
        if above is not None and _continues(g, out[above].box, b, top):
            a = out[above]
            rest = [t for t in sk.titles if t not in lines]
            out[above] = Skeleton(a.box.union(b), a.parts + sk.parts, a.titles + rest, a.notes + sk.notes)
        else:
            out.append(sk)
    return out


#: Blank rows at most between a table and a memo line of figures under it.
MEMO_GAP = 2


def join_memo_lines(g: CellGrid, skeletons: list[Skeleton], lines: list[Box]) -> list[Skeleton]:
    """Join to a table each single line under it that names itself in the table's first column and
    holds figures in most of its other columns, with only blank rows between (at most
    :data:`MEMO_GAP`): a memo line of the table (``(a) Investments in securities, at cost`` under a
    fund's statement), too short to be a table of its own."""
    out = list(skeletons)
    for line in sorted(lines, key=lambda b: (b.top, b.left)):
        if line.height != 1 or g.cls[line.top, line.left] != TEXT:
            continue
        for i, sk in enumerate(out):
            b = sk.box
            if (
                line.left != b.left
                or line.right > b.right
                or b.width < 3
                or not 0 < line.top - b.bottom - 1 <= MEMO_GAP
                or g.occupied[b.bottom + 1 : line.top, b.left : b.right + 1].any()
                or not header_rows(g, b)  # (last: the dearest test, for the table right above alone)
            ):
                continue
            figures = int(np.count_nonzero(g.cls[line.top, b.left + 1 : b.right + 1] == VALUE))
            if 2 * figures > b.width - 1:
                out[i] = Skeleton(b.union(line), sk.parts, sk.titles, sk.notes)
            break
    return out


def _continues(g: CellGrid, a: Box, b: Box, top: int) -> bool:
    """``b`` goes on with ``a``: blank rows from ``a`` down to ``top``, then a section line (a label
    alone in the first column, ``Liabilities``), a header on ``a`` and none on ``b``, row labels in the
    first column of most of ``b``'s rows, and figures in ``b``."""
    right = max(a.right, b.right)
    if g.occupied[a.bottom + 1 : top, a.left : right + 1].any():
        return False
    if g.occupied[top : b.top, a.left + 1 : right + 1].any():
        return False
    if a.right != b.right:
        wider, extra = (b, b.right) if b.right > a.right else (a, a.right)
        if (g.cls[wider.top : wider.bottom + 1, extra] == VALUE).any():
            return False  # the extra column holds figures: another shape, not comments
    opens = top < b.top or not (g.cls[b.top, b.left + 1 : b.right + 1] != 0).any()
    if not opens:
        return False  # no section line of its own: a row of figures first is a new table's header
    if not header_rows(g, a) or header_rows(g, b):
        return False
    labels = int(np.count_nonzero(g.cls[b.top : b.bottom + 1, b.left] == TEXT))
    figures = bool((g.cls[b.top : b.bottom + 1, b.left + 1 : b.right + 1] == VALUE).any())
    return figures and labels * 2 > b.height


def _largest(g: CellGrid, pieces: list[Box], keep: int) -> list[Box]:
    """The ``keep`` pieces holding the most cells (ties: reading order), in reading order."""
    counts = [int(np.count_nonzero(g.cls[b.top : b.bottom + 1, b.left : b.right + 1])) for b in pieces]
    order = sorted(range(len(pieces)), key=lambda i: (-counts[i], pieces[i]))[:keep]
    return sorted(pieces[i] for i in order)


def not_a_table(g: CellGrid, box: Box, text_at: TextAt) -> str:
    """What a block of two rows and two columns reads as when it is no table ('' for a table)."""
    if is_key_value_block(g, box, text_at):
        return "key | value lines (metadata)"
    if is_notes_block(g, box, text_at):
        return "footnotes"
    if is_label_value_lines(g, box):
        return "a few label | figure lines"
    return ""


def why_no_table(sheet: Sheet, g: CellGrid | None, rejected: list[str] | None = None) -> str:
    """Why a sheet gave no table, in words for the user (``rejected``: what its blocks read as)."""
    if sheet.is_empty:
        extra = " (merged ranges without content)" if sheet.merges else ""
        return f"no table: the sheet holds no cell values{extra}; charts and comments are not read"
    assert g is not None
    filled = (g.cls != 0) | g.prose
    n = int(np.count_nonzero(filled))
    if not (g.cls == VALUE).any() and int(filled.sum(axis=1).max()) <= 1:
        lines = int(np.count_nonzero(filled.any(axis=1)))
        return f"no table: the sheet holds only {lines} line(s) of text (titles or notes), no block of cells"
    if rejected:
        kinds = ", ".join(dict.fromkeys(rejected))
        return f"no table: the sheet's block(s) of cells read as {kinds}, not as tables"
    whole = Box(0, 0, g.cls.shape[0] - 1, g.cls.shape[1] - 1)
    if is_notes_block(g, whole, lambda r, c: sheet.texts[i] if (i := int(g.label_ids[r, c])) >= 0 else ""):
        return "no table: the sheet holds only footnotes"
    return (
        f"no table: none of the sheet's {n} filled cell(s) form a block of at least two rows and two "
        "columns with two filled cells in each of two rows"
    )


#: The last rule-only detections, per sheet object (sheets are immutable; the question answerer,
#: the formula explainer and suggestions ask about the same sheet again and again).
_CACHE: OrderedDict[int, tuple[Sheet, Detection]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 16


def forget_detections() -> None:
    """Empty the rule-only detection cache (benchmarks that time detection, or the encoder's table
    anchors, from cold call this between runs)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def detect_tables(sheet: Sheet, *, refiner: Any = None) -> Detection:
    """Every table on a sheet, with header rows, titles, notes, units and totals.

    Args:
        sheet: the sheet to read (never modified).
        refiner: optional model refiner (:func:`gridsight.detect._refine.load_refiner`) with a
            ``name`` and ``choose(sheet, focus, options, deadline=) -> index | None``
            (``NOT_ASKED`` when there was no time to ask); it is asked only at the
            rules' doubtful decisions, and the rules' reading stands whenever it cannot answer.

    Returns:
        A :class:`Detection`; an empty sheet gives no tables.
    """
    if refiner is not None:
        return _detect(sheet, refiner)
    with _CACHE_LOCK:
        hit = _CACHE.get(id(sheet))
        if hit is not None and hit[0] is sheet:
            _CACHE.move_to_end(id(sheet))
            return hit[1]
    found = _detect(sheet, None)
    with _CACHE_LOCK:
        _CACHE[id(sheet)] = (sheet, found)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def _taken_by(g: CellGrid, boxes: list[Box]) -> Callable[[Box], bool]:
    """Whether a box shares cells with one of ``boxes`` (another table's), unless that one is a
    header with no body of its own (labels and years only) lying within the box's rows."""

    def header_only(o: Box, b: Box) -> bool:
        inside = b.top <= o.top and o.bottom <= b.bottom
        return inside and not g.figures(slice(o.top, o.bottom + 1), slice(o.left, o.right + 1)).any()

    return lambda b: any(b.rows_overlap(o) and b.cols_overlap(o) and not header_only(o, b) for o in boxes)


def _detect(sheet: Sheet, refiner: Any) -> Detection:
    t0 = time.perf_counter()
    if sheet.is_empty:
        reasons = (why_no_table(sheet, None),)
        return Detection(sheet.name, (), None, None, time.perf_counter() - t0, reasons)
    g = cell_grid(sheet)
    tids, texts = g.label_ids, sheet.texts

    def text_at(r: int, c: int) -> str:
        """The text of a label cell ('' for values and empty cells)."""
        i = int(tids[r, c])
        return texts[i] if i >= 0 else ""

    pieces = candidate_pieces(g, text_at)
    messages: tuple[str, ...] = ()
    if MAX_BLOCKS < len(pieces) <= MAX_STACKED:
        pieces = stack_runs(g, pieces)
    if len(pieces) > MAX_BLOCKS:
        messages = (f"{len(pieces)} separate blocks on the sheet: only the {MAX_BLOCKS} largest were read",)
        pieces = _largest(g, pieces, MAX_BLOCKS)
    skeletons: list[Skeleton] = []
    rejected: list[str] = []  # what blocks of two rows and columns read as instead of tables
    lone: list[Box] = []  # (single lines of figures: a memo line under a table, perhaps)
    for sk in assemble(g, pieces, text_at):
        if not is_table(g, sk.box):
            lone.append(sk.box)
            continue
        why = not_a_table(g, sk.box, text_at)
        if why:
            rejected.append(why)
        else:
            skeletons.append(sk)
    skeletons = join_memo_lines(g, join_continuations(g, skeletons), lone)
    for sk in list(skeletons):
        if sk not in skeletons:
            continue  # (taken in as the header of a table below)
        others = [o for o in skeletons if o is not sk]
        grown = raise_header(g, sk.box, _taken_by(g, [o.box for o in others]), text_at)
        if grown != sk.box:
            sk.box = grown
            sk.titles = [t for t in sk.titles if not (t.rows_overlap(grown) and t.cols_overlap(grown))]
            for o in others:
                if o.box.rows_overlap(grown) and o.box.cols_overlap(grown):
                    skeletons.remove(o)  # a header with no body of its own: this table's
    model: str | None = None
    from_model: set[int] = set()
    asked = skipped = 0
    if refiner is not None and skeletons:
        model = getattr(refiner, "name", "model")
        budget = getattr(refiner, "sheet_budget_s", SHEET_BUDGET_S)
        deadline = time.monotonic() + budget - (time.perf_counter() - t0)
        skeletons, from_model, asked, skipped = _refine(sheet, g, skeletons, text_at, refiner, deadline)
        if asked or skipped:
            changed = len({id(sk) for sk in skeletons} & from_model)
            messages += (
                f"model asked about {asked} doubtful edge(s); its choice changed {changed} table(s)",
            )
            if skipped:
                messages += (f"{skipped} doubtful edge(s) kept the rules' reading: no time left to ask",)
    tables = [
        replace(build_table(sheet, g, sk, text_at), source=cast(str, model))  # set whenever from_model is
        if id(sk) in from_model
        else build_table(sheet, g, sk, text_at)
        for sk in skeletons
        if is_table(g, sk.box)
    ]
    tables.sort(key=lambda t: (t.range.top, t.range.left))
    if not tables:
        messages += (why_no_table(sheet, g, rejected),)
    seconds = time.perf_counter() - t0
    return Detection(sheet.name, tuple(tables), sheet.used_range, model, seconds, messages, asked, skipped)


def _refine(
    sheet: Sheet, g: CellGrid, skeletons: list[Skeleton], text_at: TextAt, refiner: Any, deadline: float
) -> tuple[list[Skeleton], set[int], int, int]:
    """Ask the model at each doubtful decision it can answer before ``deadline`` (``time.monotonic``);
    a reading it picks replaces the rules' one.

    Returns the skeletons, the ids of those the model's choice produced, how many decisions were put
    to the model and how many were not for lack of time.
    """
    r0, c0 = g.origin

    def rng(b: Box) -> Range:
        return Range(b.top + r0, b.left + c0, b.bottom + r0, b.right + c0, sheet.name)

    chosen: dict[int, tuple[Skeleton, ...]] = {}
    asked = skipped = 0
    for ch in uncertain_points(g, skeletons, text_at):
        options = [[rng(sk.box) for sk in opt] for opt in ch.options]
        pick = refiner.choose(sheet, rng(ch.focus), options, deadline=deadline)
        if pick == NOT_ASKED:
            skipped += 1  # it could not answer in time: the rules' reading stands
            continue
        asked += 1
        if pick:
            chosen[ch.index] = ch.options[pick]
    out: list[Skeleton] = []
    for i, sk in enumerate(skeletons):
        out.extend(chosen.get(i, (sk,)))
    return out, {id(sk) for opt in chosen.values() for sk in opt}, asked, skipped


def detect_workbook(wb: Workbook, *, sheet: str | None = None, refiner: Any = None) -> list[Detection]:
    """Detection for one named sheet or for every sheet of a workbook."""
    sheets = [wb.sheet(sheet)] if sheet is not None else list(wb)
    return [detect_tables(s, refiner=refiner) for s in sheets]


__all__ = ["DetectedTable", "Detection", "detect_tables", "detect_workbook"]

"""The detection pipeline: cells -> pieces -> skeletons -> tables (optionally refined by a model)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import replace
from typing import Any, cast

import numpy as np

from gridsight.detect._alternatives import uncertain_points
from gridsight.detect._assemble import Skeleton, TextAt, assemble, join_rule
from gridsight.detect._cells import VALUE, CellGrid, cell_grid
from gridsight.detect._model import DetectedTable, Detection
from gridsight.detect._refine import NOT_ASKED, SHEET_BUDGET_S
from gridsight.detect._rows import is_key_value_block
from gridsight.detect._segment import Box, bridge_sections, join_columns, xy_cut
from gridsight.detect._structure import build_table, is_table
from gridsight.grid import Range, Sheet, Workbook

#: Separate blocks read on one sheet; beyond this the largest are kept (each costs a few ms; real
#: sheets hold at most a few hundred, a sheet of thousands is a pattern, not tables).
MAX_BLOCKS = 500


def candidate_pieces(g: CellGrid, text_at: TextAt) -> list[Box]:
    """Blocks cut at empty rows and columns, re-joined where they belong together.

    Paragraph lines stand apart from the tables they run beside: each is a piece of its own (it
    becomes a title or note line), never a column of the table.
    """
    pieces = join_columns(bridge_sections(xy_cut(g.occupied), g.occupied), g.occupied, join_rule(g, text_at))
    return pieces + [Box(int(r), int(c), int(r), int(c)) for r, c in np.argwhere(g.prose)]


def _largest(g: CellGrid, pieces: list[Box], keep: int) -> list[Box]:
    """The ``keep`` pieces holding the most cells (ties: reading order), in reading order."""
    counts = [int(np.count_nonzero(g.cls[b.top : b.bottom + 1, b.left : b.right + 1])) for b in pieces]
    order = sorted(range(len(pieces)), key=lambda i: (-counts[i], pieces[i]))[:keep]
    return sorted(pieces[i] for i in order)


def why_no_table(sheet: Sheet, g: CellGrid | None) -> str:
    """Why a sheet gave no table, in words for the user."""
    if sheet.is_empty:
        extra = " (merged ranges without content)" if sheet.merges else ""
        return f"no table: the sheet holds no cell values{extra}; charts and comments are not read"
    assert g is not None
    filled = (g.cls != 0) | g.prose
    n = int(np.count_nonzero(filled))
    if not (g.cls == VALUE).any() and int(filled.sum(axis=1).max()) <= 1:
        lines = int(np.count_nonzero(filled.any(axis=1)))
        return f"no table: the sheet holds only {lines} line(s) of text (titles or notes), no block of cells"
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


def _detect(sheet: Sheet, refiner: Any) -> Detection:
    t0 = time.perf_counter()
    if sheet.is_empty:
        why = (why_no_table(sheet, None),)
        return Detection(sheet.name, (), None, None, time.perf_counter() - t0, why)
    g = cell_grid(sheet)
    tids, texts = g.label_ids, sheet.texts

    def text_at(r: int, c: int) -> str:
        """The text of a label cell ('' for values and empty cells)."""
        i = int(tids[r, c])
        return texts[i] if i >= 0 else ""

    pieces = candidate_pieces(g, text_at)
    messages: tuple[str, ...] = ()
    if len(pieces) > MAX_BLOCKS:
        messages = (f"{len(pieces)} separate blocks on the sheet: only the {MAX_BLOCKS} largest were read",)
        pieces = _largest(g, pieces, MAX_BLOCKS)
    skeletons = [
        sk
        for sk in assemble(g, pieces, text_at)
        if is_table(g, sk.box) and not is_key_value_block(g, sk.box, text_at)
    ]
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
        messages += (why_no_table(sheet, g),)
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

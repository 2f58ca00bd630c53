"""SUBTOTAL and AGGREGATE leave out the subtotals inside their ranges, and hidden rows, as Excel
documents.

Nested subtotals: "If there are other subtotals within ref1, ref2,... (or nested subtotals), these
nested subtotals are ignored to avoid double counting." A column of items with SUBTOTAL rows between
them adds up to the items once. AGGREGATE does the same with its options 0 to 3.

Hidden rows: SUBTOTAL 101-111 "ignores values of rows hidden by the Hide Rows command", and every
SUBTOTAL "ignores any rows that are not included in the result of a filter, no matter which
function_num value you use" (1-11 count rows hidden by hand); AGGREGATE's options 1, 3, 5 and 7
ignore hidden rows. Which rows are hidden, and which by a filter, comes from the file
(``sources._xlsx_rows``) through :func:`hidden_rows`. Hidden columns count (SUBTOTAL "is not
designed for rows of data").

The references are rewritten before evaluation: ``SUBTOTAL(9,B2:B14)`` with subtotals in B5 and B9
becomes ``SUBTOTAL(9,B2:B4,B6:B8,B10:B14)``; row 7 hidden and ``SUBTOTAL(109,A2:C9)`` becomes
``SUBTOTAL(109,A2:C6,A8:C9)``. A SUBTOTAL left with no reference at all is computed over none
(``SUBTOTAL(9)`` is 0, as Excel gives over hidden rows only); an AGGREGATE over nothing but subtotals
is left as written.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Mapping

import numpy as np

from gridsight.errors import GridSightError
from gridsight.formula._translate import to_text
from gridsight.formula._tree import Call, Literal, Node, Ref
from gridsight.grid import Range, Sheet, Workbook
from gridsight.sources._xlsx_rows import HiddenRows

#: A formula that is itself a subtotal (what SUBTOTAL and AGGREGATE skip).
_SUBTOTAL_CALL = re.compile(r"\b(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.IGNORECASE)
#: References after the rewrite, at most (Excel's limit on SUBTOTAL's arguments).
MAX_PIECES = 254


#: The workbook's hidden rows per sheet (name casefolded), while a recalculation runs.
_HIDDEN: contextvars.ContextVar[Mapping[str, HiddenRows] | None] = contextvars.ContextVar(
    "_HIDDEN", default=None
)


@contextlib.contextmanager
def hidden_rows(rows: Mapping[str, HiddenRows] | None) -> Iterator[None]:
    """Within the block, SUBTOTAL and AGGREGATE leave out these hidden rows (sheet name -> rows)."""
    token = _HIDDEN.set({k.casefold(): v for k, v in rows.items()} if rows else None)
    try:
        yield
    finally:
        _HIDDEN.reset(token)


def depends_on_cells(formula: str) -> bool:
    """Whether the formula's rewrite depends on what its ranges hold, not only on where they are
    (so a formula one fill away needs its own): SUBTOTAL and AGGREGATE."""
    upper = formula.upper()
    return "SUBTOTAL" in upper or "AGGREGATE" in upper


def _hidden(sheet: Sheet, which: str) -> frozenset[int]:
    """The sheet's rows hidden at all (``which`` "hidden") or by a filter ("filtered")."""
    rows = _HIDDEN.get()
    found = rows.get(sheet.name.casefold()) if rows else None
    if found is None:
        return frozenset()
    return found.hidden if which == "hidden" else found.filtered


def _bands(rng: Range, drop: frozenset[int]) -> list[Range]:
    """``rng`` without the rows of ``drop``: the runs of rows between them, full width."""
    if not drop or not any(rng.top <= r <= rng.bottom for r in drop):
        return [rng]
    out, start = [], rng.top
    for r in (*sorted(r for r in drop if rng.top <= r <= rng.bottom), rng.bottom + 1):
        if r > start:
            out.append(Range(start, rng.left, r - 1, rng.right))
        start = r + 1
    return out


def _nested(sheet: Sheet, rng: Range) -> set[tuple[int, int]]:
    """The cells of ``rng`` holding a SUBTOTAL or AGGREGATE formula."""
    r0, c0 = sheet.origin
    ids = sheet.formula_ids
    top, left = max(rng.top - r0, 0), max(rng.left - c0, 0)
    bottom, right = min(rng.bottom - r0, ids.shape[0] - 1), min(rng.right - c0, ids.shape[1] - 1)
    if top > bottom or left > right:
        return set()
    block = ids[top : bottom + 1, left : right + 1]
    out = set()
    for i, j in zip(*np.nonzero(block >= 0), strict=True):
        if _SUBTOTAL_CALL.search(sheet.formulas[int(block[i, j])]):
            out.add((r0 + top + int(i), c0 + left + int(j)))
    return out


def _used_rows(rng: Range, sheet: Sheet) -> Range:
    """Whole columns cut to the rows the sheet uses (the rest is empty: nothing to leave out)."""
    used = sheet.used_range
    if not rng.is_whole_columns or used is None:
        return rng
    return Range(0, rng.left, max(used.bottom, 0), rng.right)


def _number(node: Node, workbook: Workbook | None = None, sheet: Sheet | None = None) -> int | None:
    """A number written as the argument, or held by the one cell it references (a constant, not a
    formula; a blank cell is 0, as Excel reads an omitted option), truncated; else None."""
    if isinstance(node, Literal) and node.kind == "number":
        return int(float(node.value))  # truncated, as Excel reads it: SUBTOTAL(101.2,...) is 101
    if (
        isinstance(node, Ref)
        and node.rng is not None
        and node.rng.top == node.rng.bottom
        and node.rng.left == node.rng.right
        and workbook is not None
    ):
        try:
            target = workbook.sheet(node.sheet) if node.sheet else sheet
        except GridSightError:
            return None
        if target is None:
            return None
        cell = target.cell(node.rng.top, node.rng.left)
        if cell.formula is not None:
            return None
        if cell.value is None:
            return 0
        if isinstance(cell.value, int | float) and not isinstance(cell.value, bool):
            return int(float(cell.value))
    return None


def _pieces(rng: Range, skip: set[tuple[int, int]]) -> list[Range]:
    """``rng`` without the cells of ``skip``: column by column, the runs of rows between them."""
    out = []
    for col in range(rng.left, rng.right + 1):
        rows = sorted(r for r, c in skip if c == col)
        start = rng.top
        for r in (*rows, rng.bottom + 1):
            if r > start:
                out.append(Range(start, col, r - 1, col))
            start = r + 1
    return out


def nested_subtotals(tree: Node, workbook: Workbook | None, sheet: Sheet | None) -> str | None:
    """The formula with SUBTOTAL's and AGGREGATE's references split around the subtotals inside them
    and the hidden rows they leave out; None when there are none (or too many pieces to write)."""
    if workbook is None or sheet is None:
        return None
    changed = False

    def references(node: Call, first: int, nested: bool, rows: str | None) -> str | None:
        nonlocal changed
        texts = [to_text(a, swap) for a in node.args[:first]]
        split = False
        for arg in node.args[first:]:
            if isinstance(arg, Ref) and arg.rng is not None:
                try:
                    target = workbook.sheet(arg.sheet) if arg.sheet else sheet
                except GridSightError:  # a sheet that is not there: the engine says #REF!
                    return None
                whole = _used_rows(arg.rng, target)
                bands = _bands(whole, _hidden(target, rows)) if rows else [whole]
                pieces = []
                for band in bands:
                    skip = _nested(target, band) if nested else set()
                    pieces.extend(_pieces(band, skip) if skip else [band])
                if pieces != [whole]:
                    if len(texts) + len(pieces) > MAX_PIECES:
                        return None
                    texts.extend(to_text(Ref(p.ref(), p, arg.sheet), swap) for p in pieces)
                    split = True
                    continue
            texts.append(to_text(arg, swap))
        if not split or (len(texts) == first and first > 1):  # AGGREGATE over nothing: as written
            return None
        changed = True
        return f"{node.name}(" + ",".join(texts) + ")"

    def swap(node: Node) -> str | None:
        if not isinstance(node, Call) or len(node.args) < 2:
            return None
        name = node.name.removeprefix("_XLFN.")
        if name == "SUBTOTAL":
            code = _number(node.args[0], workbook, sheet)
            rows = "hidden" if code is not None and 101 <= code <= 111 else "filtered"
            return references(node, 1, True, rows)
        if name == "AGGREGATE" and len(node.args) >= 3:
            option = _number(node.args[1], workbook, sheet)
            if option is not None and 0 <= option <= 7:
                return references(node, 2, option <= 3, "hidden" if option % 2 else None)
        return None

    text = "=" + to_text(tree, swap)
    return text if changed else None

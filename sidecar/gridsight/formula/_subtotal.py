"""SUBTOTAL and AGGREGATE leave out the subtotals inside their ranges, as Excel documents: "If there
are other subtotals within ref1, ref2,... (or nested subtotals), these nested subtotals are ignored to
avoid double counting." A column of items with SUBTOTAL rows between them adds up to the items once.

The references are rewritten before evaluation: ``SUBTOTAL(9,B2:B14)`` with subtotals in B5 and B9
becomes ``SUBTOTAL(9,B2:B4,B6:B8,B10:B14)`` (SUBTOTAL takes up to 254 references). AGGREGATE does the
same with its options 0 to 3 (4 to 7 keep nested subtotals). A SUBTOTAL over nothing but subtotals
is left as written (no reference would remain to write).
"""

from __future__ import annotations

import re

import numpy as np

from gridsight.errors import GridSightError
from gridsight.formula._translate import to_text
from gridsight.formula._tree import Call, Literal, Node, Ref
from gridsight.grid import Range, Sheet, Workbook

#: A formula that is itself a subtotal (what SUBTOTAL and AGGREGATE skip).
_SUBTOTAL_CALL = re.compile(r"\b(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.IGNORECASE)
#: References after the rewrite, at most (Excel's limit on SUBTOTAL's arguments).
MAX_PIECES = 254


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
    """The formula with SUBTOTAL's (and AGGREGATE's, options 0-3) references split around the subtotals
    inside them; None when there are none (or too many pieces to write)."""
    if workbook is None or sheet is None:
        return None
    changed = False

    def references(node: Call, first: int) -> str | None:
        nonlocal changed
        texts = [to_text(a, swap) for a in node.args[:first]]
        split = False
        for arg in node.args[first:]:
            if isinstance(arg, Ref) and arg.rng is not None:
                try:
                    target = workbook.sheet(arg.sheet) if arg.sheet else sheet
                except GridSightError:  # a sheet that is not there: the engine says #REF!
                    return None
                skip = _nested(target, arg.rng)
                if skip:
                    pieces = _pieces(arg.rng, skip)
                    if len(texts) + len(pieces) > MAX_PIECES:
                        return None
                    texts.extend(to_text(Ref(p.ref(), p, arg.sheet), swap) for p in pieces)
                    split = True
                    continue
            texts.append(to_text(arg, swap))
        if not split or len(texts) == first:  # nothing left but subtotals: left as written
            return None
        changed = True
        return f"{node.name}(" + ",".join(texts) + ")"

    def swap(node: Node) -> str | None:
        if not isinstance(node, Call) or len(node.args) < 2:
            return None
        name = node.name.removeprefix("_XLFN.")
        if name == "SUBTOTAL":
            return references(node, 1)
        if name == "AGGREGATE" and len(node.args) >= 3:
            option = node.args[1]
            if isinstance(option, Literal) and option.kind == "number" and 0 <= float(option.value) <= 3:
                return references(node, 2)
        return None

    text = "=" + to_text(tree, swap)
    return text if changed else None

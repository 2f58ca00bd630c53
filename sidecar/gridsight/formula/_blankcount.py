"""COUNTIF, COUNTIFS and COUNTBLANK over whole columns and rows count the blank cells past the data.

The engine reads a whole column only down to the last row the sheet uses (a million rows of nothing
would be slow and change nothing for SUM or SUMIF), but a criterion that matches a blank cell
(``"<>23"``, ``"<>"`` of a blank, ``"<>*brown"``) counts every blank cell of the column in Excel:
``COUNTIF(G:G,"<>23")`` over 15 used rows holding one 23 is 1,048,575.

Before evaluation ``COUNTIF(G:G,c)`` becomes ``(COUNTIF(G1:G15,c)+GRIDSIGHT.BLANKS(1048561,c))``:
the part the sheet uses, plus the cells past it when the criterion matches a blank cell
(``GRIDSIGHT.BLANKS``, registered with the engine by :func:`patch_blank_counts`). COUNTIFS takes
the rows past every range's data (all of them blank), COUNTBLANK adds them all.
"""

from __future__ import annotations

from typing import Any

from gridsight.errors import GridSightError
from gridsight.formula._translate import to_text
from gridsight.formula._tree import Call, Node, Ref
from gridsight.grid import Range, Sheet, Workbook

#: Excel's sheet size.
ROWS, COLUMNS = 1_048_576, 16_384
#: The engine function that gives the blank cells' count when every criterion matches a blank.
BLANKS = "GRIDSIGHT.BLANKS"
_COUNTS = ("COUNTIF", "COUNTIFS", "COUNTBLANK")


def mentions_counts(text: str) -> bool:
    upper = text.upper()
    return any(name in upper for name in _COUNTS)


def _target(ref: Ref, workbook: Workbook, sheet: Sheet) -> Sheet | None:
    try:
        return workbook.sheet(ref.sheet) if ref.sheet else sheet
    except GridSightError:
        return None


def _cut(refs: list[Ref], workbook: Workbook, sheet: Sheet) -> tuple[list[str], int] | None:
    """The references cut to the rows (columns) their sheets use, and the count of cells left out of
    the first; None when they are not all whole columns (or all whole rows) of one size."""
    if not refs or any(r.rng is None for r in refs):
        return None
    ranges = [r.rng for r in refs if r.rng is not None]
    columns = all(r.is_whole_columns and not r.is_whole_rows for r in ranges)
    rows = all(r.is_whole_rows and not r.is_whole_columns for r in ranges)
    if not (columns or rows):
        return None
    last = 0
    for ref in refs:
        target = _target(ref, workbook, sheet)
        if target is None:
            return None
        used = target.used_range
        if used is not None:
            last = max(last, used.bottom if columns else used.right)
    first = ranges[0]
    if columns:
        if last >= ROWS - 1:
            return None
        cut = [Range(0, r.left, last, r.right) for r in ranges]
        left_out = (ROWS - last - 1) * (first.right - first.left + 1)
    else:
        if last >= COLUMNS - 1:
            return None
        cut = [Range(r.top, 0, r.bottom, last) for r in ranges]
        left_out = (COLUMNS - last - 1) * (first.bottom - first.top + 1)
    texts = [to_text(Ref(c.ref(), c, ref.sheet)) for c, ref in zip(cut, refs, strict=True)]
    return texts, left_out


def blank_counts(tree: Node, workbook: Workbook | None, sheet: Sheet | None) -> str | None:
    """The formula with COUNTIF, COUNTIFS and COUNTBLANK over whole columns or rows counting the blank
    cells past the data; None when it has none."""
    if workbook is None or sheet is None:
        return None
    changed = False

    def swap(node: Node) -> str | None:
        nonlocal changed
        if not isinstance(node, Call):
            return None
        name = node.name.removeprefix("_XLFN.")
        if name not in _COUNTS:
            return None
        args = node.args
        if name == "COUNTBLANK":
            ranges, criteria = list(args[:1]), []
        elif name == "COUNTIF" and len(args) == 2:
            ranges, criteria = [args[0]], [args[1]]
        elif name == "COUNTIFS" and len(args) >= 2 and len(args) % 2 == 0:
            ranges, criteria = list(args[0::2]), list(args[1::2])
        else:
            return None
        if not all(isinstance(r, Ref) for r in ranges):
            return None
        cut = _cut([r for r in ranges if isinstance(r, Ref)], workbook, sheet)
        if cut is None:
            return None
        texts, left_out = cut
        crit = [to_text(c, swap) for c in criteria]
        if name == "COUNTBLANK":
            inner = f"COUNTBLANK({texts[0]})"
            extra = str(left_out)
        else:
            pairs = ",".join(f"{r},{c}" for r, c in zip(texts, crit, strict=True))
            inner = f"{node.name}({pairs})"
            extra = f"{BLANKS}({left_out},{','.join(crit)})"
        changed = True
        return f"({inner}+{extra})"

    text = "=" + to_text(tree, swap)
    return text if changed else None


def _blanks(count: Any, *criteria: Any) -> Any:
    """``count`` when every criterion matches a blank cell, else 0."""
    import numpy as np
    import schedula as sh
    from formulas.functions import XlError

    from gridsight.formula._engine_excel import BlankCell, criteria_mask

    blank = np.empty((1, 1), dtype=object)
    blank[0, 0] = BlankCell("")
    for c in criteria:
        if isinstance(c, np.ndarray):
            c = c.ravel()[0] if c.size else sh.EMPTY
        if isinstance(c, XlError):  # an error criterion counts cells of that error, not blanks
            return 0.0
        if not bool(criteria_mask(blank, c).ravel()[0]):
            return 0.0
    return (
        float(np.asarray(count, dtype=object).ravel()[0]) if isinstance(count, np.ndarray) else float(count)
    )


def patch_blank_counts() -> None:
    """Register ``GRIDSIGHT.BLANKS`` with the engine."""
    import formulas
    from formulas.functions import wrap_func

    formulas.get_functions()[BLANKS] = wrap_func(_blanks)

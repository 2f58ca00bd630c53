"""Relative formulas: translate a formula to another cell, and propose the next cell's formula when
the cells above (or to the left) repeat one relative formula -- the fill-down Excel users expect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gridsight.errors import RangeSyntaxError
from gridsight.formula._evaluate import Evaluation, evaluate_formula
from gridsight.formula._reftext import map_refs as _map_refs
from gridsight.grid import MAX_COLS, MAX_ROWS, Sheet, Workbook, col_to_letters, letters_to_col


def _column(letters: str) -> int | None:
    try:
        return letters_to_col(letters)
    except RangeSyntaxError:
        return None


def translate(formula: str, src: tuple[int, int], dst: tuple[int, int]) -> str:
    """The formula as Excel would write it after copying from ``src`` to ``dst`` (0-based cells):
    relative parts move, $-anchored parts stay, for cells, ranges, whole columns (``B:B``) and whole
    rows (``2:2``). Raises RangeSyntaxError if a reference would leave the grid (Excel shows #REF!)."""
    dr, dc = dst[0] - src[0], dst[1] - src[1]

    def moved_col(absolute: str, letters: str, whole: str) -> str:
        col = _column(letters)
        if col is None:
            raise _Unchanged
        col += 0 if absolute else dc
        if not 0 <= col < MAX_COLS:
            raise RangeSyntaxError(f"copying {whole} by ({dr}, {dc}) leaves the sheet (#REF!)")
        return absolute + col_to_letters(col)

    def moved_row(absolute: str, digits: str, whole: str) -> str:
        row = int(digits) - 1 + (0 if absolute else dr)
        if not 0 <= row < MAX_ROWS:
            raise RangeSyntaxError(f"copying {whole} by ({dr}, {dc}) leaves the sheet (#REF!)")
        return f"{absolute}{row + 1}"

    def shift(m: re.Match[str]) -> str:
        g, whole = m.groupdict(), m.group(0)
        try:
            if g["c1"] is not None:
                return f"{moved_col(g['c1abs'], g['c1'], whole)}:{moved_col(g['c2abs'], g['c2'], whole)}"
            if g["r1"] is not None:
                if not (1 <= int(g["r1"]) <= MAX_ROWS and 1 <= int(g["r2"]) <= MAX_ROWS):
                    return whole
                return f"{moved_row(g['r1abs'], g['r1'], whole)}:{moved_row(g['r2abs'], g['r2'], whole)}"
            if not 1 <= int(g["digits"]) <= MAX_ROWS:
                return whole
            return moved_col(g["cabs"], g["letters"], whole) + moved_row(g["rabs"], g["digits"], whole)
        except _Unchanged:
            return whole

    return _map_refs(formula, shift)


class _Unchanged(Exception):
    """Letters that are not a column (beyond XFD): the text is not a reference, left as it is."""


def relative_form(formula: str, at: tuple[int, int]) -> str:
    """R1C1-style text of a formula at a cell: equal for formulas that are one fill-down apart."""

    def col_part(absolute: str, letters: str) -> str | None:
        col = _column(letters)
        if col is None:
            return None
        return f"C{col + 1}" if absolute else f"C[{col - at[1]}]"

    def row_part(absolute: str, digits: str) -> str:
        row = int(digits) - 1
        return f"R{row + 1}" if absolute else f"R[{row - at[0]}]"

    def rel(m: re.Match[str]) -> str:
        g = m.groupdict()
        if g["c1"] is not None:
            a, b = col_part(g["c1abs"], g["c1"]), col_part(g["c2abs"], g["c2"])
            return f"{a}:{b}" if a and b else m.group(0)
        if g["r1"] is not None:
            return f"{row_part(g['r1abs'], g['r1'])}:{row_part(g['r2abs'], g['r2'])}"
        c = col_part(g["cabs"], g["letters"])
        return row_part(g["rabs"], g["digits"]) + c if c else m.group(0)

    return _map_refs(formula.upper(), rel)


@dataclass(frozen=True)
class FillSuggestion:
    """A formula proposed for a cell because its neighbours repeat it."""

    cell: str
    formula: str
    based_on: tuple[str, ...]
    direction: str  # 'down' | 'right'
    evaluation: Evaluation


def suggest_fill(
    workbook: Workbook, sheet: str | Sheet, cell: str, *, min_run: int = 2
) -> FillSuggestion | None:
    """Propose a formula for ``cell`` when the ``min_run`` cells above it (or to its left) hold
    one relative formula; None when there is no such pattern or the result would not evaluate."""
    from gridsight.grid import Range

    sh = sheet if isinstance(sheet, Sheet) else workbook.sheet(sheet)
    target = Range.parse(cell)
    r, c = target.top, target.left
    if not sh.cell(r, c).is_empty:
        return None  # never propose over what the user already wrote
    for direction, (dr, dc) in (("down", (-1, 0)), ("right", (0, -1))):
        cells = [(r + dr * k, c + dc * k) for k in range(1, min_run + 1)]
        if any(rr < 0 or cc < 0 for rr, cc in cells):
            continue
        found = [sh.cell(rr, cc) for rr, cc in cells]
        if not all(x.formula for x in found):
            continue
        forms = {relative_form(x.formula or "", (x.row, x.col)) for x in found}
        if len(forms) != 1:
            continue
        src = found[0]
        try:
            formula = translate(src.formula or "", (src.row, src.col), (r, c))
        except RangeSyntaxError:
            continue
        ev = evaluate_formula(formula, workbook, sh, at=(r, c))
        if ev.ok and ev.error is None:
            return FillSuggestion(target.ref(), formula, tuple(x.address for x in found), direction, ev)
    return None

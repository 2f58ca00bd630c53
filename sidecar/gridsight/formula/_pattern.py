"""Relative formulas: translate a formula to another cell, and propose the next cell's formula when
the cells above (or to the left) repeat one relative formula -- the fill-down Excel users expect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gridsight.errors import RangeSyntaxError
from gridsight.formula._evaluate import Evaluation, evaluate_formula
from gridsight.grid import MAX_COLS, MAX_ROWS, Sheet, Workbook, col_to_letters, letters_to_col

# A cell reference outside strings: optional $, letters, optional $, digits; not part of a name,
# a function call (LOG10(...)) or a sheet name (Sheet1!).
_REF = re.compile(r"(?<![A-Za-z0-9_.])(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})(?![A-Za-z0-9_(!])")
_STRING = re.compile(r'"(?:[^"]|"")*"')


def _map_refs(formula: str, fn: callable) -> str:  # type: ignore[valid-type]
    out, last = [], 0
    for m in _STRING.finditer(formula):
        out.append(_REF.sub(fn, formula[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(_REF.sub(fn, formula[last:]))
    return "".join(out)


def translate(formula: str, src: tuple[int, int], dst: tuple[int, int]) -> str:
    """The formula as Excel would write it after copying from ``src`` to ``dst`` (0-based cells):
    relative parts move, $-anchored parts stay. Raises RangeSyntaxError if a reference would
    leave the grid (Excel shows #REF!)."""
    dr, dc = dst[0] - src[0], dst[1] - src[1]

    def shift(m: re.Match[str]) -> str:
        cabs, letters, rabs, digits = m.groups()
        try:
            col = letters_to_col(letters)
        except RangeSyntaxError:
            return m.group(0)
        row = int(digits) - 1
        if not cabs:
            col += dc
        if not rabs:
            row += dr
        if not (0 <= col < MAX_COLS and 0 <= row < MAX_ROWS):
            raise RangeSyntaxError(f"copying {m.group(0)} by ({dr}, {dc}) leaves the sheet (#REF!)")
        return f"{cabs}{col_to_letters(col)}{rabs}{row + 1}"

    return _map_refs(formula, shift)


def relative_form(formula: str, at: tuple[int, int]) -> str:
    """R1C1-style text of a formula at a cell: equal for formulas that are one fill-down apart."""

    def rel(m: re.Match[str]) -> str:
        cabs, letters, rabs, digits = m.groups()
        try:
            col = letters_to_col(letters)
        except RangeSyntaxError:
            return m.group(0)
        row = int(digits) - 1
        r = f"R{row + 1}" if rabs else f"R[{row - at[0]}]"
        c = f"C{col + 1}" if cabs else f"C[{col - at[1]}]"
        return r + c

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

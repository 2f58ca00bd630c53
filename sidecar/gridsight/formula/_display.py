"""How a formula's result reads: a date column's serial shown as the date Excel would show.

Excel formats a formula cell like the range its value comes from (``=MAX(A2:A9)`` over dates shows a
date). The result's source is found by following pass-through functions (INDEX, MAX, TAKE, FILTER...)
to the first range; when its cells are dates, the serials are shown in that range's date format.
"""

from __future__ import annotations

from typing import Any

from gridsight.errors import GridSightError
from gridsight.grid import Kind, Sheet, Workbook, serial_to_datetime
from gridsight.grid._display import format_date

#: Functions whose result is (a selection of) values from their first argument.
_PASS_THROUGH = frozenset(
    {"INDEX", "MAX", "MIN", "MEDIAN", "TAKE", "SORT", "SORTBY", "FILTER", "UNIQUE", "MAXIFS", "MINIFS",
     "LARGE", "SMALL", "MODE", "DROP", "CHOOSEROWS"}
)  # fmt: skip


def result_format(formula: str, sheet: Sheet) -> str | None:
    """The date format of the range a formula's result comes from, or None (not dates / unknown)."""
    from gridsight.formula._translate import inline_lambdas
    from gridsight.formula._tree import Call, Ref, parse_formula

    try:
        node = parse_formula(inline_lambdas(formula))
    except GridSightError:
        return None
    while isinstance(node, Call) and node.name.removeprefix("_XLFN.") in _PASS_THROUGH and node.args:
        node = node.args[0]
    if not isinstance(node, Ref) or node.rng is None:
        return None
    if node.sheet is not None and node.sheet.casefold() != sheet.name.casefold():
        return None
    cell = sheet.cell(node.rng.top, node.rng.left)
    return cell.number_format if cell.kind == Kind.DATETIME else None


def display_value(value: Any, formula: str, workbook: Workbook, sheet: Sheet) -> str | None:
    """Date results as text in their column's format ('Dec 2024'); None when nothing needs showing."""
    fmt = result_format(formula, sheet)
    if fmt is None:
        return None

    def one(v: Any) -> str:
        if isinstance(v, bool) or not isinstance(v, int | float):
            return "" if v is None else str(v)
        try:
            d = serial_to_datetime(float(v), date1904=workbook.date1904)
        except ValueError:
            return str(v)
        return format_date(d, fmt) or d.isoformat()

    if isinstance(value, list):
        return "; ".join(", ".join(one(x) for x in row) for row in value)
    return one(value)

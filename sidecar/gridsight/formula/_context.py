"""Functions that read the workbook itself rather than cell values: SHEET, SHEETS, FORMULATEXT, ISFORMULA.

The engine sees only the values a formula reads, so these are replaced by constants before it runs,
as ``ROW()`` is (:func:`gridsight.formula._translate.own_cell`):

* ``SHEET()`` is the formula's sheet's number (1 for the first tab), ``SHEET(Data!A1)`` and
  ``SHEET("Data")`` that sheet's, ``#N/A`` for a name that is no sheet;
* ``SHEETS()`` is the number of sheets, ``SHEETS(A1)`` 1 (a 3D reference ``Jan:Mar!A1`` is one per
  sheet it spans, as it is written out by then);
* ``FORMULATEXT(A1)`` is A1's formula as Excel shows it (without the file's ``_xlfn.`` prefixes), and
  ``#N/A`` when A1 holds no formula; ``ISFORMULA(A1)`` whether it holds one;
* ``ISREF(A1)`` (or of INDIRECT, OFFSET, INDEX) is TRUE.
"""

from __future__ import annotations

import re

from gridsight.errors import GridSightError
from gridsight.formula._translate import to_text
from gridsight.formula._tree import Call, Literal, Node, Ref, walk
from gridsight.grid import Sheet, Workbook

_NAMES = ("SHEET", "SHEETS", "FORMULATEXT", "ISFORMULA", "ISREF")
#: Functions that give a reference.
_REFS = frozenset(("INDIRECT", "OFFSET", "INDEX"))
#: The prefixes a file gives newer functions and LET/LAMBDA names; Excel does not show them.
_FILE_PREFIXES = re.compile(r"_xlfn\.(?:_xlws\.)?|_xlws\.|_xlpm\.", re.IGNORECASE)


def _text(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _sheet_number(workbook: Workbook, name: str) -> int | None:
    folded = name.casefold()
    for i, sheet_name in enumerate(workbook.sheet_names, 1):
        if sheet_name.casefold() == folded:
            return i
    return None


def _formula_text(workbook: Workbook, current: Sheet, ref: Ref) -> str:
    assert ref.rng is not None
    try:
        sheet = workbook.sheet(ref.sheet) if ref.sheet else current
    except GridSightError:
        return "#REF!"
    cell = sheet.cell(ref.rng.top, ref.rng.left)
    if not cell.formula:
        return "#N/A"
    shown = _FILE_PREFIXES.sub("", cell.formula)
    return _text(shown if shown.startswith("=") else "=" + shown)


def workbook_functions(tree: Node, workbook: Workbook | None, current: Sheet | None) -> str | None:
    """The formula with SHEET, SHEETS, FORMULATEXT and ISFORMULA replaced by what they give here; None when it
    has none of them (or they take arguments computed from cells, left for the engine to refuse)."""
    if workbook is None or current is None:
        return None

    def constant(node: Node) -> str | None:
        if not isinstance(node, Call):
            return None
        name = node.name.removeprefix("_XLFN.")
        if name not in _NAMES:
            return None
        args = node.args
        if name == "ISREF":  # the engine sees a reference's values, never the reference
            if len(args) == 1 and isinstance(args[0], Ref) and args[0].rng is not None:
                return "TRUE"
            if len(args) == 1 and isinstance(args[0], Call) and args[0].name.removeprefix("_XLFN.") in _REFS:
                return "TRUE"
            return None
        if name == "SHEETS":
            if not args:
                return str(len(workbook.sheet_names))
            return str(len(args)) if all(isinstance(a, Ref) and a.rng is not None for a in args) else None
        if name == "SHEET":
            if not args:
                number = _sheet_number(workbook, current.name)
            elif len(args) == 1 and isinstance(args[0], Ref) and args[0].rng is not None:
                number = _sheet_number(workbook, args[0].sheet or current.name)
            elif len(args) == 1 and isinstance(args[0], Literal) and args[0].kind == "text":
                number = _sheet_number(workbook, str(args[0].value))
            else:
                return None
            return "#N/A" if number is None else str(number)
        if len(args) == 1 and isinstance(args[0], Ref) and args[0].rng is not None:
            shown = _formula_text(workbook, current, args[0])
            if name == "ISFORMULA":
                return "#REF!" if shown == "#REF!" else str(shown != "#N/A").upper()
            return shown
        return None

    if not any(constant(n) is not None for n in walk(tree)):
        return None
    return "=" + to_text(tree, constant)

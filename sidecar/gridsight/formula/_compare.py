"""Compare a value GridSight computed with the one Excel saved, and name the kind of difference."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from typing import Any

from gridsight.grid import ERROR_VALUES, CellError, datetime_to_serial

#: Relative and absolute tolerance for numbers (Excel keeps 15 significant digits).
REL_TOL = 1e-9
ABS_TOL = 1e-9


def cell_value(value: Any) -> Any:
    """What a cell shows for a formula result: an array shows its top-left item, an empty result
    shows 0 (``=A1`` over a blank cell), dates are serial numbers."""
    while isinstance(value, list):
        value = value[0] if value else None
        if isinstance(value, list) and not value:
            value = None
    if value is None:
        return 0
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return datetime_to_serial(value)
    return value


def _is_error(v: Any) -> bool:
    return isinstance(v, CellError) or (isinstance(v, str) and v in ERROR_VALUES)


def same(excel: Any, ours: Any) -> bool:
    """Excel's saved value and ours agree (numbers within tolerance, text exactly, errors by code)."""
    if isinstance(excel, dt.datetime | dt.date | dt.time):
        excel = datetime_to_serial(excel)
    if isinstance(excel, bool) or isinstance(ours, bool):
        return isinstance(excel, bool) and isinstance(ours, bool) and excel == ours
    if isinstance(excel, int | float) and isinstance(ours, int | float):
        if math.isnan(float(ours)) or math.isinf(float(ours)):
            return False
        return math.isclose(float(excel), float(ours), rel_tol=REL_TOL, abs_tol=ABS_TOL)
    if excel is None:
        return ours in (None, "")
    return _is_error(excel) == _is_error(ours) and str(excel) == str(ours)


def _type(v: Any) -> str:
    if isinstance(v, bool):
        return "logical"
    if _is_error(v):
        return "error"
    if isinstance(v, int | float):
        return "number"
    if v is None or v == "":
        return "blank"
    return "text"


#: Characters a locale writes differently: the list separator (FORMULATEXT's ``;``), the decimal point.
_LOCALE_PAIRS = frozenset({(";", ","), (",", "."), (".", ",")})


def _other_locale(excel: str, ours: str) -> bool:
    """The same text written with another locale's separators (``=SUM(A1;B1)`` for ``=SUM(A1,B1)``):
    Excel shows formulas and numbers in the language of the machine that saved the file."""
    if len(excel) != len(ours):
        return False
    pairs = {(a, b) for a, b in zip(excel, ours, strict=True) if a != b}
    return bool(pairs) and pairs <= _LOCALE_PAIRS


def difference_kind(excel: Any, ours: Any) -> str:
    """A short name for how two values differ: ``error lost``, ``error added``, ``other error``,
    ``number``, ``text`` (``text in another locale's separators`` when only ``;``/``,``/``.`` differ),
    ``blank vs value`` or ``type`` (``number vs text`` and the like)."""
    if isinstance(excel, dt.datetime | dt.date | dt.time):
        excel = datetime_to_serial(excel)
    a, b = _type(excel), _type(ours)
    if a == "error" and b != "error":
        return "error lost"
    if b == "error" and a != "error":
        return "error added"
    if a == b == "error":
        return "other error"
    if a == b == "text" and _other_locale(str(excel), str(ours)):
        return "text in another locale's separators"
    if a == b:
        return a
    if "blank" in (a, b):
        return "blank vs value"
    return f"{a} vs {b}"


#: Functions whose value comes from outside the workbook (the internet, a data server, a DDE link).
_EXTERNAL_DATA = frozenset({"WEBSERVICE", "STOCKHISTORY", "RTD", "IMAGE", "DDE", "SQL.REQUEST"})


def _excel_function(name: str, formula: str) -> bool:
    """``name`` is one of Excel's own worksheet functions: in openpyxl's list of them (Excel 2007's),
    or written with the ``_xlfn.`` prefix Excel gives the functions added since."""
    from openpyxl.utils.formulas import FORMULAE

    return name.upper() in FORMULAE or f"_xlfn.{name}".casefold() in formula.casefold()


def external_kind(
    kind: str, problem: str, formula: str, defined: Callable[[str], bool] = lambda name: False
) -> str | None:
    """The kind of a formula whose value comes from outside the workbook, so no engine could
    recompute it from the file: a user-defined function (a VBA macro or an add-in: a name that is not
    one of Excel's functions, ``=myFunc(A1)``), a linked data type's field (``_FV``), data from the
    internet or a server (WEBSERVICE, RTD...), an OLAP cube or the Data Model (CUBEVALUE, CUBEMEMBER...),
    or another workbook Excel kept no values of. None for
    anything else (those are GridSight's own gaps), a LAMBDA the workbook defines as a name
    (``defined``) included."""
    m = re.match(r"unknown function (\S+)$", kind)
    if m and m.group(1) == "_FV":
        return "linked data type (_FV)"
    if m and m.group(1) in _EXTERNAL_DATA:
        return f"external data ({m.group(1)})"
    if m and not _excel_function(m.group(1), formula) and not defined(m.group(1)):
        return f"user-defined function {m.group(1)}"
    if kind.startswith("external data"):
        return kind
    m = re.match(r"(\S+) is not allowed", problem)
    if m and m.group(1) in _EXTERNAL_DATA:
        return f"external data ({m.group(1)})"
    if kind == "external link" or kind.startswith("cube function"):
        return kind  # a cube function reads an OLAP server or the Data Model, not the cells
    return None


def unsupported_kind(problem: str) -> str:
    """A short, countable name for why a formula cannot be run."""
    m = re.match(r"(\S+) is not a function GridSight can check", problem)
    if m and m.group(1) == "TABLE":
        return "what-if data table (TABLE)"
    if m:
        return f"unknown function {m.group(1)}"
    m = re.match(r"(\S+) needs the (\S+) package, which is not installed", problem)
    if m:
        return f"needs {m.group(2)} ({m.group(1)})"
    m = re.match(r"(\S+) .* \((pivot table|external data|cube function)\)$", problem)
    if m:
        return f"{m.group(2)} ({m.group(1)})"
    if "is not a cell reference or known name" in problem:
        return "defined name"
    if problem.startswith("it links outside"):
        return "external link"
    if " is not allowed" in problem:
        return "refused by policy"
    if problem.startswith("the engine took more than"):
        return "took longer than the per-cell limit"
    if problem.startswith("the engine cannot compile"):
        return "engine cannot compile"
    if problem.startswith("the engine failed"):
        return problem.removeprefix("the engine ").split(" on it ")[0] + " " + problem.rsplit(" ", 1)[-1]
    if problem.startswith("_xleta."):
        return "function passed by name (_xleta.)"
    if problem.startswith("the union reference"):
        return "union reference outside SUM, COUNT, MAX..."
    if problem.startswith("the intersection"):
        return "intersection of computed references"
    if problem.startswith("cannot parse"):
        return "formula text the parser rejects"
    if "formulas here may read at most" in problem:
        return "reads too many cells"
    if "does not exist (#REF!)" in problem:
        return "missing sheet"
    if "circular reference" in problem:
        return "circular reference"
    return re.sub(r"'[^']*'|\"[^\"]*\"|[A-Z]+[0-9]+", "…", problem)[:60]

"""Excel's database functions (DSUM, DAVERAGE, DCOUNT, DCOUNTA, DGET, DMAX, DMIN, DPRODUCT, DSTDEV,
DSTDEVP, DVAR, DVARP), which the engine lacks.

``DSUM(database, field, criteria)``: ``database`` is a range whose first row holds the column labels;
``field`` a label (any case) or a column number from 1; ``criteria`` a range of labels over rows of
conditions. A record is counted when every condition of one criteria row holds (rows are alternatives,
a blank condition holds for all). Conditions are Excel's criteria (``">10"``, ``"<>x"``, wildcards),
and plain text matches the values that begin with it, as Microsoft documents for criteria ranges
(``V8`` matches ``V8 turbo``; ``="=V8"`` only ``V8``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

#: The statistic each function takes of the field's numbers (DCOUNTA and DGET see every value).
_STATS: dict[str, Callable[[list[float]], Any]] = {
    "DSUM": lambda xs: float(sum(xs)),
    "DPRODUCT": lambda xs: float(math.prod(xs)) if xs else 0.0,
    "DCOUNT": lambda xs: float(len(xs)),
    "DMAX": lambda xs: max(xs) if xs else 0.0,
    "DMIN": lambda xs: min(xs) if xs else 0.0,
    "DAVERAGE": lambda xs: sum(xs) / len(xs) if xs else "#DIV/0!",
    "DVAR": lambda xs: _variance(xs, 1),
    "DVARP": lambda xs: _variance(xs, 0),
    "DSTDEV": lambda xs: _root(_variance(xs, 1)),
    "DSTDEVP": lambda xs: _root(_variance(xs, 0)),
}


def _variance(xs: list[float], ddof: int) -> Any:
    if len(xs) - ddof <= 0:
        return "#DIV/0!"
    mean = sum(xs) / len(xs)
    return sum((x - mean) ** 2 for x in xs) / (len(xs) - ddof)


def _root(v: Any) -> Any:
    return math.sqrt(v) if isinstance(v, float) else v


def _grid(v: Any) -> np.ndarray:
    a = np.asarray(v, dtype=object)
    return a.reshape(1, 1) if a.ndim == 0 else a.reshape(a.shape[0], -1) if a.ndim == 1 else a


def _label(v: Any) -> str:
    """A label as text, ignoring case: a number as Excel writes it (1, not 1.0), a logical TRUE/FALSE."""
    from gridsight.formula._engine import _is_blank
    from gridsight.formula._excel_coerce import as_text

    if _is_blank(v):
        return ""
    if isinstance(v, bool | np.bool_ | int | float | np.number):
        return as_text(v).casefold()
    return str(v).strip().casefold()


def _criterion(v: Any) -> Any:
    """A criteria cell as a criterion: plain text (no operator, no wildcard) matches what begins with it."""
    from gridsight.formula._excel_values import text_number

    if (
        isinstance(v, str)
        and v
        and v[0] not in "<>="
        and text_number(v) is None
        and v.upper() not in ("TRUE", "FALSE")
    ):
        return v + "*"
    return v


def _selected(data: np.ndarray, labels: list[str], criteria: np.ndarray) -> np.ndarray | None:
    """Which records (rows of ``data``) meet the criteria; None when a criteria label is no column."""
    from gridsight.formula._engine import _is_blank
    from gridsight.formula._engine_excel import BlankCell, criteria_mask

    blank = BlankCell("")
    raw = np.vectorize(lambda x: blank if _is_blank(x) else x, otypes=[object])(data) if data.size else data
    heads = [_label(h) for h in criteria[0]]
    chosen = np.zeros(data.shape[0], dtype=bool)
    for row in criteria[1:]:
        keep = np.ones(data.shape[0], dtype=bool)
        for head, cond in zip(heads, row, strict=True):
            if _is_blank(cond) or cond == "":
                continue
            if head == "":  # a condition under no label: no record meets it
                keep[:] = False
                continue
            if head not in labels:
                return None
            keep &= np.asarray(criteria_mask(raw[:, labels.index(head)], _criterion(cond)), dtype=bool)
        chosen |= keep
    return chosen


def database_function(name: str) -> Callable[..., Any]:
    """The engine function for one of Excel's database functions."""

    def run(database: Any, field: Any, criteria: Any) -> Any:
        from formulas.functions import Error, XlError

        from gridsight.formula._engine import _is_blank, _scalar

        db, crit = _grid(database), _grid(criteria)
        if db.shape[0] < 2 or crit.shape[0] < 2:  # a database of its labels only: #VALUE!
            return Error.errors["#VALUE!"]
        labels = [_label(h) for h in db[0]]
        field = _scalar(field, None)
        if isinstance(field, XlError):
            return field
        if field is None and name == "DCOUNT":
            column = None
        elif isinstance(field, bool | np.bool_):  # TRUE: the column labelled TRUE
            if _label(field) not in labels:
                return Error.errors["#VALUE!"]
            column = labels.index(_label(field))
        elif field is None:
            return Error.errors["#VALUE!"]
        elif isinstance(field, int | float | np.number):
            if not 1 <= int(field) <= len(labels):
                return Error.errors["#VALUE!"]
            column = int(field) - 1
        elif _label(field) in labels:
            column = labels.index(_label(field))
        else:
            return Error.errors["#VALUE!"]
        records = db[1:]
        chosen = _selected(records, labels, crit)
        if chosen is None:
            return Error.errors["#VALUE!"]
        if column is None:
            return float(chosen.sum())
        values = [v for v, ok in zip(records[:, column], chosen, strict=True) if ok]
        if name == "DGET":
            if not values:
                return Error.errors["#VALUE!"]
            return values[0] if len(values) == 1 else Error.errors["#NUM!"]
        if name == "DCOUNTA":
            return float(sum(1 for v in values if not _is_blank(v) and v != ""))
        errors = [v for v in values if isinstance(v, XlError)]
        if errors and name != "DCOUNT":
            return errors[0]
        numbers = [
            float(v) for v in values if isinstance(v, int | float | np.number) and not isinstance(v, bool)
        ]
        out = _STATS[name](numbers)
        return Error.errors[out] if isinstance(out, str) else out

    run.__name__ = name.lower()
    return run


def patch_database() -> None:
    """Register DSUM, DAVERAGE, DCOUNT... with the engine (it had none of them)."""
    import formulas
    from formulas.functions import wrap_func

    fns = formulas.get_functions()
    for name in (*_STATS, "DCOUNTA", "DGET"):
        fns[name] = wrap_func(database_function(name))

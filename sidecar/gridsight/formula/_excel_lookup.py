"""XLOOKUP and XMATCH as Excel documents them, replacing the engine's.

``XLOOKUP(value, lookup_array, return_array, [if_not_found], [match_mode], [search_mode])`` and
``XMATCH(value, lookup_array, [match_mode], [search_mode])``:

* the lookup array is one row or one column (else ``#VALUE!``), the return array as tall (or as wide)
  as it (else ``#VALUE!``); several return columns give the whole matched row;
* match modes 0 (exact), -1 (exact or the next smaller), 1 (exact or the next larger), 2 (wildcards
  ``*``, ``?``, ``~``), 3 (a regular expression); search modes 1 (first to last), -1 (last to first),
  2 and -2 (binary search as Excel halves: over unsorted data it finds what Excel finds; the first of
  equal items ascending, the last descending); any other mode is ``#VALUE!``;
* items compare in Excel's order (numbers, then text ignoring case, then FALSE and TRUE; numbers on
  15 significant digits), so the next smaller than FALSE may be text; errors are skipped; a blank
  lookup value finds a blank cell, or comes after everything (the next smaller is the largest item);
  the lookup value's error first, then wildcards or a pattern with binary search ``#VALUE!``; a
  logical mode is 1 or 0;
* no match: ``if_not_found`` when given, else ``#N/A``. An omitted argument reaches the engine as 0,
  so the formula is rewritten first (:data:`OMITTED`): an omitted ``if_not_found`` becomes ``NA()``,
  omitted modes their defaults.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from gridsight.formula._excel_coerce import is_blank
from gridsight.formula._excel_values import significant, wildcard_regex

#: Omitted arguments written in before evaluation: function -> {position: text}.
OMITTED: dict[str, dict[int, str]] = {
    "XLOOKUP": {3: "NA()", 4: "0", 5: "1"},
    "XMATCH": {2: "0", 3: "1"},
}


def _error(code: str) -> Any:
    from formulas.functions import Error

    return Error.errors[code]


def _is_error(v: Any) -> bool:
    from formulas.functions import XlError

    return isinstance(v, XlError)


def _rank(v: Any) -> tuple[int, Any]:
    """Excel's order for lookups: numbers, text (ignoring case), logicals; blanks after them all."""
    if isinstance(v, np.ndarray):  # an array constant's item may come as a 0-d array
        v = v.item() if v.size == 1 else v
    if is_blank(v):
        return (4, 0)
    if _is_error(v):
        return (3, str(v))
    if isinstance(v, bool | np.bool_):
        return (2, bool(v))
    if isinstance(v, int | float | np.number):
        return (0, significant(float(v)))
    return (1, str(v).casefold())


def _mode(v: Any, allowed: tuple[int, ...]) -> Any:
    """A match or search mode: a whole number of ``allowed``, else #VALUE! (an error as it is)."""
    if isinstance(v, np.ndarray):
        v = v.ravel()[0] if v.size else 0
    if _is_error(v):
        return v
    if is_blank(v):
        v = 0
    try:
        n = math.floor(float(v))  # rounded down (-1.1 is -2); a logical 1 or 0, numeric text read
    except (TypeError, ValueError):
        return _error("#VALUE!")
    return n if n in allowed else _error("#VALUE!")


def _matcher(value: Any, mode: int) -> Any:
    """For match modes 2 and 3, a test of one item; else None."""
    if mode == 2 and isinstance(value, str) and not _is_error(value):
        regex, _ = wildcard_regex(value)
        pattern = re.compile(regex, re.IGNORECASE | re.DOTALL)
        return lambda v: isinstance(v, str) and not _is_error(v) and pattern.fullmatch(v) is not None
    if mode == 3 and isinstance(value, str) and not _is_error(value):
        try:
            regex_pattern = re.compile(value)
        except re.error:
            return None
        return lambda v: isinstance(v, str) and not _is_error(v) and regex_pattern.search(v) is not None
    return None


def position(value: Any, items: list[Any], match_mode: int, search_mode: int) -> int | None:
    """The 0-based index of the item XMATCH finds, or None."""
    order = range(len(items)) if search_mode != -1 else range(len(items) - 1, -1, -1)
    if match_mode in (2, 3):
        test = _matcher(value, match_mode)
        if test is None:
            match_mode = 0
        else:
            return next((i for i in order if test(items[i])), None)
    target = _rank(value)
    if search_mode in (2, -2):
        return _binary(target, items, match_mode, descending=search_mode == -2)
    best: int | None = None
    for i in order:
        r = _rank(items[i])
        if r == target:
            return i
        if match_mode == 0 or r[0] >= 3:  # approximate: not to blanks and errors (a blank value is last)
            continue
        if (match_mode == -1 and r < target and (best is None or r > _rank(items[best]))) or (
            match_mode == 1 and r > target and (best is None or r < _rank(items[best]))
        ):
            best = i
    return best


def _binary(target: tuple[int, Any], items: list[Any], match_mode: int, descending: bool) -> int | None:
    """Excel's binary search: halving by comparing the middle item, an equal one remembered and the
    search going on towards the first of equals (ascending) or the last (descending); without one,
    the next smaller or larger item where the search stopped."""
    ranks = [_rank(v) for v in items]
    lo, hi, found = 0, len(ranks) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        r = ranks[mid]
        if r == target:
            found = mid
            if descending:
                lo = mid + 1
            else:
                hi = mid - 1
        elif (r < target) != descending:  # the target lies after the middle
            lo = mid + 1
        else:
            hi = mid - 1
    if found is not None:
        return found
    smaller, larger = (lo, hi) if descending else (hi, lo)
    pick = smaller if match_mode == -1 else larger if match_mode == 1 else None
    if pick is None or not 0 <= pick < len(ranks) or ranks[pick][0] >= 3:
        return None
    return pick


def _vector(array: Any) -> tuple[list[Any], bool] | None:
    """A lookup array's items and whether it runs down a column; None when it is 2-D."""
    a = np.asarray(array, dtype=object)
    if a.ndim < 2:
        a = a.reshape(1, -1) if a.ndim == 1 else a.reshape(1, 1)
    h, w = a.shape
    if h > 1 and w > 1:
        return None
    return list(a.ravel()), w == 1


def _scalar(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v.ravel()[0] if v.size else v
    return v


def _each(value: Any, one: Any) -> Any:
    """``one`` over a single lookup value, or over each of an array of them (an array of results)."""
    from formulas.functions import Array

    if isinstance(value, np.ndarray) and value.size > 1:
        out = np.empty(value.shape, dtype=object)
        for idx in np.ndindex(value.shape):
            r = one(value[idx])
            out[idx] = _scalar(r) if isinstance(r, np.ndarray) else r
        return out.view(Array)
    return one(_scalar(value))


def _modes(match_mode: Any, search_mode: Any) -> Any:
    """The two modes, or the error they make (wildcards or a pattern with binary search: #VALUE!)."""
    mm, sm = _mode(match_mode, (0, -1, 1, 2, 3)), _mode(search_mode, (1, -1, 2, -2))
    for m in (mm, sm):
        if _is_error(m):
            return m
    if mm in (2, 3) and sm in (2, -2):
        return _error("#VALUE!")
    return mm, sm


def _broadcast(fn: Any, value: Any, modes: tuple[Any, Any], *rest: Any) -> Any:
    """``fn`` item by item when the modes are arrays too (``XLOOKUP(A1:A3,...,,B1:B3)``), each result's
    first value; None when they are not."""
    from formulas.functions import Array

    arrays = [v for v in (value, *modes) if isinstance(v, np.ndarray) and v.size > 1]
    if not any(isinstance(m, np.ndarray) and m.size > 1 for m in modes):
        return None
    try:
        shape = np.broadcast_shapes(*(np.shape(a) for a in arrays))
    except ValueError:
        return _error("#VALUE!")
    parts = [
        np.broadcast_to(np.asarray(v, dtype=object), shape) if isinstance(v, np.ndarray) else v
        for v in (value, *modes)
    ]
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(shape):
        args = [p[idx] if isinstance(p, np.ndarray) else p for p in parts]
        r = fn(args[0], *rest[:-1], *args[1:]) if rest else fn(*args)
        out[idx] = _scalar(r) if isinstance(r, np.ndarray) else r
    return out.view(Array)


def xmatch(value: Any, lookup_array: Any, match_mode: Any = 0, search_mode: Any = 1) -> Any:
    spread = _broadcast(lambda v, m, s: xmatch(v, lookup_array, m, s), value, (match_mode, search_mode))
    if spread is not None:
        return spread
    if _is_error(_scalar(value)) and not (isinstance(value, np.ndarray) and value.size > 1):
        return _scalar(value)  # the value's error comes before the modes are checked
    modes = _modes(match_mode, search_mode)
    if _is_error(modes):
        return modes
    mm, sm = modes
    found = _vector(lookup_array)
    if found is None:
        return _error("#VALUE!")
    items, _ = found

    def one(v: Any) -> Any:
        if _is_error(v):
            return v
        i = position(v, items, mm, sm)
        return _error("#N/A") if i is None else float(i + 1)

    return _each(value, one)


def xlookup(
    value: Any,
    lookup_array: Any,
    return_array: Any,
    if_not_found: Any = None,
    match_mode: Any = 0,
    search_mode: Any = 1,
) -> Any:
    from formulas.functions import Array

    spread = _broadcast(
        lambda v, m, s: xlookup(v, lookup_array, return_array, if_not_found, m, s),
        value,
        (match_mode, search_mode),
    )
    if spread is not None:
        return spread
    if _is_error(_scalar(value)) and not (isinstance(value, np.ndarray) and value.size > 1):
        return _scalar(value)
    modes = _modes(match_mode, search_mode)
    if _is_error(modes):
        return modes
    mm, sm = modes
    found = _vector(lookup_array)
    if found is None or not isinstance(return_array, np.ndarray) or return_array.ndim != 2:
        return _error("#VALUE!")
    items, down = found
    rh, rw = return_array.shape
    if len(items) == 1:
        down = rh == 1 or rw != 1
    if (down and rh != len(items)) or (not down and rw != len(items)):
        return _error("#VALUE!")
    missing = _error("#N/A") if if_not_found is None else if_not_found

    def one(v: Any) -> Any:
        if _is_error(v):
            return v
        i = position(v, items, mm, sm)
        if i is None:
            return missing
        line = return_array[i : i + 1, :] if down else return_array[:, i : i + 1]
        if line.size == 1:
            item = line.ravel()[0]
            return 0.0 if is_blank(item) else item
        return np.asarray(line, dtype=object).view(Array)

    return _each(value, one)


def patch_xlookup(fns: Any) -> None:
    """Install :func:`xlookup` and :func:`xmatch`."""
    for name, fn in (("XLOOKUP", xlookup), ("XMATCH", xmatch)):
        fns[name] = fns[f"_XLFN.{name}"] = fn

"""The `formulas` engine, with the functions people use that it lacks or gets wrong.

Added through its own registry (`formulas.get_functions()`), as the engine's docs describe, so a
compiled formula calls them like built-ins. Each has table-driven tests against values worked out
by hand from Excel's documentation.
"""

from __future__ import annotations

import math
import operator
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

_LOCK = threading.RLock()
_PATCHED = False


def _flat(values: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if isinstance(v, np.ndarray):
            out.extend(v.ravel().tolist())
        else:
            out.append(v)
    return out


def _numbers(values: tuple[Any, ...], *, skip_errors: bool = False) -> list[float] | Any:
    """Numbers of the arguments (as SUM sees them); an error value is returned as is."""
    from formulas.functions import XlError

    out: list[float] = []
    for v in _flat(values):
        if isinstance(v, XlError):
            if skip_errors:
                continue
            return v
        if isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        if isinstance(v, int | float | np.number):
            out.append(float(v))
    return out


def _err(code: str) -> Any:
    from formulas.functions import Error

    return Error.errors[code]


def _sequence(rows: Any, columns: Any = 1, start: Any = 1, step: Any = 1) -> Any:
    from formulas.functions import Array

    try:
        r, c = int(_scalar(rows, 1)), int(_scalar(columns, 1))
        s, st = float(_scalar(start, 1)), float(_scalar(step, 1))
    except (TypeError, ValueError):
        return _err("#VALUE!")
    if r < 1 or c < 1 or r * c > 1_048_576:
        return _err("#VALUE!") if r < 1 or c < 1 else _err("#NUM!")
    data = (s + st * np.arange(r * c)).reshape(r, c)
    return np.asarray(data, dtype=object).view(Array)


def _scalar(v: Any, default: Any) -> Any:

    if isinstance(v, np.ndarray):
        v = v.ravel()[0] if v.size else default
    if _is_blank(v):
        return default
    return v


_AGG: dict[int, Any] = {}


def _stat(code: int, nums: list[float]) -> Any:
    if code in (1,):
        return sum(nums) / len(nums) if nums else _err("#DIV/0!")
    if code == 2:
        return float(len(nums))
    if code == 4:
        return max(nums) if nums else 0.0
    if code == 5:
        return min(nums) if nums else 0.0
    if code == 6:
        return float(math.prod(nums)) if nums else 0.0
    if code in (7, 8):
        n = len(nums)
        if n - (1 if code == 7 else 0) <= 0:
            return _err("#DIV/0!")
        mean = sum(nums) / n
        return math.sqrt(sum((x - mean) ** 2 for x in nums) / (n - (1 if code == 7 else 0)))
    if code == 9:
        return float(sum(nums))
    if code in (10, 11):
        n = len(nums)
        if n - (1 if code == 10 else 0) <= 0:
            return _err("#DIV/0!")
        mean = sum(nums) / n
        return sum((x - mean) ** 2 for x in nums) / (n - (1 if code == 10 else 0))
    if code == 12:
        if not nums:
            return _err("#NUM!")
        s = sorted(nums)
        mid = len(s) // 2
        return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2
    return _err("#VALUE!")


def _subtotal(function_num: Any, *refs: Any) -> Any:
    """SUBTOTAL: 1-11 and 101-111 (the hidden rows each leaves out are left out of its references
    before, see ``_subtotal``); a reference that is an error (``#REF!``, deleted) is the result."""
    from formulas.functions import XlError

    deleted = next((r for r in refs if isinstance(r, XlError)), None)
    if deleted is not None:
        return deleted
    try:
        code = int(_scalar(function_num, 0))
    except (TypeError, ValueError):
        return _err("#VALUE!")
    code = code - 100 if code > 100 else code
    if not 1 <= code <= 11:
        return _err("#VALUE!")
    if code == 3:
        vals = _flat(refs)
        return float(sum(1 for v in vals if not _is_blank(v) and v != ""))
    nums = _numbers(refs)
    if isinstance(nums, XlError):
        return nums
    return _stat(code, nums)


def _percentile(nums: list[float], k: float, exclusive: bool) -> Any:
    """PERCENTILE.INC (``exclusive`` False) / PERCENTILE.EXC of ``nums`` at ``k``."""
    s, n = sorted(nums), len(nums)
    if not s:
        return _err("#NUM!")
    if exclusive:
        if not 1 / (n + 1) <= k <= n / (n + 1):
            return _err("#NUM!")
        rank = k * (n + 1) - 1
    else:
        if not 0 <= k <= 1:
            return _err("#NUM!")
        rank = k * (n - 1)
    lo = math.floor(rank)
    hi = min(lo + 1, n - 1)
    return s[lo] + (rank - lo) * (s[hi] - s[lo])


def _order_stat(code: int, nums: list[float], k: Any) -> Any:
    """AGGREGATE's functions 14-19 (LARGE, SMALL, PERCENTILE.INC, QUARTILE.INC, PERCENTILE.EXC,
    QUARTILE.EXC) at ``k``."""
    from formulas.functions import XlError

    k = _scalar(k, None)
    if isinstance(k, XlError):
        return k
    if k is None or isinstance(k, bool | str):
        return _err("#VALUE!")
    k = float(k)
    if code in (14, 15):
        i = math.ceil(k) if k != int(k) else int(k)
        if not 1 <= i <= len(nums):
            return _err("#NUM!")
        return sorted(nums, reverse=code == 14)[i - 1]
    if code in (17, 19):
        quart = math.trunc(k)
        if not (0 <= quart <= 4 if code == 17 else 1 <= quart <= 3):
            return _err("#NUM!")
        k = quart / 4
    return _percentile(nums, k, exclusive=code in (18, 19))


def _mode(nums: list[float]) -> Any:
    """MODE.SNGL: the most frequent number, the first of equals; #N/A when none repeats."""
    counts: dict[float, int] = {}
    for x in nums:
        counts[x] = counts.get(x, 0) + 1
    best = max(counts.values(), default=0)
    if best < 2:
        return _err("#N/A")
    return next(x for x in nums if counts[x] == best)


def _aggregate(function_num: Any, options: Any, *refs: Any) -> Any:
    """AGGREGATE for functions 1-19 (options 2, 3, 6, 7 skip error values). Functions 14-19 take their
    ``k`` last, after the array (split in pieces around hidden rows and nested subtotals)."""
    from formulas.functions import XlError

    try:
        code, opt = int(_scalar(function_num, 0)), int(_scalar(options, 0))
    except (TypeError, ValueError):
        return _err("#VALUE!")
    if not 1 <= code <= 19 or not 0 <= opt <= 7:
        return _err("#VALUE!")
    skip_errors = opt in (2, 3, 6, 7)
    k: Any = None
    if code >= 14:
        if len(refs) < 2:
            return _err("#VALUE!")
        refs, k = refs[:-1], refs[-1]
    nums = _numbers(refs, skip_errors=skip_errors)
    if isinstance(nums, XlError):
        return nums
    if code == 3:
        return float(
            sum(1 for v in _flat(refs) if not _is_blank(v) and not (skip_errors and isinstance(v, XlError)))
        )
    if code == 12:
        return _stat(code, nums)
    if code == 13:
        return _mode(nums)
    if code >= 14:
        return _order_stat(code, nums, k)
    return _stat(code, nums)


def _rows(x: Any) -> Any:
    """ROWS of a range or an array (the engine rejects arrays); of an error value, that error
    (``ROWS(#REF!)`` is ``#REF!``)."""
    from formulas.functions import XlError

    if isinstance(x, XlError):
        return x
    return float(x.shape[0]) if isinstance(x, np.ndarray) and x.ndim == 2 else 1.0


def _columns(x: Any) -> Any:
    from formulas.functions import XlError

    if isinstance(x, XlError):
        return x
    return float(x.shape[1]) if isinstance(x, np.ndarray) and x.ndim == 2 else 1.0


def _grid(value: Any) -> Any:
    """A value as a two-dimensional object array: a list a row, a scalar one cell."""
    data = np.asarray(value, dtype=object)
    if data.ndim != 2:
        data = data.reshape(1, -1) if data.ndim == 1 else data.reshape(1, 1)
    return data


def _blanks_last(items: list[T], value: Callable[[T], Any], descending: bool) -> list[T]:
    """``items`` in Excel's sort order of their values (:func:`_rank`), blanks last in either
    direction; items of equal values keep their order."""
    filled = [x for x in items if not _is_blank(value(x))]
    blanks = [x for x in items if _is_blank(value(x))]
    filled.sort(key=lambda x: _rank(value(x)), reverse=descending)
    return filled + blanks


def _rank(v: Any) -> tuple[int, Any]:
    """Excel's sort order: numbers, text (case-insensitive), logicals, errors; blanks apart."""
    from formulas.functions import XlError

    if isinstance(v, XlError):  # XlError (and the EMPTY token) are str subclasses: test them first
        return (3, str(v))
    if _is_blank(v):
        return (4, "")
    if isinstance(v, bool | np.bool_):
        return (2, bool(v))
    if isinstance(v, int | float | np.number):
        return (0, float(v))
    if isinstance(v, str):
        return (1, v.casefold())
    return (0, 0.0)


def _is_blank(v: Any) -> bool:
    """The engine's EMPTY token (compared by type and text: copies are not the same object)."""
    import schedula as sh

    return v is None or v is sh.EMPTY or (type(v) is type(sh.EMPTY) and str(v) == "empty")


def _sort_numbers(v: Any) -> list[int] | Any:
    """SORT's indexes or orders: one number, or an array of them (several keys); the engine passes an
    omitted argument as 0 (the default). A blank cell, text or a logical is #VALUE!, an error itself."""
    from formulas.functions import XlError

    items = list(np.asarray(v, dtype=object).ravel()) if isinstance(v, np.ndarray) else [v]
    out = []
    for x in items:
        if isinstance(x, XlError):
            return x
        if x is None or _is_blank(x):
            if isinstance(v, np.ndarray):
                return _err("#VALUE!")
            out.append(0)
        elif isinstance(x, bool):
            return _err("#VALUE!")
        else:
            out.append(int(float(x)))  # a number, or text of one ("1"); other text is #VALUE!
    return out


def _sort(array: Any, sort_index: Any = 1, sort_order: Any = 1, by_col: Any = False) -> Any:
    """SORT with omitted arguments, Excel's type order, errors kept as errors, blanks last; several
    keys as arrays (``SORT(A1:C9,{2,1},{1,-1})``), #VALUE! for a blank cell as the index or for more
    orders than indexes."""
    from formulas.functions import Array

    data = _grid(array)
    try:
        idx, order = _sort_numbers(sort_index), _sort_numbers(sort_order)
        cols = bool(_scalar(by_col, False))
    except (TypeError, ValueError, OverflowError):
        return _err("#VALUE!")
    for got in (idx, order):
        if not isinstance(got, list):
            return got
    idx = [i or 1 for i in idx]  # The engine passes an omitted argument as 0: Excel's defaults
    order = [o or 1 for o in order]
    if len(order) not in (1, len(idx)) or any(o not in (1, -1) for o in order):
        return _err("#VALUE!")
    order = order * len(idx) if len(order) == 1 else order
    lines = data.T if cols else data
    if not all(1 <= i <= lines.shape[1] for i in idx):
        return _err("#VALUE!")
    rows = list(lines)
    for i, o in reversed(list(zip(idx, order, strict=True))):  # stable: the first key decides last
        rows = _blanks_last(rows, operator.itemgetter(i - 1), o == -1)
    out = np.array(rows, dtype=object)
    out = out.T if cols else out
    return out.view(Array)


def _sortby(array: Any, by_array: Any, sort_order: Any = 1, *more: Any) -> Any:
    """SORTBY with the order rules of :func:`_sort`: Excel's type order within each key, blanks last
    in either direction (a blank profit is no largest one), ties kept in place; #VALUE! for keys of
    another length than the rows or columns sorted, or an order other than 1 and -1."""
    from formulas.functions import Array

    data = _grid(array)
    keys: list[np.ndarray] = []
    orders: list[int] = []
    extra = [*more, 1] if len(more) % 2 else list(more)  # (the last key's order may be left out)
    pairs = [(by_array, sort_order), *zip(extra[::2], extra[1::2], strict=True)]
    for key, order in pairs:
        k = _grid(key)
        if 1 not in k.shape:
            return _err("#VALUE!")
        got = _sort_numbers(order)
        if not isinstance(got, list):
            return got
        if len(got) != 1 or (got[0] or 1) not in (1, -1):
            return _err("#VALUE!")
        keys.append(k)
        orders.append(got[0] or 1)
    cols = keys[0].shape[0] == 1 and keys[0].shape[1] > 1
    lines = list(range(data.shape[1] if cols else data.shape[0]))
    flat = [k.ravel() for k in keys]
    if any(len(f) != len(lines) for f in flat):
        return _err("#VALUE!")
    for f, o in reversed(list(zip(flat, orders, strict=True))):  # stable: the first key decides last
        lines = _blanks_last(lines, f.__getitem__, o == -1)
    out = data[:, lines] if cols else data[lines]
    return np.asarray(out, dtype=object).view(Array)


def _unique(array: Any, by_col: Any = False, exactly_once: Any = False) -> Any:
    """UNIQUE, case-insensitive as in Excel (first spelling kept)."""
    from formulas.functions import Array

    data = _grid(array)
    cols = bool(_scalar(by_col, False))
    once = bool(_scalar(exactly_once, False))
    lines = data.T if cols else data

    def key(line: Any) -> tuple[Any, ...]:
        return tuple(_rank(x) for x in line)

    counts: dict[tuple[Any, ...], int] = {}
    first: dict[tuple[Any, ...], Any] = {}
    for line in lines:
        k = key(line)
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, line)
    kept = [first[k] for k in first if not once or counts[k] == 1]
    if not kept:
        return _err("#CALC!") if "#CALC!" in _error_codes() else _err("#VALUE!")
    out = np.array(kept, dtype=object)
    return (out.T if cols else out).view(Array)


def _hyperlink(link: Any, friendly_name: Any = None) -> Any:
    """HYPERLINK shows its friendly name (or the link); the policy has vetted the target."""
    shown = _scalar(friendly_name, None)
    return shown if shown is not None else _scalar(link, "")


def _base(number: Any, radix: Any, min_length: Any = None) -> Any:
    """BASE: a non-negative integer below 2**53 written in base 2..36, left-padded with zeros to
    ``min_length`` (at most 255); ``BASE(255,16)`` is ``FF``."""
    from formulas.functions import XlError

    args = [_scalar(number, 0), _scalar(radix, 0), _scalar(min_length, 0)]
    for a in args:
        if isinstance(a, XlError):
            return a
    try:
        n, r, width = (int(float(a)) for a in args)
    except (TypeError, ValueError):
        return _err("#VALUE!")
    if n < 0 or n >= 2**53 or not 2 <= r <= 36 or not 0 <= width <= 255:
        return _err("#NUM!")
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = ""
    while n:
        n, d = divmod(n, r)
        out = digits[d] + out
    return (out or "0").rjust(width, "0")


def _seriessum(x: Any, n: Any, m: Any, coefficients: Any) -> Any:
    """SERIESSUM: the sum of ``a_i * x**(n + i*m)`` over the coefficients ``a_0, a_1...``."""
    from formulas.functions import XlError

    values = [_scalar(x, 0), _scalar(n, 0), _scalar(m, 0)]
    for v in [*values, *_flat((coefficients,))]:
        if isinstance(v, XlError):
            return v
    try:
        xv, nv, mv = (float(v) for v in values)
        coefs = [float(c) for c in _flat((coefficients,)) if not _is_blank(c)]
    except (TypeError, ValueError):
        return _err("#VALUE!")
    try:
        return float(sum(a * xv ** (nv + i * mv) for i, a in enumerate(coefs)))
    except (ZeroDivisionError, OverflowError):
        return _err("#NUM!")


def _error_codes() -> set[str]:
    from formulas.functions import Error

    return set(Error.errors)


def patch_engine() -> None:
    """Register GridSight's additions in the engine's function table (idempotent)."""
    global _PATCHED
    with _LOCK:
        if _PATCHED:
            return
        import formulas
        import formulas.functions as engine_functions
        from formulas.errors import FoundError
        from formulas.functions import wrap_func

        from gridsight.formula._blankcount import patch_blank_counts
        from gridsight.formula._engine_excel import patch_all
        from gridsight.formula._excel_database import patch_database
        from gridsight.formula._fastifs import make_fast_xfilter

        patch_all()  # Excel's rules where the engine differs, one named patch each (criteria first)
        patch_database()
        patch_blank_counts()
        # xfilter/xfilters look `_xfilter` up in their module at call time: swap in the grouped path
        engine_functions._xfilter = make_fast_xfilter(
            engine_functions._xfilter,
            getattr(engine_functions, "__xfilter"),
            engine_functions.text2num,
            FoundError,
        )
        fns = formulas.get_functions()
        for name, fn in (
            ("SEQUENCE", _sequence),
            ("SUBTOTAL", _subtotal),
            ("AGGREGATE", _aggregate),
            ("ROWS", _rows),
            ("COLUMNS", _columns),
            ("SORT", _sort),
            ("SORTBY", _sortby),
            ("UNIQUE", _unique),
            ("HYPERLINK", _hyperlink),
            ("BASE", _base),
            ("SERIESSUM", _seriessum),
        ):
            wrapped = wrap_func(fn)
            fns[name] = wrapped
            fns[f"_XLFN.{name}"] = wrapped
            fns[f"_XLFN._XLWS.{name}"] = wrapped  # how files name SORT and FILTER
        _PATCHED = True


@lru_cache(maxsize=1)
def known_functions() -> frozenset[str]:
    """Every function name the engine can run (after our additions), upper-case."""
    import formulas

    patch_engine()
    names = set()
    for key, fn in formulas.get_functions().items():
        # compiling an unknown name caches a `not_implemented` stand-in under it: not a function
        if getattr(fn, "__name__", "") != "not_implemented":
            names.add(key.upper().removeprefix("_XLFN.").removeprefix("_XLWS."))
    names.add("OFFSET")  # rewritten to the range it points at before the engine runs (_translate)
    names.add("INDIRECT")  # the same, from its text (_evaluate._indirect_resolver)
    names.add("GRIDSIGHT.SPAN")  # a:b beside OFFSET, INDEX...: the range, resolved the same way
    return frozenset(names)


def compile_formula(text: str) -> Any:
    """Compile once per formula text and date system (the first compile in a process costs ~1 s).

    The engine computes constant parts while compiling (``DATE(2024,1,1)``, ``CHAR(233)``), so a
    1904-date workbook's formulas, and those of a workbook Excel for Mac calculated, are compiled
    apart, in that date system and character set."""
    from gridsight.formula._date1904 import is_1904
    from gridsight.formula._platform import is_mac

    return _compile(text, is_1904(), is_mac())


@lru_cache(maxsize=4096)
def _compile(text: str, date1904: bool, mac: bool) -> Any:
    import formulas

    from gridsight.formula._date1904 import date_system
    from gridsight.formula._platform import character_set

    patch_engine()
    with date_system(date1904), character_set(mac):
        return formulas.Parser().ast(text)[1].compile()


def warm_up() -> None:
    """Pay the engine's one-off start-up cost now (call at service start)."""
    compile_formula("=SUM(A1:A2)+1")


def engine_lock() -> threading.RLock:
    """Compiled formulas keep their last solution: calls are serialised."""
    return _LOCK

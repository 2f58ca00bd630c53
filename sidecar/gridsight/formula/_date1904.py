"""The 1904 date system, for workbooks saved with it (``<workbookPr date1904="1"/>``, old Mac files).

In such a workbook serial 0 is 1 January 1904 and every date is 1,462 days below its 1900 serial:
``DATE(2024,1,1)`` is 43,830 there, 45,292 in a 1900 workbook, and ``YEAR(43830)`` is 2024 there.
The engine counts from 1900 only, so while a 1904 workbook's formula runs (:func:`date_system`), the
date functions are wrapped: serials they read are moved up by 1,462, serials they give moved down;
TEXT with a date format and text read as a date (``"1/15/2024"+0``, ``VALUE``, criteria) likewise.
Functions that only take differences (DAYS, HOUR, ``B1-A1``) need nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

#: Days from 1900-01-00 to 1904-01-01 in Excel's 1900 system: 1904 serial + 1462 = 1900 serial.
DAYS_1904 = 1462

_DATE1904: contextvars.ContextVar[bool] = contextvars.ContextVar("_DATE1904", default=False)

#: Functions whose arguments at these positions are dates (moved up), and whether the result is one
#: (moved down). ``"k+"``: position k and after.
DATE_FUNCTIONS: dict[str, tuple[tuple[int | str, ...], bool]] = {
    "DATE": ((), True),
    "DATEVALUE": ((), True),
    "DAY": ((0,), False),
    "MONTH": ((0,), False),
    "YEAR": ((0,), False),
    "WEEKDAY": ((0,), False),
    "WEEKNUM": ((0,), False),
    "ISOWEEKNUM": ((0,), False),
    "EDATE": ((0,), True),
    "EOMONTH": ((0,), True),
    "DATEDIF": ((0, 1), False),
    "DAYS360": ((0, 1), False),
    "YEARFRAC": ((0, 1), False),
    "NETWORKDAYS": ((0, 1, 2), False),
    "NETWORKDAYS.INTL": ((0, 1, 3), False),
    "WORKDAY": ((0, 2), True),
    "WORKDAY.INTL": ((0, 3), True),
}


def is_1904() -> bool:
    """Whether the formula running now belongs to a 1904-date workbook."""
    return _DATE1904.get()


@contextlib.contextmanager
def date_system(date1904: bool) -> Iterator[None]:
    """Within the block, date functions count days as a 1904-date workbook does (when ``date1904``)."""
    token = _DATE1904.set(bool(date1904))
    try:
        yield
    finally:
        _DATE1904.reset(token)


def _each(value: Any, one: Any) -> Any:
    """``one`` applied to a value, or to each item of an array (keeping its type)."""
    import numpy as np

    if isinstance(value, np.ndarray):
        out = np.empty(value.shape, dtype=object)
        for idx, v in np.ndenumerate(value):
            out[idx] = one(v)
        return out.view(type(value))
    return one(value)


def _shift(value: Any, days: int) -> Any:
    """``value`` with its numbers (and blanks, which are day 0) moved by ``days``; text, logicals and
    errors as they are."""
    import numpy as np
    import schedula as sh
    from formulas.functions import XlError

    def one(v: Any) -> Any:
        if v is sh.EMPTY or (type(v) is type(sh.EMPTY) and str(v) == "empty"):
            return float(days) if days > 0 else v
        if isinstance(v, bool | np.bool_ | XlError) or not isinstance(v, int | float | np.number):
            return v
        return float(v) + days

    return _each(value, one)


def from_1900(value: Any) -> Any:
    """A result in 1900 serials as the 1904 workbook's serial (#NUM! below its day 0)."""
    import numpy as np
    from formulas.functions import Error, XlError

    def one(v: Any) -> Any:
        if isinstance(v, bool | np.bool_ | XlError) or not isinstance(v, int | float | np.number):
            return v
        moved = float(v) - DAYS_1904
        return Error.errors["#NUM!"] if moved < 0 else moved

    return _each(value, one)


def _wrap(fn: Any, positions: tuple[int | str, ...], date_out: bool) -> Any:
    def dated(*args: Any) -> Any:
        if not _DATE1904.get():
            return fn(*args)
        moved = []
        for i, a in enumerate(args):
            hit = any(p == i or (isinstance(p, str) and i >= int(p[:-1])) for p in positions)
            moved.append(_shift(a, DAYS_1904) if hit and a is not None else a)
        out = fn(*moved)
        return from_1900(out) if date_out else out

    dated.__name__ = getattr(fn, "__name__", "dated")
    return dated


def patch_date1904() -> None:
    """Wrap the engine's date functions for 1904-date workbooks (a no-op for 1900 workbooks)."""
    import formulas

    fns = formulas.get_functions()
    for name, (positions, date_out) in DATE_FUNCTIONS.items():
        for key in (name, f"_XLFN.{name}"):
            fn = fns.get(key)
            if callable(fn) and getattr(fn, "__name__", "") != "not_implemented":
                fns[key] = _wrap(fn, positions, date_out)

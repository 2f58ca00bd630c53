"""How Excel turns values into numbers, text and comparable pairs, for the engine patches.

Shared by :mod:`_engine_excel`, :mod:`_excel_text` and :mod:`_excel_functions`: text that reads as a
number, a time or a date is one (``to_number``), numbers become text with 15 significant digits
(``as_text``), a blank cell is told from empty text (``is_blank``), comparisons take a blank as the
other side's type (``comparable``), powers follow Excel's errors (``power``).
"""

from __future__ import annotations

import math
from typing import Any

from gridsight.formula._date1904 import DAYS_1904, is_1904
from gridsight.formula._excel_values import (
    date_time_value,
    looks_like_time,
    number_text,
    significant,
    text_value,
)


def as_text(v: Any) -> str:
    import numpy as np

    if isinstance(v, bool | np.bool_):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int | float | np.integer | np.floating):
        return number_text(float(v))
    return str(v)


def _date_shaped(text: str) -> bool:
    """Whether text may be a date for Excel: it starts with a digit or a letter (a month's name) and
    has no space around it. The engine's date parser reads much more (``"--8"`` as the 8th of this
    January, ``" 2024-01-10 "`` as a date), which Excel takes for text (``#VALUE!`` in arithmetic)."""
    return bool(text) and text == text.strip() and text[0].isalnum() and any(ch.isdigit() for ch in text)


def to_number(v: Any) -> float:
    """Excel's arithmetic view of a value: text that reads as a number or a date is one; other text
    raises ValueError (``#VALUE!``)."""
    if isinstance(v, str):
        n = text_value(v)
        if n is not None:
            return n
        if looks_like_time(v):
            raise ValueError(v)  # a time out of range ("24:99") is text
        stamp = date_time_value(v)
        if stamp is not None:
            return stamp - (DAYS_1904 if is_1904() else 0)
        from formulas.functions import _text2num

        if not _date_shaped(v):
            raise ValueError(v)
        converted = _text2num(v)
        if isinstance(converted, str):
            raise ValueError(v)
        return float(converted) - (DAYS_1904 if is_1904() else 0)  # date text: the workbook's serial
    return float(v)


def numbers_in_order(*values: Any, blank: float = 0.0) -> Any:
    """Number arguments read as Excel reads them, left to right: a blank is ``blank``, a logical 1 or 0,
    text that reads as a number or a date that number; the first error value, or text that is no
    number (``#VALUE!``), ends the reading and is returned instead of the list. So
    ``FLOOR("eight",NA())`` is ``#VALUE!`` (its first argument fails first), ``FLOOR(NA(),"x")``
    ``#N/A``."""
    import numpy as np
    from formulas.functions import Error, XlError

    out: list[float] = []
    for v in values:
        if isinstance(v, np.ndarray):
            v = single(v, blank)
        if isinstance(v, XlError):
            return v
        if is_blank(v):
            out.append(blank)
            continue
        if isinstance(v, bool | np.bool_):
            out.append(float(v))
            continue
        try:
            out.append(to_number(v))
        except (TypeError, ValueError):
            return Error.errors["#VALUE!"]
    return out


def is_blank(v: Any) -> bool:
    import schedula as sh

    return v is None or v is sh.EMPTY or (type(v) is type(sh.EMPTY) and str(v) == "empty")


def numeric(fn: Any) -> Any:
    from formulas.functions import wrap_ufunc

    return wrap_ufunc(fn, input_parser=lambda *a: map(to_number, a))


def is_number(v: Any) -> bool:
    import numpy as np
    from formulas.functions import XlError

    return isinstance(v, int | float | np.number) and not isinstance(v, bool | np.bool_ | XlError)


def snapped(side: Any) -> Any:
    type_id, v = side
    if isinstance(v, int | float) and not isinstance(v, bool):
        return type_id, significant(float(v))
    return side


def comparable(x: Any, y: Any) -> tuple[Any, Any]:
    """Both sides as the engine's (type id, value) pairs, a blank taking the other side's type: ``""``
    beside text, FALSE beside a logical, 0 otherwise."""
    import numpy as np
    import schedula as sh
    from formulas.functions.operators import logic_input_parser

    def blank_as(other: Any) -> Any:
        if isinstance(other, bool | np.bool_):
            return False
        return sh.EMPTY

    if x is sh.EMPTY and y is not sh.EMPTY:
        x = blank_as(y)
    if y is sh.EMPTY and x is not sh.EMPTY:
        y = blank_as(x)
    return logic_input_parser(x, y)


def power(base: float, exponent: float) -> Any:
    """``^`` and POWER: ``0^0`` is #NUM!, ``0^-1`` #DIV/0!, a negative base to a fraction #NUM!."""
    from formulas.functions import Error

    if base == 0 and exponent == 0:
        return Error.errors["#NUM!"]
    if base == 0 and exponent < 0:
        return Error.errors["#DIV/0!"]
    try:
        out = base**exponent
    except OverflowError:
        return Error.errors["#NUM!"]
    if isinstance(out, complex) or not math.isfinite(out):
        return Error.errors["#NUM!"]
    return out


def single(v: Any, blank: Any = 0.0) -> Any:
    """The one value of an argument: a 1x1 array's item (an empty array or a blank cell: ``blank``)."""
    import numpy as np

    if isinstance(v, np.ndarray):
        v = v.ravel()[0] if v.size else blank
    return blank if is_blank(v) else v

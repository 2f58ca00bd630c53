"""Functions the `formulas` engine gets wrong or lacks, as Excel documents and saves them.

* ``patch_functions``: DATEDIF's lower-case units, MROUND's
  halves, POWER's errors, QUOTIENT, COMBIN, DOLLAR, BAHTTEXT, PERCENTOF;
* ``patch_index``: INDEX's row or column 0, one number for a range, negative numbers;
* ``patch_isnumber``: ISNUMBER of text is FALSE;
* ``patch_workday``: WORKDAY(.INTL) from a weekend day or a holiday;
* ``patch_lookups``: ``#CALC!``/``#SPILL!``, FILTER with no match, XLOOKUP of whole rows, LOOKUP's
  array form, VLOOKUP/HLOOKUP index below 1;
* ``patch_complex_text``: complex numbers as text with 15 significant digits;
* ``patch_logic``: AND/OR/XOR skipping text, SWITCH ignoring case, N, TYPE, ISEVEN/ISODD, TIMEVALUE;
* ``patch_yearfrac``: YEARFRAC's day counts.
"""

from __future__ import annotations

import math
import re
from typing import Any

from gridsight.formula._excel_coerce import comparable, is_blank, is_number, power, single, snapped, to_number
from gridsight.formula._excel_lookup import patch_xlookup
from gridsight.formula._excel_values import (
    excel_round,
    looks_like_time,
    number_text,
    significant,
    text_number,
    time_text,
)


def _quotient(numerator: float, denominator: float) -> Any:
    from formulas.functions import Error

    if denominator == 0:
        return Error.errors["#DIV/0!"]
    return float(math.trunc(numerator / denominator))


def _combin(n: float, k: float) -> Any:
    from formulas.functions import Error

    n, k = math.trunc(n), math.trunc(k)
    if n < 0 or k < 0 or k > n:
        return Error.errors["#NUM!"]
    return float(math.comb(n, k))


def _dollar(number: float, decimals: float = 2) -> str:
    d = int(decimals)
    value = excel_round(number, d)
    body = f"{abs(value):,.{max(d, 0)}f}"
    return f"(${body})" if value < 0 else f"${body}"


def _mround(number: float, multiple: float) -> Any:
    """MROUND: to the nearest multiple, halves away from zero (``MROUND(2.5,1)`` is 3); #NUM! when the
    signs differ."""
    from formulas.functions import Error

    if multiple == 0:
        return 0.0
    if (number < 0 < multiple) or (multiple < 0 < number):
        return Error.errors["#NUM!"]
    return excel_round(number / multiple, 0) * multiple


_THAI_DIGITS = ("ศูนย์", "หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า")
_THAI_PLACES = ((100000, "แสน"), (10000, "หมื่น"), (1000, "พัน"), (100, "ร้อย"))


def _thai_block(n: int) -> str:
    """1..999999 in Thai words: 21 is ยี่สิบเอ็ด (20 is ยี่สิบ, a final 1 after tens is เอ็ด)."""
    out = []
    for size, word in _THAI_PLACES:
        if n >= size:
            out.append(_THAI_DIGITS[n // size] + word)
            n %= size
    tens, ones = divmod(n, 10)
    if tens:
        out.append(("" if tens == 1 else "ยี่" if tens == 2 else _THAI_DIGITS[tens]) + "สิบ")
    if ones:
        out.append("เอ็ด" if tens and ones == 1 else _THAI_DIGITS[ones])
    return "".join(out)


def _bahttext(number: float) -> str:
    """BAHTTEXT: a number as Thai baht in words (``BAHTTEXT(65.8)`` is หกสิบห้าบาทแปดสิบสตางค์; ถ้วน
    means no satang), in blocks of six digits joined by ล้าน (million)."""
    value = excel_round(abs(number), 2)
    baht = int(value)
    satang = round((value - baht) * 100)
    text = ""
    if baht == 0:
        text = "ศูนย์" if satang == 0 else ""
    while baht > 0:
        baht, block = divmod(baht, 1000000)
        text = ("ล้าน" if baht > 0 else "") + (_thai_block(block) if block else "") + text
    if text:
        text += "บาท"
    text += "ถ้วน" if satang == 0 else _thai_block(satang) + "สตางค์"
    return ("ลบ" if number < 0 and value > 0 else "") + text


def patch_functions() -> None:
    """Functions the engine gets wrong or lacks:

    * DATEDIF's unit in lower case (``"d"``, the engine: #NUM!), and an error argument given back
      before the dates are checked (``DATEDIF(2,1,NA())`` is #N/A, the engine: #NUM!);
    * QUOTIENT, COMBIN and DOLLAR, which it lacks (``DOLLAR(-1234.567)`` is ``($1,234.57)``);
    * BAHTTEXT, which it lacks (``BAHTTEXT(157)`` is หนึ่งร้อยห้าสิบเจ็ดบาทถ้วน, LibreOffice's reading of
      Excel's rules);
    * PERCENTOF (Excel 365), which it lacks: the sum of a subset over the sum of all
      (``PERCENTOF(A1,A1:A3)`` is 1/6 for 1, 2, 3), skipping text and logicals in ranges; an error
      in either is ``#NUM!`` (as Excel saves it)."""
    import formulas
    from formulas.functions import wrap_ufunc

    fns = formulas.get_functions()
    for name, fn in (
        ("QUOTIENT", _quotient),
        ("COMBIN", _combin),
        ("DOLLAR", _dollar),
        ("BAHTTEXT", _bahttext),
        ("POWER", power),
    ):
        fns[name] = fns[f"_XLFN.{name}"] = wrap_ufunc(fn)

    def percentof(subset: Any, total: Any) -> Any:
        import numpy as np
        from formulas.functions import Error, XlError

        sums = []
        for arg in (subset, total):
            items = np.asarray(arg, dtype=object).ravel()
            if any(isinstance(v, XlError) for v in items):
                return Error.errors["#NUM!"]  # Excel saves #NUM! for an error in either range
            sums.append(sum(float(v) for v in items if is_number(v)))
        return Error.errors["#DIV/0!"] if sums[1] == 0 else sums[0] / sums[1]

    fns["PERCENTOF"] = fns["_XLFN.PERCENTOF"] = percentof
    datedif = fns["DATEDIF"]

    def datedif_any_case(start: Any, end: Any, unit: Any) -> Any:
        import numpy as np
        from formulas.functions import XlError

        for arg in (start, end, unit):  # an error argument comes before any check of the dates
            first_value = np.asarray(arg, dtype=object).ravel()[:1] if isinstance(arg, np.ndarray) else [arg]
            if len(first_value) and isinstance(first_value[0], XlError):
                return first_value[0]
        if isinstance(unit, str):
            unit = unit.upper()
        elif isinstance(unit, np.ndarray):
            unit = np.vectorize(lambda u: u.upper() if isinstance(u, str) else u, otypes=[object])(unit)
        return datedif(start, end, unit)

    fns["DATEDIF"] = datedif_any_case


def _whole_line(array: Any, row: Any, col: Any) -> Any:
    """INDEX's row or column 0: the whole column (``INDEX(A1:C3,0,2)``), row (``INDEX(A1:C3,2,0)``) or
    array (both 0), or ``INDEX(A1:C3,2)`` of a range of several rows and columns (its row 2); None when
    neither argument asks for a whole line (or they are not plain numbers)."""
    import numpy as np
    from formulas.functions import Array, Error

    def number(v: Any) -> float | None:
        if isinstance(v, np.ndarray):
            if v.size != 1:
                return None
            v = v.ravel()[0]
        if isinstance(v, bool | np.bool_) or not isinstance(v, int | float | np.number):
            return None
        return float(v)

    if not isinstance(array, np.ndarray) or array.ndim != 2:
        return None
    r = number(row)
    c = number(col) if col is not None else None
    if r is None or (col is not None and c is None):
        return None
    h, w = array.shape
    if r < 0 or (c is not None and c < 0):
        return Error.errors["#VALUE!"]
    if col is None:
        if h == 1 or w == 1:
            return None if r != 0 else array.view(Array)
        if r == 0:
            return array.view(Array)
        if type(array) is np.ndarray:  # a range read from cells: a reference needs both numbers
            return Error.errors["#REF!"]
        c, col_all = 0.0, True  # a row of a two-dimensional array
    else:
        col_all = c == 0
    if r != 0 and not col_all:
        return None
    assert c is not None  # col's number, or 0.0 for a row of a two-dimensional array
    r_i, c_i = int(r) - 1, int(c) - 1
    if r_i >= h or c_i >= w:
        return Error.errors["#REF!"]
    rows = slice(None) if r == 0 else slice(r_i, r_i + 1)
    cols = slice(None) if col_all else slice(c_i, c_i + 1)
    return np.asarray(array[rows, cols], dtype=object).view(Array)


def patch_index() -> None:
    """INDEX with row 0 gives the whole column and with column 0 the whole row: ``SUM(INDEX(A1:C3,0,3))``
    is the total of C1:C3 and ``INDEX(A1:C3,2,0)`` is row 2 (the engine read 0 as 1: C1 alone). With
    only a row number, an array of several rows and columns gives that whole row, a range of cells
    ``#REF!`` (as Excel saves ``INDEX(C52:E53,2)``); a negative number is ``#VALUE!``."""
    import formulas

    entry = formulas.get_functions()["INDEX"]
    original = entry["function"]

    def index(compiling: Any, array: Any, row: Any = None, col: Any = None, *rest: Any) -> Any:
        if not compiling and not rest and row is not None:
            line = _whole_line(array, row, col)
            if line is not None:
                return line
        args = [a for a in (array, row, col, *rest)]
        while len(args) > 1 and args[-1] is None:
            args.pop()
        return original(compiling, *args)

    entry["function"] = index


def patch_isnumber() -> None:
    """ISNUMBER is TRUE for numbers only: ``ISNUMBER("5")`` and ISNUMBER of a cell holding the text
    ``5`` are FALSE (the engine: TRUE, it tried ``float()`` on text)."""
    import functools

    import formulas
    from formulas.functions import wrap_ranges_func
    from formulas.functions.info import FalseArray, iserror

    formulas.get_functions()["ISNUMBER"] = wrap_ranges_func(
        functools.partial(iserror, check=is_number, array=FalseArray)
    )


#: WORKDAY.INTL's weekend numbers as numpy week masks (Monday first, 1 = a working day).
_WEEKENDS = {
    1: "1111100",
    2: "0111110",
    3: "0011111",
    4: "1001111",
    5: "1100111",
    6: "1110011",
    7: "1111001",
    **{11 + i: "".join("0" if d == (6 + i) % 7 else "1" for d in range(7)) for i in range(7)},
}


def _workday_intl(start_date: Any, days: Any, weekend: Any = 1, holidays: Any = ()) -> Any:
    """WORKDAY.INTL counting working days after ``start_date``, which may itself be a weekend day or
    a holiday (the engine: #VALUE!, numpy refuses such a start)."""
    import datetime as dt

    import numpy as np
    from formulas.functions import Error, FoundError, raise_errors
    from formulas.functions.date import xdate, xday

    raise_errors(start_date)
    start = dt.date(*xday(start_date, slice(0, 3)))
    raise_errors(days)
    n = math.trunc(to_number(days))
    if isinstance(weekend, bool | int | float):
        mask = _WEEKENDS.get(int(weekend))
        if mask is None:
            raise FoundError(err=Error.errors["#NUM!"])
    elif isinstance(weekend, str) and re.fullmatch("[01]{7}", weekend) and weekend != "1111111":
        mask = "".join("1" if v == "0" else "0" for v in weekend)
    else:
        raise FoundError(err=Error.errors["#VALUE!" if isinstance(weekend, str) else "#NUM!"])
    if n == 0:
        end = start
    else:  # from the nearest working day on the side away from the count: the same days follow
        end = np.busday_offset(
            start, n, roll="backward" if n > 0 else "forward", weekmask=mask, holidays=list(holidays)
        ).astype("O")
    return xdate(end.year, end.month, end.day)


def patch_workday() -> None:
    """WORKDAY and WORKDAY.INTL from a start date on a weekend or a holiday: ``WORKDAY(Saturday,1)`` is
    the Monday after, ``WORKDAY(Saturday,-1)`` the Friday before, ``WORKDAY(d,0)`` is ``d`` (the engine:
    #VALUE! for any such start). An empty weekend (``WORKDAY.INTL(d,24,,holidays)``) is the default,
    written in before the engine runs (``_excel_regression.omitted_defaults``)."""
    import formulas
    from formulas.functions import wrap_ufunc
    from formulas.functions.date import args_xworkday_intl

    fns = formulas.get_functions()
    common = {"input_parser": lambda *a: a, "check_error": lambda *a: None, "excluded": {3}}
    fns["WORKDAY.INTL"] = fns["_XLFN.WORKDAY.INTL"] = wrap_ufunc(
        _workday_intl, args_parser=args_xworkday_intl, **common
    )
    fns["WORKDAY"] = wrap_ufunc(
        _workday_intl,
        args_parser=lambda start_date, days, hdays=(): args_xworkday_intl(start_date, days, 1, hdays, True),
        **common,
    )


def patch_lookups() -> None:
    """Lookups as Excel 365 gives them:

    * ``#CALC!`` and ``#SPILL!`` are error values (the engine knew only the eight older ones), and
      FILTER with no match and no ``if_empty`` is ``#CALC!`` (the engine: #VALUE!);
    * FILTER's include must be a row as wide as the array or a column as tall (#VALUE! otherwise; the
      engine repeated a single value);
    * XLOOKUP and XMATCH as :mod:`_excel_lookup` writes them (modes, binary search, sizes, blanks);
      several return columns give the whole matched row: ``XLOOKUP(2,A1:A3,A1:C3)`` is A2:C2 (the
      engine flattened the return array and gave one cell);
    * VLOOKUP and HLOOKUP with a column or row index below 1 are ``#VALUE!`` (the engine: a value);
    * LOOKUP's array form searches the first row of an array wider than tall, else the first column,
      and gives the last row's or column's value (``LOOKUP(2,A1:C3)`` is C2); its vector form searches
      a two-dimensional lookup vector the same way (``LOOKUP(2,A1:B3,C1:C3)`` is C2; the engine:
      #VALUE!) and a result vector of several rows and columns is ``#N/A``."""
    import formulas
    import numpy as np
    from formulas.functions import Array, Error, XlError
    from formulas.tokens.operand import Error as ErrorToken

    for code in ("#CALC!", "#SPILL!"):
        if code not in ErrorToken.errors:
            ErrorToken.errors[code] = XlError(code)
    errors = Error.errors
    fns = formulas.get_functions()

    filter_fn = fns["FILTER"]

    def filter_calc(array: Any, include: Any, if_empty: Any = errors["#CALC!"]) -> Any:
        shape, kept = np.shape(array), np.shape(include)
        if len(shape) == 2 and len(kept) == 2 and shape != (1, 1):
            h, w = shape  # include: a row as wide as the array, or a column as tall
            if kept not in ((1, w), (h, 1)):
                return errors["#VALUE!"]
        return filter_fn(array, include, if_empty)

    for key in ("FILTER", "_XLFN.FILTER", "_XLFN._XLWS.FILTER"):
        fns[key] = filter_calc

    def first(v: Any) -> Any:
        return v.ravel()[0] if isinstance(v, np.ndarray) and v.size else v

    patch_xlookup(fns)

    lookup = fns["LOOKUP"]

    def lookup_array_form(value: Any, array: Any, *result: Any) -> Any:
        from formulas.functions import Error

        if result and isinstance(result[0], np.ndarray) and result[0].ndim == 2 and min(result[0].shape) > 1:
            return Error.errors["#N/A"]  # a result vector is one row or one column
        if isinstance(array, np.ndarray) and array.ndim == 2 and min(array.shape) > 1:
            h, w = array.shape  # wider than tall: search the first row, else the first column
            keys = array[:1, :] if w > h else array[:, :1]
            if not result:  # the array form: the last row's or column's value
                result = ((array[-1:, :] if w > h else array[:, -1:]).view(Array),)
            return lookup(value, keys.view(Array), *result)
        return lookup(value, array, *result)

    fns["LOOKUP"] = lookup_array_form

    for name in ("VLOOKUP", "HLOOKUP"):
        original = fns[name]

        def checked(value: Any, table: Any, index: Any, *rest: Any, _original: Any = original) -> Any:
            i = first(index)
            if isinstance(i, int | float) and not isinstance(i, bool) and i < 1:
                return errors["#VALUE!"]
            return _original(value, table, index, *rest)

        fns[name] = checked


def complex_text(real: float, imaginary: float, suffix: str = "i") -> str:
    """A complex number as Excel writes it (COMPLEX, IMSUM, IMEXP...): each part with 15 significant
    digits, ``i`` alone for a coefficient of 1, no zero parts: ``1.11340206185567+1.49484536082474i``
    (the engine wrote Python's 17 digits); a part below 1 in decimals while they fit in 21 characters,
    else in scientific notation."""
    from formulas.functions import Error, FoundError

    if not (math.isfinite(real) and math.isfinite(imaginary)):
        raise FoundError(err=Error.errors["#NUM!"])
    real, imaginary = significant(real), significant(imaginary)

    def part(x: float) -> str:
        if x == 0 or abs(x) >= 1:
            return number_text(x)
        # below 1: the decimal digits while they fit in 21 characters (0.0000692442674613868,
        # 0.000000000000000001), else scientific (1.28233995888454E-06, 1E-20)
        mantissa, exponent = f"{abs(x):.14e}".split("e")
        digits = mantissa.replace(".", "").rstrip("0")
        e = int(exponent)
        decimal = "0." + "0" * (-e - 1) + digits
        sign = "-" if x < 0 else ""
        if len(decimal) <= 21:
            return sign + decimal
        short = mantissa.rstrip("0").rstrip(".")
        return f"{sign}{short}E-{-e:02d}"

    if imaginary == 0:
        return part(real)
    coefficient = "" if abs(imaginary) == 1 else part(abs(imaginary))
    sign = "-" if imaginary < 0 else ("+" if real != 0 else "")
    return (part(real) if real != 0 else "") + sign + coefficient + suffix


def patch_complex_text() -> None:
    """Complex results as text with 15 significant digits (the engine's helper ``_fmt_complex``, looked
    up at call time by every IM... function, is replaced)."""
    import formulas.functions.eng as eng

    eng._fmt_complex = lambda r, i, suffix="j": complex_text(float(r), float(i), suffix)


def _excel_equal(a: Any, b: Any) -> bool:
    """Excel's ``=``: the same type, text ignoring case, numbers on 15 significant digits."""
    (ta, va), (tb, vb) = comparable(a, b)
    return bool(ta == tb and snapped((ta, va))[1] == snapped((tb, vb))[1])


def _switch(value: Any, *pairs: Any) -> Any:
    """SWITCH comparing as ``=`` does, text ignoring case (``SWITCH("UPPER","Upper","match")`` is
    ``match``; the engine compared case-sensitively)."""
    from formulas.functions import Error, XlError

    if isinstance(value, XlError):
        return value
    for key, result in zip(pairs[::2], pairs[1::2], strict=False):
        if isinstance(key, XlError):
            return key
        if _excel_equal(value, key):
            return result
    return pairs[-1] if len(pairs) % 2 else Error.errors["#N/A"]


def _n(value: Any) -> Any:
    """N: a number is itself, TRUE 1, FALSE 0, text 0, an error itself (the engine: TRUE stayed TRUE)."""
    import numpy as np
    from formulas.functions import XlError

    if isinstance(value, np.ndarray):
        value = value.ravel()[0] if value.size else 0.0
    if isinstance(value, XlError):
        return value
    if isinstance(value, bool | np.bool_):
        return float(bool(value))
    if isinstance(value, int | float | np.number):
        return float(value)
    return 0.0


def _even_odd(value: Any, odd: bool) -> Any:
    """ISEVEN / ISODD: of the number's integer part; text that is no number and logicals are
    #VALUE! (the engine raised on such text)."""
    import numpy as np
    from formulas.functions import Error, XlError

    if isinstance(value, np.ndarray):
        value = value.ravel()[0] if value.size else 0.0
    if isinstance(value, XlError):
        return value
    if isinstance(value, bool | np.bool_):
        return Error.errors["#VALUE!"]
    try:
        number = 0.0 if is_blank(value) else to_number(value)
    except (TypeError, ValueError):
        return Error.errors["#VALUE!"]
    return (math.trunc(number) % 2 == 1) == odd


def _timevalue(text: Any, original: Any) -> Any:
    """TIMEVALUE: the time of day in a text; a plain number as text is #VALUE! (the engine: 0)."""
    import numpy as np
    from formulas.functions import Error, XlError

    if isinstance(text, np.ndarray):
        text = text.ravel()[0] if text.size else ""
    if isinstance(text, XlError):
        return text
    if not isinstance(text, str) or is_blank(text) or text_number(text) is not None:
        return Error.errors["#VALUE!"]
    number = time_text(text)
    if number is not None:
        return number - math.floor(number)
    if looks_like_time(text):
        return Error.errors["#VALUE!"]
    return original(text)


def _type(value: Any) -> Any:
    """TYPE: 1 number (a blank cell too), 2 text, 4 logical, 16 error, 64 an array of several values."""
    import numpy as np
    from formulas.functions import XlError

    if isinstance(value, np.ndarray):
        if value.size != 1:
            return 64.0
        value = value.ravel()[0]
    if isinstance(value, XlError):
        return 16.0
    if isinstance(value, bool | np.bool_):
        return 4.0
    if isinstance(value, str) and not is_blank(value):
        return 2.0
    return 1.0


def _logical(kind: str, *args: Any) -> Any:
    """AND, OR, XOR: text and blanks are skipped (a value typed as an argument counts when it is a
    number, a logical or the text TRUE/FALSE: Excel saves TRUE for ``AND(TRUE,"0")``), an error value
    is the result; no logical value at all is #VALUE!."""
    import numpy as np
    from formulas.functions import Error, XlError

    seen: list[bool] = []
    for a in args:
        if isinstance(a, np.ndarray):
            for v in a.ravel():
                if isinstance(v, XlError):
                    return v
                if isinstance(v, bool | np.bool_) or is_number(v):
                    seen.append(bool(v))
            continue
        if is_blank(a):
            continue
        if isinstance(a, XlError):
            return a
        if isinstance(a, str):
            if a.upper() in ("TRUE", "FALSE"):
                seen.append(a.upper() == "TRUE")
        else:
            seen.append(bool(a))
    if not seen:
        return Error.errors["#VALUE!"]
    if kind == "AND":
        return all(seen)
    if kind == "OR":
        return any(seen)
    return sum(seen) % 2 == 1


def patch_logic() -> None:
    """AND, OR, XOR, SWITCH, N, TYPE, ISEVEN, ISODD and TIMEVALUE as Excel compares and converts;
    IF and NOT read the text TRUE or FALSE as that logical (``IF("TRUE",1,2)`` is 1)."""
    import formulas
    from formulas.functions import get_error, wrap_func, wrap_ufunc

    fns = formulas.get_functions()
    for kind in ("AND", "OR", "XOR"):
        fns[kind] = fns[f"_XLFN.{kind}"] = wrap_func(lambda *a, _kind=kind: _logical(_kind, *a))
    fns["TYPE"] = _type  # errors are its argument, not its result: no wrapper that raises them
    fns["ISEVEN"] = wrap_func(lambda v: _even_odd(v, odd=False))
    fns["ISODD"] = wrap_func(lambda v: _even_odd(v, odd=True))
    timevalue = fns["TIMEVALUE"]
    fns["TIMEVALUE"] = wrap_func(lambda text: _timevalue(text, timevalue))
    fns["SWITCH"] = fns["_XLFN.SWITCH"] = {
        "function": wrap_ufunc(
            _switch, input_parser=lambda *a: a, check_error=lambda first, *a: get_error(first)
        )
    }
    fns["N"] = wrap_func(_n)
    if isinstance(fns.get("IF"), dict):  # IF keeps the engine's cycle solver beside its function
        fns["IF"] = {
            **fns["IF"],
            "function": wrap_ufunc(
                _if, input_parser=lambda *a: a, check_nan=False, check_error=lambda c, *a: get_error(c)
            ),
        }
    fns["NOT"] = {"function": wrap_ufunc(_not, input_parser=lambda *a: a)}


def _truth(v: Any) -> Any:
    """A condition's logical: the text TRUE or FALSE (any case) is that logical, other text
    ``#VALUE!`` (None here); numbers and logicals as they are."""
    from formulas.functions import XlError

    if isinstance(v, str) and not isinstance(v, XlError):
        return {"TRUE": True, "FALSE": False}.get(v.upper())
    return v


def _if(condition: Any, x: Any, y: Any = False) -> Any:
    """IF: ``IF("TRUE",1,2)`` is 1 (the engine: #VALUE!); other text is #VALUE!."""
    from formulas.functions import Error

    truth = _truth(condition)
    if truth is None:
        return Error.errors["#VALUE!"]
    return x if truth else y


def _not(value: Any) -> Any:
    """NOT: ``NOT("TRUE")`` is FALSE; other text is #VALUE!."""
    from formulas.functions import Error

    truth = _truth(value)
    if truth is None:
        return Error.errors["#VALUE!"]
    return not truth if not is_blank(truth) else True


def _serial_ymd(serial: int) -> tuple[int, int, int]:
    """A serial as (year, month, day) of Excel's 1900 calendar: 0 is 1900-01-00, 60 is 1900-02-29."""
    import datetime as dt

    if serial == 0:
        return 1900, 1, 0
    if serial == 60:
        return 1900, 2, 29
    day = dt.date(1899, 12, 30 if serial > 60 else 31) + dt.timedelta(days=serial)
    return day.year, day.month, day.day


def _feb_end(y: int, m: int, d: int) -> bool:
    import calendar

    return m == 2 and d == (29 if y == 1900 else calendar.monthrange(y, 2)[1])


def _days360(d1: tuple[int, int, int], d2: tuple[int, int, int], us: bool) -> float:
    (y1, m1, day1), (y2, m2, day2) = d1, d2
    if not us:
        day1, day2 = min(day1, 30), min(day2, 30)
    elif day1 == 31 and day2 == 31:
        day1 = day2 = 30
    elif day1 == 31:
        day1 = 30
    elif day1 == 30 and day2 == 31:
        day2 = 30
    elif _feb_end(*d1) and _feb_end(*d2):
        day1 = day2 = 30
    elif _feb_end(*d1):
        day1 = 30
    return float((y2 - y1) * 360 + (m2 - m1) * 30 + (day2 - day1))


def _yearfrac(start_date: Any, end_date: Any, basis: Any = 0) -> Any:
    """YEARFRAC as Excel counts (the rules D. A. Wheeler worked out against Excel): US 30/360 with
    its end-of-February rules (basis 0), actual/actual over the years spanned (1), actual/360 (2),
    actual/365 (3), European 30/360 (4); the basis is checked first; serial 0 is 1900-01-00."""
    import calendar

    from formulas.functions import Error, XlError

    values = []
    for v in map(single, (basis, start_date, end_date)):
        if isinstance(v, XlError):
            return v
        if isinstance(v, bool):
            return Error.errors["#VALUE!"]
        try:
            values.append(math.trunc(to_number(v)))
        except (TypeError, ValueError):
            return Error.errors["#VALUE!"]
        if not (0 <= values[0] <= 4) or not 0 <= values[-1] <= 2958465:
            return Error.errors["#NUM!"]
    b, start, end = values
    if start > end:
        start, end = end, start
    d1, d2 = _serial_ymd(start), _serial_ymd(end)
    days = float(end - start)
    if b in (0, 4):
        return _days360(d1, d2, us=b == 0) / 360
    if b == 2:
        return days / 360
    if b == 3:
        return days / 365
    (y1, m1, day1), (y2, m2, day2) = d1, d2

    def leap(y: int) -> bool:
        return y == 1900 or calendar.isleap(y)

    if y1 == y2 or (y2 == y1 + 1 and (m1 > m2 or (m1 == m2 and day1 >= day2))):
        feb29 = (leap(y1) and (m1, day1) < (3, 1)) or (leap(y2) and (m2, day2) >= (3, 1))
        length = 366.0 if (y1 == y2 and leap(y1)) or feb29 else 365.0
        return days / length
    span = sum(366 if leap(y) else 365 for y in range(y1, y2 + 1))
    return days / (span / (y2 - y1 + 1))


def _days360_function(start_date: Any, end_date: Any, method: Any = False) -> Any:
    """DAYS360: a start on the last day of its month (February's too) is the 30th; an end on the 31st
    is the 30th when the start is the 30th or later (else it counts as the 1st of the next month);
    ``method`` TRUE: the European rule, any 31st is the 30th. Negative when the end comes first."""
    import calendar

    from formulas.functions import Error, XlError

    values = [single(v) for v in (start_date, end_date, method)]
    for v in values:
        if isinstance(v, XlError):
            return v
    try:
        start, end = (math.trunc(to_number(v)) for v in values[:2])
    except (TypeError, ValueError):
        return Error.errors["#VALUE!"]
    european = bool(values[2]) if not isinstance(values[2], str) else values[2].upper() == "TRUE"
    if not (0 <= start <= 2958465 and 0 <= end <= 2958465):
        return Error.errors["#NUM!"]
    (y1, m1, day1), (y2, m2, day2) = _serial_ymd(start), _serial_ymd(end)
    if european:
        day1, day2 = min(day1, 30), min(day2, 30)
    else:
        last = 29 if (y1, m1) == (1900, 2) else calendar.monthrange(y1, m1)[1] if day1 else 0
        if day1 == last:
            day1 = 30
        if day2 == 31 and day1 >= 30:
            day2 = 30
    return float((y2 - y1) * 360 + (m2 - m1) * 30 + (day2 - day1))


def patch_yearfrac() -> None:
    """YEARFRAC as Excel counts: ``YEARFRAC(DATE(2024,1,31),DATE(2025,1,31),1)`` is 1 (the engine:
    0.9986), US 30/360 month ends, #NUM! for a basis outside 0-4; DAYS360 from the last day of
    February (``DAYS360(DATE(2024,2,29),DATE(2024,3,31))`` is 30; the engine: 31)."""
    import formulas
    from formulas.functions import wrap_func

    fns = formulas.get_functions()
    fns["YEARFRAC"] = fns["_XLFN.YEARFRAC"] = wrap_func(_yearfrac)
    fns["DAYS360"] = fns["_XLFN.DAYS360"] = wrap_func(_days360_function)

"""Math and engineering functions as Excel computes them, where the `formulas` engine differs.

* ``patch_rounding_steps``: FLOOR, CEILING, FLOOR.PRECISE, CEILING.PRECISE, ISO.CEILING, FLOOR.MATH
  and CEILING.MATH: arguments read left to right as Excel reads numbers (date text, logicals, the
  first error), the quotient taken on 15 significant digits (``FLOOR(7.1,0.1)`` is 7.1, not 7), and
  Excel's zero and sign rules;
* ``patch_complex``: COMPLEX with a blank suffix, IMARGUMENT of an imaginary number;
* ``patch_bases``: BIN2DEC ... HEX2OCT with negative numbers, places and text as Excel reads them;
* ``patch_gcd_lcm``: GCD and LCM over references with blanks, fractions and text;
* COMBINA, which the engine lacks;
* ``patch_number_text``: text read as a number by ABS, INT, EXP, SIN... (date text, ``"1,234"``);
* ``patch_poisson``: POISSON.DIST truncates the number of events.

Each is registered by :func:`patch_math` (from :func:`gridsight.formula._engine_excel.patch_all`) and
tested in ``tests/formula/test_excel_math.py``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from gridsight.formula._excel_coerce import numbers_in_order
from gridsight.formula._excel_values import significant


def _error(code: str) -> Any:
    from formulas.functions import Error

    return Error.errors[code]


def _quotient(number: float, step: float) -> float:
    """``number / step`` on 15 significant digits: 7.1/0.1 is 70.99999999999999 in binary, 71 for Excel.
    A quotient past the largest number raises OverflowError (checked before dividing, so that no
    floating-point flag is left for numpy to warn of)."""
    if abs(step) < 1 and abs(number) > abs(step) * sys.float_info.max:
        raise OverflowError(number)
    return significant(number / step)


def _floor(number: float, significance: float) -> Any:
    """FLOOR: toward minus infinity for a positive significance (a negative number goes away from zero),
    toward zero for a negative one; ``FLOOR(0,0)`` is 0, another number over 0 ``#DIV/0!``, a positive
    number over a negative significance ``#NUM!``."""
    if significance == 0:
        return 0.0 if number == 0 else _error("#DIV/0!")
    if number > 0 > significance:
        return _error("#NUM!")
    return math.floor(_quotient(number, significance)) * significance


def _ceiling(number: float, significance: float) -> Any:
    """CEILING: the mirror of FLOOR; a significance of 0 gives 0."""
    if significance == 0 or number == 0:
        return 0.0
    if number > 0 > significance:
        return _error("#NUM!")
    return math.ceil(_quotient(number, significance)) * significance


def _precise(up: bool) -> Callable[..., Any]:
    """FLOOR.PRECISE / CEILING.PRECISE / ISO.CEILING: to a multiple of |significance| toward minus
    (plus) infinity whatever the signs; a significance of 0 gives 0."""

    def fn(number: float, significance: float = 1.0) -> Any:
        step = abs(significance)
        if step == 0 or number == 0:
            return 0.0
        q = _quotient(number, step)
        return (math.ceil(q) if up else math.floor(q)) * step

    return fn


def _math(up: bool) -> Callable[..., Any]:
    """CEILING.MATH / FLOOR.MATH: like the PRECISE forms; a negative number with a non-zero ``mode``
    goes the other way (away from zero for CEILING, toward zero for FLOOR)."""

    def fn(number: float, significance: float = 1.0, mode: float = 0.0) -> Any:
        step = abs(significance)
        if step == 0 or number == 0:
            return 0.0
        q = _quotient(number, step)
        towards_plus = up != bool(number < 0 and mode)
        return (math.ceil(q) if towards_plus else math.floor(q)) * step

    return fn


def _numeric(fn: Callable[..., Any], blank: float = 0.0) -> Callable[..., Any]:
    """``fn`` over its arguments read by :func:`numbers_in_order` (an error or text that is no number
    is the result); a result past the largest number is ``#NUM!``."""

    def reading(*args: Any) -> Any:
        values = numbers_in_order(*args, blank=blank)
        if not isinstance(values, list):
            return values
        try:
            out = fn(*values)
        except OverflowError:  # a quotient past the largest number
            return _error("#NUM!")
        if isinstance(out, float) and not math.isfinite(out):
            return _error("#NUM!")
        return out

    reading.__name__ = fn.__name__
    return reading


def single_values(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` of single values: a range of several cells is #VALUE! (as the engine's own COMPLEX and
    DEC2BIN gave, and Excel where the formula's cell meets no cell of it), a cell its value."""

    def one(*args: Any) -> Any:
        values = []
        for a in args:
            if isinstance(a, np.ndarray):
                if a.size != 1:
                    return _error("#VALUE!")
                a = a.ravel()[0]
            values.append(a)
        return fn(*values)

    one.__name__ = getattr(fn, "__name__", "single_values")
    return one


def wrap_ufunc_raw(fn: Callable[..., Any]) -> Any:
    """``fn`` over each item of its arguments, which it reads itself (errors and blanks included)."""
    from formulas.functions import wrap_ufunc

    return wrap_ufunc(fn, input_parser=lambda *a: a, check_error=lambda *a: None, args_parser=lambda *a: a)


def _register(fns: Any, names: tuple[str, ...], fn: Callable[..., Any]) -> None:
    from formulas.functions import wrap_ufunc

    wrapped = wrap_ufunc(_numeric(fn), input_parser=lambda *a: a, check_error=lambda *a: None)
    for name in names:
        fns[name] = fns[f"_XLFN.{name}"] = wrapped


def patch_rounding_steps(fns: Any) -> None:
    """FLOOR(7.1,0.1) is 7.1 (the engine: 7); ``FLOOR(0,0)`` is 0 (the engine: #DIV/0!);
    ``FLOOR.PRECISE(-10)`` is -10 (the engine: 10); ``FLOOR(10,"2024-01-10")`` is 0 (date text is a
    number; the engine: #VALUE!); ``FLOOR("x",NA())`` is #VALUE! (the first argument fails first)."""
    _register(fns, ("FLOOR",), _floor)
    _register(fns, ("CEILING",), _ceiling)
    _register(fns, ("FLOOR.PRECISE",), _precise(up=False))
    _register(fns, ("CEILING.PRECISE", "ISO.CEILING"), _precise(up=True))
    _register(fns, ("FLOOR.MATH",), _math(up=False))
    _register(fns, ("CEILING.MATH",), _math(up=True))


def _complex(real: Any, imaginary: Any, suffix: Any = "i") -> Any:
    """COMPLEX: a blank or empty suffix is ``i``; other than ``i`` or ``j`` is #VALUE!; logicals are
    #VALUE!; the first error of the arguments, in order, is the result."""
    import numpy as np
    from formulas.functions import XlError

    from gridsight.formula._excel_coerce import is_blank
    from gridsight.formula._excel_functions import complex_text

    parts = []
    for v in (real, imaginary):
        if isinstance(v, XlError):
            return v
        if isinstance(v, bool | np.bool_):
            return _error("#VALUE!")
        parts.append(v)
    numbers = numbers_in_order(*parts)
    if not isinstance(numbers, list):
        return numbers
    if isinstance(suffix, XlError):
        return suffix
    if is_blank(suffix) or suffix == "":
        suffix = "i"
    if suffix not in ("i", "j"):
        return _error("#VALUE!")
    return complex_text(numbers[0], numbers[1], suffix)


def _imargument(z: complex) -> Any:
    """IMARGUMENT: the angle of any number but 0 (``IMARGUMENT("5i")`` is pi/2; the engine:
    #DIV/0! whenever the real part is 0)."""
    if z == 0:
        return _error("#DIV/0!")
    return math.atan2(z.imag, z.real)


def patch_complex(fns: Any) -> None:
    """COMPLEX(1.23,9.5121,A1) over a blank A1 is ``1.23+9.5121i`` (the engine: #VALUE!);
    ``IMARGUMENT("5i")`` is pi/2 (the engine: #DIV/0!)."""
    import functools

    import formulas.functions.eng as eng
    from formulas.functions import wrap_func

    fns["COMPLEX"] = fns["_XLFN.COMPLEX"] = single_values(_complex)
    fns["IMARGUMENT"] = fns["_XLFN.IMARGUMENT"] = wrap_func(functools.partial(eng._xim2num, _imargument))


_BASES = {"BIN": 2, "OCT": 8, "DEC": 10, "HEX": 16}
#: the largest magnitude each base holds in its ten digits (two's complement above half of it)
_HALF = {2: 1 << 9, 8: 1 << 29, 10: 1 << 39, 16: 1 << 39}


def _digits_in(value: Any, base: int) -> Any:
    """BIN2..., OCT2..., HEX2...: the signed value of up to ten digits of ``base`` (a number is read
    as its digits, a blank or empty text is 0); ten digits with the top one set are negative."""
    import numpy as np
    from formulas.functions import XlError

    from gridsight.formula._excel_coerce import is_blank

    if isinstance(value, XlError):
        return value
    if isinstance(value, bool | np.bool_):
        return _error("#VALUE!")
    if is_blank(value):
        return 0
    if isinstance(value, int | float | np.number):
        if value < 0 or value != int(value):
            return _error("#NUM!")
        value = str(int(value))
    text = str(value).strip()
    if text == "":
        return 0
    if len(text) > 10:
        return _error("#NUM!")
    try:
        n = int(text, base)
    except ValueError:
        return _error("#NUM!")
    if text[0] in "+-":
        return _error("#NUM!")
    half = _HALF[base]
    return n - 2 * half if n >= half else n


def _digits_out(n: int, base: int, places: Any) -> Any:
    """The ten-digit form of ``n`` in ``base``: negative numbers in two's complement, ten digits
    whatever ``places`` asks; ``places`` (1 to 10) pads a positive number with zeros, fewer than its
    digits is #NUM!."""
    half = _HALF[base]
    if not -half <= n < half:
        return _error("#NUM!")
    if n < 0:
        n += 2 * half
        width = 0
    else:
        width = int(places) if places is not None else 0
    digits = np.base_repr(n, base) if base != 10 else str(n)
    if width and len(digits) > width:
        return _error("#NUM!")
    return digits.zfill(width)


def _base_conversion(source: int, target: int) -> Callable[..., Any]:
    def convert(value: Any, places: Any = None) -> Any:
        from formulas.functions import XlError

        from gridsight.formula._excel_coerce import is_blank

        if isinstance(value, XlError):
            return value
        if places is not None:  # checked before the value is read: DEC2BIN("E",0) is #NUM!
            if isinstance(places, bool | np.bool_):
                return _error("#VALUE!")
            read_places = numbers_in_order(places)
            if not isinstance(read_places, list):
                return read_places
            places = math.trunc(read_places[0]) if not is_blank(places) else 0
            if not 1 <= places <= 10:
                return _error("#NUM!")
        if source == 10:
            if isinstance(value, bool | np.bool_) or (isinstance(value, str) and value.strip() == ""):
                return _error("#VALUE!")
            read = numbers_in_order(value)
            if not isinstance(read, list):
                return read
            n: Any = math.trunc(read[0])
        else:
            n = _digits_in(value, source)
            if isinstance(n, XlError):
                return n
        if target == 10:
            return n
        return _digits_out(n, target, places)

    return convert


def patch_bases(fns: Any) -> None:
    """BIN2DEC ... HEX2OCT as Excel documents them: ``DEC2BIN(-25,1)`` is ``1111100111`` (a negative
    number is ten digits whatever the places; the engine: #NUM!), ``DEC2BIN("")`` #VALUE! (the engine:
    0), ``HEX2DEC("-A")`` #NUM! (the engine: -1099511627786)."""

    for source, a in _BASES.items():
        for target, b in _BASES.items():
            if a != b:
                fns[f"{source}2{target}"] = fns[f"_XLFN.{source}2{target}"] = single_values(
                    _base_conversion(a, b)
                )


_WHOLE_LIMIT = 2.0**53


def _gcd_lcm(lcm: bool, *args: Any) -> Any:
    """GCD / LCM as Excel saves them: each number truncated; a blank cell referenced alone skipped,
    a blank inside a range of several cells 0; numbers stored as text read, other text and logicals
    #VALUE!; negative numbers or numbers from 2^53 #NUM!; no number at all #VALUE!."""
    from formulas.functions import XlError

    from gridsight.formula._excel_coerce import is_blank, to_number

    values: list[int] = []
    out_of_range = False
    for arg in args:
        items = list(np.asarray(arg, dtype=object).ravel()) if isinstance(arg, np.ndarray) else [arg]
        for v in items:
            if isinstance(v, XlError):
                return v
            if is_blank(v):
                if len(items) > 1:  # a blank inside a range of several cells is 0
                    values.append(0)
                continue  # a blank cell referenced alone is skipped
            if isinstance(v, bool | np.bool_):
                return _error("#VALUE!")
            try:
                x = to_number(v)
            except (TypeError, ValueError):
                return _error("#VALUE!")
            if x < 0 or x >= _WHOLE_LIMIT:
                out_of_range = True  # #NUM!, after every argument is checked for #VALUE!
                continue
            values.append(int(x))
    if out_of_range:
        return _error("#NUM!")
    if not values:
        return _error("#VALUE!")
    out = values[0]
    for v in values[1:]:
        out = (out * v // math.gcd(out, v) if out and v else 0) if lcm else math.gcd(out, v)
    if out >= _WHOLE_LIMIT:
        return _error("#NUM!")
    return float(out)


def patch_gcd_lcm(fns: Any) -> None:
    """``LCM(A1,B1,C1)`` over 10, 3 and a blank is 30 (the engine: #VALUE!); ``LCM(7.5,4.5)`` is 28;
    ``LCM(A1:B1)`` over a blank and 5 is 0."""
    import functools

    from formulas.functions import wrap_func

    fns["GCD"] = fns["_XLFN.GCD"] = wrap_func(functools.partial(_gcd_lcm, False))
    fns["LCM"] = fns["_XLFN.LCM"] = wrap_func(functools.partial(_gcd_lcm, True))


def _combina(number: float, chosen: float) -> Any:
    """COMBINA: combinations with repetitions, COMBIN(n+k-1, k) of the truncated numbers; a negative
    number, or none to choose from with some chosen, is #NUM!."""
    n, k = math.trunc(number), math.trunc(chosen)
    if n < 0 or k < 0 or (n == 0 and k > 0):
        return _error("#NUM!")
    if n == 0:
        return 1.0
    try:
        return float(math.comb(n + k - 1, k))
    except OverflowError:
        return _error("#NUM!")


#: Functions of numbers only, whose arguments the engine reads with float(): date text, "1,234" and
#: "12%" are numbers in Excel (``INT("2024-01-10")`` is 45301; the engine: #VALUE!).
NUMBER_FUNCTIONS = (
    "ABS ACOS ACOSH ACOT ACOTH ASIN ASINH ATAN ATAN2 ATANH COS COSH COT COTH CSC CSCH DEGREES EVEN "
    "EXP FACT INT LN LOG LOG10 MOD ODD RADIANS SEC SECH SIGN SIN SINH SQRT SQRTPI TAN TANH TRUNC"
).split()


def _text_as_number(v: Any) -> Any:
    """Text that reads as a number (or a date) as that number; anything else as it is."""
    from formulas.functions import XlError

    from gridsight.formula._excel_coerce import to_number

    item = v.ravel()[0] if isinstance(v, np.ndarray) and v.size == 1 else v
    if isinstance(item, str) and not isinstance(item, XlError) and not is_blank_text(item):
        try:
            return to_number(item)
        except (TypeError, ValueError):
            return v
    return v


def is_blank_text(v: Any) -> bool:
    from gridsight.formula._excel_coerce import is_blank

    return is_blank(v)


def _whole(x: float) -> Any:
    """INT: a float (the engine's int of 1E+100 failed as a result)."""
    return float(math.floor(x))


def patch_number_text(fns: Any) -> None:
    """The arguments of :data:`NUMBER_FUNCTIONS` read as Excel reads numbers; INT of a huge number."""
    from formulas.functions import wrap_ufunc

    fns["INT"] = wrap_ufunc(_whole)
    for name in NUMBER_FUNCTIONS:
        for key in (name, f"_XLFN.{name}"):
            fn = fns.get(key)
            if not callable(fn) or getattr(fn, "__name__", "") == "not_implemented":
                continue

            def reading(*args: Any, _fn: Any = fn) -> Any:
                return _fn(*(_text_as_number(a) for a in args))

            reading.__name__ = getattr(fn, "__name__", name)
            fns[key] = reading


def _mround_checked(number: Any, multiple: Any) -> Any:
    """MROUND: a logical is #VALUE! (an Analysis ToolPak function), text read as a number."""
    from gridsight.formula._excel_functions import _mround

    for v in (number, multiple):
        item = v.ravel()[0] if isinstance(v, np.ndarray) and v.size else v
        if isinstance(item, bool | np.bool_):
            return _error("#VALUE!")
    values = numbers_in_order(number, multiple)
    return values if not isinstance(values, list) else _mround(*values)


def patch_poisson(fns: Any) -> None:
    """POISSON.DIST and POISSON truncate the number of events, as Excel documents:
    ``POISSON.DIST(1.333,2,FALSE)`` is ``POISSON.DIST(1,2,FALSE)``, 0.2706705664732254 (the engine: 0,
    the probability mass at a fraction)."""
    from formulas.functions import wrap_ufunc
    from formulas.functions.stat import _convert_args, _parse_cumulative, xpoisson_dist

    def truncated(x: Any, mean: Any, cumulative: Any) -> Any:
        return xpoisson_dist(math.trunc(x) if x >= 0 else x, mean, cumulative)

    wrapped = wrap_ufunc(
        truncated,
        input_parser=lambda *a: tuple(map(_convert_args, a[:-1])) + tuple(map(_parse_cumulative, a[-1:])),
    )
    fns["POISSON.DIST"] = fns["_XLFN.POISSON.DIST"] = fns["POISSON"] = wrapped


def patch_math() -> None:
    """Every patch of this module."""
    import formulas

    fns = formulas.get_functions()
    patch_poisson(fns)
    patch_rounding_steps(fns)
    patch_complex(fns)
    patch_bases(fns)
    patch_gcd_lcm(fns)
    _register(fns, ("COMBINA",), _combina)  # the engine lacks it
    patch_number_text(fns)
    fns["MROUND"] = fns["_XLFN.MROUND"] = wrap_ufunc_raw(_mround_checked)

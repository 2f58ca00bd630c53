"""Patches that make the `formulas` engine (pinned ``>=1.3,<1.4``) follow Excel where it does not.

Each function patches one behaviour, names the Excel rule in its docstring and is called once from
:func:`patch_all` (from :func:`gridsight.formula._engine.patch_engine`). Each is tested in
``tests/formula/test_engine_excel.py`` or ``tests/formula/test_engine_forms.py`` against Excel's
documented result, and each is a candidate for an upstream fix. This module holds the operators,
criteria and aggregates; TEXT and rounding are in :mod:`_excel_text`, single functions in
:mod:`_excel_functions`, the 1904 date system in :mod:`_date1904`:

* ``patch_double_minus``: ``--x`` coerces to a number (the tokenizer folded it into a unary ``+``);
* ``patch_number_text``: numbers become text with 15 significant digits;
* ``patch_text_numbers``: ``"1,234"``, ``"12%"``, ``"$5"``, ``"(7)"``, times and date text are numbers
  in arithmetic and VALUE;
* ``patch_comparisons``: numbers compare on 15 significant digits, a blank as the other side's type;
* ``patch_criteria``: Excel's criteria (``"<>x"``, wildcards, text order ignoring case, TRUE vs 1);
* ``patch_range_text`` / ``patch_conditional_text``: aggregates skip text in ranges;
* ``patch_counts``: COUNT, COUNTA and TEXTJOIN with values typed as arguments;
* ``patch_scalar_arguments``: a single-cell reference is a value where a function takes one.

They replace entries of the engine's own tables (``OPERATORS``, ``get_functions()``) or module-level
helpers the engine looks up at call time; nothing in the installed package is edited.
"""

from __future__ import annotations

import re
from typing import Any

from gridsight.formula._date1904 import DAYS_1904, is_1904, patch_date1904
from gridsight.formula._excel_bessel import patch_bessel
from gridsight.formula._excel_coerce import (
    as_text,
    comparable,
    is_blank,
    is_number,
    numeric,
    power,
    snapped,
    to_number,
)
from gridsight.formula._excel_ets import patch_ets
from gridsight.formula._excel_finance import patch_finance
from gridsight.formula._excel_functions import (
    patch_complex_text,
    patch_functions,
    patch_index,
    patch_isnumber,
    patch_logic,
    patch_lookups,
    patch_workday,
    patch_yearfrac,
)
from gridsight.formula._excel_math import patch_math
from gridsight.formula._excel_regression import patch_linest
from gridsight.formula._excel_text import (
    patch_characters,
    patch_date_parts,
    patch_grouping,
    patch_rounding,
    patch_text_around,
    patch_trim,
)
from gridsight.formula._excel_values import (
    date_time_value,
    looks_like_time,
    significant,
    text_number,
    text_value,
    wildcard_regex,
)


def patch_double_minus() -> None:
    """``--x`` coerces to a number (``--"09"`` is 9, ``--(A1>0)`` is 1 or 0), but the engine's tokenizer
    folds a run of signs by parity into one ``+``, and a unary ``+`` leaves text as text. The run is
    kept apart instead: a unary run with an even, non-zero count of minus signs becomes the operator
    ``u--`` (registered as a numeric identity, the way ``U-`` is a numeric negation). A binary run
    (``A1--B1``) is still ``+``, which is right for numbers."""
    from formulas.functions.operators import OPERATORS
    from formulas.tokens.operator import Operator, OperatorToken

    Operator._precedences.setdefault("u--", Operator._precedences["u-"])
    Operator._n_args["u--"] = 1
    OPERATORS["U--"] = numeric(lambda x: +x)
    process, update_name, set_expr = OperatorToken.process, Operator.update_name, Operator.set_expr

    def process_run(self: Any, match: Any, context: Any = None, parser: Any = None) -> Any:
        attr = process(self, match, context=context, parser=parser)
        run = attr.get("sum_minus") if isinstance(attr, dict) else None
        if run and run.count("-") >= 2 and run.count("-") % 2 == 0:
            attr["double_minus"] = True
        return attr

    def update_run(self: Any, tokens: Any, stack: Any) -> None:
        update_name(self, tokens, stack)
        if self.name == "u+" and self.attr.get("double_minus"):
            self.attr["name"] = "u--"

    def expr_run(self: Any, *tokens: Any) -> None:
        if self.name == "u--":
            self.attr["expr"] = "--{}".format(*[t.get_expr for t in tokens])
            return
        set_expr(self, *tokens)

    OperatorToken.process = process_run
    Operator.update_name = update_run
    Operator.set_expr = expr_run


def patch_number_text() -> None:
    """A number turned into text (``&``, CONCATENATE, LEFT, LEN...) has at most 15 significant digits
    in Excel: ``=1/3&""`` is ``0.333333333333333``, ``=0.1+0.2&""`` is ``0.3``. The engine used Python's
    17-digit repr. Its helper ``_str`` is looked up at call time by the text functions and ``&``."""
    import formulas.functions.operators as operators
    import formulas.functions.text as text

    text._str = as_text
    operators._str = as_text


def patch_text_numbers() -> None:
    """Text in arithmetic and VALUE reads as Excel reads it: ``"1,234"+1`` is 1235, ``"12%"*1`` is 0.12,
    ``"$5"+0`` is 5, ``"(7)"+0`` is -7, ``"1/15/2024"+0`` is 45306. The engine used ``float()``
    (``#VALUE!``), and its VALUE took ``"1,234"`` for a date."""
    import formulas
    import formulas.functions.text as text
    from formulas.functions import Error, wrap_ufunc
    from formulas.functions.operators import OPERATORS

    for name, fn in {
        "+": lambda x, y: x + y,
        "-": lambda x, y: x - y,
        "U-": lambda x: -x,
        "*": lambda x, y: x * y,
        "/": lambda x, y: (x / y) if y else Error.errors["#DIV/0!"],
        "^": power,
        "%": lambda x: x / 100.0,
    }.items():
        OPERATORS[name] = numeric(fn)
    original = text.xvalue

    def xvalue(value: Any) -> Any:
        if isinstance(value, str) and not isinstance(value, Error):
            n = text_value(value)
            if n is not None:
                return n
            if looks_like_time(value):
                return Error.errors["#VALUE!"]
            stamp = date_time_value(value)
            if stamp is not None:
                return stamp - (DAYS_1904 if is_1904() else 0)
            if is_1904():
                out = original(value)
                return out - DAYS_1904 if isinstance(out, int | float) and not isinstance(out, bool) else out
        return original(value)

    text.xvalue = xvalue  # TEXT converts its value through this name too
    formulas.get_functions()["VALUE"] = wrap_ufunc(xvalue, input_parser=lambda *a: a)


def patch_comparisons() -> None:
    """Excel compares numbers on 15 significant digits: ``=0.1+0.2=0.3`` is TRUE (the engine: FALSE);
    a blank cell equals FALSE beside a logical (``=A1=FALSE`` over a blank is TRUE; the engine: FALSE),
    ``""`` beside text and 0 beside a number."""
    from formulas.functions import wrap_ufunc
    from formulas.functions.operators import LOGIC_OPERATORS, OPERATORS

    for name, fn in LOGIC_OPERATORS.items():
        OPERATORS[name] = wrap_ufunc(
            lambda x, y, fn=fn: fn(snapped(x), snapped(y)),
            input_parser=comparable,
            args_parser=lambda *a: a,
        )


def wildcard_pattern(text: str) -> re.Pattern[str] | None:
    """Excel's criteria wildcards as a case-insensitive whole-text regex (``*`` any run, ``?`` one
    character, ``~`` escapes them); None when ``text`` has no wildcard."""
    regex, wild = wildcard_regex(text)
    return re.compile(regex, re.IGNORECASE | re.DOTALL) if wild else None


_CRITERIA_OPERATORS = (">=", "<=", "<>", "<", ">", "=")


def parse_criterion(condition: Any) -> tuple[str, Any]:
    """A criterion as (operator, operand): ``">=10"`` is (">=", 10.0), ``"<>b*"`` is ("<>", "b*"),
    ``"TRUE"`` is ("=", True), ``"#N/A"`` the error, ``"="`` is ("=", None) (blank cells); a value that is
    not text is compared as it is."""
    import schedula as sh
    from formulas.functions import Error, XlError, _text2num

    if condition is sh.EMPTY or (type(condition) is type(sh.EMPTY) and str(condition) == "empty"):
        return "=", 0.0  # COUNTIFS' documentation: a reference to an empty cell is the value 0
    if not isinstance(condition, str) or isinstance(condition, XlError):
        if isinstance(condition, int | float) and not isinstance(condition, bool):
            return "=", float(condition)
        return "=", condition
    op = next((k for k in _CRITERIA_OPERATORS if condition.startswith(k)), "")
    rest = condition[len(op) :]
    if op == "=" and rest == "":
        return "=", None
    upper = rest.upper()
    if upper in ("TRUE", "FALSE"):
        return op or "=", upper == "TRUE"
    if upper in Error.errors:
        return op or "=", Error.errors[upper]
    number = text_number(rest)
    if number is None and rest and not wildcard_pattern(rest):
        converted = _text2num(rest)  # dates and times as text: "1/15/2024", ">=2024-01-01"
        if not isinstance(converted, str):
            number = float(converted) - (DAYS_1904 if is_1904() and float(converted) >= 1 else 0)
    return op or "=", number if number is not None else rest


def _criterion_test(op: str, operand: Any, text_numbers: bool = True) -> Any:
    """A function of one cell value (blanks are ``""``): whether it meets ``op operand``. A number
    stored as text meets only ``=`` (``text_numbers``): ``COUNTIF(A:A,"<=23")`` does not count the
    text ``"23"``, and ``"<>23"`` counts it (it is not the number 23)."""
    import numpy as np
    from formulas.functions import XlError, _text2num

    compare = {
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        "<": lambda a, b: a < b,
        ">": lambda a, b: a > b,
        "=": lambda a, b: a == b,
    }[op]
    if operand is None:  # "=": blank cells only (not cells of empty text, when told apart)
        return lambda v: isinstance(v, str) and v == "" and not isinstance(v, XlError) and not _empty_text(v)
    if isinstance(operand, XlError):
        return lambda v: isinstance(v, XlError) and str(v) == str(operand) and op == "="
    if isinstance(operand, bool):
        return lambda v: isinstance(v, bool | np.bool_) and compare(bool(v), operand)
    if isinstance(operand, float):
        target = significant(operand)

        def number_test(v: Any) -> bool:
            if isinstance(v, bool | np.bool_ | XlError):
                return False
            if isinstance(v, str):  # a number stored as text counts (COUNTIF(A:A,5) counts "5")
                if v == "" or op != "=" or not text_numbers:
                    return False
                n = text_number(v)
                if n is None:
                    converted = _text2num(v)
                    if isinstance(converted, str):
                        return False
                    n = float(converted)
                v = n
            if not isinstance(v, int | float | np.number):
                return False
            return bool(compare(significant(float(v)), target))

        return number_test
    text = str(operand)
    if op == "=":
        pattern = wildcard_pattern(text)
        if pattern is not None:
            return lambda v: (
                isinstance(v, str) and not isinstance(v, XlError) and pattern.fullmatch(v) is not None
            )
        folded = text.casefold()
        return lambda v: isinstance(v, str) and not isinstance(v, XlError) and v.casefold() == folded
    folded = text.casefold()
    if folded == "":  # ">", "<=" ... with nothing after: no cell
        return lambda v: False
    return lambda v: (
        isinstance(v, str) and not isinstance(v, XlError) and v != "" and compare(v.casefold(), folded)
    )


class BlankCell(str):
    """A blank cell in a criteria range: equal to ``""`` (as the engine passes blanks), but told apart
    from a cell holding empty text (a formula's ``""``), which ``"<>"`` counts and ``"="`` does not."""

    __slots__ = ()


def _empty_text(v: Any) -> bool:
    """Whether ``v`` is empty text, not a blank cell (criteria ranges carry their blanks as
    :class:`BlankCell`)."""
    return isinstance(v, str) and v == "" and not isinstance(v, BlankCell)


def _mask(values: Any, test: Any) -> Any:
    """``test`` over every cell, computed once per distinct value (columns repeat their values); the
    key keeps the type apart, so TRUE and 1 are never taken for each other."""
    import numpy as np

    if not values.size:
        return np.zeros(values.shape, bool)
    seen: dict[tuple[str, Any], bool] = {}

    def cached(v: Any) -> bool:
        try:
            key = (type(v).__name__, v)
            hit = seen.get(key)
        except TypeError:  # an unhashable value
            return bool(test(v))
        if hit is None:
            hit = seen[key] = bool(test(v))
        return hit

    return np.frompyfunc(cached, 1, 1)(values).astype(bool)


def criteria_mask(raw: Any, condition: Any) -> Any:
    """Which cells of ``raw`` (blanks as :class:`BlankCell`) meet an Excel criterion, as a boolean
    array."""
    import numpy as np
    from formulas.functions import XlError

    op, operand = parse_criterion(condition)
    values = np.asarray(raw, dtype=object)
    if op == "<>":  # "<>": every cell that is not blank; "<>x" every cell that is not x
        return ~_mask(values, _criterion_test("=", None if operand == "" else operand, text_numbers=False))
    if op == "=" and isinstance(operand, str) and operand == "":
        return _mask(
            values, lambda v: isinstance(v, str) and v == "" and not isinstance(v, XlError)
        )  # and empty text
    return _mask(values, _criterion_test(op, operand))


def patch_criteria() -> None:
    """Criteria (COUNTIF, SUMIF, ...IFS) as Excel matches them (:func:`criteria_mask`):

    * ``"<>x"`` matches every cell that is not ``x``: cells of another type, blanks and errors included
      (``SUMIF(D2:D9,"<>#N/A")`` totals a column with #N/A in it); ``"<>"`` alone matches non-blank
      cells. The engine matched only cells of ``x``'s type, so numbers never matched ``"<>x"``.
    * wildcards match the whole text, ignoring case: ``"t*"`` counts ``Tea``; ``"a?c"`` does not count
      ``abcd``. The engine matched case-sensitively and only a prefix.
    * text compares ignoring case: ``">=BANANA"`` does not count ``apple`` (the engine: it did).
    * ``TRUE`` counts the cells holding TRUE and ``1`` the cells holding 1: the engine cached its test
      by value, and True == 1 in Python, so whichever came first answered for both.
    * ``"="`` counts blank cells (the engine: none), not cells of empty text, which ``"<>"`` counts;
    * a number stored as text meets only ``=`` (``"<=23"`` does not count the text ``"23"``);
    * ``">"``, ``"<="``... with nothing after count no cell.

    Installed before the grouped COUNTIF path takes the engine's criterion test, so both use this one."""
    import formulas.functions as engine_functions
    import numpy as np

    def mask(test_range: Any, condition: Any) -> Any:
        return criteria_mask(test_range["raw"], condition)

    setattr(engine_functions, "__xfilter", mask)
    replace_empty = engine_functions.replace_empty
    blank = BlankCell("")

    def marking_blanks(x: Any, empty: Any = 0) -> Any:
        """The engine's COUNTIF/SUMIF... read a criteria range's blanks as ``""`` (here only): they are
        BlankCell, so that ``"<>"`` tells them from empty text."""
        if not (isinstance(empty, str) and empty == ""):
            return replace_empty(x, empty)
        if isinstance(x, np.ndarray):
            blanks = np.frompyfunc(is_blank, 1, 1)(x).astype(bool) if x.size else np.zeros(x.shape, bool)
            if not blanks.any():
                return x
            out = np.array(x, dtype=object, copy=True)
            out[blanks] = blank  # item by item: np.where would turn it into a plain str
            return out.view(type(x))
        return blank if is_blank(x) else x

    engine_functions.replace_empty = marking_blanks


#: Aggregates that ignore text in ranges and arrays, numeric text included (Excel's SUM(A1:A3) over
#: 3, "5", 2 is 5; the engine made it 10, and AVERAGE, MIN, MAX, MEDIAN... #VALUE!).
TEXT_BLIND = (
    "SUM PRODUCT AVERAGE MIN MAX MEDIAN COUNT STDEV STDEV.S STDEV.P STDEVP VAR VAR.S VAR.P VARP "
    "SUMPRODUCT GEOMEAN HARMEAN AVEDEV DEVSQ SUMSQ"
).split()


def drop_text(values: Any) -> Any:
    """An array with its text items (not error values) replaced by the engine's blank; the array
    itself when it holds no text."""
    import numpy as np
    import schedula as sh
    from formulas.functions import XlError

    if values.dtype != object:
        return values
    blank_type = type(sh.EMPTY)
    is_text = np.frompyfunc(
        lambda v: isinstance(v, str | np.str_) and not isinstance(v, XlError | blank_type), 1, 1
    )(values).astype(bool)
    if not is_text.any():
        return values
    out = np.array(values, dtype=object, copy=True)
    out[is_text] = sh.EMPTY
    return out.view(type(values))


def patch_range_text() -> None:
    """SUM, AVERAGE, MIN, MAX, COUNT, MEDIAN, STDEV, VAR, SUMPRODUCT... skip text in ranges and arrays,
    numeric text such as ``"5"`` included, as Excel does (a number stored as text is not counted). The
    engine counted numeric text in SUM and COUNT and gave #VALUE! in AVERAGE, MIN, MAX and the rest.
    Values given directly (``SUM("5")``) are still converted."""
    import formulas
    import numpy as np

    fns = formulas.get_functions()
    for name in TEXT_BLIND:
        for key in (name, f"_XLFN.{name}"):
            original = fns.get(key)
            if not callable(original) or getattr(original, "__name__", "") == "not_implemented":
                continue

            def blind(*args: Any, _original: Any = original) -> Any:
                return _original(*(drop_text(a) if isinstance(a, np.ndarray) and a.ndim else a for a in args))

            fns[key] = _product_of_none(blind) if name == "PRODUCT" else blind


def _product_of_none(product: Any) -> Any:
    """PRODUCT over references holding no number (blanks, text, logicals) is 0 in Excel, not the
    empty product 1 (``PRODUCT(A1:A4)`` over blank cells)."""
    import numpy as np

    def of(*args: Any) -> Any:
        if args and all(isinstance(a, np.ndarray) and not any(map(_number, a.ravel())) for a in args):
            return 0.0
        return product(*args)

    return of


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


#: Conditional aggregates and the argument (0-based) that holds the values they add, average or
#: compare; for SUMIF and AVERAGEIF it may be omitted, and then the tested range is the one.
CONDITIONAL_VALUES = {
    "SUMIF": 2,
    "AVERAGEIF": 2,
    "SUMIFS": 0,
    "AVERAGEIFS": 0,
    "MAXIFS": 0,
    "MINIFS": 0,
}


def patch_conditional_text() -> None:
    """SUMIF, SUMIFS, AVERAGEIF(S), MAXIFS and MINIFS skip text in the range they add up, numbers
    stored as text included: ``SUMIF(A1:A3,">0",B1:B3)`` over 2, "5", 7 is 9 (the engine: 14). The
    criteria are still tested against the text (a criterion ``"5"`` matches a text ``"5"``)."""
    import formulas
    import numpy as np

    fns = formulas.get_functions()
    for name, position in CONDITIONAL_VALUES.items():
        for key in (name, f"_XLFN.{name}"):
            original = fns.get(key)
            if not callable(original) or getattr(original, "__name__", "") == "not_implemented":
                continue

            def blind(*args: Any, _original: Any = original, _at: int = position) -> Any:
                values = list(args)
                if _at == 2 and len(values) == 2:
                    values.append(values[0])
                if len(values) > _at and isinstance(values[_at], np.ndarray) and values[_at].ndim:
                    values[_at] = drop_text(values[_at])
                return _original(*values)

            fns[key] = blind


def _count(*args: Any) -> Any:
    """COUNT: numbers in references and arrays; values typed as arguments count when they are numbers,
    logicals or text that reads as a number (``COUNT(1,"2","x")`` is 2; the engine: #VALUE!)."""
    import numpy as np
    from formulas.functions import XlError

    n = 0
    for a in args:
        if isinstance(a, np.ndarray):
            n += sum(1 for v in a.ravel() if is_number(v))
        elif is_blank(a) or isinstance(a, XlError):
            continue
        elif isinstance(a, bool | int | float | np.number):
            n += 1
        elif isinstance(a, str):
            try:
                to_number(a)
            except (ValueError, TypeError):
                continue
            n += 1
    return float(n)


def _counta(*args: Any) -> Any:
    """COUNTA: every value that is not a blank cell, error values and empty text included
    (``COUNTA(1,"","x")`` is 3; the engine: #VALUE!)."""
    import numpy as np

    n = 0
    for a in args:
        values = a.ravel() if isinstance(a, np.ndarray) else (a,)
        n += sum(1 for v in values if not is_blank(v))
    return float(n)


def _textjoin(delimiter: Any, ignore_empty: Any, *texts: Any) -> Any:
    """TEXTJOIN with ``ignore_empty`` skipping empty text as well as blank cells
    (``TEXTJOIN("-",TRUE,"a","","b")`` is ``a-b``; the engine: ``a--b``). Errors are returned."""
    import numpy as np
    from formulas.functions import Error, XlError

    def items(v: Any) -> list[Any]:
        return list(v.ravel()) if isinstance(v, np.ndarray) else [v]

    delims = [d for d in items(delimiter) if not is_blank(d)] or [""]
    for d in delims:
        if isinstance(d, XlError):
            return d
    skip = items(ignore_empty)[0]
    if isinstance(skip, XlError):
        return skip
    skip_empty = (
        bool(to_number(skip))
        if isinstance(skip, str) and not is_blank(skip)
        else bool(False if is_blank(skip) else skip)
    )
    parts: list[str] = []
    for t in texts:
        for v in items(t):
            if isinstance(v, XlError):
                return v
            text = "" if is_blank(v) else as_text(v)
            if skip_empty and text == "":
                continue
            parts.append(text)
    out = ""
    for i, part in enumerate(parts):
        out += (delims[(i - 1) % len(delims)] if i else "") + part
    if len(out) > 32767:
        return Error.errors["#VALUE!"]
    return out


def patch_counts() -> None:
    """COUNT, COUNTA and TEXTJOIN over values typed as arguments, as Excel reads them."""
    import formulas
    from formulas.functions import wrap_func

    fns = formulas.get_functions()
    fns["COUNT"] = wrap_func(_count)
    fns["COUNTA"] = wrap_func(_counta)
    fns["TEXTJOIN"] = fns["_XLFN.TEXTJOIN"] = wrap_func(_textjoin)


def patch_scalar_arguments() -> None:
    """A single-cell reference reaches the engine as a 1x1 array (so that ``SUM(A1)`` can skip a TRUE
    in A1, as Excel does for references); where a function takes one value (by the argument table of
    :mod:`gridsight.formula._intersect`), the value itself is passed, as the engine's own functions
    expect (``DEC2HEX(3,A1)``, ``BAHTTEXT(A1)``). Functions registered with extra inputs (INDEX, IF...)
    are left as they are."""
    import formulas
    import numpy as np

    from gridsight.formula._intersect import SCALAR, param_kind

    fns = formulas.get_functions()
    for key, fn in list(fns.items()):
        if not callable(fn) or getattr(fn, "__name__", "") == "not_implemented":
            continue
        name = key.removeprefix("_XLFN.").removeprefix("_XLWS.")
        scalar_at = [param_kind(name, i) == SCALAR for i in range(16)]
        if not any(scalar_at):
            continue

        def unwrapped(*args: Any, _fn: Any = fn, _at: list[bool] = scalar_at) -> Any:
            return _fn(
                *(
                    a.ravel()[0]
                    if i < len(_at) and _at[i] and isinstance(a, np.ndarray) and a.ndim == 2 and a.size == 1
                    else a
                    for i, a in enumerate(args)
                )
            )

        unwrapped.__name__ = getattr(fn, "__name__", name)
        fns[key] = unwrapped


def excel_sized(*args: Any) -> tuple[Any, ...]:
    """Arrays of different sizes made the size Excel gives their combination: in each direction an
    array of one row (or column) is repeated, a shorter one is padded with ``#N/A``
    (``{1;2;3}*{1;2}`` is ``{1;2;#N/A}``). Arguments that already fit come back as they are."""
    import numpy as np
    from formulas.functions import Error

    arrays = [a for a in args if isinstance(a, np.ndarray) and a.ndim == 2]
    if len(arrays) < 2:
        return args
    target = []
    for dim in (0, 1):
        sizes = {a.shape[dim] for a in arrays} - {1}
        target.append(max(sizes) if sizes else 1)
    if all(a.shape[0] in (1, target[0]) and a.shape[1] in (1, target[1]) for a in arrays):
        return args
    out = []
    for a in args:
        if isinstance(a, np.ndarray) and a.ndim == 2 and a.size:
            rows = a.shape[0] if a.shape[0] == 1 else target[0]
            cols = a.shape[1] if a.shape[1] == 1 else target[1]
            if (rows, cols) != a.shape:
                grown = np.empty((rows, cols), dtype=object)
                grown.ravel()[:] = [Error.errors["#N/A"]] * grown.size  # np.full makes it a plain str
                grown[: a.shape[0], : a.shape[1]] = a
                a = grown.view(type(a))
        out.append(a)
    return tuple(out)


def patch_array_sizes() -> None:
    """Arrays of different sizes combined by an operator (``D2:D65*C2:Z90``) or IF give an array of
    the larger size, ``#N/A`` where the smaller one has no item, as Excel documents for array
    formulas; the engine could not broadcast them and failed (DispatcherError)."""
    import formulas
    from formulas.functions.operators import OPERATORS

    for name in ("+", "-", "*", "/", "^", "&", "=", "<>", "<", ">", "<=", ">="):
        original = OPERATORS[name]

        def sized(*args: Any, _original: Any = original) -> Any:
            return _original(*excel_sized(*args))

        OPERATORS[name] = sized
    entry = formulas.get_functions()["IF"]
    if isinstance(entry, dict) and callable(entry.get("function")):
        condition = entry["function"]

        def sized_if(*args: Any, _original: Any = condition) -> Any:
            return _original(*excel_sized(*args))

        entry["function"] = sized_if


#: Functions that read an error given where they take a reference in their own way: COUNT ignores
#: it, COUNTA counts it, ISREF is FALSE, SUBTOTAL and AGGREGATE (its options that ignore errors) are
#: :mod:`_subtotal`'s; the aggregates (SUM, MAX, AND...) already return it; the LAMBDA helpers pass
#: their values to the LAMBDA.
_READS_ERRORS = frozenset(
    "COUNT COUNTA ISREF SUBTOTAL AGGREGATE TEXTJOIN MAP REDUCE SCAN BYROW BYCOL MAKEARRAY ANCHORARRAY".split()
)
#: Of the functions whose every argument is a reference, those about the reference itself.
_OF_REFERENCE = frozenset("ROWS COLUMNS ROW COLUMN AREAS".split())


def _first_error(args: Any, at: list[bool]) -> Any:
    """The first error value among ``args`` when one given where a reference is taken (``at``) is an
    error value, else None."""
    from formulas.functions import XlError

    if not any(i < len(at) and at[i] and isinstance(a, XlError) for i, a in enumerate(args)):
        return None
    return next(a for a in args if isinstance(a, XlError))


def patch_reference_errors() -> None:
    """An error value given where a function takes a reference or an array is what the function
    returns, as in Excel (the first error among its arguments): ``SUMIF(#REF!,">0")``,
    ``COUNTIF(#REF!,1)``, ``MATCH(1,#REF!,0)``, ``ROWS(#REF!)`` are ``#REF!``, what Excel saves for
    formulas whose ranges were deleted. The engine took the error for a value: ``#VALUE!``, ``#N/A``,
    or ``ROWS(#REF!)`` 1. A cell holding an error inside a range is not such an argument (it reaches
    the function as a 1x1 array): ``MATCH(1,A1:A3,0)`` skips it as before. Left alone:
    :data:`_READS_ERRORS`."""
    import formulas

    from gridsight.formula._intersect import ARRAY, OPS, REF, param_kind

    fns = formulas.get_functions()
    for key, fn in list(fns.items()):
        name = key.removeprefix("_XLFN.").removeprefix("_XLWS.")
        if name in _READS_ERRORS:
            continue
        at = [param_kind(name, i) in (REF, ARRAY, OPS) for i in range(16)]
        if not any(at) or (param_kind(name, 0) == REF and all(at) and name not in _OF_REFERENCE):
            continue  # none, or an aggregate of references (SUM, MAX, AND...)
        if isinstance(fn, dict):  # registered with extra inputs (INDEX: whether it is compiling)
            inner = fn.get("function")
            if not callable(inner):
                continue

            def checked_entry(compiling: Any, *args: Any, _fn: Any = inner, _at: list[bool] = at) -> Any:
                error = None if compiling else _first_error(args, _at)
                return error if error is not None else _fn(compiling, *args)

            fn["function"] = checked_entry
            continue
        if not callable(fn) or getattr(fn, "__name__", "") == "not_implemented":
            continue

        def checked(*args: Any, _fn: Any = fn, _at: list[bool] = at) -> Any:
            error = _first_error(args, _at)
            return error if error is not None else _fn(*args)

        checked.__name__ = getattr(fn, "__name__", name)
        fns[key] = checked


def patch_all() -> None:
    """Every patch of this module, in order."""
    patch_criteria()
    patch_double_minus()
    patch_number_text()
    patch_text_numbers()
    patch_rounding()
    patch_trim()
    patch_text_around()
    patch_characters()
    patch_date_parts()
    patch_grouping()
    patch_comparisons()
    patch_functions()
    patch_math()
    patch_finance()
    patch_counts()
    patch_range_text()
    patch_conditional_text()
    patch_index()
    patch_isnumber()
    patch_workday()
    patch_lookups()
    patch_complex_text()
    patch_logic()
    patch_yearfrac()
    patch_bessel()
    patch_linest()
    patch_ets()
    patch_date1904()  # it wraps the date functions installed above
    patch_reference_errors()  # around every function installed above
    patch_array_sizes()
    patch_scalar_arguments()  # last: it wraps every function that takes single values

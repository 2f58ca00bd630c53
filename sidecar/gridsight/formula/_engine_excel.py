"""Patches that make the `formulas` engine (pinned ``>=1.3,<1.4``) follow Excel where it does not.

Each function below patches one behaviour, names the Excel rule in its docstring and is called once
from :func:`gridsight.formula._engine.patch_engine`. Each is tested in ``tests/formula/test_engine_excel.py``
against values from Excel's documentation, and each is a candidate for an upstream fix:

* ``patch_double_minus``: ``--x`` coerces to a number (the tokenizer folded it into a unary ``+``);
* ``patch_number_text``: numbers become text with 15 significant digits;
* ``patch_text_numbers``: ``"1,234"``, ``"12%"``, ``"$5"``, ``"(7)"`` and date text are numbers in
  arithmetic and VALUE;
* ``patch_rounding``: ROUND/ROUNDUP/ROUNDDOWN on the shown decimal value, TEXT rounds halves away
  from zero;
* ``patch_trim``: TRIM collapses inner runs of spaces;
* ``patch_date_parts``: TEXT's ``d``/``m``/``h`` codes keep the zero of 10, 20, 30 and midnight;
* ``patch_comparisons``: numbers compare on 15 significant digits;
* ``patch_functions``: CEILING.MATH/FLOOR.MATH of negatives, DATEDIF's lower-case units, MROUND's
  halves, ``0^0``, and QUOTIENT, COMBIN, DOLLAR;
* ``patch_range_text``: SUM, AVERAGE, MIN, MAX, COUNT... skip text in ranges, numeric text included;
* ``patch_criteria``: ``"<>x"`` matches every cell that is not ``x``; wildcards match whole text,
  ignoring case.

They replace entries of the engine's own tables (``OPERATORS``, ``get_functions()``) or module-level
helpers the engine looks up at call time; nothing in the installed package is edited.
"""

from __future__ import annotations

import math
import re
from typing import Any

from gridsight.formula._date1904 import DAYS_1904, is_1904, patch_date1904
from gridsight.formula._excel_values import (
    elapsed_time,
    excel_round,
    excel_trim,
    fraction_text,
    number_text,
    scale_thousands,
    significant,
    looks_like_time,
    text_number,
    time_text,
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
    OPERATORS["U--"] = _numeric(lambda x: +x)
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


def _as_text(v: Any) -> str:
    import numpy as np

    if isinstance(v, bool | np.bool_):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int | float | np.integer | np.floating):
        return number_text(float(v))
    return str(v)


def patch_number_text() -> None:
    """A number turned into text (``&``, CONCATENATE, LEFT, LEN...) has at most 15 significant digits
    in Excel: ``=1/3&""`` is ``0.333333333333333``, ``=0.1+0.2&""`` is ``0.3``. The engine used Python's
    17-digit repr. Its helper ``_str`` is looked up at call time by the text functions and ``&``."""
    import formulas.functions.operators as operators
    import formulas.functions.text as text

    text._str = _as_text
    operators._str = _as_text


def to_number(v: Any) -> float:
    """Excel's arithmetic view of a value: text that reads as a number or a date is one; other text
    raises ValueError (``#VALUE!``)."""
    if isinstance(v, str):
        n = text_number(v)
        if n is None:
            n = time_text(v)
        if n is not None:
            return n
        if looks_like_time(v):
            raise ValueError(v)  # a time out of range ("24:99") is text
        from formulas.functions import _text2num

        converted = _text2num(v)
        if isinstance(converted, str):
            raise ValueError(v)
        return float(converted) - (DAYS_1904 if is_1904() else 0)  # date text: the workbook's serial
    return float(v)


def _is_blank(v: Any) -> bool:
    import schedula as sh

    return v is None or v is sh.EMPTY or (type(v) is type(sh.EMPTY) and str(v) == "empty")


def _numeric(fn: Any) -> Any:
    from formulas.functions import wrap_ufunc

    return wrap_ufunc(fn, input_parser=lambda *a: map(to_number, a))


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
        "^": _power,
        "%": lambda x: x / 100.0,
    }.items():
        OPERATORS[name] = _numeric(fn)
    original = text.xvalue

    def xvalue(value: Any) -> Any:
        if isinstance(value, str) and not isinstance(value, Error):
            n = text_number(value)
            if n is None:
                n = time_text(value)
            if n is not None:
                return n
            if looks_like_time(value):
                return Error.errors["#VALUE!"]
            if is_1904():
                out = original(value)
                return out - DAYS_1904 if isinstance(out, int | float) and not isinstance(out, bool) else out
        return original(value)

    text.xvalue = xvalue  # TEXT converts its value through this name too
    formulas.get_functions()["VALUE"] = wrap_ufunc(xvalue, input_parser=lambda *a: a)


#: Colours (``[Red]``, ``[Color10]``) and locale tags (``[$-409]``, ``[$€-407]`` keeps ``€``) in number
#: formats: TEXT ignores colours and locales; the engine rejected the format.
_COLOURS = re.compile(r"\[(?:black|blue|cyan|green|magenta|red|white|yellow|color\s*\d+)\]", re.IGNORECASE)
_LOCALE = re.compile(r"\[\$([^\]-]*)-[0-9A-Za-z-]+\]")
_QUOTED = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|_.|\*.')
_DATE_CODES = re.compile(r"[dmyhs]|AM/PM|A/P", re.IGNORECASE)


#: Excel's first 60 serials follow a calendar where 1900 is a leap year starting on a Sunday (serial 60
#: is the fictitious 29 February 1900). 1928 is such a year: serial s < 61 is shown as serial
#: s + 10227 (1928-01-01 is serial 10228), with the year written as 1900.
_LEAP_PROXY = 10227
_YEAR_CODE = re.compile(r'("[^"]*"|\\.|\[[^\]]*\])|(y+)', re.IGNORECASE)


def _fixed_year(code: str) -> str:
    """The format with its year codes replaced by 1900 (``yyyy``) or 00 (``yy``) as literal text."""
    return _YEAR_CODE.sub(lambda m: m.group(1) or ('"1900"' if len(m.group(2)) > 2 else '"00"'), code)


_DATE_TOKEN = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|AM/PM|A/P|d+|m+|y+|h+|s+|.', re.IGNORECASE)


def day_zero_code(code: str) -> str:
    """A date format for Excel's day 0, ``1900-01-00`` (a Saturday), shown through the proxy serial
    10227 (1927-12-31, also a Saturday): year, month and day codes become that date's text, weekday
    names and times are left to the engine. A blank cell formatted ``TEXT(A1,"dd/mm/yyyy")`` is
    ``00/01/1900``. An ``m`` after ``h`` or before ``s`` is minutes and stays."""
    tokens = [m.group(0) for m in _DATE_TOKEN.finditer(code)]
    codes = [i for i, t in enumerate(tokens) if t[:1].lower() in "dmyhs" and not t.startswith(("[", '"'))]
    out = list(tokens)
    for k, i in enumerate(codes):
        tok = tokens[i]
        low = tok.lower()
        if low[0] == "y":
            out[i] = '"1900"' if len(low) > 2 else '"00"'
        elif low[0] == "d" and len(low) <= 2:
            out[i] = '"0"' if len(low) == 1 else '"00"'
        elif low[0] == "m":
            before = tokens[codes[k - 1]].lower()[0] if k else ""
            after = tokens[codes[k + 1]].lower()[0] if k + 1 < len(codes) else ""
            if len(low) <= 2 and (before == "h" or after == "s"):
                continue
            out[i] = {1: '"1"', 2: '"01"', 3: '"Jan"', 4: '"January"', 5: '"J"'}.get(len(low), '"January"')
    return "".join(out)


#: ``_x`` (a space as wide as ``x``) and ``*x`` (repeat ``x`` to fill the cell) outside quotes: TEXT
#: shows a space for the first and nothing for the second (``#,##0.00_)`` is ``1,234.50 ``).
_SPACING = re.compile(r'("[^"]*"|\\.|\[[^\]]*\])|_.|\*.')


def text_section(code: str) -> str | None:
    """The section a format shows text with: the fourth, or the last when it holds ``@``."""
    sections = format_sections(code)
    if len(sections) >= 4:
        return sections[3]
    if "@" in _QUOTED.sub("", sections[-1]):
        return sections[-1]
    return None


def show_text(section: str, text: str) -> str:
    """A text section with ``@`` as the text, quoted parts and escaped characters as themselves."""
    out = []
    for m in re.finditer(r'"([^"]*)"|\\(.)|(@)|(.)', section):
        quoted, escaped, at, other = m.groups()
        out.append(quoted if quoted is not None else escaped or (text if at else other or ""))
    return "".join(out)


def integer_digits(code: str) -> str:
    """A number format whose decimal point has no digit placeholder before it still shows the whole
    number (``.#`` shows 890123.45 as ``890123.5``): a ``#`` is put before the point."""
    masked = _QUOTED.sub(lambda m: "\0" * len(m.group(0)), code)
    point = masked.find(".")
    if point < 0 or re.search("[0#?]", masked[:point]) or not re.search("[0#?]", masked[point:]):
        return code
    return code[:point] + "#" + code[point:]


def format_sections(code: str) -> list[str]:
    """A number format's ``;``-separated sections (a ``;`` inside quotes or after ``\\`` is text)."""
    out, start, i, quoted = [], 0, 0, False
    while i < len(code):
        ch = code[i]
        if ch == '"':
            quoted = not quoted
        elif ch == "\\" and not quoted:
            i += 1
        elif ch == ";" and not quoted:
            out.append(code[start:i])
            start = i + 1
        i += 1
    out.append(code[start:])
    return out


def format_decimals(code: str) -> tuple[int, int] | None:
    """(decimal places, number of %) of a number format's first section; None for dates, times,
    scientific or General formats (whose rounding the engine already does like Excel)."""
    section = _QUOTED.sub("", code).split(";")[0]
    if not section or _DATE_CODES.search(section) or "E" in section.upper() or "GENERAL" in section.upper():
        return None
    if not re.search(r"[0#?]", section):
        return None
    decimals = 0
    if "." in section:
        decimals = len(re.findall(r"[0#?]", section.split(".", 1)[1]))
    return decimals, section.count("%")


def patch_rounding() -> None:
    """ROUND, ROUNDUP and ROUNDDOWN round the decimal value Excel shows, halves away from zero:
    ``ROUND(1.005,2)`` is 1.01 (the engine: 1.0), ``ROUNDUP(0.1+0.2,1)`` is 0.3 (the engine: 0.4).
    TEXT rounds halves away from zero too: ``TEXT(1234.5,"#,##0")`` is ``1,235`` (the engine: 1,234);
    it shows a negative number in the format's second section without a minus (``TEXT(-5,"0;(0)")`` is
    ``(5)``; the engine: ``-(5)``), ``"General"`` as a number's own text (the engine: #VALUE!), and
    ignores colours and locale tags (``[Red]``, ``[$-409]``; the engine: #VALUE!). Dates before
    1 March 1900 follow Excel's calendar, which has a 29 February 1900: ``TEXT(60,"yyyy-mm-dd")`` is
    ``1900-02-29`` and serial 1 is a Sunday (the engine: #VALUE! and Monday)."""
    import formulas
    import formulas.functions.text as text
    from formulas.functions import wrap_ufunc

    fns = formulas.get_functions()
    fns["ROUND"] = wrap_ufunc(lambda x, d: excel_round(x, d, "round"))
    fns["ROUNDUP"] = wrap_ufunc(lambda x, d: excel_round(x, d, "up"))
    fns["ROUNDDOWN"] = wrap_ufunc(lambda x, d: excel_round(x, d, "down"))
    original = text.xtext

    def xtext(value: Any, format_code: Any) -> Any:
        from formulas.functions import Error, XlError

        code = "" if _is_blank(format_code) else _COLOURS.sub("", str(format_code))
        code = _LOCALE.sub(lambda m: m.group(1) or "", code)
        code = _SPACING.sub(lambda m: m.group(1) or (" " if m.group(0)[0] == "_" else ""), code)
        if isinstance(value, str) and not isinstance(value, XlError) and not _is_blank(value):
            number = text_number(value)
            if number is None:
                number = time_text(value)
            if number is None:
                section = text_section(code)
                if section is not None:
                    return show_text(section, value)
                return value if looks_like_time(value) else original(value, code)  # "24:99" is text
            value = number
        if isinstance(value, int | float) and not isinstance(value, bool):
            if code == "":
                return "-" if value < 0 else ""
            if re.search(r"\[[<>=]", code):  # conditional sections ([<=1]a;[=2]b): the engine's own
                return original(value, code)
            sections = format_sections(code)
            if len(sections) >= 2 and "@" in _QUOTED.sub("", sections[-1]):
                sections = sections[:-1]  # the text section
            if len(sections) >= 2 and value < 0:  # the negative section shows the size: "0;(0)"
                code, value = sections[1], -value
            elif len(sections) >= 3 and value == 0:
                code = sections[2]
            else:
                code = sections[0]
            if code.strip().casefold() == "general" or code.strip() == "@":
                return number_text(float(value))
            dated = _DATE_CODES.search(_QUOTED.sub("", code)) is not None and format_decimals(code) is None
            elapsed = re.search(r"\[(h+|m+|s+)\]", code, re.IGNORECASE) is not None
            if (dated or elapsed) and (value < 0 or value >= 2958466):
                return Error.errors["#VALUE!"]  # no date or time before day 0 or after 9999
            shown = elapsed_time(float(value), code)
            if shown is None and not dated:
                shown = fraction_text(float(value), code)
                if shown is None:
                    value, code = scale_thousands(float(value), code)
                    code = integer_digits(code)
            if shown is not None:
                return shown
            if is_1904() and dated:
                value = value + DAYS_1904  # a 1904 workbook's date shown by the 1900 calendar
            if 0 <= value < 1 and dated and re.search("[dmy]", _QUOTED.sub("", code), re.I):
                return original(value + _LEAP_PROXY, day_zero_code(code))
            if 1 <= value < 61 and dated:
                return original(value + _LEAP_PROXY, _fixed_year(code))
            spec = format_decimals(code)
            if spec is not None:
                decimals, percents = spec
                scale = 100.0**percents
                value = excel_round(float(value) * scale, decimals) / scale
        return original(value, code)

    text.xtext = xtext
    def text_of(value: Any, format_code: Any) -> Any:
        """TEXT's arguments with blanks kept apart: a blank value is 0, a blank format is ``""``."""
        if isinstance(format_code, int | float) and not isinstance(format_code, bool):
            format_code = number_text(float(format_code))  # TEXT(3,3): the format "3"
        return xtext(0.0 if _is_blank(value) else value, format_code)

    fns["TEXT"] = wrap_ufunc(text_of, input_parser=lambda *a: a, args_parser=lambda *a: a)


def patch_date_parts() -> None:
    """TEXT's one-letter date and time codes (``d``, ``m``, ``h``, ``s``) drop a leading zero only:
    day 30 is ``30`` and midnight's hour is ``0``; with ``AM/PM`` or ``A/P`` hours run 1-12
    (``TEXT(0.75,"h:mm AM/PM")`` is ``6:00 PM``; the engine: ``18:00 PM``). The engine stripped zeros on both sides (``"30"`` ->
    ``"3"``, October's ``m`` -> ``"1"``, hour 0 -> ``""``). Its ``_format_datetime``, which TEXT looks up
    at call time, is replaced by the same code with that one line corrected."""
    import datetime as dt
    import json

    import formulas.functions.text as text
    from formulas.functions.date import _int2date, _n2time

    def format_datetime(value: Any, codes: Any, types: Any) -> Any:
        codes = codes.copy()
        moment = dt.datetime(*(_int2date(value) + _n2time(value)))
        twelve = any(str(codes[i]).upper() in ("AM/PM", "A/P") for i in types.get("time", ()))
        parts = json.loads(
            format(
                moment,
                '{"yyy":"%Y","yy":"%y","mm":"%m","mmm":"%b","mmmm":"%B",'
                '"dd":"%d","ddd":"%a","dddd":"%A","HH":"' + ("%I" if twelve else "%H") + '","MM":"%M",'
                '"SS":"%S","AM/PM":"%p"}',
            )
        )
        for k in "mdHSM":
            parts[k] = parts[f"{k}{k}"].lstrip("0") or "0"
        parts["mmmmm"] = parts["mmm"][0]
        parts["m+"] = parts["mmmm"]
        parts["d+"] = parts["dddd"]
        parts["y"] = parts["yy"]
        parts["y+"] = parts["yyy"]
        parts["H+"] = parts["HH"]
        parts["S+"] = parts["SS"]
        parts["A/P"] = parts["AM/PM"].replace("M", "")
        parts["a/P"] = parts["A/P"].replace("A", "a")
        parts["A/p"] = parts["A/P"].replace("P", "p")
        parts["a/p"] = parts["A/P"].lower()
        for k in ("date", "time"):
            for i in types.get(k, ()):
                v = codes[i]
                try:
                    v = parts[v]
                except KeyError:
                    v = parts[f"{v[0]}+"]
                codes[i] = v
        return codes

    text._format_datetime = format_datetime


def patch_trim() -> None:
    """TRIM removes leading and trailing spaces and leaves single spaces between words:
    ``TRIM("  a  b ")`` is ``"a b"`` (the engine kept ``"a  b"``)."""
    import formulas
    import formulas.functions.text as text
    from formulas.functions import wrap_ufunc

    fns = formulas.get_functions()
    fns["TRIM"] = wrap_ufunc(excel_trim, **text._kw1)


def _snapped(side: Any) -> Any:
    type_id, v = side
    if isinstance(v, int | float) and not isinstance(v, bool):
        return type_id, significant(float(v))
    return side


def _comparable(x: Any, y: Any) -> tuple[Any, Any]:
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


def patch_comparisons() -> None:
    """Excel compares numbers on 15 significant digits: ``=0.1+0.2=0.3`` is TRUE (the engine: FALSE);
    a blank cell equals FALSE beside a logical (``=A1=FALSE`` over a blank is TRUE; the engine: FALSE),
    ``""`` beside text and 0 beside a number."""
    from formulas.functions import wrap_ufunc
    from formulas.functions.operators import LOGIC_OPERATORS, OPERATORS

    for name, fn in LOGIC_OPERATORS.items():
        OPERATORS[name] = wrap_ufunc(
            lambda x, y, fn=fn: fn(_snapped(x), _snapped(y)),
            input_parser=_comparable,
            args_parser=lambda *a: a,
        )


def wildcard_pattern(text: str) -> re.Pattern[str] | None:
    """Excel's criteria wildcards as a case-insensitive whole-text regex: ``*`` any run, ``?`` one
    character, ``~*``/``~?``/``~~`` the character itself; None when ``text`` has no wildcard."""
    out, i, wild = [], 0, False
    while i < len(text):
        ch = text[i]
        if ch == "~" and i + 1 < len(text) and text[i + 1] in "*?~":
            out.append(re.escape(text[i + 1]))
            i += 2
            continue
        if ch in "*?":
            wild = True
            out.append(".*" if ch == "*" else ".")
        else:
            out.append(re.escape(ch))
        i += 1
    return re.compile("".join(out), re.IGNORECASE | re.DOTALL) if wild else None


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


def _criterion_test(op: str, operand: Any) -> Any:
    """A function of one cell value (blanks are ``""``): whether it meets ``op operand``."""
    import numpy as np
    from formulas.functions import XlError, _text2num

    compare = {
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        "<": lambda a, b: a < b,
        ">": lambda a, b: a > b,
        "=": lambda a, b: a == b,
    }[op]
    if operand is None:  # "=": blank cells only
        return lambda v: isinstance(v, str) and v == "" and not isinstance(v, XlError)
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
                if v == "":
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
            return lambda v: isinstance(v, str) and not isinstance(v, XlError) and pattern.fullmatch(v) is not None
        folded = text.casefold()
        return lambda v: isinstance(v, str) and not isinstance(v, XlError) and v.casefold() == folded
    folded = text.casefold()
    return lambda v: isinstance(v, str) and not isinstance(v, XlError) and v != "" and compare(v.casefold(), folded)


def criteria_mask(raw: Any, condition: Any) -> Any:
    """Which cells of ``raw`` (blanks as ``""``) meet an Excel criterion, as a boolean array."""
    import numpy as np

    op, operand = parse_criterion(condition)
    values = np.asarray(raw, dtype=object)
    if op == "<>":
        if operand == "":  # "<>": every cell that is not blank
            test = _criterion_test("=", None)
            return ~np.vectorize(test, otypes=[bool])(values) if values.size else np.zeros(values.shape, bool)
        test = _criterion_test("=", operand)
        return ~np.vectorize(test, otypes=[bool])(values) if values.size else np.zeros(values.shape, bool)
    if op == "=" and isinstance(operand, str) and operand == "":
        test = _criterion_test("=", None)  # "": blank cells (and cells of empty text)
    else:
        test = _criterion_test(op, operand)
    return np.vectorize(test, otypes=[bool])(values) if values.size else np.zeros(values.shape, bool)


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
    * ``"="`` counts blank cells (the engine: none).

    Installed before the grouped COUNTIF path takes the engine's criterion test, so both use this one."""
    import formulas.functions as engine_functions

    def mask(test_range: Any, condition: Any) -> Any:
        return criteria_mask(test_range["raw"], condition)

    setattr(engine_functions, "__xfilter", mask)


def _to_step(number: float, significance: float, mode: float, up: bool) -> float:
    """CEILING.MATH (``up``) / FLOOR.MATH: to a multiple of |significance|; a negative number with a
    non-zero mode goes the other way (away from zero for CEILING, toward zero for FLOOR)."""
    step = abs(significance)
    if step == 0:
        return 0.0
    q = number / step
    towards_plus = up != bool(number < 0 and mode)
    return (math.ceil(q) if towards_plus else math.floor(q)) * step


def _ceiling_math(number: float, significance: float = 1, mode: float = 0) -> float:
    return _to_step(number, significance, mode, up=True)


def _floor_math(number: float, significance: float = 1, mode: float = 0) -> float:
    return _to_step(number, significance, mode, up=False)


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


def _power(base: float, exponent: float) -> Any:
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


def patch_functions() -> None:
    """Functions the engine gets wrong or lacks:

    * CEILING.MATH and FLOOR.MATH of negative numbers (``CEILING.MATH(-1.5)`` is -1, ``FLOOR.MATH(-1.5)``
      is -2, the engine: 2 and 1); with a non-zero mode, away from / toward zero;
    * DATEDIF's unit in lower case (``"d"``, the engine: #NUM!);
    * QUOTIENT, COMBIN and DOLLAR, which it lacks (``DOLLAR(-1234.567)`` is ``($1,234.57)``)."""
    import formulas
    from formulas.functions import wrap_ufunc

    fns = formulas.get_functions()
    for name, fn in (
        ("CEILING.MATH", _ceiling_math),
        ("FLOOR.MATH", _floor_math),
        ("QUOTIENT", _quotient),
        ("COMBIN", _combin),
        ("DOLLAR", _dollar),
        ("MROUND", _mround),
        ("POWER", _power),
    ):
        fns[name] = fns[f"_XLFN.{name}"] = wrap_ufunc(fn)
    datedif = fns["DATEDIF"]

    def datedif_any_case(start: Any, end: Any, unit: Any) -> Any:
        import numpy as np

        if isinstance(unit, str):
            unit = unit.upper()
        elif isinstance(unit, np.ndarray):
            unit = np.vectorize(lambda u: u.upper() if isinstance(u, str) else u, otypes=[object])(unit)
        return datedif(start, end, unit)

    fns["DATEDIF"] = datedif_any_case


#: Aggregates that ignore text in ranges and arrays, numeric text included (Excel's SUM(A1:A3) over
#: 3, "5", 2 is 5; the engine made it 10, and AVERAGE, MIN, MAX, MEDIAN... #VALUE!).
TEXT_BLIND = (
    "SUM PRODUCT AVERAGE MIN MAX MEDIAN COUNT STDEV STDEV.S STDEV.P STDEVP VAR VAR.S VAR.P VARP "
    "SUMPRODUCT GEOMEAN HARMEAN AVEDEV DEVSQ"
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

            fns[key] = blind


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


def _is_number(v: Any) -> bool:
    import numpy as np
    from formulas.functions import XlError

    return isinstance(v, int | float | np.number) and not isinstance(v, bool | np.bool_ | XlError)


def patch_isnumber() -> None:
    """ISNUMBER is TRUE for numbers only: ``ISNUMBER("5")`` and ISNUMBER of a cell holding the text
    ``5`` are FALSE (the engine: TRUE, it tried ``float()`` on text)."""
    import functools

    import formulas
    from formulas.functions import wrap_ranges_func
    from formulas.functions.info import FalseArray, iserror

    formulas.get_functions()["ISNUMBER"] = wrap_ranges_func(
        functools.partial(iserror, check=_is_number, array=FalseArray)
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
    if isinstance(weekend, bool) or isinstance(weekend, int | float):
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
    #VALUE! for any such start)."""
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
    * XLOOKUP returning several columns (or rows) gives the whole matched row (or column):
      ``XLOOKUP(2,A1:A3,A1:C3)`` is A2:C2 (the engine flattened the return array and gave one cell);
    * VLOOKUP and HLOOKUP with a column or row index below 1 are ``#VALUE!`` (the engine: a value);
    * LOOKUP's array form searches the first row of an array wider than tall, else the first column,
      and gives the last row's or column's value (``LOOKUP(2,A1:C3)`` is C2)."""
    import formulas
    import numpy as np
    import schedula as sh
    from formulas.functions import Array, Error, XlError
    from formulas.tokens.operand import Error as ErrorToken

    for code in ("#CALC!", "#SPILL!"):
        if code not in ErrorToken.errors:
            ErrorToken.errors[code] = XlError(code)
    errors = Error.errors
    fns = formulas.get_functions()

    filter_fn = fns["FILTER"]

    def filter_calc(array: Any, include: Any, if_empty: Any = errors["#CALC!"]) -> Any:
        return filter_fn(array, include, if_empty)

    for key in ("FILTER", "_XLFN.FILTER", "_XLFN._XLWS.FILTER"):
        fns[key] = filter_calc

    xlookup, xmatch = fns["XLOOKUP"], fns["XMATCH"]

    def first(v: Any) -> Any:
        return v.ravel()[0] if isinstance(v, np.ndarray) and v.size else v

    def is_missing(v: Any) -> bool:
        return v is None or v is sh.EMPTY or (type(v) is type(sh.EMPTY) and str(v) == "empty")

    def xlookup_lines(lookup: Any, vector: Any, result: Any, *rest: Any) -> Any:
        if (
            isinstance(vector, np.ndarray)
            and isinstance(result, np.ndarray)
            and vector.ndim == result.ndim == 2
            and not (isinstance(lookup, np.ndarray) and lookup.size > 1)
        ):
            h, w = vector.shape
            rh, rw = result.shape
            down = w == 1 and h == rh and rw > 1
            across = h == 1 and w == rw and rh > 1 and w > 1
            if down or across:
                not_found = rest[0] if rest and not is_missing(first(rest[0])) else errors["#N/A"]
                position = first(xmatch(lookup, vector, *rest[1:3]))
                if isinstance(position, XlError):
                    return not_found if str(position) == "#N/A" else position
                i = int(position) - 1
                line = result[i : i + 1, :] if down else result[:, i : i + 1]
                return np.asarray(line, dtype=object).view(Array)
        return xlookup(lookup, vector, result, *rest)

    for key in ("XLOOKUP", "_XLFN.XLOOKUP"):
        fns[key] = xlookup_lines

    lookup = fns["LOOKUP"]

    def lookup_array_form(value: Any, array: Any, *result: Any) -> Any:
        if not result and isinstance(array, np.ndarray) and array.ndim == 2 and min(array.shape) > 1:
            h, w = array.shape  # wider than tall: search the first row, else the first column
            if w > h:
                return lookup(value, array[:1, :].view(Array), array[-1:, :].view(Array))
            return lookup(value, array[:, :1].view(Array), array[:, -1:].view(Array))
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


def _count(*args: Any) -> Any:
    """COUNT: numbers in references and arrays; values typed as arguments count when they are numbers,
    logicals or text that reads as a number (``COUNT(1,"2","x")`` is 2; the engine: #VALUE!)."""
    import numpy as np
    from formulas.functions import XlError

    n = 0
    for a in args:
        if isinstance(a, np.ndarray):
            n += sum(1 for v in a.ravel() if _is_number(v))
        elif _is_blank(a) or isinstance(a, XlError):
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
        n += sum(1 for v in values if not _is_blank(v))
    return float(n)


def _textjoin(delimiter: Any, ignore_empty: Any, *texts: Any) -> Any:
    """TEXTJOIN with ``ignore_empty`` skipping empty text as well as blank cells
    (``TEXTJOIN("-",TRUE,"a","","b")`` is ``a-b``; the engine: ``a--b``). Errors are returned."""
    import numpy as np
    from formulas.functions import Error, XlError

    def items(v: Any) -> list[Any]:
        return list(v.ravel()) if isinstance(v, np.ndarray) else [v]

    delims = [d for d in items(delimiter) if not _is_blank(d)] or [""]
    for d in delims:
        if isinstance(d, XlError):
            return d
    skip = items(ignore_empty)[0]
    if isinstance(skip, XlError):
        return skip
    skip_empty = bool(to_number(skip)) if isinstance(skip, str) and not _is_blank(skip) else bool(
        False if _is_blank(skip) else skip
    )
    parts: list[str] = []
    for t in texts:
        for v in items(t):
            if isinstance(v, XlError):
                return v
            text = "" if _is_blank(v) else _as_text(v)
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


def complex_text(real: float, imaginary: float, suffix: str = "i") -> str:
    """A complex number as Excel writes it (COMPLEX, IMSUM, IMEXP...): each part with 15 significant
    digits, ``i`` alone for a coefficient of 1, no zero parts: ``1.11340206185567+1.49484536082474i``
    (the engine wrote Python's 17 digits)."""
    from formulas.functions import Error, FoundError

    if not (math.isfinite(real) and math.isfinite(imaginary)):
        raise FoundError(err=Error.errors["#NUM!"])
    real, imaginary = significant(real), significant(imaginary)

    def part(x: float) -> str:
        text = number_text(x)
        if x != 0 and abs(x) < 1e-5 and "E" not in text:  # complex parts turn scientific sooner
            mantissa, exponent = f"{x:.14e}".split("e")
            e = int(exponent)
            text = f"{mantissa.rstrip('0').rstrip('.')}E{'+' if e >= 0 else '-'}{abs(e):02d}"
        return text

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
    (ta, va), (tb, vb) = _comparable(a, b)
    return bool(ta == tb and _snapped((ta, va))[1] == _snapped((tb, vb))[1])


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
        number = 0.0 if _is_blank(value) else to_number(value)
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
    if not isinstance(text, str) or _is_blank(text) or text_number(text) is not None:
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
    if isinstance(value, str) and not _is_blank(value):
        return 2.0
    return 1.0


def patch_logic() -> None:
    """SWITCH, N, TYPE, ISEVEN, ISODD and TIMEVALUE as Excel compares and converts."""
    import formulas
    from formulas.functions import get_error, wrap_func, wrap_ufunc

    fns = formulas.get_functions()
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

    import numpy as np
    from formulas.functions import Error, XlError

    values = []
    for v in (basis, start_date, end_date):
        if isinstance(v, np.ndarray):
            v = v.ravel()[0] if v.size else 0.0
        v = 0.0 if _is_blank(v) else v
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
        if y1 == y2 and leap(y1):
            length = 366.0
        elif (leap(y1) and (m1, day1) < (3, 1)) or (leap(y2) and (m2, day2) >= (3, 1)):
            length = 366.0
        else:
            length = 365.0
        return days / length
    span = sum(366 if leap(y) else 365 for y in range(y1, y2 + 1))
    return days / (span / (y2 - y1 + 1))


def patch_yearfrac() -> None:
    """YEARFRAC as Excel counts: ``YEARFRAC(DATE(2024,1,31),DATE(2025,1,31),1)`` is 1 (the engine:
    0.9986), US 30/360 month ends, #NUM! for a basis outside 0-4."""
    import formulas
    from formulas.functions import wrap_func

    fns = formulas.get_functions()
    fns["YEARFRAC"] = fns["_XLFN.YEARFRAC"] = wrap_func(_yearfrac)


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


def patch_all() -> None:
    """Every patch of this module, in order."""
    patch_criteria()
    patch_double_minus()
    patch_number_text()
    patch_text_numbers()
    patch_rounding()
    patch_trim()
    patch_date_parts()
    patch_comparisons()
    patch_functions()
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
    patch_date1904()  # it wraps the date functions installed above
    patch_scalar_arguments()  # last: it wraps every function that takes single values

"""TEXT, ROUND and TRIM as Excel formats and rounds (patches of the `formulas` engine).

* ``patch_rounding``: ROUND/ROUNDUP/ROUNDDOWN on the shown decimal value, and TEXT: halves away from
  zero, a format's negative, zero and text sections, ``General`` and ``@``, colours and locale tags
  ignored, ``_x`` and ``*x``, elapsed time, fractions, thousands scaling, Excel's day 0 and its
  29 February 1900, the 1904 date system, no date below 0 or after 9999;
* ``patch_date_parts``: TEXT's ``d``/``m``/``h`` keep the zero of 10, 20, 30 and midnight, 12-hour
  clock with AM/PM;
* ``patch_trim``: TRIM collapses inner runs of spaces;
* ``patch_characters``: CHAR and CODE in the platform's character set (:mod:`_platform`), SEARCH
  with wildcards.
"""

from __future__ import annotations

import operator
import re
from typing import Any

from gridsight.formula._date1904 import DAYS_1904, is_1904
from gridsight.formula._excel_coerce import as_text, is_blank
from gridsight.formula._excel_values import (
    _masked,
    date_time_value,
    elapsed_time,
    excel_round,
    excel_trim,
    fraction_text,
    general_text,
    looks_like_time,
    number_text,
    scale_thousands,
    text_value,
    wildcard_regex,
)
from gridsight.formula._platform import encoding

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


def rejected_format(code: str) -> bool:
    """A format Excel does not accept, so TEXT gives #VALUE!: a section that mixes digit placeholders
    (``0 # ?``) with ``@`` or with date codes (``#.0Y00``; a fraction of seconds, ``ss.00``, is
    fine), or ``@`` in a section of a four-section format other than the fourth (the text one)."""
    sections = format_sections(code)
    for i, section in enumerate(sections):
        plain = _masked(section)
        digits = re.search(r"[0#?]", re.sub(r"s+\.0+", "", plain, flags=re.IGNORECASE))
        if "@" in plain and (digits or (len(sections) == 4 and i < 3)):
            return True
        if digits and re.search(r"[ymdhs]", plain, re.IGNORECASE):
            return True
    return False


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


_CONDITION = re.compile(
    r"^\s*(?:\[[^\]<>=]*\])*\[(<=|>=|<>|<|>|=)\s*(-?[0-9]*\.?[0-9]+(?:E[-+]?[0-9]+)?)\]", re.IGNORECASE
)


def conditional_section(code: str, value: float) -> str | None:
    """The section a format with conditions (``[<10]0.0;[>=100]0;0``) shows ``value`` with: the
    first of the first two sections whose condition holds, else the first section without one;
    ``General`` when there is none (10 in ``[<10]0 "Wow"`` is ``10``). None when the format has no
    conditions."""
    sections = format_sections(code)
    conditions = [_CONDITION.match(s) for s in sections]
    if not any(conditions):
        return None
    tests = {"<": operator.lt, ">": operator.gt, "=": operator.eq, "<=": operator.le, ">=": operator.ge}
    for section, m in list(zip(sections, conditions, strict=True))[:2]:
        if m and tests.get(m.group(1), operator.ne)(float(value), float(m.group(2))):
            return section[: m.start(1) - 1] + section[m.end() :]
    rest = [
        s for s, m in zip(sections, conditions, strict=True) if m is None and "@" not in _QUOTED.sub("", s)
    ]
    return rest[0] if rest else "General"


_SECOND_FRACTION = re.compile(r"(s+)(\.0+)", re.IGNORECASE)


def second_fractions(value: float, code: str) -> tuple[float, str]:
    """A date or time format with fractions of a second (``hh:mm:ss.000``): the value rounded to them,
    whole seconds left for the engine to show, and the fraction's digits written into the format as
    text (the engine showed whole seconds only: ``04:05:06.000`` for Excel's ``04:05:06.009``).
    Without fractions the value is rounded to the second (the engine: ``#VALUE!`` for 59.99996
    seconds, which it made a 60th second)."""
    masked = _QUOTED.sub(lambda m: "\0" * len(m.group(0)), code)
    m = _SECOND_FRACTION.search(masked)
    if value < 0:
        return value, code
    if m is None:  # whole seconds: 23:59:59.9996 is shown as the next day's 00:00:00, as Excel does
        return excel_round(value * 86400, 0) / 86400, code
    decimals = len(m.group(2)) - 1
    scale = 10**decimals
    ticks = int(excel_round(value * 86400 * scale, 0))
    whole, fraction = divmod(ticks, scale)
    digits = str(fraction).rjust(decimals, "0")
    return whole / 86400, code[: m.start(2)] + '".' + digits + '"' + code[m.end(2) :]


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
    """ROUND, ROUNDUP, ROUNDDOWN and TRUNC round the decimal value Excel shows, halves away from zero:
    ``ROUND(1.005,2)`` is 1.01 (the engine: 1.0), ``ROUNDUP(0.1+0.2,1)`` is 0.3 (the engine: 0.4),
    ``TRUNC(0.2-1,1)`` is -0.8 (the engine: -0.7, from -0.7999999999999998).
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
    fns["TRUNC"] = wrap_ufunc(lambda x, d=0: excel_round(x, d, "down"))
    original = text.xtext

    def xtext(value: Any, format_code: Any) -> Any:
        from formulas.functions import Error, XlError

        code = "" if is_blank(format_code) else _COLOURS.sub("", str(format_code))
        code = _LOCALE.sub(lambda m: m.group(1) or "", code)
        code = _SPACING.sub(lambda m: m.group(1) or (" " if m.group(0)[0] == "_" else ""), code)
        if rejected_format(code):
            return Error.errors["#VALUE!"]
        if isinstance(value, bool):  # a logical is shown as its text, in the text section if any
            value = "TRUE" if value else "FALSE"
            section = text_section(code)
            return value if section is None else show_text(section, value)
        if isinstance(value, str) and not isinstance(value, XlError) and not is_blank(value):
            number = text_value(value)
            if number is None:
                number = date_time_value(value)
                if number is not None and is_1904():
                    number -= DAYS_1904  # the workbook's own serial, shown below from its calendar
            if number is None:
                section = text_section(code)
                if section is not None:
                    return show_text(section, value)
                if code.strip().casefold() == "general":
                    return value
                return value if looks_like_time(value) else original(value, code)  # "24:99" is text
            value = number
        if isinstance(value, int | float) and not isinstance(value, bool):
            if code == "":
                return "-" if value < 0 else ""
            chosen = conditional_section(code, float(value))
            if chosen is not None:
                return xtext(value, chosen)
            sections = format_sections(code)
            if len(sections) >= 2 and "@" in _QUOTED.sub("", sections[-1]):
                sections = sections[:-1]  # the text section
            if (
                len(sections) == 1 and value < 0 and not _DATE_CODES.search(_QUOTED.sub("", code))
            ):  # no minus on a number shown as zero: "0" for -0.0001
                shown_text = xtext(-value, code)
                if (
                    isinstance(shown_text, str)
                    and re.search("[0#?]", _QUOTED.sub("", code))  # the number shown in digits...
                    and not re.search("[1-9]", shown_text)  # ... all of them zero
                ):
                    return shown_text
            if len(sections) >= 2 and value < 0:  # the negative section shows the size: "0;(0)"
                code, value = sections[1], -value
            elif len(sections) >= 3 and value == 0:
                code = sections[2]
            else:
                code = sections[0]
            if code.strip().casefold() == "general":
                return general_text(float(value))
            if code.strip() == "@":
                return number_text(float(value))
            dated = _DATE_CODES.search(_QUOTED.sub("", code)) is not None and format_decimals(code) is None
            elapsed = re.search(r"\[(h+|m+|s+)\]", code, re.IGNORECASE) is not None
            shown = elapsed_time(float(value), code)
            if shown is not None and (0 <= value < 2958466 or re.fullmatch(r"\s*\[(h+|m+|s+)\]\s*", code)):
                return shown  # a lone [h], [m] or [s] has no calendar: any size, negatives too
            if (dated or elapsed) and (value < 0 or value >= 2958466):
                return Error.errors["#VALUE!"]  # no date or time before day 0 or after 9999
            if not dated:
                shown = fraction_text(float(value), code)
                if shown is None:
                    value, code = scale_thousands(float(value), code)
                    code = integer_digits(code)
            if shown is not None:
                return shown
            if dated:
                value, code = second_fractions(float(value), code)
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
        return xtext(0.0 if is_blank(value) else value, format_code)

    fns["TEXT"] = wrap_ufunc(text_of, input_parser=lambda *a: a, args_parser=lambda *a: a)


def patch_grouping() -> None:
    """A number below 1 in a format with thousands separators shows no separator after its ones
    digit: ``TEXT(0,"#,##0")`` is ``0`` and ``TEXT(0.4,"#,##0.0")`` is ``0.4`` (the engine: ``0,`` and
    ``0,.4``). The engine marks the separators by appending ``,`` to the ``0`` placeholders and replaces
    them with the digits; with no digit before the point the last placeholder kept its mark."""
    import formulas.functions.text as text

    original = text._format_number

    def format_number(value: Any, codes: Any, types: Any, fstr: Any, mul: Any) -> Any:
        out = original(value, codes, types, fstr, mul)
        for i in types.get("number", ())[-1:]:
            if out[i + 1] == codes[i] and codes[i].endswith(","):  # out[0] is the sign
                out[i + 1] = codes[i][:-1]
        return out

    text._format_number = format_number


def patch_date_parts() -> None:
    """TEXT's one-letter date and time codes (``d``, ``m``, ``h``, ``s``) drop a leading zero only:
    day 30 is ``30`` and midnight's hour is ``0``; with ``AM/PM`` or ``A/P`` hours run 1-12
    (``TEXT(0.75,"h:mm AM/PM")`` is ``6:00 PM``; the engine: ``18:00 PM``). The engine stripped zeros
    on both sides (``"30"`` -> ``"3"``, October's ``m`` -> ``"1"``, hour 0 -> ``""``). Its
    ``_format_datetime``, which TEXT looks up at call time, is replaced by the same code with those
    lines corrected."""
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


def _char(number: float) -> Any:
    """CHAR: the character of the platform's set, code page 1252 on Windows (``CHAR(160)`` a no-break
    space, ``CHAR(128)`` ``€``), the Macintosh set for a workbook Excel for Mac calculated."""
    from formulas.functions import Error

    n = int(number)
    if not 1 <= n <= 255:
        return Error.errors["#VALUE!"]
    try:
        return bytes([n]).decode(encoding())
    except UnicodeDecodeError:  # the five codes cp1252 leaves unassigned
        return chr(n)


def _code(text: Any) -> Any:
    """CODE: the code of the first character in the platform's set (63, ``?``, for one outside it)."""
    from formulas.functions import Error, XlError

    if isinstance(text, XlError):
        return text
    text = as_text(text) if not is_blank(text) else ""
    if not text:
        return Error.errors["#VALUE!"]
    first = text[0]
    try:
        return float(first.encode(encoding())[0])
    except UnicodeEncodeError:
        return float(ord(first)) if ord(first) < 256 and encoding() == "cp1252" else 63.0


def _search(find_text: Any, within_text: Any, start_num: Any = 1) -> Any:
    """SEARCH: the position of the first match, ignoring case, from ``start_num``; ``?`` and ``*`` are
    wildcards and ``~`` escapes them (``SEARCH("?n","banana")`` is 2; the engine: #VALUE!)."""
    from formulas.functions import Error

    find, within = as_text(find_text), as_text(within_text)
    start = int(start_num) if not is_blank(start_num) else 0  # a blank start is 0: #VALUE!
    if start < 1 or start > len(within) + 1:
        return Error.errors["#VALUE!"]
    regex, _wild = wildcard_regex(find)
    found = re.compile(regex, re.IGNORECASE | re.DOTALL).search(within, start - 1)
    return Error.errors["#VALUE!"] if found is None else float(found.start() + 1)


def patch_characters() -> None:
    """CHAR and CODE in the character set of the platform that calculated the workbook (the engine
    always used the Macintosh set), SEARCH with wildcards."""
    import formulas
    from formulas.functions import wrap_ufunc

    fns = formulas.get_functions()
    fns["CHAR"] = wrap_ufunc(_char)
    fns["CODE"] = wrap_ufunc(_code, args_parser=lambda *a: a, input_parser=lambda *a: a)
    fns["SEARCH"] = fns["SEARCHB"] = wrap_ufunc(_search, args_parser=lambda *a: a, input_parser=lambda *a: a)


def _occurrences(text: str, delimiters: list[str], fold: bool) -> list[tuple[int, int]]:
    """(start, end) of each delimiter found from the start, the earliest (then the longest) at each
    step, searching on after each one found."""
    hay = text.casefold() if fold else text
    needles = [d.casefold() if fold else d for d in delimiters]
    out, i = [], 0
    while i <= len(hay):
        found = [(hay.find(d, i), -len(d)) for d in needles if d and hay.find(d, i) != -1]
        if not found:
            break
        start, neg = min(found)
        out.append((start, start - neg))
        i = start - neg if neg else start + 1
    return out


def _text_around(after: bool, *args: Any) -> Any:
    """TEXTAFTER / TEXTBEFORE(text, delimiter, [instance_num], [match_mode], [match_end],
    [if_not_found]) as Excel documents them: the instance (rounded down) counted from the end when
    negative, 0 or more than the text can hold #VALUE!; ``match_end`` 1 takes the text's end (the
    start, counting from the end) for one more delimiter; ``if_not_found`` only when nothing is
    found (a blank cell: empty text), else #N/A."""
    import math

    import numpy as np
    from formulas.functions import Error, XlError

    from gridsight.formula._excel_coerce import as_text, single

    def one(v: Any, blank: Any = "") -> Any:
        return single(v, blank) if isinstance(v, np.ndarray) else (blank if is_blank(v) else v)

    if isinstance(args[0], np.ndarray) and args[0].size > 1:  # each text of an array
        from formulas.functions import Array

        out = np.empty(args[0].shape, dtype=object)
        for idx in np.ndindex(args[0].shape):
            out[idx] = _text_around(after, args[0][idx], *args[1:])
        return out.view(Array)
    text, delimiter = one(args[0]), args[1]
    rest = list(args[2:])
    if isinstance(text, XlError):
        return text
    delimiters = list(delimiter.ravel()) if isinstance(delimiter, np.ndarray) else [delimiter]
    for d in delimiters:
        if isinstance(d, XlError):
            return d
    delimiters = ["" if is_blank(d) else as_text(d) for d in delimiters]
    options: list[Any] = []
    for i, default in enumerate((1, 0, 0)):
        v = one(rest[i], 0) if i < len(rest) else default  # a blank cell is 0 (an instance of 0: #VALUE!)
        if isinstance(v, XlError):
            return v
        if isinstance(v, str):
            return Error.errors["#VALUE!"]
        options.append(math.floor(float(v)))  # INT: -1.2 is -2
    n, mode, match_end = options
    if n == 0 or mode not in (0, 1) or match_end not in (0, 1):
        return Error.errors["#VALUE!"]
    text = as_text(text)
    longest = max((len(d) for d in delimiters), default=0)
    if len(rest) >= 1 and abs(n) > len(text) - longest + 1:
        return Error.errors["#VALUE!"]
    found = _occurrences(text, delimiters, fold=mode == 1)
    if n < 0:
        found = found[::-1]
    k = abs(n)
    if k <= len(found):
        start, end = found[k - 1]
        return text[end:] if after else text[:start]
    if match_end and k == len(found) + 1:  # the text's end (its start, from the end) as a delimiter
        return ("" if n > 0 else text) if after else (text if n > 0 else "")
    if len(rest) >= 4:
        missing = rest[3]
        missing = single(missing, "") if isinstance(missing, np.ndarray) else missing
        return "" if is_blank(missing) else missing
    return Error.errors["#N/A"]


def patch_text_around() -> None:
    """TEXTAFTER and TEXTBEFORE (:func:`_text_around`): ``TEXTAFTER("123 the 456","the",1,0,1)`` is
    `` 456`` (the engine added the delimiter back at the end), a found delimiter ignores an error in
    ``if_not_found``, a delimiter longer than the text with an instance given is #VALUE!."""
    import functools

    import formulas

    fns = formulas.get_functions()
    for name, after in (("TEXTAFTER", True), ("TEXTBEFORE", False)):
        fn = functools.partial(_text_around, after)
        fns[name] = fns[f"_XLFN.{name}"] = fn

"""Excel's own rules for numbers as text, text as numbers, rounding and comparison.

Pure functions; :mod:`gridsight.formula._engine` installs them in the `formulas` engine where its
behaviour differs from Excel's (each difference is named in the patch that uses it):

* a number shown as text has at most 15 significant digits (``=1/3&""`` is ``0.333333333333333``);
* text that looks like a number is one in arithmetic and VALUE: ``"1,234"``, ``"12%"``, ``"$5"``,
  ``"(7)"``, ``" 3 "``; dates and times as text are left to the engine's own date parser;
* ROUND, ROUNDUP and ROUNDDOWN work on the decimal value Excel shows (``ROUND(1.005,2)`` is 1.01,
  ``ROUNDUP(0.1+0.2,1)`` is 0.3), halves away from zero;
* TRIM also collapses runs of inner spaces;
* comparisons of numbers are made on 15 significant digits (``=0.1+0.2=0.3`` is TRUE).
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal, InvalidOperation

_NUMBER_TEXT = re.compile(
    r"^(?P<neg_open>\()?(?P<sign>[+-])?(?P<cur>\$)?(?P<body>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)"
    r"(?:[eE](?P<exp>[+-]?\d+))?(?P<pct>%)?(?(neg_open)\))$"
)


def significant(x: float, digits: int = 15) -> float:
    """``x`` rounded to ``digits`` significant digits (Excel keeps 15)."""
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.{digits}g}")


def number_text(x: float) -> str:
    """A number as Excel writes it in text (``&``, CONCATENATE, LEFT...): 15 significant digits, no
    trailing zeros, scientific notation from 1E+15 up and below 1E-9."""
    if isinstance(x, bool):
        return "TRUE" if x else "FALSE"
    x = float(x)
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "#NUM!"
    text = f"{x:.15g}"
    exponent = Decimal(text).adjusted()
    if -10 < exponent < 15:
        out = format(Decimal(text), "f")
        if "." in out:
            out = out.rstrip("0").rstrip(".")
        return out
    mantissa, exp = f"{x:.14e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    e = int(exp)
    return f"{mantissa}E{'+' if e >= 0 else '-'}{abs(e):02d}"


def _significant_digits(text: str) -> int:
    digits = re.sub(r"[^0-9]", "", text.split("E")[0]).lstrip("0")
    return len(digits.rstrip("0")) if "E" in text or "." in text else len(digits)


def general_text(x: float) -> str:
    """A number in the General format, as a cell and TEXT(x,"General") show it: at most 11 characters
    (the point counts, the sign does not), ``0.333333333`` for 1/3, ``0.00000001``; in scientific
    notation, its mantissa cut to fit (``1.23457E+11``, ``-2.5E-09``), from 1E+11 up and where that
    shows more of the number than the decimals do."""
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return number_text(x)
    a, sign = abs(x), "-" if x < 0 else ""
    exponent = math.floor(math.log10(a))
    decimal = None
    if exponent < 11:
        places = max(10 - max(exponent + 1, 1), 0)
        rounded = excel_round(a, places)
        if rounded < 1e11:
            out = f"{rounded:.{places}f}"
            if "." in out:
                out = out.rstrip("0").rstrip(".")
            if out.strip("0.") != "":
                decimal = out
    mantissa, exp = f"{a:.14e}".split("e")
    e = int(exp)
    tail = f"E{'+' if e >= 0 else '-'}{abs(e):02d}"
    room = 11 - len(tail) - 2  # the mantissa's decimals: 11 characters, less the digit and the point
    m = excel_round(float(mantissa), room)
    if m >= 10:  # 9.999995 rounds up to the next power of ten
        m, e = m / 10, e + 1
        tail = f"E{'+' if e >= 0 else '-'}{abs(e):02d}"
    scientific = f"{m:.{room}f}".rstrip("0").rstrip(".") + tail
    if decimal is not None and _significant_digits(decimal) >= _significant_digits(scientific):
        return sign + decimal
    return sign + scientific


def text_number(text: str) -> float | None:
    """The number Excel reads in ``text`` (grouping commas, %, a leading $, (negative), spaces), or
    None when it is not a plain number (dates are for the engine's date parser)."""
    m = _NUMBER_TEXT.match(text.strip())
    if m is None:
        return None
    body = m.group("body").replace(",", "")
    try:
        value = float(body + (f"e{m.group('exp')}" if m.group("exp") else ""))
    except ValueError:
        return None
    if m.group("pct"):
        value /= 100
    if m.group("sign") == "-":
        value = -value
    if m.group("neg_open"):
        value = -value
    return value


_MODES = {"round": ROUND_HALF_UP, "up": ROUND_UP, "down": ROUND_DOWN}


def excel_round(x: float, digits: float, mode: str = "round") -> float:
    """ROUND / ROUNDUP / ROUNDDOWN on the value as Excel shows it (15 significant digits)."""
    d = int(digits)  # Excel truncates the digits argument
    try:
        value = Decimal(f"{float(x):.15g}")
        return float(value.quantize(Decimal(1).scaleb(-d), rounding=_MODES[mode]))
    except (InvalidOperation, ValueError, OverflowError):
        return float(x)


def excel_trim(text: str) -> str:
    """TRIM: no leading or trailing spaces and single spaces between words (only the space, char 32)."""
    return re.sub(" +", " ", text.strip(" "))


# --- number formats the engine's TEXT lacks -------------------------------------------------------
#: Quoted text, an escaped character, a bracketed tag, ``_x`` (a space as wide as x) and ``*x`` (fill).
_LITERAL = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|_.|\*.')
_ELAPSED = re.compile(r"\[(h+|m+|s+)\]", re.IGNORECASE)
_TIME_TOKEN = re.compile(r'"[^"]*"|\\.|\[(?:h+|m+|s+)\](?:\.0+)?|h+|m+|s+(?:\.0+)?|.', re.IGNORECASE)
_FRACTION = re.compile(r"^(?:(?P<int>[#0?,]+)(?P<gap> +))?(?P<num>[#0?]+)/(?P<den>[#0?]+|[1-9][0-9]*)$")


def _masked(code: str) -> str:
    """``code`` with its literal parts (quotes, escapes, tags) blanked out, same length."""
    return _LITERAL.sub(lambda m: "\0" * len(m.group(0)), code)


def scale_thousands(value: float, code: str) -> tuple[float, str]:
    """A format's scaling commas: each comma right after the last digit placeholder of the integer
    part (before the decimal point or the end) divides by 1,000 and is not shown: ``#,##0,`` shows
    1234567 as ``1,235``, ``0.0,,`` as ``1.2``. Other commas (``#,##0``) group thousands as usual."""
    masked = _masked(code)
    scaling: list[int] = []
    for m in re.finditer(r"(?<=[0#?]),+", masked):
        after = masked[m.end() :]
        if after.startswith(".") or not re.search(r"[0#?]", after):
            scaling.extend(range(m.start(), m.end()))
    if not scaling:
        return value, code
    kept = "".join(ch for i, ch in enumerate(code) if i not in set(scaling))
    return value / 1000.0 ** len(scaling), kept


def elapsed_time(value: float, code: str) -> str | None:
    """Elapsed-time formats, which count past 24 hours: ``[h]:mm`` shows 1.5 (days) as ``36:00``,
    ``[mm]:ss`` shows 0.75 as ``1080:00``; None when ``code`` has no ``[h]``, ``[m]`` or ``[s]``.
    ``[s].000`` keeps milliseconds (``271433.376`` for 3.14159 days)."""
    if not _ELAPSED.search(code) or re.search(r"[dy]", _masked(code), re.IGNORECASE):
        return None
    tokens = [t.group(0) for t in _TIME_TOKEN.finditer(code)]
    decimals = max(
        (len(t.split(".")[1]) for t in tokens if t.lstrip("[")[:1] in "sS" and "." in t), default=0
    )
    scale = 10**decimals
    total = int(Decimal(repr(abs(value) * 86400 * scale)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    whole, fraction = divmod(total, scale)
    largest = next(m.group(1)[0].lower() for m in _ELAPSED.finditer(code))
    out = []
    for tok in tokens:
        low = tok.lower()
        if len(low) > 1 and low.startswith("["):
            unit, width = low.lstrip("[")[0], len(low.split(".")[0].strip("[]"))
            amount = {"h": whole // 3600, "m": whole // 60, "s": whole}[unit]
            text = str(amount).rjust(width, "0")
            if unit == "s" and decimals and "." in low:
                text += "." + str(fraction).rjust(decimals, "0")
            out.append(text)
        elif low[0] == "h":
            out.append(str(whole // 3600 % 24).rjust(len(low), "0"))
        elif low[0] == "m":
            amount = whole // 60
            out.append(str(amount % 60 if largest == "h" else amount).rjust(min(len(low), 2), "0"))
        elif low[0] == "s":
            secs = whole % 60 if largest in "hm" else whole
            text = str(secs).rjust(2 if low.startswith("ss") else 1, "0")
            if decimals:
                text += "." + str(fraction).rjust(decimals, "0")
            out.append(text)
        elif tok.startswith('"'):
            out.append(tok[1:-1])
        elif tok.startswith("\\"):
            out.append(tok[1:])
        else:
            out.append(tok)
    return ("-" if value < 0 else "") + "".join(out)


def _placeholders(digits: str, pattern: str, left: bool) -> str:
    """``digits`` in a run of ``#0?`` placeholders: ``0`` pads with zeros, ``?`` with spaces."""
    pad = len(pattern) - len(digits)
    if pad <= 0:
        return digits
    padding = pattern[:pad] if left else pattern[-pad:]
    fill = "".join("0" if p == "0" else " " if p == "?" else "" for p in padding)
    return fill + digits if left else digits + fill


def fraction_text(value: float, code: str) -> str | None:
    """Fraction formats: ``# ?/?`` shows 1.25 as ``1 1/4``, ``?/?`` 0.3333 as ``1/3``, ``# ??/16`` with
    sixteenths; the closest fraction whose denominator has at most as many digits as the format's.
    None when ``code`` is not a fraction format."""
    from fractions import Fraction

    m = _FRACTION.match(code.strip())
    if m is None:
        return None
    negative, x = value < 0, abs(value)
    den_code = m.group("den")
    whole = int(x) if m.group("int") else 0
    rest = x - whole
    if den_code.isdigit():
        den = int(den_code)
        num = int(Decimal(repr(rest * den)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    else:
        best = Fraction(repr(rest)).limit_denominator(10 ** len(den_code) - 1)
        num, den = best.numerator, best.denominator
    if m.group("int") and num == den:
        whole, num = whole + 1, 0
    sign = "-" if negative and (whole or num) else ""
    width = len(m.group("num")) + 1 + len(den_code)
    if m.group("int"):
        head = str(whole) if whole or num == 0 else ""
        if num == 0:
            return sign + (head or "0") + " " * (len(m.group("gap")) + width)
        head = head or ("0" if m.group("int").endswith("0") else "")
        gap = m.group("gap")
        return sign + head + gap + _fraction_body(num, den, m.group("num"), den_code)
    return sign + _fraction_body(num, den, m.group("num"), den_code)


def _fraction_body(num: int, den: int, num_code: str, den_code: str) -> str:
    top = _placeholders(str(num), num_code, left=True)
    bottom = str(den) if den_code.isdigit() else _placeholders(str(den), den_code, left=False)
    return f"{top}/{bottom}"


_TIME_TEXT = re.compile(
    r"^\s*(?P<a>\d+):(?P<b>\d+)(?::(?P<c>\d+))?(?P<f>\.\d*)?\s*(?P<ampm>[AaPp][Mm]?)?\s*$"
)


def looks_like_time(text: str) -> bool:
    """Whether ``text`` has the shape of a time (``12:30``, ``1:02:03.5 PM``), valid or not."""
    return _TIME_TEXT.match(text) is not None


def time_text(text: str) -> float | None:
    """A time typed as text, as a fraction of a day, as Excel reads it: ``"12:30"`` is 0.5208...,
    ``"6:00 PM"`` 0.75, ``"25:00"`` 1.0417; the last part may run past 59 (up to 9999) when the parts
    before it are in range (``"23:99"`` is 23 h 99 min, ``"24:99"`` is no time); ``"59:30.5"`` (a
    decimal fraction) is minutes and seconds. None when it is not such a time (a date with a time is
    for the engine's date parser)."""
    m = _TIME_TEXT.match(text)
    if m is None:
        return None
    a, b = int(m.group("a")), int(m.group("b"))
    c = int(m.group("c")) if m.group("c") is not None else None
    fraction = float("0" + m.group("f")) if m.group("f") and len(m.group("f")) > 1 else 0.0
    ampm = m.group("ampm")
    if max(a, b, c or 0) > 9999:
        return None
    if c is not None:  # h:m:s
        if b > 59 or (c > 59 and a > 23):
            return None
        hours, minutes, seconds = a, b, c + fraction
    elif m.group("f") and len(m.group("f")) > 1:  # m:s.f
        if b > 59 and a > 59:
            return None
        hours, minutes, seconds = 0, a, b + fraction
    else:  # h:m
        if b > 59 and a > 23:
            return None
        hours, minutes, seconds = a, b, 0.0
    if ampm:
        if hours > 12 or minutes > 59 or seconds >= 60:
            return None
        hours = hours % 12 + (12 if ampm[0] in "Pp" else 0)
    return (hours * 3600 + minutes * 60 + seconds) / 86400


_DATE_TIME = re.compile(
    r"^\s*(?P<date>\S.*?)\s+(?P<time>\d{1,4}:\d{1,2}(?::\d{1,2}(?:\.\d*)?)?(?:\s*[AaPp][Mm]?)?)\s*$"
)


def date_time_value(text: str) -> float | None:
    """A date with a time typed as text, as a 1900-system serial: ``"2007-02-03 19:08:07.0123"`` is
    39116.797303...; the time part as :func:`time_text` reads it (fractions of a second kept, which the
    engine's date parser drops), the date part by the engine's DATEVALUE. None for other text."""
    m = _DATE_TIME.match(text)
    if m is None:
        return None
    time = time_text(m.group("time"))
    if time is None or time >= 1:
        return None
    from formulas.functions.date import xdatevalue

    try:
        day = xdatevalue(m.group("date"))
    except Exception:  # the engine's parser asserts or raises on text that is no date
        return None
    if not isinstance(day, int | float) or isinstance(day, bool):
        return None
    return float(day) + time


def text_value(text: str) -> float | None:
    """The number a text reads as, a plain number (``"1,234"``, ``"12%"``) or a time (``"18:00"``);
    None for other text (dates are for the engine's date parser)."""
    number = text_number(text)
    return time_text(text) if number is None else number


def wildcard_regex(text: str) -> tuple[str, bool]:
    """Excel's wildcards as regex text: ``*`` any run, ``?`` one character, ``~*``/``~?``/``~~`` the
    character itself; and whether ``text`` had a wildcard."""
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
    return "".join(out), wild

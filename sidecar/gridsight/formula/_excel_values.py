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

"""The rule-based data-type recognizer of section 3.4: a cell's value -> one of ten types.

Why rules and not a model: the types only steer aggregation (which cells may be summarised
by a type label), so they must be fast, deterministic and explainable. Number cells are typed
vectorised from their value and number-format string; text cells once per distinct string.
"""

from __future__ import annotations

import re
from enum import IntEnum
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gridsight.grid import is_date_format


class DataType(IntEnum):
    """The paper's ten types; OTHERS keeps its literal value in every encoding."""

    OTHERS = 0
    YEAR = 1
    INTEGER = 2
    FLOAT = 3
    PERCENTAGE = 4
    SCIENTIFIC = 5
    DATE = 6
    TIME = 7
    CURRENCY = 8
    EMAIL = 9

    @property
    def label(self) -> str:
        """The token the model sees (the paper's prompt names `IntNum`, `DateData`, ...)."""
        return _LABELS[self]


_LABELS = {
    DataType.OTHERS: "Others",
    DataType.YEAR: "Year",
    DataType.INTEGER: "IntNum",
    DataType.FLOAT: "FloatNum",
    DataType.PERCENTAGE: "PercentageNum",
    DataType.SCIENTIFIC: "ScientificNum",
    DataType.DATE: "DateData",
    DataType.TIME: "TimeData",
    DataType.CURRENCY: "CurrencyData",
    DataType.EMAIL: "EmailData",
}

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_CUR = r"[$€£¥₹₩]"
_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"

#: Ordered rules: the first match wins (Year before Integer, Scientific before Float, ...).
TEXT_RULES: tuple[tuple[DataType, re.Pattern[str]], ...] = (
    (DataType.EMAIL, re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")),
    (DataType.PERCENTAGE, re.compile(rf"^[+-]?{_NUM}\s?%$|^[+-]?\.\d+\s?%$")),
    (
        DataType.CURRENCY,
        re.compile(
            rf"^[+-]?{_CUR}\s?[+-]?{_NUM}$|^\(?{_CUR}\s?{_NUM}\)$|^[+-]?{_NUM}\s?{_CUR}$"
            rf"|^(?:USD|EUR|GBP|JPY|CNY|INR)\s?[+-]?{_NUM}$|^[+-]?{_NUM}\s?(?:USD|EUR|GBP|JPY|CNY|INR)$",
            re.IGNORECASE,
        ),
    ),
    (DataType.SCIENTIFIC, re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+$")),
    (DataType.YEAR, re.compile(r"^(?:19|20)\d{2}$")),
    (DataType.INTEGER, re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)$")),
    (DataType.FLOAT, re.compile(r"^[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)\.\d*|\.\d+)$")),
    (
        DataType.DATE,
        re.compile(
            r"^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$"
            r"|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$"
            rf"|^\d{{1,2}}[- ]{_MONTH}[- ,]*(?:\d{{2,4}})?$"
            rf"|^{_MONTH}[- ]\d{{1,2}}(?:st|nd|rd|th)?,?[- ]\d{{2,4}}$"
            rf"|^{_MONTH}[- ,]*\d{{4}}$",
            re.IGNORECASE,
        ),
    ),
    (DataType.TIME, re.compile(r"^\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[ap]\.?m\.?)?$", re.IGNORECASE)),
)


_ALL_RULES = re.compile(
    "|".join(f"(?P<{dtype.name}>{rule.pattern})" for dtype, rule in TEXT_RULES), re.IGNORECASE
)
#: Every rule needs a digit or an '@' and starts with a digit, sign, point, bracket, currency symbol,
#: month name or currency code (or is an e-mail); plain words skip the regex altogether.
_MAYBE_TYPED = re.compile(r"[0-9@]")
_TYPED_START = frozenset("0123456789+-.($€£¥₹₩")
_MONTH_STARTS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WORD_STARTS = frozenset((*_MONTH_STARTS, "usd", "eur", "gbp", "jpy", "cny", "inr"))


#: Number types a significance marker may follow (``0.326*``, ``12**``).
_STARRED = frozenset((DataType.INTEGER, DataType.FLOAT, DataType.PERCENTAGE, DataType.SCIENTIFIC))


def recognize_text(text: str) -> DataType:
    """The type of a text value (`"12%"` -> PERCENTAGE, `"a@b.org"` -> EMAIL, `"North"` -> OTHERS).

    A number followed by up to three significance stars (``0.326*``, statistics tables) has the type of
    the number: the stars mark the value, not what kind of value it is.
    """
    s = text.strip()
    if s.endswith("*"):
        bare = s.rstrip("*").rstrip()
        if bare and len(s) - len(s.rstrip("*")) <= 3:
            t = recognize_text(bare)
            return t if t in _STARRED else DataType.OTHERS
    if not s or len(s) > 64:
        return DataType.OTHERS
    if s[0] not in _TYPED_START and "@" not in s and s[:3].lower() not in _WORD_STARTS:
        return DataType.OTHERS
    if not _MAYBE_TYPED.search(s):
        return DataType.OTHERS
    m = _ALL_RULES.match(s)
    if m is None or m.lastgroup is None:
        return DataType.OTHERS
    return DataType[m.lastgroup]


_CURRENCY_FMT = re.compile(r'\[\$[^\]-]*[^\]]*\]|"[$€£¥₹₩]"|[$€£¥₹₩]')
_M_RUN = re.compile(r"m+", re.IGNORECASE)


def _has_date_part(fmt: str) -> bool:
    """Days, years, or an ``m`` run that means months (minutes follow ``h``/``:`` or precede ``:``/``s``)."""
    low = fmt.lower()
    if "d" in low or "y" in low:
        return True
    for m in _M_RUN.finditer(low):
        before = low[: m.start()].rstrip()
        after = low[m.end() :].lstrip()
        if not (before.endswith(("h", ":")) or after.startswith((":", "s"))):
            return True
    return False


_AMPM = re.compile(r"AM/PM|A/P", re.IGNORECASE)
_FMT_NOISE = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|_.|\*.')


@lru_cache(maxsize=4096)
def format_type(fmt: str) -> DataType | None:
    """What a number-format string says about its numbers; None for General (the value decides)."""
    if not fmt or fmt == "General":
        return None
    first = fmt.split(";")[0]
    if is_date_format(first):
        cleaned = _AMPM.sub("", _FMT_NOISE.sub("", first))
        if "[h]" in first.lower() or not _has_date_part(cleaned):
            return DataType.TIME
        return DataType.DATE
    if _CURRENCY_FMT.search(first):
        return DataType.CURRENCY
    cleaned = _FMT_NOISE.sub("", first)
    if "%" in cleaned:
        return DataType.PERCENTAGE
    if "E+" in cleaned.upper() or "E-" in cleaned.upper():
        return DataType.SCIENTIFIC
    if "." in cleaned:
        return DataType.FLOAT
    if "0" in cleaned or "#" in cleaned:
        return DataType.INTEGER
    return None


def number_types(values: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    """Types of General-formatted numbers, vectorised: Year, IntNum, FloatNum or ScientificNum.

    Scientific is what Excel's General shows in E notation (|x| >= 1e11 or 0 < |x| < 1e-9).
    """
    a = np.abs(values)
    integral = np.isfinite(values) & (np.floor(values) == values)
    out = np.full(values.shape, DataType.FLOAT, dtype=np.uint8)
    out[integral] = DataType.INTEGER
    out[integral & (values >= 1900) & (values <= 2099)] = DataType.YEAR
    out[(a >= 1e11) | ((a > 0) & (a < 1e-9))] = DataType.SCIENTIFIC
    return out


def harmonize_columns(types: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Give each vertical run of plain numbers one type, the way a column is one field.

    A column of decimals in which some values happen to be whole is a Float column, and a count of
    1,950 in a column of counts is not a year; typing them cell by cell would split one block into
    many. Within a run of Year/IntNum/FloatNum cells: integers become FloatNum when the run holds a
    float; a Year that is not the run's first cell (a header) joins the run's type when years are a
    minority. ``types`` is a 2-D grid of :class:`DataType` codes (0 for cells not in play).
    """
    h, w = types.shape
    if h < 2 or w == 0:
        return types
    num = (types == DataType.INTEGER) | (types == DataType.FLOAT) | (types == DataType.YEAR)
    # run ids: a new run starts at every numeric cell whose upper neighbour is not numeric
    first = num.copy()
    first[1:] &= ~num[:-1]
    run = np.cumsum(first.ravel(order="F")).reshape((h, w), order="F")
    ids = run[num]
    n_runs = int(run.max()) + 1
    floats = np.bincount(ids, weights=(types[num] == DataType.FLOAT), minlength=n_runs)
    years = np.bincount(ids, weights=(types[num] == DataType.YEAR), minlength=n_runs)
    sizes = np.bincount(ids, minlength=n_runs)
    out = types.copy()
    has_float = floats[run] > 0
    out[num & (types == DataType.INTEGER) & has_float] = DataType.FLOAT
    minority = (2 * years[run] < sizes[run]) & ~first
    target = np.where(has_float, DataType.FLOAT, DataType.INTEGER).astype(np.uint8)
    year_fix = num & (types == DataType.YEAR) & minority
    out[year_fix] = target[year_fix]
    return out


_FMT_PADDING = re.compile(
    r"_.|\*.|\[(?:Red|Black|Blue|Green|Cyan|Magenta|White|Yellow|Color\d+|\$-[0-9A-Fa-f]+)\]", re.I
)


@lru_cache(maxsize=4096)
def short_format(fmt: str) -> str:
    """The part of a number-format string that says what the numbers are, for the model's eyes.

    Excel's accounting format ``_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)`` is 60
    characters of padding (``_x``), fill (``*x``), colour and negative/zero/text sections around
    ``"$"#,##0.00``. The first section without padding, fill, colours or locale tags keeps the currency,
    the decimals, the percent and the date parts -- what aggregation needs -- in a quarter of the tokens.
    """
    first = fmt.split(";")[0]
    out = _FMT_PADDING.sub("", first).strip()
    return out or fmt

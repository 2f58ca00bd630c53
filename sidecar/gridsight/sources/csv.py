"""Read .csv/.tsv: sniff the encoding and delimiter, then type each cell the way Excel (en-US) does.

Two deliberate departures from Excel, both to avoid silent data loss: digit strings with leading
zeros (ZIP codes, IDs) and whole numbers longer than 15 digits stay text (a long decimal fraction,
as pandas writes 0.6839846009562643, is a number), and a cell that
starts with ``=`` stays text (a CSV is data; running its formulas would be an injection risk).
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from gridsight.errors import EncodingError, ResourceLimitError, SourceNotFoundError, UnknownSheetError
from gridsight.grid import (
    ERROR_VALUES,
    MAX_SHEET_CELLS,
    Kind,
    Sheet,
    SheetBuilder,
    Workbook,
    datetime_to_serial,
)
from gridsight.text import CURRENCY_CLASS, CURRENCY_SIGNS, MONTHS

MAX_CSV_BYTES = 1024**3
_DELIMITERS = (",", ";", "\t", "|")

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def detect_encoding(data: bytes) -> tuple[str, int]:
    """(encoding, BOM length). BOM first, then UTF-8, then UTF-16 by NUL pattern, then cp1252."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return enc, len(bom)
    sample = data[:65536]
    if b"\x00" in sample:
        even = sample[0::2].count(0)
        odd = sample[1::2].count(0)
        half = max(len(sample) // 2, 1)
        if odd > 0.3 * half and even < 0.05 * half:
            return "utf-16-le", 0
        if even > 0.3 * half and odd < 0.05 * half:
            return "utf-16-be", 0
        raise EncodingError("the file holds binary data (NUL bytes), not text in a known encoding")
    try:
        data.decode("utf-8")
        return "utf-8", 0
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252", 0
    except UnicodeDecodeError:
        raise EncodingError(
            "the text is neither UTF-8, UTF-16 nor Windows-1252; re-save it as UTF-8 or pass --encoding"
        ) from None


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Bytes -> (text, encoding used); refuses text that is mostly control characters."""
    if encoding is None:
        encoding, skip = detect_encoding(data)
        data = data[skip:]
    try:
        text = data.decode(encoding)
    except LookupError:
        raise EncodingError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        raise EncodingError(f"the file is not valid {encoding} (byte {exc.start})") from None
    text = text.removeprefix("\ufeff")
    sample = text[:65536]
    bad = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\r\n\f")
    if sample and bad > 0.01 * len(sample):
        raise EncodingError(f"decoded as {encoding} it is not readable text; pass the right --encoding")
    return text, encoding


def sniff_delimiter(text: str, hint: str | None = None) -> str:
    """The delimiter that splits the first lines into the most consistent number (>1) of fields."""
    lines = text[:65536].splitlines()[:60]
    if hint == ".tsv":
        return "\t"
    best, best_score = ",", -1.0
    for d in _DELIMITERS:
        try:
            counts = [len(row) for row in csv.reader(lines, delimiter=d) if row]
        except csv.Error:
            continue
        if not counts:
            continue
        mode, freq = Counter(counts).most_common(1)[0]
        if mode < 2:
            continue
        score = freq / len(counts) + 0.001 * mode
        if score > best_score:
            best, best_score = d, score
    return best


_PLAIN = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
_NUMBER = re.compile(
    rf"""^(?P<neg1>-)?(?P<open>\()?(?P<sign>[+-])?(?P<cur>{CURRENCY_CLASS})?\s?
        (?P<num>(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d*)?|\.\d+)
        (?P<exp>[eE][+-]?\d+)?(?P<cur2>\s?{CURRENCY_CLASS})?(?P<pct>%)?(?P<close>\))?$""",
    re.VERBOSE,
)
#: ISO dates and times, with a zone when one is written (``+01:00``, ``-0500``, ``Z``: the instant is
#: stored in UTC, as a sheet has no zones and one column may hold several).
_ISO = re.compile(
    r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?"
    r"(Z|[+-]\d{2}:?\d{2})?)?$"
)
_US = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp][Mm]))?$")
_DMY_NAME = re.compile(r"^(\d{1,2})[- ]([A-Za-z]{3})[- ](\d{2}|\d{4})$")
#: "Aug 14, 2024", "August 14 2024": a month's name first, as Excel en-US reads it.
_MDY_NAME = re.compile(r"^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$")
_MONTHS = MONTHS
Typed = tuple[int, float, str | None, str | None]  # kind, number, text, number format


def _year(y: str) -> int:
    n = int(y)
    return n if len(y) == 4 else (2000 + n if n < 30 else 1900 + n)  # Excel's two-digit-year rule


def type_text(s: str) -> Typed:
    """One CSV field -> (kind, number, text, number format), as Excel en-US would type it."""
    t = s.strip()
    if not t:
        return (Kind.EMPTY, 0.0, None, None) if not s else (Kind.TEXT, 0.0, s, None)
    if _PLAIN.match(t):
        digits = t.lstrip("+-").split(".")[0].split("e")[0].split("E")[0]
        if len(digits) > 1 and digits.startswith("0"):
            return Kind.TEXT, 0.0, s, None
        if len(digits) > 15:  # a card number or an ID: its last digits would be lost
            return Kind.TEXT, 0.0, s, None
        fmt = "0.00E+00" if "e" in t.lower() else None
        return Kind.NUMBER, float(t), None, fmt
    upper = t.upper()
    if upper in ("TRUE", "FALSE"):
        return Kind.BOOL, float(upper == "TRUE"), None, None
    if upper in ERROR_VALUES:
        return Kind.ERROR, 0.0, upper, None
    first = t[0]
    if first.isdigit() or first in "+-.(" or first in CURRENCY_SIGNS:
        typed = _type_number(t) or _type_date(t)
        if typed is not None:
            return typed
    elif first.isalpha() and (m := _MDY_NAME.match(t)) and m[1].lower() in _MONTHS:
        try:
            value = dt.date(int(m[3]), _MONTHS[m[1].lower()], int(m[2]))
        except ValueError:
            return Kind.TEXT, 0.0, s, None
        return Kind.DATETIME, datetime_to_serial(value), None, "mmm d, yyyy"
    return Kind.TEXT, 0.0, s, None


def _type_number(t: str) -> Typed | None:
    m = _NUMBER.match(t)
    if not m or bool(m["open"]) != bool(m["close"]) or (m["cur"] and m["cur2"]):
        return None
    num = m["num"]
    if sum(ch.isdigit() for ch in num.split(".")[0]) > 15:
        return None
    intpart = num.split(".")[0].replace(",", "")
    if len(intpart) > 1 and intpart.startswith("0") and "," not in num:
        return None
    x = float(num.replace(",", "") + (m["exp"] or ""))
    negative = bool(m["open"]) or m["neg1"] == "-" or m["sign"] == "-"
    if negative:
        x = -x
    decimals = len(num.split(".")[1]) if "." in num else 0
    dec = ("." + "0" * decimals) if decimals else ""
    if m["pct"]:
        return Kind.NUMBER, x / 100.0, None, f"0{dec}%"
    if m["exp"]:
        return Kind.NUMBER, x, None, "0.00E+00"
    cur = m["cur"] or (m["cur2"] or "").strip()
    if cur:
        body = f"#,##0{dec}"
        sym = f'"{cur}"'  # (a sign quoted in the number format, as Excel writes one)
        return Kind.NUMBER, x, None, f"{sym}{body}" if m["cur"] else f"{body}{sym}"
    if "," in num:
        return Kind.NUMBER, x, None, f"#,##0{dec}"
    if m["open"]:
        return Kind.NUMBER, x, None, None
    return None if m["neg1"] and m["sign"] else (Kind.NUMBER, x, None, None)


def _in_utc(value: dt.datetime, zone: str) -> dt.datetime:
    """The same instant as a wall-clock time in UTC (``10:22+01:00`` -> 09:22)."""
    if zone == "Z":
        return value
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 14 or minutes > 59:
        raise ValueError(f"no such zone: {zone}")  # (the text stays text)
    offset = dt.timedelta(hours=hours, minutes=minutes)
    return value - offset if zone[0] == "+" else value + offset


def _type_date(t: str) -> Typed | None:
    value: dt.date | dt.time  # a datetime is a date too
    try:
        m = _ISO.match(t)
        if m:
            y, mo, d = int(m[1]), int(m[2]), int(m[3])
            if m[4] is None:
                return Kind.DATETIME, datetime_to_serial(dt.date(y, mo, d)), None, "yyyy-mm-dd"
            value = dt.datetime(
                y, mo, d, int(m[4]), int(m[5]), int(m[6] or 0), int((m[7] or "0").ljust(6, "0"))
            )
            if m[8]:
                value = _in_utc(value, m[8])
            fmt = "yyyy-mm-dd hh:mm:ss" if m[6] else "yyyy-mm-dd hh:mm"
            return Kind.DATETIME, datetime_to_serial(value), None, fmt
        if _US.match(t):
            return _slash_date(t)
        m = _TIME.match(t)
        if m:
            h, mi, sec = int(m[1]), int(m[2]), int(m[3] or 0)
            ampm = (m[4] or "").lower()
            if ampm:
                if not 1 <= h <= 12:
                    return None
                h = h % 12 + (12 if ampm == "pm" else 0)
            value = dt.time(h, mi, sec)
            fmt = ("h:mm:ss" if m[3] else "h:mm") + (" AM/PM" if ampm else "")
            return Kind.DATETIME, datetime_to_serial(value), None, fmt
        m = _DMY_NAME.match(t)
        if m and m[2].lower() in _MONTHS:
            value = dt.date(_year(m[3]), _MONTHS[m[2].lower()], int(m[1]))
            return Kind.DATETIME, datetime_to_serial(value), None, "d-mmm-yy"
    except ValueError:
        return None
    return None


def _day_first_columns(text: str, delimiter: str) -> set[int]:
    """The columns whose slash dates are written day first: some write a first number above 12
    (``15/05/2023``) and none a second one above 12. Their other dates (``05/06/2023``) are then
    the 5th of June, not May 6th as a field read alone would be."""
    first_high: set[int] = set()
    second_high: set[int] = set()
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            for c, field in enumerate(row):
                m = _US.match(field.strip()) if "/" in field else None
                if m is not None:
                    if int(m[1]) > 12:
                        first_high.add(c)
                    if int(m[2]) > 12:
                        second_high.add(c)
    except csv.Error:
        return set()  # (the reading proper reports it)
    return first_high - second_high


def _slash_date(t: str, day_first: bool = False) -> Typed | None:
    """A slash date (``6/13/2023``, ``6/13/2023 18:30``), month first as Excel en-US reads one, or day
    first (``15/05/2023 07:00``) in a column that writes its dates so; None for no such date."""
    m = _US.match(t)
    if m is None:
        return None
    first, second, y = int(m[1]), int(m[2]), _year(m[3])
    d, mo = (first, second) if day_first else (second, first)
    order = "d/m" if day_first else "m/d"
    try:
        if m[4] is None:
            return Kind.DATETIME, datetime_to_serial(dt.date(y, mo, d)), None, f"{order}/yyyy"
        value = dt.datetime(y, mo, d, int(m[4]), int(m[5]), int(m[6] or 0))
    except ValueError:
        return None
    return Kind.DATETIME, datetime_to_serial(value), None, f"{order}/yyyy h:mm"


def read_csv_text(text: str, name: str, *, hint: str | None = None) -> Sheet:
    """Parsed CSV text -> Sheet, typing each field (``hint`` is the file suffix, e.g. '.tsv'); slash
    dates day first in a column that writes them so (:func:`_day_first_columns`)."""
    b = SheetBuilder(name)
    add, intern_format = b.add, b.intern_format
    delimiter = sniff_delimiter(text, hint=hint)
    day_first = _day_first_columns(text, delimiter) if "/" in text else set()
    cache: dict[str, Typed] = {}
    total = 0
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for r, row in enumerate(reader):
            total += len(row)
            if total > MAX_SHEET_CELLS:
                raise ResourceLimitError(f"{name}: over {MAX_SHEET_CELLS:,} cells")
            for c, field in enumerate(row):
                if not field:
                    continue
                if c in day_first and (dated := _slash_date(field.strip(), day_first=True)) is not None:
                    add(r, c, *dated[:3], None, intern_format(dated[3]))
                    continue
                typed = cache.get(field)
                if typed is None:
                    typed = type_text(field)
                    if len(cache) < 200_000:
                        cache[field] = typed
                kind, num, txt, fmt = typed
                if kind:
                    add(r, c, kind, num, txt, None, intern_format(fmt))
    except csv.Error as exc:
        raise EncodingError(f"{name}: not a readable CSV ({exc})") from None
    return b.build()


class CsvSource:
    """A .csv/.tsv file as a one-sheet workbook (the sheet is named after the file, as in Excel)."""

    name = "csv"

    def __init__(self, path: str | Path, *, encoding: str | None = None) -> None:
        self.path = Path(path)
        self.encoding = encoding

    def read(self, sheets: Sequence[str] | None = None) -> Workbook:
        if not self.path.is_file():
            raise SourceNotFoundError(f"{self.path}: no such file")
        size = self.path.stat().st_size
        if size > MAX_CSV_BYTES:
            raise ResourceLimitError(f"{self.path.name} is {size / 1024**3:.1f} GiB; the CSV limit is 1 GiB")
        sheet_name = self.path.stem[:31] or "Sheet1"
        if sheets is not None:
            for s in sheets:
                if s.casefold() != sheet_name.casefold():
                    raise UnknownSheetError(
                        f"{self.path.name} has no sheet named {s!r}; a CSV has one sheet: {sheet_name!r}"
                    )
        try:
            text, _enc = decode(self.path.read_bytes(), self.encoding)
        except EncodingError as exc:
            raise EncodingError(f"{self.path.name}: {exc}") from None
        hint = self.path.suffix.lower() if "\t" in text[:65536] else None
        return Workbook([read_csv_text(text, sheet_name, hint=hint)], name=self.path.name)

    def close(self) -> None:
        pass

"""Cell kinds, style flags and Excel serial date conversion (no I/O, no third-party types)."""

from __future__ import annotations

import datetime as dt
import math
import re
from enum import IntEnum, IntFlag

ERROR_VALUES = frozenset(
    {
        "#NULL!",
        "#DIV/0!",
        "#VALUE!",
        "#REF!",
        "#NAME?",
        "#NUM!",
        "#N/A",
        "#GETTING_DATA",
        "#SPILL!",
        "#CALC!",
        "#FIELD!",
        "#BLOCKED!",
        "#CONNECT!",
        "#BUSY!",
        "#UNKNOWN!",
    }
)


class Kind(IntEnum):
    """What a cell holds. Dates are numbers to Excel; we keep them apart because users do."""

    EMPTY = 0
    NUMBER = 1
    TEXT = 2
    BOOL = 3
    DATETIME = 4
    ERROR = 5


class Style(IntFlag):
    """Style flags kept per cell: the formatting cues table detection and encoding use."""

    NONE = 0
    BOLD = 1
    ITALIC = 2
    UNDERLINE = 4
    FILL = 8
    BORDER_TOP = 16
    BORDER_BOTTOM = 32
    BORDER_LEFT = 64
    BORDER_RIGHT = 128


_EPOCH_1900 = dt.datetime(1899, 12, 30)
_EPOCH_1904 = dt.datetime(1904, 1, 1)


def datetime_to_serial(
    value: dt.datetime | dt.date | dt.time | dt.timedelta, *, date1904: bool = False
) -> float:
    """Python date/time -> Excel serial number (1900 system keeps Excel's 1900-02-29 bug)."""
    if isinstance(value, dt.timedelta):
        return value.total_seconds() / 86400.0
    if isinstance(value, dt.time):
        return (value.hour * 3600 + value.minute * 60 + value.second + value.microsecond / 1e6) / 86400.0
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    if value.tzinfo is not None:
        value = value.replace(tzinfo=None)
    epoch = _EPOCH_1904 if date1904 else _EPOCH_1900
    delta = value - epoch
    serial = delta.days + delta.seconds / 86400.0 + delta.microseconds / 86400e6
    if not date1904 and serial < 61:
        serial -= 1  # before the fictitious 1900-02-29 Excel counts from 1899-12-31
    return serial


def serial_to_datetime(serial: float, *, date1904: bool = False) -> dt.datetime | dt.time:
    """Excel serial -> datetime (or time of day when the serial is below 1)."""
    if not math.isfinite(serial) or serial < 0 or serial >= 2958466:
        raise ValueError(f"{serial!r} is not a valid Excel date serial")
    if 0 <= serial < 1 and not date1904:
        us = round(serial * 86400e6)
        us = min(us, 86400 * 10**6 - 1)
        return (dt.datetime.min + dt.timedelta(microseconds=us)).time()
    if date1904:
        base, days = _EPOCH_1904, serial
    elif serial < 61:
        base, days = _EPOCH_1900 + dt.timedelta(days=1), serial
    else:
        base, days = _EPOCH_1900, serial
    return base + dt.timedelta(microseconds=round(days * 86400e6))


_DATE_TOKENS = re.compile(r"(?<!\\)[dmyhs]", re.IGNORECASE)
_FORMAT_NOISE = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|_.|\*.')


def is_date_format(fmt: str | None) -> bool:
    """True when an Excel number format renders dates or times (`yyyy-mm-dd`, `h:mm`, ...)."""
    if not fmt or fmt == "General":
        return False
    first = fmt.split(";")[0]
    if "[h]" in first.lower() or "[m]" in first.lower() or "[s]" in first.lower():
        return True
    cleaned = _FORMAT_NOISE.sub("", first)
    return bool(_DATE_TOKENS.search(cleaned))

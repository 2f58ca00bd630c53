"""Cells as text, roughly as Excel displays them (common number formats, ISO dates)."""

from __future__ import annotations

import datetime as dt
import re

from gridsight.grid._sheet import Cell
from gridsight.grid._values import Kind, is_date_format

_DECIMALS = re.compile(r"0\.(0+)")
_DATE_TOKEN = re.compile(
    r'"[^"]*"|\\.|\[[^\]]*\]|AM/PM|A/P|yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|.', re.IGNORECASE
)
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def format_value(cell: Cell) -> str:
    """Display text of a cell: '1,234.50', '12.5%', '2024-03-01', 'TRUE', '#N/A', ''."""
    v = cell.value
    if cell.kind == Kind.EMPTY:
        return ""
    if cell.kind == Kind.BOOL:
        return "TRUE" if v else "FALSE"
    if cell.kind in (Kind.TEXT, Kind.ERROR):
        return str(v)
    if cell.kind == Kind.DATETIME:
        if isinstance(v, dt.datetime | dt.time) and is_date_format(cell.number_format):
            shown = format_date(v, cell.number_format)
            if shown is not None:
                return shown
        if isinstance(v, dt.datetime):
            if v.time() == dt.time(0):
                return v.date().isoformat()
            return v.isoformat(sep=" ", timespec="seconds")
        if isinstance(v, dt.time):
            return v.isoformat(timespec="seconds")
        return str(v)
    assert isinstance(v, int | float)
    return format_number(float(v), cell.number_format)


def format_number(x: float, fmt: str) -> str:
    """Number with the decimals, thousands separator and percent sign of its format."""
    section = fmt.split(";")[0] if fmt else "General"
    if section == "General" or not section:
        if x.is_integer() and abs(x) < 1e15:
            return str(int(x))
        return f"{x:.10g}"
    m = _DECIMALS.search(section)
    decimals = len(m.group(1)) if m else 0
    if "E+" in section.upper():
        return f"{x:.{decimals}E}"
    percent = "%" in section
    y = x * 100 if percent else x
    comma = "," if "#,##" in section or "0,0" in section else ""
    text = f"{y:{comma}.{decimals}f}"
    if percent:
        text += "%"
    cur = re.search(r'"([$€£¥])"|\[\$([$€£¥])', section) or re.search(r"([$€£¥])", section)
    if cur:
        sym = next(g for g in cur.groups() if g)
        text = f"-{sym}{text[1:]}" if text.startswith("-") else f"{sym}{text}"
    return text


def format_date(v: dt.datetime | dt.time, fmt: str) -> str | None:
    """A date/time through an Excel date format (`mmm yyyy` -> 'Jan 2024'); None if unsupported."""
    tokens = _DATE_TOKEN.findall(fmt.split(";")[0])
    ampm = any(t.upper() in ("AM/PM", "A/P") for t in tokens)
    d = v if isinstance(v, dt.datetime) else None
    t = v.time() if isinstance(v, dt.datetime) else v
    out: list[str] = []
    for i, tok in enumerate(tokens):
        low = tok.lower()
        prev = next((x.lower() for x in reversed(tokens[:i]) if x.strip(" -/.,:")), "")
        nxt = next((x.lower() for x in tokens[i + 1 :] if x.strip(" -/.,:")), "")
        if low.startswith('"'):
            out.append(tok[1:-1])
        elif low.startswith("\\"):
            out.append(tok[1:])
        elif low.startswith("["):
            if low in ("[h]", "[hh]"):
                return None
            continue
        elif low in ("am/pm", "a/p"):
            out.append(("AM" if t.hour < 12 else "PM") if low == "am/pm" else ("A" if t.hour < 12 else "P"))
        elif low[0] in "ymd" and not (low in ("m", "mm") and (prev.startswith("h") or nxt.startswith("s"))):
            if d is None:
                return None
            out.append(_date_part(low, d))
        elif low[0] == "h":
            h = t.hour % 12 or 12 if ampm else t.hour
            out.append(f"{h:02d}" if low == "hh" else str(h))
        elif low in ("m", "mm"):
            out.append(f"{t.minute:02d}" if low == "mm" else str(t.minute))
        elif low[0] == "s":
            out.append(f"{t.second:02d}" if low == "ss" else str(t.second))
        else:
            out.append(tok)
    return "".join(out)


def _date_part(tok: str, d: dt.datetime) -> str:
    return {
        "yyyy": f"{d.year:04d}",
        "yy": f"{d.year % 100:02d}",
        "mmmmm": _MONTHS[d.month - 1][0],
        "mmmm": _MONTHS[d.month - 1],
        "mmm": _MONTHS[d.month - 1][:3],
        "mm": f"{d.month:02d}",
        "m": str(d.month),
        "dddd": _DAYS[d.weekday()],
        "ddd": _DAYS[d.weekday()][:3],
        "dd": f"{d.day:02d}",
        "d": str(d.day),
    }[tok]

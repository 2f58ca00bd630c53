"""Cells as text, roughly as Excel displays them (common number formats, ISO dates)."""

from __future__ import annotations

import datetime as dt
import re

from gridsight.grid._sheet import Cell
from gridsight.grid._values import Kind

_DECIMALS = re.compile(r"0\.(0+)")


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

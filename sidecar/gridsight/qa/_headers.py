"""Header paths and the time they name: a column's parts, the years a part names, and dates and months
as headers and questions write them ("31 December 2024", ``31.12.2024``, ``Jun-25``).

Pure functions of text: :mod:`gridsight.qa._cells` reads which period column a question means with
them, and sorts period columns by when they end.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gridsight.detect._structure import PATH_SEP
from gridsight.text import MONTHS, without_marks

#: A header part that is only a unit: ``£m``, ``A$m``, ``€'000``, ``RMB'000``, ``US$ millions``, ``TEUR``,
#: ``USD m``, ``%`` (a unit row under the periods or the entities, no part of what a column is).
_UNIT_PART = re.compile(
    r"\(?(?:[A-Z]{0,3}[£$€¥]\s?(?:m|mn|bn|k|'000|000|millions?|thousands?)?|(?:[A-Z]{3}|[£$€¥])\s?(?:'?000s?|m|mn|bn)"
    r"|T?EUR|kEUR|USD|GBP|%|'?000s?)\)?",
    re.IGNORECASE,
)


def unit_part(part: str) -> bool:
    """Whether a header part is only a unit (:data:`_UNIT_PART`)."""
    return _UNIT_PART.fullmatch(part.strip()) is not None


__all__ = [
    "PATH_SEP",
    "YEARS",
    "date_alone",
    "dates_written",
    "days_at",
    "ends_at",
    "month_spelt",
    "numeric_month",
    "own_years",
    "parts",
    "quarters_closed",
    "year_of",
]


#: A year, 1800 to 2099, that is no part of a longer number.
YEARS = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")


def parts(name: str) -> list[str]:
    """A column's header path, part by part (a suffix that only makes the name unique dropped)."""
    return [re.sub(r" \(\d+\)$", "", p).strip() for p in name.split(PATH_SEP)]


def year_of(name: str) -> str | None:
    """The one year a column's header path names (``30 June 2022 › Restated``: 2022), or None."""
    years = {y for p in parts(name) for y in own_years(p)}
    return years.pop() if len(years) == 1 else None


def own_years(part: str) -> list[str]:
    """The years a header part names, less a base year (``Index (2020 = 100)`` names none)."""
    return YEARS.findall(re.sub(r"(?:19|20)\d\d\s*=\s*100\b", "", part))


#: A day written with its month and year: "31 December 2023", "Dec. 31, 2023", "31 Dec 2023".
_DAY_MONTH_YEAR = re.compile(
    r"\b(?:(\d{1,2})[\s\-]+([a-z]+)\.?|([a-z]+)\.?[\s\-]+(\d{1,2})(?:st|nd|rd|th)?,?)[\s\-]+((?:19|20)\d\d)\b"
)


_DAY_MONTH_YEAR_ANY_CASE = re.compile(_DAY_MONTH_YEAR.pattern, re.IGNORECASE)


#: A date in figures: ``31.12.2024``, ``31/12/2024``, ``12/31/2024``.
_NUMERIC_DATE = re.compile(r"(?<![\d./-])(\d{1,2})([./-])(\d{1,2})\2((?:19|20)\d\d)(?![\d./-])")


def dates_written(text: str) -> set[tuple[int, int, str]]:
    """The (day, month, year) dates ``text`` writes with a month's name or in figures (day first
    or month first, whichever the figures allow; both where either can be)."""
    return {day for _, day in days_at(text)}


def with_days_rewritten(text: str, rewrite: Callable[[tuple[int, int, str]], str | None]) -> str:
    """``text`` with each date it writes with a month's name ("September 30, 2024", "31 March
    2022") replaced by what ``rewrite`` gives for its (day, month, year); kept where it gives None."""

    def one(m: re.Match[str]) -> str:
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        month = month.casefold()
        if month not in MONTHS or not 1 <= int(day) <= 31:
            return m.group(0)
        return rewrite((int(day), MONTHS[month], m.group(5))) or m.group(0)

    return _DAY_MONTH_YEAR_ANY_CASE.sub(one, text)


def days_at(text: str) -> list[tuple[int, tuple[int, int, str]]]:
    """Each (day, month, year) date ``text`` writes (:func:`dates_written`), with where it starts."""
    out = []
    for m in _DAY_MONTH_YEAR.finditer(text.casefold()):
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if month in MONTHS and 1 <= int(day) <= 31:
            out.append((m.start(), (int(day), MONTHS[month], m.group(5))))
    for m in _NUMERIC_DATE.finditer(text):
        a, b = int(m.group(1)), int(m.group(3))
        out += [
            (m.start(), (d, mo, m.group(4)))
            for d, mo in dict.fromkeys(((a, b), (b, a)))
            if 1 <= d <= 31 and 1 <= mo <= 12
        ]
    return out


#: The words a header writes before a day it is as at: "As at 31.03.2025", "As of March 31, 2025".
_AS_AT = re.compile(r"^\s*(?:as\s+(?:at|of)|at)\s+", re.IGNORECASE)


def date_alone(part: str) -> bool:
    """Whether a header part is one day and nothing else (``31 March 2025``, ``Jun-30-2025``, ``As at
    31.03.2025``): a period, as ``2025`` is."""
    low = _AS_AT.sub("", part).strip().casefold()
    if len(dates_written(low)) < 1:
        return False
    rest = _NUMERIC_DATE.sub("", _DAY_MONTH_YEAR.sub("", low))
    return not rest.strip(" ,.")


#: The calendar quarter a day closes: 31 March is the end of Q1, 30 September of Q3.
_QUARTER_ENDS = {(31, 3): "q1", (30, 6): "q2", (30, 9): "q3", (31, 12): "q4"}


def quarters_closed(name: str) -> set[str]:
    """The calendar quarter (``q3``) that the one day a column's header writes closes; none when it
    writes no day, or several."""
    days = dates_written(name)
    if len(days) != 1:
        return set()
    ((day, month, _),) = days
    quarter = _QUARTER_ENDS.get((day, month))
    return {quarter} if quarter else set()


#: A month written with a year of two or four digits: ``Jun-25``, ``Oct 2025``.
_MONTH_YEAR = re.compile(r"\b([a-z]{3,9})[-\s'’]*((?:19|20)?\d\d)\b")


#: Each month's number to its whole name ("november").
_FULL_MONTHS = {n: m for m, n in MONTHS.items() if len(m) > 4 or m in ("may", "june", "july")}


#: A month in figures with its year: ``2025-03``, ``2025/03``, ``03/2025``, ``03.2025``, and as
#: statistics offices code it, ``2025M03``.
_MONTH_IN_FIGURES = re.compile(
    r"^(?:(?P<y1>(?:19|20)\d\d)\s?(?:[-/.]|M)\s?(?P<m1>0?[1-9]|1[0-2])|(?P<m2>0?[1-9]|1[0-2])\s?[-/.]\s?"
    r"(?P<y2>(?:19|20)\d\d))$",
    re.IGNORECASE,
)


def numeric_month(part: str) -> tuple[int, int] | None:
    """The (year, month) a header part writes in figures alone (``2025-03``, ``03/2025``), else None."""
    m = _MONTH_IN_FIGURES.match(without_marks(part).strip())
    if m is None:
        return None
    year, month = int(m.group("y1") or m.group("y2")), int(m.group("m1") or m.group("m2"))
    if m.group("y1") and (year + 1) % 100 == month and "m" not in m.group(0).casefold():
        return None  # (``2010-11`` is a season or a fiscal year as well: not read as a month)
    return year, month


def month_spelt(part: str) -> set[str]:
    """A header part that writes a month short with its year (``Nov-25``, ``Sep 2024``) or in
    figures (``2025-11``) as the words a question writes it in: the month's whole name and the
    year's four digits."""
    figures = numeric_month(part)
    if figures is not None:
        return {_FULL_MONTHS[figures[1]], str(figures[0])}
    m = _MONTH_YEAR.fullmatch(part.strip().casefold())
    if m is None or m.group(1) not in MONTHS:
        return set()
    year = m.group(2) if len(m.group(2)) == 4 else f"20{m.group(2)}"
    return {_FULL_MONTHS[MONTHS[m.group(1)]], year}


def ends_at(name: str) -> tuple[int, int, int] | None:
    """When a period column ends, as (year, month, day) to sort by: its day written whole, else its
    month and year (``Jun-25``), else its year (``FY2024``, ``2024 › $'000``); None for no period."""
    dates = dates_written(name) or dates_written(" ".join(parts(name)))  # (``December 31, › 2025``)
    if dates:  # (a span "From April 1, 2024 to March 31, 2025" ends at its latest day)
        day, month, year = max(dates, key=lambda d: (int(d[2]), d[1], d[0]))
        return (int(year), month, day)
    figures = [f for p in parts(name) if (f := numeric_month(p)) is not None]
    if figures:
        return (figures[0][0], figures[0][1], 0)
    months = [  # (a span "Apr 2020 to Mar 2021" ends at its later month)
        (int(m.group(2)) + (2000 if len(m.group(2)) == 2 else 0), MONTHS[m.group(1)], 0)
        for m in _MONTH_YEAR.finditer(name.casefold())
        if m.group(1) in MONTHS
    ]
    if months:
        return max(months)
    named = year_of(name)
    if named is not None:
        return (int(named), 0, 0)
    fiscal = re.search(r"\bFY\s?'?(\d\d)\b", name, re.IGNORECASE)
    return (2000 + int(fiscal.group(1)), 0, 0) if fiscal else None


#: Column headers that name the period relative to the report's own: the current year and the one
#: before it (``Current year`` / ``Prior year``; in German accounts ``Geschäftsjahr`` / ``Vorjahr``).
_CURRENT = re.compile(
    r"(?:current|this|reporting)\s+(?:financial\s+|fiscal\s+|reporting\s+)?(?:year|period)|geschäftsjahr|berichtsjahr|cy",
    re.IGNORECASE,
)
_PREVIOUS = re.compile(
    r"(?:prior|previous|preceding|last|comparative)\s+(?:financial\s+|fiscal\s+|reporting\s+)?(?:year|period)"
    r"|vorjahr|py",
    re.IGNORECASE,
)


def relative_years(names: list[str], titles: list[str]) -> list[str]:
    """Column ``names`` whose part names the current or the prior year with no year of its own
    (``Geschäftsjahr › EUR``, ``Vorjahr › TEUR``), each with the year it means where the table's
    ``titles`` give the current one (the latest year they write: "for the period from 1 January to
    31 December 2025"): ``Geschäftsjahr 2025 › EUR``, ``Vorjahr 2024 › TEUR``. The others as they are."""
    said = [int(y) for t in titles for y in YEARS.findall(t)]
    if not said or any(YEARS.search(n) for n in names):
        return names
    latest = max(said)

    def dated(name: str) -> str:
        out = []
        for part in parts(name):
            bare = part.strip().rstrip(":")
            if _CURRENT.fullmatch(bare):
                part = f"{bare} {latest}"
            elif _PREVIOUS.fullmatch(bare):
                part = f"{bare} {latest - 1}"
            out.append(part)
        return PATH_SEP.join(out)

    found = [dated(n) for n in names]
    return found if sum(a != b for a, b in zip(found, names, strict=True)) >= 2 else names


def month_headed(name: str) -> int | None:
    """The month (1-12) a column is headed by alone (``Apr``, ``April 2025``, ``Apr-25``, ``1 April
    2025``), else None."""
    path = [without_marks(p).strip() for p in parts(name)]
    if len(path) == 1:
        first = re.split(r"[\s\-'’]", path[0])[0].casefold().rstrip(".")
        if first in MONTHS and not dates_written(path[0]):
            return MONTHS[first]
        if (figures := numeric_month(path[0])) is not None:
            return figures[1]
    day = month_as_day(name)
    return day[1] if day is not None else None


def month_as_day(name: str) -> tuple[int, int] | None:
    """The (year, month) of a column headed by the first day of a month alone (``1 April 2025``, as a
    spreadsheet shows a month it stores as a date), else None."""
    days = dates_written(name)
    if len(days) != 1 or len(parts(name)) != 1:
        return None
    day, month, year = next(iter(days))
    return (int(year), month) if day == 1 and date_alone(name) else None


#: The months of a quarter or a half by its code (``q1``, ``h2``: :func:`gridsight.text.words`).
CODE_MONTHS: dict[str, frozenset[int]] = {
    f"q{q}": frozenset(range(3 * q - 2, 3 * q + 1)) for q in range(1, 5)
} | {
    "h1": frozenset(range(1, 7)),
    "h2": frozenset(range(7, 13)),
}

"""The opening and closing balance lines of a movement a question asks: "how much did retained
earnings change during 2025 (closing less opening)?", "how much did net assets with donor
restrictions increase during the year?".

Statements of changes in equity and of activities close each year with a balance line and open it
with one: dated (``Balance at 1 January 2024`` … ``Balance at 31 December 2024`` … ``Balance at 31
December 2025``) or worded (``NET ASSETS, BEGINNING OF YEAR``, ``NET ASSETS, END OF YEAR``). A
movement over a year is its closing balance less its opening one:

- dated lines: the closing line is the latest of the year the question names (or of the last year
  shown), the opening one the latest before it (the prior year's close, or the year's first day);
- worded lines: an opening and a closing line that share their other words, which the question
  names ("net assets").

Pure functions over the row labels; :mod:`gridsight.qa._cells` reads the cells.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gridsight.qa._headers import YEARS, dates_written
from gridsight.text import stem

#: A movement over a period: "change during 2025", "increase over the year", "closing less opening".
_MOVED = re.compile(
    r"\b(?:chang|increas|decreas|gr[eo]w|r[io]se|f[ae]ll|declin|mov)\w*\b[^?]{0,60}?"
    r"\b(?:during|over|in|across|for|through)\s+(?:the\s+)?(?:(?:financial|fiscal)\s+)?(?:year|period|(?:19|20)\d\d)\b"
    r"|\bclosing\b[^?]{0,40}?\b(?:less|minus)\b[^?]{0,30}?\bopening\b",
    re.IGNORECASE,
)
#: A balance line dated: ``Balance at 31 December 2024``, ``As at 1 January 2025``.
_DATED = re.compile(r"^\s*(?:balances?\s+)?(?:as\s+)?(?:at|of|on)\b", re.IGNORECASE)
_OPENING = frozenset({"beginning", "opening", "start", "brought"})
_CLOSING = frozenset({"end", "closing", "carried"})
#: Words a worded balance line holds besides what it balances.
_FILLER = frozenset({"of", "the", "year", "period", "at", "balance", "forward", "as"})
_WORD = re.compile(r"[^\W\d_]+")


def moved(question: str) -> bool:
    """Whether the question asks a movement over a period (see :data:`_MOVED`)."""
    return _MOVED.search(question) is not None


def balance_rows(labels: Sequence[object], question: str) -> tuple[int, int] | None:
    """The rows of the opening and the closing balance of the movement ``question`` asks, or None
    (see the module docstring)."""
    if not moved(question):
        return None
    return _dated(labels, question) or _worded(labels, question)


def _dated(labels: Sequence[object], question: str) -> tuple[int, int] | None:
    days: list[tuple[tuple[int, int, int], int]] = []
    for i, label in enumerate(labels):
        if isinstance(label, str) and _DATED.match(label):
            found = dates_written(label)
            if len(found) == 1:
                d, m, y = next(iter(found))
                days.append(((int(y), m, d), i))
    if len(days) < 2:
        return None
    years = set(YEARS.findall(question))
    if len(years) > 1:
        return None
    year = int(next(iter(years))) if years else max(day[0] for day, _ in days)
    closing = [(day, i) for day, i in days if day[0] == year]
    if not closing:
        return None
    end = max(closing)
    before = [(day, i) for day, i in days if day < end[0]]
    if not before:
        return None
    return max(before)[1], end[1]


def _words(label: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(label.casefold()))


def _worded(labels: Sequence[object], question: str) -> tuple[int, int] | None:
    opening, closing = [], []
    for i, label in enumerate(labels):
        if not isinstance(label, str):
            continue
        own = set(_WORD.findall(label.casefold()))
        rest = _words(label) - {stem(w) for w in _OPENING | _CLOSING | _FILLER}
        if own & _OPENING and not own & _CLOSING:
            opening.append((rest, i))
        elif own & _CLOSING and not own & _OPENING:
            closing.append((rest, i))
    asked = _words(question)
    pairs = [(len(a & asked), o, c) for a, o in opening for b, c in closing if a == b and a and a <= asked]
    if not pairs:
        return None
    best = max(p[0] for p in pairs)
    top = [(o, c) for n, o, c in pairs if n == best]
    return top[0] if len(top) == 1 else None

"""Columns in one currency at different scales: a German statement's year in ``EUR`` beside the prior
year in ``TEUR``, a summary in ``$`` beside one in ``$000``. A cell is read as written (its own
column's unit); figures set against each other -- a change, a difference, a ratio, which is larger --
are first brought to the finer scale of the columns read.

Pure functions over a column's header path and a plan's SQL.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gridsight.qa._headers import PATH_SEP
from gridsight.qa._sql import quote

#: Currency codes and signs, each read as its code.
_CURRENCIES = {
    "€": "eur",
    "$": "usd",
    "£": "gbp",
    "¥": "jpy",
    "₹": "inr",
    "euro": "eur",
    "dollar": "usd",
    "pound": "gbp",
}
#: ISO codes of the currencies statements are most often written in.
_CODES = "EUR|USD|GBP|CHF|JPY|CNY|RMB|SEK|NOK|DKK|PLN|CZK|HUF|INR|AUD|CAD|NZD|HKD|SGD|ZAR|BRL|MXN|KRW|TWD"
_CODE = rf"(?P<cur>{_CODES}|[A-Z]{{0,3}}[€$£¥₹]|euros?|dollars?|pounds?)"
#: A scale written before the currency (``T``, ``k``, ``Tsd.``, ``Mio.``, ``m``) or after it
#: (``thousand``, ``'000``, ``000``, ``m``, ``mn``, ``million``).
_BEFORE = r"(?P<pre>T|k|K|TSD\.?|Tsd\.?|tsd\.?|Mio\.?|Mrd\.?|m|M)\s?"
_AFTER = r"\s?(?P<post>'?000|thousands?|millions?|billions?|mn|bn|m|k)"
_UNIT = re.compile(
    rf"^\(?\s*(?:in\s+)?(?:{_BEFORE})?{_CODE}(?:{_AFTER})?\s*\)?$|^\(?\s*(?:in\s+)?(?P<words>thousands?|"
    rf"millions?)\s+of\s+(?P<cur2>euros?|dollars?|pounds?)\s*\)?$",
)
#: A parenthesis a question gives the answer's unit in: "($000)", "(£m)", "(in thousands of pounds)",
#: "($ in thousands)".
_UNIT_IN_BRACKETS = re.compile(r"\s*\(\s*([^()]{1,40}?)\s*\)")
_UNIT_IN_WORDS = re.compile(
    rf"^(?:{_CODE}\s+)?(?:in\s+)?(?:thousands?|millions?|billions?)"
    rf"(?:\s+of\s+{_CODE.replace('cur', 'cur3')})?$"
)


def without_unit_in_brackets(question: str) -> str:
    """``question`` without the parentheses that only give a currency unit ("What was revenue at 31
    Dec 2024 ($000)?"): a figure is answered in its table's unit, and "000" is no figure asked."""
    return _UNIT_IN_BRACKETS.sub(
        lambda m: "" if _UNIT.match(m.group(1)) or _UNIT_IN_WORDS.match(m.group(1)) else m.group(0), question
    )


#: A currency unit written after a figure or a period: ``2025 £m``, ``2024 $'000``, ``2024 TEUR``,
#: ``2023 Mio. €``, ``2025 US$ bn``.
UNIT_AFTER_FIGURE = re.compile(rf"(?<=\d)\s+(?:in\s+)?(?:{_BEFORE})?{_CODE}(?:{_AFTER})?$")
_FACTORS = {
    "t": 1e3, "k": 1e3, "tsd": 1e3, "tsd.": 1e3, "'000": 1e3, "000": 1e3, "thousand": 1e3, "thousands": 1e3,
    "m": 1e6, "mio": 1e6, "mio.": 1e6, "mn": 1e6, "million": 1e6, "millions": 1e6,
    "mrd": 1e9, "mrd.": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9,
}  # fmt: skip
_YEARS = re.compile(r"\b(?:19|20)\d\d\b")
_TWIN = re.compile(r"\s\(\d\)$")  # (the view's second column of one name: ``EUR (2)``)


def currency_scale(name: str) -> tuple[str, float] | None:
    """The currency and scale a column's header path states (``2024 › TEUR``: ``("eur", 1000.0)``;
    ``2025 EUR``: ``("eur", 1.0)``; ``Group › $000``: ``("usd", 1000.0)``), or None where no part of
    the path is a currency alone, with or without its scale, beside a year at most."""
    for part in reversed(name.split(PATH_SEP)):
        text = _TWIN.sub("", _YEARS.sub("", part)).strip()
        m = _UNIT.match(text)
        if m is None:
            continue
        cur = (m.group("cur") or m.group("cur2") or "").casefold()
        cur = cur.rstrip("s") if cur.isalpha() and len(cur) > 3 else cur
        cur = _CURRENCIES.get(cur, cur)
        scale = (m.group("pre") or m.group("post") or m.group("words") or "").casefold()
        return cur, _FACTORS.get(scale.lstrip(), 1.0)
    return None


#: A column read in a plan's query: ``(SELECT "2024 › TEUR" FROM data``, ``"A" - "B"``.
def on_one_scale(sql: str, numbers: Sequence[str]) -> str:
    """``sql`` with each number column of ``numbers`` it reads brought to the finest scale among
    those it reads, where they are one currency at two or more scales; else ``sql`` unchanged."""
    read = {n: s for n in numbers if quote(n) in sql and (s := currency_scale(n)) is not None}
    if len({cur for cur, _ in read.values()}) != 1 or len({f for _, f in read.values()}) < 2:
        return sql
    finest = min(f for _, f in read.values())
    for name, (_, factor) in read.items():
        if factor != finest:
            sql = sql.replace(quote(name), f"({quote(name)} * {factor / finest:g})")
    return sql

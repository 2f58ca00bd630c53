"""One relational view per detected table: what every question route reads.

A detected table becomes one SQL table ``data`` with one column per leaf header path
(``Operating revenue › 2018``), the row-label column as its key, section rows (a label alone on its
row, ``Current assets:``) turned into a ``Section`` column, totals marked in an ``Is total`` column,
each row's place in the table as ``Row number`` (1 = first),
units attached to their columns, and numbers stored as text (``46,300``, ``$1,694``, ``(12)``,
``84.6%``) typed as numbers. Flat tables are the trivial case: one column per header, no key.

Pure functions over the sheet model; the sqlite database is built by :func:`gridsight.qa._sql.build_view`
and is read-only to every query (its authorizer).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any, TypeVar, cast

import numpy as np

from gridsight.detect._structure import NOTE_LABEL
from gridsight.grid import Range, Sheet, Style
from gridsight.qa._groups import closing_totals, code_ranges, outline_groups, sum_groups
from gridsight.qa._headers import dates_written, relative_years
from gridsight.qa._sql import View, build_view, cached_view, iso_text
from gridsight.text import (
    CURRENCY_CLASS,
    CURRENCY_SIGNS,
    UNIT,
    is_outline_mark,
    outline_kind,
    without_marks,
    without_outline,
    words,
)

T = TypeVar("T")

#: A column is numeric when at least this share of its filled cells read as numbers.
NUMERIC_SHARE = 0.8
#: Sample values shown per column.
SAMPLES = 3
#: Distinct values at or under which a text column lists them all (a category).
CATEGORY_MAX = 12
SECTION = "Section"
TOTAL = "Is total"
POSITION = "Row number"
ROW = "Row"
#: The column of years a statement of changes in equity places its movements by.
YEAR = "Year"

_NUM = re.compile(
    rf"^\**(?P<neg>[-−–(])?\s*(?P<cur>{CURRENCY_CLASS})?\s*(?P<digits>\d{{1,3}}(?:,\d{{3}})+|\d+)?(?P<frac>\.\d+)?\s*"
    r"(?P<pct>%)?\)?(?:\s*[*†‡]+|\s*\[\w{1,3}\])?$"
)


#: A number written with a decimal comma, as French or German statements write them: ``1 234,5``,
#: ``6,8``, ``1.234,56``, ``(0,3)`` -- a comma not followed by exactly three digits, or after a
#: group of three digits set off by a space or a point.
_DECIMAL_COMMA = re.compile(r"\d,\d{1,2}\)?%?$|\d,\d{4,}\)?%?$|\d[\s\u00a0\u202f.]\d{3},\d")


def decimal_comma(texts: list[str]) -> bool:
    """Whether a column's numbers written as text use a decimal comma (see :data:`_DECIMAL_COMMA`):
    one of them shows it, and none writes a decimal point after a comma (``1,234.5``)."""
    return any(_DECIMAL_COMMA.search(t.strip()) for t in texts) and not any(
        re.search(r"\d,\d{3}\.\d", t) for t in texts
    )


def parse_number(text: str, comma: bool = False) -> float | int | None:
    """A number written as text (``46,300``, ``$1,694``, ``(12)``, ``−3.5``, ``84.6%`` -> 84.6,
    ``12*`` with a footnote mark, ``*7*`` marked both sides); None when the text is not one number.
    ``comma``: the column writes a decimal comma (``1 234,5`` -> 1234.5; see :func:`decimal_comma`)."""
    s = text.strip().replace("\u00a0", "").replace("\u202f", "").replace(" ", "")
    if comma:
        s = s.replace(".", "").replace(",", ".")
    if not s or len(s) > 40:
        return None
    m = _NUM.match(s)
    if m is None or (m.group("digits") is None and m.group("frac") is None):
        return None
    if m.group("neg") == "(" and not s.rstrip("*†‡").endswith(")"):
        return None
    body = (m.group("digits") or "0").replace(",", "") + (m.group("frac") or "")
    value: float | int = float(body) if m.group("frac") else int(body)
    return -value if m.group("neg") else value


@dataclass(frozen=True)
class RelColumn:
    """One column of the relational view and what a prompt says about it."""

    name: str  # the SQL name (double-quoted in queries); unique in the view
    role: str  # "key" (row labels), "section", "total", "position" (1 = first row) or "data"
    kind: str  # "number", "text", "date" or "boolean"
    data: Range  # the sheet cells it comes from (evidence)
    unit: str | None = None
    distinct: int = 0
    samples: tuple[Any, ...] = ()
    low: Any = None
    high: Any = None


@dataclass
class Relation:
    """A detected table as rows and typed columns, with its sqlite view."""

    sheet: Sheet
    table: Any  # gridsight.detect.DetectedTable
    columns: list[RelColumn]
    rows: list[int]  # the sheet row of every record
    view: View
    values: list[list[Any]]  # per column, the stored values (what the view holds)
    view_key: tuple[int, str] = (0, "")  # where the view is cached (see :func:`relation_of`)
    _distinct: dict[str, list[Any]] = field(default_factory=dict, repr=False)  # by column name
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)  # see memo()

    @property
    def ref(self) -> str:
        return f"{self.sheet.name}!{self.table.range.ref()}"

    @property
    def blocks(self) -> bool:
        """Whether the relation reads a statement's blocks together (:func:`joined_blocks`)."""
        return self.view_key[1].startswith("blocks:")

    @property
    def key(self) -> RelColumn | None:
        """The row-label column, if the table has one."""
        return next((c for c in self.columns if c.role == "key"), None)

    def column(self, name: str) -> RelColumn:
        return next(c for c in self.columns if c.name == name)

    def values_of(self, name: str) -> list[Any] | None:
        """The stored values of the column named ``name`` (what the view holds); None when the view
        has no such column (no ``Section``, no ``Is total``)."""
        return next((v for c, v in zip(self.columns, self.values, strict=True) if c.name == name), None)

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """A fact about the whole table that every question reads (computed once per relation)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return cast(T, self._memo[key])

    def distinct_values(self, name: str) -> list[Any]:
        """Distinct non-empty values of a column, most frequent first (counted once per column: every
        question on the table grounds its words in them)."""
        if name not in self._distinct:
            i = [c.name for c in self.columns].index(name)
            counts = Counter(v for v in self.values[i] if _filled(v))
            self._distinct[name] = [v for v, _ in counts.most_common()]
        return self._distinct[name]


def _clean(text: object) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def _stored(v: Any) -> Any:
    """A cell value as sqlite stores it (times and dates as ISO text, booleans as 0/1)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, dt.datetime | dt.date | dt.time):
        return iso_text(v)
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, str):
        s = v.strip()
        return s if s else None
    return v


#: Cells that say "no value" in a column of numbers (dashes, n/a, NM, a bare currency dash).
#: A cell that holds no figure where figures stand: dashes, n/a, and the symbols statistics offices
#: print for "not available", "confidential", "not applicable" (``..``, ``.``, ``:``, ``x``, ``c``,
#: ``z``, ``*``, ``[x]``, ``[c]``, ``[z]``, ``[low]``).
_PLACEHOLDER = re.compile(
    r"^\s*[$€£]?\s*(?:[-–—]+%?|n/?a|nm|none|null|nan|\.{1,3}|…|:|[xcz]|\*+|\[(?:[a-z]{1,3}|low)\])\s*$",
    re.IGNORECASE,
)


def numbers_of(cells: list[Any]) -> list[Any]:
    """Each cell as a number: numbers as they are, numbers written as text read (:func:`parse_number`,
    with a decimal comma where the column writes one), anything else (text, a flag, a date, a
    yes/no) None."""
    comma = decimal_comma([v for v in cells if isinstance(v, str)])
    return [
        v
        if isinstance(v, int | float) and not isinstance(v, bool)
        else parse_number(v, comma)
        if isinstance(v, str)
        else None
        for v in cells
    ]


def _type_column(cells: list[Any]) -> tuple[str, list[Any]]:
    """The column's kind and its stored values (numbers written as text read as numbers; dashes and
    n/a among numbers are empty)."""
    kinds = {type(v) for v in cells} - {type(None)}
    if kinds <= {int, float}:  # the common case, kept fast for big tables
        return ("number" if kinds else "text"), [None if v != v else v for v in cells]  # NaN is empty
    text = [v.strip() if isinstance(v, str) else v for v in cells]
    filled = [v for v in text if _filled(v) and not (isinstance(v, str) and _PLACEHOLDER.match(v))]
    if not filled:
        return "text", [None] * len(cells)
    if all(isinstance(v, bool) for v in filled):
        return "boolean", [_stored(v) for v in cells]
    if all(isinstance(v, dt.date | dt.time) for v in filled):
        return "date", [_stored(v) for v in cells]
    sample = [v for v in filled[:200] if isinstance(v, str)]
    comma = decimal_comma(sample)
    if kinds == {str} and sum(parse_number(v, comma) is not None for v in sample) < NUMERIC_SHARE * len(
        sample
    ):
        return "text", [v or None for v in text]  # words, not numbers: no need to try every cell
    parsed = numbers_of(text)
    numeric = sum(1 for v, p in zip(text, parsed, strict=True) if v is not None and p is not None)
    if numeric >= NUMERIC_SHARE * len(filled):
        return "number", [_stored(p) if p is not None else None for p in parsed]
    return "text", [_stored(v) for v in cells]


def _body_top(sheet: Sheet, table: Any, label_cols: list[int], value_cols: list[int]) -> int:
    """The first body row. A last header row that holds only a row label (``Passenger flights:``
    under the years) is the body's first section, not a header."""
    headers = sorted(table.header_rows)
    top = headers[-1] + 1 if headers else table.range.top
    while label_cols and len(headers) > 1:
        r = headers.pop()
        labelled = any(sheet.value(r, c) not in (None, "") for c in label_cols)
        if not labelled or any(sheet.value(r, c) not in (None, "") for c in value_cols):
            break
        top = r
    return top


def _names(table: Any, cols: list[int]) -> list[str]:
    """Unique column names from the table's header paths (letters where a column has none)."""
    out: list[str] = []
    seen: Counter[str] = Counter()
    for c in cols:
        base = _header_of(table, c).replace('"', "'") or f"Column {Range(0, c, 0, c).ref().rstrip('1')}"
        seen[base.casefold()] += 1
        out.append(base if seen[base.casefold()] == 1 else f"{base} ({seen[base.casefold()]})")
    return out


def table_unit(table: Any) -> str | None:
    """The unit a table's unit line states: a title that gives it in brackets ("Balance sheet (EUR
    thousand)") is in what the brackets say; a unit line of its own is read whole."""
    if not getattr(table, "units", ()):
        return None
    text = _clean(table.units[0].text)
    inside = [b for b in re.findall(r"\(([^()]{1,40})\)", text) if UNIT.search(b)]
    if len(inside) == 1 and not UNIT.search(text.replace(f"({inside[0]})", "")):
        return inside[0].strip()
    return text


def _unit_of(table: Any, name: str) -> str | None:
    m = re.search(r"\((in [^)]*|[$€£%][^)]*|percent|millions?|thousands?|billions?)\)", name, re.IGNORECASE)
    if m:
        return m.group(1)
    return table_unit(table)


#: Words of a total's or a section's label that do not say which section it is.
_NOT_SECTION = frozenset({"total", "and", "the", "of"})


def _words_of(label: str) -> set[str]:
    """A label's words, less its outline number (``I - Intangible fixed assets`` is closed by
    ``Total intangible fixed assets``)."""
    return {w for w in words(without_outline(label), camel=False) if w.isalpha() and w not in _NOT_SECTION}


def _named_by_closing(
    sections: list[str | None],
    names: list[str],
    closing: list[int],
    totals: list[bool],
    figures: list[list[float | None]],
) -> list[str | None]:
    """``sections`` with the lines a closing total adds up placed under its name, where the total's
    label is a group's name and no "Total" (a condensed statement's ``Non-current liabilities``
    under ``Borrowings`` … ``Deferred tax liabilities``): back to the total or section before."""
    out = list(sections)
    if not any(sections):
        return out  # (a statement's sections first: a list of figures may add up by chance)
    for i in sorted(closing):
        label = names[i].strip()
        section = sections[i]
        if not label or re.match(r"(?:total|all|both|overall|whole|grand)\b", label, re.IGNORECASE):
            continue  # (a whole -- ``All ages``, ``Total`` -- names no group of its own)
        if section is not None and section.split(" › ")[-1].strip().casefold() == label.casefold():
            continue
        members = []
        j = i - 1
        while j >= 0 and sections[j] == section and not totals[j] and names[j].strip():
            members.append(j)
            j -= 1
        # (parts that add up: every figure of the lines not below zero -- ``Gross profit`` under
        # revenue and a cost shown negative is a result, no group of lines)
        if len(members) >= 2 and all(v is None or v >= 0 for m in members for v in figures[m]):
            for m in members:
                out[m] = f"{section} › {label}" if section else label
    return out


def _closed_by_unnamed(sections: list[str | None], names: list[str], totals: list[bool]) -> list[str | None]:
    """``sections`` with the lines after a total that has no label (a UK balance sheet's figure
    under its current assets), or whose label closes its section (``Net cash used in investing
    activities``, found a total only once the figures were read), moved out of the section it
    closes, into the one above it, up to the next line of another section: ``Creditors: amounts
    falling due within one year`` is no current asset."""
    out = list(sections)
    closed: str | None = None
    parent: str | None = None
    for i, section in enumerate(sections):
        if closed is not None:
            if section != closed:
                closed = None
            else:
                out[i] = parent
        if totals[i] and section is not None:
            path = section.split(" › ")
            keep = _closed_at(path, names[i]) if names[i].strip() else len(path) - 1
            if keep < len(path):
                closed, parent = section, " › ".join(path[:keep]) or None
    return out


def _closed_by_bold(sections: list[str | None], bold: list[bool], totals: list[bool]) -> list[str | None]:
    """``sections`` with a section's lines ended by a line in bold after lines that are not: an
    income statement's ``Income from operations`` under ``Operating expenses:`` and its items is the
    result the lines lead to, no operating expense, and so are the lines after it (the section
    below it is the one the heading opened, one level up)."""
    out = list(sections)
    plain: set[str] = set()  # (the sections that have had a line not in bold)
    closed: dict[str, str | None] = {}  # (a section closed -> the one its later lines are in)
    for i, section in enumerate(sections):
        if section is None:
            continue
        if section in closed:
            out[i] = closed[section]
            continue
        if not bold[i]:
            plain.add(section)
        elif section in plain and not totals[i]:
            closed[section] = " › ".join(section.split(" › ")[:-1]) or None
            out[i] = closed[section]
    return out


def _closed_at(sections: list[str], total: str) -> int:
    """How many levels of the section path stay open after a total line: the deepest section
    whose words the total's label holds (``Total current assets`` closes ``Current assets:``,
    ``Total assets`` closes ``Assets`` and what is under it) is closed with all below it."""
    said = _words_of(total)
    flows = _NET_CASH.match(total) is not None
    for depth in range(len(sections) - 1, -1, -1):
        own = _words_of(sections[depth])
        if own and own <= said:
            return depth
        # (``Total items that may be reclassified`` closes ``Items that are or may be reclassified
        # subsequently to profit or loss:``, whose words it shortens: two of them at least)
        if len(said) >= 2 and said <= own:
            return depth
        # (``Net cash used in investing activities`` closes ``Cash flows from investing activities``)
        if flows and (what := own - _CASH_FLOW_WORDS) and what <= said:
            return depth
    return len(sections)


#: A cash-flow statement's total of a section of activities, and the words that frame its sections.
_NET_CASH = re.compile(r"^\s*net\s+cash\b", re.IGNORECASE)
_CASH_FLOW_WORDS = frozenset(
    {"cash", "flows", "flow", "from", "in", "used", "net", "generated", "provided", "by"}
)


def _codes(values: list[Any]) -> bool:
    """Whether a column holds codes, not names: short texts, each with a digit or in capitals, with
    no word in lower case outside brackets and no year (``B-E``, ``CP01``, ``V07000158``,
    ``A00-R99, U00-Y89``, ``C00-D48 (rest)``, an outline number ``(iii)``; not ``Mars``, nor ``2024 Q1``)."""
    texts = [v.strip() for v in values if isinstance(v, str) and v.strip()]
    return len(texts) >= 3 and all(_code(t) for t in texts)


def _code(text: str) -> bool:
    """Whether one text is a code (see :func:`_codes`)."""
    return is_outline_mark(text) or (
        len(text) <= 20
        and (any(ch.isdigit() for ch in text) or text.upper() == text)
        and not re.search(r"[a-z]{3,}", re.sub(r"\([^)]*\)", "", text))
        and not re.search(r"\b(?:19|20)\d\d\b", text)
    )


def _outline_kind(cells: dict[int, list[Any]], cols: list[int], i: int) -> str | None:
    """The kind of outline number row ``i`` has, in the first of ``cols`` that writes one."""
    for c in cols:
        v = cells[c][i]
        kind = outline_kind(v) if isinstance(v, str) else None
        if kind is not None:
            return kind
    return None


#: The share of a column's texts that outline numbers make it a column of them, odd ones beside.
_MOSTLY = 0.8


def _outline_numbers(values: list[Any], share: float = 1.0) -> bool:
    """Whether a column holds outline numbers alone (``I.``, ``(1)``, ``(a)``, ``(ii)``), three at
    least: every text (``share`` 1), or that share of them -- a compound number or two among them
    (``A-1)`` between ``A)`` and ``I.``) at 0.8."""
    texts = [v for v in values if v is not None and str(v).strip()]
    marks = sum(1 for v in texts if isinstance(v, str) and is_outline_mark(v))
    return all(isinstance(v, str) for v in texts) and marks >= 3 and marks >= share * len(texts)


def _label_column(sheet: Sheet, table: Any, cols: list[int]) -> list[int]:
    """The column whose labels name the rows: the first row-header column, or the one after it when
    the first holds codes (``NACE | Industry``: the industries name the rows; the codes stay a column)."""
    if not cols:  # (no row-header column found: years down the rows, or names after codes)
        return _years_down(sheet, table) or _names_after_codes(sheet, table) or _records_by_name(sheet, table)
    if len(cols) < 2:
        return cols[:1]
    first, second = (_body(sheet, table, c) for c in cols[:2])
    # (``I - | Intangible fixed assets``: outline numbers in the first, the names beside them)
    beside_marks = _outline_numbers(first, _MOSTLY) and not _outline_numbers(second, _MOSTLY)
    return [cols[1]] if _names_beside_codes(first, second) or beside_marks else cols[:1]


def _body(sheet: Sheet, table: Any, col: int) -> list[Any]:
    """The values of one column under the table's header (none when the table has no body)."""
    rng = table.range
    top = max(table.header_rows) + 1 if table.header_rows else rng.top
    return sheet.column_values(Range(top, col, rng.bottom, col)) if top <= rng.bottom else []


def _names_beside_codes(first: list[Any], second: list[Any]) -> bool:
    """Whether the first column holds codes and the second names beside them."""
    return _codes(first) and not _codes(second) and sum(isinstance(v, str) for v in second) >= 3


def _names_after_codes(sheet: Sheet, table: Any) -> list[int]:
    """The second column, when the first holds codes and the second names (``ISCO-08 | Major group``
    with the codes written as text: the groups name the rows); else none."""
    rng = table.range
    if rng.right < rng.left + 2:
        return []
    first, second = _body(sheet, table, rng.left), _body(sheet, table, rng.left + 1)
    names = [v for v in second if isinstance(v, str) and v.strip()]
    if _names_beside_codes(first, second) and len(names) >= 3 and len(set(names)) == len(names):
        return [rng.left + 1]
    return []


def _records_by_name(sheet: Sheet, table: Any) -> list[int]:
    """The second column, when the first holds number codes that go with its names one to one and
    each name is on several rows (a UN data download: ``53 | Arvandia | 2015 | Series | Value``,
    one row per country, year and series): the names name the rows; else none."""
    rng = table.range
    if rng.right < rng.left + 3:
        return []
    codes, names = _body(sheet, table, rng.left), _body(sheet, table, rng.left + 1)
    pairs = {(c, n) for c, n in zip(codes, names, strict=True) if c is not None or n is not None}
    if (
        len(pairs) < 2
        or not all(isinstance(c, int) and not isinstance(c, bool) for c, _ in pairs)
        or not all(isinstance(n, str) and n.strip() for _, n in pairs)
        or _all_years([c for c, _ in pairs])
        or len({c for c, _ in pairs}) != len(pairs)
        or len({n for _, n in pairs}) != len(pairs)
        or len([n for n in names if n is not None]) < 2 * len(pairs)
    ):
        return []
    return [rng.left + 1]


def _years_down(sheet: Sheet, table: Any) -> list[int]:
    """The first column, when it holds one distinct year per row (a five-year summary with the years
    running down and the measures across: the years name the rows); else none."""
    rng = table.range
    if rng.right <= rng.left:
        return []
    first = [v for v in _body(sheet, table, rng.left) if v is not None]
    return [rng.left] if len(first) >= 3 and _years_written(first) and len(set(first)) == len(first) else []


def _years_written(values: list[Any]) -> bool:
    """Whether every value is a year: a number, or a label (``2021``, ``2022r``, ``2023 (p)``,
    ``FY2024``, ``2021/22``)."""
    return all(
        _all_years([v]) if not isinstance(v, str) else bool(_YEAR_LABEL.fullmatch(without_marks(v).strip()))
        for v in values
    )


#: A year written as a label: ``2023``, ``2023p`` (marks aside), ``FY2024``, ``2021/22``, ``2021-22``.
_YEAR_LABEL = re.compile(r"(?:FY\s?)?(?:19|20)\d\d(?:\s*[/\-–]\s*\d\d(?:\d\d)?)?", re.IGNORECASE)


#: A row named as the whole of its breakdown: ``All aged 16-64``, ``All persons``, ``Total`` (not the
#: rest of a kind, ``All other regions``).
_WHOLE_ROW = re.compile(r"\s*(?:all\b(?!\s+other\b)|total\b)", re.IGNORECASE)
#: A line that is a part of the line above it, already counted in it.
_PART_OF_ABOVE = re.compile(
    r"^[\s\-–—]*(?:of\s+which|thereof|including|incl\.|o/w)(?:\b|(?<=\.)|(?<=/w))[:\s]*", re.IGNORECASE
)


def part_of_above(label: str) -> str | None:
    """What an "of which" line names (``of which: trade receivables``: 'trade receivables'), a part
    of the line above it; None for any other label."""
    m = _PART_OF_ABOVE.match(label)
    return label[m.end() :].strip() or None if m else None


#: A balance line that closes a period: ``Balance at 31 December 2024``, ``At 1 January 2025``,
#: ``Balance as of December 31, 2024``.
_BALANCE_AT = re.compile(r"^\s*(?:balances?\s+)?(?:as\s+)?(?:at|of|on)\b", re.IGNORECASE)


def _periods_of_balances(keys: list[Any]) -> list[str] | None:
    """The year of each row of a statement of changes in equity, where the same movements stand once
    per year between balance lines (``Balance at 1 January 2024``, ``Profit for the year``, …,
    ``Balance at 31 December 2024``, ``Profit for the year``, …, ``Balance at 31 December 2025``):
    the year of the balance that closes its block (a balance line, its own day's year). None where
    fewer than two balance lines name a day, no line repeats, or a row follows the last balance."""
    closing: list[int | None] = []
    for k in keys:
        days = dates_written(k) if isinstance(k, str) and _BALANCE_AT.match(k) else set()
        closing.append(int(next(iter(days))[2]) if len(days) == 1 else None)
    at = [i for i, y in enumerate(closing) if y is not None]
    lines = [k for k, y in zip(keys, closing, strict=True) if y is None and isinstance(k, str)]
    if len(at) < 2 or len(set(lines)) == len(lines) or at[-1] != len(keys) - 1:
        return None
    return [str(next(closing[j] for j in at if j >= i)) for i in range(len(keys))]


def _years_in_blocks(keys: list[Any], years: list[Any]) -> bool:
    """Whether the row labels are written once per block (blank below) over a column of years that
    repeat from block to block (``Avelland`` over 2021, 2022, 2023, then ``Brunnfeld``)."""
    filled = [v for v in years if v is not None]
    return (
        len(filled) >= 4
        and _years_written(filled)
        and len({str(y) for y in filled}) < len(filled)
        and 3 * sum(1 for k in keys if k is None) >= len(keys)
    )


def filled_down(keys: list[Any], inner: list[Any], rows: list[int] | None = None) -> list[Any]:
    """The outer labels of a table with two label columns, each written once on the first row of its
    block (``Southbridge`` over ``Public hospitals``, ``Private hospitals``, ``Total``): repeated
    down the block, while the inner column names the rows and no row is skipped. A column blank on
    fewer than a third of its rows is left as it is."""
    out = list(keys)
    if 3 * sum(1 for k in keys if k is None) < len(keys):
        return out  # (a column of codes blank on its total row only: each row has its own)
    for i in range(1, len(out)):
        if (
            out[i] is None
            and out[i - 1] is not None
            and inner[i] not in (None, "")
            and (rows is None or rows[i] == rows[i - 1] + 1)
        ):
            out[i] = out[i - 1]
    return out


def _names_only(values: list[Any]) -> bool:
    """Whether every filled value is a text that is no figure (``10-49``, ``Pro``: names)."""
    filled = [v for v in values if v not in (None, "")]
    return bool(filled) and all(isinstance(v, str) and parse_number(v) is None for v in filled)


def _figure(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        number = parse_number(value)
        return None if number is None else float(number)
    return None


def _within_groups(
    sections: list[str | None], names: list[str], groups: dict[int, int], marked: set[int]
) -> list[str | None]:
    """Each row's section with the groups it stands in added (outermost first); a group line that is
    a marked total, or that adds up its whole block (``All offences`` first), names no section."""
    out = list(sections)
    for i in sorted(groups):
        block = [r for r, s in enumerate(sections) if s == sections[i]]
        whole = i == block[0] and groups[i] == block[-1]
        if i in marked or whole or not names[i]:
            continue
        for r in range(i + 1, groups[i] + 1):
            out[r] = f"{out[r]} › {names[i]}" if out[r] else names[i]
    return out


#: A header part that gives the sign convention of every figure ("Inflows/(Outflows)",
#: "Increase/(decrease)"): written over one column, it names none of them apart.
_SIGN_CONVENTION = re.compile(r"^[^\W\d_]+\s*/\s*\([^\W\d_]+\)$")


#: A header part that ends in a month and day ("March 31,", "Year ended June 30") above one that
#: holds the year alone ("2026"): one date written on two header rows.
_MONTH_DAY = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?$", re.IGNORECASE
)
_YEAR_ALONE = re.compile(r"(?:19|20)\d\d")


def _dates_joined(path: str, others: list[str]) -> str:
    """``path`` with a month and day over a year alone joined into one part (``March 31, › 2026``
    -> ``March 31, 2026``), as the statement reads it, where the month and day head this column
    alone, not the ones ``others`` beside it too: ``Years ended December 31,`` spread over ``2025 |
    2024`` heads both, and stays apart."""
    own = path.split(" › ")
    out: list[str] = []
    for k, part in enumerate(own):
        above = " › ".join(own[:k])
        shared = any(o == above or o.startswith(above + " › ") for o in others)
        if out and _YEAR_ALONE.fullmatch(part) and _MONTH_DAY.search(out[-1]) and not shared:
            out[-1] = f"{out[-1].rstrip(',')}, {part}"
        else:
            out.append(part)
    return " › ".join(out)


def _header_of(table: Any, col: int) -> str:
    """A column's header path as the table reads it ('' outside the table), without a last part that
    only gives the figures' sign convention where no other column has a part that deep."""
    at = col - table.range.left
    if not 0 <= at < len(table.header_paths):
        return ""
    beside = [_clean(table.header_paths[i]) for i in (at - 1, at + 1) if 0 <= i < len(table.header_paths)]
    path = _dates_joined(_clean(table.header_paths[at]), beside)
    own = path.split(" › ")
    if len(own) > 1 and _SIGN_CONVENTION.match(own[-1]):
        deepest = max(
            (len(p.split(" › ")) for i, p in enumerate(table.header_paths) if i != at and p), default=0
        )
        if deepest < len(own):
            return " › ".join(own[:-1])
    return path


def _twin_columns(
    table: Any, cols: list[int], column: Callable[[int], list[Any]]
) -> list[tuple[int, int, list[Any]]]:
    """The value columns as (first, last, values): one each, but for two side by side under the same
    header that no row fills both, with figures only (a UK balance sheet's inner column of lines
    and outer column of subtotals under one year, ``2025 | £ | £``), which are one column."""
    out: list[tuple[int, int, list[Any]]] = []
    for c in cols:
        raw = column(c)
        beside = (
            out and out[-1][0] == out[-1][1] == c - 1 and _header_of(table, c) == _header_of(table, c - 1)
        )
        if beside and _fill_apart(out[-1][2], raw):
            out[-1] = (c - 1, c, [a if _filled(a) else b for a, b in zip(out[-1][2], raw, strict=True)])
            continue
        out.append((c, c, raw))
    return out


def _sums_to_heads(
    table: Any, cells: dict[int, list[Any]], label: int, cols: list[int]
) -> dict[int, list[Any]]:
    """``cells`` with each group's sum moved up to the group's own line, where a pair of columns under
    one header writes the lines inside and the sums outside and puts a sum on the row of the group's
    last line: a German statement's ``5. Materialaufwand`` stands alone, its ``a)`` and ``b)`` fill
    the inner column, and the outer column holds the group's sum on ``b)``'s row. A sum moves only
    where it is the inner figures' sum since the line alone on its row above; elsewhere nothing moves."""
    out = dict(cells)
    for inner, outer in pairwise(cols):
        head = _header_of(table, inner)
        if outer != inner + 1 or not head or _header_of(table, outer) != head:
            continue
        a, b = list(out[inner]), list(out[outer])
        if not all(_figure(v) is not None for v in [*a, *b] if _filled(v)):
            continue
        moves: dict[int, int] = {}
        for row in (i for i in range(len(a)) if _filled(a[i]) and _filled(b[i])):
            top = row
            while top > 0 and _filled(a[top - 1]) and not _filled(b[top - 1]):
                top -= 1
            at = top - 1
            parts = [_figure(v) or 0.0 for v in a[top : row + 1]]
            if at < 0 or _filled(a[at]) or _filled(b[at]) or not _filled(out[label][at]):
                break
            if abs(sum(parts) - (_figure(b[row]) or 0.0)) > max(1.0, 1e-3 * abs(sum(parts))):
                break
            moves[row] = at
        else:
            for row, at in moves.items():
                b[at], b[row] = b[row], None
            out[outer] = b
    return out


def _capitals(v: Any) -> bool:
    """Whether a label is written in capitals (a heading's letters: ``LIABILITIES``)."""
    return isinstance(v, str) and any(ch.isalpha() for ch in v) and v.upper() == v


def _filled(v: Any) -> bool:
    """Whether a cell holds anything (an empty text is nothing, nor is a currency sign alone: the
    sign of the figure beside it, in a column of its own in a statement converted from PDF)."""
    if isinstance(v, str):
        return bool(v.strip()) and v.strip() not in CURRENCY_SIGNS
    return v is not None


def _fill_apart(a: list[Any], b: list[Any]) -> bool:
    """Whether two columns of figures fill different rows, each some."""
    if any(_filled(x) and _filled(y) for x, y in zip(a, b, strict=True)):
        return False
    if not any(_filled(v) for v in a) or not any(_filled(v) for v in b):
        return False
    return all(_figure(v) is not None for v in [*a, *b] if _filled(v))  # (text columns stay two)


def _staircase(cells: dict[int, list[Any]], cols: list[int]) -> list[int]:
    """Two or more text columns side by side, among the first four, where each row with a label
    writes it in exactly one of them, each column used (``Level 1 | Level 2 | Level 3``: a
    hierarchy written by column, not by indent); else none."""
    for start in cols[:2]:
        run: list[int] = []
        for c in cols[cols.index(start) : cols.index(start) + 4]:
            values = [v for v in cells[c] if _filled(v)]
            if not values or not all(isinstance(v, str) for v in values):
                break
            run.append(c)
        if len(run) < 2:
            continue
        counts = [sum(_filled(cells[c][i]) for c in run) for i in range(len(cells[run[0]]))]
        labelled = [n for n in counts if n]
        if len(labelled) >= 4 and all(n == 1 for n in labelled):
            return run
    return []


def build_relation(sheet: Sheet, table: Any) -> Relation:
    """The relational view of one detected table (see the module docstring)."""
    rng = table.range
    # The first row-header column is the key; further ones (Customer, Region beside an id) are
    # ordinary columns a query filters on, not parts of one joined label.
    label_cols = _label_column(sheet, table, [c for c in table.row_header_cols if rng.left <= c <= rng.right])
    value_cols = [c for c in range(rng.left, rng.right + 1) if c not in label_cols]
    top = _body_top(sheet, table, label_cols, value_cols)
    labels = [c - rng.left for c in label_cols]
    values_at = [c - rng.left for c in value_cols]
    totals = set(table.total_rows) | set(table.subtotal_rows)
    cells = {c: sheet.column_values(Range(top, c, rng.bottom, c)) for c in range(rng.left, rng.right + 1)}
    cells = cells if top <= rng.bottom else {c: [] for c in cells}
    filled = np.array([[_filled(v) for v in cells[c]] for c in cells], dtype=bool).T
    if filled.size:
        uncached = _formulas(sheet, top, rng) & ~filled
        filled |= uncached  # a formula Excel never calculated is a cell all the same
        _compute(sheet, top, rng, cells, uncached)
    stair = _staircase(cells, list(range(rng.left, rng.right + 1)))
    if stair:
        # ``Level 1 | Level 2 | Level 3``, each line's label in the column of its level: one label
        # column, the level written as indentation (read as a statistics table's indent is)
        cells[stair[0]] = [
            next(
                (" " * 2 * k + str(cells[c][i]).strip() for k, c in enumerate(stair) if _filled(cells[c][i])),
                None,
            )
            for i in range(len(cells[stair[0]]))
        ]
        label_cols = [stair[0]]
        value_cols = [c for c in range(rng.left, rng.right + 1) if c not in stair]
        labels, values_at = [stair[0] - rng.left], [c - rng.left for c in value_cols]
        filled = np.array([[_filled(v) for v in cells[c]] for c in cells], dtype=bool).T
    if label_cols and filled.size:
        moved = _sums_to_heads(table, cells, label_cols[0], value_cols)
        if moved != cells:
            cells = moved
            filled = np.array([[_filled(v) for v in cells[c]] for c in cells], dtype=bool).T
    rows: list[int] = []
    sections: list[str | None] = []
    outline_cols: list[int] = []
    if filled.size:
        # (an outline number beside a section's name, ``(2) | Non-current liabilities``, is no figure)
        outline = [c for c in values_at if _outline_numbers(cells[rng.left + c])]
        outline_cols = [rng.left + c for c in values_at if _outline_numbers(cells[rng.left + c], _MOSTLY)]
        figures_at = [c for c in values_at if c not in outline] or values_at
        any_value = filled[:, figures_at].any(axis=1) if figures_at else np.zeros(len(filled), bool)
        label_only = filled[:, labels[0]] & ~any_value if labels else np.zeros(len(filled), bool)
        # (nor is a note reference beside a heading in capitals, ``LIABILITIES | 9 |`` with no figure;
        # ``Debtors | 8 |`` in a line's own letters is a line whose figures its parts give)
        notes = [c for c in values_at if NOTE_LABEL.fullmatch(_header_of(table, rng.left + c))]
        figured = [c for c in figures_at if c not in notes]
        if labels and notes and figured:
            capitals = np.array([_capitals(v) for v in cells[label_cols[0]]], dtype=bool)
            label_only |= filled[:, labels[0]] & capitals & ~filled[:, figured].any(axis=1)
        label_only &= len(values_at) > 1
        current: list[str] = []
        marks: list[str | None] = []  # (the outline number each open section's line has)
        after_data = True
        for i in np.flatnonzero(filled.any(axis=1)).tolist():
            mark = _outline_kind(cells, [rng.left + c for c in outline] + label_cols[:1], i)
            if mark is not None and mark in marks:  # (``(b)`` closes the section ``(a)`` opened)
                current, marks = current[: marks.index(mark)], marks[: marks.index(mark)]
            heading = label_only[i] and str(cells[label_cols[0]][i]).rstrip().endswith(":")
            # (a label alone on its row: a section; one that says "Total ... attributable to:" heads
            # the lines after it, whatever its first word)
            if label_only[i] and (top + i not in totals or heading):
                label = _clean(cells[label_cols[0]][i])
                keep = not after_data or (mark is not None and current)
                current, marks = ([*current, label], [*marks, mark]) if keep else ([label], [mark])
                after_data = False
                continue
            rows.append(top + i)
            sections.append(" › ".join(current) if current else None)
            after_data = True
            if top + i in totals and current and labels:
                # "Total current assets" closes "Current assets:": the lines after it are the
                # parent section's ("Property, plant and equipment" under "Assets")
                current = current[: _closed_at(current, _clean(cells[label_cols[0]][i]))]
                marks = marks[: len(current)]
    offsets = [r - top for r in rows]

    def column(c: int) -> list[Any]:
        return [cells[c][i] for i in offsets]

    # (a UK balance sheet's two columns under one year, lines inside and subtotals outside: one)
    twins = _twin_columns(table, value_cols, column)
    if label_cols and value_cols and rows:
        # lines that add up the lines under them (a region above its districts): their groups
        figures = [[_figure(v) for v in row] for row in zip(*(vals for _, _, vals in twins), strict=True)]
        raw = [cells[label_cols[0]][i] for i in offsets]
        indents = [len(v) - len(v.lstrip(" ")) if isinstance(v, str) else 0 for v in raw]
        names = [
            _clean(cells[label_cols[0]][i]) if cells[label_cols[0]][i] is not None else "" for i in offsets
        ]
        # ("of which: Manufacturing" is a part of the line above, counted in it already: no line of
        # the sums)
        kept = [i for i, name in enumerate(names) if not _PART_OF_ABOVE.match(name)]
        found = sum_groups(
            [figures[i] for i in kept],
            [sections[i] for i in kept],
            [indents[i] for i in kept],
            [names[i] for i in kept],
        )
        groups = {kept[i]: kept[j] for i, j in found.items()}
        # (``II. Long-term debts`` over ``2. Bank borrowings``: groups by their outline numbers, where the
        # figures did not find them)
        marked = [_outline_kind(cells, outline_cols + label_cols[:1], offsets[i]) for i in kept]
        outlined = outline_groups(
            marked, [sections[i] for i in kept], {j for j, i in enumerate(kept) if rows[i] in totals}
        )
        numbered = {kept[i]: kept[j] for i, j in outlined.items() if kept[i] not in groups}
        codes = next((c for c in table.row_header_cols if c not in label_cols and _codes(column(c))), None)
        if codes is not None:  # (a classification's ranges: ``B-E`` over ``B`` … ``E``)
            groups = {**code_ranges(column(codes)), **groups}
        closing = closing_totals([figures[i] for i in kept], [sections[i] for i in kept], set(found))
        marked_totals = {i for i, r in enumerate(rows) if r in totals}
        sections = _within_groups(sections, names, {**numbered, **groups}, marked_totals)
        # (a numbered group's line is a line of the statement all the same, ``Cost of materials`` over
        # its ``a)`` and ``b)``: no total)
        totals |= {rows[i] for i in groups}
        # (and lines that add up those right above them: ``All ages`` closing its section)
        totals |= {rows[kept[i]] for i in closing}
        bold = [bool(sheet.cell(r, label_cols[0]).style & Style.BOLD) for r in rows]
        sections = _closed_by_bold(sections, bold, [r in totals for r in rows])
        sections = _closed_by_unnamed(sections, names, [r in totals for r in rows])
        sections = _named_by_closing(
            sections, names, [kept[i] for i in closing], [r in totals for r in rows], figures
        )
        # ("of which" lines too: parts already counted in the line above, no members of their own)
        totals |= {rows[i] for i, name in enumerate(names) if _PART_OF_ABOVE.match(name)}
        # (and the whole of a breakdown by its name, ``All aged 16-64`` under its age bands, which a
        # rate's figures do not add up to: no member of the breakdown)
        totals |= {rows[i] for i, name in enumerate(names) if _WHOLE_ROW.match(name)}

    specs: list[tuple[str, str, Range, list[Any]]] = []
    year_labels: int | None = None
    if label_cols:
        key_name = _names(table, label_cols[:1])[0]
        own = _clean(sheet.value(top, label_cols[0]) or "")
        key_name = ROW if key_name.startswith("Column ") or key_name == own else key_name
        key_range = Range(top, label_cols[0], rng.bottom, label_cols[-1])
        keys = [_clean(v) or None if v is not None else None for v in column(label_cols[0])]
        inner = [c for c in table.row_header_cols if rng.left <= c <= rng.right and c != label_cols[0]][:1]
        beside = label_cols[-1] + 1
        if not inner and beside in value_cols and _names_only(column(beside)):
            inner = [beside]  # (``Economic activity | Size class | ...``, each activity written once)
        if inner:
            keys = filled_down(keys, column(inner[0]), rows)
        elif value_cols and _years_in_blocks(keys, column(value_cols[0])):
            # ``Land | Year | ...`` with each Land written once over its years: the years are labels
            keys = filled_down(keys, column(value_cols[0]), rows)
            year_labels = value_cols[0]
        specs.append((key_name, "key", key_range, keys))
        if any(sections):
            specs.append((SECTION, "section", key_range, sections))
        periods = _periods_of_balances(keys)
        if periods is not None:  # (a statement of changes in equity: its year's movements, twice)
            specs.append((YEAR, "labels", key_range, periods))
    # (``Geschäftsjahr`` and ``Vorjahr`` under a title that gives the year: 2025 and 2024)
    titles = [t.text for t in getattr(table, "titles", ())]
    name_of = dict(zip(value_cols, relative_years(_names(table, value_cols), titles), strict=True))
    for left, right, raw in twins:
        if rows and not any(_filled(v) for v in raw):
            continue  # a spacer between column groups, headed by the group it follows: no column
        role = "labels" if left == year_labels else "data"
        specs.append((name_of[left], role, Range(top, left, rng.bottom, right), raw))
    taken = {name.casefold() for name, *_ in specs}
    if rows and POSITION.casefold() not in taken:  # where a row stands: "the last listed", "next after X"
        specs.append(
            (POSITION, "position", Range(top, rng.left, rng.bottom, rng.left), list(range(1, len(rows) + 1)))
        )
    if totals & set(rows):
        first = Range(top, rng.left, rng.bottom, rng.left)
        specs.append((TOTAL, "total", first, [int(r in totals) for r in rows]))
    columns: list[RelColumn] = []
    stored: list[list[Any]] = []
    used: Counter[str] = Counter()
    for name, role, data, raw in specs:
        used[name.casefold()] += 1
        if used[name.casefold()] > 1:
            name = f"{name} ({used[name.casefold()]})"
        if role == "total":
            kind, values = "boolean", raw
        elif role == "position":
            kind, values = "number", raw
        elif role in ("key", "section"):
            kind, values = "text", [_stored(v) for v in raw]
        elif role == "labels":  # (years that place rows within their blocks: text, as labels are)
            role, kind = "data", "text"
            values = [str(int(v)) if isinstance(v, int | float) else _stored(v) for v in raw]
        else:
            kind, values = _type_column(raw)
        unit = _unit_of(table, name) if kind == "number" else None
        columns.append(_describe(name, role, kind, data, values, unit))
        stored.append(values)
    _years_as_labels(columns, stored)
    view = build_view(
        sheet, _view_key(sheet, table), [(c.name, c.data, None) for c in columns], stored, stored=True
    )
    return Relation(sheet, table, columns, rows, view, stored, _view_key(sheet, table))


#: A block's own period, in a title above it: "Year ended December 31, 2024".
_BLOCK_PERIOD = re.compile(r"(?:19|20)\d\d")


def joined_blocks(sheet: Sheet, table: Any) -> Relation | None:
    """The relation of a statement whose periods stand in blocks one under another, each with the
    same lines and columns (segments for 2025 above the same segments for 2024; a year's quarters
    above the prior year's): one row per line, every block's columns side by side, each named by
    its block's period where the blocks' headers are the same (``Year ended December 31, 2024 ›
    Consumer``). None where ``table`` has no such blocks beside it."""
    from gridsight.detect import detect_tables

    tables = detect_tables(sheet).tables
    span = (table.range.left, table.range.right)
    blocks = sorted(
        (
            t
            for t in tables
            if (t.range.left, t.range.right) == span and len(t.header_paths) == len(table.header_paths)
        ),
        key=lambda t: t.range.top,
    )
    if len(blocks) < 2:
        return None  # (one block: no statement of blocks)
    between = [
        t
        for t in tables
        if t.range.left <= span[1]
        and span[0] <= t.range.right
        and blocks[0].range.top <= t.range.top <= blocks[-1].range.top
    ]
    if len(between) != len(blocks):
        return None  # (another table between them: no statement of blocks)
    periods = [_titled_period(b) for b in blocks]
    rels = [build_relation(sheet, b) for b in blocks]
    return _joined(rels, periods, (id(sheet), "blocks:" + table.range.ref()), named=False)


def _titled_period(table: Any, fallback: str | None = None) -> str | None:
    """A table's own period: the last of its titles that writes a year, else ``fallback`` (its sheet's
    name) where that writes one; None where neither does."""
    own = [x.text for x in table.titles if _BLOCK_PERIOD.search(x.text)]
    if own:
        return str(own[-1]).strip()
    return fallback.strip() if fallback is not None and _BLOCK_PERIOD.search(fallback) else None


def joined_periods(copies: list[tuple[Sheet, Any]]) -> Relation | None:
    """The relation of one statement whose periods stand on sheets of their own, each sheet the same
    table (the same lines, the same column headers) under its own period (a consolidating balance
    sheet at December 31, 2025 on one sheet and at December 31, 2024 on the next): one row per line,
    every sheet's columns side by side, each named by its sheet's period (``December 31, 2024 ›
    Parent``) and citing its own sheet's cells. The period is the last title with a year, else the
    sheet's name where it holds one. None where the tables are not such copies."""
    if len(copies) < 2 or len({id(sh) for sh, _ in copies}) < len(copies):
        return None
    first_sheet, first_table = copies[0]
    if any(t.header_paths != first_table.header_paths for _, t in copies[1:]):
        return None
    periods = [_titled_period(t, sh.name) for sh, t in copies]
    rels = [build_relation(sh, t) for sh, t in copies]
    for rel, (sh, _) in zip(rels[1:], copies[1:], strict=True):
        rel.columns = [replace(c, data=c.data.with_sheet(sh.name)) for c in rel.columns]
    key = (id(first_sheet), "periods:" + "|".join(f"{sh.name}!{t.range.ref()}" for sh, t in copies))
    return _joined(rels, periods, key, named=True)


def _joined(
    rels: list[Relation], periods: list[str | None], key: tuple[int, str], *, named: bool
) -> Relation | None:
    """One relation of ``rels``, the same lines each (None where their labels differ): the key and
    sections once, every relation's figure columns side by side, named by their ``periods`` where
    ``named`` or where their names repeat (None: no period has every relation apart)."""
    first = rels[0]
    if first.key is None or any(r.key is None for r in rels):
        return None
    labels = first.values_of(first.key.name)
    if any(r.values_of(r.key.name) != labels for r in rels[1:] if r.key is not None):
        return None
    data = [[(c, v) for c, v in zip(r.columns, r.values, strict=True) if c.role == "data"] for r in rels]
    names = [c.name for block in data for c, _ in block]
    if named or len(set(names)) < len(names):  # (the same headers in every block: each named by its period)
        if None in periods or len(set(periods)) < len(periods):
            return None
        data = [
            [(replace(c, name=f"{period} › {c.name}"), v) for c, v in block]
            for period, block in zip(periods, data, strict=True)
        ]
    rest = [(c, v) for c, v in zip(first.columns, first.values, strict=True) if c.role != "data"]
    lead = [(c, v) for c, v in rest if c.role in ("key", "section")]
    tail = [(c, v) for c, v in rest if c.role not in ("key", "section")]
    pairs = [*lead, *(p for block in data for p in block), *tail]
    columns, stored = [c for c, _ in pairs], [v for _, v in pairs]
    sheet = first.sheet
    on = [
        c.data.sheet if c.data.sheet not in (None, sheet.name) else None for c in columns
    ]  # (another sheet's)
    view = build_view(
        sheet, key, [(c.name, c.data, o) for c, o in zip(columns, on, strict=True)], stored, stored=True
    )
    return Relation(sheet, first.table, columns, first.rows, view, stored, key)


def is_long(columns: list[RelColumn], values: list[list[Any]]) -> bool:
    """Whether a table is in long form: one row per combination of its labels (``Region | Year |
    Indicator | Value``), the row labels repeating, one figure column holding every figure."""
    key = next((i for i, c in enumerate(columns) if c.role == "key"), None)
    if key is None:
        return False
    owned = set(_key_attributes(columns, values, key))
    # (a column of footnotes, mostly empty, or one source line on every row: no figure, no label)
    data = [
        i
        for i, c in enumerate(columns)
        if c.role == "data"
        and i not in owned
        and 2 * sum(v is not None for v in values[i]) > len(values[i])
        and len({v for v in values[i] if v is not None}) > 1
    ]
    figures = [i for i in data if columns[i].kind == "number" and not _all_years(values[i])]
    labels = [i for i in data if i not in figures and (columns[i].kind == "text" or _all_years(values[i]))]
    if len(figures) != 1 or not labels:
        return False
    keys = [v for v in values[key] if v is not None]
    if not keys or len(set(keys)) * 2 > len(keys):
        return False  # (each row label on two rows at least)
    combos = list(zip(*(values[i] for i in [key, *labels]), strict=True))
    if len(set(combos)) != len(combos):
        return False
    # (every region with every year and indicator, or nearly: a grid of labels, not a list of
    # records whose columns happen to repeat)
    grid = math.prod(len({v for v in values[i] if v is not None}) for i in [key, *labels])
    return len(combos) >= 0.9 * grid


def _key_attributes(columns: list[RelColumn], values: list[list[Any]], key: int) -> list[int]:
    """The columns that hold one value per row label, each label its own, where the labels repeat (a
    country's area code beside its name, on each of its rows): attributes of the label, no figures
    and no labels of their own."""
    keys = values[key]
    if len({k for k in keys if k is not None}) * 2 > len([k for k in keys if k is not None]):
        return []
    out = []
    for i, c in enumerate(columns):
        if c.role != "data" or c.kind not in ("number", "text") or _all_years(values[i]):
            continue
        pairs = {(k, v) for k, v in zip(keys, values[i], strict=True) if k is not None}
        if len({k for k, _ in pairs}) == len(pairs) == len({v for _, v in pairs}) and None not in {
            v for _, v in pairs
        }:
            out.append(i)
    return out


def _all_years(values: list[Any]) -> bool:
    filled = [v for v in values if v is not None]
    return bool(filled) and all(
        isinstance(v, int | float) and float(v).is_integer() and 1900 <= v <= 2100 for v in filled
    )


def _years_as_labels(columns: list[RelColumn], values: list[list[Any]]) -> None:
    """In a long-form table, the column of years holds labels, as its other label columns do: the
    year names the rows it is written on ("population in 2024")."""
    if not is_long(columns, values):
        return
    key = next(i for i, c in enumerate(columns) if c.role == "key")
    owned = set(_key_attributes(columns, values, key))  # (codes beside the labels are labels too)
    for i, c in enumerate(columns):
        if c.role == "data" and c.kind == "number" and (_all_years(values[i]) or i in owned):  # (as text)
            values[i] = [str(int(v)) if v is not None else None for v in values[i]]
            columns[i] = _describe(c.name, c.role, "text", c.data, values[i], None)


#: Formulas without a saved result computed per table at most (a statement's subtotals are a few
#: dozen; a generated sheet of thousands keeps them empty rather than stall the first question).
MAX_COMPUTED = 500


def _compute(sheet: Sheet, top: int, rng: Range, cells: dict[int, list[Any]], uncached: np.ndarray) -> None:
    """Fill in the results of the formulas no application ever calculated (a file written by a
    script): subtotals and totals are figures a question asks about. References to other sheets
    and formulas that do not evaluate stay empty."""
    from gridsight.formula import evaluate_formula
    from gridsight.grid import Workbook

    spots = np.argwhere(uncached)
    if not len(spots) or len(spots) > MAX_COMPUTED:
        return
    book = Workbook([sheet])
    for i, j in spots.tolist():
        r, c = top + i, rng.left + j
        formula = sheet.cell(r, c).formula
        if not formula:
            continue
        run = evaluate_formula(formula, book, sheet, at=(r, c))
        if run.ok and run.error is None and isinstance(run.value, int | float | str | bool):
            cells[c][i] = run.value


def _formulas(sheet: Sheet, top: int, rng: Range) -> np.ndarray:
    """Which cells of rows ``top..rng.bottom`` (table columns) hold a formula, as a row-by-column mask."""
    out = np.zeros((rng.bottom - top + 1, rng.right - rng.left + 1), dtype=bool)
    (r0, c0), (h, w) = sheet.origin, sheet.shape
    r1, r2 = max(top, r0), min(rng.bottom, r0 + h - 1)
    c1, c2 = max(rng.left, c0), min(rng.right, c0 + w - 1)
    if r1 <= r2 and c1 <= c2:
        part = sheet.formula_ids[r1 - r0 : r2 - r0 + 1, c1 - c0 : c2 - c0 + 1] >= 0
        out[r1 - top : r2 - top + 1, c1 - rng.left : c2 - rng.left + 1] = part
    return out


def _view_key(sheet: Sheet, table: Any) -> tuple[int, str]:
    return (id(sheet), "relation:" + table.range.ref())


def _describe(name: str, role: str, kind: str, data: Range, values: list[Any], unit: str | None) -> RelColumn:
    filled = [v for v in values if v is not None]
    counts = Counter(filled)
    samples = tuple(v for v, _ in counts.most_common(SAMPLES if len(counts) > CATEGORY_MAX else CATEGORY_MAX))
    low = high = None
    if kind in ("number", "date") and filled:
        with contextlib.suppress(TypeError):  # mixed kinds have no order
            low, high = min(filled), max(filled)
    return RelColumn(name, role, kind, data, unit, len(counts), samples, low, high)


_RELATIONS: OrderedDict[tuple[int, str], tuple[Sheet, Relation]] = OrderedDict()
_LOCK = threading.Lock()


def relation_of(sheet: Sheet, table: Any) -> Relation:
    """:func:`build_relation`, cached for the newest eight tables (sheets are immutable); a block of
    a statement stacked with others of the same lines is read with them (:func:`joined_blocks`)."""
    key = (id(sheet), table.range.ref())
    with _LOCK:
        hit = _RELATIONS.get(key)
    if hit is not None and hit[0] is sheet and cached_view(sheet, hit[1].view_key) is hit[1].view:
        with _LOCK:
            _RELATIONS.move_to_end(key)
        return hit[1]  # (a view evicted from the view cache has a closed connection: rebuilt)
    rel = joined_blocks(sheet, table) or build_relation(sheet, table)
    with _LOCK:
        _RELATIONS[key] = (sheet, rel)
        while len(_RELATIONS) > 8:
            _RELATIONS.popitem(last=False)
    return rel

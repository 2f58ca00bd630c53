"""Cards: what the index knows about one detected table (a sheet card) and each of its columns.

Every fact on a card comes from the relational view of the table
(:func:`gridsight.qa._relational.build_relation`): header path, type, unit, sample values, min/max,
distinct count, empty share and, for text that reads as dates, the date format. Card text is built
deterministically from those facts, so the same table always gives the same cards. Pure functions:
no I/O, no model.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from typing import Any

from gridsight.grid import Sheet
from gridsight.qa._relational import Relation, RelColumn
from gridsight.retrieval._terms import VALUES_MAX as TERM_VALUES
from gridsight.retrieval._terms import table_terms
from gridsight.text import words

#: Distinct values of a text column that go into its full-text field (most frequent first): enough to
#: ground the names a question mentions, bounded so that a 100,000-row column stays a small card.
VALUES_MAX = 200
#: Characters of the full-text values field of one column card.
VALUES_CHARS = 6000
#: Characters of a table's values together on its sheet card (a question naming a value finds the table).
TABLE_VALUES_CHARS = 20_000
#: Characters of one value on a card.
VALUE_CHARS = 60
#: Words of a value at most for it to be searched as a name: values ground the names and categories a
#: question mentions; sentences (comments, posts, questions) would match any question's words.
NAME_WORDS = 6
#: Sample values shown in a card's embedded text.
SHOWN = 3
#: Rows of a table written out on its content card (after the header line).
CONTENT_ROWS = 5

_DATE_SHAPES = (
    (re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?([+-]\d{2}:?\d{2}|Z)?$"), "ISO"),
    (re.compile(r"^\d{1,2}/\d{1,2}/\d{2,4}$"), "D/M/Y or M/D/Y"),
    (re.compile(r"^\d{1,2}\.\d{1,2}\.\d{2,4}$"), "D.M.Y"),
    (re.compile(r"^[A-Z][a-z]+\.? \d{1,2},? \d{4}$"), "Month D, YYYY"),
    (re.compile(r"^\d{1,2} [A-Z][a-z]+\.? \d{4}$"), "D Month YYYY"),
)


@dataclass(frozen=True)
class ColumnCard:
    """One column of one table, as the index stores it."""

    table_id: str
    column: str  # the relational view's column name (its header path)
    kind: str  # number | text | date | boolean
    unit: str | None
    samples: tuple[str, ...]
    low: str | None
    high: str | None
    distinct: int
    null_share: float
    date_format: str | None
    text: str  # what is embedded: header words, type, unit, value summary, the table's name
    header: str  # the header as words (embedded on its own: a question's words meet it one by one)
    header_text: str  # full-text field for exact header words
    values_text: str  # full-text field for the column's most frequent values (text columns)


@dataclass(frozen=True)
class SheetCard:
    """One detected table: where it is and what it holds."""

    table_id: str
    file: str  # relative to the indexed folder, with forward slashes
    sheet: str
    range: str
    title: str
    rows: int
    columns: tuple[str, ...]
    description: str  # deterministic one-paragraph summary (embedded, full-text indexed)
    values_text: str = ""  # the name-like values of all its text columns (full-text indexed)
    terms: str = ""  # its value words as terms (:mod:`gridsight.retrieval._terms`)
    content: str = ""  # its header and first rows as text (embedded: what the rows are about)


def table_id(file: str, sheet: str, rng: str) -> str:
    return f"{file}::{sheet}!{rng}"


def _show(v: Any) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        v = int(v)
    if isinstance(v, dt.datetime | dt.date | dt.time):
        v = v.isoformat()
    text = re.sub(r"\s+", " ", str(v)).strip()
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def spoken(name: str) -> str:
    """A header as words: ``finalWorth`` -> ``final worth``, ``Siblings_Spouses`` -> ``siblings spouses``."""
    return " ".join(words(name)) or name


def date_format(col: RelColumn, values: list[Any]) -> str | None:
    """``ISO`` etc. when the column holds dates (date cells, or text that mostly reads as dates)."""
    if col.kind == "date":
        return "date"
    if col.kind != "text":
        return None
    probe = [v for v in values[:200] if isinstance(v, str)]
    if not probe:
        return None
    for shape, name in _DATE_SHAPES:
        if sum(1 for v in probe if shape.match(v.strip())) >= 0.8 * len(probe):
            return name
    return None


def title_of(rel: Relation, file: str) -> str:
    """The table's own title when the sheet gives one, else the file's stem and the sheet's name."""
    titles = [t.text for t in getattr(rel.table, "titles", ())]
    if titles:
        return _show(" ".join(titles))
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", file.rsplit("/", 1)[-1])
    same = rel.sheet.name.casefold() in (stem.casefold(), "sheet1", "sheet")
    return stem if same else f"{stem} / {rel.sheet.name}"


def column_cards(rel: Relation, tid: str, title: str) -> list[ColumnCard]:
    """A card per data or key column of the table (positions, sections and totals are bookkeeping)."""
    out: list[ColumnCard] = []
    n = max(1, len(rel.rows))
    for i, col in enumerate(rel.columns):
        if col.role not in ("data", "key"):
            continue
        values = rel.values[i]
        empty = sum(1 for v in values if v is None or v == "")
        fmt = date_format(col, [v for v in values if v is not None])
        samples = tuple(_show(v) for v in col.samples[:SHOWN])
        low = _show(col.low) if col.low is not None else None
        high = _show(col.high) if col.high is not None else None
        kind = "date" if fmt and col.kind == "text" else col.kind
        parts = [f"{spoken(col.name)} ({col.name})", kind]
        if col.unit:
            parts.append(f"in {col.unit}")
        if low is not None and high is not None:
            parts.append(f"from {low} to {high}")
        if col.kind == "text" and col.distinct:
            parts.append(f"{col.distinct} distinct")
        if samples:
            parts.append("e.g. " + ", ".join(samples))
        text = "; ".join(parts) + f". Column of {title}."
        shown: list[str] = []
        size = 0
        if col.kind == "text":
            for v in rel.distinct_values(col.name)[:VALUES_MAX]:
                s = _show(v)
                if len(s.split()) > NAME_WORDS or len(s) >= VALUE_CHARS:
                    continue
                if size + len(s) > VALUES_CHARS:
                    break
                shown.append(s)
                size += len(s) + 3
        out.append(
            ColumnCard(
                tid,
                col.name,
                kind,
                col.unit,
                samples,
                low,
                high,
                col.distinct,
                round(empty / n, 4),
                fmt,
                text,
                spoken(col.name),
                f"{col.name} {spoken(col.name)}",
                " | ".join(shown),
            )
        )
    return out


def sheet_card(rel: Relation, file: str, tid: str, title: str) -> SheetCard:
    """The table's card: file, sheet, range, title, and a deterministic description of its columns."""
    cols = [c for c in rel.columns if c.role in ("data", "key")]
    names = tuple(c.name for c in cols)
    listed = ", ".join(f"{spoken(c.name)} ({c.kind})" for c in cols[:40])
    more = f" and {len(cols) - 40} more" if len(cols) > 40 else ""
    keys = [c for c in cols if c.role == "key"]
    rows_about = ""
    if keys:
        labels = [_show(v) for v in keys[0].samples[:SHOWN]]
        rows_about = f" Rows are {spoken(keys[0].name)} such as {', '.join(labels)}."
    description = f"{title}: a table of {len(rel.rows):,} rows with columns {listed}{more}.{rows_about}"
    return SheetCard(
        tid,
        file,
        rel.sheet.name,
        rel.table.range.ref(),
        title,
        len(rel.rows),
        names,
        description,
    )


def content_text(rel: Relation) -> str:
    """The table as a few lines of text: its headers, then its first :data:`CONTENT_ROWS` rows, each
    cell a short value (at most :data:`NAME_WORDS` words; sentences left out, as on the value cards: a
    table of posts or of questions would otherwise be close to any question). Embedded, it places a
    question by what the rows are about (athletes and times, letters and code points) when the
    question names neither a header nor a value."""
    cols = [i for i, c in enumerate(rel.columns) if c.role in ("data", "key")]
    lines = [" | ".join(spoken(rel.columns[i].name) for i in cols)]
    for r in range(min(CONTENT_ROWS, len(rel.rows))):
        cells = [_show(rel.values[i][r]) for i in cols if rel.values[i][r] not in (None, "")]
        lines.append(" | ".join(c for c in cells if len(c.split()) <= NAME_WORDS and len(c) < VALUE_CHARS))
    return "\n".join(lines)


def cards_of(sheet: Sheet, tables: list[Any], file: str) -> list[tuple[SheetCard, list[ColumnCard]]]:
    """Every detected table of ``sheet`` as its sheet card and its column cards."""
    from gridsight.qa._relational import build_relation

    out = []
    for table in tables:
        rel = build_relation(sheet, table)
        if not rel.rows or not rel.columns:
            continue
        tid = table_id(file, sheet.name, table.range.ref())
        title = title_of(rel, file)
        cols = column_cards(rel, tid, title)
        values = " | ".join(c.values_text for c in cols if c.values_text)[:TABLE_VALUES_CHARS]
        terms = table_terms(rel.distinct_values(c.column)[:TERM_VALUES] for c in cols)
        card = replace(
            sheet_card(rel, file, tid, title), values_text=values, terms=terms, content=content_text(rel)
        )
        out.append((card, cols))
    return out

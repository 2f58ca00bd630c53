"""A read-only relational view of a detected table, and the guard every query passes before it runs.

The SQL route (SQuARE's constrained queries) answers what a formula expresses badly: group-bys,
exact distinct counts, per-entity rollups. Queries come from GridSight's own planner, never from the
user, but they are still checked as if they did: one statement, SELECT only, no comments, only the
view's table and columns, only whitelisted functions; then sqlite's authorizer refuses anything but
reading, a progress handler bounds the time and the result is capped in rows.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gridsight.errors import GridSightError
from gridsight.grid import Range, Sheet

#: The view's one table.
TABLE = "data"
#: Rows a query may return (more is refused rather than cut silently).
ROW_CAP = 1000
#: Seconds a query may run.
TIME_CAP_S = 5.0
#: Functions a query may call (aggregates, text and number helpers; nothing that touches files).
FUNCTIONS = frozenset(
    # (like: sqlite runs the LIKE operator as a function)
    "count sum avg min max total lower upper length trim round abs coalesce ifnull instr substr cast"
    " typeof nullif strftime median like replace power".split()
)
_KEYWORDS = frozenset(
    "select distinct from where group by having order asc desc limit offset and or not is null as in "
    "between like case when then else end cast real integer text exists collate nocase union all".split()
)
_TOKEN = re.compile(
    r"""\s+|(?P<str>'(?:[^']|'')*')|(?P<qid>"(?:[^"]|"")*")|(?P<num>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"""
    r"""|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<op><=|>=|<>|!=|==|\|\||[-+*/%<>=(),.])"""
)


class QueryRefused(GridSightError):
    """A query that is not a single whitelisted read-only SELECT over the view."""


@dataclass(frozen=True)
class ViewColumn:
    name: str  # the header, also the SQL column name (double-quoted)
    data: Range  # its data cells (evidence)
    sheet: str | None = None  # the sheet they are on, when not the view's own (a joined table)


@dataclass
class View:
    """The table's data rows in an in-memory sqlite database, one SQL column per sheet column."""

    sheet: Sheet
    columns: list[ViewColumn]
    conn: sqlite3.Connection
    rows: int
    lock: threading.Lock
    #: Cells every answer also reads (a join's key columns), as (sheet or None, range).
    keys: list[tuple[str | None, Range]] = field(default_factory=list)
    note: str = ""  # how the explanation names the view when it is not just the table (" over ... joined")

    def column(self, name: str) -> ViewColumn:
        return next(c for c in self.columns if c.name == name)

    @property
    def joined(self) -> bool:
        """Some columns come from another table (a join)."""
        return any(c.sheet is not None for c in self.columns)


def quote(name: str) -> str:
    """A column name as an SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def literal(text: str) -> str:
    """A text value as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def iso_text(v: dt.datetime | dt.date | dt.time) -> str:
    """A date or time as sqlite stores it: ISO text, a datetime at midnight as its date alone
    (``2024-03-01``, as the sheet shows a date), else date and time (``2024-03-01 09:30:00``)."""
    if isinstance(v, dt.datetime):
        return v.isoformat(sep=" ") if (v.hour, v.minute, v.second) != (0, 0, 0) else v.date().isoformat()
    return v.isoformat()


def _cell(v: Any) -> Any:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, dt.datetime | dt.date | dt.time):  # sqlite takes none of them as they are
        return iso_text(v)
    return v


_VIEWS: OrderedDict[tuple[int, str], tuple[Sheet, View]] = OrderedDict()
_VIEWS_LOCK = threading.Lock()


def view_of(
    sheet: Sheet,
    names: list[str],
    data: list[Range],
    prepare: Sequence[Callable[[list[Any]], list[Any]] | None] = (),
) -> View:
    """The view of the columns ``names`` whose data cells are ``data`` (cached: sheets are immutable).
    ``prepare``: per column, a function its cells pass through before they are stored (None, or no
    entry: as they are)."""
    marks = "".join("p" if f is not None else "-" for f in prepare)
    key = (id(sheet), ";".join(r.ref() for r in data) + (f"#{marks}" if "p" in marks else ""))
    hit = cached_view(sheet, key)
    if hit is not None:
        return hit
    values = [sheet.column_values(r.with_sheet(None)) for r in data]
    for i, f in enumerate(prepare):
        if f is not None:
            values[i] = f(values[i])
    return build_view(sheet, key, [(n, r, None) for n, r in zip(names, data, strict=True)], values)


def cached_view(sheet: Sheet, key: tuple[int, str]) -> View | None:
    """The view built for ``sheet`` under ``key``, if it is still among the newest eight."""
    with _VIEWS_LOCK:
        hit = _VIEWS.get(key)
        if hit is not None and hit[0] is sheet:
            _VIEWS.move_to_end(key)
            return hit[1]
    return None


def build_view(
    sheet: Sheet,
    key: tuple[int, str],
    columns: list[tuple[str, Range, str | None]],
    values: list[list[Any]],
    *,
    keys: list[tuple[str | None, Range]] | None = None,
    note: str = "",
    stored: bool = False,
) -> View:
    """A view from (name, evidence range, sheet or None) per column and each column's values, cached
    under ``key`` (the newest eight views are kept; callers look in :func:`cached_view` first).
    Repeated names get a number: ``Name (2)``. ``stored``: the values are already what sqlite takes."""
    seen: dict[str, int] = {}
    cols = []
    for name, rng, on in columns:
        base = name.strip() or "column"
        seen[base.casefold()] = seen.get(base.casefold(), 0) + 1
        unique = base if seen[base.casefold()] == 1 else f"{base} ({seen[base.casefold()]})"
        cols.append(ViewColumn(unique, rng, on))
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    conn.create_aggregate("median", 1, _Median)  # type: ignore[arg-type]
    conn.create_function("power", 2, _power, deterministic=True)  # (not in every sqlite build)
    conn.execute(f"CREATE TABLE {TABLE} ({', '.join(quote(c.name) for c in cols)})")
    converted = values if stored else [[_cell(v) for v in col] for col in values]
    height = max((len(c) for c in converted), default=0)
    if cols and height:
        marks = ", ".join("?" for _ in cols)
        conn.executemany(f"INSERT INTO {TABLE} VALUES ({marks})", zip(*converted, strict=True))
    conn.commit()
    view = View(sheet, cols, conn, height, threading.Lock(), keys or [], note)
    with _VIEWS_LOCK:
        _VIEWS[key] = (sheet, view)
        while len(_VIEWS) > 8:
            _VIEWS.popitem(last=False)[1][1].conn.close()
    return view


def _power(base: Any, exponent: Any) -> float | None:
    """POWER(x, y): x to the power y; NULL where either is no number or the result is no real number."""
    try:
        out = float(base) ** float(exponent)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None
    return out if isinstance(out, float) and math.isfinite(out) else None


class _Median:
    """MEDIAN(x): SQLite has none; Excel's MEDIAN over the numbers (text and empty cells ignored)."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def step(self, value: Any) -> None:
        if isinstance(value, int | float) and not isinstance(value, bool):
            self.values.append(float(value))

    def finalize(self) -> float | None:
        v = sorted(self.values)
        n = len(v)
        if not n:
            return None
        return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def check_query(sql: str, view: View) -> list[str]:
    """The view columns ``sql`` reads, after checking it is one whitelisted SELECT; else QueryRefused."""
    names = {c.name for c in view.columns}
    text = sql.strip().removesuffix(";")
    if "--" in text or "/*" in text:
        raise QueryRefused("comments are not allowed in a query")
    pos = 0
    tokens: list[tuple[str, str]] = []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise QueryRefused(f"unexpected character {text[pos]!r} in the query")
        pos = m.end()
        if m.lastgroup:
            tokens.append((m.lastgroup, m.group(m.lastgroup)))
    if not tokens or tokens[0][1].lower() != "select":
        raise QueryRefused("only SELECT queries run")
    read: list[str] = []
    aliases = {
        w.lower() for i, (k, w) in enumerate(tokens) if k == "word" and i and tokens[i - 1][1].lower() == "as"
    }
    for i, (kind, tok) in enumerate(tokens):
        if kind == "qid":
            col = tok[1:-1].replace('""', '"')
            if col not in names:
                raise QueryRefused(f"the query names a column the table does not have: {col!r}")
            read.append(col)
        elif kind == "word":
            low = tok.lower()
            nxt = tokens[i + 1][1] if i + 1 < len(tokens) else ""
            if nxt == "(" and low not in FUNCTIONS and low not in _KEYWORDS:  # IN (, SELECT (, AND (...
                raise QueryRefused(f"the function {tok} is not allowed")
            if low not in _KEYWORDS and low not in FUNCTIONS and low != TABLE and low not in aliases:
                raise QueryRefused(f"the word {tok!r} is not allowed in a query")
    return list(dict.fromkeys(read))


def _authorize(action: int, arg1: Any, arg2: Any, _db: Any, _trigger: Any) -> int:
    if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ):
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_FUNCTION and str(arg2).lower() in FUNCTIONS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def run_query(sql: str, view: View) -> tuple[list[tuple[Any, ...]], list[str]]:
    """The rows ``sql`` returns and the columns it read; QueryRefused if it is not allowed, too slow
    or returns more than ROW_CAP rows."""
    read = check_query(sql, view)
    deadline = time.monotonic() + TIME_CAP_S
    with view.lock:
        view.conn.set_authorizer(_authorize)
        view.conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        try:
            cur = view.conn.execute(sql)
            rows = cur.fetchmany(ROW_CAP + 1)
        except sqlite3.DatabaseError as exc:
            if time.monotonic() > deadline:
                raise QueryRefused(f"the query ran longer than {TIME_CAP_S:.0f} s") from exc
            raise QueryRefused(f"the query failed: {exc}") from exc
        finally:
            view.conn.set_progress_handler(None, 0)
            view.conn.set_authorizer(None)
    if len(rows) > ROW_CAP:
        raise QueryRefused(f"the query returns more than {ROW_CAP:,} rows")
    return rows, read

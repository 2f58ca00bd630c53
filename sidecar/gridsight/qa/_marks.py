"""Cells written as a mark, not a figure: ``[c]`` (confidential), ``[x]`` (not available), ``..``, ``:``.

A statistics office writes a mark where it withholds a figure and explains it in a note. The
relational view reads such a cell as empty (no number); a question that writes the mark itself ("how
many rows in the 2022-23 column are marked [c]", "which line has no change published (":")") asks
about the cells that hold it, which only the sheet still shows. The rows are found by reading the
sheet and handed to a query over the view by their positions, so the answer is still a query's result
and cites the view's rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from gridsight.qa._relational import POSITION, Relation, RelColumn
from gridsight.qa._sql import quote

#: A cell's whole text that is a mark: a short bracketed code (``[c]``, ``[x]``, ``[z]``) or one to
#: three signs (``..``, ``:``, ``-``).
MARK = re.compile(r"^(?:\[[a-z0-9]{1,4}\]|[^\w\s]{1,3})$", re.IGNORECASE)

#: What a count of marked cells counts, rather than rows: "how many figures are suppressed".
_CELL_NOUNS = re.compile(
    r"\bhow\s+many\s+(?:\w+\s+){0,3}?(?:figures?|cells?|values?|entries|numbers|estimates)\b", re.IGNORECASE
)

#: Quote characters a question writes a mark between.
_QUOTES = "\"'“”‘’"


def marked_cells(rel: Relation, columns: Sequence[RelColumn]) -> dict[str, list[tuple[int, str]]]:
    """Each mark written as a whole cell in ``columns`` of the view's rows: (position, column name)
    of every cell that holds it."""
    found: dict[str, list[tuple[int, str]]] = {}
    for col in columns:
        if col.data.sheet not in (None, rel.sheet.name):
            continue  # (a column joined from another sheet: its marks are that sheet's)
        for i, row in enumerate(rel.rows):
            raw = rel.sheet.value(row, col.data.left)
            if isinstance(raw, str) and MARK.fullmatch(raw.strip()):
                found.setdefault(raw.strip(), []).append((i + 1, col.name))
    return found


def mark_written(question: str, marks: Sequence[str]) -> str | None:
    """The one mark of ``marks`` the question writes: between quotes (``".."``, ``":"``), or a
    bracketed code anywhere (``[c]``); None where it writes none or several."""
    said = []
    for mark in marks:
        quoted = any(f"{a}{mark}{b}" in question for a in _QUOTES for b in _QUOTES)
        if quoted or (mark.startswith("[") and re.search(rf"(?<!\w){re.escape(mark)}", question, re.I)):
            said.append(mark)
    return said[0] if len(said) == 1 else None


def marked_plan(
    rel: Relation, question: str, named: Callable[[], Sequence[RelColumn]], counts: bool, which: bool
) -> tuple[str, str, str] | None:
    """The query (sql, kind, result type) over the rows whose cells in the columns the question
    names (``named``; else every data column) hold the mark it writes: their count ("how many rows are marked
    [c]"; cells, where it counts figures), or their labels ("which line has no change published
    (":")"); None where the question writes no mark the table holds or asks neither."""
    key = rel.key
    if key is None or not (counts or which) or not any(c.name == POSITION for c in rel.columns):
        return None
    data = [c for c in rel.columns if c.role == "data"]
    everywhere = marked_cells(rel, data)
    mark = mark_written(question, list(everywhere))
    if mark is None:
        return None
    columns = [c for c in named() if c.role == "data"] or data
    cells = marked_cells(rel, columns).get(mark, [])
    if not cells:  # (none in the columns named: no row to name, and a count of none)
        return (
            (f"SELECT COUNT(*) FROM data WHERE {quote(POSITION)} < 0", "count", "number") if counts else None
        )
    positions = sorted({p for p, _ in cells})
    where = f"{quote(POSITION)} IN ({', '.join(str(p) for p in positions)})"
    if counts and _CELL_NOUNS.search(question):
        by_column: dict[str, list[int]] = {}
        for p, name in cells:
            by_column.setdefault(name, []).append(p)
        terms = [
            f"(SELECT COUNT(*) FROM data WHERE {quote(POSITION)} IN ({', '.join(str(p) for p in ps)}))"
            for ps in by_column.values()
        ]
        return "SELECT " + " + ".join(terms), "count", "number"
    if counts:
        return f"SELECT COUNT(*) FROM data WHERE {where}", "count", "number"
    one = "text" if len(positions) == 1 else "list"
    return f"SELECT {quote(key.name)} FROM data WHERE {where} ORDER BY {quote(POSITION)}", "marked", one

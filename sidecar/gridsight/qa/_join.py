"""Joins for the SQL route: a question that needs columns of two detected tables.

"Which department has the highest total amount?" over a Sales table (Name, Amount) and a Staff table
(Name, Department) is awkward as one formula and plain as a query over the two tables joined on Name.
A join is proposed only when the question names a column that the chosen table lacks and another
flat table has, and the two tables share a key: a column of the chosen table whose values are found
in a column of the other where each value occurs once (a lookup table), for at least half of the
chosen table's distinct values. The joined view widens the chosen table by the other's columns,
row by row, so the planner and the query guard work on it unchanged; each column's evidence stays
on its own sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridsight.qa._columns import mentions, split_words
from gridsight.qa._pick import Candidate, table_area

#: Share of the chosen table's distinct key values the other table must hold.
MIN_OVERLAP = 0.5
#: Distinct key values at most (a join key is a name or an id, read in full).
MAX_KEYS = 200_000


@dataclass(frozen=True)
class Join:
    """The chosen table, the lookup table joined to it, and the key column of each."""

    left: Candidate
    right: Candidate
    left_table: Any  # gridsight.formula._generate.Table
    right_table: Any
    left_key: Any  # Column
    right_key: Any


def _table(cand: Candidate) -> Any:
    from gridsight.formula._generate import table_from_sheet

    return table_from_sheet(cand.sheet, table_area(cand.table))


def _keys(cand: Candidate, col: Any) -> list[Any]:
    return [v.casefold().strip() if isinstance(v, str) else v for v in cand.sheet.column_values(col.data)]


def _wanted(question: str, left: Any, right: Any) -> bool:
    """The question fully names a column of ``right`` whose words name no column of ``left``."""
    words = split_words(question)
    return any(
        mentions(words, rc.name) == 1.0
        and all(mentions(split_words(rc.name), lc.name) < 1.0 for lc in left.columns)
        for rc in right.columns
    )


def find_join(question: str, best: Candidate, others: list[Candidate]) -> Join | None:
    """The lookup table the question also needs, joined on a shared key; None when there is none."""
    left = _table(best)
    if left is None:
        return None
    for other in others:
        if other.ref == best.ref:
            continue
        right = _table(other)
        if right is None or not _wanted(question, left, right):
            continue
        key = _key(best, left, other, right)
        if key is not None:
            return Join(best, other, left, right, *key)
    return None


def _key(best: Candidate, left: Any, other: Candidate, right: Any) -> tuple[Any, Any] | None:
    """The (left, right) columns with the largest share of shared values, or None."""
    found: tuple[float, Any, Any] | None = None
    lsets: dict[int, set[Any]] = {}  # each left column's values, read once
    for rc in right.columns:
        if rc.kind not in ("text", "number"):
            continue
        rvals = [v for v in _keys(other, rc) if v not in (None, "")]
        if len(rvals) < 2 or len(set(rvals)) != len(rvals) or len(rvals) > MAX_KEYS:
            continue  # not a lookup table on this column: each key must occur once
        rset = set(rvals)
        for j, lc in enumerate(left.columns):
            if lc.kind != rc.kind:
                continue
            if j not in lsets:
                lsets[j] = {v for v in _keys(best, lc) if v not in (None, "")}
            lset = lsets[j]
            shared = len(lset & rset)
            if shared >= 2 and shared / max(1, len(lset)) >= MIN_OVERLAP:
                share = shared / len(lset)
                if found is None or share > found[0]:
                    found = (share, lc, rc)
    return None if found is None else (found[1], found[2])


def joined_view(join: Join) -> Any:
    """The chosen table's rows, each widened by the matching row of the lookup table (or blanks)."""
    from gridsight.qa._sql import build_view, cached_view

    a, b = join.left, join.right
    key = (id(a.sheet), f"join:{id(b.sheet)}:{a.ref}:{b.ref}")
    hit = cached_view(a.sheet, key)
    if hit is not None:
        return hit
    right_rows = {k: i for i, k in enumerate(_keys(b, join.right_key)) if k not in (None, "")}
    at = [right_rows.get(k) for k in _keys(a, join.left_key)]
    columns: list[tuple[str, Any, str | None]] = [(c.name, c.data, None) for c in join.left_table.columns]
    values = [a.sheet.column_values(c.data) for c in join.left_table.columns]
    for c in join.right_table.columns:
        if c is join.right_key:
            continue
        col = b.sheet.column_values(c.data)
        columns.append((c.name, c.data, b.sheet.name))
        values.append([None if i is None else col[i] for i in at])
    keys = [(None, join.left_key.data), (b.sheet.name, join.right_key.data)]
    note = f" (over {a.ref} joined with {b.ref} on {join.left_key.name})"
    return build_view(a.sheet, key, columns, values, keys=keys, note=note)

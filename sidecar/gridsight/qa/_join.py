"""Joins for the SQL route: a question that needs columns of two detected tables.

"Which department has the highest total amount?" over a Sales table (Name, Amount) and a Staff table
(Name, Department) is awkward as one formula and plain as a query over the two tables joined on Name.
A join is proposed only when the question names a column that the chosen table lacks and another
flat table has (by its header, or by one of its text values the chosen table does not hold), and the
two tables share a key: a column of the chosen table whose values are found
in a column of the other where each value occurs once (a lookup table), for at least half of the
chosen table's distinct values. The joined view widens the chosen table by the other's columns,
row by row, so the planner and the query guard work on it unchanged; each column's evidence stays
on its own sheet.

The two tables may come from different workbooks (a folder library, :mod:`gridsight.retrieval`): then
``across`` names where the other table lives (its evidence label), and the key must be a text column
or two columns whose headers name each other, never a rank or position nor a run of row numbers
(1, 2, 3 ...) -- between unrelated files, a column of small whole numbers (ages, ranks, seasons) is
found inside any other column of counted rows, which says nothing about a link. The other table must
also add columns rather than repeat the first's: two medal tables of different years share a Nation
column but are no lookup of each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridsight.qa._columns import mentions, split_words
from gridsight.qa._pick import Candidate, table_area
from gridsight.text import is_ranking

#: Share of the chosen table's distinct key values the other table must hold.
MIN_OVERLAP = 0.5
#: Distinct key values at most (a join key is a name or an id, read in full).
MAX_KEYS = 200_000
#: Values of the other table the question names, at most (enough to know it names one).
MAX_VALUES = 20
#: Between a file and a sheet name in the label of a table of another workbook (see :func:`label_of`).
LABEL_SEP = "\x1f"


def label_of(file: str, sheet: str) -> str:
    """The evidence label of a sheet of another workbook; :func:`parse_label` reads it back."""
    return f"{file}{LABEL_SEP}{sheet}"


def parse_label(label: str) -> tuple[str | None, str]:
    """(file, sheet) of a label (file None: a sheet of the workbook itself)."""
    file, sep, sheet = label.partition(LABEL_SEP)
    return (file, sheet) if sep else (None, label)


@dataclass(frozen=True)
class Join:
    """The chosen table, the lookup table joined to it, and the key column of each."""

    left: Candidate
    right: Candidate
    left_table: Any  # gridsight.formula._generate.Table
    right_table: Any
    left_key: Any  # Column
    right_key: Any
    #: What the evidence of the other table's cells names as their sheet (None: its sheet's name; a
    #: table of another workbook is labelled by the caller, who knows its file).
    label: str | None = None


def _table(cand: Candidate) -> Any:
    from gridsight.formula._generate import table_from_sheet

    return table_from_sheet(cand.sheet, table_area(cand.table))


def _keys(cand: Candidate, col: Any) -> list[Any]:
    return [v.casefold().strip() if isinstance(v, str) else v for v in cand.sheet.column_values(col.data)]


def _wanted(question: str, best: Candidate, left: Any, other: Candidate, right: Any) -> bool:
    """The question fully names a column of ``right`` whose words name no column of ``left``, or a
    value of one of its text columns that no text column of ``left`` holds ("... shops in Ireland",
    where only the other table has the country)."""
    words = split_words(question)
    if any(
        mentions(words, rc.name) == 1.0
        and all(mentions(split_words(rc.name), lc.name) < 1.0 for lc in left.columns)
        for rc in right.columns
    ):
        return True
    named = _named_values(set(words), other, right)
    if not named:
        return False
    held = {v for lc in left.columns if lc.kind == "text" for v in _keys(best, lc)}
    return bool(named - held)


def _named_values(asked: set[str], cand: Candidate, table: Any) -> set[str]:
    """The values of the table's text columns (casefolded) every word of which the question says."""
    out: set[str] = set()
    for c in table.columns:
        if c.kind != "text":
            continue
        for v in set(_keys(cand, c)):
            if isinstance(v, str) and len(out) < MAX_VALUES:
                ws = split_words(v)
                if ws and any(len(w) > 2 and not w.isdigit() for w in ws) and set(ws) <= asked:
                    out.add(v)
    return out


#: Labels the tables of other workbooks: the label of a candidate, or None when it is of the same one.
Across = Callable[[Candidate], str | None]


def find_join(
    question: str, best: Candidate, others: list[Candidate], across: Across | None = None
) -> Join | None:
    """The lookup table the question also needs, joined on a shared key; None when there is none.
    ``across`` labels the tables that live in other workbooks (see the module docstring)."""
    left = _table(best)
    if left is None:
        return None
    for other in others:
        if other is best or (other.ref == best.ref and other.sheet is best.sheet):
            continue
        label = across(other) if across is not None else None
        right = _table(other)
        if right is None or not _wanted(question, best, left, other, right):
            continue
        key = _key(best, left, other, right, strict=label is not None)
        if key is not None and (label is None or not _siblings(left, right, key[1])):
            return Join(best, other, left, right, *key, label=label)
    return None


def _related(lc: Any, rc: Any) -> bool:
    """A key between unrelated files: no ranking column (a rank or a position says where a row sits in
    its own table, not what it is), and text, or two columns whose headers name each other."""
    if is_ranking(lc.name) or is_ranking(rc.name):
        return False
    if lc.kind == "text":
        return True
    return mentions(split_words(lc.name), rc.name) == 1.0 or mentions(split_words(rc.name), lc.name) == 1.0


def _counting(values: list[Any]) -> bool:
    """Whole numbers that count rows: every value of a run with no gap (3, 1, 2, 4)."""
    nums = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(nums) != len(values) or any(float(v) != int(v) for v in nums):
        return False
    return max(nums) - min(nums) + 1 == len(set(nums))


def _siblings(left: Any, right: Any, right_key: Any) -> bool:
    """Two tables of the same kind (this year's medal table and last year's): at least half of the
    other table's columns besides the key repeat a header of the first. A lookup table adds columns."""
    own = {c.name.strip().casefold() for c in left.columns}
    rest = [c for c in right.columns if c is not right_key]
    return not rest or 2 * sum(1 for c in rest if c.name.strip().casefold() in own) >= len(rest)


def _key(
    best: Candidate, left: Any, other: Candidate, right: Any, *, strict: bool = False
) -> tuple[Any, Any] | None:
    """The (left, right) columns with the largest share of shared values, or None. ``strict``: only
    keys :func:`_related` accepts (the tables are of different workbooks)."""
    found: tuple[float, Any, Any] | None = None
    lsets: dict[int, set[Any]] = {}  # each left column's values, read once
    for rc in right.columns:
        if rc.kind not in ("text", "number"):
            continue
        rvals = [v for v in _keys(other, rc) if v not in (None, "")]
        if len(rvals) < 2 or len(set(rvals)) != len(rvals) or len(rvals) > MAX_KEYS:
            continue  # not a lookup table on this column: each key must occur once
        if strict and rc.kind == "number" and _counting(rvals):
            continue  # row numbers (No., #, 1..n): between files they say where a row is, not which
        rset = set(rvals)
        for j, lc in enumerate(left.columns):
            if lc.kind != rc.kind or (strict and not _related(lc, rc)):
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
    key = (id(a.sheet), f"join:{id(b.sheet)}:{a.ref}:{b.ref}:{join.label}")
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
        columns.append((c.name, c.data, join.label or b.sheet.name))
        values.append([None if i is None else col[i] for i in at])
    keys = [(None, join.left_key.data), (join.label or b.sheet.name, join.right_key.data)]
    other = b.ref if join.label is None else f"{join.label.replace(LABEL_SEP, ' ')}!{b.table.range.ref()}"
    note = f" (over {a.ref} joined with {other} on {join.left_key.name})"
    return build_view(a.sheet, key, columns, values, keys=keys, note=note)

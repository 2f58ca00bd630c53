"""Cells that hold lists: ``['wifi', 'pool']`` as pandas writes them, or ``Airport transfer, Quiet
room`` with a delimiter. A question names an item of the list ("bookings that requested a crib"),
never the whole cell, so the planner tests and counts items, not cells.

Pure functions over a column's distinct cells; the SQL they write uses only the whitelisted
``INSTR``/``REPLACE`` (:data:`gridsight.qa._sql.FUNCTIONS`).
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from gridsight.qa._sql import literal

#: The most items a list column may have (more: free text, not a list of a few things).
MAX_ITEMS = 200
#: Delimiters a delimited list may use, each followed by at most one space.
DELIMITERS = (",", ";", "|")
#: The longest item (longer: a sentence, not a list item).
_ITEM_CHARS = 40


@dataclass(frozen=True)
class ListForm:
    """How a column writes its lists: the items, and the delimiter (None: pandas' ``[...]``)."""

    items: tuple[str, ...]
    delimiter: str | None = None


def _bracketed(cells: list[str]) -> ListForm | None:
    items: dict[str, None] = {}
    listed = 0
    for v in cells:
        if not (v.startswith("[") and v.endswith("]")):
            continue
        try:
            parsed = ast.literal_eval(v)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(parsed, list) and all(isinstance(x, str) for x in parsed):
            listed += 1
            items.update(dict.fromkeys(parsed))
    if listed < 0.8 * len(cells) or not items or len(items) > MAX_ITEMS:
        return None
    return ListForm(tuple(items))


def _delimited(cells: list[str]) -> ListForm | None:
    """Cells of a few items out of a small set, joined by one delimiter: most cells that hold the
    delimiter, items short and not numbers, and fewer different items than different cells (the
    items recur in combinations; a name ``Smith, John`` or a place ``Portland, OR`` does not)."""
    for d in DELIMITERS:
        joined = [v for v in cells if d in v]
        if len(joined) < max(3, 0.3 * len(cells)):
            continue
        counts: Counter[str] = Counter()
        for v in cells:
            counts.update({p.strip() for p in v.split(d)} - {""})
        # (or the items of the joined cells stand alone in other cells: "Drake" and "Tate McRae,
        # Drake" -- no part of ``Smith, John`` or ``Portland, OR`` is a cell of its own)
        alone = {v for v in cells if d not in v}
        parts = {p.strip() for v in joined for p in v.split(d)} - {""}
        recurring = sum(1 for n in counts.values() if n >= 2) >= 0.8 * len(counts)
        standing = len(parts & alone) >= max(2, 0.3 * len(parts))
        if (
            len(counts) > MAX_ITEMS
            or len(counts) >= len(cells) + len(joined)
            or any(len(i) > _ITEM_CHARS or i.replace(".", "", 1).isdigit() for i in counts)
            or not (recurring or standing)
        ):
            continue
        return ListForm(tuple(i for i, _n in counts.most_common()), d)
    return None


def list_form(cells: Iterable[object]) -> ListForm | None:
    """How the distinct cells of a text column write lists, or None when they are not lists."""
    text = [v.strip() for v in cells if isinstance(v, str) and v.strip()]
    if not text:
        return None
    return _bracketed(text) or _delimited(text)


def item_test(column: str, item: str, form: ListForm) -> str:
    """The SQL condition that the list in ``column`` (quoted) holds ``item``."""
    if form.delimiter is None:
        said, dumped = literal(repr(item)), literal(json.dumps(item))
        return f"(INSTR({column}, {said}) > 0 OR INSTR({column}, {dumped}) > 0)"
    d = form.delimiter
    cell = f"{literal(d)} || REPLACE({column}, {literal(d + ' ')}, {literal(d)}) || {literal(d)}"
    return f"INSTR({cell}, {literal(d + item + d)}) > 0"

"""Open-time work, so the first question on a workbook is as quick as the next.

What a question on a table costs the first time and never again: detecting the tables, building the
largest table's relational view (typed columns, distinct values) and reading the fixed part of the
query prompt -- system message, worked examples and that table's schema, about a thousand tokens --
into the model's KV cache, where every later prompt on the table finds it (the runtime keeps the
longest cached prefix). The sidecar does this when a workbook is opened and the model is already
loaded; ``gridsight bench qa`` does it when it opens a workbook and reports its time apart.
"""

from __future__ import annotations

import contextlib
from typing import Any

from gridsight.errors import GridSightError
from gridsight.grid import Workbook
from gridsight.qa._pick import candidates
from gridsight.qa._relational import relation_of
from gridsight.qa._sqlgen import offered, table_prompt

#: Seconds the prefill may take before it is given up (the first question then pays the rest).
WARM_TIMEOUT_S = 60.0


def warm(workbook: Workbook, model: Any = None, sheet: str | None = None) -> str | None:
    """Detect ``workbook``'s tables, build the largest one's relational view and, with ``model``,
    prefill the query prompt's fixed part for it. Returns the table's reference (``Sheet!A1:D9``), or
    None when the workbook (or ``sheet``) holds no table with data rows."""
    found = candidates(workbook, sheet, "")
    if not found:
        return None
    best = max(found, key=lambda c: c.table.range.size)
    rel = relation_of(best.sheet, best.table)
    if not rel.rows or not rel.columns:
        return None
    if model is not None and hasattr(model, "complete"):
        with contextlib.suppress(GridSightError):  # a busy or slow model: the question reads it itself
            model.complete(table_prompt(offered(rel, "")), max_tokens=1, timeout_s=WARM_TIMEOUT_S)
    return best.ref

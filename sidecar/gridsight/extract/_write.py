"""Records as a new sheet: one header row, one row per record, written through an edit plan.

The plan adds the sheet (``EditPlan.new_sheets``) and writes every cell with "empty" as the expected
old content, so it is previewed, applied atomically and undone like any other plan (undo removes the
sheet again).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gridsight.edits import MAX_WRITES, CellWrite, EditPlan, new_plan_id, with_sheets
from gridsight.edits._content import CellContent
from gridsight.errors import EditPlanError
from gridsight.extract._records import Record
from gridsight.grid import Workbook

#: Characters Excel refuses in sheet names.
_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")
EMPTY = CellContent("e", None)


def check_sheet_name(name: str, workbook: Workbook) -> str:
    """A name Excel accepts that the workbook does not use yet."""
    name = name.strip()
    if not name or len(name) > 31 or _BAD_SHEET_CHARS.search(name) or name.startswith("'"):
        raise EditPlanError(f"{name!r} is not a valid sheet name (1-31 characters, none of [ ] : * ? / \\)")
    if any(s.name.casefold() == name.casefold() for s in workbook.sheets):
        raise EditPlanError(f"the workbook already has a sheet named {name!r}; choose a new name")
    return name


def record_columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Column titles: address, value, type, the other keys in first-seen order, then the copied texts
    (the model's bookkeeping, ``text`` and ``filled_by``, is left out)."""
    cols = ["address", "value", "type"]
    for row in rows:
        for key in row:
            if key not in cols and key not in _BOOKKEEPING:
                cols.append(key)
    cols += [k for k in _COPIED if k not in cols]
    return cols


_COPIED = ("header_path", "row_label", "unit")
_BOOKKEEPING = frozenset({"text", "filled_by"})


def _content(value: Any) -> CellContent:
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return CellContent("b", value)
    if isinstance(value, int | float):
        return CellContent("n", value)
    text = value if isinstance(value, str) else str(value)
    return CellContent("s", text[:32767])  # text stays text: "=..." is never written as a formula


def records_plan(
    records: Sequence[Record], workbook: Workbook, sheet_name: str, workbook_id: str = "cli"
) -> tuple[EditPlan, Workbook]:
    """The plan that writes ``records`` to a new sheet, and the workbook model with that (empty) sheet
    added, which the plan is previewed and applied against."""
    return rows_plan([r.to_dict() for r in records], workbook, sheet_name, workbook_id)


def rows_plan(
    rows: Sequence[dict[str, Any]], workbook: Workbook, sheet_name: str, workbook_id: str = "cli"
) -> tuple[EditPlan, Workbook]:
    """:func:`records_plan` for records as plain dicts (what the API and the task pane previewed)."""
    name = check_sheet_name(sheet_name, workbook)
    cols = record_columns(rows)
    if (len(rows) + 1) * len(cols) > MAX_WRITES:
        raise EditPlanError(
            f"{len(rows):,} records x {len(cols)} columns is more than an edit plan's"
            f" {MAX_WRITES:,} cells; write them with --out records.jsonl, or extract a smaller range"
        )
    writes = [CellWrite(name, 0, c, CellContent("s", title), EMPTY) for c, title in enumerate(cols)]
    for r, doc in enumerate(rows, start=1):
        for c, key in enumerate(cols):
            content = _content(doc.get(key))
            if content != EMPTY:
                writes.append(CellWrite(name, r, c, content, EMPTY))
    plan = EditPlan(
        new_plan_id(),
        workbook_id,
        tuple(writes),
        f"extract {len(rows)} records to {name}",
        new_sheets=(name,),
    )
    return plan, with_sheets(workbook, added=(name,))

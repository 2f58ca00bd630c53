"""Records as a new sheet: one header row, one row per record, written through an edit plan.

The plan adds the sheet (``EditPlan.new_sheets``) and writes every cell with "empty" as the expected
old content, so it is previewed, applied atomically and undone like any other plan (undo removes the
sheet again).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gridsight.edits import MAX_WRITES, CellWrite, EditPlan, new_plan_id
from gridsight.edits._content import CellContent
from gridsight.errors import EditPlanError
from gridsight.extract._records import Record
from gridsight.grid import Sheet, SheetBuilder, Workbook

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


def record_columns(records: Sequence[Record]) -> list[str]:
    """Column titles: address, value, type, the attributes in first-seen order, then the copied texts."""
    cols = ["address", "value", "type"]
    for rec in records:
        for key in rec.attributes:
            if key not in cols:
                cols.append(key)
    for key in ("header_path", "row_label", "unit"):
        if key not in cols:
            cols.append(key)
    return cols


def _content(value: Any) -> CellContent:
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return CellContent("b", value)
    if isinstance(value, int | float):
        return CellContent("n", value)
    text = value if isinstance(value, str) else str(value)
    return CellContent("s", text[:32767])


def records_plan(
    records: Sequence[Record], workbook: Workbook, sheet_name: str, workbook_id: str = "cli"
) -> tuple[EditPlan, Workbook]:
    """The plan that writes ``records`` to a new sheet, and the workbook model with that (empty) sheet
    added, which the plan is previewed and applied against."""
    name = check_sheet_name(sheet_name, workbook)
    cols = record_columns(records)
    if (len(records) + 1) * len(cols) > MAX_WRITES:
        raise EditPlanError(
            f"{len(records):,} records x {len(cols)} columns is more than an edit plan's"
            f" {MAX_WRITES:,} cells; write them with --out records.jsonl, or extract a smaller range"
        )
    writes = [CellWrite(name, 0, c, CellContent("s", title), EMPTY) for c, title in enumerate(cols)]
    for r, rec in enumerate(records, start=1):
        doc = rec.to_dict()
        for c, key in enumerate(cols):
            content = _content(doc.get(key))
            if content != EMPTY:
                writes.append(CellWrite(name, r, c, content, EMPTY))
    empty: Sheet = SheetBuilder(name).build()
    model = Workbook(
        [*workbook.sheets, empty], name=workbook.name, date1904=workbook.date1904, tables=workbook.tables
    )
    plan = EditPlan(
        new_plan_id(),
        workbook_id,
        tuple(writes),
        f"extract {len(records)} records to {name}",
        new_sheets=(name,),
    )
    return plan, model

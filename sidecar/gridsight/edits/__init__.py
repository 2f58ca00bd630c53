"""Edit plans: cell writes with their expected old content; preview, validate, apply, undo.

>>> writes = parse_writes({"writes": [{"cell": "F16", "formula": "=SUM(F4:F15)"}]}, workbook)
>>> preview = preview_writes(writes, workbook)      # before/after, formula checks, conflicts
>>> apply_plan(plan, preview, workbook, journal, key, path=Path("book.xlsx"))  # atomic, with .bak

Nothing here imports Flask; the API is a thin face over these functions.
"""

from gridsight.edits._apply import Applied, apply_plan, undo_last
from gridsight.edits._check import REFUSED, FormulaCheck, check_formula, checker_name, house_policy
from gridsight.edits._content import CellContent, content_from_json, content_of_cell, same_value
from gridsight.edits._journal import Journal
from gridsight.edits._patch import patch_workbook, with_sheets
from gridsight.edits._plan import (
    MAX_WRITES,
    SCHEMA_ID,
    CellWrite,
    EditPlan,
    editplan_document,
    editplan_schema,
    new_plan_id,
    parse_writes,
    validate_editplan,
)
from gridsight.edits._preview import CellPreview, Preview, preview_writes
from gridsight.edits._xlsx import (
    WRITABLE_SUFFIXES,
    FileWrite,
    apply_to_file,
    check_writable,
    content_of_raw,
    fingerprint,
    read_raw,
)

__all__ = [
    "MAX_WRITES",
    "REFUSED",
    "SCHEMA_ID",
    "WRITABLE_SUFFIXES",
    "Applied",
    "CellContent",
    "CellPreview",
    "CellWrite",
    "EditPlan",
    "FileWrite",
    "FormulaCheck",
    "Journal",
    "Preview",
    "apply_plan",
    "apply_to_file",
    "check_formula",
    "check_writable",
    "checker_name",
    "content_from_json",
    "content_of_cell",
    "content_of_raw",
    "editplan_document",
    "editplan_schema",
    "fingerprint",
    "house_policy",
    "new_plan_id",
    "parse_writes",
    "patch_workbook",
    "preview_writes",
    "read_raw",
    "same_value",
    "undo_last",
    "validate_editplan",
    "with_sheets",
]

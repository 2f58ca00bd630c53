"""Edit plans: cell writes, each carrying the content it expects to replace; editplan.v1 documents.

A plan is built from untrusted JSON (the add-in, the task pane, a script), so every field is checked
here with a message that names the write at fault. A plan never writes a cell whose current content
differs from its ``expected`` content: that is a conflict, not an overwrite.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from gridsight.edits._content import CellContent, check_value, content_from_json, content_of_cell, infer_type
from gridsight.errors import EditPlanError, GridSightError, UnknownSheetError
from gridsight.grid import Range, Workbook, rc_to_a1

SCHEMA_ID = "gridsight.editplan.v1"
#: Most cells one plan may write (a plan is reviewed by a person in a preview).
MAX_WRITES = 10_000
_WRITE_FIELDS = {"sheet", "cell", "formula", "value", "type", "number_format", "expected"}


@dataclass(frozen=True)
class CellWrite:
    """One cell to write: where, what it should hold, and what it must hold now."""

    sheet: str
    row: int
    col: int
    new: CellContent
    expected: CellContent

    @property
    def address(self) -> str:
        return rc_to_a1(self.row, self.col)

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.sheet.casefold(), self.row, self.col)

    def to_json(self) -> dict[str, Any]:
        return {
            "sheet": self.sheet,
            "cell": self.address,
            "write": self.new.to_json(),
            "expected": self.expected.to_json(),
        }


@dataclass
class EditPlan:
    """A validated list of writes against one workbook session, and where it is in its life."""

    id: str
    workbook_id: str
    writes: tuple[CellWrite, ...]
    description: str = ""
    status: str = "created"  # created -> previewed -> applied | invalid
    created: float = field(default_factory=time.time)
    preview_fingerprint: str | None = None
    preview_ok: bool = False
    #: Sheets the plan adds to a workbook file before writing (undo removes them again).
    new_sheets: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "workbook_id": self.workbook_id,
            "description": self.description,
            "status": self.status,
            "writes": [w.to_json() for w in self.writes],
        }


def new_plan_id() -> str:
    return "plan_" + secrets.token_urlsafe(9)


def parse_writes(doc: Any, workbook: Workbook, default_sheet: str | None = None) -> list[CellWrite]:
    """``{"writes": [...]}`` from a client -> CellWrites; expected content is filled from the workbook
    when the client leaves it out, and checked against it when given (a mismatch is a conflict)."""
    if not isinstance(doc, dict):
        raise EditPlanError("an edit plan must be a JSON object with a `writes` list")
    writes = doc.get("writes")
    if not isinstance(writes, list) or not writes:
        raise EditPlanError("an edit plan needs a non-empty `writes` list")
    if len(writes) > MAX_WRITES:
        raise EditPlanError(
            f"an edit plan may write at most {MAX_WRITES:,} cells; this one has {len(writes):,}"
        )
    out: list[CellWrite] = []
    seen: dict[tuple[str, int, int], int] = {}
    for i, w in enumerate(writes):
        cw = _parse_write(w, f"writes[{i}]", workbook, default_sheet)
        if cw.key in seen:
            raise EditPlanError(
                f"writes[{i}]: {cw.sheet}!{cw.address} is already written by writes[{seen[cw.key]}]"
            )
        seen[cw.key] = i
        out.append(cw)
    return out


def _parse_write(w: Any, where: str, workbook: Workbook, default_sheet: str | None) -> CellWrite:
    if not isinstance(w, dict):
        raise EditPlanError(f"{where}: each write must be an object")
    unknown = set(w) - _WRITE_FIELDS
    if unknown:
        raise EditPlanError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    cell = w.get("cell")
    if not isinstance(cell, str):
        raise EditPlanError(f'{where}: `cell` must be an A1 address such as "B2" or "\'Sheet 1\'!B2"')
    try:
        rng = Range.parse(cell)
    except GridSightError as exc:
        raise EditPlanError(f"{where}: {exc}") from None
    if rng.size != 1:
        raise EditPlanError(f"{where}: `cell` must be one cell, not the range {rng.ref()}")
    sheet_name = w.get("sheet", rng.sheet or default_sheet)
    if sheet_name is None:
        sheet_name = workbook.sheets[0].name if workbook.sheets else None
    if not isinstance(sheet_name, str):
        raise EditPlanError(f"{where}: `sheet` must be a sheet name")
    try:
        sheet = workbook.sheet(sheet_name)
    except UnknownSheetError as exc:
        raise EditPlanError(f"{where}: {exc}") from None
    new = _parse_new(w, where)
    current = content_of_cell(sheet.cell(rng.top, rng.left))
    expected = content_from_json(w["expected"], f"{where}.expected") if "expected" in w else current
    return CellWrite(sheet.name, rng.top, rng.left, new, expected)


def _parse_new(w: dict[str, Any], where: str) -> CellContent:
    fmt = w.get("number_format")
    if fmt is not None and (not isinstance(fmt, str) or len(fmt) > 255):
        raise EditPlanError(f"{where}: number_format must be text of at most 255 characters")
    has_formula, has_value = "formula" in w, "value" in w
    if has_formula == has_value:
        raise EditPlanError(f"{where}: give exactly one of `formula` or `value`")
    if has_formula:
        f = w["formula"]
        if not isinstance(f, str) or not f.strip().startswith("=") or len(f.strip()) < 2:
            raise EditPlanError(f"{where}: formula must be text starting with '=' (e.g. \"=SUM(B2:B9)\")")
        if len(f) > 8192:
            raise EditPlanError(f"{where}: formula longer than Excel's 8,192 characters")
        return CellContent("e", None, f.strip(), fmt)
    value = w["value"]
    if isinstance(value, str) and value.startswith("="):
        raise EditPlanError(f"{where}: value {value[:40]!r} starts with '='; put formulas in `formula`")
    letter = w.get("type") or infer_type(value)
    if letter not in ("e", "n", "s", "b", "d", "x"):
        raise EditPlanError(f"{where}: value must be a number, text, true/false or null")
    if letter == "x":
        raise EditPlanError(f"{where}: error values such as {value!r} cannot be written")
    check_value(letter, value, where)
    return CellContent(letter, None if letter == "e" else value, None, fmt)


def editplan_document(
    plan_id: str,
    actions: Sequence[CellWrite],
    *,
    kind: str = "apply",
    workbook_id: str | None = None,
    workbook_name: str | None = None,
    description: str = "",
    new_sheets: Sequence[str] = (),
    drop_sheets: Sequence[str] = (),
) -> dict[str, Any]:
    """An editplan.v1 document: what the add-in applies (checking each ``expected`` first).
    ``new_sheets`` are added before the writes (a sheet of that name already there is a conflict);
    ``drop_sheets`` (an undo's) are deleted after the check, their cells' writes left out."""
    doc: dict[str, Any] = {
        "schema": SCHEMA_ID,
        "id": plan_id,
        "kind": kind,
        "workbook": {"id": workbook_id, "name": workbook_name},
        "description": description,
        "actions": [a.to_json() for a in actions],
    }
    if new_sheets:
        doc["new_sheets"] = list(new_sheets)
    if drop_sheets:
        doc["drop_sheets"] = list(drop_sheets)
    return doc


@cache
def editplan_schema() -> dict[str, Any]:
    """The JSON Schema of editplan.v1 (shipped inside the package)."""
    text = resources.files("gridsight.schemas").joinpath("editplan.v1.schema.json").read_text("utf-8")
    return json.loads(text)


def validate_editplan(doc: Any) -> None:
    """Raise EditPlanError naming the first place where ``doc`` breaks the editplan.v1 schema."""
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(editplan_schema()).iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(document)"
        raise EditPlanError(f"editplan.v1 invalid at {where}: {err.message[:300]}")

"""Apply a previewed plan through its target (a file, or the add-in's workbook), and undo it.

Targets:
- ``file``: the workbook file is rewritten atomically (see ``_xlsx``); the journal keeps each cell's
  raw before/after so undo restores exactly.
- ``snapshot``: the sidecar cannot touch the user's Excel; it returns an editplan.v1 document that
  the add-in applies (checking every ``expected`` first), and undo returns the inverse document.

Either way the session's in-memory model follows the change, and the journal entry is written
before the answer goes back, so an undo survives a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsight.edits._content import CellContent, content_from_json, content_of_cell
from gridsight.edits._journal import Journal
from gridsight.edits._patch import patch_workbook, with_sheets
from gridsight.edits._plan import CellWrite, EditPlan, editplan_document
from gridsight.edits._preview import Preview
from gridsight.edits._xlsx import FileWrite, apply_to_file
from gridsight.errors import EditConflictError, EditPlanError, PlanStateError
from gridsight.grid import Workbook, a1_to_rc


@dataclass(frozen=True)
class Applied:
    """What an apply or undo produced: the session's new model, the client's answer, the new file hash."""

    workbook: Workbook
    result: dict[str, Any]
    fingerprint: str | None = None


def _conflicts_in_model(pairs: Sequence[tuple[CellWrite, CellContent]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for w, current in pairs:
        if not w.expected.same_content(current):
            out.append(
                {
                    "sheet": w.sheet,
                    "cell": w.address,
                    "expected": w.expected.to_json(),
                    "found": current.to_json(),
                }
            )
    return out


def apply_plan(
    plan: EditPlan,
    preview: Preview | None,
    workbook: Workbook,
    journal: Journal,
    key: str,
    *,
    path: Path | None = None,
    workbook_name: str | None = None,
    live: Any = None,
) -> Applied:
    """Apply ``plan`` (already previewed as ``preview``) to a file (``path``), to live Excel (``live``: a
    source with ``apply_writes(writes)`` that checks expected content itself), or as an editplan.v1."""
    if plan.status == "applied" or journal.was_applied(key, plan.id):
        raise PlanStateError(f"edit plan {plan.id} was already applied; it cannot be applied twice")
    if plan.status != "previewed" or preview is None:
        raise PlanStateError(f"edit plan {plan.id} must be previewed before it is applied")
    if preview.conflicts:
        conflicts: list[dict[str, object]] = [
            {
                "sheet": c.write.sheet,
                "cell": c.write.address,
                "expected": c.write.expected.to_json(),
                "found": c.before.to_json(),
            }
            for c in preview.conflicts
        ]
        raise EditConflictError(
            f"{len(conflicts)} cell(s) no longer hold what the plan expected; nothing was written", conflicts
        )
    if not preview.ok:
        problems: list[dict[str, object]] = [
            {"sheet": c.write.sheet, "cell": c.write.address, "problems": list(c.problems)}
            for c in preview.invalid
        ]
        raise EditPlanError(f"edit plan {plan.id} did not validate; nothing was written", problems)
    after = {(c.write.sheet, c.write.row, c.write.col): c.after for c in preview.cells}
    if plan.new_sheets and live is not None:
        raise EditPlanError(
            "a plan that adds sheets cannot be applied to live Excel through xlwings; nothing was written"
        )
    with journal.lock():
        if journal.was_applied(key, plan.id):
            raise PlanStateError(f"edit plan {plan.id} was already applied; it cannot be applied twice")
        if path is not None:
            done = apply_to_file(
                path,
                [FileWrite(w.sheet, w.row, w.col, w.expected, w.new) for w in plan.writes],
                expect_sha=plan.preview_fingerprint,
                create_sheets=plan.new_sheets,
            )
            cells = []
            for w, rec in zip(plan.writes, done.cells, strict=True):
                before_model = content_of_cell(workbook.sheet(w.sheet).cell(w.row, w.col))
                cells.append(
                    {
                        **rec,
                        "before_content": before_model.to_json(),
                        "after_content": after[(w.sheet, w.row, w.col)].to_json(),
                    }
                )
            entry = {
                "id": plan.id,
                "target": "file",
                "path": str(path),
                "description": plan.description,
                "cells": cells,
                "sha_after": done.sha_after,
                "created_sheets": list(done.created_sheets),
            }
            journal.push(key, entry)
            result = {
                "target": "file",
                "path": str(path),
                "backup": str(done.backup),
                "cells_written": len(cells),
                "sha256": done.sha_after,
            }
            fp: str | None = done.sha_after
        elif live is not None:
            pairs = [(w, content_of_cell(workbook.sheet(w.sheet).cell(w.row, w.col))) for w in plan.writes]
            live.apply_writes(plan.writes)
            cells = [
                {
                    "sheet": w.sheet,
                    "cell": w.address,
                    "before_content": w.expected.to_json(),
                    "after_content": after[(w.sheet, w.row, w.col)].to_json(),
                }
                for w, _cur in pairs
            ]
            journal.push(
                key, {"id": plan.id, "target": "live", "description": plan.description, "cells": cells}
            )
            result = {"target": "live", "cells_written": len(cells)}
            fp = None
        else:
            pairs = [(w, content_of_cell(workbook.sheet(w.sheet).cell(w.row, w.col))) for w in plan.writes]
            conflicts = _conflicts_in_model(pairs)
            if conflicts:
                raise EditConflictError(
                    f"{len(conflicts)} cell(s) changed since the plan was made; nothing was written",
                    conflicts,
                )
            doc = editplan_document(
                plan.id,
                plan.writes,
                kind="apply",
                workbook_id=plan.workbook_id,
                workbook_name=workbook_name,
                description=plan.description,
                new_sheets=plan.new_sheets,
            )
            cells = [
                {
                    "sheet": w.sheet,
                    "cell": w.address,
                    "before_content": cur.to_json(),
                    "after_content": after[(w.sheet, w.row, w.col)].to_json(),
                }
                for w, cur in pairs
            ]
            journal.push(
                key,
                {
                    "id": plan.id,
                    "target": "snapshot",
                    "description": plan.description,
                    "cells": cells,
                    "created_sheets": list(plan.new_sheets),
                },
            )
            result = {"target": "snapshot", "cells_written": len(cells), "editplan": doc}
            fp = None
    plan.status = "applied"
    new_wb = patch_workbook(
        workbook, [(w.sheet, w.row, w.col, after[(w.sheet, w.row, w.col)]) for w in plan.writes]
    )
    return Applied(new_wb, {"plan_id": plan.id, **result}, fp)


def undo_last(
    workbook: Workbook,
    journal: Journal,
    key: str,
    *,
    path: Path | None = None,
    workbook_id: str | None = None,
    workbook_name: str | None = None,
    live: Any = None,
) -> Applied:
    """Undo the newest applied plan of this workbook; NothingToUndoError when there is none."""
    with journal.lock():
        entry = journal.peek(key)
        cells = entry["cells"]
        restore = []
        for i, c in enumerate(cells):
            r, col = a1_to_rc(c["cell"])
            before = content_from_json(c["before_content"], f"journal cell {i}")
            after = content_from_json(c["after_content"], f"journal cell {i}")
            restore.append((c, r, col, before, after))
        if entry["target"] == "file":
            if path is None:
                raise PlanStateError(
                    "this undo entry belongs to a file; open the workbook from its file to undo"
                )
            from gridsight.edits._xlsx import content_of_raw

            done = apply_to_file(
                path,
                [
                    FileWrite(c["sheet"], r, col, content_of_raw(c["after"]), c["before"])
                    for c, r, col, _b, _a in restore
                ],
                drop_sheets=entry.get("created_sheets", ()),
            )
            result: dict[str, Any] = {
                "target": "file",
                "path": str(path),
                "backup": str(done.backup),
                "cells_restored": len(restore),
                "sha256": done.sha_after,
            }
            fp: str | None = done.sha_after
        elif entry["target"] == "live":
            if live is None:
                raise PlanStateError(
                    "this undo entry belongs to live Excel; open the workbook through xlwings"
                )
            live.apply_writes(
                [CellWrite(c["sheet"], r, col, before, after) for c, r, col, before, after in restore]
            )
            result = {"target": "live", "cells_restored": len(restore)}
            fp = None
        else:
            writes = [CellWrite(c["sheet"], r, col, before, after) for c, r, col, before, after in restore]
            pairs = [(w, content_of_cell(workbook.sheet(w.sheet).cell(w.row, w.col))) for w in writes]
            conflicts = _conflicts_in_model(pairs)
            if conflicts:
                raise EditConflictError(
                    f"{len(conflicts)} cell(s) changed since the plan was applied; nothing was undone",
                    conflicts,
                )
            doc = editplan_document(
                f"undo-{entry['id']}",
                writes,
                kind="undo",
                workbook_id=workbook_id,
                workbook_name=workbook_name,
                description=f"undo {entry['id']}",
                drop_sheets=entry.get("created_sheets", ()),
            )
            result = {"target": "snapshot", "cells_restored": len(restore), "editplan": doc}
            fp = None
        journal.pop(key, entry["id"])
    created = {n.casefold() for n in entry.get("created_sheets", ())}
    names = {s.name for s in workbook.sheets if s.name.casefold() not in created}
    new_wb = patch_workbook(
        workbook, [(c["sheet"], r, col, before) for c, r, col, before, _a in restore if c["sheet"] in names]
    )
    if created:
        new_wb = with_sheets(new_wb, dropped=created)
    return Applied(new_wb, {"undone_plan_id": entry["id"], **result}, fp)

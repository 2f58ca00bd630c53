"""Edit plans over HTTP: create, preview, apply, undo, journal. Thin: the work is in gridsight.edits."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from gridsight.api._errors import ApiError
from gridsight.api._openapi import Api
from gridsight.api._sessions import Session
from gridsight.api._state import body_object, reject_unknown, state
from gridsight.edits import (
    EditPlan,
    apply_plan,
    checker_name,
    fingerprint,
    new_plan_id,
    parse_writes,
    preview_writes,
    undo_last,
    with_sheets,
)
from gridsight.errors import FileChangedError, PlanStateError

CONTENT = {
    "type": "object",
    "properties": {
        "type": {"enum": ["e", "n", "s", "b", "d", "x"]},
        "value": {"type": ["number", "string", "boolean", "null"]},
        "formula": {"type": ["string", "null"]},
        "number_format": {"type": "string"},
    },
}
WRITE = {
    "type": "object",
    "required": ["cell"],
    "properties": {
        "sheet": {"type": "string"},
        "cell": {"type": "string", "description": "A1 cell, optionally with its sheet: 'Sales 2024'!F16"},
        "formula": {"type": "string", "pattern": "^="},
        "value": {"type": ["number", "string", "boolean", "null"]},
        "type": {"enum": ["e", "n", "s", "b", "d"], "description": "d: value is an Excel date serial"},
        "number_format": {"type": "string"},
        "expected": CONTENT,
    },
    "additionalProperties": False,
}
PLAN_BODY = {
    "type": "object",
    "required": ["writes"],
    "properties": {
        "writes": {"type": "array", "items": WRITE, "minItems": 1, "maxItems": 10000},
        "description": {"type": "string", "maxLength": 4096},
        "id": {"type": "string", "maxLength": 128, "description": "Client-chosen id; a reused id is refused"},
    },
    "additionalProperties": False,
}
PLAN = {"$ref": "#/components/schemas/EditPlan"}
PLAN_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "workbook_id": {"type": "string"},
        "description": {"type": "string"},
        "status": {"enum": ["created", "previewed", "applied"]},
        "writes": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "sheet": {"type": "string"},
                    "cell": {"type": "string"},
                    "write": CONTENT,
                    "expected": CONTENT,
                },
            },
        },
    },
}
PREVIEW = {
    "type": "object",
    "properties": {
        "plan_id": {"type": "string"},
        "ok": {"type": "boolean"},
        "conflicts": {"type": "integer"},
        "invalid": {"type": "integer"},
        "checked_by": {"type": "string"},
        "cells": {"type": "array", "items": {"type": "object"}},
    },
}
APPLIED = {
    "type": "object",
    "description": "For file sessions: path, backup, sha256. For snapshot sessions: `editplan`, an "
    "editplan.v1 "
    "document for the add-in to apply.",
    "properties": {
        "plan_id": {"type": "string"},
        "target": {"enum": ["file", "snapshot", "live"]},
        "cells_written": {"type": "integer"},
        "path": {"type": "string"},
        "backup": {"type": "string"},
        "sha256": {"type": "string"},
        "editplan": {"$ref": "#/components/schemas/EditPlanV1"},
    },
}
_PLAN_FIELDS = {"writes", "description", "id"}


def _check_file_unchanged(s: Session) -> None:
    if s.kind == "file" and s.path is not None:
        try:
            now = fingerprint(s.path)
        except FileNotFoundError:
            raise FileChangedError(f"{s.path} no longer exists", []) from None
        if now != s.fingerprint:
            raise FileChangedError(
                f"{s.path.name} changed on disk since GridSight read it; reload the workbook "
                f"(POST /api/v1/workbooks/{s.id}/reload) and make the plan again",
                [{"reason": "file changed", "expected_sha256": s.fingerprint, "found_sha256": now}],
            )


def register(api: Api) -> None:
    from gridsight.edits import editplan_schema

    api.components["EditPlan"] = PLAN_SCHEMA
    api.components["EditPlanV1"] = editplan_schema()

    @api.route(
        "/workbooks/{wid}/plans",
        "POST",
        summary="Create an edit plan (cell writes with expected content)",
        tag="edits",
        body=PLAN_BODY,
        ok=201,
        result=PLAN,
        errors=(400, 404, 409, 422),
    )
    def create_plan(wid: str) -> Any:
        """A write without `expected` expects what the workbook holds now; one with `expected` is checked
        against it at preview and apply time."""
        doc = body_object()
        st = state()
        s = st.sessions.get(wid)
        reject_unknown(doc, _PLAN_FIELDS)
        desc = doc.get("description", "")
        if not isinstance(desc, str) or len(desc) > 4096:
            raise ApiError(400, "bad_request", "`description` must be text of at most 4,096 characters")
        pid = doc.get("id")
        with s.lock:
            if pid is not None:
                if not isinstance(pid, str) or not pid or len(pid) > 128:
                    raise ApiError(
                        400, "bad_request", "`id` must be a non-empty string of at most 128 characters"
                    )
                if pid in s.plans or st.journal.was_applied(s.journal_key, pid):
                    raise PlanStateError(
                        f"edit plan id {pid!r} was already used on this workbook (replayed plan)"
                    )
            writes = parse_writes(doc, s.workbook)
            plan = EditPlan(pid or new_plan_id(), s.id, tuple(writes), desc)
            s.add_plan(plan)
        return jsonify(plan.to_json()), 201

    @api.route(
        "/workbooks/{wid}/plans/{pid}",
        "GET",
        summary="Get an edit plan",
        tag="edits",
        result=PLAN,
        errors=(404,),
    )
    def get_plan(wid: str, pid: str) -> Any:
        return jsonify(state().sessions.get(wid).plan(pid).to_json())

    @api.route(
        "/workbooks/{wid}/plans/{pid}/preview",
        "POST",
        summary="Preview: before/after, formula checks, spills, conflicts",
        tag="edits",
        result=PREVIEW,
        errors=(404, 409),
    )
    def preview_plan(wid: str, pid: str) -> Any:
        s = state().sessions.get(wid)
        with s.lock:
            plan = s.plan(pid)
            if plan.status == "applied":
                raise PlanStateError(f"edit plan {pid} was already applied")
            _check_file_unchanged(s)
            preview = preview_writes(plan.writes, with_sheets(s.workbook, added=plan.new_sheets))
            plan.status = "previewed"
            plan.preview_ok = preview.ok
            plan.preview_fingerprint = s.fingerprint
            s.previews[pid] = preview
        return jsonify({"plan_id": pid, "checked_by": checker_name(), **preview.to_json()})

    @api.route(
        "/workbooks/{wid}/plans/{pid}/apply",
        "POST",
        summary="Apply a previewed plan (file: atomic save with .bak; snapshot: editplan.v1 for the add-in)",
        tag="edits",
        result=APPLIED,
        errors=(404, 409, 422),
    )
    def apply_edit_plan(wid: str, pid: str) -> Any:
        st = state()
        s = st.sessions.get(wid)
        with s.lock:
            plan = s.plan(pid)
            preview = s.previews.get(pid)
            if preview is None and plan.status != "applied":
                raise PlanStateError(f"edit plan {pid} must be previewed before it is applied")
            applied = apply_plan(
                plan,
                preview,
                with_sheets(s.workbook, added=plan.new_sheets),
                st.journal,
                s.journal_key,
                path=s.path if s.kind == "file" else None,
                workbook_name=s.name,
                live=s.source if s.kind == "xlwings" else None,
            )
            s.workbook = applied.workbook
            if applied.fingerprint is not None:
                s.fingerprint = applied.fingerprint
        return jsonify(applied.result)

    @api.route(
        "/workbooks/{wid}/undo",
        "POST",
        summary="Undo the newest applied plan of this workbook",
        tag="edits",
        result={"type": "object"},
        errors=(404, 409, 422),
    )
    def undo(wid: str) -> Any:
        """Works after a restart: the journal is on disk, keyed by the file path (or the snapshot's name)."""
        st = state()
        s = st.sessions.get(wid)
        with s.lock:
            applied = undo_last(
                s.workbook,
                st.journal,
                s.journal_key,
                path=s.path if s.kind == "file" else None,
                workbook_id=s.id,
                workbook_name=s.name,
                live=s.source if s.kind == "xlwings" else None,
            )
            s.workbook = applied.workbook
            if applied.fingerprint is not None:
                s.fingerprint = applied.fingerprint
        return jsonify(applied.result)

    @api.route(
        "/workbooks/{wid}/journal",
        "GET",
        summary="The workbook's undo journal, newest last",
        tag="edits",
        result={"type": "object"},
        errors=(404,),
    )
    def journal(wid: str) -> Any:
        st = state()
        s = st.sessions.get(wid)
        entries = st.journal.entries(s.journal_key)
        return jsonify(
            {
                "workbook_id": s.id,
                "entries": [
                    {
                        "id": e["id"],
                        "target": e["target"],
                        "description": e.get("description", ""),
                        "applied_at": e.get("applied_at"),
                        "cells": len(e["cells"]),
                    }
                    for e in entries
                ],
            }
        )

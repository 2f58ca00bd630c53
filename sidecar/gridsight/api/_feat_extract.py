"""Schema-driven extraction: POST /workbooks/{wid}/extract, plain JSON or records streamed as events."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from gridsight.api._errors import ApiError
from gridsight.api._feat_model import model_on_disk
from gridsight.api._openapi import Api
from gridsight.api._sse import Emit, stream, wants_stream
from gridsight.api._state import body_object, state

#: Largest table text accepted in a request body, in characters.
MAX_TABLE_TEXT = 2_000_000

BODY = {
    "type": "object",
    "required": ["schema"],
    "additionalProperties": False,
    "properties": {
        "schema": {
            "description": "JSON Schema (object) or the paper's JSON templates (list of objects)",
            "type": ["object", "array", "string"],
        },
        "range": {
            "type": "string",
            "description": "The table's range, e.g. 'Sheet1!A1:F20' (default: used range)",
        },
        "sheet": {"type": "string", "description": "The sheet (default: the first)"},
        "table": {
            "type": "string",
            "description": "A table given as HTML/XML/LaTeX/CSV text instead of a range",
        },
        "format": {"type": "string", "enum": ["html", "xml", "latex", "csv"]},
        "context": {"type": "string", "maxLength": 20000, "description": "Text around the table"},
        "model": {
            "type": "boolean",
            "description": "Let the local model judge types and attributes (default false: on ChemTables the"
            " default 0.5B model lowers Table-F1, see docs/extract.md)",
        },
    },
}

FIELDS = {"schema", "range", "sheet", "table", "format", "context", "model"}


def register(api: Api) -> None:
    register_sheet(api)
    _register_extract(api)


def _register_extract(api: Api) -> None:
    from gridsight.extract import from_sheet, from_text, iter_records, parse_schema
    from gridsight.extract._model import ModelStats
    from gridsight.grid import Range

    @api.route(
        "/workbooks/{wid}/extract",
        "POST",
        summary="One JSON record per numeric cell of a table, following a schema (streamed: `record` events)",
        tag="extract",
        body=BODY,
        result={"type": "object"},
        errors=(400, 404),
        stream=True,
    )
    def extract(wid: str) -> Any:
        doc = body_object(FIELDS)
        schema = parse_schema(doc.get("schema"))  # a bad schema is a 400 before anything runs
        rng, sheet, table, fmt = doc.get("range"), doc.get("sheet"), doc.get("table"), doc.get("format")
        context, use_model = doc.get("context"), doc.get("model", False)
        for field, value in (
            ("range", rng),
            ("sheet", sheet),
            ("table", table),
            ("format", fmt),
            ("context", context),
        ):
            if value is not None and not isinstance(value, str):
                raise ApiError(400, "bad_request", f"`{field}` must be text")
        if not isinstance(use_model, bool):
            raise ApiError(400, "bad_request", "`model` must be true or false")
        wb = state().sessions.get(wid).workbook
        if table is not None:
            if rng is not None:
                raise ApiError(400, "bad_request", "give `table` text or a `range`, not both")
            if len(table) > MAX_TABLE_TEXT:
                raise ApiError(
                    413, "payload_too_large", f"`table` is longer than {MAX_TABLE_TEXT:,} characters"
                )
            grid = from_text(table, fmt)
        else:
            area = Range.parse(rng) if rng else None
            name = (area.sheet if area is not None else None) or sheet
            ws = wb.sheet(name) if name else wb.sheets[0]
            grid = from_sheet(ws, area.with_sheet(None) if area is not None else None)
        model = None
        if use_model and model_on_disk():
            from gridsight.llm import shared_queue

            model = shared_queue()
        stats = ModelStats()
        records = iter_records(grid, schema, model=model, context=context, stats=stats)
        if not wants_stream():
            out = [r.to_dict() for r in records]
            return jsonify({"records": out, "count": len(out), "model_stats": stats.to_dict()})

        def work(emit: Emit, cancel: Any) -> Any:
            count = 0
            for rec in records:
                if cancel.is_set():
                    break
                emit("record", rec.to_dict())
                count += 1
            return {"count": count, "model_stats": stats.to_dict()}

        return stream(work)


SHEET_BODY = {
    "type": "object",
    "required": ["records", "sheet_name"],
    "additionalProperties": False,
    "properties": {
        "records": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "object"},
            "description": "The records to write (as the extract route returned them and the user previewed)",
        },
        "sheet_name": {"type": "string", "description": "The new sheet (1-31 characters, not in use)"},
    },
}
#: Longest attribute name accepted in a record.
MAX_KEY = 100


def checked_records(raw: Any) -> list[dict[str, Any]]:
    """Records from a client: objects of plain values, or a 400 naming the first bad one."""
    from gridsight.edits import MAX_WRITES

    if not isinstance(raw, list) or not raw:
        raise ApiError(400, "bad_request", "`records` must be a non-empty list of record objects")
    if len(raw) > MAX_WRITES:
        raise ApiError(413, "too_large", f"{len(raw):,} records is more than a sheet plan's {MAX_WRITES:,}")
    for i, rec in enumerate(raw):
        if not isinstance(rec, dict):
            raise ApiError(400, "bad_request", f"records[{i}] must be an object, not {type(rec).__name__}")
        for key, value in rec.items():
            if not key or len(key) > MAX_KEY:
                raise ApiError(400, "bad_request", f"records[{i}] has a key that is empty or too long")
            if value is not None and not isinstance(value, str | int | float | bool):
                raise ApiError(
                    400, "bad_request", f"records[{i}].{key[:40]} must be text, a number, true/false or null"
                )
    return raw


def register_sheet(api: Api) -> None:
    from gridsight.extract._write import rows_plan

    @api.route(
        "/workbooks/{wid}/extract/sheet",
        "POST",
        summary="An edit plan that writes records to a new sheet (then preview, apply, undo it as any plan)",
        tag="extract",
        body=SHEET_BODY,
        ok=201,
        result={"$ref": "#/components/schemas/EditPlan"},
        errors=(400, 404, 413, 422),
    )
    def extract_to_sheet(wid: str) -> Any:
        """One header row and one row per record; every cell is expected empty, and undo removes the
        sheet again. Text is written as text (a value starting with `=` never becomes a formula)."""
        doc = body_object({"records", "sheet_name"})
        name = doc.get("sheet_name")
        if not isinstance(name, str):
            raise ApiError(400, "bad_request", "`sheet_name` must be text")
        records = checked_records(doc.get("records"))
        s = state().sessions.get(wid)
        if s.kind == "xlwings":
            raise ApiError(
                422,
                "needs_file",
                "records can be written to a new sheet in a workbook opened from its file or sent by "
                "the Excel add-in, not through xlwings; download them as JSON instead",
            )
        with s.lock:
            plan, _model = rows_plan(records, s.workbook, name, s.id)
            s.add_plan(plan)
        return jsonify({**plan.to_json(), "sheet": plan.new_sheets[0], "rows": len(records) + 1}), 201

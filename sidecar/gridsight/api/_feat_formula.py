"""Formula feature: validate and evaluate a formula against an open workbook."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from gridsight.api._errors import ApiError
from gridsight.api._feat_model import model_on_disk
from gridsight.api._openapi import Api
from gridsight.api._state import body_object, reject_unknown, state
from gridsight.edits import house_policy
from gridsight.grid import Range

BODY = {
    "type": "object",
    "required": ["formula"],
    "properties": {
        "formula": {"type": "string", "maxLength": 8192},
        "sheet": {"type": "string", "description": "Sheet for unqualified references (default: the first)"},
        "cell": {"type": "string", "description": "Where the formula would live (for spill checks)"},
    },
    "additionalProperties": False,
}


def register(api: Api) -> None:
    from gridsight.formula import evaluate_formula, validate_formula

    @api.route(
        "/workbooks/{wid}/formula/evaluate",
        "POST",
        summary="Validate and evaluate a formula on the workbook's current values",
        tag="formula",
        body=BODY,
        result={"type": "object"},
        errors=(400, 404, 422),
    )
    def evaluate(wid: str) -> Any:
        doc = body_object()
        s = state().sessions.get(wid)
        formula = doc.get("formula")
        if not isinstance(formula, str) or not formula.strip() or len(formula) > 8192:
            raise ApiError(400, "bad_request", "`formula` must be formula text of at most 8,192 characters")
        reject_unknown(doc, {"formula", "sheet", "cell"})
        sheet = doc.get("sheet")
        at = None
        if doc.get("cell") is not None:
            rng = Range.parse(str(doc["cell"]))
            at = (rng.top, rng.left)
            sheet = sheet or rng.sheet
        wb = s.workbook
        sheet_name = wb.sheet(sheet).name if sheet else (wb.sheets[0].name if wb.sheets else None)
        refused = house_policy(formula)
        v = validate_formula(formula, wb, sheet_name)
        if refused or not v.ok:
            problems = list(dict.fromkeys([*refused, *v.problems]))
            return jsonify(
                {
                    "formula": v.formula,
                    "ok": False,
                    "refused": bool(refused) or v.refused,
                    "problems": problems,
                    "value": None,
                    "error": None,
                }
            )
        ev = evaluate_formula(formula, wb, sheet_name, at=at)
        return jsonify({**ev.to_dict(), "refused": False})


def _sheet_name(wb: Any, sheet: Any) -> str | None:
    if sheet is not None and not isinstance(sheet, str):
        raise ApiError(400, "bad_request", "`sheet` must be a sheet name")
    return wb.sheet(sheet).name if sheet else (wb.sheets[0].name if wb.sheets else None)


def _fields(doc: dict[str, Any], allowed: set[str], required: str) -> str:
    reject_unknown(doc, allowed)
    text = doc.get(required)
    if not isinstance(text, str) or len(text) > 2000:
        raise ApiError(400, "bad_request", f"`{required}` must be text of at most 2,000 characters")
    return text


def register_language(api: Api) -> None:
    """Routes that turn words into formulas and formulas into words (deterministic tier)."""
    from gridsight.formula import explain_formula, suggest, suggest_fill
    from gridsight.qa import formula_from_question

    @api.route(
        "/workbooks/{wid}/formula/generate",
        "POST",
        summary="Turn a request into a validated formula over a table, with value, evidence and explanation",
        tag="formula",
        body={
            "type": "object",
            "required": ["request"],
            "additionalProperties": False,
            "properties": {
                "request": {"type": "string", "maxLength": 2000},
                "sheet": {"type": "string"},
                "range": {"type": "string", "description": "The table (default: detected)"},
            },
        },
        result={"type": "object"},
        errors=(400, 404),
    )
    def generate(wid: str) -> Any:
        doc = body_object()
        request = _fields(doc, {"request", "sheet", "range"}, "request")
        wb = state().sessions.get(wid).workbook
        answer = formula_from_question(request, wb, _sheet_name(wb, doc.get("sheet")), area=doc.get("range"))
        return jsonify(answer.to_dict())

    @api.route(
        "/workbooks/{wid}/formula/suggest",
        "POST",
        summary="Completions of a partly typed request, each with the formula it would give (< 300 ms)",
        tag="formula",
        body={
            "type": "object",
            "required": ["partial"],
            "additionalProperties": False,
            "properties": {
                "partial": {"type": "string", "maxLength": 2000},
                "sheet": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20},
                "refine": {
                    "type": "boolean",
                    "description": "Let the local model reorder the suggestions (send when the user pauses; "
                    "a newer refine for the same workbook cancels this one)",
                },
            },
        },
        result={"type": "object"},
        errors=(400, 404),
    )
    def suggest_route(wid: str) -> Any:
        doc = body_object()
        partial = _fields(doc, {"partial", "sheet", "limit", "refine"}, "partial")
        limit = doc.get("limit", 5)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 20:
            raise ApiError(400, "bad_request", "`limit` must be an integer from 1 to 20")
        refine = doc.get("refine", False)
        if not isinstance(refine, bool):
            raise ApiError(400, "bad_request", "`refine` must be true or false")
        wb = state().sessions.get(wid).workbook
        if refine and not model_on_disk():
            refine = False  # a keystroke must never start assembling the model: plain suggestions
        if refine:
            from gridsight.formula._suggest import refine_suggestions
            from gridsight.llm import shared_queue

            found = refine_suggestions(
                partial,
                wb,
                _sheet_name(wb, doc.get("sheet")),
                model=shared_queue(),
                limit=limit,
                session=f"suggest:{wid}",
            )
        else:
            found = suggest(partial, wb, _sheet_name(wb, doc.get("sheet")), limit=limit)
        return jsonify(
            {"suggestions": [{"text": s.text, "formula": s.formula, "shape": s.shape} for s in found]}
        )

    @api.route(
        "/workbooks/{wid}/formula/explain",
        "POST",
        summary="Explain a formula in words, naming ranges by their headers",
        tag="formula",
        body={
            "type": "object",
            "required": ["formula"],
            "additionalProperties": False,
            "properties": {"formula": {"type": "string", "maxLength": 8192}, "sheet": {"type": "string"}},
        },
        result={"type": "object"},
        errors=(400, 404, 422),
    )
    def explain(wid: str) -> Any:
        doc = body_object({"formula", "sheet"})
        formula = doc.get("formula")
        if not isinstance(formula, str) or not formula.strip() or len(formula) > 8192:
            raise ApiError(400, "bad_request", "`formula` must be formula text of at most 8,192 characters")
        wb = state().sessions.get(wid).workbook
        return jsonify(
            {
                "formula": formula,
                "explanation": explain_formula(formula, wb, _sheet_name(wb, doc.get("sheet"))),
            }
        )

    @api.route(
        "/workbooks/{wid}/formula/fill",
        "POST",
        summary="Propose a formula for an empty cell whose neighbours above or to the left repeat one",
        tag="formula",
        body={
            "type": "object",
            "required": ["cell"],
            "additionalProperties": False,
            "properties": {"cell": {"type": "string"}, "sheet": {"type": "string"}},
        },
        result={"type": "object"},
        errors=(400, 404),
    )
    def fill(wid: str) -> Any:
        doc = body_object()
        cell = _fields(doc, {"cell", "sheet"}, "cell")
        wb = state().sessions.get(wid).workbook
        rng = Range.parse(cell)
        sheet = _sheet_name(wb, doc.get("sheet") or rng.sheet)
        found = suggest_fill(wb, sheet or "", rng.with_sheet(None).ref())
        if found is None:
            return jsonify({"cell": rng.ref(), "proposal": None})
        return jsonify(
            {
                "cell": found.cell,
                "proposal": {
                    "formula": found.formula,
                    "based_on": list(found.based_on),
                    "direction": found.direction,
                    "value": found.evaluation.to_dict()["value"],
                },
            }
        )

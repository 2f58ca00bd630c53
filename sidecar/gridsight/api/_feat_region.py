"""Explain-region feature: the right-click "Explain this region" answer for an open workbook."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from gridsight.api._errors import ApiError
from gridsight.api._openapi import Api
from gridsight.api._sse import Emit, stream, wants_stream
from gridsight.api._state import body_object, state
from gridsight.errors import RangeSyntaxError
from gridsight.grid import Range

BODY = {
    "type": "object",
    "required": ["range"],
    "additionalProperties": False,
    "properties": {
        "range": {"type": "string", "maxLength": 300, "description": "A1 range, optionally sheet-qualified"},
        "sheet": {"type": "string", "description": "Sheet of the range (default: its own, else the first)"},
    },
}


def register(api: Api) -> None:
    from gridsight.region import explain_region

    @api.route(
        "/workbooks/{wid}/explain",
        "POST",
        summary="Explain a region: contents, tables with header paths and units, formula patterns",
        tag="explain",
        body=BODY,
        result={"type": "object"},
        errors=(400, 404),
        stream=True,
    )
    def explain_region_route(wid: str) -> Any:
        doc = body_object({"range", "sheet"})
        text, sheet = doc.get("range"), doc.get("sheet")
        if not isinstance(text, str) or len(text) > 300:
            raise ApiError(400, "bad_request", "`range` must be an A1 range such as B2:F9")
        if sheet is not None and not isinstance(sheet, str):
            raise ApiError(400, "bad_request", "`sheet` must be a sheet name")
        try:
            rng = Range.parse(text)
        except RangeSyntaxError as exc:
            raise ApiError(400, "bad_range", str(exc)) from exc
        wb = state().sessions.get(wid).workbook
        name = sheet or rng.sheet
        target = wb.sheet(name) if name else wb.sheets[0]
        if not wants_stream():
            return jsonify({"region": explain_region(wb, target, rng).to_dict()})

        def work(emit: Emit, _cancel: Any) -> Any:
            result = explain_region(wb, target, rng)
            for fact in result.facts:  # the pane shows facts as they come, then the whole answer
                emit("fact", fact.to_dict())
            return {"region": result.to_dict()}

        return stream(work)

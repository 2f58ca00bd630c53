"""Table detection feature: every table on a sheet of an open workbook."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request

from gridsight.api._openapi import Api
from gridsight.api._state import state


def register(api: Api) -> None:
    from gridsight.detect import detect_tables

    @api.route(
        "/workbooks/{wid}/detect",
        "GET",
        summary="Detect the tables on a sheet (rules only)",
        tag="detect",
        query=(("sheet", "Sheet name (default: every sheet)", False),),
        result={"type": "object"},
        errors=(404,),
    )
    def detect(wid: str) -> Any:
        wb = state().sessions.get(wid).workbook
        name = request.args.get("sheet")
        sheets = [wb.sheet(name)] if name else list(wb)
        return jsonify({"sheets": [detect_tables(s).to_dict() for s in sheets]})

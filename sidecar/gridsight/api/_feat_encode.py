"""Encoding feature: a sheet as the compact text the model reads (SheetCompressor)."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request

from gridsight.api._openapi import Api
from gridsight.api._state import state


def register(api: Api) -> None:
    from gridsight.encode import encode_sheet

    @api.route(
        "/workbooks/{wid}/encode",
        "GET",
        summary="Encode a sheet with SheetCompressor",
        tag="encode",
        query=(("sheet", "Sheet name (default: the first)", False),),
        result={"type": "object"},
        errors=(404,),
    )
    def encode(wid: str) -> Any:
        wb = state().sessions.get(wid).workbook
        sheet = wb.sheet(request.args.get("sheet") or 0)
        enc = encode_sheet(sheet)
        return jsonify({"sheet": sheet.name, "text": enc.text})

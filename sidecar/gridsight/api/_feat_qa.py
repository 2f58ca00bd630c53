"""Question answering feature: POST /workbooks/{wid}/ask, plain or streamed."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from gridsight.api._errors import ApiError
from gridsight.api._feat_model import model_on_disk
from gridsight.api._openapi import Api
from gridsight.api._sse import Emit, stream, wants_stream
from gridsight.api._state import body_object, state

BODY = {
    "type": "object",
    "required": ["question"],
    "additionalProperties": False,
    "properties": {
        "question": {"type": "string", "maxLength": 2000},
        "sheet": {"type": "string", "description": "Only this sheet (default: every sheet)"},
        "model": {
            "type": "boolean",
            "description": "Let the local model settle ties and fill in where the rules abstain, when its "
            "file is in place (default true; it never computes the answer)",
        },
    },
}


def register(api: Api) -> None:
    from gridsight.qa import answer_question

    @api.route(
        "/workbooks/{wid}/ask",
        "POST",
        summary="Answer a question with its value, formula, evidence ranges, route and unit (or abstain)",
        tag="ask",
        body=BODY,
        result={"type": "object"},
        errors=(400, 404),
        stream=True,
    )
    def ask(wid: str) -> Any:
        doc = body_object({"question", "sheet", "model"})
        question, sheet, use_model = doc.get("question"), doc.get("sheet"), doc.get("model", True)
        if not isinstance(question, str) or len(question) > 2000:
            raise ApiError(400, "bad_request", "`question` must be text of at most 2,000 characters")
        if sheet is not None and not isinstance(sheet, str):
            raise ApiError(400, "bad_request", "`sheet` must be a sheet name")
        if not isinstance(use_model, bool):
            raise ApiError(400, "bad_request", "`model` must be true or false")
        wb = state().sessions.get(wid).workbook
        if sheet is not None:
            wb.sheet(sheet)  # an unknown sheet is a 404 before anything runs
        model = None
        if use_model and model_on_disk():
            from gridsight.llm import shared_queue

            model = shared_queue()
        if not wants_stream():
            return jsonify({"answer": answer_question(wb, question, sheet, model=model).to_dict()})

        def work(emit: Emit, _cancel: Any) -> Any:
            emit("progress", {"stage": "find-table"})
            answer = answer_question(wb, question, sheet, model=model)
            emit("progress", {"stage": "answer", "route": answer.route})
            return {"answer": answer.to_dict()}

        return stream(work)

"""Every failure leaves the API as JSON ``{error: {code, message, detail}}`` with a fitting status.

Typed engine errors map to 4xx by class (most specific first); HTTP errors raised by Flask or
Werkzeug (404, 405, 413) get the same JSON body; anything unexpected is a 500 whose body says
where to look (the server log), never a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from gridsight import errors as E

log = logging.getLogger("gridsight.api")


class ApiError(Exception):
    """An error raised by the API layer itself (auth, ids, request shape)."""

    def __init__(self, status: int, code: str, message: str, detail: Any = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail


#: (error class, HTTP status, code). First match in this order wins, so subclasses come first.
ERROR_MAP: tuple[tuple[type[BaseException], int, str], ...] = (
    (E.FileChangedError, 409, "file_changed"),
    (E.EditConflictError, 409, "conflict"),
    (E.NothingToUndoError, 409, "nothing_to_undo"),
    (E.PlanStateError, 409, "plan_state"),
    (E.EditPlanError, 422, "invalid_plan"),
    (E.SnapshotError, 422, "invalid_snapshot"),
    (E.UnknownSheetError, 404, "unknown_sheet"),
    (E.SourceNotFoundError, 404, "file_not_found"),
    (E.RangeSyntaxError, 400, "bad_range"),
    (E.ResourceLimitError, 413, "too_large"),
    (E.PasswordProtectedError, 422, "password_protected"),
    (E.CorruptFileError, 422, "corrupt_file"),
    (E.UnsupportedFormatError, 422, "unsupported_format"),
    (E.FormulaSyntaxError, 422, "formula_syntax"),
    (E.FormulaPolicyError, 422, "formula_refused"),
    (E.RequestCancelledError, 409, "cancelled"),
    (E.RequestTimeoutError, 504, "model_timeout"),
    (E.PromptTooLongError, 413, "prompt_too_long"),
    (E.ModelError, 503, "model_unavailable"),
    (E.CertificateError, 500, "certificate"),
    (E.GridSightError, 400, "bad_request"),
)

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    408: "request_timeout",
    411: "length_required",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    429: "too_many_requests",
}


def error_response(status: int, code: str, message: str, detail: Any = None) -> Response:
    resp = jsonify({"error": {"code": code, "message": message, "detail": detail}})
    resp.status_code = status
    return resp


def status_of(exc: BaseException) -> tuple[int, str]:
    for cls, status, code in ERROR_MAP:
        if isinstance(exc, cls):
            return status, code
    return 500, "internal"


def _detail(exc: BaseException) -> Any:
    if isinstance(exc, E.EditConflictError):
        return {"conflicts": exc.conflicts}
    if isinstance(exc, E.EditPlanError):
        return {"problems": exc.problems} if exc.problems else None
    return None


def install_error_handlers(app: Flask) -> None:
    """JSON for every error path, including Flask's own (unknown routes, wrong methods, big bodies)."""

    @app.errorhandler(ApiError)
    def _api(exc: ApiError) -> Response:
        return error_response(exc.status, exc.code, exc.message, exc.detail)

    @app.errorhandler(E.GridSightError)
    def _engine(exc: E.GridSightError) -> Response:
        status, code = status_of(exc)
        return error_response(status, code, str(exc), _detail(exc))

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        message = exc.description or exc.name
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            message = f"the request body is larger than the {limit:,}-byte limit" if limit else message
        resp = error_response(status, _HTTP_CODES.get(status, "http_error"), message)
        if status == 405 and hasattr(exc, "valid_methods") and exc.valid_methods:
            resp.headers["Allow"] = ", ".join(exc.valid_methods)
        return resp

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unexpected error while serving a request")
        return error_response(
            500,
            "internal",
            "internal error in the GridSight sidecar; see its log",
            {"type": type(exc).__name__},
        )

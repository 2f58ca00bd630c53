"""Routes declared once: the same declaration adds the Flask rule and its OpenAPI operation.

Why: a hand-written OpenAPI file drifts from the code. Here a route cannot exist without its
documentation (and a test checks Flask's URL map against the document both ways).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask

PREFIX = "/api/v1"
_PARAM = re.compile(r"\{([a-z_]+)\}")
ERROR_REF = {"$ref": "#/components/schemas/Error"}
_STATUS_TEXT = {
    200: "OK",
    201: "Created",
    202: "Accepted (more chunks expected)",
    204: "No content",
    400: "Malformed request",
    401: "Missing or wrong API secret",
    403: "Origin or host not allowed",
    404: "Unknown workbook, plan, sheet or file",
    409: "Conflict with the current state",
    413: "Payload or range too large",
    422: "Well-formed but invalid content",
    503: "Feature unavailable",
    500: "Internal error",
}


@dataclass
class Operation:
    path: str  # OpenAPI style: /workbooks/{wid}
    method: str
    view: Callable[..., Any]
    op_id: str
    summary: str
    tag: str
    body: dict[str, Any] | None = None
    responses: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    query: tuple[tuple[str, str, bool], ...] = ()  # (name, description, required)
    stream: bool = False
    description: str = ""


class Api:
    """Collects operations; ``install`` adds them to a Flask app; ``document`` builds OpenAPI 3.1."""

    def __init__(self) -> None:
        self.operations: list[Operation] = []
        self.components: dict[str, Any] = {}

    def route(
        self,
        path: str,
        method: str,
        *,
        summary: str,
        tag: str,
        body: dict[str, Any] | None = None,
        ok: int = 200,
        result: dict[str, Any] | None = None,
        errors: tuple[int, ...] = (),
        query: tuple[tuple[str, str, bool], ...] = (),
        stream: bool = False,
        description: str = "",
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            responses: dict[int, dict[str, Any] | None] = {ok: result}
            for code in (401, *errors, 500):
                responses.setdefault(code, ERROR_REF)
            self.operations.append(
                Operation(
                    path,
                    method.upper(),
                    fn,
                    fn.__name__,
                    summary,
                    tag,
                    body,
                    responses,
                    query,
                    stream,
                    description or (fn.__doc__ or "").strip(),
                )
            )
            return fn

        return deco

    def install(self, app: Flask) -> None:
        for op in self.operations:
            rule = PREFIX + _PARAM.sub(r"<\1>", op.path)
            app.add_url_rule(rule, endpoint=op.op_id, view_func=op.view, methods=[op.method])

    def document(self, version: str) -> dict[str, Any]:
        paths: dict[str, dict[str, Any]] = {}
        for op in self.operations:
            item = paths.setdefault(PREFIX + op.path, {})
            params: list[dict[str, Any]] = [
                {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                for n in _PARAM.findall(op.path)
            ]
            params += [
                {"name": n, "in": "query", "required": req, "description": d, "schema": {"type": "string"}}
                for n, d, req in op.query
            ]
            entry: dict[str, Any] = {
                "operationId": op.op_id,
                "summary": op.summary,
                "tags": [op.tag],
                "responses": {},
            }
            if op.description:
                entry["description"] = op.description
            if params:
                entry["parameters"] = params
            if op.body is not None:
                entry["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": op.body}},
                }
            for code, schema in sorted(op.responses.items()):
                resp: dict[str, Any] = {"description": _STATUS_TEXT.get(code, "")}
                content: dict[str, Any] = {}
                if schema is not None or code >= 400:
                    content["application/json"] = {"schema": schema or {"type": "object"}}
                if op.stream and code < 300:
                    content["text/event-stream"] = {
                        "schema": {
                            "type": "string",
                            "description": "Server-Sent Events (send Accept: "
                            "text/event-stream): `progress` events, then one `result` or `error`.",
                        }
                    }
                if content:
                    resp["content"] = content
                entry["responses"][str(code)] = resp
            item[op.method.lower()] = entry
        return {
            "openapi": "3.1.0",
            "info": {
                "title": "GridSight sidecar API",
                "version": version,
                "description": "Local-only JSON API of the GridSight sidecar (HTTPS on 127.0.0.1). Every "
                "call needs the per-install secret in the X-GridSight-Secret header.",
            },
            "servers": [{"url": "https://localhost:{port}", "variables": {"port": {"default": "8765"}}}],
            "security": [{"secret": []}],
            "paths": paths,
            "components": {
                "securitySchemes": {
                    "secret": {"type": "apiKey", "in": "header", "name": "X-GridSight-Secret"}
                },
                "schemas": {
                    "Error": {
                        "type": "object",
                        "required": ["error"],
                        "properties": {
                            "error": {
                                "type": "object",
                                "required": ["code", "message", "detail"],
                                "properties": {
                                    "code": {"type": "string"},
                                    "message": {"type": "string"},
                                    "detail": {},
                                },
                            }
                        },
                    },
                    **self.components,
                },
            },
        }

"""The Flask app: security, error handling, core routes, workbook and edit routes, optional features."""

from __future__ import annotations

import logging
import time
from typing import Any

from flask import Flask, jsonify

from gridsight import __version__
from gridsight.api._errors import ApiError, install_error_handlers
from gridsight.api._features import install_features
from gridsight.api._openapi import Api
from gridsight.api._security import install_security
from gridsight.api._sessions import ChunkUploads, SessionStore
from gridsight.api._state import AppState, ServerConfig, state
from gridsight.api._static import install_static
from gridsight.edits import Journal, checker_name, editplan_schema
from gridsight.sources import snapshot_schema

SCHEMAS = {"snapshot.v1": snapshot_schema, "editplan.v1": editplan_schema}


def _core_routes(api: Api) -> None:
    api.components["Snapshot"] = snapshot_schema()

    @api.route(
        "/health",
        "GET",
        summary="Liveness, version and which features are installed",
        tag="core",
        result={
            "type": "object",
            "properties": {
                "status": {"const": "ok"},
                "version": {"type": "string"},
                "uptime_s": {"type": "number"},
                "workbooks": {"type": "integer"},
                "features": {"type": "object"},
                "formula_checker": {"type": "string"},
            },
        },
    )
    def health() -> Any:
        st = state()
        return jsonify(
            {
                "status": "ok",
                "version": __version__,
                "uptime_s": round(time.time() - st.started, 3),
                "workbooks": len(st.sessions),
                "features": st.features,
                "formula_checker": checker_name(),
            }
        )

    @api.route(
        "/openapi.json",
        "GET",
        summary="This API's OpenAPI 3.1 document",
        tag="core",
        result={"type": "object"},
    )
    def openapi() -> Any:
        return jsonify(state_api().document(__version__))

    @api.route(
        "/schemas/{name}",
        "GET",
        summary="A JSON Schema the add-in speaks (snapshot.v1, editplan.v1)",
        tag="core",
        result={"type": "object"},
        errors=(404,),
    )
    def schema(name: str) -> Any:
        getter = SCHEMAS.get(name.removesuffix(".json").removesuffix(".schema"))
        if getter is None:
            raise ApiError(404, "not_found", f"no schema named {name[:60]!r}; known: {', '.join(SCHEMAS)}")
        return jsonify(getter())


def state_api() -> Api:
    from flask import current_app

    return current_app.extensions["gridsight_api"]


def create_app(config: ServerConfig) -> Flask:
    """A configured app (no server): tests can use it with a real server around it."""
    from gridsight.api import _routes_plans, _routes_workbooks

    app = Flask("gridsight.api")
    app.config["MAX_CONTENT_LENGTH"] = config.max_body
    app.json.sort_keys = False  # type: ignore[attr-defined]
    api = Api()
    _core_routes(api)
    _routes_workbooks.register(api)
    _routes_plans.register(api)
    features = install_features(api)
    api.install(app)
    app.extensions["gridsight_api"] = api
    app.extensions["gridsight"] = AppState(
        config,
        SessionStore(config.max_sessions),
        ChunkUploads(config.max_upload),
        Journal(config.home / "journal"),
        features,
        time.time(),
    )
    install_security(app, config.secret)
    install_error_handlers(app)

    install_static(app, config.secret)  # / (task pane or JSON signpost), /taskpane/, /addin/, /manifest.xml

    logging.getLogger("waitress").setLevel(logging.ERROR)
    return app

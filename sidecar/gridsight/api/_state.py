"""Server settings, shared state, and reading a JSON request body defensively."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import current_app, request

from gridsight.api._errors import ApiError
from gridsight.api._sessions import ChunkUploads, SessionStore
from gridsight.edits import Journal

MiB = 1024 * 1024


@dataclass(frozen=True)
class ServerConfig:
    """Limits and places. One request body is capped below Office's own 5 MB-per-call habit x3."""

    home: Path
    secret: str
    max_body: int = 16 * MiB
    max_upload: int = 256 * MiB
    max_sessions: int = 32
    max_range_cells: int = 200_000
    demo: bool = False


@dataclass
class AppState:
    config: ServerConfig
    sessions: SessionStore
    uploads: ChunkUploads
    journal: Journal
    features: dict[str, dict[str, Any]] = field(default_factory=dict)
    started: float = 0.0


def state() -> AppState:
    return current_app.extensions["gridsight"]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def body_json(*, required: bool = True) -> Any:
    """The request body as JSON: 400 with where it broke for malformed JSON, 413 past the size cap."""
    data = request.get_data(cache=True)  # MAX_CONTENT_LENGTH -> 413 before reading
    if not data.strip():
        if required:
            raise ApiError(400, "empty_body", "the request body is empty; send a JSON object")
        return None
    try:
        return json.loads(data, parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise ApiError(400, "bad_json", "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ApiError(
            400,
            "bad_json",
            f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            {"line": exc.lineno, "column": exc.colno},
        ) from None
    except ValueError as exc:
        raise ApiError(400, "bad_json", f"malformed JSON: {exc}") from None
    except RecursionError:
        raise ApiError(400, "bad_json", "malformed JSON: nested too deeply") from None


def body_object(allowed: Collection[str] | None = None) -> dict[str, Any]:
    """The request's JSON object; with ``allowed``, any other field is a 400 (typos never pass
    silently as defaults)."""
    doc = body_json()
    if not isinstance(doc, dict):
        raise ApiError(
            400, "bad_request", f"the request body must be a JSON object, not {type(doc).__name__}"
        )
    if allowed is not None:
        reject_unknown(doc, allowed)
    return doc


def reject_unknown(doc: dict[str, Any], allowed: Collection[str]) -> None:
    unknown = set(doc) - set(allowed)
    if unknown:
        raise ApiError(400, "bad_request", f"unknown field(s): {', '.join(sorted(unknown))}")

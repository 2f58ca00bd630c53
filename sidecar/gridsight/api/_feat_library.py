"""A folder of spreadsheets as one library: open (index) it, watch the indexing, ask across its files.

``POST /libraries {"path": FOLDER}`` checks the folder, then indexes it (incrementally: unchanged
files are skipped) into ``<home>/indexes``; with ``Accept: text/event-stream`` every file is a
``progress`` event. ``GET /libraries/{lid}`` reports the status and progress at any time (also while
another request indexes). ``POST /libraries/{lid}/ask`` answers with the same document as
``gridsight ask FOLDER "q" --format json``: the answer, evidence with file, sheet and range for every
table used, and what retrieval found. The engine is :mod:`gridsight.retrieval`; this is a thin face.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Response, current_app, jsonify

from gridsight.api._errors import ApiError
from gridsight.api._feat_model import model_on_disk
from gridsight.api._openapi import Api
from gridsight.api._sse import Emit, stream, wants_stream
from gridsight.api._state import body_object, state

OPEN_BODY = {
    "type": "object",
    "required": ["path"],
    "additionalProperties": False,
    "properties": {
        "path": {"type": "string", "description": "Absolute path of a folder on this computer"},
    },
}
ASK_BODY = {
    "type": "object",
    "required": ["question"],
    "additionalProperties": False,
    "properties": {
        "question": {"type": "string", "maxLength": 2000},
        "model": {
            "type": "boolean",
            "description": "Let the local model help (sub-queries, ties) when its file is in place "
            "(default true; it never computes the answer)",
        },
    },
}
LIBRARY_INFO = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "path": {"type": "string"},
        "status": {"enum": ["indexing", "ready", "failed"]},
        "files_done": {"type": "integer"},
        "files_total": {"type": "integer"},
        "cells": {"type": "integer"},
        "current": {"type": ["string", "null"]},
        "error": {"type": ["string", "null"]},
        "report": {"type": ["object", "null"]},
    },
}
#: Longest path text accepted.
MAX_PATH = 4096
#: Spreadsheets one library may hold, and the seconds spent looking before a folder is called too big
#: (a pasted "/" or "C:\\" must be a clear refusal, not an hour of indexing).
MAX_FILES = 5000
SCAN_SECONDS = 10.0


@dataclass
class FolderLibrary:
    """One opened folder: where its index is, and how far indexing has got."""

    id: str
    folder: Path
    db: Path
    status: str = "indexing"
    files_done: int = 0
    files_total: int = 0
    cells: int = 0
    current: str | None = None
    error: str | None = None
    report: dict[str, Any] | None = None
    updated: float = field(default_factory=time.time)
    index_lock: threading.Lock = field(default_factory=threading.Lock)
    _library: Any = None

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": str(self.folder),
            "name": self.folder.name or str(self.folder),
            "status": self.status,
            "files_done": self.files_done,
            "files_total": self.files_total,
            "cells": self.cells,
            "current": self.current,
            "error": self.error,
            "report": self.report,
        }

    def library(self) -> Any:
        """The index opened for search (once per indexing run)."""
        from gridsight.retrieval import Library

        if self._library is None:
            self._library = Library(self.db)
        return self._library


class Libraries:
    """The folders opened in this sidecar, by id (one id per folder path)."""

    def __init__(self) -> None:
        self._items: dict[str, FolderLibrary] = {}
        self._lock = threading.Lock()

    def open(self, folder: Path, home: Path) -> FolderLibrary:
        from gridsight.retrieval import default_db

        lid = "lib_" + hashlib.sha256(str(folder).encode("utf-8")).hexdigest()[:12]
        with self._lock:
            lib = self._items.get(lid)
            if lib is None:
                lib = self._items[lid] = FolderLibrary(lid, folder, default_db(folder, home))
            return lib

    def get(self, lid: str) -> FolderLibrary:
        with self._lock:
            lib = self._items.get(lid)
        if lib is None:
            raise ApiError(
                404,
                "unknown_library",
                f"no open folder with id {lid[:80]!r}; open it again (POST /api/v1/libraries)",
            )
        return lib

    def remove(self, lid: str) -> None:
        with self._lock:
            if self._items.pop(lid, None) is None:
                raise ApiError(404, "unknown_library", f"no open folder with id {lid[:80]!r}")

    def list(self) -> list[FolderLibrary]:
        with self._lock:
            return list(self._items.values())


def libraries() -> Libraries:
    return current_app.extensions.setdefault("gridsight_libraries", Libraries())


def count_spreadsheets(folder: Path, stop_at: int, seconds: float) -> int | None:
    """Spreadsheets under ``folder`` as the index sees them (hidden folders and ``~$`` lock files left
    out), counted up to ``stop_at``; None when looking took longer than ``seconds``."""
    from gridsight.retrieval._index import SUFFIXES

    deadline = time.monotonic() + seconds
    found = 0
    with os.scandir(folder):  # the folder itself must be readable (a subfolder that is not is skipped)
        pass
    for _root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += sum(1 for n in names if n.lower().endswith(SUFFIXES) and not n.startswith(("~$", ".")))
        if found >= stop_at:
            return found
        if time.monotonic() > deadline:
            return None
    return found


def checked_folder(raw: Any) -> Path:
    """A readable folder holding at least one spreadsheet, or a 4xx saying what is wrong with it."""
    from gridsight.retrieval._index import SUFFIXES

    if not isinstance(raw, str) or not raw.strip():
        raise ApiError(400, "bad_request", "`path` must be the path of a folder")
    if len(raw) > MAX_PATH or "\x00" in raw:
        raise ApiError(400, "bad_request", "`path` is not a usable path")
    folder = Path(raw.strip()).expanduser()
    if not folder.is_absolute():
        raise ApiError(400, "bad_request", f"path {raw[:200]!r} must be absolute (e.g. /home/me/reports)")
    try:
        folder = folder.resolve()
        if not folder.exists():
            raise ApiError(404, "folder_not_found", f"folder {folder} does not exist")
        if not folder.is_dir():
            raise ApiError(
                400,
                "not_a_folder",
                f"{folder} is a file, not a folder; open it as a workbook instead (Workbook mode)",
            )
        files = count_spreadsheets(folder, MAX_FILES + 1, SCAN_SECONDS)
    except OSError as exc:
        raise ApiError(
            422, "unreadable_folder", f"cannot read folder {folder}: {exc.strerror or exc}"
        ) from None
    if files is None or files > MAX_FILES:
        raise ApiError(
            413,
            "folder_too_large",
            f"{folder} holds more than {MAX_FILES:,} spreadsheets (or too many files to look through in "
            f"{SCAN_SECONDS:.0f} s); choose the folder that holds the workbooks you mean",
        )
    if not files:
        raise ApiError(
            422,
            "no_spreadsheets",
            f"{folder} holds no spreadsheet ({', '.join(SUFFIXES)}), in it or in its subfolders",
        )
    return folder


def index(lib: FolderLibrary, emit: Emit | None = None) -> dict[str, Any]:
    """Index (or update) the folder; progress lands on ``lib`` (and in ``emit`` when given)."""
    from gridsight.retrieval import FileEvent, build_index

    if not lib.index_lock.acquire(blocking=False):
        raise ApiError(
            409, "indexing", f"{lib.folder} is being indexed; GET /api/v1/libraries/{lib.id} shows how far"
        )
    try:
        lib.status, lib.error, lib.files_done, lib.cells, lib.current = "indexing", None, 0, 0, None

        def tick(event: FileEvent) -> None:
            lib.files_done, lib.files_total, lib.current = event.done, event.total, event.file
            lib.cells += event.cells
            lib.updated = time.time()
            if emit is not None:
                emit(
                    "progress",
                    {
                        "file": event.file,
                        "status": event.status,
                        "reason": event.reason,
                        "files_done": event.done,
                        "files_total": event.total,
                        "cells": lib.cells,
                    },
                )

        try:
            report = build_index(lib.folder, lib.db, on_file=tick)
        except Exception as exc:
            lib.status, lib.error = "failed", str(exc)[:500]
            raise
        lib.report, lib.current, lib._library = report.to_dict(), None, None
        tables = len(lib.library().sheets)  # new and unchanged files' tables alike
        lib.report["tables_in_index"] = tables
        lib.status = "ready" if tables else "failed"
        if not tables:
            skipped = "; ".join(f"{f}: {r}" for f, r in sorted(report.skipped.items())[:5])
            lib.error = f"no table was found in the {lib.files_total} spreadsheet(s) of {lib.folder}" + (
                f" (skipped {skipped})" if skipped else ""
            )
            raise ApiError(422, "no_tables", lib.error, {"skipped": report.skipped})
        return lib.info()
    finally:
        lib.index_lock.release()


def register(api: Api) -> None:
    api.components["LibraryInfo"] = LIBRARY_INFO
    info_ref = {"$ref": "#/components/schemas/LibraryInfo"}

    @api.route(
        "/libraries",
        "POST",
        summary="Open a folder of spreadsheets: index it (incrementally) for questions across its files",
        tag="libraries",
        body=OPEN_BODY,
        ok=201,
        result=info_ref,
        errors=(400, 404, 409, 422),
        stream=True,
    )
    def open_library() -> Any:
        """With `Accept: text/event-stream` every file indexed is a `progress` event."""
        doc = body_object({"path"})
        folder = checked_folder(doc.get("path"))
        lib = libraries().open(folder, state().config.home)
        if wants_stream():
            return stream(lambda emit, _cancel: index(lib, emit))
        return jsonify(index(lib)), 201

    @api.route(
        "/libraries",
        "GET",
        summary="The folders opened as libraries",
        tag="libraries",
        result={"type": "object", "properties": {"libraries": {"type": "array", "items": info_ref}}},
    )
    def list_libraries() -> Any:
        return jsonify({"libraries": [lib.info() for lib in libraries().list()]})

    @api.route(
        "/libraries/{lid}",
        "GET",
        summary="A library's status: indexing (files done of total, cells), ready or failed",
        tag="libraries",
        result=info_ref,
        errors=(404,),
    )
    def get_library(lid: str) -> Any:
        return jsonify(libraries().get(lid).info())

    @api.route(
        "/libraries/{lid}",
        "DELETE",
        summary="Forget a library in this sidecar (its index stays on disk for next time)",
        tag="libraries",
        ok=204,
        errors=(404,),
    )
    def close_library(lid: str) -> Any:
        libraries().remove(lid)
        return Response(status=204)

    @api.route(
        "/libraries/{lid}/ask",
        "POST",
        summary="Answer a question over the folder: the answer with file/sheet/range evidence, or abstain",
        tag="libraries",
        body=ASK_BODY,
        result={"type": "object"},
        errors=(400, 404, 409),
        stream=True,
    )
    def ask_library_route(lid: str) -> Any:
        from gridsight.retrieval._answer import ask_library

        doc = body_object({"question", "model"})
        question, use_model = doc.get("question"), doc.get("model", True)
        if not isinstance(question, str) or not question.strip() or len(question) > 2000:
            raise ApiError(400, "bad_request", "`question` must be text of 1 to 2,000 characters")
        if not isinstance(use_model, bool):
            raise ApiError(400, "bad_request", "`model` must be true or false")
        lib = libraries().get(lid)
        if lib.status != "ready":
            why = f": {lib.error}" if lib.error else ""
            raise ApiError(409, "library_not_ready", f"{lib.folder} is {lib.status}{why}", lib.info())
        model = None
        if use_model and model_on_disk():
            from gridsight.llm import shared_queue

            model = shared_queue()

        def answer() -> dict[str, Any]:
            return {"answer": ask_library(lib.library(), lib.folder, question, model=model).to_dict()}

        if not wants_stream():
            return jsonify(answer())

        def work(emit: Emit, _cancel: Any) -> Any:
            emit("progress", {"stage": "find-tables"})
            return answer()

        return stream(work)

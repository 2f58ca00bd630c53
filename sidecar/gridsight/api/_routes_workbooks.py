"""Workbook sessions over HTTP: open (snapshot, chunked snapshot, file, live Excel), inspect, read."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import Response, jsonify, request

from gridsight.api._errors import ApiError
from gridsight.api._openapi import Api
from gridsight.api._sessions import Session, new_session_id
from gridsight.api._sse import Emit, stream, wants_stream
from gridsight.api._state import body_object, reject_unknown, state
from gridsight.edits import fingerprint
from gridsight.errors import FileChangedError, SnapshotError
from gridsight.grid import Range, Workbook, rc_to_a1
from gridsight.sources import load_snapshot, open_workbook
from gridsight.sources._base import source_for_path
from gridsight.sources.snapshot import SCHEMA_ID

SNAPSHOT_REF = {"$ref": "#/components/schemas/Snapshot"}
WORKBOOK_INFO = {"$ref": "#/components/schemas/WorkbookInfo"}
OPEN_BODY = {
    "type": "object",
    "description": "Exactly one of `snapshot`, `path` or `xlwings`.",
    "properties": {
        "snapshot": SNAPSHOT_REF,
        "path": {
            "type": "string",
            "description": "Absolute path of an .xlsx/.xlsm/.xls/.xlsb/.ods/.csv file",
        },
        "sheets": {"type": "array", "items": {"type": "string"}},
        "values_only": {"type": "boolean", "default": False},
        "xlwings": {
            "type": "object",
            "properties": {"book": {"type": "string"}},
            "description": "Live Excel through xlwings (Windows/macOS with Excel installed)",
        },
        "journal_key": {
            "type": "string",
            "maxLength": 256,
            "description": "Names the workbook's undo journal for snapshot sessions "
            "(default: the snapshot's workbook name)",
        },
    },
    "additionalProperties": False,
}
INFO_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "kind": {"enum": ["snapshot", "file", "xlwings"]},
        "name": {"type": ["string", "null"]},
        "path": {"type": ["string", "null"]},
        "sha256": {"type": ["string", "null"]},
        "sheets": {"type": "array", "items": {"type": "object"}},
        "date1904": {"type": "boolean"},
        "plans": {"type": "integer"},
    },
}


def _snapshot_journal_key(doc_or_chunks: Any, given: Any, wid: str) -> str:
    if isinstance(given, str) and given.strip():
        return "snapshot:" + given.strip()[:256]
    first = doc_or_chunks[0] if isinstance(doc_or_chunks, list) else doc_or_chunks
    name = (first.get("workbook") or {}).get("name") if isinstance(first, dict) else None
    return "snapshot:" + (name if isinstance(name, str) and name else wid)


def session_from_snapshot(doc: Any, journal_key: Any = None) -> Session:
    """A snapshot.v1 document (or its chunks) -> a new session."""
    wb = load_snapshot(doc)
    wid = new_session_id()
    return Session(wid, "snapshot", wb, _snapshot_journal_key(doc, journal_key, wid), name=wb.name)


def read_file(
    path: Path, sheets: Sequence[str] | None, values_only: bool, progress: Emit | None = None
) -> Workbook:
    """Read a file; xlsx reads report progress (sheet, cells so far) through ``progress``."""
    info = source_for_path(path, values_only=values_only)
    if info.name == "xlsx" and progress is not None:
        from gridsight.sources.xlsx import XlsxSource

        def tick(sheet: str, count: int) -> None:
            progress("progress", {"sheet": sheet, "cells": count})

        src = XlsxSource(path, progress=tick)
        try:
            return src.read(sheets)
        finally:
            src.close()
    return open_workbook(path, sheets=sheets, values_only=values_only)


def checked_path(path: Path, values_only: bool = False) -> Path:
    """An absolute path to a file GridSight can read (404/400/422 before any work starts)."""
    path = path.expanduser()
    if not path.is_absolute():
        raise ApiError(400, "bad_request", f"path {str(path)[:200]!r} must be absolute")
    path = path.resolve()
    source_for_path(path, values_only=values_only)  # exists, is a file, has a known type
    return path


def session_from_file(
    path: Path, sheets: Sequence[str] | None = None, values_only: bool = False, progress: Emit | None = None
) -> Session:
    """A file on disk -> a new session; the file's sha256 is taken before and after reading."""
    path = checked_path(path, values_only)
    sha = fingerprint(path)
    wb = read_file(path, sheets, values_only, progress)
    if fingerprint(path) != sha:
        raise FileChangedError(f"{path.name} changed while it was being read; try again", [])
    wid = new_session_id()
    return Session(wid, "file", wb, "file:" + str(path), name=path.name, path=path, fingerprint=sha)


def session_from_xlwings(spec: Any) -> Session:
    if importlib.util.find_spec("xlwings") is None:
        raise ApiError(
            503,
            "feature_unavailable",
            "live Excel needs xlwings (pip install 'gridsight[excel]') and Excel running on Windows or macOS",
        )
    from gridsight.sources.live_excel import LiveExcelSource

    book = spec.get("book") if isinstance(spec, dict) else None
    src = LiveExcelSource(book)
    wb = src.read()
    wid = new_session_id()
    return Session(wid, "xlwings", wb, "xlwings:" + (src.full_name or wid), name=wb.name, source=src)


_LETTERS = ("e", "n", "s", "b", "d", "x")  # by Kind value


def _range_payload(wb: Workbook, ref: str, sheet_name: str | None, cap: int) -> dict[str, Any]:
    rng = Range.parse(ref)
    sheet = wb.sheet(rng.sheet or sheet_name or 0)
    if rng.is_whole_columns or rng.is_whole_rows:
        used = sheet.used_range
        if used is None:
            rng = Range(rng.top, rng.left, rng.top, rng.left)
        else:
            clipped = rng.intersect(used.with_sheet(None))
            rng = clipped if clipped is not None else Range(rng.top, rng.left, rng.top, rng.left)
    if rng.size > cap:
        raise ApiError(
            413, "range_too_large", f"{rng.ref()} has {rng.size:,} cells; read at most {cap:,} per request"
        )
    h, w = rng.height, rng.width
    values: list[list[Any]] = [[None] * w for _ in range(h)]
    letters = [["e"] * w for _ in range(h)]
    formulas: dict[str, str] = {}
    formats: dict[str, str] = {}
    r0, c0 = sheet.origin
    sh, sw = sheet.shape
    t, b = max(rng.top, r0), min(rng.bottom, r0 + sh - 1)
    left, right = max(rng.left, c0), min(rng.right, c0 + sw - 1)
    if t <= b and left <= right:  # the part of the range inside the sheet's arrays, read as slices
        win = (slice(t - r0, b - r0 + 1), slice(left - c0, right - c0 + 1))
        kinds = sheet.kinds[win].tolist()
        nums = sheet.numbers[win].tolist()
        tids = sheet.text_ids[win].tolist()
        fids = sheet.formula_ids[win].tolist()
        fmts = sheet.format_ids[win].tolist()
        for i, krow in enumerate(kinds):
            r = t + i
            out_row, out_letters = values[r - rng.top], letters[r - rng.top]
            for j, k in enumerate(krow):
                c = left + j
                jj = c - rng.left
                if k:
                    out_letters[jj] = _LETTERS[k]
                    if k in (1, 4):
                        x = nums[i][j]
                        out_row[jj] = int(x) if x.is_integer() and abs(x) < 2**53 else x
                    elif k == 3:
                        out_row[jj] = bool(nums[i][j])
                    else:
                        out_row[jj] = sheet.texts[tids[i][j]]
                if fids[i][j] >= 0:
                    formulas[rc_to_a1(r, c)] = sheet.formulas[fids[i][j]]
                if fmts[i][j]:
                    formats[rc_to_a1(r, c)] = sheet.number_formats[fmts[i][j]]
    types = ["".join(row) for row in letters]
    return {
        "sheet": sheet.name,
        "range": rng.ref(),
        "values": values,
        "types": types,
        "formulas": formulas,
        "number_formats": formats,
    }


def register(api: Api) -> None:
    api.components["WorkbookInfo"] = INFO_SCHEMA

    @api.route(
        "/workbooks",
        "POST",
        summary="Open a workbook session from a snapshot, a file, or live Excel",
        tag="workbooks",
        body=OPEN_BODY,
        ok=201,
        result=WORKBOOK_INFO,
        errors=(400, 404, 409, 413, 422, 503),
        stream=True,
    )
    def open_workbook_session() -> Any:
        """Send `Accept: text/event-stream` with a `path` to get reading progress as Server-Sent Events."""
        doc = body_object()
        st = state()
        given = [k for k in ("snapshot", "path", "xlwings") if k in doc]
        if len(given) != 1:
            raise ApiError(400, "bad_request", "give exactly one of `snapshot`, `path` or `xlwings`")
        reject_unknown(doc, OPEN_BODY["properties"])  # type: ignore[arg-type]
        sheets = doc.get("sheets")
        if sheets is not None and (
            not isinstance(sheets, list) or not all(isinstance(s, str) for s in sheets)
        ):
            raise ApiError(400, "bad_request", "`sheets` must be a list of sheet names")
        if given[0] == "snapshot":
            snap = doc["snapshot"]
            if isinstance(snap, dict) and snap.get("chunk") is not None:
                raise SnapshotError("a chunk goes to POST /api/v1/workbooks/chunks, not here")
            session = session_from_snapshot(snap, doc.get("journal_key"))
        elif given[0] == "xlwings":
            session = session_from_xlwings(doc["xlwings"])
        else:
            raw = doc["path"]
            if not isinstance(raw, str) or not raw:
                raise ApiError(400, "bad_request", "`path` must be a file path")
            values_only = bool(doc.get("values_only", False))
            if wants_stream():
                checked_path(Path(raw), values_only)  # plain HTTP errors for what is wrong up front

                def work(emit: Emit, _cancel: Any) -> Any:
                    s = session_from_file(Path(raw), sheets, values_only, emit)
                    st.sessions.add(s)
                    return s.info()

                return stream(work)
            session = session_from_file(Path(raw), sheets, values_only)
        st.sessions.add(session)
        return jsonify(session.info()), 201

    @api.route(
        "/workbooks/chunks",
        "POST",
        summary="Upload one chunk of a chunked snapshot.v1",
        tag="workbooks",
        body=SNAPSHOT_REF,
        ok=201,
        result=WORKBOOK_INFO,
        errors=(400, 409, 413, 422),
        description="Each chunk is a whole snapshot.v1 document with `chunk: {id, index, count}`. Answers "
        "202 with {upload, received, count} until the last chunk, then 201 with the new workbook.",
    )
    def upload_chunk() -> Any:
        doc = body_object()
        st = state()
        if doc.get("schema") != SCHEMA_ID:
            raise SnapshotError(f"a chunk must be a snapshot.v1 document (schema {SCHEMA_ID!r})")
        from gridsight.sources.snapshot import validate_snapshot

        validate_snapshot(doc)  # structure now; cells when all chunks are here
        uid, got, count, chunks = st.uploads.add(doc, len(request.get_data(cache=True)))
        if chunks is None:
            return jsonify({"upload": uid, "received": got, "count": count}), 202
        session = session_from_snapshot(chunks, request.args.get("journal_key"))
        st.sessions.add(session)
        return jsonify(session.info()), 201

    @api.route(
        "/workbooks",
        "GET",
        summary="List open workbook sessions",
        tag="workbooks",
        result={"type": "object", "properties": {"workbooks": {"type": "array", "items": WORKBOOK_INFO}}},
    )
    def list_workbooks() -> Any:
        return jsonify({"workbooks": [s.info() for s in state().sessions.list()]})

    @api.route(
        "/workbooks/{wid}",
        "GET",
        summary="Describe an open workbook",
        tag="workbooks",
        result=WORKBOOK_INFO,
        errors=(404,),
    )
    def get_workbook(wid: str) -> Any:
        return jsonify(state().sessions.get(wid).info())

    @api.route(
        "/workbooks/{wid}",
        "DELETE",
        summary="Close a workbook session (its undo journal stays)",
        tag="workbooks",
        ok=204,
        errors=(404,),
    )
    def close_workbook(wid: str) -> Any:
        state().sessions.remove(wid)
        return Response(status=204)

    @api.route(
        "/workbooks/{wid}/reload",
        "POST",
        summary="Re-read a file session from disk",
        tag="workbooks",
        result=WORKBOOK_INFO,
        errors=(404, 409, 422),
    )
    def reload_workbook(wid: str) -> Any:
        """After `file_changed`: read the file again (open plans are dropped: they expected old content)."""
        s = state().sessions.get(wid)
        if s.kind != "file" or s.path is None:
            raise ApiError(
                409, "not_a_file", "only file sessions can be reloaded; send a new snapshot instead"
            )
        with s.lock:
            fresh = session_from_file(s.path)
            s.workbook, s.fingerprint = fresh.workbook, fresh.fingerprint
            s.plans.clear()
            s.previews.clear()
        return jsonify(s.info())

    @api.route(
        "/workbooks/{wid}/range",
        "GET",
        summary="Read a range: values, types, formulas, number formats",
        tag="workbooks",
        errors=(400, 404, 413),
        query=(
            ("ref", "A1 range, optionally with its sheet: 'Sales 2024'!A1:F16", True),
            ("sheet", "Sheet for a ref without one (default: the first sheet)", False),
        ),
        result={
            "type": "object",
            "properties": {
                "sheet": {"type": "string"},
                "range": {"type": "string"},
                "values": {"type": "array", "items": {"type": "array"}},
                "types": {"type": "array", "items": {"type": "string"}},
                "formulas": {"type": "object"},
                "number_formats": {"type": "object"},
            },
        },
    )
    def read_range(wid: str) -> Any:
        """Dates come as Excel serial numbers with type `d`, as in snapshot.v1."""
        s = state().sessions.get(wid)
        ref = request.args.get("ref")
        if not ref:
            raise ApiError(400, "bad_request", "give the range as ?ref=A1:C10 (or ?ref='My Sheet'!A1:C10)")
        return jsonify(
            _range_payload(s.workbook, ref, request.args.get("sheet"), state().config.max_range_cells)
        )

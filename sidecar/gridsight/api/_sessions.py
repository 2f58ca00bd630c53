"""Workbook sessions: an open workbook (from a snapshot, a file or live Excel) and its edit plans.

A session holds the in-memory model the engine reads, where it came from (to apply edits back),
and a lock so two requests never apply plans to one workbook at once. Sessions live in memory;
what must survive a restart (the undo journal) lives on disk, keyed by the workbook, not the session.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridsight.api._errors import ApiError
from gridsight.edits import EditPlan, Preview
from gridsight.grid import Workbook

#: Plans kept per session (oldest dropped first).
MAX_PLANS = 256
#: Seconds an incomplete chunked upload is kept.
UPLOAD_TTL_S = 600.0


@dataclass
class Session:
    id: str
    kind: str  # "snapshot" | "file" | "xlwings"
    workbook: Workbook
    journal_key: str
    name: str | None = None
    path: Path | None = None
    fingerprint: str | None = None
    source: Any = None
    created: float = field(default_factory=time.time)
    last_used: float = field(default_factory=time.time)
    plans: OrderedDict[str, EditPlan] = field(default_factory=OrderedDict)
    previews: dict[str, Preview] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "path": str(self.path) if self.path else None,
            "sha256": self.fingerprint,
            "sheets": [
                {
                    "name": s.name,
                    "used_range": s.used_range.ref() if s.used_range else None,
                    "values": s.n_values,
                    "formulas": s.n_formulas,
                    "merges": len(s.merges),
                }
                for s in self.workbook.sheets
            ],
            "date1904": self.workbook.date1904,
            "plans": len(self.plans),
        }

    def add_plan(self, plan: EditPlan) -> None:
        self.plans[plan.id] = plan
        while len(self.plans) > MAX_PLANS:
            old, _ = self.plans.popitem(last=False)
            self.previews.pop(old, None)

    def plan(self, pid: str) -> EditPlan:
        try:
            return self.plans[pid]
        except KeyError:
            raise ApiError(404, "unknown_plan", f"workbook {self.id} has no edit plan {pid!r}") from None


def new_session_id() -> str:
    return "wb_" + secrets.token_urlsafe(9)


class SessionStore:
    """Open sessions, least recently used evicted past ``max_sessions``."""

    def __init__(self, max_sessions: int = 32) -> None:
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> Session:
        with self._lock:
            self._sessions[session.id] = session
            while len(self._sessions) > self.max_sessions:
                _, old = self._sessions.popitem(last=False)
                _close_source(old)
        warm_soon(session.workbook)
        return session

    def get(self, wid: str) -> Session:
        with self._lock:
            s = self._sessions.get(wid)
            if s is None:
                raise ApiError(
                    404,
                    "unknown_workbook",
                    f"no open workbook with id {wid[:80]!r}; open it again (POST /api/v1/workbooks)",
                )
            self._sessions.move_to_end(wid)
            s.last_used = time.time()
            return s

    def remove(self, wid: str) -> Session:
        with self._lock:
            s = self._sessions.pop(wid, None)
        if s is None:
            raise ApiError(404, "unknown_workbook", f"no open workbook with id {wid[:80]!r}")
        _close_source(s)
        return s

    def list(self) -> list[Session]:
        with self._lock:
            return list(self._sessions.values())

    def __len__(self) -> int:
        return len(self._sessions)


def _close_source(s: Session) -> None:
    if s.source is not None and hasattr(s.source, "close"):
        with contextlib.suppress(Exception):  # closing must never fail a request
            s.source.close()


@dataclass
class _Upload:
    count: int
    chunks: dict[int, dict[str, Any]] = field(default_factory=dict)
    nbytes: int = 0
    started: float = field(default_factory=time.time)


class ChunkUploads:
    """Chunks of snapshot.v1 documents (each carries ``chunk: {id, index, count}``) until complete."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._pending: dict[str, _Upload] = {}
        self._lock = threading.Lock()

    def _expire(self, now: float) -> None:
        for uid in [u for u, up in self._pending.items() if now - up.started > UPLOAD_TTL_S]:
            del self._pending[uid]

    def add(self, doc: dict[str, Any], nbytes: int) -> tuple[str, int, int, list[dict[str, Any]] | None]:
        """Store one chunk. Returns (upload id, received, count, all chunks when complete else None)."""
        chunk = doc.get("chunk")
        if not isinstance(chunk, dict):
            raise ApiError(400, "bad_chunk", "a chunk needs `chunk: {id, index, count}`")
        uid, index, count = chunk.get("id"), chunk.get("index"), chunk.get("count")
        if not isinstance(uid, str) or not uid or len(uid) > 128:
            raise ApiError(400, "bad_chunk", "chunk.id must be a non-empty string of at most 128 characters")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 100_000:
            raise ApiError(400, "bad_chunk", "chunk.count must be an integer from 1 to 100,000")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise ApiError(400, "bad_chunk", f"chunk.index must be an integer from 0 to {count - 1}")
        with self._lock:
            now = time.time()
            self._expire(now)
            up = self._pending.get(uid)
            if up is None:
                up = self._pending[uid] = _Upload(count)
            if up.count != count:
                raise ApiError(
                    409, "bad_chunk", f"upload {uid!r} was started with count {up.count}, not {count}"
                )
            if index in up.chunks:
                raise ApiError(
                    409, "duplicate_chunk", f"chunk {index} of upload {uid!r} was already received"
                )
            total = sum(u.nbytes for u in self._pending.values()) + nbytes
            if total > self.max_bytes:
                raise ApiError(
                    413,
                    "too_large",
                    f"pending uploads would exceed {self.max_bytes:,} bytes; "
                    "send fewer cells or finish other uploads first",
                )
            up.chunks[index] = doc
            up.nbytes += nbytes
            if len(up.chunks) < up.count:
                return uid, len(up.chunks), up.count, None
            del self._pending[uid]
            return uid, up.count, up.count, [up.chunks[i] for i in range(up.count)]

    def discard(self, uid: str) -> None:
        with self._lock:
            self._pending.pop(uid, None)


def warm_soon(workbook: Workbook) -> threading.Thread | None:
    """Prepare a newly opened workbook for its first question in the background
    (:func:`gridsight.qa._warm.warm`), when the model is already loaded; nothing is loaded for it."""
    from gridsight.llm._queue import loaded_queue

    queue = loaded_queue()
    if queue is None:
        return None

    def run() -> None:
        from gridsight.qa._warm import warm

        with contextlib.suppress(Exception):  # a warm-up that fails costs the first question, nothing else
            warm(workbook, queue)

    thread = threading.Thread(target=run, name="gridsight-warm", daemon=True)
    thread.start()
    return thread

"""The undo journal: per workbook, on disk, so an undo still works after the sidecar restarts.

One JSON file per workbook key (a file's resolved path, or the name an add-in session gives) in
``<data dir>/journal/``. Each applied plan pushes an entry holding every cell's content before and
after; undo pops the newest. Files are rewritten atomically (temp + rename) so a crash never leaves a
half-written journal, and the ids of every plan ever applied are kept so a replayed plan is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from gridsight.errors import GridSightError, NothingToUndoError

#: Entries kept per workbook; older ones fall off the bottom of the stack.
MAX_ENTRIES = 100
#: Applied plan ids remembered per workbook (replay protection).
MAX_APPLIED_IDS = 10_000


class Journal:
    """Undo stacks for many workbooks, stored under one folder. Thread-safe within a process."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._lock = threading.RLock()

    def _file(self, key: str) -> Path:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
        return self.folder / f"{digest}.json"

    def _read(self, key: str) -> dict[str, Any]:
        path = self._file(key)
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {"key": key, "entries": [], "applied": []}
        except (OSError, ValueError) as exc:
            raise GridSightError(f"the undo journal {path} is unreadable ({exc}); move it aside") from None
        if not isinstance(doc, dict) or doc.get("key") != key:
            raise GridSightError(f"the undo journal {path} belongs to another workbook; move it aside")
        doc.setdefault("entries", [])
        doc.setdefault("applied", [])
        return doc

    def _write(self, key: str, doc: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._file(key)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            json.dump(doc, fh, separators=(",", ":"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)

    def push(self, key: str, entry: dict[str, Any]) -> None:
        """Record an applied plan (``entry`` needs an ``id``)."""
        with self._lock:
            doc = self._read(key)
            entry = {**entry, "applied_at": entry.get("applied_at", time.time())}
            doc["entries"] = [*doc["entries"], entry][-MAX_ENTRIES:]
            doc["applied"] = [*doc["applied"], entry["id"]][-MAX_APPLIED_IDS:]
            self._write(key, doc)

    def peek(self, key: str) -> dict[str, Any]:
        """The newest entry; NothingToUndoError when there is none."""
        with self._lock:
            entries = self._read(key)["entries"]
            if not entries:
                raise NothingToUndoError(
                    "nothing to undo: no applied edit plan is recorded for this workbook"
                )
            return entries[-1]

    def pop(self, key: str, entry_id: str) -> None:
        """Drop the newest entry, which must be ``entry_id`` (guards against two undos racing)."""
        with self._lock:
            doc = self._read(key)
            if not doc["entries"] or doc["entries"][-1]["id"] != entry_id:
                raise NothingToUndoError(f"the journal's newest entry is no longer {entry_id}")
            doc["entries"] = doc["entries"][:-1]
            self._write(key, doc)

    def entries(self, key: str) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._read(key)["entries"])

    def was_applied(self, key: str, plan_id: str) -> bool:
        with self._lock:
            return plan_id in self._read(key)["applied"]

    def lock(self) -> threading.RLock:
        """Held across check-then-write sequences (apply, undo) on one workbook."""
        return self._lock

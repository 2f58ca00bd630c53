"""`build_index`: every sheet of every spreadsheet under a folder -> detected tables -> cards -> lancedb.

Incremental: a file whose sha256 matches the index is skipped; a changed file's rows are replaced;
a file no longer in the folder is removed. A file that cannot be read (corrupt, password-protected,
not a spreadsheet) is recorded as skipped with its reason and never stops the run; a file that
changes while it is read is read again once, then skipped with that reason.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridsight.retrieval._cards import ColumnCard, SheetCard, cards_of
from gridsight.retrieval._store import LOCK_FILE, Store

#: Files the index reads.
SUFFIXES = (".xlsx", ".xlsm", ".csv")
#: Files read before the cards are written in one batch (fewer, larger lancedb fragments).
BATCH_FILES = 64
#: Seconds to wait for another writer of the same index.
LOCK_WAIT = 600.0


@dataclass
class FileEvent:
    """What happened to one file (for the progress bar and the report)."""

    file: str
    status: str  # indexed | unchanged | skipped | removed
    reason: str | None = None
    tables: int = 0
    cells: int = 0
    done: int = 0  # files handled so far
    total: int = 0


@dataclass
class IndexReport:
    """The outcome of one indexing run."""

    folder: str
    db: str
    indexed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # file -> reason
    tables: int = 0
    columns: int = 0
    cells: int = 0
    seconds: float = 0.0
    size_bytes: int = 0
    rebuilt: bool = False  # an index of another version was dropped

    def to_dict(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "db": self.db,
            "indexed": self.indexed,
            "unchanged": len(self.unchanged),
            "removed": self.removed,
            "skipped": self.skipped,
            "tables": self.tables,
            "columns": self.columns,
            "cells": self.cells,
            "seconds": round(self.seconds, 3),
            "size_bytes": self.size_bytes,
            "rebuilt": self.rebuilt,
        }


def default_db(folder: Path, home: Path | None = None) -> Path:
    """Where a folder's index lives when no --db is given: ``home`` (default: the user's data folder)
    / indexes, one per folder path (the spreadsheet folder itself may be read-only or shared)."""
    from gridsight.paths import data_dir

    key = hashlib.sha256(str(folder.resolve()).encode("utf-8")).hexdigest()[:16]
    return (home or data_dir()) / "indexes" / f"{folder.resolve().name or 'root'}-{key}"


def spreadsheet_files(folder: Path, skip: Path | None = None) -> list[Path]:
    """Spreadsheets under ``folder`` (sorted; hidden folders, Office lock files ``~$x.xlsx`` and the
    index folder itself left out)."""
    out = []
    skip_resolved = skip.resolve() if skip is not None else None
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or p.name.startswith("~$"):
            continue
        if skip_resolved is not None and skip_resolved in p.resolve().parents:
            continue
        if p.suffix.lower() in SUFFIXES and p.is_file():
            out.append(p)
    return out


def file_hash(path: Path) -> str:
    """sha256 of the file's bytes: what "unchanged" means to the index."""
    from gridsight.llm._locate import sha256_file

    return sha256_file(path)


def _read(path: Path, rel: str) -> tuple[list[tuple[SheetCard, list[ColumnCard]]], int]:
    """The cards of every table in the file and its cell count (raises on unreadable files)."""
    from gridsight.detect import detect_tables
    from gridsight.sources import open_workbook

    wb = open_workbook(path, values_only=path.suffix.lower() != ".csv")
    cards: list[tuple[SheetCard, list[ColumnCard]]] = []
    cells = 0
    for sheet in wb.sheets:
        used = sheet.used_range
        if used is None:
            continue
        cells += used.size
        cards.extend(cards_of(sheet, list(detect_tables(sheet).tables), rel))
    return cards, cells


def _embed_unique(embedder: Any, texts: list[str]) -> Any:
    """Vectors of ``texts``, each distinct text embedded once (headers such as 'Year' repeat a lot)."""
    import numpy as np

    unique = list(dict.fromkeys(texts))
    at = {t: i for i, t in enumerate(unique)}
    vectors = np.asarray(embedder.embed(unique), dtype=np.float32)
    return vectors[[at[t] for t in texts]] if texts else vectors


def _reason(exc: BaseException) -> str:
    from gridsight.errors import GridSightError

    if isinstance(exc, GridSightError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"[:300]


def build_index(
    folder: Path,
    db: Path | None = None,
    *,
    embedder: Any = None,
    on_file: Callable[[FileEvent], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> IndexReport:
    """Index every spreadsheet under ``folder`` into the lancedb folder ``db``.

    Args:
        folder: the folder to index (read only; subfolders included).
        db: the index folder (default: :func:`default_db`).
        embedder: anything with ``embed(texts) -> (n, 384) array`` and ``name`` (default: the shared
            MiniLM embedder).
        on_file: called after each file with what happened to it (progress).
        clock: seconds, for the report's timing.

    Returns:
        An :class:`IndexReport` (files indexed, unchanged, removed, skipped with reasons; sizes).
    """
    from filelock import FileLock, Timeout

    from gridsight.errors import SourceNotFoundError
    from gridsight.retrieval._store import IndexError_

    if not folder.is_dir():
        raise SourceNotFoundError(f"folder {folder} does not exist")
    db = db or default_db(folder)
    if embedder is None:
        from gridsight.llm.embeddings import shared_embedder

        embedder = shared_embedder()
    start = clock()
    db.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(db / LOCK_FILE))
    try:
        lock.acquire(timeout=LOCK_WAIT)
    except Timeout:
        raise IndexError_(f"another process is writing the index {db}; try again later") from None
    try:
        store = Store(db, embedder.name)
        report = IndexReport(str(folder), str(db), rebuilt=store.rebuilt)
        known = store.files()
        paths = spreadsheet_files(folder, skip=db)
        rels = {p.relative_to(folder).as_posix(): p for p in paths}
        gone = sorted(set(known) - set(rels))
        if gone:
            store.remove_files(gone)
            report.removed = gone
        pending: list[tuple[str, dict[str, Any], list[tuple[SheetCard, list[ColumnCard]]]]] = []
        changed = False

        def flush() -> None:
            nonlocal changed
            if not pending:
                return
            replace = [rel for rel, *_ in pending if rel in known]
            if replace:
                store.remove_files(replace)
            sheet_cards = [s for _, _, cards in pending for s, _ in cards]
            col_cards = [(c, s.file) for _, _, cards in pending for s, cols in cards for c in cols]
            texts = [s.description for s in sheet_cards] + [s.content for s in sheet_cards]
            texts += [c.text for c, _ in col_cards]
            vectors = _embed_unique(embedder, texts + [c.header for c, _ in col_cards])
            n, m = len(sheet_cards), len(texts)
            card_vecs, head_vecs = vectors[2 * n : m], vectors[m:]
            store.add(
                [row for _, row, _ in pending],
                list(zip(sheet_cards, vectors[:n], vectors[n : 2 * n], strict=True)),
                [(c, f, v, h) for (c, f), v, h in zip(col_cards, card_vecs, head_vecs, strict=True)],
            )
            report.tables += len(sheet_cards)
            report.columns += len(col_cards)
            pending.clear()
            changed = True

        for done, (rel, path) in enumerate(rels.items(), 1):
            event = FileEvent(rel, "indexed", done=done, total=len(rels))
            try:
                size = path.stat().st_size
                digest = file_hash(path)
            except OSError as exc:
                digest, size, event.status, event.reason = "", 0, "skipped", f"cannot read: {exc}"
            old = known.get(rel)
            if event.status != "skipped" and old is not None and old["sha256"] == digest:
                event.status = "skipped" if old["status"] == "skipped" else "unchanged"
                event.reason = old["reason"] or None if old["status"] == "skipped" else None
                event.tables, event.cells = int(old["tables"] or 0), int(old["cells"] or 0)
                report.unchanged.append(rel)
            elif event.status != "skipped":
                cards, cells, reason, digest = _read_stable(path, rel, digest)
                event.tables, event.cells = len(cards), cells
                if reason is not None:
                    event.status, event.reason = "skipped", reason
                row = {
                    "file": rel,
                    "sha256": digest,
                    "size": size,
                    "status": event.status,
                    "reason": event.reason or "",
                    "tables": len(cards),
                    "cells": cells,
                }
                pending.append((rel, row, cards))
                if reason is None:
                    report.indexed.append(rel)
                if len(pending) >= BATCH_FILES:
                    flush()
            if event.status == "skipped":
                report.skipped[rel] = event.reason or "unreadable"
            report.cells += event.cells
            if on_file is not None:
                on_file(event)
        flush()
        if changed or gone or report.rebuilt:
            store.finish()
        report.size_bytes = store.size_bytes()
        report.seconds = clock() - start
        return report
    finally:
        lock.release()


def _read_stable(path: Path, rel: str, digest: str) -> tuple[list[Any], int, str | None, str]:
    """The file's cards when it reads and stays the same while read (one retry), else the reason."""
    for _attempt in range(2):
        try:
            cards, cells = _read(path, rel)
        except Exception as exc:  # any reader failure is this file's problem, reported, not raised
            return [], 0, _reason(exc), digest
        try:
            after = file_hash(path)
        except OSError as exc:
            return [], 0, f"cannot read: {exc}", digest
        if after == digest:
            return cards, cells, None, digest
        digest = after
    return [], 0, "the file changed while it was being indexed; index again when it is saved", ""

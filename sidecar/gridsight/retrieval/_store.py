"""The index on disk: a lancedb folder with three tables and a version file.

- ``files``: every file seen (relative path, sha256, size, status ``indexed`` or ``skipped``, reason).
- ``sheets``: one row per detected table (its sheet card) with the card's vector, the vector of its
  content (headers and first rows) and its terms (the stems of its value words, read into memory for
  the rare-word search).
- ``columns``: one row per column card with its vector and two full-text fields (header words,
  most frequent values).

``index.json`` holds the index format version and the embedding model's name; an index written by
another version (or another embedder) is dropped and rebuilt, never read. One writer at a time:
writers hold ``.lock`` (:mod:`filelock`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from gridsight.errors import GridSightError
from gridsight.retrieval._cards import ColumnCard, SheetCard

#: Bump when cards, fields or their meaning change: an older index is rebuilt.
INDEX_VERSION = 5
VERSION_FILE = "index.json"
LOCK_FILE = ".lock"
FILES, SHEETS, COLUMNS = "files", "sheets", "columns"
DIMENSIONS = 384
#: Full-text indexed fields, by table.
FTS_FIELDS = {SHEETS: ("description", "values_text"), COLUMNS: ("header_text", "values_text")}


class IndexError_(GridSightError):
    """The index folder cannot be used (not a GridSight index, unreadable, locked too long)."""


def _quiet() -> None:
    logging.getLogger("lancedb").setLevel(logging.ERROR)
    os.environ.setdefault("LANCE_LOG", "error")
    os.environ.setdefault("RUST_LOG", "error")


def _schemas() -> dict[str, Any]:
    import pyarrow as pa

    vec = pa.list_(pa.float32(), DIMENSIONS)
    return {
        FILES: pa.schema(
            [
                ("file", pa.string()),
                ("sha256", pa.string()),
                ("size", pa.int64()),
                ("status", pa.string()),
                ("reason", pa.string()),
                ("tables", pa.int32()),
                ("cells", pa.int64()),
            ]
        ),
        SHEETS: pa.schema(
            [
                ("table_id", pa.string()),
                ("file", pa.string()),
                ("sheet", pa.string()),
                ("range", pa.string()),
                ("title", pa.string()),
                ("rows", pa.int64()),
                ("columns", pa.string()),  # JSON list of column names
                ("description", pa.string()),
                ("values_text", pa.string()),
                ("terms", pa.string()),  # its value words as terms (retrieval._terms)
                ("content", pa.string()),  # its headers and first rows (retrieval._cards.content_text)
                ("vector", vec),
                ("content_vector", vec),
            ]
        ),
        COLUMNS: pa.schema(
            [
                ("table_id", pa.string()),
                ("file", pa.string()),
                ("column", pa.string()),
                ("kind", pa.string()),
                ("unit", pa.string()),
                ("samples", pa.string()),  # JSON list
                ("low", pa.string()),
                ("high", pa.string()),
                ("distinct", pa.int64()),
                ("null_share", pa.float32()),
                ("date_format", pa.string()),
                ("text", pa.string()),
                ("header", pa.string()),
                ("header_text", pa.string()),
                ("values_text", pa.string()),
                ("vector", vec),
                ("header_vector", vec),
            ]
        ),
    }


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class Store:
    """An opened index folder (created when missing)."""

    def __init__(self, path: Path, embedder_name: str, *, create: bool = True) -> None:
        _quiet()
        import lancedb

        self.path = path
        self.rebuilt = False
        if create:
            path.mkdir(parents=True, exist_ok=True)
        elif not (path / VERSION_FILE).is_file():
            raise IndexError_(f"{path} holds no GridSight index (run: gridsight index FOLDER --db {path})")
        try:
            self.db = lancedb.connect(str(path))
        except Exception as exc:  # lancedb raises its own error types for a bad folder
            raise IndexError_(f"cannot open the index {path}: {exc}") from None
        meta = self._meta()
        want = {"version": INDEX_VERSION, "embedder": embedder_name}
        names = set(self._names())
        if meta is None or any(meta.get(k) != v for k, v in want.items()):
            if not create:
                raise IndexError_(f"the index {path} was written by another version; re-index the folder")
            self.rebuilt = bool(names) or meta is not None
            for name in names:
                self.db.drop_table(name)
            names = set()
        for name, schema in _schemas().items():
            if name not in names:
                self.db.create_table(name, schema=schema)
        if meta != want and create:
            (path / VERSION_FILE).write_text(json.dumps(want) + "\n", encoding="utf-8")
        try:
            self.tables = {name: self._open(name) for name in _schemas()}
        except Exception as exc:  # lancedb's own errors: a damaged or half-deleted table
            if not create:
                raise IndexError_(
                    f"the index {path} is damaged ({type(exc).__name__}); index the folder again"
                ) from None
            self.rebuilt = True  # a writer starts again from nothing rather than fail
            for name in _schemas():
                shutil.rmtree(path / f"{name}.lance", ignore_errors=True)
            self.tables = {
                name: self.db.create_table(name, schema=s, mode="overwrite") for name, s in _schemas().items()
            }

    def _open(self, name: str) -> Any:
        table = self.db.open_table(name)
        table.count_rows()  # reads the manifest: a damaged table fails here, not in the middle of a run
        return table

    def _names(self) -> list[str]:
        listing = self.db.list_tables() if hasattr(self.db, "list_tables") else self.db.table_names()
        return list(getattr(listing, "tables", listing))

    def _meta(self) -> dict[str, Any] | None:
        try:
            meta = json.loads((self.path / VERSION_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return meta if isinstance(meta, dict) else None

    # -- reading ------------------------------------------------------------------------------------
    def files(self) -> dict[str, dict[str, Any]]:
        """Every file row, by relative path."""
        rows = self.tables[FILES].to_arrow().to_pylist()
        return {r["file"]: r for r in rows}

    def sheets(self) -> list[dict[str, Any]]:
        cols = ["table_id", "file", "sheet", "range", "title", "rows", "columns", "description"]
        return self.tables[SHEETS].to_arrow().select(cols).to_pylist()

    def terms(self) -> dict[str, str]:
        """Every table's terms, by table id."""
        rows = self.tables[SHEETS].to_arrow().select(["table_id", "terms"]).to_pylist()
        return {r["table_id"]: r["terms"] or "" for r in rows}

    def count(self, name: str) -> int:
        return int(self.tables[name].count_rows())

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.rglob("*") if p.is_file())

    # -- writing ------------------------------------------------------------------------------------
    def remove_files(self, files: Iterable[str]) -> None:
        """Drop every row of these files from all three tables."""
        files = list(files)
        for start in range(0, len(files), 200):
            chunk = files[start : start + 200]
            where = "file IN (" + ", ".join(_quote(f) for f in chunk) + ")"
            for table in self.tables.values():
                table.delete(where)

    def add(
        self,
        file_rows: Sequence[dict[str, Any]],
        sheets: Sequence[tuple[SheetCard, np.ndarray, np.ndarray]],
        columns: Sequence[tuple[ColumnCard, str, np.ndarray, np.ndarray]],
    ) -> None:
        """Append file rows, sheet cards (card, card vector, content vector) and column cards (card, file,
        card vector, header vector)."""
        if file_rows:
            self.tables[FILES].add(list(file_rows))
        if sheets:
            rows = []
            for card, vec, content in sheets:
                row = asdict(card)
                row["columns"] = json.dumps(list(card.columns), ensure_ascii=False)
                row["vector"] = vec.astype(np.float32).tolist()
                row["content_vector"] = content.astype(np.float32).tolist()
                rows.append(row)
            self.tables[SHEETS].add(rows)
        if columns:
            rows = []
            for col_card, file, vec, head in columns:
                row = asdict(col_card)
                row["file"] = file
                row["samples"] = json.dumps(list(col_card.samples), ensure_ascii=False)
                row["vector"] = vec.astype(np.float32).tolist()
                row["header_vector"] = head.astype(np.float32).tolist()
                rows.append(row)
            self.tables[COLUMNS].add(rows)

    def finish(self) -> None:
        """Rebuild the full-text indexes and compact the tables after a change."""
        from lancedb.index import FTS

        for name, fields in FTS_FIELDS.items():
            table = self.tables[name]
            for f in fields:
                if table.count_rows():
                    table.create_index(f, config=FTS(), replace=True)
        for table in self.tables.values():
            with contextlib.suppress(Exception):  # compaction is an optimisation; the index stays valid
                table.optimize()

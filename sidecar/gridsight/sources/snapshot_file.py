"""A snapshot.v1 document saved as a .json file (what `gridsight` receives from the add-in)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from gridsight.errors import ResourceLimitError, SnapshotError
from gridsight.grid import Workbook
from gridsight.sources.snapshot import load_snapshot

MAX_JSON_BYTES = 512 * 1024**2


class SnapshotFileSource:
    name = "snapshot"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def read(self, sheets: Sequence[str] | None = None) -> Workbook:
        size = self.path.stat().st_size
        if size > MAX_JSON_BYTES:
            raise ResourceLimitError(f"{self.path.name} is {size / 1024**2:.0f} MB; the limit is 512 MB")
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SnapshotError(f"{self.path.name} is not valid JSON ({exc})") from None
        wb = load_snapshot(doc, sheets)
        if wb.name is None:
            wb = Workbook(wb.sheets, name=self.path.name, date1904=wb.date1904, tables=wb.tables)
        return wb

    def close(self) -> None:
        pass

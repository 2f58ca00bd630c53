"""A Source over an in-memory Workbook: a test double that ships with the package."""

from __future__ import annotations

from collections.abc import Sequence

from gridsight.errors import UnknownSheetError
from gridsight.grid import Workbook


class MemorySource:
    """Serves a Workbook already in memory (tests, the demo, orchestration code)."""

    name = "memory"

    def __init__(self, workbook: Workbook) -> None:
        self.workbook = workbook

    def read(self, sheets: Sequence[str] | None = None) -> Workbook:
        if sheets is None:
            return self.workbook
        try:
            chosen = [self.workbook.sheet(s) for s in sheets]
        except UnknownSheetError:
            raise
        return Workbook(
            chosen, name=self.workbook.name, date1904=self.workbook.date1904, tables=self.workbook.tables
        )

    def close(self) -> None:
        pass

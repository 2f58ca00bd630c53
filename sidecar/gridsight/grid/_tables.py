"""Excel tables (ListObjects): named ranges with named columns, as formulas see them.

Structured references (``=SUM(Sales[Amount])``) resolve through these. They come from the file's
table parts (``xl/tables/tableN.xml``) or from the add-in's snapshot; detection never invents them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridsight.grid._range import Range


@dataclass(frozen=True)
class ExcelTable:
    """One Excel table: its name, sheet, whole range (header and totals included) and columns."""

    name: str
    sheet: str
    ref: Range
    columns: tuple[str, ...]
    header_rows: int = 1
    totals_rows: int = 0

    def rows(self, part: str) -> tuple[int, int] | None:
        """First and last row of ``'#All' | '#Data' | '#Headers' | '#Totals'`` (None when absent)."""
        top, bottom = self.ref.top, self.ref.bottom
        data = (top + self.header_rows, bottom - self.totals_rows)
        spans = {
            "#all": (top, bottom),
            "#data": data,
            "#headers": (top, top + self.header_rows - 1),
            "#totals": (bottom - self.totals_rows + 1, bottom),
        }
        first, last = spans[part.lower()]
        return (first, last) if first <= last else None

    def column_index(self, name: str) -> int | None:
        """0-based position of a column by name (case-insensitive, as Excel). A name's own spaces are
        part of it (a column ``"Field 4 "`` is ``[Field 4 ]``); without an exact match, spaces at the
        ends are ignored."""
        for folded in (name.casefold(), name.strip().casefold()):
            for i, col in enumerate(self.columns):
                if col.casefold() == folded:
                    return i
        folded = name.strip().casefold()
        for i, col in enumerate(self.columns):
            if col.strip().casefold() == folded:
                return i
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sheet": self.sheet,
            "ref": self.ref.ref(),
            "columns": list(self.columns),
            "header_rows": self.header_rows,
            "totals_rows": self.totals_rows,
        }

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> ExcelTable:
        return cls(
            str(doc["name"]),
            str(doc["sheet"]),
            Range.parse(str(doc["ref"])).with_sheet(None),
            tuple(str(c) for c in doc["columns"]),
            int(doc.get("header_rows", 1)),
            int(doc.get("totals_rows", 0)),
        )


@dataclass(frozen=True)
class DefinedName:
    """A workbook's defined name (``TaxRate`` -> ``Inputs!$B$2``, or a constant or formula), as the
    file holds it: ``text`` without the leading '='; ``sheet`` is the sheet it is local to, or None
    for a name the whole workbook sees."""

    name: str
    text: str
    sheet: str | None = None

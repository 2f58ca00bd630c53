"""The workbook: an ordered, immutable collection of sheets."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gridsight.errors import UnknownSheetError
from gridsight.grid._sheet import Sheet
from gridsight.grid._tables import DefinedName, ExcelTable


class Workbook:
    """Sheets in workbook order. Sheet lookup is case-insensitive, as in Excel."""

    __slots__ = ("_by_name", "date1904", "name", "names", "sheets", "tables")
    sheets: tuple[Sheet, ...]
    name: str | None
    date1904: bool
    tables: tuple[ExcelTable, ...]  # Excel tables (ListObjects), for structured references
    names: tuple[DefinedName, ...]  # defined names, for formulas that use them
    _by_name: dict[str, list[DefinedName]]  # the names by their case-folded name, in order

    def __init__(
        self,
        sheets: list[Sheet] | tuple[Sheet, ...],
        *,
        name: str | None = None,
        date1904: bool = False,
        tables: tuple[ExcelTable, ...] | list[ExcelTable] = (),
        names: tuple[DefinedName, ...] | list[DefinedName] = (),
    ) -> None:
        object.__setattr__(self, "sheets", tuple(sheets))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "date1904", date1904)
        folded = {s.name.casefold() for s in self.sheets}
        object.__setattr__(self, "tables", tuple(t for t in tables if t.sheet.casefold() in folded))
        object.__setattr__(
            self, "names", tuple(n for n in names if n.sheet is None or n.sheet.casefold() in folded)
        )
        by_name: dict[str, list[DefinedName]] = {}
        for n in self.names:  # looked up once per name in each formula: an index, not a scan
            by_name.setdefault(n.name.casefold(), []).append(n)
        object.__setattr__(self, "_by_name", by_name)

    def table(self, name: str) -> ExcelTable | None:
        """An Excel table by name (case-insensitive, as in formulas), or None."""
        folded = name.casefold()
        return next((t for t in self.tables if t.name.casefold() == folded), None)

    def defined_name(self, name: str, sheet: str | None = None) -> DefinedName | None:
        """A defined name as a formula on ``sheet`` sees it: the sheet's own first, then the
        workbook's (case-insensitive, as in Excel); None when there is none."""
        found = self._by_name.get(name.casefold())
        if not found:
            return None
        local = [
            n
            for n in found
            if sheet is not None and n.sheet is not None and n.sheet.casefold() == sheet.casefold()
        ]
        return next(iter(local or [n for n in found if n.sheet is None]), None)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"Workbook is immutable; cannot set {key!r}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, Any]], *, name: str | None = None) -> Workbook:
        """``{"Sheet1": {"A1": "Year", "A2": 2024}}`` -> Workbook (handy in tests and demos)."""
        return cls([Sheet.from_cells(n, cells) for n, cells in data.items()], name=name)

    @property
    def sheet_names(self) -> list[str]:
        return [s.name for s in self.sheets]

    def sheet(self, name: str | int) -> Sheet:
        """A sheet by name (case-insensitive) or 0-based position."""
        if isinstance(name, int):
            if 0 <= name < len(self.sheets):
                return self.sheets[name]
            raise UnknownSheetError(f"sheet index {name} is out of range (0..{len(self.sheets) - 1})")
        for s in self.sheets:
            if s.name == name:
                return s
        for s in self.sheets:
            if s.name.casefold() == name.casefold():
                return s
        raise UnknownSheetError(
            f"no sheet named {name!r}; sheets are: {', '.join(repr(n) for n in self.sheet_names) or 'none'}"
        )

    def __getitem__(self, name: str | int) -> Sheet:
        return self.sheet(name)

    def __iter__(self) -> Iterator[Sheet]:
        return iter(self.sheets)

    def __len__(self) -> int:
        return len(self.sheets)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Workbook):
            return NotImplemented
        return self.sheets == other.sheets and self.date1904 == other.date1904 and self.tables == other.tables

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Workbook {self.name or ''} sheets={self.sheet_names}>"

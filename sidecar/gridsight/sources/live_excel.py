"""Live Excel through xlwings (COM on Windows, AppleScript on macOS): read a book, write cells.

xlwings is imported only when this source is used (it needs Excel; on Linux it cannot work), and
only its BSD-licensed engines are used -- never its licence-gated file reader or remote engine.
Reading pulls each sheet's used range in a few round trips (values, formulas, number formats);
writes check every target cell's expected content first and write nothing on a conflict.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from gridsight.errors import EditConflictError, GridSightError, SourceNotFoundError, UnknownSheetError
from gridsight.grid import ERROR_VALUES, Range, SheetBuilder, Workbook, datetime_to_serial

#: Cells above which per-cell number formats and merges are not fetched (each is a round trip).
MAX_PER_CELL_LOOKUPS = 20_000


def _xlwings() -> Any:
    try:
        import xlwings
    except ImportError:
        raise SourceNotFoundError(
            "live Excel needs xlwings (pip install 'gridsight[excel]') and Excel running on Windows or macOS"
        ) from None
    return xlwings


class LiveExcelSource:
    """An open Excel workbook (the active one, or one named ``book``)."""

    name = "xlwings"

    def __init__(self, book: str | None = None) -> None:
        xw = _xlwings()
        try:
            self._book = xw.books[book] if book else xw.books.active
        except Exception as exc:  # xlwings raises engine-specific errors when Excel is absent
            what = f"an open workbook named {book!r}" if book else "an active Excel workbook"
            raise SourceNotFoundError(f"cannot reach {what} through xlwings ({type(exc).__name__})") from None
        if self._book is None:
            raise SourceNotFoundError("Excel has no open workbook")
        self.full_name: str = str(self._book.fullname)

    def read(self, sheets: Sequence[str] | None = None) -> Workbook:
        chosen = list(self._book.sheets)
        if sheets is not None:
            by = {s.name.casefold(): s for s in chosen}
            missing = [n for n in sheets if n.casefold() not in by]
            if missing:
                raise UnknownSheetError(f"{self._book.name} has no sheet named {missing[0]!r}")
            chosen = [by[n.casefold()] for n in sheets]
        return Workbook([self._read_sheet(ws) for ws in chosen], name=str(self._book.name))

    def _read_sheet(self, ws: Any) -> Any:
        b = SheetBuilder(ws.name)
        used = ws.used_range
        top, left = used.row - 1, used.column - 1
        values = used.options(ndim=2, err_to_str=True).value or []
        formulas = used.formula
        if not isinstance(formulas, tuple | list) or (formulas and not isinstance(formulas[0], tuple | list)):
            formulas = ((formulas,),)
        single_fmt = used.number_format
        n_cells = used.count
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                f = formulas[i][j] if i < len(formulas) and j < len(formulas[i]) else None
                formula = f if isinstance(f, str) and f.startswith("=") else None
                if v is None and formula is None:
                    continue
                if isinstance(v, str) and v in ERROR_VALUES:
                    from gridsight.grid import CellError

                    v = CellError(v)
                fmt = single_fmt
                if fmt is None and n_cells <= MAX_PER_CELL_LOOKUPS:
                    fmt = ws.range((top + i + 1, left + j + 1)).number_format
                b.set(top + i, left + j, v, formula=formula, number_format=fmt)
        if used.merge_cells is not False and n_cells <= MAX_PER_CELL_LOOKUPS:
            seen: set[str] = set()
            for cell in used:
                if cell.merge_cells:
                    area = cell.merge_area.address.replace("$", "")
                    if area not in seen:
                        seen.add(area)
                        b.add_merge(Range.parse(area))
        return b.build()

    def _current(self, ws: Any, row: int, col: int) -> Any:
        from gridsight.edits import CellContent

        rng = ws.range((row + 1, col + 1))
        f = rng.formula
        if isinstance(f, str) and f.startswith("="):
            return CellContent("e", None, f)
        v = rng.options(err_to_str=True).value
        if v is None:
            return CellContent("e", None)
        if isinstance(v, bool):
            return CellContent("b", v)
        if isinstance(v, int | float):
            return CellContent("n", v)
        if isinstance(v, dt.datetime | dt.date):
            return CellContent("d", datetime_to_serial(v))
        text = str(v)
        return CellContent("x" if text in ERROR_VALUES else "s", text)

    def apply_writes(self, writes: Sequence[Any]) -> None:
        """Check every write's expected content, then write all (formulas, values, number formats)."""
        conflicts = []
        for w in writes:
            ws = self._book.sheets[w.sheet]
            found = self._current(ws, w.row, w.col)
            if not w.expected.same_content(found):
                conflicts.append(
                    {
                        "sheet": w.sheet,
                        "cell": w.address,
                        "expected": w.expected.to_json(),
                        "found": found.to_json(),
                    }
                )
        if conflicts:
            raise EditConflictError(
                f"{len(conflicts)} cell(s) changed in Excel; nothing was written", conflicts
            )
        try:
            for w in writes:
                rng = self._book.sheets[w.sheet].range((w.row + 1, w.col + 1))
                if w.new.formula is not None:
                    rng.formula = w.new.formula
                else:
                    rng.value = w.new.value
                if w.new.number_format is not None:
                    rng.number_format = w.new.number_format
        except Exception as exc:
            raise GridSightError(f"Excel refused a write ({type(exc).__name__}: {exc})"[:300]) from None

    def close(self) -> None:
        """The user's Excel stays open: nothing to release."""

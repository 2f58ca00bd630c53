"""The in-memory sheet: dense numpy arrays over the used range, immutable from the outside.

Why dense arrays over the used range: whole-row/column scans (encoding, table detection) become
vectorised numpy operations, and a 1M-cell sheet costs ~20 MB (1+8+4+4+2+1 bytes per cell) plus
its distinct strings. Strings, formulas and number formats are interned per sheet.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gridsight.errors import RangeSyntaxError, ResourceLimitError
from gridsight.grid._address import a1_to_rc, rc_to_a1
from gridsight.grid._range import Range
from gridsight.grid._values import Kind, Style, datetime_to_serial, serial_to_datetime

_NUMBER, _TEXT, _BOOL, _DATETIME, _ERROR = (
    int(Kind.NUMBER),
    int(Kind.TEXT),
    int(Kind.BOOL),
    int(Kind.DATETIME),
    int(Kind.ERROR),
)

#: Dense cells a single sheet may span (bounding box of its content); ~500 MB of arrays.
MAX_SHEET_CELLS = 25_000_000


class CellError(str):
    """An Excel error value such as ``#DIV/0!``; a str so it prints and compares naturally."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"CellError({str.__repr__(self)})"


CellValue = float | int | str | bool | dt.datetime | dt.time | CellError | None


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell as plain data: typed value plus what it looks like."""

    row: int
    col: int
    kind: Kind
    value: CellValue
    formula: str | None = None
    number_format: str = "General"
    style: Style = Style.NONE

    @property
    def address(self) -> str:
        return rc_to_a1(self.row, self.col)

    @property
    def is_empty(self) -> bool:
        return self.kind == Kind.EMPTY and self.formula is None


def _readonly(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    a.flags.writeable = False
    return a


class Sheet:
    """A worksheet. Build one with :class:`SheetBuilder` or :meth:`Sheet.from_cells`."""

    __slots__ = (
        "date1904",
        "format_ids",
        "formula_ids",
        "formulas",
        "kinds",
        "merges",
        "name",
        "number_formats",
        "numbers",
        "origin",
        "styles",
        "text_ids",
        "texts",
    )
    name: str
    origin: tuple[int, int]
    kinds: npt.NDArray[np.uint8]
    numbers: npt.NDArray[np.float64]
    text_ids: npt.NDArray[np.int32]
    formula_ids: npt.NDArray[np.int32]
    format_ids: npt.NDArray[np.uint16]
    styles: npt.NDArray[np.uint8]
    texts: tuple[str, ...]
    formulas: tuple[str, ...]
    number_formats: tuple[str, ...]
    merges: tuple[Range, ...]
    date1904: bool

    def __init__(
        self,
        name: str,
        origin: tuple[int, int],
        kinds: npt.NDArray[np.uint8],
        numbers: npt.NDArray[np.float64],
        text_ids: npt.NDArray[np.int32],
        formula_ids: npt.NDArray[np.int32],
        format_ids: npt.NDArray[np.uint16],
        styles: npt.NDArray[np.uint8],
        texts: tuple[str, ...],
        formulas: tuple[str, ...],
        number_formats: tuple[str, ...],
        merges: tuple[Range, ...] = (),
        date1904: bool = False,
    ) -> None:
        put = object.__setattr__
        put(self, "name", name)
        put(self, "origin", origin)
        put(self, "kinds", _readonly(kinds))
        put(self, "numbers", _readonly(numbers))
        put(self, "text_ids", _readonly(text_ids))
        put(self, "formula_ids", _readonly(formula_ids))
        put(self, "format_ids", _readonly(format_ids))
        put(self, "styles", _readonly(styles))
        put(self, "texts", texts)
        put(self, "formulas", formulas)
        put(self, "number_formats", number_formats)
        put(self, "merges", tuple(m.with_sheet(name) for m in merges))
        put(self, "date1904", date1904)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"Sheet is immutable; cannot set {key!r} (edits go through edit plans)")

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_cells(
        cls,
        name: str,
        cells: Mapping[str, Any],
        *,
        formats: Mapping[str, str] | None = None,
        styles: Mapping[str, Style | int] | None = None,
        merges: tuple[str, ...] = (),
    ) -> Sheet:
        """Small sheets by hand: ``{"A1": 3, "B1": "=A1*2"}`` (a leading '=' marks a formula)."""
        b = SheetBuilder(name)
        for ref, value in cells.items():
            r, c = a1_to_rc(ref)
            if isinstance(value, str) and value.startswith("=") and len(value) > 1:
                b.set(r, c, None, formula=value)
            else:
                b.set(r, c, value)
        for ref, fmt in (formats or {}).items():
            b.set_format(*a1_to_rc(ref), fmt)
        for ref, st in (styles or {}).items():
            b.set_style(*a1_to_rc(ref), int(st))
        for m in merges:
            b.add_merge(Range.parse(m))
        return b.build()

    # -- shape ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self.kinds.shape

    @property
    def used_range(self) -> Range | None:
        """Bounding box of cells holding a value or a formula (None for an empty sheet)."""
        h, w = self.shape
        if h == 0 or w == 0:
            return None
        r0, c0 = self.origin
        return Range(r0, c0, r0 + h - 1, c0 + w - 1, self.name)

    @property
    def is_empty(self) -> bool:
        return self.used_range is None

    # -- counts (vectorised) -------------------------------------------------------------
    @property
    def n_values(self) -> int:
        return int(np.count_nonzero(self.kinds))

    @property
    def n_formulas(self) -> int:
        return int(np.count_nonzero(self.formula_ids >= 0))

    @property
    def n_number_formats(self) -> int:
        """Cells whose number format is not General."""
        return int(np.count_nonzero(self.format_ids))

    @property
    def n_styled(self) -> int:
        return int(np.count_nonzero(self.styles))

    # -- cell access ---------------------------------------------------------------------
    def _local(self, row: int, col: int) -> tuple[int, int] | None:
        r, c = row - self.origin[0], col - self.origin[1]
        h, w = self.shape
        if 0 <= r < h and 0 <= c < w:
            return r, c
        return None

    def _value(self, r: int, c: int) -> CellValue:
        return self._convert(int(self.kinds[r, c]), float(self.numbers[r, c]), int(self.text_ids[r, c]))

    def _convert(self, k: int, x: float, tid: int) -> CellValue:
        """One cell's value from its kind, number and text id (plain ints: enum lookups per cell
        cost more than the conversion on big ranges)."""
        if k == _NUMBER:
            return int(x) if x.is_integer() and abs(x) < 2**53 else x
        if k == _TEXT:
            return self.texts[tid]
        if k == _BOOL:
            return bool(x)
        if k == _DATETIME:
            try:
                return serial_to_datetime(x, date1904=self.date1904)
            except (ValueError, OverflowError):
                return x
        if k == _ERROR:
            return CellError(self.texts[tid])
        return None

    def cell(self, ref: str | int, col: int | None = None) -> Cell:
        """A cell by A1 text (``sheet.cell("B3")``) or 0-based ``(row, col)``."""
        if isinstance(ref, str):
            row, col = a1_to_rc(ref)
        elif col is None:
            raise RangeSyntaxError("cell() needs an A1 address or a (row, col) pair")
        else:
            row = ref
        local = self._local(row, col)
        if local is None:
            return Cell(row, col, Kind.EMPTY, None)
        r, c = local
        fid = int(self.formula_ids[r, c])
        return Cell(
            row,
            col,
            Kind(int(self.kinds[r, c])),
            self._value(r, c),
            self.formulas[fid] if fid >= 0 else None,
            self.number_formats[int(self.format_ids[r, c])],
            Style(int(self.styles[r, c])),
        )

    def value(self, ref: str | int, col: int | None = None) -> CellValue:
        return self.cell(ref, col).value

    def iter_cells(self, area: Range | str | None = None) -> Iterator[Cell]:
        """Non-empty cells (value or formula), row-major, optionally within a range."""
        mask = (self.kinds != 0) | (self.formula_ids >= 0)
        r0, c0 = self.origin
        if area is not None:
            rng = Range.parse(area) if isinstance(area, str) else area
            sub = np.zeros_like(mask)
            h, w = self.shape
            t, b = max(rng.top - r0, 0), min(rng.bottom - r0, h - 1)
            left, right = max(rng.left - c0, 0), min(rng.right - c0, w - 1)
            if t <= b and left <= right:
                sub[t : b + 1, left : right + 1] = True
            mask &= sub
        for r, c in zip(*np.nonzero(mask), strict=True):
            yield self.cell(int(r) + r0, int(c) + c0)

    def _block(self, area: Range | str) -> tuple[Range, tuple[slice, slice] | None, int, int]:
        """The range asked for (at most 5M cells), the slice of the arrays inside it (None when it
        lies outside the used range), and where that slice starts within the range."""
        rng = Range.parse(area) if isinstance(area, str) else area
        if rng.size > 5_000_000:
            raise ResourceLimitError(f"{rng.ref()} has {rng.size:,} cells; ask for at most 5,000,000")
        (r0, c0), (h, w) = self.origin, self.shape
        top, bottom = max(rng.top - r0, 0), min(rng.bottom - r0, h - 1)
        left, right = max(rng.left - c0, 0), min(rng.right - c0, w - 1)
        if top > bottom or left > right:
            return rng, None, 0, 0
        return rng, (slice(top, bottom + 1), slice(left, right + 1)), top + r0 - rng.top, left + c0 - rng.left

    def values(self, area: Range | str) -> list[list[CellValue]]:
        """Values of a rectangle as rows (empty cells are None). Refuses > 5M cells."""
        rng, block, first_row, first_col = self._block(area)
        out: list[list[CellValue]] = [[None] * rng.width for _ in range(rng.height)]
        if block is None:
            return out
        kinds, numbers = self.kinds[block].tolist(), self.numbers[block].tolist()
        tids = self.text_ids[block].tolist()
        convert = self._convert
        for i, krow in enumerate(kinds):
            line, nrow, trow = out[first_row + i], numbers[i], tids[i]
            for j, k in enumerate(krow):
                if k:
                    line[first_col + j] = convert(k, nrow[j], trow[j])
        return out

    def column_values(self, area: Range | str) -> list[CellValue]:
        """Values of a one-column range, top to bottom (empty cells are None): what column-wise
        readers (a table's relational view) want, without a list per row."""
        rng = Range.parse(area) if isinstance(area, str) else area
        if rng.width != 1:
            raise RangeSyntaxError(f"{rng.ref()} is not a single column")
        rng, block, first, _ = self._block(rng)
        out: list[CellValue] = [None] * rng.height
        if block is None:
            return out
        rows, col = block[0], block[1].start
        kinds = self.kinds[rows, col].tolist()
        numbers, tids = self.numbers[rows, col].tolist(), self.text_ids[rows, col].tolist()
        convert = self._convert
        for i, k in enumerate(kinds):
            if k:
                out[first + i] = convert(k, numbers[i], tids[i])
        return out

    def merge_at(self, row: int, col: int) -> Range | None:
        """The merged range covering a cell, if any."""
        for m in self.merges:
            if m.contains(row, col):
                return m
        return None

    # -- comparison ----------------------------------------------------------------------
    def _canonical(self) -> tuple[Any, ...]:
        k = self.kinds
        texts = np.array((*self.texts, ""), dtype=object)[self.text_ids]
        texts = np.where((k == Kind.TEXT) | (k == Kind.ERROR), texts, "")
        forms = np.array((*self.formulas, ""), dtype=object)[self.formula_ids]
        fmts = np.array(self.number_formats, dtype=object)[self.format_ids]
        nums = np.where(np.isin(k, (Kind.NUMBER, Kind.BOOL, Kind.DATETIME)), self.numbers, 0.0)
        return (
            self.name,
            self.origin,
            k.tobytes(),
            k.shape,
            nums.tobytes(),
            tuple(texts.ravel()),
            tuple(forms.ravel()),
            tuple(fmts.ravel()),
            self.styles.tobytes(),
            tuple(sorted(self.merges)),
            self.date1904,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return self._canonical() == other._canonical()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        used = self.used_range.ref() if self.used_range else "empty"
        return f"<Sheet {self.name!r} {used}>"


class SheetBuilder:
    """Collects cells sparsely (compact typed arrays), then lays them out densely in build().

    Readers call :meth:`add` in a hot loop, so it takes already-typed parts.
    """

    def __init__(self, name: str, *, date1904: bool = False) -> None:
        from array import array

        self.name = name
        self.date1904 = date1904
        self._rows = array("i")
        self._cols = array("i")
        self._kinds = array("B")
        self._nums = array("d")
        self._tids = array("i")
        self._fids = array("i")
        self._fmts = array("H")
        self._styles = array("B")
        self._text_index: dict[str, int] = {}
        self._formula_index: dict[str, int] = {}
        self._format_index: dict[str, int] = {"General": 0}
        self._merges: list[Range] = []
        self._fmt_overrides: dict[tuple[int, int], str] = {}
        self._style_overrides: dict[tuple[int, int], int] = {}

    def intern_text(self, text: str) -> int:
        idx = self._text_index.get(text)
        if idx is None:
            idx = self._text_index[text] = len(self._text_index)
        return idx

    def intern_format(self, fmt: str | None) -> int:
        if not fmt:
            return 0
        idx = self._format_index.get(fmt)
        if idx is None:
            if len(self._format_index) >= 65_535:
                raise ResourceLimitError(f"sheet {self.name!r} has more than 65,535 number formats")
            idx = self._format_index[fmt] = len(self._format_index)
        return idx

    def add(
        self,
        row: int,
        col: int,
        kind: int,
        number: float = 0.0,
        text: str | None = None,
        formula: str | None = None,
        fmt_id: int = 0,
        style: int = 0,
    ) -> None:
        """Fast path for readers: kind and parts already decided."""
        self._rows.append(row)
        self._cols.append(col)
        self._kinds.append(kind)
        self._nums.append(number)
        self._tids.append(self.intern_text(text) if text is not None else -1)
        if formula is None:
            self._fids.append(-1)
        else:
            fid = self._formula_index.get(formula)
            if fid is None:
                fid = self._formula_index[formula] = len(self._formula_index)
            self._fids.append(fid)
        self._fmts.append(fmt_id)
        self._styles.append(style)

    def set(
        self,
        row: int,
        col: int,
        value: Any,
        *,
        formula: str | None = None,
        number_format: str | None = None,
        style: int = 0,
    ) -> None:
        """Set a cell from a Python value (None, bool, int, float, str, CellError, date/time)."""
        kind, number, text = classify(value, date1904=self.date1904)
        self.add(row, col, kind, number, text, formula, self.intern_format(number_format), style)

    def set_format(self, row: int, col: int, fmt: str) -> None:
        self._fmt_overrides[(row, col)] = fmt

    def set_style(self, row: int, col: int, style: int) -> None:
        self._style_overrides[(row, col)] = style

    def add_merge(self, rng: Range) -> None:
        if rng.size > 1:
            self._merges.append(rng.with_sheet(self.name))

    def build(self) -> Sheet:
        """Lay the collected cells out densely over the bounding box of their content."""
        for (r, c), fmt in self._fmt_overrides.items():
            self.add(r, c, 0, fmt_id=self.intern_format(fmt))
        for (r, c), st in self._style_overrides.items():
            self.add(r, c, 0, style=st)
        self._fmt_overrides.clear()
        self._style_overrides.clear()
        rows = np.frombuffer(self._rows, dtype=np.int32)
        cols = np.frombuffer(self._cols, dtype=np.int32)
        kinds = np.frombuffer(self._kinds, dtype=np.uint8)
        fids = np.frombuffer(self._fids, dtype=np.int32)
        content = (kinds != 0) | (fids >= 0)
        texts = tuple(self._text_index)
        formulas = tuple(self._formula_index)
        formats = tuple(self._format_index)
        if not content.any():
            return _empty_sheet(self.name, texts, formulas, formats, self._merges, self.date1904)
        top, bottom = int(rows[content].min()), int(rows[content].max())
        left, right = int(cols[content].min()), int(cols[content].max())
        h, w = bottom - top + 1, right - left + 1
        if h * w > MAX_SHEET_CELLS:
            span = Range(top, left, bottom, right).ref()
            raise ResourceLimitError(
                f"sheet {self.name!r} spans {span} ({h * w:,} cells); the limit is {MAX_SHEET_CELLS:,}"
            )
        inside = (rows >= top) & (rows <= bottom) & (cols >= left) & (cols <= right)
        ri, ci = rows[inside] - top, cols[inside] - left

        def scatter(src: Any, dtype: Any, fill: Any, keep: Any = None) -> npt.NDArray[Any]:
            out = np.full((h, w), fill, dtype=dtype)
            vals = np.frombuffer(src, dtype=dtype)[inside]
            sel = np.ones(len(vals), dtype=bool) if keep is None else keep[inside]
            out[ri[sel], ci[sel]] = vals[sel]
            return out

        # A later format/style-only record must not wipe a value set earlier (and vice versa).
        has_value = (kinds != 0) | (fids >= 0)
        has_fmt = np.frombuffer(self._fmts, dtype=np.uint16) != 0
        has_style = np.frombuffer(self._styles, dtype=np.uint8) != 0
        sheet = Sheet(
            self.name,
            (top, left),
            scatter(self._kinds, np.uint8, 0, has_value),
            scatter(self._nums, np.float64, 0.0, has_value),
            scatter(self._tids, np.int32, -1, has_value),
            scatter(self._fids, np.int32, -1, has_value),
            scatter(self._fmts, np.uint16, 0, has_fmt),
            scatter(self._styles, np.uint8, 0, has_style),
            texts,
            formulas,
            formats,
            tuple(self._merges),
            self.date1904,
        )
        return sheet


def _empty_sheet(
    name: str,
    texts: tuple[str, ...],
    formulas: tuple[str, ...],
    formats: tuple[str, ...],
    merges: list[Range],
    date1904: bool,
) -> Sheet:
    z = (0, 0)
    return Sheet(
        name,
        (0, 0),
        np.zeros(z, np.uint8),
        np.zeros(z, np.float64),
        np.full(z, -1, np.int32),
        np.full(z, -1, np.int32),
        np.zeros(z, np.uint16),
        np.zeros(z, np.uint8),
        texts,
        formulas,
        formats,
        tuple(merges),
        date1904,
    )


def classify(value: Any, *, date1904: bool = False) -> tuple[int, float, str | None]:
    """Python value -> (kind, number, text) as stored in the arrays."""
    if value is None:
        return Kind.EMPTY, 0.0, None
    if isinstance(value, CellError):
        return Kind.ERROR, 0.0, str(value)
    if isinstance(value, bool):
        return Kind.BOOL, float(value), None
    if isinstance(value, int | float):
        x = float(value)
        if x != x or x in (float("inf"), float("-inf")):
            return Kind.ERROR, 0.0, "#NUM!"
        return Kind.NUMBER, x, None
    if isinstance(value, str):
        return Kind.TEXT, 0.0, value
    if isinstance(value, dt.datetime | dt.date | dt.time | dt.timedelta):
        return Kind.DATETIME, datetime_to_serial(value, date1904=date1904), None
    if hasattr(value, "item"):  # numpy scalars
        return classify(value.item(), date1904=date1904)
    return Kind.TEXT, 0.0, str(value)

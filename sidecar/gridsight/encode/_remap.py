"""Coordinate re-mapping between the compact sheet the model reads and the original sheet.

After extraction the kept rows/columns are renumbered contiguously (section 3.2). The map is a
monotone piecewise shift stored as segments ``(compact_start, original_start, length)``; rows and
columns before the first dropped one keep their numbers, so when nothing is dropped the compact
sheet *is* the original. Every compact address names exactly one original cell; a compact range maps
to the original range between the originals of its corners. Addresses past the compact sheet's last
row/column continue with the last segment's offset (both sheets are empty there).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gridsight.errors import RangeSyntaxError
from gridsight.grid import MAX_COLS, MAX_ROWS, Range, col_to_letters, rc_to_a1


@dataclass(frozen=True)
class AxisMap:
    """One axis (rows or columns): compact index <-> original index, as contiguous segments."""

    compact_starts: tuple[int, ...]
    original_starts: tuple[int, ...]
    lengths: tuple[int, ...]

    @classmethod
    def identity(cls) -> AxisMap:
        return cls((0,), (0,), (1,))

    @classmethod
    def from_kept(cls, origin: int, kept: npt.NDArray[np.bool_]) -> AxisMap:
        """Segments for local indices ``kept`` (a mask from ``origin``); indices before it are kept."""
        idx = np.flatnonzero(kept) + origin
        if idx.size == 0:
            return cls.identity()
        idx = np.concatenate((np.arange(origin, dtype=np.int64), idx)) if origin else idx
        # compact i -> idx[i]; a segment breaks where idx jumps by more than one
        breaks = np.flatnonzero(np.diff(idx) != 1) + 1
        starts = np.concatenate(([0], breaks))
        ends = np.concatenate((breaks, [idx.size]))
        return cls(
            tuple(int(s) for s in starts),
            tuple(int(idx[s]) for s in starts),
            tuple(int(e - s) for s, e in zip(starts, ends, strict=True)),
        )

    @property
    def compact_size(self) -> int:
        return self.compact_starts[-1] + self.lengths[-1]

    @property
    def is_identity(self) -> bool:
        return len(self.lengths) == 1 and self.compact_starts[0] == self.original_starts[0] == 0

    def to_original(self, i: int) -> int:
        """Original index of compact index ``i``."""
        if i < 0:
            raise RangeSyntaxError(f"index {i} is negative")
        seg = bisect.bisect_right(self.compact_starts, i) - 1
        return self.original_starts[seg] + (i - self.compact_starts[seg])

    def to_compact(self, j: int) -> int | None:
        """Compact index of original index ``j``, or None when that row/column was dropped."""
        seg = bisect.bisect_right(self.original_starts, j) - 1
        if seg < 0:
            return None
        off = j - self.original_starts[seg]
        if off < self.lengths[seg] or seg == len(self.lengths) - 1:
            return self.compact_starts[seg] + off
        return None

    def segments(self) -> list[tuple[int, int, int]]:
        return list(zip(self.compact_starts, self.original_starts, self.lengths, strict=True))


@dataclass(frozen=True)
class AddressMap:
    """Compact sheet <-> original sheet, for cells and ranges (A1 text or :class:`Range`)."""

    sheet: str
    rows: AxisMap
    cols: AxisMap

    @property
    def is_identity(self) -> bool:
        return self.rows.is_identity and self.cols.is_identity

    def cell_to_original(self, row: int, col: int) -> tuple[int, int]:
        r, c = self.rows.to_original(row), self.cols.to_original(col)
        if r >= MAX_ROWS or c >= MAX_COLS:
            raise RangeSyntaxError(f"{rc_to_a1(row, col)} maps beyond the sheet's last row or column")
        return r, c

    def to_original(self, ref: str | Range) -> Range:
        """The original range a compact address or range names (sheet set to the original sheet).

        Whole-row/column references (``A:C``, ``3:5``) keep their open side open.
        """
        rng = Range.parse(ref) if isinstance(ref, str) else ref
        if rng.is_whole_columns:
            top, bottom = 0, MAX_ROWS - 1
        else:
            top, bottom = self.rows.to_original(rng.top), self.rows.to_original(rng.bottom)
        if rng.is_whole_rows:
            left, right = 0, MAX_COLS - 1
        else:
            left, right = self.cols.to_original(rng.left), self.cols.to_original(rng.right)
        if bottom >= MAX_ROWS or right >= MAX_COLS:
            raise RangeSyntaxError(f"{rng.ref()} maps beyond the sheet's last row or column")
        return Range(top, left, bottom, right, self.sheet)

    def translate(self, ref: str) -> str:
        """``"B2:D9"`` in the compact sheet -> the original sheet's range text, e.g. ``"B2:D410"``."""
        return self.to_original(ref).ref()

    def to_compact(self, ref: str | Range) -> Range | None:
        """The compact address of an original cell/range whose corners were kept, else None."""
        rng = Range.parse(ref) if isinstance(ref, str) else ref
        parts = (
            self.rows.to_compact(rng.top),
            self.cols.to_compact(rng.left),
            self.rows.to_compact(rng.bottom),
            self.cols.to_compact(rng.right),
        )
        if any(p is None for p in parts):
            return None
        t, left, b, r = (int(p) for p in parts)  # type: ignore[arg-type]
        return Range(t, left, b, r)

    def to_json(self) -> dict[str, Any]:
        """Readable segments: ``{"rows": [{"compact": "1:12", "original": "1:12"}, ...], "cols": [...]}``."""

        def rows(segs: list[tuple[int, int, int]]) -> list[dict[str, str]]:
            return [{"compact": f"{c + 1}:{c + n}", "original": f"{o + 1}:{o + n}"} for c, o, n in segs]

        def cols(segs: list[tuple[int, int, int]]) -> list[dict[str, str]]:
            def span(a: int, n: int) -> str:
                return f"{col_to_letters(a)}:{col_to_letters(a + n - 1)}"

            return [{"compact": span(c, n), "original": span(o, n)} for c, o, n in segs]

        return {
            "identity": self.is_identity,
            "rows": rows(self.rows.segments()),
            "cols": cols(self.cols.segments()),
        }

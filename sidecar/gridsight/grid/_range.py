"""Rectangular ranges: parse and format `A1`, `B2:D9`, `'My Sheet'!A1:B2`, `A:C`, `3:5`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from gridsight.errors import RangeSyntaxError
from gridsight.grid._address import (
    MAX_COLS,
    MAX_ROWS,
    a1_to_rc,
    col_to_letters,
    letters_to_col,
    rc_to_a1,
)

_COLS = re.compile(r"^\$?([A-Za-z]{1,3})$")
_ROWS = re.compile(r"^\$?([0-9]{1,7})$")
_PLAIN_SHEET = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_LOOKS_LIKE_REF = re.compile(r"^([A-Za-z]{1,3}[0-9]+|[Rr][0-9]*[Cc][0-9]*)$")
_FORBIDDEN_SHEET_CHARS = set("[]:*?/\\")


def quote_sheet(name: str) -> str:
    """Quote a sheet name the way Excel does in references (only when needed)."""
    if _PLAIN_SHEET.match(name) and not _LOOKS_LIKE_REF.match(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def _split_sheet(text: str) -> tuple[str | None, str]:
    if text.startswith("'"):
        i, name = 1, []
        while i < len(text):
            ch = text[i]
            if ch == "'":
                if text[i + 1 : i + 2] == "'":
                    name.append("'")
                    i += 2
                    continue
                break
            name.append(ch)
            i += 1
        rest = text[i + 1 :]
        if i >= len(text) or not rest.startswith("!"):
            raise RangeSyntaxError(f"{text!r}: a quoted sheet name must be followed by '!'")
        return "".join(name), rest[1:]
    if "!" in text:
        sheet, _, rest = text.rpartition("!")
        if not sheet or any(c in _FORBIDDEN_SHEET_CHARS for c in sheet) or " " in sheet:
            raise RangeSyntaxError(f"{text!r}: sheet names with spaces or symbols need quotes")
        return sheet, rest
    return None, text


@dataclass(frozen=True, slots=True, order=True)
class Range:
    """A rectangle of cells, 0-based and inclusive; `sheet` is None when unqualified."""

    top: int
    left: int
    bottom: int
    right: int
    sheet: str | None = None

    def __post_init__(self) -> None:
        if not (0 <= self.top <= self.bottom < MAX_ROWS and 0 <= self.left <= self.right < MAX_COLS):
            raise RangeSyntaxError(
                f"invalid range rows {self.top}..{self.bottom}, cols {self.left}..{self.right}"
            )

    @classmethod
    def parse(cls, text: str) -> Range:
        """Parse A1-style text; corners may come in any order (`D9:B2` == `B2:D9`)."""
        if not isinstance(text, str) or not text.strip():
            raise RangeSyntaxError("empty range")
        sheet, ref = _split_sheet(text.strip())
        parts = ref.split(":")
        if len(parts) == 1:
            r, c = a1_to_rc(parts[0])
            return cls(r, c, r, c, sheet)
        if len(parts) != 2:
            raise RangeSyntaxError(f"{text!r} is not a range")
        a, b = parts
        if _COLS.match(a) and _COLS.match(b):
            c1, c2 = letters_to_col(a.lstrip("$")), letters_to_col(b.lstrip("$"))
            return cls(0, min(c1, c2), MAX_ROWS - 1, max(c1, c2), sheet)
        if _ROWS.match(a) and _ROWS.match(b):
            r1, r2 = int(a.lstrip("$")) - 1, int(b.lstrip("$")) - 1
            if not (0 <= r1 < MAX_ROWS and 0 <= r2 < MAX_ROWS):
                raise RangeSyntaxError(f"row in {text!r} is outside 1..{MAX_ROWS}")
            return cls(min(r1, r2), 0, max(r1, r2), MAX_COLS - 1, sheet)
        (r1, c1), (r2, c2) = a1_to_rc(a), a1_to_rc(b)
        return cls(min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2), sheet)

    @classmethod
    def from_cells(cls, top: int, left: int, bottom: int, right: int, sheet: str | None = None) -> Range:
        """Build from corners in any order."""
        return cls(min(top, bottom), min(left, right), max(top, bottom), max(left, right), sheet)

    @property
    def is_whole_columns(self) -> bool:
        return self.top == 0 and self.bottom == MAX_ROWS - 1

    @property
    def is_whole_rows(self) -> bool:
        return self.left == 0 and self.right == MAX_COLS - 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def size(self) -> int:
        return self.height * self.width

    def ref(self) -> str:
        """The address without the sheet: `B2:D9`, `A:C`, `3:5`, or `A1` for one cell."""
        if self.is_whole_columns and not self.is_whole_rows:
            return f"{col_to_letters(self.left)}:{col_to_letters(self.right)}"
        if self.is_whole_rows and not self.is_whole_columns:
            return f"{self.top + 1}:{self.bottom + 1}"
        if self.top == self.bottom and self.left == self.right:
            return rc_to_a1(self.top, self.left)
        return f"{rc_to_a1(self.top, self.left)}:{rc_to_a1(self.bottom, self.right)}"

    def __str__(self) -> str:
        return f"{quote_sheet(self.sheet)}!{self.ref()}" if self.sheet is not None else self.ref()

    def with_sheet(self, sheet: str | None) -> Range:
        return Range(self.top, self.left, self.bottom, self.right, sheet)

    def contains(self, row: int, col: int) -> bool:
        return self.top <= row <= self.bottom and self.left <= col <= self.right

    def intersect(self, other: Range) -> Range | None:
        """The overlap of two ranges (sheet taken from self), or None."""
        top, left = max(self.top, other.top), max(self.left, other.left)
        bottom, right = min(self.bottom, other.bottom), min(self.right, other.right)
        if top > bottom or left > right:
            return None
        return Range(top, left, bottom, right, self.sheet)

    def cells(self) -> Iterator[tuple[int, int]]:
        """Row-major (row, col) pairs; beware whole-column ranges."""
        for r in range(self.top, self.bottom + 1):
            for c in range(self.left, self.right + 1):
                yield r, c

"""A1 and R1C1 addressing over Excel's whole grid (0-based rows and columns inside)."""

from __future__ import annotations

import re

from gridsight.errors import RangeSyntaxError

MAX_ROWS = 1_048_576
MAX_COLS = 16_384

_A1 = re.compile(r"^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$")
_R1C1 = re.compile(r"^[Rr]([0-9]{1,7})[Cc]([0-9]{1,5})$")


def col_to_letters(col: int) -> str:
    """0-based column index -> letters (0 -> 'A', 16383 -> 'XFD')."""
    if not 0 <= col < MAX_COLS:
        raise RangeSyntaxError(f"column index {col} is outside A..XFD")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def letters_to_col(letters: str) -> int:
    """Column letters -> 0-based index ('A' -> 0); case-insensitive."""
    if not letters or len(letters) > 3 or not letters.isalpha() or not letters.isascii():
        raise RangeSyntaxError(f"{letters!r} is not a column (A..XFD)")
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    if n > MAX_COLS:
        raise RangeSyntaxError(f"column {letters!r} is beyond XFD")
    return n - 1


def _check_row(row: int, text: str) -> int:
    if not 0 <= row < MAX_ROWS:
        raise RangeSyntaxError(f"row in {text!r} is outside 1..{MAX_ROWS}")
    return row


def a1_to_rc(ref: str) -> tuple[int, int]:
    """'B3' or '$B$3' -> (2, 1), 0-based (row, col)."""
    m = _A1.match(ref.strip())
    if not m:
        raise RangeSyntaxError(f"{ref!r} is not an A1 cell address")
    return _check_row(int(m.group(2)) - 1, ref), letters_to_col(m.group(1))


def rc_to_a1(row: int, col: int, *, absolute: bool = False) -> str:
    """(2, 1) -> 'B3' (or '$B$3' when absolute)."""
    _check_row(row, f"row {row}")
    d = "$" if absolute else ""
    return f"{d}{col_to_letters(col)}{d}{row + 1}"


def r1c1_to_rc(ref: str) -> tuple[int, int]:
    """'R3C2' -> (2, 1). Only absolute R1C1; relative forms need an anchor cell."""
    m = _R1C1.match(ref.strip())
    if not m:
        raise RangeSyntaxError(f"{ref!r} is not an R1C1 cell address")
    row, col = int(m.group(1)) - 1, int(m.group(2)) - 1
    if not 0 <= col < MAX_COLS:
        raise RangeSyntaxError(f"column in {ref!r} is outside 1..{MAX_COLS}")
    return _check_row(row, ref), col


def rc_to_r1c1(row: int, col: int) -> str:
    """(2, 1) -> 'R3C2'."""
    _check_row(row, f"row {row}")
    if not 0 <= col < MAX_COLS:
        raise RangeSyntaxError(f"column index {col} is outside 1..{MAX_COLS}")
    return f"R{row + 1}C{col + 1}"

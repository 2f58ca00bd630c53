from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsight.errors import RangeSyntaxError
from gridsight.grid import (
    MAX_COLS,
    MAX_ROWS,
    a1_to_rc,
    col_to_letters,
    letters_to_col,
    r1c1_to_rc,
    rc_to_a1,
    rc_to_r1c1,
)

rows = st.integers(min_value=0, max_value=MAX_ROWS - 1)
cols = st.integers(min_value=0, max_value=MAX_COLS - 1)


@given(rows, cols)
def test_a1_round_trips_over_the_whole_grid(row: int, col: int) -> None:
    assert a1_to_rc(rc_to_a1(row, col)) == (row, col)
    assert a1_to_rc(rc_to_a1(row, col, absolute=True)) == (row, col)


@given(rows, cols)
def test_r1c1_round_trips_over_the_whole_grid(row: int, col: int) -> None:
    assert r1c1_to_rc(rc_to_r1c1(row, col)) == (row, col)


@given(cols)
def test_column_letters_round_trip(col: int) -> None:
    assert letters_to_col(col_to_letters(col)) == col


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("A1", (0, 0)),
        ("b3", (2, 1)),
        ("$B$3", (2, 1)),
        ("Z1", (0, 25)),
        ("AA1", (0, 26)),
        ("AZ10", (9, 51)),
        ("XFD1048576", (1_048_575, 16_383)),
    ],
)
def test_a1_table(ref: str, expected: tuple[int, int]) -> None:
    assert a1_to_rc(ref) == expected


@pytest.mark.parametrize(
    ("row", "col", "text"), [(0, 0, "A1"), (2, 1, "B3"), (1_048_575, 16_383, "XFD1048576")]
)
def test_rc_to_a1_table(row: int, col: int, text: str) -> None:
    assert rc_to_a1(row, col) == text


@pytest.mark.parametrize(
    ("ref", "expected"), [("R1C1", (0, 0)), ("r3c2", (2, 1)), ("R1048576C16384", (1_048_575, 16_383))]
)
def test_r1c1_table(ref: str, expected: tuple[int, int]) -> None:
    assert r1c1_to_rc(ref) == expected


@pytest.mark.parametrize(
    "bad", ["", "A", "1", "A0", "XFE1", "A1048577", "AAAA1", "1A", "A-1", "A1:B2", "Ä1", "R0C1", "R1C16385"]
)
def test_bad_addresses_raise_typed_errors(bad: str) -> None:
    with pytest.raises(RangeSyntaxError):
        if bad.upper().startswith("R") and "C" in bad.upper():
            r1c1_to_rc(bad)
        else:
            a1_to_rc(bad)


@pytest.mark.parametrize("col", [-1, MAX_COLS])
def test_column_index_out_of_grid(col: int) -> None:
    with pytest.raises(RangeSyntaxError):
        col_to_letters(col)

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsight.errors import RangeSyntaxError
from gridsight.grid import MAX_COLS, MAX_ROWS, Range


@pytest.mark.parametrize(
    ("text", "expected", "formatted"),
    [
        ("A1", Range(0, 0, 0, 0), "A1"),
        ("B2:D9", Range(1, 1, 8, 3), "B2:D9"),
        ("D9:B2", Range(1, 1, 8, 3), "B2:D9"),
        ("$B$2:$D$9", Range(1, 1, 8, 3), "B2:D9"),
        ("A:C", Range(0, 0, MAX_ROWS - 1, 2), "A:C"),
        ("C:A", Range(0, 0, MAX_ROWS - 1, 2), "A:C"),
        ("3:5", Range(2, 0, 4, MAX_COLS - 1), "3:5"),
        ("$3:$5", Range(2, 0, 4, MAX_COLS - 1), "3:5"),
        ("Sheet1!A1:B2", Range(0, 0, 1, 1, "Sheet1"), "Sheet1!A1:B2"),
        ("'My Sheet'!A1:B2", Range(0, 0, 1, 1, "My Sheet"), "'My Sheet'!A1:B2"),
        ("'It''s'!C3", Range(2, 2, 2, 2, "It's"), "'It''s'!C3"),
        ("'2024'!A1", Range(0, 0, 0, 0, "2024"), "'2024'!A1"),
        ("'A1'!A1", Range(0, 0, 0, 0, "A1"), "'A1'!A1"),
        ("'Données Été'!A1", Range(0, 0, 0, 0, "Données Été"), "'Données Été'!A1"),
    ],
)
def test_parse_and_format(text: str, expected: Range, formatted: str) -> None:
    assert Range.parse(text) == expected
    assert str(Range.parse(text)) == formatted


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   ",
        "A1:B2:C3",
        "A1:",
        ":B2",
        "My Sheet!A1",
        "'unclosed!A1",
        "'x'A1",
        "A:1",
        "1:A",
        "A0:B2",
        "!A1",
        "A1:XFE3",
        "0:3",
    ],
)
def test_malformed_ranges(bad: str) -> None:
    with pytest.raises(RangeSyntaxError):
        Range.parse(bad)


def test_whole_columns_and_rows_flags() -> None:
    assert Range.parse("A:C").is_whole_columns and not Range.parse("A:C").is_whole_rows
    assert Range.parse("2:2").is_whole_rows
    assert Range.parse("A:C").height == MAX_ROWS


def test_geometry_helpers() -> None:
    r = Range.parse("B2:D9")
    assert (r.height, r.width, r.size) == (8, 3, 24)
    assert r.contains(1, 1) and not r.contains(0, 1)
    assert r.intersect(Range.parse("C5:F20")) == Range.parse("C5:D9")
    assert r.intersect(Range.parse("Z1")) is None
    assert list(Range.parse("A1:B2").cells()) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_invalid_corners_rejected() -> None:
    with pytest.raises(RangeSyntaxError):
        Range(5, 0, 2, 0)


@given(
    st.integers(0, MAX_ROWS - 1),
    st.integers(0, MAX_COLS - 1),
    st.integers(0, MAX_ROWS - 1),
    st.integers(0, MAX_COLS - 1),
)
def test_ranges_round_trip_through_text(r1: int, c1: int, r2: int, c2: int) -> None:
    rng = Range.from_cells(r1, c1, r2, c2, "Data 2024")
    assert Range.parse(str(rng)) == rng

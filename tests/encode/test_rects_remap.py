"""Rectangle covers are exact; the address map sends every compact address to the right original one."""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.encode import AddressMap, AxisMap, rectangles
from gridsight.errors import RangeSyntaxError
from gridsight.grid import Range


def _cover_to_grid(rects: np.ndarray, shape: tuple[int, int], skip: int) -> np.ndarray:
    out = np.full(shape, skip, dtype=np.int64)
    for t, left, b, r, k in rects.tolist():
        assert (out[t : b + 1, left : r + 1] == skip).all(), "rectangles overlap"
        out[t : b + 1, left : r + 1] = k
    return out


@pytest.mark.parametrize("seed", range(12))
def test_rectangles_cover_exactly(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(1, 30)), int(rng.integers(1, 30))
    keys = rng.integers(-1, 3, size=(h, w))  # few keys: many merges, -1 = empty
    rects = rectangles(keys, skip=-1)
    assert (_cover_to_grid(rects, (h, w), -1) == keys).all()
    corners = rects[:, :2].tolist()
    assert corners == sorted(corners)  # row-major by top-left


@pytest.mark.parametrize(
    ("grid", "expected"),
    [
        ([[1, 1], [1, 1]], [[0, 0, 1, 1, 1]]),
        ([[1, 2], [1, 2], [1, 2]], [[0, 0, 2, 0, 1], [0, 1, 2, 1, 2]]),  # columns win: 2 rectangles, not 3
        ([[1, 1, 1], [2, 2, 2]], [[0, 0, 0, 2, 1], [1, 0, 1, 2, 2]]),
        ([[-1, 5], [5, -1]], [[0, 1, 0, 1, 5], [1, 0, 1, 0, 5]]),
        ([[-1]], []),
    ],
)
def test_rectangles_table(grid: list[list[int]], expected: list[list[int]]) -> None:
    assert rectangles(np.array(grid, dtype=np.int64), skip=-1).tolist() == expected


def test_axis_map_segments_and_round_trip() -> None:
    kept = np.zeros(20, dtype=bool)
    kept[[0, 1, 2, 10, 11, 19]] = True
    axis = AxisMap.from_kept(3, kept)  # local index 0 is original 3; 0..2 stay themselves
    assert axis.segments() == [(0, 0, 6), (6, 13, 2), (8, 22, 1)]
    assert [axis.to_original(i) for i in range(9)] == [0, 1, 2, 3, 4, 5, 13, 14, 22]
    assert axis.to_original(12) == 26  # past the last kept line: same offset (empty in both sheets)
    assert [axis.to_compact(j) for j in (0, 5, 6, 12, 13, 14, 15, 21, 22, 30)] == [
        0,
        5,
        None,
        None,
        6,
        7,
        None,
        None,
        8,
        16,
    ]
    assert not axis.is_identity
    assert AxisMap.from_kept(0, np.ones(5, dtype=bool)).is_identity


def test_address_map_translates_cells_and_ranges() -> None:
    rows = np.zeros(100, dtype=bool)
    rows[:5] = True
    rows[95:] = True
    cols = np.array([True, True, False, False, True])
    amap = AddressMap("Data", AxisMap.from_kept(0, rows), AxisMap.from_kept(1, cols))
    assert amap.translate("A1") == "A1"
    assert amap.translate("B6") == "B96"
    assert amap.translate("A1:D10") == "A1:F100"  # compact D = original F (C, D dropped)
    assert str(amap.to_original("C6:D7")) == "Data!C96:F97"
    assert amap.translate("B:C") == "B:C"
    assert amap.translate("D:D") == "F:F"
    assert amap.translate("6:7") == "96:97"
    assert amap.to_compact("F96") == Range.parse("D6")
    assert amap.to_compact("D50") is None
    assert amap.to_json() == {
        "identity": False,
        "rows": [{"compact": "1:5", "original": "1:5"}, {"compact": "6:10", "original": "96:100"}],
        "cols": [{"compact": "A:C", "original": "A:C"}, {"compact": "D:D", "original": "F:F"}],
    }


def test_address_map_refuses_what_falls_off_the_grid() -> None:
    rows = np.zeros(10, dtype=bool)
    rows[[0, 9]] = True
    amap = AddressMap("S", AxisMap.from_kept(1_048_560, rows), AxisMap.identity())
    with pytest.raises(RangeSyntaxError):
        amap.translate("A1048575")
    with pytest.raises(RangeSyntaxError):
        amap.translate("not a range")

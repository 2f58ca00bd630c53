"""Bad and odd input: a detection (possibly empty) with a reason, in bounded time, never a traceback.

Every workbook is written here by openpyxl and read back through the real reader.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment

from gridsight.cli import cli
from gridsight.detect import detect_tables
from gridsight.grid import Sheet, SheetBuilder
from gridsight.sources import open_workbook


def _save(path: Path, fill: Callable[[Any, Any], None]) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "S"
    fill(wb, ws)
    wb.save(path)
    return path


def _small_table(ws: Any, top: int = 1) -> None:
    for c, head in enumerate(("Item", "Qty", "Price", "Cost"), start=1):
        ws.cell(row=top, column=c, value=head)
    for r in range(1, 7):
        ws.cell(row=top + r, column=1, value=f"item {r}")
        for c in range(2, 5):
            ws.cell(row=top + r, column=c, value=r * c)


def _only_merges(wb: Any, ws: Any) -> None:
    for r in range(1, 30, 3):
        ws.merge_cells(start_row=r, start_column=1, end_row=r + 1, end_column=5)


def _only_notes(wb: Any, ws: Any) -> None:
    for r in range(1, 8):
        ws.cell(row=r, column=1, value=f"Note {r}: these figures leave out what was not counted this year.")
    ws["C3"].comment = Comment("a cell comment is not a cell value", "someone")


def _chart_only(wb: Any, ws: Any) -> None:
    data = wb.create_sheet("data")
    for r in range(1, 5):
        data.append([r, r * 2])
    chart = BarChart()
    chart.add_data(Reference(data, min_col=2, min_row=1, max_row=4))
    ws.add_chart(chart, "B2")


@pytest.mark.parametrize(
    ("fill", "reason"),
    [
        (_only_merges, "merged ranges without content"),
        (_only_notes, "only 7 line(s) of text"),
        (_chart_only, "no cell values"),
    ],
    ids=["only-merged-cells", "only-notes", "chart-only"],
)
def test_a_sheet_without_a_table_says_why(tmp_path: Path, fill: Any, reason: str) -> None:
    sheet = open_workbook(_save(tmp_path / "odd.xlsx", fill)).sheet("S")
    det = detect_tables(sheet)
    assert det.tables == ()
    assert any(m.startswith("no table: ") and reason in m for m in det.notes), det.notes


def test_the_cli_prints_the_reason_and_succeeds(tmp_path: Path) -> None:
    path = _save(tmp_path / "chart.xlsx", _chart_only)
    res = CliRunner().invoke(cli, ["detect", str(path), "--sheet", "S", "--no-model"])
    assert res.exit_code == 0, res.output
    assert "no table: the sheet holds no cell values" in res.output


def test_hidden_rows_and_columns_are_still_part_of_the_table(tmp_path: Path) -> None:
    def fill(wb: Any, ws: Any) -> None:
        _small_table(ws)
        ws.row_dimensions[3].hidden = True
        ws.column_dimensions["B"].hidden = True

    det = detect_tables(open_workbook(_save(tmp_path / "hidden.xlsx", fill)).sheet("S"))
    assert [t.range.ref() for t in det.tables] == ["A1:D7"]
    assert det.tables[0].header_paths == ("Item", "Qty", "Price", "Cost")


def test_a_cell_in_the_last_column_does_not_stretch_the_table(tmp_path: Path) -> None:
    def fill(wb: Any, ws: Any) -> None:
        _small_table(ws)
        ws.cell(row=1, column=16_384, value="far away")  # XFD1, the last column Excel has

    t = time.perf_counter()
    det = detect_tables(open_workbook(_save(tmp_path / "wide.xlsx", fill)).sheet("S"))
    assert time.perf_counter() - t < 5
    assert [x.range.ref() for x in det.tables] == ["A1:D7"]


def test_16384_columns_by_61_rows_a_million_cells_is_one_table_in_bounded_time() -> None:
    b = SheetBuilder("wide")
    for c in range(16_384):
        b.set(0, c, f"h{c}")
    for r in range(1, 61):
        for c in range(16_384):
            b.add(r, c, 1, float(r + c))
    sheet = b.build()
    t = time.perf_counter()
    det = detect_tables(sheet)
    assert time.perf_counter() - t < 10
    assert [x.range.ref() for x in det.tables] == ["1:61"]


def test_thousands_of_column_strips_are_bounded_and_say_what_was_read() -> None:
    b = SheetBuilder("strips")  # every other column filled: thousands of one-column blocks
    for c in range(0, 4_000, 2):
        for r in range(10):
            b.set(r, c, "x" if r == 0 else r)
    t = time.perf_counter()
    det = detect_tables(b.build())
    assert time.perf_counter() - t < 10
    assert any("separate blocks on the sheet" in m for m in det.notes), det.notes


def test_thousands_of_tiny_tables_are_bounded() -> None:
    b = SheetBuilder("tiny")
    for i in range(0, 600, 4):
        for j in range(0, 400, 4):
            b.set(i, j, "a")
            b.set(i, j + 1, "b")
            b.set(i + 1, j, 1)
            b.set(i + 1, j + 1, 2)
    t = time.perf_counter()
    det = detect_tables(b.build())
    assert time.perf_counter() - t < 10
    assert 0 < len(det.tables) <= 500
    assert any("only the 500 largest were read" in m for m in det.notes)


def test_a_long_table_cut_by_blank_rows_into_more_blocks_than_are_read_stays_one_table() -> None:
    # 1,200 bands of four rows: more blocks than detection reads one by one; its sparse value
    # columns leave one column or another empty in some bands
    b = SheetBuilder("long")
    for c, name in enumerate(("Item", "North", "South", "East", "West")):
        b.set(0, c, name)
    for r in range(1, 6001):
        if r % 5 == 0:
            continue
        b.set(r, 0, f"item {r}")
        for c in range(1, 5):
            if (r * 7 + c * 3) % 4:  # a quarter of the figures missing
                b.set(r, c, float(r * c))
    t = time.perf_counter()
    det = detect_tables(b.build())
    assert time.perf_counter() - t < 10
    assert [x.range.ref() for x in det.tables] == ["A1:E6000"]


@pytest.mark.parametrize(
    ("cells", "reason"),
    [
        ({"A1": "LSD(0.05)", "B1": 2.24, "A2": "LSD(0.01)", "B2": 3.11}, "a few label | figure lines"),
        (
            {"A1": "Source:", "B1": "national survey office", "A2": "Released:", "B2": "May 2024"},
            "key | value lines (metadata)",
        ),
        ({"A1": "1) counted", "C1": "1) compté", "A2": "2) estimated", "C2": "2) estimé"}, "only footnotes"),
    ],
    ids=["label-figure-lines", "key-value-metadata", "footnotes-side-by-side"],
)
def test_blocks_that_are_no_table_say_what_they_read_as(cells: dict[str, object], reason: str) -> None:
    det = detect_tables(Sheet.from_cells("S", cells))
    assert det.tables == () and len(det.notes) == 1 and reason in det.notes[0]


def test_thousands_of_near_empty_spacer_columns_are_bounded() -> None:
    # every third column holds one stray figure and nothing in the header between blocks that each
    # name their rows: each is weighed as a spacer, a bounded number per block, in one pass
    b = SheetBuilder("spacers")
    for c in range(3_000):
        if c % 3 != 2:
            b.set(0, c, f"h{c}")
    for r in range(1, 40):
        for c in range(3_000):
            if c % 3 == 0:
                b.set(r, c, f"name {r}")  # each block names its rows: the spacers part them
            elif c % 3 == 1 or r == 5:
                b.add(r, c, 1, float(r * 7 + c))
    t = time.perf_counter()
    det = detect_tables(b.build())
    assert time.perf_counter() - t < 10
    assert det.tables


def test_hundreds_of_tables_touching_in_a_row_are_bounded() -> None:
    # 2-column tables side by side with no empty column, each header one row higher than the last
    # (a staircase): each is cut from the rest, a bounded number of times per sheet, in a loop
    # (cut by recursion, 600 tables overflowed Python's stack)
    b = SheetBuilder("touching")
    for t in range(600):
        top = 600 - t
        b.set(top, 2 * t, f"key{t}")
        b.set(top, 2 * t + 1, f"value{t}")
        for r in range(top + 1, top + 12):
            b.add(r, 2 * t, 1, float(r * 3 + t))
            b.add(r, 2 * t + 1, 1, float(r * 5 + t))
    t0 = time.perf_counter()
    det = detect_tables(b.build())
    assert time.perf_counter() - t0 < 20
    assert len(det.tables) > 100

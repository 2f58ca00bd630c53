"""Detection rules on small sheets built in memory: exact ranges, headers, titles, notes, totals."""

from __future__ import annotations

import time

import pytest

from gridsight.detect import detect_tables
from gridsight.grid import Sheet, SheetBuilder, Style

B = Style.BOLD


def _table(top: int, left: str, rows: int, header: tuple[str, ...], first: str = "r") -> dict[str, object]:
    """Cells of a header row and ``rows`` data rows: a label column then numbers."""
    from gridsight.grid import col_to_letters, letters_to_col

    c0 = letters_to_col(left)
    cells: dict[str, object] = {}
    for j, h in enumerate(header):
        cells[f"{col_to_letters(c0 + j)}{top}"] = h
    for i in range(1, rows + 1):
        cells[f"{col_to_letters(c0)}{top + i}"] = f"{first}{i}"
        for j in range(1, len(header)):
            cells[f"{col_to_letters(c0 + j)}{top + i}"] = i * 10 + j
    return cells


def ranges(sheet: Sheet) -> list[str]:
    return [t.range.ref() for t in detect_tables(sheet).tables]


CASES = [
    ("one table", _table(1, "A", 4, ("Name", "Q1", "Q2")), ["A1:C5"]),
    (
        "title and note are not part of the range",
        {
            "A1": "Sales by region",
            **_table(3, "A", 4, ("Region", "Q1", "Q2")),
            "A9": "Source: internal ledger, figures unaudited",
        },
        ["A3:C7"],
    ),
    (
        "side by side, one empty column apart",
        {**_table(1, "A", 4, ("Name", "Q1", "Q2")), **_table(1, "E", 6, ("City", "Pop", "Area"), "c")},
        ["A1:C5", "E1:G7"],
    ),
    (
        "stacked, one blank row apart, each with its own header",
        {**_table(1, "A", 3, ("Name", "Q1", "Q2")), **_table(6, "A", 3, ("City", "Pop", "Area"), "c")},
        ["A1:C4", "A6:C9"],
    ),
    (
        "blank spacing rows inside one headed table",
        {
            "A1": "Item",
            "B1": "Qty",
            "C1": "Price",
            "A3": "nut",
            "B3": 1,
            "C3": 2.5,
            "A5": "bolt",
            "B5": 4,
            "C5": 1.5,
            "A7": "gear",
            "B7": 2,
            "C7": 9.0,
        },
        ["A1:C7"],
    ),
    (
        "headerless blocks separated by blank rows stay apart",
        {
            "A1": "all",
            "B1": 1,
            "C1": 2,
            "A2": "n",
            "B2": 3,
            "C2": 4,
            "A4": "u",
            "B4": 5,
            "C4": 6,
            "A5": "n",
            "B5": 7,
            "C5": 8,
            # (four columns: two lines of label | figures in three or fewer are no table at all)
            **{f"D{r}": 10 * r for r in (1, 2, 4, 5)},
        },
        ["A1:D2", "A4:D5"],
    ),
    (
        "a header row repeated without a gap starts another table",
        {**_table(1, "A", 3, ("Name", "Q1", "Q2")), **_table(5, "A", 3, ("Name", "Q1", "Q2"), "s")},
        ["A1:C4", "A5:C8"],
    ),
    (
        "row labels standing one column apart belong to the table",
        {
            "A1": "Area",
            "C1": "2019",
            "D1": "2020",
            "A2": "North",
            "C2": 1,
            "D2": 2,
            "A3": "South",
            "C3": 3,
            "D3": 4,
            "A4": "East",
            "C4": 5,
            "D4": 6,
        },
        ["A1:D4"],
    ),
    (
        "a column group most rows leave blank, between two parts of a table, is part of it",
        {
            **_table(1, "A", 7, ("Name", "Q1", "Q2")),
            "E1": "Bonus",
            "E3": 5,
            "E6": 7,
            **{f"G{r}": r for r in range(2, 9)},
            **{f"H{r}": r * 2 for r in range(2, 9)},
            "G1": "Q3",
            "H1": "Q4",
        },
        ["A1:H8"],
    ),
    (
        "double-spaced rows, one with an empty cell, and a code scribbled under the last",
        {
            "A1": "Time",
            "B1": "Offense",
            "C1": "Place",
            "D1": "Case",
            "E1": "Unit",
            **{f"A{r}": 1000 + r for r in (3, 5, 7)},
            **{f"B{r}": "theft" for r in (3, 5, 7)},
            **{f"C{r}": "main st" for r in (3, 7)},
            **{f"D{r}": 16000 + r for r in (3, 5, 7)},
            **{f"E{r}": 300 + r for r in (3, 5, 7)},
            "E8": "RB97",
        },
        ["A1:E7"],
    ),
    (
        "a paragraph typed down the column beside a table is not its row-label column",
        {
            "A1": "Reject the null hypothesis as the value from the data of",
            "A2": "5.77 is beyond the critical value of 4.26. The mean efficiency",
            "A3": "of employees differs for the three methods that were tested.",
            "A4": "Note the p-value of 0.024 is below .05 indicating rejection of",
            "A5": "the null hypothesis.",
            **_table(2, "B", 3, ("Groups", "Count", "Sum")),
        },
        ["B2:D5"],
    ),
    (
        "a grand-total row after a blank row closes the table though it fills few columns",
        {**_table(1, "A", 3, ("Source", "SS", "df", "MS")), "A6": "Total", "B6": 29.7, "C6": 11},
        ["A1:D6"],
    ),
    (
        "a new header row under values, no gap (K.2): two tables; the line above it is a title",
        {
            **_table(1, "A", 3, ("Channel", "Gain", "Offset")),
            "A5": "*** End of header ***",
            **_table(6, "A", 4, ("Time", "Vout", "Vneg", "Comment")),
            **{f"D{r}": None for r in range(7, 11)},
        },
        ["A1:C4", "A6:C10"],
    ),
    (
        "a copy beside a table, joined by a stray figure in the gap column, is another table",
        {
            **{f"{c}1": v for c, v in zip("ABCEFG", ("Black", 1990, 1991, "Black", 1990, 1991), strict=True)},
            **{f"{c}{r}": (f"k{r}" if c in "AE" else r * 3) for r in range(2, 6) for c in "ABCEFG"},
            "D5": 99,
        },
        ["A1:C5", "E1:G5"],
    ),
    (
        "the same sub-labels under two groups do not make a copy of the table",
        {
            "B1": "Sales",
            "E1": "Costs",
            **_table(2, "A", 4, ("Region", "Min", "Max")),
            **{f"E{r}": r for r in range(3, 7)},
            **{f"F{r}": r * 3 for r in range(3, 7)},
            "E2": "Min",
            "F2": "Max",
        },
        ["A1:F6"],
    ),
]


@pytest.mark.parametrize(("name", "cells", "expected"), CASES, ids=[c[0] for c in CASES])
def test_ranges(name: str, cells: dict[str, object], expected: list[str]) -> None:
    assert ranges(Sheet.from_cells("S", cells)) == expected


def test_structure_title_note_header_totals_units() -> None:
    cells = {
        "A1": "Revenue by quarter",
        "A2": "USD (millions)",
        "B4": "Revenue",
        "A5": "Region",
        "B5": "2023",
        "D5": "2024",
        "B6": "Q1",
        "C6": "Q2",
        "D6": "Q1",
        "E6": "Q2",
        "A7": "North",
        "B7": 1,
        "C7": 2,
        "D7": 3,
        "E7": 4,
        "A8": "South",
        "B8": 5,
        "C8": 6,
        "D8": 7,
        "E8": 8,
        "A9": "Total",
        "B9": "=SUM(B7:B8)",
        "C9": "=SUM(C7:C8)",
        "D9": "=SUM(D7:D8)",
        "E9": "=SUM(E7:E8)",
        "A11": "* preliminary figures, subject to revision",
    }
    sheet = Sheet.from_cells(
        "S", cells, merges=("B4:E4", "B5:C5", "D5:E5"), styles={c: B for c in ("B4", "A5", "B5", "D5")}
    )
    (t,) = detect_tables(sheet).tables
    assert t.range.ref() == "A4:E9"
    assert t.header_rows == (3, 4, 5)
    assert t.header_paths == (
        "Region",
        "Revenue › 2023 › Q1",
        "Revenue › 2023 › Q2",
        "Revenue › 2024 › Q1",
        "Revenue › 2024 › Q2",
    )
    assert t.row_header_cols == (0,)
    assert t.total_rows == (8,)
    assert [x.range.ref() for x in t.titles] == ["A1", "A2"]
    assert [u.text for u in t.units] == ["USD (millions)"]
    assert [n.range.ref() for n in t.notes] == ["A11"]
    assert t.to_dict()["header_range"] == "A4:E6"


def test_merged_title_bridging_two_tables_is_a_title_not_a_bridge() -> None:
    cells = {
        "A1": "Two regions",
        **_table(2, "A", 3, ("Name", "Q1")),
        **_table(2, "D", 3, ("City", "Pop"), "c"),
    }
    sheet = Sheet.from_cells("S", cells, merges=("A1:E1",))
    det = detect_tables(sheet)
    assert [t.range.ref() for t in det.tables] == ["A2:B5", "D2:E5"]
    assert det.tables[0].title is not None and det.tables[0].title.range.ref() == "A1:E1"


def test_sparse_last_row_is_data_not_a_note() -> None:
    cells = {**_table(1, "A", 3, ("Name", "Q1", "Q2")), "A5": "r4"}
    assert ranges(Sheet.from_cells("S", cells)) == ["A1:C5"]


@pytest.mark.parametrize(
    ("cells", "expected"),
    [({}, []), ({"C3": 5}, []), ({"B2": "just a note"}, []), ({"A1": "x", "B1": 1}, [])],
)
def test_degenerate_sheets(cells: dict[str, object], expected: list[str]) -> None:
    assert ranges(Sheet.from_cells("S", cells)) == expected


def test_checkerboard_is_bounded_and_does_not_crash() -> None:
    b = SheetBuilder("chk")
    for r in range(300):
        for c in range(r % 2, 300, 2):
            b.set(r, c, r * c)
    sheet = b.build()
    t = time.perf_counter()
    det = detect_tables(sheet)
    assert time.perf_counter() - t < 10
    assert len(det.tables) <= 1


def test_dotted_grid_many_pieces_is_bounded() -> None:
    b = SheetBuilder("dots")
    for r in range(0, 400, 2):
        for c in range(0, 400, 2):
            b.set(r, c, 1)
    t = time.perf_counter()
    det = detect_tables(b.build())
    assert time.perf_counter() - t < 10
    assert det.tables == ()


def test_one_million_cells_single_table() -> None:
    from gridsight.bench.detect import synthetic_sheet

    sheet = synthetic_sheet(100_000, 10)
    t = time.perf_counter()
    det = detect_tables(sheet)
    assert time.perf_counter() - t < 10
    assert [x.range.ref() for x in det.tables] == ["A1:J100001"]
    assert det.tables[0].header_paths[:2] == ("col1", "col2")


# Layouts with merges: (name, cells, merged ranges, expected table ranges).
MERGED_CASES = [
    (
        "a caption stating a unit over every value column is a title, column numbers a header line",
        {
            "B1": "Unemployment level (thousands)",
            "B2": "(1)",
            "C2": "(2)",
            "D2": "(3)",
            **_table(3, "A", 3, ("Industry", "Mining", "Retail", "Finance")),
        },
        ("B1:D1",),
        ["A2:D6"],
    ),
    (
        "a group label merged over every value column without a unit stays in the header",
        {"B1": "Revenue", **_table(2, "A", 3, ("Region", "2023", "2024"))},
        ("B1:C1",),
        ["A1:C5"],
    ),
    (
        "spread group labels each over a label of their own are header rows, not a title",
        {
            "B1": "Domestic",
            "D1": "Offshore",
            "B2": "Paying",
            "D2": "Paying",
            **_table(3, "A", 3, ("Course", "Enrol", "Load", "Enrol", "Load")),
        },
        (),
        ["A1:E6"],
    ),
    (
        "a title at the left edge with a date far right is a title line",
        {
            "A1": "Operations schedule",
            "D1": "Week ending June 27",
            **_table(3, "A", 3, ("Crew", "Mon", "Tue", "Wed")),
        },
        (),
        ["A3:D6"],
    ),
]


@pytest.mark.parametrize(
    ("name", "cells", "merges", "expected"), MERGED_CASES, ids=[c[0] for c in MERGED_CASES]
)
def test_merged_layouts(
    name: str, cells: dict[str, object], merges: tuple[str, ...], expected: list[str]
) -> None:
    assert ranges(Sheet.from_cells("S", cells, merges=merges)) == expected


def test_paragraph_beside_a_table_is_its_notes_and_a_label_over_it_its_title() -> None:
    cells = {
        "A1": "Reject the null hypothesis as the value from the data of",
        "B1": "ANOVA",
        "A2": "5.77 is beyond the critical value of 4.26. The mean efficiency",
        "A3": "of employees differs for the three methods that were tested.",
        "A4": "Note the p-value of 0.024 is below .05 indicating rejection of",
        "A5": "the null hypothesis.",
        **_table(2, "B", 3, ("Groups", "Count", "Sum")),
    }
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "B2:D5"
    assert [x.text for x in t.titles] == ["Reject the null hypothesis as the value from the data of", "ANOVA"]
    assert [x.range.ref() for x in t.notes] == ["A2", "A3", "A4", "A5"]

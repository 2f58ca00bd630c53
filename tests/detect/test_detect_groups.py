"""Column groups set apart by spacer columns under a titled table: one table, not three.

A statistics table often leaves a blank column between its top-level header groups (``Active |
Openings | Closures``, each over its years). The label of a group right of a spacer stands alone
on its block's top row, where it reads like a title line; it is a column group when it opens on
the row where the left block's header opens, both headers end on the same row and the block under
it names no rows of its own. Each case is a real .xlsx written by openpyxl (``detect_xlsx``),
with the group labels merged or centred across their columns (no merge).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gridsight.detect import Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)

SECTORS = (
    ("A-S", "All sectors"),
    ("B", "Mining"),
    ("C", "Manufacturing"),
    ("D-E", "Utilities"),
    ("F", "Construction"),
    ("G", "Trade"),
    ("H", "Transport"),
    ("I", "Hospitality"),
    ("J", "Information"),
    ("L", "Real estate"),
    ("M", "Professional services"),
    ("N", "Support services"),
    ("S", "Other services"),
)
GROUPS = ("Active firms", "Openings", "Closures")


def _col(i: int) -> str:
    return chr(ord("A") + i)


def _statistics_table(
    measures: tuple[str, ...] = (),
) -> tuple[dict[str, object], list[str], list[str], int]:
    """A title, a unit line, then ``Code | Sector`` beside three groups of columns, a blank column
    between groups; under each group its ``measures`` (a third header level) over two years.
    Returns the cells, the group ranges, the bold cells and the last row."""
    cells: dict[str, object] = {
        "A1": "Table 3.1 Firms opened and closed by sector, 2021 and 2022",
        "A2": "Number of firms",
        "A3": "Code",
        "B3": "Sector",
    }
    years: tuple[object, ...] = (2021, "2022 (p)")
    width = len(years) * max(len(measures), 1)
    year_row = 4 + bool(measures)
    groups, left = [], 2
    for name in GROUPS:
        cells[f"{_col(left)}3"] = name
        groups.append(f"{_col(left)}3:{_col(left + width - 1)}3")
        for k, measure in enumerate(measures):
            cells[f"{_col(left + 2 * k)}4"] = measure
        for j in range(width):
            cells[f"{_col(left + j)}{year_row}"] = years[j % 2]
        left += width + 1
    top = year_row + 1
    for i, (code, name) in enumerate(SECTORS):
        r = top + i
        cells[f"A{r}"], cells[f"B{r}"] = code, name
        for g in range(len(GROUPS)):
            for j in range(width):
                cells[f"{_col(2 + g * (width + 1) + j)}{r}"] = 9000 - 600 * i + 37 * g + 5 * j
    cells[f"{_col(3 + width + 1)}{top + 1}"] = "c"  # suppressed figures
    cells[f"{_col(2 + 2 * (width + 1))}{top + 4}"] = "c"
    bold = ["A1", "A3", "B3", *(g.split(":")[0] for g in groups)]
    return cells, groups, bold, top + len(SECTORS) - 1


@pytest.mark.parametrize("spread", ["merged", "centred across"])
def test_column_groups_set_apart_by_spacers_under_a_title_are_one_table(
    detect_xlsx: DetectXlsx, spread: str
) -> None:
    cells, groups, bold, last = _statistics_table()
    merges, across = (tuple(groups), ()) if spread == "merged" else ((), tuple(groups))
    (table,) = detect_xlsx(cells, merges, tuple(bold), across).tables
    assert table.range.ref() == f"A3:J{last}"
    assert [t.text for t in table.titles] == [cells["A1"], cells["A2"]]
    assert table.header_rows == (2, 3)
    assert table.row_header_cols == (0, 1)
    paths = table.header_paths
    assert [paths[i] for i in (0, 1, 2, 3, 5, 6, 8, 9)] == [
        "Code",
        "Sector",
        "Active firms › 2021",
        "Active firms › 2022 (p)",
        "Openings › 2021",
        "Openings › 2022 (p)",
        "Closures › 2021",
        "Closures › 2022 (p)",
    ]


@pytest.mark.parametrize("spread", ["merged", "centred across"])
def test_column_groups_over_a_three_level_header_are_one_table(detect_xlsx: DetectXlsx, spread: str) -> None:
    cells, groups, bold, last = _statistics_table(("Number", "Rate"))
    merges, across = (tuple(groups), ()) if spread == "merged" else ((), tuple(groups))
    (table,) = detect_xlsx(cells, merges, tuple(bold), across).tables
    assert table.range.ref() == f"A3:P{last}"
    assert table.header_rows == (2, 3, 4)
    paths = table.header_paths
    assert [paths[i] for i in (0, 1, 2, 5, 7, 10, 12, 13)] == [
        "Code",
        "Sector",
        "Active firms › Number › 2021",
        "Active firms › Rate › 2022 (p)",
        "Openings › Number › 2021",
        "Openings › Rate › 2022 (p)",
        "Closures › Number › 2021",
        "Closures › Number › 2022 (p)",
    ]


def test_side_by_side_tables_each_with_a_title_and_row_names_stay_apart(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: the right block's lone label stands on the left block's header row, but
    # the right block names its own rows: a table of its own, titled
    cells: dict[str, object] = {"A1": "Table 1. Sales by region", "A2": "Region", "B2": "2021", "C2": "2022"}
    cells.update({"E2": "Table 2. Staff by city", "E3": "City", "F3": "Staff"})
    for i in range(8):
        cells[f"A{3 + i}"], cells[f"B{3 + i}"], cells[f"C{3 + i}"] = f"region {i}", 10 + i, 20 + i
        cells[f"E{4 + i}"], cells[f"F{4 + i}"] = f"city {i}", 5 + i
    tables = detect_xlsx(cells, (), ("A2", "E3", "F3")).tables
    assert [t.range.ref() for t in tables] == ["A2:C10", "E3:F11"]


def test_group_blocks_under_their_own_titles_on_one_row_stay_apart(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: each block carries its own title line on the same row, above both headers,
    # and names its own rows
    cells: dict[str, object] = {"A1": "Table A. Sales", "E1": "Table B. Rates"}
    cells.update({"A2": "Region", "B2": "2021", "C2": "2022", "E2": "Region", "F2": "2021", "G2": "2022"})
    for i in range(8):
        for left in "AE":
            col = ord(left) - ord("A")
            cells[f"{left}{3 + i}"] = f"region {i}"
            cells[f"{_col(col + 1)}{3 + i}"] = 10 + i + col
            cells[f"{_col(col + 2)}{3 + i}"] = 20 + i + col
    tables = detect_xlsx(cells).tables
    assert [t.range.ref() for t in tables] == ["A2:C10", "E2:G10"]


def test_a_year_merged_over_the_month_labels_is_a_header_row(detect_xlsx: DetectXlsx) -> None:
    # a lone year spanning the months under it reads as a figure, but it bands the header
    months = ("Jan", "Feb", "Mar", "Apr", "Total")
    cells: dict[str, object] = {
        "A1": "Arrivals by month, 2024",
        "A2": "Thousands",
        "B3": 2024,
        "A4": "Airport",
    }
    for j, month in enumerate(months):
        cells[f"{_col(j + 1)}4"] = month
    for i, (name, base) in enumerate([("North", 250.5), ("South", 390.1), ("East", 160.2)]):
        cells[f"A{5 + i}"] = name
        for j in range(4):
            cells[f"{_col(j + 1)}{5 + i}"] = f"{base + 10 * j:,.1f}"
        cells[f"F{5 + i}"] = f"{4 * base + 60:,.1f}"
    (table,) = detect_xlsx(cells, ("B3:F3",)).tables
    assert len(table.header_rows) == 2
    assert table.header_paths[1] == "2024 › Jan"


def test_a_date_in_the_header_reads_as_a_statement_writes_it(detect_xlsx: DetectXlsx) -> None:
    import datetime as dt

    cells: dict[str, object] = {
        "A1": "Balance sheet",
        "B2": dt.datetime(2024, 6, 30),
        "C2": dt.date(2023, 12, 31),
    }
    for i, (line, a, b) in enumerate(
        [("Inventories", 314, 319), ("Receivables", 423, 434), ("Cash", 676, 533)]
    ):
        cells[f"A{3 + i}"], cells[f"B{3 + i}"], cells[f"C{3 + i}"] = line, a, b
    (table,) = detect_xlsx(cells).tables
    assert table.header_paths[1:] == ("30 June 2024", "31 December 2023")


def test_title_lines_over_two_tables_side_by_side_are_their_titles(detect_xlsx: DetectXlsx) -> None:
    # a band of labels, a blank row above the two headers, each label over the first column of one
    # table (a unit line under it): the tables' titles, not a table of their own
    cells: dict[str, object] = {
        "A1": "Crops, 2020 to 2023",
        "A3": "Area harvested",
        "A4": "Thousand hectares",
        "G3": "Yield",
        "G4": "Tonnes per hectare",
    }
    for left in "AG":
        col = ord(left) - ord("A")
        cells[f"{left}6"] = "Crop"
        for j, year in enumerate(("2020", "2021", "2022")):
            cells[f"{_col(col + 1 + j)}6"] = year
        for i, crop in enumerate(("Wheat", "Barley", "Oats", "Rye")):
            cells[f"{left}{7 + i}"] = crop
            for j in range(3):
                cells[f"{_col(col + 1 + j)}{7 + i}"] = 100.5 + 10 * i + j + col
    tables = detect_xlsx(cells).tables
    assert [t.range.ref() for t in tables] == ["A6:D10", "G6:J10"]
    assert [x.text for x in tables[0].titles][-2:] == ["Area harvested", "Thousand hectares"]
    assert [x.text for x in tables[1].titles][-2:] == ["Yield", "Tonnes per hectare"]

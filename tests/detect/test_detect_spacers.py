"""Spacer columns: one table grouped by an empty column, or two tables beside each other.

Each case is a real .xlsx written by openpyxl (``detect_xlsx``); the header band decides, not the
gap's width.
"""

from __future__ import annotations

from collections.abc import Callable

from gridsight.detect import Detection

DetectXlsx = Callable[..., Detection]  # the ``detect_xlsx`` fixture (tests/detect/conftest.py)


def _ranges(detect_xlsx: DetectXlsx, cells: dict[str, object], merges: tuple[str, ...] = ()) -> list[str]:
    # headers bold, as usually typed (labels without digits)
    bold = tuple(k for k, v in cells.items() if isinstance(v, str) and not any(ch.isdigit() for ch in v))
    return [t.range.ref() for t in detect_xlsx(cells, merges, bold).tables]


def _rows(cells: dict[str, object], top: int, n: int, cols: dict[str, str | float]) -> None:
    """``n`` body rows from ``top``: per column a label prefix (str) or a step (float)."""
    for i in range(n):
        for col, kind in cols.items():
            cells[f"{col}{top + i}"] = (
                f"{kind} {i}" if isinstance(kind, str) else round(1 + i * float(kind), 2)
            )


def test_a_spacer_between_blocks_on_the_same_header_row_is_one_table(detect_xlsx: DetectXlsx) -> None:
    # the right block leaves its last rows empty: its rows are still the left block's rows
    cells: dict[str, object] = {"A1": "Region", "B1": "Sales", "D1": "Cost", "E1": "Margin"}
    _rows(cells, 2, 10, {"A": "region", "B": 3.5})
    _rows(cells, 2, 7, {"D": 1.25, "E": 0.5})
    assert _ranges(detect_xlsx, cells) == ["A1:E11"]


def test_a_spacer_between_groups_under_a_two_row_header_is_one_table(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {"B1": "North", "D1": "South", "E1": "South"}
    cells.update({"A2": "Month", "B2": "Units", "D2": "Units", "E2": "Value"})
    _rows(cells, 3, 10, {"A": "month", "B": 3.5})
    _rows(cells, 3, 6, {"D": 1.25, "E": 0.5})
    assert _ranges(detect_xlsx, cells) == ["A1:E12"]


def test_blocks_whose_bodies_start_on_different_rows_are_two_tables(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: the right block's header sits on the left block's first body row
    cells: dict[str, object] = {"A1": "Region", "B1": "Sales", "C1": "Cost", "E2": "Rate", "F2": "Index"}
    _rows(cells, 2, 20, {"A": "region", "B": 3.5, "C": 1.25})
    _rows(cells, 3, 19, {"E": 2.5, "F": 1.5})
    assert _ranges(detect_xlsx, cells) == ["A1:C21", "E2:F21"]


def test_blocks_that_each_name_their_rows_stay_two_tables(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {"A1": "Region", "B1": "Sales", "D1": "City", "E1": "Staff"}
    _rows(cells, 2, 8, {"A": "region", "B": 3.5, "D": "city", "E": 2.0})
    assert _ranges(detect_xlsx, cells) == ["A1:B9", "D1:E9"]


def test_a_stray_mark_in_a_spacer_column_does_not_join_two_tables(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {"A1": "Region", "B1": "Sales", "D1": "City", "E1": "Staff"}
    _rows(cells, 2, 8, {"A": "region", "B": 3.5, "D": "city", "E": 2.0})
    cells["C4"] = "*"  # a footnote mark typed in the spacer column
    assert _ranges(detect_xlsx, cells) == ["A1:B9", "D1:E9"]


def test_a_stray_figure_in_a_spacer_column_of_one_table_keeps_it_whole(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: the right block names no rows, the header bands agree: one table
    cells: dict[str, object] = {"A1": "Year", "B1": "Sales", "D1": "Cost", "E1": "Margin"}
    _rows(cells, 2, 10, {"A": 1.0, "B": 3.5, "D": 1.25, "E": 0.5})
    cells["C5"] = 7
    assert _ranges(detect_xlsx, cells) == ["A1:E11"]


def test_tables_that_each_name_rows_by_years_or_an_index_stay_two_tables(detect_xlsx: DetectXlsx) -> None:
    # years down the left block, a month index down the right one: each names its own rows
    cells: dict[str, object] = {"A1": "Year", "B1": "Output", "C1": "Prices", "E1": "Month", "F1": "Jobs"}
    cells.update({"G1": "Rate"})
    for i in range(8):
        cells.update({f"A{i + 2}": 2000 + i, f"B{i + 2}": 1.5 * i + 1, f"C{i + 2}": 2.5 * i + 1})
        cells.update({f"E{i + 2}": i + 1, f"F{i + 2}": 3.5 * i + 1, f"G{i + 2}": 0.5 * i + 1})
    assert _ranges(detect_xlsx, cells) == ["A1:C9", "E1:G9"]


def test_tables_touching_side_by_side_come_apart_where_a_header_stands_beside_a_body(
    detect_xlsx: DetectXlsx,
) -> None:
    # no empty column between: the right table's header row is the left table's first body row
    cells: dict[str, object] = {"A1": "Country", "B1": "2022", "C1": "2023", "D2": "Note", "E2": "Rank"}
    _rows(cells, 2, 8, {"A": "country", "B": 1.5, "C": 2.5})
    _rows(cells, 3, 4, {"D": "note", "E": 1.0})
    assert _ranges(detect_xlsx, cells) == ["A1:C9", "D2:E6"]


def test_a_table_with_a_two_row_header_over_some_columns_is_not_cut(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: a group row over the right columns only; both header bands end on one row
    cells: dict[str, object] = {"C1": "Forecast", "D1": "Forecast"}
    cells.update({"A2": "Region", "B2": "Actual", "C2": "Low", "D2": "High"})
    _rows(cells, 3, 8, {"A": "region", "B": 1.5, "C": 2.5, "D": 3.5})
    assert _ranges(detect_xlsx, cells) == ["A1:D10"]


def test_a_group_label_merged_over_a_spacer_column_heads_one_table(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {
        "B1": "Quarters",
        "A2": "Name",
        "B2": "Q1",
        "C2": "Q2",
        "E2": "Q3",
        "F2": "Q4",
    }
    _rows(cells, 3, 7, {"A": "name", "B": 1.0, "C": 2.5, "E": 3.5, "F": 4.5})
    assert _ranges(detect_xlsx, cells, ("B1:F1",)) == ["A1:F9"]


def test_a_title_merged_over_two_tables_from_the_left_edge_keeps_them_apart(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: a merged line from the first column over both blocks titles them
    cells: dict[str, object] = {"A1": "Staff and sites", "A2": "Region", "B2": "Staff", "D2": "City"}
    cells.update({"E2": "Sites"})
    _rows(cells, 3, 7, {"A": "region", "B": 1.0, "D": "city", "E": 3.5})
    assert _ranges(detect_xlsx, cells, ("A1:E1",)) == ["A2:B9", "D2:E9"]


def test_touching_tables_whose_row_names_end_on_different_rows_come_apart(detect_xlsx: DetectXlsx) -> None:
    # one header row, no empty column: the second column of names stops two rows early
    cells: dict[str, object] = {"A1": "Name", "B1": "Score", "C1": "Dept", "D1": "Budget"}
    _rows(cells, 2, 5, {"A": "name", "B": 1.5})
    _rows(cells, 2, 3, {"C": "dept", "D": 100.0})
    assert _ranges(detect_xlsx, cells) == ["A1:B6", "C1:D4"]


def test_a_column_of_repeated_categories_is_a_field_of_the_table(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: the labels in the third column repeat (a category) and end on the last row
    cells: dict[str, object] = {"A1": "Name", "B1": "Score", "C1": "Dept", "D1": "Budget"}
    _rows(cells, 2, 6, {"A": "name", "B": 1.5, "D": 100.0})
    cells.update({f"C{r}": ("sales", "admin")[r % 2] for r in range(2, 8)})
    assert _ranges(detect_xlsx, cells) == ["A1:D7"]


def test_blocks_that_each_carry_a_title_line_are_two_tables(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {"A1": "Table A. Sales", "D1": "Table B. Rates"}
    cells.update({"A2": "Region", "B2": "Sales", "D2": "Rate", "E2": "Index"})
    _rows(cells, 3, 8, {"A": "region", "B": 1.5, "D": 2.5, "E": 3.5})
    assert _ranges(detect_xlsx, cells) == ["A2:B10", "D2:E10"]


def test_one_title_over_blocks_split_by_a_spacer_heads_one_table(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: one title, the header on one row across the spacer
    cells: dict[str, object] = {"A1": "Table A. Sales and rates"}
    cells.update({"A2": "Region", "B2": "Sales", "D2": "Rate", "E2": "Index"})
    _rows(cells, 3, 8, {"A": "region", "B": 1.5, "D": 2.5, "E": 3.5})
    assert _ranges(detect_xlsx, cells) == ["A2:E10"]


def test_grouped_values_beside_the_row_names_across_a_spacer_are_one_table(
    detect_xlsx: DetectXlsx,
) -> None:
    # the group row stands over the right block only; the left block names the rows the right
    # block's figures fill, starting on the same row
    cells: dict[str, object] = {"A2": "Name", "B2": "Staff", "D1": "Sales", "F1": "Costs"}
    cells.update({"D2": "2022", "E2": "2023", "F2": "2022", "G2": "2023"})
    _rows(cells, 3, 5, {"A": "name", "B": 1.0, "D": 1.5, "E": 2.5, "F": 3.5, "G": 4.5})
    assert _ranges(detect_xlsx, cells, ("D1:E1", "F1:G1")) == ["A1:G7"]


def test_a_mark_over_an_empty_spacer_column_does_not_join_two_tables(detect_xlsx: DetectXlsx) -> None:
    # one cell in the header row over a column left blank below: still a spacer
    cells: dict[str, object] = {"A1": "Region", "B1": "Sales", "C1": "|", "D1": "City", "E1": "Staff"}
    _rows(cells, 2, 8, {"A": "region", "B": 1.5, "D": "city", "E": 2.0})
    assert _ranges(detect_xlsx, cells) == ["A1:B9", "D1:E9"]


def test_a_headed_column_left_blank_inside_one_table_keeps_it_whole(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: ``Q3`` not reported yet; the figures right of it name no rows of their own
    cells: dict[str, object] = {"A1": "Name", "B1": "Q1", "C1": "Q2", "D1": "Q3", "E1": "Q4", "F1": "Q5"}
    _rows(cells, 2, 8, {"A": "name", "B": 1.5, "C": 2.5, "E": 3.5, "F": 4.5})
    assert _ranges(detect_xlsx, cells) == ["A1:F9"]


def test_a_long_list_of_labels_has_no_header_band_to_part_it_by(detect_xlsx: DetectXlsx) -> None:
    # the counter-case: a list of films (title, director, year) whose first figure that is no year
    # comes 24 rows down has no header band 24 rows deep; the columns named but left blank
    # (``Seen``, ``Notes``) are fields of the one table with the ranks
    cells: dict[str, object] = {"A1": "Title", "B1": "Director", "C1": "Year", "D1": "Seen"}
    cells.update({"E1": "Notes", "F1": "Rank"})
    _rows(cells, 2, 30, {"A": "title", "B": "director"})
    cells.update({f"C{r}": 1950 + r for r in range(2, 32)})
    cells.update({f"F{r}": r - 1 for r in range(2, 32)})
    cells["A25"] = 42  # a title that reads as a number
    assert _ranges(detect_xlsx, cells) == ["A1:F31"]


def _balance_sheet(cells: dict[str, object]) -> None:
    """Years over spacer columns C and E, a blank row under them, sections cut by blank rows."""
    cells.update({"A1": "Acme Ltd", "A2": "Statement of financial position", "B4": "2022", "D4": "2023"})
    cells.update({"F4": "2024", "A6": "Assets", "A7": "Current assets:"})
    for top, n in ((8, 5), (14, 4)):
        for i in range(n):
            cells[f"A{top + i}"] = f"line {top + i}"
            for j, col in enumerate("BDF"):
                cells[f"{col}{top + i}"] = 1000 + 37 * (top + i) + 11 * j
    cells["A13"] = "Total current assets"


def test_years_over_spacer_columns_head_the_sections_below_them(detect_xlsx: DetectXlsx) -> None:
    # the row names and the first year's figures are cut apart from the later years by the
    # spacer columns, and the year header stands a blank row above them: still one table
    cells: dict[str, object] = {}
    _balance_sheet(cells)
    (table,) = detect_xlsx(cells).tables
    assert table.range.ref() == "A4:F17"
    assert [table.header_paths[i] for i in (1, 3, 5)] == ["2022", "2023", "2024"]


def test_years_typed_as_numbers_over_spacer_columns_are_the_header(detect_xlsx: DetectXlsx) -> None:
    cells: dict[str, object] = {}
    _balance_sheet(cells)
    cells.update({"B4": 2022, "D4": 2023, "F4": 2024})
    (table,) = detect_xlsx(cells).tables
    assert table.range.ref() == "A4:F17"
    assert table.header_rows[0] == 3  # row 4 (0-based 3); the blank row under it may join it
    assert table.data_range is not None and table.data_range.top == 5  # the body starts at Assets


def test_a_title_on_the_header_row_of_another_table_titles_the_table_under_it(
    detect_xlsx: DetectXlsx,
) -> None:
    # the sales table's title shares row 4 with the balance sheet's years, two blank columns apart
    cells: dict[str, object] = {}
    _balance_sheet(cells)
    cells.update({"I4": "Revenue by product, 2024", "I5": "Product", "J5": "Q1", "K5": "Q2"})
    _rows(cells, 6, 4, {"I": "product", "J": 3.5, "K": 1.5})
    tables = detect_xlsx(cells).tables
    assert [t.range.ref() for t in tables] == ["A4:F17", "I5:K9"]
    assert tables[1].title is not None and tables[1].title.text == "Revenue by product, 2024"


def test_figures_beside_row_names_on_other_rows_are_not_joined_across_a_spacer(
    detect_xlsx: DetectXlsx,
) -> None:
    # the counter-case: a block of figures only, whose rows are not the rows the left block fills
    cells: dict[str, object] = {"A1": "Item", "B1": "Amount"}
    _rows(cells, 2, 6, {"A": "item", "B": 3.5})
    _rows(cells, 4, 6, {"D": 1.5, "E": 2.5})
    assert "A1:E9" not in _ranges(detect_xlsx, cells)

"""Layout mechanisms of detection, each on a small sheet built here (and its counter-case)."""

from __future__ import annotations

import csv
from pathlib import Path

from gridsight.detect import detect_tables
from gridsight.grid import Sheet
from gridsight.sources import open_workbook


def ranges(sheet: Sheet) -> list[str]:
    return [t.range.ref() for t in detect_tables(sheet).tables]


def _body(top: int, rows: int) -> dict[str, object]:
    """Records from row ``top``: an id, a name, two figures (columns A..D)."""
    cells: dict[str, object] = {}
    for i in range(rows):
        r = top + i
        cells.update({f"A{r}": 100 + i, f"B{r}": f"district {i}", f"C{r}": 10 + i, f"D{r}": 1000 * (i + 1)})
    return cells


def test_a_header_block_with_years_heads_the_values_under_a_blank_row() -> None:
    head = {"C1": 2009, "D1": 2012, "A2": "No.", "B2": "Name", "C2": "Census count", "D2": "Allocation"}
    assert ranges(Sheet.from_cells("S", {**head, **_body(4, 6)})) == ["A1:D9"]


def test_a_value_row_above_a_blank_row_does_not_head_the_rows_under_it() -> None:
    # the same shape, but the upper block holds a figure that is no year: two tables' worth of rows
    head = {"C1": 55.5, "D1": 2012, "A2": "No.", "B2": "Name", "C2": "Census count", "D2": "Allocation"}
    assert "A1:D9" not in ranges(Sheet.from_cells("S", {**head, **_body(4, 6)}))


def _names(top: int, rows: int, start: int = 0) -> dict[str, object]:
    cells: dict[str, object] = {}
    for i in range(rows):
        r, k = top + i, start + i
        cells.update({f"A{r}": f"Person {k}", f"B{r}": f"{k} Main Street", f"C{r}": f"aide_{k}@example.org"})
    return cells


def test_a_list_of_labels_whose_first_row_names_its_columns_continues_across_a_blank_row() -> None:
    # (more than six rows above the gap: not a short header block over the rows below)
    cells = {"A1": "Name", "B1": "Office", "C1": "Contact", **_names(2, 8), **_names(11, 4, 8)}
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A1:C14" and t.header_paths == ("Name", "Office", "Contact")


def test_a_list_whose_first_row_repeats_lower_down_is_not_one_list() -> None:
    # a label list's names occurring again in their column: the first row is data, not a header
    cells = {"A1": "Person 0", "B1": "0 Main Street", "C1": "x", **_names(2, 8), **_names(11, 4, 0)}
    assert ranges(Sheet.from_cells("S", cells)) != ["A1:C14"]


def test_a_label_list_with_its_header_repeated_on_every_page_is_one_table() -> None:
    head = {"A1": "Name", "B1": "Office", "C1": "Contact"}
    cells = {**head, **_names(2, 4), **{k.replace("1", "6"): v for k, v in head.items()}}
    cells.update({**_names(7, 3, 4), **_names(11, 5, 7)})
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A1:C15" and t.header_paths == ("Name", "Office", "Contact")


def test_a_label_list_whose_first_row_repeats_in_part_is_not_headed_by_it() -> None:
    # only two of its three labels come again: a record, not the header printed again
    first = {"A1": "Person 0", "B1": "0 Main Street", "C1": "aide_0@example.org"}
    again = {"A6": "Person 0", "B6": "0 Main Street", "C6": "other@example.org"}
    cells = {**first, **_names(2, 4, 1), **again, **_names(7, 3, 5), **_names(11, 5, 8)}
    assert ranges(Sheet.from_cells("S", cells)) != ["A1:C15"]


def test_a_merged_source_line_exported_cell_by_cell_is_a_note(tmp_path: Path) -> None:
    source = "Source: National Statistics Service, Agricultural Prices."
    rows = [["Month", "North", "South", "East"]] + [
        [f"m{i}", i + 0.5, i + 0.25, i + 0.75] for i in range(1, 7)
    ]
    rows += [[source] * 4, ["Date run: 4/11/2014"] * 4]
    path = tmp_path / "prices.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    (t,) = detect_tables(next(iter(open_workbook(path)))).tables
    assert t.range.ref() == "A1:D7"
    assert [n.text for n in t.notes] == [source, "Date run: 4/11/2014"]


def test_a_last_row_with_different_labels_stays_a_row() -> None:
    cells = {"A1": "Month", "B1": "North", "C1": "South", "D1": "East"}
    cells.update({f"A{r}": f"m{r}" for r in range(2, 6)})
    cells.update({f"{c}{r}": r * 1.5 for r in range(2, 6) for c in "BCD"})
    cells.update({"A6": "Remark", "B6": "high", "C6": "low", "D6": "mid"})
    assert ranges(Sheet.from_cells("S", cells)) == ["A1:D6"]


def _survey(section_rows: bool) -> dict[str, object]:
    """A label column of sections (``Sex`` alone on its row) and categories, a spacer column E."""
    cells: dict[str, object] = {"C1": "Count", "D1": "Weighted", "F1": "Share", "G1": "Low", "H1": "High"}
    r = 2
    for section, cats in (("Sex", ("Female", "Male")), ("Age", ("18-24", "25-34", "35-44"))):
        if section_rows:
            cells[f"A{r}"] = section
            r += 1
        for k, cat in enumerate(cats):
            cells.update({f"B{r}": cat, f"C{r}": 100 + k, f"D{r}": 900.5 + k})
            cells.update({f"F{r}": 40.1 + k, f"G{r}": 38.2 + k, f"H{r}": 44.9 + k})
            r += 1
    return cells


def test_section_rows_leaving_the_value_columns_empty_do_not_split_a_table() -> None:
    assert ranges(Sheet.from_cells("S", _survey(True))) == ["A1:H8"]
    assert ranges(Sheet.from_cells("S", _survey(False))) == ["B1:H6"]


def test_a_key_value_block_of_metadata_is_not_a_table() -> None:
    cells = {
        "A1": "Region",
        "B1": "Q1",
        "C1": "Q2",
        **{f"A{r}": f"r{r}" for r in range(2, 6)},
        **{f"{c}{r}": r * 2 for r in range(2, 6) for c in "BC"},
        "A8": "Source:",
        "B8": "National statistics office, annual survey",
        "A9": "Released:",
        "B9": "November 2007",
        "A10": "Version:",
        "B10": 6,
    }
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A1:C5"
    # two lines of it under the table's columns do not continue the table either
    del cells["A10"], cells["B10"]
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A1:C5"


def test_a_two_column_table_of_figures_is_still_a_table() -> None:
    cells = {"A1": "Item", "B1": "Qty", **{f"A{r}": f"item {r}" for r in range(2, 7)}}
    cells.update({f"B{r}": r * 3 for r in range(2, 7)})
    assert ranges(Sheet.from_cells("S", cells)) == ["A1:B6"]
    small = {"A1": "Product", "B1": "Sales", "A2": "Tea", "B2": 5, "A3": "Cake", "B3": 7}
    assert ranges(Sheet.from_cells("S", small)) == ["A1:B3"]


def test_a_title_repeated_across_the_columns_right_of_an_empty_first_column_is_a_title() -> None:
    # a merged title exported cell by cell over B..E, the label column A empty on its rows
    title = "Estimated values by group, all years"
    cells: dict[str, object] = {f"{c}{r}": title for r in (1, 2) for c in "BCDE"}
    cells.update({"B3": "Total", "C3": "North", "D3": "South", "E3": "East"})
    cells.update({f"A{r}": f"year {r}" for r in range(4, 9)})
    cells.update({f"{c}{r}": r * 7 for r in range(4, 9) for c in "BCDE"})
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A3:E8" and t.title is not None and t.title.text == title


def test_remarks_typed_beside_a_table_without_a_gap_are_its_notes() -> None:
    cells: dict[str, object] = {"A1": "Item", "B1": "Qty", "C1": "Price"}
    for r in range(2, 8):
        cells.update({f"A{r}": f"item {r}", f"B{r}": r, f"C{r}": r * 1.25})
    cells["D3"] = "delivered late, the supplier was out of stock"
    cells["D6"] = "price agreed by phone, invoice to follow"
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A1:C7"
    assert [n.range.ref() for n in t.notes] == ["D3", "D6"]
    # a short code column filled on some rows is a field of the table, not remarks
    cells["D3"], cells["D6"] = "x", "y"
    cells["D1"] = "Flag"
    assert ranges(Sheet.from_cells("S", cells)) == ["A1:D7"]


def test_a_label_repeated_in_adjacent_header_cells_is_one_merged_label_not_a_copy() -> None:
    def sheet(first_row: list[str]) -> Sheet:
        cells: dict[str, object] = {f"{c}1": v for c, v in zip("ABCDEF", first_row, strict=True)}
        for r in range(2, 7):
            cells.update({f"A{r}": f"farm {r}", f"B{r}": f"crop {r}", f"C{r}": f"plot {r}"})
            cells.update({f"D{r}": r * 1.5, f"E{r}": r * 2.5, f"F{r}": r * 3.5})
        return Sheet.from_cells("S", cells)

    # a CSV export writes a label merged over A..C into each of its cells
    merged = ["All farms", "All farms", "All farms", "Estimate", "Error", "Share"]
    assert ranges(sheet(merged)) == ["A1:F6"]
    # the first label again further right, after other labels: a copy of the table beside it
    copy = ["All farms", "Crop", "Estimate", "All farms", "Crop", "Estimate"]
    assert len(ranges(sheet(copy))) == 2


def _sections(second_total: bool) -> dict[str, object]:
    cells: dict[str, object] = {"A1": "Tissue", "B1": "Group", "C1": "Samples", "D1": "Ratio"}
    rows = [("Blood", "Controls", 414, 1.2), ("Blood", "Cases", 324, 1.5), ("Total", "", 738, 1.3)]
    rows += [None, ("Liver", "Cases", 74, 0.4), ("Muscle", "Cases", 62, 0.5)]
    rows += [("Total", "", 136, 0.45)] if second_total else [("Skin", "Cases", 12, 0.9)]
    for r, row in enumerate(rows, start=2):
        if row is not None:
            cells.update({f"{c}{r}": v for c, v in zip("ABCD", row, strict=True) if v != ""})
    return cells


def test_sections_each_closed_by_a_total_are_one_table() -> None:
    assert ranges(Sheet.from_cells("S", _sections(True))) == ["A1:D8"]
    # a block after a total that does not end the same way is something else
    assert ranges(Sheet.from_cells("S", _sections(False)))[0] == "A1:D4"


def test_a_header_band_cut_by_spacer_columns_heads_one_body_across_blank_rows() -> None:
    # Month | price | volume (empty spacer column) price | volume, for two seasons, a group label
    # over the right half; two blank rows; the monthly figures under every column
    cells: dict[str, object] = {"A1": "Table 4 -- prices and volumes by month", "F2": "Later season"}
    cells.update({"B3": "2012/13", "C3": "2012/13", "E3": "2011/12", "F3": "2011/12"})
    cells.update({"A4": "Month", "B4": "price", "C4": "1,000 cwt", "E4": "price", "F4": "1,000 cwt"})
    for i, month in enumerate(("August", "September", "October", "November", "December"), start=7):
        cells.update({f"A{i}": month, f"B{i}": 14.0 + i / 10, f"C{i}": 8000 + i, f"E{i}": 12.0 + i / 10})
        cells[f"F{i}"] = 9000 + i
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.top == 2 and t.range.ref().endswith(":F11")  # from the header band (row 3) down
    assert t.header_paths[1] == "2012/13 › price"


def _regions(top: int) -> dict[str, object]:
    cells: dict[str, object] = {}
    for i, name in enumerate(["North", "South", "East", "West"]):
        r = top + i
        cells.update({f"A{r}": name, f"B{r}": 1000.5 + i, f"C{r}": 1010.25 + i})
        cells.update({f"D{r}": 5.5 + i, f"E{r}": 6.5 + i})
    return cells


def test_a_unit_line_under_a_row_of_years_is_one_more_header_line() -> None:
    head = {"A1": "Region", "B1": "Jobs", "C1": "Jobs", "D1": "Rate", "E1": "Rate"}
    head |= {"B2": 2022, "C2": 2023, "D2": 2022, "E2": 2023}
    head |= {"B3": "thousands", "C3": "thousands", "D3": "%", "E3": "%"}
    (t,) = detect_tables(Sheet.from_cells("S", {**head, **_regions(4)})).tables
    assert t.range.ref() == "A1:E7" and t.header_rows == (0, 1, 2)
    assert t.header_paths[1] == "Jobs › 2022 › thousands"


def test_a_header_under_rows_of_values_still_starts_a_new_table() -> None:
    # the counter-case: the same header stacked under another table's body is a table of its own
    head = {"A1": "Region", "B1": "Jobs", "C1": "Jobs", "D1": "Rate", "E1": "Rate"}
    lower = {f"{c}8": v for c, v in zip("ABCDE", ["Area", "Farms", "Farms", "Share", "Share"], strict=True)}
    cells = {**head, **_regions(2), "A6": "Town", "B6": 1, "C6": 2, "D6": 3, "E6": 4, **lower, **_regions(9)}
    assert len(detect_tables(Sheet.from_cells("S", cells)).tables) == 2


def test_a_section_label_under_the_header_opens_the_body() -> None:
    cells: dict[str, object] = {"A1": "Crop", "B1": 2011, "C1": 2016, "A2": "Field crops"}
    for i, crop in enumerate(["Kale", "Garlic"]):
        cells |= {f"A{3 + i}": crop, f"B{3 + i}": 10 + i, f"C{3 + i}": 20 + i}
    cells |= {"A5": "Greenhouse crops", "A6": "Tomatoes", "B6": 30, "C6": 40}
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.header_rows == (0,) and t.header_paths == ("Crop", "2011", "2016")


def test_a_label_alone_above_the_header_line_stays_in_the_header() -> None:
    # the counter-case: the stub's name on a line of its own above the years is not a section
    cells: dict[str, object] = {"B1": "Farms", "C1": "Farms", "A2": "Crop", "B2": 2011, "C2": 2016}
    for i, crop in enumerate(["Kale", "Garlic", "Leek"]):
        cells |= {f"A{3 + i}": crop, f"B{3 + i}": 10 + i, f"C{3 + i}": 20 + i}
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.header_rows == (0, 1)


def test_records_that_start_with_a_year_are_not_header_rows() -> None:
    # a CSV-like list (no styling): Year | Film | Role -- one year per record is data, not a header
    cells: dict[str, object] = {"A1": "Year", "B1": "Film", "C1": "Role"}
    records = [(1971, "The Devils", "Phillippe"), (1972, "The Boy Friend", "Fay"), (1973, "Eagle", "Betty")]
    records += [(1974, "The Love Ban", "Joyce"), (1975, "Mahler", "Alma")]
    for i, (year, film, role) in enumerate(records, start=2):
        cells |= {f"A{i}": year, f"B{i}": film, f"C{i}": role}
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.header_rows == (0,) and t.header_paths == ("Year", "Film", "Role")


def _statement(section_lines: bool, spacer: bool = False) -> dict[str, object]:
    """A balance sheet: a header (years over halves), then blocks of line items one blank row apart;
    each lower block opens with its own section line (``Liabilities``) when ``section_lines``; with
    ``spacer``, an empty column sets the years apart."""
    figures = "BCEF" if spacer else "BCDE"
    cells: dict[str, object] = {"B1": "2023", figures[2] + "1": "2024", "A2": "Item"}
    cells |= {f"{c}2": h for c, h in zip(figures, ("H1", "H2", "H1", "H2"), strict=True)}
    r = 3
    for section, items in [("Assets", ["Cash", "Stock"]), ("Liabilities", ["Payables", "Debt"]),
                           ("Equity", ["Capital", "Reserves"])]:  # fmt: skip
        if r > 3:
            r += 1  # a blank row between blocks
        if section_lines:
            cells[f"A{r}"] = section
            r += 1
        for i, item in enumerate(items):
            cells[f"A{r}"] = item
            cells |= {f"{c}{r}": 100 * (i + 1) + j for j, c in enumerate(figures)}
            r += 1
    return cells


def test_blocks_that_open_with_a_section_line_continue_the_table_above() -> None:
    # Liabilities and Equity under the header and the Assets: one statement, not three tables
    sheet = Sheet.from_cells("S", _statement(section_lines=True))
    (table,) = detect_tables(sheet).tables
    assert table.range.ref() == "A1:E13" and table.header_paths[1] == "2023 › H1"


def test_blocks_under_a_table_keep_its_spacer_column() -> None:
    # the same statement with a blank column between the years: the lower blocks, cut at that
    # column too, are still the statement's sections; a table beside it stays its own
    cells = _statement(section_lines=True, spacer=True)
    cells |= {"H1": "Region", "I1": "Units"} | {f"H{r}": f"R{r}" for r in range(2, 11)}
    cells |= {f"I{r}": r * 3 for r in range(2, 11)}
    assert ranges(Sheet.from_cells("S", cells)) == ["A1:F13", "H1:I10"]


def test_a_block_with_a_header_of_its_own_stays_a_table_of_its_own() -> None:
    # counter-case: under the statement, a blank row, then a block that names its own columns
    cells = _statement(section_lines=True)
    cells |= {"A15": "Ratio", "B15": "Target", "C15": "Actual", "A16": "Gearing", "B16": 0.4, "C16": 0.5}
    cells |= {"A17": "Cover", "B17": 3.0, "C17": 2.5}
    assert ranges(Sheet.from_cells("S", cells)) == ["A1:E13", "A15:C17"]


def _after_total(names: tuple[str, ...]) -> dict[str, object]:
    """Years over a first block closed by a total, then a blank row and one section line
    (``Region B``) over rows named ``names``, closed by a total too."""
    cells: dict[str, object] = {"A1": "Region A", "B1": 2001, "C1": 2002}
    for r, name in enumerate(("Violent", "Drug", "Total"), start=2):
        cells |= {f"A{r}": name, f"B{r}": 10 * r, f"C{r}": 10 * r + 3}
    cells["A6"] = "Region B"
    for r, name in enumerate(names, start=7):
        cells |= {f"A{r}": name, f"B{r}": 7 * r, f"C{r}": 7 * r + 2}
    return cells


def test_a_section_after_a_total_that_names_other_lines_continues_the_table() -> None:
    # a balance sheet: Total current assets, then the next section line over its own lines
    assert ranges(Sheet.from_cells("S", _after_total(("Loans", "Leases", "Total debt")))) == ["A1:C9"]


def test_the_same_lines_again_under_a_total_are_a_copy_of_the_table() -> None:
    # the same rows for another region, stacked under the first: two tables
    found = ranges(Sheet.from_cells("S", _after_total(("Violent", "Drug", "Total"))))
    assert found[0] == "A1:C4"  # (the copy, three lines without a header, is too small to read alone)

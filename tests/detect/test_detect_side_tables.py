"""A balance sheet and what stands beside it: a small sales table whose header rows line up with the
statement's column headings, a header row of dates written as text (``31.12.2024``) over a blank
row, and a spacer column between column groups (each with a counter-case). Figures made up."""

from __future__ import annotations

from gridsight.detect import detect_tables
from gridsight.grid import Sheet


def _statement_with_side_table() -> dict[str, object]:
    """Group and Company columns (a spacer between them) from row 6, a quarterly sales table in J:N
    whose header rows stand on the statement's heading rows and whose body starts above its lines."""
    cells: dict[str, object] = {"A1": "Fairholm plc", "A2": "Balance sheet at 31 March 2026"}
    cells.update({"C5": "Group", "F5": "Company"})
    cells.update({"B6": "Notes", "C6": "FY2026", "D6": "FY2025", "F6": "FY2026", "G6": "FY2025"})
    cells["J6"] = "Sales by quarter"
    cells.update({"C7": "£000", "D7": "£000", "F7": "£000", "G7": "£000"})
    cells.update({"J7": "£000", "K7": "Q1", "L7": "Q2", "M7": "Q3", "N7": "Q4"})
    cells.update({"J8": "FY26", "K8": 410, "L8": 380, "M8": 455, "N8": 390})
    cells.update({"J9": "FY25", "K9": 395, "L9": 360, "M9": 430, "N9": 401})
    cells["A9"] = "Non-current assets"
    lines = ["Goodwill", "Property, plant and equipment", "Investments", "Deferred tax"]
    for r, name in enumerate(lines, start=10):
        cells.update({f"A{r}": name, f"C{r}": 100 * r, f"D{r}": 90 * r, f"F{r}": 10 * r, f"G{r}": 9 * r})
    cells.update({"A14": "Total non-current assets", "C14": 4600, "D14": 4140, "F14": 460, "G14": 414})
    return cells


def test_a_side_tables_header_beside_the_statements_headings_stays_its_own() -> None:
    tables = detect_tables(Sheet.from_cells("S", _statement_with_side_table())).tables
    ranges = sorted(t.range.ref() for t in tables)
    assert any(r.startswith("A5:") or r.startswith("A6:") for r in ranges)
    assert not any(r.startswith("A") and r.split(":")[1][0] in "JKLMN" for r in ranges)
    statement = next(t for t in tables if t.range.ref().startswith(("A5", "A6")))
    assert statement.range.right <= 6  # (columns A to G: the quarters are no columns of the statement)


def test_the_spacer_column_between_column_groups_heads_nothing() -> None:
    tables = detect_tables(Sheet.from_cells("S", _statement_with_side_table())).tables
    statement = next(t for t in tables if t.range.ref().startswith(("A5", "A6")))
    spacer = 4 - statement.range.left  # column E
    assert statement.header_paths[spacer] == ""
    assert statement.header_paths[spacer + 1].startswith("Company")


def test_dates_written_as_text_over_a_blank_row_head_the_statement() -> None:
    cells: dict[str, object] = {"A1": "Consolidated balance sheet", "A2": "€ million"}
    cells.update({"B4": "31.12.2024", "C4": "31.12.2023", "A6": "ASSETS", "A7": "Non-current assets"})
    for r, name in enumerate(["Intangible assets", "Property", "Deferred tax assets"], start=8):
        cells.update({f"A{r}": name, f"B{r}": 100.5 * r, f"C{r}": 90.5 * r})
    (table,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert table.range.ref().startswith("A4")
    assert table.header_paths[1:] == ("31.12.2024", "31.12.2023")


def test_footnotes_numbered_with_a_point_are_still_notes() -> None:
    # the counter-case: "1." and "2." open notes; only a digit after the point makes a date or figure
    cells: dict[str, object] = {"A1": "Region", "B1": "Sales", "C1": "Costs"}
    for r in range(2, 7):
        cells.update({f"A{r}": f"region {r}", f"B{r}": r * 10, f"C{r}": r * 7})
    cells.update({"A9": "1. Unaudited.", "C9": "2. Restated."})
    (table,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert table.range.ref() == "A1:C6"


def test_years_down_the_first_column_label_the_rows() -> None:
    # ``2025`` and ``2024`` under a unit, quarters across: the years are the rows' labels
    cells: dict[str, object] = {"B1": "Revenue - quarterly", "B3": "£", "C3": "Q1", "D3": "Q2", "E3": "Q3"}
    cells.update({"F3": "Q4", "B4": 2025, "C4": 804331, "D4": 913259, "E4": 919129, "F4": 951679})
    cells.update({"B5": 2024, "C5": 827049, "D5": 938327, "E5": 671625, "F5": 914526})
    (table,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert table.row_header_cols == (1,)
    # the counter-case: a column of figures that are no years stays a column of figures
    cells.update({"B4": 12, "B5": 15})
    (table,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert table.row_header_cols == ()

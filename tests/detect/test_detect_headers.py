"""Header mechanisms on small sheets built here: header bands that spacer columns or blank rows cut,
wide first header rows, repeated page headers, footnotes set side by side (each with a counter-case)."""

from __future__ import annotations

from gridsight.detect import detect_tables
from gridsight.grid import Sheet


def ranges(cells: dict[str, object]) -> list[str]:
    return [t.range.ref() for t in detect_tables(Sheet.from_cells("S", cells)).tables]


def _months(top: int, cols: str) -> dict[str, object]:
    """Six rows of a month label in A and figures in ``cols`` from row ``top``."""
    cells: dict[str, object] = {}
    for i, m in enumerate(("Aug", "Sep", "Oct", "Nov", "Dec", "Jan")):
        cells[f"A{top + i}"] = m
        cells.update({f"{c}{top + i}": 10.5 + i + j for j, c in enumerate(cols)})
    return cells


def _rice(spacer_filled: bool) -> dict[str, object]:
    """A header the empty column E cuts in three pieces ending on row 4; group labels on row 2
    stand over only some of them (the left piece holds the title row too)."""
    cells: dict[str, object] = {"A1": "Table 4 -- monthly prices and sales by class"}
    cells.update({"D2": "Long grain", "I2": "Short grain"})
    cells.update({"C3": "2012/13", "F3": "2011/12", "H3": "2012/13", "J3": "2011/12"})
    cells.update({"A4": "Month", "B4": "$/cwt", "D4": "1,000 cwt", "F4": "$/cwt", "G4": "1,000 cwt"})
    cells.update({"H4": "$/cwt", "I4": "1,000 cwt", "J4": "$/cwt", "K4": "1,000 cwt"})
    cells.update(_months(6, "BCDEFGHIJK" if spacer_filled else "BCD"))
    return cells


def test_a_header_band_cut_by_spacer_columns_keeps_its_group_labels() -> None:
    # one body under all three pieces (it fills the column E the header leaves empty)
    (t,) = detect_tables(Sheet.from_cells("S", _rice(True))).tables
    assert t.range.ref() == "A2:K11"
    assert [x.text for x in t.titles] == ["Table 4 -- monthly prices and sales by class"]
    assert t.header_paths[3].startswith("Long grain ›")


def test_header_pieces_over_separate_bodies_stay_separate_tables() -> None:
    # the counter-case: the header pieces end on the same row, but each heads its own body
    cells: dict[str, object] = {"F1": "Cities"}
    cells.update({"A2": "Product", "B2": "Q1", "C2": "Q2", "E2": "City", "F2": "Q1", "G2": "Q2"})
    for r in range(4, 8):
        cells.update(
            {f"A{r}": f"p{r}", f"B{r}": r, f"C{r}": r * 2, f"E{r}": f"c{r}", f"F{r}": r, f"G{r}": r * 3}
        )
    assert sorted(ranges(cells)) == ["A2:C7", "E1:G7"]


def _goals(first_row: dict[str, object]) -> dict[str, object]:
    cells: dict[str, object] = {"A1": "State race to the top goals", **first_row}
    cells.update({f"{c}4": f"{2009 + j}-{10 + j}" for j, c in enumerate("DEFGHIJK")})
    for r in range(5, 10):
        cells.update({f"A{r}": f"goal {r}", f"C{r}": f"measure {r}"})
        cells.update({f"{c}{r}": 0.5 + r / 100 for c in "DEFGHIJK"})
    return cells


def test_a_first_header_row_of_column_names_over_a_row_of_years_is_the_tables() -> None:
    # four names over eleven columns, most over nothing, the row-label column's among them
    cells = _goals({"A3": "Goal", "C3": "Measure", "E3": "Baseline", "G3": "Targets"})
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A3:K9"
    assert t.header_rows[0] == 2


def test_a_title_with_a_date_beside_it_over_the_header_stays_a_title() -> None:
    (t,) = detect_tables(
        Sheet.from_cells("S", _goals({"A3": "Targets by goal", "H3": "as of May 2011"}))
    ).tables
    assert t.range.ref() == "A4:K9"
    assert any("Targets by goal" in x.text for x in t.titles)


def test_a_header_spread_over_blank_rows_heads_the_body_under_it() -> None:
    cells: dict[str, object] = {"B1": "Type of dwelling", "D1": "Total", "E1": "Floor area"}
    cells.update({"E2": "29 m2 or less", "F2": "30 to 49", "G2": "50 and over"})
    cells.update({"B5": "Type (English)", "D5": "Total", "E5": "and under", "G5": "and over", "D6": "1)"})
    for r in range(8, 14):
        cells.update({f"B{r}": f"kind {r}", f"C{r}": f"{r}-A"})
        cells.update({f"{c}{r}": 100 * r + j for j, c in enumerate("DEFG")})
    assert ranges(cells) == ["B1:G13"]  # the header rows under its blank rows carry a note mark


def test_footnotes_set_side_by_side_are_no_table() -> None:
    cells: dict[str, object] = {"A1": "Region", "B1": "Count", "C1": "Share"}
    cells.update({f"{c}{r}": r * (j + 1) for r in range(2, 7) for j, c in enumerate("BC")})
    cells.update({f"A{r}": f"region {r}" for r in range(2, 7)})
    cells.update({"A9": "1) counted at the census", "C9": "1) recensé au recensement"})
    cells.update({"A10": "2) estimated", "C10": "2) estimé"})
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A1:C6"
    assert any("1) counted at the census" in n.text for n in t.notes)


def test_a_numbered_list_with_the_marker_in_its_first_column_is_a_table() -> None:
    cells: dict[str, object] = {"A1": "Step", "B1": "Action", "C1": "Owner"}
    for r in range(2, 7):
        cells.update({f"A{r}": f"{r - 1}. step", f"B{r}": f"do thing {r}", f"C{r}": f"person {r % 2}"})
    assert ranges(cells) == ["A1:C6"]


def _anova(extra: dict[str, object]) -> dict[str, object]:
    cells: dict[str, object] = {"A1": "Source", "B1": "D.F.", "C1": "SS", "D1": "F"}
    for r, name in enumerate(("Block", "Treatment", "Error", "Total"), start=2):
        cells.update({f"A{r}": name, f"B{r}": r * 3, f"C{r}": r * 7.25, f"D{r}": r * 0.5})
    return {**cells, **extra}


def test_a_few_label_figure_lines_without_a_header_are_no_table() -> None:
    lines = {"A8": "LSD(0.05)", "B8": 2.2432, "A9": "LSD(0.01)", "B9": 3.1135}
    assert ranges(_anova(lines)) == ["A1:D5"]


def test_a_small_block_with_a_header_is_a_table() -> None:
    # the counter-case: the same lines under a header of their own
    block = {"A8": "Level", "B8": "LSD", "A9": "0.05", "B9": 2.2432, "A10": "0.01", "B10": 3.1135}
    block.update({"A9": "five percent", "A10": "one percent"})
    assert ranges(_anova(block)) == ["A1:D5", "A8:B10"]


def _long(top: int, bottom: int, cols: str = "ABCDE") -> dict[str, object]:
    """Rows ``top..bottom`` of a label and figures, a blank spacing row after every fourth."""
    cells: dict[str, object] = {}
    for r in range(top, bottom + 1):
        if (r - top + 1) % 5 == 0:
            continue
        cells[f"{cols[0]}{r}"] = f"item {r}"
        cells.update({f"{c}{r}": r * (j + 2) + 0.5 for j, c in enumerate(cols[1:])})
    return cells


def test_a_column_left_empty_by_chance_between_two_blank_rows_does_not_split_the_table() -> None:
    cells = {"A1": "Item", "B1": "North", "C1": "South", "D1": "East", "E1": "West", **_long(2, 31)}
    for r in range(12, 15):
        cells.pop(f"C{r}", None)  # one band of rows between spacing rows leaves column C empty
    assert ranges(cells) == ["A1:E30"]


def test_tables_side_by_side_between_wider_tables_stay_apart() -> None:
    # the counter-case: the band's right part starts with labels of its own (a header)
    cells = {"A1": "Item", "B1": "North", "C1": "South", "D1": "East", "E1": "West", **_long(2, 8)}
    cells.update({"A11": "Name", "B11": "Value", "D11": "Name", "E11": "Value"})
    for r in range(12, 15):
        cells.update({f"A{r}": f"a{r}", f"B{r}": r, f"D{r}": f"d{r}", f"E{r}": r * 2})
    cells.update({"A17": "Item", "B17": "North", "C17": "South", "D17": "East", "E17": "West"})
    cells.update(_long(18, 23))
    found = ranges(cells)
    assert "A11:B14" in found and "D11:E14" in found


def _pair(second_label: str) -> dict[str, object]:
    """Regions and their figures, then (no empty column between) a column of labels and figures."""
    cells: dict[str, object] = {
        "A1": "Region",
        "B1": "Q1",
        "C1": "Q2",
        "D1": second_label,
        "E1": "Staff",
        "F1": "Sites",
    }
    for r in range(2, 8):
        cells.update({f"A{r}": f"region {r}", f"B{r}": r * 1.5, f"C{r}": r * 2.5, f"E{r}": r * 3, f"F{r}": r})
    return cells


def test_a_second_column_of_row_names_starts_a_table_touching_the_first() -> None:
    cells = _pair("City")
    cells.update({f"D{r}": f"city {r}" for r in range(2, 8)})
    assert ranges(cells) == ["A1:C7", "D1:F7"]


def test_a_column_of_repeated_categories_is_a_field_of_the_table() -> None:
    # the counter-case: the labels repeat (a category, not the names of rows)
    cells = _pair("Continent")
    cells.update({f"D{r}": ("Europe", "Asia")[r % 2] for r in range(2, 8)})
    assert ranges(cells) == ["A1:F7"]


def _interim(notes: bool) -> dict[str, object]:
    """An interim statement's header: periods on two rows, ``Note`` on a row of its own above the
    notes column (or above a column of figures, the counter-case), units under all."""
    cells: dict[str, object] = {"A1": "Statement of comprehensive loss"}
    cells.update({"C3": "Three months ended", "D3": "Three months ended", "E3": "Year ended"})
    cells.update({"C4": "30 Sep 2026", "D4": "30 Sep 2025", "E4": "31 Dec 2025"})
    cells.update({"B5": "Note" if notes else "Group", "E5": "(audited)"})
    cells.update({"C6": "$000", "D6": "$000", "E6": "$000"})
    for i, label in enumerate(
        ("Product sales", "Royalties", "Total revenue", "Cost of sales", "Operating loss")
    ):
        cells.update({f"A{7 + i}": label, f"C{7 + i}": 100 + i, f"D{7 + i}": 90 + i, f"E{7 + i}": 400 + i})
        cells[f"B{7 + i}"] = ("4" if i % 3 == 0 else None) if notes else 5 + i
    return cells


def test_a_label_over_the_notes_column_heads_that_column_alone() -> None:
    (t,) = detect_tables(Sheet.from_cells("S", _interim(True))).tables
    assert t.header_paths[2] == "Three months ended › 30 Sep 2026 › $000"  # (no ``Note`` carried right)
    # (the counter-case: a label over a column of figures spreads over the empty cells to its right)
    (t,) = detect_tables(Sheet.from_cells("S", _interim(False))).tables
    assert "Group" in t.header_paths[2]


def test_a_year_over_a_sparse_column_of_figures_spreads_to_its_twin() -> None:
    # (German accounts: the year over the column of sub-items, few of its rows filled, heads the
    # column of totals beside it too)
    cells: dict[str, object] = {"A1": "Income statement", "C3": "2025", "E3": "2024"}
    cells.update({"C4": "EUR", "D4": "EUR", "E4": "TEUR", "F4": "TEUR"})
    lines = [
        ("Revenue", None, 500.0, None, 460),
        ("Cost of raw materials", 200.0, None, 185, None),
        ("Cost of services", 30.0, 230.0, 27, 212),
        ("Other expenses", None, 40.0, None, 38),
        ("Net income", None, 230.0, None, 210),
    ]
    for i, (label, *figures) in enumerate(lines):
        cells[f"B{5 + i}"] = label
        cells.update({f"{c}{5 + i}": v for c, v in zip("CDEF", figures, strict=True) if v is not None})
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.header_paths[-3].startswith("2025")  # (D, the totals column, under 2025 too)


def test_years_written_as_text_with_a_footnote_mark_are_a_header_row() -> None:
    # a unit over years typed as text, the last with its footnote mark ("2024 1)"): both rows head
    # the figures; a year's mark is no figure
    cells: dict[str, object] = {"A1": "Energy source", "B1": "GWh"}
    cells.update({"B2": "2022", "C2": "2023", "D2": "2024 1)"})
    for r, source in enumerate(("Hard coal", "Lignite", "Natural gas", "Hydro"), start=3):
        cells.update({f"A{r}": source, f"B{r}": 100 * r, f"C{r}": 90 * r, f"D{r}": 80 * r})
    (t,) = detect_tables(Sheet.from_cells("S", cells)).tables
    assert t.range.ref() == "A1:D6"
    assert t.header_paths[1:] == ("GWh › 2022", "GWh › 2023", "GWh › 2024 1)")

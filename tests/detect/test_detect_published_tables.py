"""Tables as statistics offices publish them, exported to CSV: headers spread over blank rows,
row labels' heading beside a group label, and a block of notes under the last row.

Each mechanism was found on an independent set of real published sheets (line-labelled statistical
abstracts and government CSVs, kept outside the repository) and is asserted here on a sheet built in
the test, with a counter-case that must keep its old reading.
"""

from __future__ import annotations

from gridsight.detect import detect_tables
from gridsight.grid import Sheet


def _tables(cells: dict[str, object]) -> list[tuple[str, tuple[int, ...]]]:
    return [(t.range.ref(), t.header_rows) for t in detect_tables(Sheet.from_cells("S", cells)).tables]


def _body(top: int, rows: int, cols: str = "ABCD") -> dict[str, object]:
    cells: dict[str, object] = {}
    for i in range(rows):
        cells[f"{cols[0]}{top + i}"] = f"Area {i + 1}"
        for j, c in enumerate(cols[1:], start=1):
            cells[f"{c}{top + i}"] = 100 * (i + 1) + j
    return cells


def test_notes_from_the_first_line_that_reads_as_one_down() -> None:
    """``Source: ...`` then ``Revised 12/2007`` right under the last row: both are notes, though
    the last line alone would read as a short row label."""
    cells = {
        "A1": "Immigrants by place of birth",
        "B2": "Town A",
        "C2": "Town B",
        "D2": "Town C",
        **_body(3, 6),
        "A9": "Source: Census of Population.",
        "A10": "Revised 12/2007",
    }
    assert [r for r, _ in _tables(cells)] == ["A2:D8"]


def test_a_short_label_under_the_last_row_with_no_note_above_it_stays_a_row() -> None:
    cells = {"B2": "Town A", "C2": "Town B", "D2": "Town C", **_body(3, 6), "A9": "Unallocated"}
    assert [r for r, _ in _tables(cells)] == ["A2:D9"]


def test_row_labels_heading_beside_a_group_label_is_the_headers_first_line() -> None:
    """``Country | Year`` over ``  | 2002 | 2003 | 2004``: the header's first line, not title words."""
    cells = {
        "A1": "Imports of services by country, mill. euro",
        "A2": "Country",
        "B2": "Year",
        **{f"{c}3": 2002 + i for i, c in enumerate("BCDEF")},
        **_body(4, 5, "ABCDEF"),
    }
    assert _tables(cells) == [("A2:F8", (1, 2))]  # (0-based rows)


def test_a_title_with_a_date_beside_it_over_a_blank_row_stays_a_title() -> None:
    cells = {
        "A1": "Operations",
        "B1": "June 2024",
        "A3": "Country",
        "B3": 2002,
        "C3": 2003,
        "D3": 2004,
        **_body(4, 5),
    }
    assert [r for r, _ in _tables(cells)] == ["A3:D8"]


def test_header_lines_spread_over_blank_rows_are_taken_in() -> None:
    """Merged cells of the original leave each header line with blank rows under it."""
    cells = {
        "A1": "Table 962. Renter-occupied units by state",
        "A3": "See notes",
        "B5": "Percent of units with rent of--",
        "D5": "Median rent",
        "C6": "Total",
        "B8": "FIPS",
        "A9": "State",
        "B9": "Code",
        "C9": "$299 or less",
        "D9": "$300 or more",
        **_body(11, 6),
    }
    ((rng, header),) = _tables(cells)
    assert rng == "A5:D16"
    assert header == (4, 5, 6, 7, 8, 9)  # (0-based: the lines and the blank rows between, not row 11)


def test_a_title_block_over_blank_rows_is_not_taken_in() -> None:
    """A lone title at the left edge, a merged title exported cell by cell, a list of form fields
    down one column: none of them is a header line."""
    header = {"A6": "State", "B6": "Men", "C6": "Women", "D6": "All"}
    for above in (
        {"A3": "Table 7. Population"},
        {"A3": "Population by state", "B3": "Population by state", "C3": "Population by state"},
        {"B2": "Trade price", "B3": "Qty per carton", "B4": "Discount code"},
    ):
        assert [r for r, _ in _tables({**above, **header, **_body(7, 5)})] == ["A6:D11"], above


def test_a_header_band_over_a_blank_row_and_a_line_of_repeated_labels_heads_the_body() -> None:
    """``1980 | 1990`` over ``Total | Males``, a blank row, then ``total`` over each figure column:
    one header with the body under it, not a header-only table and a headerless one."""
    cells: dict[str, object] = {"A1": "Table 7. Resident population by age and sex", "A3": "See notes"}
    cells.update({"A5": "Age group", "B5": "1980", "D5": "1990"})
    cells.update({"B6": "Total", "C6": "Males", "D6": "Total", "E6": "Males"})
    cells.update({f"{c}8": "total" for c in "BCDE"})
    for i in range(6):
        cells[f"A{9 + i}"] = f"{5 * i} to {5 * i + 4} years"
        cells.update({f"{c}{9 + i}": 1000 + 10 * i + j for j, c in enumerate("BCDE")})
    ((rng, header),) = _tables(cells)
    assert rng == "A5:E14" and header == (4, 5, 6, 7)

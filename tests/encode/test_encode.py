"""Whole encodings asserted exactly; the inverted index decodes back to the same cells; addresses map back."""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.encode import (
    EncodeOptions,
    decode_index,
    encode_sheet,
    escape_value,
    find_anchors,
    unescape_value,
    vanilla_encoding,
)
from gridsight.encode._cells import display_block
from gridsight.grid import CellError, Range, Sheet, Style, rc_to_a1

SMALL = {"A1": "Year", "B1": "Profit", "A2": 2023, "B2": 1.5, "A3": 2024, "C3": "a|b"}


def test_vanilla_is_the_papers_format() -> None:
    sheet = Sheet.from_cells("S", SMALL, formats={"B2": "0.00"})
    assert vanilla_encoding(sheet) == (
        "|A1,Year|B1,Profit|C1, |\n|A2,2023|B2,1.50|C2, |\n|A3,2024|B3, |C3,a|b|\n"
    )
    assert vanilla_encoding(sheet, formats=True).splitlines()[1] == "|A2,2023|B2,1.50,0.00|C2, |"
    vanilla = EncodeOptions(anchors=False, index=False, aggregate=False, semantic=False)
    assert encode_sheet(sheet, vanilla).text == vanilla_encoding(sheet)


def test_vanilla_starts_at_the_used_range() -> None:
    sheet = Sheet.from_cells("S", {"C4": "x", "D5": 1})
    assert vanilla_encoding(sheet) == "|C4,x|D4, |\n|C5, |D5,1|\n"


def test_all_modules_on_two_tables(two_tables: Sheet) -> None:
    enc = encode_sheet(two_tables)
    assert enc.text == (
        "A1 Sales report 2024\n"
        "A3:C3 Region|Units|Price\n"  # a header row of values that occur once: one list line
        "A4 North\n"
        "B4:B13,B18:B19 {IntNum}\n"
        "C4:C13 {FloatNum}\n"
        "A5:A12 {TextData}\n"  # semantic: the row labels between the first and the last
        "A13 West\n"
        "A15 Source: internal\n"
        "A17:B17 Year|Total\n"
        "A18:A19 {Year}\n"
    )
    assert (enc.rows, enc.cols, enc.kept_rows, enc.kept_cols) == (69, 3, 19, 3)
    assert enc.address_map.to_json()["rows"] == [
        {"compact": "1:8", "original": "1:8"},
        {"compact": "9:19", "original": "59:69"},
    ]
    # what the model names in the compact sheet is the right place in the real one
    assert enc.translate("A10") == "A60"
    assert enc.translate("A3:C13") == "A3:C63"  # the whole first table
    assert enc.translate("A17:B19") == "A67:B69"  # the second table
    assert two_tables.cell(enc.address_map.to_original("A15").top, 0).value == "Source: internal"


def test_without_semantic_every_row_label_is_kept(two_tables: Sheet) -> None:
    assert encode_sheet(two_tables, EncodeOptions(semantic=False)).text == (
        "A1 Sales report 2024\n"
        "A3:C3 Region|Units|Price\n"
        "A4,A8,A10 North\n"
        "B4:B13,B18:B19 {IntNum}\n"
        "C4:C13 {FloatNum}\n"
        "A5,A11 South\n"
        "A6,A12 East\n"
        "A7,A9,A13 West\n"
        "A15 Source: internal\n"
        "A17:B17 Year|Total\n"
        "A18:A19 {Year}\n"
    )


def test_original_addresses_are_the_sheets_own(two_tables: Sheet) -> None:
    enc = encode_sheet(two_tables, EncodeOptions(addresses="original", semantic=False))
    lines = enc.text.splitlines()
    assert "A4,A8,A60 North" in lines
    assert "B4:B8,B59:B63,B68:B69 {IntNum}" in lines
    assert "C4:C8,C59:C63 {FloatNum}" in lines
    assert "A65 Source: internal" in lines
    assert enc.address_map.is_identity
    for line in lines:  # every single-cell address holds exactly the printed value
        refs, _, value = line.partition(" ")
        if not value.startswith("{") and ":" not in refs:
            for ref in refs.split(","):
                assert str(two_tables.cell(ref).value) == value


def test_no_index_keeps_rows_and_writes_aggregates_once(two_tables: Sheet) -> None:
    text = encode_sheet(two_tables, EncodeOptions(index=False)).text
    lines = text.splitlines()
    assert lines[0] == "|A1,Sales report 2024|B1, |C1, |"
    assert lines[3] == "|A4,North|B4:B13,{IntNum}|C4:C13,{FloatNum}|"
    assert lines[4] == "|A5:A12,{TextData}|"  # semantic: row labels written once, like aggregates
    assert lines[5] == "||"  # every cell of row 6 is inside a rectangle written above
    assert lines[12] == "|A13,West|"
    assert lines[17] == "|A18:A19,{Year}|B18:B19,{IntNum}|C18, |"
    assert len(lines) == 19


def test_no_aggregate_keeps_every_value(two_tables: Sheet) -> None:
    text = encode_sheet(two_tables, EncodeOptions(aggregate=False, semantic=False)).text
    assert "B4:C4 10|1.25\n" in text  # rows are listed first: one line per record
    assert "B13:C13 69|60.25\n" in text  # compact row 13 = original row 63: 59 + 10, 1.25 + 59
    assert "{" not in text


@pytest.mark.parametrize("k", [0, 1, 2, 4, 8])
def test_k_controls_the_neighbourhood(two_tables: Sheet, k: int) -> None:
    a = find_anchors(two_tables, k)
    anchor_rows = np.flatnonzero(a.row_anchors).tolist()
    assert anchor_rows == [0, 1, 2, 3, 62, 63, 64, 65, 66, 67, 68]
    expected = sorted({r for x in anchor_rows for r in range(x - k, x + k + 1) if 0 <= r < 69})
    assert np.flatnonzero(a.keep_rows).tolist() == expected
    for boundary in (2, 62, 66, 68):  # header, last data row, second table's header and last row
        assert a.keep_rows[boundary]


def test_side_by_side_tables_of_different_heights_keep_both_bottoms() -> None:
    cells: dict[str, object] = {"A1": "Left", "B1": "L2", "C1": "L3", "E1": "Right", "F1": "R2", "G1": "R3"}
    for r in range(2, 12):
        cells.update({f"A{r}": r, f"B{r}": r * 2, f"C{r}": r * 3})
    for r in range(2, 60):
        cells.update({f"E{r}": r, f"F{r}": r * 2, f"G{r}": r * 3})
    a = find_anchors(Sheet.from_cells("S", cells), 0)
    assert a.row_anchors[10] and a.row_anchors[11]  # the left table ends at row 11 (index 10)
    assert a.row_anchors[58]
    assert np.flatnonzero(a.col_anchors).tolist() == [0, 2, 3, 4, 6]


@pytest.mark.parametrize(
    ("styles", "merges", "anchor"),
    [
        ({f"{c}6": Style.BOLD for c in "ABC"}, (), 5),  # a bold subtotal row
        ({f"{c}6": Style.BORDER_TOP for c in "ABC"}, (), 5),  # a rule above a total
        ({f"{c}6": Style.FILL for c in "ABC"}, (), 5),
        ({}, ("A6:C6",), 5),  # a merged band
    ],
)
def test_formatting_discrepancies_are_anchors(
    styles: dict[str, Style], merges: tuple[str, ...], anchor: int
) -> None:
    cells = {f"{c}{r}": r for c in "ABC" for r in range(1, 40)}
    sheet = Sheet.from_cells("S", cells, styles=styles, merges=merges)
    a = find_anchors(sheet, 0, tables=False)  # every discrepancy line
    assert a.row_anchors[anchor]
    plain = find_anchors(Sheet.from_cells("S", cells), 0, tables=False)
    assert not plain.row_anchors[anchor]
    assert np.flatnonzero(plain.row_anchors).tolist() == [0, 38]
    # with table anchors the line lies inside the detected table A1:C39's body: not a boundary
    assert np.flatnonzero(find_anchors(sheet, 0).row_anchors).tolist() == [0, 38]


def _original_cells(sheet: Sheet) -> dict[tuple[int, int], str]:
    h, w = sheet.shape
    texts = display_block(sheet, np.arange(h), np.arange(w))
    r0, c0 = sheet.origin
    return {(r0 + i, c0 + j): texts[i, j] for i, j in zip(*np.nonzero(texts != ""), strict=True)}


def test_inverted_index_is_lossless_on_a_real_file(budget: Sheet) -> None:
    enc = encode_sheet(budget, EncodeOptions(anchors=False, aggregate=False, semantic=False))
    assert decode_index(enc.text) == _original_cells(budget)


def test_inverted_index_with_extraction_decodes_to_the_kept_cells(budget: Sheet) -> None:
    enc = encode_sheet(budget, EncodeOptions(aggregate=False, semantic=False))
    decoded = decode_index(enc.text)
    original = _original_cells(budget)
    mapped = {}
    for (r, c), value in decoded.items():
        rng = enc.address_map.to_original(Range(r, c, r, c))
        mapped[(rng.top, rng.left)] = value
    formula_cell = (34, 2)  # C35 holds =SUM(C5:C34) and no cached value: shown re-addressed
    assert mapped.pop(formula_cell) == "=SUM(C5:C13)"
    original.pop(formula_cell)
    assert all(original[k] == v for k, v in mapped.items())
    kept_rows = {r for r, _ in mapped}
    assert {1, 3, 4, 33, 34, 36} <= kept_rows  # title, header, first/last data rows, total, note
    # every non-empty kept cell: title, 4 headers, 9 data rows x 4 (5 after the header, 4 before the
    # Total row: the table's bottom edge is the anchor), Total (formula popped), note
    assert len(mapped) == 1 + 4 + 36 + 1 + 1


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        "a|b",
        "line1\nline2",
        "back\\slash",
        "{not a type}",
        " leading space",
        "tab\there",
        "\\n",
        "é ü 中",
    ],
)
def test_values_round_trip_through_the_index(value: str) -> None:
    assert unescape_value(escape_value(value)) == value
    sheet = Sheet.from_cells("S", {"A1": value, "B2": value, "C3": "other"})
    enc = encode_sheet(sheet, EncodeOptions(aggregate=False))
    assert decode_index(enc.text) == {(0, 0): value, (1, 1): value, (2, 2): "other"}


@pytest.mark.parametrize(
    ("cells", "formats", "expected"),
    [
        ({"A1": 0.25, "A2": 0.5}, {"A1": "0%", "A2": "0%"}, "A1:A2 {0%}\n"),
        ({"A1": "12%", "A2": "15%"}, {}, "A1:A2 {PercentageNum}\n"),
        ({"A1": "ana@x.org", "A2": "bo@y.com"}, {}, "A1:A2 {EmailData}\n"),
        ({"A1": 1.5e20, "A2": 2e-12}, {}, "A1:A2 {ScientificNum}\n"),
        ({"A1": "14:30", "A2": "9:05"}, {}, "A1:A2 {TimeData}\n"),
        ({"A1": "$3.50", "A2": "$4"}, {}, "A1:A2 {CurrencyData}\n"),
        ({"A1": 3, "A2": 4.5}, {}, "A1:A2 {FloatNum}\n"),
        ({"A1": True, "A2": False}, {}, "A1:A2 TRUE|FALSE\n"),
        ({"A1": "0.326*", "A2": "0.5**"}, {}, "A1:A2 {FloatNum}\n"),  # significance stars
        ({"A1": "x", "A2": "   ", "A3": "y"}, {}, "A1:A3 x||y\n"),  # spaces look empty
        ({"A1": CellError("#DIV/0!"), "A2": CellError("#DIV/0!")}, {}, "A1:A2 #DIV/0!\n"),
    ],
)
def test_aggregation_types(cells: dict[str, object], formats: dict[str, str], expected: str) -> None:
    sheet = Sheet.from_cells("S", cells, formats=formats)
    assert encode_sheet(sheet).text == expected


def test_formula_text_that_cannot_be_readdressed_is_not_shown_with_stale_addresses() -> None:
    cells: dict[str, object] = {"A1": "Head", "B1": "Val"}
    for r in range(2, 50):
        cells[f"A{r}"] = f"r{r % 3}"
        cells[f"B{r}"] = r
    cells["A51"] = "Mid"
    cells["B51"] = "=B20*2"  # row 20 is in the dropped middle
    cells["B52"] = "=SUM(B2:B49)+Other!B30"  # kept corners; another sheet's address stays as it is
    sheet = Sheet.from_cells("S", cells)
    enc = encode_sheet(sheet, EncodeOptions(aggregate=False))
    lines = enc.text.splitlines()
    assert f"B{enc.address_map.to_compact('B51').top + 1} {{Formula}}" in lines  # type: ignore[union-attr]
    b49 = enc.address_map.to_compact("B49")
    assert b49 is not None
    assert f"B{enc.address_map.to_compact('B52').top + 1} =SUM(B2:{b49.ref()})+Other!B30" in lines  # type: ignore[union-attr]


# -- bad input ---------------------------------------------------------------------------------


def test_empty_sheet_encodes_to_nothing() -> None:
    enc = encode_sheet(Sheet.from_cells("Empty", {}))
    assert (enc.text, enc.rows, enc.kept_rows) == ("", 0, 0)
    assert vanilla_encoding(Sheet.from_cells("Empty", {})) == ""


def test_single_cell() -> None:
    sheet = Sheet.from_cells("S", {"XFD1048576": "last"})
    assert encode_sheet(sheet).text == "XFD1048576 last\n"
    assert vanilla_encoding(sheet) == "|XFD1048576,last|\n"


def test_all_16384_columns() -> None:
    cells = {rc_to_a1(0, c): f"h{c}" for c in range(16_384)}
    cells.update({rc_to_a1(r, c): r * c for r in range(1, 4) for c in range(16_384)})
    sheet = Sheet.from_cells("Wide", cells)
    enc = encode_sheet(sheet)
    assert enc.cols == 16_384
    assert enc.text.startswith("A1:J1 h0|h1|h2|h3|h4|h16379|h16380|h16381|h16382|h16383\n")
    assert enc.translate(f"{enc.text.splitlines()[-1].split(' ')[0].split(':')[-1]}").endswith("4")


def test_huge_text_cell_is_encoded_whole() -> None:
    big = "x" * 32_767
    sheet = Sheet.from_cells("S", {"A1": big, "A2": 1})
    enc = encode_sheet(sheet, EncodeOptions(semantic=False))
    assert enc.text == f"A1 {big}\nA2 {{IntNum}}\n"
    lossless = EncodeOptions(aggregate=False, semantic=False)
    assert decode_index(encode_sheet(sheet, lossless).text)[(0, 0)] == big
    assert encode_sheet(sheet).text == f"A1 {'x' * 40}…\nA2 {{IntNum}}\n"  # semantic: cut at 40


def test_decode_rejects_malformed_text() -> None:
    from gridsight.errors import RangeSyntaxError

    with pytest.raises(RangeSyntaxError):
        decode_index("A1\n")
    with pytest.raises(RangeSyntaxError):
        decode_index("A1:B2 x\nB2 y\n")
    with pytest.raises(RangeSyntaxError):
        decode_index("ZZZZ1 x\n")


def test_table_anchors_keep_edges_where_cells_start_or_stop_inside_a_detected_table() -> None:
    # one detected table A1:F40 whose columns D:F stop at row 20: where a merged neighbour would end
    cells: dict[str, object] = {f"{c}1": f"Head {c}" for c in "ABCDEF"}
    for r in range(2, 41):
        cells.update({f"{c}{r}": r * 3 + ord(c) for c in "ABC"})
        if r <= 20:
            cells.update({f"{c}{r}": r * 7 + ord(c) for c in "DEF"})
    a = find_anchors(Sheet.from_cells("S", cells), 0)
    assert np.flatnonzero(a.row_anchors).tolist() == [0, 1, 19, 20, 39]
    assert np.flatnonzero(a.col_anchors).tolist() == [0, 2, 3, 5]


def test_table_anchors_drop_section_rows_inside_a_table_body_and_keep_its_edges() -> None:
    # a bold row every 10 rows inside one long table: each was an anchor keeping 2k+1 rows
    cells: dict[str, object] = {"A1": "Sales", "A3": "Item", "B3": "Units", "C3": "Price"}
    styles = {f"{c}3": Style.BOLD for c in "ABC"}
    for r in range(4, 64):
        cells.update({f"A{r}": f"Item {r}", f"B{r}": r * 2, f"C{r}": r / 4})
        if r % 10 == 0:
            styles.update({f"{c}{r}": Style.BOLD for c in "ABC"})
    cells["A70"] = "Source: survey"
    sheet = Sheet.from_cells("S", cells, styles=styles)
    lines = find_anchors(sheet, 4, tables=False)
    tables = find_anchors(sheet, 4)
    assert int(lines.keep_rows.sum()) == 70  # every row sits within 4 of a bold row
    # kept: title, header, first data rows, the bottom edge and the note; the body's middle dropped
    assert np.flatnonzero(~tables.keep_rows).tolist() == list(range(8, 58))
    assert {0, 2, 3, 62, 69} <= set(np.flatnonzero(tables.row_anchors).tolist())

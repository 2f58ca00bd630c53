"""Value lists: runs of once-occurring values (or one run repeated) as one line, exact outputs; lossless."""

from __future__ import annotations

import pytest

from gridsight.encode import EncodeOptions, decode_index, encode_sheet
from gridsight.errors import RangeSyntaxError
from gridsight.grid import Sheet, Style

#: The paper's three modules plus lists; semantic compression off so every value is literal.
LOSSLESS = EncodeOptions(anchors=False, aggregate=False, semantic=False)


@pytest.mark.parametrize(
    ("cells", "styles", "expected"),
    [
        # a header row is one line: rows are listed first
        ({"A1": "Region", "B1": "Units", "C1": "Price"}, {}, "A1:C1 Region|Units|Price\n"),
        # a column of names
        ({"A1": "Ana", "A2": "Bo", "A3": "Cy"}, {}, "A1:A3 Ana|Bo|Cy\n"),
        # up to two empty cells are bridged, a third starts a new line
        ({"A1": "a", "D1": "d", "H1": "h"}, {}, "A1:D1 a|||d\nH1 h\n"),
        # a repeated value keeps its index line and breaks the run
        ({"A1": "a", "B1": "x", "C1": "c", "A2": "x"}, {}, "A1 a\nB1,A2 x\nC1 c\n"),
        # a value that fills a rectangle is not listed
        ({"A1": "a", "B1": "x", "C1": "x", "D1": "d"}, {}, "A1 a\nB1:C1 x\nD1 d\n"),
        # a bold header cell does not join the plain cells under it
        ({"A1": "Name", "A2": "Ana", "A3": "Bo"}, {"A1": Style.BOLD}, "A1 Name\nA2:A3 Ana|Bo\n"),
        # a header row (text only) does not run down into data rows (rows with values), and text
        # and numbers (another kind, so another signature) are never in one list
        (
            {"A1": "Name", "B1": "Age", "A2": "Ana", "B2": 30, "A3": "Bo", "B3": 41},
            {},
            "A1:B1 Name|Age\nA2:A3 Ana|Bo\nB2:B3 30|41\n",
        ),
        # a bar inside a value is escaped; the separator is not
        ({"A1": "a|b", "B1": "c"}, {}, "A1:B1 a\\|b|c\n"),
        # a single once-occurring value stays an index line
        ({"A1": "alone"}, {}, "A1 alone\n"),
        # a header row repeated over a second block is one list written at both places
        (
            {"A1": "Name", "B1": "Qty", "C1": "Note", "A4": "Name", "B4": "Qty", "C4": "Note"},
            {},
            "A1:C1,A4:C4 Name|Qty|Note\n",
        ),
        # a repeated column of labels, with the gap it bridges at each place
        ({"A1": "h", "A3": "m", "C1": "h", "C3": "m"}, {}, "A1:A3,C1:C3 h||m\n"),
        # a value of the run that also stands elsewhere keeps the run on index lines (never both)
        (
            {"A1": "Name", "B1": "Qty", "A4": "Name", "B4": "Qty", "D6": "Qty"},
            {},
            "A1,A4 Name\nB1,B4,D6 Qty\n",
        ),
    ],
)
def test_lists(cells: dict[str, object], styles: dict[str, Style], expected: str) -> None:
    sheet = Sheet.from_cells("S", cells, styles=styles)
    text = encode_sheet(sheet, LOSSLESS).text
    assert text == expected
    decoded = decode_index(text)
    assert {(r, c): v for (r, c), v in decoded.items()} == {k: str(v) for k, v in _cells_rc(cells).items()}


def _cells_rc(cells: dict[str, object]) -> dict[tuple[int, int], object]:
    from gridsight.grid import a1_to_rc

    return {a1_to_rc(ref): v for ref, v in cells.items()}


def test_without_lists_every_value_has_its_address() -> None:
    sheet = Sheet.from_cells("S", {"A1": "Region", "B1": "Units"})
    assert encode_sheet(sheet, EncodeOptions(lists=False)).text == "A1 Region\nB1 Units\n"


def test_a_list_never_spans_dropped_columns_with_original_addresses() -> None:
    cells: dict[str, object] = {}
    for c in range(30):  # 30 identical numeric columns: anchors drop the middle ones
        col = chr(ord("A") + c) if c < 26 else "A" + chr(ord("A") + c - 26)
        cells[f"{col}1"] = f"h{c}"
        for r in range(2, 6):
            cells[f"{col}{r}"] = r
    sheet = Sheet.from_cells("S", cells)
    original = encode_sheet(sheet, EncodeOptions(addresses="original", semantic=False)).text
    assert original.splitlines()[:2] == ["A1:E1 h0|h1|h2|h3|h4", "Z1:AD1 h25|h26|h27|h28|h29"]
    compact = encode_sheet(sheet, EncodeOptions(semantic=False)).text
    assert compact.splitlines()[0] == "A1:J1 h0|h1|h2|h3|h4|h25|h26|h27|h28|h29"


@pytest.mark.parametrize(
    "text",
    [
        "A1:B1 a|b|c\n",  # three items for two cells
        "A1:B2 a|b|c|d\n",  # a list needs one row or one column
        "A1,B1 a|b\n",  # each range of a list holds every item
        "A1:B1,A3:C3 a|b\n",  # ... at every place it is written
        "A1:B1,B1:C1 a|b\n",  # places never overlap
    ],
)
def test_decode_rejects_malformed_lists(text: str) -> None:
    with pytest.raises(RangeSyntaxError):
        decode_index(text)

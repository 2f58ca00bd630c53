"""Semantic compression (lossy, on by default): exact outputs on small sheets, one table per rule."""

from __future__ import annotations

import datetime as dt

import pytest

from gridsight.encode import EncodeOptions, decode_sheet, encode_sheet
from gridsight.encode._semantic import LONG_TEXT, shorten
from gridsight.grid import Kind, Sheet

NO_ANCHORS = EncodeOptions(anchors=False)


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("short", 40, "short"),
        ("x" * 40, 40, "x" * 40),  # exactly at the limit: whole
        ("Source: Iowa Department of Education, Bureau of Planning", 30, "Source: Iowa Department of…"),
        ("Notes: a, b, c, d, e, f, g, h, i, j, k", 20, "Notes: a, b, c, d…"),  # no dangling comma
        ("-" * 60, 40, "-" * 40 + "…"),  # no space to cut at: cut at the limit, keep the dashes
        ("word " + "y" * 50, 40, "word " + "y" * 35 + "…"),  # the only space is too early
    ],
)
def test_shorten(text: str, limit: int, expected: str) -> None:
    assert shorten(text, limit) == expected


def _labelled_rows(names: list[str], header: bool = True) -> dict[str, object]:
    cells: dict[str, object] = {"A1": "Name", "B1": "Score"} if header else {}
    for i, name in enumerate(names):
        cells[f"A{i + 2}"] = name
        cells[f"B{i + 2}"] = i + 1
    return cells


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        # the middle of a run of row labels becomes {TextData}; the first and last stay
        (
            _labelled_rows(["Ana", "Bo", "Cy", "Di", "Ed"]),
            "A1:B1 Name|Score\nA2 Ana\nB2:B6 {IntNum}\nA3:A5 {TextData}\nA6 Ed\n",
        ),
        # three labels are too few to summarise
        (_labelled_rows(["Ana", "Bo", "Cy"]), "A1:B1 Name|Score\nA2:A4 Ana|Bo|Cy\nB2:B4 {IntNum}\n"),
        # one value repeated is one index line already: left alone
        (_labelled_rows(["-", "-", "-", "-"]), "A1:B1 Name|Score\nA2:A5 -\nB2:B5 {IntNum}\n"),
        # labels in rows without values (a list of notes, a header block) are never summarised
        ({f"A{r}": f"note {r}" for r in range(1, 7)}, "A1:A6 note 1|note 2|note 3|note 4|note 5|note 6\n"),
    ],
)
def test_row_labels_of_data_rows(cells: dict[str, object], expected: str) -> None:
    assert encode_sheet(Sheet.from_cells("S", cells), NO_ANCHORS).text == expected


def test_long_text_is_cut_and_short_text_kept() -> None:
    note = "Figures represent average total salaries for staff by position."
    sheet = Sheet.from_cells("S", {"A1": note, "A2": "Total"})
    assert encode_sheet(sheet).text == "A1:A2 Figures represent average total…|Total\n"
    assert encode_sheet(sheet, EncodeOptions(semantic=False)).text == f"A1:A2 {note}|Total\n"
    assert len("Figures represent average total") <= LONG_TEXT


@pytest.mark.parametrize(
    ("values", "formats", "semantic", "expected"),
    [
        # a column of whole and fractional amounts split by a dash: one type with semantic
        ([1, 2, "-", 2.5, 3], {}, True, "A1:A2,A4:A5 {FloatNum}\nA3 -\n"),
        ([1, 2, "-", 2.5, 3], {}, False, "A1:A2 {IntNum}\nA3 -\nA4:A5 {FloatNum}\n"),
        # plain number formats show their type; currency, percent and dates keep their format
        ([1.5, 2.25], {"A1": "0.0", "A2": "#,##0.00"}, True, "A1:A2 {FloatNum}\n"),
        ([1.5, 2.25], {"A1": "0.0", "A2": "#,##0.00"}, False, "A1 {0.0}\nA2 {#,##0.00}\n"),
        ([0.5, 0.25], {"A1": "0%", "A2": "0%"}, True, "A1:A2 {0%}\n"),
    ],
)
def test_one_number_type_per_column(
    values: list[object], formats: dict[str, str], semantic: bool, expected: str
) -> None:
    sheet = Sheet.from_cells("S", {f"A{i + 1}": v for i, v in enumerate(values)}, formats=formats)
    assert encode_sheet(sheet, EncodeOptions(anchors=False, semantic=semantic)).text == expected


def test_decoded_sheet_holds_what_the_text_says() -> None:
    text = "A1:B1 Name|When\nA2 Ana\nA3:A5 {TextData}\nB2:B5 {DateData}\nC2 {#,##0.00}\nC3 {IntNum}\n"
    sheet = decode_sheet(text, "D")
    assert sheet.cell("A1").value == "Name"
    assert sheet.cell("A4").value == "{TextData}"
    assert sheet.cell("B3").value == dt.datetime(2020, 1, 1)
    c2 = sheet.cell("C2")
    assert (c2.kind, c2.value, c2.number_format) == (Kind.NUMBER, 1.5, "#,##0.00")
    assert sheet.cell("C3").value == 7

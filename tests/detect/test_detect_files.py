"""Detection on real files written by openpyxl here, and the EoB scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridsight.detect import detect_tables, eob_score, forget_detections
from gridsight.grid import Range, Sheet
from gridsight.sources import open_workbook


def test_openpyxl_workbook(styled_xlsx: Path) -> None:
    wb = open_workbook(styled_xlsx)
    det = detect_tables(wb.sheet("Report"))
    assert [t.range.ref() for t in det.tables] == ["A3:C8", "E3:G7"]
    left, right = det.tables
    assert left.header_rows == (2,) and left.header_paths == ("Product", "Q1", "Q2")
    assert left.total_rows == (7,)
    assert left.title is not None and left.title.range.ref() == "A1:H1"
    assert [n.text for n in left.notes] == ["Source: sales ledger, unaudited figures for the quarter"]
    assert right.header_paths == ("City", "Q1", "Q2") and right.total_rows == ()


@pytest.mark.parametrize(
    ("pred", "gold", "k", "matched"),
    [
        (["A1:C5"], ["A1:C5"], 0, 1),
        (["A1:C6"], ["A1:C5"], 0, 0),
        (["A1:C6"], ["A1:C5"], 2, 1),
        (["A1:C8"], ["A1:C5"], 2, 0),
        (["A1:C5", "A1:C5"], ["A1:C5"], 0, 1),
        ([], ["A1:C5"], 0, 0),
    ],
)
def test_eob_score(pred: list[str], gold: list[str], k: int, matched: int) -> None:
    s = eob_score([Range.parse(p) for p in pred], [Range.parse(g) for g in gold], k)
    assert (s.matched, s.predicted, s.labelled) == (matched, len(pred), len(gold))


@pytest.mark.parametrize(
    ("pred", "gold", "matched", "judged", "unjudged"),
    [
        (["A1:C5", "H1:J5"], ["A1:C5"], 1, 1, 1),  # H1:J5 touches no label: unjudged
        (["A1:C6", "H1:J5"], ["A1:C5"], 0, 1, 1),  # overlaps the label, wrong edge: false positive
        (["A1:J5"], ["A1:C5"], 0, 1, 0),  # swallows the label: false positive
        ([], ["A1:C5"], 0, 0, 0),
    ],
)
def test_eob_score_partial(
    pred: list[str], gold: list[str], matched: int, judged: int, unjudged: int
) -> None:
    s = eob_score([Range.parse(p) for p in pred], [Range.parse(g) for g in gold], 0, partial=True)
    assert (s.matched, s.predicted, s.labelled, s.unjudged) == (matched, judged, len(gold), unjudged)


def test_rule_detections_are_cached_per_sheet_until_forgotten() -> None:
    sheet = Sheet.from_cells("S", {"A1": "Item", "B1": "Units", "A2": "Pen", "B2": 3, "A3": "Ink", "B3": 4})
    first = detect_tables(sheet)
    assert detect_tables(sheet) is first  # the encoder's anchors and the answerer ask again
    forget_detections()
    again = detect_tables(sheet)
    assert again is not first
    assert [t.range.ref() for t in again.tables] == [t.range.ref() for t in first.tables] == ["A1:B3"]

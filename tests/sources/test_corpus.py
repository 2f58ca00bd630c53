"""Every workbook and CSV of the shared corpus loads, both ways, with the sheets its labels name."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from gridsight.grid import Cell, Kind
from gridsight.sources import open_workbook


def test_every_tasi_workbook_loads_with_its_labelled_sheets(corpus: Path) -> None:
    root = corpus / "tables" / "tasi"
    labels = json.loads((root / "labels.json").read_text(encoding="utf-8"))
    files = sorted((root / "xlsx").glob("*.xlsx"))
    assert len(files) >= 30
    for path in files:
        wb = open_workbook(path)
        fast = open_workbook(path, values_only=True)
        assert wb.sheet_names == fast.sheet_names, path.name
        for table in labels.get(path.name, {}).get("tables", []):
            assert table["sheet"] in wb.sheet_names, (path.name, table["sheet"])


def test_every_fuste_csv_loads_and_covers_its_regions(corpus: Path) -> None:
    root = corpus / "tables" / "fuste"
    labels = json.loads((root / "labels.json").read_text(encoding="utf-8"))
    files = sorted((root / "csv").glob("*.csv"))
    assert len(files) == len(labels)
    for path in files:
        sheet = open_workbook(path).sheets[0]
        used = sheet.used_range
        assert used is not None
        for region in labels[path.name]["regions"]:
            (c1, r1), (c2, r2) = region["top_lx"], region["bot_rx"]
            assert used.contains(r1, c1) and used.contains(r2, c2), (path.name, region["region_label"])


@pytest.mark.parametrize(
    ("name", "sheet", "used", "values", "formulas", "merges"),
    [
        ("1.xlsx", "Sheet1", "C3:BD44", 491, 316, 0),
        ("10.xlsx", "rha graph data", "A3:K36", 87, 0, 3),
        ("34.xlsx", "fact sheet 2", "A1:H36", 164, 0, 19),
    ],
)
def test_known_workbooks_exactly(
    corpus: Path, name: str, sheet: str, used: str, values: int, formulas: int, merges: int
) -> None:
    s = open_workbook(corpus / "tables" / "tasi" / "xlsx" / name)[sheet]
    assert s.used_range is not None
    assert (s.used_range.ref(), s.n_values, s.n_formulas, len(s.merges)) == (used, values, formulas, merges)


def test_cached_values_from_excel_are_kept(corpus: Path) -> None:
    wb = open_workbook(corpus / "tables" / "tasi" / "xlsx" / "19.xlsx")
    assert wb["Comparison"].cell("B3") == Cell(
        2, 1, Kind.NUMBER, 62000, "=60000+2000", wb["Comparison"].cell("B3").number_format
    )
    assert wb["Sensitivity"].cell("B15").formula == "=A11" and wb["Sensitivity"].cell("B15").value == 15000
    book1 = open_workbook(corpus / "tables" / "tasi" / "xlsx" / "1.xlsx").sheets[0]
    kinds = Counter(c.kind.name for c in book1.iter_cells() if c.formula)
    assert kinds == {"NUMBER": 126, "DATETIME": 80, "TEXT": 58, "ERROR": 52}
    assert book1.cell("F5").formula == "=Table1[End]-Table1[Bgn]" and book1.cell("F5").value == 19

"""A small styled workbook, written by openpyxl, shared by the detection tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

from gridsight.detect import Detection, detect_tables
from gridsight.sources import open_workbook


def _styled_workbook(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Report"
    ws["A1"] = "Quarterly sales"
    ws.merge_cells("A1:H1")
    ws["A1"].font = Font(bold=True, size=14)
    thin = Side(style="thin")
    for left, name in ((1, "Product"), (5, "City")):
        heads = [name, "Q1", "Q2"]
        for j, h in enumerate(heads):
            c = ws.cell(row=3, column=left + j, value=h)
            c.font = Font(bold=True)
            c.fill = PatternFill("solid", fgColor="DDDDDD")
            c.border = Border(bottom=thin)
        for i in range(4):
            ws.cell(row=4 + i, column=left, value=f"{name.lower()} {i + 1}")
            ws.cell(row=4 + i, column=left + 1, value=(i + 1) * 10)
            ws.cell(row=4 + i, column=left + 2, value=(i + 1) * 11)
    ws["A8"] = "Total"
    ws["B8"] = "=SUM(B4:B7)"
    ws["C8"] = "=SUM(C4:C7)"
    ws["A10"] = "Source: sales ledger, unaudited figures for the quarter"
    wb.save(path)
    return path


@pytest.fixture
def styled_xlsx(tmp_path: Path) -> Path:
    """Merged title over two side-by-side tables (bold, filled, bordered headers), a total and a note."""
    return _styled_workbook(tmp_path / "report.xlsx")


DetectXlsx = Callable[..., Detection]


@pytest.fixture
def detect_xlsx(tmp_path: Path) -> DetectXlsx:
    """Write ``cells`` ({"A1": value}) to a real .xlsx (openpyxl), with ``merges`` ("B1:D1"),
    ``bold`` cells and ``centre_across`` ranges ("B1:D1": the first cell's label centred across the
    selection, no merge), and detect the tables of its one sheet."""

    def run(
        cells: dict[str, object],
        merges: tuple[str, ...] = (),
        bold: tuple[str, ...] = (),
        centre_across: tuple[str, ...] = (),
    ) -> Detection:
        wb = Workbook()
        ws = wb.active
        ws.title = "Data"
        for ref, value in cells.items():
            ws[ref] = value
        for ref in bold:
            ws[ref].font = Font(bold=True)
        for ref in merges:
            ws.merge_cells(ref)
        for ref in centre_across:
            for row in ws[ref]:
                for cell in row:
                    cell.alignment = Alignment(horizontal="centerContinuous")
        path = tmp_path / f"detect{len(list(tmp_path.glob('*.xlsx')))}.xlsx"
        wb.save(path)
        return detect_tables(open_workbook(path).sheet("Data"))

    return run

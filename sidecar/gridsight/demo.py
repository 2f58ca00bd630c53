"""The bundled demo workbook, built by code so it is always the same and needs no binary file.

It holds what real sheets hold and what the engine must cope with: a merged title, a units line,
a bold bordered header with fill, typed columns (dates, currency, percent), SUM formulas in a total
row, a second table beside the first, and notes under it.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

DEMO_NAME = "gridsight-demo.xlsx"

REGIONS = ("North", "South", "East", "West")
#: Monthly sales (USD thousands) by region; fixed numbers so outputs are reproducible.
SALES = (
    (120.5, 98.0, 143.25, 87.0),
    (132.0, 101.5, 150.0, 90.25),
    (128.75, 99.0, 155.5, 95.0),
    (140.0, 110.25, 160.0, 99.5),
    (151.25, 115.0, 162.75, 101.0),
    (149.0, 120.5, 170.0, 104.25),
    (158.5, 118.0, 168.25, 110.0),
    (162.0, 125.75, 175.5, 112.5),
    (155.25, 122.0, 180.0, 115.75),
    (166.0, 130.5, 182.25, 118.0),
    (171.75, 128.0, 190.0, 121.5),
    (180.0, 135.25, 198.5, 125.0),
)
TARGETS = (("North", 1800, 0.05), ("South", 1400, 0.04), ("East", 2000, 0.06), ("West", 1300, 0.03))


def build_demo_workbook(path: Path) -> Path:
    """Write the demo workbook to ``path`` (atomically) and return it."""
    from openpyxl import Workbook
    from openpyxl.styles import Border, Font, PatternFill, Side

    wb = Workbook()
    ws = wb.active
    ws.title = "Sales 2024"
    bold = Font(bold=True)
    thin = Side(style="thin")
    box = Border(top=thin, bottom=thin, left=thin, right=thin)
    fill = PatternFill("solid", fgColor="DDEBF7")

    ws["A1"] = "Regional sales 2024"
    ws["A1"].font = Font(bold=True, size=14)
    ws.merge_cells("A1:F1")
    ws["A2"] = "USD (thousands)"
    ws["A2"].font = Font(italic=True)
    headers = ("Month", *REGIONS, "Total")
    for j, h in enumerate(headers, start=1):
        c = ws.cell(row=3, column=j, value=h)
        c.font, c.border, c.fill = bold, box, fill
    for i, row in enumerate(SALES):
        r = 4 + i
        ws.cell(row=r, column=1, value=dt.date(2024, i + 1, 1)).number_format = "mmm yyyy"
        for j, v in enumerate(row, start=2):
            ws.cell(row=r, column=j, value=v).number_format = "#,##0.00"
        ws.cell(row=r, column=6, value=f"=SUM(B{r}:E{r})").number_format = "#,##0.00"
    total = 4 + len(SALES)
    ws.cell(row=total, column=1, value="Total").font = bold
    for j in range(2, 7):
        col = "ABCDEF"[j - 1]
        c = ws.cell(row=total, column=j, value=f"=SUM({col}4:{col}{total - 1})")
        c.font, c.number_format = bold, "#,##0.00"
        c.border = Border(top=thin)

    ws["H3"], ws["I3"], ws["J3"] = "Region", "Target", "Growth"
    for ref in ("H3", "I3", "J3"):
        ws[ref].font, ws[ref].border, ws[ref].fill = bold, box, fill
    for i, (region, target, growth) in enumerate(TARGETS):
        r = 4 + i
        ws.cell(row=r, column=8, value=region)
        ws.cell(row=r, column=9, value=target).number_format = '"$"#,##0'
        ws.cell(row=r, column=10, value=growth).number_format = "0.0%"

    ws.cell(row=total + 2, column=1, value="Source: internal ledger, closed books.")
    ws.cell(row=total + 3, column=1, value="Totals are formulas; edit the monthly figures only.")

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    wb.save(tmp)
    tmp.replace(path)
    return path

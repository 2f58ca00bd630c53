from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook as OpenpyxlWorkbook
from openpyxl.styles import Border, Font, PatternFill, Side

from gridsight.grid import Cell, CellError, Kind, Range, Style
from gridsight.sources import open_workbook


def write_rich(path: Path) -> Path:
    wb = OpenpyxlWorkbook()
    ws = wb.active
    ws.title = "Sales Data"
    ws["A1"] = "Report"
    ws["A1"].font = Font(bold=True, italic=True, underline="single")
    ws.merge_cells("A1:C1")
    ws["A2"], ws["B2"], ws["C2"] = "Date", "Amount", "Share"
    thin = Side(style="thin")
    for ref in ("A2", "B2", "C2"):
        ws[ref].font = Font(bold=True)
        ws[ref].border = Border(top=thin, bottom=thin, left=thin, right=thin)
        ws[ref].fill = PatternFill("solid", fgColor="FFFF00")
    ws["A3"] = dt.date(2024, 1, 31)
    ws["A3"].number_format = "yyyy-mm-dd"
    ws["B3"] = 1234.5
    ws["B3"].number_format = "#,##0.00"
    ws["C3"] = 0.25
    ws["C3"].number_format = "0%"
    ws["A4"] = True
    ws["B4"] = "=SUM(B3:B3)"
    ws["C4"] = "=1/0"
    ws["D4"] = '="a"&"b"'
    ws["A5"] = "text with [brackets] & ünïcode"
    ws["A6"] = dt.time(13, 30)
    ws["A6"].number_format = "h:mm"
    other = wb.create_sheet("Other")
    other["C5"] = 42
    wb.create_sheet("Blank")
    wb.save(path)
    return path


def put_cached_values(path: Path, sheet_xml: str, cached: dict[str, tuple[str, str]]) -> None:
    """Add Excel's cached results to formula cells, as Excel itself would have saved them."""
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    xml = parts[sheet_xml].decode()
    for ref, (t, v) in cached.items():
        pattern = re.compile(rf'<c r="{ref}"([^>]*)>(<f>.*?</f>)<v\s*/?>(?:</v>)?')
        xml, n = pattern.subn(
            lambda m, t=t, v=v, ref=ref: f'<c r="{ref}"{m.group(1)} t="{t}">{m.group(2)}<v>{v}</v>', xml
        )
        assert n == 1, ref
    parts[sheet_xml] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


@pytest.fixture
def rich_xlsx(tmp_path: Path) -> Path:
    path = write_rich(tmp_path / "rich.xlsx")
    put_cached_values(
        path, "xl/worksheets/sheet1.xml", {"B4": ("n", "1234.5"), "C4": ("e", "#DIV/0!"), "D4": ("str", "ab")}
    )
    return path


def test_reads_values_formats_styles_merges(rich_xlsx: Path) -> None:
    wb = open_workbook(rich_xlsx)
    assert wb.sheet_names == ["Sales Data", "Other", "Blank"]
    s = wb["Sales Data"]
    assert str(s.used_range) == "'Sales Data'!A1:D6"
    assert s.merges == (Range.parse("'Sales Data'!A1:C1"),)
    assert s.cell("A1").style == Style.BOLD | Style.ITALIC | Style.UNDERLINE
    assert s.cell("B2") == Cell(
        1,
        1,
        Kind.TEXT,
        "Amount",
        None,
        "General",
        Style.BOLD
        | Style.FILL
        | Style.BORDER_TOP
        | Style.BORDER_BOTTOM
        | Style.BORDER_LEFT
        | Style.BORDER_RIGHT,
    )
    assert s.cell("A3") == Cell(2, 0, Kind.DATETIME, dt.datetime(2024, 1, 31), None, "yyyy-mm-dd")
    assert s.cell("B3") == Cell(2, 1, Kind.NUMBER, 1234.5, None, "#,##0.00")
    assert s.cell("C3") == Cell(2, 2, Kind.NUMBER, 0.25, None, "0%")
    assert s.cell("A4") == Cell(3, 0, Kind.BOOL, True)
    assert s.cell("A5").value == "text with [brackets] & ünïcode"
    assert s.cell("A6") == Cell(5, 0, Kind.DATETIME, dt.time(13, 30), None, "h:mm")
    assert wb["Other"].cell("C5").value == 42 and str(wb["Other"].used_range) == "Other!C5"
    assert wb["Blank"].used_range is None


def test_formulas_keep_their_cached_values(rich_xlsx: Path) -> None:
    s = open_workbook(rich_xlsx)["Sales Data"]
    assert s.cell("B4") == Cell(3, 1, Kind.NUMBER, 1234.5, "=SUM(B3:B3)")
    assert s.cell("C4") == Cell(3, 2, Kind.ERROR, CellError("#DIV/0!"), "=1/0")
    assert s.cell("D4") == Cell(3, 3, Kind.TEXT, "ab", '="a"&"b"')
    assert s.n_formulas == 3


def test_formula_without_cached_value_is_empty(tmp_path: Path) -> None:
    s = open_workbook(write_rich(tmp_path / "x.xlsx"))["Sales Data"]
    assert s.cell("B4") == Cell(3, 1, Kind.EMPTY, None, "=SUM(B3:B3)")


def test_values_only_path_reads_the_same_values(rich_xlsx: Path) -> None:
    fast = open_workbook(rich_xlsx, values_only=True)["Sales Data"]
    assert fast.cell("B3").value == 1234.5 and fast.cell("A3").value == dt.datetime(2024, 1, 31)
    assert fast.cell("B4").value == 1234.5 and fast.cell("B4").formula is None
    assert fast.cell("B2").style == Style.NONE
    assert fast.merges == (Range.parse("'Sales Data'!A1:C1"),)


def test_sheet_selection_is_case_insensitive(rich_xlsx: Path) -> None:
    wb = open_workbook(rich_xlsx, sheets=["other"])
    assert wb.sheet_names == ["Other"]


def test_shared_formulas_are_expanded(tmp_path: Path) -> None:
    path = tmp_path / "shared.xlsx"
    wb = OpenpyxlWorkbook()
    ws = wb.active
    for i in range(1, 4):
        ws.cell(row=i, column=1, value=i)
        ws.cell(row=i, column=2, value=f"=A{i}*2")
    wb.save(path)
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    xml = xml.replace("<f>A1*2</f>", '<f t="shared" ref="B1:B3" si="0">A1*2</f>')
    xml = xml.replace("<f>A2*2</f>", '<f t="shared" si="0"/>').replace(
        "<f>A3*2</f>", '<f t="shared" si="0"/>'
    )
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w") as zf:
        for n, d in parts.items():
            zf.writestr(n, d)
    s = open_workbook(path).sheets[0]
    assert [s.cell(f"B{i}").formula for i in (1, 2, 3)] == ["=A1*2", "=A2*2", "=A3*2"]


def test_xlsm_is_read(tmp_path: Path) -> None:
    path = tmp_path / "macro.xlsm"
    wb = OpenpyxlWorkbook()
    wb.active["A1"] = "macro book"
    wb.save(path)
    assert open_workbook(path).sheets[0].cell("A1").value == "macro book"


def test_part_names_differing_in_case_are_the_same_part(tmp_path: Path) -> None:
    """Open Packaging Conventions compare part names ignoring ASCII case: a package storing
    ``xl/SharedStrings.xml`` and ``xl/worksheets/Sheet1.xml`` while its relationships and content
    types name ``sharedStrings.xml`` and ``sheet1.xml`` is read (it was 'damaged': KeyError), its
    tables too."""
    from openpyxl.worksheet.table import Table

    from gridsight.sources._xlsx_tables import read_tables

    wb = OpenpyxlWorkbook()
    ws = wb.active
    ws.append(["Item", "Qty"])
    ws.append([None, 3])
    ws["C2"] = "=B2*2"
    ws.add_table(Table(displayName="Fruit", ref="A1:B2"))
    plain = tmp_path / "plain.xlsx"
    wb.save(plain)
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
    renamed = tmp_path / "renamed.xlsx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(renamed, "w") as dst:
        for info in src.infolist():
            data, name = src.read(info).decode(), info.filename
            if name == "xl/worksheets/sheet1.xml":  # A2 holds shared string 0
                name = "xl/worksheets/Sheet1.xml"
                data = re.sub(r'<row r="2"([^>]*)>', r'<row r="2"\1><c r="A2" t="s"><v>0</v></c>', data)
            elif name == "xl/_rels/workbook.xml.rels":
                data = data.replace(
                    "</Relationships>",
                    f'<Relationship Id="rIdS" Type="{rel}" Target="sharedStrings.xml"/></Relationships>',
                )
            elif name == "[Content_Types].xml":
                data = data.replace(
                    "</Types>", f'<Override PartName="/xl/sharedStrings.xml" ContentType="{kind}"/></Types>'
                )
            dst.writestr(name, data)
        dst.writestr("xl/SharedStrings.xml", f'<sst xmlns="{main}" count="1"><si><t>apple</t></si></sst>')
    sheet = open_workbook(renamed).sheets[0]
    assert sheet.cell(1, 0).value == "apple"
    assert sheet.cell(1, 2).formula == "=B2*2"
    assert [t.name for t in read_tables(renamed)] == ["Fruit"]

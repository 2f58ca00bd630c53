"""Hostile and broken files: each gets a typed error with one clear message, never a crash."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from msoffcrypto.format.ooxml import OOXMLFile
from openpyxl import Workbook as OpenpyxlWorkbook

from gridsight.errors import (
    CorruptFileError,
    PasswordProtectedError,
    ResourceLimitError,
    SourceNotFoundError,
    UnknownSheetError,
    UnsupportedFormatError,
)
from gridsight.sources import open_workbook


def xlsx_bytes() -> bytes:
    wb = OpenpyxlWorkbook()
    wb.active["A1"] = "secret"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFoundError, match="no such file"):
        open_workbook(tmp_path / "nope.xlsx")


def test_folder_is_not_a_spreadsheet(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedFormatError, match="is a folder"):
        open_workbook(tmp_path)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("picture.xlsx", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4),
        ("program.bin", b"\x7fELF\x00\x01\x02" * 50),
    ],
)
def test_binary_non_spreadsheets(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(UnsupportedFormatError, match="not a spreadsheet"):
        open_workbook(path)


def test_truncated_zip(tmp_path: Path) -> None:
    path = tmp_path / "cut.xlsx"
    path.write_bytes(xlsx_bytes()[:1500])
    with pytest.raises(CorruptFileError, match=r"cut\.xlsx"):
        open_workbook(path)


def test_zip_that_is_not_a_workbook(tmp_path: Path) -> None:
    path = tmp_path / "doc.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("word/document.xml", "<w/>")
    with pytest.raises(CorruptFileError, match="not an Excel workbook"):
        open_workbook(path)


def test_damaged_part_inside_a_valid_zip(tmp_path: Path) -> None:
    src = zipfile.ZipFile(io.BytesIO(xlsx_bytes()))
    path = tmp_path / "damaged.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data[: len(data) // 2]
            zf.writestr(item, data)
    with pytest.raises(CorruptFileError, match=r"damaged\.xlsx"):
        open_workbook(path)


def test_password_protected_workbook(tmp_path: Path) -> None:
    plain = io.BytesIO(xlsx_bytes())
    path = tmp_path / "locked.xlsx"
    with path.open("wb") as out:
        OOXMLFile(plain).encrypt("s3cret", out)
    with pytest.raises(PasswordProtectedError, match=r"locked\.xlsx is password-protected"):
        open_workbook(path)
    with pytest.raises(PasswordProtectedError):
        open_workbook(path, values_only=True)


def test_zip_bomb_is_refused_before_inflating(tmp_path: Path) -> None:
    path = tmp_path / "bomb.xlsx"
    src = zipfile.ZipFile(io.BytesIO(xlsx_bytes()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for item in src.infolist():
            zf.writestr(item.filename, src.read(item))
        with zf.open("xl/media/padding.bin", "w") as fh:
            block = b"\0" * (1 << 20)
            for _ in range(100):
                fh.write(block)
    with pytest.raises(ResourceLimitError, match="zip bomb"):
        open_workbook(path)


def test_xml_entity_bomb_is_refused(tmp_path: Path) -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>&lol3;</t></is></c></row></sheetData></worksheet>'
    )
    src = zipfile.ZipFile(io.BytesIO(xlsx_bytes()))
    path = tmp_path / "lol.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        for item in src.infolist():
            data = bomb.encode() if item.filename == "xl/worksheets/sheet1.xml" else src.read(item)
            zf.writestr(item, data)
    with pytest.raises(CorruptFileError, match=r"lol\.xlsx"):
        open_workbook(path)


def test_unknown_sheet_lists_the_real_ones(tmp_path: Path) -> None:
    path = tmp_path / "one.xlsx"
    path.write_bytes(xlsx_bytes())
    with pytest.raises(
        UnknownSheetError, match=r"one\.xlsx has no sheet named 'Summary'; sheets are: 'Sheet'"
    ):
        open_workbook(path, sheets=["Summary"])
    with pytest.raises(UnknownSheetError):
        open_workbook(path, sheets=["Summary"], values_only=True)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    path.write_bytes(b"")
    wb = None
    try:
        wb = open_workbook(path)
    except (UnsupportedFormatError, CorruptFileError):
        return
    assert wb is not None and wb.sheets[0].is_empty  # an empty file read as an empty CSV is fine too

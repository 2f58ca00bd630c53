from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from gridsight.errors import EncodingError, UnknownSheetError
from gridsight.grid import Kind, datetime_to_serial
from gridsight.sources import open_workbook
from gridsight.sources.csv import sniff_delimiter, type_text


@pytest.mark.parametrize(
    ("text", "kind", "number", "fmt"),
    [
        ("42", Kind.NUMBER, 42.0, None),
        ("-3.5", Kind.NUMBER, -3.5, None),
        ("+7", Kind.NUMBER, 7.0, None),
        (".5", Kind.NUMBER, 0.5, None),
        ("1,234.50", Kind.NUMBER, 1234.5, "#,##0.00"),
        ("1,234", Kind.NUMBER, 1234.0, "#,##0"),
        ("12%", Kind.NUMBER, 0.12, "0%"),
        ("12.5%", Kind.NUMBER, 0.125, "0.0%"),
        ("$1,200", Kind.NUMBER, 1200.0, '"$"#,##0'),
        ("-$5.50", Kind.NUMBER, -5.5, '"$"#,##0.00'),
        ("(123)", Kind.NUMBER, -123.0, None),
        ("1.5e3", Kind.NUMBER, 1500.0, "0.00E+00"),
        ("10 €", Kind.NUMBER, 10.0, '#,##0"€"'),
        ("₹337,934", Kind.NUMBER, 337934.0, '"₹"#,##0'),  # (any currency sign, not four)
        ("TRUE", Kind.BOOL, 1.0, None),
        ("false", Kind.BOOL, 0.0, None),
        ("2024-03-01", Kind.DATETIME, datetime_to_serial(dt.date(2024, 3, 1)), "yyyy-mm-dd"),
        (
            "2024-03-01 13:45:10",
            Kind.DATETIME,
            datetime_to_serial(dt.datetime(2024, 3, 1, 13, 45, 10)),
            "yyyy-mm-dd hh:mm:ss",
        ),
        (  # a zone: the same instant in UTC (a sheet has no zones; a column may hold several)
            "2024-03-01 13:45:10+01:00",
            Kind.DATETIME,
            datetime_to_serial(dt.datetime(2024, 3, 1, 12, 45, 10)),
            "yyyy-mm-dd hh:mm:ss",
        ),
        (
            "2024-03-01T23:30:00-0500",
            Kind.DATETIME,
            datetime_to_serial(dt.datetime(2024, 3, 2, 4, 30)),
            "yyyy-mm-dd hh:mm:ss",
        ),
        ("3/1/2024", Kind.DATETIME, datetime_to_serial(dt.date(2024, 3, 1)), "m/d/yyyy"),
        ("3/1/24", Kind.DATETIME, datetime_to_serial(dt.date(2024, 3, 1)), "m/d/yyyy"),
        ("1-May-09", Kind.DATETIME, datetime_to_serial(dt.date(2009, 5, 1)), "d-mmm-yy"),
        ("Aug 14, 2024", Kind.DATETIME, datetime_to_serial(dt.date(2024, 8, 14)), "mmm d, yyyy"),
        ("September 3 2021", Kind.DATETIME, datetime_to_serial(dt.date(2021, 9, 3)), "mmm d, yyyy"),
        ("13:45", Kind.DATETIME, datetime_to_serial(dt.time(13, 45)), "h:mm"),
        ("1:45 PM", Kind.DATETIME, datetime_to_serial(dt.time(13, 45)), "h:mm AM/PM"),
    ],
)
def test_excel_like_typing(text: str, kind: Kind, number: float, fmt: str | None) -> None:
    k, x, t, f = type_text(text)
    assert (k, f) == (kind, fmt)
    assert x == pytest.approx(number, abs=1e-9)
    assert t is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("00123", Kind.TEXT),  # leading zeros kept (ZIP codes, IDs)
        ("1234567890123456", Kind.TEXT),  # > 15 digits would lose precision in Excel
        ("1234567890123456.5", Kind.TEXT),
        ("0.6839846009562643", Kind.NUMBER),  # a long fraction (pandas writes 17 digits) is a number
        ("-12.345678901234567", Kind.NUMBER),
        ("=SUM(A1:A2)", Kind.TEXT),  # never run a CSV's formulas
        ("nan", Kind.TEXT),
        ("inf", Kind.TEXT),
        ("1_000", Kind.TEXT),
        ("13/13/2024", Kind.TEXT),
        ("2024-02-30", Kind.TEXT),
        ("2024-03-01 13:45+25:00", Kind.TEXT),  # no such zone
        ("25:99", Kind.TEXT),
        ("#N/A", Kind.ERROR),
        ("hello", Kind.TEXT),
        ("  ", Kind.TEXT),
        ("1,23", Kind.TEXT),
        ("Feb 30, 2024", Kind.TEXT),  # no such day
        ("Maybe 5, 2020", Kind.TEXT),  # no month's name
        ("Mar 2024", Kind.TEXT),
    ],
)
def test_values_that_stay_text_or_become_errors(text: str, kind: Kind) -> None:
    assert type_text(text)[0] == kind


@pytest.mark.parametrize(
    ("sample", "delimiter"),
    [
        ("a,b,c\n1,2,3\n", ","),
        ("a;b;c\n1,5;2;3\n", ";"),
        ("a\tb\n1\t2\n", "\t"),
        ("a|b|c\n1|2|3\n", "|"),
        ('"x, y";z\n"1,2";3\n', ";"),
    ],
)
def test_delimiter_sniffing(sample: str, delimiter: str) -> None:
    assert sniff_delimiter(sample) == delimiter


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [
        ("utf-8", b""),
        ("utf-8", b"\xef\xbb\xbf"),
        ("utf-16-le", b"\xff\xfe"),
        ("utf-16-be", b"\xfe\xff"),
        ("cp1252", b""),
        ("utf-16-le", b""),
    ],
)
def test_encodings_are_sniffed(tmp_path: Path, encoding: str, bom: bytes) -> None:
    path = tmp_path / "data.csv"
    path.write_bytes(bom + "Stadt;Größe\nKöln;1,5\nZürich;2\n".encode(encoding))
    s = open_workbook(path).sheets[0]
    assert s.values("A1:B3") == [["Stadt", "Größe"], ["Köln", "1,5"], ["Zürich", 2]]


def test_ragged_rows_and_quoted_newlines(tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text('id,note\n1,"two\nlines"\n2\n3,x,extra,more\n', encoding="utf-8")
    s = open_workbook(path).sheets[0]
    assert s.name == "ragged" and str(s.used_range) == "ragged!A1:D4"
    assert s.values("A1:D4") == [
        ["id", "note", None, None],
        [1, "two\nlines", None, None],
        [2, None, None, None],
        [3, "x", "extra", "more"],
    ]


def test_a_column_of_dates_written_day_first(tmp_path: Path) -> None:
    # one date of the column writes 15 first: every date of it is day first, "05/06/2023" the 5th of
    # June; a column whose second number passes 12 stays month first
    path = tmp_path / "trips.csv"
    path.write_text(
        "left,booked\n15/05/2023 07:00,06/13/2023\n05/06/2023 18:30,06/05/2023\n01/12/2024,\n",
        encoding="utf-8",
    )
    s = open_workbook(path).sheets[0]
    assert s.values("A2:B4") == [
        [dt.datetime(2023, 5, 15, 7, 0), dt.datetime(2023, 6, 13)],
        [dt.datetime(2023, 6, 5, 18, 30), dt.datetime(2023, 6, 5)],
        [dt.datetime(2024, 12, 1), None],
    ]


def test_tsv_and_forced_encoding(tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    path.write_bytes("a\tb,c\n1\t2\n".encode("latin-1"))
    assert open_workbook(path, encoding="latin-1").sheets[0].values("A1:B2") == [["a", "b,c"], [1, 2]]


def test_binary_data_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "blob.csv"
    path.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(EncodingError, match=r"blob\.csv"):
        open_workbook(path)


def test_utf32_without_bom_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_bytes("a,b\n1,2\n".encode("utf-32-le"))
    with pytest.raises(EncodingError):
        open_workbook(path)


def test_unknown_encoding_name(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("a\n", encoding="utf-8")
    with pytest.raises(EncodingError, match="unknown encoding"):
        open_workbook(path, encoding="klingon-8")


def test_csv_sheet_name_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text("a\n1\n", encoding="utf-8")
    assert open_workbook(path, sheets=["PRICES"]).sheet_names == ["prices"]
    with pytest.raises(UnknownSheetError, match="a CSV has one sheet: 'prices'"):
        open_workbook(path, sheets=["Sheet1"])


def test_cells_of_32k_characters(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    long = "x" * 32_767
    path.write_text(f"a,{long}\n", encoding="utf-8")
    assert open_workbook(path).sheets[0].cell("B1").value == long

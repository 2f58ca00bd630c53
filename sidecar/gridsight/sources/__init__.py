"""Readers that turn files, live Excel and add-in snapshots into the one Workbook model.

>>> from gridsight.sources import open_workbook
>>> wb = open_workbook("book.xlsx")                      # formats, styles, formulas + cached values
>>> wb = open_workbook("book.xlsx", values_only=True)    # python-calamine: ~15x faster, values only
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gridsight.grid import Workbook
from gridsight.sources._base import (
    Source,
    SourceInfo,
    get_source,
    list_sources,
    register_source,
    source_for_path,
)
from gridsight.sources._xlsx_arrays import read_application, read_array_formulas
from gridsight.sources.calamine import CalamineSource
from gridsight.sources.csv import CsvSource
from gridsight.sources.live_excel import LiveExcelSource
from gridsight.sources.memory import MemorySource
from gridsight.sources.snapshot import SnapshotSource, dump_snapshot, load_snapshot, snapshot_schema
from gridsight.sources.snapshot_file import SnapshotFileSource
from gridsight.sources.xlsx import XlsxSource

register_source(
    "xlsx",
    XlsxSource,
    extensions=(".xlsx", ".xlsm", ".xltx", ".xltm"),
    description="openpyxl: values, formulas + cached values, formats, styles, merges",
)
register_source(
    "calamine",
    CalamineSource,
    extensions=(".xls", ".xlsb", ".ods"),
    description="python-calamine: values only, fast",
)
register_source(
    "csv",
    CsvSource,
    extensions=(".csv", ".tsv", ".txt"),
    description="CSV/TSV with encoding and delimiter sniffing, Excel-like typing",
)
register_source(
    "snapshot",
    SnapshotFileSource,
    extensions=(".json",),
    description="snapshot.v1 JSON written by the Excel add-in",
)
register_source("officejs", SnapshotSource, description="snapshot.v1 document in memory (the add-in)")
register_source(
    "xlwings",
    LiveExcelSource,
    description="a workbook open in Excel, through xlwings (Windows/macOS; imported on use)",
)
register_source("memory", MemorySource, description="a Workbook already in memory (tests)")


def open_workbook(
    path: str | Path,
    *,
    sheets: Sequence[str] | None = None,
    values_only: bool = False,
    encoding: str | None = None,
) -> Workbook:
    """Read a spreadsheet file into a Workbook, choosing the reader from the file's content.

    Args:
        path: .xlsx/.xlsm (.xls/.xlsb/.ods values only), .csv/.tsv, or a snapshot.v1 .json.
        sheets: names of the sheets to read (case-insensitive); None reads all.
        values_only: skip formats, styles and formulas for speed (python-calamine).
        encoding: force a CSV's text encoding instead of sniffing it.

    Raises:
        GridSightError subclasses: SourceNotFoundError, UnsupportedFormatError, CorruptFileError,
        PasswordProtectedError, UnknownSheetError, EncodingError, ResourceLimitError, SnapshotError.
    """
    p = Path(path)
    info = source_for_path(p, values_only=values_only)
    source: Source = CsvSource(p, encoding=encoding) if info.name == "csv" else info.factory(p)
    try:
        return source.read(sheets)
    finally:
        source.close()


__all__ = [
    "CalamineSource",
    "CsvSource",
    "LiveExcelSource",
    "MemorySource",
    "SnapshotFileSource",
    "SnapshotSource",
    "Source",
    "SourceInfo",
    "XlsxSource",
    "dump_snapshot",
    "get_source",
    "list_sources",
    "load_snapshot",
    "open_workbook",
    "read_application",
    "read_array_formulas",
    "register_source",
    "snapshot_schema",
]

"""The one in-memory workbook model every other part of GridSight reads."""

from gridsight.grid._address import (
    MAX_COLS,
    MAX_ROWS,
    a1_to_rc,
    col_to_letters,
    letters_to_col,
    r1c1_to_rc,
    rc_to_a1,
    rc_to_r1c1,
)
from gridsight.grid._display import format_number, format_value
from gridsight.grid._range import Range, quote_sheet
from gridsight.grid._sheet import MAX_SHEET_CELLS, Cell, CellError, CellValue, Sheet, SheetBuilder, classify
from gridsight.grid._tables import DefinedName, ExcelTable
from gridsight.grid._values import (
    ERROR_VALUES,
    Kind,
    Style,
    datetime_to_serial,
    is_date_format,
    serial_to_datetime,
)
from gridsight.grid._workbook import Workbook

__all__ = [
    "ERROR_VALUES",
    "MAX_COLS",
    "MAX_ROWS",
    "MAX_SHEET_CELLS",
    "Cell",
    "CellError",
    "CellValue",
    "DefinedName",
    "ExcelTable",
    "Kind",
    "Range",
    "Sheet",
    "SheetBuilder",
    "Style",
    "Workbook",
    "a1_to_rc",
    "classify",
    "col_to_letters",
    "datetime_to_serial",
    "format_number",
    "format_value",
    "is_date_format",
    "letters_to_col",
    "quote_sheet",
    "r1c1_to_rc",
    "rc_to_a1",
    "rc_to_r1c1",
    "serial_to_datetime",
]

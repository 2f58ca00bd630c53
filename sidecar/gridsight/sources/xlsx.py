"""Read .xlsx/.xlsm with openpyxl: values, formulas AND cached values, formats, styles, merges.

Why drive openpyxl's streaming sheet parser instead of ``load_workbook(...)[sheet]``: the normal
mode builds a Python object per cell (1M cells: 435 MB peak), while read-only mode drops merged
ranges. Streaming the parser ourselves keeps merges at ~40 MB, and one extra look at each formula
cell's ``<v>`` keeps the cached value that Excel computed (openpyxl otherwise offers either the
formulas or the values, never both, and calamine turns error values into blanks).
"""

from __future__ import annotations

import datetime as dt
import warnings
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import ParseError

from gridsight.errors import CorruptFileError, GridSightError, ResourceLimitError
from gridsight.grid import (
    MAX_SHEET_CELLS,
    Kind,
    Range,
    Sheet,
    SheetBuilder,
    Style,
    Workbook,
    datetime_to_serial,
    is_date_format,
)
from gridsight.sources._base import choose_sheets
from gridsight.sources._package import spelled_as_referenced
from gridsight.sources._safety import check_zip
from gridsight.sources._xlsx_tables import _xstring, read_defined_names, read_tables

ProgressFn = Callable[[str, int], None]


def _load_openpyxl() -> Any:
    import openpyxl
    from openpyxl.xml import DEFUSEDXML

    if not DEFUSEDXML:  # pragma: no cover - defusedxml is a hard dependency
        raise GridSightError("refusing to parse workbooks without defusedxml (set OPENPYXL_DEFUSEDXML=True)")
    return openpyxl


def _make_parser_class() -> Any:
    from openpyxl.worksheet._reader import VALUE_TAG, WorkSheetParser

    class _Parser(WorkSheetParser):
        """openpyxl's parser, also keeping each formula cell's cached value."""

        def parse_cell(self, element: Any) -> dict[str, Any]:
            cell: dict[str, Any] = super().parse_cell(element)
            if cell["data_type"] == "f":
                cell["cached"] = (element.get("t", "n"), element.findtext(VALUE_TAG, None))
            return cell

    return _Parser


class _StyleTable:
    """style id -> (flags, number format), computed once per distinct style."""

    def __init__(self, wb: Any) -> None:
        from openpyxl.styles.numbers import BUILTIN_FORMATS, BUILTIN_FORMATS_MAX_SIZE

        self._wb = wb
        self._builtin = BUILTIN_FORMATS
        self._builtin_max = BUILTIN_FORMATS_MAX_SIZE
        self._cache: dict[int, tuple[int, str]] = {}

    def get(self, style_id: int) -> tuple[int, str]:
        hit = self._cache.get(style_id)
        if hit is None:
            hit = self._cache[style_id] = self._compute(style_id)
        return hit

    def _compute(self, style_id: int) -> tuple[int, str]:
        wb = self._wb
        try:
            sa = wb._cell_styles[style_id]
        except IndexError:
            return 0, "General"
        flags = 0
        font = _at(wb._fonts, sa.fontId)
        if font is not None:
            if font.b:
                flags |= Style.BOLD
            if font.i:
                flags |= Style.ITALIC
            if font.u and font.u != "none":
                flags |= Style.UNDERLINE
        fill = _at(wb._fills, sa.fillId)
        if fill is not None:
            kind = getattr(fill, "fill_type", None) or getattr(fill, "patternType", None)
            if (kind and kind != "none") or type(fill).__name__ == "GradientFill":
                flags |= Style.FILL
        border = _at(wb._borders, sa.borderId)
        if border is not None:
            for side, flag in (
                ("top", Style.BORDER_TOP),
                ("bottom", Style.BORDER_BOTTOM),
                ("left", Style.BORDER_LEFT),
                ("right", Style.BORDER_RIGHT),
            ):
                s = getattr(border, side, None)
                if s is not None and s.style:
                    flags |= flag
        idx = sa.numFmtId
        if idx < self._builtin_max:
            fmt = self._builtin.get(idx, "General")
        else:
            fmt = _at(wb._number_formats, idx - self._builtin_max) or "General"
        return int(flags), fmt


def _at(seq: Any, idx: int) -> Any:
    try:
        return seq[idx]
    except (IndexError, TypeError):
        return None


def _formula_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    text = getattr(value, "text", None)
    if text is not None:  # ArrayFormula
        return str(text)
    attrs = getattr(value, "r1", None)
    if attrs is not None:  # DataTableFormula: what Excel shows as {=TABLE(r1,r2)}
        r2 = getattr(value, "r2", None)
        return f"=TABLE({attrs},{r2})" if r2 else f"=TABLE({attrs})"
    return "=" + str(value)


class XlsxSource:
    """Reads .xlsx/.xlsm files with formats, styles, merges, formulas and cached values."""

    name = "xlsx"

    def __init__(self, path: str | Path, *, progress: ProgressFn | None = None) -> None:
        self.path = Path(path)
        self._progress = progress

    def read(self, sheets: Sequence[str] | None = None) -> Workbook:
        check_zip(self.path)
        openpyxl = _load_openpyxl()
        with self.path.open("rb") as fh:
            try:
                # part names differing only in case from their references are the same part (OPC)
                package = spelled_as_referenced(fh) or fh
                fh.seek(0)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    wb = openpyxl.load_workbook(
                        package, read_only=True, data_only=False, keep_links=False, rich_text=False
                    )
            except GridSightError:
                raise
            except Exception as exc:  # openpyxl raises many types for damaged parts
                raise CorruptFileError(f"{self.path.name}: cannot open workbook ({_why(exc)})") from None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # openpyxl warns about headers, extensions, ...
                return self._read_all(wb, sheets)

    def close(self) -> None:
        """Nothing stays open between reads."""

    def _read_all(self, wb: Any, sheets: Sequence[str] | None) -> Workbook:
        try:
            date1904 = bool(getattr(wb, "epoch", None) and wb.epoch.year == 1904)
            worksheets = list(wb.worksheets)
            chosen = _choose(worksheets, sheets, self.path.name)
            styles = _StyleTable(wb)
            out = [self._read_sheet(wb, ws, styles, date1904) for ws in chosen]
        except GridSightError:
            raise
        except (ParseError, zipfile.BadZipFile, KeyError, ValueError, TypeError, EOFError) as exc:
            raise CorruptFileError(f"{self.path.name}: damaged workbook ({_why(exc)})") from None
        except Exception as exc:
            if type(exc).__module__.startswith("defusedxml"):
                raise CorruptFileError(
                    f"{self.path.name}: refused unsafe XML ({type(exc).__name__})"
                ) from None
            raise
        finally:
            wb.close()
        names = {s.name for s in out}
        tables = tuple(t for t in read_tables(self.path) if t.sheet in names)
        return Workbook(
            out, name=self.path.name, date1904=date1904, tables=tables, names=read_defined_names(self.path)
        )

    def _read_sheet(self, wb: Any, ws: Any, styles: _StyleTable, date1904: bool) -> Sheet:
        parser_cls = _make_parser_class()
        b = SheetBuilder(ws.title, date1904=date1904)
        add, intern_format = b.add, b.intern_format
        get_style = styles.get
        fmt_is_date: dict[str, bool] = {}
        count = 0
        with ws._get_source() as src:
            parser = parser_cls(
                src,
                ws._shared_strings,
                data_only=False,
                epoch=wb.epoch,
                date_formats=set(),
                timedelta_formats=set(),
                rich_text=False,
            )
            for _idx, row in parser.parse():
                count += len(row)
                if count > MAX_SHEET_CELLS:
                    raise ResourceLimitError(
                        f"sheet {ws.title!r} has more than {MAX_SHEET_CELLS:,} cells, the limit"
                    )
                for cell in row:
                    r, c = cell["row"] - 1, cell["column"] - 1
                    style_id = cell["style_id"]
                    flags, fmt = get_style(style_id) if style_id else (0, "General")
                    value, dtype = cell["value"], cell["data_type"]
                    formula = None
                    if dtype == "f":
                        formula = _formula_text(value)
                        if formula.strip() in ("", "="):  # <f ca="1"/>: a cell a volatile array fills
                            formula = None
                        dtype, value = _cached(cell["cached"], ws._shared_strings)
                    if value is None or (dtype == "n" and value == ""):
                        kind, num, text = Kind.EMPTY, 0.0, None
                    elif dtype == "n":
                        num = float(value)
                        is_date = fmt_is_date.get(fmt)
                        if is_date is None:
                            is_date = fmt_is_date[fmt] = is_date_format(fmt)
                        kind = Kind.DATETIME if is_date and 0 <= num < 2958466 else Kind.NUMBER
                        text = None
                    elif dtype == "s":
                        kind, num, text = Kind.TEXT, 0.0, _xstring(str(value))
                    elif dtype == "b":
                        kind, num, text = Kind.BOOL, float(bool(value)), None
                    elif dtype == "e":
                        kind, num, text = Kind.ERROR, 0.0, str(value)
                    elif dtype == "d" and isinstance(value, dt.date | dt.time | dt.timedelta):
                        kind, num, text = Kind.DATETIME, datetime_to_serial(value, date1904=date1904), None
                    else:
                        kind, num, text = Kind.TEXT, 0.0, _xstring(str(value))
                    if kind == Kind.EMPTY and formula is None and not flags and fmt == "General":
                        continue
                    add(r, c, kind, num, text, formula, intern_format(fmt), flags)
                if self._progress is not None:
                    self._progress(ws.title, count)
            merged = parser.merged_cells
        if merged is not None:
            for mc in merged.mergeCell:
                try:
                    b.add_merge(Range.parse(mc.ref))
                except GridSightError:
                    continue  # a malformed merge reference loses the merge, not the sheet
        return b.build()


def _cached(cached: tuple[str, str | None], shared_strings: Any) -> tuple[str, Any]:
    """A formula cell's cached ``<v>`` -> (openpyxl-style data type, value)."""
    t, v = cached
    if v is None or (v == "" and t not in ("str", "inlineStr")):
        return "n", None
    if t == "e":
        return "e", v
    if t == "b":
        return "b", v.strip() in ("1", "true", "TRUE")
    if t == "str" or t == "inlineStr":
        return "s", v
    if t == "s":
        try:
            return "s", shared_strings[int(v)]
        except (ValueError, IndexError):
            return "s", v
    try:
        return "n", float(v)
    except ValueError:
        return "s", v


def _choose(worksheets: list[Any], wanted: Sequence[str] | None, fname: str) -> list[Any]:
    by_title = {ws.title: ws for ws in worksheets}
    return [by_title[t] for t in choose_sheets([ws.title for ws in worksheets], wanted, fname)]


def _why(exc: BaseException) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {msg}"[:200] if msg else type(exc).__name__

"""Write small .xlsx packages the way Excel saves them: each formula with its cached result.

openpyxl writes formulas without results, so tests that compare with Excel's saved values build the
package parts here (the same parts Excel writes, fewer attributes)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from xml.sax.saxutils import escape

import pytest

from gridsight.grid import ERROR_VALUES, Range

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_PKG = "http://schemas.openxmlformats.org/package/2006"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


class D:
    """A date cell: its serial number, shown with a date format (style 1, built-in format 14)."""

    def __init__(self, serial: float) -> None:
        self.serial = serial


class F:
    """A formula cell: text (without '=') and the result Excel saved; ``array`` for an array formula's
    area (its anchor is this cell)."""

    def __init__(self, text: str, cached: Any, array: str | None = None, date: bool = False) -> None:
        self.text, self.cached, self.array, self.date = text, cached, array, date


def _value(v: Any, formula: bool) -> tuple[str, str]:
    """(type attribute, inner XML) for a value."""
    if isinstance(v, bool):
        return ' t="b"', f"<v>{int(v)}</v>"
    if isinstance(v, int | float):
        return "", f"<v>{v!r}</v>"
    if isinstance(v, str) and v in ERROR_VALUES:
        return ' t="e"', f"<v>{escape(v)}</v>"
    if formula:
        return ' t="str"', f"<v>{escape(str(v))}</v>"
    return ' t="inlineStr"', f"<is><t>{escape(str(v))}</t></is>"


def _sheet_xml(
    cells: dict[str, Any], row_attrs: dict[int, str] | None = None, around: tuple[str, str] = ("", "")
) -> str:
    rows: dict[int, list[tuple[int, str]]] = {r: [] for r in row_attrs or {}}
    for ref, v in cells.items():
        rng = Range.parse(ref)
        if isinstance(v, F):
            t, inner = _value(v.cached, True) if v.cached is not None else ("", "")
            attrs = f' t="array" ref="{v.array}"' if v.array else ""
            style = ' s="1"' if v.date else ""
            xml = f'<c r="{ref}"{style}{t}><f{attrs}>{escape(v.text)}</f>{inner}</c>'
        elif isinstance(v, D):
            xml = f'<c r="{ref}" s="1"><v>{v.serial!r}</v></c>'
        else:
            t, inner = _value(v, False)
            xml = f'<c r="{ref}"{t}>{inner}</c>'
        rows.setdefault(rng.top + 1, []).append((rng.left, xml))
    extra = row_attrs or {}
    body = "".join(
        f'<row r="{r}"{" " + extra[r] if r in extra else ""}>' + "".join(x for _, x in sorted(cs)) + "</row>"
        for r, cs in sorted(rows.items())
    )
    before, after = around
    return f'{_XML}<worksheet xmlns="{_MAIN}">{before}<sheetData>{body}</sheetData>{after}</worksheet>'


def write_xlsx(
    path: Path,
    sheets: dict[str, dict[str, Any]],
    names: dict[str, str] | None = None,
    date1904: bool = False,
    calc: dict[str, str] | None = None,
    rows: dict[str, dict[int, str]] | None = None,
    around: dict[str, tuple[str, str]] | None = None,
) -> Path:
    """``{"Sheet1": {"A1": 2, "B1": F("A1*3", 6)}}`` -> an .xlsx at ``path``; ``names``: defined names;
    ``calc``: the workbook's ``<calcPr>`` attributes (``{"iterate": "1"}``); ``rows``: per sheet, the
    attributes of rows by number (``{3: 'hidden="1"'}``); ``around``: per sheet, the XML before and
    after its ``<sheetData>`` (``('<sheetPr filterMode="1"/>', '<autoFilter ref="A1:B9">...')``)."""
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for i in range(1, len(sheets) + 1)
    )
    defined = "".join(
        f'<definedName name="{escape(n)}">{escape(t)}</definedName>' for n, t in (names or {}).items()
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "[Content_Types].xml",
            f'{_XML}<Types xmlns="{_PKG}/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            f"{overrides}</Types>",
        )
        zf.writestr(
            "_rels/.rels",
            f'{_XML}<Relationships xmlns="{_PKG}/relationships">'
            f'<Relationship Id="rId1" Type="{_R}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        entries = "".join(
            f'<sheet name="{escape(n)}" sheetId="{i}" r:id="rId{i}"/>' for i, n in enumerate(sheets, start=1)
        )
        zf.writestr(
            "xl/workbook.xml",
            f'{_XML}<workbook xmlns="{_MAIN}" xmlns:r="{_R}">'
            + ('<workbookPr date1904="1"/>' if date1904 else "")
            + f"<sheets>{entries}</sheets>"
            + (f"<definedNames>{defined}</definedNames>" if defined else "")
            + ("<calcPr " + " ".join(f'{k}="{escape(v)}"' for k, v in calc.items()) + "/>" if calc else "")
            + "</workbook>",
        )
        rels = (
            "".join(
                f'<Relationship Id="rId{i}" Type="{_R}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                for i in range(1, len(sheets) + 1)
            )
            + f'<Relationship Id="rIdS" Type="{_R}/styles" Target="styles.xml"/>'
        )
        zf.writestr(
            "xl/styles.xml",
            f'{_XML}<styleSheet xmlns="{_MAIN}"><fonts count="1"><font/></fonts>'
            '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
            '<borders count="1"><border/></borders>'
            '<cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="2"><xf/>'
            '<xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>',
        )
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            f'{_XML}<Relationships xmlns="{_PKG}/relationships">{rels}</Relationships>',
        )
        for i, (name, cells) in enumerate(sheets.items(), start=1):
            xml = _sheet_xml(cells, (rows or {}).get(name), (around or {}).get(name, ("", "")))
            zf.writestr(f"xl/worksheets/sheet{i}.xml", xml)
    return path


@pytest.fixture(scope="session")
def excel() -> SimpleNamespace:
    """``excel.F(text, cached, array=None, date=False)``, ``excel.D(serial)`` and
    ``excel.write(path, sheets, names, date1904, calc, rows, around)``."""
    return SimpleNamespace(F=F, D=D, write=write_xlsx)


def excel_result(formula: str, book: Any, at: str = "H10", *, checked: bool = True) -> Any:
    """What ``formula`` gives in ``book``'s sheet ``S`` at ``at``: its value, or its Excel error
    (``#N/A``); with ``checked``, the formula must have evaluated (an Excel error is a result)."""
    from gridsight.formula import evaluate_formula

    ev = evaluate_formula(formula, book, "S", at=at)
    if checked:
        assert ev.ok, ev.problems
    return ev.error if ev.error is not None else ev.value


def assert_as_excel(got: Any, excel: Any, formula: str) -> None:
    """``got`` is Excel's result: a float to 12 significant digits, anything else exactly."""
    if isinstance(excel, float):
        assert got == pytest.approx(excel, rel=1e-12), formula
    else:
        assert got == excel, formula

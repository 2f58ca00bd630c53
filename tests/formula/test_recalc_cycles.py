"""Cycles of the references as written that Excel does not take for circular references.

A formula's references as written can go round (``INDEX(Table[Ending balance], n)`` in the table's
own rows reads the whole column, which reads the formula's row) while what it reads when it runs does
not: Excel calculates it without a warning and saves its values, so they are compared. A cycle whose
cells do read their own still-changing values is a circular reference: Excel saved 0 and it is reported,
not compared. The workbooks are built with openpyxl (tables, names) and given the results Excel saves.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from xml.sax.saxutils import escape

from openpyxl import Workbook
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.table import Table

from gridsight.commands.recalc import recalc_file


def _by_cell(result: object) -> dict[str, Any]:
    return {f"{c.sheet}!{c.cell}": c for c in result.cells}  # type: ignore[attr-defined]


def _cached(v: Any) -> tuple[str, str]:
    """A formula cell's type attribute and saved value, as Excel writes them."""
    if isinstance(v, str) and v.startswith("#"):
        return ' t="e"', f"<v>{escape(v)}</v>"
    if isinstance(v, str):
        return ' t="str"', f"<v>{escape(v)}</v>"
    return "", f"<v>{v!r}</v>"


def _write(
    path: Path,
    cells: dict[str, Any],
    tables: dict[str, str] | None = None,
    names: dict[str, str] | None = None,
    calc: str = "",
) -> Path:
    """One sheet ``S`` (openpyxl writes the tables and names), then each formula given its saved result:
    ``cells`` maps a cell to a value or to (formula without '=', Excel's result). ``calc``: the
    attributes of the workbook's ``<calcPr>``."""
    wb = Workbook()
    ws = wb.active
    ws.title = "S"
    for ref, v in cells.items():
        ws[ref] = "=" + v[0] if isinstance(v, tuple) else v
    for name, ref in (tables or {}).items():
        ws.add_table(Table(displayName=name, ref=ref))
    for name, text in (names or {}).items():
        wb.defined_names[name] = DefinedName(name, attr_text=text)
    wb.save(path)
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    for ref, v in cells.items():
        if isinstance(v, tuple):
            t, inner = _cached(v[1])
            pattern = re.compile(rf'<c r="{ref}">(<f>.*?</f>)<v\s*/>', re.DOTALL)
            head = f'<c r="{ref}"{t}>'

            def cached(m: re.Match[str], head: str = head, tail: str = inner) -> str:
                return head + m[1] + tail

            xml, found = pattern.subn(cached, xml)
            assert found == 1, ref
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    if calc:
        book = parts["xl/workbook.xml"].decode()
        book = re.sub(r"<calcPr[^>]*/>", "", book).replace("</workbook>", f"<calcPr {calc}/></workbook>")
        parts["xl/workbook.xml"] = book.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for part, data in parts.items():
            zf.writestr(part, data)
    return path


_COLUMNS = ("Payment number", "Beginning balance", "Payment", "Interest", "Principal", "Ending balance")
_ROW = "Sched[[#This Row],[{}]]"
_START = "ROW()-ROW(Sched[[#Headers],[Beginning balance]])"


def _schedule(payments: int, wrong: dict[str, float] | None = None) -> dict[str, Any]:
    """Microsoft's loan amortization template, made small: a table ``Sched`` (from B3: a row per
    payment and a blank one) whose Beginning balance is ``INDEX(Sched[Ending balance], <previous
    row>)``, the Ending balance reading the row's Beginning balance; a row without a payment number
    is blank. Each formula with Excel's result,
    except those in ``wrong`` (a saved value made wrong)."""
    cells: dict[str, Any] = {"J1": 1000, "J2": 0.01, "J3": 100}
    for col, name in zip("BCDEFG", _COLUMNS, strict=True):
        cells[f"{col}3"] = name
    balance = 1000.0
    for i in range(payments + 1):
        r = 4 + i
        if i < payments:
            cells[f"B{r}"] = i + 1
        guard = _ROW.format("Payment number") + '<>""'
        begin = f"IF({_START}=1,LoanAmount,INDEX(Sched[Ending balance],{_START}-1))"
        formulas = {
            "C": begin,
            "D": f"MIN(Pay,{_ROW.format('Beginning balance')}+{_ROW.format('Interest')})",
            "E": f"{_ROW.format('Beginning balance')}*Rate",
            "F": f"{_ROW.format('Payment')}-{_ROW.format('Interest')}",
            "G": f"{_ROW.format('Beginning balance')}-{_ROW.format('Principal')}",
        }
        if i < payments:
            interest = balance * 0.01
            pay = min(100, balance + interest)
            principal = pay - interest
            values: dict[str, Any] = {"C": balance, "D": pay, "E": interest, "F": principal}
            balance = balance - principal
            values["G"] = balance
        else:
            values = dict.fromkeys("CDEFG", "")
        for col, text in formulas.items():
            ref = f"{col}{r}"
            saved = (wrong or {}).get(ref, values[col])
            cells[ref] = (f'IF({guard},{text},"")', saved)
    return cells


_NAMES = {"LoanAmount": "S!$J$1", "Rate": "S!$J$2", "Pay": "S!$J$3"}


def test_a_table_reading_its_own_column_for_the_previous_row(tmp_path: Path) -> None:
    """As written, each Beginning balance reads the whole Ending balance column, which reads it; as
    run, INDEX reads the previous row's cell only. Excel calculates it (no circular warning): every
    cell is compared, and agrees. The order of the row (Payment reads Interest, one column right) is
    followed too."""
    path = _write(tmp_path / "loan.xlsx", _schedule(14), {"Sched": "B3:G18"}, _NAMES)
    by = _by_cell(recalc_file(path))
    assert len(by) == 75
    assert {c.status for c in by.values()} == {"agree"}, [c for c in by.values() if c.status != "agree"]
    assert by["S!C4"].ours == 1000 and by["S!C5"].ours == by["S!G4"].ours
    assert by["S!G17"].ours == 0  # paid off within the 14 payments
    assert by["S!C18"].ours == ""  # no payment number: blank, as the template shows it


def test_the_cycle_is_compared_with_excel_not_started_from_it(tmp_path: Path) -> None:
    """The cycle's cells start from no value of their own, not from Excel's: a wrong saved Ending
    balance differs, and the next row's Beginning balance reads the value computed here (Excel's
    own), so it agrees."""
    cells = _schedule(14, wrong={"G5": 123.0})
    path = _write(tmp_path / "loan_wrong.xlsx", cells, {"Sched": "B3:G18"}, _NAMES)
    by = _by_cell(recalc_file(path))
    assert (by["S!G5"].status, by["S!G5"].kind, by["S!G5"].excel) == ("differ", "number", 123.0)
    assert by["S!C6"].status == "agree" and by["S!C6"].ours == cells["C6"][1]
    assert [k for k, c in by.items() if c.status != "agree"] == ["S!G5"]


def test_chains_through_offset_and_if_that_read_earlier_rows(tmp_path: Path) -> None:
    """``OFFSET($B$2:$B$6, ROW()-3, 0, 1, 1)`` names its own column but reads the row above; an IF
    whose live branch reads the row above (the other, the row below, closes the cycle as written); a
    column of INDEX reading the row below, against sheet order (20 rows: evaluated top down, it would
    need a sweep a row)."""
    cells: dict[str, Any] = {"A1": "down", "B2": 1, "C2": ('IF($A$1="up",C3,1)', 1), "D22": 0}
    for r in range(3, 7):
        cells[f"B{r}"] = ("OFFSET($B$2:$B$6,ROW()-3,0,1,1)*2", 2 ** (r - 2))
        below = f"C{r + 1}" if r < 6 else "C2"
        cells[f"C{r}"] = (f'IF($A$1="up",{below},C{r - 1}+1)', r - 1)
    for r in range(2, 22):
        cells[f"D{r}"] = ("INDEX($D$2:$D$22,ROW())+1", 22 - r)
    by = _by_cell(recalc_file(_write(tmp_path / "chains.xlsx", cells)))
    assert len(by) == 29
    assert {c.status for c in by.values()} == {"agree"}, [c for c in by.values() if c.status != "agree"]


def test_true_circular_references_stay_circular(tmp_path: Path) -> None:
    """A1 and B1 read each other; D2 is INDEX over its own column at its own row; E2 and E3 read each
    other through INDEX (from blank cells they settle at 0, Excel's saved value, but from an error or a
    number they keep it: they read themselves). Excel calculated none of them and saved 0."""
    cells = {
        "A1": ("B1+1", 0),
        "B1": ("A1+1", 0),
        "C1": ("A1*2", 0),  # reads a circular reference
        "D1": 5,
        "D2": ("INDEX($D$1:$D$3,ROW())+1", 0),
        "D3": ("D1*2", 10),  # in the range, not on the cycle
        "E2": ("INDEX(E2:E3,2)", 0),
        "E3": ("INDEX(E2:E3,1)", 0),
    }
    by = _by_cell(recalc_file(_write(tmp_path / "circular.xlsx", cells)))
    for ref in ("A1", "B1", "D2", "E2", "E3"):
        assert (by[f"S!{ref}"].status, by[f"S!{ref}"].kind) == ("circular", "circular reference"), ref
    assert (by["S!C1"].status, by["S!C1"].kind) == ("circular", "reads a circular reference")
    assert by["S!D3"].status == "agree"


def test_iterative_calculation_compares_a_cycle_only_as_written(
    tmp_path: Path, excel: SimpleNamespace
) -> None:
    """With iterative calculation on, a cycle only as written is still compared from no value of its
    own: a wrong saved value differs (it is not hidden as an iteration that settled elsewhere); a true
    cycle still iterates from Excel's values."""
    cells: dict[str, Any] = {"B2": 1, "A2": 10}
    for r in range(3, 6):
        cells[f"B{r}"] = ("INDEX($B$2:$B$5,ROW()-2)+1", 99 if r == 4 else r - 1)
    cells["A3"] = ("A2+A3/2", 20 - 10 / 2**14)  # 10 + A3/2 from 0, within 0.001 of its last pass
    calc = 'iterate="1" iterateCount="100" iterateDelta="0.001"'
    by = _by_cell(recalc_file(_write(tmp_path / "iterative.xlsx", cells, calc=calc)))
    assert by["S!B3"].status == by["S!B5"].status == "agree"
    assert (by["S!B4"].status, by["S!B4"].kind, by["S!B4"].ours) == ("differ", "number", 3)
    assert (by["S!A3"].status, by["S!A3"].kind) == ("circular", "iterative calculation")

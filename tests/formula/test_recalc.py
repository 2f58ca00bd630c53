"""Recalculation against Excel's saved results: order, comparison, kinds, bad input, time bounds.

Every workbook here is a real .xlsx package written the way Excel saves it (formula + cached result),
built by the test; the 'Excel' results are what Excel gives for these formulas by its documentation."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.commands.recalc import recalc_file
from gridsight.formula._depgraph import FormulaIndex, evaluation_order
from gridsight.formula._recalc import recalculate
from gridsight.grid import Range, SheetBuilder, Workbook
from gridsight.sources import open_workbook
from gridsight.sources._xlsx_arrays import read_array_formulas


def _by_cell(result: object) -> dict[str, object]:
    return {f"{c.sheet}!{c.cell}": c for c in result.cells}  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory, excel: SimpleNamespace) -> Path:
    """One sheet of each case; cached values are Excel's, except B1's, which is made wrong."""
    path = tmp_path_factory.mktemp("recalc") / "book.xlsx"
    F = excel.F
    cells = {
        "A1": 2,
        "A2": 3,
        "A3": "x",
        "B1": F("A1*3", 7),  # wrong on purpose: Excel gives 6
        "C1": F("B1+1", 8),  # right from Excel's saved B1, so its difference only propagated
        "D1": F("Rate*10", 20),  # a defined name
        "E1": F("F1+1", 0),  # a true cycle
        "F1": F("E1+1", 0),
        "G1": F("NOW()", 45000.5),  # volatile
        "H1": F("FOOBAR(1)", 1),  # not Excel's: a macro's or an add-in's function, outside the file
        "M1": F("PHONETIC(A3)", "x"),  # one of Excel's functions the engine does not have
        "I1": F("IFERROR(1/0,NA())", "#N/A"),  # an error value carried to the end
        "J1": F('INDIRECT("A"&"2")*2', 6),  # INDIRECT with static text
        "K1": F("SUM(", 0),  # corrupt formula text
        "L1": F("[1]Sheet1!A1", 5),  # an external link
        "B2": F("A1:A3*2", 6),  # implicit intersection: row 2 of A1:A3
        "C2": F("A1:A2*10", 20, array="C2:C3"),  # an array formula over C2:C3
        "C3": 30,
        "D2": F("C3+1", 31),  # reads the array's second cell
        "B3": F('--"09"+ROUND(1.005,2)', 10.01),  # coercion by --, Excel's decimal rounding
        "B4": F('1/3&""', "0.333333333333333"),  # 15 significant digits as text
        "B5": F('TRIM("  a  b ")', "a b"),
        "B6": F("INDEX(B1:B6,ROW()-1)", "a b"),  # a cycle only in the static references
        "B7": F('HYPERLINK("mailto:"&A3,A3)', "x"),  # evaluated (it opens nothing), not refused
    }
    return excel.write(path, {"Sheet1": cells}, names={"Rate": "Sheet1!$A$1"})


@pytest.fixture(scope="module")
def result(book: Path) -> object:
    return recalc_file(book)


def test_agreement_counts_and_kinds(result: object) -> None:
    s = result.summary()  # type: ignore[attr-defined]
    cells = _by_cell(result)
    assert cells["Sheet1!B1"].status == "differ" and cells["Sheet1!B1"].kind == "number"
    assert (cells["Sheet1!B1"].excel, cells["Sheet1!B1"].ours) == (7, 6)
    assert cells["Sheet1!C1"].kind == "propagated from inputs that differ"
    assert cells["Sheet1!C1"].saved_inputs_agree is True
    for agreeing in ("D1", "I1", "J1", "B2", "C2", "D2", "B3", "B4", "B5", "B6", "B7"):
        assert cells[f"Sheet1!{agreeing}"].status == "agree", cells[f"Sheet1!{agreeing}"]
    assert cells["Sheet1!E1"].status == cells["Sheet1!F1"].status == "circular"
    assert cells["Sheet1!G1"].status == "volatile"
    h1, m1 = cells["Sheet1!H1"], cells["Sheet1!M1"]
    assert (h1.status, h1.kind) == ("external", "user-defined function FOOBAR")
    assert (m1.status, m1.kind) == ("unsupported", "unknown function PHONETIC")
    assert cells["Sheet1!K1"].kind == "formula text the parser rejects"
    assert (cells["Sheet1!L1"].status, cells["Sheet1!L1"].kind) == ("external", "external link")
    assert s["formulas"] == 15 and s["agreed"] == 11 and s["differ"] == 2 and s["unsupported"] == 2
    assert s["agreement"] == round(11 / 15, 4)
    assert s["saved_inputs_agreed"] == 12  # C1 agrees from Excel's saved B1
    assert s["circular"] == 2 and s["volatile"] == 1 and s["external"] == 2
    assert s["by_kind"]["external: external link"] == 1


def test_dynamic_arrays_as_excel_saves_them(tmp_path: Path, excel: SimpleNamespace) -> None:
    """Excel 365 saves a spilling formula as an array formula over its spill area, with _xlfn/_xlws
    prefixes, spill references as ANCHORARRAY, @ as SINGLE and LET names with _xlpm."""
    F = excel.F
    cells = {
        "A1": 3,
        "A2": 1,
        "A3": 2,
        "B1": F("_xlfn._xlws.SORT(A1:A3,,-1)", 3, array="B1:B3"),
        "B2": 2,
        "B3": 1,
        "C1": F("SUM(_xlfn.ANCHORARRAY(B1))", 6),
        "C2": F("B2*10", 20),  # reads the spilled value GridSight computed
        "C3": F("_xlfn.SINGLE(A1:A3)", 2),
        "D1": F("_xlfn.LET(_xlpm.x,A1,_xlpm.x*2)", 6),
        "D2": F("SUM(_xlfn.ANCHORARRAY(A1))", "#REF!"),  # A1 does not spill
    }
    path = excel.write(tmp_path / "dyn.xlsx", {"S": cells})
    result = recalc_file(path)
    assert [(c.cell, c.status) for c in result.cells if c.status != "agree"] == []
    assert result.agreed == 6


def test_1904_date_system(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A workbook in the 1904 date system saves serials 1,462 days lower; dates still agree."""
    F, D = excel.F, excel.D
    cells = {
        "A1": D(45292 - 1462),  # 2024-01-01
        "B1": F("YEAR(A1)", 2024),
        "C1": F("A1+1", 45293 - 1462, date=True),
        "D1": F("DATE(2024,1,1)", 45292 - 1462, date=True),
        "E1": F("A1-DATE(2023,12,31)", 1),
    }
    path = excel.write(tmp_path / "mac.xlsx", {"S": cells}, date1904=True)
    assert open_workbook(path).date1904
    result = recalc_file(path)
    assert [(c.cell, c.excel, c.ours) for c in result.cells if c.status != "agree"] == []


def test_dependency_order_uses_our_values(tmp_path: Path, excel: SimpleNamespace) -> None:
    """C1 reads B1: evaluated after it, from our B1 (C1 comes first in the file)."""
    F = excel.F
    path = excel.write(tmp_path / "chain.xlsx", {"S": {"A1": 1, "C1": F("B1*2", 4), "B1": F("A1+1", 2)}})
    cells = _by_cell(recalc_file(path))
    assert [c.status for c in cells.values()] == ["agree", "agree"]
    assert list(cells) == ["S!B1", "S!C1"]


def test_static_indirect_and_offset_targets_come_first(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A1 and A2 read B1:B2 through INDIRECT and OFFSET with constant arguments: B2 is evaluated first,
    so they see our B2 (made to differ from the saved one) and their difference is marked propagated."""
    F = excel.F
    cells = {
        "A1": F('SUM(INDIRECT("B1:B2"))', 7),
        "A2": F("SUM(OFFSET(C1,0,-1,2,1))", 7),
        "B1": 2,
        "B2": F("C2*2", 5),  # Excel would give 4: wrong on purpose; it comes after A1 and A2 in the file
        "C2": 2,
    }
    path = excel.write(tmp_path / "ind.xlsx", {"S": cells})
    result = recalc_file(path)
    order = [c.cell for c in result.cells]
    assert order.index("B2") < order.index("A1") and order.index("B2") < order.index("A2")
    kinds = {c.cell: c.kind for c in result.cells}
    assert kinds["A1"] == kinds["A2"] == "propagated from inputs that differ"


def test_tarjan_order_and_cycles() -> None:
    cells = [("s", 0, 0), ("s", 1, 0), ("s", 2, 0), ("s", 3, 0)]
    edges = {cells[0]: [cells[1]], cells[1]: [cells[2]], cells[2]: [], cells[3]: [cells[3]]}
    order = evaluation_order(cells, lambda k: edges[k])
    assert order.order.index(cells[2]) < order.order.index(cells[1]) < order.order.index(cells[0])
    assert order.circular == {cells[3]}
    index = FormulaIndex(cells)
    assert index.inside("s", Range.parse("A2:B3")) == [cells[1], cells[2]]


def test_long_chain_has_no_recursion_limit() -> None:
    b = SheetBuilder("S")
    b.set(0, 0, 1)
    for r in range(1, 1200):
        b.set(r, 0, r + 1, formula=f"=A{r}+1")
    result = recalculate(Workbook([b.build()]))
    assert result.agreed == 1199


def test_filled_columns_reuse_analysis_without_mixing_forms() -> None:
    """A column filled with one relative formula is analysed once; neighbours that need a rewrite
    (implicit intersection, ROW()) or read other cells keep their own."""
    b = SheetBuilder("S")
    for r in range(40):
        b.set(r, 0, r + 1)
        b.set(r, 1, (r + 1) * 2 + 1, formula=f"=A{r + 1}*2+$A$1")
        b.set(r, 2, (r + 1) * 3, formula="=A1:A40*3")  # intersected with its own row
        b.set(r, 3, r + 1, formula="=ROW()")
        b.set(r, 4, (r + 1) * 2 + 1 + (r + 1), formula=f"=B{r + 1}+A{r + 1}")
    result = recalculate(Workbook([b.build()]))
    assert result.agreed == 160, [c for c in result.cells if c.status != "agree"][:3]


def test_time_budget_reports_what_it_skipped() -> None:
    b = SheetBuilder("S")
    b.set(0, 0, 1)
    for r in range(1, 1001):
        b.set(r, 0, 2, formula=f"=A1+{r}*0+1")
    start = time.perf_counter()
    result = recalculate(Workbook([b.build()]), budget_s=0.3)
    assert time.perf_counter() - start < 3
    s = result.summary()
    assert s["skipped"] > 0 and s["stopped"] and s["formulas"] == 1000
    assert s["unsupported"] == s["skipped"]  # skipped cells are counted, not hidden


def test_per_cell_guard() -> None:
    """One slow cell is stopped and reported; the others go on."""
    b = SheetBuilder("S")
    for r in range(20000):
        b.set(r, 0, r)
    b.set(0, 1, 20000, formula='=SUMPRODUCT(--(TEXT(A1:A20000,"0000")=TEXT(A1:A20000,"0000")))')
    b.set(1, 1, 1, formula="=A2")
    start = time.perf_counter()
    result = recalculate(Workbook([b.build()]), cell_budget_s=0.2)
    assert time.perf_counter() - start < 30  # generous: the machine is shared
    kinds = {c.cell: (c.status, c.kind) for c in result.cells}
    assert kinds["B1"] == ("unsupported", "took longer than the per-cell limit")
    assert kinds["B2"] == ("agree", None)


def test_sheet_option_and_array_reader(book: Path) -> None:
    assert read_array_formulas(book) == {"Sheet1": {(1, 2): Range.parse("C2:C3")}}
    assert read_array_formulas(Path(__file__)) == {}  # not a package: nothing, no exception


def test_cli_text_json_and_bad_input(book: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["recalc", str(book)])
    assert r.exit_code == 0, r.output
    assert "differ: number (1)" in r.output and "Sheet1!B1" in r.output
    assert "11/15 formulas agree with Excel (73.3%)" in r.output.splitlines()[-1]
    r = runner.invoke(cli, ["recalc", str(book), "--format", "json", "--sheet", "sheet1"])
    doc = json.loads(r.stdout)
    assert doc["summary"]["agreed"] == 11 and all(c["status"] != "agree" for c in doc["cells"])
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    for args in (
        ["recalc", str(broken)],
        ["recalc", str(tmp_path / "missing.xlsx")],
        ["recalc", str(book), "--sheet", "Nope"],
    ):
        r = runner.invoke(cli, args)
        assert r.exit_code == 2 and "error:" in r.output and "Traceback" not in r.output


def test_sheet_option_reports_only_that_sheet(tmp_path: Path, excel: SimpleNamespace) -> None:
    """--sheet Report: its formulas, computed after the Data formulas they read (wrong there on purpose)."""
    F = excel.F
    path = excel.write(
        tmp_path / "two.xlsx",
        {"Data": {"A1": 2, "B1": F("A1*2", 5)}, "Report": {"A1": F("Data!B1+1", 6)}},
    )
    result = recalc_file(path, sheets=["report"])
    assert [(c.sheet, c.cell, c.status, c.kind) for c in result.cells] == [
        ("Report", "A1", "differ", "propagated from inputs that differ")
    ]


def test_unsaved_results_are_not_compared(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A file written by a program (no cached results) has nothing to compare: reported, not counted."""
    path = excel.write(tmp_path / "p.xlsx", {"S": {"A1": 1, "B1": excel.F("A1+1", None)}})
    s = recalc_file(path).summary()
    assert s["unsaved"] == 1 and s["formulas"] == 0


def test_defined_names_read_and_scoped(book: Path) -> None:
    wb = open_workbook(book)
    assert wb.defined_name("rate") is not None and wb.defined_name("rate").text == "Sheet1!$A$1"
    assert wb.defined_name("Missing") is None


def test_circular_references_as_excel_saves_them(tmp_path: Path, excel: SimpleNamespace) -> None:
    """Without iterative calculation Excel does not calculate a circular reference: it saves 0 in its
    cells and in the cells that read them. A cycle only as written (an IF whose branch leaves it) is
    calculated as usual; OR evaluates every argument, so it closes its cycle."""
    F = excel.F
    cells = {
        "A1": True,
        "B1": F("C1", 0),  # B1 -> C1 -> D1 -> B1, live: A1 is TRUE
        "C1": F("D1", 0),
        "D1": F("IF(A1,B1,1)", 0),
        "E1": F("B1+1", 0),  # reads the circular reference: Excel saved 0, not 1
        "F1": F("E1*2", 0),  # and what reads that
        "A2": False,
        "B2": F("C2", 1),  # the same cycle as written, but IF leaves it: calculated
        "C2": F("D2", 1),
        "D2": F("IF(A2,B2,1)", 1),
        "E2": F("B2+1", 2),
        "A3": True,
        "B3": F("OR(A3,C3)", 0),  # OR(TRUE, ...) still reads C3
        "C3": F("B3", 0),
        "G1": F("G1", 0),  # reads itself
        "H1": F("IFERROR(H2,0)+1", 0),  # IFERROR would catch an error value: still a cycle
        "H2": F("H1", 0),
    }
    path = excel.write(tmp_path / "circ.xlsx", {"Sheet1": cells})
    by = _by_cell(recalc_file(path))
    for ref in ("B1", "C1", "D1", "B3", "C3", "G1", "H1", "H2"):
        assert (by[f"Sheet1!{ref}"].status, by[f"Sheet1!{ref}"].kind) == ("circular", "circular reference")
    for ref in ("E1", "F1"):
        assert (by[f"Sheet1!{ref}"].status, by[f"Sheet1!{ref}"].kind) == (
            "circular",
            "reads a circular reference",
        )
    for ref in ("B2", "C2", "D2", "E2"):
        assert by[f"Sheet1!{ref}"].status == "agree", by[f"Sheet1!{ref}"]


def test_iterative_calculation_setting(tmp_path: Path, excel: SimpleNamespace) -> None:
    """With iterative calculation on (``<calcPr iterate="1">``), Excel evaluates a cycle until no value
    changes by more than iterateDelta: a cycle that settles on Excel's value agrees; one whose saved value
    depends on Excel's earlier passes is reported as circular, not as a difference."""
    F = excel.F
    cells = {
        "A1": 5,
        "B1": F("MIN(A1,C1+1)", 5),  # settles at 5 at once
        "C1": F("B1", 5),
        "A2": 10,
        # B2 = 10 + B2/2 from 0: 10, 15, 17.5 ... stops within 0.001 of its last pass at 19.99939
        "B2": F("A2+B2/2", 20 - 10 / 2**14),
        "D1": F("B2*0+1", 1),  # reads the cycle: compared as usual
    }
    calc = {"iterate": "1", "iterateCount": "100", "iterateDelta": "0.001"}
    path = excel.write(tmp_path / "iter.xlsx", {"Sheet1": cells}, calc=calc)
    by = _by_cell(recalc_file(path))
    assert by["Sheet1!B1"].status == by["Sheet1!C1"].status == "agree"
    assert (by["Sheet1!B2"].status, by["Sheet1!B2"].kind) == ("circular", "iterative calculation")
    assert by["Sheet1!D1"].status == "agree"
    # the same cycle without the setting: Excel did not calculate it
    plain = excel.write(tmp_path / "plain.xlsx", {"Sheet1": {**cells, "B2": F("A2+B2/2", 0)}})
    by = _by_cell(recalc_file(plain))
    assert (by["Sheet1!B2"].status, by["Sheet1!B2"].kind) == ("circular", "circular reference")
    assert by["Sheet1!D1"].kind == "reads a circular reference"
    assert by["Sheet1!B1"].status == "circular"  # MIN reads C1 whatever A1 is


def test_control_characters_as_the_file_escapes_them(tmp_path: Path, excel: SimpleNamespace) -> None:
    """XML cannot hold CHAR(1): Excel saves it as ``_x0001_`` (ECMA-376 ST_Xstring), in a formula's
    result and in a text cell alike; read back, it is the character again."""
    F = excel.F
    cells = {"A1": 1, "B1": F("CHAR(A1)", "_x0001_"), "D1": "a_x0002_", "C1": F("CODE(RIGHT(D1))", 2)}
    path = excel.write(tmp_path / "ctl.xlsx", {"Sheet1": cells})
    by = _by_cell(recalc_file(path))
    assert by["Sheet1!B1"].status == by["Sheet1!C1"].status == "agree"
    assert open_workbook(path).sheets[0].value("D1") == "a\x02"


def test_a_large_workbook_is_bounded_in_time_and_memory(tmp_path: Path, excel: SimpleNamespace) -> None:
    """20,000 formulas with a 3-second budget: the command ends in bounded time and memory (measured
    on the child process), exits 0, and reports every formula (those past the budget as skipped); the
    budget is the workbook's (loading the engine is not counted), so some formulas are checked."""
    import re
    import subprocess
    import sys

    F = excel.F
    cells: dict[str, object] = {}
    for r in range(1, 10_001):
        cells[f"A{r}"] = r
        cells[f"B{r}"] = F(f"A{r}*2", 2 * r)
        cells[f"C{r}"] = F(f"B{r}+A{r}", 3 * r)
    path = excel.write(tmp_path / "large.xlsx", {"S": cells})
    start = time.perf_counter()
    # the child reports its own peak memory (VmHWM) as it exits: ru_maxrss of a child is inherited
    # from the process that forked it, here the test run with a model loaded
    peak = (
        "import atexit, runpy, sys\n"
        "def hwm():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM'):\n"
        "            print('PEAK_KB', line.split()[1], file=sys.stderr)\n"
        "atexit.register(hwm)\n"
        f"sys.argv = ['gridsight', 'recalc', {str(path)!r}, '--budget', '3', '--format', 'json']\n"
        "runpy.run_module('gridsight', run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", peak], capture_output=True, text=True, timeout=240, check=False
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert time.perf_counter() - start < 120  # generous: the machine is shared
    kb = re.search(r"PEAK_KB (\d+)", done.stderr)
    assert kb is not None and int(kb.group(1)) < 1_000_000, done.stderr[-500:]  # under 1 GB
    s = json.loads(done.stdout)["summary"]
    assert s["formulas"] == 20_000 and s["agreed"] + s["skipped"] == 20_000
    assert s["agreed"] > 0 and s["seconds"] < 30 and s["stopped"]


def _with_external_link(path: Path, cells_xml: str, sheet: str = "Prices", raw: bytes | None = None) -> Path:
    """Add to a package what Excel saves for a link to another workbook: the reference in
    workbook.xml and the values it last read there (``xl/externalLinks/externalLink1.xml``)."""
    import zipfile

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    book = parts["xl/workbook.xml"].decode()
    book = book.replace(
        "</sheets>", '</sheets><externalReferences><externalReference r:id="rIdX"/></externalReferences>'
    )
    parts["xl/workbook.xml"] = book.encode()
    rels = (
        parts["xl/_rels/workbook.xml.rels"]
        .decode()
        .replace(
            "</Relationships>",
            f'<Relationship Id="rIdX" Type="{rel}/externalLink" Target="externalLinks/externalLink1.xml"/>'
            "</Relationships>",
        )
    )
    parts["xl/_rels/workbook.xml.rels"] = rels.encode()
    parts["xl/externalLinks/externalLink1.xml"] = (
        raw
        or (
            f'<externalLink xmlns="{main}"><externalBook xmlns:r="{rel}" r:id="rId1"><sheetNames>'
            f'<sheetName val="{sheet}"/></sheetNames><sheetDataSet><sheetData sheetId="0">{cells_xml}'
            "</sheetData></sheetDataSet></externalBook></externalLink>"
        ).encode()
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return path


def test_external_links_read_the_values_excel_kept(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A reference to another workbook reads the values Excel saved with the link; one to a sheet
    Excel kept nothing of stays an external link, reported per cell."""
    F = excel.F
    cells = {
        "A1": F("[1]Prices!$B$2*2", 10),
        "A2": F("SUM([1]Prices!B2:B4)", 12),  # B4 blank there
        "A3": F("'[1]Prices'!B3&\" kg\"", "7 kg"),
        "A4": F("[1]Other!A1", 1),  # no values kept for that sheet
    }
    path = excel.write(tmp_path / "linked.xlsx", {"Sheet1": cells})
    _with_external_link(
        path, '<row r="2"><cell r="B2"><v>5</v></cell></row><row r="3"><cell r="B3"><v>7</v></cell></row>'
    )
    by = _by_cell(recalc_file(path))
    for ref in ("A1", "A2", "A3"):
        assert by[f"Sheet1!{ref}"].status == "agree", by[f"Sheet1!{ref}"]
    assert (by["Sheet1!A4"].status, by["Sheet1!A4"].kind) == ("external", "external link")
    # a damaged link part: no values, each linking formula reported, no traceback
    broken = excel.write(tmp_path / "broken.xlsx", {"Sheet1": cells})
    _with_external_link(broken, "", raw=b"<externalLink><sheetData")
    result = CliRunner().invoke(cli, ["recalc", str(broken), "--format", "json"])
    assert result.exit_code == 0 and "Traceback" not in result.output
    kinds = {c["cell"]: c["kind"] for c in json.loads(result.output)["cells"]}
    assert kinds == dict.fromkeys(("A1", "A2", "A3", "A4"), "external link")


def test_a_name_the_workbook_does_not_define_is_excels_name_error(
    tmp_path: Path, excel: SimpleNamespace
) -> None:
    """Excel computes a name no one defined as #NAME?, which IFERROR catches; recalculation does the
    same, while a formula GridSight would write with such a name is still refused."""
    from gridsight.formula import validate_formula

    F = excel.F
    cells = {
        "A1": F("Nowhere", "#NAME?"),
        "A2": F("IFERROR(Nowhere*2,0)", 0),
        "A3": F('"Nowhere"&1', "Nowhere1"),
    }
    path = excel.write(tmp_path / "names.xlsx", {"Sheet1": cells})
    by = _by_cell(recalc_file(path))
    for ref in ("A1", "A2", "A3"):
        assert by[f"Sheet1!{ref}"].status == "agree", by[f"Sheet1!{ref}"]
    assert not validate_formula("=Nowhere*2", open_workbook(path), "Sheet1").ok


def test_values_from_outside_the_workbook_are_external(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A sheet of another workbook Excel kept no cell of (``<sheetData sheetId="1"/>``) has unknown
    values, in a function as alone (``INDEX([1]Balancing!$R$4:$R$27,2)``); a cube function reads an
    OLAP server or the Data Model. Both are reported as external, not counted, like RTD."""
    F = excel.F
    cells = {
        "A1": F("[1]Prices!$B$2*2", 10),
        "A2": F("SUM(B1:B3)-INDEX([1]Balancing!$R$4:$R$27,2)", 110),
        "A3": F("[1]Balancing!R4", 7),
        "A4": F('CUBEVALUE("ThisWorkbookDataModel","[Measures].[Total]")', 16.5),
        "A5": F('CUBEMEMBER("ThisWorkbookDataModel","[Regions].[All]")', "All"),
    }
    path = excel.write(tmp_path / "outside.xlsx", {"Sheet1": cells})
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    _with_external_link(
        path,
        "",
        raw=(
            f'<externalLink xmlns="{main}"><externalBook xmlns:r="{rel}" r:id="rId1"><sheetNames>'
            '<sheetName val="Prices"/><sheetName val="Balancing"/></sheetNames><sheetDataSet>'
            '<sheetData sheetId="0"><row r="2"><cell r="B2"><v>5</v></cell></row></sheetData>'
            '<sheetData sheetId="1"/></sheetDataSet></externalBook></externalLink>'
        ).encode(),
    )
    result = recalc_file(path)
    by = _by_cell(result)
    assert by["Sheet1!A1"].status == "agree"
    assert {
        ref: (by[f"Sheet1!{ref}"].status, by[f"Sheet1!{ref}"].kind) for ref in ("A2", "A3", "A4", "A5")
    } == {
        "A2": ("external", "external link"),
        "A3": ("external", "external link"),
        "A4": ("external", "cube function (CUBEVALUE)"),
        "A5": ("external", "cube function (CUBEMEMBER)"),
    }
    assert result.agreement == 1.0


def test_a_cycle_as_written_through_a_user_defined_function(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A cycle only in the references as written (``INDEX(A1:B1,1,2)`` reads B1, not A1) through a
    function of a macro keeps that cell's value, Excel's, whatever the cycle is started from: the
    cycle is compared, not taken for a circular reference Excel would have saved as zeros."""
    F = excel.F
    sheets = {
        "Kept": {"A1": F("MYUDF(C1)", 7), "B1": F("A1*2", 14), "C1": F("INDEX(A1:B1,1,2)+1", 15)},
        "Name": {
            "A1": F("MYUDF(C1)", "#NAME?"),
            "B1": F("ERROR.TYPE(A1)", 5),
            "C1": F("INDEX(A1:B1,1,2)+1", 6),
        },
    }
    path = excel.write(tmp_path / "udf_cycle.xlsx", sheets)
    by = _by_cell(recalc_file(path))
    assert {k: c.status for k, c in by.items()} == {  # type: ignore[attr-defined]
        "Kept!A1": "external",
        "Kept!B1": "agree",
        "Kept!C1": "agree",
        "Name!A1": "agree",
        "Name!B1": "agree",
        "Name!C1": "agree",
    }

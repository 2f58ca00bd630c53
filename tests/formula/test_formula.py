"""Formulas: parse, policy, validate, evaluate (with the engine patches) and explain."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.errors import FormulaSyntaxError
from gridsight.formula import (
    BinOp,
    Call,
    Literal,
    Ref,
    evaluate_formula,
    explain_formula,
    parse_formula,
    validate_formula,
)
from gridsight.grid import CellError, Range, Sheet, Workbook


def book(origin: str = "A1", name: str = "Data") -> Workbook:
    """A small sales table whose top-left corner is at ``origin`` (for position tests)."""
    o = Range.parse(origin)
    rows = [
        ("Region", "Sales", "Units"),
        ("East", 10, 1),
        ("west", 20, 2),
        ("EAST", 5, 3),
        ("North", None, 4),
    ]
    cells: dict[str, Any] = {}
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if v is not None:
                cells[Range(o.top + i, o.left + j, o.top + i, o.left + j).ref()] = v
    return Workbook(
        [Sheet.from_cells(name, cells), Sheet.from_cells("My Sheet", {"A1": 7, "B2": CellError("#N/A")})]
    )


def test_tree_shape_and_precedence() -> None:
    tree = parse_formula("=1+2*3^2")
    assert isinstance(tree, BinOp) and tree.op == "+"
    assert isinstance(tree.right, BinOp) and tree.right.op == "*"
    assert isinstance(tree.right.right, BinOp) and tree.right.right.op == "^"
    call = parse_formula('SUMIF(A2:A5,"East",Data!B2:B5)')
    assert isinstance(call, Call) and call.name == "SUMIF" and len(call.args) == 3
    assert call.args[1] == Literal('"East"', "East", "text")
    ref = call.args[2]
    assert isinstance(ref, Ref) and ref.rng == Range.parse("Data!B2:B5") and ref.sheet == "Data"


@pytest.mark.parametrize("bad", ["", "=", "=SUM(1,", "=1+", "=)(", "=A1:", "=" + "1+" * 5000 + "1"])
def test_syntax_errors(bad: str) -> None:
    with pytest.raises(FormulaSyntaxError):
        parse_formula(bad)


@pytest.mark.parametrize(
    ("formula", "reason"),
    [
        ('=WEBSERVICE("http://example.com")', "WEBSERVICE is not allowed"),
        ('=FILTERXML(A1,"//x")', "FILTERXML is not allowed"),
        ('=CALL("user32","MessageBoxA","JJCCJ",0,"x","y",0)', "CALL is not allowed"),
        ('=REGISTER("x","y")', "REGISTER is not allowed"),
        ('=IMAGE("http://example.com/a.png")', "IMAGE is not allowed"),
        ("=cmd|' /C calc'!A0", "links outside this workbook"),
        ("=[Book2.xlsx]Sheet1!A1", "links outside this workbook"),
        ("='C:\\files\\[a.xlsx]S'!A1*2", "links outside this workbook"),
        ('=HYPERLINK("file:///etc/passwd","x")', "HYPERLINK to 'file:///etc/passwd' is not allowed"),
        ('=HYPERLINK(A1,"x")', "HYPERLINK is allowed only with a literal"),
    ],
)
def test_policy_refuses_with_reasons(formula: str, reason: str) -> None:
    v = validate_formula(formula, book(), "Data")
    assert not v.ok and v.refused
    assert any(reason in p for p in v.problems), v.problems


@pytest.mark.parametrize(
    "formula",
    ['=HYPERLINK("https://example.com","site")', '=HYPERLINK("#Data!A1","top")', '="[not a link.xlsx]"&A1'],
)
def test_policy_allows_safe_links(formula: str) -> None:
    assert validate_formula(formula, book(), "Data").ok


@pytest.mark.parametrize(
    ("formula", "problem"),
    [
        ("=FOO(1)", "FOO is not a function GridSight can check (#NAME?)"),
        ("=Nope!A1", "the sheet 'Nope' does not exist (#REF!)"),
        ("=TaxRate*2", "TaxRate is not a cell reference or known name (#NAME?)"),
    ],
)
def test_validation_problems(formula: str, problem: str) -> None:
    v = validate_formula(formula, book(), "Data")
    assert (v.ok, v.problems) == (False, (problem,))


@pytest.mark.parametrize(
    ("formula", "value"),
    [
        ("=SUM(B2:B5)", 35),
        ('=SUMIF(A2:A5,"east",B2:B5)', 15),
        ('=COUNTIF(A2:A5,"East")', 2),
        ("=AVERAGE(B2:B5)", 35 / 3),
        ("=COUNTA(B2:B5)", 3),
        ("=COUNTBLANK(B2:B5)", 1),
        ("=SUM(B:B)", 35),
        ("='My Sheet'!A1*2", 14),
        ('=VLOOKUP("west",A2:C5,3,FALSE)', 2),
        ('=INDEX(C2:C5,MATCH("North",A2:A5,0))', 4),
        ("=LET(x,2,x*3)", 6),
        ('=TEXT(B2,"0.0")', "10.0"),
        ("=ROWS(A2:A5)", 4),
        ("=COLUMNS(A1:C1)", 3),
        ("=ROWS(FILTER(A2:A5,C2:C5>1))", 3),
        ("=SUBTOTAL(9,B2:B5)", 35),
        ("=SUBTOTAL(109,B2:B5)", 35),
        ("=SUBTOTAL(3,A2:A5)", 4),
        ("=SUBTOTAL(1,B2:B5)", 35 / 3),
        ("=AGGREGATE(4,6,B2:B5,'My Sheet'!B2)", 20),
        ('=B5&"|"', "|"),
        ('=HYPERLINK("https://example.com","site")', "site"),
        ('=HYPERLINK("#Data!A1")', "#Data!A1"),
        # OFFSET resolves to a static range before the engine runs (sums by hand: 10+20+5)
        ("=OFFSET(B2,1,0)", 20),
        ("=SUM(OFFSET(B2,0,0,3,1))", 35),
        ("=SUM(OFFSET(A1,1,1,COUNT(B2:B5),1))", 35),
        ("=SUM(OFFSET(C5,-2,0,-2,1))", 3),  # from C3, a negative height counts upwards: C2:C3
        ("=SUM(OFFSET(OFFSET(A1,1,0),0,1,2,2))", 33),  # B2:C3 = 10+1+20+2
        ("='My Sheet'!A1+SUM(OFFSET('My Sheet'!A1,0,0))", 14),
        # LAMBDA applied directly is inlined
        ("=LAMBDA(x,x*2)(5)", 10),
        ("=LAMBDA(a,b,a+b)(B2,B3)", 30),
        ('=LAMBDA(s,s&"x")("ax")', "axx"),  # the 'x' inside the string is not the parameter
    ],
)
def test_values(formula: str, value: Any) -> None:
    e = evaluate_formula(formula, book(), "Data")
    assert e.ok and e.error is None, e
    assert e.value == pytest.approx(value) if isinstance(value, float) else e.value == value


@pytest.mark.parametrize(
    ("formula", "value", "spill"),
    [
        ("=SEQUENCE(2,3)", [[1, 2, 3], [4, 5, 6]], (2, 3)),
        ("={1;2}", [[1], [2]], (2, 1)),  # array constants with rows (';')
        ("={1,2;3,4}", [[1, 2], [3, 4]], (2, 2)),
        ('=SORTBY({"a";"b"},{1;2},-1)', [["b"], ["a"]], (2, 1)),
        ("=SEQUENCE(3,1,10,-5)", [[10], [5], [0]], (3, 1)),
        ("=FILTER(A2:A5,C2:C5>=3)", [["EAST"], ["North"]], (2, 1)),
        ("=UNIQUE(A2:A4)", [["East"], ["west"]], (2, 1)),
        ("=SORT(B2:B4,,-1)", [[20], [10], [5]], (3, 1)),
        ("=SORT(A2:A5)", [["East"], ["EAST"], ["North"], ["west"]], (4, 1)),
        ("=SORT(A2:B4,2,-1)", [["west", 20], ["East", 10], ["EAST", 5]], (3, 2)),
    ],
)
def test_dynamic_arrays(formula: str, value: list[list[Any]], spill: tuple[int, int]) -> None:
    e = evaluate_formula(formula, book(), "Data", at="H1")
    assert (e.value, e.spill, e.spill_free) == (value, spill, True)


def test_sort_keeps_excel_type_order_errors_and_blanks() -> None:
    wb = Workbook(
        [Sheet.from_cells("S", {"A1": "b", "A2": 3, "A3": True, "A4": CellError("#N/A"), "A6": "A"})]
    )
    assert evaluate_formula("=SORT(A1:A6)", wb).value == [[3], ["A"], ["b"], [True], ["#N/A"], [None]]
    assert evaluate_formula("=SORT(A1:A6,1,-1)", wb).value == [["#N/A"], [True], ["b"], ["A"], [3], [None]]
    assert evaluate_formula("=UNIQUE(A1:A6,,TRUE)", wb).spill == (6, 1)


@pytest.mark.parametrize(
    ("formula", "value"),
    [
        # a blank key sorts last in either direction, as in SORT (a blank profit is no largest one)
        ("=SORTBY(A1:A4,B1:B4,-1)", [["c"], ["a"], ["d"], ["b"]]),
        ("=SORTBY(A1:A4,B1:B4)", [["d"], ["a"], ["c"], ["b"]]),
        # a second key breaks the first one's ties; its order may be left out
        ("=SORTBY(A1:A4,C1:C4,-1,B1:B4)", [["c"], ["d"], ["a"], ["b"]]),
        # a row of keys sorts columns
        ("=SORTBY(E1:G1,E2:G2)", [["y", "z", "x"]]),
        ("=TAKE(SORTBY(A1:A4,B1:B4,-1),2)", [["c"], ["a"]]),
    ],
)
def test_sortby_keeps_blanks_last_and_breaks_ties_by_the_next_key(formula: str, value: object) -> None:
    cells = {"A1": "a", "A2": "b", "A3": "c", "A4": "d", "B1": 5, "B3": 7, "B4": -2}
    cells |= {"C1": 1, "C2": 1, "C3": 2, "C4": 1, "E1": "x", "F1": "y", "G1": "z", "E2": 3, "F2": 1, "G2": 2}
    assert evaluate_formula(formula, Workbook([Sheet.from_cells("S", cells)])).value == value


@pytest.mark.parametrize(
    "formula", ["=SORTBY(A1:A4,B1:B3)", "=SORTBY(A1:A4,B1:B4,2)", "=SORTBY(A1:A4,B1:C4)"]
)
def test_sortby_refuses_keys_of_another_length_or_an_unknown_order(formula: str) -> None:
    cells = {"A1": "a", "A2": "b", "A3": "c", "A4": "d", "B1": 5, "B2": 1, "B3": 7, "B4": -2}
    assert evaluate_formula(formula, Workbook([Sheet.from_cells("S", cells)])).error == "#VALUE!"


def test_spill_blocked() -> None:
    e = evaluate_formula("=SEQUENCE(3)", book(), "Data", at="B1")
    assert (e.spill, e.spill_free) == ((3, 1), False)


@pytest.mark.parametrize(
    ("formula", "error", "source"),
    [
        ("=B2/0", "#DIV/0!", "(B2 / 0)"),
        ('=VLOOKUP("South",A2:C5,2,FALSE)*2', "#N/A", 'VLOOKUP("South", A2:C5, 2, FALSE)'),
        ("='My Sheet'!B2+1", "#N/A", "('MY SHEET'!B2 + 1)"),
        ("=SEQUENCE(0)", "#VALUE!", "SEQUENCE(0)"),
    ],
)
def test_errors_name_their_source(formula: str, error: str, source: str) -> None:
    e = evaluate_formula(formula, book(), "Data")
    assert (e.ok, e.error, e.error_source) == (True, error, source)


@pytest.mark.parametrize("origin", ["A1", "C5", "K200"])
def test_position_invariance(origin: str) -> None:
    wb = book(origin, "Moved")
    o = Range.parse(origin)

    def col(j: int, r1: int, r2: int) -> str:
        return Range(o.top + r1, o.left + j, o.top + r2, o.left + j).ref()

    f = f'=SUMIFS({col(1, 1, 4)},{col(0, 1, 4)},"east")'
    assert evaluate_formula(f, wb, "Moved").value == 15
    assert explain_formula(f, wb, "Moved") == (
        f'Returns the sum of Sales ({col(1, 1, 4)}) where Region ({col(0, 1, 4)}) is "east".'
    )


@pytest.mark.parametrize(
    ("formula", "sentence"),
    [
        ('=SUMIFS(B2:B5,A2:A5,"East")', 'Returns the sum of Sales (B2:B5) where Region (A2:A5) is "East".'),
        ('=COUNTIF(B2:B5,">10")', "Returns the count of cells where Sales (B2:B5) is above 10."),
        (
            '=VLOOKUP("west",A2:C5,3,FALSE)',
            'Returns column 3 (Units) of A2:C5 for an exact match of "west" in its first column.',
        ),
        (
            '=INDEX(B2:B5,MATCH("North",A2:A5,0))',
            'Returns the Sales (B2:B5) whose Region (A2:A5) matches "North".',
        ),
        (
            '=IF(B2>10,"big","small")',
            'If Sales for East (B2) is greater than 10, returns "big"; otherwise "small".',
        ),
        (
            "=(B3-B2)/B2",
            "Returns (Sales for west (B3) minus Sales for East (B2)) divided by Sales for East (B2).",
        ),
        ("=ROUND(AVERAGE(B2:B5),2)", "Returns the average of Sales (B2:B5) rounded to 2 decimal places."),
        (
            '=SUMIFS(B2:B5,C2:C5,">="&DATE(2024,7,1))',
            "Returns the sum of Sales (B2:B5) where Units (C2:C5) is at least the date 2024-07-01.",
        ),
        ("=SORT(A2:B5,2,-1)", "Returns A2:B5 sorted by its column 2, largest first."),
        (
            "=IFERROR(B2/C2,0)",
            "Returns Sales for East (B2) divided by Units for East (C2), or 0 if that is an error.",
        ),
    ],
)
def test_explanations(formula: str, sentence: str) -> None:
    assert explain_formula(formula, book(), "Data") == sentence


def test_cli_explain_formula(tmp_path: Path) -> None:
    from gridsight.demo import build_demo_workbook

    path = build_demo_workbook(tmp_path / "demo.xlsx")
    res = CliRunner().invoke(
        cli, ["explain-formula", '=SUMIFS(B4:B15,A4:A15,">="&DATE(2024,7,1))', "--context", str(path)]
    )
    assert res.exit_code == 0
    assert res.stdout == (
        '=SUMIFS(B4:B15,A4:A15,">="&DATE(2024,7,1))\n'
        "Returns the sum of North (B4:B15) where Month (A4:A15) is at least the date 2024-07-01.\n"
        "value: 993.5\n"
    )
    res = CliRunner().invoke(
        cli,
        ["explain-formula", "=SORT(H4:I7,2,-1)", "--context", str(path), "--at", "H5", "--format", "json"],
    )
    doc = json.loads(res.stdout)
    assert doc["value"] == [["East", 2000], ["North", 1800], ["South", 1400], ["West", 1300]]
    assert (doc["spill"], doc["spill_free"]) == ([4, 2], False)


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (['=WEBSERVICE("http://x")'], 1, "refused: WEBSERVICE is not allowed"),
        (["=SUM(1,"], 1, "invalid: cannot parse"),
        (["=1", "--context", "/nonexistent.xlsx"], 2, "error: /nonexistent.xlsx: no such file"),
    ],
)
def test_cli_bad_formulas(args: list[str], code: int, text: str) -> None:
    res = CliRunner().invoke(cli, ["explain-formula", *args])
    assert res.exit_code == code
    assert text in res.stdout + res.stderr and "Traceback" not in res.stdout + res.stderr


def test_explanations_use_detected_header_paths(corpus: Path) -> None:
    from gridsight.sources import open_workbook

    wb = open_workbook(corpus / "tables" / "tasi" / "xlsx" / "4.xlsx")
    assert (
        explain_formula("=SUM(B9:B20)", wb)
        == "Returns the sum of PRODUCTION RECORD › TOTAL › UNITS (B9:B20)."
    )


@pytest.mark.parametrize(
    ("formula", "error"),
    [("=OFFSET(A1,-1,0)", "#REF!"), ('=OFFSET(A1,"x",0)', "#VALUE!"), ("=OFFSET(A1,0,0,0,1)", "#REF!")],
)
def test_offset_errors_are_excel_errors(formula: str, error: str) -> None:
    e = evaluate_formula(formula, book(), "Data")
    assert e.ok and e.error == error and e.error_source


def test_lambda_with_wrong_arguments_is_invalid() -> None:
    v = validate_formula("=LAMBDA(x,x)(1,2)", book(), "Data")
    assert not v.ok and v.problems == ("LAMBDA takes 1 argument(s); it was given 2",)
    assert explain_formula("=LAMBDA(x,x*2)(B2)", book(), "Data") == "Returns Sales for East (B2) times 2."
    assert explain_formula("=SUM(OFFSET(B2,0,0,3,1))", book(), "Data") == (
        "Returns the sum of the range 0 rows down and 0 columns right of Sales for East (B2), "
        "3 rows tall and 1 columns wide."
    )


def _unsaved(cells: dict[str, Any]) -> Workbook:
    """A sheet whose formula cells have no saved results, as a program (not Excel) writes them."""
    from gridsight.grid import SheetBuilder

    b = SheetBuilder("S")
    for ref, v in cells.items():
        r = Range.parse(ref)
        if isinstance(v, str) and v.startswith("="):
            b.set(r.top, r.left, None, formula=v)
        else:
            b.set(r.top, r.left, v)
    return Workbook([b.build()])


def test_formulas_without_saved_results_are_computed() -> None:
    wb = _unsaved({"A1": 2, "A2": 3, "A3": "=A1+A2", "A4": "=A3*10", "B1": "=SUM(A1:A4)"})
    assert evaluate_formula("=A4", wb, "S").value == 50  # A4 needs A3, which needs A1 and A2
    assert evaluate_formula("=B1+1", wb, "S").value == 2 + 3 + 5 + 50 + 1
    loop = _unsaved({"A1": "=A2+1", "A2": "=A1+1"})
    ev = evaluate_formula("=A1", loop, "S")
    assert not ev.ok and ev.problems == (
        "A1 on 'S' cannot be computed: A2 on 'S' cannot be computed: "
        "A1 on 'S' is part of a circular reference",
    )

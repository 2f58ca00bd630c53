"""The engine patches of ``_engine_excel`` and the rewrites of ``_intersect``/``_translate``, each
against values from Excel's documentation (what Excel shows for the formula)."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.formula import evaluate_formula, parse_formula
from gridsight.formula._excel_text import format_decimals
from gridsight.formula._excel_values import excel_round, excel_trim, number_text, text_number
from gridsight.formula._intersect import implicit_intersection, param_kind
from gridsight.formula._translate import r1c1_to_a1
from gridsight.grid import Workbook

BOOK = Workbook.from_dict(
    {
        "S": {
            "A1": 1,
            "A2": 2,
            "A3": 3,
            "B1": "apple",
            "B2": "banana",
            "B3": "cherry",
            "C1": 10,
            "C2": 20,
            "C3": 30,
        },
        "Other sheet": {"A1": 5},
    }
)


def value(formula: str, at: str | None = "H10", intersect: bool = False) -> Any:
    ev = evaluate_formula(formula, BOOK, "S", at=at, intersect=intersect)
    assert ev.ok, ev.problems
    return ev.error if ev.error is not None else ev.value


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # -- coerces; a unary + does not; binary -- is a plus
        ('=--"09"', 9),
        ('=+"09"', "09"),
        ("=--(A1>0)", 1),
        ('=--RIGHT("x09",2)<=10', True),
        ("=5--3", 8),
        ('=---"2"', -2),
        ("=--2^2", 4),
        # numbers as text: 15 significant digits
        ('=1/3&""', "0.333333333333333"),
        ('=0.1+0.2&""', "0.3"),
        ('=1E+20&""', "1E+20"),
        ("=LEN(1/3)", 17),
        ("=CONCATENATE(2/3)", "0.666666666666667"),
        # text as numbers
        ('="1,234"+1', 1235),
        ('="12%"*1', 0.12),
        ('="$5"+0', 5),
        ('="(7)"+0', -7),
        ('="1/15/2024"+0', 45306),
        ('=VALUE("1,234")', 1234),
        ('=VALUE("12%")', 0.12),
        ('="abc"+1', "#VALUE!"),
        # rounding on the shown decimal value, halves away from zero
        ("=ROUND(1.005,2)", 1.01),
        ("=ROUND(-2.5,0)", -3),
        ("=ROUNDUP(0.1+0.2,1)", 0.3),
        ("=ROUNDDOWN(-1.29,1)", -1.2),
        # TRUNC too: 0.2-1 is -0.7999999999999998, shown -0.8
        ("=TRUNC(0.2-1,1)", -0.8),
        ("=TRUNC(-8.9)", -8),
        ("=TRUNC(1234.5,-2)", 1200),
        ("=ROUND(1234.5,-2)", 1200),
        ('=TEXT(1234.5,"$#,##0")', "$1,235"),
        ('=TEXT(2.5,"0")', "3"),
        ('=TEXT(0.125,"0.00%")', "12.50%"),
        ('=TEXT(45351,"yyyy-mm-dd")', "2024-02-29"),
        ('=TEXT(-5,"0;(0)")', "(5)"),
        ('=TEXT(-1234.5,"#,##0.00;[Red](#,##0.00)")', "(1,234.50)"),
        ('=TEXT(45351,"[$-409]mmm d, yyyy")', "Feb 29, 2024"),
        # General shows at most 11 characters (the number format's rule, as Excel saves TEXT's result)
        ('=TEXT(1/3,"General")', "0.333333333"),
        ('=TEXT(123456789012,"General")', "1.23457E+11"),
        ('=TEXT(-0.0000000025,"General")', "-2.5E-09"),
        ('=TEXT(0.00000001,"General")', "0.00000001"),
        ('=1/3&""', "0.333333333333333"),  # joined as text: 15 digits
        # a negative number shown as zero has no minus
        ('=TEXT(-0.0001,"0")', "0"),
        ('=TEXT(-0.001,"0.00%")', "-0.10%"),
        ('=TEXT(-0.00001,"0.00%")', "0.00%"),
        # one-letter date codes keep the zero of 10, 20, 30 and of midnight
        ('=TEXT(45565,"m/d/yyyy")', "9/30/2024"),
        ('=TEXT(45575,"d-m")', "10-10"),
        ('=TEXT(45341,"h")', "0"),
        # Excel's 1900 calendar: a 29 February, and serial 1 on a Sunday
        ('=TEXT(60,"yyyy-mm-dd")', "1900-02-29"),
        ('=TEXT(1,"dddd")', "Sunday"),
        ('=TEXT(59,"ddd d/m/yy")', "Tue 28/2/00"),
        ('=TEXT(61,"dddd yyyy-mm-dd")', "Thursday 1900-03-01"),
        ("=DATE(1900,3,1)-DATE(1900,2,28)", 2),
        ("=WEEKDAY(60)", 4),
        # functions the engine got wrong or lacked
        ("=CEILING.MATH(-1.5)", -1),
        ("=CEILING.MATH(-1.5,1,1)", -2),
        ("=FLOOR.MATH(-1.5)", -2),
        ("=FLOOR.MATH(-1.5,1,1)", -1),
        ("=CEILING.MATH(-5.5,2,-1)", -6),
        ("=FLOOR.MATH(-5.5,2,-1)", -4),
        ("=FLOOR.MATH(-8.1,2)", -10),
        ('=DATEDIF(DATE(2024,1,31),DATE(2024,2,29),"d")', 29),
        ("=QUOTIENT(-7,2)", -3),
        ("=COMBIN(5,2)", 10),
        ("=DOLLAR(-1234.567)", "($1,234.57)"),
        # criteria: "<>x" matches every other cell; wildcards match whole text, ignoring case
        ('=COUNTIF(B1:B3,"<>apple")', 2),
        ('=COUNTIF(A1:C3,"<>apple")', 8),
        ('=COUNTIF(B1:B3,"B*")', 1),
        ('=COUNTIF(B1:B3,"?an")', 0),
        ('=SUMIFS(C1:C3,B1:B3,"<>b*")', 40),
        # TRIM collapses inner spaces
        ('=TRIM("  a  b ")', "a b"),
        # comparisons on 15 significant digits
        ("=0.1+0.2=0.3", True),
        ("=0.1+0.2>0.3", False),
        ('="a"="A"', True),
        # errors carried to the end
        ("=IFERROR(1/0,NA())", "#N/A"),
        ("=IFNA(NA(),5)", 5),
        # ROW and COLUMN without an argument: the formula's own cell
        ("=ROW()", 10),
        ("=COLUMN()", 8),
        ("=SUM(ROW(A2:A4))", 9),
        ("=COLUMN(C1:E1)", [[3, 4, 5]]),
        # INDIRECT with text that names a reference
        ('=INDIRECT("A2")', 2),
        ('=SUM(INDIRECT("C"&1&":C"&3))', 60),
        ("=INDIRECT(\"'Other sheet'!A1\")*2", 10),
        ('=INDIRECT("R2C3",FALSE)', 20),
        ('=INDIRECT("nonsense here")', "#REF!"),
    ],
)
def test_excel_rules(formula: str, excel: Any) -> None:
    got = value(formula)
    if isinstance(excel, float):
        assert got == pytest.approx(excel, rel=1e-12)
    else:
        assert got == excel


@pytest.mark.parametrize(
    ("formula", "at", "excel"),
    [
        ("=A1:A3*2", "H2", 4),  # the operand meets row 2
        ("=A1:A3*2", "H9", "#VALUE!"),  # no row 9 in A1:A3
        ("=SUM(A1:A3)", "H9", 6),  # SUM takes the range
        ("=SUMPRODUCT(A1:A3*C1:C3)", "H9", 140),  # array arguments stay arrays
        ('=LEFT(B1:B3,1)&"!"', "H3", "c!"),
        ("=INDEX(C1:C3,2)", "H9", 20),
        ("=IF(A1:A3>1,C1:C3,0)", "H3", 30),
        ("=VLOOKUP(A1:A3,A1:C3,3,FALSE)", "H2", 20),  # the lookup value is one value, the table a range
    ],
)
def test_implicit_intersection(formula: str, at: str, excel: Any) -> None:
    assert value(formula, at=at, intersect=True) == excel


def test_intersection_only_for_plain_formulas() -> None:
    """An array formula (or a formula typed in Excel 365) keeps the whole array."""
    assert value("=A1:A3*2", at="H2") == [[2], [4], [6]]
    tree = parse_formula("=SUM(A1:A3)+A1:A3")
    assert implicit_intersection(tree, (1, 7)) == "=(SUM(A1:A3)+A2)"
    assert implicit_intersection(parse_formula("=SUM(A1:A3)"), (1, 7)) is None
    assert param_kind("SUMIFS", 0) == param_kind("SUMIFS", 1) == "ref" and param_kind("SUMIFS", 2) == "scalar"
    assert param_kind("COUNTIFS", 0) == "ref" and param_kind("COUNTIFS", 1) == "scalar"


def test_defined_names_and_structured_text_in_names() -> None:
    from gridsight.grid import DefinedName

    wb = Workbook(
        BOOK.sheets,
        names=[
            DefinedName("Rate", "S!$C$2"),
            DefinedName("Twice", "2*Rate"),
            DefinedName("Rate", "S!$C$3", sheet="Other sheet"),
            DefinedName("Loop", "Loop+1"),
        ],
    )
    assert evaluate_formula("=Rate+Twice", wb, "S").value == 60
    assert evaluate_formula("=Rate", wb, "Other sheet").value == 30  # the sheet's own name first
    assert evaluate_formula("=LET(Rate,1,Rate+1)", wb, "S").value == 2  # a LET variable is not the name
    ev = evaluate_formula("=Loop", wb, "S")
    assert not ev.ok and "refer to each other" in ev.problems[0]


def test_3d_references() -> None:
    """SUM(Jan:Mar!B2) sums B2 on every sheet from Jan to Mar, in workbook order."""
    from gridsight.formula._translate import expand_3d

    wb = Workbook.from_dict(
        {"Sum": {"A1": 0}, "Jan": {"B2": 1}, "Feb": {"B2": 2}, "My Mar": {"B2": 4}, "Apr": {"B2": 8}}
    )
    assert evaluate_formula("=SUM(Jan:'My Mar'!B2)", wb, "Sum").value == 7
    assert evaluate_formula("=SUM('Feb:Apr'!B2)", wb, "Sum").value == 14
    assert expand_3d('="Jan:Feb!B2"', wb.sheet_names) == '="Jan:Feb!B2"'  # text stays text
    assert not evaluate_formula("=SUM(Jan:Dec!B2)", wb, "Sum").ok  # no sheet Dec: reported


def test_aggregates_skip_text_in_ranges() -> None:
    """3, "5" (a number stored as text), TRUE, "abc", 2 in A1:A5: Excel counts only the numbers."""
    wb = Workbook.from_dict({"S": {"A1": 3, "A2": "5", "A3": True, "A4": "abc", "A5": 2}})
    for formula, excel in (
        ("=SUM(A1:A5)", 5),
        ("=AVERAGE(A1:A5)", 2.5),
        ("=MIN(A1:A5)", 2),
        ("=MAX(A1:A5)", 3),
        ("=COUNT(A1:A5)", 2),
        ("=MEDIAN(A1:A5)", 2.5),
        ("=SUMPRODUCT(A1:A5)", 5),
        ("=SUMSQ(A1:A5)", 13),
        ("=PRODUCT(A1:A5)", 6),
        ("=PRODUCT(A2:A4)", 0),  # no number at all: 0, not the empty product 1
        ("=PRODUCT(A6:A9)", 0),  # blank cells
        ("=PRODUCT(A2:A4,2)", 2),
        ('=SUMSQ(A1:A5,"2")', 17),
        ("=COUNTA(A1:A5)", 5),
        ('=SUM(A1:A5,"5")', 10),  # a value given directly is converted
        ("=SUM(A1:A5*1)", "#VALUE!"),
    ):
        ev = evaluate_formula(formula, wb, "S")
        assert (ev.error or ev.value) == excel, formula


def test_value_helpers() -> None:
    assert number_text(123456789012345678) == "1.23456789012346E+17"
    assert number_text(999999999999999) == "999999999999999"
    assert number_text(0.00001) == "0.00001" and number_text(1e-10) == "1E-10"
    assert text_number(" -$1,234.5 ") == -1234.5 and text_number("1,23") is None
    assert excel_round(2.675, 2) == 2.68 and excel_trim("a   b") == "a b"
    assert format_decimals('#,##0.00" kg"') == (2, 0) and format_decimals("0.0%") == (1, 1)
    assert format_decimals("yyyy-mm-dd") is None and format_decimals("General") is None
    assert r1c1_to_a1("R[1]C[-1]", (4, 4)) == "D6" and r1c1_to_a1("R1C1:R2C3", None) == "A1:C2"
    assert r1c1_to_a1("A1", None) is None


def test_one_compile_per_relative_formula(monkeypatch: pytest.MonkeyPatch) -> None:
    """A filled column compiles once; formulas that differ in text or in $ are never confused."""
    from gridsight.formula import _relcompile

    compiled: list[str] = []
    real = _relcompile.compile_formula
    monkeypatch.setattr(_relcompile, "compile_formula", lambda t: compiled.append(t) or real(t))
    monkeypatch.setattr(_relcompile, "_FORMS", {})
    wb = Workbook.from_dict({"S": {"A1": 1, "A2": 2, "A3": 3, "B1": "x", "B2": "y", "B3": "z"}})
    got = [evaluate_formula(f"=A{r}*10+$A$1&B{r}", wb, "S", at=(r - 1, 4)).value for r in (1, 2, 3)]
    assert got == ["11x", "21y", "31z"]
    assert len(compiled) == 2  # row 1 names A1 twice (A1, $A$1): row 2 anchors the form for row 3
    assert evaluate_formula('=A1&"q"', wb, "S", at=(0, 5)).value == "1q"
    assert evaluate_formula('=A2&"Q"', wb, "S", at=(1, 5)).value == "2Q"  # another string: compiled apart
    assert evaluate_formula("=A1+$A$1", wb, "S", at=(0, 6)).value == 2
    assert evaluate_formula("=A2+$A$1", wb, "S", at=(1, 6)).value == 3  # D4 and $D$4 kept apart


TEXT_BOOK = Workbook.from_dict(
    {"S": {"A1": "123 the 456 the 891", "A2": "del", "A3": True, "A4": "Email - me@x.com"}}
)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ('=TEXTAFTER(A1,"the",1,0,1)', " 456 the 891"),  # the engine added the delimiter back
        ('=TEXTBEFORE(A1,"the",-1)', "123 the 456 "),
        ('=TEXTAFTER(A1,"the",-1.2)', " 456 the 891"),  # rounded down: -2
        ('=TEXTAFTER(A1,"THE",2,0,0,NA())', "#N/A"),
        ('=TEXTAFTER(A1,"THE",2,1,0,1/0)', " 891"),  # found: if_not_found is not looked at
        ('=TEXTAFTER(A1,"Hello",1,1,1)', ""),  # the text's end as a delimiter
        ('=TEXTBEFORE(A1,"Hello",1,1,1)', "123 the 456 the 891"),
        ('=TEXTAFTER(A1,"Hello",-1,1,1)', "123 the 456 the 891"),  # from the end: the start
        ('=TEXTAFTER(A1,"Hello",2,1,1,"no")', "no"),
        ('=TEXTAFTER(A1,"the",0)', "#VALUE!"),
        ('=TEXTAFTER(A2,"deli",1)', "#VALUE!"),  # a delimiter longer than the text, an instance given
        ('=TEXTAFTER(A2,"deli")', "#N/A"),
        ('=TEXTAFTER(A3,"r",1,0,0,B9)', ""),  # TRUE as text; a blank if_not_found is empty text
        ('=TEXTAFTER(A4,"- ",-1,,1)', "me@x.com"),
    ],
)
def test_text_after_before(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, TEXT_BOOK, "S", at="H10")
    assert ev.ok, ev.problems
    assert (ev.error if ev.error is not None else ev.value) == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ('=TEXT(-1,"w;x@")', "-w"),  # no digit shown: the minus stays
        ('=TEXTAFTER(A1,"the",B9)', "#VALUE!"),  # a blank instance is 0
    ],
)
def test_text_minus_and_blank_instance(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, TEXT_BOOK, "S", at="H10")
    assert (ev.error if ev.error is not None else ev.value) == excel, formula

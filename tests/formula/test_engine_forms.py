"""Formula forms real workbooks hold that the engine got wrong, each against Excel's documented result
(the function's page on support.microsoft.com, or "Number format codes" for TEXT)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gridsight.formula import evaluate_formula, recalculate, validate_formula
from gridsight.formula._compare import unsupported_kind
from gridsight.formula._excel_values import elapsed_time, fraction_text, scale_thousands
from gridsight.formula._refops import eta_lambdas
from gridsight.grid import Workbook
from gridsight.sources import open_workbook, read_array_formulas

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
            "D1": True,
            "D2": "5",  # a number stored as text
            "D3": 7,
            "G1": "=_xlfn.SUM(A1:A3)",
        },
        "T": {"A1": 5},
    }
)


def value(formula: str, *, array: bool = False, book: Workbook = BOOK) -> Any:
    """What the formula gives in S!H10: as a plain formula (Excel's implicit intersection), or as an
    array formula / dynamic array (``array``)."""
    ev = evaluate_formula(formula, book, "S", at="H10", intersect=not array)
    assert ev.ok, ev.problems
    return ev.error if ev.error is not None else ev.value


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # SUM & co.: logicals and text in references are ignored, values typed as arguments counted
        ("=SUM(D1)", 0),
        ("=SUM(TRUE)", 1),
        ("=MAX(D1)", 0),
        ("=SUM(D1:D3)", 7),
        ("=COUNT(D1:D3)", 1),
        # SUMIF/SUMIFS/AVERAGEIF(S)/MAXIFS skip text (numbers stored as text too) in the summed range
        ('=SUMIF(A1:A3,">0",D1:D3)', 7),
        ('=SUMIFS(D1:D3,A1:A3,">0")', 7),
        ('=AVERAGEIF(A1:A3,">0",D1:D3)', 7),
        ('=MAXIFS(D1:D3,A1:A3,">0")', 7),
        ('=SUMIF(D1:D3,"5")', 0),
        ('=COUNTIF(D1:D3,"5")', 1),  # ...but the criterion still matches the text "5"
        # criteria: TRUE is not 1, text compares ignoring case, "=" is a blank cell
        ("=COUNTIF(A1:D3,TRUE)", 1),
        ("=COUNTIF(A1:D3,1)", 1),
        ('=COUNTIF(B1:B3,">=BANANA")', 2),
        ('=COUNTIF(B1:F3,"=")', 6),
        ("=COUNTIF(A1:A3,F1)", 0),  # an empty criterion cell is the value 0
        # reference operators: union in SUM-like functions, intersection
        ("=SUM((A1:A2,C1:C2))", 33),
        ("=SUM((A1:A2,C1:C2),A3)", 36),
        ("=COUNT((A1:A3,C1:C3))", 6),
        ("=AREAS((A1,B1:B3))", 2),
        ("=INDEX((A1:A3,C1:C3),2,1,2)", 20),
        ("=SUM(A1:C3 C2:D3)", 50),
        ("=A1:C3 C2:D2", 20),
        ("=SUM(A1:A2 C1:C2)", "#NULL!"),
        # INDEX: row 0 is the whole column, column 0 the whole row
        ("=SUM(INDEX(A1:C3,0,3))", 60),
        ("=SUM(INDEX(A1:C3,2,0))", 22),
        ("=SUM(INDEX(A1:C3,0,0))", 66),
        ("=MATCH(20,INDEX(A1:C3,0,3),0)", 2),
        ("=INDEX(A1:C3,0,4)", "#REF!"),
        # ISNUMBER of text is FALSE
        ("=ISNUMBER(D2)", False),
        ('=ISNUMBER("5")', False),
        ("=ISNUMBER(A1)", True),
        # functions from the workbook itself
        ("=SHEET()", 1),
        ("=SHEET(T!A1)", 2),
        ('=SHEET("T")', 2),
        ('=SHEET("nope")', "#N/A"),
        ("=SHEETS()", 2),
        ("=FORMULATEXT(G1)", "=SUM(A1:A3)"),
        ("=FORMULATEXT(A1)", "#N/A"),
        ("=ISFORMULA(G1)", True),
        ("=ISFORMULA(A1)", False),
        # BASE and SERIESSUM (the documented examples)
        ("=BASE(7,2)", "111"),
        ("=BASE(100,16)", "64"),
        ("=BASE(15,2,10)", "0000001111"),
        ("=BASE(-1,2)", "#NUM!"),
        ("=ROUND(SERIESSUM(PI()/4,0,2,{1,-0.5,0.041666666666667,-0.001388888888889}),6)", 0.707103),
        # TEXT: elapsed time, fractions, thousands scaling, day 0
        ('=TEXT(1.5,"[h]:mm")', "36:00"),
        ('=TEXT(0.75,"[mm]:ss")', "1080:00"),
        ('=TEXT(1.25,"# ?/?")', "1 1/4"),
        ('=TEXT(0.3333,"?/?")', "1/3"),
        ('=TEXT(3.66,"# ??/??")', "3 33/50"),
        ('=TEXT(1234567,"#,##0,")', "1,235"),
        ('=TEXT(12200000,"0.0,,")', "12.2"),
        ('=TEXT(1234567,"#,##0,""K""")', "1,235K"),
        ('=TEXT(1234567,"#,##0")', "1,234,567"),
        ('=TEXT(F1,"dd/mm/yyyy")', "00/01/1900"),
        ('=TEXT(0,"dddd")', "Saturday"),
        # blanks, logicals, rounding, powers
        ("=F1=FALSE", True),
        ("=F1=0", True),
        ('=F1=""', True),
        ("=MROUND(2.5,1)", 3),
        ("=MROUND(-2.5,-1)", -3),
        ("=MROUND(5,-2)", "#NUM!"),
        ("=0^0", "#NUM!"),
        ("=POWER(0,-1)", "#DIV/0!"),
        ("=(-8)^(1/3)", "#NUM!"),
        # WORKDAY from a weekend day or a holiday (45311 is Saturday 20 January 2024)
        ("=WORKDAY(45311,1)", 45313),
        ("=WORKDAY(45311,-1)", 45310),
        ("=WORKDAY(45311,0)", 45311),
        ("=WORKDAY(45306,1,45306)", 45307),
        ("=WORKDAY.INTL(45306,5,7)", 45313),
        # lookups
        ("=VLOOKUP(2,A1:C3,0,FALSE)", "#VALUE!"),
        # LOOKUP's vector form over a two-dimensional lookup vector searches its first column
        ("=LOOKUP(2,A1:B3,C1:C3)", 20),
        ("=LOOKUP(2,A1:A3,B1:C3)", "#N/A"),
        ('=XLOOKUP(5,A1:A3,B1:B3,"none")', "none"),
        ("=XLOOKUP(2.5,A1:A3,B1:B3,,-1)", "banana"),
        ("=XLOOKUP(2.5,A1:A3,B1:B3,,1)", "cherry"),
        ("=MATCH(TRUE,D1:D3,0)", 1),
        # COUNT, COUNTA and TEXTJOIN with values typed as arguments
        ('=COUNT(1,"2","x")', 2),
        ("=COUNT(TRUE,D1)", 1),
        ('=COUNTA(1,"","x")', 3),
        ('=TEXTJOIN("-",TRUE,"a","","b")', "a-b"),
        ('=TEXTJOIN("-",FALSE,"a","","b")', "a--b"),
        ('=TEXTJOIN({"-","+"},TRUE,"a","b","c")', "a-b+c"),
        # TEXT: 12-hour clock, named locale tags, "@"; times typed as text
        ('=TEXT(45351.75,"h:mm AM/PM")', "6:00 PM"),
        ('=TEXT(45351,"hh:mm AM/PM")', "12:00 AM"),
        ('=TEXT(45351,"[$-en-US]mmmm d, yyyy")', "February 29, 2024"),
        ('=TEXT(1234.5,"@")', "1234.5"),
        ('=VALUE("18:00")', 0.75),
        ('="6:00 PM"+0', 0.75),
        ('=VALUE("25:00")', 25 / 24),
        ('=VALUE("23:99")', (23 * 60 + 99) / 1440),  # the last part may run past 59...
        ('=VALUE("24:99")', "#VALUE!"),  # ...when the parts before it are in range
        ('=VALUE("59:30.5")', (59 * 60 + 30.5) / 86400),  # a decimal fraction: minutes and seconds
        # TEXT: spacing and fill codes, the integer part without placeholders, sections for text,
        # no date before day 0, an empty format
        ('=TEXT(1234.5,"#,##0.00_);(#,##0.00)")', "1,234.50 "),
        ('=TEXT(-1234.5,"#,##0.00_);(#,##0.00)")', "(1,234.50)"),
        ('=TEXT(1234.56,"$x*y#,##0* ")', "$x1,235"),
        ('=TEXT(890123.456789,".#")', "890123.5"),
        ('=TEXT("-1","##.00;-  ##.0;""ZERO""")', "-  1.0"),
        ('=TEXT("X","##.00;-  ##.0;""ZERO"";->@<-@")', "->X<-X"),
        ('=TEXT(0,"w;x;z@")', "w"),
        ('=TEXT(-1,"h")', "#VALUE!"),
        ('=TEXT(2958466,"yy")', "#VALUE!"),
        ('=TEXT(-1,"")', "-"),
        ('=TEXT(1,"")', ""),
        # complex numbers as text: 15 significant digits
        ('=IMEXP("1+i")', "1.46869393991589+2.28735528717884i"),
        ("=COMPLEX(0,-1)", "-i"),
        # an INDIRECT or OFFSET that fails inside a formula is an error value IFERROR sees
        ("=IFERROR(OFFSET(A1,-5,0),7)", 7),
        # YEARFRAC: the documented example in three bases, and Excel's actual/actual and 30/360 rules
        ("=ROUND(YEARFRAC(DATE(2012,1,1),DATE(2012,7,30)),8)", 0.58055556),
        ("=ROUND(YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),1),8)", 0.57650273),
        ("=ROUND(YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),3),8)", 0.57808219),
        ("=YEARFRAC(DATE(2024,1,31),DATE(2025,1,31),1)", 1),
        ("=YEARFRAC(DATE(2023,2,28),DATE(2024,2,29),0)", 1),
        ("=YEARFRAC(0,200,0)", 0.55),
        ("=YEARFRAC(1,200,5)", "#NUM!"),
        # DAYS360: the documented examples, and a start on the last day of February
        ("=DAYS360(DATE(2011,1,1),DATE(2011,12,31))", 360),
        ("=DAYS360(DATE(2011,1,30),DATE(2011,2,1))", 1),
        ("=DAYS360(DATE(2024,2,29),DATE(2024,3,31))", 30),
        ("=DAYS360(DATE(2024,1,31),DATE(2024,3,31),TRUE)", 60),
        ("=DAYS360(DATE(2024,3,31),DATE(2024,1,31))", -60),
        # ISEVEN/ISODD of text, TIMEVALUE of a number as text, TEXT with a blank format cell
        ('=ISEVEN("abc")', "#VALUE!"),
        ("=ISEVEN(-2.5)", True),
        ('=TIMEVALUE("1.25")', "#VALUE!"),
        ('=TIMEVALUE("6:00 PM")', 0.75),
        ("=TEXT(A1,F1)", ""),
        ("=TEXT(-1,F1)", "-"),
        ('=TEXT(-1,"[s].000")', "#VALUE!"),
        # a lone elapsed code has no calendar: past 9999 and below 0 too
        ('=TEXT(-1,"[h]")', "-24"),
        ('=TEXT(2958466,"[h]")', "71003184"),
        ('=TEXT(-1,"[h]:m")', "#VALUE!"),
        # a date with a time as text keeps its fraction of a second
        ('=TEXT("2007-02-03 19:08:07.0123","[s]")', "3379691287"),
        ('=VALUE("2007-02-03 19:08:07.5")', 39116.79730902778),
        ('="1/15/2024 6:00 PM"+0', 45306.75),
        # formats Excel rejects: @ beside digits, date codes beside digits, @ outside the text section
        ('=TEXT(5,"#,#""ZZ""#.0""YY""00@")', "#VALUE!"),
        ('=TEXT(5,"#,#""ZZ""#.0Y00")', "#VALUE!"),
        ('=TEXT("X",";-  ##.0;""ZERO""@;""X""")', "#VALUE!"),
        ('=TEXT(1.5,"[h]:mm:ss.00")', "36:00:00.00"),
        # AND/OR/XOR: text skipped (Excel saves TRUE for AND(TRUE,"0")), errors kept, no logical #VALUE!
        ('=AND(TRUE,"0")', True),
        ('=AND(TRUE,"ciao",#REF!,"0")', "#REF!"),
        ('=AND("x")', "#VALUE!"),
        ("=AND(B1:B3)", "#VALUE!"),
        ("=AND(D1:D3)", True),
        ("=XOR(TRUE,FALSE,TRUE)", False),
        # CHAR and CODE in code page 1252; SEARCH with wildcards
        ("=CHAR(233)", "é"),
        ("=CHAR(128)", "€"),
        ("=CODE(CHAR(160))", 160),
        ('=CODE("é")', 233),
        ('=SEARCH("?n","banana")', 2),
        ('=SEARCH("*na","banana")', 1),
        ('=SEARCH("~*","a*b")', 2),
        ('=SEARCH("N","banana",4)', 5),
        ('=SEARCH("N","banana",F1)', "#VALUE!"),  # a blank start is 0
        # single-cell references where a function takes one value; TYPE
        ("=DEC2HEX(A3,3)", "003"),
        ("=TEXT(A3,A3)", "3"),
        ('=TEXT(2,"[<=1]a;[=2]xx;xcx")', "xx"),
        ("=TYPE(F1)", 1),
        ("=TYPE(B1)", 2),
        ("=TYPE(D1)", 4),
        ("=TYPE(NA())", 16),
        ("=TYPE({1,2})", 64),
        # N, ISREF, AREAS, SWITCH, INDEX below 1
        ("=N(D1)", 1),
        ('=N("x")', 0),
        ("=ISREF(A1:B2)", True),
        ("=ISREF(1)", False),
        ("=AREAS(A1:C3)", 1),
        ('=SWITCH("UPPER","Upper","match")', "match"),
        ('=SWITCH(9,1,"a")', "#N/A"),
        ("=INDEX(A1:C3,-1)", "#VALUE!"),
        ('=IFERROR(INDIRECT("Nope!A1"),0)', 0),
        ('=IFERROR(INDIRECT(B1&"!A1"),0)', 0),
        # Bessel functions as Excel saves them (its approximations; exactly, I0(1) is 1.2660658777520084)
        ("=BESSELI(1,0)", 1.2660658480342601),
        ("=BESSELI(2.3,2)", 1.0054316669125958),
        ("=BESSELJ(-1,0)", 0.7651976837548592),
        ("=BESSELJ(2.3,2)", 0.41391458970875217),
        ("=BESSELY(2.3,2)", -0.4726168566767928),
        ("=BESSELJ(10000000,2)", 8.683739567294922e-05),
        ("=BESSELY(0,1)", "#NUM!"),
        ("=BESSELI(1,-1)", "#NUM!"),
        # an error argument comes back before DATEDIF checks its dates
        ("=DATEDIF(2,1,NA())", "#N/A"),
        ('=DATEDIF(2,1,"d")', "#NUM!"),
        # IF and NOT read the text TRUE or FALSE as that logical, other text is #VALUE!
        ('=IF("TRUE",1,2)', 1),
        ('=IF("false",1,2)', 2),
        ('=IF("abc",1,2)', "#VALUE!"),
        ('=NOT("TRUE")', False),
        # the range operator between ranges spans them all
        ("=SUM(A1:A2:C3)", 66),
        ("=ROW(C4:E4:G3:I4 E3:F3)", 3),
        # an intersection with a union distributes over its areas
        ("=SUM((A1:A3,C1:C3) A2:C2)", 22),
        ("=AREAS((A1:A3,C1:C3) A2:C2)", 2),
        ("=ROWS((A1:A3,C1:C3) A2:C2)", "#REF!"),
        ("=ROWS((A1:A3,C1:C3) A2:B2)", 1),
        ("=AREAS((A1:A3,C1:C3) B1)", "#NULL!"),
        # LINEST/TREND: a collinear x column is dropped (coefficient 0), an omitted const is TRUE
        ("=INDEX(LINEST({1,3,6,9,12},{1,1,1,1,1}),1,1)", 0),
        ("=INDEX(LINEST({1,3,6,9,12},{1,1,1,1,1}),1,2)", 6.2),
        ("=TREND({1,3,6,9,12},{1,1,1,1,1},2.5)", 6.2),
        ("=INDEX(LINEST({1,2,4},{1,2,3},,TRUE),1,1)", 1.5),
        ("=TREND({1,2,4,5},{1,2,3,5},5)", 5.314285714285713),
        # BAHTTEXT: Thai baht in words, ถ้วน when there are no satang
        ("=BAHTTEXT(157)", "หนึ่งร้อยห้าสิบเจ็ดบาทถ้วน"),
        ("=BAHTTEXT(65.8)", "หกสิบห้าบาทแปดสิบสตางค์"),
        ("=BAHTTEXT(-1)", "ลบหนึ่งบาทถ้วน"),
        ("=BAHTTEXT(0)", "ศูนย์บาทถ้วน"),
        ("=BAHTTEXT(21)", "ยี่สิบเอ็ดบาทถ้วน"),
    ],
)
def test_excel_forms(formula: str, excel: Any) -> None:
    got = value(formula)
    if isinstance(excel, float):
        assert got == pytest.approx(excel, rel=1e-12)
    else:
        assert got == excel


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=INDEX(A1:C3,0,3)", [[10], [20], [30]]),
        ("=INDEX(A1:C3,2,0)", [[2, "banana", 20]]),
        ("=INDEX(A1:C3,2)", "#REF!"),  # a range of cells needs both numbers (Excel saves #REF!)
        ("=INDEX({1,2;3,4},2)", [[3, 4]]),  # an array gives its row
        ("=XLOOKUP(2,A1:A3,A1:C3)", [[2, "banana", 20]]),
        ("=XLOOKUP(20,C1:C3,A1:C3,,0)", [[2, "banana", 20]]),
        ("=FILTER(A1:A3,A1:A3>5)", "#CALC!"),
        ("=LOOKUP(2,A1:C3)", 20),  # a square range: the first column searched, the last one given
        ("=LOOKUP(2.5,{1,2,3;10,20,30})", 20),  # wider than tall: the first row, the last row
        ('=LOOKUP(2,1/(B1:B3="banana"),C1:C3)', 20),
        ('=FILTER(A1:A3,A1:A3>5,"none")', "none"),
        ("=SUM(IF(A1:A3>1,A1:A3))", 5),
        # SORT by several keys; a blank cell as the index, or more orders than indexes, is #VALUE!
        ("=_xlfn._xlws.SORT({1,9;2,5;1,7},{1,2},{-1,1})", [[2, 5], [1, 7], [1, 9]]),
        ("=_xlfn._xlws.SORT({1,9;2,5;1,7},,-1)", [[2, 5], [1, 9], [1, 7]]),
        ("=_xlfn._xlws.SORT(A1:C3,F1)", "#VALUE!"),
        ("=_xlfn._xlws.SORT({2,1,2,1},1,{1;-1})", "#VALUE!"),
        # FILTER's include: a row as wide as the array or a column as tall
        ("=_xlfn._xlws.FILTER(A1:C1,{TRUE,FALSE})", "#VALUE!"),
        ("=_xlfn._xlws.FILTER(A1:C1,TRUE)", [[1, "apple", 10]]),
        ("=_xlfn._xlws.FILTER(A1:C3,{TRUE,FALSE,TRUE})", [[1, 10], [2, 20], [3, 30]]),
        # the Analysis ToolPak's functions do not lift over a range given as one value
        ("=ISEVEN(A1:A3)", "#VALUE!"),
        ("=MROUND(A1:A3,2)", "#VALUE!"),
        ("=YEARFRAC(A1:A3,C1:C3)", "#VALUE!"),
        ("=WORKDAY(45306,1,A1:A3)", 45307),  # holidays take a range
        # PERCENTOF: the subset's sum over the whole's, text skipped
        ("=_xlfn.PERCENTOF(A1,A1:B3)", 1 / 6),
        ("=_xlfn.PERCENTOF(A1,B1:B3)", "#DIV/0!"),
    ],
)
def test_array_forms(formula: str, excel: Any) -> None:
    assert value(formula, array=True) == excel


def test_chained_intersections_and_sizes_of_unions() -> None:
    assert value("=SUM(A1:C3 B2:D4 B1:C2)") == 20  # B2:C3 then B2:C2: "banana" and 20
    assert value("=AREAS((E4:H4 J4:K4 L4:O4))") == "#NULL!"
    assert value("=ROWS((A1,B2))") == "#REF!" and value("=COLUMNS((A1:A2 A1))") == 1


def test_union_elsewhere_is_reported() -> None:
    """A union where GridSight cannot spread it is one clear, countable problem, never a wrong value."""
    v = validate_formula("=LARGE((A1:A3,C1:C3),2)", BOOK, "S")
    assert not v.ok and unsupported_kind(v.problems[0]) == "union reference outside SUM, COUNT, MAX..."


@pytest.mark.parametrize(
    ("formula", "kind"),
    [
        ('=GETPIVOTDATA("Sales",A1)', "pivot table (GETPIVOTDATA)"),
        ('=CUBEVALUE("ThisWorkbookDataModel","[Measures].[x]")', "cube function (CUBEVALUE)"),
        ('=CUBEMEMBER("ThisWorkbookDataModel","[x]")', "cube function (CUBEMEMBER)"),
        ('=STOCKHISTORY("MSFT",45292)', "external data (STOCKHISTORY)"),
        ("=NOSUCHFUNCTION(1)", "unknown function NOSUCHFUNCTION"),
    ],
)
def test_functions_outside_cells_by_kind(formula: str, kind: str) -> None:
    v = validate_formula(formula, BOOK, "S")
    assert not v.ok and unsupported_kind(v.problems[0]) == kind


def test_a_function_that_needs_a_missing_package_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """FORECAST.ETS runs in the engine only with statsmodels; without it the engine's #VALUE! would
    pass for a result, so the formula is reported as unsupported, by kind, after the engine's own
    argument checks (a seasonality out of range is still Excel's #NUM!)."""
    from gridsight.formula import _excel_ets

    monkeypatch.setattr(_excel_ets, "package_missing", lambda: True)
    ev = evaluate_formula("=_xlfn.FORECAST.ETS(4,{1,2,3},{1,2,3})", BOOK, "S", at="H10")
    assert not ev.ok and unsupported_kind(ev.problems[0]) == "needs statsmodels (FORECAST.ETS)"
    assert value("=_xlfn.FORECAST.ETS(4,{1,2,3},{1,2,3},9000)") == "#NUM!"
    assert value("=FORECAST(4,{1,2,3},{1,2,3})") == 4


def test_format_helpers() -> None:
    assert scale_thousands(1234567, "#,##0,") == (1234.567, "#,##0")
    assert scale_thousands(5, '0,"x"') == (0.005, '0"x"')
    assert scale_thousands(5, "#,##0") == (5, "#,##0")
    assert elapsed_time(1.5, "[h]:mm") == "36:00" and elapsed_time(-0.5, "[h]:mm") == "-12:00"
    assert elapsed_time(1.0001, "[h]:mm:ss.00") == "24:00:08.64" and elapsed_time(0.5, "h:mm") is None
    assert fraction_text(1.5, "# ???/???") == "1   1/2  "  # ? pads with spaces on both sides
    assert fraction_text(1.3, "# ?/8") == "1 2/8" and fraction_text(-1.25, "# ?/?") == "-1 1/4"
    assert fraction_text(2, "# ?/?") == "2    " and fraction_text(1.5, "0.00") is None


def test_1904_date_system_functions() -> None:
    """In a 1904-date workbook serial 0 is 1 January 1904: DATE gives 1,462 less, YEAR reads it so."""
    dated = Workbook.from_dict({"S": {"A1": 45306 - 1462}})  # 15 January 2024 in the 1904 system
    mac = Workbook(dated.sheets, name="mac.xlsx", date1904=True)
    for formula, excel in (
        ("=DATE(2024,1,1)", 45292 - 1462),
        ("=YEAR(A1)", 2024),
        ("=MONTH(A1)+DAY(A1)", 16),
        ("=WEEKDAY(A1)", 2),
        ('=TEXT(A1,"yyyy-mm-dd")', "2024-01-15"),
        ("=EOMONTH(A1,0)", 45322 - 1462),
        ('="1/15/2024"+0', 45306 - 1462),
        ('=DATEVALUE("2024-01-01")', 45292 - 1462),
        ('=COUNTIF(A1,">=1/1/2024")', 1),
        ("=WORKDAY(A1,1)", 45307 - 1462),
        ("=A1-DATE(2024,1,1)", 14),
        ("=YEAR(0)", 1904),
        ("=DATE(1903,1,1)", "#NUM!"),
    ):
        ev = evaluate_formula(formula, mac, "S")
        assert (ev.error or ev.value) == excel, formula
    # the same text in a 1900 workbook is compiled apart (DATE(2024,1,1) is computed while compiling)
    assert evaluate_formula("=DATE(2024,1,1)", dated, "S").value == 45292


def test_workbook_with_these_forms_agrees(tmp_path: Path, excel: SimpleNamespace) -> None:
    """A workbook saved by Excel with these forms and Excel's saved results: every formula agrees, and
    the pivot lookup is unsupported by kind."""
    F = excel.F
    cells = {
        "A1": 1, "A2": 2, "A3": 3, "B1": True, "B2": "5", "B3": 7, "C1": 10, "C2": 20, "C3": 30,
        "E1": F("SUM(B1)", 0),
        "E2": F('SUMIF(A1:A3,">0",B1:B3)', 7),
        "E3": F("SUM((A1:A2,C1:C2))", 33),
        "E4": F("SUM(A1:C3 C2:C3)", 50),
        "E5": F("SUM(INDEX(A1:C3,0,3))", 60),
        "E6": F("FORMULATEXT(E1)", "=SUM(B1)"),
        "E7": F("SHEET()+SHEETS()", 3),
        "E8": F('TEXT(1.5,"[h]:mm")&" "&TEXT(1.25,"# ?/?")&" "&TEXT(1234567,"#,##0,")', "36:00 1 1/4 1,235"),
        "E9": F("ISNUMBER(B2)", False),
        "E10": F('GETPIVOTDATA("Sales",Other!A3)', 99),
    }  # fmt: skip
    path = excel.write(tmp_path / "forms.xlsx", {"S": cells, "Other": {"A1": 1}})
    result = recalculate(open_workbook(path), arrays=read_array_formulas(path), budget_s=60)
    bad = [(c.cell, c.status, c.kind, c.excel, c.ours) for c in result.cells if c.status != "agree"]
    assert bad == [("E10", "unsupported", "pivot table (GETPIVOTDATA)", 99, None)]


def test_1904_workbook_recalculates_in_its_own_system(tmp_path: Path, excel: SimpleNamespace) -> None:
    """Results saved as plain numbers (no date format) are 1904 serials too."""
    F, D = excel.F, excel.D
    cells = {
        "A1": D(45292 - 1462),  # 2024-01-01
        "B1": F("A1+1", 45293 - 1462),  # a plain number: the 1904 serial
        "C1": F("DATE(2024,3,1)", 45352 - 1462),
        "D1": F('TEXT(A1,"yyyy-mm-dd")', "2024-01-01"),
        "E1": F("WEEKDAY(A1)", 2),
        "F1": F("EDATE(A1,1)", 45323 - 1462),
    }
    path = excel.write(tmp_path / "mac.xlsx", {"S": cells}, date1904=True)
    result = recalculate(open_workbook(path), arrays=read_array_formulas(path), budget_s=60)
    assert [(c.cell, c.excel, c.ours) for c in result.cells if c.status != "agree"] == []


def test_cells_an_array_fills_are_not_formulas(tmp_path: Path, excel: SimpleNamespace) -> None:
    """Excel writes ``<f ca="1"/>`` (an empty formula) in the cells a volatile array formula fills:
    they hold values, not formulas to report as unparseable."""
    F = excel.F
    cells = {"A1": 1, "A2": 2, "B1": F("A1:A2*2", 2, array="B1:B2"), "B2": F("", 4), "C1": F("B2+1", 5)}
    path = excel.write(tmp_path / "fill.xlsx", {"S": cells})
    wb = open_workbook(path)
    assert wb.sheet("S").cell("B2").formula is None and wb.sheet("S").cell("B2").value == 4
    result = recalculate(wb, arrays=read_array_formulas(path), budget_s=60)
    assert [(c.cell, c.status) for c in result.cells] == [("B1", "agree"), ("C1", "agree")]


def _saved_by(path: Path, application: str) -> Path:
    """The package with a ``docProps/app.xml`` naming the application that saved it."""
    import zipfile

    app = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Properties xmlns='
        '"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
        f"<Application>{application}</Application></Properties>"
    )
    with zipfile.ZipFile(path, "a") as zf:
        zf.writestr("docProps/app.xml", app)
    return path


@pytest.mark.parametrize(
    ("application", "char_233", "code_e_acute"),
    [("Microsoft Excel", "é", 233), ("Microsoft Macintosh Excel", "È", 142)],
)
def test_char_follows_the_platform_that_saved(
    tmp_path: Path, excel: SimpleNamespace, application: str, char_233: str, code_e_acute: int
) -> None:
    """CHAR and CODE use Windows' code page 1252, or the Macintosh set for a file Excel for Mac saved
    (Microsoft's CHAR page: "Macintosh: Macintosh character set; Windows: ANSI")."""
    from gridsight.commands.recalc import recalc_file
    from gridsight.sources import read_application

    F = excel.F
    cells = {"A1": 233, "B1": F("CHAR(A1)", char_233), "C1": F('CODE("é")', code_e_acute)}
    path = _saved_by(excel.write(tmp_path / "chars.xlsx", {"S": cells}), application)
    assert read_application(path) == application
    result = recalc_file(path)
    assert [(c.cell, c.status) for c in result.cells] == [("B1", "agree"), ("C1", "agree")]
    assert read_application(tmp_path / "missing.xlsx") is None


def test_functions_passed_by_name(tmp_path: Path, excel: SimpleNamespace) -> None:
    """Excel 365's ``=BYROW(A1:C2,SUM)`` is saved as ``_xleta.SUM``: run as the LAMBDA it stands for."""
    F = excel.F
    cells = {
        "A1": 1, "B1": 2, "C1": 3, "A2": 4, "B2": 5, "C2": 6,
        "E1": F("_xlfn.BYROW(A1:C2,_xleta.SUM)", 6, array="E1:E2"),
        "F1": F("_xlfn.REDUCE(0,A1:C2,_xleta.SUM)", 21),
        "G1": F("_xlfn.MAP(A1:C1,A2:C2,_xleta.SUM)", 5, array="G1:I1"),
        "A4": F("E2+1", 16),
    }  # fmt: skip
    path = excel.write(tmp_path / "eta.xlsx", {"S": cells})
    result = recalculate(open_workbook(path), arrays=read_array_formulas(path), budget_s=60)
    assert [(c.cell, c.status) for c in result.cells if c.status != "agree"] == []
    assert eta_lambdas('=BYROW(A1:C2,_xleta.SUM)&"_xleta.X"') == (
        '=BYROW(A1:C2,_xlfn.LAMBDA(_xlpm.eta_a,SUM(_xlpm.eta_a)))&"_xleta.X"'
    )

"""The math and engineering patches of ``_excel_math``, each against the value Excel gives."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.formula import evaluate_formula
from gridsight.grid import Workbook

from .conftest import assert_as_excel, excel_result

BOOK = Workbook.from_dict(
    {
        "S": {
            "A1": 10,
            "A2": "2024-01-10",
            "A3": True,
            "A4": "eight",
            "A5": "--8",
            "A6": " 2024-01-10 ",
            "A7": 7.1,
        }
    }
)


def value(formula: str) -> Any:
    return excel_result(formula, BOOK)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # the quotient on 15 significant digits: 7.1/0.1 is 71, so 71 steps of 0.1
        ("=FLOOR(A7,0.1)", 7.1),
        ("=FLOOR(-7.1,-0.1)", -7.1),
        ("=CEILING(7.1,0.1)", 7.1),
        ("=FLOOR.MATH(7.1,0.1)", 7.1),
        # zero and sign rules
        ("=FLOOR(0,0)", 0),
        ("=FLOOR(5,0)", "#DIV/0!"),
        ("=CEILING(5,0)", 0),
        ("=FLOOR(5,-1)", "#NUM!"),
        ("=FLOOR(-7.1,1)", -8),
        ("=FLOOR(-7.1,-1)", -7),
        ("=CEILING(-7.1,1)", -7),
        ("=CEILING(-7.1,-1)", -8),
        ("=FLOOR.PRECISE(-10)", -10),
        ("=FLOOR.PRECISE(-7.1,-1)", -8),
        ("=CEILING.PRECISE(-7.1,-1)", -7),
        ("=ISO.CEILING(7.1,-1)", 8),
        ("=FLOOR.MATH(-7.1,1,1)", -7),
        ("=CEILING.MATH(-7.1,1,1)", -8),
        ("=CEILING.MATH(-1.5)", -1),
        ("=FLOOR.MATH(-1.5)", -2),
        # arguments read as numbers, left to right
        ("=FLOOR(A1,A2)", 0),
        ("=FLOOR(A2,7)", 45297),
        ("=FLOOR(A1,A3)", 10),
        ('=FLOOR(A1,"8")', 8),
        ("=FLOOR(A4,NA())", "#VALUE!"),
        ("=FLOOR(NA(),A4)", "#N/A"),
        ("=FLOOR(A1,A5)", "#VALUE!"),
        ("=FLOOR(A1,A6)", "#VALUE!"),
        # past the largest number
        ("=FLOOR(1000,1E-307)", "#NUM!"),
    ],
)
def test_rounding_steps(formula: str, excel: Any) -> None:
    got = value(formula)
    if isinstance(excel, float | int) and not isinstance(excel, bool):
        assert got == pytest.approx(excel, rel=1e-12, abs=1e-12), formula
    else:
        assert got == excel, formula


COMPLEX_BOOK = Workbook.from_dict({"S": {"A1": 1.23, "A2": 9.5121, "A4": 1e-16, "A5": 1e-20}})


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # a blank suffix is "i"
        ("=COMPLEX(A1,A2,A3)", "1.23+9.5121i"),
        ('=COMPLEX(1,2,"")', "1+2i"),
        ("=COMPLEX(1,2,0)", "#VALUE!"),
        ('=COMPLEX(1,2,"k")', "#VALUE!"),
        ("=COMPLEX(TRUE,2)", "#VALUE!"),
        # parts below 1: decimals while they fit in 21 characters
        ("=COMPLEX(A4,0)", "0.0000000000000001"),
        ("=COMPLEX(A5,0)", "1E-20"),
        ("=COMPLEX(0.0000692442674613868,-1)", "0.0000692442674613868-i"),
        ("=COMPLEX(0.00000128233995888454,1)", "1.28233995888454E-06+i"),
        # the angle of an imaginary number
        ('=IMARGUMENT("5i")', 1.5707963267948966),
        ('=IMARGUMENT("-3i")', -1.5707963267948966),
        ('=IMARGUMENT("0")', "#DIV/0!"),
    ],
)
def test_complex(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, COMPLEX_BOOK, "S", at="H10")
    got = ev.error if ev.error is not None else ev.value
    assert got == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # a negative number is ten digits of two's complement, whatever the places
        ("=DEC2BIN(-25,1)", "1111100111"),
        ("=DEC2OCT(-25,2)", "7777777747"),
        ("=DEC2HEX(-25,3)", "FFFFFFFFE7"),
        ("=DEC2BIN(-1,0)", "#NUM!"),
        ("=DEC2BIN(3,4)", "0011"),
        ("=DEC2BIN(11,3)", "#NUM!"),
        ("=DEC2BIN(512)", "#NUM!"),
        # the places are checked before the number is read
        ('=DEC2BIN("E",0)', "#NUM!"),
        ('=DEC2BIN("E")', "#VALUE!"),
        ('=DEC2BIN("")', "#VALUE!"),
        ("=DEC2BIN(TRUE)", "#VALUE!"),
        ('=DEC2HEX("12")', "C"),
        # other bases: ten digits with the top one set are negative
        ('=BIN2HEX("1110111011")', "FFFFFFFFBB"),
        ('=BIN2OCT("1111111111")', "7777777777"),
        ('=HEX2DEC("FFFFFFFFFF")', -1),
        ('=HEX2DEC("-A")', "#NUM!"),
        ('=HEX2BIN("A")', "1010"),
        ("=BIN2DEC(1010)", 10),
        ('=BIN2OCT("")', "0"),
        ('=OCT2BIN("1000")', "#NUM!"),
    ],
)
def test_bases(formula: str, excel: Any) -> None:
    assert value(formula) == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [('="--8"+0', "#VALUE!"), ('="2024-01-10"+0', 45301), ('=" 10 "+0', 10)],
)
def test_date_text_shape(formula: str, excel: Any) -> None:
    """Text that starts with a sign is no date (the engine's parser read "--8" as the 8th of this
    January)."""
    assert value(formula) == excel, formula


GCD_BOOK = Workbook.from_dict(
    {"S": {"A1": 10, "B1": 3, "A2": 7.5, "B2": 4.5, "A3": "8", "B3": 2, "B4": 5, "A5": True, "A6": -7.5}}
)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=LCM(A1,B1,C1)", 30),  # a blank cell referenced alone is skipped
        ("=GCD(A1,B1,C1)", 1),
        ("=LCM(C1,D1)", "#VALUE!"),  # no number at all
        ("=LCM(A4:B4)", 0),  # a blank inside a range of several cells is 0
        ("=GCD(A4:B4)", 5),
        ("=LCM(A2,B2)", 28),  # fractions truncated
        ("=LCM(A3,B3)", 8),  # a number stored as text
        ("=LCM(A5,B3)", "#VALUE!"),
        ("=LCM(A6,B4)", "#NUM!"),
        ("=LCM(1E+100,2)", "#NUM!"),
    ],
)
def test_gcd_lcm(formula: str, excel: Any) -> None:
    ev = evaluate_formula(formula, GCD_BOOK, "S", at="H10")
    assert (ev.error if ev.error is not None else ev.value) == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # Excel's polynomial approximations, not the exact values (SciPy differs in the 8th digit)
        ("=BESSELK(0.2,0)", 1.752703846153972),
        ("=BESSELK(0.4,1)", 2.1843544327650504),
        ("=BESSELK(0.8,7)", 213959.7022879281),
        ("=BESSELK(1,10)", 180713288.4849785),
        ("=BESSELK(0,1)", "#NUM!"),
        ("=BESSELK(1,-1)", "#NUM!"),
    ],
)
def test_besselk(formula: str, excel: Any) -> None:
    got = value(formula)
    if isinstance(excel, float):
        assert got == pytest.approx(excel, rel=1e-9), formula
    else:
        assert got == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=COMBINA(5,2)", 15),
        ("=COMBINA(3,10)", 66),
        ("=COMBINA(10.9,3.9)", 220),
        ("=COMBINA(0,0)", 1),
        ("=COMBINA(0,5)", "#NUM!"),
        ("=COMBINA(-10,2)", "#NUM!"),
        ('=COMBINA("12",2)', 78),
        ("=COMBINA(TRUE,3)", 1),
        ('=COMBINA("x",2)', "#VALUE!"),
    ],
)
def test_combina(formula: str, excel: Any) -> None:
    assert value(formula) == excel, formula


NUMBER_TEXT_BOOK = Workbook.from_dict({"S": {"A1": "2024-01-10", "A2": "8%", "A3": " -5 ", "A4": True}})


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=INT(A1)", 45301),  # date text is a number (the engine: #VALUE!)
        ("=SIGN(A3)", -1),
        ("=EXP(A2)", 1.0832870676749586),
        ("=INT(1E+100)", 1e100),
        ("=MROUND(A1,7)", 45304),
        ("=MROUND(A4,2)", "#VALUE!"),  # a logical: #VALUE! (the engine: 2)
        ("=MROUND(2,A4)", "#VALUE!"),
        ('=ABS("x")', "#VALUE!"),
    ],
)
def test_numbers_from_text(formula: str, excel: Any) -> None:
    assert_as_excel(excel_result(formula, NUMBER_TEXT_BOOK, checked=False), excel, formula)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=GCD(-0.4,TRUE)", "#VALUE!"),  # #VALUE! of any argument before #NUM!
        ("=LCM(-0.4,2)", "#NUM!"),
        ("=COMPLEX(A1:A2,1)", "#VALUE!"),  # a range of several cells where one value goes
        ("=DEC2BIN(A1:A2)", "#VALUE!"),
    ],
)
def test_argument_checks(formula: str, excel: Any) -> None:
    assert value(formula) == excel, formula


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # POISSON.DIST truncates the number of events (Microsoft's documentation)
        ("=POISSON.DIST(1.333,2,FALSE)", 0.2706705664732254),
        ("=_xlfn.POISSON.DIST(1.333,2,0)", 0.2706705664732254),
        ("=POISSON(1.5,2,FALSE)", 0.2706705664732254),
        ("=POISSON.DIST(1.999,2,TRUE)", 0.40600584970983794),
        ("=POISSON.DIST(-1,2,TRUE)", "#NUM!"),
        # an empty weekend of WORKDAY.INTL / NETWORKDAYS.INTL is the default, 1 (Saturday, Sunday)
        ("=WORKDAY.INTL(45000,24,,45012)", 45035),
        ("=_xlfn.WORKDAY.INTL(45000,24,,45012)", 45035),
        ("=WORKDAY.INTL(45000,24,1,45012)", 45035),
        ("=WORKDAY.INTL(45000,24,0)", "#NUM!"),
        ("=NETWORKDAYS.INTL(45000,45030,,45012)", 22),
    ],
)
def test_poisson_and_default_weekends(formula: str, excel: Any) -> None:
    assert_as_excel(value(formula), excel, formula)

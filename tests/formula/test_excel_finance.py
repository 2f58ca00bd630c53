"""The financial patches of ``_excel_finance``, each against the value Excel gives."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.grid import Workbook

from .conftest import assert_as_excel, excel_result

BOOK = Workbook.from_dict({"S": {"A1": 1}})


def value(formula: str) -> Any:
    return excel_result(formula, BOOK)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # Microsoft's ACCRINT examples
        ("=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)", 16.666666666666668),
        ("=ACCRINT(DATE(2008,3,5),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0,FALSE)", 15.555555555555557),
        ("=ACCRINT(DATE(2008,4,5),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0,TRUE)", 7.222222222222222),
        # issued inside the period before the first interest date, accrued from that date: the stub
        ("=ACCRINT(DATE(2021,6,21),DATE(2021,12,1),DATE(2021,9,1),0.1,1000,2,0,FALSE)", 19.444444444444446),
        # a first interest date a year after settlement, accrued from it: negative
        ("=ACCRINT(DATE(2020,12,1),DATE(2021,12,1),DATE(2021,3,1),0.075,100,2,0,FALSE)", -1.875),
        ("=ACCRINT(DATE(2020,12,1),DATE(2021,12,1),DATE(2021,3,1),0.075,100,2,1,TRUE)", 1.8647540983606556),
        ("=ACCRINT(DATE(2020,12,1),DATE(2021,12,1),DATE(2021,12,1),0.1,1000,2,2,TRUE)", 100.83333333333333),
        ("=ACCRINT(DATE(2020,12,1),DATE(2021,12,1),DATE(2021,12,1),0.1,1000,2,3,TRUE)", 100.13698630136987),
        ("=ACCRINT(DATE(2021,12,1),DATE(2021,12,1),DATE(2021,6,1),0.1,1000,2)", "#NUM!"),
    ],
)
def test_accrint(formula: str, excel: Any) -> None:
    got = value(formula)
    if isinstance(excel, float):
        assert got == pytest.approx(excel, rel=1e-12), formula
    else:
        assert got == excel, formula


RATE_BOOK = Workbook.from_dict({"S": {"A1": 0.2, "B1": 12, "B2": True}})


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=EFFECT(A1,B1)", 0.21939108490523185),
        ("=NOMINAL(A1,B1)", 0.1837136459967743),
        ("=NOMINAL(SQRT(-1),5)", "#NUM!"),  # the argument's error, not #VALUE!
        ("=EFFECT(NA(),5)", "#N/A"),
        ("=EFFECT(5,NA())", "#N/A"),
        ("=EFFECT(0,10)", "#NUM!"),
        ("=EFFECT(2,0.99)", "#NUM!"),
        ("=EFFECT(10,B2)", "#VALUE!"),
    ],
)
def test_effect_nominal(formula: str, excel: Any) -> None:
    assert_as_excel(excel_result(formula, RATE_BOOK, checked=False), excel, formula)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # the period, truncated, from 1 to the number of periods; its fraction kept for the value
        ("=IPMT(0.1,3.9,3,8000)", -30.51485756246893),
        ("=IPMT(0.1,4,3,8000)", "#NUM!"),
        ("=IPMT(0.01,0.99999,36,8000)", "#NUM!"),
        ("=PPMT(0.1,0,36,8000)", "#NUM!"),
        # any non-zero type is 1
        ("=PMT(0.2,3,-200,10,5)", 76.83150183150182),
        ("=PMT(0.2,4,-200,10,-1)", 62.82911077993046),
        ("=PMT(-1,1,-100,300,1)", "#NUM!"),
        # NPER at a rate of 0, whatever the type
        ("=NPER(0,-133.33333333333334,100,300,1)", 3),
    ],
)
def test_annuities(formula: str, excel: Any) -> None:
    got = value(formula)
    if isinstance(excel, float):
        assert got == pytest.approx(excel, rel=1e-9), formula
    else:
        assert got == excel, formula

"""TEXT with formats Excel-saved workbooks use: conditional sections, elapsed seconds with
milliseconds, fractions of a second in dates, logicals and text through General or a text
section. Each value is the one Excel saved for the formula."""

from __future__ import annotations

from typing import Any

import pytest

from gridsight.formula._excel_text import conditional_section, second_fractions
from gridsight.grid import Workbook

from .conftest import excel_result

BOOK = Workbook.from_dict({"S": {"A1": 1}})


def value(formula: str) -> Any:
    return excel_result(formula, BOOK)


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        # conditions: the matching section; none matching and no other section: General
        ('=TEXT(5,"[<10]#"" Wow""")', "5 Wow"),
        ('=TEXT(10,"[<10]#"" Wow""")', "10"),
        ('=TEXT(-11,"[=-10]#"" Wow""")', "-11"),
        ('=TEXT(10,"[<      10]#"" Wow""")', "10"),
        ('=TEXT(1234.5,"[>=1000]#,##0.0,""K"";0")', "1.2K"),
        ('=TEXT(12,"[>=1000]#,##0.0,""K"";0")', "12"),
        ('=TEXT(150,"[Red][>100]0;[Blue][<0]0;0.0")', "150"),
        ('=TEXT(50,"[Red][>100]0;[Blue][<0]0;0.0")', "50.0"),
        # elapsed seconds with milliseconds
        ('=TEXT(3.14159,"[s].000")', "271433.376"),
        ('=TEXT(3.14159,"[ss].000")', "271433.376"),
        # fractions of a second in a date or time
        ('=TEXT(TIME(4,5,6)+0.009/86400,"hh:mm:ss.000 AM/PM")', "04:05:06.009 AM"),
        ('=TEXT(TIME(4,5,6)+0.009/86400,"h:m:s.00")', "4:5:6.01"),
        ('=TEXT(DATE(2003,1,1)+0.0032134017094,"yyyy-mm-dd hh:mm:ss.0")', "2003-01-01 00:04:37.6"),
        # whole seconds: rounded to the nearest (59.6 s is a minute), into the next day at midnight
        ('=TEXT(0.00069,"yyyy mmm ddd dd hh:mm:ss")', "1900 Jan Sat 00 00:01:00"),
        ('=TEXT(4018.99999998843,"mm/dd/yyyy hh:mm")', "01/01/1911 00:00"),
        ('=TEXT(31.999999,"yyyy mmm ddd dd hh:mm:ss")', "1900 Feb Wed 01 00:00:00"),
        # thousands separators: none after the ones digit of a number below 1
        ('=TEXT(0,"#,##0")', "0"),
        ('=TEXT(0.4,"#,##0.0")', "0.4"),
        ('=TEXT(-0.4,"#,##0.0")', "-0.4"),
        ('=TEXT(0.00035,"#,##0.00%")', "0.04%"),
        ('=TEXT(0.4,"0,000.0")', "0,000.4"),
        ('=TEXT(5,"0,000")', "0,005"),
        ('=TEXT(1234567.891,"#,##0.00")', "1,234,567.89"),
        # logicals and text
        ('=TEXT(TRUE,"General")', "TRUE"),
        ('=TEXT("hello","General")', "hello"),
        ('=TEXT(FALSE,";;;-@")', "-FALSE"),
        ('=TEXT(TRUE,"0.00")', "TRUE"),
    ],
)
def test_text_formats(formula: str, excel: Any) -> None:
    assert value(formula) == excel


def test_helpers() -> None:
    assert conditional_section("0.00", 3) is None
    assert conditional_section("[<10]0;0.0", 12) == "0.0"
    assert second_fractions(0.5, "hh:mm") == (0.5, "hh:mm")
    assert second_fractions(0.5 + 0.25 / 86400, 'hh:mm:ss.0 "s.0"') == (0.5, 'hh:mm:ss".3" "s.0"')

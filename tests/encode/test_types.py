"""The rule-based type recognizer (section 3.4): one table per rule family."""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.encode import DataType, format_type, number_types, recognize_text
from gridsight.encode._types import harmonize_columns

D = DataType


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2019", D.YEAR),
        ("1899", D.INTEGER),
        ("42", D.INTEGER),
        ("-1,234,567", D.INTEGER),
        ("3.14", D.FLOAT),
        ("-.5", D.FLOAT),
        ("1,234.50", D.FLOAT),
        ("12%", D.PERCENTAGE),
        ("-3.5 %", D.PERCENTAGE),
        ("1.2E+05", D.SCIENTIFIC),
        ("6.02e23", D.SCIENTIFIC),
        ("2024-03-01", D.DATE),
        ("2024/3/1 14:30", D.DATE),
        ("01/03/2024", D.DATE),
        ("1-Jan-24", D.DATE),
        ("March 5, 2024", D.DATE),
        ("Jan 2020", D.DATE),
        ("14:30", D.TIME),
        ("2:30:15 PM", D.TIME),
        ("$1,234.50", D.CURRENCY),
        ("€ 12", D.CURRENCY),
        ("12.5 USD", D.CURRENCY),
        ("(£3.00)", D.CURRENCY),
        ("ana.lopez@example.org", D.EMAIL),
        ("North", D.OTHERS),
        ("Q1 2024 total", D.OTHERS),
        ("w123456", D.OTHERS),
        ("", D.OTHERS),
        ("   ", D.OTHERS),
        ("1" * 80, D.OTHERS),
        ("May", D.OTHERS),
        ("a@b", D.OTHERS),
        ("0.326*", D.FLOAT),  # significance stars mark the value, not its kind
        ("12 **", D.INTEGER),
        ("5%***", D.PERCENTAGE),
        ("0.3****", D.OTHERS),  # four stars is not a significance marker
        ("2019*", D.OTHERS),  # a footnoted year is a label
        ("*", D.OTHERS),
        ("Total*", D.OTHERS),
    ],
)
def test_recognize_text(text: str, expected: DataType) -> None:
    assert recognize_text(text) == expected


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("General", None),
        ("", None),
        ("@", None),
        ("0", D.INTEGER),
        ("#,##0", D.INTEGER),
        ("0.00", D.FLOAT),
        ("#,##0.00_);(#,##0.00)", D.FLOAT),
        ("0%", D.PERCENTAGE),
        ("0.0%", D.PERCENTAGE),
        ("0.00E+00", D.SCIENTIFIC),
        ('"$"#,##0.00', D.CURRENCY),
        ("[$€-407] #,##0.00", D.CURRENCY),
        ("$#,##0", D.CURRENCY),
        ("yyyy-mm-dd", D.DATE),
        ("d-mmm-yy", D.DATE),
        ("mmm yyyy", D.DATE),
        ("h:mm:ss", D.TIME),
        ("[h]:mm", D.TIME),
        ("h:mm AM/PM", D.TIME),
        ("mm:ss", D.TIME),
    ],
)
def test_format_type(fmt: str, expected: DataType | None) -> None:
    assert format_type(fmt) == expected


def test_number_types_vectorised() -> None:
    values = np.array([2019.0, 1899.0, 7.0, 7.5, 1e12, 1e-12, 0.0, -3.0])
    assert number_types(values).tolist() == [
        D.YEAR,
        D.INTEGER,
        D.INTEGER,
        D.FLOAT,
        D.SCIENTIFIC,
        D.SCIENTIFIC,
        D.INTEGER,
        D.INTEGER,
    ]


@pytest.mark.parametrize(
    ("column", "expected"),
    [
        # integers in a float column become floats
        ([D.FLOAT, D.INTEGER, D.FLOAT], [D.FLOAT, D.FLOAT, D.FLOAT]),
        # a count that looks like a year joins its column; a year heading the run stays a year
        (
            [D.YEAR, D.INTEGER, D.YEAR, D.INTEGER, D.INTEGER],
            [D.YEAR, D.INTEGER, D.INTEGER, D.INTEGER, D.INTEGER],
        ),
        # years that are half a run or more stay years
        ([D.INTEGER, D.YEAR, D.INTEGER, D.YEAR], [D.INTEGER, D.YEAR, D.INTEGER, D.YEAR]),
        # a column of years stays years
        ([D.YEAR, D.YEAR, D.INTEGER], [D.YEAR, D.YEAR, D.INTEGER]),
        # a gap splits runs: each run decides alone
        ([D.FLOAT, D.INTEGER, 0, D.INTEGER, D.INTEGER], [D.FLOAT, D.FLOAT, 0, D.INTEGER, D.INTEGER]),
        # other types are untouched
        ([D.PERCENTAGE, D.INTEGER, D.FLOAT], [D.PERCENTAGE, D.FLOAT, D.FLOAT]),
    ],
)
def test_harmonize_columns(column: list[int], expected: list[int]) -> None:
    grid = np.array(column, dtype=np.uint8)[:, None].repeat(2, axis=1)
    out = harmonize_columns(grid)
    assert out[:, 0].tolist() == expected
    assert out[:, 1].tolist() == expected


def test_labels_are_the_papers() -> None:
    assert [t.label for t in DataType] == [
        "Others",
        "Year",
        "IntNum",
        "FloatNum",
        "PercentageNum",
        "ScientificNum",
        "DateData",
        "TimeData",
        "CurrencyData",
        "EmailData",
    ]

"""Aggregation labels keep what a number format says, without its padding (fewer tokens, same meaning)."""

from __future__ import annotations

import pytest

from gridsight.encode._types import short_format


@pytest.mark.parametrize(
    ("fmt", "short"),
    [
        ('_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)', '"$"#,##0.00'),
        ('"$"#,##0.00_);[Red]\\("$"#,##0.00\\)', '"$"#,##0.00'),
        ("[$-409]mmm-yy", "mmm-yy"),
        ("0.0%", "0.0%"),
        ("#,##0", "#,##0"),
        ("yyyy-mm-dd", "yyyy-mm-dd"),
        ('_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)', "#,##0"),
    ],
)
def test_short_format(fmt: str, short: str) -> None:
    assert short_format(fmt) == short

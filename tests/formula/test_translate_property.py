"""``translate`` agrees with openpyxl's ``Translator`` on generated formulas with every reference form:
cells, ranges, whole columns, whole rows, each part relative or $-anchored, on this or another sheet
(quoted names included), next to text that only looks like references (strings, structured references,
function names such as LOG10)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.formula.translate import Translator, TranslatorError

from gridsight.errors import RangeSyntaxError
from gridsight.formula import relative_form, translate
from gridsight.grid import col_to_letters, rc_to_a1

# openpyxl does not check the far edges of the grid (it writes A1048577); Excel gives #REF!, as we do
# (tested apart below), so generated references keep 300 cells from the far edges; the near edges
# (row 1, column A) are in play and both raise there.
COLS = st.integers(0, 16383 - 300)
ROWS = st.integers(0, 1048575 - 300)
DOLLAR = st.sampled_from(["", "$"])


@st.composite
def cell(draw: st.DrawFn) -> str:
    return f"{draw(DOLLAR)}{col_to_letters(draw(COLS))}{draw(DOLLAR)}{draw(ROWS) + 1}"


@st.composite
def columns(draw: st.DrawFn) -> str:
    a, b = sorted((draw(COLS), draw(COLS)))
    return f"{draw(DOLLAR)}{col_to_letters(a)}:{draw(DOLLAR)}{col_to_letters(b)}"


@st.composite
def rows(draw: st.DrawFn) -> str:
    a, b = sorted((draw(ROWS), draw(ROWS)))
    return f"{draw(DOLLAR)}{a + 1}:{draw(DOLLAR)}{b + 1}"


@st.composite
def reference(draw: st.DrawFn) -> str:
    ref = draw(st.one_of(cell(), st.builds(lambda a, b: f"{a}:{b}", cell(), cell()), columns(), rows()))
    sheet = draw(st.sampled_from(["", "Data!", "'My AB12 sheet'!", "Sheet2!"]))
    return sheet + ref


DECOYS = st.sampled_from(
    ['"A1:B2"', "Table1[End01]", "Table1[[#This Row],[AB12]]", "LOG10(2)", "1.5", '"2:2"']
)


@st.composite
def formula(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(reference(), DECOYS), min_size=1, max_size=5))
    fn = draw(st.sampled_from(["SUM", "COUNT", "MAX"]))
    return f"={fn}(" + ",".join(parts) + ")"


@settings(max_examples=300, deadline=None)
@given(
    formula(),
    st.tuples(st.integers(0, 300), st.integers(0, 300)),
    st.tuples(st.integers(0, 300), st.integers(0, 300)),
)
def test_translate_matches_openpyxl(text: str, src: tuple[int, int], dst: tuple[int, int]) -> None:
    try:
        expected = Translator(text, origin=rc_to_a1(*src)).translate_formula(rc_to_a1(*dst))
    except TranslatorError:
        expected = None  # a reference would leave the grid: Excel's #REF!
    if expected is None:
        with pytest.raises(RangeSyntaxError):
            translate(text, src, dst)
    else:
        assert translate(text, src, dst) == expected


@pytest.mark.parametrize(
    ("text", "src", "dst", "excel"),
    [
        ("=SUM(B:B)", (0, 0), (0, 1), "=SUM(C:C)"),
        ("=SUM(B:B)", (0, 0), (5, 0), "=SUM(B:B)"),
        ("=SUM(2:2)", (0, 0), (1, 0), "=SUM(3:3)"),
        ("=SUM($2:2)", (0, 0), (3, 3), "=SUM($2:5)"),
        ("=SUM($B:B)", (0, 0), (0, 2), "=SUM($B:D)"),
        ('=COUNTIF(A:A,"B2")+Table1[B2]', (0, 0), (0, 1), '=COUNTIF(B:B,"B2")+Table1[B2]'),
    ],
)
def test_whole_columns_and_rows_move(
    text: str, src: tuple[int, int], dst: tuple[int, int], excel: str
) -> None:
    assert translate(text, src, dst) == excel


def test_far_edges_are_ref_errors() -> None:
    with pytest.raises(RangeSyntaxError):
        translate("=SUM(A1048576)", (0, 0), (1, 0))
    with pytest.raises(RangeSyntaxError):
        translate("=SUM(XFD:XFD)", (0, 0), (0, 1))
    with pytest.raises(RangeSyntaxError):
        translate("=SUM(1048576:1048576)", (0, 0), (1, 0))
    assert translate("=SUM($XFD$1048576)", (0, 0), (5, 5)) == "=SUM($XFD$1048576)"


def test_relative_form_covers_whole_columns_and_rows() -> None:
    assert relative_form("=SUM(B:B)", (0, 0)) == relative_form("=SUM(C:C)", (0, 1))
    assert relative_form("=SUM(2:2)", (0, 0)) == relative_form("=SUM(3:3)", (1, 0))
    assert relative_form("=SUM($B:B)", (0, 0)) != relative_form("=SUM($C:C)", (0, 1))

"""Fill-down proposals and completions while a request is typed."""

from __future__ import annotations

import pytest

from gridsight.errors import RangeSyntaxError
from gridsight.formula._pattern import relative_form, suggest_fill, translate
from gridsight.formula._suggest import suggest
from gridsight.grid import Sheet, SheetBuilder, Workbook, a1_to_rc


@pytest.mark.parametrize(
    ("formula", "src", "dst", "expected"),
    [
        ("=SUM(B4:E4)", (3, 5), (4, 5), "=SUM(B5:E5)"),
        ("=A1*$B$1+B$2+$C3", (0, 0), (2, 1), "=B3*$B$1+C$2+$C5"),
        ('=Sheet2!C3&"B4"', (0, 0), (1, 0), '=Sheet2!C4&"B4"'),
        ("=LOG10(A2)+ATAN2(A2,B2)", (1, 0), (2, 0), "=LOG10(A3)+ATAN2(A3,B3)"),
        ("=SUM(A:A)", (0, 1), (5, 1), "=SUM(A:A)"),
    ],
)
def test_translate(formula: str, src: tuple[int, int], dst: tuple[int, int], expected: str) -> None:
    assert translate(formula, src, dst) == expected


def test_translate_off_the_sheet() -> None:
    with pytest.raises(RangeSyntaxError, match="#REF!"):
        translate("=A1", (5, 5), (0, 5))


def test_relative_form_is_equal_one_fill_apart() -> None:
    assert (
        relative_form("=SUM(B4:E4)", (3, 5))
        == relative_form("=sum(b5:e5)", (4, 5))
        == "=SUM(R[0]C[-4]:R[0]C[-1])"
    )
    assert relative_form("=$A$1", (0, 0)) == "=R1C1"


def book() -> Workbook:
    """Formulas with the cached values Excel would have saved."""
    b = SheetBuilder("S")
    cells = {
        "A1": "Item",
        "B1": "Q1",
        "C1": "Q2",
        "D1": "Total",
        "A2": "Tea",
        "B2": 2,
        "C2": 3,
        "A3": "Cake",
        "B3": 5,
        "C3": 1,
        "A4": "Jam",
        "B4": 4,
        "C4": 4,
    }
    for ref, v in cells.items():
        b.set(*a1_to_rc(ref), v)
    for ref, (formula, cached) in {
        "D2": ("=B2+C2", 5),
        "D3": ("=B3+C3", 6),
        "B5": ("=SUM(B2:B4)", 11),
        "C5": ("=SUM(C2:C4)", 8),
    }.items():
        b.set(*a1_to_rc(ref), cached, formula=formula)
    return Workbook([b.build()])


def test_fill_down_and_right() -> None:
    wb = book()
    down = suggest_fill(wb, "S", "D4")
    assert down is not None
    assert (down.formula, down.based_on, down.direction, down.evaluation.value) == (
        "=B4+C4",
        ("D3", "D2"),
        "down",
        8,
    )
    right = suggest_fill(wb, "S", "D5")
    # D4 is still empty (it is the proposal above), so the total is D2 + D3
    assert right is not None and (right.formula, right.direction, right.evaluation.value) == (
        "=SUM(D2:D4)",
        "right",
        11,
    )


@pytest.mark.parametrize("cell", ["A4", "B2", "D2", "E9"])
def test_no_pattern_no_proposal(cell: str) -> None:
    assert suggest_fill(book(), "S", cell) is None


def forbes_like() -> Workbook:
    cells = {"A1": "rank", "B1": "name", "C1": "finalWorth", "D1": "country", "E1": "gender"}
    rows = [(1, "Ann", 200, "US", "F"), (2, "Bo", 150, "CN", "M"), (3, "Cy", 90, "US", "M")]
    for i, row in enumerate(rows, start=2):
        for j, v in enumerate(row):
            cells[f"{'ABCDE'[j]}{i}"] = v
    return Workbook([Sheet.from_cells("F", cells)])


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("total fi", ("total finalWorth", "=SUM(C2:C4)")),
        ("average ", ("average rank", "=AVERAGE(A2:A4)")),
        (
            "most common c",
            (
                "most common country",
                "=INDEX(UNIQUE(D2:D4),MATCH(MAX(COUNTIF(D2:D4,UNIQUE(D2:D4))),COUNTIF(D2:D4,UNIQUE(D2:D4)),0))",
            ),
        ),
        ("top", ("top 5 rank", "=TAKE(SORT(A2:A4,,1),5)")),  # a ranking: the top ranks are 1, 2, 3
    ],
)
def test_completions(typed: str, first: tuple[str, str]) -> None:
    got = suggest(typed, forbes_like())
    assert got and (got[0].text, got[0].formula) == first


def test_quoted_values_make_conditions() -> None:
    texts = [(s.text, s.formula) for s in suggest("how many", forbes_like())]
    assert ("how many rows have gender 'F'", '=COUNTIFS(E2:E4,"F")') in texts


@pytest.mark.parametrize("typed", ["", "   ", "xyz"])
def test_nothing_to_suggest(typed: str) -> None:
    assert suggest(typed, forbes_like()) == []

"""A German statement (HGB ``Gewinn- und Verlustrechnung``) in its statutory form: an outline number
in a column of its own, two columns under the year -- the lines of a group inside, the group's sum
outside, on the row of the group's last line -- and the prior year in thousands (``TEUR``) beside
the year in euros. The group's sum is its own line's figure; figures set against each other are
brought to one scale first. The figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._scales import currency_scale, on_one_scale

TITLE = ["Gewinn- und Verlustrechnung für die Zeit vom 1. Januar bis 31. Dezember 2025"]
# (outline number, label, 2025 inside, 2025 outside, 2024 inside, 2024 outside)
LINES: list[tuple[Any, ...]] = [
    ("1.", "Umsatzerlöse", None, 9_000_000.00, None, 8_400.0),
    ("2.", "Materialaufwand", None, None, None, None),
    (None, "a) Aufwendungen für Roh-, Hilfs- und Betriebsstoffe", 3_000_000.00, None, 2_900.0, None),
    (None, "b) Aufwendungen für bezogene Leistungen", 500_000.00, 3_500_000.00, 450.0, 3_350.0),
    ("3.", "Personalaufwand", None, None, None, None),
    (None, "a) Löhne und Gehälter", 2_000_000.00, None, 1_900.0, None),
    (None, "b) soziale Abgaben", 400_000.00, 2_400_000.00, 380.0, 2_280.0),
    ("4.", "Sonstige betriebliche Aufwendungen", None, 1_100_000.00, None, 1_200.0),
    ("5.", "Jahresüberschuss", None, 2_000_000.00, None, 1_570.0),
]
TWO_ROWS: list[list[Any]] = [
    TITLE,
    [],
    [None, None, "2025", None, "2024", None],
    [None, None, "EUR", "EUR", "TEUR", "TEUR"],
    *[list(line) for line in LINES],
]
ONE_ROW: list[list[Any]] = [
    TITLE,
    [],
    ["Nr.", "Posten", "2025 EUR", "2025 EUR", "2024 TEUR", "2024 TEUR"],
    *[list(line) for line in LINES],
]


@pytest.fixture(scope="module", params=["two header rows", "one header row"])
def guv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    if request.param == "two header rows":
        return book_of(tmp_path_factory, "guv.xlsx", TWO_ROWS, merges=("C3:D3", "E3:F3"), title="GuV")
    return book_of(tmp_path_factory, "guv1.xlsx", ONE_ROW, title="GuV")


def test_a_line_is_read_in_whichever_column_holds_it(guv: Any) -> None:
    assert answered(guv, "What were Umsatzerlöse in 2025?") == 9_000_000
    assert answered(guv, "What were Löhne und Gehälter in 2025?") == 2_000_000
    assert answered(guv, "What was the Jahresüberschuss in 2024?") == 1_570  # (as written, in TEUR)


def test_a_groups_sum_outside_is_its_own_lines_figure(guv: Any) -> None:
    assert answered(guv, "What was Materialaufwand in 2025?") == 3_500_000
    assert answered(guv, "What was Personalaufwand in 2024?") == 2_280
    asked = "Which was larger in 2025, Personalaufwand or Materialaufwand?"
    assert answered(guv, asked) == "Materialaufwand"


def test_figures_in_euros_and_thousands_are_set_against_each_other_on_one_scale(guv: Any) -> None:
    asked = "By how much did Umsatzerlöse increase from 2024 to 2025?"
    assert answered(guv, asked) == pytest.approx(9_000_000 - 8_400_000)
    # (1,100,000 euros against 1,200 thousand: lower, where the figures alone say higher)
    asked = "Did Sonstige betriebliche Aufwendungen increase in 2025 compared with 2024?"
    assert answered(guv, asked) is False


def test_a_currency_and_its_scale_are_read_from_a_header_path() -> None:
    assert currency_scale("2024 › TEUR") == ("eur", 1000.0)
    assert currency_scale("2025 EUR") == ("eur", 1.0)
    assert currency_scale("Group › $000") == ("usd", 1000.0)
    assert currency_scale("Mio. EUR") == ("eur", 1e6)
    assert currency_scale("in thousands of euros") == ("eur", 1000.0)
    assert currency_scale("YTD") is None  # (three capitals are no currency)
    assert currency_scale("Revenue") is None


def test_only_columns_of_one_currency_at_two_scales_are_rescaled() -> None:
    sql = 'SELECT (SELECT "2025 EUR" FROM data) - (SELECT "2024 TEUR" FROM data)'
    assert '("2024 TEUR" * 1000)' in on_one_scale(sql, ["2025 EUR", "2024 TEUR"])
    mixed = 'SELECT (SELECT "2025 EUR" FROM data) - (SELECT "2024 $000" FROM data)'
    assert on_one_scale(mixed, ["2025 EUR", "2024 $000"]) == mixed  # (two currencies: nothing)


def test_a_sum_beside_a_line_that_is_not_its_groups_moves_nowhere(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # the outer figure is not the inner figures' sum: both stay where they are, two columns
    rows: list[list[Any]] = [
        [None, "2025", "2025"],
        ["Materialaufwand", None, None],
        ["a) Roh-, Hilfs- und Betriebsstoffe", 300, None],
        ["b) bezogene Leistungen", 50, 999],
    ]
    from gridsight.qa import answer_question

    book = book_of(tmp_path_factory, "odd.xlsx", rows)
    assert answer_question(book, "What was Materialaufwand in 2025?").value != 999


@pytest.mark.parametrize(
    "question",
    [
        "What were Umsatzerlöse in 2031?",
        "Umsatzerlöse in TEUR and EUR and USD?",
        "By how much did Materialaufwand increase from 2025 to 2024 in yen?",
        "",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(guv: Any, question: str) -> None:
    answers_or_says_why(guv, question)

"""A fleet table from an annual report: aircraft types named with numbers (``737-800``, ``737 MAX
8``), counts by ownership, a ``Totals`` line, and no year anywhere on the sheet. A question dated
"in 2017" or "as of the end of 2017" reads the table's one figure (the year is the filing's); a
number inside a name the question writes is part of the name, never a count of rows to list nor a
value to compare ("737-800 airplanes" is no "Total is 737"); and a column asked without a line
reads the table's grand total.

The figures are made up; every answer is read off the rows below.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: The type in column A (no header over it), then the counts; dashes for none.
FLEET: list[list[Any]] = [
    [None, "Total", "Owned", "Leased", "Seats in Standard Configuration", "Average Age (In Years)"],
    ["777-300ER", 14, 14, "—", 366, 0.7],
    ["777-200ER", 55, 40, 15, "267-269", 17.8],
    ["767-300ER", 35, 22, 13, "183-214", 22.5],
    ["737-800", 141, 77, 64, 166, 12.0],
    ["737-700", 40, 36, 4, 118, 18.6],
    ["Total mainline", 285, 189, 96, None, 14.1],
]

#: A regional fleet: one line per type and a ``Totals`` line that adds them up.
REGIONAL: list[list[Any]] = [
    [None, "Seats", "Owned", "Leased", "Total", "Average Age in Years"],
    ["Q400", 76, 35, 15, 50, 11.0],
    ["E175", 76, 10, 23, 33, 1.2],
    ["CRJ-700", 70, 12, 9, 21, 14.3],
    ["Totals", None, 57, 47, 104, 9.2],
]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "fleet", FLEET)


@pytest.fixture(scope="module")
def regional(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "regional", REGIONAL)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the total number of 737-800 airplanes leased by the end of 2017?", 64),
        ("How many 767-300ER planes are owned as of 2017?", 22),
        ("How many 737-800 airplanes were leased in 2017?", 64),
        ("How many 777-200ER planes were leased as of 2017?", 15),
    ],
)
def test_a_name_with_numbers_dated_by_the_filing(fleet: Any, question: str, expected: float) -> None:
    assert answered(fleet, question) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was the number of aircraft leased in 2017?", 47),  # the Totals line
        ("How many Q400 were leased?", 15),
    ],
)
def test_a_column_without_a_line_reads_the_grand_total(regional: Any, question: str, expected: float) -> None:
    assert answered(regional, question) == pytest.approx(expected)


@pytest.mark.parametrize(
    "question",
    [
        "How many 737-800 airplanes were leased in 2017 and 2018?",  # two years: the table has none
        "How many 2017 were leased as of 2017?",
        "What was the number of aircraft leased in 2017 ; DROP TABLE data",
    ],
)
def test_odd_dated_questions_get_an_answer_or_a_reason(fleet: Any, question: str) -> None:
    answers_or_says_why(fleet, question)

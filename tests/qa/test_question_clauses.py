"""Clauses around a question that say how to read it, not what to read: a leading scope ("Of the
regions, how many ..."), a second sentence on the answer's form ("List them in table order."), a
sign convention ("(negative if it fell)") and an order written in brackets ("(A minus B)"). The
table is an official-statistics layout with nine-character area codes beside the names. The
figures are made up."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import answered, book_of

#: (code, name, parent code or None, figures for 2021, 2022, 2023)
AREAS = [
    ("Q92000001", "Norland", None, (9000, 9150, 8800)),
    ("Q12000001", "Upper Vale", "Q92000001", (4000, 4100, 3900)),
    ("Q07000101", "Ambridge", "Q12000001", (1500, 1600, 1400)),
    ("Q07000102", "Brindle", "Q12000001", (900, 800, 850)),
    ("Q07000103", "Corley", "Q12000001", (1600, 1700, 1650)),
    ("Q12000002", "Lower Vale", "Q92000001", (5000, 5050, 4900)),
    ("Q07000201", "Dunmore", "Q12000002", (2600, 2550, 2400)),
    ("Q07000202", "Eastwick", "Q12000002", (700, 750, 760)),
    ("Q07000203", "Fenby", "Q12000002", (1700, 1750, 1740)),
]


@pytest.fixture(scope="module")
def areas(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Reported incidents by local area: code and name columns, the country and its regions as
    total lines above the areas they add up, the last year provisional."""
    rows: list[list[Any]] = [
        ["Table 1: Reported incidents by local area, 2021 to 2023"],
        ["Number"],
        [],
        ["Area code", "Area name", "2021", "2022", "2023 (p)"],
        *([code, name, *figures] for code, name, _parent, figures in AREAS),
    ]
    return book_of(tmp_path_factory, "areas", rows, title="Table 1")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the names beside nine-character codes name the rows, and the regions' names their sections
        ("How many local areas in the Lower Vale region had fewer than 1,000 incidents in 2022?", 1),
        # a leading clause sets the scope of the count
        ("Of the local areas, how many recorded a figure above 1,550 for incidents in 2021?", 3),
        ("Within the Upper Vale region, how many areas recorded more than 1,000 incidents in 2023?", 2),
        # a sentence after the question on the answer's form: the rows past the number, in table order
        (
            "Which areas in Lower Vale recorded more than 1,000 incidents in 2022? List them in the order "
            "they appear in the table.",
            ["Dunmore", "Fenby"],
        ),
        # a sign convention is no fall asked: the change, later less earlier
        (
            "By how much did incidents in Dunmore change between 2021 and 2023? (negative if it decreased)",
            -200,
        ),
        (
            "What was the change in incidents in Eastwick from 2021 to 2023? Give a negative number for "
            "a fall.",
            60,
        ),
        # an order in brackets of two things named already is no definition
        (
            "What is the difference in incidents in 2022 between Brindle and Corley (Brindle minus Corley)?",
            -900,
        ),
        ("What is the difference in incidents in Brindle between 2023 and 2022 (2023 minus 2022)?", 50),
        # "per cent" written as two words asks the share in percent
        ("Ambridge accounted for what share of incidents in Upper Vale in 2021? Answer in per cent.", 37.5),
    ],
)
def test_clauses_that_say_how_to_read(areas: Any, question: str, expected: Any) -> None:
    assert answered(areas, question) == expected


def test_a_fall_asked_is_still_a_fall(areas: Any) -> None:
    # (the sign convention only goes where it is one: "by how much did it fall" is the size of the fall)
    assert answered(areas, "By how much did incidents in Dunmore fall between 2021 and 2023?") == 200

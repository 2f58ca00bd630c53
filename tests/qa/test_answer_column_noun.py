"""The column a question's noun asks for decides between routes' answers: "what's the biggest
battery Fenwick Solar has installed" asks for a capacity, not an installer, though the installer's
name is in the question and a route reads it back.

Each answer is computed here from the rows themselves, and the question pipeline must give it.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from tests.qa.conftest import answered, book_of

from gridsight.qa._asked import asked_columns

FITTERS = ["Fenwick Solar", "Brightmoor Energy", "Calder Roofs"]
HEADER = ["job_ref", "Fitter", "Array Size (kW)", "Has Battery", "Battery Capacity (kWh)", "Job Cost ($)"]


def _jobs() -> list[list[Any]]:
    rng = random.Random(5)
    rows = []
    for i in range(90):
        battery = rng.random() < 0.5
        rows.append(
            [4000 + i, FITTERS[i % 3], round(2 + rng.random() * 8, 2), battery,
             round(5 + rng.random() * 20, 1) if battery else None, rng.randint(5000, 30000)]
        )  # fmt: skip
    return rows


JOBS = _jobs()


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "jobs", [HEADER, *JOBS], title="Installs")


def test_a_superlative_noun_names_the_answer_column(jobs: Any) -> None:
    # the largest capacity among one fitter's jobs, not the fitter the question names
    best = max(r[4] for r in JOBS if r[1] == "Fenwick Solar" and r[4] is not None)
    question = "What's the biggest battery Fenwick Solar has installed, in kWh?"
    assert answered(jobs, question) == pytest.approx(best)


@pytest.mark.parametrize(
    ("question", "columns"),
    [
        (
            "What's the biggest battery Fenwick Solar has installed?",
            ["Has Battery", "Battery Capacity (kWh)"],
        ),
        # a figure computed over a column names none
        ("What's the highest total cost?", []),
    ],
)
def test_asked_columns(question: str, columns: list[str]) -> None:
    assert asked_columns(question, HEADER) == columns


#: Land areas by country, closed by the row that adds them up.
AREAS: list[list[Any]] = [
    ["Country", "Area (sq km)", "Population (thousands)"],
    ["Northmark", 120000, 50000],
    ["Westreach", 20000, 3000],
    ["Highcairn", 80000, 5500],
    ["Union of Isles", 220000, 58500],
]


@pytest.fixture(scope="module")
def areas(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "areas", AREAS, title="Areas")


def test_a_share_of_the_row_that_adds_up_the_others(areas: Any) -> None:
    # 20000 of the whole's 220000, the condition naming the whole dropped
    question = "What percentage of the land area for the Union of Isles was accounted for by Westreach?"
    assert answered(areas, question) == pytest.approx(100 * 20000 / 220000)


def test_a_particle_names_no_flag(tmp_path_factory: pytest.TempPathFactory) -> None:
    # "handed out" keeps no ``Outdoor seating available?`` rows: the fines of 2025 added up
    rows = [
        ["visit_id", "Visit Date", "Fine (USD)", "Outdoor seating available?"],
        [1, dt.date(2025, 2, 1), 200, True],
        [2, dt.date(2025, 3, 9), 50, False],
        [3, dt.date(2025, 6, 15), 500, False],
        [4, dt.date(2024, 11, 30), 1000, True],
    ]
    book = book_of(tmp_path_factory, "fines", rows, title="Visits")
    assert answered(book, "How much was handed out in fines during 2025?") == 750

"""Rows named by an initialism the question writes, and rows the planner leaves unnamed when only a
weak likeness in meaning points at one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from openpyxl.styles import Font

from gridsight.qa import answer_question
from gridsight.sources import open_workbook

#: Operating statistics and balance lines (figures for 2022 and 2023).
_ROWS: list[tuple[str, tuple[float, float]]] = [
    ("Revenue passenger miles (RPMs)", (108_035, 113_400)),
    ("Available seat miles (ASMs)", (148_522, 153_811)),
    ("Cost per available seat mile (CASM)", (13.1, 13.4)),
    ('Passenger revenue per available seat mile ("PRASM") (cents)', (13.7, 13.9)),
    ("Fuel consumed, in gallons", (2_045, 2_103)),
    ("Short-term investments", (440.7, 455.2)),
    ("Treasury stock, at cost", (-87.0, -91.5)),
    ("Common stock", (206.0, 206.0)),
    ("Accumulated other comprehensive income (loss)", (-58.4, -41.2)),
]


@pytest.fixture(scope="module")
def book(flat_book: Any) -> Any:
    return flat_book(("Operating data", 2022, 2023), [(label, *figures) for label, figures in _ROWS])


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What were the ASMs in 2023?", 153_811),  # the label's own initialism, in brackets
        ("What was the RPM figure for 2022?", 108_035),  # a plural initialism read without its s
        ("What was the cost per ASM in 2023?", 13.4),  # a run of the label's words that it spells
        ("What was AOCI in 2022?", -58.4),  # initials of the label without its bracketed "(loss)"
        ("How much was the PRASM for the year 2023?", 13.9),  # the initialism the label quotes
    ],
)
def test_a_row_named_by_an_initialism(book: Any, question: str, value: float) -> None:
    answer = answer_question(book, question)
    assert answer.status == "answered", answer.reason
    assert answer.value == pytest.approx(value)


def test_a_row_only_weakly_near_in_meaning_is_not_taken(book: Any) -> None:
    # to MiniLM "marketable securities" is about as near ``Treasury stock, at cost`` as the
    # ``Short-term investments`` it means, and no word of theirs is the question's: no guess
    answer = answer_question(book, "Marketable securities for 2023?")
    assert answer.status == "abstained"


@pytest.fixture(scope="module")
def uk_book(tmp_path_factory: pytest.TempPathFactory) -> Any:
    wb = Workbook()
    ws = wb.active
    ws.title = "Balance sheet"
    ws["A1"] = "Balance sheets at 31 December 2024"
    ws["B3"], ws["D3"] = "Group", "Company"
    ws.merge_cells("B3:C3")
    ws.merge_cells("D3:E3")
    for col, year in zip("BCDE", ("2024", "2023", "2024", "2023"), strict=True):
        ws[f"{col}4"], ws[f"{col}5"] = year, "£000"
    ws["A6"] = "Current assets"
    for col in "ABCDE":
        for row in (1, 3, 4, 5):
            ws[f"{col}{row}"].font = Font(bold=True)
    for row in [
        ("Tangible assets", 98_414, 107_648, 53_213, 55_308),
        ("Stock", 35_543, 36_692, 14_805, 15_547),
        ("Trade debtors", 11_546, 10_587, 4_555, 4_137),
        ("Trade creditors", 23_967, 23_395, 5_352, 5_597),
        ("Other creditors", 2_690, 2_603, 970, 1_004),
        ("Called up share capital", 7_289, 6_627, 7_289, 6_627),
    ]:
        ws.append(row)
    path: Path = tmp_path_factory.mktemp("row-names") / "uk.xlsx"
    wb.save(path)
    return open_workbook(path)


def test_a_row_meant_by_one_part_of_the_question(uk_book: Any) -> None:
    # no label holds a word of "inventory", and the whole sentence is nearer ``Trade creditors`` to
    # MiniLM; its one word "inventory" is clearly ``Stock``
    answer = answer_question(
        uk_book, "Give me the inventory balance in the parent company's own 2024 balance sheet."
    )
    assert (answer.status, answer.value) == ("answered", 14_805), (answer.reason, answer.query)


def test_a_place_named_by_its_adjective_in_meaning_is_offered_as_a_value(flat_book: Any) -> None:
    # the planner and the model's grammar read the values a question names: "Swiss" names
    # ``Switzerland`` (MiniLM; no letters derive it), which the count then filters on
    from gridsight.qa._pick import candidates
    from gridsight.qa._relational import build_relation
    from gridsight.qa._sqlgen import named_values

    book = flat_book(
        ("company", "country", "sales"),
        [
            ("Nestle", "Switzerland", 90),
            ("Roche", "Switzerland", 60),
            ("Sony", "Japan", 80),
            ("Shell", "Netherlands", 70),
        ],
    )
    question = "How many Swiss companies are on the list?"
    found = candidates(book, None, question)[0]
    assert named_values(build_relation(found.sheet, found.table), question).get("country") == ["Switzerland"]
    answer = answer_question(book, question)
    assert (answer.status, answer.value) == ("answered", 2), (answer.reason, answer.query)


def test_a_how_many_list_is_a_list_of_numbers() -> None:
    # "how many students are enrolled in each of the 4 smallest districts" lists enrolments: a list
    # of the districts' names is the wrong type of answer and loses the route its confidence
    from gridsight.qa import QAAnswer
    from gridsight.qa._ask import _fits

    question = "How many students are enrolled in each of the 2 smallest districts?"
    names = QAAnswer(
        question, "answered", value=[["Pacific Elementary"], ["Allensworth Elementary"]], type="list"
    )
    counts = QAAnswer(question, "answered", value=[[81], [92]], type="list")
    assert not _fits(names, "list", question)
    assert _fits(counts, "list", question)
    assert _fits(names, "list", "Which are the 2 smallest districts?")

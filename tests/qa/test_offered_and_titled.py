"""Choices the question offers, and tables it names by their letter: two subtotal lines offered "A or
B" are the pool to choose from, a quoted line is read even where "which balance sheet date" names the
statement's own header, "Table A" picks the table titled so, and the brackets that describe it name
no columns of it."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

#: A quarterly statement whose subtotals carry no "Total" (``Non-current assets`` adds the lines above).
QUARTERS: list[list[Any]] = [
    ["Norvik Cables AS"],
    ["Quarterly balance sheet, NOK million"],
    [None, "30 Jun 2024", "30 Sep 2024", "31 Dec 2024"],
    ["Assets"],
    ["Intangible assets, net", 410, 405, 398],
    ["Property, plant and equipment", 2210, 2240, 2300],
    ["Right-of-use assets", 96, 92, 101],
    ["Non-current assets", 2716, 2737, 2799],
    ["Inventories", 640, 655, 700],
    ["Trade receivables", 515, 530, 488],
    ["Cash and cash equivalents", 390, 402, 455],
    ["Current assets", 1545, 1587, 1643],
    ["Total assets", 4261, 4324, 4442],
]


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "quarters", QUARTERS, title="Balance sheet")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "At 31 December 2024, which line shows the higher amount, "
            '"Non-current assets" or "Current assets"?',
            "Non-current assets",
        ),
        ("At 30 June 2024, which line was lower: Current assets or Non-current assets?", "Current assets"),
        (
            'In the quarterly balance sheet, at which date was "Intangible assets, net" higher: '
            "30 June 2024 or 31 December 2024?",
            "30 Jun 2024",
        ),
    ],
)
def test_the_options_offered_are_chosen_between(quarters: Any, question: str, expected: Any) -> None:
    assert answered(quarters, question) == expected


#: Two tables on one sheet, each titled by its letter.
TWO_TABLES: list[list[Any]] = [
    ["Halden Instruments plc"],
    ["Table A: Segment assets and liabilities"],
    ["£ million"],
    [None, "Segment assets", None, "Segment liabilities", None],
    [None, "2024", "2023", "2024", "2023"],
    ["Sensors", 310.5, 298.2, 120.4, 131.9],
    ["Controls", 442.1, 430.0, 205.7, 188.3],
    ["Services", 150.2, 161.8, 98.6, 92.1],
    ["Group", 902.8, 890.0, 424.7, 412.3],
    [None],
    ["Table B: Consolidated balance sheet at 31 December"],
    ["£ million"],
    [None, "2024", "2023"],
    ["Goodwill", 120.0, 118.5],
    ["Property, plant and equipment", 401.3, 389.9],
    ["Inventories", 160.2, 170.4],
    ["Cash and cash equivalents", 221.3, 211.2],
    ["Total assets", 902.8, 890.0],
]


@pytest.fixture(scope="module")
def two_tables(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "two_tables", TWO_TABLES, merges=("B4:C4", "D4:E4"), title="Segments")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "In Table A (segment assets and liabilities), which had the larger segment liabilities "
            "at 31 December 2024: Sensors or Services?",
            "Sensors",
        ),
        (
            "According to Table A (segment assets and liabilities), what were Controls' segment assets "
            "in 2023?",
            430,
        ),
        ("According to Table B, what were inventories in 2024?", 160.2),
    ],
)
def test_a_table_named_by_its_letter(two_tables: Any, question: str, expected: Any) -> None:
    assert answered(two_tables, question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "In Table Z (nothing), what were inventories in 2024?",
        "In Table A (segment assets and liabilities) and Table B, what is the total?",
        'Which line is higher, "Sensors" or "Sensors"?',
        "Which line is higher: or ?",
        "In Table A ((unbalanced), which segment is largest?",
    ],
)
def test_odd_choices_and_table_names_answer_or_say_why(two_tables: Any, question: str) -> None:
    answers_or_says_why(two_tables, question)

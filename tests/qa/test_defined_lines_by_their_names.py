"""A measure the question defines itself, by lines it names the textbook way: "free cash flow
(operating cash flow minus capital expenditure)" over a cash-flow statement that writes ``Net cash
provided by operating activities`` and ``Purchases of property and equipment`` (shown negative). The
figures are made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of_sheets

#: A cash-flow statement, two years.
FLOWS: list[list[Any]] = [
    ["Harbor Mills Inc."],
    ["Cash Flow Statement"],
    ["(in thousands of USD)"],
    [None, "2023", "2024"],
    ["Net income", 500, 540],
    ["Depreciation and amortization", 120, 130],
    ["Net cash provided by operating activities", 700, 760],
    ["Purchases of property and equipment", -250, -300],
    ["Net cash used in investing activities", -250, -300],
    ["Dividends paid", -90, -80],
]

#: The balance sheet beside it: a line with "capital" in its name that is no spending.
POSITION: list[list[Any]] = [
    ["Harbor Mills Inc."],
    ["Balance Sheet"],
    [None, "2023", "2024"],
    ["Cash", 300, 420],
    ["Total assets", 2000, 2100],
    ["Paid-in capital in excess of par", 170, 175],
    ["Total equity", 1200, 1300],
]


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of_sheets(tmp_path_factory, "flows", {"BS": POSITION, "CF": FLOWS})


def test_a_definition_in_the_textbooks_words_reads_the_statements_lines(flows: Any) -> None:
    # 2024: 760 from operations less the 300 spent on property and equipment
    asked = "What was free cash flow (operating cash flow minus capital expenditure) in 2024?"
    assert answered(flows, asked) == 460
    # 2023: 700 - 250
    assert answered(flows, "What was operating cash flow minus capital expenditure in 2023?") == 450


def test_odd_definitions_get_an_answer_or_a_reason(flows: Any) -> None:
    answers_or_says_why(flows, "What was capital expenditure minus capital expenditure minus?")

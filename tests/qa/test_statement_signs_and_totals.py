"""A UK balance sheet whose current assets close with a figure that has no label, a heading with
only a note number among their lines; and a cash-flow statement asked about signs. The figures are
made up; each answer is worked out by hand beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

UK: list[list[Any]] = [
    ["Balance sheet"],
    ["", "Note", "2025", "2024"],
    ["FIXED ASSETS", None, None, None],
    ["Tangible assets", 5, 800, 750],
    ["CURRENT ASSETS", None, None, None],
    ["Stocks", None, 200, 180],
    ["Debtors", 8, None, None],  # a heading: its lines follow
    ["Trade debtors", None, 300, 260],
    ["Other debtors", None, 50, 40],
    ["Cash at bank and in hand", None, 150, 120],
    [None, None, 700, 600],  # the section's total, no label
    ["CREDITORS: amounts falling due within one year", 9, -250, -240],
    ["NET CURRENT ASSETS", None, 450, 360],
]

FLOWS: list[list[Any]] = [
    ["Statement of cash flows"],
    ["", "2025", "2024"],
    ["Cash flows from operating activities", None, None],
    ["Receipts from customers", 900, 800],
    ["Payments to suppliers", -700, -650],
    ["Net cash from operating activities", 200, 150],
    ["Cash flows from financing activities", None, None],
    ["Proceeds from borrowings", 50, 20],
    ["Dividends paid", -80, -60],
    ["Net cash used in financing activities", -30, -40],
    ["Cash and cash equivalents at the end of the financial year", 400, 230],
]


@pytest.fixture(scope="module")
def uk(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "uk.xlsx", UK)


@pytest.fixture(scope="module")
def flows(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "flows.xlsx", FLOWS)


def test_a_heading_among_the_parts_leaves_the_total_a_total(uk: Any) -> None:
    # 200 + 300 + 50 + 150 = 700 though ``Debtors`` holds nothing: the unlabelled row is the total,
    # (700 - 600) / 600 in percent, not ``NET CURRENT ASSETS``
    assert answered(uk, "By what percentage did current assets change from 2024 to 2025?") == pytest.approx(
        100 / 6
    )


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # -40 in 2024; "the 2024 financial year" is the year, not the words of the last line
        ("Were financing cash flows negative overall in the 2024 financial year?", True),
        ("Was net cash from operating activities positive in 2025?", True),
        ("Were financing cash flows positive in 2025?", False),
    ],
)
def test_a_sign_asked_after_the_figure(flows: Any, question: str, answer: bool) -> None:
    assert answered(flows, question) is answer


@pytest.mark.parametrize(
    "question",
    ["Were there negative lines?", "Is negative positive?", "Was " + "cash " * 60 + "negative in 2025?"],
)
def test_odd_sign_questions_answer_or_say_why(flows: Any, question: str) -> None:
    answers_or_says_why(flows, question)


#: A consolidating balance sheet: one column's name holds another's.
ENTITIES: list[list[Any]] = [
    ["Consolidating balance sheet"],
    ["", "Parent", "Guarantor Subsidiaries", "Non-Guarantor Subsidiaries", "Consolidated"],
    ["Accounts receivable, net", 0, 265, 161, 426],
    ["Property, plant and equipment, net", 0, 762, 623, 1385],
    ["Total assets", 2951, 2207, 1808, 3738],
]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # 762 - 623: each column written whole, though one name holds the other's words
        (
            "How much higher is property, plant and equipment, net in the Guarantor Subsidiaries column "
            "than in the Non-Guarantor Subsidiaries column? Give the Guarantor Subsidiaries column minus the "
            "Non-Guarantor Subsidiaries column.",
            139,
        ),
        # (265 - 161) / 161 in percent: "relative to" names the base
        (
            "By what percentage does accounts receivable, net for the Guarantor Subsidiaries differ from the "
            "Non-Guarantor Subsidiaries column, relative to the Non-Guarantor Subsidiaries column?",
            100 * 104 / 161,
        ),
        (
            "By what percentage does accounts receivable, net for the Non-Guarantor Subsidiaries differ from "
            "the Guarantor Subsidiaries column, relative to the Guarantor Subsidiaries column?",
            -100 * 104 / 265,
        ),
    ],
)
def test_two_columns_one_name_inside_the_other(
    tmp_path_factory: pytest.TempPathFactory, question: str, answer: float
) -> None:
    book = book_of(tmp_path_factory, "entities.xlsx", ENTITIES)
    assert answered(book, question) == pytest.approx(answer)


#: Peers side by side, and funds whose columns all say "Fund".
PEERS: list[list[Any]] = [
    ["Peer balance sheets"],
    ["", "Adriatel", "Danubia Networks", "Iberlink", "Peer average"],
    ["Current assets", None, None, None, None],
    ["Cash", 3528, 2820, 593, 2314],
    ["Other current assets", 462, 824, 954, 747],
    ["Total current assets", 3990, 3644, 1547, 3060],
]
FUNDS: list[list[Any]] = [
    ["Statement of assets and liabilities"],
    ["", "Core Fund", "Growth Fund", "Bond Fund"],
    ["Receivable for:", None, None, None],
    ["Fund shares sold", 7097906, 1594917, 5912392],
    ["Dividends and interest", 3430547, 974075, 14108744],
    ["Total assets", 10528453, 2568992, 20021136],
]


@pytest.mark.parametrize(
    ("rows", "question", "answer"),
    [
        # the companies are the columns (``Peer average`` combines them): 824 and 954 pass
        (
            PEERS,
            "Name all companies with other current assets greater than 800, in the order presented.",
            ["Danubia Networks", "Iberlink"],
        ),
        (PEERS, "In how many companies was cash above 1,000?", 2),
        # "funds" is the columns' own word, though ``Fund shares sold`` is a line
        (FUNDS, "In how many funds was dividends and interest above 2,000,000?", 2),
    ],
)
def test_columns_of_entities_counted_or_listed(
    tmp_path_factory: pytest.TempPathFactory, rows: list[list[Any]], question: str, answer: Any
) -> None:
    book = book_of(tmp_path_factory, "entities_counted.xlsx", rows)
    assert answered(book, question) == answer

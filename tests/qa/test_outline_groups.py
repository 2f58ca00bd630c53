"""A statement numbered in outline -- ``A)`` › ``I.`` › ``1.`` in a column of its own, as Spanish,
German and Italian statements are -- groups its lines by the numbers: ``II. Long-term debts`` holds
``2. Bank borrowings`` and ``5. Other financial liabilities`` until ``IV.``. A line that two groups
hold alike (``Bank borrowings`` long- and short-term) is told apart by the group the question
names; the numbers themselves are named only where the question writes them ("item 8"), never by a
figure ("above 1,400,000"). The figures are made up; each answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

from gridsight.qa._groups import outline_groups
from gridsight.text import outline_kind

# (outline number, label, 31/12/2025, 31/12/2024); the liabilities side only
LINES: list[tuple[Any, ...]] = [
    ("A)", "EQUITY", 5_200.0, 4_900.0),
    ("A-1)", "Shareholders' funds", 5_200.0, 4_900.0),
    ("I.", "Capital", 1_000.0, 1_000.0),
    ("II.", "Reserves", 3_700.0, 3_400.0),
    ("III.", "Profit for the year", 500.0, 500.0),
    ("B)", "NON-CURRENT LIABILITIES", 2_600.0, 2_750.0),
    ("I.", "Long-term provisions", 300.0, 250.0),
    ("II.", "Long-term debts", 2_300.0, 2_500.0),
    ("2.", "Bank borrowings", 2_000.0, 2_200.0),
    ("5.", "Other financial liabilities", 300.0, 300.0),
    ("C)", "CURRENT LIABILITIES", 3_050.0, 2_850.0),
    ("II.", "Short-term debts", 1_250.0, 1_000.0),
    ("2.", "Bank borrowings", 1_150.0, 920.0),
    ("5.", "Other financial liabilities", 100.0, 80.0),
    ("III.", "Trade and other payables", 1_800.0, 1_850.0),
    (None, "TOTAL EQUITY AND LIABILITIES (A+B+C)", 10_850.0, 10_500.0),
]
ROWS: list[list[Any]] = [
    ["Ejemplo Cerámicas, S.A. -- Balance sheet at 31 December 2025 (thousands of euros)"],
    [],
    [None, "EQUITY AND LIABILITIES", "31/12/2025", "31/12/2024"],
    *[list(line) for line in LINES],
]


@pytest.fixture(scope="module")
def balance(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "balance.xlsx", ROWS, title="Balance")


def test_groups_follow_the_outline_numbers() -> None:
    marks = [outline_kind(m) if m else None for m, *_ in LINES]
    groups = outline_groups(marks, [None] * len(marks), closing={len(marks) - 1})
    at = {label: i for i, (_, label, *_) in enumerate(LINES) if label not in at_twice()}
    assert groups[at["Long-term debts"]] == at["Long-term debts"] + 2  # (its 2. and 5.)
    assert groups[at["EQUITY"]] == at["Profit for the year"]  # (``A-1)`` inside, unnumbered)
    assert groups[at["NON-CURRENT LIABILITIES"]] == at["Long-term debts"] + 2
    assert at["Capital"] not in groups  # (``II.`` follows it: no group)
    assert groups[at["CURRENT LIABILITIES"]] == at["Trade and other payables"]  # (not the total)


def at_twice() -> set[str]:
    labels = [label for _, label, *_ in LINES]
    return {label for label in labels if labels.count(label) > 1}


def test_unnumbered_lines_after_a_groups_last_number_are_not_in_it() -> None:
    # ``5. Materialaufwand`` › ``a)`` ``b)``, then an unnumbered ``Rohergebnis``: outside
    marks = [outline_kind(m) if m else None for m in ["4.", "5.", "a)", "b)", None, "6."]]
    assert outline_groups(marks, [None] * 6) == {1: 3}


def test_one_kind_of_number_alone_makes_no_groups() -> None:
    marks = [outline_kind(f"{n}.") for n in range(1, 8)]
    assert outline_groups(marks, [None] * 7) == {}
    assert outline_groups([None, None, None], [None] * 3) == {}
    assert outline_groups([], []) == {}


def test_a_line_two_groups_hold_is_the_one_of_the_group_named(balance: Any) -> None:
    asked = "What were short-term bank borrowings at 31/12/2025?"
    assert answered(balance, asked) == 1_150
    asked = "What were long-term bank borrowings at 31/12/2024?"
    assert answered(balance, asked) == 2_200
    asked = "By what percentage did short-term bank borrowings change from 31/12/2024 to 31/12/2025?"
    assert answered(balance, asked) == pytest.approx(100 * (1_150 - 920) / 920)


def test_a_figure_names_no_outline_number_but_an_item_number_does(balance: Any) -> None:
    # (the current liability lines above 1,500 in 2025: Trade and other payables, 1,800 -- "1,500"
    # names no line ``1.``)
    asked = "How many current liability lines were above 1,500 at 31/12/2025?"
    assert answered(balance, asked) == 1
    assert answered(balance, "What was item III. at 31/12/2024?") in (500, 1_850)


def test_a_numbered_groups_line_stays_a_line_of_the_statement(balance: Any) -> None:
    # ``Long-term debts`` over its two lines is no total: the largest non-current liability line
    asked = "Which non-current liability line was the largest at 31/12/2025?"
    assert answered(balance, asked) == "Long-term debts"


def test_a_sections_lines_are_its_captions_not_their_parts(balance: Any) -> None:
    # (the current liability lines above 1,200 in 2025: ``Short-term debts`` 1,250 and ``Trade and
    # other payables`` 1,800 -- not ``Bank borrowings`` 1,150 inside the first, counted in it)
    asked = "How many current liability lines were above 1,200 at 31/12/2025?"
    assert answered(balance, asked) == 2


@pytest.mark.parametrize(
    "question",
    [
        "What were medium-term bank borrowings at 31/12/2025?",
        "What was item 99 at 31/12/2025?",
        "How many lines were above 1,400,000,000,000?",
        "A) B) C) I. II.",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(balance: Any, question: str) -> None:
    answers_or_says_why(balance, question)


def test_a_kind_of_line_is_no_numbered_group_that_shares_its_word(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    rows: list[list[Any]] = [
        ["Nr.", "Item", "2025 EUR"],
        ["1.", "Revenue", 9_000.0],
        ["2.", "Personnel expenses", 3_000.0],
        [None, "a) Wages and salaries", 2_500.0],
        [None, "b) Social security", 500.0],
        ["3.", "Other operating expenses", 1_000.0],
        ["4.", "Interest and similar expenses", 200.0],
        ["5.", "Net income for the year", 4_800.0],
    ]
    book = book_of(tmp_path_factory, "guv_en.xlsx", rows, title="GuV")
    # (the group ``Personnel expenses`` is one expense line among three, not the expense lines; the
    # lines whose labels say "expenses" are those three)
    assert answered(book, "Which expense was the largest in 2025?") == "Personnel expenses"
    assert answered(book, "Which expense line was the smallest in 2025?") == "Interest and similar expenses"
    assert answered(book, "What were wages and salaries in 2025?") == 2_500


def test_names_beside_outline_numbers_name_the_rows(tmp_path_factory: pytest.TempPathFactory) -> None:
    # (Italian civil-code layout: ``I -`` and ``1)`` in the first column, the names beside them)
    rows: list[list[Any]] = [
        ["Esempio Meccanica S.p.A. -- Balance sheet at 31/12/2025 (euros)"],
        [],
        [None, None, "31/12/2025", "31/12/2024"],
        [None, "ASSETS", None, None],
        [None, "B) FIXED ASSETS", None, None],
        ["I -", "Intangible fixed assets", 600.0, 550.0],
        ["1)", "Start-up costs", 200.0, 150.0],
        ["4)", "Trademarks", 400.0, 400.0],
        ["II -", "Tangible fixed assets", 9_000.0, 8_800.0],
        ["1)", "Land and buildings", 5_000.0, 4_900.0],
        ["2)", "Plant and machinery", 4_000.0, 3_900.0],
        [None, "Total fixed assets (B)", 9_600.0, 9_350.0],
        ["D)", "Accrued income and prepaid expenses", 150.0, 140.0],
        [None, "TOTAL ASSETS", 9_750.0, 9_490.0],
        [None, "LIABILITIES AND EQUITY", None, None],
        [None, "A) SHAREHOLDERS' EQUITY", None, None],
        ["I -", "Share capital", 1_000.0, 1_000.0],
        ["VIII -", "Retained earnings", 3_000.0, 2_600.0],
        [None, "Total shareholders' equity (A)", 4_000.0, 3_600.0],
        [None, "D) PAYABLES", None, None],
        ["4)", "Payables to banks", 3_000.0, 3_200.0],
        ["7)", "Trade payables", 2_500.0, 2_400.0],
        ["12)", "Advances", 40.0, "-"],
        [None, "Total payables (D)", 5_540.0, 5_600.0],
        [None, "E) Accrued expenses and deferred income", 250.0, 290.0],
        [None, "TOTAL LIABILITIES AND EQUITY", 9_750.0, 9_490.0],
    ]
    book = book_of(tmp_path_factory, "stato.xlsx", rows, title="Stato patrimoniale")
    assert answered(book, "What were payables to banks at 31/12/2024?") == 3_200
    assert (
        answered(book, "Which tangible fixed asset line was the largest at 31/12/2025?")
        == "Land and buildings"
    )
    assert answered(book, "Which payables line was the largest at 31/12/2025?") == "Payables to banks"
    # (a dash among a column's figures is nil)
    assert answered(book, "What were advances at 31/12/2024?") == 0
    # (a letter before a label is no word of its name; "and" inside a name lists nothing)
    assert answered(book, "How much were accrued expenses and deferred income at the end of 2025?") == 250
    # (a definition's "equity" is the total of equity, not ``TOTAL LIABILITIES AND EQUITY``; its "fixed
    # assets" the total of those words, not ``Tangible fixed assets``)
    asked = "What is the fixed-asset coverage gap (equity minus fixed assets) at 31/12/2025?"
    assert answered(book, asked) == 4_000 - 9_600

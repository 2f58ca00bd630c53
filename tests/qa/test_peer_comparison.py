"""A peer comparison: the balance sheets of several companies side by side, one column each, no
column that adds them up, lines of a statement down the rows (two total lines at least). The
columns are the entities the question ranks or takes together, whatever noun it calls them by
("which company", "which shipping line", "across the peers"); a noun that heads a line (``Investment
in subsidiaries`` is an investment) asks among the lines instead. The figures are made up; each
answer is worked out beside its question."""

from __future__ import annotations

from typing import Any

import pytest
from tests.qa.conftest import answered, answers_or_says_why, book_of

COMPANIES = ["Oceanic Line", "Baltic Cargo", "Harbourline", "Coral Freight", "Nordsea Shipping"]
ROWS: list[list[Any]] = [
    ["Peer comparison – balance sheet summary"],
    ["Listed container shipping lines"],
    ["(EUR million)"],
    [],
    [None, *COMPANIES],
    ["Assets"],
    ["Cash and cash equivalents", 500.0, 1_200.0, 300.0, 900.0, 2_100.0],
    ["Trade receivables", 400.0, 800.0, 250.0, 600.0, 1_500.0],
    ["Bunker inventories", 80.0, "n/a", 40.0, 120.0, 200.0],
    ["Total current assets", 980.0, 2_000.0, 590.0, 1_620.0, 3_800.0],
    ["Vessels and equipment", 5_000.0, 9_000.0, 2_500.0, 7_000.0, 15_000.0],
    ["Total assets", 5_980.0, 11_000.0, 3_090.0, 8_620.0, 18_800.0],
    ["Liabilities and equity"],
    ["Total current liabilities", 900.0, 1_600.0, 550.0, 1_100.0, 2_900.0],
    ["Long-term debt", 2_000.0, 3_000.0, 1_200.0, 2_500.0, 5_000.0],
    ["Total liabilities", 2_900.0, 4_600.0, 1_750.0, 3_600.0, 7_900.0],
    ["Total equity", 3_000.0, 6_400.0, 1_300.0, 4_900.0, 10_700.0],
    ["Key ratios"],
    ["Current ratio (x)", 1.0, 1.25, 1.0, 1.36, 1.24],
    ["Net debt / equity (x)", 0.5, 0.28, 0.69, 0.33, 0.27],
]


@pytest.fixture(scope="module")
def peers(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return book_of(tmp_path_factory, "peers", ROWS, title="Peers")


def test_the_companies_are_ranked_by_a_line(peers: Any) -> None:
    assert answered(peers, "Which company has the most cash?") == "Nordsea Shipping"
    assert answered(peers, "Which company has the lowest net debt / equity?") == "Nordsea Shipping"
    # ("shipping line" names no ``Oceanic Line`` nor ``Nordsea Shipping``: it is the noun asked by)
    assert answered(peers, "Which shipping line had the highest current ratio?") == "Coral Freight"


def test_the_companies_counted_by_the_line_they_report(peers: Any) -> None:
    assert answered(peers, "How many companies report bunker inventories?") == 4  # (one writes n/a)


def test_the_companies_taken_together(peers: Any) -> None:
    assert answered(peers, "What is the average total equity across the peers?") == pytest.approx(
        (3_000 + 6_400 + 1_300 + 4_900 + 10_700) / 5
    )
    assert answered(peers, "What was the total cash of all five companies?") == 5_000.0


def test_a_table_of_records_has_no_peers(flat_book: Any) -> None:
    # (rows of countries, columns of measures: "which country" ranks the rows, not the columns)
    records = [("Aland", 30, 1_580, 1.5), ("Brio", 90, 900, 3.0)]
    book = flat_book(("Country", "Population", "Area", "GDP"), records)
    assert answered(book, "Which country has the largest area?") == "Aland"


@pytest.mark.parametrize(
    "question",
    [
        "Which company has the most unicorns?",
        "What is the average total equity across the unicorns?",
        "Which company?",
        "Which Oceanic Line Baltic Cargo has the highest cash?",
    ],
)
def test_odd_questions_get_an_answer_or_a_reason(peers: Any, question: str) -> None:
    answers_or_says_why(peers, question)

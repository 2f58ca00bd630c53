"""Two figures from tables on two sheets of one workbook: the profit and loss account's profit as a
percentage of the balance sheet's equity, total assets per branch from a sheet of key metrics, net
assets per full-time equivalent employee where the workforce sheet heads its column ``FTE`` and
closes it with a total, and a yes/no test ("was turnover more than twice the net assets"); asked
on one sheet, the other sheet is read as well.

The figures are made up; every answer is worked out by hand beside its question.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from gridsight.sources import open_workbook


def _book(folder: Path) -> Any:
    wb = Workbook()
    balance = wb.active
    balance.title = "Balance sheet"
    for row in [
        ["Fernhill Tools plc"],
        ["Balance sheet as at 31 December 2025"],
        [None, "Note", "2025", "2024"],
        ["Fixed assets"],
        ["Tangible assets", "9", 18000, 17500],
        ["Current assets"],
        ["Stocks", None, 6000, 5500],
        ["Cash at bank and in hand", None, 4000, 3500],
        ["Creditors: amounts falling due within one year", "10", -8000, -7500],
        ["Net assets", None, 20000, 19000],
        ["Capital and reserves"],
        ["Called up share capital", None, 1000, 1000],
        ["Profit and loss account", None, 19000, 18000],
        ["Shareholders' funds", None, 20000, 19000],
    ]:
        balance.append(row)
    results = wb.create_sheet("Profit and loss")
    for row in [
        ["Profit and loss account for the year ended 31 December 2025"],
        [None, "2025", "2024"],
        ["Turnover", 45000, 36000],
        ["Cost of sales", -30000, -25000],
        ["Gross profit", 15000, 11000],
        ["Administrative expenses", -9000, -8000],
        ["Profit for the financial year", 6000, 3000],
    ]:
        results.append(row)
    staff = wb.create_sheet("Workforce")
    for row in [
        ["Workforce by department"],
        ["Department", "Headcount", None, "FTE", None],
        [None, "31 Dec 2024", "31 Dec 2025", "31 Dec 2024", "31 Dec 2025"],
        ["Making", 120, 130, 110, 125],
        ["Selling", 60, 70, 55, 75],
        ["Total", 180, 200, 165, 200],
    ]:
        staff.append(row)
    metrics = wb.create_sheet("Key metrics")
    for row in [
        ["Key metrics"],
        [None, "2025", "2024"],
        ["Branches", 40, 38],
        ["Customers", 5200, 4800],
    ]:
        metrics.append(row)
    wb.save(folder / "fernhill.xlsx")
    return open_workbook(folder / "fernhill.xlsx")


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _book(tmp_path_factory.mktemp("fernhill"))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # 6000 / 20000, in percent
        (
            "Profit for the financial year 2025 as a percentage of shareholders' funds at 31 December 2025?",
            30.0,
        ),
        ("What were net assets per branch at the end of 2025?", 500.0),  # 20000 / 40
        # 20000 / 200: the FTE column's total, the words written out
        ("What were net assets per full-time equivalent employee at 31 December 2025?", 100.0),
        ("Was turnover in 2025 more than twice the net assets at the year end?", True),  # 45000 > 40000
        ("Was turnover in 2024 more than twice the net assets at the year end?", False),  # 36000 < 38000
    ],
)
@pytest.mark.parametrize("sheet", [None, "Balance sheet"])  # (asked on a sheet, the other is read too)
def test_a_figure_from_each_of_two_sheets(book: Any, question: str, expected: Any, sheet: str | None) -> None:
    from gridsight.qa import answer_question

    ans = answer_question(book, question, sheet=sheet)
    assert ans.status == "answered", ans.reason
    assert ans.value == pytest.approx(expected) if not isinstance(expected, bool) else ans.value is expected
    assert {e["sheet"] for e in ans.evidence} >= {"Balance sheet"}  # (both tables' cells are cited)
    assert len({e["sheet"] for e in ans.evidence}) == 2
    if not isinstance(expected, bool):
        assert ans.explanation.startswith("two tables on two sheets"), ans.explanation

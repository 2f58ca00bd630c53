"""A label misspelt in the question, and months written short over headers that write them whole.

Two tables on one sheet: month-end balances headed by dates, and a monthly profit and loss headed
``Sep 2024`` .. ``Nov 2024``. "Dec" and "Sep" name the dates as well as the short headers, so the
line a question names decides the table. The figures are made up.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tests.qa.conftest import answered

from gridsight.qa._typos import labels_spelt

MONTH_ENDS = [dt.datetime(2024, 9, 30), dt.datetime(2024, 10, 31), dt.datetime(2024, 11, 30)]


@pytest.fixture(scope="module")
def accounts(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from openpyxl import Workbook

    from gridsight.sources import open_workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Management accounts"
    rows: list[list[Any]] = [
        ["Hollinsway Carpentry Ltd"],
        ["Balance sheet"],
        [None, *MONTH_ENDS],
        ["Current assets"],
        ["Stock", 3200, 3400, 3600],
        ["Trade debtors", 4700, 4900, 4600],
        ["Total current assets", 7900, 8300, 8200],
        ["Current liabilities"],
        ["Suppliers", 2900, 3000, 2950],
        ["Accruals", 640, 610, 520],
        ["Sales tax", 530, 480, 430],
        ["Total current liabilities", 4070, 4090, 3900],
        ["Net current assets", 3830, 4210, 4300],
        [],
        [],
        ["Profit and loss - month"],
        [None, "Sep 2024", "Oct 2024", "Nov 2024"],
        ["Sales", 3400, 3900, 3500],
        ["Cost of sales", 2100, 2500, 2300],
        ["Net profit", 1300, 1400, 1200],
    ]
    for row in rows:
        ws.append(row)
    path = tmp_path_factory.mktemp("accounts") / "accounts.xlsx"
    wb.save(path)
    return open_workbook(path)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "accurals" is ``Accruals`` (two letters swapped): 430 is less than 520
        ("Was sales tax bigger than accurals at the Nov 2024 month end?", False),
        # "assts" is ``Assets``; "Sep-24" and "Nov 2024" name the dated columns of the balance sheet
        ("Was net current assts lower at Nov 2024 month-end than at Sep-24?", False),
        # (the profit and loss's ``Net profit`` fell from Sep to Nov: the words "net", "Nov", "Sep"
        # name that table as well)
        ("Was net current assets lower as at Nov 2024 month-end than at Sep-24?", False),
        ("Net current assets at Oct 2024 month end?", 4210),
        # the short headers are still the profit and loss's
        ("What were sales in Oct 2024?", 3900),
    ],
)
def test_misspelt_lines_and_short_months(accounts: Any, question: str, answer: Any) -> None:
    assert answered(accounts, question) == answer


@pytest.mark.parametrize(
    ("question", "texts", "written"),
    [
        ("accurals at Nov", ["Accruals", "Suppliers"], "accruals at Nov"),
        # a word the vocabulary knows stays the user's, near a text as it may be
        ("how many states", ["stated value"], "how many states"),
        # a word close to two texts' words is left as written
        ("the plantt", ["Plants", "Planta"], "the plantt"),
    ],
)
def test_labels_spelt(question: str, texts: list[str], written: str) -> None:
    assert labels_spelt(question, texts) == written

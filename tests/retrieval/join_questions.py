# ruff: noqa: E501  -- one question per entry reads better than wrapped lambdas
"""A library whose tables live in different files and share keys, and questions that need them joined.

``sales.xlsx`` (one row per invoice, a Branch column) and ``branches.csv`` (one row per branch: its region
and manager) are linked by the branch name; ``orders.xlsx`` and ``stores.csv`` by the store name, as
``Shop`` in one and ``Store`` in the other (a text key whose headers differ). The passengers and
billionaires of :mod:`conftest` sit beside them as distractors. Every answer is computed here by code
from the rows, never typed in; the composed questions join one side and read another file on the other.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .conftest import BILLIONAIRES, PASSENGERS, write_csv, write_xlsx

SALES = [
    ("Invoice", "Branch", "Revenue", "Units"),
    (101, "Oslo Centre", 1200.0, 4),
    (102, "Bergen Wharf", 300.5, 1),
    (103, "Oslo Centre", 800.0, 3),
    (104, "Tromso North", 450.0, 2),
    (105, "Bergen Wharf", 999.0, 5),
    (106, "Oslo Centre", 120.0, 1),
]
BRANCHES = [
    ("Branch", "Region", "Manager"),
    ("Oslo Centre", "East", "Kari Nordmann"),
    ("Bergen Wharf", "West", "Ola Hansen"),
    ("Tromso North", "North", "Siri Berg"),
]
DELIVERIES = [
    ("Delivery", "Shop", "Weight"),
    (1, "Harbour Lane", 12.5),
    (2, "Mill Street", 3.0),
    (3, "Harbour Lane", 7.5),
    (4, "Castle Hill", 20.0),
    (5, "Mill Street", 9.0),
    (6, "Quay Road", 4.5),
    (7, "Castle Hill", 2.5),
]
SHOPS = [
    ("Store", "Country", "Staff"),
    ("Harbour Lane", "Ireland", 12),
    ("Mill Street", "Wales", 5),
    ("Castle Hill", "Scotland", 8),
    ("Quay Road", "Ireland", 6),
    ("Abbey Gate", "Wales", 9),
]


def make_join_library(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    write_xlsx(folder / "sales.xlsx", {"Sales": SALES})
    write_csv(folder / "branches.csv", BRANCHES)
    write_xlsx(folder / "deliveries.xlsx", {"Deliveries": DELIVERIES})
    write_csv(folder / "shops.csv", SHOPS)
    write_xlsx(folder / "passengers.xlsx", {"Passengers": PASSENGERS})
    write_csv(folder / "billionaires.csv", BILLIONAIRES)
    return folder


def _rows(table: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [dict(zip(table[0], r, strict=True)) for r in table[1:]]


def joined(
    many: list[tuple[Any, ...]], many_key: str, one: list[tuple[Any, ...]], one_key: str
) -> list[dict[str, Any]]:
    """Each row of ``many`` widened by the row of ``one`` with the same key."""
    lookup = {r[one_key]: r for r in _rows(one)}
    return [{**lookup[r[many_key]], **r} for r in _rows(many)]


def total_by(rows: list[dict[str, Any]], group: str, value: str) -> dict[Any, float]:
    out: dict[Any, float] = defaultdict(float)
    for r in rows:
        out[r[group]] += r[value]
    return dict(out)


def mean(x: list[float]) -> float:
    return sum(x) / len(x)


SB = joined(SALES, "Branch", BRANCHES, "Branch")
DS = joined(DELIVERIES, "Shop", SHOPS, "Store")
#: (question, answer type, files used, the answer computed from the rows)
QUESTIONS: list[tuple[str, str, tuple[str, ...], Callable[[], Any]]] = [
    ("Which region has the highest total revenue?", "category", ("sales.xlsx", "branches.csv"),
     lambda: max((t, r) for r, t in total_by(SB, "Region", "Revenue").items())[1]),
    ("What is the average revenue in the West region?", "number", ("sales.xlsx", "branches.csv"),
     lambda: mean([r["Revenue"] for r in SB if r["Region"] == "West"])),
    ("What is the total weight delivered to shops in Ireland?", "number", ("deliveries.xlsx", "shops.csv"),
     lambda: sum(r["Weight"] for r in DS if r["Country"] == "Ireland")),
    ("Which country has the highest total weight?", "category", ("deliveries.xlsx", "shops.csv"),
     lambda: max((t, c) for c, t in total_by(DS, "Country", "Weight").items())[1]),
    ("Is the total revenue in the East region greater than the total weight delivered to shops in Wales?",
     "boolean", ("sales.xlsx", "branches.csv", "deliveries.xlsx", "shops.csv"),
     lambda: sum(r["Revenue"] for r in SB if r["Region"] == "East") > sum(r["Weight"] for r in DS if r["Country"] == "Wales")),
    ("What is the difference between the average revenue in the North region and the highest fare?",
     "number", ("sales.xlsx", "branches.csv", "passengers.xlsx"),
     lambda: mean([r["Revenue"] for r in SB if r["Region"] == "North"]) - max(r[4] for r in PASSENGERS[1:])),
    ("Is the total weight delivered to shops in Scotland less than the average age of the billionaires?",
     "boolean", ("deliveries.xlsx", "shops.csv", "billionaires.csv"),
     lambda: sum(r["Weight"] for r in DS if r["Country"] == "Scotland") < mean([r[2] for r in BILLIONAIRES[1:]])),
]  # fmt: skip


def gold() -> list[dict[str, Any]]:
    """Every question with its computed answer, in the ``--multi`` line format of the retrieval bench."""
    out = []
    for question, kind, files, compute in QUESTIONS:
        value = compute()
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        out.append(
            {
                "question": question,
                "answer": str(value) if kind == "boolean" else value,
                "type": kind,
                "datasets": list(files),
            }
        )
    return out

# ruff: noqa: E501  -- one question per entry reads better than wrapped lambdas
"""Questions that each need two or three DataBench datasets, with their answers computed here by code.

Run ``python tests/retrieval/multi_dataset.py CORPUS OUT.jsonl`` to write them (question, answer, type,
datasets) for ``gridsight bench retrieval --multi OUT.jsonl``; the answers are computed from the CSVs
under ``CORPUS/datasets`` each time, never typed in. Written in the style of the multi-spreadsheet paper's
list; the phrasing was not tuned to what GridSight answers.
"""

from __future__ import annotations

import csv
import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Rows = list[dict[str, str]]
FILES = {
    "titanic": "002_Titanic.csv",
    "forbes": "001_Forbes.csv",
    "pokemon": "051_Pokemon.csv",
    "german": "055_German.csv",
}


def load(corpus: Path) -> dict[str, Rows]:
    out = {}
    for key, name in FILES.items():
        with (corpus / "datasets" / name).open(encoding="utf-8", newline="") as fh:
            out[key] = list(csv.DictReader(fh))
    return out


def nums(rows: Rows, col: str, where: Callable[[dict[str, str]], bool] = lambda r: True) -> list[float]:
    return [float(r[col]) for r in rows if r[col] not in ("", "nan") and where(r)]


def count(rows: Rows, where: Callable[[dict[str, str]], bool]) -> int:
    return sum(1 for r in rows if where(r))


def extreme(rows: Rows, col: str, top: bool) -> dict[str, str]:
    """The first row with the highest (or lowest) value of a number column (ties: first in the file)."""
    filled = [r for r in rows if r[col] not in ("", "nan")]
    best = (max if top else min)(float(r[col]) for r in filled)
    return next(r for r in filled if float(r[col]) == best)


def mean(x: list[float]) -> float:
    return sum(x) / len(x)


T, F, P, G = "titanic", "forbes", "pokemon", "german"
#: (question, answer type, datasets used, the answer from the loaded datasets)
QUESTIONS: list[tuple[str, str, tuple[str, ...], Callable[[dict[str, Rows]], Any]]] = [
    ("Is the average age of the Titanic passengers higher than the average age of the loan applicants?",
     "boolean", (T, G), lambda d: mean(nums(d[T], "Age")) > mean(nums(d[G], "Age"))),
    ("Is the average age of the billionaires higher than the average age of the borrowers?",
     "boolean", (F, G), lambda d: mean(nums(d[F], "age")) > mean(nums(d[G], "Age"))),
    ("Is the highest fare paid by a passenger greater than the highest attack of a Pokémon?",
     "boolean", (T, P), lambda d: max(nums(d[T], "Fare")) > max(nums(d[P], "attack"))),
    ("What is the difference between the highest loan amount and the highest fare?",
     "number", (G, T), lambda d: max(nums(d[G], "Loan Amount")) - max(nums(d[T], "Fare"))),
    ("What is the sum of the number of passengers who survived and the number of legendary Pokémon?",
     "number", (T, P),
     lambda d: count(d[T], lambda r: r["Survived"] == "True") + count(d[P], lambda r: r["legendary"] == "True")),
    ("Are the oldest passenger and the oldest borrower the same sex?",
     "boolean", (T, G), lambda d: extreme(d[T], "Age", True)["Sex"].lower() == extreme(d[G], "Age", True)["Sex"].lower()),
    ("Are the youngest passenger and the youngest borrower the same sex?",
     "boolean", (T, G),
     lambda d: extreme(d[T], "Age", False)["Sex"].lower() == extreme(d[G], "Age", False)["Sex"].lower()),
    ("Is the maximum age of the passengers less than the maximum age of the billionaires?",
     "boolean", (T, F), lambda d: max(nums(d[T], "Age")) < max(nums(d[F], "age"))),
    ("Is the total loan amount greater than the total final worth of the billionaires?",
     "boolean", (G, F), lambda d: sum(nums(d[G], "Loan Amount")) > sum(nums(d[F], "finalWorth"))),
    ("What is the difference between the average age of the billionaires and the average age of the passengers?",
     "number", (F, T), lambda d: mean(nums(d[F], "age")) - mean(nums(d[T], "Age"))),
    ("Is the number of Pokémon greater than the number of passengers?",
     "boolean", (P, T), lambda d: len(d[P]) > len(d[T])),
    ("What is the difference between the number of billionaires and the number of borrowers?",
     "number", (F, G), lambda d: len(d[F]) - len(d[G])),
    ("Is the highest hp of a Pokémon lower than the highest age of a billionaire?",
     "boolean", (P, F), lambda d: max(nums(d[P], "hp")) < max(nums(d[F], "age"))),
    ("Is the average fare lower than the average loan duration in months?",
     "boolean", (T, G), lambda d: mean(nums(d[T], "Fare")) < mean(nums(d[G], "Loan Duration - Months"))),
    ("Is the lowest fare the same as the lowest number of existing loans?",
     "boolean", (T, G), lambda d: min(nums(d[T], "Fare")) == min(nums(d[G], "Number of Existing Loans"))),
    ("Is the maximum number of siblings or spouses aboard greater than the maximum number of dependants?",
     "boolean", (T, G),
     lambda d: max(nums(d[T], "Siblings_Spouses Aboard")) > max(nums(d[G], "Number of Dependants"))),
    ("What is the difference between the highest total stat of a Pokémon and the longest loan duration in months?",
     "number", (P, G), lambda d: max(nums(d[P], "total")) - max(nums(d[G], "Loan Duration - Months"))),
    ("Is the number of female passengers greater than the number of female borrowers?",
     "boolean", (T, G),
     lambda d: count(d[T], lambda r: r["Sex"] == "female") > count(d[G], lambda r: r["Sex"] == "Female")),
    ("What is the sum of the highest age of a passenger and the highest age of a borrower?",
     "number", (T, G), lambda d: max(nums(d[T], "Age")) + max(nums(d[G], "Age"))),
    ("Is the average hp of the Pokémon higher than the average age of the borrowers?",
     "boolean", (P, G), lambda d: mean(nums(d[P], "hp")) > mean(nums(d[G], "Age"))),
    ("Are the richest billionaire and the oldest passenger the same sex?",
     "boolean", (F, T),
     lambda d: extreme(d[F], "finalWorth", True)["gender"][:1].lower() == extreme(d[T], "Age", True)["Sex"][:1].lower()),
    ("What is the difference between the number of first generation Pokémon and the number of first class passengers?",
     "number", (P, T),
     lambda d: count(d[P], lambda r: r["generation"] == "1") - count(d[T], lambda r: r["Pclass"] == "1")),
    ("Is the median age of the billionaires greater than the median age of the borrowers?",
     "boolean", (F, G), lambda d: statistics.median(nums(d[F], "age")) > statistics.median(nums(d[G], "Age"))),
    ("Is the lowest age of a billionaire higher than the lowest age of a borrower?",
     "boolean", (F, G), lambda d: min(nums(d[F], "age")) > min(nums(d[G], "Age"))),
    ("What is the sum of the highest fare, the highest loan amount and the highest attack of a Pokémon?",
     "number", (T, G, P),
     lambda d: max(nums(d[T], "Fare")) + max(nums(d[G], "Loan Amount")) + max(nums(d[P], "attack"))),
    ("Is the oldest passenger older than the oldest borrower and the oldest billionaire?",
     "boolean", (T, G, F),
     lambda d: max(nums(d[T], "Age")) > max(max(nums(d[G], "Age")), max(nums(d[F], "age")))),
]  # fmt: skip


def gold(corpus: Path) -> list[dict[str, Any]]:
    """Every question with the answer computed from the corpus's CSVs."""
    data = load(corpus)
    out = []
    for question, kind, used, compute in QUESTIONS:
        value = compute(data)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        answer = str(value) if kind == "boolean" else value
        out.append(
            {"question": question, "answer": answer, "type": kind, "datasets": [FILES[u] for u in used]}
        )
    return out


if __name__ == "__main__":
    corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
    lines = [json.dumps(g, ensure_ascii=False) for g in gold(corpus)]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} questions -> {out}")

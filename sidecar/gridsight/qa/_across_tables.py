"""Two lines from two tables of one sheet, set against each other: "net debt (in the reconciliation
beside the balance sheet) divided by total equity", "the equity ratio from the key figures less the
share of equity in the statement".

Where the question names two row labels (:func:`gridsight.qa._members.listed_members`, over the
labels of every table on the best table's sheet) and each stands in one table only, the two tables'
own figures for the period the question names are read one by one, each with its table's routes
("What was net debt in 2025?"), and the arithmetic the question writes between them -- a ratio, a
share, a difference or a sum -- is done on the two figures. Both cells are the evidence. Nothing is
read where the question names one period in neither table, or names no arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gridsight.qa._answer import QAAnswer
from gridsight.qa._headers import YEARS
from gridsight.qa._members import listed_members
from gridsight.qa._pick import Candidate, relation_for

#: A share or a percentage of a base named after "of": "as a percentage of B", "B's share".
_SHARE_OF = re.compile(
    r"\b(?:as\s+an?\s+)?(?:percentage|percent|share|proportion|fraction)\s+of\b", re.IGNORECASE
)
#: The arithmetic a question writes between two figures, in the order the figures are named.
_DIVIDED = re.compile(r"\bdivided\s+by\b|\bratio\b|\bover\b|[^\W\d_]\s*/\s*[^\W\d_]|\bper\b", re.IGNORECASE)
_LESS = re.compile(r"\bminus\b|\bless\b|\bdifference\b|\bexceed(?:s|ed)?\b|\bmore\s+than\b", re.IGNORECASE)
_PLUS = re.compile(r"\bplus\b|\bsum\s+of\b|\btotal\s+of\b|\bcombined\b|\badd(?:ing|ed)?\b", re.IGNORECASE)
_PERCENT = re.compile(r"\bpercent(?:age)?\b|%", re.IGNORECASE)


def answer_across_tables(
    question: str, found: list[Candidate], answer_in: Callable[[Candidate, str], QAAnswer]
) -> QAAnswer | None:
    """The figure two lines of two tables on the best table's sheet give together (see the module
    docstring), or None where the question names no such pair. ``answer_in`` answers a question
    over one candidate table."""
    if not found:
        return None
    sheet = found[0].sheet
    tables = [c for c in found if c.sheet is sheet and c.relation is None]
    if len(tables) < 2:
        return None
    years = sorted(set(YEARS.findall(question)))
    shared = _SHARE_OF.search(question)
    op = _operation(question)
    if op is None or len(years) != 1:
        return None  # (no arithmetic, or not one period: nothing to read across tables)
    labels = []
    for c in tables:
        rel = relation_for(c)
        key = rel.key
        labels.append({v for v in rel.distinct_values(key.name) if isinstance(v, str)} if key else set())
    every = sorted({v for held in labels for v in held})
    named = listed_members(every, question)
    if len(named) != 2:
        named = _written_whole(every, question)
    if len(named) != 2:
        return None
    homes = [[i for i, held in enumerate(labels) if label in held] for label in named]
    if any(len(h) != 1 for h in homes) or homes[0] == homes[1]:
        return None
    parts = [
        answer_in(tables[h[0]], f"What was {label} in {years[0]}?")
        for label, h in zip(named, homes, strict=True)
    ]
    values = [p.value for p in parts]
    if any(p.status != "answered" for p in parts) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in values
    ):
        return None
    a, b = (float(v) for v in values)
    first = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", named[0])}
    before = (
        {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", question[: shared.start()])} if shared else set()
    )
    if shared is not None and not first & before:
        a, b = b, a  # ("what percentage of total equity was net debt": the base is named first, after "of")
    if op == "/":
        if b == 0:
            return None
        value = a / b * (100.0 if _PERCENT.search(question) else 1.0)
    else:
        value = a - b if op == "-" else a + b
    evidence = [e for p in parts for e in p.evidence]
    told = f"{named[0]} ({values[0]}) {op} {named[1]} ({values[1]})"
    return QAAnswer(
        question,
        "answered",
        value=value,
        display=f"{value:,.4f}".rstrip("0").rstrip("."),
        type="number",
        evidence=evidence,
        route="cells",
        explanation=f"two tables on one sheet: {told}, for {years[0]}",
        confidence=min(p.confidence for p in parts),
        table=", ".join(p.table or "" for p in parts),
    )


def _operation(question: str) -> str | None:
    """The arithmetic the question writes between its two figures: "/" (a ratio or a share), "-"
    or "+"; None where it writes none."""
    if _DIVIDED.search(question) or _SHARE_OF.search(question):
        return "/"
    if _LESS.search(question):
        return "-"
    return "+" if _PLUS.search(question) else None


def _written_whole(labels: list[str], question: str) -> list[str]:
    """The labels the question writes whole ("what percentage of total equity was net debt"), in the
    order written, leaving out one written inside another (``Net debt`` inside ``Net debt to
    equity``)."""
    low = " " + re.sub(r"[^\w%]+", " ", question.casefold()) + " "
    at = {}
    for label in labels:
        text = re.sub(r"[^\w%]+", " ", label.casefold()).strip()
        if len(text) >= 3 and (i := low.find(f" {text} ")) >= 0:
            at[label] = (i, i + len(text))
    whole = [v for v in at if not any(o != v and at[o][0] <= at[v][0] and at[v][1] <= at[o][1] for o in at)]
    return sorted(whole, key=lambda v: at[v][0])

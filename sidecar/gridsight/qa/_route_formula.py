"""The formula route: a flat table's question becomes one validated Excel formula, evaluated.

The formula engine's rules write the formula (the model tier may fill in where they abstain); the
answer carries the formula itself, the ranges it reads as evidence and the unit line when the result
is an amount of the table (not a count, a share or a growth rate).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from gridsight.grid import Sheet, Workbook
from gridsight.qa._answer import QAAnswer, display_of, value_type
from gridsight.qa._pick import Candidate, table_area
from gridsight.qa._relational import table_unit

#: Formula shapes whose result is an amount in the table's unit.
_AMOUNT_SHAPES = (
    "aggregate-sum",
    "aggregate-average",
    "aggregate-max",
    "aggregate-min",
    "aggregate-median",
    "extreme-",
    "lookup-extreme",
    "top-n-values",
    "change",
)


def by_formula(workbook: Workbook, cand: Candidate, question: str, model: Any) -> QAAnswer:
    """Answer with a formula over the table's header and data rows (totals left out)."""
    from gridsight.formula import generate_formula

    t = cand.table
    ans = generate_formula(question, workbook, cand.sheet, area=table_area(t), model=model)
    if ans.formula is None:
        return QAAnswer(question, "abstained", reason=ans.reason, route="formula", table=cand.ref)
    evidence = [{"sheet": cand.sheet.name, "range": r.split("!")[-1].replace("'", "")} for r in ans.evidence]
    value = flat(ans.value)
    kind = value_type(value)
    amount = (ans.shape or "").startswith(_AMOUNT_SHAPES) and kind in ("number", "list")
    amount = amount and ans.display is None  # dates shown as dates are not amounts
    date = as_date(value, ans.formula, workbook, cand.sheet) if ans.display is not None else None
    if date is not None:
        value, kind = date, ("list" if isinstance(date, list) else "date")
    return QAAnswer(
        question,
        "answered",
        value,
        ans.display if ans.display else display_of(value),
        kind,
        ans.formula,
        None,
        evidence,
        "formula",
        table_unit(t) if amount else None,
        ans.explanation or "",
        None,
        ans.confidence,
        cand.ref,
    )


def flat(value: Any) -> Any:
    """A spilled column or row (``[[4], [2]]``, ``[[4, 2]]``) as the list of its values; else as is."""
    if not isinstance(value, list) or not value or not all(isinstance(r, list) for r in value):
        return value
    if all(len(r) == 1 for r in value):
        return [r[0] for r in value]
    return value[0] if len(value) == 1 else value


def as_date(value: Any, formula: str, workbook: Workbook, sheet: Sheet) -> Any:
    """A date result (serials from a date column) as ISO text; None when the result is no date."""
    from gridsight.formula._display import result_format
    from gridsight.grid import serial_to_datetime

    if result_format(formula, sheet) is None:
        return None

    def one(v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, int | float):
            return v
        try:
            d = serial_to_datetime(float(v), date1904=workbook.date1904)
        except ValueError:
            return v
        if isinstance(d, dt.time):  # a serial below 1 in a time column: a time of day, no date part
            return d.isoformat()
        return d.date().isoformat() if d.time() == dt.time() else d.isoformat()

    if isinstance(value, list):
        return [one(x[0] if isinstance(x, list) and len(x) == 1 else x) for x in value]
    return one(value)

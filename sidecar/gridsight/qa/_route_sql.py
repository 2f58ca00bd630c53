"""The SQL route: the planner's SELECT, checked and run over a read-only view of the detected table.

SQuARE answers what a formula expresses badly with constrained queries; here that is exact distinct
counts (Excel's UNIQUE folds case), existence tests with several conditions and group rankings. The
query comes from :mod:`gridsight.qa._plan`, never from the user, and still passes the whitelist in
:mod:`gridsight.qa._sql` before it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from gridsight.errors import GridSightError
from gridsight.qa._answer import QAAnswer, display_of, value_type
from gridsight.qa._pick import Candidate, table_area
from gridsight.qa._relational import filled_down, numbers_of, table_unit


def _view(cand: Candidate) -> tuple[Any, Any] | None:
    from gridsight.formula._generate import table_from_sheet
    from gridsight.qa._sql import view_of

    table = table_from_sheet(cand.sheet, table_area(cand.table))
    if table is None or not table.columns:
        return None
    # a column of numbers holds numbers only: text cells (``..``, ``n/a``, a note) are empty, as
    # Excel's SUMIFS and COUNTIFS pass over text, where sqlite sets text above every number
    # (``'n/a' > 5`` is true); numbers written as text are numbers
    prepare: list[Callable[[list[Any]], list[Any]] | None]
    prepare = [numbers_of if c.kind == "number" else None for c in table.columns]
    if len(table.columns) > 1 and table.columns[0].kind == table.columns[1].kind == "text":
        # (``Region | Product | Q1 ...``, each region written once over its products: down its block)
        inner = cand.sheet.column_values(table.columns[1].data.with_sheet(None))
        prepare[0] = partial(filled_down, inner=inner)
    view = view_of(cand.sheet, [c.name for c in table.columns], [c.data for c in table.columns], prepare)
    return table, view


def plan_query(cand: Candidate, question: str, join: Any = None) -> tuple[Any, Any]:
    """The planner's reading of the question over this table (widened by ``join``), and the view it
    reads; (None, None) when there is none."""
    from gridsight.qa._plan import Planner, describe_columns

    try:
        if join is not None:
            from gridsight.qa._join import joined_view

            view = joined_view(join)
            right = [c for c in join.right_table.columns if c is not join.right_key]
            columns = [*join.left_table.columns, *right]
        else:
            got = _view(cand)
            if got is None:
                return None, None
            table, view = got
            columns = table.columns
        kinds = {v.name: c.kind for v, c in zip(view.columns, columns, strict=True)}
        distinct = {v.name: c.distinct for v, c in zip(view.columns, columns, strict=True)}
        return Planner(question, view, describe_columns(view, kinds, distinct)).plan(), view
    except GridSightError:
        return None, None


def plan_over_join(
    cand: Candidate, question: str, others: list[Candidate], across: Any = None
) -> tuple[Any, Any, Any] | None:
    """(plan, view, join) when the question needs a lookup table joined to ``cand`` and the plan
    reads at least one of its columns (a query that reads only ``cand`` needs no join); else None.
    ``across`` labels tables of other workbooks (:func:`gridsight.qa._join.find_join`)."""
    from gridsight.qa._join import find_join

    join = find_join(question, cand, others, across)
    if join is None:
        return None
    plan, view = plan_query(cand, question, join)
    own = {c.name for c in join.left_table.columns}
    if plan is None or not set(plan.columns) - own:
        return None
    return plan, view, join


def by_query(cand: Candidate, question: str, plan: Any, view: Any) -> QAAnswer:
    """Run the plan's query; the evidence is the data cells of every column it read."""
    from gridsight.qa._sql import QueryRefused, run_query

    if plan is None or view is None:
        return QAAnswer(
            question, "abstained", reason="no query shape matches the question", route="sql", table=cand.ref
        )
    try:
        rows, read = run_query(plan.sql, view)
    except QueryRefused as exc:
        return QAAnswer(question, "abstained", reason=str(exc), route="sql", table=cand.ref, query=plan.sql)
    values = [r[0] for r in rows]
    if plan.result == "one" and len(values) > 1:
        return QAAnswer(
            question,
            "abstained",
            reason=f"rows that match hold different values ({display_of(values[0])}, "
            f"{display_of(values[1])}); say which",
            route="sql",
            table=cand.ref,
            query=plan.sql,
        )
    if not values or (plan.result != "list" and values[0] is None):
        return QAAnswer(
            question,
            "abstained",
            reason="the query found no rows",
            route="sql",
            table=cand.ref,
            query=plan.sql,
        )
    value: Any
    if plan.result == "list":
        value = values
    elif plan.result == "boolean":
        value = bool(values[0])
    else:
        value = values[0]
        if isinstance(value, float) and value.is_integer() and plan.kind in ("count", "distinct", "sum"):
            value = int(value)
    evidence = []
    for sheet, rng in [*((view.column(n).sheet, view.column(n).data) for n in read), *view.keys]:
        ev = {"sheet": sheet or cand.sheet.name, "range": rng.with_sheet(None).ref()}
        if ev not in evidence:
            evidence.append(ev)
    shown = display_of(value)
    unit = table_unit(cand.table) if plan.kind in ("sum", "avg", "max", "min", "top") else None
    return QAAnswer(
        question,
        "answered",
        value,
        shown,
        value_type(value),
        None,
        plan.sql,
        evidence,
        "sql",
        unit,
        f"The query{view.note} {plan.sentence}: {shown}.",
        None,
        plan.confidence,
        cand.ref,
    )

"""`gridsight formula` on the query pipeline: the winning query, translated into a verified formula.

The request is first read as a question (:func:`gridsight.qa.answer_question`: its routes, its
candidates and its vote), and the formula that answer's query translates into, checked by the engine,
is the rules' formula; the formula tier (:mod:`gridsight.formula._generate`) answers where the question
pipeline has none. With a model, the same candidates as a question (:mod:`gridsight.qa._pipeline`):
the model's queries over the table's relational view and the rules' own answer. The value most of
them agree on wins; when a query wins, its Excel translation is kept only if the engine evaluates it
to the query's result. When no formula gives that result, the answer says so and keeps the query (a
formula that computes something else would mislead).
"""

from __future__ import annotations

from typing import Any

from gridsight.formula import evaluate_formula
from gridsight.formula._generate import Answer, generate_formula, sheet_of
from gridsight.grid import Range, Sheet, Workbook
from gridsight.qa._answer import rounding_asked, without_rounding
from gridsight.qa._ask import BLOCKS_AT, structure_score
from gridsight.qa._pipeline import (
    TIE_ORDER_FLAT,
    TIE_ORDER_HEADERS,
    Attempt,
    expected_type,
    model_attempts,
    same_value,
    vote,
)
from gridsight.qa._relational import relation_of
from gridsight.qa._to_formula import verified_formula


def _table_for(workbook: Workbook, sheet: Sheet, request: str, area: Range | None) -> Any:
    from gridsight.detect import detect_tables
    from gridsight.qa._pick import candidates, pick_table

    tables = detect_tables(sheet).tables
    if area is not None:
        inside = [t for t in tables if t.range.intersect(area) is not None]
        return max(inside, key=lambda t: t.range.size, default=None)
    found = [c for c in candidates(workbook, sheet.name, request) if c.sheet is sheet]
    pick = pick_table(request, found, None)
    if pick.table is not None:
        return pick.table.table
    return max(tables, key=lambda t: t.range.size, default=None)


def _planned(request: str, workbook: Workbook, sheet: Sheet, table: Any, rules: Answer) -> Answer | None:
    """The planner's query, translated into a formula the engine checks gives the same, where it
    is the better reading: the rules' formula tier abstained, or the plan reads the rows in a way
    only a query expresses (calendar parts, empty values, list items, group comparisons)."""
    from gridsight.qa._ask import SQL_FIRST
    from gridsight.qa._pick import Candidate
    from gridsight.qa._route_sql import by_query, plan_query

    cand = Candidate(sheet, table, 1.0)
    plan, view = plan_query(cand, request)
    if plan is None or view is None or plan.confidence < 0.7:
        return None
    if (expected_type(request) == "boolean") != (plan.result == "boolean"):
        return None  # "is the most frequent colour black?" asks a yes or no, not the colour
    if rules.formula is not None and not (plan.sql_only or plan.kind in SQL_FIRST):
        return None
    ans = by_query(cand, request, plan, view)
    if ans.status != "answered":
        return None
    formula = verified_formula(relation_of(sheet, table), workbook, plan.sql, ans.value)
    evidence = tuple(f"{sheet.name}!{e['range']}" for e in ans.evidence)
    # the rules' planner: no model took part
    return _from_query(request, workbook, sheet, plan.sql, ans.value, formula, evidence, 0.75, "plan")


def _within(evidence: tuple[str, ...], area: Range) -> bool:
    """Whether every cited range on the formula's own sheet (written without a sheet name) meets
    ``area``; a range on another sheet never does."""
    for ref in evidence:
        if "!" in ref:
            return False
        try:
            if Range.parse(ref).intersect(area.with_sheet(None)) is None:
                return False
        except ValueError:
            return False
    return bool(evidence)


def _as_asked(request: str, workbook: Workbook, sheet: Sheet) -> Answer | None:
    """The formula the question pipeline (:func:`gridsight.qa.answer_question`) writes and checks
    for ``request`` read as a question on ``sheet``, or None where it abstains or keeps a query."""
    from gridsight.qa._ask import answer_question

    ans = answer_question(workbook, request, sheet.name)
    if ans.status != "answered" or not ans.formula or not ans.formula.startswith("="):
        return None
    evaluation = evaluate_formula(ans.formula, workbook, sheet)
    if not evaluation.ok or evaluation.error is not None:
        return None
    return Answer(
        request,
        ans.formula,
        ans.value,
        evaluation,
        f"Read as a question ({ans.route} route) and checked: {ans.explanation}",
        # (cells on the formula's own sheet written as the formula tier writes them: no sheet name)
        tuple(e["range"] if e["sheet"] == sheet.name else f"{e['sheet']}!{e['range']}" for e in ans.evidence),
        ans.confidence,
        shape="question",
        query=ans.query,
    )


def _from_query(
    request: str,
    workbook: Workbook,
    sheet: Sheet,
    sql: str,
    value: Any,
    formula: str | None,
    evidence: tuple[str, ...],
    confidence: float,
    shape: str,
    agreement: float | None = None,
    agree: str = "",
) -> Answer:
    """The answer a query gives, with the formula checked to give the same; with none, the query is
    kept and the reason said (a formula that computes something else would mislead)."""
    if formula is None:
        why = f"no Excel formula gives the query's result; the query {sql} gives {value!r}"
        return Answer(request, None, value, reason=why, agreement=agreement, query=sql)
    return Answer(
        request,
        formula,
        value,
        evaluate_formula(formula, workbook, sheet),
        f"Translated from the query {sql} and checked: the formula gives the same result{agree}.",
        evidence,
        confidence,
        shape=shape,
        agreement=agreement,
        query=sql,
    )


def formula_from_question(
    request: str,
    workbook: Workbook,
    sheet: str | Sheet | None = None,
    *,
    area: Range | str | None = None,
    model: Any = None,
    samples: int = 0,
) -> Answer:
    """The best verified formula for ``request`` (see the module docstring); the rules alone
    without ``model``. A rounding the request asks for ("to 2 decimals") wraps the formula in
    ROUND; the rest of the request is read without it."""
    found = _best_formula(without_rounding(request), workbook, sheet, area=area, model=model, samples=samples)
    found.request = request
    rounded = rounding_asked(found.value, found.formula, request) if found.formula is not None else None
    if rounded is not None:
        found.value, found.formula, _places = rounded
        found.display = None
    return found


def _best_formula(
    request: str,
    workbook: Workbook,
    sheet: str | Sheet | None,
    *,
    area: Range | str | None,
    model: Any,
    samples: int,
) -> Answer:
    rules = generate_formula(request, workbook, sheet, area=area, model=None)
    if not request.strip():
        return rules
    sh = sheet_of(workbook, sheet)
    rng = Range.parse(area) if isinstance(area, str) else area
    table = _table_for(workbook, sh, request, rng)
    if table is None:
        return rules
    # the question's own reading (its routes, candidates and vote: the cells plan, definitions,
    # periods, the planner's query) and the formula it checked, before the formula tier's
    asked = _as_asked(request, workbook, sh)
    if asked is not None and rng is not None and not _within(asked.evidence, rng):
        asked = None  # (the question pipeline read another table than the range the user chose)
    if asked is not None:
        rules = asked
    else:
        planned = _planned(request, workbook, sh, table, rules)
        if planned is not None and (planned.formula is not None or rules.formula is None):
            rules = planned  # the planner's query, checked as a formula (or kept, saying why)
    rel = relation_of(sh, table)
    if model is None:
        return rules
    if not rel.rows:
        return rules
    attempts = model_attempts(rel, request, model, samples=samples)
    if rules.formula is not None:
        attempts.append(Attempt("rules", rules.formula, rules.value, confidence=rules.confidence))
    headers = structure_score(table, sh) >= BLOCKS_AT
    result = vote(attempts, TIE_ORDER_HEADERS if headers else TIE_ORDER_FLAT)
    if result is None:
        return rules
    win = result.winner
    agree = f"{len(result.agreeing)} of {result.voters} candidates agree"
    if win.source == "rules" or win.sql is None:
        rules.agreement = round(result.agreement, 4)
        rules.explanation = f"{rules.explanation or ''} ({agree})".strip()
        return rules
    formula = verified_formula(rel, workbook, win.sql, win.value)
    if formula is None and rules.formula is not None and same_value(rules.value, win.value):
        formula = rules.formula
    evidence = tuple(f"{sh.name}!{rel.column(n).data.with_sheet(None).ref()}" for n in win.read)
    agreement = round(result.agreement, 4)
    return _from_query(
        request, workbook, sh, win.sql, win.value, formula, evidence, 0.8, "query", agreement, f" ({agree})"
    )

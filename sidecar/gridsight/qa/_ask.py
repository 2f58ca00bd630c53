"""Answer a question: pick the table, route by structure, gate on confidence, merge, else abstain.

The flow follows SQuARE: a structure score (header depth + merged-cell density) sends flat tables to
a formula (or to a constrained SQL query where that is the faithful tool: exact distinct counts) and
multi-header tables to structure-preserving blocks. An answer below the confidence gate, or of the
wrong type for the question (a name for a yes/no question), sends the question to the next route;
two low-confidence routes that agree are merged into one answer; otherwise GridSight abstains and
says why. Nothing here ever produces a number that no route computed from the sheet.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable
from typing import Any

from gridsight.grid import Kind, Range, Sheet, Workbook
from gridsight.qa._across_tables import answer_across_tables
from gridsight.qa._answer import (
    QAAnswer,
    display_of,
    positive_as_asked,
    rounded_as_asked,
    without_example,
    without_owner,
    without_rounding,
    without_ruled_out,
    without_sign,
    without_statement_named,
    without_table_aside,
    without_title,
)
from gridsight.qa._asked import from_asked
from gridsight.qa._cells import (
    against_plan,
    cell_plan,
    cross_table,
    lines_by_period,
    long_form,
    periods_down,
    sections_offered,
    slashes_named,
    superlative_led,
    total_at_an_end,
    unnamed_totals,
    whole_year,
    years_in_blocks,
)
from gridsight.qa._debt import debt_written_out
from gridsight.qa._durations import in_column_units
from gridsight.qa._entities import entity_columns
from gridsight.qa._glossary import (
    complement_named,
    current_portion_added,
    defined,
    elided_heads,
    exclusion_after,
    in_own_terms,
    initialisms_said,
    initials_written_out,
    losses_as_signs,
    named_not_defined,
    others_named,
    signs_as_bounds,
    spelt_out,
    totals_of_parts,
)
from gridsight.qa._headers import PATH_SEP
from gridsight.qa._periods import (
    changed_in_quarter,
    changed_in_year,
    ends_dated,
    header_years,
    holds_a_year,
    split_years,
    with_dates,
    with_periods,
    with_quarters,
    with_runs_of_years,
    without_unheld_year,
)
from gridsight.qa._phrasing import as_which, with_total_across, without_records_named
from gridsight.qa._pick import Candidate, Pick, candidates, pick_table, relation_for, top_tie, words
from gridsight.qa._pipeline import (
    TIE_ORDER_FLAT,
    TIE_ORDER_HEADERS,
    Attempt,
    answer_items,
    asks_name,
    asks_year,
    cells_read_twice,
    could_be_year,
    expected_type,
    is_figure,
    model_attempts,
    offers_choice,
    run_attempt,
    same_value,
    vote,
)
from gridsight.qa._plan import Plan
from gridsight.qa._relational import Relation
from gridsight.qa._route_blocks import NIL, by_blocks
from gridsight.qa._route_formula import by_formula
from gridsight.qa._route_sql import by_query, plan_over_join, plan_query
from gridsight.qa._scales import without_unit_in_brackets
from gridsight.qa._to_formula import verified_formula, view_rows
from gridsight.qa._typos import labels_spelt, operations_spelt
from gridsight.qa._wider import ranks_by_id, reads_more
from gridsight.text import YEAR_BY_YEAR, orders_all, prior_year_named, without_marks

#: Structure score at which a table is answered by header paths instead of a formula (SQuARE routes
#: multi-row headers and merged layouts to structure-preserving blocks).
BLOCKS_AT = 1.0
#: Tables a question fits equally that are each read to see whether they answer alike (more: say which).
MAX_TIED_READ = 3
#: Below this, an answer from one route is not trusted: the next route is tried, then abstention.
CONFIDENT = 0.5
#: What two agreeing low-confidence routes add to the better one's confidence.
AGREE_BONUS = 0.15
MAX_QUESTION = 2000
#: How sure a cells-route answer is: its cells are named by the question's words, its operation by
#: the question's form.
CELLS_CONFIDENCE = 0.75
#: Cell plans whose result is no amount in the cells' unit.
_UNITLESS = frozenset({"share", "ratio", "relative change"})
#: Query plans that SQL expresses more faithfully than a formula: they go first when the parse is sure.
SQL_FIRST = frozenset(
    {
        "distinct",
        "unique",
        "categories",
        "compare",
        "having",
        "argtest",
        "columns",
        "counts",
        "years",
        "rates",
        "share",
        "median",
        "spread",
    }
)
#: Plans whose query reads one checked figure per item the question lists ("in 1985, 1990 and 1995").
CHECKED_LISTS = frozenset({"years"})
#: Words that ask for one answer per item, in order ("in year order", "year by year", "in that order").
IN_ORDER_ASKED = re.compile(
    rf"\b(?:in (?:that|the same|chronological) order|respectively|{YEAR_BY_YEAR})\b",
    re.IGNORECASE,
)
#: Questions that are commands or injection attempts, not questions about the data.
_INJECTION = re.compile(
    r";\s*(drop|delete|insert|update|alter|create|attach|pragma)\b|--|/\*|\bunion\s+(all\s+)?select\b"
    r"|\b(drop|truncate)\s+table\b|<\s*script|\bignore (all |the )?(previous|above) instructions\b"
    r"|\bsystem prompt\b|\bexec(ute)?\s*\(",
    re.IGNORECASE,
)


def structure_score(table: Any, sheet: Sheet) -> float:
    """Header depth beyond one row, plus ten times the share of merged cells in the header area."""
    depth = len(table.header_rows)
    header = (
        Range(min(table.header_rows), table.range.left, max(table.header_rows), table.range.right)
        if table.header_rows
        else None
    )
    merged = 0
    if header is not None:
        for m in sheet.merges:
            part = m.with_sheet(None).intersect(header)
            if part is not None:
                merged += part.size
    density = merged / header.size if header is not None and header.size else 0.0
    return round(max(0, depth - 1) + 10 * density, 2)


#: A question that counts or measures: what it lists are numbers ("how many students are enrolled in
#: each of the 4 smallest districts": the enrolments, not the districts' names).
_COUNTS = re.compile(r"^\s*how (?:many|much)\b", re.IGNORECASE)


def _fits(ans: QAAnswer, expected: str | None, question: str = "") -> bool:
    if is_figure(ans.value) and asks_name(question):
        return False  # "where does the best-paid worker live?" is no wage
    if _RATIO_OF.search(question) and not any("/" in (x or "") for x in (ans.query, ans.formula)):
        return False  # ("the ratio of A's turnover to B's" is no one turnover)
    if is_figure(ans.value) and offers_choice(question) and not _offered(ans.value, question):
        return False  # ("was it lower for 10-49 or for 50-249?" is no head count)
    if asks_year(question) and ans.value is not None and not could_be_year(ans.value):
        return False  # "in what year was the oldest firm founded?" is no firm
    if expected == "list" and _COUNTS.match(question) and isinstance(ans.value, list):
        items = [x for row in ans.value for x in (row if isinstance(row, list) else [row])]
        return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items)
    if expected is None or ans.type is None or expected == "list":  # a one-item list reads as a scalar
        return True
    if expected == "number":
        return ans.type == "number"
    return ans.type == expected


#: A ratio asked of two figures: "the ratio of A to B".
_RATIO_OF = re.compile(r"\bratio\s+of\b[^?]+?\bto\b", re.IGNORECASE)


def _offered(value: Any, question: str) -> bool:
    """Whether each item of an answer is written in the question (a year offered: "2023 or 2024")."""
    return all(
        re.search(rf"(?<![\w.]){re.escape(display_of(x))}(?![\w.])", question) for x in answer_items(value)
    )


def _spaced(text: str) -> str:
    return re.sub(r"[\s-]+", " ", text.casefold())


def _labels(workbook: Workbook) -> Callable[[str], bool]:
    """Whether a text of the workbook holds a name as whole words (a row headed ``Working capital``;
    ``EBIT`` is not in ``Debit``). The texts are read once, when the first name is asked (most
    questions ask none)."""
    texts: list[str] = []

    def holds(name: str) -> bool:
        if not texts:
            texts.append("\n".join(_spaced(t) for sheet in workbook.sheets for t in sheet.texts))
        return re.search(rf"(?<!\w){re.escape(_spaced(name))}(?!\w)", texts[0]) is not None

    return holds


def _text_cells(workbook: Workbook) -> list[str]:
    """The workbook's text cells, sheet by sheet, row by row, repeats kept."""
    out: list[str] = []
    for sheet in workbook.sheets:
        texts = (*sheet.texts, "")
        out += [texts[i] for i in sheet.text_ids[sheet.kinds == Kind.TEXT].tolist()]
    return out


#: How many values of each text column :func:`_answer_in` reads for the way they write years.
_VALUES_READ = 2_000


def _own_texts(rel: Relation) -> list[str]:
    """The names a table gives its lines and columns: row labels, sections and header parts."""
    texts = [part for c in rel.columns if c.role == "data" for part in c.name.split(PATH_SEP)]
    for c in rel.columns:
        if c.role in ("key", "section"):
            texts += [v for v in rel.distinct_values(c.name) if isinstance(v, str)]
    return texts


def _reranked(workbook: Workbook, sheet: str | None, q: str, found: list[Candidate]) -> list[Candidate]:
    """The tables tied for the question ranked again on the question in each one's own names, where
    that puts one table ahead alone on the words it matches; else as found."""
    again = sorted(_ranked_in_own_terms(workbook, sheet, q), key=lambda c: (-c.score, -c.phrases))
    # (only where a table's own name for a word wins it more words than any table had)
    if len(again) > 1 and again[0].score > max(found[0].score, again[1].score):
        return again
    return found


def _ranked_in_own_terms(workbook: Workbook, sheet: str | None, phrase: str) -> list[Candidate]:
    """The tables ranked for a phrase, each scored on the phrase written in its own names ("the
    year's actual sales" over a table titled ``Revenue by division``: "... actual revenue"); a table
    whose names hold the phrase's head (its last word) counts it as one more phrase it writes, which
    breaks a tie with a table that only holds its qualifiers (``Actual``, "Profit for the year")."""
    found = candidates(workbook, sheet, phrase)
    texts_of = {
        id(c): [*_own_texts(relation_for(c)), *(t.text for t in c.table.titles)]
        for c in found
        if c.relation is None
    }
    # (a name some table holds as written is that table's: "total net sales" beside a table of net
    # sales is no balance sheet's ``Deferred revenue``)
    every = [t for texts in texts_of.values() for t in texts]
    foreign = in_own_terms(phrase, every) != phrase or initialisms_said(phrase, every) != phrase
    out = []
    for c in found:
        if c.relation is not None:
            out.append(c)
            continue
        texts = texts_of[id(c)]
        # (and in its own initials: "full-time equivalent employees" over an ``FTE`` column)
        own = initialisms_said(in_own_terms(phrase, texts), texts) if foreign else phrase
        again = [d for d in candidates(workbook, sheet, own) if d.table is c.table] if own != phrase else []
        ranked = again[0] if again else c
        head = re.findall(r"[^\W\d_]+", own.casefold())[-1:]
        if head and any(head[0] in words(t) for t in texts):
            ranked = dataclasses.replace(ranked, phrases=ranked.phrases + 1)
        out.append(ranked)
    return out


def answer_question(
    workbook: Workbook,
    question: str,
    sheet: str | None = None,
    *,
    model: Any = None,
    samples: int = 0,
) -> QAAnswer:
    """The answer to ``question`` with its evidence, or an abstention that says why.

    Args:
        workbook: the workbook to read (never modified).
        question: the user's words (at most 2,000 characters).
        sheet: only this sheet's tables (default: every sheet).
        model: a loaded runtime or the shared model queue. It writes SELECT queries over the chosen
            table's relational view under a grammar; they are run and voted on with the
            deterministic routes' answer (:mod:`gridsight.qa._pipeline`). None: the routes alone.
        samples: sampled queries beyond the model's greedy one (more votes, more time).

    Returns:
        A :class:`QAAnswer`: value, display, type, formula or query, evidence ranges, route, unit,
        explanation and confidence, or ``status == "abstained"`` with the reason.
    """
    q = (question or "").strip()
    if not q:
        return QAAnswer(question, "abstained", reason="the question is empty")
    if len(q) > MAX_QUESTION:
        return QAAnswer(
            question, "abstained", reason=f"the question is longer than {MAX_QUESTION:,} characters"
        )
    if _INJECTION.search(q):
        return QAAnswer(
            question,
            "abstained",
            reason="the question reads like a command or a query, not a question about the data; "
            "ask in words",
        )
    if not words(q):
        return QAAnswer(question, "abstained", reason="the question names nothing to look for")
    q = q.replace("÷", " / ")  # ("income tax expense ÷ profit before tax": a division, as a slash is)
    q = without_unit_in_brackets(q)  # ("... at 31 Dec 2024 ($000)?": the answer's unit, no figure)
    labels = _labels(workbook)
    q = prior_year_named(q, labels)  # ("FY2025 minus the prior year": FY2024)
    q = defined(spelt_out(without_ruled_out(without_example(q)), labels), labels)  # "ETR": effective tax rate
    q = operations_spelt(q, labels)  # ("betwen", "percentge": the operation words they miss)
    q = labels_spelt(q, (t for sheet in workbook.sheets for t in sheet.texts))  # ("accurals": Accruals)
    q = totals_of_parts(q, (t for sheet in workbook.sheets for t in sheet.texts))
    q = elided_heads(q, (t for sheet in workbook.sheets for t in sheet.texts))  # "A and B funds"
    q = debt_written_out(q, lambda: _text_cells(workbook))  # "total borrowings": the lines of debt
    rounding, q = q, without_sign(without_rounding(q))  # (rounded and signed as asked at the end)
    found = candidates(workbook, sheet, q)
    tied = top_tie(found) if found and found[0].score > 0 else []
    if len(tied) > 1:  # before any tie-break: the question may need both tables, joined
        joined = answer_over_join(q, tied)
        if joined is not None:
            joined.question = question
            return rounded_as_asked(positive_as_asked(joined, rounding), rounding)
    if len(top_tie(found)) > 1:  # ("PP&E" over ``Fixed assets, net``: each table in its own names)
        found = _reranked(workbook, sheet, q, found)
    # (a sheet named is where the question is asked, not all it may read: a figure of another sheet
    # may be the second of two, "profit as a percentage of the balance sheet's equity")
    elsewhere = [
        c for s in workbook.sheets if sheet and s.name != sheet for c in candidates(workbook, s.name, q)
    ]
    across = answer_across_tables(
        q,
        found + elsewhere,
        lambda c, sub: _answer_in(workbook, c, sub, found, model, samples),
        lambda sub: _ranked_in_own_terms(workbook, None, sub),
        anchor=sheet,
    )
    if (
        across is not None
    ):  # ("net debt in the reconciliation divided by total equity"): a line from each table
        across.question = question
        return rounded_as_asked(positive_as_asked(across, rounding), rounding)
    pick = pick_table(q, found, model)
    if pick.table is None:
        alike = _alike_in_each(workbook, q, found, pick, model, samples)
        if alike is None:
            return QAAnswer(question, "abstained", reason=pick.reason)
        alike.question = question
        return rounded_as_asked(positive_as_asked(alike, rounding), rounding)
    ans = _answer_in(workbook, pick.table, q, found, model, samples)
    ans.question = question
    best = pick.table
    if ans.status == "answered" and pick.how == "periods":
        others = [r for r in pick.tied if r != best.ref]
        ans.explanation += f" (read with {', '.join(others[:3])}: the same statement at other periods)"
    elif ans.status == "answered" and pick.how != "words":
        others = [r for r in pick.tied if r != best.ref]
        chooser = _CHOOSERS.get(pick.how, "the model")
        ans.explanation += f" ({chooser} chose {best.ref} over {', '.join(others[:3])}, which also fit)"
        ans.confidence = round(min(ans.confidence, 0.6 if pick.how in _CHOOSERS else 0.5), 2)
        ans.chosen_by = pick.how
    return rounded_as_asked(positive_as_asked(ans, rounding), rounding)


#: Who broke a tie among tables, as an explanation says it (else the model did).
_CHOOSERS = {
    "meaning": "meaning",
    "class": "the group of lines asked",
    "name": "a name the question writes",
    "percent": "the percentages asked",
    "months": "the months asked",
}


def _alike_in_each(
    workbook: Workbook, q: str, found: list[Candidate], pick: Pick, model: Any, samples: int
) -> QAAnswer | None:
    """The answer every table the question fits equally gives alike, where they stand on one sheet (a
    line a statement repeats in a reconciliation below it, with the same figures), from the first;
    None where one abstains or two differ (the question must say which)."""
    tied = [c for c in found if c.ref in pick.tied][:MAX_TIED_READ]
    if len(tied) < 2 or len(pick.tied) > MAX_TIED_READ or any(c.sheet is not tied[0].sheet for c in tied):
        return None  # (tables on sheets of their own are apart: North's and South's sales, alike or not)
    answers = [_answer_in(workbook, c, q, found, model, samples) for c in tied]
    first = answers[0]
    if any(a.status != "answered" for a in answers) or not all(
        same_value(a.value, first.value) for a in answers
    ):
        return None
    others = ", ".join(c.ref for c in tied[1:])
    first.explanation += f" ({others} give the same, which also fit)"
    return first


def _answer_in(
    workbook: Workbook, best: Candidate, q: str, found: list[Candidate], model: Any, samples: int
) -> QAAnswer:
    """The routes' answer (and the model's vote) over the chosen table, the question read in its terms."""
    # "the prior year", "versus last year": the years they mean among the table's own periods
    rel = relation_for(best)
    own = _own_texts(rel)
    titles = [t.text for t in best.table.titles]
    texts = [*own, *titles, best.sheet.name]
    q = without_unheld_year(  # ("how many Q400 did we own in 2017?" of a table that dates nothing)
        q, rel.memo("holds_a_year", lambda: holds_a_year(texts, rel.values)), texts
    )
    q = without_table_aside(q)  # (the words that picked the table name no cells in it)
    q = without_title(q, titles)  # ("the statement of net assets ...")
    q = without_statement_named(q, own)  # ("what did the income statement show": no ``Net income``)
    q = without_owner(q, [*titles, best.sheet.name], own)  # ("Foxglove's largest liability": the table's)
    # ("name the sector with the largest ...": which sector had ...; "across all products": a total;
    # "in the inspection records": the rows themselves)
    q = without_records_named(with_total_across(as_which(q)))
    q = in_column_units(q, [c.name for c in rel.columns])  # ("over an hour" of ``Duration (min)``)
    # "fiscal 2021/22" over ``FY2022``: the year it ends; as written where a column's values write
    # seasons so (``2020/21``)
    values = (  # (read only where the question writes such a span: split_years looks first)
        v
        for c in rel.columns
        if c.role == "data" and c.kind == "text"
        for v in rel.distinct_values(c.name)[:_VALUES_READ]
    )
    q = split_years(q, itertools.chain(own, values))
    periods = [c.name for c in rel.columns]
    if rel.key is not None and periods_down(rel):  # (a five-year summary on its side: years down)
        periods += [str(v) for v in rel.distinct_values(rel.key.name)]
    q = with_quarters(q, periods)  # ("as of September 30, 2024" over quarter columns: Q3 2024)
    q = with_dates(q, periods)  # ("the most recent quarter end": the date a column writes)
    # ("at 31 December 2024" over ``Opening balance | Closing balance`` as at 31 December 2025)
    q = ends_dated(q, periods, titles)
    q = with_runs_of_years(q, header_years(periods))  # ("over the five most recent years")
    q = with_periods(q, header_years(periods), periods)
    q = changed_in_year(
        q, header_years(periods), own, [c.name for c in rel.columns if c.role == "data"]
    )  # "how much did X increase in 2025": from 2024
    q = changed_in_quarter(q, [c.name for c in rel.columns if c.role == "data"])  # "during Q3 2024"
    q = exclusion_after(q)  # "Excluding cash, what were total current assets?": the clause after
    q = slashes_named(rel, q)  # ("fixed/non-current asset line": the name the table writes)
    q = in_own_terms(q, own)  # "stock" over ``Inventories``: the table's own names
    q = initialisms_said(q, own)  # "year to date" over a ``YTD`` column
    q = superlative_led(rel, q)  # ("Top segment by revenue?": which segment)
    q = sections_offered(rel, q)  # ("which sex had ..." over ``Sex and age group``: Men or Women)
    held = [
        v for c in rel.columns if c.kind == "text" for v in rel.distinct_values(c.name) if isinstance(v, str)
    ]
    q = initials_written_out(q, own, held)  # "FHLB advances": ``Federal Home Loan Bank advances``
    q = others_named(q, own)  # "intangible assets other than goodwill": ``Other intangible assets``
    q = current_portion_added(q, own)  # "long-term debt, including its current portion": both lines
    q = complement_named(q, own)  # "total non-current liabilities" with no such line: total less current
    places = [v for c in rel.columns if c.role == "section" for v in rel.distinct_values(c.name)]
    q = named_not_defined(q, own, places)  # "(live births minus deaths)" after a column's name
    q = signs_as_bounds(q, own)  # "whose operating profit was negative": below 0
    q = losses_as_signs(q, own)  # "in how many months was there a net loss": net profit below 0
    q = whole_year(q, rel)  # "full-year revenue": the column that adds up the quarters
    ans = _route(workbook, best, q, None, found)  # the routes read alone; the model writes queries
    if model is not None:
        ans = _vote(workbook, best, q, ans, model, samples)
    return ans


def read_by_cells(rel: Relation, structure: float) -> bool:
    """Whether a table is read by its cells first, whatever the question: header paths, or named
    lines over periods, lines under sections, a cross table, a long form, totals only the view marks,
    years in blocks (a statement), columns of entities beside their total (segments), or a
    statement's period blocks read together."""
    return structure >= BLOCKS_AT or (
        rel.key is not None
        and (
            lines_by_period(rel)
            or cross_table(rel)
            or any(c.role == "section" for c in rel.columns)
            or long_form(rel)
            or unnamed_totals(rel)
            or total_at_an_end(rel)
            or years_in_blocks(rel)
            or bool(entity_columns(rel))
            or rel.blocks
        )
    )


def _route(workbook: Workbook, best: Candidate, q: str, model: Any, found: list[Candidate]) -> QAAnswer:
    """Stage 2: the routes in the order the table's structure gives, with the gate and the merge."""
    structure = structure_score(best.table, best.sheet)
    plan = view = None
    if structure < BLOCKS_AT:
        plan, view = plan_query(best, q)
        flat = [c for c in found if structure_score(c.table, c.sheet) < BLOCKS_AT]
        joined = plan_over_join(best, q, flat)
        if joined is not None:
            plan, view, _join = joined  # the query reads the other table's columns: only SQL can
    rel = relation_for(best)
    statement = read_by_cells(rel, structure)  # (its lines named by their stems in the blocks route too)
    if (
        plan is not None
        and plan.kind in CHECKED_LISTS
        and not (view is not None and view.joined)
        and IN_ORDER_ASKED.search(q)
    ):
        # ("... from 1985 to 1989, in year order": a figure per year, each checked to be the year's
        # one figure; a span the cells would read as a change)
        order: tuple[str, ...] = ("sql", "formula", "blocks", "cells")
    elif statement or (rel.key is not None and periods_down(rel)) or against_plan(rel, q):
        # (named lines over period columns, a statement, reads by its cells as a multi-header does;
        # so do lines under section lines: "rural areas in Riverside" is the line in that section,
        # and years down the rows where the question sets two columns against each other: "net
        # debt ÷ EBITDA in FY2023"; and a table with total rows that say no "total", which only
        # the view marks: a count or a ranking must pass over them; and a line set against its
        # budget: the actual and the budget, two cells of its row)
        order = ("cells", "blocks", "formula", "sql")
        if plan is not None and plan.sql_only and plan.confidence >= 0.7:
            order = ("cells", "blocks", "sql", "formula")  # (a reading only the query expresses)
    elif (
        plan is not None
        and (plan.kind in SQL_FIRST or (view is not None and view.joined) or plan.sql_only)
        and plan.confidence >= 0.7
    ):
        order = ("sql", "formula", "blocks", "cells")
    elif plan is not None and plan.kind == "lookup":
        order = ("formula", "blocks", "sql", "cells")  # the cell itself is better evidence than its column
    else:
        order = ("formula", "sql", "blocks", "cells")
    expected = expected_type(q)
    weak: list[QAAnswer] = []
    tried: list[str] = []
    kind: str | None = None
    held: QAAnswer | None = None
    queried: QAAnswer | None = None  # the planner's query's answer, once run
    for route in order:
        if route == "cells":
            ans, kind = by_cells(workbook, best, q)
            if kind is None:
                continue  # no plan: nothing to report
            if kind == "unclear":
                ans.structure = structure
                return ans
            if ans.status == "answered" and kind == "lookup":
                cell = by_blocks(workbook, best, q, model, stemmed=statement)  # the cell, by its address
                if cell.status == "answered" and same_value(cell.value, ans.value):
                    cell.formula = cell.formula or ans.formula  # (the lookup's formula where it has none)
                    cell.confidence = max(cell.confidence, ans.confidence)  # (two routes agree: no less sure)
                    ans = cell
        elif route == "blocks":
            ans = by_blocks(workbook, best, q, model, stemmed=statement)
        elif route == "formula":
            ans = by_formula(workbook, best, q, model)
            if (
                ans.status == "answered"
                and plan is not None
                and structure < BLOCKS_AT
                and plan.confidence >= CONFIDENT
                and not (view is not None and view.joined)
            ):
                queried = by_query(best, q, plan, view)
                ans = _or_query(rel, workbook, q, ans, queried, plan, expected, view)
        else:
            if plan is None and structure >= BLOCKS_AT:
                plan, view = plan_query(best, q)
            ans = queried if queried is not None else by_query(best, q, plan, view)
            if (
                ans.status == "answered"
                and ans.query
                and ans.formula is None  # (set where the query's answer stood for the formula tier's)
                and not (view is not None and view.joined)
            ):
                # the query's result, as a formula the engine checks gives the same (none: SQL kept)
                ans.formula = verified_formula(rel, workbook, ans.query, ans.value, rows=view_rows(view))
        ans.structure = structure
        if ans.status == "answered" and not _fits(ans, None if kind == "top-in-group" else expected, q):
            # (a number for a yes/no question is no answer, however many routes compute it)
            tried.append(f"{route}: a {ans.type} answer where the question asks for a {expected} one")
            continue
        if ans.status == "answered" and ans.confidence >= CONFIDENT:
            # (the cells plan reads the header named, whatever column another word touches)
            aside = _set_aside(rel, q, ans, structure) if route != "cells" else None
            if aside is not None:
                # ("what tips went with the 4 highest bills?": bills are no tips) a later route's
                # answer goes first; else this one
                held = held or ans
                tried.append(f"{route}: {aside}")
                continue
            return ans
        if ans.status == "answered":
            weak.append(ans)
            tried.append(f"{route}: confidence {ans.confidence:.2f}")
        else:
            tried.append(f"{route}: {ans.reason}")
    if held is not None:
        # (a less sure answer read from the column the question's noun names goes before a sure
        # one from another column: "the biggest battery Fenwick Solar has fitted" is a capacity)
        asked = [a for a in weak if a.confidence >= _ASKED_AT and _set_aside(rel, q, a, structure) is None]
        return _merge(asked) or (asked[0] if asked else held)
    merged = _merge(weak)
    if merged is not None:
        return merged
    return QAAnswer(
        q,
        "abstained",
        reason="no route answered with confidence (" + "; ".join(tried) + ")",
        table=best.ref,
        structure=structure,
    )


#: How sure a route's answer from the column the question names must be to go before a surer answer
#: from another column.
_ASKED_AT = 0.6


def _set_aside(rel: Relation, q: str, ans: QAAnswer, structure: float) -> str | None:
    """Why a confident answer waits for a later route's (None: it does not): its values are none of
    the column the question's noun names, or it ranks a flat table's rows by their ids."""
    if structure >= BLOCKS_AT:
        return None
    if not from_asked(rel, q, ans.value):
        return "no value of the column the question names"
    if ranks_by_id(rel, q, ans):
        return "it orders or compares the rows by a column that only numbers them"
    return None


def _or_query(
    rel: Relation,
    workbook: Workbook,
    q: str,
    ans: QAAnswer,
    other: QAAnswer,
    plan: Plan,
    expected: str | None,
    view: Any = None,
) -> QAAnswer:
    """The formula tier's answer ``ans``, or the planner's query's ``other`` where the two disagree
    and the query reads every column the formula reads and more that the question names (the
    plan's ``ranked``: the column its superlative means; :mod:`gridsight.qa._wider`); or where the
    query ranks groups by a figure over their rows that the formula never computes ("the 4 schools
    with the highest average math score": one school's rows are many)."""
    # (a list asked for, one figure formulated and several rows queried: the formula read one row)
    listed = (
        (expected == "list" or orders_all(q))  # ("give the case IDs ..., lowest first": every one)
        and not isinstance(ans.value, list)
        and isinstance(other.value, list)
        and len(other.value) > 1
    )
    # (groups ranked by a figure over their rows that the formula never computes)
    grouped = (
        plan.kind == "group"
        and re.search(r"GROUP BY .* ORDER BY (?:AVG|SUM|MEDIAN)\(", plan.sql) is not None
        and not re.search(r"\b(?:AVERAGE|SUM|COUNT|MEDIAN|GROUPBY|PIVOTBY)[A-Z]*\(", ans.formula or "")
    )
    # (two lists of the same items in another order disagree: "lowest first" is an order)
    agree = same_value(other.value, ans.value) and (
        not isinstance(other.value, list)
        or all(
            same_value(x, y) for x, y in zip(answer_items(other.value), answer_items(ans.value), strict=False)
        )
    )
    if (
        other.status != "answered"
        or agree
        or not _fits(other, expected, q)  # (a name for a yes/no question answers nothing)
        or not (listed or grouped or reads_more(rel, q, ans, other, plan.ranked))
    ):
        return ans
    if other.query:
        other.formula = verified_formula(rel, workbook, other.query, other.value, rows=view_rows(view))
    return other


def _vote(workbook: Workbook, best: Candidate, q: str, rules: QAAnswer, model: Any, samples: int) -> QAAnswer:
    """The model's queries and the routes' answer as candidates; the answer most of them give."""
    rel = relation_for(best)
    if not rel.rows or not rel.columns:
        return rules
    attempts = model_attempts(rel, q, model, samples=samples)
    planned = cell_plan(rel, q, expected_type(q))
    if planned is not None and planned.sql:
        attempts.append(run_attempt(rel, "cells", planned.sql, planned.expected(expected_type(q))))
    if rules.status == "answered":
        fits = _fits(rules, expected_type(q), q) and rules.confidence >= CONFIDENT
        why = None if fits else "the routes' answer is unsure or of the wrong type"
        attempts.append(
            Attempt("rules", rules.query or rules.formula, rules.value, why, confidence=rules.confidence)
        )
    else:
        attempts.append(Attempt("rules", error=rules.reason or "the routes abstained"))
    headers = (rules.structure or 0.0) >= BLOCKS_AT
    result = vote(attempts, TIE_ORDER_HEADERS if headers else TIE_ORDER_FLAT)
    if result is None and headers and rules.status != "answered":
        # no query answered: the header-path route's tied cells, the model choosing among them only
        # ("the first half" over H1 / H2), as its module says
        chosen = by_blocks(workbook, best, q, model)
        if chosen.status == "answered":
            chosen.structure = rules.structure
            rules = chosen
            attempts[-1] = Attempt("rules", chosen.formula, chosen.value, None, confidence=chosen.confidence)
            result = vote(attempts, TIE_ORDER_HEADERS)
    record = [a.to_dict() for a in attempts]
    if result is None:
        reasons = "; ".join(f"{a.source}: {a.error}" for a in attempts)
        out = QAAnswer(q, "abstained", reason=f"no candidate gave an answer ({reasons})", table=best.ref)
        out.candidates, out.structure = record, rules.structure
        return out
    win = result.winner
    if win.source == "rules" or any(a.source == "rules" for a in result.agreeing):
        out = rules  # the routes' own derivation where they agree: a formula over the very cells
    else:
        out = _from_query(best, rel, q, win)
        out.structure = rules.structure
        out.route = "cells" if win.source == "cells" else out.route
        if win.sql is not None:
            out.formula = verified_formula(rel, workbook, win.sql, win.value)
            if out.formula is None:
                out.explanation += " No Excel formula gives the same result; the query is kept."
    names = ", ".join(a.source for a in result.agreeing)
    out.explanation += f" ({len(result.agreeing)} of {result.voters} candidates agree: {names})"
    out.agreement = round(result.agreement, 4)
    out.candidates = record
    if out.formula is None and rules.status == "answered" and same_value(rules.value, win.value):
        out.formula = rules.formula
    return out


def by_cells(workbook: Workbook, best: Candidate, q: str) -> tuple[QAAnswer, str | None]:
    """The cells route: the question's cells and operation over the table's header paths
    (:mod:`gridsight.qa._cells`), run as one query on the relational view; and the plan's kind
    (None: no plan)."""
    rel = relation_for(best)
    planned = cell_plan(rel, q, expected_type(q)) if rel.rows else None
    if planned is None:
        return QAAnswer(q, "abstained", reason="no cells of the table fit the question", route="cells"), None
    if not planned.sql:  # (the question says which cells, but not clearly enough: no route guesses)
        return QAAnswer(q, "abstained", reason=planned.why, route="cells", table=best.ref), planned.kind
    if twice := cells_read_twice(rel, planned.sql):
        why = f"the cells' query reads a cell that {twice} rows of the table fit alike; say which"
        return QAAnswer(q, "abstained", reason=why, route="cells", table=best.ref), planned.kind
    run = run_attempt(rel, "cells", planned.sql, planned.expected(expected_type(q)))
    if not run.ok and planned.kind == "lookup" and _nil_cell(rel, planned.sql):
        # ("bank overdraft at Dec-24" where the statement shows "-": nil, that is 0)
        run = dataclasses.replace(run, value=0, error=None)
    if not run.ok:
        return QAAnswer(q, "abstained", reason=f"the cells' query: {run.error}", route="cells"), planned.kind
    ans = _from_query(best, rel, q, run)
    ans.route, ans.confidence = "cells", CELLS_CONFIDENCE
    if planned.kind in _UNITLESS:
        ans.unit = None  # a share, a ratio or a growth rate is no amount in the table's unit
    # (a lookup's formula too: the header-path route cites the same cell by its address where it
    # finds it, and where it does not, the lookup is the formula)
    ans.formula = verified_formula(rel, workbook, planned.sql, run.value, planned.formula)
    # a row label is the answer without the footnote mark or status letter it carries (``2023p`` is
    # the year 2023, provisional; ``Scotland (1)`` is Scotland), each label of a list too
    if isinstance(run.value, str) and (bare := _bare_label(run.value)) != run.value:
        ans.value, ans.display = bare, bare
        ans.explanation += f" The label reads {run.value!r}; its mark is left out."
    if isinstance(run.value, list) and all(isinstance(v, str) for v in run.value):
        labels = [_bare_label(v) for v in run.value]
        if labels != run.value:
            ans.value, ans.display = labels, display_of(labels)
    return ans, planned.kind


#: A lookup of one column's cell: ``SELECT "col" FROM data WHERE ...``.
_LOOKUP = re.compile(r'^SELECT ("(?:[^"]|"")+") FROM data( WHERE .+)$', re.DOTALL)


def _nil_cell(rel: Relation, sql: str) -> bool:
    """Whether a lookup of one cell reads a cell written as a dash (nil) among figures."""
    from gridsight.qa._relational import POSITION
    from gridsight.qa._sql import QueryRefused, run_query

    m = _LOOKUP.match(sql)
    if m is None or not any(c.name == POSITION for c in rel.columns):
        return False
    try:
        rows, _ = run_query(f'SELECT "{POSITION}" FROM data{m.group(2)}', rel.view)
    except QueryRefused:
        return False
    if len(rows) != 1 or not isinstance(rows[0][0], int):
        return False
    data = rel.column(m.group(1)[1:-1].replace('""', '"')).data
    raw = rel.sheet.value(rel.rows[rows[0][0] - 1], data.left)
    return isinstance(raw, str) and NIL.fullmatch(raw) is not None


def _bare_label(label: str) -> str:
    """A label without its footnote mark or status letter (the label itself when nothing is left)."""
    return without_marks(label).strip() or label


def _from_query(best: Candidate, rel: Any, q: str, win: Attempt) -> QAAnswer:
    """An answer from a winning query: its value, the cells of every column it read, the unit."""
    from gridsight.qa._answer import value_type

    evidence: list[dict[str, str]] = []
    for name in win.read or [c.name for c in rel.columns[:1]]:
        data = rel.column(name).data  # (a column of another sheet's period cites that sheet)
        ev = {"sheet": data.sheet or best.sheet.name, "range": data.with_sheet(None).ref()}
        if ev not in evidence:
            evidence.append(ev)
    units = {rel.column(n).unit for n in win.read if rel.column(n).kind == "number"}
    amount = isinstance(win.value, int | float) and not isinstance(win.value, bool)  # (a yes/no has no unit)
    unit = next(iter(units)) if len(units) == 1 and amount else None
    shown = display_of(win.value)
    return QAAnswer(
        q,
        "answered",
        win.value,
        shown,
        value_type(win.value),
        None,
        win.sql,
        evidence,
        "sql",
        unit,
        f"The query {win.sql} over {rel.ref} gives {shown}.",
        None,
        0.8,
        best.ref,
    )


def answer_over_join(q: str, tables: list[Candidate], across: Any = None) -> QAAnswer | None:
    """The answer over two of ``tables`` joined (:mod:`gridsight.qa._join`), when the question names
    columns of both, the query reads both, and the answer is confident and of the asked type; or None.
    ``across`` labels the tables of other workbooks (a folder library)."""
    flat = [c for c in tables if structure_score(c.table, c.sheet) < BLOCKS_AT]
    for left in flat:
        joined = plan_over_join(left, q, flat, across)
        if joined is None:
            continue
        plan, view, join = joined
        if not set(plan.columns) & {c.name for c in join.left_table.columns}:
            continue  # the query must read both tables, or the tie is not about a join
        ans = by_query(left, q, plan, view)
        if ans.status == "answered" and ans.confidence >= CONFIDENT and _fits(ans, expected_type(q), q):
            ans.structure = structure_score(left.table, left.sheet)
            return ans
    return None


def _merge(weak: list[QAAnswer]) -> QAAnswer | None:
    """Two low-confidence routes that computed the same value: one answer, with both derivations."""
    for i, a in enumerate(weak):
        for b in weak[i + 1 :]:
            if a.type == b.type and same_value(a.value, b.value):
                a.confidence = round(min(0.95, max(a.confidence, b.confidence) + AGREE_BONUS), 2)
                if a.confidence < CONFIDENT:
                    continue
                a.formula = a.formula or b.formula
                a.query = a.query or b.query
                a.evidence = [*a.evidence, *(e for e in b.evidence if e not in a.evidence)]
                a.explanation += f" The {b.route} route computed the same."
                return a
    return None


def evidence_valid(answer: QAAnswer, workbook: Workbook) -> bool:
    """Every evidence range names a real sheet and lies inside the sheet's used range."""
    from gridsight.errors import GridSightError

    for ev in answer.evidence:
        try:
            sh = workbook.sheet(ev["sheet"])
            rng = Range.parse(ev["range"])
        except (GridSightError, KeyError, ValueError):
            return False
        used = sh.used_range
        inside = used.with_sheet(None).intersect(rng.with_sheet(None)) if used is not None else None
        if inside is None or inside.ref() != rng.with_sheet(None).ref():
            return False
    return True

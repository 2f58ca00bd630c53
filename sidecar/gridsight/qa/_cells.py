"""Questions about the cells of a table with header paths: a small typed plan compiled to one SELECT.

A statistics office's table names every number twice: by its row (a label, perhaps under a section)
and by its column's header path (``Quebec › 2016 › number of farms``). A question picks cells by naming
parts of both, then asks one of a few things about them: the cell itself; the change, difference,
ratio or share between two; their sum; which of two is larger; which row, or which header of a
group, holds the largest; an average or count over the rows. This module reads which cells (the
question's words against the view's text values and header parts, misspellings included) and which
operation (language words -- change, share, more ... than, which ... most -- never a dataset's words),
and compiles the plan to a query over the relational view, so the guard runs it, the vote counts it,
and the evidence names its columns. Nothing is planned when the cells or the operation are unclear.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from itertools import pairwise

from gridsight.qa._answer import asks_label
from gridsight.qa._classes import ADJUSTING, RESIDUAL, RowClass, asked_class, lines_outside
from gridsight.qa._definition import Definition, Equality, Expr, Line, definition, divides, equality, lines_of
from gridsight.qa._entities import COMBINED, entities_named, entity_columns, own_part, peers
from gridsight.qa._glossary import in_own_terms
from gridsight.qa._groups import rounding_step
from gridsight.qa._headers import (
    CODE_MONTHS,
    PATH_SEP,
    YEARS,
    date_alone,
    dates_written,
    days_at,
    ends_at,
    month_as_day,
    month_headed,
    month_spelt,
    numeric_month,
    own_years,
    parts,
    quarters_closed,
    unit_part,
    year_of,
)
from gridsight.qa._left_out import LeftOut, combining_left_out, left_out
from gridsight.qa._lines import (
    QUOTE,
    closing_total,
    heading_line,
    named_part,
    of_which,
    part_words,
    pooled_sections,
    quoted_labels,
    runs_of,
    said_words,
    section_named,
    sections_of,
    sections_per_mention,
    totals_named,
    unnamed_total,
    words_said,
)
from gridsight.qa._marks import marked_plan
from gridsight.qa._members import LIST_PARTS, listed_members
from gridsight.qa._movement import balance_rows, moved
from gridsight.qa._named_lines import (
    Reading,
    amounts,
    bracketed,
    compiled,
    excel,
    figures,
    identity,
    line_cells,
    sized,
    unbracketed,
)
from gridsight.qa._periods import CLOSING_WORDS, OPENING_WORDS, SERIES_SPAN, opening_and_closing
from gridsight.qa._relational import POSITION, SECTION, TOTAL, YEAR, Relation, RelColumn, is_long
from gridsight.qa._row_names import (
    DESIGNATOR,
    bound_rows,
    dated_rows,
    designated,
    line_in_section,
    outside_sections,
    period_ends,
    section_meant,
    written_on,
    year_end_at,
)
from gridsight.qa._scales import UNIT_AFTER_FIGURE, on_one_scale
from gridsight.qa._sql import literal, quote
from gridsight.qa._sqlgen import (
    COMMON,
    initialisms,
    match_score,
    meant_by_part,
    named_values,
    near_word,
    question_words,
    spelt_runs,
    tokens,
)
from gridsight.text import (
    ASCENDING,
    AVERAGE_WORDS,
    CHANGE_WORDS,
    COMPARISON_OPS,
    DESCENDING,
    DIVIDES,
    FALL_WORDS,
    LESS_WORDS,
    MONTHS,
    MORE_WORDS,
    NUMBER_WORDS,
    OPERATION_WORDS,
    PERIOD_CLOSERS,
    PERIOD_NOUNS,
    PLAN_AS_BASE,
    PLANNED,
    RATIO_WORDS,
    RISE_WORDS,
    SET_AGAINST,
    STOP_WORDS,
    SUM_WORDS,
    comparison,
    comparisons_spelt,
    month_of,
    ordinal_place,
    parts_spelt,
    periods_spelt,
    quarter_ended,
    same,
    singular,
    stem,
    superlative,
    without_marks,
    without_outline,
    words,
)

#: A number as a question or a header writes it (``2021``, ``8.5``).
_NUMBERS = re.compile(r"\d+(?:\.\d+)?")
_YEAR = re.compile(r"(1[89]|20)\d\d")
#: Values read per column when looking for the numbers a table holds.
SCAN = 20_000
#: Values named in one column at most (more is a list, not a comparison of cells).
MAX_NAMED = 4
#: A column whose value is at least this share of the sum of its siblings' in every row is their
#: total (``Canada`` beside its provinces), left out of "which of them" questions.
TOTAL_SHARE = 0.999
#: Questions that ask for a name (a row's label or a header), not a figure.
_WHICH = re.compile(
    r"^\s*((in|for|during|at|on) )?"
    r"(which|who|whom|whose|what\s+(?!(?:total|value|amount|figure|balance|number|sum|level)\b)\w+\s+"
    r"(had|has|have|was|were|is|are|did|does))\b",
    re.I,
)  # ("what total is shown ...", "what figure is reported ...": a figure, not a name)
#: Words that say a figure is a percentage or a rate ("per share" is no share: a figure per share).
_PERCENT = re.compile(r"\b(percent(age)?s?|per cent|rates?|(?<!per )shares?|proportions?)\b|%", re.I)


def _rate_words(part: str) -> list[str]:
    """The words of a header part of percentages besides the words that say so (``Unemployment
    rate (%)``: "unemployment"), none where those are all (``Per cent``)."""
    rest = _PERCENT.sub(" ", part)
    return part_words(rest) if re.search(r"[^\W\d_]", rest) else []


#: A share of a whole: "what share / fraction / percentage of ...".
#: ("the percentage of load factor" names a figure that is a percentage: no share is computed).
#: "A as a % of B", "A as a percentage of B": the first figure named over the second, in that order
#: (cash from operations may be twice the profit it is set against).
_AS_PART_OF = re.compile(r"\bas\s+an?\s+(?:%|percent(?:age)?|share|proportion|fraction)\s+of\b", re.I)
_SHARE = re.compile(
    r"(?<!\bthe )(?<!\bper )(?:\b(share|fraction|proportion|portion|percentage|percent)|%)\s+of\b"
    r"|\b(?:share|proportion)\s+of\b[^?.]{1,80}?\b(?:made\s+up|accounted\s+for|represented|taken\s+up)\s+by\b"
    r"|\bthe\s+(?:share|proportion)\s+of\b(?=[^?.]{1,80}?\s+in\s)"  # ("the share of A in B")
    r"|\bhow\s+much\s+of\b(?=[^?.]{1,80}?\b(?:financed|funded|made\s+up|accounted\s+for|covered)\s+by\b)",
    re.I,
)
#: "what share of total interest income came from loans": a part of a whole, the part named in part.
_SHARE_FROM = re.compile(
    r"\b(?:share|proportion|percentage|fraction|portion)\s+of\b[^?]{1,80}?\b(?:came|come|comes|coming|was|were)\s+from\b",
    re.I,
)
#: A share whose part and whole are two lines, the part said after a verb ("what percentage of net
#: cash from operating activities was paid out as dividends") or before "as a percentage of".
_SHARE_OF_PART = re.compile(
    r"\b(?:share|proportion|percentage|fraction|portion)\s+of\b[^?]{1,80}?\b(?:was|were|is|are)\s+"
    r"(?:[^\W\d_]+\s+){0,2}(?:as|on|by|to|into|at|in|for)\b|\bas\s+a\s+(?:share|proportion|percentage|fraction)\s+of\b",
    re.I,
)
#: "the ratio of A to B": two lines, each named in full or in part.
_RATIO_OF = re.compile(r"\bratio\s+of\s+\S.*?\s+to\s+\S", re.IGNORECASE)


def _summed_group(question: str, labels: list[str]) -> list[str]:
    """``labels`` in the order a sum the question writes out in brackets names them, where that sum
    names each of them and nothing else ("(non-current liabilities plus current liabilities)"); else
    none."""
    for m in re.finditer(r"\(([^()]+\bplus\b[^()]+)\)", question, re.IGNORECASE):
        pieces = re.split(r"\s+plus\s+", m.group(1), flags=re.IGNORECASE)
        named = []
        for piece in pieces:
            said = question_words(piece)
            fits = [
                v for v in labels if all(any(near_word(w, q) for q in said) for w in set(tokens(v)) - COMMON)
            ]
            most = max((len(set(tokens(v)) - COMMON) for v in fits), default=0)
            fits = [
                v for v in fits if len(set(tokens(v)) - COMMON) == most
            ]  # ("non-current ...": not "current ...")
            if len(fits) != 1 or fits[0] in named:
                break
            named.append(fits[0])
        if len(named) == len(pieces) and set(named) == set(labels):
            return named
    return []


#: The ratio of a sum written out in brackets to a line: "ratio of (A plus B) to C".
_BRACKETED_RATIO = re.compile(r"\bratio\s+of\s+(?P<a>\([^()]+\))\s+to\s+", re.IGNORECASE)
#: "revenue per employee": one line over another (not a unit's "per share", "per cent", "per year").
_PER = re.compile(
    r"[^\W\d_]\s+per\s+(?!(?:cent|share|shares|annum|year|month|day|hour|head|capita)\b)(?P<by>[^\W\d_]+)",
    re.IGNORECASE,
)


def _per_divides(rel: Relation, question: str) -> bool:
    """Whether the question divides one line by another with "per" ("revenue per employee"): the
    word after it names a line, and the table writes no measure per unit of its own beyond a share's
    -- no label nor header says "per" so (``Cost per available seat mile``, a ``Per gallon`` column:
    the question's "per" names one of those)."""
    m = _PER.search(question)
    key = rel.key
    if m is None or key is None:
        return False
    labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)]
    if any(
        _PER.search(v) or re.match(r"\s*per\b", v, re.I)
        for v in [*labels, *(p for c in rel.columns for p in parts(c.name))]
    ):
        return False
    by = m.group("by").casefold()
    for c in rel.columns:  # (a ``Cost/Gal`` column: "per gallon" names it)
        for unit in re.findall(r"/\s*([^\W\d_]{3,})", c.name):
            if by.startswith(unit.casefold()) or unit.casefold().startswith(by):
                return False
    return any(near_word(by, w) for v in labels for w in tokens(v))


#: Words for a difference without a direction (the size of the gap).
_DIFFERENCE = frozenset({"difference", "differ", "gap"})
#: Words that set one amount against another: "higher than", "compared with", "did A exceed B" (by
#: how much: the first named less the second).
_AGAINST = frozenset(
    {
        "than",
        "compared",
        "versus",
        "vs",
        "exceed",
        "exceeded",
        "exceeds",
        "surpass",
        "surpassed",
        "beat",
        "beaten",
    }
)
#: A change relative to where it started: "percentage change", "by what percent", "growth rate".
_RELATIVE = re.compile(
    r"\b(?:percent(?:age)?|growth|change)\s+(rate|change)\b|\bwhat (percent)|(%)"
    r"|\b(relative)\s+(?:change|growth|increase|decrease)\b"
    r"|\bpercent(?:age)?\s+(?:growth|increase|decrease|rise|fall|movement|decline|drop)\b"
    r"|\bby\s+how\s+(?:many|much)\s+(?:per\s?cent|percent)\b",
    re.I,
)


@dataclass(frozen=True)
class CellPlan:
    """One query over the view, what it computes, and the answer type it gives."""

    sql: str
    kind: str  # lookup, change, difference, ratio, share, sum, compare, test, top-row, top-header...
    result: str  # "number", "text", "boolean" or "list"
    why: str = ""  # kind "unclear" (no query): what the question must say
    formula: str | None = None  # the same over the cells themselves ("=(D16+D23)-D51"), if written

    def expected(self, asked: str | None) -> str | None:
        """The answer type to read the result as: a list of rows where the plan gives one."""
        if self.kind == "top-in-group":
            return None  # ("what was the biggest current asset": a line of the group, whatever it opens with)
        return "list" if self.result == "list" else asked


@dataclass(frozen=True)
class _Pick:
    """One cell dimension that varies: the conditions or columns of each named member, in the
    question's order, and what each is called."""

    labels: list[str]
    at: list[int]  # where the question names each member


def _position(question: str, text: str, shared: frozenset[str] = frozenset()) -> int:
    """Where the question first names ``text`` (its first word found, near spellings included;
    periods as headers write them: "first quarter" is where ``Q1`` is named). Words in ``shared``
    (that every compared label holds: the day of ``31 Dec 2023`` and ``31 Dec 2024``) place nothing."""
    low = periods_spelt(question).casefold()
    whole = re.search(rf"(?<!\w){re.escape(text.casefold())}(?!\w)", low)  # ("men" is not in "women")
    if whole is not None:
        return whole.start()
    day = _day_at(question, text)
    if day is not None:
        return day
    month = _month_at(low, text)
    if month is not None:
        return month
    opened = year_end_at(question, text)
    if opened is not None:
        return opened
    every = [w for w in tokens(text) if w not in shared] or tokens(text)
    own = [w for w in every if w not in COMMON] or every  # ("FY2023": where 2023 is)
    said = list(re.finditer(r"[^\W_]+", low))
    label = tokens(text)
    for w in own:
        hits = [i for i, m in enumerate(said) if near_word(w, m.group(0))]
        if hits:
            # where most of the label's words stand together ("total equity", not the "equity" of
            # "debt-to-equity" before it); ties: the first
            near = [
                sum(any(near_word(x, m.group(0)) for m in said[max(i - 2, 0) : i + 3]) for x in label)
                for i in hits
            ]
            return said[hits[near.index(max(near))]].start()
    return len(low)


def _month_at(low: str, label: str) -> int | None:
    """Where ``low`` (a question in lower case) names the month a label writes in figures (``2025-03``
    is where "march" or "mar" is), or None."""
    figures = numeric_month(label)
    names = [name for name, n in MONTHS.items() if figures is not None and n == figures[1]]
    found = re.search(rf"\b(?:{'|'.join(names)})\b", low) if names else None
    return found.start() if found else None


def _day_at(question: str, label: str) -> int | None:
    """Where the question writes the one day ``label`` writes, in any form ("Jun-30-2025" for ``30
    June 2025``), or names the quarter that day closes with its year ("the end of Q1 2025" for ``Mar
    31, 2025``); None where it does neither."""
    mine = dates_written(label)
    if len(mine) != 1:
        return None
    low = periods_spelt(question).casefold()
    hits = [at for at, day in days_at(low) if day in mine]
    closed = {(q, y) for q in quarters_closed(label) for _, _, y in mine}
    for m in _PAIRED.finditer(low):
        if (m.group(1) or m.group(4), m.group(2) or m.group(3)) in closed:
            hits.append(m.start())
    return min(hits) if hits else None


def _named_at(question: str, labels: list[str], shared: frozenset[str] = frozenset()) -> list[int]:
    """Where the question names each label: by its words (:func:`_position`), else by a word MiniLM
    maps to it among the labels ("women" for ``Females`` beside ``Males``)."""
    from gridsight.text import meaning_map

    low = periods_spelt(question).casefold()
    at = [_position(question, label, shared) for label in labels]
    if all(a < len(low) for a in at):
        return at
    said = list(re.finditer(r"[^\W_]+", low))
    mapped = meaning_map([m.group(0) for m in said], labels)
    for i, a in enumerate(at):
        hits = [m.start() for m in said if mapped.get(m.group(0)) == i]
        at[i] = hits[0] if a == len(low) and hits else a
    return at


#: The one word a header part that writes a day stands for, where the question writes that day.
_DAY = "<day>"


def _columns(rel: Relation, question: str) -> list[RelColumn]:
    """The number columns whose header words the question names most (ties: the fewest header words
    left unnamed), as one group, with the siblings the question names beside them (see
    :func:`_siblings`). A part made only of common words (``Total``) is named by those words."""
    qw = question_words(question)
    # ("the third quarter of 2025": Q3, which a quarter's column is named by)
    codes_said = {q.casefold() for q in re.findall(r"\b[qh][1-4]\b", periods_spelt(question), re.I)}
    qw += sorted(codes_said - set(qw))
    every = set(tokens(question))
    if codes_said and (
        month_cols := [c for c in rel.columns if c.role == "data" and _month_of(c) is not None]
    ):
        # ("total technology costs in Q1": the quarter's months added up, not ``FY25 total``; and
        # where the months write no year, "Q2 2025" names them by the quarter alone)
        qw = [q for q in qw if q not in SUM_WORDS]
        every -= SUM_WORDS
        if all(year_of(c.name) is None for c in month_cols):
            qw = [q for q in qw if not YEARS.fullmatch(q)]
            every = {w for w in every if not YEARS.fullmatch(w)}
    fiscal_start = _fiscal_start(rel, question) if codes_said else 1
    share = _asks_percent(rel, question)
    ops = ops_as_names(rel, question)
    best: list[RelColumn] = []
    top = (1, 0, 0, 0, -(10**9))
    # (the words after "against" name what a figure is set against, not the figure: "the EBITDA
    # variance against budget" is ``Variance``, not ``Budget``)
    base = {w for m in SET_AGAINST.finditer(question) for w in question_words(m.group(1))}
    pairs = _period_pairs(question)
    said_years = set(YEARS.findall(question)) | _fiscal_ends(question)
    scored_cols: list[tuple[tuple[int, int, int, int, int], RelColumn]] = []
    figures = _figures(rel)
    if (not share and _PERCENT_WORD.search(question) is None) or len(pairs) >= 2:
        # (an amount asked, or a change between two periods the question names: no ``% change › H1
        # on H1`` column beside the periods is named by them)
        amounts_asked = [c for c in figures if not _PERCENT.search(c.name)]
        figures = amounts_asked or figures
    if not PLANNED.search(question):
        # (a budget, plan or forecast column is read where the question names one: "net assets in
        # 2026" is the actual figure, not ``Budget › 31 Mar 2026`` beside it)
        figures = [c for c in figures if not PLANNED.search(c.name)] or figures
    written = dates_written(periods_spelt(question))
    if not written and not _OPENING_SAID.search(question):
        # (a third balance sheet at 1 January, the restated opening one, is read where the question
        # says so: "2024" beside ``31 Dec 2024`` is the year-end)
        figures = [c for c in figures if not _opening_of_a_year(c, figures)]
    quarter_said = re.search(r"\bq[1-4]\b", periods_spelt(question), re.IGNORECASE) is not None
    dated = {c.name: dates_written(c.name) for c in figures}
    months_said = {(month, year) for _, month, year in _month_years(question)}

    def day_said(part: str) -> bool:  # (the day written, or the quarter it closes: "the end of Q1 2025")
        days = dates_written(part)
        return bool(days & written) or any((q, y) in pairs for q in quarters_closed(part) for _, _, y in days)

    if written and any(d & written for d in dated.values()):
        # (a day written whole names its column: "31 March 2024" is not ``Current fiscal year › As of
        # March 31, 2025``, whatever "current" the question says)
        figures = [c for c in figures if not dated[c.name] or any(day_said(p) for p in parts(c.name))]
    titled = _year_titled(rel) if said_years else None
    in_total = re.search(r"\b(?:in\s+total|overall)\b", question, re.IGNORECASE) is not None
    for c in figures:
        mine_pair = _column_pair(c.name)
        if pairs and mine_pair is not None and mine_pair not in pairs:
            continue  # ``2024 › Q4`` where the question pairs Q4 with 2023 and Q1 with 2024
        spanned = {y for p in parts(c.name) for y in own_years(p)}
        end = ends_at(c.name)
        ends_named = end is not None and (end[1], str(end[0])) in months_said
        if (
            len(spanned) > 1
            and said_years  # (none said: ``% change in rate › 2022 to 2023`` is "the % change in the rate")
            and not spanned <= said_years
            and not any(day_said(p) for p in parts(c.name))
            and not ends_named
        ):
            # ("the year to March 2024" is the column from April 2023 to March 31, 2024)
            # ``Change (%) 2022–2023`` is no column of "from 2021 to 2022" (``From April 1, 2024 to
            # March 31, 2025`` is one of "the year ended March 31, 2025": the day that closes it)
            continue
        # a part that says "per cent" is one word, named by any share word ("per man" names none)
        # (and its other words where the question says them: ``Unemployment rate (%)`` beside
        # ``Employment rate (%)``; unsaid, they leave nothing unnamed)
        mine = {
            w
            for p in parts(c.name)
            for w in (
                ["%", *(r for r in _rate_words(p) if any(near_word(r, q) for q in qw))]
                if _PERCENT.search(p)
                else part_words(p)
            )
        }
        mine |= {w for p in parts(c.name) for w in tokens(p) if w in ops}  # ``Q5 (highest)``
        mine |= _quarters_ended(c.name)
        if (
            titled is not None
            and titled in said_years
            and not spanned
            and not YEARS.search(c.name)
            and any(near_word(w, q) for w in mine for q in qw if not YEARS.fullmatch(q))
        ):
            # (``Restricted funds`` beside ``Total funds 2025`` under "for the year ended 31 March
            # 2025", where the question names it by a word of its own: the title's year, which the
            # column writes no other of; a ``Note`` column named by nothing is named by no year)
            mine.add(titled)
        if ends_named and end is not None:  # (the year a span starts in does not name it)
            mine = {w for w in mine if not (YEARS.fullmatch(w) and w != str(end[0]))}
        if codes_said:  # (``Jan to Mar``, ``Oct to Dec [p]``: a run of months that is a quarter)
            mine |= {
                code.casefold()
                for p in parts(c.name)
                for code in re.findall(r"\b[QH][1-4]\b", periods_spelt(without_marks(p).strip()))
            } & codes_said
        if codes_said and (month := _month_of(c)) is not None:
            # (a month is in its quarter and its half: "Q2 2025" names April, May and June 2025; of a
            # financial year that opens in April, July, August and September)
            at = (month - fiscal_start) % 12
            mine |= {f"q{at // 3 + 1}", "h1" if at < 6 else "h2"} & codes_said
        # (``Nov-25`` is named by "November 2025"; the month's whole name leaves no word unnamed)
        monthly = [p for p in parts(c.name) if month_spelt(p)]
        spelt = {w for p in monthly for w in month_spelt(p) | set(tokens(p))}
        mine |= spelt
        days = {w for p in parts(c.name) if day_said(p) for w in tokens(p)}
        if days:  # (a day written whole, in whatever form, or by its quarter, is named whole: one word)
            mine = (mine - days) | {_DAY}
        elif written and _quarter_closed_on(c.name, written):
            mine |= {_DAY}  # (``Q4 2023`` is named by the day that closes it: "at 31 Dec 2023")
        elif quarter_said:  # ("at the end of Q3": ``30 September 2025``, the day that closes it)
            mine |= quarters_closed(c.name)
        covered = {q for q in qw if any(near_word(w, q) for w in mine)} | (mine & COMMON & every)
        # (a header of several words written whole counts each, an operation's word too: "the
        # average repurchase price" is ``Average Repurchase Price``)
        covered |= {
            w
            for p in parts(c.name)
            if len(tokens(p)) > 1 and not re.search(r"\d", p) and runs_of(question, p)
            for w in tokens(p)
            if w in OPERATION_WORDS
        }  # (only an operation's word, which names no header otherwise; no date or period)
        covered |= {_DAY} & mine
        covered |= {"%"} & mine if share else set()
        left = {
            w
            for w in mine - spelt - {_DAY} - _STATUS_WORDS
            if w not in COMMON and not (len(w) == 1 and w.isalpha()) and not any(near_word(w, q) for q in qw)
        }  # (a mark's letter, ``[p]``, leaves no word unnamed)
        left -= {"%"} if share else set()
        # ties: words named as written before near ones ("Plan" is one letter from "plant"), then
        # words of their own, not common ones, before others ("the total area ... in
        # Westreach": ``Westreach``, not ``Total``; not where "in total" asks the total), then the
        # fewest left unnamed ("Number", "Total": nothing left unnamed by them)
        score = (
            len(covered),
            len(covered & mine),
            0 if in_total else len(covered - COMMON),
            len(covered - base),
            -len(left),
        )
        scored_cols.append((score, c))
        if score > top:
            top, best = score, []
        if score == top:
            best.append(c)
    near = [c for sc, c in scored_cols if sc[:2] == top[:2]]
    if len(near) > len(best):
        # a part the question names by meaning ("men": ``Males``) before the one with fewest words
        # left unnamed (``Total``, whose word is a common one)
        meant = _by_meaning(near, qw)
        if len(meant) < len(near):
            best = meant
    if not best and cross_table(rel):
        # no header spelt: the part of the measure a word means ("men": ``Males``), when one is
        meant = _by_meaning(_figures(rel), qw)
        best = meant if len(meant) == 1 else best
    if len(best) > 1:  # ("total equity": ``Total equity``, not ``Total`` beside it, which it holds)
        best = [c for c in best if not any(_holds_more(d, c, every) for d in best)]
    if len(best) > 1:
        # "how many": the counts, not their percentages; "what share": the table's own shares
        asked = [c for c in best if _is_percent(c) == _asks_percent(rel, question)]
        best = asked or best
    # (each column one period the question names -- "from H1 2024 to H1 2025" over ``Six months
    # ended › 30 June 2024`` and ``... 2025`` -- all are asked)
    each_named = len({_named_pair(c, pairs) for c in best} - {None}) == len(best)
    if (
        len(best) > 1
        and not each_named
        and not (top[4] == 0 and len({c.name for c in best}) == len(best) and _dated(best))
    ):
        # (two dates each written whole, "30 June 2024 or 31 December 2024", are both asked)
        # (a part the question names by meaning, "men": ``Males``; else the breakdown's whole)
        meant = _by_meaning(best, qw)
        # (a rate's whole by its figures lying between, not where the parts are ranked: "for which
        # quintile was the share lowest")
        kind = _RANK_NOUN.search(question) if _asks_which(question) else None
        ranks_parts = kind is not None and any(
            near_word(kind.group(1).casefold(), w) for c in best for w in tokens(parts(c.name)[-1])
        )
        whole = (
            (_whole_of_each(rel, best, not ranks_parts) or _consolidated(best))
            if len(meant) == len(best)
            else []
        )
        best = _year_end(question, best) or whole or meant
    best = _group_of_years(rel, question, best)
    if len(best) == 1:
        operands = operands_named(rel, question)
        if operands:  # "dividend per share divided by basic EPS": one column each side
            return operands
    instead = _parts_meant(rel, question, best)
    if instead:  # "the usage rate for women to that for men": ``Female`` and ``Male``, not ``Total``
        return instead
    found = best + (_siblings(rel, question, best) or _other_years(rel, question, best))
    if not share and any(_is_percent(c) for c in found) and not all(_is_percent(c) for c in found):
        found = [c for c in found if not _is_percent(c)]  # (see ``amounts_asked`` above)
    if found and all(PLANNED.search(c.name) for c in found) and against_plan(rel, question):
        # ("by how much did operating profit beat budget": what came about, ``Actual``, against it)
        actual = [a for a in (_actual_of(rel, c) for c in found) if a is not None]
        found = actual[:1] + found
    plans = [c for c in found if PLANNED.search(c.name)]
    if len(plans) == 1 and len(found) > 2 and against_plan(rel, question):
        # ("did actual total assets come in below budget", Actual at two dates, Budget at one: the
        # actual figure at the budget's date)
        actual_one = _actual_of(rel, plans[0])
        found = [actual_one, plans[0]] if actual_one is not None else found
    offered = _offered_columns(rel, question)
    if len(offered) >= 2 and not set(offered) <= set(found):
        return offered  # ("which column (Actual 2025, Budget 2025 or Actual 2024)": across groups)
    return found


def _year_titled(rel: Relation) -> str | None:
    """The year of a table's title (the latest it writes: "for the year ended 31 March 2025") where
    columns beside those that write no year write it as their own latest (``Total funds 2025``,
    ``Total funds 2024``): the period of the columns that write none. None otherwise."""

    def compute() -> str | None:
        said = [int(y) for t in getattr(rel.table, "titles", ()) for y in YEARS.findall(t.text)]
        own = [int(y) for c in _figures(rel) for p in parts(c.name) for y in own_years(p)]
        return str(max(said)) if said and own and max(own) == max(said) else None

    return rel.memo("year titled", compute)


#: A calendar quarter's column: ``Q4 2023``, ``2023 Q4``.
_QUARTER_COLUMN = re.compile(r"^\s*(?:q([1-4])\s*'?((?:19|20)\d\d)|((?:19|20)\d\d)\s*q([1-4]))\s*$", re.I)
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _quarter_closed_on(name: str, written: AbstractSet[tuple[int, int, str]]) -> bool:
    """Whether a calendar quarter's column (its last part) closes on a day the question writes
    (day, month, year): ``Q3 2023`` on 30 September 2023."""
    m = _QUARTER_COLUMN.match(parts(name)[-1])
    if m is None:
        return False
    quarter, year = (int(m.group(1)), m.group(2)) if m.group(1) else (int(m.group(4)), m.group(3))
    month = 3 * quarter
    return any(
        str(y) == year and int(mo) == month and int(d) == _MONTH_DAYS[month - 1] for d, mo, y in written
    )


#: Words that give a column's standing, not what it holds: ``31 Dec 2024 (restated)`` is 2024's.
_STATUS_WORDS = frozenset({"restated", "revised", "provisional"})
#: Words that ask for an opening balance: "opening", "at the start of", "1 January".
_OPENING_SAID = re.compile(
    r"\b(?:open(?:ing)?|beginning|start|brought\s+forward|1(?:st)?\s+jan(?:uary)?)\b", re.I
)


def _opening_of_a_year(col: RelColumn, figures: list[RelColumn]) -> bool:
    """Whether ``col`` is dated 1 January of a year that another column closes on 31 December (``1 Jan
    2024 Restated`` beside ``31 Dec 2024 (restated)``): the opening balance sheet of a restatement
    (not a month's column dated its first day)."""
    end = ends_at(col.name)
    if end is None or (end[1], end[2]) != (1, 1):
        return False
    return any((e := ends_at(c.name)) is not None and e[0] == end[0] and e[1:] == (12, 31) for c in figures)


def _whole_among(rel: Relation, tied: list[RelColumn], between: bool = True) -> list[RelColumn]:
    """The one of three or more columns the question names alike whose figures add up the others'
    on nearly every row (``Persons › 2021`` beside ``Males › 2021`` and ``Females › 2021``): the
    breakdown's whole, read where the question names no part of it. Else none."""
    if len(tied) < 3:
        return []
    cols = [rel.values_of(c.name) or [] for c in tied]
    rows = [
        [float(v) for v in row]
        for row in zip(*cols, strict=True)
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in row)
    ]
    if len(rows) < 3:
        return []
    for i, c in enumerate(tied):
        fits = sum(
            abs(r[i] - (sum(r) - r[i])) <= max(0.051, 0.002 * abs(r[i])) for r in rows
        )  # (published figures rounded one place apart)
        if fits >= 0.9 * len(rows):
            return [c]
    # (a rate's or an average's whole -- ``All persons`` beside ``Men`` and ``Women`` -- is no sum:
    # the one column labelled as a whole whose figures lie between its parts' on nearly every row)
    labelled = [i for i, c in enumerate(tied) if _whole_label(parts(c.name)[-1])]
    if len(labelled) != 1 or not between:
        return []
    i = labelled[0]
    inside = sum(min(r[:i] + r[i + 1 :]) - 0.051 <= r[i] <= max(r[:i] + r[i + 1 :]) + 0.051 for r in rows)
    return [tied[i]] if inside >= 0.9 * len(rows) else []


def _whole_of_each(rel: Relation, tied: list[RelColumn], between: bool = True) -> list[RelColumn]:
    """The breakdown's whole (:func:`_whole_among`) under each header group the tied columns fall
    in (``2020 › All persons`` and ``2022 › All persons`` for "lower in 2020 or in 2022", no sex
    named); none unless every group has one."""
    whole = _whole_among(rel, tied, between)
    if whole:
        return whole
    for first in (False, True):  # (the breakdown under the period, ``2020 › Men``, or over it)
        groups: dict[tuple[str, ...], list[RelColumn]] = {}
        for c in tied:
            groups.setdefault(tuple(parts(c.name)[1:] if first else parts(c.name)[:-1]), []).append(c)
        out = [w for g in groups.values() for w in _whole_among(rel, g, between)]
        if len(groups) > 1 and len(out) == len(groups):
            return out
    return []


#: A header part naming the consolidated whole of a group of entities: ``Group``, ``Consolidated``.
_CONSOLIDATED = re.compile(r"^\s*(?:the\s+)?(?:group|consolidated)\s*$", re.IGNORECASE)


#: A whole year asked besides :data:`_WHOLE_YEAR`'s words: "total revenue for 2024", "in all".
_YEAR_AS_WHOLE = re.compile(r"\b(?:total|for\s+the\s+year|in\s+all)\b", re.IGNORECASE)
_QUARTER_PART = re.compile(r"^\s*Q[1-4]\s*$", re.IGNORECASE)


def _year_of_quarters(rel: Relation, question: str) -> CellPlan | None:
    """The sum of a year's four quarters where the years run down the rows and the four quarter
    columns (``Q1`` .. ``Q4``, no total beside them) across, and the question asks the whole year of
    one row it names ("total revenue for 2024", "full-year revenue in 2023")."""
    key = rel.key
    if key is None or not (_WHOLE_YEAR.search(question) or _YEAR_AS_WHOLE.search(question)):
        return None
    if not periods_down(rel):
        return None
    figures = _figures(rel)
    if len(figures) != 4 or not all(_QUARTER_PART.match(parts(c.name)[-1]) for c in figures):
        return None
    if _asks_which(question) or set(words(question)) & (
        AVERAGE_WORDS | CHANGE_WORDS | RISE_WORDS | FALL_WORDS
    ):
        return None
    labels = [str(v) for v in rel.distinct_values(key.name) if v is not None]
    asked = set(words(question))
    named = [v for v in labels if set(words(v)) & asked & {w for w in words(v) if YEARS.fullmatch(w)}]
    if len(named) != 1:
        return None
    cells = [_cell_in(rel, c.name, {key.name: named[0]}) for c in figures]
    return CellPlan("SELECT " + " + ".join(cells), "sum", "number")


#: A period written in a question: a year, "FY25", "Q3", "H2", a month.
_PERIOD_WRITTEN = re.compile(
    r"(?<!\d)(?:19|20)\d\d(?!\d)|\bFY\s*'?\d{2}\b|\b[QH][1-4]\b|\b[1-4]H\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
    r"oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)


def _latest_unnamed(rel: Relation) -> list[RelColumn]:
    """The column of the latest period, where every figure column of the table is one period and
    the latest is one column (a budget's aside; a group's consolidated figures before its parent's):
    what a question that names no period reads (a statement's current figures). Else none."""
    figures = [c for c in _figures(rel) if not PLANNED.search(c.name)]
    when = [ends_at(c.name) for c in figures]
    if len(figures) < 2 or None in when:
        return []
    latest = max(w for w in when if w is not None)
    at = [c for c, w in zip(figures, when, strict=True) if w == latest]
    return at if len(at) == 1 else _consolidated(at)


_PERIOD_ITEM = (
    r"(?:(?:\d{1,2}\s+[A-Za-z]{3,9}\.?\s+|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+|[QH][1-4]\s+)?"
    r"(?:FY\s*)?(?:19|20)\d\d(?:\s*[/-]\s*\d{2}(?:\d{2})?)?(?![\d/-]))"
)  # (a year, a split year, "31 December 2024", "June 30, 2025", "Q2 2024")
#: Periods listed one by one: "in each of 2020-21, 2021/22 and 2022/23", "for 2021, 2022 and 2023".
_PERIOD_LIST = re.compile(
    rf"\b(?:each\s+of|for|in)\s+(?:the\s+(?:years|periods)\s+)?(?P<list>{_PERIOD_ITEM}(?:\s*,\s*{_PERIOD_ITEM})*"
    rf"\s*,?\s*(?:and|&)\s+{_PERIOD_ITEM})",
    re.IGNORECASE,
)


#: Each of the periods listed, one figure each: "in each of", "in the order listed", "in that order",
#: "respectively", "oldest first".
_EACH_IN_ORDER = re.compile(
    r"\beach\s+of\b|\bin\s+(?:that|the|this)\s+order\b|\bin\s+the\s+order\s+(?:listed|given|written)\b"
    r"|\brespectively\b|\b(?:oldest|newest|latest|earliest|most\s+recent)\s+first\b",
    re.IGNORECASE,
)


def _each_period(rel: Relation, question: str) -> list[RelColumn]:
    """The column of each period a question lists one by one ("in each of 2020-21, 2021/22 and
    2022/23", "for 2021, 2022 and 2023"), in the order written: each read as if the question named
    it alone, and one column each (the whole of the parts it names with "combined": ``Persons``
    for "males and females combined"). None where the question sums, averages or compares them, or
    a period names no one column."""
    m = _PERIOD_LIST.search(question)
    if m is None or set(words(question)) & (AVERAGE_WORDS | CHANGE_WORDS | RISE_WORDS | FALL_WORDS):
        return []
    if re.search(r"\b(?:sum|add(?:ed|s)?|altogether)\b", question, re.IGNORECASE):
        return []  # ("add up X for 2017/18 and 2018/19": one figure; "in total" names a column)
    if comparison(question.casefold()) is not None or _asks_which(question):
        return []
    items = re.findall(_PERIOD_ITEM, m.group("list"), re.IGNORECASE)
    out: list[RelColumn] = []
    for item in items:
        alone = question[: m.start("list")] + item + question[m.end("list") :]
        found = _columns(rel, alone)
        if len(found) > 1 and _COMBINED.search(question):
            found = _sum_column(rel, found)
        if len(found) != 1 or found[0] in out:
            return []
        out.append(found[0])
    return out if len(out) >= 2 else []


#: Parts named together as one: "males and females combined", "both sexes", "all persons".
_COMBINED = re.compile(r"\b(?:combined|together|both)\b", re.IGNORECASE)


def _sum_column(rel: Relation, parts_named: list[RelColumn]) -> list[RelColumn]:
    """The one other figure column whose figures add up those of ``parts_named`` on nearly every row
    (``Persons › 2021`` for ``Males › 2021`` and ``Females › 2021``, :func:`_whole_among`); else none."""
    out = [c for c in _figures(rel) if c not in parts_named and _whole_among(rel, [*parts_named, c]) == [c]]
    return out if len(out) == 1 else []


def _grand_whole(rel: Relation) -> list[RelColumn]:
    """The one column of a two-level header that is the whole of both breakdowns (``Persons › All
    ages``: Males plus Females at all ages, and the sum of the persons' age bands), read where the
    question names no column ("how many deaths from respiratory diseases"). Else none."""

    def compute() -> list[RelColumn]:
        figures = [c for c in _figures(rel) if len(parts(c.name)) == 2]
        if len(figures) < 4 or len(figures) != len(_figures(rel)):
            return []
        found = []
        for c in figures:
            group, part = parts(c.name)
            across = [d for d in figures if parts(d.name)[1] == part]
            within = [d for d in figures if parts(d.name)[0] == group]
            if _whole_among(rel, across) == [c] and _whole_among(rel, within) == [c]:
                found.append(c)
        return found if len(found) == 1 else []

    return list(rel.memo("grand whole", compute))


def _consolidated(tied: list[RelColumn]) -> list[RelColumn]:
    """The one of the columns the question names alike whose header differs from the others' only
    in a part naming the consolidated whole (``Group › FY2025`` beside ``Parent › FY2025`` or
    ``Charity › 2025``): a group's statements lead with its consolidated figures, read where the
    question names no entity. Else none."""
    split = [parts(c.name) for c in tied]
    if len(tied) < 2 or len({len(p) for p in split}) != 1:
        return []
    differ = [i for i in range(len(split[0])) if len({p[i] for p in split}) > 1]
    if len(differ) != 1:
        return []
    whole = [c for c, p in zip(tied, split, strict=True) if _CONSOLIDATED.match(p[differ[0]])]
    return whole if len(whole) == 1 else []


#: A year that runs across two calendar years: "2020/21", "2020-21", "2020/2021".
_FISCAL_SPAN = re.compile(r"\b((?:19|20)\d\d)\s*[/-]\s*(\d{4}|\d{2})\b")


def _fiscal_ends(question: str) -> set[str]:
    """The years that close the two-year spans the question writes ("2020/21": 2021), where the
    second year follows the first."""
    out = set()
    for m in _FISCAL_SPAN.finditer(question):
        first, second = int(m.group(1)), m.group(2)
        end = int(second) if len(second) == 4 else first // 100 * 100 + int(second)
        if end == first + 1:
            out.add(str(end))
    return out


def _offered_columns(rel: Relation, question: str) -> list[RelColumn]:
    """The columns whose own header part, two words at least (``Budget 2025``, ``Actual 2024``), the
    question writes whole, in the order written, where it writes two or more such parts each naming
    one column: columns offered by name under different header groups (``Actual › Actual 2025``
    beside ``Unaudited › Budget 2025``). Else none."""
    low = question.casefold()
    at: dict[str, int] = {}
    cols: dict[str, list[RelColumn]] = {}
    for own, pattern, c in rel.memo("own parts", lambda: _own_part_patterns(rel)):
        m = pattern.search(low)
        if m is not None:
            at[own] = m.start()
            cols.setdefault(own, []).append(c)
    if len(at) < 2 or any(len(v) != 1 for v in cols.values()):
        return []
    return [cols[own][0] for own in sorted(at, key=lambda o: at[o])]


def _own_part_patterns(rel: Relation) -> list[tuple[str, re.Pattern[str], RelColumn]]:
    """Each figure column's own header part of two words or more, the pattern that finds it written
    whole in a casefolded question, and the column: a fact of the table, read for every question."""
    out = []
    for c in _figures(rel):
        own = without_marks(_own_parts(c)[-1]).strip()
        if len(own.split()) >= 2:
            out.append((own, re.compile(rf"(?<![\w-]){re.escape(own.casefold())}(?![\w-])"), c))
    return out


#: A month and a year written together: "March 2024", "Dec. 2025".
_MONTH_YEAR = re.compile(r"\b([a-z]{3,9})\.?\s+((?:19|20)\d\d)\b", re.IGNORECASE)


def _month_years(question: str) -> list[tuple[int, int, str]]:
    """Where the question writes a month with its year, and which: (start, month, year), in order."""
    return [
        (m.start(), MONTHS[m.group(1).casefold()], m.group(2))
        for m in _MONTH_YEAR.finditer(periods_spelt(question))
        if m.group(1).casefold() in MONTHS
    ]


def _ends_named(question: str, chosen: list[RelColumn]) -> bool:
    """Whether the question names each chosen column by the month and year its period ends ("from
    the year to March 2024 to the year to March 2025"), each a different one."""
    said = {(month, year) for _, month, year in _month_years(question)}
    ends = [ends_at(c.name) for c in chosen]
    keys = [(e[1], str(e[0])) for e in ends if e is not None]
    return len(chosen) >= 2 and len(keys) == len(chosen) and len(set(keys)) == len(keys) and set(keys) <= said


def _end_at(question: str, col: RelColumn) -> int:
    """Where the question writes the month and year a column's period ends (its length if nowhere)."""
    end = ends_at(col.name)
    said = _month_years(question)
    at = [start for start, month, year in said if end is not None and (month, year) == (end[1], str(end[0]))]
    return at[0] if at else len(periods_spelt(question))


def _named_pair(col: RelColumn, pairs: set[tuple[str, str]]) -> tuple[str, str] | None:
    """The (quarter or half, year) of ``pairs`` a column's path names by the day it ends, or None."""
    year = year_of(col.name)
    found = [(q, year) for q in _quarters_ended(col.name) if year is not None and (q, year) in pairs]
    return found[0] if len(found) == 1 else None


def _holds_more(longer: RelColumn, shorter: RelColumn, said: AbstractSet[str]) -> bool:
    """Whether ``longer``'s header holds every word of ``shorter``'s and more, each more one the
    question writes (``… › Total equity`` over ``… › Total`` where it says "total equity")."""
    # (by stems: ``Subsidiary Guarantors`` is inside ``Non-Guarantor Subsidiaries``)
    mine = {stem(w) for p in parts(shorter.name) for w in tokens(p)}
    theirs = {stem(w) for p in parts(longer.name) for w in tokens(p)}
    return mine < theirs and theirs - mine <= {stem(w) for w in said}


def _parts_meant(rel: Relation, question: str, best: list[RelColumn]) -> list[RelColumn]:
    """The parts of a breakdown the question names by meaning ("women", "men": ``Female``,
    ``Male``), two at least, where the one chosen column is the breakdown's whole (``Total``) and
    the question names no whole; else none."""
    if len(best) != 1 or _WHOLE_SAID.search(question):
        return []
    path = parts(best[0].name)
    if not _whole_label(path[-1]):
        return []
    level = len(path) - 1
    siblings = [c for c in _figures(rel) if c is not best[0] and _apart(best[0].name, c.name) == level]
    labels = [parts(c.name)[level] for c in siblings]
    if len(labels) < 2:
        return []
    from gridsight.text import meaning_map

    qw = question_words(question)
    named = {i for i, label in enumerate(labels) if named_part(label, qw)}
    named |= set(meaning_map(qw, labels).values())
    return [siblings[i] for i in sorted(named)] if len(named) >= 2 else []


def operands_named(rel: Relation, question: str) -> list[RelColumn]:
    """The two columns the question sets either side of the one operator it writes ("dividend per
    share divided by basic EPS", "net debt / EBITDA") or of a comparison with no number ("were
    completions by housing associations higher than by the private sector"), in the order written,
    when each side names a different column on its own; else none."""
    low = question.casefold()
    found = [m for rx, _ in _OPERATORS for m in rx.finditer(low)]
    found = [  # (a slash between words: ``2021/22`` is a year)
        m
        for m in found
        if m.group(0) != "/"
        or (low[: m.start()].rstrip()[-1:].isalpha() and low[m.end() :].lstrip()[:1].isalpha())
    ]
    if not found and comparison(low) is None:
        found = list(_SET_AGAINST_ROW.finditer(question))  # ("was A higher than B", no number)
    if len(found) != 1:
        return []
    texts = [question[: found[0].start()], question[found[0].end() :]]
    if not all(words(t) for t in texts):
        return []
    sides = [_columns(rel, t) for t in texts]
    for i in (0, 1):
        if len(sides[i]) > 1 and len(sides[1 - i]) == 1:
            # ("completions by housing associations higher than by the private sector in Aldmark":
            # the side that writes no region is read in the region the other writes, the columns
            # differing in one part of their header path)
            sides[i] = [c for c in sides[i] if _one_part_apart(c.name, sides[1 - i][0].name)]
    if any(len(s) != 1 for s in sides) or sides[0][0].name == sides[1][0].name:
        return []
    if year_of(sides[0][0].name) != year_of(sides[1][0].name):
        return []  # (periods set apart are read as periods: "2022 ... divided by total equity")
    a, b = sides[0][0], sides[1][0]
    own = [
        {w for p in parts(x.name) for w in part_words(p)} - {w for p in parts(y.name) for w in part_words(p)}
        for x, y in ((a, b), (b, a))
    ]
    if not all(
        any(near_word(w, q) for w in mine for q in question_words(t)) or _whole_said(col, t)
        for mine, t, col in zip(own, texts, (a, b), strict=True)
    ):
        return []  # (each side names its own column by a word of its own: "2010 (thousand tonnes)" none)
    return [a, b]


#: A bound set by another row's figure, no number: "above the EU figure", "below the England
#: average", "higher than the national rate".
_ROW_BOUND = re.compile(
    r"\b(above|over|below|under|higher\s+than|lower\s+than|greater\s+than|less\s+than|more\s+than|"
    r"fewer\s+than)\s+(?:that\s+of\s+)?(?:the\s+)?((?:[^\W\d_][\w'.-]*\s+){1,5}?)"
    r"(?:figure|value|level|rate|average|total|one)\b",
    re.IGNORECASE,
)
#: A number no table holds, standing for the bound while the rest of the question is planned.
_STAND_IN = "987654321.5"


def _against_a_row(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """Which rows, or how many, lie above or below the figure of a row the question names in words
    ("which countries were below the EU value in 2019"): planned as a bound with a number, the number
    then read from that row's cell in the same column. None where no such bound is written or its
    words name no one row."""
    key = rel.key
    m = _ROW_BOUND.search(question)
    if key is None or m is None or comparison(question.casefold()) is not None:
        return None
    if not (_asks_which(question) or _HOW_MANY.match(question)):
        return None
    said = initialisms(m.group(2))
    qw = question_words(m.group(2))
    labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)]
    # (each word a word of the label, or an initialism a run of its words spells: "EU" for
    # ``European Union - 27 countries``)
    named = [
        v
        for v in labels
        if qw
        and all(
            any(near_word(w, q) for w in tokens(v)) or (q in said and spelt_runs(tokens(v), {q})) for q in qw
        )
    ]
    if len(named) != 1:
        return None
    rewritten = f"{question[: m.start()]}{m.group(1)} {_STAND_IN}{question[m.end() :]}"
    plan = _cell_plan(rel, rewritten, expected, offers=True)
    if plan is None or _STAND_IN not in plan.sql:
        return None
    compared = re.search(r'("(?:[^"]|"")+")\s*[<>]=?\s*' + re.escape(_STAND_IN), plan.sql)
    if compared is None:
        return None
    cell = f"(SELECT {compared.group(1)} FROM data WHERE {quote(key.name)} = {literal(named[0])})"
    return replace(plan, sql=plan.sql.replace(_STAND_IN, cell), formula=None)


#: The latest figure there is: "the most recent available", "the latest published", "last reported".
_LATEST_THERE = re.compile(
    r"\b(?:most\s+recent|latest|last)\s+(?:available|published|reported|known)\b", re.IGNORECASE
)


def _latest_available(rel: Relation, question: str) -> CellPlan | None:
    """The figure of the one row named in the latest period that has one, where the question asks
    for the latest available (a year shown ``:`` is passed over): the row's period cells, newest
    first, the first filled. None where the question asks no such thing or the columns are no
    periods."""
    key = rel.key
    if key is None or not _LATEST_THERE.search(question):
        return None
    dated = [c for c in rel.columns if c.role == "data" and c.kind == "number" and year_of(c.name)]
    if len(dated) < 2 or len({year_of(c.name) for c in dated}) != len(dated):
        return None
    rows = _rows(rel, question, dated)[0]
    if len(rows.get(key.name, [])) != 1 or set(rows) - {key.name}:
        return None
    newest = sorted(dated, key=lambda c: str(year_of(c.name)), reverse=True)
    cells = ", ".join(quote(c.name) for c in newest)
    return CellPlan(
        f"SELECT COALESCE({cells}) FROM data WHERE {quote(key.name)} = {literal(rows[key.name][0])}",
        "lookup",
        "number",
    )


#: A question that opens with a superlative and the kind of row it ranks, no "which": "Biggest
#: non-current asset at Mar 2025?", "Worst month by net profit?", "Top segment by revenue in 2024?".
_LED_BY_SUPERLATIVE = re.compile(
    r"^\s*(?:the\s+)?(?P<place>(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+)?(?P<sup>[^\W\d_]+)\s+(?P<kind>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2}?)"
    r"(?P<rest>\s*(?:,|\?|$|\b(?:at|in|for|on|by|as|during|of)\b).*)$",
    re.IGNORECASE | re.DOTALL,
)


def superlative_led(rel: Relation, question: str) -> str:
    """``question`` asked as "which <kind> was the <superlative> ..." where it opens with a
    superlative and a kind of row -- a group of lines (``Non-current assets``), what the label
    column's header calls its rows (``Segment``), or a period noun over periods --
    with no "which" (:data:`_LED_BY_SUPERLATIVE`); else ``question`` as it is."""
    key = rel.key
    if key is None:
        return question
    among = _SUPERLATIVE_AMONG.match(question)
    if among is not None and _names_rows_only(rel, among.group("kind")):
        # ("Lowest unemployment rate of the listed countries in 2016?": which country)
        sup = among.group("sup").casefold()
        if superlative(sup) or sup in DESCENDING | ASCENDING:
            place = (among.group("place") or "").lower()
            return (
                f"Which {singular(among.group('kind'))} had the {place}{sup} {among.group('measure')}"
                f"{among.group('rest')}"
            )
    m = _LED_BY_SUPERLATIVE.match(question)
    if m is None:
        return question
    sup = m.group("sup").casefold()
    if not (superlative(sup) or sup in DESCENDING | ASCENDING):
        return question
    kind = m.group("kind")
    which = (
        f"Which {kind} was the {(m.group('place') or '').lower()}{m.group('sup').lower()}{m.group('rest')}"
    )
    kind_words = question_words(kind)
    named_kind = (
        (len(kind.split()) == 1 and _names_rows_only(rel, kind))
        or asked_class(rel, which) is not None
        or any(near_word(w, h) for w in kind_words for h in tokens(key.name) if h not in COMMON)
        or (
            (periods_down(rel) or lines_by_period(rel))
            and any(f"{w}s" in PERIOD_NOUNS or w in PERIOD_NOUNS for w in tokens(kind))
        )
    )
    return which if named_kind else question


#: "which <noun> had ...": a kind of row asked, what follows saying what of it.
_WHICH_SECTION_KIND = re.compile(
    r"^\s*(?:which|what)\s+(?P<kind>[^\W\d_]+)\s+(?P<rest>(?:had|has|have|was|were|is|are|saw|showed"
    r"|recorded)\b[^?]*?)\s*\??\s*$",
    re.IGNORECASE,
)


def sections_offered(rel: Relation, question: str) -> str:
    """``question`` asked as a choice among the table's sections where its "which <noun>" names the
    first level of a row header of two ("which sex had the higher all-ages rate" over ``Sex and age
    group``, age groups under ``Men`` and ``Women``): "Which had the higher all-ages rate, Men or
    Women?"; else ``question`` as it is."""
    m = _WHICH_SECTION_KIND.match(question)
    key = rel.key
    if m is None or key is None or not any(c.name == SECTION for c in rel.columns):
        return question
    levels = re.split(r"\s+(?:and|&|/|by)\s+", key.name, maxsplit=1, flags=re.IGNORECASE)
    if len(levels) != 2 or not any(near_word(m.group("kind"), w) for w in tokens(levels[0])):
        return question
    sections = list(
        dict.fromkeys(
            v.split(PATH_SEP)[0].strip() for v in rel.values_of(SECTION) or [] if isinstance(v, str)
        )
    )
    if not 2 <= len(sections) <= _MAX_OFFERED:
        return question
    return f"Which {m.group('rest')}, {', '.join(sections[:-1])} or {sections[-1]}?"


#: The most sections a question is read as offering.
_MAX_OFFERED = 6


#: A superlative of a measure among a kind of rows: "lowest unemployment rate of the listed countries
#: in 2016", "the highest turnout among the wards".
_SUPERLATIVE_AMONG = re.compile(
    r"^\s*(?:the\s+)?(?P<place>(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+)?(?P<sup>[^\W\d_]+)\s+"
    r"(?P<measure>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,3}?)\s+(?:of|among)\s+(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?:(?:listed|named|shown|following)\s+)?(?P<kind>[^\W\d_]+s)\b(?P<rest>\s*(?:,|\?|$|\b(?:at|in|for|on|by|during)\b).*)$",
    re.IGNORECASE | re.DOTALL,
)


def _names_rows_only(rel: Relation, kind: str) -> bool:
    """Whether ``kind`` ("country", "countries") can only name the rows of a flat table whose one text
    column labels them (``Belgium``, ``Germany`` under ``GEO (Labels)``): none of its words names a
    column, a part of a header, a title or a label, and the table has no sections to name."""
    key = rel.key
    said = [w for w in question_words(kind) if w not in COMMON]
    if key is None or not said or any(c.name == SECTION for c in rel.columns):
        return False
    if any(c.role == "data" and c.kind == "text" for c in rel.columns):
        return False  # (another text column: the noun may name it by meaning)
    if any(stem(w) in _MEASURE_NOUNS for w in said):
        return False  # ("highest rate in 2016": the figure asked, not a row)
    # (the labels may say the noun: ``European Union - 27 countries`` is one of the countries; and a
    # title's "by country" names the rows' kind, not a figure)
    titles = [
        re.sub(r"\b(?:by|per|for\s+each)\s+[^\W\d_]+", " ", t.text, flags=re.I) for t in rel.table.titles
    ]
    texts = [*(p for c in rel.columns for p in parts(c.name)), *titles]
    held = {w for t in texts for w in tokens(t)}
    return not any(near_word(w, h) for w in said for h in held)


#: Nouns that name a figure, not a kind of row ("the highest rate", "the lowest share").
_MEASURE_NOUNS = frozenset(
    stem(w)
    for w in (
        "rate", "share", "value", "figure", "number", "amount", "total", "level", "count", "percentage",
        "proportion", "ratio", "score", "price", "cost", "sum", "average", "mean", "median", "growth",
        "change", "increase", "decrease", "balance",
    )
)  # fmt: skip


#: How much closer in meaning an adjective must be to one section's name than to the next, and how close.
_ADJECTIVE_MARGIN, _ADJECTIVE_FLOOR = 0.1, 0.5


def _section_by_adjective(rel: Relation, question: str) -> str | None:
    """The section a which/how-many noun's adjective names by meaning where no letters do ("which
    English region" over ``England`` and ``Wales``, each heading its regions); None where the noun
    has no such adjective or no section is clearly meant."""
    from gridsight.text import closest

    kind = _WHICH_KIND.search(question)
    sections = [s for s in dict.fromkeys(rel.values_of(SECTION) or []) if isinstance(s, str)]
    if kind is None or len(sections) < 2 or rel.key is None:
        return None
    said = kind.group(1).split()
    if len(said) != 2:
        return None
    adjective = said[0].casefold()
    labels = [v for v in rel.distinct_values(rel.key.name) if isinstance(v, str)]
    held = {w for v in [*labels, *sections, rel.key.name] for w in tokens(v)}
    if adjective in COMMON or superlative(adjective) or any(near_word(adjective, w) for w in held):
        return None
    names = [without_marks(parts(s)[-1]).strip() or s for s in sections]
    i = closest(adjective, names, margin=_ADJECTIVE_MARGIN, floor=_ADJECTIVE_FLOOR)
    return sections[i] if i is not None else None


#: A whole column that names what the columns beside it are, in the plural: ``All tenures``, ``All
#: sectors`` (not ``Total equity``, a sum of amounts of one kind).
_WHOLE_OF_KIND = re.compile(r"^\s*all\s+([^\W\d_]{3,})s\s*$", re.IGNORECASE)


def _kind_of_columns(rel: Relation, question: str) -> str:
    """``question`` with a which-noun that names nothing in the table ("which category") written as
    the kind a whole column names (``All tenures``: "which tenure"), so that the columns beside it
    are what it chooses among; else ``question`` as it is."""
    kind = _WHICH_KIND.search(question)
    if kind is None or rel.key is None:
        return question
    nouns = [w for w in kind.group(1).split() if w.casefold() not in COMMON]
    if not nouns:
        return question
    noun = nouns[-1]
    wholes = [
        m.group(1) for c in rel.columns if c.role == "data" and (m := _WHOLE_OF_KIND.match(parts(c.name)[-1]))
    ]
    if len(set(wholes)) != 1:
        return question
    held = {w for c in rel.columns for p in parts(c.name) for w in tokens(p)} | set(tokens(rel.key.name))
    held |= {w for v in rel.distinct_values(rel.key.name) if isinstance(v, str) for w in tokens(v)}
    if noun.casefold() in COMMON or any(near_word(noun.casefold(), w) for w in held):
        return question
    start = kind.start(1) + kind.group(1).rfind(noun)
    return f"{question[:start]}{wholes[0]}{question[start + len(noun) :]}"


def _listed_cells(cells: Iterable[str], kind: str = "series") -> CellPlan:
    """The plan that lists cells (each a scalar subquery) in the order given, one row each."""
    return CellPlan(" UNION ALL ".join(f"SELECT {c}" for c in cells), kind, "list")


def _mean_of(cells: Sequence[str]) -> str:
    """The query for the mean of cells (each a scalar subquery), as Excel's AVERAGE takes it: a cell
    with no figure (``:``, ``[x]``, blank) is left out, not read as nought."""
    if len(cells) < 2:
        return f"SELECT ({' + '.join(cells)}) * 1.0 / {len(cells)}"
    values = " UNION ALL ".join(f"SELECT {e} AS v" for e in cells)
    return f"SELECT AVG(v) FROM ({values})"


def _one_part_apart(a: str, b: str) -> bool:
    """Whether two header paths of as many parts differ in exactly one of them."""
    pa, pb = parts(a), parts(b)
    return len(pa) == len(pb) and sum(x != y for x, y in zip(pa, pb, strict=True)) == 1


#: Words that name the whole of a breakdown: "both sexes combined", "all ages", "overall".
_WHOLE_SAID = re.compile(r"\b(?:total|all|combined|overall|together|both|whole)\b", re.IGNORECASE)


def _whole_said(col: RelColumn, text: str) -> bool:
    """Whether ``text`` names the column that is a breakdown's whole (``Total``, ``All persons``) by
    a word for a whole ("for both sexes combined")."""
    return _whole_label(parts(col.name)[-1]) and bool(_WHOLE_SAID.search(text))


def _whole_label(label: str) -> bool:
    """Whether a label is a breakdown's whole and nothing more: ``Total``, ``All persons`` (not
    ``Total current assets``)."""
    return bool(
        re.fullmatch(r"\s*(?:total|all(?:\s+[^\W\d_]+)?|persons|both\s+sexes)\s*", label, re.IGNORECASE)
    )


#: A change given in percent: "percentage change", "% increase", "per cent growth" (no share asked).
_CHANGE_IN_PERCENT = re.compile(
    r"(?:\bpercent(?:age)?|\bper cent|%)\s*(?:change|increase|decrease|growth|rise|fall|drop|decline)\b"
    r"|\bby what (?:percent(?:age)?|per cent|%)|\bby\s+how\s+(?:many|much)\s+(?:per\s?cent|percent)\b"
    r"|\b(?:answer|give it|express it|reported)\s+in\s+(?:percent|%)",
    re.IGNORECASE,
)


def _asks_percent(rel: Relation, question: str) -> bool:
    """Whether the question asks a figure that is a percentage or a rate (a share, a rate column),
    not a change stated in percent ("the percentage change in journeys" reads the journeys), unless
    the table publishes its changes in percent (``% Increase (Decrease)``: that column is read)."""
    if not _PERCENT.search(question):
        return False
    published = rel.memo(
        "changes in percent",
        lambda: any(
            _is_percent(c)
            and {w for p in parts(c.name) for w in words(p)} & (CHANGE_WORDS | RISE_WORDS | FALL_WORDS)
            for c in _figures(rel)
        ),
    )
    return published or bool(_PERCENT.search(_CHANGE_IN_PERCENT.sub(" ", question)))


def _group_of_years(rel: Relation, question: str, best: list[RelColumn]) -> list[RelColumn]:
    """The one chosen column moved to the header group that holds every year the question names,
    when its own group lacks one of them ("the increase in the index from 2021 to 2024": ``Index ›
    2024``, not ``Year-on-year change › 2024`` whose years start in 2022); else ``best``."""
    if len(best) != 1 or PATH_SEP not in best[0].name:
        return best
    said = set(YEARS.findall(periods_spelt(question)))
    mine = year_of(best[0].name)
    if len(said) < 2 or mine is None or mine not in said:
        return best
    groups: dict[tuple[str, ...], dict[str, RelColumn]] = {}
    for c in _figures(rel):
        if (y := year_of(c.name)) is not None and PATH_SEP in c.name:
            groups.setdefault(tuple(parts(c.name)[:-1]), {})[y] = c
    own = tuple(parts(best[0].name)[:-1])
    if said <= set(groups.get(own, {})):
        return best
    whole = [g for g, years in groups.items() if said <= set(years)]
    return [groups[whole[0]][mine]] if len(whole) == 1 else best


_SUB = r"([hq][1-4])"
_SUB_YEAR = re.compile(r"([hq][1-4])\s+(?:19|20)\d\d|(?:19|20)\d\d\s+([hq][1-4])")
_YEAR_OF = r"((?:19|20)\d\d)"
#: "at the end of 2024", "year-end 2024", "end of fiscal 2024": the year's last period.
_YEAR_END = re.compile(
    rf"\b(?:end\s+of|year[- ]end)\s+(?:the\s+)?(?:(?:fiscal|financial)\s+(?:year\s+)?|fy\s?)?{_YEAR_OF}\b"
)


def _operates(question: str) -> bool:
    """Whether the question sets amounts against each other, in words (:func:`_sets_against`) or by
    an operator it writes between them ("A minus B", "A plus B", "A / B")."""
    return _sets_against(question) or any(rx.search(question.casefold()) for rx, _ in _OPERATORS)


#: The column of what came about, beside a budget, a plan or a forecast (``Actual``, ``Actual 2025``).
_ACTUAL = re.compile(r"^\s*actuals?\b", re.IGNORECASE)

#: Words that say a figure came in above its budget or plan, and below it.
_BEAT = re.compile(r"\b(?:beat|beaten|outperformed|outperform)\b", re.IGNORECASE)
_MISSED = re.compile(
    r"\b(?:missed|miss|fell\s+short\s+of|fall\s+short\s+of|fallen\s+short\s+of)\b", re.IGNORECASE
)


def against_plan(rel: Relation, question: str) -> bool:
    """Whether the question sets a line's figure against its budget, plan or forecast ("by how much
    did operating profit beat budget", "how far below plan"), in a table of lines with an
    ``Actual`` column beside such a column: the two cells of the line's row."""
    if rel.key is None or not PLAN_AS_BASE.search(question):
        return False
    heads = [p for c in rel.columns if c.role == "data" and c.kind == "number" for p in parts(c.name)]
    return any(_ACTUAL.match(h) for h in heads) and any(PLANNED.search(h) for h in heads)


def _actual_of(rel: Relation, planned: RelColumn) -> RelColumn | None:
    """The ``Actual`` column beside a budget, plan or forecast column: the one whose header is the
    same but for an ``Actual`` part where the plan's names it (``Actual › 31 Mar 2026`` for
    ``Budget › 31 Mar 2026``); for a plan column of one part, the first ``Actual`` column."""
    mine = parts(planned.name)
    at = next((i for i, p in enumerate(mine) if PLANNED.search(p)), None)
    if at is None:
        return None
    for c in _figures(rel):
        theirs = parts(c.name)
        if len(theirs) != len(mine) or not _ACTUAL.match(theirs[at]):
            continue
        others = [(a, b) for i, (a, b) in enumerate(zip(theirs, mine, strict=True)) if i != at]
        if all(a == b for a, b in others):
            return c
    return None


def _sets_against(question: str) -> bool:
    """Whether the question sets amounts against each other: compares, divides, adds, or takes a
    change, a difference or a share."""
    operated = set(words(question)) & (
        MORE_WORDS
        | LESS_WORDS
        | RATIO_WORDS
        | SUM_WORDS
        | CHANGE_WORDS
        | RISE_WORDS
        | FALL_WORDS
        | _DIFFERENCE
    )
    return bool(operated or _SHARE.search(question) or DIVIDES.search(question))


def _dated(columns: list[RelColumn]) -> bool:
    """Whether each column's header is a date of its own (a day, a month and a year)."""
    return all(
        re.search(r"\b\d{1,2}\b", c.name) and any(w in MONTHS for w in words(c.name)) and year_of(c.name)
        for c in columns
    )


def _year_end(question: str, best: list[RelColumn]) -> list[RelColumn]:
    """The last of the columns that split one year into halves or quarters, where the question asks
    for the end of that year and no column is the year's alone; else none."""
    m = _YEAR_END.search(periods_spelt(question).casefold())
    pairs = [p for p in (_column_pair(c.name) for c in best) if p is not None]
    if m is None or len(pairs) < len(best) or {y for _, y in pairs} != {m.group(1)}:
        return []
    return [max(zip(pairs, best, strict=True), key=lambda pc: pc[0][0])[1]]


def _other_years(rel: Relation, question: str, best: list[RelColumn]) -> list[RelColumn]:
    """For each other year the question names ("from FY2022 to FY2024", where the column chosen is
    ``30 June 2024``), the one number column whose header names that year (``30 June 2022 ›
    Restated``, a path of another depth that no sibling rule reaches)."""
    mine = year_of(best[0].name) if len(best) == 1 else None
    if mine is None:
        return []
    out = []
    written = dates_written(question)
    for year in sorted(set(YEARS.findall(periods_spelt(question))) - {mine}):
        holds = [c for c in _figures(rel) if year_of(c.name) == year]
        if len(holds) > 1:  # (``31 Dec 2023 › Restated`` beside ``1 Jan 2023 › Restated``: the day said)
            holds = [c for c in holds if dates_written(c.name) & written]
        out += holds if len(holds) == 1 else []
    return out


#: A half or quarter written with its year: "Q4 2023", "Q1 of 2024", "H2 fiscal 2024", "2023 Q4".
_PAIRED = re.compile(
    rf"\b{_SUB}\s+(?:of\s+)?(?:(?:fiscal|financial)\s+(?:year\s+)?|fy\s?)?{_YEAR_OF}\b|\b{_YEAR_OF}\s+{_SUB}\b"
)


def _period_pairs(question: str) -> set[tuple[str, str]]:
    """The (half or quarter, year) pairs the question writes, when it writes every half or quarter
    it names with a year ("from Q4 2023 to the first quarter of 2024"); else none."""
    low = periods_spelt(question).casefold()
    found = list(_PAIRED.finditer(low))
    pairs = {(m.group(1) or m.group(4), m.group(2) or m.group(3)) for m in found}
    return pairs if pairs and len(re.findall(rf"\b{_SUB}\b", low)) == len(found) else set()


def _column_pair(name: str) -> tuple[str, str] | None:
    """The (half or quarter, year) a column's header path names (``Fiscal 2024 › Q1``), or None."""
    subs = [p.casefold() for p in parts(name) if re.fullmatch(_SUB, p.strip().casefold())]
    year = year_of(name)
    if not subs:  # (one part with both: ``Q3 2024``, ``2024 Q3``)
        subs = [
            m.group(1) or m.group(2) for p in parts(name) if (m := _SUB_YEAR.fullmatch(p.strip().casefold()))
        ]
    return (subs[0].strip(), year) if len(subs) == 1 and year is not None else None


def _quarters_ended(name: str) -> set[str]:
    """The quarter or half a column's path names by the day it ends, under a part that says which
    (``Quarter Ended › September 30`` or ``Three months ended › 30 September 2024``: 'q3', which
    "the third quarter" and "Q3" name; ``Six months ended › 30 June 2024``: 'h1', which "H1 2024",
    "1H24" and "the first half of 2024" name)."""
    path = parts(name)
    said = [tokens(p) for p in path]
    quarter = any(same(w, "quarter") for ws in said for w in ws) or any(
        ws[:2] == ["three", "months"] for ws in said
    )
    half = any(ws[:2] == ["six", "months"] or ws[:2] == ["half", "year"] for ws in said)
    if not (quarter or half):
        return set()
    # (the day alone, ``September 30``, or after the words that say which, ``Three Months Ended
    # September 30,``)
    ended = [re.sub(r"^.*?\bended\s+", "", p, flags=re.IGNORECASE).strip(" ,") for p in path]
    codes = {q for p in [*path, *ended] if (q := quarter_ended(p)) is not None}
    if quarter:
        return codes
    return {"h1" if q == "q2" else "h2" for q in codes if q in ("q2", "q4")}


def every_part(cols: Sequence[RelColumn]) -> set[str]:
    """Every word of the columns' header parts."""
    return {w for c in cols for p in parts(c.name) for w in tokens(p)}


def _by_meaning(tied: list[RelColumn], qw: list[str]) -> list[RelColumn]:
    """Tied columns narrowed, at each header level where they differ by parts the question does not
    spell, to the part that a question word no header spells is closest to in meaning ("women" ->
    ``Female``, "girls" -> ``Female``), when every such word points to the same part."""
    from gridsight.text import meaning_map

    loose = [q for q in qw if q not in every_part(tied)]
    if not loose:
        return tied
    for level in _levels(tied):
        names = list(dict.fromkeys(parts(c.name)[level] for c in tied))
        if any(named_part(n, qw) for n in names) or all(_PERIOD.match(n.strip()) for n in names):
            continue  # ("2011" and "2021", both named: the years compared; periods mean nothing to MiniLM)
        hit = set(meaning_map(loose, names, as_written=True).values())
        if len(hit) == 1:
            part = names[hit.pop()]
            tied = [c for c in tied if parts(c.name)[level] == part]
    return tied


#: A header part that names a period: a year, a half or quarter, a month, a fiscal year.
_PERIOD = re.compile(
    r"^(?:fy\s?|(?:fiscal|financial)\s+(?:year\s+)?)?(?:1[89]|20)\d\d(?:\s*[/\-–]\s*(?:1[89]|20)?\d\d)?[aefpb]?$|^[hq][1-4](?:\s+(?:fy\s?)?(?:1[89]|20)\d\d)?$|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
    r"oct|nov|dec)[a-z]*\.?(?:[\s\-–/]+['’]?(?:1[89]|20)?\d\d)?$|^(?:1[89]|20)\d\d\s+(?:[hq][1-4]|(?:jan|feb|mar|apr|may|jun|jul|aug|"
    r"sep|oct|nov|dec)[a-z]*\.?)$",
    re.I,
)


#: "across the five years shown", "over all the quarters", "for every month": each period of a kind.
_EVERY_PERIOD = re.compile(
    r"\b(?:across|over|for|in)\s+(?:all|each|every)?\s*(?:of\s+)?(?:the\s+)?(?:[a-z]+\s+|\d+\s+)?"
    r"(?:(?:balance\s+sheet|reporting|closing)\s+)?"
    r"(years|quarters|months|dates|quarter[- ]ends|year[- ]ends)\b"
    r"(?:\s+(?:shown|presented|reported|given|in\s+the\s+table))?",
    re.IGNORECASE,
)
#: "the average monthly EBITDA", "total quarterly sales": each period of a kind, by its adjective.
_PER_PERIOD = re.compile(
    r"\b(?:average|mean|total|sum\s+of(?:\s+the)?)\s+(monthly|quarterly|annual|yearly)\b", re.I
)
_KIND_OF = {"monthly": "months", "quarterly": "quarters", "annual": "years", "yearly": "years"}


def _every_period(question: str) -> str | None:
    """The kind of period ('years', 'quarters', 'months') a question takes every one of ("across the
    five years shown", "the average monthly EBITDA"), or None."""
    every = _EVERY_PERIOD.search(question)
    if every is not None:  # (a quarter-end or a year-end is a date: "across the four quarter-ends")
        kind = every.group(1).casefold()
        return "dates" if kind.endswith("ends") else kind
    per = _PER_PERIOD.search(question)
    return _KIND_OF[per.group(1).casefold()] if per is not None else None


_ASKS_YEAR = re.compile(r"\b(?:which|what)\s+(?:financial\s+|fiscal\s+)?year\b", re.I)
_ASKS_PERIOD = re.compile(
    r"\b(?:which|what)\s+(?:of\s+the\s+)?(?:(?:two|three|four|five|\d)\s+)?(?:(?:balance\s+sheet|reporting|fiscal|financial|"
    r"calendar)\s+)?(?:period|year|quarter|half|semester|month|time|date)s?\b"
    r"|(?:^|[:;,.?]\s*)when\s+(?:was|were|did|is|does)\b",  # ("...: when was X highest?", not "X when Y")
    re.I,
)


def asks_period(question: str) -> bool:
    """Whether the question asks which period(s): "which year", "which three months", "what date"."""
    return bool(_ASKS_PERIOD.search(question))


def _periods_asked(rel: Relation, question: str) -> list[RelColumn]:
    """Every number column headed by periods (and nothing else), when the question asks "which
    period / year / quarter ..." and names no header: the periods are what it chooses among."""
    counted = _PERIODS_ASKED.search(question)
    if counted is not None and (comparison(question.casefold()) or _PRIOR.search(question)):
        # ("for how many quarters did other income stay under 3.5": each quarter of the line)
        return _of_kind(rel, counted.group(1).casefold().rstrip("s") + "s")
    every = _every_period(question)
    if every is not None and set(words(question)) & (SUM_WORDS | AVERAGE_WORDS):
        # ("the average revenue across the five years shown", "the average monthly EBITDA": each's,
        # of the year named where the question names one of theirs)
        found = _of_kind(rel, every)
        said = set(YEARS.findall(periods_spelt(question)))
        return [c for c in found if year_of(c.name) in said] or found
    if not _ASKS_PERIOD.search(question):
        return []
    periods = [c for c in _figures(rel) if _by_periods(c)]
    dated = [c for c in _figures(rel) if year_of(c.name) is not None]
    years = {year_of(c.name) for c in dated}
    by_date = re.search(r"\bdates?\b", question, re.IGNORECASE)  # (quarter ends: a year more than once)
    if (
        (not periods or len(dated) > len(periods))
        and len(dated) > 1
        and (by_date or (_ASKS_YEAR.search(question) and len(years) == len(dated)))
    ):
        # ``30 June 2024``, ``30 June 2023 › Restated``: one year each (not ``Notes``); a day alone
        # (``30 June 2024``) is a period, and a date or a year is asked among all the dated columns
        return dated
    found = periods or _periods_under(rel, question)
    # ("which quarter ...": the quarters, not the full year beside them, ``Q1 FY25`` … ``FY25``)
    of_kind = [c for c in found if _period_kind(c) == _kind_asked(question)]
    return of_kind if len(of_kind) >= 2 else found


def _kind_asked(question: str) -> str | None:
    """The kind of period a question asks which of ("which quarter": 'quarters'; see
    :func:`_period_kind`), or None."""
    kind = _PERIOD_PICKED.search(question)
    return None if kind is None else kind.group(1).casefold() + "s"


def _periods_under(rel: Relation, question: str) -> list[RelColumn]:
    """The period columns under the one measure the question names, where the periods are one header
    level among others ("which year had the most doctors" over ``Number › 2019 … 2023`` beside
    ``Per 1 000 population › 2019 …``): grouped by the rest of their paths, the one group whose
    every other part the question names (or the only group)."""
    groups: dict[tuple[str, ...], list[RelColumn]] = {}
    for c in _figures(rel):
        path = parts(c.name)
        at = [i for i, p in enumerate(path) if _is_period(p)]
        if len(at) == 1 and len(path) > 1:
            groups.setdefault(tuple(p for i, p in enumerate(path) if i != at[0]), []).append(c)
    qw = words(question)
    named = [
        cols
        for rest, cols in groups.items()
        if all(named_part(_UNIT_IN_BRACKETS.sub("", p), qw) for p in rest)
    ]
    if not named and not _rate_like(question):  # ("the number of doctors": not those per 1 000 people)
        named = [cols for rest, cols in groups.items() if not any(_rate_like(p) for p in rest)]
    found = named if len(named) == 1 else list(groups.values()) if len(groups) == 1 else []
    pool = named if len(named) > 1 else list(groups.values())
    if not found and len(pool) >= 2:
        # (two stacked tables' quarters, ``Table 3.1: Visits ...`` and ``Table 3.2: Spending ...``:
        # the group whose other parts hold the most words the question says, where one does)
        qlist = question_words(question)
        said = [
            len(
                {w for p in parts(cols[0].name) if not _is_period(p) for w in tokens(p) if w not in COMMON}
                & {w for p in parts(cols[0].name) for w in tokens(p) for q in qlist if near_word(w, q)}
            )
            for cols in pool
        ]
        best_said = max(said)
        if best_said and said.count(best_said) == 1:
            found = [pool[said.index(best_said)]]
    if not found and len(pool) >= 2:
        # ("men": ``Male``'s years, the part meant where no letters name one)
        meant = _by_meaning([cols[0] for cols in pool], question_words(question))
        found = [cols for cols in pool if len(meant) == 1 and cols[0] is meant[0]]
    if not found and len(pool) >= 3:
        # (``Persons``, ``Males``, ``Females``, each over the years, none named: the whole's years)
        whole = _whole_among(rel, [cols[0] for cols in pool])
        found = [cols for cols in pool if whole and cols[0] is whole[0]]
    return found[0] if found and len(found[0]) >= 2 else []


#: A unit written in brackets after a header's words: ``Number (thousands)``.
_UNIT_IN_BRACKETS = re.compile(r"\s*\([^()]*\)")


def _rate_like(text: str) -> bool:
    """Whether words speak of a rate, a share or a figure per something (``Per 1 000 population``)."""
    return bool(_PERCENT.search(text) or re.search(r"\bper\s+(?:\d|[^\W\d_])", text, re.IGNORECASE))


def cross_table(rel: Relation) -> bool:
    """Whether the table crosses its row labels with categories of one measure: every other column
    holds figures and one of them adds up the others (``Region | Private enterprise | Housing
    associations | All dwellings``). The cells plan reads it first, as a statement (without the
    column that adds up the others, a DataBench table of traits by profession counted as one and
    lost its ranked lists that way)."""
    data = [c for c in rel.columns if c.role == "data"]
    return len(data) >= 3 and all(c.kind == "number" for c in data) and row_total(rel) is not None


def _in_points(question: str) -> bool:
    """Whether a change is asked in percentage points ("in percentage points", "pp"), not "(relative
    change, not percentage points)"."""
    for m in re.finditer(r"\bpercentage\s+points?\b|\bp\.?p\.?(?!\w)", question, re.IGNORECASE):
        if not re.search(
            r"\b(?:not|than|instead\s+of|rather\s+than)\s+(?:in\s+)?$", question[: m.start()], re.I
        ):
            return True
    return False


def _months_short(text: str) -> str:
    """``text`` (in lower case) with each month's name cut to its first three letters ("january
    2023" as ``Jan 2023`` writes it)."""
    return re.sub(r"\b(jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?=\s|$|[,;)])", r"\1", text)


#: A year split across two (``2022-23``, "2022/23"), written one way for comparing.
_SPLIT_YEAR = re.compile(r"\b((?:19|20)\d\d)\s*[/–-]\s*(\d\d(?:\d\d)?)\b")


def _whole_section_of(rel: Relation, label: str) -> str | None:
    """The one section named as a whole (``All people``, ``Persons``, ``Total``) among the several
    sections a row label stands in (``16-24`` under ``Men``, ``Women`` and ``All people``); None
    where the label stands in one section or no such section is among them."""
    assert rel.key is not None
    labels, sections = rel.values_of(rel.key.name) or [], rel.values_of(SECTION)
    if sections is None:
        return None
    holding = list(dict.fromkeys(s for v, s in zip(labels, sections, strict=True) if v == label))
    wholes = [s for s in holding if isinstance(s, str) and _whole_label(s.split(" › ")[-1])]
    return wholes[0] if len(holding) > 1 and len(wholes) == 1 else None


#: A place named as left out: "outside the EU", "non-EU", "excluding London", "other than Wales".
_NEGATED = re.compile(
    r"\b(?i:outside(?:\s+of)?|excluding|except|other\s+than|not\s+in|beyond)\s+(?i:the\s+)?([^\W\d_]+)"
    r"|\b(?i:non)[-\s]([A-Z][^\W\d_]*)"
)  # ("non-EU", a name; "non-current" is an accounting word, no place left out)


#: A section named as what lies outside another: ``Extra-EU``, ``Non-EU countries``, ``Rest of world``.
_NAMED_AS_REST = re.compile(r"\b(?:extra|non|outside|rest\s+of|other\s+than)\b", re.IGNORECASE)


def _negated_section(question: str, section: str) -> bool:
    """Whether the question names ``section`` as left out ("outside the EU" for ``European Union
    (EU-27)``): a word of its name right after a word that leaves it out."""
    own = {w for w in tokens(section) if w not in COMMON}
    return any(
        near_word((m.group(1) or m.group(2)).casefold(), w) for m in _NEGATED.finditer(question) for w in own
    )


def _written_as_span(question: str, a: str, b: str, between: bool = False) -> bool:
    """Whether the question writes two periods as the ends of a span, either way round ("from Q1 to
    Q4", "FY23 to FY25" over ``FY2025`` and ``FY2023``: periods spelt as headers spell them)."""
    low, a, b = (
        _SPLIT_YEAR.sub(r"\1-\2", _months_short(periods_spelt(x).casefold())) for x in (question, a, b)
    )
    ends = [(a, b)]
    wa, wb = a.split(), b.split()
    own_a, own_b = [w for w in wa if w not in wb], [w for w in wb if w not in wa]
    if own_a and own_b and len(own_a) < len(wa):  # "Q2 to Q4" over ``Q2 2024`` and ``Q4 2024``
        ends.append((" ".join(own_a), " ".join(own_b)))
    # ("between 2015 and 2017" spans only where a period or a count is asked: "the difference between
    # 2015 and 2017" sets two years against each other)
    opens = [r"{x}\s*(?:to|through|until|[-–])", *([r"between\s+{x}\s+and"] if between else [])]
    spans = (
        rf"(?<!\w)(?:{'|'.join(o.format(x=re.escape(x)) for o in opens)})\s*{re.escape(y)}(?!\w)"
        for p, q in ends
        for x, y in ((p, q), (q, p))
    )
    return any(re.search(span, low) for span in spans)


def _rows_spanned(rel: Relation, question: str, named: list[str]) -> list[str]:
    """Two row labels that are periods (years running down the rows) and that the question names as
    the ends of a span ("the average net debt over FY2016 to FY2022"), with the rows between them
    in the table; else ``named``."""
    if rel.key is None or any(_number(v) != _number(v) for v in named):
        return named
    labels = [v for v in rel.values_of(rel.key.name) or [] if isinstance(v, str)]
    wide = asks_period(question) or _counts(question) is not None
    bare = [without_marks(v).strip() or v for v in named]
    if not _written_as_span(question, bare[0], bare[1], between=wide) or not all(v in labels for v in named):
        return named
    i, j = sorted((labels.index(named[0]), labels.index(named[1])))
    between = labels[i : j + 1]
    return between if all(_number(v) == _number(v) for v in between) else named


def _columns_beside_labels(
    rel: Relation, question: str, chosen: list[RelColumn], labels: list[str]
) -> list[RelColumn]:
    """The columns the question names once the row labels it writes whole are set aside: their
    words name the rows, not a column too ("enterprises with 0–1 persons employed": ``Enterprises``,
    not ``Persons employed``); ``chosen`` when that names no other columns."""
    kind = _kind_asked(question)
    if kind is not None and all(_period_kind(c) == kind for c in chosen):
        return chosen  # ("which quarter ...": the quarters asked among stay)
    bare = question
    for label in labels:
        bare = re.sub(re.escape(label), " ", bare, flags=re.IGNORECASE) if len(label) > 3 else bare
        said = words(label)
        years = [w for w in said if YEARS.fullmatch(w)]
        if len(years) == 1 and "fy" in said:  # (``FY25`` written "FY2025": its "FY" names no column)
            bare = re.sub(rf"\bFY\s*'?(?:{years[0][:2]})?{years[0][2:]}\b", " ", bare, flags=re.IGNORECASE)
    if bare == question:
        return chosen
    again = _columns(rel, bare)
    if not again or {c.name for c in again} == {c.name for c in chosen} or len(again) > len(chosen):
        return chosen
    return again


def _labels_placed(rel: Relation, question: str, rows: dict[str, list[str]]) -> bool:
    """Whether every label column of a long-form table that varies is placed by the question: by
    its values named in ``rows``, or by the first word of one value (filled into ``rows``: "GDP" is
    ``GDP (EUR million)``)."""
    qw = question_words(question)
    for c in rel.columns:
        if c.role != "data" or c.kind != "text" or c.name in rows:
            continue
        values = [v for v in rel.distinct_values(c.name) if isinstance(v, str)]
        if len(values) < 2 or len(values) > MAX_LABELS or all(len(v) <= 3 for v in values):
            continue  # (a column of flags or notes, or one value: it places nothing)
        first = _first_word(values, qw, set())
        if not first:
            return False
        rows[c.name] = [first[0][1]]
    return True


def periods_down(rel: Relation) -> bool:
    """Whether the row labels are periods, one per row (a five-year summary on its side: ``2021``
    .. ``2025`` down the first column): a statement turned over, read by its cells."""

    def compute() -> bool:
        labels = [v for v in (rel.values_of(rel.key.name) or []) if v is not None] if rel.key else []
        stamps = [_number(str(v)) for v in labels]
        # (two rows only where each is a year: ``2024`` over ``2023``, quarters across)
        enough = len(labels) >= 3 or (
            len(labels) == 2 and all(any(YEARS.fullmatch(w) for w in words(str(v))) for v in labels)
        )
        return enough and all(t == t for t in stamps) and len(set(stamps)) == len(stamps)

    return rel.memo("periods down", compute)


def years_in_blocks(rel: Relation) -> bool:
    """Whether each row label stands over a block of years (``Avelland`` on its 2021, 2022 and 2023
    rows, a ``Year`` column of labels beside it): a row is placed by its label and its year."""

    def compute() -> bool:
        keys = rel.values_of(rel.key.name) if rel.key else None
        if not keys or len(set(keys)) == len(keys):
            return False
        return any(
            c.role == "data"
            and c.kind == "text"
            and all(
                isinstance(v, str) and re.fullmatch(r"(?:19|20)\d\d", v)
                for v in rel.values_of(c.name) or [None]
            )
            for c in rel.columns
        )

    return rel.memo("years in blocks", compute)


def unnamed_totals(rel: Relation) -> bool:
    """Whether the first or the last row is a total the view marks that says no "total" or "all" in
    its label (a country under or over its regions): only the cells plan, which reads the marks,
    passes over it when counting."""

    def compute() -> bool:
        flags, keys = rel.values_of(TOTAL), rel.values_of(rel.key.name) if rel.key else None
        if not flags or keys is None:
            return False
        return any(
            flags[i] == 1
            and isinstance(keys[i], str)
            and not re.search(r"\b(?:totals?|all)\b", keys[i], re.I)
            for i in {0, len(flags) - 1}
        )

    return rel.memo("unnamed totals", compute)


def total_at_an_end(rel: Relation) -> bool:
    """Whether the view marks the first or the last row, and no other, a total whose label says no
    "total" (``All partnerships shown`` over the areas; a ``Total ...`` row the general planner
    reads by its word): a ranking, a count or a mean must pass over it, which the cells plan does."""
    flags = rel.values_of(TOTAL) or []
    keys = (rel.values_of(rel.key.name) if rel.key is not None else None) or []
    if len(flags) <= 2 or sum(flags) != 1 or len(keys) != len(flags):
        return False
    at = 0 if flags[0] == 1 else len(flags) - 1 if flags[-1] == 1 else None
    return at is not None and not re.search(r"\btotals?\b", str(keys[at] or ""), re.IGNORECASE)


def long_form(rel: Relation) -> bool:
    """Whether the table is in long form (:func:`gridsight.qa._relational.is_long`; once per table)."""
    return rel.memo("long form", lambda: is_long(rel.columns, rel.values))


def row_total(rel: Relation) -> RelColumn | None:
    """The figure column that adds up the other figure columns on most rows (``Total``, ``FY2025``
    beside the quarters), or None (computed once per table: each question's routes ask)."""
    return rel.memo("row total", lambda: _row_total(rel))


def _row_total(rel: Relation) -> RelColumn | None:
    data = [c for c in rel.columns if c.role == "data" and c.kind == "number"]
    if len(data) < 3:
        return None
    columns = [rel.values_of(c.name) or [] for c in data]
    rows = [
        i
        for i in range(len(rel.rows))
        if all(isinstance(col[i], int | float) and not isinstance(col[i], bool) for col in columns)
    ]
    # published figures are rounded one by one: the parts add up to the total within half a unit of
    # the row's finest digit per column (shares of 0.30 and 0.22 are no parts of one another, and a
    # price of 63.06 beside a count of 1,084,498 adds nothing to it)
    room = [0.5 * len(columns) * rounding_step([col[i] for col in columns]) for i in rows]
    for j, whole in enumerate(columns):
        # (a row where one part only is something is no evidence: a total beside a part and a
        # column of zeros is no sum of them, however often that part equals it)
        shown = adds = 0
        for i, ok in zip(rows, room, strict=True):
            rest = [col[i] for k, col in enumerate(columns) if k != j]
            if sum(1 for v in rest if v) >= 2:
                shown += 1
                adds += abs(sum(rest) - whole[i]) <= ok
        if shown and 2 * adds > shown:
            return data[j]
    return None


#: "Annual revenue", "full-year sales", "the yearly total": the column that adds up a year's periods.
_WHOLE_YEAR = re.compile(r"\b(?:annual|yearly|full[-\s]year|whole[-\s]year)\b", re.IGNORECASE)


def whole_year(question: str, rel: Relation) -> str:
    """``question`` with "annual" / "full-year" written as the header of the column that adds up the
    periods beside it (``FY2025`` or ``Total`` after ``Q1``..``Q4``), when the table has one and
    every other figure column is a period: "full-year revenue in the UK" reads that column."""
    if not _WHOLE_YEAR.search(question):
        return question
    total = row_total(rel)
    figures = [c for c in _figures(rel) if c is not total]
    if total is None or not figures or not all(_by_periods(c) for c in figures):
        return question
    name = without_marks(parts(total.name)[-1]).strip()
    return _WHOLE_YEAR.sub(name, question) if name else question


def lines_by_period(rel: Relation) -> bool:
    """Whether the table's number columns are headed by periods alone (``2023``, ``Q1``, ``2022
    (p)``), but for fewer derived ones beside them (``Change (%) 2021–2022``), or for columns of the
    change between them or of their ranks (``2019 | 2018 | Increase (Decrease) | % Change | Rank``)."""
    figures = _figures(rel)
    periods = sum(1 for c in figures if _by_periods(c))
    changes = sum(
        1 for c in figures if not _by_periods(c) and set(tokens(c.name)) & (CHANGE_WORDS | _RANK_WORDS)
    )
    return bool(figures) and (
        periods == len(figures)
        or (periods >= 2 and (2 * periods > len(figures) or periods + changes == len(figures)))
    )


#: A column of ranks, derived from the figures beside it: ``Rank 2023``.
_RANK_WORDS = frozenset({"rank", "ranking", "ranked"})


_figures = figures  # (the table's number columns: the cells a plan reads)


def _by_periods(col: RelColumn) -> bool:
    """Whether a column is headed by periods alone (``2024 › Q1``, ``FY2023``)."""
    return all(_is_period(p) for p in parts(col.name))


def _is_period(part: str) -> bool:
    """Whether a header part is a period alone: ``2023``, ``2023/24 (p)``, ``Q1 2024``, and as
    statistics offices code them, ``2023T1``, ``S1 2023``, ``2023M02``."""
    part = UNIT_AFTER_FIGURE.sub("", part.strip())  # (``2025 £m``, ``2024 $'000``: a year, in a unit)
    spelt = periods_spelt(without_marks(part.strip())).strip()
    return bool(_PERIOD.match(spelt)) or date_alone(part) or numeric_month(part) is not None


def _siblings(rel: Relation, question: str, best: list[RelColumn]) -> list[RelColumn]:
    """Columns that differ from the one chosen column at one header level only, where the question
    names both parts in full ("North, South and West Coast": three regions over the same
    year and measure; the one with the most words named won the count)."""
    if len(best) != 1:
        return []
    qw = question_words(question)
    said = set(tokens(question))
    mine = parts(best[0].name)
    total = row_total(rel)
    out = []
    for c in _figures(rel):
        level = _apart(best[0].name, c.name)
        if level is None:
            continue
        a, b = mine[level], parts(c.name)[level]
        # ("% Increase" beside "Increase": no word; ``Subsidiary Guarantors`` beside ``Non-Guarantor
        # Subsidiaries``: none, by stems)
        apart = {stem(w) for w in part_words(b)} - {stem(w) for w in part_words(a)}
        if total in (c, best[0]) and not set(tokens(parts(total.name)[level])) <= said:
            # "dwellings completed by housing associations": the measure's word, not the column
            # that adds up the parts (``All dwellings``), which is named with its "all"
            continue
        # (``2025 › 2025 Total`` beside ``2025 › Without Donor Restrictions``: named only by the year
        # the chosen column's group writes already, no sibling)
        by_year = {w for w in words_said(b, qw) if YEARS.fullmatch(w)} <= {
            y for p in mine if p != a for y in YEARS.findall(p)
        } and not words_said(b, qw) - set(YEARS.findall(b))
        if apart and named_part(a, qw) and named_part(b, qw) and not by_year:
            out.append(c)
        elif not apart and _said_apart(question, b, a):
            out.append(c)  # ("Guarantor Subsidiaries ... Non-Guarantor Subsidiaries": each written whole)
    return out


def _said_apart(question: str, inner: str, outer: str) -> bool:
    """Whether the question writes ``inner`` whole somewhere that is no part of a mention of
    ``outer`` (whose words hold all of inner's)."""
    wide = runs_of(question, outer)
    return any(not any(i0 <= j0 and j1 <= i1 for i0, i1 in wide) for j0, j1 in runs_of(question, inner))


def ops_as_names(rel: Relation, question: str) -> set[str]:
    """Operation words the question uses as a header's own word: "the highest quintile" where a
    column reads ``Q5 (highest)`` and the next word names no header ("the highest unemployment"
    ranks by the Unemployment column)."""
    header = rel.memo("header words", lambda: every_part(rel.columns))
    said = tokens(question)
    return {
        w
        for w, nxt in zip(said, [*said[1:], ""][: len(said)], strict=True)
        if w in OPERATION_WORDS and w in header and nxt and nxt not in header and nxt not in COMMON
    }


def _is_percent(col: RelColumn) -> bool:
    """A column of percentages: by its header or its unit (``%``, ``Percentage of total ... (%)``)."""
    unit = (col.unit or "").strip()
    return bool(_PERCENT.search(col.name)) or unit == "percent" or bool(re.search(r"\(%\)|^%", unit))


def _section_totalled(rel: Relation, key: str, totals: list[str]) -> str | None:
    """The one section the total lines named stand in, where their labels hold its name (``Total
    current assets`` in ``Current assets``); not a grand total after the last section's lines
    (``Total agricultural area`` below ``Other land``), which totals every row."""
    within = sections_of(rel, key, totals)
    own = {w for t in totals for w in tokens(t)}
    if len(within) != 1 or set(tokens(parts(within[0])[-1])) - COMMON - own:
        return None
    return within[0]


#: Words that leave what follows out: "except Midlea", "excluding London", "other than Wales".
_LEAVES_OUT = r"\b(?:except(?:\s+for)?|excluding|other\s+than|apart\s+from|but\s+not)\s+(?:the\s+)?"


def _left_out_said(question: str, label: str) -> bool:
    """Whether the question leaves a row out by its label ("all regions except Midlea")."""
    text = without_marks(label).strip()
    return (
        bool(text) and re.search(_LEAVES_OUT + re.escape(text) + r"\b", question, re.IGNORECASE) is not None
    )


def _non_said(question: str, section: str) -> bool:
    """Whether the question writes "non-" before every place it writes a word of a section's own
    name that has no "non" of its own ("non-current assets" against ``Current assets:``; not where
    it also names current assets)."""
    own = tokens(parts(section)[-1])
    if "non" in own:
        return False
    for w in own:
        if w in COMMON:
            continue
        places = [m.start() for m in re.finditer(rf"\b{re.escape(w)}\b", question, re.IGNORECASE)]
        if places and all(
            re.search(r"\bnon[-\s]?$", question[max(0, p - 4) : p], re.IGNORECASE) for p in places
        ):
            return True
    return False


def _long_term_said(question: str, section: str) -> bool:
    """Whether the question asks for the long-term side ("long term liabilities", "non-current")
    and names no current one, where ``section`` is the current side (``Current liabilities``)."""
    own = tokens(parts(section)[-1])
    if "current" not in own or "non" in own:
        return False
    if not re.search(r"\blong[-\s]?term\b|\bnon[-\s]?current\b", question, re.IGNORECASE):
        return False
    return not re.search(r"(?<![-\w])(?<!non )current\b", question, re.IGNORECASE)


def _rows(rel: Relation, question: str, chosen: list[RelColumn]) -> tuple[dict[str, list[str]], bool, bool]:
    """Per text column, the values the question names (see below), whether the question names any
    row label by its letters, and whether the row label was chosen by meaning.

    A value is named in full when the question holds all its words (near spellings included; the
    words of the column's own header and of a chosen column's header parts do not count); one whose
    words a more specific named value also holds is left to that one (``West`` inside ``West North
    Central``). Where no value of a column is named in full, the single best named in part is, when
    its words are not already explained by the others; in the row labels, when none is named even in
    part, the one closest in meaning."""
    qw = question_words(question)
    key = rel.key
    # (the words of the chosen headers name no value, nor do those of the row labels' own header
    # where the question asks for a label by it: "which age group" names no ``Working age`` section)
    header = every_part(chosen)
    if key is not None and _asks_which(question):
        after = re.findall(
            r"\b(?:which|what)\s+(?:[^\W_]+\s+of\s+)?([^\W_]+(?:\s+[^\W_]+)?)", question.casefold()
        )
        header |= {w for w in tokens(key.name) if any(near_word(w, q) for a in after for q in a.split())}
    scored: dict[str, list[tuple[float, str]]] = {}
    measure = _measure_words(rel)
    titled = {w for t in rel.table.titles for w in tokens(t.text)}  # (the title's words alone)
    named = named_values(rel, question)
    if key is not None and key.name not in named:
        labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)]
        qkey = [q for q in qw if not any(near_word(q, w) for w in tokens(key.name))]
        if not _asks_which(question) and (first := _first_word(labels, qkey, header)):
            scored[key.name] = first  # "the housing share": ``Housing, water, electricity, gas``
    for name, values in named.items():
        own = set(tokens(name))
        qcol = [q for q in qw if not any(near_word(q, w) for w in own)]
        pairs = [
            (
                _label_score(v, qcol, question)
                if key is not None and name == key.name
                else match_score(v, qcol, question),
                v,
            )
            for v in values
        ]
        # (a value named in part only by the table's measure words -- "spending" in a table of
        # spending -- is not named: ``Discretionary spending``)
        scored[name] = [
            (sc, v)
            for sc, v in pairs
            if sc >= 0.5 and set(tokens(v)) - header and (sc >= 1.0 or words_said(v, qcol) - measure)
        ]
        if not scored[name]:
            # (a word of the table's title names no value by itself: "among women in England" over
            # a table of England's regions is no ``East of England``)
            scored[name] = [
                (sc, v)
                for sc, v in (
                    _two_words(values, qcol, header)
                    or _first_word(values, qcol, header)
                    or _head_word(values, qcol, header)
                )
                if _not_by_title(v, qcol, titled)
            ]
        elif key is not None and name == key.name and _SHARE_FROM.search(question):
            # ("what share of total interest income came from loans": the part, named by its first
            # word beside the whole named in full)
            every_label = [v for v in rel.distinct_values(name) if isinstance(v, str)]
            held = {v for _, v in scored[name]}
            scored[name] += [p for p in _first_word(every_label, qcol, header) if p[1] not in held]
        if not scored[name] and key is not None and name == key.name and values:
            # no letters: the label closest in meaning, when it is clearly closest
            # (compared with the words no header or title of the table explains: "inventory" in
            # "the inventory balance in the company's own 2024 balance sheet" is ``Stock``)
            # (a value touched only by the title's words is not named by its letters: see above)
            by_letters = any(
                match_score(v, qw, question) >= 0.5 and _not_by_title(v, qw, titled) for v in values
            )
            rest = [q for q in qcol if q not in header and q not in measure and not q.isdigit()]
            # (nor the words of a section the question names whole: "among secondary fires" places
            # the lines asked in that section, it names none of them)
            placed = {
                w
                for v in named.get(SECTION, [])
                if isinstance(v, str) and match_score(v, qw, question) >= 1.0
                for w in tokens(v)
            }
            rest = [q for q in rest if not any(near_word(q, w) for w in placed)]
            nearest = values[0] if by_letters else meant_by_part(rel, key, rest)
            scored[name] = [(0.0, nearest)] if nearest is not None else []
    if key is not None and scored.get(SECTION) and scored.get(key.name):
        # ("Personalaufwand or Materialaufwand": the lines, not the groups they head as well -- where
        # each of two lines or more named heads a group named; "men in private institutions in
        # primary education" places a line in a group, "areas in the Lower Vale region" asks its lines)
        lines = {v.casefold() for sc, v in scored[key.name] if sc >= 1.0}
        groups = {v.split(" › ")[-1].casefold() for sc, v in scored[SECTION] if sc >= 1.0}
        if len(lines) >= 2 and lines <= groups:
            scored[SECTION] = [
                (sc, v) for sc, v in scored[SECTION] if v.split(" › ")[-1].casefold() not in lines
            ]
    if key is not None and scored.get(SECTION):
        # "the largest expense": a section named in part (``Personnel expenses``) by words that lines
        # outside it hold as well (``Interest and similar expenses``) names a kind of line, not it
        scored[SECTION] = [
            (sc, v) for sc, v in scored[SECTION] if sc >= 1.0 or not _said_outside(rel, v, words_said(v, qw))
        ]
    if scored.get(SECTION):
        # ("the non-current asset lines": not ``Current assets:``, whose word the question negates)
        scored[SECTION] = [(sc, v) for sc, v in scored[SECTION] if not _non_said(question, v)]
    full = [(n, v) for n, pairs in scored.items() for sc, v in pairs if sc >= 1.0]
    full = [
        (n, v)
        for n, v in full
        if not any(o != v and _within(v, o) and _only_inside(question, v, o) for _, o in full)
    ]
    said = initialisms(question)
    if said and len(full) > 1:
        # "cost per ASM" names ``Available seat miles (ASMs)`` in full, and ``Cost per available seat
        # mile (CASM)`` too, with one more word of the question
        cover = {v: _covered(v, qw, said) for _, v in full}
        full = [(n, v) for n, v in full if not any(cover[v] < cover[o] for _, o in full)]
    if key is not None and not re.search(r"\btotal\b", question, re.I):
        # "lease liabilities" names ``TOTAL LIABILITIES`` in full ("total" names nothing), but its
        # "liabilities" is the head of a phrase whose first word names other rows: no total meant
        # (and "accrued liabilities" names ``Accrued expenses and other current liabilities`` by its
        # first word, not ``Total liabilities`` by its last)
        labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)]
        first = _first_word(
            labels, [q for q in qw if not any(near_word(q, w) for w in tokens(key.name))], header
        )
        heads = _phrase_heads(question, [v for _, v in scored.get(key.name, [])] + [v for _, v in first])
        unmeant = {v for v in heads if totals_named(rel, key.name, {key.name: [v]})}
        full = [(n, v) for n, v in full if not (n == key.name and v in unmeant)]
        if key.name in scored:
            scored[key.name] = [(sc, v) for sc, v in scored[key.name] if v not in unmeant]
            if unmeant and not scored[key.name]:
                scored[key.name] = first
    if key is not None and key.name in scored:
        # "current financial assets" names ``TOTAL CURRENT ASSETS`` in full, but ``Other current
        # financial assets`` covers every word of the question that the total covers, and more
        mine = [v for n, v in full if n == key.name]
        # (the words of another line named in full name that line: "SG&A as a percentage of net
        # sales" names no ``Interest expense, net`` by the "net" of ``Net sales``)
        whole_lines = [v for v in mine if runs_of(question, v)]
        named_whole = {w for v in whole_lines for w in tokens(v)}
        cover = {
            v: _covered(v, qw, said) - header - (set() if v in whole_lines else named_whole)
            for _, v in scored[key.name]
        }
        # (a line named in full under a section the question names is not beaten by a wider line
        # whose more words are the section's: "interest-bearing deposits" is ``Deposits: ›
        # Interest-bearing``, not ``Interest-bearing deposits in other banks``)
        placing = {v: _placing_words(rel, key.name, v, qw) for v in mine}

        def beats(u: str, v: str) -> bool:
            return cover[u] > cover[v] and not cover[u] - cover[v] <= placing[v]

        # (where the question writes the total's words apart from the wider line's as well -- "total
        # non-current liabilities plus total current liabilities" -- the total stays, and the line
        # beats nothing)
        wider = [
            u
            for u, c in cover.items()
            if u not in mine and any(beats(u, v) and _only_inside(question, v, u, c) for v in mine)
        ]
        if wider:
            most = max(len(cover[u]) for u in wider)
            beaten = {
                v for v in mine if any(beats(u, v) and _only_inside(question, v, u, cover[u]) for u in wider)
            }
            full = [(n, v) for n, v in full if not (n == key.name and v in beaten)]
            full += [(key.name, u) for u in wider if len(cover[u]) == most]
    if key is not None and key.name in scored:
        # "net asset value per share" writes ``Net assets`` whole, but as the start of ``Net asset value
        # and redemption price per share``, whose first words it goes on to write: that line
        mine = [v for n, v in full if n == key.name]
        longer = [u for _, u in scored[key.name] if u not in mine]
        beaten = {
            v
            for v in mine
            if any(
                written_on(question, v, u)
                # (not where the words the longer line goes on with name the line's section: "deposits")
                and not words_said(u, qw) - set(tokens(v)) <= _placing_words(rel, key.name, v, qw)
                for u in longer
            )
        }
        if beaten:
            winners = [u for u in longer if any(written_on(question, v, u) for v in beaten)]
            full = [(n, v) for n, v in full if not (n == key.name and v in beaten)]
            full += [(key.name, u) for u in winners[:1]]
    if len(full) > 2:
        # ``Total equity and liabilities`` is named in full by "total current liabilities divided by
        # total equity", but each of its words only where the question writes another label whole
        runs = {v: runs_of(question, v) for _, v in full}
        qt = tokens(question)
        at = {v: {qt[k] for i, j in rs for k in range(i, j)} for v, rs in runs.items()}

        def elsewhere(v: str) -> bool:  # every own word of ``v`` lies where another label is written
            theirs = {q for o, words_ in at.items() if o != v for q in words_}
            return all(any(near_word(w, q) for q in theirs) for w in tokens(v) if w not in COMMON)

        full = [(n, v) for n, v in full if runs[v] or not elsewhere(v)]
    explained = header | {w for _, v in full for w in tokens(v)}
    out: dict[str, list[str]] = {}
    for n, v in full:
        out.setdefault(n, []).append(v)
    touched = meant = False
    compares_part = (
        parts_spelt(question) != question
        or _SHARE_FROM.search(question) is not None
        or _SHARE_OF_PART.search(question) is not None
        or _per_divides(rel, question)  # ("revenue per employee": a line over another)
        or _RATIO_OF.search(question) is not None  # ("the ratio of net loans to total deposits")
        or DIVIDES.search(question) is not None  # ("VAT owed / total liabilities": ``VAT payable``)
    )
    placed_in = sorted(scored.get(SECTION, []), reverse=True)
    if placed_in and (len(placed_in) == 1 or placed_in[0][0] > placed_in[1][0]):
        # (the section named best, even in part, explains its words: "groups within circulatory
        # diseases" touches no line by "diseases")
        by_section = explained | set(tokens(placed_in[0][1]))
    else:
        by_section = explained
    for name, pairs in scored.items():
        fresh = [(sc, v) for sc, v in pairs if sc == 0.0 or words_said(v, qw) - explained]
        if name == getattr(key, "name", None):
            touched = any(sc > 0 and words_said(v, qw) - by_section for sc, v in fresh)
        if name in out:
            # "cash below a third of total current assets": a row named in part beside one named in
            # full, by words of the question that no other named row or header explains, where the
            # question compares a figure with a part of another (elsewhere the row named in full
            # is the one meant and the other words only qualify it)
            # (the words that ask the share name no line: "what share of ..." is no ``Share capital``)
            asking = {"share", "shares", "proportion", "percentage", "percent", "fraction", "portion"}
            fresh = (
                [(sc, v) for sc, v in fresh if sc > 0.0 and words_said(v, qw) - explained - asking]
                if compares_part
                else []
            )
        if not fresh:
            continue
        best = sorted(fresh, reverse=True)
        headed_lines = [v for sc, v in best if sc > 0.0 and _head_said(v, qw)]
        if len(headed_lines) == 1 and best[0][0] < 1.0 and not _head_said(best[0][1], qw):
            # "long-term debt" names the line headed so (``Long-term debt, net of current portion``),
            # not the one it only qualifies (``Current portion of long-term debt``)
            best = [(1.0, headed_lines[0])]
        if len(best) == 1 or best[0][0] > best[1][0]:
            out.setdefault(name, []).append(best[0][1])
            meant = meant or best[0][0] == 0.0
        elif best[0][0] > 0.0:
            # "sales" touches ``Net sales`` and ``Cost of sales`` alike: the label whose head (the
            # words before its "of") the question says is the one named
            tied = [v for sc, v in best if sc == best[0][0]]
            headed = [v for v in tied if words_said(re.split(r"\s+of\s+", v, maxsplit=1, flags=re.I)[0], qw)]
            if len(headed) == 1:
                out.setdefault(name, []).append(headed[0])
    out = outside_sections(rel, designated(rel, question, out))
    dated = dated_rows(rel, question)
    if dated and key is not None and (len(dated) > 1 or set(out.get(key.name, [])) <= set(dated)):
        # (the balances on the days the question writes: those rows, where it sets two against each
        # other or names no other line)
        out = {n: v for n, v in out.items() if n not in (key.name, YEAR)} | {key.name: dated}
    bounded = bound_rows(rel, question, qw) if key is not None else []
    if bounded and key is not None and not set(bounded) <= set(out.get(key.name, [])):
        # ("net assets without donor restrictions at the end of 2025": ``NET ASSETS, END OF YEAR``)
        out = {n: v for n, v in out.items() if n != SECTION} | {key.name: bounded}
    ends = period_ends(rel, question) if key is not None and len(out.get(key.name, [])) > 1 else {}
    if ends and key is not None and any(v not in ends for v in out[key.name]):
        # ("dividends in the year ended 30 June 2024": the movement of the year the day closes, not
        # the balance ``At 30 June 2024`` by its words)
        out[key.name] = [v for v in out[key.name] if v not in ends]
        years = {str(y) for y in rel.distinct_values(YEAR)} if rel.values_of(YEAR) is not None else set()
        closed = sorted({y for y in ends.values() if y in years})
        if len(closed) == 1 and YEAR not in out:
            out[YEAR] = closed
    if key is not None and out.get(key.name) and len(out.get(SECTION, [])) <= 1:
        heading_lines = [_heading_meant(rel, v, question, qw, out.get(SECTION, [])) for v in out[key.name]]
        if heading_lines != out[key.name]:
            out = {n: v for n, v in out.items() if n != SECTION} | {key.name: heading_lines}
        headed_section = _section_headed_by(rel, out[key.name][0]) if len(out[key.name]) == 1 else None
        if headed_section is not None and SECTION not in out and (_asks_which(question) or _counts(question)):
            # ("which groups had more than 400 within handling injuries": the lines the named line
            # heads, not it)
            out = {n: v for n, v in out.items() if n != key.name} | {SECTION: [headed_section]}
    elif (
        key is not None
        and len(out.get(SECTION, [])) == 1
        and heading_line(rel, out[SECTION][0]) is not None
        and not _asks_which(question)
        and (not _counts(question) or _counts_the_measure(question, key))
    ):
        # ("the average number of falls across the three years": the line heading the group named)
        out = {n: v for n, v in out.items() if n != SECTION} | {key.name: [parts(out[SECTION][0])[-1]]}
    out = line_in_section(rel, out, [q for q in qw if q not in header])
    out = section_meant(rel, out, [q for q in qw if q not in header])
    if key is not None and len(out.get(key.name, [])) == 2 and len(out.get(SECTION, [])) == 1:
        # (``Net assets`` under the class named and the fund's ``NET ASSETS``: one line by its words,
        # the one in the section named; a share of it is over the other, :func:`_same_line_outside`)
        a, b = out[key.name]
        if a != b and a.casefold() == b.casefold():
            inside = [v for v in (a, b) if out[SECTION][0] in sections_of(rel, key.name, [v])]
            out[key.name] = inside[:1] or [a]
    if key is not None and out.get(SECTION) and out.get(key.name):
        # ("the area of arable crops in Westreach": the group named by two words of its own or more,
        # not the one line beside it, ``Total agricultural area``, named by one, which stands outside
        # the group)
        beside, sections_said = out[key.name], out[SECTION]
        if (
            len(beside) == 1
            and not set(sections_of(rel, key.name, beside)) & set(sections_said)
            and len(said_words(beside[0], qw) - COMMON) <= 1
            and max(len(said_words(v, qw) - COMMON - header) for v in sections_said) >= 2
        ):
            out, touched = {n: v for n, v in out.items() if n != key.name}, False
    # (a value named in full and again in part is named once)
    return {n: list(dict.fromkeys(v))[: MAX_NAMED + 1] for n, v in out.items()}, touched, meant


#: Two things set against each other without a number: "was A higher than B", "did A exceed B".
_SET_AGAINST_ROW = re.compile(
    r"\b(?:(?:higher|greater|larger|bigger|more|lower|smaller|less|fewer)\s+than|exceed(?:ed|s)?|"
    r"outnumber(?:ed|s)?)\b",
    re.IGNORECASE,
)


#: "give the change as a signed number", "with its sign": a fall asked as the signed change, later
#: less earlier, not as how much it fell by.
_SIGNED_ASKED = re.compile(r"\bsigned\b|\bwith\s+(?:its|the|a)\s+sign\b", re.IGNORECASE)

#: "was more tax paid than interest", "was more paid in tax than in interest": the first side's
#: words between the comparison's word and "than".
_MORE_OF_THAN = re.compile(
    r"\b(?:more|less|fewer|higher|lower|bigger|larger|greater|smaller)\b(?P<mid>(?:\s+[\w'&-]+){1,5}?)\s+than\b",
    re.IGNORECASE,
)


def _rows_either_side(rel: Relation, question: str, chosen: list[RelColumn]) -> list[str]:
    """The two lines a comparison sets against each other, each named (in part) on its own side of
    the comparison, where the whole question names fewer: "was admissions for infectious diseases
    higher than admissions for respiratory diseases" (the best line named in part by all the words
    is one of them only). None where the comparison is with a number or a side names no one line."""
    key = rel.key
    found = list(_SET_AGAINST_ROW.finditer(question))
    apart = list(_MORE_OF_THAN.finditer(question)) if not found else []
    if key is None or len(found) + len(apart) != 1 or comparison(question.casefold()) is not None:
        return []
    m = (found or apart)[0]
    # ("was more paid in tax than in interest": the words between "more" and "than" are the first
    # side's)
    first = question[: m.start()] + (f" {m.group('mid')}" if apart else "")
    named: list[str] = []
    for side in (first, question[m.end() :]):
        found_rows = _rows(rel, side, chosen)[0]
        rows = found_rows.get(key.name, [])
        if not rows and len(found_rows.get(SECTION, [])) == 1 and heading_line(rel, found_rows[SECTION][0]):
            rows = [parts(found_rows[SECTION][0])[-1]]  # (a chapter named: its own line)
        if len(rows) != 1 and named and apart:
            # (the second side's words with one more of the first side's, which it leaves unsaid:
            # "than in interest" is the interest paid)
            tried = {
                r
                for w in question_words(m.group("mid"))
                for r in _rows(rel, f"{side} {w}", chosen)[0].get(key.name, [])
            } - set(named)
            rows = sorted(tried)
        if len(rows) != 1:
            return []
        named.append(rows[0])
    return named if named[0] != named[1] else []


def _section_headed_by(rel: Relation, label: str) -> str | None:
    """The section whose own line (:func:`~gridsight.qa._lines.heading_line`) is labelled ``label``."""
    sections = [s for s in dict.fromkeys(rel.values_of(SECTION) or []) if isinstance(s, str)]
    held = [s for s in sections if parts(s)[-1] == label and heading_line(rel, s) is not None]
    return held[0] if len(held) == 1 else None


def _own_header_words(key: RelColumn, labels: list[str]) -> frozenset[str]:
    """The words of the row labels' header that no label's own words begin with (``Income from:``
    over ``Donations and legacies`` ... ``Total income``: "from"; and "income", which only the total
    ends with): words that say what every row is."""
    heads = {tokens(v)[0] for v in labels if tokens(v)}
    return frozenset(w for w in tokens(key.name) if w not in COMMON and w not in heads)


def _heading_meant(rel: Relation, label: str, question: str, qw: list[str], placed: list[str]) -> str:
    """The line heading the group a line stands in, where the question names the line only by words
    its group's name holds ("infectious diseases" over ``Certain infectious and parasitic diseases``
    and its ``Intestinal infectious diseases``: the chapter, which the group's own word would have
    named apart), and that line holds figures of its own; else ``label``. ``placed``: the section
    the question was found to place the line in (none, or that group)."""
    assert rel.key is not None
    held = sections_of(rel, rel.key.name, [label])
    if len(held) != 1 or heading_line(rel, held[0]) is None or not set(placed) <= set(held):
        return label
    head = parts(held[0])[-1]
    said = words_said(label, qw) - COMMON
    own = {w for w in tokens(head) if w not in COMMON}
    # (a word of the line's own that the question writes names the line, even one too common to
    # count as a word asked: "theft from the person" is no ``Theft offences``)
    apart = {w for w in tokens(label) if w not in STOP_WORDS and w not in tokens(head)}
    written = set(tokens(question))
    if apart & written:
        return label
    if said and all(any(near_word(q, w) for w in own) for q in said) and said <= words_said(head, qw):
        return head
    return label


#: "over the three years", "across all years", "in all three years", "for the period as a whole".
_ACROSS_YEARS = re.compile(
    r"\b(?:over|across|in|during|for)\s+(?:all\s+|each\s+of\s+)?(?:the\s+)?(?:(?:two|three|four|five|\d)\s+)?"
    r"(?:financial\s+|fiscal\s+)?years\b|\bin\s+total\b|\bcombined\b|\baltogether\b",
    re.IGNORECASE,
)


def _over_year_labels(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """A line a statement writes once in each year's block (a three-year statement of changes in
    equity: ``Dividends`` under 2023, 2024 and 2025, which the view labels in its ``Year`` column),
    asked without a year: its sum or mean over the years ("total dividends over the three years"), or
    the year it was largest or smallest in ("in which year were dividends the largest"; a line shown
    negative in every year by its size). None where a year is named or the line is not repeated."""
    years = rel.values_of(YEAR)
    key = rel.key
    if years is None or key is None:
        return None
    held = {str(y) for y in years if y is not None}
    if set(YEARS.findall(question)) & held:
        return None
    cols = _columns(rel, question) or [t for t in [row_total(rel)] if t is not None]
    if len(cols) != 1:
        return None
    rows, _, _ = _rows(rel, question, cols)
    lines = rows.get(key.name, [])
    if len(lines) != 1 or set(rows) - {key.name}:
        return None
    labels = rel.values_of(key.name) or []
    values = rel.values_of(cols[0].name) or []
    mine = [
        (y, v) for lab, y, v in zip(labels, years, values, strict=True) if lab == lines[0] and y is not None
    ]
    if len({y for y, _ in mine}) < 2 or len({y for y, _ in mine}) != len(mine):
        return None
    col, where = quote(cols[0].name), f"{quote(key.name)} = {literal(lines[0])} AND {quote(YEAR)} IS NOT NULL"
    qwords = set(words(question))
    ranked = [w for w in qwords if superlative(w)]
    if (_ASKS_YEAR.search(question) or re.search(r"\bin\s+which\s+year\b", question, re.I)) and ranked:
        down = any(w in DESCENDING or (w.endswith("est") and w not in ASCENDING) for w in ranked)
        size = f"ABS({col})" if all(isinstance(v, (int, float)) and v <= 0 for _, v in mine) else col
        order = "DESC" if down and not set(ranked) & ASCENDING else "ASC"
        return CellPlan(
            f"SELECT {quote(YEAR)} FROM data WHERE {where} ORDER BY {size} {order} LIMIT 1", "argmax", "text"
        )
    if expected in (None, "number") and _ACROSS_YEARS.search(question):
        if qwords & AVERAGE_WORDS:
            return CellPlan(f"SELECT AVG({col}) FROM data WHERE {where}", "average", "number")
        if qwords & SUM_WORDS or re.search(r"\bhow\s+much\b", question, re.I):
            return CellPlan(f"SELECT SUM({col}) FROM data WHERE {where}", "sum", "number")
    return None


def _class_share(rel: Relation, question: str) -> CellPlan | None:
    """The share of a line that one class's block holds ("what share of the fund's net assets
    belonged to Class I shares"): the line in the block the question designates (``Net assets``
    under ``CLASS I SHARES:``) over the same line on its own (``NET ASSETS``), in the one column
    named. None unless the question asks a share and designates one block of the table's."""
    key = rel.key
    if key is None or not _SHARE.search(question) or not DESIGNATOR.search(question):
        return None
    keys, sections = rel.values_of(key.name) or [], rel.values_of(SECTION) or []
    blocks = designated(rel, question, {SECTION: []}).get(SECTION, [])
    cols = _columns(rel, question)
    if len(blocks) != 1 or len(cols) != 1 or not sections:
        return None
    qw = question_words(question)
    inside = {k for k, sec in zip(keys, sections, strict=False) if sec == blocks[0] and isinstance(k, str)}
    alone = {k for k, sec in zip(keys, sections, strict=False) if sec is None and isinstance(k, str)}
    pairs = [
        (a, b)
        for a in inside
        for b in alone
        if a.casefold() == b.casefold() and match_score(a, qw, question) >= 1.0
    ]
    if len(pairs) != 1:
        return None
    part = _cell(cols[0].name, {key.name: pairs[0][0], SECTION: blocks[0]})
    whole = _cell(cols[0].name, {key.name: pairs[0][1]})
    scale = "100.0" if _PERCENT_WORD.search(question) else "1.0"
    return CellPlan(f"SELECT {scale} * {part} / {whole}", "share", "number")


#: A bracket at a label's end that qualifies it: ``Operating income (loss)``, ``(Note 4)``.
_TRAILING_BRACKET = re.compile(r"\s*\([^()]*\)\s*$")


def _label_score(label: str, qw: list[str], question: str) -> float:
    """How fully the question names a row label (:func:`match_score`), the label's closing bracket
    optional: "operating profit" names ``Operating profit (loss)`` in full."""
    score = match_score(label, qw, question)
    bare = _TRAILING_BRACKET.sub("", label)
    return max(score, match_score(bare, qw, question)) if bare and bare != label else score


def _covered(value: str, qw: list[str], said: AbstractSet[str] = frozenset()) -> set[str]:
    """The question's words that a value's words name (near spellings included), and the question's
    initialisms (``said``) that a run of them spells."""
    own = tokens(value)
    spelt = {s for s in said if spelt_runs(own, {s})}
    return {q for q in qw if any(near_word(w, q) for w in own) or q in spelt or q.removesuffix("s") in spelt}


def _two_words(values: Sequence[str], qw: list[str], header: set[str]) -> list[tuple[float, str]]:
    """The one value that the question names by two words or more when none is named by half its
    words ("sweet corn" for ``Sweet corn and baby corn mix``), as a part-named value."""
    hits = sorted(
        ((len(words_said(v, qw) - header), v) for v in values if len(tokens(v)) > 3), key=lambda p: -p[0]
    )
    if hits and hits[0][0] >= 2 and (len(hits) == 1 or hits[1][0] < hits[0][0]):
        return [(0.5, hits[0][1])]
    return []


def _not_by_title(value: str, qw: list[str], titled: set[str]) -> bool:
    """Whether ``value`` is named by more than words of the table's title (``titled``): "women in
    Wales" over a table titled "..., Wales" names no ``Mid Wales``."""
    said = words_said(value, qw)
    return not said or not said <= titled


def _measure_words(rel: Relation) -> set[str]:
    """The words of the table's titles and headers: what every figure of it measures."""
    return rel.memo(
        "measure words",
        lambda: {w for t in rel.table.titles for w in tokens(t.text)} | every_part(rel.columns),
    )


def _first_word(values: Sequence[str], qw: list[str], header: set[str]) -> list[tuple[float, str]]:
    """The one value that the question names by its first word, a word no other value holds
    ("housing" for ``Housing, water, electricity, gas``), as a part-named value."""
    return _word_named(values, qw, header, 0)


def _head_word(values: Sequence[str], qw: list[str], header: set[str]) -> list[tuple[float, str]]:
    """The one value that the question names by its head, its last word, a word no other value
    holds ("receivables" for ``(Increase)/decrease in trade and other receivables``), as a
    part-named value."""
    return _word_named(values, qw, header, -1)


def _word_named(values: Sequence[str], qw: list[str], header: set[str], at: int) -> list[tuple[float, str]]:
    """The one value whose own word at ``at`` (its first, 0, or last, -1, leaving grammar words
    aside) the question names, no header holds and no other value holds, as a part-named value."""
    hits = [
        v
        for v in values
        if (own := [w for w in tokens(v) if w not in COMMON])
        and own[at] not in header
        and any(near_word(own[at], q) for q in qw)
        and not any(own[at] in tokens(o) for o in values if o != v)
    ]
    return [(0.5, hits[0])] if len(hits) == 1 else []


def _head_said(label: str, qw: list[str]) -> bool:
    """Whether the question names every word of a label's head: its words before "of" or a comma
    (``Long-term debt`` of ``Long-term debt, net of current portion``)."""
    head = re.split(r"\s+of\s+|,", label, maxsplit=1)[0]
    own = [w for w in tokens(head) if w not in COMMON]
    return bool(own) and all(any(near_word(w, q) for q in qw) for w in own)


#: The nouns a question asks costs by: "which expense", "which cost", "which charge".
_COST_NOUNS = frozenset("expense expenses cost costs charge charges outflow outflows".split())


def _costs_asked(rel: Relation, question: str, col: str) -> bool:
    """Whether "which <cost noun>" asks among lines a statement shows in brackets: the noun heads no
    line nor section, and the column holds figures both above and below nil."""
    m = _WHICH_NOUN.search(question)
    if (
        m is None
        or m.group("noun").casefold() not in _COST_NOUNS
        or _names_lines(rel, m.group("noun").casefold())
    ):
        return False
    figures = [v for v in rel.values_of(col) or [] if isinstance(v, int | float) and not isinstance(v, bool)]
    return any(v < 0 for v in figures) and any(v > 0 for v in figures)


def _placing_words(rel: Relation, key: str, label: str, qw: list[str]) -> set[str]:
    """The words the question names of the one section a line stands in (none where it stands in
    several, or the question names none of the section's words)."""
    placed = [s for s in sections_of(rel, key, [label]) if words_said(parts(s)[-1], qw)]
    return words_said(parts(placed[0])[-1], qw) if len(placed) == 1 else set()


def _within(a: str, b: str) -> bool:
    """Every word of ``a`` is in ``b``, which has more (``Passengers`` in ``Passenger revenue``;
    ``Total liabilities`` in ``Lease liabilities``, as "total" names nothing)."""
    ta, tb = set(tokens(a)), set(tokens(b))
    if _inside(ta, tb):
        return True
    return _inside(ta - COMMON, tb - COMMON)


def _written_apart(question: str, label: str, others: Sequence[str]) -> list[int]:
    """Where (at which of its words) the question writes ``label`` whole outside every place where
    it writes one of ``others`` whole."""
    theirs = [r for o in others for r in runs_of(question, o)]
    return [i for i, j in runs_of(question, label) if not any(s <= i and j <= e for s, e in theirs)]


def _only_inside(question: str, a: str, b: str, named: AbstractSet[str] | None = None) -> bool:
    """Whether every place the question writes label ``a`` whole lies inside one where it writes
    ``b`` whole (or the words of ``b`` that it ``named``): "total non-current liabilities plus total
    current liabilities" writes ``Total current liabilities`` on its own too. A label written
    nowhere whole is inside. ``b`` is written whole by its own (not common) words."""
    # (a unit in brackets need not be written: "passenger load factor" is ``Passenger load factor
    # (points)`` written whole)
    unbracketed = set(tokens(re.sub(r"\([^()]*\)", " ", b))) - COMMON
    theirs = runs_of(question, b, named if named is not None else unbracketed or set(tokens(b)) - COMMON)
    mine = runs_of(question, a)
    own, qt = tokens(a), tokens(question)
    if not mine and len(own) == 1:
        # ("total equity" writes ``Equity``, a statement's closing line, whole: not inside ``Total
        # equity and liabilities``)
        mine = [
            (k - 1, k + 1) for k in range(1, len(qt)) if qt[k - 1] == "total" and near_word(own[0], qt[k])
        ]
    return all(any(s <= i and j <= e for s, e in theirs) for i, j in mine)


def _inside(ta: set[str], tb: set[str]) -> bool:
    return 0 < len(ta) < len(tb) and all(any(near_word(x, y) for y in tb) for x in ta)


def _levels(chosen: list[RelColumn]) -> list[int]:
    """The header levels at which the chosen columns differ (a period may be a year and a half:
    ``2024 › H1``); none when their paths have different depths."""
    paths = [parts(c.name) for c in chosen]
    if len({len(p) for p in paths}) != 1:
        return []
    return [i for i in range(len(paths[0])) if len({p[i].casefold() for p in paths}) > 1]


def _total_columns(rel: Relation, chosen: list[RelColumn]) -> set[str]:
    """Chosen columns that hold at least the sum of the others in every row: their total (where one
    column adds up all the others exactly, it alone: a part that outweighs the rest is a part)."""
    whole = row_total(rel)
    if whole is not None:
        return {whole.name} & {c.name for c in chosen}
    idx = {c.name: i for i, c in enumerate(rel.columns)}
    if _added_up_beside(rel, chosen, idx):
        return set()  # (another column adds the chosen up: they are its parts, the largest as well)
    out: set[str] = set()
    for c in chosen:
        others = [o for o in chosen if o is not c]
        rows = 0
        for r in range(len(rel.rows)):
            mine = rel.values[idx[c.name]][r]
            rest = [rel.values[idx[o.name]][r] for o in others]
            if not isinstance(mine, int | float) or not all(isinstance(x, int | float) for x in rest):
                continue
            if mine < TOTAL_SHARE * sum(rest) or not rest:
                break
            rows += 1
        else:
            if rows and others:
                out.add(c.name)
    return out


def _added_up_beside(rel: Relation, chosen: list[RelColumn], idx: dict[str, int]) -> bool:
    """Whether a figure column other than the chosen adds them up on most rows (``All sectors``
    beside ``Long distance | Regional | Commuter``), within each row's rounding."""
    names = {c.name for c in chosen}
    cols = [rel.values[idx[c.name]] for c in chosen]
    for other in _figures(rel):
        if other.name in names:
            continue
        total = rel.values[idx[other.name]]
        checked = adds = 0
        for r in range(len(rel.rows)):
            row = [col[r] for col in cols]
            if not isinstance(total[r], int | float) or not all(isinstance(x, int | float) for x in row):
                continue
            checked += 1
            room = 0.5 * len(row) * rounding_step([*row, total[r]]) + 1e-9
            adds += abs(sum(row) - total[r]) <= room
        if checked >= 2 and 3 * adds >= 2 * checked:
            return True
    return False


def _where(conds: dict[str, str], extra: Sequence[str] = ()) -> str:
    parts_ = [f"{quote(k)} = {literal(v)}" for k, v in conds.items()] + list(extra)
    return (" WHERE " + " AND ".join(parts_)) if parts_ else ""


def _cell(col: str, conds: dict[str, str]) -> str:
    return f"(SELECT {quote(col)} FROM data{_where(conds)})"


def _cell_in(rel: Relation, col: str, conds: dict[str, str]) -> str:
    """The cell of ``col`` that ``conds`` name; a section named without a line is its closing total
    ("current assets divided by current liabilities" where each section's total has no label of
    its own: the first total row of the section), not whichever of its lines comes first."""
    key = rel.key
    if key is not None and key.name not in conds and SECTION in conds:
        closing = closing_total(rel, conds[SECTION])
        if closing is None and len(conds) == 1:
            # (a chapter named, whose own line heads its groups with their sum: that line)
            at = heading_line(rel, conds[SECTION])
            if at is not None:
                return f"(SELECT {quote(col)} FROM data WHERE {quote(POSITION)} = {at})"
        if closing is not None:
            return f"(SELECT {quote(col)} FROM data{_where(conds, [f'{quote(POSITION)} = {closing}'])})"
    if key is not None and key.name in conds and SECTION in conds:
        # ("what share of profit after tax was attributable to ordinary shareholders": the section
        # places the line under it, not ``Profit after tax``, which stands outside it)
        pairs = list(zip(rel.values_of(key.name) or [], rel.values_of(SECTION) or [], strict=False))
        label, section = conds[key.name], conds[SECTION]
        if (label, section) not in pairs and sum(1 for k, _ in pairs if k == label) == 1:
            conds = {k: v for k, v in conds.items() if k != SECTION}
    return _cell(col, conds)


def _unnamed_totals_named(rel: Relation, question: str, rows: dict[str, list[str]]) -> dict[str, str]:
    """The sections named whose closing totals have no label, as operands ({``Current assets``: its
    section}): one beside the lines named, or two and more set against each other ("total current
    assets divided by total current liabilities"), where the question writes each section's name
    whole and sets figures against each other (no "which", no count); else none."""
    key = rel.key
    named, sections = (rows.get(key.name, []) if key is not None else []), rows.get(SECTION, [])
    if key is None or (len(sections) != 1 if named else len(sections) < 2):
        return {}
    if _asks_which(question) or _counts(question) or not _operates(question):
        return {}
    out = {}
    for section in sections:
        name = unnamed_total(rel, question, section, named, labelled=True)
        if name is None or name in out:
            return {}
        out[name] = section
    return out


def _not_total(rel: Relation) -> list[str]:
    return [f"{quote(TOTAL)} = 0"] if any(c.name == TOTAL for c in rel.columns) else []


def _whole(rel: Relation, col: str, siblings: dict[str, str]) -> str | None:
    """What a share of one cell is a share of: the table's total row (in the named section, if
    any), else the sum of the named section's rows; None when neither is there."""
    flags, sections = rel.values_of(TOTAL), rel.values_of(SECTION)
    if flags is not None:
        inside = [
            i
            for i, v in enumerate(flags)
            if v == 1 and (sections is None or sections[i] == siblings.get(SECTION, sections[i]))
        ]
        if len(inside) == 1:  # one total for the rows in question: the whole they are parts of
            return f"(SELECT {quote(col)} FROM data{_where(siblings, [f'{quote(TOTAL)} = 1'])})"
        if inside and not siblings:
            # totals of groups beside the grand total (``Theft offences`` and ``Total recorded
            # crime``): the whole is the largest of them
            return f"(SELECT MAX({quote(col)}) FROM data WHERE {quote(TOTAL)} = 1)"
    if siblings:
        return f"(SELECT SUM({quote(col)}) FROM data{_where(siblings, _not_total(rel))})"
    return None


def _total_beside(rel: Relation, question: str, col: str, fixed: dict[str, str]) -> str | None:
    """The same row's cell in the total column beside ``col`` (same header path but for one part that
    says total), when the question says total: what "what share of the total ..." divides by."""
    if not re.search(r"\b(total|all)\b", question, re.IGNORECASE):
        return None
    for c in rel.columns:
        level = _apart(col, c.name)
        total = level is not None and set(words(parts(c.name)[level])) <= SUM_WORDS | {"all"}
        if c.role == "data" and c.kind == "number" and total:
            return _cell(c.name, fixed)
    return None


#: "the share of <whole> was <part>": the whole is named before the verb, the part after it.
_SHARE_SPLIT = re.compile(
    r"\b(?:share|fraction|proportion|portion|percentage|percent)\s+of\s+(.+?)\s+"
    r"(?:was|were|is|are|came|comes|come|belonged|belongs|went)\s+(.+)$",
    re.IGNORECASE,
)


def _whole_of_parts(rel: Relation, question: str, col: str, fixed: dict[str, str]) -> str | None:
    """The same row's cell in the total column beside ``col``, where the question names the column's
    own part after the share's verb and not in its whole ("what proportion of employment in
    manufacturing was attributable to men": ``Men`` over ``Total`` on the manufacturing line, not
    over the total line); else None."""
    m = _SHARE_SPLIT.search(question)
    if m is None:
        return None
    whole_words, part_words = question_words(m.group(1)), question_words(m.group(2))
    for c in rel.columns:
        level = _apart(col, c.name)
        if level is None or c.role != "data" or c.kind != "number":
            continue
        own = set(words(parts(c.name)[level])) - set(YEARS.findall(parts(c.name)[level]))
        if not own or not (own <= SUM_WORDS | {"all"} or _adds_siblings(rel, c.name, level)):
            continue  # (``2026 Total``: its year is its group's; ``2015`` alone is no total)
        mine = parts(col)[level]
        others = sorted(
            {parts(o.name)[level] for o in _figures(rel) if _apart(col, o.name) == level} | {mine}
        )
        if _part_said(mine, others, part_words) and not _part_said(mine, others, whole_words):
            return _cell(c.name, fixed)
    return None


def _adds_siblings(rel: Relation, name: str, level: int) -> bool:
    """Whether the column ``name`` holds, on every row that has its figures, the sum of the columns
    whose paths differ from its own only at ``level`` (``2024 › Persons`` beside ``2024 › Males`` and
    ``2024 › Females``): a total its header does not call one."""

    def compute() -> bool:
        siblings = [c for c in _figures(rel) if c.name != name and _apart(name, c.name) == level]
        mine = rel.values_of(name) or []
        theirs = [rel.values_of(c.name) or [] for c in siblings]
        checked = 0
        for i, v in enumerate(mine):
            row = [t[i] for t in theirs]
            if not isinstance(v, int | float) or not all(isinstance(x, int | float) for x in row):
                continue
            if abs(float(v) - sum(float(x) for x in row)) > 0.5 + 1e-6 * abs(float(v)):
                return False
            checked += 1
        return len(siblings) >= 2 and checked >= 2

    return rel.memo(f"adds siblings {level} {name}", compute)


def _same_line_outside(rel: Relation, question: str, col: str, fixed: dict[str, str]) -> str | None:
    """The line of the same name outside the named section, where the question names the section
    after the line, as the part the line's share is asked of ("what share of the fund's net assets
    belonged to the Investor Class": ``Net assets`` under ``INVESTOR CLASS:`` over ``NET ASSETS``,
    not over the sum of the class's lines); else None."""
    key = rel.key
    labels, sections = (rel.values_of(key.name) if key else None), rel.values_of(SECTION)
    if key is None or SECTION not in fixed or key.name not in fixed or labels is None or sections is None:
        return None
    line, section = fixed[key.name], fixed[SECTION]
    qt = tokens(question)
    at_line = [i for i, q in enumerate(qt) if any(near_word(w, q) for w in tokens(line) if w not in COMMON)]
    own = [w for w in tokens(section) if w not in COMMON]
    at_section = [i for i, q in enumerate(qt) if any(near_word(w, q) for w in own)]
    if not at_line or not own or not at_section or min(at_section) < max(at_line):
        return None
    same = line.casefold().strip()
    outside = {
        sections[i]
        for i, v in enumerate(labels)
        if isinstance(v, str) and v.casefold().strip() == same and sections[i] != section
    }
    if len(outside) > 1 and None in outside:
        outside = {None}  # (the line under no section: the statement's own, not another class's)
    if len(outside) != 1:
        return None
    (where,) = outside
    conds = f"{quote(key.name)} = {literal(line)} COLLATE NOCASE AND " + (
        f"{quote(SECTION)} IS NULL" if where is None else f"{quote(SECTION)} = {literal(where)}"
    )
    return f"(SELECT {quote(col)} FROM data WHERE {conds} LIMIT 1)"


def _part_said(part: str, others: list[str], qw: list[str]) -> bool:
    """Whether words name a header part by its letters or, among its siblings, by meaning ("men":
    ``Males``)."""
    from gridsight.text import meaning_map

    if any(near_word(w, q) for w in part_words(part) for q in qw):
        return True
    return others.index(part) in meaning_map(qw, others).values() if part in others else False


def _parts_asked(rel: Relation, question: str, chosen: list[RelColumn]) -> list[RelColumn]:
    """The parts of the whole the one chosen column is, where the question asks which of them ("which
    sector had the most journeys in 2012" over ``All sectors`` beside ``Long distance | Regional |
    Commuter``): the columns that differ from it at its last level only; else ``chosen``."""
    last = parts(chosen[0].name)[-1]
    asked = re.findall(r"\b(?:which|what)\s+([^\W\d_]+)", question.casefold())
    # (``All sectors`` named by "which sector"; a bare ``Total`` by any "which <noun>" that asks no
    # period: "which sex had the most live births in 2022" over ``Boys | Girls | Total``)
    named = any(near_word(w, a) for w in tokens(last) for a in asked)
    which = re.search(r"\bwhich\s+[^\W\d_]+", question, re.IGNORECASE)  # ("what figure ..." asks a figure)
    bare = _whole_label(last) and len(tokens(last)) == 1 and bool(which) and not asks_period(question)
    if not re.match(r"(?:all|total)\b", last.strip(), re.I) or not (named or bare):
        return chosen
    level = len(parts(chosen[0].name)) - 1
    siblings = [c for c in _figures(rel) if c is not chosen[0] and _apart(chosen[0].name, c.name) == level]
    return siblings if len(siblings) >= 2 else chosen


def _apart(a: str, b: str) -> int | None:
    """The one header level at which two columns' paths differ; None when they differ at none or
    several, or have paths of different depths."""
    pa, pb = parts(a), parts(b)
    if len(pa) != len(pb):
        return None
    differ = [i for i, (x, y) in enumerate(zip(pa, pb, strict=True)) if x.casefold() != y.casefold()]
    return differ[0] if len(differ) == 1 else None


def cell_plan(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """The plan for ``question`` over ``rel`` (see the module docstring), or None. Two total lines the
    question offers "A or B" are the pool to choose from; where no plan chooses between them, the
    lines they total are (:func:`_offered`)."""
    question = slashes_named(rel, question)  # ("fixed/non-current asset": the name the table writes)
    question = superlative_led(rel, question)  # ("Biggest non-current asset at Mar 2025?": which one)
    question = _kind_of_columns(rel, question)  # ("which category" over ``... | All tenures``: which tenure)
    marked = marked_plan(
        rel, question, lambda: _columns(rel, question), _counts(question) is not None, _asks_which(question)
    )
    if marked is not None:  # ("how many rows in the 2022-23 column are marked [c]")
        return CellPlan(*marked)
    bounded = _against_a_row(rel, question, expected)
    if bounded is not None:  # ("how many countries were above the EU figure in 2019")
        return bounded
    available = _latest_available(rel, question)
    if available is not None:  # ("the most recent available rate for Finland": 2022's, 2023 being ":")
        return available
    aside = combining_left_out(question, COMBINED) if entity_columns(rel) else None
    question = aside or question  # ("excluding eliminations and the consolidated column": no entities)
    if against_plan(rel, question):  # ("did sales beat budget": exceed it; "miss": come in below)
        question = _BEAT.sub("exceed", _MISSED.sub("come in below", question))
    rises = (
        _columns_moved(rel, question, expected)
        or _rises_over_periods(rel, question, expected)
        or _in_each_period(rel, question, expected)
        or _class_share(rel, question)
        or _over_year_labels(rel, question, expected)
    )
    if rises is not None:
        return rises
    leaving = _leaving_out(rel, question, expected)
    if leaving is not None:  # ("which item (excluding 'Other' and the total) was highest")
        ranked = _cell_plan(rel, leaving.question, expected, offers=True)
        over_rows = ranked is not None and (ranked.kind in _OVER_ROWS or ranked.kind in ("average", "sum"))
        if ranked is not None and over_rows and ranked.sql.count(" FROM data") == 1:
            return _left_out_of(rel, ranked, leaving)
    planned = _cell_plan(rel, question, expected, offers=True)
    if planned is None and re.search(r"\bor\b", question, re.IGNORECASE):
        planned = _cell_plan(rel, question, expected, offers=False)
    if planned is None and expected == "boolean":
        planned = _change_line_signed(rel, question)
    if planned is None or planned.kind == "lookup":
        return planned  # (a cell alone is read in its own column's unit)
    numbers = [c.name for c in rel.columns if c.kind == "number"]
    scaled = on_one_scale(planned.sql, numbers)
    return planned if scaled == planned.sql else replace(planned, sql=scaled, formula=None)


#: Where the question says the figure is written: "according to the budget vs actual report", "as
#: shown in the cash flow statement". The table is chosen by then; the words name no cell.
_SOURCE_NAMED = re.compile(
    r",?\s*\b(?:according\s+to|as\s+(?:shown|reported|presented|stated|given)\s+in|per)\s+(?:the|this)\s+"
    r"[^,?.;]{0,60}?\b(?:report|table|statement|schedule|summary|accounts|sheet|note)s?\b",
    re.IGNORECASE,
)


def _cell_plan(rel: Relation, question: str, expected: str | None, offers: bool) -> CellPlan | None:
    question = slashes_named(rel, _SOURCE_NAMED.sub("", question))
    # ("the ratio of (non-current liabilities plus current liabilities) to total equity": a sum
    # written out, divided as written)
    question = _BRACKETED_RATIO.sub(r"\g<a> divided by ", question)
    stated = _defined(rel, question, expected) or _agreed(rel, question, expected)
    if stated is not None:
        return stated  # (an "unclear" one too: no other plan guesses the line)
    total_read = _whole_unnamed(rel, question, expected)
    if total_read is not None:  # ("what were actual sales" over sales by division and their ``Total``)
        return total_read
    periods = _periods_asked(rel, question)
    series = _series(rel, question)  # ("pledges receivable at every balance sheet date, oldest first")
    series = series or _every_column(rel, question)  # ("net assets for each of the four columns")
    if (
        not any(PATH_SEP in c.name for c in rel.columns if c.role == "data")
        and not any(c.name == SECTION for c in rel.columns)
        and not (rel.key is not None and (lines_by_period(rel) or cross_table(rel)))
        and expected != "boolean"
        and not long_form(rel)
        and not periods_down(rel)
        and not unnamed_totals(rel)
        and not total_at_an_end(rel)
        and not years_in_blocks(rel)
        and not entity_columns(rel)  # (segments beside their total: the columns are what is asked among)
        and not periods  # ("for which year was X lowest": among the period columns of X's row)
        and not series  # ("X at every date, oldest first": one line across them)
        and not against_plan(rel, question)  # ("by how much did X beat budget": two cells of its row)
    ):
        # a flat table: the general planner and the model read it, unless it is a statement: named
        # lines over period columns ("in which year was net income highest", "operating income
        # divided by net sales in 2023"), or the question asks yes or no of named cells ("does A
        # have more league apps than B": the planner counts and sums, it does not set cells against
        # each other; the cells route comes last for flat tables), or it has total rows only the
        # view marks (a country under its regions, which a count passes over)
        return None
    entities = _columns_counted(rel, question)  # ("in how many funds was X above 2,000,000")
    named_columns = _columns(rel, question)
    kind = _kind_asked(question) or _every_period(question)
    if periods and kind and not any(_period_kind(c) == kind for c in named_columns):
        # ("which quarter ... in fiscal 2025": the quarters under it, not the ``FY25`` column "2025" names)
        named_columns = [c for c in named_columns if c in periods]
    total_column = None
    if not (series or entities or named_columns or periods) and rel.key is not None:
        # (no column named: the one that adds up the others, the whole line's figure -- ``Total``
        # beside ``Without donor restrictions`` and ``With donor restrictions``)
        total_column = row_total(rel)
        named_columns = [total_column] if total_column is not None else _grand_whole(rel)
    year_of_quarters = (
        _year_of_quarters(rel, question) if not (series or entities or named_columns or periods) else None
    )
    if year_of_quarters is not None:  # ("total revenue for 2024" over ``2024`` by Q1 .. Q4)
        return year_of_quarters
    if (
        not (series or entities or named_columns or periods)
        and rel.key is not None
        and expected in (None, "number")
        and not _asks_which(question)
        and not set(words(question)) & (CHANGE_WORDS | RISE_WORDS | FALL_WORDS | AVERAGE_WORDS)
        and not re.search(
            r"\b(?:sum|add(?:ed|s)?\s+up|altogether|combined|in\s+total|over\s+all)\b", question, re.I
        )
        and not _moves_asked(rel, question)
        and not PLANNED.search(question)
        and not _PERIOD_WRITTEN.search(question)
    ):
        # ("what was closing stock?" of a balance sheet at three dates: its latest, none named)
        named_columns = _latest_unnamed(rel)
    if not (series or entities or named_columns or periods) and _moves_asked(rel, question):
        # ("which segment's revenue fell": no period named, and the table has two, the change asked
        # runs from the earlier to the later)
        named_columns = _only_periods(rel)
    every = [] if entities else _every_entity(rel, question)  # ("the combined net assets of all four funds")
    ranked = [] if entities else _entities_ranked(rel, question) or every  # ("which segment had the highest")
    ranked = _leaves_ranked(rel, question, ranked)
    if ranked and not every and _class_asked_by_which(rel, question):
        ranked = []  # ("which program service had the largest expense": among the section's lines)
    chosen = series or entities or ranked or named_columns or periods
    if long_form(rel):  # (one figure column holds every figure; the labels place it)
        chosen = [c for c in _figures(rel) if c.role == "data"][:1]
    if not chosen or (not (series or entities or ranked) and _names_another_column(rel, question, chosen)):
        return None
    ends = len(chosen)
    operations = set(words(question))
    if operations & (CHANGE_WORDS | RISE_WORDS | FALL_WORDS) and rel.key is not None:
        # (a change between two ends, whatever a label's word: "total equity change from FY21 to FY25")
        labels = [v for v in rel.distinct_values(rel.key.name) if isinstance(v, str)]
        operations = set(words(_unlabelled(question, labels)))
    # (a percentage change is between the ends, whatever "total" names: "the percentage change in the
    # total for persons from 2021 to 2023")
    between_ends = bool(operations & CHANGE_WORDS) and _PERCENT_WORD.search(question) is not None
    if expected == "list" or (operations & (SUM_WORDS | AVERAGE_WORDS) and not between_ends):
        chosen = _spanned(rel, question, chosen)  # "from Q1 to Q4": the quarters between too
    # (a span named by its ends, or every period of a kind: "across the five years shown")
    spans = len(chosen) > ends or (chosen == periods and _every_period(question) is not None)
    balances = _movement_plan(rel, question, chosen, expected)
    if balances is not None:  # ("how much did retained earnings change during 2025")
        return balances
    rows, touched, meant = _rows(rel, question, chosen)
    key = rel.key
    if key is not None and len(rows.get(key.name, [])) == 2 and len(chosen) == 2:
        # ("the % change in live births between 2010 and 2023": the change between the two rows'
        # births, not the column of each year's change on the year before)
        rates = [c for c in chosen if _PERCENT.search(c.name) and set(words(c.name)) & CHANGE_WORDS]
        if len(rates) == 1:
            chosen = [c for c in chosen if c is not rates[0]]
    if key is not None and SECTION not in rows and (_asks_which(question) or _counts(question)):
        by_adjective = _section_by_adjective(rel, question)
        if by_adjective is not None:  # ("which English region": the regions under ``England``)
            rows[SECTION] = [by_adjective]
    if key is not None and len(rows.get(key.name, [])) < 2:
        sides = _rows_either_side(rel, question, chosen)
        if sides:  # ("was A higher than B": a line named on each side, each in part)
            rows = {k: v for k, v in rows.items() if k != SECTION} | {key.name: sides}
    of_rows = (_asks_which(question) or _counts(question)) and not (
        _ASKS_PERIOD.search(question) or _PERIODS_COUNTED.search(question)
    )
    if key is not None and rows.get(key.name) and of_rows:
        # ("which country had the most exports": ``Other EU countries`` holds the rest of the kind
        # asked, whose word names it; it is no member, nor the row asked of -- unlike "in how many
        # years were other assets above 3,500")
        not_rest = [v for v in rows[key.name] if not RESIDUAL.match(v)]
        if len(not_rest) < len(rows[key.name]):
            rows = {k: v for k, v in rows.items() if k != key.name} | (
                {key.name: not_rest} if not_rest else {}
            )
            touched = touched and bool(not_rest)
    kind_said = _WHICH_KIND.search(question) if key is not None else None
    kind_words = question_words(kind_said.group(1)) if kind_said is not None else []
    head = [h for h in tokens(key.name) if h not in COMMON] if key is not None else []
    if (
        key is not None
        and head
        and kind_words
        and all(any(near_word(h, w) for w in kind_words) for h in head)
        and all(any(near_word(h, w) for h in head) for w in kind_words if w not in COMMON)
    ):  # ("which field crop" is no header ``Crop``: its first word names a section)
        # ("which land use had the highest area": the labels' header, what every row is; a line or
        # section its words touch, ``Other land``, is not named by them)
        for name in (key.name, SECTION):
            other = [
                v
                for v in rows.get(name, [])
                if not words_said(v, question_words(question)) <= set(kind_words)
            ]
            if name in rows and len(other) < len(rows[name]):
                rows = {k: v for k, v in rows.items() if k != name} | ({name: other} if other else {})
    over_rows = (
        re.search(r"\b(?:all|every|each|any)\b", question, re.IGNORECASE) is not None
        or _asks_which(question)
        or _counts(question) is not None
    ) and not (DIVIDES.search(question) or set(words(question)) & RATIO_WORDS)
    # (not inside arithmetic: "(current assets excluding inventories) / current liabilities")
    left_out = (
        [v for v in rows.get(key.name, []) if _left_out_said(question, v)]
        if key is not None and over_rows
        else []
    )
    if key is not None and left_out:
        # ("all regions except Midlea": every region but that one, no row of it read)
        rest_named = [v for v in rows[key.name] if v not in left_out]
        rows = {k: v for k, v in rows.items() if k != key.name} | (
            {key.name: rest_named} if rest_named else {}
        )
        touched = touched and bool(rest_named)
    if key is not None and len(rows.get(key.name, [])) == 1 and SECTION not in rows:
        # (``16-24`` under ``Men``, ``Women`` and ``All people``, no sex named: the whole's)
        whole_section = _whole_section_of(rel, rows[key.name][0])
        if whole_section is not None:
            rows[SECTION] = [whole_section]
    all_sections = [s for s in (rel.values_of(SECTION) or []) if isinstance(s, str)]
    all_sections = list(dict.fromkeys(all_sections))
    negated = [s for s in all_sections if _negated_section(question, s)]
    # ("which country outside the EU", "non-EU partners": the section named as the rest, ``Extra-EU``,
    # or else the other of two)
    as_rest = [s for s in negated if _NAMED_AS_REST.search(s)]
    if len(as_rest) == 1:
        rows[SECTION] = as_rest
    elif len(all_sections) == 2 and len(negated) == 1 and " › " not in "".join(all_sections):
        rows[SECTION] = [s for s in all_sections if s != negated[0]]
    quoted = quoted_labels(rel, question)
    if key is not None and quoted:
        # "'Other' under current assets": the quoted line, placed by the words outside the quotes
        before = set(rows.get(key.name, []))
        rest, touched, meant = _rows(rel, QUOTE.sub(" ", question), chosen)  # (the words outside)
        qw = question_words(question)
        placing = [*rest.get(SECTION, []), *sections_of(rel, key.name, quoted)]
        by_section = {q for v in placing for q in words_said(v, qw)}
        unquoted = QUOTE.sub(" ", question)
        besides = [  # (one written whole stays: "the share of total current assets made up by 'Cash'")
            v
            for v in rest.get(key.name, [])
            if v not in quoted
            and (v in before or runs_of(unquoted, v))
            and (words_said(v, qw) - by_section or runs_of(unquoted, v))
        ]
        rows = {**rest, key.name: [*quoted, *besides]}
        meant = False  # (the lines are quoted, not taken by meaning)
    if key is not None and rows.get(key.name):
        rows[key.name] = of_which(rel, question, rows[key.name], _sets_against(question))
    if key is not None and len(rows.get(key.name, [])) > 1 and not _WHOLE_SAID.search(question):
        # ("within welfare, which item had the lowest spending": ``Total spending``, the whole, is
        # named by the measure's word alone, no "total": no row asked)
        rows[key.name] = [v for v in rows[key.name] if not _grand_total_row(rel, v)] or rows[key.name]
    if key is not None and _members_averaged(rel, question, rows.get(key.name, [])):
        # ("the average revenue per segment": the segments' mean, not the ``Total revenue`` line
        # that the measure's word touches)
        rows = {k: v for k, v in rows.items() if k != key.name}
        touched = False
    if (
        key is not None
        and rows.get(key.name)
        and not spans
        and total_column is None
        and not ranked
        and not entities  # (the entities counted are the columns)
    ):  # (a span's columns are its own)
        chosen = _columns_beside_labels(rel, question, chosen, rows[key.name])
    row_span = False
    if (
        key is not None
        and len(rows.get(key.name, [])) == 2
        and (
            expected == "list" or set(words(question)) & (SUM_WORDS | AVERAGE_WORDS) or asks_period(question)
        )
    ):
        rows[key.name] = _rows_spanned(rel, question, rows[key.name])
        row_span = len(rows[key.name]) > 2
    in_span = _counted_in_span(rel, question, chosen, rows)
    if in_span is not None:
        return in_span
    if long_form(rel) and not _labels_placed(rel, question, rows):
        return None  # (an indicator the words do not name: any figure read would be a guess)
    if key is not None and len(rows.get(key.name, [])) == 1 and total_column is None and not ranked:
        chosen = _parts_compared(rel, question, chosen)
    in_total = False
    if key is not None and len(rows.get(key.name, [])) in (2, 3):
        rows[key.name] = _without_qualifying_total(rel, key.name, rows[key.name], question)
    elif key is not None and len(rows.get(key.name, [])) == 1:
        rows[key.name] = _and_in_total(rel, question, rows[key.name], rows.get(SECTION, []))
        in_total = len(rows[key.name]) == 2
    qw = question_words(question)
    whole = [v for v in rows.get(SECTION, []) if set(tokens(parts(v)[-1])) - COMMON <= set(said_words(v, qw))]
    if key is not None and rows.get(key.name) and whole and _asks_which(question):
        # "among the current liability lines, which ...": ``Current tax liabilities`` is touched only
        # by the words that name the section (named whole), among whose lines the question chooses
        by_section = {q for v in whole for q in words_said(v, qw)}
        held = {p.casefold() for v in rows[SECTION] for p in parts(v)}  # (a label that is the section's own)
        rows[key.name] = [v for v in rows[key.name] if words_said(v, qw) - by_section or v.casefold() in held]
        if not rows[key.name]:
            del rows[key.name]
            touched = False
    if key is not None and rows.get(key.name) and rows.get(SECTION) and _outside(rel, key.name, rows):
        if set(rows[key.name]) <= set(rows[SECTION]) and (
            (_asks_which(question) and not _ASKS_PERIOD.search(question)) or _counts(question)
        ):
            # "which mode within road transport": the group's lines are chosen among; its own
            # line (``Road transport``, which adds them up) is not one of them
            del rows[key.name]
            touched = False
        elif not _unnamed_totals_named(rel, question, rows):
            # the lines named stand outside the section the words also touch: it places nothing
            # (the group line ``Theft offences`` is no line under ``Theft offences``), unless the
            # words name the section whole beside them, as an operand: its closing total (below)
            del rows[SECTION]
    elif key is not None and rows.get(key.name) and rows.get(SECTION):
        rows[key.name] = _lines_within(rel, key.name, rows[key.name], rows[SECTION])
        if len(rows[key.name]) > 1 and not _operates(question):
            rows[key.name] = _lines_in_section(rel, key.name, rows[key.name], rows[SECTION])
    counted, label_col = _counted_noun(rel, question)
    if counted is not None and label_col is not None and label_col != SECTION and rows.get(label_col):
        # "how many expenditure groups had a share below 20%": the rows are counted, none of them is
        # a row to read (``Total consumption expenditure``, which the words touch); a section named
        # only by the counted noun ("how many modes": ``Other modes``) is none to count within
        del rows[label_col]
        touched = False
        if rows.get(SECTION) and all(
            set(tokens(v)) - COMMON <= {w for w in tokens(v) if near_word(w, counted)} for v in rows[SECTION]
        ):
            del rows[SECTION]
    elif (
        key is not None
        and rows.get(key.name)
        and not entities  # ("in how many funds were total liabilities above 3,000": the funds are counted)
        and _counts(question)
        and comparison(question.casefold())
        and not _PERIODS_ASKED.search(question)  # ("how many quarters did the national total ...")
        and totals_named(rel, key.name, {key.name: rows[key.name]})
    ):
        # "number of types of ceremony with marriages over 1,000": the lines are counted; the total
        # the measure's word touches (``All marriages``) is none to read; the lines counted are
        # those of its section ("how many non-current liabilities": ``Total non-current
        # liabilities`` closes the section whose lines are counted)
        within = _section_totalled(rel, key.name, rows.pop(key.name))
        if within is not None:
            rows.setdefault(SECTION, [within])
        touched = False
    unnamed = _unnamed_totals_named(rel, question, rows)
    by_list = False  # (the lines are those the question lists, each phrase naming one)
    if key is not None and unnamed:
        # "(current assets minus stocks) divided by creditors due within one year": the section's
        # own figure, which no label names (a UK balance sheet's), beside the lines named
        rows[key.name] = [*rows.get(key.name, []), *unnamed]
        del rows[SECTION]
    elif (
        key is not None
        and (len(rows.get(key.name, [])) < 3 or len(_PARTS_SAID.findall(question)) >= 2)
        and not pooled_sections(rel, question, rows.get(key.name, []))  # (a line named with its places)
    ):
        labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)]
        # (nor do the words of the labels' own header: "income from A and income from B" over
        # ``Income from:`` lists A and B, not ``Total income`` by its "income")
        header = frozenset(every_part(chosen)) | _own_header_words(key, labels)
        listed = listed_members(labels, question, header)
        found = rows.get(key.name, [])
        qw_all = question_words(question)
        # (a line whose own name is a list, named whole -- "purchases of property, plant and
        # equipment" -- lists no other line its words touch: ``Proceeds from sale of equipment``)
        own_words = set(tokens(without_outline(found[0]))) if len(found) == 1 else set()
        extras = [x for x in listed if x not in found]
        whole_list = (
            bool(own_words and extras)
            and re.search(r",|\band\b", found[0]) is not None
            and all(any(near_word(w, q) for q in qw_all) for w in own_words - COMMON)
            and all(
                all(any(near_word(w, o) for o in own_words) for w in said_words(x, qw_all)) for x in extras
            )
        )
        # (two lines found, one whose own name joins words with "and", written whole -- "paid to
        # suppliers and employees": ``Payments to suppliers and employees`` -- are not replaced by a
        # list that reads the "and" as the list's)
        joined_whole = (
            len(found) >= 2
            and any(_and_written(f, question) and f not in listed for f in found)
            and not set(found) <= set(listed)
        )
        if (
            listed
            and not whole_list
            and not joined_whole
            and (
                len(found) < 2 or len(listed) >= len(found) or (len(listed) > 2 and set(listed) < set(found))
            )
        ):
            # "the sum of cash and accounts receivable": two rows, each named on its own; "stocks,
            # debtors and cash": a third the words alone do not reach (``Cash at bank and in hand``);
            # "cash and intangible assets": ``Other intangible assets``, which the rarer word names,
            # not ``Total assets``
            rows[key.name], meant = listed, False
            by_list = len(listed) >= 2 and _filled_in(rel, key.name, listed, chosen)
    if key is not None and len(rows.get(key.name, [])) == 1 and len(rows.get(SECTION, [])) <= 1:
        # "current borrowings and non-current borrowings": one label, two sections
        per = sections_per_mention(rel, key.name, rows[key.name][0], question)
        if per:
            rows[SECTION] = per
    else:
        per = []
    each = (
        _each_period(rel, question)
        if key is not None
        and rows.get(key.name)
        and all(len(v) == 1 for v in rows.values())
        # (a list asked, or "each of": "in 2021 and 2022 combined", "over both years" add up)
        and (expected == "list" or _EACH_IN_ORDER.search(question) is not None)
        else []
    )
    if each and key is not None:  # ("X in each of 2020-21, 2021/22 and 2022/23": its cell in each, in order)
        conds = {k: v[0] for k, v in rows.items()}
        reads = [_cell_in(rel, c.name, conds) for c in each]
        return _listed_cells(reads)
    if _unexplained_numbers(rel, question, chosen, rows):
        return None  # "after 2007", "between 1989 and 2012": a condition this plan cannot state
    prior = _against_prior(rel, question, chosen)
    if prior is not None:  # "in which years did operating profit fall compared with the prior year"
        return prior
    tested = _periods_tested(rel, question, chosen, rows, expected)
    if tested is not None:  # "how many years did operating profit come in above 150"
        return tested
    moved = _period_moved_most(rel, question, rows)
    if moved is not None:  # "in which quarter did cash fall the most": against the period before
        return moved
    family = _family_total(rel, question, chosen, rows)
    if family is not None:  # "cash flow hedges": every ``Cash flow hedges - ...`` line, added up
        return family
    if entities and key is not None and len(rows.get(key.name, [])) == 1:
        return _columns_tested(rel, question, entities, rows, expected)
    named_group = asked_class(rel, question)
    if named_group is not None and key is not None and _level_by_header(key.name, question) == 0:
        named_group = None  # ("which cause chapter had the fewest injuries": a level, no group by its words)
    group = _group_asked(rel, question, expected, rows, named_group)
    if group is not None and len(chosen) == 1 and _counts(question) and comparison(question.casefold()):
        # "how many of the non-current asset lines were above 1,000": the group's lines past it
        m = comparison(question.casefold())
        assert m is not None
        col = chosen[0].name
        fixed = {
            k: v[0] for k, v in rows.items() if k not in (key.name if key else "", SECTION) and len(v) == 1
        }
        bound = f"{quote(col)} {COMPARISON_OPS[m.group(1)]} {_threshold(rel, col, question, m)}"
        return CellPlan(
            f"SELECT COUNT(*) FROM data{_where(fixed, [*group.conditions, bound])}", "count", "number"
        )
    listed_group = (
        named_group if expected == "list" else None
    )  # ("which current asset lines rose? List them.")
    moved = _moved_lines(
        rel, question, chosen, group or listed_group or _key_noun_rows(rel, question), rows, key
    )
    if moved is not None:
        return moved
    top = None if group is None else _top_in_group(rel, question, chosen, group, rows)
    if top is not None:  # "which current liability ...": the top line of the group
        return top
    if key is not None and named_group is not None and len(rows.get(key.name, [])) > 2:
        rows[key.name] = _members_named(rel, named_group, rows[key.name])
    asked = re.findall(
        r"\b(many|all|each|every|across|among|per|which|what)\s+(?:[^\W_]+\s+of\s+)?([^\W_]+)",
        question.casefold(),
    )  # ("which group of road users": the road users)
    key_words = tokens(key.name) if key is not None else []
    names_rows = any(near_word(w, q) for w in key_words for _, q in asked)
    which_rows = any(near_word(w, q) for w in key_words for how, q in asked if how in ("which", "what"))
    if meant and key is not None and (_asks_which(question) or len(rows) > 1 or names_rows):
        # "which crop ...": the answer is a row label, not a row to read; "how many regions ...":
        # the rows are the subject; and where the question's letters name a section, the section is
        # what its words meant
        rows.pop(key.name, None)
    elif (
        key is not None
        and len(rows.get(key.name, [])) == 1
        and _asks_which(question)
        and which_rows
        and not _quoted(question, rows[key.name][0])  # (a line quoted is one to read)
    ):
        # "which road user had the most ...": a row label is the answer; the one the words also
        # touch (``Total built-up roads``) is not a row to read
        del rows[key.name]
        touched = False
    elif (
        key is not None
        and not ranked  # ("which segment had the highest operating profit": the line read per segment)
        and len(_offered_columns(rel, question)) < 2  # ("which column (A, B or C) had the lowest X")
        and (_asks_which(question) or (expected == "list" and comparison(question.casefold()) is not None))
        and not _ASKS_PERIOD.search(question)
        and totals_named(rel, key.name, rows)
        and not (offers and _offered(question, rows[key.name]))
        and not _quoted(question, rows[key.name][0])  # (a line quoted is one to read)
    ):
        # "which expenditure item grew most" names ``Total expenditure``: the rows it totals are
        # the ones to choose among
        within = _section_totalled(rel, key.name, rows.pop(key.name))
        if within is not None:
            rows.setdefault(SECTION, [within])
        touched = False
    if (
        key is not None
        and len(rows.get(key.name, [])) > 1
        and not re.search(r"\b(total|all)\b", question, re.I)
        and not _SHARE.search(question)  # (a share of the total: the total is its whole)
    ):
        # "Italian guests ... hotel nights" touches ``Total nights`` too: a total named only by the
        # table's measure (its title's or headers' words) is no member unless the question says total
        # and "intangible assets" names ``Intangibles``: its head word does not name ``TOTAL ASSETS``
        measure = _measure_words(rel)
        heads = _phrase_heads(question, rows[key.name])
        rows[key.name] = [
            v
            for v in rows[key.name]
            if not (
                totals_named(rel, key.name, {key.name: [v]})
                and (set(tokens(v)) - COMMON <= measure or v in heads)
            )
        ]
        rows = {k: v for k, v in rows.items() if v}
    if any(
        len(v) > MAX_NAMED for k, v in rows.items() if not (row_span and key is not None and k == key.name)
    ):
        return None
    # the words that name cells name no operation ("up" in ``Built-up roads`` is no rise)
    # ("add up": the particle of the verb, no rise)
    # ("made up by": what a whole consists of, no rise)
    spoken = re.sub(
        r"\b(add(?:s|ed)?|sum(?:s|med)?|made|makes?|making)\s+up\b", r"\1", question, flags=re.IGNORECASE
    )
    qwords = set(words(spoken)) - {w for vs in rows.values() for v in vs for w in words(v)}
    qwords -= ops_as_names(rel, question) & every_part(chosen)  # ("the highest quintile" ranks nothing)
    if (
        qwords & SUM_WORDS
        and key is not None
        and any(set(words(v)) & CHANGE_WORDS for v in rows.get(key.name, []))
    ):
        # "the receivables movement totalled over FY24-FY25": the line is a movement (``(Increase)/
        # decrease in receivables``); its periods are added up, not set against each other
        qwords -= CHANGE_WORDS
    pooled = pooled_sections(rel, question, rows.get(key.name, []) if key is not None else [])
    if key is not None and pooled:
        # ("total borrowings, non-current plus current": ``Total non-current liabilities`` is touched
        # only by the words of the sections pooled, and "total")
        qw = question_words(question)
        pooled_words = {w for label, held in pooled.items() for v in [label, *held] for w in tokens(v)}
        rows[key.name] = [
            v for v in rows[key.name] if v in pooled or said_words(v, qw) - pooled_words - {"total"}
        ]
    fixed = {k: v[0] for k, v in rows.items() if len(v) == 1}
    varying_rows = [(k, v) for k, v in rows.items() if len(v) > 1]
    written_sum = (
        _summed_group(question, varying_rows[0][1])
        if key is not None and len(varying_rows) == 1 and varying_rows[0][0] == key.name
        else []
    )
    if written_sum and key is not None and (series or len(chosen) == 2):
        # ("(non-current liabilities plus current liabilities) at each balance sheet date", "how did
        # (A plus B) move over the year": the sum written out, read at each date as one line)
        others = {k: v for k, v in fixed.items() if k != key.name}
        sums = {
            c.name: "("
            + " + ".join(
                _cell_in(rel, c.name, _placed(rel, question, {**others, key.name: v})) for v in written_sum
            )
            + ")"
            for c in series or chosen
        }
        if series:
            return _listed_cells(sums.values())
        return _across(question, expected, list(sums.items()), qwords, True)
    if len(varying_rows) == 1 and len(chosen) == 2 and key is not None and varying_rows[0][0] == key.name:
        # ("which grew faster, A or B": each line's change between the two periods, set side by side)
        return _changes_compared(rel, question, expected, chosen, varying_rows[0][1], fixed, qwords)
    if len(varying_rows) > 1 or (varying_rows and len(chosen) > 1):
        return None
    if key is not None and key.name in fixed:
        fixed = _placed(rel, question, fixed)
    # ("name the prefecture in the Southern Block with the highest ...": a ranking, no listing)
    ranks = bool(qwords & (DESCENDING | ASCENDING)) and (_asks_which(question) or bool(ranked))
    if series and key is not None and key.name in fixed and not varying_rows:
        reads = [_cell_in(rel, c.name, fixed) for c in series]
        return _listed_cells(reads)
    in_list = (
        _listed(rel, question, chosen, fixed, varying_rows) if expected == "list" and not ranks else None
    )
    if in_list is not None:
        return in_list  # (else "which regions had over 300? List them.": the rows past the number)
    if len(chosen) == 1 and not varying_rows and key is not None and key.name in fixed and not ranked:
        chosen = _parts_asked(rel, question, chosen)  # "which sector ...": not ``All sectors``
    named_rows = rows.get(key.name, []) if key is not None else []
    if (
        key is not None
        and len(chosen) == 1
        and set(rows) <= {key.name, SECTION}
        and set(rows.get(SECTION, [])) <= set(pooled.get(named_rows[0] if named_rows else "", []))
        and len(named_rows) == 1
        and named_rows[0] in pooled
        and expected in (None, "number")
    ):
        # "total lease liabilities, calculated as non-current plus current lease liabilities"
        return CellPlan(
            f"SELECT {_pool(rel, chosen[0].name, key.name, named_rows[0], pooled)}", "sum", "number"
        )
    if len(chosen) == 1 and not varying_rows:
        # ("which countries had ...", "how many countries ...": the rows of the section the noun names)
        kept = (
            (*_not_total(rel), *named_group.conditions)
            if named_group and _class_counted(rel, question, named_group)
            else (_level_asked(rel, question) if SECTION not in fixed else None)
        )  # (a section named places the rows: no level to choose)
        if left_out and key is not None:
            kept = (*(kept or _not_total(rel)), *(f"{quote(key.name)} <> {literal(v)}" for v in left_out))
        return _one_column(rel, question, expected, chosen[0].name, fixed, key, qwords, touched, kept)
    if varying_rows:
        name, values = varying_rows[0]
        col = chosen[0].name
        others = {k: v for k, v in fixed.items() if k != name}
        cells = [
            (v, _cell_in(rel, col, {**others, SECTION: unnamed[v]}))
            if v in unnamed
            else (v, _pool(rel, col, name, v, pooled, others))
            if v in pooled
            else (
                v,
                _cell_in(
                    rel,
                    col,
                    _member_placed(rel, question, {**fixed, name: v}, v)
                    if by_list
                    else _placed(rel, question, {**fixed, name: v}),
                ),
            )
            for v in values
        ]
    else:
        levels = _levels(chosen)
        paired = {_column_pair(c.name) for c in chosen} <= _period_pairs(question)  # "Q4 2023", "Q1 2024"
        years = [year_of(c.name) for c in chosen]
        dates = [dates_written(c.name) for c in chosen]
        by_year = not levels and None not in years and len(set(years)) == len(years)
        # (``31 Dec 2023 › Restated`` beside ``1 Jan 2023 › Restated`` and ``31 Dec 2024``: a day each)
        by_date = all(len(d) == 1 for d in dates) and len({*map(frozenset, dates)}) == len(dates)
        if by_date and len(levels) > 1 and not paired:
            # (``Prior fiscal year › As of March 31, 2024`` beside ``Current fiscal year › As of March
            # 31, 2025``: two levels apart, one day each; the day tells them apart)
            levels = []
        by_year |= not levels and by_date
        if len(levels) > 1 and None not in years and len(set(years)) == len(years) and not paired:
            # (``Fiscal 2024 › (52 weeks)`` beside ``Fiscal 2023 › (53 weeks)``: two parts apart,
            # one year each; the year tells them apart)
            levels, by_year = [], True
        if not (levels or by_year) or (len(levels) > 1 and not _asks_which(question) and not paired):
            return None  # arithmetic between columns that differ twice: which is which is unclear
        totals = _total_columns(rel, chosen) if len(chosen) > 2 else set()
        members = [c for c in chosen if c.name not in totals]
        if key is not None and key.name not in fixed and len(chosen) > 1:
            if len(members) == 2 and len(levels) == 1:
                changed = _top_change(rel, question, members, levels[0], fixed, key, qwords)
                if changed is not None:
                    return changed
            closing = SECTION in fixed and closing_total(rel, fixed[SECTION]) is not None
            grand = None if closing else _grand_total(rel, key, question, fixed)
            if grand is None and not closing:
                return None  # several columns but no row: which row is asked is unclear
            if grand is not None:  # "were there more men than women in total": the total row's cells
                fixed = {**fixed, key.name: grand}
            # (a section named alone: its closing total, unlabelled as it may be -- see _cell_in)
        offered = bool(members) and members == _offered_columns(rel, question)
        own_names = [(_own_parts(c) if offered else parts(c.name))[-1] for c in members]
        if (ranked or offered) and len(set(own_names)) == len(own_names):
            # (a fund by its own name, not its group's; a column offered by its own name: ``Budget 2025``)
            cells = [(name, _cell_in(rel, c.name, fixed)) for name, c in zip(own_names, members, strict=True)]
        else:
            cells = [(_told_apart(c.name, levels), _cell_in(rel, c.name, fixed)) for c in members]
    if (
        len(cells) > 2
        and not (_ASKS_PERIOD.search(question) and all(_number(lab) == _number(lab) for lab, _ in cells))
        and not (ranked and not varying_rows)
        and not all(len(dates_written(lab)) == 1 for lab, _ in cells)  # (each day its own, however written)
        and len({ends_at(lab) for lab, _ in cells} - {None}) < len(cells)  # (``Dec-23`` .. ``Dec-24``)
    ):  # (entities ranked: ``Guarantors`` beside ``Non-Guarantors``)
        # a row with no word of its own ("net income" beside "operating income" and "net sales")
        # is only touched by the others' words (periods each are their own: ``31 Mar 2024`` beside
        # ``31 Dec 2024`` and ``31 Mar 2025``)
        # (one the question writes whole apart from the others is named: "total non-current
        # liabilities plus total current liabilities")
        own = [
            c
            for c in cells
            if set(tokens(c[0])) - COMMON - {w for o, _ in cells if o != c[0] for w in tokens(o)}
            or _written_apart(question, c[0], [o for o, _ in cells if o != c[0]])
        ]
        cells = own if len(own) >= 2 else cells
    at = _named_at(question, [label for label, _ in cells], _shared(cells))
    by_ends = not varying_rows and _ends_named(question, chosen)
    if by_ends and len(chosen) == len(cells):
        # (each column where the question writes the month and year it ends: "from the year to
        # March 2024 to the year to March 2025")
        at = [_end_at(question, c) for c in chosen]
    cells = [c for _, c in sorted(zip(at, cells, strict=True), key=lambda x: x[0])]
    # ("by how much did operating profit beat budget": ``Actual`` against ``Budget``, unnamed but meant)
    planned = len(cells) == 2 and against_plan(rel, question) and any(_ACTUAL.match(lab) for lab, _ in cells)
    if planned:
        cells = sorted(cells, key=lambda c: not _ACTUAL.match(c[0]))
    labels = [label for label, _ in cells]
    # (each where it is; a line and its section's ``Total``, which "in total" names)
    named = (
        planned
        or _all_named(question, labels)
        or (bool(per) and set(labels) == set(per))
        or in_total
        or row_span
        or by_ends
        or bool(every)
        or by_list  # ("long-term debt plus the current portion of long-term debt": each phrase one line)
    )
    # ("the percentage change in the total for persons from 2021 to 2023": "total" names the line,
    # the change is between the ends)
    relative_change = bool(qwords & CHANGE_WORDS) and _PERCENT_WORD.search(question) is not None
    summed = (
        not named
        and not varying_rows
        and key is not None
        and key.name in fixed
        and qwords & SUM_WORDS
        and not relative_change
    )
    if spans and not varying_rows and expected in (None, "number") and qwords & AVERAGE_WORDS:
        # "averaged over the years 2019 to 2022": each period of the span, the ends named
        return CellPlan(_mean_of([e for _, e in cells]), "average", "number")
    if (
        spans
        and not varying_rows
        and expected in (None, "number")
        and qwords & SUM_WORDS
        and not relative_change
    ):
        # "total capital expenditure over FY21 to FY25": each period of the span, the ends named
        return CellPlan("SELECT " + " + ".join(e for _, e in cells), "sum", "number")
    if (
        not varying_rows
        and expected in (None, "number")
        and _months_of_code(question, chosen, _fiscal_start(rel, question))
        and not qwords & (AVERAGE_WORDS | CHANGE_WORDS | MORE_WORDS | LESS_WORDS | RISE_WORDS | FALL_WORDS)
        and not _asks_which(question)
        and not _of_balances(rel)
    ):
        # "revenue in Q2" over monthly columns: the quarter's months added up (a balance at a
        # quarter is no sum of its months)
        return CellPlan("SELECT " + " + ".join(e for _, e in cells), "sum", "number")
    if (
        summed
        and expected in (None, "number")
        and not _asks_which(question)
        and not _names_any(question, labels)
    ):
        # "killed in total over the three years": no year named, every one of them summed
        return CellPlan("SELECT " + " + ".join(e for _, e in cells), "sum", "number")
    shares = all(_is_percent(c) for c in chosen)  # "the housing share of ...": a figure, not a share to take
    # (two outflows set against each other are compared by size, even where a line adds them up:
    # "was more tax paid than interest" beside ``Net cash used in financing activities``)
    adds = not (
        qwords & RATIO_WORDS
        or DIVIDES.search(question)
        or _SHARE.search(question)
        or (expected == "boolean" and qwords & (MORE_WORDS | LESS_WORDS))
    )
    negative = _presented_negative(rel, [label for label, _ in cells], adds) if varying_rows or per else set()
    shown = {e for lab, e in cells if lab in negative}
    if (
        not (varying_rows or per)
        and key is not None
        and (_asks_which(question) or expected == "boolean")
        and (_SIZE_WORDS.search(question) or _COST.search(str(fixed.get(key.name, ""))))
        and _negative_across(rel, chosen, fixed)
    ):
        # ("in which year were purchases of equipment largest", "which month had the lowest cost of
        # sales" shown in brackets: by size)
        shown = {e for _, e in cells}
    if (
        not (varying_rows or per)
        and key is not None
        and expected in (None, "number")
        and qwords & (RISE_WORDS | FALL_WORDS)
        and _negative_across(rel, chosen, fixed)
    ):
        shown = {e for _, e in cells}  # ("how much did creditors grow", shown in brackets: in size)
    if every and len(cells) > 2 and _SHARE.search(question):
        # ("what share of the combined net assets of all portfolios does the Money Market Portfolio
        # hold": the one member the question writes, over the members added up)
        part = [e for label, e in cells if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", question, re.I)]
        if len(part) == 1:
            scale = "100.0" if _PERCENT_WORD.search(question) else "1.0"
            added = " + ".join(f"COALESCE({e}, 0)" for _, e in cells)
            return CellPlan(f"SELECT {scale} * {part[0]} / ({added})", "share", "number")
    return _across(
        question, expected, cells, qwords, named, shares, shown, planned, _per_divides(rel, question)
    )


def _filled_in(rel: Relation, key: str, labels: list[str], chosen: list[RelColumn]) -> bool:
    """Whether every line of ``labels`` holds a figure other than nil in every chosen column (a line
    nil there -- dividends to minority holders under ``Retained earnings`` -- belongs to another
    column the question names, and a sum over this one would leave it out)."""
    names = rel.values_of(key) or []
    for c in chosen:
        values = rel.values_of(c.name) or []
        for label in labels:
            held = [v for n, v in zip(names, values, strict=False) if n == label]
            if not any(isinstance(v, int | float) and v for v in held):
                return False
    return True


#: A change compared by its rate: "grew faster", "by a larger percentage", "the higher growth rate".
_BY_RATE = re.compile(r"\b(?:faster|quicker|slower|percent(?:age)?|rate|%)", re.IGNORECASE)


#: A count of the members a question offers to choose among: "among the three entity columns",
#: "which of the three dates".
_COUNT_OFFERED = re.compile(
    r"\b(?:of|among)\s+(?:the|all|these|those)\s+(?:two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\b",
    re.IGNORECASE,
)
#: The order a ranking is asked in: "from smallest to largest", "largest first".
_FIRST_IN_ORDER = re.compile(
    r"\bfrom\s+(?:the\s+)?(largest|highest|biggest|smallest|lowest)\s+to\b"
    r"|\b(largest|highest|biggest|smallest|lowest)\s+first\b",
    re.IGNORECASE,
)
#: "Rank the portfolios by ...", "List the funds from largest to smallest": the noun ranked.
_RANKED_NOUN = re.compile(
    r"^\s*(?:rank|order|sort|list|name)\s+(?:all\s+)?(?:the\s+)?(?:(?:\d+|two|three|four|five)\s+)?"
    r"(?P<noun>[^\W\d_]+s)\b",
    re.IGNORECASE,
)
#: "the top 3 regions by rough grazing", "the bottom two funds": members ranked, so many of them.
_TOP_N_NOUN = re.compile(
    r"\b(?:top|bottom)\s+(?:\d+|two|three|four|five)\s+(?P<noun>[^\W\d_]+s)\b", re.IGNORECASE
)
#: "rank the portfolios by net assets", "list the funds from largest to smallest": every member in order.
_RANK_ALL = re.compile(
    r"^\s*(?:rank|order|sort)\b|\bfrom\s+(?:the\s+)?(?:largest|highest|biggest|smallest|lowest)\s+to\s+"
    r"(?:the\s+)?(?:smallest|lowest|largest|highest|biggest)\b",
    re.IGNORECASE,
)


def _changes_compared(
    rel: Relation,
    question: str,
    expected: str | None,
    chosen: list[RelColumn],
    lines: list[str],
    fixed: dict[str, str],
    qwords: set[str],
) -> CellPlan | None:
    """Which of two lines changed more between two periods ("which grew faster between the two
    dates, A or B?", "did A increase more than B from 2024 to 2025?"): each line's change from the
    earlier column to the later, or its rate of change where the question says "faster" or
    "percentage"; a fall that is "more" is the larger fall. None unless the question asks a change,
    which way to compare it, and the two columns are periods in a known order."""
    key = rel.key
    if key is None or len(lines) != 2 or not qwords & (RISE_WORDS | FALL_WORDS | CHANGE_WORDS):
        return None
    when = [ends_at(c.name) for c in chosen]
    if None in when or when[0] == when[1]:
        return None
    early, late = sorted(chosen, key=lambda c: ends_at(c.name) or (0, 0, 0))
    faster = bool(re.search(r"\b(?:faster|quicker)\b", question, re.IGNORECASE))
    slower = bool(re.search(r"\bslower\b", question, re.IGNORECASE))
    more = bool(qwords & (MORE_WORDS | DESCENDING)) or faster
    less = bool(qwords & (LESS_WORDS | ASCENDING)) or slower
    if more == less:
        return None
    if qwords & FALL_WORDS and not qwords & RISE_WORDS:
        more, less = less, more  # ("which fell more": the lower change, the larger fall)
    relative = _BY_RATE.search(question) is not None
    cells = []
    for line in lines:
        at = _placed(rel, question, {**fixed, key.name: line})
        a, b = _cell_in(rel, early.name, at), _cell_in(rel, late.name, at)
        cells.append((line, f"(({b}) - ({a})) * 1.0 / ABS({a})" if relative else f"(({b}) - ({a}))"))
    (la, ea), (lb, eb) = cells
    op = ">" if more else "<"
    if expected == "boolean":
        return CellPlan(f"SELECT {ea} {op} {eb}", "test", "boolean")
    if not _asks_which(question) and " or " not in question.casefold():
        return None
    return CellPlan(
        f"SELECT CASE WHEN {ea} {op}= {eb} THEN {literal(la)} ELSE {literal(lb)} END", "compare", "text"
    )


#: Plans that rank, count or list rows: the kinds a clause that leaves lines out applies to.
_OVER_ROWS = frozenset({"top-row", "top-rows", "rows", "top-in-group", "top-change", "count"})


def _columns_moved(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """Which columns of a statement of movements moved over the period asked, by its closing balance
    line less its opening one ("which reserves decreased during 2025": every column that fell; "which
    component of equity increased the most": the one that rose most), the columns that add up the
    others left out; None where the question names a column, or asks no "which"."""
    key = rel.key
    which = _WHICH_NOUN.search(question)
    if key is None or which is None or expected not in (None, "list", "text") or not moved(question):
        return None
    said = set(words(question))
    up, down = bool(said & RISE_WORDS), bool(said & FALL_WORDS)
    most = _move_asked(question)
    if up == down and most is None:
        return None
    ends = _balance_positions(rel, question)
    if ends is None:
        return None
    phrase = _WHICH_PHRASE.match(question, which.start())
    rest = question[: which.start()] + question[phrase.end() if phrase is not None else which.end() :]
    if _columns(rel, rest) or _names_lines(rel, which.group("noun").casefold()):
        return None  # ("by how much did retained earnings rise": that column; "which line": rows)
    cols = [c for c in amounts(rel) if not {w for p in parts(c.name) for w in tokens(p)} & COMBINED]
    cols = [c for c in cols if c.name not in _total_columns(rel, cols)]
    if len(cols) < 2:
        return None
    moves = " UNION ALL ".join(
        f"SELECT {literal(parts(c.name)[-1])} AS p, {_moved_over(c.name, ends)} AS v" for c in cols
    )
    if most is not None:  # (a fall ranks the lowest first, a rise the highest, any other change by size)
        by = "v ASC" if most in FALL_WORDS else "v DESC" if most in RISE_WORDS else "ABS(v) DESC"
        return CellPlan(
            f"SELECT p FROM ({moves}) WHERE v IS NOT NULL ORDER BY {by} LIMIT 1", "top-row", "text"
        )
    return CellPlan(f"SELECT p FROM ({moves}) WHERE v {'>' if up else '<'} 0", "rows", "list")


def _movement_plan(
    rel: Relation, question: str, chosen: list[RelColumn], expected: str | None
) -> CellPlan | None:
    """A movement over a period in the one column asked: its closing balance line less its opening
    one (see :mod:`gridsight.qa._movement`)."""
    if rel.key is None or len(chosen) != 1 or expected not in (None, "number") or not moved(question):
        return None
    ends = _balance_positions(rel, question)
    return (
        None if ends is None else CellPlan(f"SELECT {_moved_over(chosen[0].name, ends)}", "change", "number")
    )


def _balance_positions(rel: Relation, question: str) -> tuple[object, object] | None:
    """The places (``Row number``) of the opening and the closing balance line of the movement the
    question asks (:func:`gridsight.qa._movement.balance_rows`), or None."""
    key = rel.key
    found = balance_rows(rel.values_of(key.name) or [], question) if key is not None else None
    positions = rel.values_of(POSITION)
    return None if found is None or positions is None else (positions[found[0]], positions[found[1]])


def _moved_over(col: str, ends: tuple[object, object]) -> str:
    """A column's closing balance less its opening one, the two lines at the places ``ends``."""
    opening, closing = (
        f"(SELECT {quote(col)} FROM data{_where({}, [f'{quote(POSITION)} = {p}'])})" for p in ends
    )
    return f"{closing} - {opening}"


def _leaving_out(rel: Relation, question: str, expected: str | None) -> LeftOut | None:
    """The lines a "which", list, count, sum or mean question leaves out (see
    :mod:`gridsight.qa._left_out`)."""
    key = rel.key
    aggregates = bool(set(words(question)) & (AVERAGE_WORDS | SUM_WORDS))  # ("the mean, ignoring the total")
    if key is None or not (expected == "list" or _asks_which(question) or _counts(question) or aggregates):
        return None
    return left_out(question, rel.distinct_values(key.name))


def _left_out_of(rel: Relation, plan: CellPlan, leaving: LeftOut) -> CellPlan:
    """``plan`` over the rows less those ``leaving`` names (and the totals, where it names them)."""
    key = rel.key
    assert key is not None
    conds = [*(_not_total(rel) if leaving.totals else [])]
    if leaving.labels:
        conds.append(f"{quote(key.name)} NOT IN ({', '.join(literal(v) for v in sorted(leaving.labels))})")
    if not conds:
        return plan
    where = " AND ".join(conds)
    sql = re.sub(
        r" FROM data(?: WHERE (?P<rest>.*?))?(?= ORDER BY | GROUP BY | LIMIT |$)",
        lambda m: f" FROM data WHERE {where}" + (f" AND {m.group('rest')}" if m.group("rest") else ""),
        plan.sql,
        count=1,
        flags=re.DOTALL,
    )
    return replace(plan, sql=sql, formula=None)


def _defined(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """The figure a question defines in words ("net debt (borrowings minus cash) at 31 March 2025",
    "the current ratio? Define it as total current assets divided by current liabilities"): the
    definition's arithmetic (:mod:`gridsight.qa._definition`) over the cell of each line it names, in
    the one column the rest of the question places; None where the question states no definition,
    or the column is unclear, or a line names no line of the table (the other plans read the
    question then: "(later minus earlier)" names periods); a plan without a query where a line
    names several lines alike ("borrowings", current and non-current): no plan guesses one."""
    key = rel.key
    stated = definition(question) if key is not None and expected in (None, "number") else None
    if stated is None or key is None or _asks_which(stated.rest):
        return None  # ("which was larger, A or net debt (B minus C)?": a name is asked)
    if (
        set(words(stated.rest)) & (RISE_WORDS | FALL_WORDS)
        or re.search(r"\b(?:move[ds]?|movement|chang(?:e|ed|es))\b", stated.rest, re.IGNORECASE)
        or _SERIES.search(stated.rest)
    ):
        return None  # ("how did (A plus B) move in 2025": a change or a series of the figure, not it)
    # the lines' amounts, not a column of percentages ("H1 2024 ..., in percent": not ``% change ›
    # H1 on H1``); "in percent" is the answer's form
    placing = _IN_PERCENT.sub(" ", stated.rest)
    amounts = _without_percent_columns(rel)
    chosen = _columns(amounts, placing) or _periods_asked(amounts, placing)
    if not chosen and len(_figures(rel)) == 1:
        chosen = _figures(rel)  # (one column of figures: the words need not name it)
    if len(chosen) != 1:
        return _defined_over_columns(rel, amounts, stated, placing)
    col = chosen[0].name
    reading = Reading.of(rel, stated.rest)  # (the words beside the definition place its lines)
    cells: dict[Line, list[int]] = {}
    for line in lines_of(stated.expr):
        found = line_cells(rel, line.text, reading)
        if not found and stated.head and stated.head.casefold() not in line.text.casefold():
            # ("total loans (short term plus long term)": modifiers that take the name's noun)
            found = line_cells(rel, f"{line.text} {stated.head}", reading) or found
        if found is None:
            return _defined_over_columns(rel, amounts, stated, placing)
        if not found:
            why = f"the definition's {line.text!r} fits several lines of the table alike; say which"
            return None if found is None else CellPlan("", "unclear", "number", why)
        cells[line] = found
    by_size = set() if _KEEP_SIGN.search(question) else sized(rel, stated.expr, cells)
    body = compiled(rel, col, stated.expr, cells, by_size)
    written = excel(rel, col, stated.expr, cells, by_size)
    if divides(stated.expr):
        scale = "100.0" if _PERCENT_ASKED.search(stated.rest) else "1.0"
        written = f"={'100*' if scale != '1.0' else ''}{written}"
        return CellPlan(f"SELECT {scale} * {body}", "ratio", "number", formula=written)
    return CellPlan(f"SELECT {body}", "arithmetic", "number", formula=f"={unbracketed(written)}")


def _defined_over_columns(
    rel: Relation, amounts: Relation, stated: Definition, placing: str
) -> CellPlan | None:
    """A definition whose terms name columns, over the one row the rest of the question names: "the
    gender pay gap for professional occupations, defined as (male median - female median) / male
    median" reads three cells of the ``Professional occupations`` row. None where a term names no
    single column, two terms name one, or the words name no one row."""
    key = rel.key
    if key is None:
        return None
    cols: dict[Line, RelColumn] = {}
    for line in lines_of(stated.expr):
        found = _columns(amounts, f"{line.text} {placing}")
        if len(found) != 1:
            found = _columns(amounts, line.text)
        if len(found) != 1:
            return None
        cols[line] = found[0]
    if len({c.name for c in cols.values()}) < 2:
        return None  # (the terms name one column: lines of it, which the statement reading reads)
    rows, _, _ = _rows(rel, placing, list(cols.values()))
    conds = {k: v[0] for k, v in rows.items() if len(v) == 1}
    if key.name not in conds or any(len(v) > 1 for v in rows.values()):
        return None

    def sql(expr: Expr) -> str:
        if isinstance(expr, Line):
            return _cell_in(rel, cols[expr].name, conds)
        if expr.op == "/":  # (whole numbers divide as decimals: 100 / 500 is 0.2, not 0)
            return f"(1.0 * {sql(expr.left)} / {sql(expr.right)})"
        return f"({sql(expr.left)} {expr.op} {sql(expr.right)})"

    body = sql(stated.expr)
    if divides(stated.expr):
        scale = "100.0" if _PERCENT_ASKED.search(stated.rest) else "1.0"
        return CellPlan(f"SELECT {scale} * {body}", "ratio", "number")
    return CellPlan(f"SELECT {body}", "arithmetic", "number")


#: "relative to Iberlink", "as a share of the budget": the figure a relative difference is of.
_RELATIVE_TO = re.compile(
    r"\b(?:relative\s+to|as\s+a\s+(?:percentage|share|proportion)\s+of|compared\s+(?:with|to))\s+(?:the\s+)?"
    r"(?P<base>[^?.,;]{1,80})",
    re.IGNORECASE,
)


def _base_named(question: str, cells: list[tuple[str, str]]) -> str | None:
    """The cell of two that "relative to ..." names (its label's words all said there, the other's
    not all), or None."""
    m = _RELATIVE_TO.search(question)
    if m is None or len(cells) != 2:
        return None
    said = set(tokens(m.group("base")))
    own = [(set(tokens(label)) - COMMON, e) for label, e in cells]
    named = [(w, e) for w, e in own if w and w <= said]
    if len(named) == 2 and (named[0][0] < named[1][0] or named[1][0] < named[0][0]):
        named = [max(named, key=lambda x: len(x[0]))]  # ("Non-Guarantor Subsidiaries" holds "Guarantor ...")
    return named[0][1] if len(named) == 1 else None


#: "comparing magnitudes", "in absolute terms", "compare absolute amounts": figures set against each
#: other by their size, whatever their sign.
_MAGNITUDE = re.compile(
    r"\bmagnitudes?\b|\babsolute\s+(?:terms|amounts?|values?|figures|sizes?)\b", re.IGNORECASE
)
#: "keep the sign", "signs as shown": each line as the statement presents it, never by its size.
_KEEP_SIGN = re.compile(
    r"\b(?:keep(?:ing)?|with|including)\s+(?:the|its|their)\s+signs?\b|\bsigns?\s+as\s+(?:shown|presented)\b",
    re.IGNORECASE,
)
#: A ratio asked in percent: "in percent", "as a %", "give a percentage" (not "percentage change").
_PERCENT_ASKED = re.compile(
    r"\b(?:in|as\s+an?|as)\s+per\s*cent(?:age)?\b|%|\ban?\s+percentage\b(?!\s+(?:change|point))",
    re.IGNORECASE,
)


def _agreed(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """Whether two sides agree in each column the question names ("do total assets equal total
    liabilities and net assets at both dates?", "are net assets equal to shareholders' funds for
    2025 and 2024?"), or whether a statement of financial position balances in them ("is it in
    balance for each year?", "does each column balance?": :func:`identity`); to within half a unit
    (published rounding). None where the question compares nothing column by column, or a side
    names no line."""
    asked = equality(question) if rel.key is not None and expected in (None, "boolean") else None
    if asked is None:
        return None
    cols = _columns_compared(rel, asked)
    if not cols:
        return None
    sides = (asked.left, asked.right) if asked.left and asked.right else identity(rel, question)
    if sides is None or sides[0] is None or sides[1] is None:
        return None
    left, right = sides
    reading = Reading.of(rel, asked.where)  # (the words beside the sides place their lines)
    cells: dict[Line, list[int]] = {}
    for line in [*lines_of(left), *lines_of(right)]:
        found = line_cells(rel, line.text, reading)
        if not found:
            return None
        cells[line] = found
    tests, checks = [], []
    for col in cols:
        a, b = (compiled(rel, col.name, side, cells, set()) for side in (left, right))
        tests.append(f"ABS(({a}) - ({b})) < 0.5")
        x, y = (excel(rel, col.name, side, cells, set()) for side in (left, right))
        checks.append(f"ABS({unbracketed(x)}-{bracketed(y)})<0.5")
    return CellPlan("SELECT " + " AND ".join(tests), "test", "boolean", formula=f"=AND({','.join(checks)})")


def _columns_compared(rel: Relation, asked: Equality) -> list[RelColumn]:
    """The columns a comparison is asked in: the years it names; "each column": every column of
    figures (no notes, no percentages); "both years", "every date": each dated column."""
    figures = [c for c in amounts(rel) if not _is_percent(c)]
    years = set(re.findall(r"\b(?:19|20)\d\d\b", asked.where))
    if years:
        named = [c for c in figures if year_of(c.name) in years]
        return named if {year_of(c.name) for c in named} == years else []
    if not asked.every:
        return []
    dated = [c for c in figures if year_of(c.name) is not None]
    if re.search(r"\bcolumns?\b", asked.where, re.IGNORECASE) or not dated:
        return figures
    return dated


#: A question that asks for the lines by name: "name every line that grew", "which lines", "list them".
_NAMES_LINES = re.compile(r"\b(?:name|list|which|identify)\b", re.IGNORECASE)
#: "the series of X", "X at every balance sheet date", "oldest first", "in chronological order": one
#: line's figure at each date, in time order.
_SERIES = re.compile(
    r"\bseries\b|\b(?:at|for|in|on)\s+(?:every|each|all(?:\s+the)?)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:dates?|years?|periods?|year[- ]ends?)\b"
    r"|\b(?:oldest|earliest|latest|newest|most\s+recent)\s+first\b"
    r"|\bchronological(?:ly)?\b|\bin\s+date\s+order\b"
    r"|\b(?:q1|h1|jan(?:uary)?|first\s+(?:quarter|month))\s+first\b"
    r"|\b(?:quarterly|monthly)\s+(?:[\w-]+\s+){0,3}?(?:figures|amounts|values|numbers)\b"
    rf"|{SERIES_SPAN.pattern}",
    re.IGNORECASE,
)
#: "for each quarter", "in every month", where no span is named ("... from Q3 2023 to Q2 2024" lists
#: the span's quarters alone): every quarter or month of the table, in time order.
_EACH_SUBPERIOD = re.compile(
    r"^(?!.*\b(?:from|between)\b).*\b(?:for|in|at)\s+(?:each|every)\s+(?:quarter|month)\b", re.IGNORECASE
)
#: A series over the quarters or the months of a year ("the quarterly revenue figures (Q1 first)").
_SUBPERIODS = re.compile(r"\b(?:(quarter)(?:ly|s)?|q1\s+first|(month)(?:ly|s)?|jan(?:uary)?\s+first)\b", re.I)
#: A series asked newest first.
_NEWEST_FIRST = re.compile(
    r"\b(?:latest|newest|most\s+recent)\s+first\b|\breverse\s+chronological|\bfrom\s+the\s+(?:latest|newest|most\s+recent)\b",
    re.IGNORECASE,
)


def _series(rel: Relation, question: str) -> list[RelColumn]:
    """The dated columns of amounts in time order (newest first where asked), where the question
    asks one line's figure at every date and no sum, average, count, choice or test of them; else
    none."""
    if not (_SERIES.search(question) or _EACH_SUBPERIOD.search(question)) or rel.key is None:
        return []
    low = question.casefold()
    labels = [v for v in rel.distinct_values(rel.key.name) if isinstance(v, str)]
    if (
        set(words(_unlabelled(low, labels))) & (SUM_WORDS | AVERAGE_WORDS)
        or _counts(question)
        or _asks_which(question)
    ):
        return []  # ("list total current assets ...": a line's own "total" sums nothing)
    if comparison(low) is not None or set(words(low)) & (RISE_WORDS | FALL_WORDS | CHANGE_WORDS):
        return []  # ("did X fall in every year between 2020 and 2022": a test of each change, no list)
    within = _within_year(rel, question)
    if within:
        return within[::-1] if _NEWEST_FIRST.search(question) else within
    when: list[tuple[tuple[int, int, int], RelColumn]] = []
    for c in _named_besides_period(rel, question):
        if _is_percent(c):
            continue
        days = dates_written(c.name)
        year = year_of(c.name)
        if len(days) == 1:
            d, m, y = next(iter(days))
            when.append(((int(y), m, d), c))
        elif year is not None:
            when.append(((int(year), 0, 0), c))
        elif set(tokens(c.name)) & OPENING_WORDS:
            when.append(((0, 0, 0), c))  # (``Opening balance`` beside ``Closing balance``: no date, an order)
        elif set(tokens(c.name)) & CLOSING_WORDS:
            when.append(((1, 0, 0), c))
    if len(when) < 2 or len({w for w, _ in when}) < len(when):
        return []  # (two columns of one date: ``Actual 2025`` beside ``Budget 2025``)
    ordered = [c for _, c in sorted(when, key=lambda x: x[0])]
    return ordered[::-1] if _NEWEST_FIRST.search(question) else ordered


#: "for each of the four columns", "across all four columns", "in every column": one line's figure in
#: each column of amounts, as the table sets them out.
_EVERY_COLUMN = re.compile(
    r"\b(?:for|across|in|over)\s+(?:each|every|all)\s+(?:of\s+)?(?:the\s+|its\s+)?"
    r"(?:(?P<n>\d+|[a-z]+)\s+)?(?:figure\s+|amount\s+|value\s+)?columns?\b"
    r"|\bin\s+the\s+order\s+of\s+the\s+columns\b",
    re.IGNORECASE,
)
#: "(exclude the total column)", "not counting the total": the columns less the whole's.
_NO_TOTAL_COLUMN = re.compile(
    r"\b(?:exclud(?:e|ing)|without|not\s+counting|leav(?:e|ing)\s+out|omit(?:ting)?)\s+(?:the\s+)?"
    r"(?:total|all)\b[^,;)]{0,20}?\bcolumns?\b",
    re.IGNORECASE,
)


def _every_column(rel: Relation, question: str) -> list[RelColumn]:
    """Every column of amounts, left to right, where the question asks one line's figure in each
    column ("give the net assets figure for each of the four columns": a group's and its parent's two
    years alike), and the number it gives, if any, is the table's; else none."""
    m = _EVERY_COLUMN.search(question)
    if m is None or rel.key is None or _counts(question) or _asks_which(question):
        return []
    cols = amounts(rel)
    if _NO_TOTAL_COLUMN.search(question):  # ("(exclude the total column)": ``All tenures`` left out)
        cols = [c for c in cols if not _whole_label(parts(c.name)[-1])]
    said = (m.group("n") or "").casefold()
    count = int(said) if said.isdigit() else NUMBER_WORDS.get(said) if said else len(cols)
    return cols if len(cols) >= 2 and count == len(cols) else []


def _named_besides_period(rel: Relation, question: str) -> list[RelColumn]:
    """The amount columns whose every part but the period the question names (``2023/24 › Special``
    and ``2024/25 › Special`` for "special school pupils ... for each year"), where some are; else
    every amount column."""
    cols = amounts(rel)
    qw = question_words(question)
    named = [
        c
        for c in cols
        if any(not _is_period(p) for p in parts(c.name))
        and all(named_part(_UNIT_IN_BRACKETS.sub("", p), qw) for p in parts(c.name) if not _is_period(p))
    ]
    # (``All schools`` is named by its one word too: the part named, ``Special``, before the whole)
    parts_named = [c for c in named if not _whole_label(parts(c.name)[-1])]
    if not named:  # ("women": ``Female`` in each year, the part meant where no letters name one)
        groups: dict[tuple[str, ...], list[RelColumn]] = {}
        for c in cols:
            groups.setdefault(tuple(p for p in parts(c.name) if not _is_period(p)), []).append(c)
        if len(groups) > 1 and all(groups):
            meant = _by_meaning([g[0] for g in groups.values()], qw)
            if len(meant) == 1:
                return next(g for g in groups.values() if g[0] is meant[0])
    return parts_named or named or cols


def _block_named(rel: Relation, question: str, cols: list[RelColumn]) -> list[RelColumn]:
    """The columns of the one block (the header parts besides their period: a stacked table's title,
    ``Visits abroad ...`` over ``Spending abroad ...``) whose own words the question names most, where
    the columns fall into several such blocks; else ``cols``."""
    blocks: dict[tuple[str, ...], list[RelColumn]] = {}
    for c in cols:
        blocks.setdefault(tuple(p for p in parts(c.name) if not _is_period(p)), []).append(c)
    if len(blocks) < 2:
        return cols
    qw = question_words(question)
    words_of = {k: {w for p in k for w in tokens(p) if w not in COMMON} for k in blocks}
    shared = set.intersection(*words_of.values())
    said = {
        k: sum(1 for w in own - shared if any(near_word(q, w) for q in qw)) for k, own in words_of.items()
    }
    best = max(said.values())
    top = [k for k, n in said.items() if n == best]
    return blocks[top[0]] if best and len(top) == 1 else cols


def _within_year(rel: Relation, question: str) -> list[RelColumn]:
    """The quarter or month columns in time order, of the years the question names (all where it
    names none of theirs), where it asks a series of quarters or months; else none."""
    asked = _SUBPERIODS.search(question)
    if asked is None:
        return []
    kind = "quarters" if asked.group(0).casefold().startswith(("q", "quarter")) else "months"
    found: list[tuple[tuple[int, int], RelColumn]] = []
    for c in _block_named(rel, question, amounts(rel)):  # (the visits' quarters, not the spending's)
        if _period_kind(c) != kind or _is_percent(c):
            continue
        year = int(year_of(c.name) or 0)
        path = " ".join(parts(c.name)).casefold()
        if kind == "quarters":
            # (``Jan to Mar``: a run of three months, spelt as its quarter)
            q = re.search(r"\bq([1-4])\b", path) or re.search(r"\bq([1-4])\b", periods_spelt(path), re.I)
            codes = sorted(_quarters_ended(c.name))
            at = int(q.group(1)) if q else int(codes[0][1]) if codes else 0
        else:
            at = next((MONTHS[w] for w in re.findall(r"[a-z]+", path) if w in MONTHS), 0)
        found.append(((year, at), c))
    said = set(YEARS.findall(periods_spelt(question)))
    if said & {str(y) for (y, _), _ in found}:
        found = [(w, c) for w, c in found if str(w[0]) in said]
    if len(found) < 2 or len({w for w, _ in found}) < len(found) or any(at == 0 for (_, at), _ in found):
        return []
    return [c for _, c in sorted(found, key=lambda x: x[0])]


def _without_percent_columns(rel: Relation) -> Relation:
    """``rel`` without its columns of percentages (itself where it has none)."""
    keep = [i for i, c in enumerate(rel.columns) if not (c.role == "data" and _is_percent(c))]
    if len(keep) == len(rel.columns):
        return rel
    return replace(
        rel,
        columns=[rel.columns[i] for i in keep],
        values=[rel.values[i] for i in keep],
        _distinct={},
        _memo={},
    )


#: The most values a label column of a long-form table has (more: notes or names, no labels).
MAX_LABELS = 40
#: A fiscal year's name: ``FY2025``, ``FY 2024``, ``FY25``.
#: A fiscal year or a season by its own name: ``FY2026E`` (an estimate), ``1943/44``, ``2023-24``.
_FISCAL = re.compile(r"FY\s?'?\d{2}(?:\d{2})?[AEFPB]?|(?:19|20)\d\d\s?[/\-–]\s?\d\d(?:\d\d)?", re.IGNORECASE)
#: "how many years", "which quarters", "list the months": the periods of one line are counted or listed.
_PERIODS_ASKED = re.compile(
    r"\b(?:how\s+many(?:\s+of\s+the(?:\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve))?)?|number\s+of|count\s+(?:of\s+)?the|which|list\s+(?:all\s+)?the|"
    r"name\s+the)\s+(?:(?:fiscal|financial|calendar|balance\s+sheet|reporting)\s+)?"
    r"(quarter[- ]ends?|year[- ]ends?|years?|quarters?|months?|dates?)\b",
    re.IGNORECASE,
)


#: A line that is itself a change: ``Net increase/(decrease) in cash``, ``Change in inventories``.
_CHANGE_LINE = re.compile(r"\b(?:increase|decrease|change|movement)\b", re.IGNORECASE)
#: "in each of the three years", "in every year", "in all four quarters": every period of a kind.
_EACH_PERIOD = re.compile(
    r"\b(?:(?:in|for|during|over)\s+)?(?:each|every|all|both)\s+(?:of\s+)?(?:the\s+)?(?:\w+\s+)?(year|quarter|month)s?\b"
    r"(?:\s+(?:shown|presented))?",
    re.IGNORECASE,
)
#: "in which year", "which quarters": the periods a question picks among.
_PERIOD_PICKED = re.compile(r"\b(?:which|what)\s+(year|quarter|month)s?\b", re.IGNORECASE)


def _rises_over_periods(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """In how many periods a line rose (fell), in which, or whether in each ("in how many of the three
    years did cash increase", "did revenue grow in every quarter"): a line that is itself a change
    (``Net increase/(decrease) in cash``) by its sign in each period; any other line against the
    period before, in time order. None unless the question asks one of these of one line."""
    said = set(words(question))
    up, down = bool(said & RISE_WORDS), bool(said & FALL_WORDS)
    counted = _PERIODS_ASKED.search(question) or _PERIOD_PICKED.search(question)
    each = _EACH_PERIOD.search(question) if expected == "boolean" else None
    found = counted or each
    if found is None or up == down or comparison(question.casefold()) or re.search(r"\d{3}", question):
        return None
    if _move_asked(question) is not None:
        return None  # ("in which year did X fall the most": the move ranked, :func:`_period_moved_most`)
    kind = found.group(1).casefold().rstrip("s") + "s"
    cols = sorted(_of_kind(rel, kind), key=lambda c: ends_at(c.name) or (0, 0, 0))
    key = rel.key
    if len(cols) < 2 or key is None:
        return None
    rows, _, _ = _rows(rel, question.replace(found.group(0), " "), cols[:1])
    labels = rows.get(key.name, [])
    if len(labels) != 1:
        return None
    fixed = {k: v[0] for k, v in rows.items() if len(v) == 1}
    cells = [(_period_part(c), _cell_in(rel, c.name, fixed)) for c in cols]
    if _COST.search(labels[0]) and _negative_across(rel, cols, fixed):
        cells = [(label, f"ABS({e})") for label, e in cells]  # (dividends paid, shown negative: by size)
    sign = ">" if up else "<"
    if _CHANGE_LINE.search(labels[0]):
        tests = [(label, f"({e} {sign} 0)") for label, e in cells]
    else:
        tests = [(late[0], f"({late[1]} {sign} {early[1]})") for early, late in pairwise(cells)]
    if each is not None:
        return CellPlan("SELECT " + " AND ".join(t for _, t in tests), "test", "boolean")
    if re.match(r"\s*(?:which|list|name)\b|.*\b(?:in|for|during)\s+which\b", question, re.IGNORECASE):
        picked = " UNION ALL ".join(f"SELECT {literal(label)} AS p, {t} AS ok" for label, t in tests)
        return CellPlan(f"SELECT p FROM ({picked}) WHERE ok", "rows", "list")
    return CellPlan("SELECT " + " + ".join(t for _, t in tests), "count", "number")


#: A compound annual growth rate: "the CAGR", "compound annual growth rate", "annualised growth".
_CAGR = re.compile(
    r"\bCAGR\b|\bcompound(?:ed)?\s+(?:annual\s+)?growth\b|\bannuali[sz]ed\s+growth\b", re.IGNORECASE
)
#: The years a rate compounds over, where the question says: "the 2-year CAGR", "over three years".
_OVER_YEARS = re.compile(r"\b(\d{1,2})[-\s]years?\b", re.IGNORECASE)


def _compound_growth(question: str, cells: list[tuple[str, str]]) -> CellPlan | None:
    """The compound annual growth rate between two periods the question names ("the 2-year CAGR of
    operating profit between FY23 and FY25"): (later / earlier) ^ (1 / years) - 1, over the years
    the question says or that lie between the two periods; a fraction unless asked in per cent."""
    if _CAGR.search(question) is None or len(cells) != 2 or not _ordered(cells):
        return None
    said = _OVER_YEARS.search(question)
    years = int(said.group(1)) if said else round(abs(_number(cells[1][0]) - _number(cells[0][0])))
    if years < 1:
        return None
    early, late = _in_time(cells)
    scale = "100.0" if _IN_PERCENT.search(question) or _PERCENT_WORD.search(question) else "1.0"
    rate = f"{scale} * (POWER(1.0 * {late} / {early}, 1.0 / {years}) - 1)"
    return CellPlan(f"SELECT {rate}", "growth rate", "number")


def _change_line_signed(rel: Relation, question: str) -> CellPlan | None:
    """Whether a line rose (fell) in a period, where the cell the question names is on a line that is
    itself a change ("did cash decrease in 2025" read on ``Net increase/(decrease) in cash``), or
    where the question names a change the table gives by its ends (cash at the end of the year less
    at its beginning): its sign. None for any other cell."""
    said = set(words(question))
    up, down = bool(said & RISE_WORDS), bool(said & FALL_WORDS)
    if up == down:
        return None
    found = _cell_plan(rel, question, "number", offers=True)
    if found is not None and found.kind == "change":  # (the balance at the end less at the start)
        return CellPlan(
            f"SELECT ({found.sql.removeprefix('SELECT ')}) {'>' if up else '<'} 0", "test", "boolean"
        )
    if (
        found is None
        or found.kind != "lookup"
        or not re.search(r"= '[^']*\b(?:increase|decrease|change)", found.sql, re.I)
    ):
        return None
    return CellPlan(f"SELECT ({found.sql}) {'>' if up else '<'} 0", "test", "boolean")


def _in_each_period(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """Whether a line met a bound in each period of a kind ("was net cash from financing activities
    below 0 in each of the three years"): the count of the periods that met it is all of them."""
    each = _EACH_PERIOD.search(question)
    if expected != "boolean" or each is None:
        return None
    kind = each.group(1).casefold() + "s"
    rest = f"{question[: each.start()]} {question[each.end() :]}".strip().rstrip("?").strip()
    asked = f"In how many {kind} {rest[:1].lower()}{rest[1:]}?"
    counted = _cell_plan(rel, asked, "number", offers=True)
    n = len(_of_kind(rel, kind))
    if (
        counted is None
        or n < 2
        or counted.sql.count(" FROM data") != n
        or not counted.sql.startswith("SELECT ")
    ):
        return None
    return CellPlan(f"SELECT ({counted.sql.removeprefix('SELECT ')}) = {n}", "test", "boolean")


def _of_kind(rel: Relation, kind: str) -> list[RelColumn]:
    """The number columns of a kind of period ("years", "quarters", "months"), or for "dates" each
    dated column ("in how many of the 5 balance sheet dates shown ...")."""
    kind = (
        "dates" if re.fullmatch(r"(?:quarter|year)[- ]?ends", kind) else kind
    )  # ("at how many quarter-ends")
    if kind == "dates":  # (``Dec-23``: a month's end, its year written short)
        return [c for c in _figures(rel) if year_of(c.name) is not None or ends_at(c.name) is not None]
    found = [c for c in _figures(rel) if _period_kind(c) == kind]
    apart = {"quarters": 3, "years": 12}.get(kind)
    if not found and apart is not None:
        # (dates a multiple of three months apart are quarters -- ``31 March 2025 | 30 June 2025 |
        # ...`` -- and of a year apart are years: ``December 31, 2025 | December 31, 2024``)
        dated = [c for c in _figures(rel) if len(dates_written(c.name)) == 1]  # (``... › (Unaudited)``)
        order = _time_order(dated) if len(dated) >= 2 else None
        if order is not None:
            months = [(e[0] * 12 + e[1]) for c in order if (e := ends_at(c.name)) is not None]
            if all(b > a and (b - a) % apart == 0 for a, b in pairwise(months)):
                return dated  # (quarter ends skipped between -- the prior year-end -- still quarters)
    return found


def _own_parts(col: RelColumn) -> list[str]:
    """A column's header parts without the unit row under them (``2025 › $m``: ``2025``)."""
    path = parts(col.name)
    while len(path) > 1 and unit_part(path[-1]):
        path = path[:-1]
    return path


def _period_part(col: RelColumn) -> str:
    """The part of a period column's header that names its period (``2025`` of ``2025 › $m``)."""
    return _own_parts(col)[-1]


def _period_kind(col: RelColumn) -> str | None:
    """Whether a column is headed by a month, a quarter or a year (``Aug``, ``Q3 2024`` or ``Three
    months ended › 30 September``, ``FY2023``); None for any other column (``Total``)."""
    # (a run of three months is a quarter: ``Jan to Mar`` is Q1)
    path = [periods_spelt(without_marks(p).strip()) for p in _own_parts(col)]
    if any(re.split(r"[\s\-'’]", p)[0].casefold().rstrip(".") in MONTHS for p in path if p):
        return "months"  # (``Aug``, ``August 2024``, ``Jan-25``)
    if month_as_day(col.name) is not None or any(numeric_month(p) is not None for p in path):
        return "months"
    if any(re.search(r"\bq[1-4]\b", p, re.IGNORECASE) for p in path) or any(
        q.startswith("q") for q in _quarters_ended(col.name)
    ):
        return "quarters"
    if path and re.fullmatch(
        r"(?:fy\s?)?'?(?:19|20)?\d\d(?:\s*/\s*\d\d(?:\d\d)?)?[aefpb]?", path[-1], re.IGNORECASE
    ):
        return "years" if year_of(col.name) is not None or path[-1][:2].casefold() == "fy" else None
    return None


#: A question that counts its periods in a financial year: "Q2 of FY2025/26", "the first half of
#: the financial year", "fiscal Q3".
_FISCAL_SAID = re.compile(r"\b(?:fiscal|financial)\b|\bFY\s?'?\d", re.IGNORECASE)


def _fiscal_start(rel: Relation, question: str) -> int:
    """The month the question's quarters and halves count from: where it or the table's titles count
    them in a financial year ("Q2 of FY2025/26"; ``Monthly management P&L - FY2025/26``) and the
    table's month columns run on from a month other than January (``Apr-25``, ``May-25`` ...), that
    first month; else January (1)."""
    titles = [rel.sheet.name, *(t.text for t in rel.table.titles)]
    months_at = [c for c in rel.columns if c.role == "data" and _month_of(c) is not None]
    if not _FISCAL_SAID.search(question):
        if not any(_FISCAL_SAID.search(t) for t in titles):
            return 1
        # (the titles' financial year, unless the question writes the calendar year of the months:
        # "Q2 2025" of ``Apr-25`` … is April to June)
        said = set(YEARS.findall(question))
        written = [month_of(parts(c.name)[-1]) for c in months_at]
        if said and said <= {str(w[1]) for w in written if w is not None and w[1] is not None}:
            return 1
    months = [m for c in months_at if (m := _month_of(c)) is not None]
    if len(months) < 3 or any(b != a % 12 + 1 for a, b in pairwise(months[:3])):
        return 1
    return months[0]


def _month_of(col: RelColumn) -> int | None:
    """The month (1-12) a column is headed by alone (:func:`~gridsight.qa._headers.month_headed`)."""
    return month_headed(col.name)


def slashes_named(rel: Relation, question: str) -> str:
    """``question`` with each slash between two words that a label or header of the table also joins
    by a slash (``Flat/maisonette``) written as a space: a name, not a division."""
    if "/" not in question:
        return question

    def joined() -> list[tuple[list[str], list[str]]]:
        return [
            (tokens(m.group(1)), tokens(m.group(2)))
            for t in _named_texts(rel)
            if "/" in t
            for m in re.finditer(r"([^\W\d_][\w-]*)\s*/\s*([^\W\d_][\w-]*)", t)
        ]

    pairs = rel.memo("slash names", joined)

    def read(m: re.Match[str]) -> str:
        a, b = tokens(m.group(1)), tokens(m.group(2))
        named = any(
            any(near_word(x, y) for x in a for y in pa) and any(near_word(x, y) for x in b for y in pb)
            for pa, pb in pairs
        )
        if named:
            return f"{m.group(1)} {m.group(2)}"
        # ("fixed/non-current asset line" over ``Fixed assets``: two names offered for one thing, the
        # one the table writes with the noun after them, where the other it does not)
        noun = tokens(m.group(3) or "")
        held = [
            side for side in (m.group(1), m.group(2)) if noun and _written_with(rel, [*tokens(side), *noun])
        ]
        return f"{held[0]} {m.group(3)}" if len(held) == 1 else m.group(0)

    return re.sub(r"([^\W\d_][\w-]*)/([^\W\d_][\w-]*)(?:\s+([^\W\d_]+))?", read, question)


def _named_texts(rel: Relation) -> list[str]:
    """The table's labels, sections and header parts: the texts a question's names are read against."""

    def compute() -> list[str]:
        texts = [
            str(v) for c in rel.columns if c.role in ("key", "section") for v in rel.distinct_values(c.name)
        ]
        return texts + [p for c in rel.columns for p in parts(c.name)]

    return rel.memo("named texts", compute)


def _written_with(rel: Relation, said: list[str]) -> bool:
    """Whether a label, section or header part of ``rel`` holds the words ``said`` one after
    another (near spellings: "fixed asset" in ``Fixed assets``)."""
    for t in _named_texts(rel):
        own = tokens(t)
        for i in range(len(own) - len(said) + 1):
            if all(near_word(w, s) for w, s in zip(own[i : i + len(said)], said, strict=True)):
                return True
    return False


def _periods_tested(
    rel: Relation, question: str, chosen: list[RelColumn], rows: dict[str, list[str]], expected: str | None
) -> CellPlan | None:
    """How many, or which, periods of the one line named pass a threshold ("for how many quarters
    did other income stay under 3.5", "which years had ROCE above 15%"): each period column of the
    kind asked, between the two the question names when it names two; else None."""
    asked = _PERIODS_ASKED.search(question)
    test = comparison(question.casefold())
    key = rel.key
    if asked is None or test is None or key is None or len(rows.get(key.name, [])) != 1:
        return None
    if any(len(v) != 1 for v in rows.values()):
        return None
    kind = asked.group(1).casefold()
    if not kind.endswith("s") and not re.match(r"which", asked.group(0), re.IGNORECASE):
        return None  # ("how many year ...": no count of one)
    kind = kind.rstrip("s") + "s"
    periods = _of_kind(rel, kind)
    groups = {tuple(parts(c.name)[:-1]) for c in chosen if c in periods}
    # (dates each name their own column: ``31 Dec 2024 › Restated`` beside ``31 Dec 2025``)
    if kind != "dates" and len({tuple(parts(c.name)[:-1]) for c in periods}) > 1:
        if len(groups) != 1:
            return None  # years under two measures (an index and its rate): which is unclear
        periods = [c for c in periods if tuple(parts(c.name)[:-1]) in groups]
    ends = [periods.index(c) for c in chosen if c in periods]
    if len(ends) == 2:
        periods = periods[min(ends) : max(ends) + 1]
    if len(periods) < 2:
        return None
    fixed = _placed(rel, question, {k: v[0] for k, v in rows.items()})
    op = COMPARISON_OPS[test.group(1)]
    line = [rel.values_of(c.name) or [] for c in periods]
    at = [i for i, k in enumerate(rel.values_of(key.name) or []) if k == fixed[key.name]]
    figures = [v[i] for v in line for i in at if isinstance(v[i], int | float)]
    limit = _threshold(rel, periods[0].name, question, test, figures)  # ("above 15%" over fractions)
    cells = [
        (
            without_marks(_told_apart(c.name, []) if kind == "dates" else _period_part(c)).strip(),
            _cell(c.name, fixed),
        )
        for c in periods
    ]
    if not re.match(r"which|list|name", asked.group(0), re.IGNORECASE):
        return _passing(cells, op, limit, counted=True)
    # (one period asked, "in which year was X negative": the periods that pass all the same -- two,
    # where two do, rather than one picked)
    return None if expected == "number" else _passing(cells, op, limit, counted=False)


#: The most a line moved from one period to the next: "grew the most", "the largest fall in".
_MOVED_MOST = re.compile(
    r"\b(?:most|furthest|fastest|sharpest|steepest)\b"
    r"|\b(?:largest|biggest|greatest|sharpest|steepest|strongest)\s+(?P<noun>[^\W\d_]+)\b",
    re.IGNORECASE,
)


def _move_asked(question: str) -> str | None:
    """The change word a superlative ranks by ("fall" of "did cash fall the most", "increase" of "the
    largest increase in"): the noun after it, else the last change word of the six before it."""
    for m in _MOVED_MOST.finditer(question):
        if m.group("noun"):
            noun = m.group("noun").casefold()
            if noun in CHANGE_WORDS | RISE_WORDS | FALL_WORDS:
                return noun
            continue
        before = re.findall(r"[^\W\d_]+", question[: m.start()].casefold())[-6:]
        moved = [w for w in before if w in CHANGE_WORDS | RISE_WORDS | FALL_WORDS]
        if moved:
            return moved[-1]
    return None


def _period_moved_most(rel: Relation, question: str, rows: dict[str, list[str]]) -> CellPlan | None:
    """The period in which the one line named moved most from the period before ("in which quarter
    did cash fall the most", "which year saw the largest increase in revenue"; "percentage" or
    "rate": relative to the period before): the periods of the kind asked, put in time order by the
    days, years or months their headers write; else None."""
    asked = _PERIODS_ASKED.search(question)
    key = rel.key
    move = _move_asked(question)
    if asked is None or move is None or key is None or not re.match(r"which", asked.group(0), re.I):
        return None
    if len(rows.get(key.name, [])) != 1:
        return None
    if any(len(v) != 1 for v in rows.values()) or comparison(question.casefold()) is not None:
        return None
    kind = asked.group(1).casefold().rstrip("s") + "s"
    periods = _of_kind(rel, kind) or _of_kind(rel, "dates")
    if len({tuple(_own_parts(c)[:-1]) for c in periods}) > 1 and kind != "dates":
        return None  # (years under two measures: which is unclear)
    order = _time_order(periods)
    if order is None or len(order) < 3:
        return None
    fixed = _placed(rel, question, {k: v[0] for k, v in rows.items()})
    rate = re.search(r"\b(?:percentage|percent|rate|relative)\b|%", question, re.IGNORECASE) is not None
    steps = []
    for before, after in pairwise(order):
        a, b = _cell(before.name, fixed), _cell(after.name, fixed)
        if move in FALL_WORDS:
            delta = f"({a} - {b})"
        elif move in RISE_WORDS:
            delta = f"({b} - {a})"
        else:
            delta = f"ABS({b} - {a})"
        value = f"{delta} * 1.0 / ABS({a})" if rate else delta
        label = without_marks(_told_apart(after.name, []) if kind == "dates" else _period_part(after)).strip()
        steps.append(f"SELECT {literal(label)} AS p, {value} AS v")
    picked = " UNION ALL ".join(steps)
    return CellPlan(
        f"SELECT p FROM ({picked}) WHERE v IS NOT NULL ORDER BY v DESC LIMIT 1", "top-row", "text"
    )


def _time_order(periods: list[RelColumn]) -> list[RelColumn] | None:
    """Period columns earliest first, by when each ends (:func:`ends_at`); None where that is not
    written for each, or two end alike."""
    keys = [ends_at(c.name) for c in periods]
    if None in keys or len(set(keys)) != len(keys):
        return None
    return [c for _, c in sorted(zip(keys, periods, strict=True), key=lambda x: x[0] or (0, 0, 0))]


#: "in how many funds ...", "name all companies with ...": columns (no periods) counted or listed.
_COLUMNS_COUNTED = re.compile(
    r"\bhow\s+many\s+(?:of\s+the\s+)?(?:\d+\s+)?(?P<noun>[^\W\d_]+s)\b"
    r"|\b(?:name|list)\s+(?:all|every|each|the)\s+(?:the\s+)?(?P<listed>[^\W\d_]+s)\b"
    r"|\b(?:name|list)\s+(?:every|each)\s+(?P<each>[^\W\d_]+)\b"
    r"|\bcount\s+(?:the\s+)?(?P<counted>[^\W\d_]+s)\b"
    r"|\bwhich\s+(?:of\s+the\s+)?(?P<which>[^\W\d_]+s)\b"
    r"|\bwhich\s+(?:of\s+the\s+)?(?P<one>[^\W\d_]+)(?=\s+\w+\s+(?:no|zero|nil)\b"
    r"|[^?]*\b(?:above|below|over|under|greater|less|more|fewer|exceed\w*|at\s+least|at\s+most)\b[^?]*\d)",
    re.IGNORECASE,
)  # ("which portfolio held no cash", "which fund had X above 5,000,000": one or more of them)
#: Every column of a kind: "all four funds", "each of the segments", "across the companies".
_EVERY_OF = re.compile(
    r"(?:\b(?:all|each|every|across|among)\s+(?:of\s+)?(?:the\s+)?"
    r"(?:\d+\s+|(?:two|three|four|five|six|seven|eight|nine|ten)\s+)?"
    r"|\bof\s+(?:the\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten)|both(?:\s+the)?)\s+)"
    r"(?P<noun>[^\W\d_]+s)\b",
    re.IGNORECASE,
)  # ("the combined net assets of the four portfolios": every one of them)
#: Plural nouns that count periods or lines, not the columns of entities.
_NOT_ENTITIES = frozenset(
    "years quarters months dates periods halves lines items rows captions components times".split()
)

#: A figure set against the period before it: "compared with the previous year", "year on year".
_PRIOR = re.compile(
    r"\b(?:compared\s+(?:with|to)|than(?:\s+in)?|from|over|versus|vs\.?)\s+(?:the\s+|its\s+)?"
    r"(?:previous|prior|preceding|last)\s+(?P<kind>year|quarter|month)\b"
    r"|\b(?P<on>year|quarter|month)[- ]on[- ](?P=on)\b",
    re.IGNORECASE,
)


#: The words that name periods in general, which ask for periods and name no line.
_PERIOD_WORDS = re.compile(r"\b(?:years?|quarters?|months?|periods?|headings?)\b", re.IGNORECASE)


def _against_prior(rel: Relation, question: str, chosen: list[RelColumn]) -> CellPlan | None:
    """The periods in which one line rose (or fell) against the period before it, in time order
    ("in which years did operating profit fall compared with the prior year?"), or how many; the
    first period, with none before it, is none of them. The line is the one the words outside
    "compared with the prior year" name."""
    m = _PRIOR.search(question)
    key = rel.key
    if m is None or key is None:
        return None
    rest = question[: m.start()] + " " + question[m.end() :]
    rows, _, _ = _rows(rel, _PERIOD_WORDS.sub(" ", rest), chosen)  # ("the year headings": no line's)
    if len(rows.get(key.name, [])) != 1:
        rows, _, _ = _rows(rel, rest, chosen)
    if len(rows.get(key.name, [])) != 1:
        return None
    said = set(words(question))
    up, down = said & RISE_WORDS, said & FALL_WORDS
    if bool(up) == bool(down) or not (
        _asks_which(question) or _counts(question) or _NAMES_LINES.search(question)
    ):
        return None
    kind = (m.group("kind") or m.group("on")).casefold() + "s"
    cols = [c for c in _figures(rel) if _period_kind(c) == kind and not _is_percent(c)]
    when = [ends_at(c.name) for c in cols]
    if len(cols) < 3 or any(w is None for w in when) or len(set(when)) < len(when):
        return None
    cols = [c for _, c in sorted(zip(when, cols, strict=True), key=lambda p: p[0])]  # type: ignore[arg-type, return-value]
    fixed = {k: v[0] for k, v in rows.items() if len(v) == 1}
    cells = [_cell_in(rel, c.name, fixed) for c in cols]
    levels = _levels(cols)
    op = ">" if up else "<"
    tests = [f"({cur}) {op} ({prev})" for prev, cur in pairwise(cells)]
    if _counts(question):
        return CellPlan("SELECT " + " + ".join(f"({t})" for t in tests), "count", "number")
    names = [_told_apart(c.name, levels) for c in cols[1:]]
    union = " UNION ALL ".join(f"SELECT {literal(n)} WHERE {t}" for n, t in zip(names, tests, strict=True))
    return CellPlan(union, "rows", "list")


#: "how many entities held / reported inventory", "which fund held no cash": columns counted or
#: listed by whether they hold the line.
_HOLDING = re.compile(
    r"\bhow\s+many\s+(?:of\s+the\s+)?[^\W\d_]+\s+(?:had|have|held|hold|reported|report|recorded|carried|"
    r"showed|show)\b(?![^?]*\b(?:more|less|fewer|above|below|over|under|at\s+least|at\s+most)\b)"
    r"|\bwhich\s+(?:of\s+the\s+)?[^\W\d_]+\s+(?:had|have|has|held|hold|holds|reported|reports|recorded"
    r"|carried|carries|showed|shows)\s+(?:no|zero|nil)\b",
    re.IGNORECASE,
)
#: "held no cash", "reported zero borrowings": the line is nil (empty, a dash or 0) in the column.
_HOLDS_NONE = re.compile(
    r"\b(?:had|have|has|held|hold|holds|reported|reports|report|recorded|carried|carries|showed|shows)\s+"
    r"(?:no|zero|nil)\b",
    re.IGNORECASE,
)


def _columns_counted(rel: Relation, question: str) -> list[RelColumn]:
    """The columns of entities (funds, companies, segments: amounts that name no period) where the
    question counts or lists a plural that names no line nor section and tests a bound ("in how
    many funds was dividends receivable above 2,000,000?"); the columns that combine the others
    (``Total``, ``Consolidated``) left out. Else none."""
    m = _COLUMNS_COUNTED.search(question)
    key = rel.key
    if (
        m is None
        or key is None
        or (comparison(question.casefold()) is None and not _HOLDING.search(question))
    ):
        return []
    noun = (
        m.group("noun")
        or m.group("listed")
        or m.group("each")
        or m.group("counted")
        or m.group("which")
        or m.group("one")
        or ""
    ).casefold()
    if noun in _NOT_ENTITIES:
        return []
    cols = [c for c in entities_named(rel, noun, question) if not _is_percent(c)]
    if not cols:
        cols = [
            c
            for c in amounts(rel)
            if not _is_percent(c)
            and year_of(c.name) is None
            and not {w for p in parts(c.name) for w in tokens(p)} & COMBINED
        ]
        cols = [c for c in cols if c.name not in _total_columns(rel, cols)]
    if len(cols) < 2:
        return []
    heads = _headed_by(noun, cols)
    if 2 * heads < len(cols):  # (the columns' own word -- "funds" over ``... Fund`` -- counts them)
        held = {
            w for v in [key.name, *rel.distinct_values(key.name)] if isinstance(v, str) for w in tokens(v)
        }
        if any(c.name == SECTION for c in rel.columns):
            held |= {w for v in rel.distinct_values(SECTION) if isinstance(v, str) for w in tokens(v)}
        # (a combining column the noun names, ``Total segments``, is no column the bound is on)
        named = [
            c
            for c in _columns(rel, question)
            if not any(near_word(noun, w) for p in parts(c.name) for w in tokens(p))
        ]
        if any(near_word(noun, w) for w in held) or named:
            # ("how many liabilities ...": lines are counted; "how many players have at least 1 FA
            # cup apps": the bound is on a column the words name, so rows are counted)
            return []
    return cols


#: "which segment had the highest revenue": a column of entities chosen by a line's figure.
_WHICH_NOUN = re.compile(
    r"\b(?:which|what)\s+(?!(?:was|were|is|are|did|does|do|had|has|have|the|a|an)\b)(?P<noun>[^\W\d_]+)\b"
    r"(?:\s+(?:or|and)\s+[^\W\d_]+)?(?:\s+columns?\b)?",  # ("which capital or reserve column")
    re.IGNORECASE,
)


#: "among the three legal entity columns, which had ...": the noun said before a bare "which".
_AMONG_WHICH = re.compile(
    r"\b(?:among|of)\s+(?:the\s+|all\s+)?(?:\w+\s+){0,4}?(?P<noun>[^\W\d_]+s)\s*,\s*which\b"
    r"(?=\s+(?:was|were|is|are|had|has|have|did|does|do|held|holds|reported|showed|carried)\b)",
    re.IGNORECASE,
)
#: The words of a "which" noun phrase up to its verb: "which shipping line had".
_WHICH_PHRASE = re.compile(
    r"(?:which|what)\s+(?:[^\W\d_]+\s+){1,3}?(?=(?:had|has|have|was|were|is|are|did|does|do|reports?|reported"
    r"|recorded|held|holds|shows?|showed|carried|carries|rose|fell|grew|increased|decreased|declined|dropped"
    r"|moved|changed)\b)",
    re.IGNORECASE,
)


def _headed_by(noun: str, cols: list[RelColumn]) -> int:
    """How many of ``cols`` a part of whose header is ``noun`` ("funds" over ``... Fund``)."""
    return sum(1 for c in cols if any(near_word(noun, w) for p in parts(c.name) for w in tokens(p)))


def _every_entity(rel: Relation, question: str) -> list[RelColumn]:
    """The entity columns a question takes together by their noun ("the combined net assets of all
    four funds", "across the segments"): the noun heads most of them or names the column that adds
    them up; else none."""
    m = _EVERY_OF.search(question)
    if m is None or m.group("noun").casefold() in _NOT_ENTITIES:
        return []
    noun = m.group("noun").casefold()
    cols = entities_named(rel, noun, question)
    told = re.search(r"\b(both|\d+|[a-z]+)\s+(?:the\s+)?[^\W\d_]+s\W*$", m.group(0).casefold())
    said = told.group(1) if told else ""
    count = 2 if said == "both" else int(said) if said.isdigit() else NUMBER_WORDS.get(said)
    if count is not None and count != len(cols):
        return []  # ("both portfolios" of four: the two the question names, not all of them)
    heads = _headed_by(noun, cols)
    # (a peer comparison's companies: any noun no line or section holds, "across the peers")
    compared = bool(cols) and peers(rel, cols) and not _names_lines(rel, noun)
    return cols if cols and (2 * heads >= len(cols) or compared) else []


#: A date or a year a question writes: "at December 31, 2025", "31 Dec 2024", "in 2025".
_DATED = re.compile(
    r"\b(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+\d{1,2})?,?\s+"
    r"(?:19|20)\d\d\b|\b(?:19|20)\d\d\b",
    re.IGNORECASE,
)


def _names_lines(rel: Relation, noun: str) -> bool:
    """Whether a noun is the head of a row label or a section, so names a kind of line ("which
    expense": ``Operating expenses``; ``Segment EBITDA`` is an EBITDA, the segments are columns)."""
    key = rel.key
    labels = [key.name, *rel.distinct_values(key.name)] if key is not None else []
    if any(c.name == SECTION for c in rel.columns):
        labels += rel.distinct_values(SECTION)
    # (a label's head stands before its preposition: ``Investment in subsidiaries`` is an investment,
    # and "which subsidiaries" still asks among the columns of subsidiaries)
    heads = {
        own[-1]
        for v in labels
        if isinstance(v, str)
        and (own := [w for w in tokens(_OBJECT_OF.split(v, maxsplit=1)[0]) if w not in COMMON])
    }
    return any(near_word(noun, w) for w in heads)


#: Where a label's head ends: a preposition before its object ("Investment in subsidiaries").
_OBJECT_OF = re.compile(r"\s+(?:in|of|for|from|to|on|by|with)\s+", re.IGNORECASE)


def _entities_ranked(rel: Relation, question: str) -> list[RelColumn]:
    """The entity columns a question ranks ("which segment had the highest revenue?"): a "which"
    noun that names no line, section or column, and a superlative; else none."""
    m = (
        _WHICH_NOUN.search(question)
        or _AMONG_WHICH.search(question)
        or _RANKED_NOUN.match(question)
        or _TOP_N_NOUN.search(question)
    )
    key = rel.key
    ranks = bool(set(words(question)) & (DESCENDING | ASCENDING)) or _RANK_ALL.match(question) is not None
    if m is None or key is None or not ranks:
        return []
    noun = m.group("noun").casefold()
    if noun.rstrip("s") in {w.rstrip("s") for w in _NOT_ENTITIES} or not entity_columns(rel):
        return []
    if _names_lines(rel, noun):
        return []
    found = entities_named(rel, noun, question)
    # (the entities the question offers by name; the noun it asks by names none: "which reserve
    # column" offers no ``Other reserves``)
    phrase = _WHICH_PHRASE.match(question, m.start())  # ("which shipping line had ...": the whole noun)
    rest = question[: m.start()] + question[phrase.end() if phrase is not None else m.end() :]
    rest = re.sub(
        rf"\b{re.escape(noun.rstrip('s'))}s?\b", " ", rest, flags=re.IGNORECASE
    )  # ("across all funds")
    # ("the smallest figure" names no ``Small Cap Growth Fund``)
    rest = re.sub(r"[^\W\d_]+", lambda w: " " if superlative(w.group(0).casefold()) else w.group(0), rest)
    if not any(YEARS.search(own_part(c)) for c in found):
        rest = _DATED.sub(" ", rest)  # (the date names every entity's column of that date, none apart)
    named = [c for c in found if c in _columns(rel, rest)]
    if len(named) == 1:
        return []  # ("which item ... for the Guarantor Subsidiaries": one entity named, its lines ranked)
    return named or found  # ("which segment (Consumer, Professional or Industrial)": those offered)


def _leaves_ranked(rel: Relation, question: str, ranked: list[RelColumn]) -> list[RelColumn]:
    """The periods down the rows and the figure columns in groups of a two-level header (``Rail ›
    National Rail`` .., ``Local bus › Bus (London)`` .., a ``Total`` beside): "which mode was smallest
    in 2019/20" ranks the leaf columns of every group, wholes left out, not one group's; a group the
    question names ("which rail mode") ranks its own. ``ranked`` as found where the table is no such."""
    ranks = _asks_which(question) and bool(set(words(question)) & (DESCENDING | ASCENDING))
    if not (ranked or ranks) or _ASKS_PERIOD.search(question) or not periods_down(rel):
        return ranked
    leaves = [
        c
        for c in _figures(rel)
        if len(parts(c.name)) == 2
        and not _whole_label(parts(c.name)[-1])
        and not set(tokens(c.name)) & COMBINED
    ]
    groups = list(dict.fromkeys(parts(c.name)[0] for c in leaves))
    own = [parts(c.name)[-1] for c in leaves]
    if len(groups) < 2 or not set(ranked) <= set(leaves) or len(set(own)) < len(own):
        return ranked  # (``Users › Male`` beside ``Usage rate › Male``: measures by the same parts)
    said = words(question)
    named = [
        g
        for g in groups
        if all(any(near_word(w, q) for q in said) for w in set(tokens(_UNIT_IN_BRACKETS.sub("", g))) - COMMON)
    ]
    if len(named) == 1:
        return [c for c in leaves if parts(c.name)[0] == named[0]]
    return leaves if not named else ranked


def _columns_tested(
    rel: Relation, question: str, cols: list[RelColumn], rows: dict[str, list[str]], expected: str | None
) -> CellPlan | None:
    """How many, or which, of ``cols`` hold a figure past the bound in the one line named."""
    test = comparison(question.casefold())
    key = rel.key
    holding = test is None and _HOLDING.search(question) is not None
    if (test is None and not holding) or key is None or any(len(v) != 1 for v in rows.values()):
        return None
    fixed = _placed(rel, question, {k: v[0] for k, v in rows.items()})
    cells = [(without_marks(parts(c.name)[-1]).strip(), _cell(c.name, fixed)) for c in cols]
    if test is None:  # ("how many entities held inventory": a figure other than nil, a dash none)
        # (a line that names its negative side in brackets, ``Total distributable earnings (accumulated
        # loss)``, held on that side where the question names it: "how many funds had accumulated losses")
        side = re.search(r"\(([^()]+)\)\s*$", fixed.get(key.name, ""))
        qt = tokens(question)
        negative = side is not None and any(
            near_word(w, q) for w in tokens(side.group(1)) if w not in COMMON for q in qt
        )
        op = "<" if negative else "<>"
        counted = _counts(question) is not None
        if _HOLDS_NONE.search(question):  # ("which fund held no cash": nil, a blank or a dash)
            op = "="
        return _passing([(label, f"COALESCE({e}, 0)") for label, e in cells], op, "0", counted=counted)
    limit = _threshold(rel, cols[0].name, question, test)
    op = COMPARISON_OPS[test.group(1)]
    if _counts(question):  # (else "name all companies with ...")
        blank_zero = [(label, f"COALESCE({e}, 0)") for label, e in cells]  # (a blank passes no bound)
        return _passing(blank_zero, op, limit, counted=True)
    return None if expected == "number" else _passing(cells, op, limit, counted=False)


def _passing(cells: list[tuple[str, str]], op: str, limit: str, counted: bool) -> CellPlan:
    """How many of the cells pass ``op limit`` (``counted``), or the labels of those that do."""
    if counted:
        return CellPlan("SELECT " + " + ".join(f"({e} {op} {limit})" for _, e in cells), "count", "number")
    picked = " UNION ALL ".join(f"SELECT {literal(label)} AS p, {e} AS v" for label, e in cells)
    return CellPlan(f"SELECT p FROM ({picked}) WHERE v {op} {limit}", "rows", "list")


def _parts_compared(rel: Relation, question: str, chosen: list[RelColumn]) -> list[RelColumn]:
    """The columns a cross table's total adds up, where the question asks which of them ranks first
    on the one line it names and names the total only by the measure's word ("which tenure had the
    fewest dwellings completed in Coastal Plain": ``All dwellings`` is the measure's column, the
    tenures are compared); else ``chosen``."""
    total = row_total(rel) if cross_table(rel) else None
    if (
        total is None
        or chosen != [total]
        or not _asks_which(question)
        or _ASKS_PERIOD.search(question)
        or set(tokens(parts(total.name)[-1])) <= set(tokens(question))
    ):
        return chosen
    return [c for c in _figures(rel) if c is not total]


def _and_in_total(rel: Relation, question: str, named: list[str], sections: list[str]) -> list[str]:
    """``named`` and the section's own total line, where the question sets a line against the
    figure "in total" ("the difference between deaths in total in Upper Dales and in rural areas in
    Upper Dales": the ``Total`` line under ``Upper Dales`` and ``Rural areas``); else ``named``."""
    qwords = set(tokens(question))
    if (
        "total" not in qwords
        or "total" in tokens(named[0])
        or not qwords & (_AGAINST | _DIFFERENCE | {"minus", "less"})
        or len(sections) > 1
        or rel.key is None
    ):
        return named
    labels, flags = rel.values_of(rel.key.name) or [], rel.values_of(TOTAL)
    if flags is None:
        return named  # (no line is marked a total)
    within = rel.values_of(SECTION) or [None] * len(labels)
    lines = {
        lab
        for lab, flag, sec in zip(labels, flags, within, strict=True)
        if flag == 1
        and isinstance(lab, str)
        and set(tokens(lab)) <= COMMON | {"total"}
        and (sec == sections[0] if sections else sec is None)
    }
    return [*lines, *named] if len(lines) == 1 else named


def _lines_within(rel: Relation, key: str, named: list[str], sections: list[str]) -> list[str]:
    """The lines named that stand in a section named, where the others named are those sections'
    own lines ("private institutions in primary education than in lower secondary education": the
    ``Private institutions`` line of each, not the group lines ``Primary education`` and ``Lower
    secondary education``); else ``named``."""
    keys, within = rel.values_of(key) or [], rel.values_of(SECTION) or []
    inside = {
        k
        for k, s in zip(keys, within, strict=True)
        if k in named and k not in sections and isinstance(s, str) and s.split(PATH_SEP)[-1] in sections
    }
    groups = [k for k in named if k in sections]
    if inside and groups and set(named) <= inside | set(groups):
        return [k for k in named if k in inside]
    return named


def _lines_in_section(rel: Relation, key: str, named: list[str], sections: list[str]) -> list[str]:
    """The lines named that stand in a section named, where the others named are lines (not totals)
    of other sections: one line asked for ("other non-current financial assets" is ``Other financial
    assets`` under ``Non-current assets › Financial assets``, not ``Other non-current assets`` beside
    that section, which holds as many of the words); else ``named``."""
    keys, within, flags = rel.values_of(key) or [], rel.values_of(SECTION) or [], rel.values_of(TOTAL)
    placed = {k for k, s in zip(keys, within, strict=True) if k in named and s in sections}
    totals = {k for i, k in enumerate(keys) if flags is not None and flags[i] == 1}
    if placed and not (set(named) - placed) & totals:
        return [k for k in named if k in placed]
    return named


def _outside(rel: Relation, key: str, rows: dict[str, list[str]]) -> bool:
    """Whether no line named stands in any section named."""
    keys, sections = rel.values_of(key) or [], rel.values_of(SECTION) or []
    named = set(rows[SECTION])
    return not any(
        k in rows[key] and isinstance(s, str) and (s in named or named & set(s.split(PATH_SEP)))
        for k, s in zip(keys, sections, strict=True)
    )


#: What parts the members of a list of three or more: "A, B and C" (a comma, "and" or "plus").
_PARTS_SAID = re.compile(r",\s|\b(?:plus|and)\b", re.IGNORECASE)


def _without_qualifying_total(rel: Relation, key: str, named: list[str], question: str = "") -> list[str]:
    """The two lines named, less a total touched only by the words of the other line and of a
    section that line stands under: "current lease liabilities" names ``Lease liabilities`` under
    ``Current liabilities``, not ``Total current liabilities`` as well; "net assets without donor
    restrictions" names ``Without donor restrictions`` under ``Net assets:`` alone, where the
    question says no "total"."""
    totals = [v for v in named if totals_named(rel, key, {key: [v]})]
    if len(totals) != 1 or len(named) > 3:
        return named
    total = totals[0]
    own = set(tokens(total)) - COMMON
    for line in (v for v in named if v != total):
        held = sections_of(rel, key, [line])
        if len(held) < 2 and not (held and question and _section_places_line(question) and len(named) == 2):
            continue  # (a line under one section only: nothing for the words to place)
        mine = set(tokens(line))
        if any(own <= mine | {w for p in parts(h) for w in tokens(p)} for h in held):
            # ("was derivative financial instruments on the asset side smaller than debt
            # securities": ``Total assets`` is the side's name, no third line compared)
            return [v for v in named if v != total]
    return named


def _section_places_line(question: str) -> bool:
    """Whether a section's words beside a line's place it ("net assets without donor restrictions",
    "operating revenues of freight"): the question says no "total" and asks no share, where the
    section named is the whole ("what proportion of current assets was cash")."""
    return not re.search(r"\btotals?\b", question, re.IGNORECASE) and not _SHARE.search(question)


def _group_asked(
    rel: Relation, question: str, expected: str | None, rows: dict[str, list[str]], group: RowClass | None
) -> RowClass | None:
    """The group of lines the question asks which one of ("which current asset ...", "the biggest
    current liability line"), when it names no line of its own but at most a total. ``group``: the
    group its words name (:func:`~gridsight.qa._classes.asked_class`)."""
    key = rel.key
    if (
        key is None
        or expected in ("boolean", "list")
        or re.search(r"\btotal\b", _totals_placing(rel, question), re.I)
    ):
        return None
    if _ASKS_PERIOD.search(question):
        return None  # "which year shows the highest figure for ...": a period is asked, no line
    named = rows.get(key.name, [])
    if group is None or not named or totals_named(rel, key.name, rows):
        return group
    qw = question_words(question)
    group_words = set(tokens(group.name))
    if all(said_words(v, qw) <= group_words for v in named) and not set(named) & group.members:
        return group  # ("which item that may be reclassified to profit or loss": the group's words)
    if group.name in named:
        # (the line that sums the group, unmarked as it may be, or that it follows, is its name: no
        # line of it is asked)
        return group
    if _counts(question) and comparison(question.casefold()):
        return group  # "how many long-term asset lines were above 250": lines counted, none read
    # a line the group's words touch ("which long-term liability" and ``Other long-term
    # liabilities``) is one of those to choose among, not the one asked; lines named whole are
    # ("which current asset was larger, inventories or receivables")
    qw = question_words(question)
    unsaid = set(tokens(named[0])) - COMMON - {w for w in tokens(named[0]) for q in qw if near_word(w, q)}
    return group if len(named) == 1 and named[0] in group.members and unsaid else None


def _totals_placing(rel: Relation, question: str) -> str:
    """``question`` without the "total" that places a column rather than names a line: "in total",
    "(all funds)" over an ``All funds 2025`` column."""
    out = re.sub(r"\bin\s+total\b", " ", question, flags=re.IGNORECASE)
    headed = {
        " ".join(tokens(p)[:2])
        for c in rel.columns
        if c.role == "data"
        for p in parts(c.name)
        if tokens(p)[:1] == ["total"]
    }
    for h in sorted(headed, key=len, reverse=True):
        if len(h.split()) == 2:
            spaced = r"\s+".join(re.escape(w) for w in h.split())
            out = re.sub(rf"\b{spaced}\b", " ", out, flags=re.IGNORECASE)
    return out


def _members_named(rel: Relation, group: RowClass, named: list[str]) -> list[str]:
    """The lines named among ``group``'s, without the totals the group's words touch: "which current
    asset was larger, cash or receivables" names two lines, not ``Total current assets``."""
    members = [v for v in named if v in group.members]
    key = rel.key
    assert key is not None
    totals = [v for v in named if v not in members and totals_named(rel, key.name, {key.name: [v]})]
    return members if len(members) >= 2 and len(members) + len(totals) == len(named) else named


def _top_in_group(
    rel: Relation, question: str, chosen: list[RelColumn], group: RowClass, rows: dict[str, list[str]]
) -> CellPlan | None:
    """The line of ``group`` whose figure in the one column asked is largest or smallest, or whose
    change between the two columns asked is."""
    key = rel.key
    assert key is not None
    qwords = set(words(question))
    place = ordinal_place(question) or 1
    down = bool(qwords & ASCENDING)
    up = bool(qwords & DESCENDING) or (place > 1 and not down)  # ("ranked second": from the top)
    if up == down or len(chosen) > 2:
        return None
    fixed = {k: v[0] for k, v in rows.items() if k not in (key.name, SECTION) and len(v) == 1}
    if len(chosen) == 2:
        level = _levels(chosen)
        changed = _top_change(
            rel, question, chosen, level[0] if level else 0, fixed, key, qwords, group.conditions
        )
        return None if changed is None else CellPlan(changed.sql, "top-in-group", "text")
    col = quote(chosen[0].name)
    flow = _FLOW.search(question)
    # ("the largest cash outflow": among the lines paid out, the largest in size; an inflow, in)
    signed = [] if flow is None else [f"{col} {'<' if flow.group(1).casefold() == 'out' else '>'} 0"]
    rest = _where(fixed, [*group.conditions, f"{col} IS NOT NULL", *signed])
    order = "DESC" if up else "ASC"
    # ("by absolute amount"; or expenses a statement shows negative: the largest is the largest in size)
    sized = (
        flow is not None
        or _MAGNITUDE.search(question)
        or _presented_negative(rel, sorted(group.members)) == set(group.members)
    )
    by = f"ABS({col})" if sized else col
    return CellPlan(
        f"SELECT {quote(key.name)} FROM data{rest} ORDER BY {by} {order} LIMIT 1{_offset(place)}",
        "top-in-group",
        "text",
    )


#: "the largest cash outflow", "the biggest inflow": the lines paid out (in), by their size.
_FLOW = re.compile(r"\b(out|in)(?:flows?|going)\b", re.IGNORECASE)


def _offset(place: int) -> str:
    """The rows a ranking skips before the place asked ("the second largest": one)."""
    return f" OFFSET {place - 1}" if place > 1 else ""


def _told_apart(name: str, levels: list[int]) -> str:
    """What tells a column apart from the others compared: its parts at the levels where they
    differ, else (paths of different depths, one year each) the part that names its year."""
    if levels:
        return " ".join(parts(name)[i] for i in levels)
    return next(p for p in parts(name) if YEARS.search(p))


def _names_any(question: str, labels: list[str]) -> bool:
    """Whether the question spells a word that sets one label apart from the others."""
    qw = question_words(question)
    sets = [set(tokens(label)) - COMMON for label in labels]
    every = set.intersection(*sets) if sets else set()
    return any(near_word(w, q) for s in sets for w in s - every for q in qw)


def _spanned(rel: Relation, question: str, chosen: list[RelColumn]) -> list[RelColumn]:
    """Two chosen columns that differ at one header level and that the question names as the ends
    of a span ("from Q1 to Q4", "2021 to 2023"), with the columns between them in the table."""
    if len(chosen) != 2 or len(_levels(chosen)) != 1:
        return chosen
    level = _levels(chosen)[0]
    # (a provisional or footnote mark after a header, ``Q4 p``, ``2023*``, is not written in questions)
    a, b = (
        without_marks(re.sub(r"(?:\s+[a-z]|\s*[*†‡]+|\s+\d\))$", "", parts(c.name)[level])) for c in chosen
    )
    if not _written_as_span(question, a, b):
        return chosen
    names = [c.name for c in rel.columns]
    i, j = sorted((names.index(chosen[0].name), names.index(chosen[1].name)))
    kind = _period_kind(chosen[0])
    return [
        c
        for c in rel.columns[i : j + 1]
        if c is chosen[0]
        or (_apart(chosen[0].name, c.name) == level and (kind is None or _period_kind(c) == kind))
    ]  # (quarters from Q4 2023 to Q3 2024: not the year's own column between them)


def _listed(
    rel: Relation,
    question: str,
    chosen: list[RelColumn],
    fixed: dict[str, str],
    varying_rows: list[tuple[str, list[str]]],
) -> CellPlan | None:
    """ "List the ... of the three urban regions": the cells of one column over the rows of a named
    section (or the named rows), or of one row across the named columns, in the table's order."""
    key = rel.key
    if key is None:
        return None
    if len(chosen) == 1 and not varying_rows and key.name not in fixed and SECTION in fixed:
        col = quote(chosen[0].name)
        order = f" ORDER BY {quote(POSITION)}" if any(c.name == POSITION for c in rel.columns) else ""
        test = comparison(question.casefold())
        if test is not None:  # "name the segments whose operating profit was below 0": their names
            bound = f"{col} {COMPARISON_OPS[test.group(1)]} {_threshold(rel, chosen[0].name, question, test)}"
            where = _where(fixed, [*_not_total(rel), bound])
            return CellPlan(f"SELECT {quote(key.name)} FROM data{where}{order}", "rows", "list")
        where = _where(fixed, [*_not_total(rel), f"{col} IS NOT NULL"])
        return CellPlan(f"SELECT {col} FROM data{where}{order}", "cells", "list")
    if len(chosen) == 1 and len(varying_rows) == 1:
        name, values = varying_rows[0]
        cells = [_cell(chosen[0].name, _placed(rel, question, {**fixed, name: v})) for v in values]
    elif len(chosen) > 1 and not varying_rows and key.name in fixed and len(_levels(chosen)) == 1:
        cells = [_cell(c.name, fixed) for c in chosen]
    else:
        return None
    return _listed_cells(cells, "cells")


def _placed(rel: Relation, question: str, conds: dict[str, str]) -> dict[str, str]:
    """``conds`` narrowed to one row where a row label repeats under several sections: the section
    the question names most words of, else the first (a statement's first block is its whole:
    consolidated before mainline, both sexes before men). A named section that holds no such label
    gives way to the one whose path holds it (``Less: › Consolidated:`` under ``Consolidated:``)."""
    sections = rel.values_of(SECTION)
    if sections is None:
        return conds
    rows = _placed_rows(rel, {k: v for k, v in conds.items() if k != SECTION})
    held = list(dict.fromkeys(str(sections[r]) for r in rows if sections[r] is not None))
    named = conds.get(SECTION)
    if len(held) < 2 and (named is None or named in held or not held):
        return conds
    if named is not None and named not in held:
        within = [h for h in held if named.casefold() in (p.casefold() for p in parts(h))]
        return {**conds, SECTION: within[0]} if within else {k: v for k, v in conds.items() if k != SECTION}
    kept = [h for h in held if not (_non_said(question, h) or _long_term_said(question, h))]
    if named is not None and not (named in held and named not in kept and len(kept) == 1):
        return conds
    if len(kept) == 1 and len(held) > 1:
        # ("deferred revenue within non-current liabilities": not the line under ``Current
        # liabilities``, whose word the question negates)
        return {**conds, SECTION: kept[0]}
    best = section_named(held, question_words(question))
    return {**conds, SECTION: best} if best is not None else conds


def _member_placed(rel: Relation, question: str, conds: dict[str, str], label: str) -> dict[str, str]:
    """``conds`` for one member of a list, placed by the words of its own piece where they name one
    of the sections that hold it (the section the whole question names is another member's: "current
    borrowings, pension obligations and long-term lease liabilities"); else as the question places
    it."""
    piece = _own_piece(question, label)
    if piece != question:
        alone = _placed(rel, piece, {k: v for k, v in conds.items() if k != SECTION})
        if SECTION in alone:
            return alone
    return _placed(rel, question, conds)


def _own_piece(question: str, label: str) -> str:
    """The piece of a listing question (between its commas and "and"s) that names ``label`` most:
    the words that place that member alone ("current borrowings, pension obligations and long-term
    lease liabilities": ``Lease liabilities`` under the long-term section, ``Borrowings`` under the
    current one). The whole question where no piece names it."""
    pieces = LIST_PARTS.split(question)
    scored = [(len(said_words(label, question_words(p))), -i, p) for i, p in enumerate(pieces)]
    best = max(scored, default=(0, 0, question))
    return best[2] if best[0] > 0 else question


def _pool(
    rel: Relation,
    col: str,
    key: str,
    label: str,
    pooled: dict[str, list[str]],
    others: dict[str, str] | None = None,
) -> str:
    """The sum of a label's cells in the sections pooled for it (:func:`pooled_sections`)."""
    cells = [_cell_in(rel, col, {**(others or {}), key: label, SECTION: s}) for s in pooled[label]]
    return "(" + " + ".join(cells) + ")"


def _shared(cells: list[tuple[str, str]]) -> frozenset[str]:
    """The words every label of ``cells`` holds."""
    return frozenset.intersection(*(frozenset(tokens(label)) for label, _ in cells)) if cells else frozenset()


def _minus(question: str, cells: list[tuple[str, str]]) -> bool:
    """Whether the question subtracts the second member from the first: "minus", or "less" between
    them ("actual less plan")."""
    if len(cells) != 2:
        return False
    low = periods_spelt(question).casefold()
    a, b = (_position(question, label, _shared(cells)) for label, _ in cells)
    between = low[a:b]
    for (
        label,
        _,
    ) in cells:  # (not the "less" of a label written whole: ``Long-term debt, less current portion``)
        between = between.replace(label.casefold(), " ")
    return bool(re.search(r"\bminus\b", low) or (a < b and re.search(r"\bless\b", between)))


def _minus_clause(
    question: str, cells: list[tuple[str, str]], operator: str = r"\bminus\b"
) -> list[str] | None:
    """The two members' expressions as a clause "X minus Y" orders them, wherever else the question
    names them first ("change from Q3 to Q4? Give Q4 minus Q3."): the member its words place right
    before the last "minus" less the one right after; None when that clause names not both.
    ``operator``: another operation's words ("divided by")."""
    if len(cells) != 2:
        return None
    low = periods_spelt(question).casefold()
    found = list(re.finditer(operator, low))
    if not found:
        return None
    at = found[-1]
    start = max(low.rfind(c, 0, at.start()) for c in ".?!;:")  # the clause's own sentence
    head, tail = low[start + 1 : at.start()], low[at.end() :]
    shared = _shared(cells)
    named = [
        (_position(head, label, shared) < len(head), _position(tail, label, shared)) for label, _ in cells
    ]
    for i, j in ((0, 1), (1, 0)):
        if named[i][0] and named[j][1] < min(named[i][1], len(tail)):
            return [cells[i][1], cells[j][1]]
    return None


#: "later minus earlier" (+1) or "earlier minus later" (-1): a difference ordered by time.
_BY_TIME = re.compile(
    r"\b(later|latter|newer|more recent|earlier|former|older|prior)\s+"
    r"(?:(?:year|period|date|figure|value|amount|balance)\s+)?"
    r"(?:minus|less)\s+(?:the\s+)?(later|latter|newer|more recent|earlier|former|older|prior)\b",
    re.IGNORECASE,
)
_LATE = frozenset({"later", "latter", "newer", "more recent"})
#: A share asked in percent: "what percentage", "in per cent", "%" (else as a fraction).
_PERCENT_WORD = re.compile(r"\bper\s?cent(?:age)?\b|%", re.IGNORECASE)
#: The ratio is asked in percent: "in percent", "as a percentage", "%".
_IN_PERCENT = re.compile(r"\b(?:in|as\s+an?|as)\s+(?:per\s*cent(?:age)?)\b|%", re.IGNORECASE)


def _minus_by_time(question: str) -> int:
    """+1 when the question subtracts the earlier member from the later ("later minus earlier"),
    -1 for the other way round, 0 when it orders nothing by time."""
    m = _BY_TIME.search(question)
    if m is None:
        return 0
    first, second = (x.casefold() for x in m.groups())
    if (first in _LATE) == (second in _LATE):
        return 0
    return 1 if first in _LATE else -1


def _percent_scale(question: str) -> str:
    """The factor of a ratio the question asks in percent (100) or as it is (1)."""
    return "100.0" if _IN_PERCENT.search(question) else "1.0"


def _number(label: str) -> float:
    """Where a period label stands in time: its year, and within it its half, quarter or month
    (``Q2 2025`` after ``Q1 2025``; ``FY25`` is 2025; ``30 June 2024`` mid-2024); NaN for a label
    that names no one year (a mark after it aside: ``2023 [p]`` is 2023)."""
    label = without_marks(label).strip() or label
    try:
        return float(label)
    except ValueError:
        figures = numeric_month(label)  # (``2025-03``)
        if figures is not None:
            return figures[0] + (figures[1] - 1) / 12
        spelt = periods_spelt(label)
        years = YEARS.findall(spelt)
        if len(years) != 1:
            dated = month_of(label)  # (``Apr-24``: a month and its year's two last figures)
            if dated is not None and dated[1] is not None:
                return dated[1] + (dated[0] - 1) / 12
            return float("nan")
        sub = re.search(r"\b([hq])([1-4])\b", spelt, re.IGNORECASE)
        month = next((MONTHS[w] for w in tokens(spelt) if w in MONTHS), None)
        if sub is not None:
            part = (int(sub.group(2)) - 1) / (2 if sub.group(1).casefold() == "h" else 4)
        else:
            part = (month - 1) / 12 if month is not None else 0.0
        return float(years[0]) + part


def _moved_lines(
    rel: Relation,
    question: str,
    chosen: list[RelColumn],
    group: RowClass | None,
    rows: dict[str, list[str]],
    key: RelColumn | None,
) -> CellPlan | None:
    """How many of a group's lines rose (or fell) between the two periods named ("how many of the
    individual current assets lines increased from 2023 to 2024"), or which ("name every
    non-current liability line that grew ...": in the table's order, its total left out): the lines
    whose later cell is above (below) the earlier; None unless the periods' order is known."""
    said = set(words(question))
    up, down = said & RISE_WORDS, said & FALL_WORDS  # ("went up", "went down")
    counts = _counts(question) is not None
    # ("name every line that grew"; "which grew the most" ranks them: no list)
    ranked = any(superlative(w) for w in said)
    names = not counts and not ranked and _NAMES_LINES.search(question) is not None
    if group is None or len(chosen) != 2 or not (counts or names):
        return None
    against = _higher_in(question, chosen) if not (up or down) else None
    if bool(up) == bool(down) and against is None:
        return None
    if against is None and comparison(question.casefold()) is not None:
        return None  # ("how many lines were above 1,000")
    first, second = (ends_at(c.name) for c in chosen)
    if against is not None:  # ("how many current asset lines were higher in 2025 than in 2024")
        (late, early), up = against, said & MORE_WORDS
    elif first is not None and second is not None and first != second:
        early, late = (chosen[0].name, chosen[1].name) if first < second else (chosen[1].name, chosen[0].name)
    elif (ends := opening_and_closing(c.name for c in chosen)) is not None:
        early, late = ends  # (``Opening balance`` and ``Closing balance``)
    else:
        return None
    fixed = {k: v[0] for k, v in rows.items() if k not in (key.name if key else "", SECTION) and len(v) == 1}
    # (a line blank at one date is 0 there, as a statement's dash: ``Assets held for sale`` new in 2025)
    moved = f"COALESCE({quote(late)}, 0) {'>' if up else '<'} COALESCE({quote(early)}, 0)"
    if names and key is not None:
        order = f" ORDER BY {quote(POSITION)}" if any(c.name == POSITION for c in rel.columns) else ""
        where = _where(fixed, [*group.conditions, moved])
        return CellPlan(f"SELECT {quote(key.name)} FROM data{where}{order}", "rows", "list")
    return CellPlan(
        f"SELECT COUNT(*) FROM data{_where(fixed, [*group.conditions, moved])}", "count", "number"
    )


#: "higher in 2025 than in 2024", "lower sales in FY2026 than in FY2025": the first column set above
#: (or below) the second.
_HIGHER_IN = re.compile(
    r"\b(?:higher|lower|larger|smaller|greater|bigger|more|less)\s+(?:[^\W\d_]+\s+){0,3}?(?:at|in|on|for)\s+"
    r"(?P<a>.+?)\s+than\s+"
    r"(?:at|in|on|for)?\s*(?P<b>[^?,;]+)",
    re.IGNORECASE,
)


def _higher_in(question: str, chosen: list[RelColumn]) -> tuple[str, str] | None:
    """The two columns a question sets one above the other ("higher in 2025 than in 2024"), the one
    it names first first; None unless each side names one of them alone."""
    m = _HIGHER_IN.search(question)
    if m is None:
        return None
    sides = []
    for side in (m.group("a"), m.group("b")):
        hit = [c.name for c in chosen if parts(c.name)[-1].casefold() in side.casefold()]
        said = set(YEARS.findall(side))
        if not hit and len(said) == 1:  # ("at the 2024 year end" over ``2024 £``: by its year)
            hit = [c.name for c in chosen if year_of(c.name) in said]
        if len(hit) != 1:
            return None
        sides.append(hit[0])
    return (sides[0], sides[1]) if sides[0] != sides[1] else None


#: Titles of statements of balances at a date, not of flows over a period.
_BALANCES = re.compile(r"\bbalance\s+sheets?\b|\bfinancial\s+position\b|\bassets\s+and\s+liabilities\b", re.I)


def _months_of_code(question: str, chosen: list[RelColumn], start: int = 1) -> bool:
    """Whether ``chosen`` are the month columns of the one quarter or half the question names
    ("Q2": ``Apr``, ``May``, ``Jun``; counted from the month ``start`` of a financial year)."""
    codes = {w for w in words(question) if w in CODE_MONTHS}
    months = [_month_of(c) for c in chosen]
    if len(codes) != 1 or len(chosen) not in (3, 6) or None in months:
        return False
    wanted = {(m + start - 2) % 12 + 1 for m in CODE_MONTHS[codes.pop()]}
    return sorted(m for m in months if m is not None) == sorted(wanted)


def _of_balances(rel: Relation) -> bool:
    """Whether the table is a statement of balances (its titles or sheet name say so)."""
    return any(_BALANCES.search(t) for t in [rel.sheet.name, *(t.text for t in rel.table.titles)])


def _ordered(cells: list[tuple[str, str]]) -> bool:
    """Whether the members are numbers (years), or dates of distinct years (``30 June 2022``): a
    change runs from the smaller to the larger."""
    numbers = [_number(label) for label, _ in cells]
    return all(n == n for n in numbers) and len(set(numbers)) == len(numbers)


def _in_time(cells: list[tuple[str, str]]) -> list[str]:
    """The members' expressions from the earliest to the latest (their labels are numbers: years)."""
    return [e for _, e in sorted(cells, key=lambda c: _number(c[0]))]


def _names_another_column(rel: Relation, question: str, chosen: list[RelColumn]) -> bool:
    """Whether "which/what X" names a column other than the row labels and the chosen ones (``which
    year`` over a Year column): the answer is that column's value, not a row label or a header."""
    key = rel.key
    mine = every_part(chosen) | set(tokens(key.name) if key else [])
    for x, after in re.findall(r"\b(?:which|what)\s+([^\W_]+)(?:\s+([^\W_]+))?", question.casefold()):
        if any(near_word(x, w) for w in mine):
            continue
        if x == "line" and after in ("item", "items"):
            continue  # ("which line item": a row, named by its label, not a ``Line ID`` code)
        if any(c.role == "data" and any(near_word(x, w) for w in tokens(c.name)) for c in rel.columns):
            return True
    return False


def _repeats(rel: Relation, name: str, conds: dict[str, str]) -> bool:
    """Whether a label of column ``name`` names more than one line (no total) among the rows that
    hold ``conds``: the labels are groups, not lines."""
    labels, totals = rel.values_of(name) or [], rel.values_of(TOTAL)
    seen = [
        labels[i] for i in _placed_rows(rel, conds) if labels[i] is not None and not (totals and totals[i])
    ]
    return len(set(seen)) < len(seen)


def _rows_placed(rel: Relation, conds: dict[str, str]) -> int:
    """How many rows hold every value of ``conds``."""
    return len(_placed_rows(rel, conds))


def _shown_in_brackets(rel: Relation, conds: dict[str, str]) -> bool:
    """Whether every line (no total) of the rows that hold ``conds`` is shown negative throughout
    (:func:`_presented_negative`): a section of a statement's outflows or liabilities, whose largest
    and smallest are by size."""
    key = rel.key
    if key is None:
        return False
    keys, totals = rel.values_of(key.name) or [], rel.values_of(TOTAL)
    lines = [
        str(keys[i]) for i in _placed_rows(rel, conds) if keys[i] is not None and not (totals and totals[i])
    ]
    return bool(lines) and _presented_negative(rel, lines) == set(lines)


def _placed_rows(rel: Relation, conds: dict[str, str]) -> list[int]:
    """The rows that hold every value of ``conds``."""
    columns = [(rel.values_of(k) or [], v) for k, v in conds.items()]
    return [i for i in range(len(rel.rows)) if all(str(vals[i]) == v for vals, v in columns)]


def _unexplained_numbers(
    rel: Relation, question: str, chosen: list[RelColumn], rows: dict[str, list[str]]
) -> bool:
    """Whether the question holds a number that the table holds elsewhere (another header, a label,
    a figure) while no chosen header part, named value or comparison ("more than 8") accounts for
    it. A number the table holds nowhere ("in 2018" over a table of 2018 alone) is context."""
    # ("1H23" is H1 2023; the 1 of "H1" and "Q1" is no number of its own)
    text = re.sub(r"\b[HQ][1-4]\b", " ", periods_spelt(question), flags=re.I)
    # (the day of a date written whole is no number of its own: "the year ended 30 June 2024")
    text = _DAY_WRITTEN.sub(r"\g<year>", text)
    text = _FISCAL_SPAN.sub(r"\1", text)  # (nor is the close of "2020/21" a number of its own)
    said = set(_NUMBERS.findall(text.replace(",", "")))
    said &= _numbers_held(rel)
    # (the chosen headers' numbers read as the question's are: "per 100,000" is 100000; the row
    # labels' own header, or the header of the column whose value is named: "ICD-10 code J00-J99")
    heads = [p.replace(",", "") for c in chosen for p in parts(c.name)]
    heads += [k.replace(",", "") for k in [*rows, *([rel.key.name] if rel.key is not None else [])]]
    known = {w for p in heads for w in _NUMBERS.findall(p)}
    known |= {w for vs in rows.values() for v in vs for w in _NUMBERS.findall(v.replace(",", ""))}
    m = comparison(question.casefold())
    known |= {m.group(3).replace(",", "")} if m else set()
    return bool(said - known)


#: A date written with its day: "30 June 2024", "June 30, 2024", "31 Dec. 2023".
_DAY_WRITTEN = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9}\.?|[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?)"
    r"\s+(?P<year>(?:19|20)\d\d)\b"
)


def _numbers_held(rel: Relation) -> set[str]:
    """Every number written in the table's labels and its whole figures, and in its headers except
    years: a year another column is headed by is another period, which the choice of column already
    weighed ("the increase in 2017" reads the increase column beside the 2017 one). Once per table."""
    return rel.memo("numbers held", lambda: _scan_numbers(rel))


def _scan_numbers(rel: Relation) -> set[str]:
    out = {w for c in rel.columns for w in _NUMBERS.findall(c.name) if not _YEAR.fullmatch(w)}
    for c, values in zip(rel.columns, rel.values, strict=True):
        if c.kind == "text":
            out |= {w for v in rel.distinct_values(c.name)[:SCAN] for w in _NUMBERS.findall(str(v))}
        elif c.kind == "number" and c.role == "data":
            out |= {
                str(int(v)) for v in values[:SCAN] if isinstance(v, int | float) and float(v).is_integer()
            }
    return out


#: "which three years", "the two largest provinces": how many rows a ranking asks (not "the 18–34
#: age group", nor "which five-year age group").
_ROWS_COUNTED = re.compile(
    r"\b(?:which|the|list|name|top|bottom)\s+(two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+"
    # ("the nine months ended": a period, no count of rows)
    rf"(?!(?:{'|'.join(sorted(PERIOD_NOUNS))})\s+(?:{'|'.join(PERIOD_CLOSERS)})\b)"
    r"(?:[^\W\d_]+\s+){0,2}[^\W\d_]+s\b",
    re.IGNORECASE,
)


def _rows_counted(question: str) -> int:
    """How many ranked rows the question asks for (:data:`_ROWS_COUNTED`); 1 when it names none."""
    m = _ROWS_COUNTED.search(question)
    if m is None:
        return 1
    word = m.group(1).casefold()
    return NUMBER_WORDS[word] if word in NUMBER_WORDS else max(int(word), 1)


#: "Name the X with ...", "List the three X whose ...", "Identify the X that ...": a request for names.
_NAME_THE = re.compile(
    r"^\s*(?:[^,?]{1,90},\s*){0,3}(?:name|list|identify)\s+the\s+(?:\w+\s+){1,5}?(?:with|that|whose|which|where)\b",
    re.IGNORECASE,
)


#: "List the two largest ...", "Name the smallest ...": the word after the count is the ranking one.
_LIST_RANKED = re.compile(
    r"^\s*(?:name|list|identify|give)\s+(?:the\s+)?(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?"
    r"([^\W\d_]+)",
    re.IGNORECASE,
)


def _said_outside(rel: Relation, section: str, said: set[str]) -> bool:
    """Whether ``section`` is a line of its own (a group's line, ``Personnel expenses`` over its
    parts) and a line outside it (no total) has a word that each of ``said`` names
    (:func:`~gridsight.qa._classes.lines_outside`)."""
    assert rel.key is not None
    own = section.split(" › ")[-1].strip().casefold()
    flags = rel.values_of(TOTAL) or [0] * len(rel.rows)
    labels, sections = rel.values_of(rel.key.name) or [], rel.values_of(SECTION) or []
    outside = lines_outside([section], {own}, list(labels), list(sections), list(flags))
    return bool(said) and any(
        all(any(near_word(w, q) for w in tokens(label)) for q in said) for label in outside
    )


def _class_asked_by_which(rel: Relation, question: str) -> bool:
    """Whether what the question asks "which" of is a group of rows it names (``Program services:``
    for "which program service had ..."), not the columns ("which segment", "which fund")."""
    m = re.search(r"\b(?:which|what)\s+([^\W\d_]+(?:\s+[^\W\d_]+)?)", question, re.IGNORECASE)
    group = asked_class(rel, question) if m else None
    if m is None or group is None:
        return False
    said = tokens(m.group(1))
    own = [w for w in tokens(group.name) if w not in COMMON] or tokens(group.name)
    return bool(own) and all(any(near_word(w, q) for q in said) for w in own)


def _class_counted(rel: Relation, question: str, group: RowClass) -> bool:
    """Whether the noun a question ranks, lists or counts by ("which countries", "how many
    countries", "across the countries") is the group's own name (a section ``Country``), and not
    what every row is (the row labels' header, ``Industry``, over an industry's section)."""
    own = [w for w in tokens(group.name) if w not in COMMON] or tokens(group.name)
    head = [h for h in tokens(rel.key.name) if h not in COMMON] if rel.key is not None else []
    if head and all(any(near_word(h, w) for w in own) for h in head):
        return False  # (the labels' header is the section's own name: what every row is)
    for m in re.finditer(
        r"\b(?:which|what|many|among|across|of\s+the|between)\s+(?:the\s+)?([^\W\d_]+(?:\s+[^\W\d_]+)?)",
        question,
        re.IGNORECASE,
    ):
        said = tokens(m.group(1))
        if own and all(any(near_word(w, q) for q in said) for w in own):
            return True
    return False


#: The kind a question asks which of or counts: "which land use", "how many occupation groups".
_WHICH_KIND = re.compile(r"\b(?:which|what|many|name\s+the)\s+([^\W\d_]+(?:\s+[^\W\d_]+)?)", re.IGNORECASE)
#: Periods counted: "in how many years", "how many quarters".
_PERIODS_COUNTED = re.compile(
    r"\bhow\s+many\s+(?:\w+\s+)?(?:years|quarters|months|periods|dates|times)\b", re.I
)
#: The noun a question ranks, lists or counts rows by: "which countries", "how many regions".
_RANK_NOUN = re.compile(
    r"\b(?:which|what|many|among|across|between)\s+(?:the\s+)?([^\W\d_]{4,})", re.IGNORECASE
)
#: How much closer in meaning a noun must be to one level's labels than to the other's.
_LEVEL_MARGIN = 0.1


def _level_asked(rel: Relation, question: str) -> tuple[str, ...] | None:
    """Rows at two levels -- top rows with no section (``England``, ``Wales``, ``Scotland``), and
    the rows of sections some of them head (the regions under ``England``) -- and a noun the
    question ranks or counts by that names no section: the level whose labels are clearly closer
    to the noun in meaning ("countries": the top rows, the one adding up the others left out;
    "regions": the rows inside sections), as conditions on the view. None where no level is."""
    from gridsight.text import similarities

    key, sections, figures = rel.key, rel.values_of(SECTION), _figures(rel)
    labels = rel.values_of(key.name) if key is not None else None
    if key is None or not labels or not sections or not figures:
        return None
    top = [i for i, s in enumerate(sections) if s is None and isinstance(labels[i], str)]
    inner = [i for i, s in enumerate(sections) if s is not None and isinstance(labels[i], str)]
    heads = {str(s).split(" › ")[0] for s in sections if s is not None}
    if len(inner) < 2 or not heads <= {labels[i] for i in top}:
        return None
    values = rel.values_of(figures[0].name) or []
    numbers = {i: float(values[i]) for i in top if isinstance(values[i], int | float)}
    whole = [
        i
        for i, v in numbers.items()
        if len(numbers) > 2 and abs(v - (sum(numbers.values()) - v)) <= 0.001 * abs(v) + 0.05
    ]
    members = [i for i in top if i not in whole]
    m = _RANK_NOUN.search(question)
    if m is None or len(members) < 2:
        return None
    noun = m.group(1)
    sec, k = quote(SECTION), quote(key.name)
    top_rows = (f"{sec} IS NULL", *(f"{k} IS NOT {literal(labels[i])}" for i in whole))
    named_level = _level_by_header(key.name, question)
    if named_level is not None:  # ("which diagnosis chapter" over ``... (chapter and group)``)
        return top_rows if named_level == 0 else (f"{sec} IS NOT NULL", *_not_total(rel))
    if any(near_word(noun.casefold(), h) for h in tokens(key.name)):
        return None  # ("how many industries" over ``Industry`` labels: what every row is, no level)
    near_top = similarities(noun, [without_marks(str(labels[i])) for i in members])
    near_inner = similarities(noun, [without_marks(str(labels[i])) for i in inner])
    gap = sum(near_top) / len(near_top) - sum(near_inner) / len(near_inner)
    if gap >= _LEVEL_MARGIN:
        return top_rows
    if gap <= -_LEVEL_MARGIN:
        return (f"{sec} IS NOT NULL", *_not_total(rel))
    return None


#: A label column's header that names two levels, the upper first: ``ICD-10 chapter and group``,
#: ``Country and region``.
_TWO_LEVELS = re.compile(r"\b([^\W\d_]{4,})\s+and\s+([^\W\d_]{4,})\b")


def _level_by_header(header: str, question: str) -> int | None:
    """The level (0: the upper, 1: the lower) a which/how-many noun names where the label column's
    header names both ("which diagnosis chapter" over ``Primary diagnosis (ICD-10 chapter and
    group)``); None where the header names no two levels or the noun neither."""
    levels = _TWO_LEVELS.search(header)
    kind = _WHICH_KIND.search(question)
    if levels is None or kind is None:
        return None
    said = question_words(kind.group(1))
    found = [i for i in (0, 1) if any(near_word(w, levels.group(i + 1).casefold()) for w in said)]
    return found[0] if len(found) == 1 else None


#: Nouns for the rows of a statement: what a superlative heading a question asks for by name.
_ROW_NOUNS = frozenset({"line", "item", "lines", "items", "quarter", "month", "year", "period"})


#: A closing request for the larger (or smaller) of two: "... or the other way round? Name the larger line."
_NAME_THE_LARGER = re.compile(
    r"[?.]\s*(?:name|give|say)\s+(?:me\s+)?(?:the|which)\s+"
    r"(?:larger|smaller|bigger|higher|lower|greater)\b",
    re.IGNORECASE,
)


def _asks_which(question: str) -> bool:
    """Whether the question asks for a name: it opens with which/who, or a clause does ("A versus B:
    which one ...")."""
    if _NAME_THE.match(question):
        return True  # "Name the region with the most ...", "List the three years with ..."
    if _NAME_THE_LARGER.search(question):
        return True  # "were A greater than B, or the other way round? Name the larger line."
    ranked = _LIST_RANKED.match(question)
    if ranked is not None and superlative(ranked.group(1).casefold()):
        return True  # "List the two largest asset lines", "Name the smallest fund"
    if _RANKED_NOUN.match(question) and _RANK_ALL.search(question):
        return True  # "Rank the portfolios by net assets", "List the funds from largest to smallest"
    if re.match(r"\s*(?:what|which|who)\s+(?:are|were)\s+the\b", question, re.I) and _TOP_N_NOUN.search(
        question
    ):
        return True  # "What are the top 3 regions by rough grazing?"
    lead = re.match(r"^\s*(?:the\s+)?([^\W\d_]+)\s+(?:([^\W\d_]+)\s+)?([^\W\d_]+)\b", question)
    nouns = [n.casefold() for n in (lead.group(2, 3) if lead is not None else ()) if n]
    if (
        lead is not None
        and superlative(lead.group(1).casefold())
        and any(n in _ROW_NOUNS or f"{n}s" in PERIOD_NOUNS for n in nouns)
    ):
        return True  # "Weakest quarter for turnover in FY2024", "Smallest asset line at ...": a name
    # (not a quoted label's words: "excluding the 'of which' line")
    question = re.sub(r"(?<!\w)(['‘\"“])[^'’\"”]{1,60}['’\"”](?!\w)", "", question)
    return bool(
        _WHICH.match(question)
        or asks_label(question)
        or re.search(
            r"[:;,\u2013\u2014-]\s*(which|who)\b|\b(in|for|during|at|of|on|by|from|under|within) which\b",
            question,
            re.I,
        )
        or bool(_COMPONENT.search(question))
    )


#: "What was the smallest component of current liabilities?": a line of the group, by name.
_COMPONENT = re.compile(
    r"\b(?:largest|smallest|biggest|highest|lowest|greatest|top)\s+(?:single\s+)?"
    r"(?:component|item|line|line\s+item|element|constituent|part)\s+(?:of|in|within|under|among)\b",
    re.IGNORECASE,
)


def _all_named(question: str, labels: list[str]) -> bool:
    """Whether the question names what sets each member apart from the others (``2017`` and
    ``2018``; not ``% Increase`` beside ``Increase``, which differ by no word)."""
    from gridsight.text import meaning_map

    qw = question_words(question)
    sets = [set(tokens(label)) - COMMON for label in labels]
    unnamed = []
    for i, mine in enumerate(sets):
        own = mine - set().union(*(o for j, o in enumerate(sets) if j != i))
        if _whole_label(labels[i]) and _WHOLE_SAID.search(question):
            continue  # (``Total`` beside ``Male`` is named by "both sexes combined")
        if (
            _day_at(question, labels[i]) is not None
            or _month_at(question.casefold(), labels[i]) is not None
            or year_end_at(question, labels[i]) is not None
        ):
            continue  # (its day written, in whatever form, or the quarter it closes; its month by name)
        if not own:
            # (or writes it whole apart from the others: ``Total current liabilities`` beside
            # ``Total non-current liabilities``)
            if _written_apart(question, labels[i], [o for o in labels if o != labels[i]]):
                continue
            return False
        if not any(near_word(w, q) for w in own for q in qw):
            unnamed.append(i)
    # a member no word spells may be named by meaning ("men" and "women": ``Male``, ``Female``)
    return not unnamed or set(unnamed) <= set(meaning_map(qw, labels).values())


def _counts_the_measure(question: str, key: RelColumn) -> bool:
    """Whether a "how many" asks the figure a line holds, not a count of rows: no threshold, and a
    noun that is no word of the row labels' header ("how many injuries were caused by falls" over
    ``Cause``; "how many causes ..." counts rows)."""
    m = re.search(r"\bhow\s+many\s+([^\W\d_]+)", question, re.IGNORECASE)
    if m is None or comparison(question.casefold()) is not None:
        return False
    return not any(near_word(m.group(1).casefold(), w) for w in tokens(key.name))


def _one_column(
    rel: Relation,
    question: str,
    expected: str | None,
    col: str,
    fixed: dict[str, str],
    key: RelColumn | None,
    qwords: set[str],
    touched: bool,
    kept: tuple[str, ...] | None = None,
) -> CellPlan | None:
    """One column: the cell of a named row, a share of its rows' sum, or -- when the question names
    no row label even in part -- the rows' top, mean, count or sum; ``kept``: the conditions that
    keep the rows ranked or counted among (by default, those no total)."""
    heading = (
        key is not None
        and SECTION in fixed
        and len(fixed) == 1
        and heading_line(rel, fixed[SECTION]) is not None
    )
    if (
        key is not None
        and key.name not in fixed
        and expected in (None, "number")
        and not _asks_which(question)
        and (not _counts(question) or (heading and _counts_the_measure(question, key)))
        and not qwords & (SUM_WORDS | AVERAGE_WORDS)
        and SECTION in fixed
        and (unnamed_total(rel, question, fixed[SECTION], []) is not None or heading)
    ):
        # "what were current assets in 2022": the section's own figure, which no label names, or the
        # line that heads it ("admissions for respiratory diseases": the chapter's line, over its groups)
        return CellPlan(f"SELECT {_cell_in(rel, col, fixed)}", "lookup", "number")
    if key is not None and key.name in fixed:
        cell = _cell(col, fixed)
        siblings = {k: v for k, v in fixed.items() if k != key.name}
        if re.search(r"\b(?:all|overall|whole)\b", question, re.I):
            siblings = {
                k: v for k, v in siblings.items() if k != SECTION
            }  # "of all offences": the whole table
        whole = (
            _whole_of_parts(rel, question, col, fixed)
            or _same_line_outside(rel, question, col, fixed)
            or _total_beside(rel, question, col, fixed)
            or _whole(rel, col, siblings)
        )
        # (a table of percentages, ``Percentage of adults`` over its rows: "what share of men ..."
        # asks the cell, not a share of the total row)
        in_percent = key is not None and re.search(r"\bper\s?cent(?:age)?s?\b|%", key.name, re.I) is not None
        already = (
            _is_percent(rel.column(col)) or any(_PERCENT.search(v) for v in fixed.values()) or in_percent
        )
        if _SHARE.search(_unlabelled(question, list(fixed.values()))) and whole is not None and not already:
            scale = " * 100.0" if _PERCENT_WORD.search(question) else " * 1.0"
            return CellPlan(f"SELECT {cell}{scale} / {whole}", "share", "number")
        if expected == "number" or (
            expected is None and not re.match(r"^\s*(?:\w+ )?(which|who)\b", question, re.I)
        ):
            # ("which region ...": a name, never the figure of the one row the words touch)
            return CellPlan(f"SELECT {quote(col)} FROM data{_where(fixed)}", "lookup", "number")
        test = comparison(question.casefold())
        if expected == "boolean" and test:  # "was cash below 380 in ...": the cell against a number
            number = test.group(3).replace(",", "")
            return CellPlan(f"SELECT {cell} {COMPARISON_OPS[test.group(1)]} {number}", "test", "boolean")
        return None
    if touched:
        return None  # a row label named in part, not enough to place it: no aggregate over all rows
    if (
        fixed
        and (expected == "number" or (expected is None and not _asks_which(question)))
        and not qwords & (SUM_WORDS | AVERAGE_WORDS)
        and comparison(question.casefold()) is None
        and _rows_placed(rel, fixed) == 1
    ):
        # a value of another label column that places one row ("ICD-10 code J00-J99"): its cell
        return CellPlan(f"SELECT {quote(col)} FROM data{_where(fixed)}", "lookup", "number")
    unmarked = _summing_rows(rel, col, fixed, key)
    not_total = list(kept) if kept is not None else _not_total(rel)
    rest = _where(fixed, [*not_total, f"{quote(col)} IS NOT NULL", *unmarked])
    m = comparison(question.casefold())
    cond = f"{quote(col)} {COMPARISON_OPS[m.group(1)]} {_threshold(rel, col, question, m)}" if m else ""
    if key is not None and m and expected != "number" and _asks_which(question):
        # "which regions had more than 12 thousand ...": every row past the number, in table order
        where = _where(fixed, [*not_total, *unmarked, cond])
        return CellPlan(f"SELECT {quote(key.name)} FROM data{where}", "rows", "list")
    if _RANGE_ASKED.search(question) and expected in (None, "number") and not _asks_which(question):
        # ("how far apart were the largest and smallest", "the range of ..."): the top less the bottom
        return CellPlan(f"SELECT MAX({quote(col)}) - MIN({quote(col)}) FROM data{rest}", "range", "number")
    place = ordinal_place(question) or 1  # ("the second lowest", "ranked second")
    top = qwords & (DESCENDING | ASCENDING) or place > 1
    if key is not None and top and expected != "number" and _asks_which(question):
        order = "ASC" if qwords & ASCENDING and not qwords & DESCENDING else "DESC"
        n = _rows_counted(question)  # ("list the three regions with the most ...": three rows)
        by = quote(col)
        if _costs_asked(rel, question, col):
            # ("which expense was the largest" where costs are shown in brackets and no label says
            # "expense": among the lines below nil, by their size)
            rest = _where(fixed, [*not_total, f"{quote(col)} < 0", *unmarked])
            by = f"ABS({quote(col)})"
        elif SECTION in fixed and _shown_in_brackets(rel, fixed):
            # ("the smallest item under current liabilities", each line shown in brackets: by size)
            by = f"ABS({quote(col)})"
        if qwords & SUM_WORDS and _repeats(rel, key.name, fixed):
            # ("which region had the highest total unit sales", a line per region and product:
            # each region's lines added up)
            k = quote(key.name)
            ranked = f"GROUP BY {k} ORDER BY SUM({by}) {order} LIMIT {n}{_offset(place)}"
            return CellPlan(
                f"SELECT {k} FROM data{rest} {ranked}",
                "top-row" if n == 1 else "top-rows",
                "text" if n == 1 else "list",
            )
        return CellPlan(
            f"SELECT {quote(key.name)} FROM data{rest} ORDER BY {by} {order} LIMIT {n}{_offset(place)}",
            "top-row" if n == 1 else "top-rows",
            "text" if n == 1 else "list",
        )
    if _asks_which(question):
        return None  # "what competition had a total of ...": a row by its figure, not a figure
    if m and _counts(question):
        # (before the mean: "how many groups had average earnings above 2,200" counts)
        return CellPlan(
            f"SELECT COUNT(*) FROM data{_where(fixed, [*not_total, *unmarked, cond])}",
            "count",
            "number",
        )
    if qwords & AVERAGE_WORDS:
        return CellPlan(f"SELECT AVG({quote(col)}) FROM data{rest}", "average", "number")
    # ("annual turnover in 2024" over the four quarters down the rows: the year's, added up)
    year_of_rows = (
        (_WHOLE_YEAR.search(question) or _YEAR_AS_WHOLE.search(question))
        and not (qwords & RATIO_WORDS or DIVIDES.search(question) or _TIMES_A_NUMBER.search(question))
        and _rows_of_a_year(rel)
    )  # (not a ratio's part: "debtors / annual turnover x 365" reads two tables)
    if (qwords & SUM_WORDS or year_of_rows) and expected in (None, "number"):
        section = fixed.get(SECTION)
        nested = section is not None and any(
            isinstance(v, str) and v.startswith(f"{section} › ") for v in rel.distinct_values(SECTION)
        )
        if section is not None and nested:
            # ("total liabilities" over ``LIABILITIES``, which holds only its groups ``Long-term
            # liabilities`` and ``Short-term liabilities``: the lines of the groups too, not their heads)
            sec = quote(SECTION)
            within = f"({sec} = {literal(section)} OR {sec} LIKE {literal(section + ' › %')})"
            others = {k: v for k, v in fixed.items() if k != SECTION}
            rest = _where(others, [within, *_not_total(rel), f"{quote(col)} IS NOT NULL", *unmarked])
        return CellPlan(f"SELECT SUM({quote(col)}) FROM data{rest}", "sum", "number")
    if key is not None and expected in (None, "list") and _rows_each(rel, question):
        # ("turnover for 2024 by quarter, in order": every row of the column, in the table's order)
        order = f" ORDER BY {quote(POSITION)}" if any(c.name == POSITION for c in rel.columns) else ""
        return CellPlan(f"SELECT {quote(col)} FROM data{rest}{order}", "rows", "list")
    return None


#: Each period of a kind asked: "by quarter", "for each month", "every year".
_EACH_KIND = re.compile(r"\b(?:each|every|by|per)\s+(quarter|month|year)s?\b", re.IGNORECASE)


def _label_kind(label: str) -> str | None:
    """The kind of period a row label is (``Q1``: 'quarters', ``March``: 'months', ``2023/24``:
    'years'), or None."""
    text = without_marks(label).strip()
    if re.fullmatch(r"Q[1-4](?:\s.*)?", text, re.IGNORECASE):
        return "quarters"
    if text and text.split()[0].casefold().rstrip(".") in MONTHS:
        return "months"
    if re.fullmatch(r"(?:FY\s?)?(?:19|20)\d\d(?:\s*[/-]\s*\d\d(?:\d\d)?)?", text, re.IGNORECASE):
        return "years"
    return None


#: A figure multiplied by a number: "x 365", "times 12".
#: "How many times as large as A was B?": the first named divides the second.
_TIMES_AS_LARGE_AS = re.compile(
    r"^\s*how\s+many\s+times\s+(?:as\s+)?(?:large|big|high|great|much|many|larger|bigger|higher|greater|more)"
    r"\s+(?:as|than)\b",
    re.IGNORECASE,
)
_TIMES_A_NUMBER = re.compile(r"(?:\bx|\*|×|\btimes)\s*\d", re.IGNORECASE)


def _rows_of_a_year(rel: Relation) -> bool:
    """Whether the rows are a year's four quarters or twelve months, each once, of flows (no
    statement of balances)."""
    labels = [str(v) for v in (rel.values_of(rel.key.name) or []) if v is not None] if rel.key else []
    kinds = {_label_kind(v) for v in labels}
    return (
        len(set(labels)) == len(labels)
        and ((kinds == {"quarters"} and len(labels) == 4) or (kinds == {"months"} and len(labels) == 12))
        and not _of_balances(rel)
    )


def _rows_each(rel: Relation, question: str) -> bool:
    """Whether the rows are periods of one kind (``Q1`` .. ``Q4``) and the question asks each of
    them ("by quarter", "in each quarter")."""
    m = _EACH_KIND.search(question)
    labels = [str(v) for v in (rel.values_of(rel.key.name) or []) if v is not None] if rel.key else []
    return (
        m is not None
        and len(labels) >= 2
        and all(_label_kind(v) == m.group(1).casefold() + "s" for v in labels)
    )


#: The spread of a column's figures: "how far apart were the largest and smallest", "the range of",
#: "the gap between the highest and the lowest", "max minus min".
_RANGE_ASKED = re.compile(
    r"\bhow\s+far\s+apart\b|\brange\s+(?:of|in|across|for)\b|^\s*range\b"
    r"|\b(?:gap|difference|spread)\s+between\s+(?:the\s+)?(?:highest|largest|biggest|greatest|maximum|top|"
    r"lowest|smallest|minimum|bottom)\b[^?]{0,40}?\band\s+(?:the\s+)?(?:lowest|smallest|minimum|bottom|"
    r"highest|largest|biggest|greatest|maximum|top)\b|\bmax(?:imum)?\s+minus\s+(?:the\s+)?min(?:imum)?\b",
    re.IGNORECASE,
)
#: "How many ...", "for how many ...", "in how many ...": a count of rows.
#: "How many ...", after a leading phrase that sets the scope ("For 2023, how many regions ...",
#: "Of the regions, how many ...", "Within the 'Theft' group, how many ...").
_HOW_MANY = re.compile(r"^\s*(?:[^,?]{1,90},\s*){0,3}(?:(?:for|in|on|at|of)\s+)?how\s+many\b", re.IGNORECASE)
#: "Number of airports with ... over 250", "Count the regions with ... below 500": a count where a
#: threshold follows (without one, "number of dwellings in Riverside" asks a figure).
_COUNT_OPENS = re.compile(
    r"^\s*(?:(?:the\s+)?number\s+of|count\s+(?:of\s+)?(?:the\s+)?)(?=\s*[^\W\d_])", re.I
)


def _counts(question: str) -> re.Match[str] | None:
    """Where the question opens a count of rows: "how many", or "number of" / "count the" with a
    threshold after it."""
    opens = _HOW_MANY.match(question)
    if opens is None and comparison(question.casefold()) is not None:
        opens = _COUNT_OPENS.match(question)
    return opens


def rows_spanned(rel: Relation, question: str) -> bool:
    """Whether the question names two periods down the rows as the ends of a span ("in how many of
    the months from March 2023 to August 2023 ..."): the cells plan reads the rows between."""
    if rel.key is None or not periods_down(rel):
        return False
    chosen = _columns(rel, question)
    named = _rows(rel, question, chosen)[0].get(rel.key.name, []) if chosen else []
    return len(named) == 2 and len(_rows_spanned(rel, question, named)) > 2


def _key_noun_rows(rel: Relation, question: str) -> RowClass | None:
    """Every row of a table without sections, its totals left out, where the question asks which of
    them by the header of their label column ("which division's sales went down" over ``Division``);
    else None."""
    key = rel.key
    if key is None or rel.values_of(SECTION) is not None or not _names_key(key, set(words(question))):
        return None
    labels, flags = rel.values_of(key.name) or [], rel.values_of(TOTAL) or []
    members = frozenset(
        str(v) for i, v in enumerate(labels) if isinstance(v, str) and not (i < len(flags) and flags[i] == 1)
    )
    if len(members) < 2:
        return None
    return RowClass(key.name, (*_not_total(rel), f"{quote(key.name)} IS NOT NULL"), members)


def _names_key(key: RelColumn, said: set[str]) -> bool:
    """Whether the words ``said`` name the header of the label column ``key`` (``Segment``)."""
    header = {stem(w) for w in words(key.name) if len(w) > 2}
    return bool(header) and bool(header & {stem(w) for w in said})


def _moves_asked(rel: Relation, question: str) -> bool:
    """Whether the question asks a change of a table's rows ("grew", "fell", "growth rate")."""
    return rel.key is not None and bool(set(words(question)) & (CHANGE_WORDS | RISE_WORDS | FALL_WORDS))


def _only_periods(rel: Relation) -> list[RelColumn]:
    """The table's figure columns when they are exactly two, each at its own date (``FY2026`` and
    ``FY2025``); else none."""
    figures = [c for c in _figures(rel) if c.role == "data"]
    if len(figures) != 2:
        return []
    ends = [ends_at(c.name) for c in figures]
    return figures if None not in ends and ends[0] != ends[1] else []


def _members_averaged(rel: Relation, question: str, lines: list[str]) -> bool:
    """Whether the question asks the mean of the rows a table's total line adds up, though its words
    touch that line: it averages ("average", "mean"), names the rows by the header of their label
    column ("per segment", "across the segments"), says no "total" or "all", and the one line it
    touches is the table's total, first or last."""
    key = rel.key
    said = set(words(question))
    if key is None or len(lines) != 1 or not said & AVERAGE_WORDS or _WHOLE_SAID.search(question):
        return False
    keys, flags = rel.values_of(key.name), rel.values_of(TOTAL)
    if not keys or flags is None or lines[0] not in keys:
        return False
    i = keys.index(lines[0])
    if flags[i] != 1 or i not in (0, len(keys) - 1):
        return False
    return _names_key(key, said)


def _whole_unnamed(rel: Relation, question: str, expected: str | None) -> CellPlan | None:
    """The cell of the table's one grand total row in the one column the question names, where it
    names no row, not even in part, and asks one figure: "what were actual sales" over sales by
    division closed by ``Total`` is the total as the table gives it (no rank, count, mean or change
    is asked)."""
    key = rel.key
    if key is None or expected not in (None, "number") or _asks_which(question) or _counts(question):
        return None
    asked = set(words(question))
    if asked & (AVERAGE_WORDS | CHANGE_WORDS | RISE_WORDS | FALL_WORDS | DESCENDING | ASCENDING):
        return None
    if comparison(question.casefold()) is not None:
        return None
    labels, flags = rel.values_of(key.name) or [], rel.values_of(TOTAL) or []
    sections = rel.values_of(SECTION) or [None] * len(flags)
    totals = [  # (a total under no section, closing the table: its whole)
        str(labels[i])
        for i in range(len(flags))
        if flags[i] == 1 and sections[i] is None and i == len(flags) - 1
    ]
    if len(totals) != 1 or labels.count(totals[0]) != 1:
        return None
    # (the table's subject is named: a word of its title or of its total line, in the table's own
    # names -- "actual revenue" over ``Sales by channel`` -- not only a column's "Actual")
    titles = [t.text for t in rel.table.titles]
    subject = {w for t in [*titles, totals[0]] for w in tokens(t)} - COMMON - {"total"}
    said = question_words(in_own_terms(question, titles))
    if not any(near_word(w, q) for w in subject for q in said):
        return None
    cols = _columns(rel, question)
    if len(cols) != 1 or _is_percent(cols[0]):
        return None
    rows, touched, _ = _rows(rel, question, cols)
    if rows or touched:
        return None
    return CellPlan(f"SELECT {_cell_in(rel, cols[0].name, {key.name: totals[0]})}", "lookup", "number")


def _grand_total_row(rel: Relation, label: str) -> bool:
    """Whether ``label`` is the table's whole: a total line under no section, first or last."""
    keys, flags, sections = (
        rel.values_of(rel.key.name) if rel.key else None,
        rel.values_of(TOTAL),
        rel.values_of(SECTION),
    )
    if not keys or flags is None or sections is None or label not in keys:
        return False
    i = keys.index(label)
    return flags[i] == 1 and sections[i] is None and i in (0, len(keys) - 1)


def _counted_in_span(
    rel: Relation, question: str, chosen: list[RelColumn], rows: dict[str, list[str]]
) -> CellPlan | None:
    """ "In how many of the months from January 2023 to June 2024 was X over 685": the rows between
    the two named (and those two) whose cell in the one column passes the number; else None."""
    key, test = rel.key, comparison(question.casefold())
    if (
        key is None
        or test is None
        or len(chosen) != 1
        or list(rows) != [key.name]
        or len(rows[key.name]) != 2
    ):
        return None
    spanned = _rows_spanned(rel, question, rows[key.name]) if _counts(question) else []
    if len(spanned) <= 2:
        return None
    col = chosen[0].name
    bound = f"{quote(col)} {COMPARISON_OPS[test.group(1)]} {_threshold(rel, col, question, test)}"
    inside = f"{quote(key.name)} IN ({', '.join(literal(v) for v in spanned)})"
    return CellPlan(f"SELECT COUNT(*) FROM data WHERE {inside} AND {bound}", "count", "number")


#: A heading that says what the figures count: ``Number of deaths``, ``No. of offences``.
_NUMBER_OF = re.compile(r"\b(?:number|no\.?|count)\s+of\s+([^\W\d_]+)", re.IGNORECASE)


def _counted_noun(rel: Relation, question: str) -> tuple[str | None, str | None]:
    """The noun of "how many <noun>" and the column of labels it names (``Mode of transport`` for
    "how many modes", ``Expenditure group`` beside a code column): the question counts the table's
    rows. (None, None) when it counts nothing the labels are."""
    opens = _counts(question)
    m = re.match(r"\s*([^\W\d_]+)", question[opens.end() :]) if opens is not None else None
    if m is None:
        return None, None
    noun = m.group(1).casefold()
    if comparison(question.casefold()) is None and any(
        c.role == "data" and c.kind == "number" and any(near_word(w, noun) for w in tokens(c.name))
        for c in rel.columns
    ):
        return None, None  # ("how many offences were recorded for burglary": ``Number of offences`` says)
    measures = [c.name for c in rel.columns if c.role == "key"] + [t.text for t in rel.table.titles]
    if comparison(question.casefold()) is None and any(
        (m2 := _NUMBER_OF.search(t)) is not None and near_word(m2.group(1).casefold(), noun) for t in measures
    ):
        # ("how many deaths from respiratory diseases" where the labels' heading or the title says
        # ``Number of deaths``: the figures are the counts, each row one)
        return None, None
    for c in rel.columns:
        if (c.role == "key" or (c.role == "data" and c.kind == "text")) and any(
            near_word(w, noun) for w in tokens(c.name)
        ):
            return noun, c.name
    return None, None


def _threshold(
    rel: Relation, col: str, question: str, m: re.Match[str], figures: Sequence[float] | None = None
) -> str:
    """The number a comparison names, in the column's terms: "below 20%" over shares stored as
    fractions (0.2) is 0.2. ``figures``: the cells compared, when they are not the whole column's
    (one line's periods)."""
    number = m.group(3).replace(",", "")
    after = question.casefold()[m.end() : m.end() + 2]
    high = rel.column(col).high if figures is None else max((abs(v) for v in figures), default=None)
    if after.lstrip().startswith("%") and isinstance(high, int | float) and abs(high) <= 1.0:
        return repr(float(number) / 100)
    return number


def _grand_total(rel: Relation, key: RelColumn, question: str, fixed: dict[str, str]) -> str | None:
    """The label of the one total row (within the named section, if any) when the question says
    "in total", "total" or "overall" and names no row."""
    if not re.search(r"\b(total|overall|altogether|whole)\b", question, re.I):
        return None
    flags, labels = rel.values_of(TOTAL), rel.values_of(key.name) or []
    if flags is None:
        return None
    sections = rel.values_of(SECTION) or [None] * len(flags)
    found = [
        str(lab)
        for f, lab, sec in zip(flags, labels, sections, strict=True)
        if f == 1 and lab is not None and sec == fixed.get(SECTION, sec)
    ]
    return found[0] if len(found) == 1 else None


def _phrase_heads(question: str, labels: list[str]) -> set[str]:
    """The labels the question names only by words that each follow a word naming another label:
    the head nouns of a phrase whose first words name that other label ("intangible assets" for
    ``Intangibles``; its "assets" does not name ``TOTAL ASSETS`` too)."""
    qt = tokens(question)
    own = {v: [w for w in tokens(v) if w not in COMMON] for v in labels}
    at = {
        v: {i for i, q in enumerate(qt) if q not in COMMON and any(near_word(w, q) for w in ws)}
        for v, ws in own.items()
    }
    heads: set[str] = set()
    for v, pos in at.items():
        before = {i for o, p in at.items() if o != v for i in p - pos}
        if pos and all(i - 1 in before for i in pos):
            heads.add(v)
    return heads


def _quoted(question: str, label: str) -> bool:
    """Whether the question writes ``label`` in quotes ("was "Intangible assets, net" higher")."""
    return bool(re.search(rf"[\"'“‘]{re.escape(label.casefold())}[\"'”’]", question.casefold()))


def _offered(question: str, labels: Sequence[str]) -> bool:
    """Whether the question closes by offering two of ``labels`` to choose between ("which line shows
    the higher amount, "Non-current assets" or "Current assets"?"): the answer is one of them."""
    low = question.casefold()
    quote = "[\"'“”‘’]?"
    return any(
        re.search(
            rf"[,:]\s*{quote}{re.escape(a.casefold())}{quote},?\s+or\s+{quote}{re.escape(b.casefold())}{quote}\s*[?.]?\s*$",
            low,
        )
        for a in labels
        for b in labels
        if a != b
    )


def _top_change(
    rel: Relation,
    question: str,
    pair: list[RelColumn],
    level: int,
    fixed: dict[str, str],
    key: RelColumn,
    qwords: set[str],
    within: Sequence[str] = (),
) -> CellPlan | None:
    """ "Which region saw the biggest increase from 2022 to 2023": the row whose change between two
    columns (earlier to later: the order the question names them, years by number) is largest or
    smallest; among the rows ``within`` keeps, when given (a group's lines)."""
    if not _asks_which(question) or not qwords & (CHANGE_WORDS | RISE_WORDS | FALL_WORDS):
        return None
    # ("the fastest growth": the highest rate)
    up, down = qwords & (DESCENDING | {"fastest", "quickest"}), qwords & (ASCENDING | {"slowest"})
    if bool(up) == bool(down):
        return None
    labels = [parts(c.name)[level] for c in pair]
    a, b = sorted(
        pair, key=lambda c: _position(question, parts(c.name)[level], _shared([(x, "") for x in labels]))
    )
    if _ordered([(x, "") for x in labels]):
        a, b = sorted(pair, key=lambda c: _number(parts(c.name)[level]))
    change = f"({quote(b.name)} - {quote(a.name)})"
    if _BY_RATE.search(question):  # ("the highest growth rate", "the largest percentage fall")
        change = f"(({quote(b.name)} - {quote(a.name)}) * 1.0 / NULLIF(ABS({quote(a.name)}), 0))"
    fell = bool(qwords & FALL_WORDS and not qwords & RISE_WORDS)  # "the largest fall": most negative
    order = "ASC" if bool(up) == fell else "DESC"
    rest = _where(
        fixed,
        [
            *_not_total(rel),
            f"{change} IS NOT NULL",
            *within,
            *(() if within else _summing_rows(rel, a.name, fixed, key)),
        ],
    )
    return CellPlan(
        f"SELECT {quote(key.name)} FROM data{rest} ORDER BY {change} {order} LIMIT 1", "top-change", "text"
    )


def _summing_rows(rel: Relation, col: str, fixed: dict[str, str], key: RelColumn | None) -> list[str]:
    """Conditions that leave out rows no total mark names but whose figure is the sum of the other
    rows' (``Canada`` above its provinces): they are not one of the rows a ranking or count is over."""
    if key is None:
        return []
    keys, values = rel.values_of(key.name) or [], rel.values_of(col) or []
    conds = [(rel.values_of(k) or [], v) for k, v in fixed.items()]
    inside = [
        i
        for i in range(len(rel.rows))
        if all(vals[i] == v for vals, v in conds) and isinstance(values[i], int | float)
    ]
    total = sum(values[i] for i in inside)
    out = []
    for i in inside:
        rest = total - values[i]
        if rest and len(inside) > 2 and abs(values[i] - rest) <= 1e-6 * max(1.0, abs(rest)) and keys[i]:
            out.append(f"{quote(key.name)} <> {literal(str(keys[i]))}")
        elif isinstance(keys[i], str) and set(tokens(keys[i])) & ADJUSTING and len(inside) > 2:
            # (``Inter-segment eliminations``: what consolidation takes away is no segment ranked)
            out.append(f"{quote(key.name)} <> {literal(keys[i])}")
    return out


#: An operator written between two named cells, and its SQL (a division kept exact).
_OPERATORS = (
    (re.compile(r"\bminus\b|\bless\b|\bexcluding\b|\bnet\s+of\b|(?<=\s)[-−](?=\s)"), "-"),
    (re.compile(r"\bplus\b|(?<=\s)\+(?=\s)"), "+"),
    (
        re.compile(
            r"\bdivided\s+by\b|(?<!\d)/(?!\d)|÷|\bas\s+an?\s+(?:percentage|share|proportion|fraction)\s+of\b"
        ),
        "* 1.0 /",
    ),
    (re.compile(r"\btimes\b|\bmultiplied\s+by\b|(?<=\s)[*×](?=\s)"), "*"),
)


def _written(question: str, cells: list[tuple[str, str]]) -> str | None:
    """The arithmetic the question writes out between the cells it names, with its parentheses
    ("(current assets minus inventory) / current liabilities"), or None unless one operator stands
    between every two cells, in the order the question names them."""
    low = periods_spelt(question).casefold()
    defined = re.search(r"\bdefined\s+as\b", low)
    if defined:  # "the debt-to-equity ratio, defined as ... total equity": the name's words are no cells
        low = " " * defined.end() + low[defined.end() :]
    starts = [_start(low, label, [o for o, _ in cells if o != label]) for label, _ in cells]
    # a member with no word of its own ("net income" beside "operating income" and "net sales") is
    # only touched by the others' words
    placed = sorted(((a, c) for a, c in zip(starts, cells, strict=True) if a is not None), key=lambda p: p[0])
    if len(placed) < 2 or len({a for a, _ in placed}) < len(placed):
        return None
    at, cells = [a for a, _ in placed], [c for _, c in placed]
    before = low[: at[0]].rstrip()
    depth = len(before) - len(before.rstrip("("))  # the question's own parentheses still open
    out = "(" * depth
    opened = list(range(depth + 1))  # where each open group's expression begins in ``out``
    for i, (label, cell) in enumerate(cells[:-1]):
        # (a label written whole is no operator's place: ``Income taxes - current`` holds no minus)
        whole = at[i] + len(label) if low.startswith(label.casefold(), at[i]) else at[i]
        gap = low[min(whole, at[i + 1]) : at[i + 1]]
        found = [(m.start(), sql) for rx, sql in _OPERATORS for m in rx.finditer(gap)]
        # ("current assets excluding stocks, over current liabilities": between two lines, "over" divides)
        found += [(m.start(), "* 1.0 /") for m in re.finditer(r"\bover\b", gap)]
        if len(found) != 1:
            return None
        where, op = found[0]
        closes, opens = gap[:where].count(")"), gap[where:].count("(")
        if closes > depth:
            return None
        depth += opens - closes
        out += cell + ")" * closes
        del opened[len(opened) - closes :]
        if "," in gap[:where]:  # "A excluding B, divided by C": the comma closes A - B
            out = f"{out[: opened[-1]]}({out[opened[-1] :]})"
        out += f" {op} "
        for _ in range(opens):
            out += "("
            opened.append(len(out))
    return out + cells[-1][1] + ")" * depth


#: A multiple the second figure is taken at: "more than twice", "at least double", "under half",
#: "over 3 times", "1.5x"; the comparison before it, if any.
_MULTIPLE = re.compile(
    r"\b(?:(?P<op>above|over|more\s+than|greater\s+than|higher\s+than|larger\s+than|bigger\s+than|"
    r"exceed(?:s|ed|ing)?|at\s+least|no\s+less\s+than|below|under|less\s+than|lower\s+than|"
    r"smaller\s+than|at\s+most|no\s+more\s+than)\s+)?"
    r"(?P<times>twice|double|triple|treble|half|(?P<n>\d+(?:\.\d+)?|two|three|four|five|ten)\s*(?:x|times))(?!\w)",
    re.IGNORECASE,
)
_MULTIPLE_OPS = {"at least": ">=", "no less than": ">=", "at most": "<=", "no more than": "<="}
_MULTIPLE_WORDS = {"twice": 2, "double": 2, "triple": 3, "treble": 3, "half": 0.5} | NUMBER_WORDS


def _multiple(question: str) -> tuple[str, float] | None:
    """The comparison and the multiple a yes/no question sets one figure against another with ("more
    than twice": ``('>', 2)``; "at least double": ``('>=', 2)``; "twice as large as": ``('>=', 2)``),
    or None where it names no multiple, or names one with no way to compare (none said, or an
    "as ... as" only where it sizes a figure: "twice as large as" counts, "twice" alone does not)."""
    m = _MULTIPLE.search(question)
    if m is None or re.search(r"\bhow\s+many\s+times\b", question, re.IGNORECASE):
        return None
    said = (m.group("op") or "").casefold()
    said = re.sub(r"\s+", " ", said)
    times = (m.group("n") or m.group("times")).casefold()
    factor = float(_MULTIPLE_WORDS[times]) if times in _MULTIPLE_WORDS else float(times)
    if said:
        bigger = ">" if said.startswith(("big", "exceed")) else ""
        op = _MULTIPLE_OPS.get(said) or COMPARISON_OPS.get(said) or bigger
        return (op, factor) if op else None
    if re.match(r"\s+as\s+\w+\s+as\b", question[m.end() :], re.IGNORECASE):
        return ">=", factor
    return None


def _tested(question: str, cells: list[tuple[str, str]]) -> CellPlan | None:
    """The arithmetic the question writes out between the cells, against the number it compares
    it with ("(current assets divided by current liabilities) above 2.6"), or None."""
    spelt = parts_spelt(comparisons_spelt(question))  # "more than half of total assets": a ratio
    m = comparison(spelt.casefold())
    if m is None or m.group(2).strip():
        return None  # no number, or words between the comparison and it ("more than 3 children")
    written = _written(spelt[: m.start()], cells)
    if written is None:
        return None
    if " / " in written and _percent_scale(spelt) != "1.0":
        written = f"100.0 * {written}"
    return CellPlan(
        f"SELECT {written} {COMPARISON_OPS[m.group(1)]} {m.group(3).replace(',', '')}", "test", "boolean"
    )


#: "do total assets equal total liabilities and equity", "is A the same as B plus C".
_EQUALS = re.compile(r"\b(?:equals?|equal\s+to|is\s+the\s+same\s+as|match(?:es)?)\b", re.IGNORECASE)


#: Two figures asked whether they are one: "the same for A and B", "identical in both columns".
_THE_SAME = re.compile(r"\b(?:the\s+same|identical|equal)\b", re.IGNORECASE)


def _equal(question: str, cells: list[tuple[str, str]]) -> CellPlan | None:
    """Whether the cells before "equal" add up to those after ("does the statement balance, i.e. do
    total assets equal total equity plus non-current liabilities plus current liabilities"), each
    side as written (:func:`_written`) or one cell; to within half a unit (published rounding)."""
    m = _EQUALS.search(question)
    if m is None:
        return None
    low = periods_spelt(question).casefold()
    starts = [_start(low, label, [o for o, _ in cells if o != label]) for label, _ in cells]
    if None in starts:
        return None
    left = [c for a, c in zip(starts, cells, strict=True) if a is not None and a < m.start()]
    right = [c for a, c in zip(starts, cells, strict=True) if a is not None and a >= m.end()]
    if not left or not right:
        return None

    def side(text: str, members: list[tuple[str, str]]) -> str | None:
        return members[0][1] if len(members) == 1 else _written(text, members)

    a, b = side(question[: m.start()], left), side(question[m.end() :], right)
    if a is None or b is None:
        return None
    return CellPlan(f"SELECT ABS(({a}) - ({b})) < 0.5", "test", "boolean")


def _start(low: str, label: str, others: list[str]) -> int | None:
    """Where the question's mention of ``label`` starts: at the first word only it holds among
    ``others`` ("liabilities", not the "current" it shares with ``Total current assets``), back over
    the label's own words before it ("current liabilities"); None when no such word is there."""
    own = [w for w in tokens(label) if w not in COMMON]
    theirs = {w for o in others for w in tokens(o)}
    mine = [w for w in own if not any(near_word(w, t) for t in theirs)]
    found = [(m.start(), m.group(0)) for m in re.finditer(r"[^\W_]+", low)]
    j = next((k for k, (_, q) in enumerate(found) if any(near_word(w, q) for w in mine)), None)
    if j is None and not mine:
        # every word of it is another's too (``Total current liabilities`` beside ``Total
        # non-current liabilities``): where the question writes it whole outside the others
        outside = _written_apart(" ".join(q for _, q in found), label, others)
        j = outside[0] if outside else None
    if j is None:
        return None
    every = tokens(label)  # (back over its common words too: "(total non-current liabilities")
    while j > 0 and any(near_word(w, found[j - 1][1]) for w in every):
        j -= 1
    return found[j][0]


def _unlabelled(question: str, labels: Sequence[str]) -> str:
    """The question less the labels it writes whole ("share of profit of associates" is a line's
    name, not a share asked for)."""
    for label in sorted(labels, key=len, reverse=True):
        question = re.sub(re.escape(label), " ", question, flags=re.IGNORECASE)
    return question


def _grows_as_rate(question: str) -> bool:
    """Whether the question asks for "the growth in" a line, which is a rate (as "revenue growth of
    12%"), not an amount: the noun, unless the question asks how much or says absolute."""
    return bool(
        re.search(r"\bgrowth\b", question, re.I)
        and not re.search(r"\babsolute\b", question, re.I)
        and not re.match(r"^\s*(?:by\s+)?how\s+(?:much|many)\b", question, re.I)
    )


#: Words that rank figures by their size ("the largest purchases"), where "higher" sets signed
#: figures against each other.
_SIZE_WORDS = re.compile(r"\b(?:largest|biggest|greatest|smallest)\b", re.IGNORECASE)


#: A line's words that name a cost, which a statement may show negative and which is ranked by its size.
_COST = re.compile(
    r"\b(?:costs?|expenses?|expenditures?|charges?|depreciation|amorti[sz]ation|purchases?|payments?|"
    r"outflows?|paid)\b",
    re.IGNORECASE,
)


def _negative_across(rel: Relation, chosen: list[RelColumn], fixed: dict[str, str]) -> bool:
    """Whether the one row ``fixed`` places is negative, or nothing, in every chosen column, and
    negative in one at least (an outflow a statement shows in brackets)."""
    rows = _placed_rows(rel, fixed)
    if len(rows) != 1:
        return False
    found = [v for c in chosen if isinstance(v := (rel.values_of(c.name) or [])[rows[0]], int | float)]
    return bool(found) and all(v <= 0 for v in found) and any(v < 0 for v in found)


#: Where a label's family name ends and the member's own words begin: ``Cash flow hedges - reclassified``.
_FAMILY_DASH = re.compile(r"\s+[-–—]\s+")


def _family_total(
    rel: Relation, question: str, chosen: list[RelColumn], rows: dict[str, list[str]]
) -> CellPlan | None:
    """The lines that share a family name before a dash (``Cash flow hedges - effective portion ...``,
    ``Cash flow hedges - reclassified to profit or loss``), added up in the one column asked, where the
    question names the family and no member's own words ("how much did cash flow hedges contribute
    to OCI"): each member alone is part of what is asked. None otherwise."""
    key = rel.key
    if key is None or len(chosen) != 1 or not rows.get(key.name) or _asks_which(question):
        return None
    families: dict[str, list[str]] = {}
    for label in rel.distinct_values(key.name):
        if isinstance(label, str) and len(split := _FAMILY_DASH.split(label, maxsplit=1)) == 2:
            families.setdefault(split[0].casefold().strip(), []).append(label)
    named = [v for v in rows[key.name] if _FAMILY_DASH.split(v, maxsplit=1)[0].casefold().strip() in families]
    if len(named) != len(rows[key.name]) or len({_FAMILY_DASH.split(v, 1)[0].casefold() for v in named}) != 1:
        return None
    members = families[_FAMILY_DASH.split(named[0], maxsplit=1)[0].casefold().strip()]
    if len(members) < 2:
        return None
    qt = tokens(question)
    head = [w for w in tokens(_FAMILY_DASH.split(members[0], maxsplit=1)[0]) if w not in COMMON]
    if not all(any(near_word(w, q) for q in qt) for w in head):
        return None
    rest = [q for q in qt if not any(near_word(w, q) for w in head)]
    own = [
        {w for w in tokens(_FAMILY_DASH.split(m, maxsplit=1)[1]) if w not in COMMON} - set(head)
        for m in members
    ]
    said = {stem(q) for q in rest}  # (by stems: "effect" is no word of "effective portion")
    if any({stem(w) for w in mine} & said for mine in own):
        return None  # (a member named by its own words: that line, not the family)
    fixed = {k: v[0] for k, v in rows.items() if k not in (key.name, SECTION) and len(v) == 1}
    cells = [_cell_in(rel, chosen[0].name, _placed(rel, question, {**fixed, key.name: m})) for m in members]
    return CellPlan("SELECT " + " + ".join(cells), "sum", "number")


def _and_written(label: str, question: str) -> bool:
    """Whether the question writes a label's own "X and Y" ("paid to suppliers and employees" of
    ``Payments to suppliers and employees``): the words either side of its "and" as the label does."""
    own = re.findall(r"[^\W_]+", without_outline(label).casefold())
    asked = re.findall(r"[^\W_]+", question.casefold())
    for i, w in enumerate(own[1:-1], start=1):
        if w != "and":
            continue
        a, b = own[i - 1], own[i + 1]
        if any(
            near_word(a, asked[k - 1]) and near_word(b, asked[k + 1])
            for k in range(1, len(asked) - 1)
            if asked[k] == "and"
        ):
            return True
    return False


def _presented_negative(rel: Relation, labels: list[str], adds: bool = False) -> set[str]:
    """The labels whose lines are negative in every figure: amounts a statement shows in brackets
    (creditors, treasury stock), which sums and ratios read as their size. Where the lines are
    ``adds``-ed (no ratio or share), none is when another line holds their sum as shown."""
    key = rel.key
    if key is None:
        return set()
    keys = rel.values_of(key.name) or []
    # (the period columns where the table has them: a note number is no figure of the line)
    dated = [c for c in _figures(rel) if year_of(c.name) is not None] or _figures(rel)
    figures = [rel.values_of(c.name) or [] for c in dated]
    out = set()
    for label in labels:
        found = [
            v
            for i, k in enumerate(keys)
            if k == label
            for col in figures
            if isinstance(v := col[i], int | float) and not isinstance(v, bool)
        ]
        if found and all(v <= 0 for v in found) and any(v < 0 for v in found):
            out.add(label)
    if out and adds and len(labels) > 1 and _added_in_table(keys, labels, figures):
        return set()  # (``Income taxes - deferred`` of -90 that ``Total income taxes`` adds as it is)
    return out


def _added_in_table(keys: list[object], labels: list[str], figures: list[list[object]]) -> bool:
    """Whether another line of the table holds, in every figure column, the lines' sum with their
    signs as shown: the statement's own arithmetic adds them so."""
    rows = [keys.index(label) for label in labels if label in keys]
    if len(rows) != len(labels) or not figures:
        return False
    for col in figures:
        values = [float(v) for i in rows if isinstance(v := col[i], int | float) and not isinstance(v, bool)]
        if len(values) != len(rows):
            return False
        total = sum(values)
        others = [v for i, v in enumerate(col) if i not in rows and isinstance(v, int | float)]
        if not any(abs(float(v) - total) <= 1e-6 * max(1.0, abs(total)) for v in others):
            return False
    return True


def _across(
    question: str,
    expected: str | None,
    cells: list[tuple[str, str]],
    qwords: set[str],
    named: bool,
    shares: bool = False,
    negative: AbstractSet[str] = frozenset(),
    planned: bool = False,
    per: bool = False,
) -> CellPlan | None:
    """Two or more cells that differ in one row or header dimension, in the order the question names
    them. Arithmetic and comparisons need every member named; "which ... most" picks among all.
    ``negative``: the cells of lines shown negative throughout, read by their size in sums, ratios
    and shares (a cash ratio over creditors stored as -84,958 is positive). ``planned``: an actual
    figure and its budget, in that order."""
    if len(cells) < 2 or (not named and not _asks_which(question) and not _ASKS_PERIOD.search(question)):
        return None  # ("when was X at its peak": which of the periods, as "in which year")
    # ("were finance costs larger than finance income (comparing magnitudes)": by their size)
    if _MAGNITUDE.search(question):
        cells = [(label, f"ABS({e})") for label, e in cells]
        negative = frozenset()
    exprs = [e for _, e in cells]
    sizes = [f"ABS({e})" if e in negative else e for e in exprs]
    more, less = bool(qwords & (MORE_WORDS | DESCENDING)), bool(qwords & (LESS_WORDS | ASCENDING))
    if expected == "boolean":
        tested = _tested(question, cells) or _equal(question, cells)
        if tested is not None:  # "was the current ratio above 2.6": the arithmetic against the number
            return tested
    if expected == "boolean" and len(cells) == 2:
        # (a cost shown negative in every cell is set against another by its size: "did actual cost
        # of sales exceed budget")
        a, b = sizes if all(e in negative for e in exprs) else exprs
        multiple = _multiple(question)
        if multiple is not None:  # ("was A more than twice B", "is A at least double B")
            op, factor = multiple
            return CellPlan(f"SELECT {a} {op} {factor} * {b}", "test", "boolean")
        when = [ends_at(label) for label, _ in cells]
        # ("did net debt rise in FY25 compared with FY24": from the earlier to the later)
        early, late = (b, a) if when[0] is not None and when[1] is not None and when[0] > when[1] else (a, b)
        if qwords & RISE_WORDS:
            return CellPlan(f"SELECT {late} > {early}", "test", "boolean")
        if qwords & FALL_WORDS:
            return CellPlan(f"SELECT {late} < {early}", "test", "boolean")
        if more != less:
            return CellPlan(f"SELECT {a} {'>' if more else '<'} {b}", "test", "boolean")
        if qwords & CHANGE_WORDS:  # ("did goodwill change between 2023 and 2024": any move at all)
            return CellPlan(f"SELECT {late} <> {early}", "test", "boolean")
        if _THE_SAME.search(question):  # ("is share capital the same for the group and the company")
            # (a dash is nil: ``-`` beside 8,100 is no match)
            return CellPlan(f"SELECT ABS(COALESCE({a}, 0) - COALESCE({b}, 0)) < 0.5", "test", "boolean")
        return None
    # ("what leverage did it achieve (net debt / EBITDA)": the arithmetic written is the answer)
    if expected == "number" or (
        expected is None and (not _asks_which(question) or _written(question, cells) is not None)
    ):
        written = _written(question, cells)
        divided = written is not None and " / " in written  # ("A over B": between two lines, a ratio)
        if written is not None and len(cells) == 2 and (" / " in written or " * " in written):
            written = None  # (two cells divided: the ratio below, scaled as asked; "how many times")
        if written is not None:  # "((current assets minus inventory) / current liabilities)"
            # (sizes where nothing is taken away, or where what is taken away is shown negative in
            # every column and what it is taken from is not: "net cash from operating activities
            # less purchase of property, plant and equipment" deducts the purchases)
            deducted = bool(negative) and exprs[0] not in negative and not _KEEP_SIGN.search(question)
            if " / " in written or " - " not in written or deducted:
                written = (
                    _written(question, [(lab, s) for (lab, _), s in zip(cells, sizes, strict=True)])
                    or written
                )
            if " / " in written:  # (a ratio is in no unit of the table's)
                scaled = written if _percent_scale(question) == "1.0" else f"100.0 * {written}"
                return CellPlan(f"SELECT {scaled}", "ratio", "number")
            return CellPlan(f"SELECT {written}", "arithmetic", "number")
        if len(cells) == 2:
            a, b = exprs
            if _SHARE.search(_unlabelled(question, [lab for lab, _ in cells])) and not shares:
                scale = "100.0" if _PERCENT_WORD.search(question) else "1.0"
                a, b = sizes
                if _AS_PART_OF.search(question):  # ("A as a % of B": A over B, whichever is larger)
                    return CellPlan(f"SELECT {scale} * {a} / {b}", "ratio", "number")
                return CellPlan(f"SELECT {scale} * MIN({a}, {b}) / MAX({a}, {b})", "share", "number")
            if qwords & RATIO_WORDS or DIVIDES.search(question) or divided or per:
                # ("gross profit / sales": a slash between words divides; ``2021/22`` is a year)
                a, b = sizes
                by_size = [(lab, size) for (lab, _), size in zip(cells, sizes, strict=True)]
                clause = _minus_clause(question, by_size, r"\bdivided\s+by\b")
                if clause is None and _TIMES_AS_LARGE_AS.search(question):
                    a, b = b, a  # ("how many times as large as A was B": B over A)
                a, b = clause or (a, b)  # ("how many times A was B? (B divided by A)": as written)
                return CellPlan(f"SELECT {_percent_scale(question)} * {a} / {b}", "ratio", "number")
            clause = _minus_clause(question, cells)
            if clause is not None:  # "Give Q4 minus Q3": whichever the question named first
                return CellPlan(f"SELECT {clause[0]} - {clause[1]}", "difference", "number")
            by_time = _minus_by_time(question)
            if by_time and _ordered(cells):
                early, late = _in_time(cells)
                diff = f"{late} - {early}" if by_time > 0 else f"{early} - {late}"
                return CellPlan(f"SELECT {diff}", "change", "number")
            if planned and more != less:  # ("by how much were sales below budget": budget less actual)
                return CellPlan(f"SELECT {a} - {b}" if more else f"SELECT {b} - {a}", "difference", "number")
            if planned:  # ("how far above or below budget", "the variance against plan": actual less it)
                return CellPlan(f"SELECT {a} - {b}", "difference", "number")
            if qwords & _AGAINST and less and not more:
                # "how much lower was X than Y": by how much Y exceeds X
                return CellPlan(f"SELECT {b} - {a}", "difference", "number")
            if (qwords & _AGAINST and (more or less)) or _minus(question, cells):
                return CellPlan(f"SELECT {a} - {b}", "difference", "number")  # the first named less the 2nd
            compound = _compound_growth(question, cells)
            if compound is not None:
                return compound
            changed = qwords & (CHANGE_WORDS | RISE_WORDS | FALL_WORDS) - _DIFFERENCE
            # ("add together income from A and income from B in the year to March": a sum, no span)
            if changed or (
                re.search(r"\bfrom\b.+\bto\b", question, re.I) and not qwords & (SUM_WORDS | AVERAGE_WORDS)
            ):
                spans = re.search(
                    r"\bfrom\b\D*?((?:19|20)\d\d)\b.*?\bto\b\D*?((?:19|20)\d\d)\b", question, re.I
                )
                # earlier to later, whatever order the labels came in ("FY25 vs FY24 from 2024 to
                # 2025"); a span written backwards ("from 2024 to 2023") is read as written
                forward = spans.group(1) < spans.group(2) if spans is not None else True
                if (
                    _ordered(cells)
                    and forward
                    and (spans or not re.search(r"\bfrom\b.+\bto\b", question, re.I))
                ):
                    a, b = _in_time(cells)
                if negative and all(e in negative for e in exprs) and qwords & (RISE_WORDS | FALL_WORDS):
                    # (creditors shown in brackets "grew" in size: from 37,006 owed more, not less)
                    a, b = f"ABS({a})", f"ABS({b})"
                relative = _RELATIVE.search(question)
                points = _in_points(question)
                if not points and (relative or _IN_PERCENT.search(question) or _grows_as_rate(question)):
                    # ("in percentage points": the rates' own difference, no relative change)
                    # a percentage change or a growth rate ("the year-on-year growth in sales")
                    if relative is not None:  # (a rate or a relative change is a fraction, unless in %)
                        rate = (relative.group(1) or "").casefold() == "rate" or relative.group(4) is not None
                        rate = (
                            rate and not _IN_PERCENT.search(question) and not re.search(r"\(in %\)", question)
                        )
                    else:
                        rate = not _IN_PERCENT.search(question)
                    scale = "1.0" if rate else "100.0"  # (of the first named)
                    base = _base_named(question, cells)
                    if base is not None:  # ("how much does A differ from B, relative to B": of B)
                        other = next(e for _, e in cells if e != base)
                        return CellPlan(
                            f"SELECT {scale} * ({other} - {base}) / {base}", "relative change", "number"
                        )
                    if qwords & FALL_WORDS and not qwords & RISE_WORDS and "negative" not in qwords:
                        # "by what percentage did X fall": by how much, a size (as "how much it fell by")
                        return CellPlan(f"SELECT {scale} * ({a} - {b}) / {a}", "relative change", "number")
                    return CellPlan(f"SELECT {scale} * ({b} - {a}) / {a}", "relative change", "number")
                if qwords & FALL_WORDS and not qwords & RISE_WORDS and not _SIGNED_ASKED.search(question):
                    return CellPlan(f"SELECT {a} - {b}", "change", "number")  # how much it fell by
                return CellPlan(f"SELECT {b} - {a}", "change", "number")  # from the first named to the second
            if qwords & _DIFFERENCE:
                return CellPlan(f"SELECT ABS({a} - {b})", "difference", "number")
        if qwords & AVERAGE_WORDS and not qwords & CHANGE_WORDS and not (more or less):
            # "the average over 2021-2023", "averaged over the years 2019 to 2022"
            return CellPlan(_mean_of(sizes), "average", "number")
        if (
            not qwords & (SUM_WORDS | {"plus"})
            and "and" in qwords
            and len(cells) > 2
            and all(_number(label) == _number(label) for label, _ in cells)
        ):
            # ("the population of Washington in 1986, 1988 and 1990": a figure for each year listed)
            return _listed_cells(exprs)
        if qwords & (SUM_WORDS | {"plus"}) or (
            "and" in qwords and not qwords & CHANGE_WORDS and not (more or less)
        ):
            return CellPlan("SELECT " + " + ".join(sizes), "sum", "number")
        if expected == "number":
            return None
    if _minus(question, cells) and len(cells) == 2:
        return CellPlan(f"SELECT {exprs[0]} - {exprs[1]}", "difference", "number")  # "actual less plan"
    first = _FIRST_IN_ORDER.search(question)
    if first is not None:  # ("from smallest to largest", "largest first": the order said)
        more = (first.group(1) or first.group(2)).casefold() in ("largest", "highest", "biggest")
        less = not more
    elif more == less and _RANK_ALL.match(question) and not (more or less):
        more = True  # ("rank the portfolios by net assets": largest first unless the question says)
    place = ordinal_place(question) or 1
    if place > 1 and not (more or less):
        more = True  # ("ranked second for pigs": from the top)
    if more == less:
        return None
    pick = "MAX" if more else "MIN"
    if negative and all(e in negative for e in exprs):
        # (a line shown negative in every column -- purchases, payments -- is largest by its size)
        cells = [(label, f"ABS({e})") for label, e in cells]
        exprs = [e for _, e in cells]
    cells = [
        (without_marks(label).strip() or label, e) for label, e in cells
    ]  # ``2023¹``, ``2022 (p)``, ``2020-21 [note 1]``: the year
    if _ASKS_YEAR.search(question) and all(len(YEARS.findall(label)) == 1 for label, _ in cells):
        # "which year": 2024, not 30 June 2024 (a fiscal year's own name stays: ``FY2025``)
        cells = [
            (label if _FISCAL.fullmatch(label.strip()) else YEARS.findall(label)[0], e) for label, e in cells
        ]
    if len(cells) == 2:
        (la, a), (lb, b) = cells
        op = ">=" if more else "<="
        return CellPlan(
            f"SELECT CASE WHEN {a} {op} {b} THEN {literal(la)} ELSE {literal(lb)} END", "compare", "text"
        )
    # ("which two portfolios"; not "among the three legal entity columns", the members offered)
    n = 1 if _COUNT_OFFERED.search(question) else _rows_counted(question)
    if place > 1 and n == 1:  # ("which mode was the second largest": the members in order, one skipped)
        picked = " UNION ALL ".join(f"SELECT {literal(label)} AS p, {e} AS v" for label, e in cells)
        order = "DESC" if pick == "MAX" else "ASC"
        return CellPlan(
            f"SELECT p FROM ({picked}) WHERE v IS NOT NULL ORDER BY v {order} LIMIT 1{_offset(place)}",
            "top-header",
            "text",
        )
    if n > 1 or _RANK_ALL.search(question):
        # ("which two portfolios had the most cash", "rank the portfolios by net assets"): the members
        # in order, the first n (a blank cell is no member's figure)
        picked = " UNION ALL ".join(f"SELECT {literal(label)} AS p, {e} AS v" for label, e in cells)
        order = "DESC" if pick == "MAX" else "ASC"
        limit = f" LIMIT {n}" if n > 1 else ""
        return CellPlan(
            f"SELECT p FROM ({picked}) WHERE v IS NOT NULL ORDER BY v {order}{limit}", "rows", "list"
        )
    # (a blank cell -- a dash, nothing there -- is no member's figure: it neither wins nor spoils the rest)
    fill = "-1e308" if pick == "MAX" else "1e308"
    filled = [(label, f"COALESCE({e}, {fill})") for label, e in cells]
    top = f"{pick}({', '.join(e for _, e in filled)})"
    whens = " ".join(f"WHEN {e} THEN {literal(label)}" for label, e in filled)
    return CellPlan(f"SELECT CASE {top} WHEN {fill} THEN NULL {whens} END", "top-header", "text")

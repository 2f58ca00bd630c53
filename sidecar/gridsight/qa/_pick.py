"""Stage 1 of the Chain of Spreadsheet: which detected table the question is about.

Lexical first (header paths, titles, unit lines, row labels, the sheet's name), then meaning (MiniLM
embeddings of each table's description) to break a tie, then the model choosing among the tied
tables by number under a grammar. Meaning and the model are only asked when the question holds
words the lexical match could not place: a question whose every word fits several tables equally
("the total of Sales" over two sheets with the same columns) is ambiguous, and GridSight asks which
table rather than letting a model guess.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from typing import Any

from gridsight.grid import Range, Sheet, Workbook
from gridsight.qa._columns import STOP, clearly_closest
from gridsight.qa._headers import CODE_MONTHS, month_headed
from gridsight.qa._sqlgen import initialisms, initials_of
from gridsight.text import (
    CHANGE_WORDS,
    FALL_WORDS,
    MONTHS,
    REQUEST_WORDS,
    RISE_WORDS,
    STOP_WORDS,
    same_month,
    stem,
    superlative,
)
from gridsight.text import words as _words

#: How much closer (cosine) one table's description must be to the question to break a lexical tie.
MEANING_MARGIN = 0.05


def words(text: str) -> set[str]:
    """Lowercase words of a question, header or label without stop and request words; capitals are no
    word breaks here ('SouthWest' is the label 'Southwest')."""
    return {w for w in _words(text, camel=False) if w not in STOP_WORDS and w not in REQUEST_WORDS}


def _matches(word: str, named: Collection[str]) -> bool:
    """A question word names a table's word: the same, its start, or the same stem ("liability"
    for ``liabilities``)."""
    if word in named or any(n.startswith(word) and len(word) > 3 for n in named):
        return True
    if word in MONTHS and any(same_month(word, n) for n in named):
        return True  # ("Dec 2024" and a header written ``31 December 2024``)
    return stem(word) in _stems(frozenset(named))


@lru_cache(maxsize=64)
def _stems(named: frozenset[str]) -> frozenset[str]:
    """The stems of a table's words, once per table (every question word is matched against them)."""
    return frozenset(stem(n) for n in named)


@dataclass
class Candidate:
    """A detected table on a sheet and how much of the question it names (0..1)."""

    sheet: Sheet
    table: Any  # gridsight.detect.DetectedTable
    score: float
    named: frozenset[str] = frozenset()
    #: How many of the question's two-word phrases the table writes as one ("current assets"): what
    #: tells apart tables that hold the same words (a balance sheet and a net-debt box beside it).
    phrases: int = 0
    #: The relation the table is read as where it is not its own (:func:`relation_for`): the same
    #: statement's periods on sheets of their own, read together.
    relation: Any = None

    @property
    def ref(self) -> str:
        return f"{self.sheet.name}!{self.table.range.ref()}"


def relation_for(c: Candidate) -> Any:
    """The relational view a candidate is read as: its own table's, or the one it was chosen with."""
    from gridsight.qa._relational import relation_of

    return c.relation if c.relation is not None else relation_of(c.sheet, c.table)


def _pairs(text: str) -> set[tuple[str, str]]:
    """The stems of each two words next to each other in ``text`` (less stop and request words)."""
    ws = [stem(w) for w in words_in_order(text)]
    return set(pairwise(ws))


def words_in_order(text: str) -> list[str]:
    """:func:`words` in the order written, repeats kept."""
    return [w for w in _words(text, camel=False) if w not in STOP_WORDS and w not in REQUEST_WORDS]


def _phrases_named(question: str, sheet: Sheet, table: Any) -> int:
    """How many of the question's two-word phrases (:func:`_pairs`) the table's headers, titles,
    units and row labels write, and how many of its row labels of two words or more the question
    writes whole (``Current assets`` is a line of the statement, only part of ``Net current assets``
    in a ratio box beside it)."""
    labels = set(_row_labels(sheet, table))
    texts = [*table.header_paths, *(x.text for x in (*table.titles, *table.units)), *labels]
    found = len(_pairs(question) & {p for t in texts for p in _pairs(t)})
    asked = " ".join(stem(w) for w in words_in_order(question))
    for label in labels:
        own = [stem(w) for w in words_in_order(label)]
        found += len(own) >= 2 and f" {' '.join(own)} " in f" {asked} "
    return found


def _by_name(question: str, tied: list[Candidate]) -> Candidate | None:
    """Among tables side by side on one sheet, the one whose row labels hold a word the question
    writes as a name, capitalised inside the sentence ("How many Pro units ..." names the ``Pro``
    rows of a sales table, not a statement beside it); else None."""
    names = set(re.findall(r"(?<=[\w,;:] )[A-Z][\w&-]*", question))
    if not names or any(c.sheet is not tied[0].sheet for c in tied):
        return (
            None  # (tables on sheets of their own may be a list and its lookup: "sales in the Oslo office")
        )
    holding = [c for c in tied if names & {label.strip() for label in _row_labels(c.sheet, c.table)}]
    return holding[0] if len(holding) == 1 else None


def _named_words(sheet: Sheet, table: Any) -> set[str]:
    """Every word the table's headers, titles, unit lines, row labels and sheet name hold."""
    named: set[str] = words(sheet.name)
    for path in table.header_paths:
        named |= words(path)
    for label in (*table.titles, *table.units):
        named |= words(label.text)
    for label in _row_labels(sheet, table):
        named |= words(label)
    return named


def _row_labels(sheet: Sheet, table: Any) -> Iterator[str]:
    """The text cells of the table's row-header columns, and of a column of texts right after them
    (``1. | Umsatzerlöse``: the outline numbers are the row header, the names beside them)."""
    t = table.range
    cols = list(table.row_header_cols)
    after = max(cols, default=t.left - 1) + 1
    last = [v for v in sheet.column_values(Range(t.top, t.right, t.bottom, t.right)) if v is not None]
    figures = 2 * sum(isinstance(v, int | float) for v in last) > len(last)  # (a statement, no list of names)
    while figures and after <= min(t.right - 1, t.left + 1):  # (the first two columns at most)
        values = [v for v in sheet.column_values(Range(t.top, after, t.bottom, after)) if v is not None]
        if not values or 2 * sum(isinstance(v, str) for v in values) <= len(values):
            break
        cols.append(after)
        after += 1
    for col in cols:
        for v in sheet.column_values(Range(t.top, col, t.bottom, col)):
            if isinstance(v, str):
                yield v


def _initials(sheet: Sheet, table: Any) -> set[str]:
    """The initialisms of the table's row labels (``Cost of goods sold`` -> ``cogs``)."""
    return {i for label in _row_labels(sheet, table) for i in initials_of(label)}


def _spells(word: str, initials: set[str]) -> bool:
    """Whether ``word`` is one of ``initials``, as written or without a plural ``s`` (``rpms``)."""
    return word in initials or re.sub(r"s$", "", word) in initials


def candidates(workbook: Workbook, sheet: str | None, question: str) -> list[Candidate]:
    """Every detected table of the sheet (or of every sheet), best lexical match first."""
    from gridsight.detect import detect_tables

    asked = words(question)
    verbs = _verbs_of_change(question)  # (half a word each: how the figure moved names no line)
    # an initialism the question writes in capitals names a label: "COGS" the ``Cost of goods sold`` row
    said = initialisms(question)
    caps = {w for w in asked if _spells(w, said)}
    sheets = [workbook.sheet(sheet)] if sheet else list(workbook.sheets)
    phrased = bool(_pairs(question))  # (a question of one word has no phrase to tell tables apart)
    out = []
    for sh in sheets:
        tables = detect_tables(sh).tables
        for t in tables:
            named = _named_words(sh, t)
            for other in tables:  # (a title over tables side by side is each one's: an account-form
                # balance sheet's assets beside its equity and liabilities)
                if other is not t and _beside(t, other):
                    named |= {
                        w
                        for x in (*other.titles, *other.units)
                        if x.range.left <= min(t.range.left, other.range.left)  # (the sheet's, at its left)
                        for w in words(x.text)
                    }
            first = next((o for o in tables if _stacked_under(t, o) or _under_a_titled_block(t, o)), None)
            if first is not None:  # (an untitled table under a titled one is the same statement's:
                # its company and statement name are the titled table's)
                named |= {w for x in (*first.titles, *first.units) for w in words(x.text)}
            if caps:
                held = _initials(sh, t)
                named |= {w for w in caps if _spells(w, held)}
            # (an initialism names one label, where a word such as "year" may name any table's
            # header: it counts twice)
            held_words = frozenset(named)
            hit = sum(1 + (w in caps) - 0.5 * (w in verbs) for w in asked if _matches(w, held_words))
            score = hit / max(1, len(asked) + len(caps))
            out.append(Candidate(sh, t, score, held_words))
    if len(out) > 1 and phrased:  # (only between tables tied on words: the phrases tell them apart)
        top = max(c.score for c in out)
        for c in out:
            c.phrases = _phrases_named(question, c.sheet, c.table) if c.score == top else 0
    # (still tied: the larger table, whose cells the question more likely asks about than a block
    # of metadata beside it -- ``UNIT | Percentage of population``, ``AGE | From 15 to 74 years``)
    return sorted(out, key=lambda c: (-c.score, -c.phrases, -_size(c.table)))


def _size(table: Any) -> int:
    """How many cells a table's range spans."""
    r = table.range
    return (r.bottom - r.top + 1) * (r.right - r.left + 1)


def _verbs_of_change(question: str) -> set[str]:
    """The change words the question uses as its verb ("by how much did X increase", "has Y
    fallen"), which ask how a figure moved more than they name a line of a table (``Net increase in
    cash`` is named by "the net increase in cash", a noun): they weigh half a word."""
    return {
        w
        for w in (CHANGE_WORDS | RISE_WORDS | FALL_WORDS)
        if re.search(rf"\b(?:did|does|do|has|have|had|will)\b[^?]{{0,80}}\b{w}\b", question, re.IGNORECASE)
    }


def _beside(a: Any, b: Any) -> bool:
    """Whether two tables stand side by side: their rows overlap, their columns do not."""
    ra, rb = a.range, b.range
    rows = ra.top <= rb.bottom and rb.top <= ra.bottom
    cols = ra.left <= rb.right and rb.left <= ra.right
    return rows and not cols


def _stacked_under(a: Any, b: Any) -> bool:
    """Whether ``a`` has no title of its own and stands under ``b``, which has, in the same columns
    (a statement's second period block under its first)."""
    ra, rb = a.range, b.range
    return (
        not a.titles
        and bool(b.titles)
        and rb.bottom < ra.top
        and (ra.left, ra.right) == (rb.left, rb.right)
        and len(a.header_paths) == len(b.header_paths)
    )


#: Rows a block above a table may span and still be read as the table's lead-in (metadata).
_LEAD_IN_ROWS = 3


def _under_a_titled_block(a: Any, b: Any) -> bool:
    """Whether ``a`` has no title of its own and stands right under a small titled block ``b`` that
    took the sheet's title (a download's ``UNIT | Percentage of ...`` and ``AGE | 15 to 74`` lines
    above its table): the title is the table's too."""
    ra, rb = a.range, b.range
    return (
        not a.titles
        and bool(b.titles)
        and rb.bottom < ra.top
        and rb.bottom - rb.top + 1 <= _LEAD_IN_ROWS
        and rb.left <= ra.right
        and ra.left <= rb.right
    )


def _blocks_of_one_statement(tied: list[Candidate]) -> bool:
    """Whether the tied tables are blocks of one statement, one under another on a sheet, in the
    same columns with as many headers, with the same lines (its relation reads them together)."""
    from gridsight.qa._relational import relation_of

    first = tied[0]
    if any(c.sheet is not first.sheet for c in tied):
        return False
    return all(relation_of(c.sheet, c.table).blocks for c in tied)


def _periods_on_sheets(tied: list[Candidate]) -> Candidate | None:
    """The first of the tied tables, read with the others, where each stands on a sheet of its own
    as the same statement at another period (:func:`gridsight.qa._relational.joined_periods`): the
    question names none of their periods apart, or several."""
    from gridsight.qa._relational import joined_periods

    rel = joined_periods([(c.sheet, c.table) for c in tied])
    return None if rel is None else replace(tied[0], relation=rel)


def describe(c: Candidate) -> str:
    """What a table is about, in words: sheet, titles, column header paths, first row labels."""
    t = c.table
    labels = []
    for col in t.row_header_cols[:1]:
        first = (max(t.header_rows) + 1) if t.header_rows else t.range.top
        for r in range(first, min(first + 5, t.range.bottom + 1)):
            v = c.sheet.value(r, col)
            if isinstance(v, str):
                labels.append(v)
    titles = " ".join(x.text for x in t.titles)
    columns = ", ".join(p for p in t.header_paths if p)
    return f"the table {c.ref}: {titles}. Columns: {columns}. Rows: {', '.join(labels)}"


@dataclass(frozen=True)
class Pick:
    """Stage 1's outcome: the chosen table and how it was chosen, or the reason to abstain."""

    table: Candidate | None
    how: str = "words"  # words | percent | class | months | periods | meaning | model
    reason: str | None = None
    tied: tuple[str, ...] = ()


def top_tie(found: list[Candidate]) -> list[Candidate]:
    """The best-scoring table and every other table that scores the same (``found`` is sorted)."""
    if not found:
        return []
    best = found[0]
    return [
        best,
        *(c for c in found[1:] if (c.score, c.phrases) == (best.score, best.phrases) and c.ref != best.ref),
    ]


def pick_table(question: str, found: list[Candidate], model: Any = None) -> Pick:
    """The table the question is about (see the module docstring for the order of tie-breakers)."""
    if not found:
        return Pick(None, reason="no table was found on the sheet(s)")
    titled = _titled(question, found)
    if titled is not None:
        return Pick(titled)
    best = found[0]
    if best.score == 0 and len(found) > 1:  # one table: its routes decide (values, synonyms...)
        return Pick(None, reason="no table's headers or labels match the question's words")
    tied = top_tie(found)
    if len(tied) == 1:
        return Pick(best)
    if _blocks_of_one_statement(tied):  # (a statement's periods in blocks: read together, from the top)
        return Pick(min(tied, key=lambda c: c.table.range.top))
    together = _periods_on_sheets(tied)
    if together is not None:  # (a statement's periods on sheets of their own: read together)
        return Pick(together, "periods", tied=tuple(c.ref for c in tied))
    refs = tuple(c.ref for c in tied)
    say_which = Pick(
        None, reason=f"several tables fit the question equally ({', '.join(refs[:4])}); say which", tied=refs
    )

    shares = _by_percent(question, tied)
    if shares is not None:  # a table of amounts beside its percentage breakdown
        return Pick(shares, "percent", tied=refs)
    classed = _by_class(question, tied)
    if classed is not None:  # ("which equity line was largest": the table with a group of equity lines)
        return Pick(classed, "class", tied=refs)
    named = _by_name(question, tied)
    if named is not None:
        return Pick(named, "name", tied=refs)
    monthly = _by_months(question, tied)
    if monthly is not None:  # ("in the first quarter": the table whose columns are its months)
        return Pick(monthly, "months", tied=refs)
    # operation words (total, highest...) tell no table apart
    telling = {w for w in words(question) - STOP if not all(_matches(w, c.named) for c in tied)}
    if not telling:
        return say_which  # nothing in the question tells them apart: truly ambiguous
    i = clearly_closest(question, [describe(c) for c in tied], MEANING_MARGIN)
    if i is not None:
        return Pick(tied[i], "meaning", tied=refs)
    from gridsight.qa._choose import choose

    j = choose(model, question, [describe(c) for c in tied])
    if j is not None:
        return Pick(tied[j], "model", tied=refs)
    return say_which


def _by_class(question: str, tied: list[Candidate]) -> Candidate | None:
    """The one tied table where the question asks which line of a group of two lines or more
    (:func:`gridsight.qa._classes.asked_class`: "which equity line", over an ``Equity`` section),
    where the others hold the group's words in one line's label at most (``Equity ratio, %``
    in the key figures below a balance sheet); else None."""
    from gridsight.qa._classes import asked_class
    from gridsight.qa._relational import relation_of

    chooses = re.search(r"\b(?:which|how\s+many|list|name|identify)\b", question, re.IGNORECASE) or any(
        superlative(w) for w in _words(question)
    )
    if not chooses:
        return None  # ("the total number of consolidated passengers": a figure, no line chosen among a group)
    grouped = []
    for c in tied:
        found = asked_class(relation_of(c.sheet, c.table), question)
        if found is not None and len(found.members) >= 2:
            grouped.append(c)
    return grouped[0] if len(grouped) == 1 else None


def _by_months(question: str, tied: list[Candidate]) -> Candidate | None:
    """The one tied table whose columns are headed by every month the question names by its
    quarter or half ("the first quarter of 2025", "H1") or by a name of four letters or more
    ("January to March"; "May", "Mar" and "Jan" are read as no month here), two months at least;
    where it names none, asks of months at all ("which month"), the one whose columns are three
    months or more; else None."""
    said = _words(question)
    wanted = {m for w in said for m in CODE_MONTHS.get(w, ())}
    wanted |= {MONTHS[w] for w in said if w in MONTHS and len(w) > 3}
    # ("which month had the highest sales", "in how many months": the table of months, any three)
    by_kind = len(wanted) < 2 and bool({"month", "months", "monthly"}.intersection(said))
    if len(wanted) < 2 and not by_kind:
        return None
    from gridsight.qa._relational import relation_of

    months_of = {}
    for c in tied:
        rel = relation_of(c.sheet, c.table)
        months_of[c.ref] = {month_headed(col.name) for col in rel.columns if col.role == "data"} - {None}
    covering = [c for c in tied if not by_kind and wanted <= months_of[c.ref]]
    if not covering and (by_kind or any(w in CODE_MONTHS for w in said)):
        # (a quarter of a financial year that opens in April: the table of months all the same)
        covering = [c for c in tied if len(months_of[c.ref]) >= 3]
    return covering[0] if len(covering) == 1 else None


#: A table named by its letter or number: "In Table A, ...", "according to table 3.1".
_TABLE_NAMED = re.compile(r"\b(?:[Tt]able|TABLE)\s+([A-Z]|\d{1,2}(?:\.\d{1,2})?)(?![\w.])")


def _titled(question: str, found: list[Candidate]) -> Candidate | None:
    """The one table whose title carries the name the question gives a table ("Table A" over
    ``Table A: Segment assets and liabilities`` and ``Table B: Consolidated balance sheet``)."""
    named = {m.group(1).casefold() for m in _TABLE_NAMED.finditer(question)}
    if len(named) != 1:
        return None
    (name,) = named
    hits = [
        c
        for c in found
        if any(m.group(1).casefold() == name for x in c.table.titles for m in _TABLE_NAMED.finditer(x.text))
    ]
    return hits[0] if len(hits) == 1 else None


#: What says a table is in percentages (its titles and unit lines) or a question asks for one.
_PERCENT_WORDS = re.compile(r"%|\bper\s?cent(?:age)?s?\b", re.IGNORECASE)
_SHARE_ASKED = re.compile(r"%|\bper\s?cent(?:age)?s?\b|\bshares?\b|\bproportions?\b|\bsplit\b", re.IGNORECASE)


def _by_percent(question: str, tied: list[Candidate]) -> Candidate | None:
    """Among tables tied on the question's words, the one table in percentages when the question asks
    for a percentage or share, or the one table of amounts when it does not ("the modal split (%)"
    stacked under "passenger-km by mode": "which mode had the lowest passenger-km" is the amounts')."""
    # (a table whose headers mark some columns "%" is mixed: its titles' "%" is about those)
    percent = [
        c
        for c in tied
        if any(_PERCENT_WORDS.search(x.text) for x in (*c.table.titles, *c.table.units))
        and not any(_PERCENT_WORDS.search(p) for p in c.table.header_paths)
    ]
    if not percent or len(percent) == len(tied):
        return None
    wanted = percent if _SHARE_ASKED.search(question) else [c for c in tied if c not in percent]
    return wanted[0] if len(wanted) == 1 else None


def table_area(table: Any) -> Range:
    """The table's header row and data rows, without its total rows at the bottom."""
    header = max(table.header_rows) if table.header_rows else table.range.top
    bottom = table.range.bottom
    totals = set(table.total_rows) | set(table.subtotal_rows)
    while bottom > header and bottom in totals:
        bottom -= 1
    return Range(header, table.range.left, bottom, table.range.right)

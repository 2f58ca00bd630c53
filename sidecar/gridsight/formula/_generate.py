"""Request -> formula, deterministically: match the request against the table's headers and values,
pick one of the common shapes, fill its slots with real ranges, then validate and evaluate.

Why not the model first: the default 0.5B model cannot choose columns (FINDINGS.md: 0-3 of 60
questions right on its own). This tier covers the common shapes exactly and abstains with a reason
otherwise; the model tier fills in behind it (ranking columns under a grammar) where it exists.
Formulas always use the table's real position, so a table at C5 yields C6:C40, not A2:A36.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from gridsight.formula._display import display_value
from gridsight.formula._evaluate import Evaluation, evaluate_formula
from gridsight.formula._explain import explain_formula
from gridsight.grid import Kind, Range, Sheet, Workbook
from gridsight.text import (
    AGE_SAID,
    ASCENDING,
    COMPARED_BEFORE,
    DESCENDING,
    EACH_ONCE,
    ENTITY_ASKED,
    FILLER,
    HOW_MANY_EACH,
    IN_ALL,
    LABEL_WORDS,
    LISTED_ENTITIES,
    MONTHS,
    NEGATION_WORDS,
    NOT_NAMES,
    ORDINAL_VALUES_MAX,
    RANKED_BY_PARTICIPLE,
    SHORTENED,
    SUPERLATIVE_RX,
    TABLE_WORDS,
    TAKES_BOTH,
    VALUE_NOUNS,
    WHAT_OF_TOP,
    YEAR_WORDS,
    adjective_phrase,
    age_column,
    asks_yes_no,
    category_named,
    closest,
    code_like,
    comparisons_spelt,
    count_asked,
    date_part_asked,
    derived,
    direction_of,
    either_of,
    excluded_at,
    free_words,
    header_text,
    in_own_order,
    is_ranking,
    letters_alone,
    listed_values,
    meaning_map,
    named_after_header,
    names_month,
    noun_of,
    ordinal_place,
    ordinals_named,
    part_column,
    place_meant,
    proper_words,
    ranked_column,
    same,
    shortened,
    superlative,
    time_direction,
    timelike,
    value_window,
)
from gridsight.text import stem as _stem
from gridsight.text import words as _words

#: Words that never name a column, as request words are matched to headers.
_STOP = NOT_NAMES
#: Direction words: the generic ones, and "first" / "last" (a superlative adjective such as
#: "cheapest" takes its direction from its meaning: see _Request.direction).
_DESC = DESCENDING | {"last"}
_ASC = ASCENDING | {"first"}
_AGG = {
    "total": "SUM",
    "sum": "SUM",
    "average": "AVERAGE",
    "mean": "AVERAGE",
    "avg": "AVERAGE",
    "median": "MEDIAN",
    "maximum": "MAX",
    "max": "MAX",
    "highest": "MAX",
    "minimum": "MIN",
    "min": "MIN",
    "lowest": "MIN",
}
_COMPARE = (
    (
        re.compile(
            r"\b(?:more than|greater than|above|over|exceeds?|higher than|bigger than|older than)\s+"
            r"\$?(-?[\d.,]+)"
        ),
        ">",
    ),
    (
        re.compile(
            r"\b(?:less than|below|under|fewer than|lower than|younger than|smaller than)\s+"
            r"(?:(?:the|a|an)\s+\w+\s+of\s+)?\$?(-?[\d.,]+)"
        ),
        "<",
    ),
    (re.compile(r"\b(?:at least|no less than)\s+\$?(-?[\d.,]+)"), ">="),
    (re.compile(r"\b(?:have|has|had|with)\s+(\d+)\s+(?=[a-z])(?!times\b|or more\b|or less\b)"), "="),
    (re.compile(r"\b(?:at most|no more than)\s+\$?(-?[\d.,]+)"), "<="),
    (
        re.compile(
            # ("as of 2017", "the end of 2017": a date, no value)
            r"\b(?:(?<!as\s)(?<!end\s)(?<!close\s)(?<!start\s)of|equal to|equals|is|aged|=)"
            r"\s+\$?(-?\d[\d.,]*)\b"
            r"(?!\s*(?:most|least|highest|lowest))"
        ),
        "=",
    ),
)


def _mentioned(head_word: str, stems: set[str]) -> bool:
    """A header word is named by the request's stems: itself or a near form."""
    return head_word in stems or any(same(head_word, s) for s in stems)


#: A superlative right after "what is the" (one word may come between: "the single highest").
_SUPERLATIVE_OPENS = rf"(?:\w+\s+)?(?:top|{SUPERLATIVE_RX})\b"
#: Quoted values: 'Technology' or "Technology", not the apostrophes of "What's" and "didn't".
_QUOTED = re.compile(r"(?<![A-Za-z])'([^']+)'(?![A-Za-z])|\"([^\"]+)\"")
#: Header words of identifier columns: people mean the named thing, not its key.
_ID_WORDS = frozenset({"id", "key", "code", "uuid"})
#: Words that mean a one-letter code in columns that store codes ("Sex": M / F).
_CODES = {"male": "m", "man": "m", "men": "m", "female": "f", "woman": "f", "women": "f"}
_NEGATION = re.compile(r"\b(" + "|".join(sorted(NEGATION_WORDS)) + r")\b")  # over text with ' as a space


@dataclass
class Column:
    """One column of a table: its header, its data range, what it holds."""

    name: str
    col: int
    data: Range
    kind: str  # 'number' | 'text' | 'bool' | 'date'
    words: frozenset[str]
    distinct: tuple[str, ...] = ()
    blanks: bool = False  # some data cells are empty (UNIQUE would list the blank as a value)

    @property
    def ref(self) -> str:
        return self.data.ref()


@dataclass
class Derived(Column):
    """A measure computed per row from a column, e.g. the number of words in a text column."""

    expr: str = ""

    @property
    def ref(self) -> str:
        return self.expr


def _mean_words(sheet: Sheet, col: Column, sample: int = 200) -> float:
    """Average number of words in the column's first ``sample`` text cells."""
    rng = Range(col.data.top, col.col, min(col.data.bottom, col.data.top + sample - 1), col.col)
    texts = [v for row in sheet.values(rng) for v in row if isinstance(v, str) and v.strip()]
    return sum(len(t.split()) for t in texts) / len(texts) if texts else 0.0


def _word_count_column(table: Table) -> Derived | None:
    """Words per row of the column holding running text ("the note with the most words"): the text
    column whose cells hold the most words (at least one and a half on average)."""
    texts = [(_mean_words(table.sheet, c), -c.col, c) for c in table.columns if c.kind == "text"]
    best = max(texts, key=lambda t: (t[0], t[1]), default=None)
    if best is None or best[0] < 1.5:
        return None
    col = best[2]
    x = f"TRIM({col.ref})"
    expr = f'IF({x}="",0,LEN({x})-LEN(SUBSTITUTE({x}," ",""))+1)'
    return Derived(f"words in {col.name}", col.col, col.data, "number", frozenset({"word"}), (), False, expr)


@dataclass
class Table:
    sheet: Sheet
    header_row: int
    columns: list[Column]


def sheet_of(workbook: Workbook, sheet: str | Sheet | None) -> Sheet:
    """The sheet meant: a Sheet as given, a name looked up (case-insensitively), else the first."""
    if isinstance(sheet, Sheet):
        return sheet
    return workbook.sheet(sheet) if sheet is not None else workbook.sheets[0]


def table_from_sheet(sheet: Sheet, area: Range | None = None) -> Table | None:
    """The table in ``area`` with its first row as headers (default: the sheet's largest detected
    table, without its title, notes and total rows)."""
    if area is None:
        tables = tables_in_sheet(sheet)
        return max(
            tables,
            key=lambda t: len(t.columns) * (t.columns[0].data.height if t.columns else 0),
            default=None,
        )
    return _table(sheet, area.top, area.bottom, area.left, area.right, None)


_TABLES: OrderedDict[int, tuple[Sheet, list[Table]]] = OrderedDict()
_TABLES_LOCK = threading.Lock()


def tables_in_sheet(sheet: Sheet) -> list[Table]:
    """Every table table detection finds, as formula targets (data rows stop before totals).

    Cached per sheet object: sheets are immutable, and suggestions while typing ask again and
    again about the same one (the cache holds the last 16 sheets)."""
    with _TABLES_LOCK:
        hit = _TABLES.get(id(sheet))
        if hit is not None and hit[0] is sheet:
            _TABLES.move_to_end(id(sheet))
            return hit[1]
    tables = _find_tables(sheet)
    with _TABLES_LOCK:
        _TABLES[id(sheet)] = (sheet, tables)
        while len(_TABLES) > 16:
            _TABLES.popitem(last=False)
    return tables


def _find_tables(sheet: Sheet) -> list[Table]:
    from gridsight.detect import detect_tables

    out = []
    for t in detect_tables(sheet).tables:
        header = max(t.header_rows) if t.header_rows else t.range.top
        bottom = t.range.bottom
        totals = set(t.total_rows) | set(t.subtotal_rows)
        while bottom > header and bottom in totals:
            bottom -= 1
        table = _table(sheet, header, bottom, t.range.left, t.range.right, t.header_paths)
        if table is not None:
            out.append(table)
    if not out and sheet.used_range is not None:
        u = sheet.used_range
        table = _table(sheet, u.top, u.bottom, u.left, u.right, None)
        if table is not None:
            out.append(table)
    return out


def _table(
    sheet: Sheet, top: int, bottom: int, left: int, right: int, paths: tuple[str, ...] | None
) -> Table | None:
    if bottom <= top:
        return None
    cols: list[Column] = []
    for c in range(left, right + 1):
        path = paths[c - left] if paths and c - left < len(paths) else ""
        head = sheet.cell(top, c)
        name = path.split(" › ")[-1] if path else (str(head.value).strip() if head.value is not None else "")
        name = name or f"Column {c + 1}"
        # stop words go before stemming ("Listed" is about listing, though its stem is 'list'); a
        # header made only of them ("Number") keeps them
        words = [w for w in _words(path or name) if w not in _STOP] or _words(path or name)
        data = Range(top + 1, c, bottom, c, sheet.name)
        kind, distinct = _column_kind(sheet, data)
        r0, c0 = sheet.origin
        ks = sheet.kinds[data.top - r0 : data.bottom - r0 + 1, c - c0] if c - c0 < sheet.shape[1] else ()
        blanks = bool(len(ks) < data.height or np.count_nonzero(ks == Kind.EMPTY))
        cols.append(Column(name, c, data, kind, frozenset(_stem(w) for w in words), distinct, blanks))
    return Table(sheet, top, cols)


def _column_kind(sheet: Sheet, rng: Range) -> tuple[str, tuple[str, ...]]:
    r0, c0 = sheet.origin
    ks = sheet.kinds[rng.top - r0 : rng.bottom - r0 + 1, rng.left - c0]
    counts = {k: int(np.count_nonzero(ks == k)) for k in (Kind.NUMBER, Kind.TEXT, Kind.BOOL, Kind.DATETIME)}
    kind = max(counts, key=lambda k: counts[k])
    name = {Kind.NUMBER: "number", Kind.TEXT: "text", Kind.BOOL: "bool", Kind.DATETIME: "date"}[kind]
    distinct: tuple[str, ...] = ()
    if kind == Kind.TEXT:
        ids = sheet.text_ids[rng.top - r0 : rng.bottom - r0 + 1, rng.left - c0][ks == Kind.TEXT]
        uniq = np.unique(ids)
        if len(uniq) <= 200:
            distinct = tuple(sheet.texts[int(i)] for i in uniq)
    return name, distinct


@dataclass
class Condition:
    column: Column
    op: str
    value: Any

    def criteria(self) -> tuple[str, str]:
        """(range, criterion) for COUNTIFS-style functions."""
        v = self.value
        if isinstance(v, dt.date):
            return self.column.ref, f'"{self.op}"&{_date_lit(v)}'
        if isinstance(v, bool):
            return self.column.ref, "TRUE" if v else "FALSE"
        if isinstance(v, float | int):
            num = _num(v)
            return self.column.ref, f'"{self.op}{num}"' if self.op != "=" else num
        text = str(v).replace('"', '""')
        return self.column.ref, f'"{text}"' if self.op == "=" else f'"{self.op}{text}"'

    def test(self) -> str:
        """The comparison as a formula tail: ``=5``, ``="M"``, ``=TRUE``, ``>3``."""
        v = self.value
        if isinstance(v, dt.date):
            return f"{self.op}{_date_lit(v)}"
        if isinstance(v, bool):
            return "=TRUE" if v else "=FALSE"
        lit = _num(v) if isinstance(v, float | int) else '"' + str(v).replace('"', '""') + '"'
        return f"{self.op}{lit}"

    def mask(self) -> str:
        """Boolean array expression for FILTER."""
        v = self.value
        if isinstance(v, dt.date):
            lit = _date_lit(v)
        elif isinstance(v, bool):
            lit = "TRUE" if v else "FALSE"
        elif isinstance(v, float | int):
            lit = _num(v)
        else:
            lit = '"' + str(v).replace('"', '""') + '"'
        op = "<>" if self.op == "<>" else self.op
        return f"({self.column.ref}{op}{lit})"


def _date_lit(d: dt.date) -> str:
    return f"DATE({d.year},{d.month},{d.day})"


_MONTHS = MONTHS
_YEAR = re.compile(r"(?<![\d.,])((?:19|20)\d\d)(?![\d.,])")
#: A year as a bound: "before 1970", "after 2022", "since 2020".
_YEAR_BOUND = re.compile(
    r"\b(before|after|since|until|prior to|earlier than|later than)\s+(?:the year\s+)?"
    r"((?:19|20)\d\d)(?![\d.,])"
)
#: The comparison each bound sets, and the year it starts from (after 2022: from 2023 on).
_BOUND_OPS = {
    "before": ("<", 0),
    "prior to": ("<", 0),
    "earlier than": ("<", 0),
    "until": ("<", 1),
    "after": (">=", 1),
    "later than": (">=", 1),
    "since": (">=", 0),
}
_QUARTER = re.compile(r"\bq([1-4])\b")
_MONTH = re.compile(r"\b(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b")


def _period(low: str) -> tuple[str, tuple[int, int] | None, tuple[int, ...]]:
    """The calendar period a request names: (label, (first month, last month) or None, years)."""
    years = tuple(int(y) for y in _YEAR.findall(low))
    q = _QUARTER.search(low)
    m = _MONTH.search(low.replace("may i", "").replace("march on", ""))
    if q:
        first = 3 * (int(q.group(1)) - 1) + 1
        return f"Q{q.group(1)}", (first, first + 2), years
    if m:
        month = _MONTHS[m.group(1)]
        return m.group(1).capitalize(), (month, month), years
    return (str(years[0]) if years else ""), None, years


def _num(v: float | int) -> str:
    x = float(v)
    return str(int(x)) if x.is_integer() else repr(x)


@dataclass
class Answer:
    """A generated formula with its value and evidence, or an honest abstention."""

    request: str
    formula: str | None
    value: Any = None
    evaluation: Evaluation | None = None
    explanation: str | None = None
    evidence: tuple[str, ...] = ()
    confidence: float = 0.0
    reason: str | None = None
    shape: str | None = None
    closest_columns: tuple[str, ...] = field(default_factory=tuple)
    display: str | None = None  # the value as Excel would show it, when that differs (dates)
    #: Share of the query pipeline's candidates that agree with this answer (None: no vote was held).
    agreement: float | None = None
    #: The query pipeline's winning query the formula was translated from (or, with no formula, kept).
    query: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "request": self.request,
            "formula": self.formula,
            "value": self.value,
            "display": self.display,
            "explanation": self.explanation,
            "evidence": list(self.evidence),
            "confidence": self.confidence,
            "reason": self.reason,
            "shape": self.shape,
            "closest_columns": list(self.closest_columns),
            "agreement": self.agreement,
        }


#: Words that end a noun phrase ("the highest order totals of 2024": the phrase is "order totals").
_PHRASE_ENDS = frozenset("of in for among by with that who which where per across from on at to".split())


class _Request:
    def __init__(self, text: str, table: Table) -> None:
        self.text = text
        self.low = " " + comparisons_spelt(text.lower().replace("’", "'")) + " "
        words = _words(comparisons_spelt(text))
        if words and words[0] in ("name", "list", "give", "show"):  # "Name the top 5 ..." is a verb
            words = words[1:]
        self.words = words
        self.stems = [_stem(w) for w in self.words]
        #: stems of the words that could name something (stop words dropped before stemming)
        self.content_stems = [_stem(w) for w in self.words if w not in _STOP]
        self.table = table
        self.n = self._top_n()
        self.negated = bool(_NEGATION.search(self.low.replace("'", " ")))
        #: calendar periods the conditions turned into date ranges (the gate checks none is left out)
        self.applied: set[str] = set()
        #: comparisons no column could take ("more than $100,000" where no column spans it)
        self.unapplied: set[str] = set()
        #: "Who ..." asks for the row's name when no column is named for the answer
        self.asks_who = bool(re.match(r"^\s*(who|whom|whose)\b", self.low))
        self._meant: dict[str, set[str]] | None = None
        self._ranked: tuple[Column, str] | None = None
        self._ranked_looked = False

    @property
    def meant(self) -> dict[str, set[str]]:
        """Synonyms by meaning: {column name: request words that mean it} for words that name no
        header by their letters ('gender' -> Sex), from MiniLM (:func:`gridsight.text.meaning_map`);
        words that are cell values name a value, not a column, and are left out."""
        if self._meant is None:
            asked = [w for w in self.words if w not in self._values]
            cols = self.table.columns
            self._meant = {}
            for w, i in meaning_map(asked, [c.name for c in cols], title=self.table.sheet.name).items():
                self._meant.setdefault(cols[i].name, set()).add(w)
        return self._meant

    @cached_property
    def adjective(self) -> str | None:
        """The superlative adjective to place by meaning: 'cheapest', 'most expensive' (see
        :func:`gridsight.text.adjective_phrase`)."""
        heads = {h for c in self.table.columns for h in c.words}
        return adjective_phrase(
            self.words, lambda w: w in self._values or any(same(_stem(w), h) for h in heads)
        )

    def ranked_by(self) -> tuple[Column, str] | None:
        """The number or date column the superlative adjective ranks by and its order ('desc' /
        'asc'), by meaning (:func:`gridsight.text.ranked_by`: "the cheapest" -> Price, asc). Ranking
        columns are left out (every superlative is near "highest rank"); on a date column the order
        is time's (the oldest date is the earliest)."""
        if self._ranked_looked:
            return self._ranked
        self._ranked_looked = True
        word = self.adjective
        cols = self.table.columns
        found = ranked_column(word, [(c.kind, c.name) for c in cols]) if word is not None else None
        if found is not None:
            self._ranked = (cols[found[0]], found[1])
        return self._ranked

    def ranking_key(self, numeric: list[Column]) -> Column | None:
        """The number or date column a superlative ranks by: named after it, meant by its adjective,
        else the column the request names best, an id only where the request says "id" ("the
        highest rated wine" ranks no ``wine_id``)."""
        found = self.after_superlative(numeric) or self.adjective_key(numeric)
        if found is not None:
            return found
        asks_id = bool(set(self.words) & _ID_WORDS)
        found = next((c for c in numeric if asks_id or not c.words & _ID_WORDS), None)
        return None if found is None or self.ranked_unnamed(found) else found

    def ranked_unnamed(self, col: Column) -> bool:
        """Whether a superlative ranks by a participle ``col`` is not named by ("the highest rated
        wine" over ``price``): the rows are ranked by a measure no header here names."""
        said = RANKED_BY_PARTICIPLE.search(self.low)
        return said is not None and not any(_mentioned(h, {_stem(said.group(1))}) for h in col.words)

    def _adjective_direction(self, word: str) -> str:
        ranked = self.ranked_by()
        if ranked is not None:
            return ranked[1]
        if all(c.kind == "date" for c in self.table.columns if c.kind in ("number", "date")):
            return time_direction(word) or direction_of(word) or "desc"
        return direction_of(word) or "desc"

    def _top_n(self) -> int | None:
        """N of "top N", "the N most ...", "the N cheapest", "the highest N", "which 3 departments
        ... the most", "the top three" (:func:`gridsight.text.count_asked`, shared with the planner)."""
        ranks = {"top", "bottom", "first", "last", "least", "most"}
        low = self._without_numbered_values
        tokens = re.findall(r"[a-z]+|\d+(?:\.\d+)?[a-z]*", low)  # "2nd" is no count
        for i, t in enumerate(tokens):
            near = [tokens[j] for j in (i - 1, i + 1) if 0 <= j < len(tokens)]
            if i >= 2 and tokens[i - 2] == "at" and tokens[i - 1] in ("least", "most"):
                continue  # "at least 4 times": a comparison
            if (t in self._header_years and len(t) == 4) or re.fullmatch(r"(?:1[89]|20)\d\d", t):
                # "the largest 2008 population": a year of a header (``Pop. 2008``); "in 1995, lowest
                # first": a year, no count
                continue
            if t.isdigit() and any(w in ranks or superlative(w) for w in near):
                return int(t)
        return count_asked(low)

    @cached_property
    def _without_numbered_values(self) -> str:
        """The request with the text values it names that hold a number left out ("737 MAX 8": a
        name, no count of the top 8)."""
        low = self.low
        named = sorted(
            {
                v.lower()
                for col in self.table.columns
                if col.kind == "text"
                for v in col.distinct
                if len(v) > 2 and any(ch.isdigit() for ch in v) and v.lower() in self.low
            },
            key=len,
            reverse=True,
        )
        for v in named:
            low = low.replace(v, " ")
        return low

    def unmatched(self) -> set[str]:
        """Content words that name no column, value or known operation (signs of a question
        about something the table does not hold)."""
        known: set[str] = set()
        for col in self.table.columns:
            known |= col.words
            for v in col.distinct:
                known |= {_stem(w) for w in _words(v)}
        known |= {_stem(w) for ws in self.meant.values() for w in ws}
        vocab = (
            _STOP
            | _DESC
            | _ASC
            | set(_AGG)
            | {
                "unique",
                "distinct",
                "different",
                "there",
                "present",
                "total",
                "rows",
                "row",
                "entries",
                "items",
                "times",
            }
        )
        return {
            s
            for w, s in zip(self.words, self.stems, strict=True)
            if w not in vocab
            and s not in known
            and s not in vocab
            and not superlative(w)
            and not s.isdigit()
            and len(s) > 2
        }

    def direction(self) -> str | None:
        """'desc' for highest/most..., 'asc' for lowest/least..., by first mention; a superlative
        adjective ("cheapest") goes the way its meaning says -- and wins over a bare top/bottom ("the
        top 4 regions where the cheapest items sell" lists the cheapest first)."""
        adjective = self.adjective
        if (
            adjective is not None
            and any(w in ("top", "bottom", "first", "last") for w in self.words)
            and (" " not in adjective or self.ranked_by() is not None)
        ):
            return self._adjective_direction(adjective)
        ordinal = {word for word, _cond in self.ordinals}
        for i, w in enumerate(self.words):
            if w in ("more", "less", "fewer") and "than" in self.words[i + 1 : i + 7]:
                continue  # ("made more at the box office than their budget": a comparison, no end)
            if w in ordinal:
                continue  # "first class passengers": a value, no end
            if w in ("least", "most") and self.words[i - 1 : i] == ["at"]:
                continue  # "at least 4": a comparison
            if w in _DESC:
                return "desc"
            if w in _ASC:
                return "asc"
            if superlative(w):
                return self._adjective_direction(w)
        return None

    def after_superlative(self, cols: list[Column], triggers: tuple[str, ...] = ()) -> Column | None:
        """The column named within three words after 'highest', 'most', 'lowest'... (or after one
        of ``triggers``, e.g. 'common'): the key."""
        ordinal = {word for word, _cond in self.ordinals}
        for i, w in enumerate(self.words):
            if w in ordinal:
                continue
            if (w in triggers) if triggers else (w in _DESC or w in _ASC or superlative(w)):
                following = self.words[i + 1 : i + 4]
                # (a year anywhere names its columns: "the highest totals from 2019": ``saves19``)
                window = {_stem(x) for x in following} | self._header_years
                # "the highest number of records (n)": the column named in brackets after the phrase
                aside = re.search(rf"\b{re.escape(w)}\s+(?:[^\W_]+\s+){{0,3}}\(([^)]{{1,30}})\)", self.low)
                if aside:
                    window |= {_stem(x) for x in _words(aside.group(1))}
                # by the header's letters (whole or shortened: "maximum temperatures" names
                # ``temp_max``) before by meaning ("daily" means a date)
                named = [
                    c
                    for c in cols
                    if c.words and all(_mentioned(h, window) or shortened(h, window) for h in c.words)
                ]
                named.sort(key=lambda c: -len(c.words))  # every word of a longer header: the narrower
                hits = named + [c for c in cols if self.meant.get(c.name, set()) & set(following)]
                if hits:
                    return hits[0]
                # "the 5 highest order totals" with ``total_eur``: every header word named but a
                # short code (a unit, "ts", "id"), the noun phrase's head (its last word) first
                phrase = list(itertools.takewhile(lambda x: x not in _PHRASE_ENDS, following))
                near = [
                    c
                    for c in cols
                    if len(c.words) > 1
                    and not c.words & _ID_WORDS  # (an id ranks nothing: "highest rated recipe")
                    and sum(not _mentioned(h, window) for h in c.words) == 1
                    and all(_mentioned(h, window) or len(h) <= 3 for h in c.words)
                ]
                if near and phrase:
                    head = {_stem(phrase[-1])}
                    near.sort(key=lambda c: not any(_mentioned(h, head) for h in c.words))
                    return near[0]
        return None

    def score(self, col: Column) -> float:
        """How strongly the request mentions a column by its header words."""
        stems = set(self.content_stems)
        head = col.words
        if not head:
            return 0.0
        hit: float = sum(1 for h in head if _mentioned(h, stems))
        hit += SHORTENED * sum(shortened(h, stems) for h in head if not _mentioned(h, stems))
        if not hit and col.name in self.meant:  # a synonym by meaning names the column
            hit = 1
        s = hit / len(head) + 0.5 * hit
        if hit and head & _ID_WORDS:  # "clients": client_name before client_id
            s -= 0.25
        ranked = self.ranked_by() if self.adjective is not None else None
        if ranked is not None and ranked[0] is col:  # "the cheapest": the column it ranks by
            s += 1.0
        name = col.name.lower()
        if len(name) > 3 and name in self.low and not self._named_narrower(col):
            s += 1.0
        return s

    @cached_property
    def _header_years(self) -> set[str]:
        """Numbers of the request that are header words (the years of ``goals19``, ``Pop. 2008``)."""
        heads = {w for c in self.table.columns for w in c.words if w.isdigit()}
        return {w for w in self.words if w in heads}

    def _named_narrower(self, col: Column) -> bool:
        """Another column's header holds every word of ``col``'s and more, and the request names all
        of them: "goals in 2019" is ``goals19``, though it writes ``goals`` as it is."""
        stems = set(self.content_stems)
        return any(
            d is not col
            and col.words < d.words
            and all(_mentioned(h, stems) or shortened(h, stems) for h in d.words)  # ("featured": ``feat``)
            for d in self.table.columns
        )

    def naming(self, col: Column) -> set[str]:
        """The request's word stems that name a column by its header words (whole or shortened)."""
        return {
            s for s in self.content_stems if any(_mentioned(h, {s}) or shortened(h, [s]) for h in col.words)
        }

    def names_whole(self, col: Column) -> bool:
        """Whether the request names every word of a column's header (whole or shortened)."""
        stems = self.content_stems
        return all(any(_mentioned(h, {s}) or shortened(h, [s]) for s in stems) for h in col.words)

    def ranked(self, kinds: tuple[str, ...] | None = None, exclude: tuple[Column, ...] = ()) -> list[Column]:
        """Columns the request names, best first; a tie at the top goes to the column whose header
        is clearly closest in meaning to the request's words, else to the leftmost."""
        cols = [c for c in self.table.columns if (kinds is None or c.kind in kinds) and c not in exclude]
        scored = sorted(((self.score(c), -c.col, c) for c in cols), key=lambda t: (t[0], t[1]), reverse=True)
        out = [c for s, _, c in scored if s > 0]
        tied = [c for s, _, c in scored if s > 0 and s == scored[0][0]]
        if len(tied) > 1 and self.phrase:
            i = closest(self.phrase, [header_text(c.name) for c in tied], margin=0.05)
            if i:
                out.remove(tied[i])
                out.insert(0, tied[i])
        return out

    @cached_property
    def _values(self) -> set[str]:
        """Words of the table's category values (they name a value, not a column)."""
        return {w for c in self.table.columns for v in c.distinct for w in _words(v)}

    @cached_property
    def phrase(self) -> str:
        """The request's words that could name a column (no filler, no cell values), for the embedder."""
        kept = [w for w in self.words if w not in FILLER and w not in self._values and not w.isdigit()]
        return " ".join(kept)

    @cached_property
    def _proper_unwritten(self) -> list[str]:
        """The request's proper words that are no whole value of the table: one word names one value,
        so "Finance journals" is the field ``Finance``, not also the publisher ``Am. Finance Assn``
        that MiniLM places near it."""
        whole = {v.strip().casefold() for c in self.table.columns for v in c.distinct}
        return [w for w in proper_words(self.text) if w not in whole]

    @cached_property
    def _free_words(self) -> list[str]:
        """The request's words that name no header and no value by their letters (they may name a
        category shortened or by meaning: :func:`gridsight.text.category_named`); a word that names a
        number column by meaning names a measure, not a value by its start ("the total rainfall" is
        ``precipitation_mm``, no ``Rain``)."""
        measures = {w for c in self.table.columns if c.kind == "number" for w in self.meant.get(c.name, ())}
        free = free_words(self.words, (h for c in self.table.columns for h in c.words), self._values)
        return [w for w in free if w not in measures]

    def _one_holder(self, conds: list[Condition]) -> list[Condition]:
        """One value named once is one condition: where several columns hold it (a team in
        ``club19`` and in ``club20``), the column the request names most, when one stands out."""
        out: list[Condition] = []
        for cond in conds:
            key = str(cond.value).casefold()
            same_value = [c for c in conds if str(c.value).casefold() == key]
            if len(same_value) > 1:
                near = set(value_window(self.words, _words(key)))
                by = {
                    id(c): (len(self.naming(c.column) & {_stem(w) for w in near}), self.score(c.column))
                    for c in same_value
                }
                top = max(by.values())
                if sum(v == top for v in by.values()) == 1 and by[id(cond)] < top:
                    continue
            out.append(cond)
        return out

    def conditions(self, exclude: tuple[Column, ...] = ()) -> list[Condition]:
        conds: list[Condition] = []
        used: set[int] = {c.col for c in exclude}
        col: Column | None  # each rule below picks its column; one found near a number may be none
        # quoted values bind to the column that holds them, however short: "grade 'B'"
        for quoted in _QUOTED.findall(self.text):
            value = (quoted[0] or quoted[1]).strip().casefold()
            holders = [
                c
                for c in self.table.columns
                if c.col not in used and c.kind == "text" and any(v.casefold() == value for v in c.distinct)
            ]
            if holders:
                col = max(holders, key=self.score)
                exact = next(v for v in col.distinct if v.casefold() == value)
                conds.append(Condition(col, "=", exact))
                used.add(col.col)
        # quoted or known category values: "in the 'Retail' segment", "orders from Lisbon"
        for col in self.table.columns:
            if col.col in used or col.kind != "text" or not col.distinct:
                continue
            best = None
            for val in col.distinct:
                v = val.strip().lower()
                if named_after_header(v, col.words, self.low):  # "in discipline B", "grade A"
                    best = val
                    continue
                if len(v) < 2 or v in _STOP or self._operator_use(v):
                    continue
                if self._asks_column_named(v, col, exclude):
                    continue  # "which depot ...": the column asked for (``Depot``), no value
                found = bool(re.search(r"(?<![a-z0-9])" + re.escape(v) + r"(?![a-z0-9])", self.low))
                if not found and names_month(v, self.low):  # "in February": ``Feb 2024``
                    found = True
                    self.applied.add(_period(self.low)[0])
                if found and (best is None or len(v) > len(best.strip())):
                    best = val
            if best is None:  # a place by its adjective: "Canadian companies" -> ``Canada``
                places = [
                    v for v in col.distinct if v.isalpha() and any(derived(v.lower(), w) for w in self.words)
                ]
                best = places[0] if len(places) == 1 else None
            if best is None:  # "Swiss companies" -> ``Switzerland``
                best = place_meant(self._proper_unwritten, col.distinct)
            if best is None:  # "associate professors" -> ``AssocProf``, "women" -> ``Female``
                best = category_named(self._free_words, col.distinct)
            if best is None and col.distinct and all(len(v.strip()) <= 2 for v in col.distinct):
                # (a word another column holds as a value names that value: "female students" with
                # ``gender`` = female is no grade ``F``)
                held = {_stem(w) for c in conds for w in _words(str(c.value))}
                codes = {_CODES[w] for w in self.stems if w in _CODES and w not in held}
                matches = [v for v in col.distinct if v.strip().lower() in codes]
                if len(matches) == 1:
                    best = matches[0]
            routed = self._route_value(col)
            if routed is not None:
                best = routed
            if best is not None:
                at = self.low.find(best.strip().lower())
                if TAKES_BOTH.search(self.low.strip()) and len(either_of(self.low, list(col.distinct))) == 2:
                    self.unapplied.add("either")  # ("in Austin or Denver": no single value; the query tier's)
                listed, spanned = listed_values(self.low, list(col.distinct))
                in_order = not spanned or in_own_order(list(col.distinct)) is not None  # (no "JFK to LAX")
                if best in listed and in_order:  # (a choice lists nothing: listed_values)
                    self.unapplied.add("several")  # ("from October to December": the query tier's)
                conds.append(Condition(col, "<>" if excluded_at(self.low, at) else "=", best))
                used.add(col.col)
        conds = self._one_holder(conds)
        # a capital letter written alone ("films rated R", "a grade of B"): the one column of short
        # codes that holds it (a sentence's first word, "I" and the article "A" are no codes)
        for m in letters_alone(self.text):
            letter = m.group(1)
            holders = [
                c
                for c in self.table.columns
                if c.kind == "text"
                and c.col not in used
                and letter in c.distinct
                and all(code_like(v) for v in c.distinct)
            ]
            if len(holders) == 1:
                conds.append(Condition(holders[0], "=", letter))
                used.add(holders[0].col)
        # yes/no columns named in the request: "the refunded orders", "not in stock"
        for col in self.table.columns:
            if col.col in used or col.kind != "bool":
                continue
            head = {w for w in col.words if len(w) >= 2 and not any(ch.isdigit() for ch in w)}
            named = {
                h
                for h in head
                if h in self.stems
                or any(s.startswith(h[:5]) for s in self.stems if len(s) >= 5 and len(h) >= 4)
            }
            # every word of the header must be named (codes like "30d" aside): one word of a long
            # question-like header ("Did you renew your plan? (Online)") does not name it, nor
            # "trips" ``roundTrip`` or "admissions" ``ER admission``
            if head and named == head:
                window = self._around(col)
                # (a negation the header writes itself names it: "no-show appointments" is ``No-Show``)
                negated = any(m.group(1) not in head for m in _NEGATION.finditer(window))
                conds.append(Condition(col, "=", not negated))
                used.add(col.col)
        # a year as a bound: "born before 1970" (a column of years the request names, else the
        # date column), "listed after 2022", "since 2020"
        bound = _YEAR_BOUND.search(self.low)
        if bound is not None:
            cond = self._year_bound(bound, used)
            if cond is not None:
                conds.append(cond)
                used.add(cond.column.col)
                self.applied.add(bound.group(2))
        # calendar periods on a date column: "in 2024", "in Q1 2024", "in March" (one year of data)
        dated = [c for c in self.table.columns if c.kind == "date" and c.col not in used]
        label, months, years = self.period
        # (a year that a value already matched writes names no date range: "the 2020/21 season" is
        # the ``Season`` value, not also the dates of 2020)
        valued_years = {int(y) for cond in conds for y in _YEAR.findall(str(cond.value).lower())}
        if not months and years and set(years) <= valued_years:
            years = ()
        if dated and (months or years):
            col = max(dated, key=self.score)
            span = _date_span(self.table.sheet, col, months, years)
            if span is not None:
                conds += [Condition(col, ">=", span[0]), Condition(col, "<", span[1])]
                used.add(col.col)
                self.applied.add(label)
        # "in the top 5 ranks": rank 1 is the best, so the top N are ranks 1..N
        top_ranks = re.search(r"\bin the (top|bottom) (\d+) (ranks?|positions?|places?)\b", self.low)
        if top_ranks:
            ranked = [
                c
                for c in self.table.columns
                if c.kind == "number" and c.col not in used and is_ranking(c.name)
            ]
            if ranked:
                op = "<=" if top_ranks.group(1) == "top" else ">"
                conds.append(Condition(ranked[0], op, float(top_ranks.group(2))))
                used.add(ranked[0].col)
        # absence of a counted thing: "without any returns", "with no complaints"
        for m in re.finditer(r"\b(?:without(?: any)?|no)\s+((?:[a-z]+\s*){1,4})", self.low):
            after = {_stem(w) for w in _words(m.group(1)) if w not in _STOP}
            zero = [
                c
                for c in self.table.columns
                if c.col not in used
                and c.kind == "number"
                and any(same(h, a) for h in c.words for a in after)
            ]
            if zero:
                col = max(zero, key=self.score)
                conds.append(Condition(col, "=", 0))
                used.add(col.col)
        for m in AGE_SAID.finditer(self.low):  # "17 years old": the one column of ages, at that age
            age_at = age_column([(c.kind, c.name) for c in self.table.columns])
            aged = None if age_at is None else self.table.columns[age_at]
            if (
                aged is not None
                and aged.col not in used
                and not COMPARED_BEFORE.search(self.low[: m.start()])
            ):
                conds.append(Condition(aged, "=", float(m.group(1))))
                used.add(aged.col)
        for _word, cond in self.ordinals:
            if cond.column.col not in used:
                conds.append(cond)
                used.add(cond.column.col)
        # numeric comparisons: "a rating above 3", "a price of more than $500"
        taken: set[int] = set()  # "below a weight of 18" is one comparison, not "< 18" and "= 18"
        for cond in conds:  # ("737-800 airplanes": the number is the name's, no comparison)
            written = str(cond.value).strip().lower()
            at = self.low.find(written) if isinstance(cond.value, str) else -1
            if at >= 0:
                taken |= {at + d.start() for d in re.finditer(r"\d", written)}
        for m in re.finditer(r"\bbetween\s+\$?(-?[\d.,]*\d)\s+and\s+\$?(-?[\d.,]*\d)", self.low):
            col = self._column_near(m.start(1), used)
            if col is None:
                continue
            try:
                low, high = sorted(float(g.replace(",", "")) for g in m.groups())
            except ValueError:
                continue
            conds += [Condition(col, ">=", low), Condition(col, "<=", high)]
            used.add(col.col)
            taken |= {m.start(1), m.start(2)}
        for pattern, op in _COMPARE:
            for m in pattern.finditer(self.low):
                if m.start(1) in taken:
                    continue
                taken.add(m.start(1))
                try:
                    value = float(m.group(1).replace(",", ""))
                except ValueError:
                    continue
                col = self._column_near(m.start(1), used) or self._holding(value, used)
                if col is not None:
                    conds.append(Condition(col, op, value))
                    used.add(col.col)
                else:
                    self.unapplied.add(m.group(0).strip())
        return conds

    @cached_property
    def ordinals(self) -> list[tuple[str, Condition]]:
        """ "the third generation", "first class passengers": the ordinal word and its condition on
        the number column of a few whole values the noun after it names."""
        out = []
        for m, number in ordinals_named(self.low):
            noun = _stem(m.group(2))
            for col in self.table.columns:
                if (
                    col.kind != "number"
                    or isinstance(col, Derived)
                    or not any(same(noun, h) for h in col.words)
                ):
                    continue
                nums = {
                    v
                    for row in self.table.sheet.values(col.data)
                    for v in row
                    if isinstance(v, int | float) and not isinstance(v, bool)
                }
                if (
                    number in nums
                    and len(nums) <= ORDINAL_VALUES_MAX
                    and all(float(v).is_integer() for v in nums)
                ):
                    out.append((m.group(1).casefold(), Condition(col, "=", float(number))))
                    break
        return out

    @cached_property
    def period(self) -> tuple[str, tuple[int, int] | None, tuple[int, ...]]:
        """The calendar period the request names (see :func:`_period`), without the years a
        comparison or a bound reads ("a build year above 1990", "born before 1970")."""
        label, months, years = _period(self.low)
        compared = {
            m.group(1).replace(",", "") for pattern, _op in _COMPARE for m in pattern.finditer(self.low)
        }
        compared |= {m.group(2) for m in _YEAR_BOUND.finditer(self.low)}
        kept = tuple(y for y in years if str(y) not in compared)
        if not kept and not months:
            return "", None, ()
        return (str(kept[0]) if label in compared else label), months, kept

    def _route_value(self, col: Column) -> str | None:
        """ "from JFK to LAX" where two columns hold both values: the first column (``ORIGIN``) is
        where rows come from, the next (``DEST``) where they go; None for any other request."""
        m = re.search(
            r"\bfrom\s+(?:the\s+)?(.+?)\s+to\s+(?:the\s+)?(.+?)(?:[?.,!]|\s+(?:in|on|at|during|with|for|and)\b|\s*$)",
            self.low,
        )
        if m is None:
            return None
        ends = [m.group(1).strip(), m.group(2).strip()]
        lowered = {v.strip().lower(): v for v in col.distinct}
        if not all(e in lowered for e in ends):
            return None
        pair = [
            c
            for c in self.table.columns
            if c.kind == "text" and all(e in {v.strip().lower() for v in c.distinct} for e in ends)
        ]
        if len(pair) != 2 or col not in pair:
            return None
        return lowered[ends[0] if col is min(pair, key=lambda c: c.col) else ends[1]]

    def _asks_column_named(self, value: str, holder: Column, exclude: tuple[Column, ...]) -> bool:
        """A value that is another column's whole header, where that column is the one asked for
        (``exclude``) or the request asks "which <value>" ("which depot has the most vans" where
        ``delay_reason`` holds ``Depot``): the column is meant, not the value."""
        said = {_stem(w) for w in _words(value)}
        named = [c for c in self.table.columns if c is not holder and c.words and said == set(c.words)]
        if any(c in exclude for c in named):
            return True
        return (
            bool(named)
            and re.search(rf"\b(?:which|what|each|every|per|by)\s+{re.escape(value)}\b", self.low) is not None
        )

    def _year_bound(self, bound: re.Match[str], used: set[int]) -> Condition | None:
        """The condition a year bound sets: on a number column of years the request names ("born
        before 1970": ``birth_year``), else on the date column it names best."""
        year, word = int(bound.group(2)), bound.group(1)
        yearly = [
            c
            for c in self.table.columns
            if c.kind == "number" and c.col not in used and timelike(c.kind, c.name) and self.score(c) > 0
        ]
        op, shift = _BOUND_OPS[word]
        if yearly:
            return Condition(max(yearly, key=self.score), op, float(year + shift))
        dated = [c for c in self.table.columns if c.kind == "date" and c.col not in used]
        years = [  # (headed just "Year": the rows' own; a ``birth_year`` is a person's)
            c
            for c in self.table.columns
            if c.kind == "number" and c.col not in used and c.words and c.words <= YEAR_WORDS
        ]
        if len(years) == 1 and not any(self.score(c) > 0 for c in dated):
            # "bikes made before 2015" where the request names no date column (when a bike was
            # listed): the one number column of years
            return Condition(years[0], op, float(year + shift))
        if not dated:
            return None
        return Condition(max(dated, key=self.score), op, dt.date(year + shift, 1, 1))

    def _holding(self, value: float, used: set[int]) -> Column | None:
        """The one number column whose values span ``value``, for a comparison in a request that
        names no number column ("make more than $100,000": the salaries; "is the average age above
        60" compares the average); None when none or several do."""
        if self.ranked(("number",)):
            return None
        spans = []
        for col in self.table.columns:
            if col.col in used or col.kind != "number" or isinstance(col, Derived):
                continue
            nums = [
                v
                for row in self.table.sheet.values(col.data)
                for v in row
                if isinstance(v, int | float) and not isinstance(v, bool)
            ]
            if nums and min(nums) <= value <= max(nums) and set(nums) - {0, 1}:
                spans.append(col)
        return spans[0] if len(spans) == 1 else None

    def _operator_use(self, value: str) -> bool:
        """A category value that is also an operation word ("Average") is the operation when a
        numeric column's name follows it: "the average gross salary" filters nothing."""
        if value not in _AGG and value not in _DESC and value not in _ASC:
            return False
        numeric_words = {w for c in self.table.columns if c.kind == "number" for w in c.words}
        for i, w in enumerate(self.words[:-1]):
            if w == value and any(same(_stem(self.words[i + 1]), h) for h in numeric_words):
                return True
        return False

    def adjective_key(self, cols: list[Column]) -> Column | None:
        """The column a superlative adjective ranks by, when it is one of ``cols``, by meaning:
        "the cheapest" -> Price (see :meth:`ranked_by`)."""
        ranked = self.ranked_by()
        return ranked[0] if ranked is not None and ranked[0] in cols else None

    def _around(self, col: Column) -> str:
        for w in sorted(col.words, key=len, reverse=True):
            i = self.low.find(w[:5])
            if i >= 0:
                return self.low[max(0, i - 25) : i + len(w) + 5].replace("'", " ")
        return self.low

    def _column_near(self, pos: int, used: set[int]) -> Column | None:
        before = _words(self.low[:pos])[-6:]
        after = _words(self.low[pos:])[:6]
        best, best_s = None, 0.0
        for col in self.table.columns:
            if col.col in used or col.kind != "number":
                continue
            head = col.words
            if head & _ID_WORDS and not head & _ID_WORDS & {_stem(w) for w in before + after}:
                continue  # an identifier is compared only where named ("vans listed": no ``listing_no``)
            hits = [i for i, w in enumerate(before) if any(same(h, _stem(w)) for h in head)]
            s = len({h for h in head if any(same(h, _stem(w)) for w in before)}) * 2
            # (shortened: "a maximum temperature above 25" is ``tmax_c``)
            s += 2 * len(
                {h for h in head if not any(same(h, _stem(w)) for w in before) and shortened(h, before)}
            )
            s += len({h for h in head if any(same(h, _stem(w)) for w in after)})
            if hits and hits[-1] >= len(before) - 3:
                s += 1  # "a loan renewed at least 4 times": the word nearest the comparison
            if self.meant.get(col.name, set()) & set(before[-3:]):
                s += 2  # "older than 30", "aged 30": a word just before that means the column
            if len(after) > 1 and head & {_stem(after[1])}:
                s += 3  # "more than 100 volume", "over 3 children": the noun the number counts
            if s > best_s:
                best, best_s = col, s
        return best


#: "What are the prices of the 5 ...", "Give me the names of the top 3 ...": the head before "of the N".
_HEAD_OF_TOP = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:are|were|is|was)|(?:give|list|show|tell)(?:\s+me)?)\s+the\s+"
    r"([^\W\d][\w\s-]{0,40}?)\s+of\s+the\s+(?:top\s+|bottom\s+|first\s+|last\s+)?\d+\b"
)
#: "How many computers do the 3 biggest districts have?": a figure of each ranked row ("how many of
#: the 5 ..." counts them; "... in total" adds them up).
_HOW_MANY_OF_TOP = re.compile(
    HOW_MANY_EACH.pattern + r"([^\W\d][\w\s-]{0,40}?)\s+(?:do|does|did|are|were|is|was|have|has|had)\b"
    r".*?\b(?:the|top)\s+(?:top\s+)?\d+\b",
    re.IGNORECASE,
)


def _lists_things(low: str, table: Table, key: Column) -> bool:
    """Whether the request lists N things by a noun that is no value noun and does not name the
    column ranked ("which are the bottom 4 professions ...", not "which are the top 3 score values"
    nor "which are the top 4 fares paid by ...")."""
    m = LISTED_ENTITIES.match(low)
    if m is None:
        return False
    noun = noun_of(m.group(1))
    return (
        noun not in VALUE_NOUNS
        and _Request(noun, table).ranked()[:1] != [key]
        and not _names_key(m, table, key)
    )


def _names_key(listed: re.Match[str], table: Table, key: Column) -> bool:
    """The listed phrase names the ranked column itself, as well as any other ("list the 4 highest
    arrival delays": ``arr_delay``, not ``delay_reason``): the request lists its values."""
    noun = _Request(noun_of(listed.group(1)), table)  # (its head: "the 3 most reviewed recipes")
    if noun.naming(key):
        return True
    if any(noun.naming(c) for c in table.columns):
        return False  # (the recipes are listed, ranked by their reviews)
    phrase = _Request(listed.group(1), table)
    # (by the words that name it, not by the superlative's meaning: "the 2 northernmost airports"
    # ranks by ``Latitude`` and lists the airports)
    top = max((len(phrase.naming(c)) for c in table.columns if c is not key), default=0)
    return bool(phrase.naming(key)) and len(phrase.naming(key)) >= top


def _ids_only(cols: list[Column]) -> bool:
    """Whether ``cols`` are none, or ids only (``DishId``): nothing that names a row for a reader."""
    return all(c.words & _ID_WORDS for c in cols)


def _asks_entities(low: str, table: Table) -> bool:
    """Whether the request lists or asks for rows by a word that names no column ("the 3 most
    profitable companies", "which company has the highest profits"): the answer is the rows' names,
    not a measure."""
    m = LISTED_ENTITIES.match(low) or ENTITY_ASKED.match(low)
    if m is None:
        return False
    noun = noun_of(m.group(1))
    if noun in VALUE_NOUNS:
        return False
    # (a noun that names only the rows' names or ids asks for rows too: "the 3 highest rated
    # recipes" over ``Recipe Name`` and ``RecipeId``)
    names = _name_column(table)
    said = _Request(noun, table)
    # (nor does a word of a yes/no column's header: "apps" in ``hasInAppPurchases``)
    return all(
        c is names or c.words & _ID_WORDS or (c.kind == "bool" and not said.names_whole(c))
        for c in said.ranked()
    )


#: A header that says its column counts ("Number of Titles", ``num_owners``, ``No. of Children``).
_COUNTS_HEADER = re.compile(r"(?i)(?:^|[\W_])(?:number|num|no|count)(?:[\W_]|$)")
#: Header words that say a column counts, named or not ("No. of Titles", ``num_owners``).
_COUNT_WORDS = frozenset({"no", "num", "number", "nr", "of", "total", "count", "tot"})
#: Where a counted noun's conditions begin: "the most deliveries | with a route above 40 km".
_CONDITION_START = re.compile(r"\b(?:with|that|who|whose|which|where|when|having)\b")


def _listed_group(low: str, table: Table, key: Column, others: list[Column]) -> Column | None:
    """The category a top-N request lists, or None when it lists rows: a text column whose values
    repeat over the rows, named by the listed noun ("name the 3 counties with the most students"),
    or, where that noun names no column, the column the request shows when a few values cover the
    rows ("name the 3 clubs with the most goals scored at home": ``HomeTeam``). A sum of years or
    dates means nothing, so a time key lists rows."""
    m = LISTED_ENTITIES.match(low)
    if m is None or key.kind != "number" or timelike(key.kind, key.name):
        return None
    if _names_key(m, table, key):
        return None  # ("what are the 5 highest inspection scores": the scores themselves)
    named = _Request(m.group(1).split()[-1], table).ranked(("text",))
    if named:
        return named[0] if named[0] is not key and named[0].distinct and _repeats(named[0]) else None
    shown = others[0] if others else None
    if (
        shown is None
        or shown.kind != "text"
        or not shown.distinct
        or len(shown.distinct) * 4 > shown.data.height
    ):
        return None
    return shown


def _name_column(table: Table) -> Column | None:
    """The column that names the rows: a header saying so, else the first text column of
    (nearly) distinct values."""
    texts = [c for c in table.columns if c.kind == "text"]
    for c in texts:
        if c.words & LABEL_WORDS:
            return c
    for c in texts:
        if not c.distinct or len(c.distinct) >= 0.9 * c.data.height:
            return c
    return None


_BIN = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:-|to)\s*(\d+(?:\.\d+)?)(?![\w.])|(?<![\w.])(\d+(?:\.\d+)?)\+"
)


def _bins(low: str) -> list[tuple[str, float, float | None]]:
    """Ranges the request lists, in its order: "(0-18, 18-30, 50+)" -> [(label, low, high)]."""
    out: list[tuple[str, float, float | None]] = []
    for m in _BIN.finditer(low):
        if m.group(3):
            out.append((f"{m.group(3)}+", float(m.group(3)), None))
        else:
            lo, hi = float(m.group(1)), float(m.group(2))
            if hi <= lo:
                return []
            out.append((f"{m.group(1)}-{m.group(2)}", lo, hi))
    return out if len(out) >= 2 else []


def _bin_counts(col: Column, bins: list[tuple[str, float, float | None]], conds: list[Condition]) -> str:
    """VSTACK of the rows in each range (low inclusive, high exclusive; "N+" is N and above)."""
    more = "," + _ifs(conds) if conds else ""
    parts = []
    for _label, lo, hi in bins:
        upper = f',{col.ref},"<{_num(hi)}"' if hi is not None else ""
        parts.append(f'COUNTIFS({col.ref},">={_num(lo)}"{upper}{more})')
    return f"VSTACK({','.join(parts)})"


def _ifs(conds: list[Condition]) -> str:
    return ",".join(f"{r},{c}" for r, c in (cond.criteria() for cond in conds))


def _filtered(ref: str, conds: list[Condition]) -> str:
    if not conds:
        return ref
    mask = "*".join(c.mask() for c in conds)
    return f"FILTER({ref},{mask})"


def _date_span(
    sheet: Sheet, col: Column, months: tuple[int, int] | None, years: tuple[int, ...]
) -> tuple[dt.date, dt.date] | None:
    """[start, end) of the named period; a month without a year only when the column holds one year."""
    if years and len(set(years)) > 1:
        return None  # "from 2020 to 2023" is a range of years, not one period: leave it to the gate
    year = years[0] if years else None
    if year is None:
        found = {
            v.year
            for row in sheet.values(col.data.with_sheet(None))
            for v in row
            if isinstance(v, dt.date | dt.datetime)
        }
        if len(found) != 1:
            return None
        year = found.pop()
    if months is None:
        return dt.date(year, 1, 1), dt.date(year + 1, 1, 1)
    first, last = months
    end = dt.date(year + 1, 1, 1) if last == 12 else dt.date(year, last + 1, 1)
    return dt.date(year, first, 1), end


def _unapplied(q: _Request) -> str | None:
    """A period or quoted value the request names that no condition could apply: answering without
    it would answer a different question ("the total of North in Q1" is not the total of North)."""
    q.conditions()
    label, months, years = q.period
    if (months or years) and label not in q.applied:
        return label
    if q.unapplied:
        return sorted(q.unapplied)[0]
    for quoted in _QUOTED.findall(q.text):
        value = (quoted[0] or quoted[1]).strip()
        held = any(value.casefold() == v.casefold() for c in q.table.columns for v in c.distinct) or any(
            value.casefold() == c.name.casefold() for c in q.table.columns
        )
        if value and not held and not re.fullmatch(r"[\d\s,+\-()'.]+", value):
            return value
    return None


def _year_columns(q: _Request) -> tuple[Column, ...]:
    """The columns a year the request names is part of the header of, with other words ("goals in
    2019": ``goals19``, ``Sales 2019``), when every year named is such a header's; none otherwise
    (the year is a period of the rows, or a header of its own as in a table of years)."""
    _, months, years = _period(q.low)
    if months or not years:
        return ()
    named = tuple(c for c in q.table.columns if any(str(y) in c.words for y in years) and len(c.words) > 1)
    held = {w for c in named for w in c.words}
    return named if all(str(y) in held for y in years) else ()


def _row_labelled(table: Table, label: str) -> int | None:
    """The row whose label cell reads ``label`` as shown ('Jan 2024', 'East'); the label column is
    the first text or date column that has it. None when no single row matches."""
    from gridsight.grid import format_value

    want = label.strip().strip("'\"").casefold()
    if not want:
        return None
    for col in table.columns:
        if col.kind not in ("text", "date"):
            continue
        rows = [
            cell.row
            for cell in table.sheet.iter_cells(col.data.with_sheet(None))
            if format_value(cell).strip().casefold() == want
        ]
        if len(rows) == 1:
            return rows[0]
    return None


def _repeats(col: Column) -> bool:
    """Whether a column's values repeat (a category such as a supplier), judged on its cells."""
    sheet_vals = col.distinct
    if sheet_vals:
        return len(sheet_vals) < col.data.height
    return True  # more than 200 different values in a long column: names of people, posts...


def _uniq(col: Column) -> str:
    """The column's distinct values, without the blank when it has empty cells."""
    return f'UNIQUE(FILTER({col.ref},{col.ref}<>""))' if col.blanks else f"UNIQUE({col.ref})"


def _labels_rows(col: Column) -> bool:
    """A text column whose every cell is a different value (row labels)."""
    return col.data.height > 1 and not col.blanks and len(col.distinct) == col.data.height


def _count_each(col: Column, conds: list[Condition]) -> tuple[str, str]:
    """(the distinct values, how often each occurs) among the rows meeting ``conds``.

    Counted with COUNTIFS over the real ranges: Excel refuses an array (a FILTER result) as
    COUNTIF's range argument, even where an evaluator would accept it."""
    if not conds:
        uniq = _uniq(col)
        return uniq, f"COUNTIF({col.ref},{uniq})"
    mask = "*".join(c.mask() for c in conds) + (f'*({col.ref}<>"")' if col.blanks else "")
    uniq = f"UNIQUE(FILTER({col.ref},{mask}))"
    return uniq, f"COUNTIFS({col.ref},{uniq},{_ifs(conds)})"


def _mode_of(col: Column, conds: list[Condition]) -> str:
    uniq, counts = _count_each(col, conds)
    return f"INDEX({uniq},MATCH(MAX({counts}),{counts},0))"


def _rank_order(key: Column, order: int, low: str, adjective: str | None = None) -> int:
    """The SORT order for ``key``: on a ranking column "top 5 ranks" are ranks 1..5 and "the lowest
    rank" is the last place, so the words' order flips; on a date column a time adjective says it
    (the earliest / oldest first); other columns keep ``order``."""
    if timelike(key.kind, key.name) and adjective is not None and time_direction(adjective):
        return 1 if time_direction(adjective) == "asc" else -1
    if not is_ranking(key.name):
        return order
    if re.search(r"\b(top|best|first|highest|leading)\b", low):
        return 1
    if re.search(r"\b(bottom|worst|last|lowest)\b", low):
        return -1
    return order


def _rarest_of(col: Column, conds: list[Condition]) -> str:
    uniq, counts = _count_each(col, conds)
    return f"INDEX(SORTBY({uniq},{counts},1),1)"


def _plain_top(q: _Request) -> bool:
    """Whether a top N that names no number column asks for the most frequent values ("the top 5
    sources of wealth"): not when it ranks by a superlative adjective ("the 4 priciest journals")
    or by words after its superlative that name nothing in the table ("the highest average highway
    mpg": a measure the rules cannot find is no count)."""
    if q.adjective is not None:
        return False
    at = next((i for i, w in enumerate(q.words) if superlative(w) and w not in ("top", "bottom")), None)
    return at is None or not ({_stem(w) for w in q.words[at + 1 :]} & q.unmatched())


def candidates(request: str, table: Table) -> list[tuple[str, str]]:
    """(shape, formula) candidates for a request, best first."""
    q = _Request(request, table)
    out: list[tuple[str, str]] = []
    low = q.low
    # "in which year were the most bookings made": the rows counted per part of a date, which the
    # query tier groups; no shape here reads it
    part = date_part_asked(low)
    if (
        part is not None
        # (rows counted: "the most bookings"; "the most recent" is a date's end)
        and re.search(r"\b(?:most|fewest|least)\s+(?:[a-z]+\s+)?[a-z]+s\b", low)
        and any(c.kind == "date" for c in table.columns)
        and part_column(part, [c.name for c in table.columns]) is None
        and not [
            c for c in _Request(low.replace(part, " "), table).ranked(("number",)) if not c.words & _ID_WORDS
        ]
    ):
        return []
    numeric = q.ranked(("number", "date"))
    if re.search(r"\b(number of words|word counts?|words)\b", low):
        derived = _word_count_column(table)
        if derived is not None:
            numeric = [derived, *numeric]
    texty = q.ranked(("text", "bool", "number"))
    direction = q.direction()
    is_question = asks_yes_no(low)
    n = q.n
    col: Column | None  # each shape below picks its column; the text join may find none
    place = ordinal_place(low) if n is None else None  # "the second highest"
    nth = f",{place}" if place is not None else ""

    # distinct counts and uniqueness
    if (
        re.search(r"\bhow many (unique|distinct|different)\b|\bnumber of (unique|distinct|different)\b", low)
        and texty
    ):
        col = texty[0]
        out.append(("count-distinct", f'=ROWS(UNIQUE(FILTER({col.ref},{col.ref}<>"")))'))
    if re.search(r"\b(unique|distinct)\b", low) and is_question and texty:
        col = texty[0]
        out.append(("all-unique", f'=ROWS(UNIQUE(FILTER({col.ref},{col.ref}<>"")))=COUNTA({col.ref})'))

    # "how many X ..." -> count rows matching the conditions
    total_of = re.search(r"\btotal (?:number|count|amount) of\s+(\w+)", low)
    sums_column = bool(
        total_of and numeric and any(same(_stem(total_of.group(1)), h) for h in numeric[0].words)
    )
    many = re.search(r"\bhow many\s+(.*)", low)
    said = [_stem(w) for w in re.findall(r"[^\W_]+", many.group(1))] if many else []
    if said and not sums_column:  # "how many units of Beta were sold": a column counts the units
        rows_noun = {_stem(w) for w in TABLE_WORDS}
        sums_column = any(
            c.kind == "number"
            and c.words
            and any(same(h, said[0]) for h in c.words)
            and all(any(same(h, w) for w in said) for h in c.words)
            # "how many worth rows ...": the rows are counted, not the column summed
            and not rows_noun & set(said[len(c.words) : len(c.words) + 1])
            for c in numeric
        )
    # ranges the request lists: "which <measure> range is the most common: (0-10, 10-20, 20+)?"
    bins = _bins(low) if re.search(r"\b(range|group|band|bracket|bucket|bin)s?\b", low) else []
    if bins:
        lead = re.search(r"(\w+(?:\s+\w+)?)\s+(?:range|group|band|bracket|bucket|bin)s?\b", low)
        named = _Request(lead.group(1), table).ranked(("number",)) if lead else []
        if named:
            col = named[0]
            cleaned = _BIN.sub(" ", request)  # the range bounds are not conditions
            conds = _Request(cleaned, table).conditions(exclude=(col,))
            labels = "{" + ";".join('"' + label + '"' for label, _lo, _hi in bins) + "}"
            counts = _bin_counts(col, bins, conds)
            rare = (n is not None and direction == "asc") or (
                n is None and re.search(r"\b(least|fewest)\b", low)
            )
            if n is not None:
                out.append(("ranges-top-n", f"=TAKE(SORTBY({labels},{counts},{1 if rare else -1}),{n})"))
            elif rare:
                out.append(("ranges-least", f"=INDEX(SORTBY({labels},{counts},1),1)"))
            else:
                out.append(("ranges-most", f"=INDEX({labels},MATCH(MAX({counts}),{counts},0))"))
    # "do most of the rows meet <conditions>": more than half of them
    if is_question and re.search(r"\b(majority|more than half|most of the)\b", low):
        conds = q.conditions()
        if conds:
            out.append(("majority", f"=COUNTIFS({_ifs(conds)})>ROWS({table.columns[0].ref})/2"))
    # "which <category> has / placed the most / the highest number of <rows meeting conditions>": the
    # category counted most among those rows
    grouped = re.match(
        r"^\s*(?:which|what)\b(.*?)\b(?:has|have|had|with|is|are|\w+ed)\b.*?(?<!\bat )"
        r"\b(most|highest representation|"
        r"highest number of|"
        r"largest number of|greatest number of|fewest|least|lowest number of|smallest number of)\b(.*)$",
        low,
    )
    if not grouped:  # "which ward receives the most admissions": any verb in the present tense
        grouped = re.match(
            r"^\s*(?:which|what)\b(.*?)\b(?:\w+s)\b.*?(?<!\bat )\b(most|highest number of|largest number of|"
            r"greatest number of|fewest|least|lowest number of|smallest number of)\b(.*)$",
            low,
        )
    if grouped and n is None:
        asked = _Request(grouped.group(1), table)
        # "which customer ...": the entity is a text column (customer_id) before a measure
        # (customer_rating)
        named = asked.ranked(("text",)) or asked.ranked(("text", "bool", "number"))
        # "the most chart entries", "the most admissions" (``Admission ID``): the rows are counted
        rows_counted = bool(re.search(r"\b(?:rows?|records?|entries|entry)\b", grouped.group(3))) or any(
            c.kind == "text" and c.words & _ID_WORDS and _Request(grouped.group(3), table).score(c) > 0
            for c in table.columns
        )
        # (what is counted is named before its conditions: "the most deliveries with a route above
        # 40 km" counts deliveries, not routes)
        noun = _CONDITION_START.split(grouped.group(3), maxsplit=1)[0]
        of_noun = _Request(noun, table)
        # (a column the noun names in part is not what is counted: "the most departures" counts
        # rows, though ``dep_delay`` starts with "dep")
        counted = (
            []
            if rows_counted
            else [
                c
                for c in of_noun.ranked(("number",))
                if len(of_noun.naming(c)) >= len(c.words - _COUNT_WORDS) or c.name in of_noun.meant
            ]
        )
        if named and not (counted and counted[0] is not named[0]):
            col = named[0]
            conds = q.conditions(exclude=(col,))
            if grouped.group(2).startswith(("most", "highest", "largest", "greatest")):
                out.append(("most-common", "=" + _mode_of(col, conds)))
            else:
                out.append(("least-common", "=" + _rarest_of(col, conds)))
    if re.search(r"\bhow many\b|\bnumber of\b|\bcount\b", low) and not out and not sums_column and n is None:
        conds = q.conditions()
        first = table.columns[0]
        one_row = all(c.op == "=" and c.column.kind == "text" and _labels_rows(c.column) for c in conds)
        if conds and not one_row:  # (the one row a label names is no count: "how many women in Leeds")
            out.append(("count-if", f"=COUNTIFS({_ifs(conds)})"))
        elif len(q.unmatched()) <= 1 and not q.ranked():  # "how many are there": no column named
            out.append(("count-rows", f"=COUNTA({first.ref})"))

    # top/bottom N
    if n is not None:
        desc = direction != "asc"
        order = -1 if desc else 1
        by_count = bool(
            re.search(r"\b(most|least|fewest|common|frequen|popular|represented|number of)\w*", low)
        )
        if numeric and isinstance(numeric[0], Derived):  # "the 4 shortest notes (number of words)"
            by_count = False
        sorted_by = re.search(r"\b(?:most|least)\s+(\w+)", low)
        if sorted_by and any(  # "the 5 least viewed items": sorted by a column, not counted
            same(_stem(sorted_by.group(1)), h) or sorted_by.group(1) in q.meant.get(c.name, ())
            for c in numeric
            for h in c.words
        ):
            by_count = False
        if sorted_by and q.adjective == sorted_by.group(0) and q.ranked_by() is not None:
            by_count = False  # "the 2 most expensive items": the adjective means a column to sort by
        target = q.ranked(("text", "bool", "number"))
        by_agg = re.search(r"\bby (average|mean|total|sum of|median)\s+(.+)$", low)
        if by_agg and target:
            measure = _Request(by_agg.group(2), table).ranked(("number",))
            groups = [c for c in target if not measure or c is not measure[0]]
            if measure and groups:
                g, m = groups[0], measure[0]
                fn = "SUMIFS" if by_agg.group(1) in ("total", "sum of") else "AVERAGEIFS"
                out.append(
                    (
                        "top-n-by-aggregate",
                        f"=TAKE(SORTBY({_uniq(g)},{fn}({m.ref},{g.ref},{_uniq(g)}),{order}),{n})",
                    )
                )
        by_rate = re.search(r"\bby (?:the )?(\w+) rate\b", low)
        if by_rate and target:
            flags = [
                c
                for c in table.columns
                if c.kind == "bool" and any(same(_stem(by_rate.group(1)), h) for h in c.words)
            ]
            groups = [c for c in target if c.kind != "bool"]
            if flags and groups:
                g, f = groups[0], flags[0]
                u = _uniq(g)
                rate = f"COUNTIFS({g.ref},{u},{f.ref},TRUE)/COUNTIF({g.ref},{u})"
                out.append(("top-n-by-rate", f"=TAKE(SORTBY({u},{rate},{order}),{n})"))
        if not by_count and target and target[0].kind == "text" and not numeric and _plain_top(q):
            by_count = True  # "the top 5 suppliers": the most frequent ones
        number_of = re.search(r"\bnumber of ((?:\w+\s+)?\w+)", low)
        if by_count and number_of:
            counting = _Request(number_of.group(1), table).ranked(("number",))
            if counting and _COUNTS_HEADER.search(counting[0].name):
                # "the maximum number of titles": a column that counts (``Number of Titles``)
                by_count = False
        if by_count and target:
            col = target[0]
            conds = q.conditions(exclude=(col,))  # "the 3 regions with the most late orders"
            if conds:
                uniq, counts = _count_each(col, conds)
                out.append(("top-n-by-count", f"=TAKE(SORTBY({uniq},{counts},{order}),{n})"))
            else:
                out.append(
                    (
                        "top-n-by-count",
                        f"=TAKE(SORTBY({_uniq(col)},COUNTIF({col.ref},{_uniq(col)}),{order}),{n})",
                    )
                )
        key_or_none = q.ranking_key(numeric)
        if key_or_none is not None:
            key = key_or_none
            order = _rank_order(key, order, low, q.adjective)
            conds = q.conditions(exclude=(key,))
            # a column the request filters on ("who have a score of 5") is not the one to list
            filtered = {cond.column.col for cond in conds}
            # (a column named only by the words that name the key is not what is listed: "the
            # highest attack" ranks ``attack``, it does not show ``sp_attack``)
            keyed = q.naming(key)
            others = [
                c
                for c in target
                if c is not key
                and c.col not in filtered
                and (c.name in q.meant or q.naming(c) - keyed)
                # (a yes/no column is listed only where named whole: "the 3 apps" is no
                # ``hasInAppPurchases``)
                and (c.kind != "bool" or q.names_whole(c))
            ]
            listed = LISTED_ENTITIES.match(low)
            # ("list the 3 lowest total scores": the phrase names the key, whose values are listed)
            entities = _asks_entities(low, table) and not (listed and _names_key(listed, table, key))
            if _ids_only(others) and (q.asks_who or entities):
                # "name the 3 most profitable companies": no column is named "companies" (or only
                # an id, ``CompanyId``), so the rows are named by the table's name column
                others = [c for c in [_name_column(table)] if c is not None and c is not key] or others
            # "the prices of the 5 most expensive houses", "how many computers do the 3 biggest
            # districts have": prices, computers
            head = (
                _HEAD_OF_TOP.match(low)
                or WHAT_OF_TOP.match(low)
                or (None if IN_ALL.search(low) else _HOW_MANY_OF_TOP.match(low))
            )
            shown = _Request(head.group(1), table).ranked() if head else []
            # ("what scores did the 3 cheapest wines get?": no column is named so, nothing to list)
            asked_of = WHAT_OF_TOP.match(low)
            unnamed = not shown and asked_of is not None and noun_of(asked_of.group(1)) not in VALUE_NOUNS
            if shown:
                others = [c for c in shown[:1] if c is not key]  # (the key itself: its values)
            group = None if unnamed else _listed_group(low, table, key, others)
            if group is not None:
                # "the 3 clubs with the most goals": clubs repeat over the rows, so each club's
                # total ranks, not its best row (which would list a club twice)
                fn = "AVERAGEIFS" if re.search(r"\b(average|mean)\b", low) else "SUMIFS"
                each, _counts = _count_each(group, conds)
                totals = f"{fn}({key.ref},{group.ref},{each}{',' + _ifs(conds) if conds else ''})"
                out.append(("top-n-group-total", f"=TAKE(SORTBY({each},{totals},{order}),{n})"))
            elif (
                not unnamed
                and others
                and (
                    shown
                    or entities
                    # ("which 3 districts have the highest score": the districts)
                    or _lists_things(low, table, key)
                    or re.search(
                        r"\b(of|for|by|who|whose)\b.*\b(top|bottom|most|least|\d+)\b"
                        r"|\bwith the\b|\bwhere the\b",
                        low,
                    )
                )
            ):
                show = others[0]
                out.append(
                    (
                        "top-n-lookup",
                        f"=TAKE(SORTBY({_filtered(show.ref, conds)},"
                        f"{_filtered(key.ref, conds)},{order}),{n})",
                    )
                )
            values = _filtered(key.ref, conds)
            if EACH_ONCE.search(low):
                values = f"UNIQUE({values})"  # "the 3 lowest distinct prices": each value once
            if not unnamed:
                out.append(("top-n-values", f"=TAKE(SORT({values},,{order}),{n})"))

    # most common / least common category
    if (
        re.search(
            r"\b(most|least) (common|frequent|popular|often|frequently)\b|\bmost represented\b"
            r"|\bhighest representation\b",
            low,
        )
        and texty
        and n is None
    ):
        col = q.after_superlative(texty, ("common", "frequent", "popular", "often", "frequently")) or texty[0]
        conds = q.conditions(exclude=(col,))
        if re.search(r"\bleast\b", low):
            out.append(("least-common", "=" + _rarest_of(col, conds)))
        else:
            tail = _value_test(q, col) if is_question else ""
            if tail:  # "is the most common colour red?": 'red' is the test, not a filter
                conds = [c for c in conds if f'"{c.value}"'.lower() != tail[1:].lower()]
            out.append(("most-common", "=" + _mode_of(col, conds) + tail))

    # "the most <measure> <category>": the superlative qualifies a repeating category by a
    # measure's total, so the answer is the category whose rows sum highest, not the top row's
    qualified = re.search(r"\b(most|least|highest|lowest)\s+(\w+)\s+(\w+)", low)
    if qualified and n is None and numeric:
        measure = [c for c in numeric if any(same(_stem(qualified.group(2)), h) for h in c.words)]
        entity = [
            c
            for c in table.columns
            if c.kind == "text"
            and c.distinct != ()
            and any(same(_stem(qualified.group(3)), h) for h in c.words)
        ] or [
            c
            for c in table.columns
            if c.kind == "text" and any(same(_stem(qualified.group(3)), h) for h in c.words)
        ]
        if measure and entity and _repeats(entity[0]):
            g, m = entity[0], measure[0]
            order = 1 if qualified.group(1) in ("least", "lowest") else -1
            totals = f"SUMIFS({m.ref},{g.ref},{_uniq(g)})"
            out.append(("group-total-extreme", f"=INDEX(SORTBY({_uniq(g)},{totals},{order}),1)"))

    # lookups: "the X of the <row> with the highest Y", "the lightest parcel's sender"
    if direction is not None and n is None and (key_or_none := q.ranking_key(numeric)) is not None:
        after = q.after_superlative(numeric)
        key = key_or_none
        conds = q.conditions(exclude=(key,))
        ranked_all = q.ranked(("text", "bool", "number", "date"))
        answers = [c for c in ranked_all if c is not key]
        # a column named only by words that name the key ("tail length" beside the ranked "wing
        # length": "length") is not what the question asks for
        keyed = q.naming(key)
        answers = [
            c
            for c in answers
            if (c.name in q.meant or q.naming(c) - keyed)
            # (a yes/no column named in part answers a yes/no question: "has the car with the
            # highest mileage been in an accident" reads ``AccidentReported``)
            and (c.kind != "bool" or q.names_whole(c) or asks_yes_no(q.low))
        ]
        if _ids_only(answers) and (q.asks_who or _asks_entities(low, table)):  # "which company has ..."
            answers = [c for c in [_name_column(table)] if c is not None and c is not key] or answers
        named_by = _name_column(table)
        if q.asks_who and named_by is not None and named_by is not key and named_by.words & {"name"}:
            # "who is the highest paid employee": the person's name, before an id "employee" names
            answers = [named_by, *(c for c in answers if c is not named_by)]
        # "the region of the shipment with ...", "in which county is the school with ...": the
        # noun before 'of' or after 'which' is what is asked
        # (two words of it: "the zip code of the booking" is ``ZIPCODE``, not ``VOUCHER CODES``)
        head = (
            re.search(r"\b((?:\w+ )?\w+) of the \w+", low)
            or re.search(r"\b(?:which|what) (\w+)", low)
            or re.search(r"^\s*how (?:many|much) (\w+)", low)  # ("how many reviews does the top ... have")
        )
        if head:
            head_said = _Request(head.group(1), table)
            answers.sort(key=lambda c: -head_said.score(c))
        fn = "MAX" if _rank_order(key, -1 if direction == "desc" else 1, low, q.adjective) == -1 else "MIN"
        keyref = _filtered(key.ref, conds)
        if place is not None:  # "the second highest": LARGE(range, 2) where MAX(range) would be
            fn = "LARGE" if fn == "MAX" else "SMALL"
        # "what is the longest flipper length measured?": the superlative opens the question and
        # names the column it ranks, so the answer is that column's extreme value
        asks_key = (
            after is not None and re.match(rf"^\s*what(?:'s|\s+(?:is|was))\s+the\s+{_SUPERLATIVE_OPENS}", low)
        ) or (
            bool(ranked_all)
            and ranked_all[0] is key
            and re.search(
                rf"\b(what|which)\b.*\b{re.escape(sorted(key.words, key=len)[-1])}\w*\b.*\b(of|for|among)\b",
                low,
            )
        )
        if asks_key:
            out.append((f"extreme-{fn.lower()}", f"={fn}({keyref}{nth})"))
        if is_question and conds and conds[-1].column is not key:
            # "does the <row> with the highest Y have a Z of 5?": the condition is the test of the
            # row found, not a filter on the rows searched
            test = conds[-1]
            rest = conds[:-1]
            keyref2 = _filtered(key.ref, rest)
            expr = f"INDEX({_filtered(test.column.ref, rest)},MATCH({fn}({keyref2}{nth}),{keyref2},0))"
            out.append(("lookup-extreme-test", f"={expr}{test.test()}"))
        if answers:
            show = answers[0]
            showref = _filtered(show.ref, conds)
            expr = f"INDEX({showref},MATCH({fn}({keyref}{nth}),{keyref},0))"
            if show.kind == "text" and show.blanks:
                expr = f"T({expr})"  # Excel shows an empty cell found by INDEX as 0; T() keeps it blank
            tail = _value_test(q, show) if is_question else ""
            out.append(("lookup-extreme", f"={expr}{tail}"))
        out.append((f"extreme-{fn.lower()}", f"={fn}({keyref}{nth})"))

    # aggregates: "average price", "total sales of ... in the 'Retail' segment"
    # the aggregate the request says first: "the average number of total citations" averages
    firsts = sorted((hit.start(), fn) for word, fn in _AGG.items() if (hit := re.search(rf"\b{word}\b", low)))
    for _at, fn in firsts:
        if numeric and n is None:
            # a sum or average of dates means nothing: those take the first number column named
            summable = (
                [c for c in numeric if c.kind == "number"] if fn in ("SUM", "AVERAGE", "MEDIAN") else numeric
            )
            if not summable:
                break
            # (a column the request compares with a number is a condition, not the measure: "the
            # average price of cars with more than 2 owners")
            compared = {c.column.col for c in q.conditions() if c.op != "="}
            col = next((c for c in summable if c.col not in compared), summable[0])
            if fn in ("MAX", "MIN") and q.ranked_unnamed(col):
                break  # ("the price of the highest rated wine": a row ranked by what no column names)
            conds = q.conditions(exclude=(col,))
            if fn in ("SUM", "AVERAGE", "MAX", "MIN") and conds:
                fname = {"SUM": "SUMIFS", "AVERAGE": "AVERAGEIFS", "MAX": "MAXIFS", "MIN": "MINIFS"}[fn]
                expr = f"{fname}({col.ref},{_ifs(conds)})"
            else:
                expr = f"{fn}({_filtered(col.ref, conds)})"
            cmp = _comparison_tail(low)
            out.append((f"aggregate-{fn.lower()}", f"={expr}{cmp}" if is_question and cmp else f"={expr}"))
            break

    # growth or change between two rows: "the growth of North from Jan 2024 to Dec 2024"
    moved = re.search(
        r"\b(growth|change|increase|decrease|difference|rise|fall)\b.*?\bof\s+(.+?)\s+from\s+(.+?)\s+to\s+(.+?)[?.!]*\s*$",
        low,
    )
    if moved:
        measure = _Request(moved.group(2), table).ranked(("number",))
        rows = [_row_labelled(table, moved.group(k)) for k in (3, 4)]
        if measure and rows[0] is not None and rows[1] is not None:
            at_col = measure[0].col
            a = Range(rows[0], at_col, rows[0], at_col).ref()
            b = Range(rows[1], at_col, rows[1], at_col).ref()
            if moved.group(1) in ("growth", "increase", "rise") and "%" not in low and "percent" not in low:
                out.append(("growth", f"=({b}-{a})/{a}"))
            out.append(("change", f"={b}-{a}"))
    # ratio of two columns: "the ratio of North to South"
    ratio = re.search(r"\bratio of\s+(.+?)\s+(?:to|and|over)\s+(.+?)[?.!]*\s*$", low)
    if ratio:
        top = _Request(ratio.group(1), table).ranked(("number",))
        bottom = _Request(ratio.group(2), table).ranked(("number",))
        if top and bottom and top[0] is not bottom[0]:
            conds = q.conditions(exclude=(top[0], bottom[0]))
            out.append(
                ("ratio", f"=SUM({_filtered(top[0].ref, conds)})/SUM({_filtered(bottom[0].ref, conds)})")
            )
    # text joins: "join all regions with commas", "list the distinct cities in one cell"
    if re.search(r"\b(join|concatenate|combine)\b|\bin one cell\b", low) and texty:
        col = next((c for c in texty if c.kind == "text"), None)
        if col is not None:
            conds = q.conditions(exclude=(col,))
            values = _filtered(col.ref, conds)
            if EACH_ONCE.search(low):
                values = f"UNIQUE({values})"
            sep = "; " if "semicolon" in low else " " if re.search(r"\bspaces?\b", low) else ", "
            out.append(("text-join", f'=TEXTJOIN("{sep}",TRUE,{values})'))

    # yes/no questions: "is there any <row> meeting <conditions>?", "any price above $500?"
    if is_question and re.search(r"\b(any|there)\b", low):
        conds = q.conditions()
        if conds:
            exists = ("exists", f"=COUNTIFS({_ifs(conds)})>0")
            # "Is there a ... in the top 5 ranks?" asks existence, whatever other shapes matched
            if re.match(r"^\s*(is|are|was|were) there\b|^\s*(did|does|do) any\b", low):
                out.insert(0, exists)
            else:
                out.append(exists)
    # "is the <category> with the most <rows> <value>?": test the most common one's row
    # ("is BOEING the manufacturer with the most planes?": the value may come first)
    mode_test = re.match(
        r"^\s*(?:is|was|are|were)\s+(?:(.+?)\s+)?the\s+(.+?)\s+with\s+the\s+(most|fewest|least)\b(.*)$", low
    )
    # ...but "the <row> with the most <measure>" names a measure after 'most': the row with the highest
    if mode_test and q.after_superlative(numeric) is None:
        named = _Request(mode_test.group(2), table).ranked(("text",))
        if named:
            col = named[0]
            around = f"{mode_test.group(1) or ''} {mode_test.group(4)}"
            tests = [c for c in q.conditions() if isinstance(c.value, str) and c.value.lower() in around]
            if tests:
                pick = _mode_of(col, []) if mode_test.group(3) == "most" else _rarest_of(col, [])
                t = tests[-1]
                row = pick if t.column is col else f"INDEX({t.column.ref},MATCH({pick},{col.ref},0))"
                out.insert(0, ("mode-test", f"={row}{t.test()}"))
    if place is not None:  # only the shapes that count the place ask for it; the rest ask for the top
        out = [(shape, f) for shape, f in out if re.search(r"\b(?:LARGE|SMALL)\(", f)]
    seen: set[str] = set()
    unique = []
    for shape, formula in out:
        if formula not in seen:
            seen.add(formula)
            unique.append((shape, formula))
    return unique


def _comparison_tail(low: str) -> str:
    m = re.search(r"\b(above|over|more than|greater than|higher than)\s+\$?(-?[\d.,]+)", low)
    if m:
        return f">{m.group(2).rstrip('.').replace(',', '')}"
    m = re.search(r"\b(below|under|less than|lower than)\s+\$?(-?[\d.,]+)", low)
    if m:
        return f"<{m.group(2).rstrip('.').replace(',', '')}"
    return ""


def _value_test(q: _Request, col: Column) -> str:
    """For yes/no lookups: '...="male"' when the request names one of the column's values."""
    if col.kind == "bool":
        return "" if not q.negated else "=FALSE"
    for val in sorted(col.distinct, key=len, reverse=True):
        v = val.lower()
        if len(v) >= 2 and re.search(r"(?<![a-z0-9])" + re.escape(v) + r"(?![a-z0-9])", q.low):
            return '="' + val.replace('"', '""') + '"'
    if col.distinct and all(len(v.strip()) <= 2 for v in col.distinct):
        codes = {_CODES[w] for w in q.stems if w in _CODES}
        matches = [v for v in col.distinct if v.strip().lower() in codes]
        if len(matches) == 1:
            return '="' + matches[0].replace('"', '""') + '"'
    m = re.search(r"\b(?:of|is|be)\s+(-?\d[\d.]*)\s*\??\s*$", q.low.strip())
    if m and col.kind == "number":
        return f"={m.group(1)}"
    return ""


def generate_formula(
    request: str,
    workbook: Workbook,
    sheet: str | Sheet | None = None,
    *,
    area: Range | str | None = None,
    model: Any = None,
) -> Answer:
    """The best valid formula for a request over a table, or an abstention with the reason.

    Every candidate is validated and evaluated; the first that evaluates without an error wins.
    ``model`` (a loaded :class:`gridsight.llm.Runtime`) lets the model tier try where the
    deterministic shapes abstain -- only for requests that name a column, never for nonsense.
    """
    answer = _deterministic(request, workbook, sheet, area)
    if model is not None and answer.formula is None and answer.closest_columns:
        from gridsight.formula._model_tier import model_formula

        answer = model_formula(request, workbook, sheet, area, model, answer)
    if answer.formula is not None:
        sh = sheet_of(workbook, sheet)
        answer.display = display_value(answer.value, answer.formula, workbook, sh)
        if answer.shape == "growth" and isinstance(answer.value, int | float):
            answer.display = f"{answer.value:.1%}"
    return answer


def _deterministic(
    request: str, workbook: Workbook, sheet: str | Sheet | None, area: Range | str | None
) -> Answer:
    sh = sheet_of(workbook, sheet)
    rng = Range.parse(area) if isinstance(area, str) else area
    if not request.strip():
        return Answer(request, None, reason="the request is empty")
    tables = [table_from_sheet(sh, rng)] if rng is not None else tables_in_sheet(sh)
    tables = [t for t in tables if t is not None]
    if not tables:
        return Answer(request, None, reason=f"sheet {sh.name!r} holds no table to compute on")
    # several tables: the one whose headers the request names best
    asked = {id(t): _Request(request, t) for t in tables}
    table = max(
        tables,
        key=lambda t: (
            sum(asked[id(t)].score(c) for c in t.columns),
            len(t.columns) * t.columns[0].data.height,
        ),
    )
    q = _Request(request, table)
    closest = tuple(c.name for c in q.ranked()[:3])
    missing = _unapplied(_Request(request, table))
    dated = _year_columns(q) if missing is not None else ()
    if missing is not None and not dated:
        return Answer(
            request,
            None,
            reason=f"the request names {missing!r}, which GridSight cannot apply to this table "
            "(no date column covers it, or no cell holds it)",
            closest_columns=closest,
        )
    found = candidates(request, table)
    if dated:  # the year names columns: a formula must read one of them
        found = [(shape, f) for shape, f in found if any(c.ref in f for c in dated)]
        if not found:
            return Answer(
                request,
                None,
                reason=f"no formula reads the column of {missing!r} the request names",
                closest_columns=closest,
            )
    if not found:
        hint = (
            f"; the closest columns are {', '.join(closest)}" if closest else "; no column matches its words"
        )
        return Answer(
            request, None, reason="no formula shape matches this request" + hint, closest_columns=closest
        )
    for rank, (shape, formula) in enumerate(found):
        ev = evaluate_formula(formula, workbook, sh)
        if ev.ok and ev.error is None:
            try:
                explanation = explain_formula(formula, workbook, sh)
            except Exception:
                explanation = None
            return Answer(
                request,
                formula,
                ev.value,
                ev,
                explanation,
                ev.references,
                round(max(0.2, 0.9 - 0.15 * rank), 2),
                None,
                shape,
                closest,
            )
    return Answer(
        request, None, reason="no candidate formula evaluated without an error", closest_columns=closest
    )

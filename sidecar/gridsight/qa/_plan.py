"""Question -> operation over columns -> one SELECT over the table's view (the SQL route).

The planner reads a question as an operation (count, distinct count, sum/average/max/min, the row
with the highest/lowest value, top-n values, groups ranked by count or an aggregate, any/all tests)
over columns chosen by :mod:`gridsight.qa._columns`, with filters (values the column holds, numeric
comparisons, yes/no columns, "without any X"). Each plan says how sure the parse is; the caller
gates on it. Nothing is answered when no column fits.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from gridsight.qa._absent import KIND_SAMPLE, absent_phrase, value_column
from gridsight.qa._asked import asked_columns
from gridsight.qa._bounds import AGGREGATE_BEFORE, AGGREGATE_SAID, share_cut
from gridsight.qa._columns import STOP, content_words, mentions, named_at, similarity, split_words
from gridsight.qa._listcells import ListForm, item_test, list_form
from gridsight.qa._pipeline import expected_type
from gridsight.qa._sql import TABLE, View, literal, quote
from gridsight.text import (
    AGE_SAID,
    ASCENDING,
    ASCENDING_ORDER,
    CATEGORY_NAMED_MAX,
    CHANGE_WORDS,
    COMPARED_BEFORE,
    COMPARISON,
    COMPARISON_OPS,
    COUNT_PER_GROUP,
    DATE_PARTS,
    DATE_WORDS,
    DESCENDING,
    EACH_ONCE,
    ENTITY_ASKED,
    FALL_WORDS,
    FILLER,
    HOW_MANY_EACH,
    IN_ALL,
    LEADING_PHRASE,
    LISTED_ENTITIES,
    MONTH_NAMES,
    MONTHS,
    NEGATING_PREFIXES,
    NEGATION_WORDS,
    NUMBER_WORDS,
    ORDINAL_VALUES_MAX,
    RANKED_BY_PARTICIPLE,
    RISE_WORDS,
    TAKES_BOTH,
    VALUE_NOUNS,
    WEEKDAYS,
    WHAT_OF_TOP,
    YEAR_BY_YEAR,
    YEAR_WORDS,
    adjective_phrase,
    age_column,
    asks_yes_no,
    category_named,
    closest,
    code_like,
    comparisons_spelt,
    date_part_asked,
    direction_of,
    either_of,
    end_asked,
    end_of,
    excluded_at,
    folded,
    free_words,
    header_text,
    header_words,
    in_own_order,
    is_ranking,
    letters_alone,
    listed_values,
    meaning_by_values,
    meaning_map,
    month_asked,
    month_of,
    named_after_header,
    names_month,
    noun_of,
    orders_all,
    ordinal_place,
    ordinals_named,
    part_column,
    percent_header,
    proper_phrases,
    ranked_by,
    ranked_column,
    same,
    shortened,
    singular,
    stem,
    superlative,
    time_direction,
    timelike,
    unit_written,
    value_window,
    weekdays_asked,
    written_forms,
    year_asked,
)
from gridsight.text import participle as is_participle

_N = NUMBER_WORDS
#: An ordered list of every item ("the islands from the most to the fewest penguins") holds at most
#: this many.
EVERY = 1000
_EMPTY = ("", "[]", "{}", "none", "nan", "null", "n/a", "-")
_NEG = NEGATION_WORDS
#: A modal verb's negation as words are split ("couldn't" -> ``couldn``, "cant", "cannot").
_MODAL_NOT = re.compile(r"(?:could|would|should|must|might|need)nt?|cant|wont|cannot")
#: Text values that say yes or no: a text column holding only such values is a yes/no column.
YES_TEXT = frozenset({"yes", "y", "true"})
NO_TEXT = frozenset({"no", "n", "false"})
#: Header words of a column that identifies what its rows are about (an id, a name, a code).
IDENTIFIER_WORDS = frozenset("id ids name names code codes key number no nr num identifier".split())


def identifies(name: str, vocabulary: frozenset[str] = IDENTIFIER_WORDS) -> bool:
    """A column that numbers or names the rows (``Loan #``, ``order_id``, ``Stock No.``): its last
    header word is one of ``vocabulary`` after another word."""
    said = split_words(name)
    return "#" in name or (len(said) > 1 and said[-1] in vocabulary)


#: A header written as a yes/no question ("Did the patient die during the stay?", "Is the county part
#: of a metropolitan area?"), not a word with a question mark (``eBook?``).
_QUESTION_HEADER = re.compile(
    # (a survey's header may end in an emoji after its question mark: "Do you work remotely? 🏠")
    r"^\s*(?:is|are|was|were|did|does|do|has|have|had|can|will|would)\s+\S+(?:\s+\S+)+\?[^\w]*$",
    re.IGNORECASE,
)

#: A row label named by a word only it holds (:meth:`Planner._label_filters`) is read only among at
#: most this many labels: in a long list a word shared by chance would pick a row nobody named.
MAX_PART_LABELS = 60
#: The comparison a year bound of :func:`gridsight.text.year_asked` makes on a column of years.
_YEAR_OPS = {"in": "=", "before": "<", "after": ">", "since": ">="}

#: How close in meaning (cosine, MiniLM) a word must be to a column of one-letter codes, and by how
#: much closer than to any other column, for its first letter to name a code ("female" -> ``F``).
CODE_FLOOR = 0.4
CODE_MARGIN = 0.06


@dataclass
class Col:
    """A column of the view with what the planner needs to know about it."""

    name: str  # SQL name
    kind: str  # number | text | bool | date
    distinct: tuple[str, ...]
    flag: bool  # holds only yes/no values (bool, numbers 0/1, or text yes/no)
    #: a text flag's values that say yes, and those that say no (empty: a bool or 0/1 column)
    yes: tuple[str, ...] = ()
    no: tuple[str, ...] = ()

    def truth(self, value: bool) -> str:
        """The SQL condition that the flag is ``value`` (``"Garage" = 'yes'`` for a text flag)."""
        if not self.yes:
            return f"{quote(self.name)} = {int(value)}"
        said = self.yes if value else self.no
        if len(said) == 1:
            return f"{quote(self.name)} = {literal(said[0])}"
        return f"{quote(self.name)} IN ({', '.join(literal(v) for v in said)})"


def _adds_up_the_rest(top: float, total: float) -> bool:
    """Whether the largest value ``top`` is the sum of all the others (``total`` is every value's sum):
    a total row."""
    return abs(2 * top - total) <= 1e-9 * max(1.0, abs(total))


@dataclass
class Plan:
    sql: str
    kind: str  # what it computes: count, distinct, sum, avg, max, min, argmax, top, group (categories
    # when a text column is grouped), any, all...
    result: str  # number | text | boolean | list | one (a single value, or no answer when rows differ)
    confidence: float
    sentence: str
    columns: list[str] = field(default_factory=list)
    #: it reads the rows in a way only the query expresses (a calendar part of a date, an empty
    #: value): the SQL route goes before the formula tier
    sql_only: bool = False
    #: the column the question's superlative adjective means ("the oldest" -> ``Age``), if it read one
    ranked: str | None = None


@dataclass
class _Filter:
    sql: str
    words: str  # the question's words it came from
    column: str
    desc: str = ""  # how the explanation says it: "Lang is Spanish", "links is empty"
    sql_only: bool = False  # see Plan.sql_only

    def __post_init__(self) -> None:
        self.desc = self.desc or self.words


#: A whole year asked of period columns: "for the full year", "annual", "across all four quarters".
_FULL_YEAR = re.compile(
    r"\b(?:full|whole|entire)[\s-]+year\b|\bannual\b|\b(?:all|every|across)\s+(?:the\s+)?(?:four\s+)?quarters\b"
)
#: A total asked of every row's figures: "in total", "altogether", "all told" ("total income" may be
#: a line's name).
_IN_TOTAL = re.compile(r"\b(?:in\s+total|altogether|all\s+told|in\s+all)\b")
#: The things a top-N question counts: "the top 3 <loan amounts> in ...", "the bottom 2 <professions> with".
_COUNTED = re.compile(
    r"\b(?:top|bottom)\s+\d+\s+([a-z][\w\s-]{0,40}?)"
    r"(?=\s+(?:of|with|in|among|for|from|that|who|whose|by|on|where)\b|\s*[?.]|\s*$)"
)


def _columns_plan(cols: list[Col], fcols: set[str], where: str, sentence: str, mean: bool = False) -> Plan:
    """The sum (or the mean) of several number columns over the rows ``where`` keeps."""
    total = " + ".join(f"SUM({quote(c.name)})" for c in cols)
    shown = f"({total}) / {len(cols)}.0" if mean else total
    return Plan(
        f"SELECT {shown} FROM {TABLE}{where}",
        "columns",
        "number",
        0.75,
        sentence,
        [*(c.name for c in cols), *sorted(fcols)],
    )


def _empty(col: Col, unset: bool = True) -> str:
    """The condition that a row has no value in ``col``: a date or number never written (or, where
    the number counts something and ``unset`` is false, 0), a text cell blank or written as nothing
    (``n/a``, ``[]``)."""
    if col.kind == "date" or (col.kind == "number" and unset):
        return f"{quote(col.name)} IS NULL"
    if col.kind == "number":
        return f"COALESCE({quote(col.name)}, 0) = 0"
    empty = ", ".join(_lit(e) for e in _EMPTY)
    return f"LOWER(TRIM(COALESCE({quote(col.name)}, ''))) IN ({empty})"


def _every_row(rest: list[_Filter], fails: str, has: str, columns: list[str], sql_only: bool = False) -> Plan:
    """'Are all ...?': no row that the ``rest`` of the filters keep is one where ``fails`` holds
    (every such row ``has`` what is asked)."""
    among = "".join(f"{f.sql} AND " for f in rest)
    return Plan(
        f"SELECT NOT EXISTS (SELECT 1 FROM {TABLE} WHERE {among}{fails})",
        "all",
        "boolean",
        0.8,
        f"checks that every row{' where ' + ' and '.join(f.desc for f in rest) if rest else ''} has {has}",
        sorted({*columns, *(f.column for f in rest)}),
        sql_only=sql_only,
    )


def _names_period(name: str, unit: str) -> bool:
    """Whether a column header is one month (``Jan``, ``March 2024``) or one quarter (``Q3``)."""
    said = split_words(name)
    if unit == "quarter":
        return bool(re.fullmatch(r"q[1-4]", said[0])) if said else False
    return bool(said) and said[0] in MONTHS and all(w.isdigit() for w in said[1:])


#: A question that asks for the rows' names: "name the ...", "which ...", "identify the ..." ("list the 2
#: most expensive items" lists their prices).
_NAMES_ASKED = re.compile(r"^\s*(?:name|which|identify)\b")
#: A question that asks who ("who ...", "among women, whose ..."), not a relative "who" ("the
#: people who ...").
_ASKS_WHO = re.compile(r"^\s*(?:who|whom|whose)\b")


#: "how many stations are there", "how many weather stations are in the data", "how many countries
#: are represented in the race": the things the table lists, counted once each.
_HOW_MANY_LISTED = re.compile(
    r"^\s*how many (?!of\b)([a-z][a-z ]{0,40}?) (?:are|were) "
    r"(?:there|(?:listed|included|represented|covered|featured|present|involved)"
    r"(?: (?:in|at|on|among|across) (?:the |this )?[a-z]+(?: [a-z]+)?)?"
    r"|(?:recorded |listed )?in (?:the|this) "
    r"(?:data|dataset|data set|table|list|sheet|file))\s*\??\s*$"
)


def _distinct_count(col: Col, where: str, when: str, confidence: float) -> Plan:
    """How many different non-blank values ``col`` holds among the rows ``where`` keeps (``when``: how
    the plan's sentence says those rows)."""
    c = quote(col.name)
    nonblank = f"{' AND' if where else ' WHERE'} {c} IS NOT NULL AND {c} <> ''"
    return Plan(
        f"SELECT COUNT(DISTINCT {c}) FROM {TABLE}{where}{nonblank}",
        "distinct",
        "number",
        confidence,
        f"counts the different values of {col.name}{when}",
        [col.name],
    )


def _names_value(value: str, text: str, adjective: bool = False) -> bool:
    """``text`` names a cell value as a whole word, in the singular or plural ('Teslas'); a function
    word is no plural of a short code ("was" names no ``WA``, "has" no ``HA``). With ``adjective``
    (a category of one word), its adjective in -y names it too: "rainy" ``Rain``, "sunny" ``Sun``,
    "foggy" ``Fog``."""
    v = value.lower()
    ends = "s|es" + (f"|y|{re.escape(v[-1])}y" if adjective and len(v) >= 3 and v.isalpha() else "")
    # ("private parties": the plural of ``private party``)
    written = (
        rf"{re.escape(v[:-1])}(?:y|ies)" if len(v) >= 4 and v.endswith("y") and v[-2] not in "aeiou" else ""
    )
    return any(
        m.group(0) == v or m.group(0) not in STOP
        for m in re.finditer(
            rf"(?<![a-z0-9])(?:{re.escape(v)}(?:{ends})?|{written or '(?!)'})(?![a-z0-9])", text
        )
    )


def _every_word_named(words: Sequence[str], header: str) -> bool:
    """Whether ``words`` name every word of a header, as written or shortened (``vote_avg`` by
    "average vote"; not ``vote_count``, whose "count" they leave out)."""
    hw = split_words(header)
    return bool(hw) and all(any(same(h, w) or shortened(h, [w]) for w in words) for h in hw)


def _holds_more(longer: Sequence[str], shorter: Sequence[str]) -> bool:
    """Whether a header's words hold every word of another's (the same word in any form) and more."""
    return len(longer) > len(shorter) and all(any(same(s, w) for w in longer) for s in shorter)


def _named_by_values(col: Col) -> bool:
    """Whether a column's header is made of its own values (``member_casual`` holding ``member``
    and ``casual``): a value it names is then a value, not the column."""
    held = {str(v).lower() for v in col.distinct}
    own = content_words(col.name)
    return len(own) > 1 and all(w in held for w in own)


def _at_bound(words: Sequence[str], i: int) -> bool:
    """Whether the ``i``-th word is the bound of "at least 34" / "at most 3": no superlative."""
    return words[i] in ("least", "most") and i > 0 and words[i - 1] == "at"


def _group_counts(
    key: str, fcols: set[str], where: str, when: str, up: bool, n: int | None, said: str
) -> Plan:
    """The row count of each group of ``key`` (filled cells only), the largest first unless ``up``,
    the first ``n`` of them when given."""
    k = quote(key)
    filled = f"{' AND' if where else ' WHERE'} {k} IS NOT NULL AND {k} <> ''"
    return Plan(
        f"SELECT COUNT(*) FROM {TABLE}{where}{filled} GROUP BY {k} "
        f"ORDER BY COUNT(*) {'ASC' if up else 'DESC'}" + (f" LIMIT {n}" if n else ""),
        "counts",
        "list",
        0.8,
        f"counts the rows{when} for each {key}" + (f" and {said}" if n else f", {said}"),
        [key, *sorted(fcols)],
    )


def _each_of(items: Sequence[Any], figure: Callable[[Any], str]) -> str:
    """One row per item (a year, a value), in the order given, each the scalar query ``figure``
    writes for it."""
    parts = " UNION ALL ".join(f"SELECT {i} AS at, ({figure(x)}) AS v" for i, x in enumerate(items))
    return f"SELECT v FROM ({parts}) ORDER BY at"


def _num(text: str) -> float | int:
    x = float(text.replace(",", ""))
    return int(x) if x.is_integer() else x


def _lit(v: Any) -> str:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return repr(v)
    return literal(str(v))


def describe_columns(view: View, kinds: dict[str, str], distinct: dict[str, tuple[str, ...]]) -> list[Col]:
    out = []
    for c in view.columns:
        kind = kinds.get(c.name, "text")
        flag = kind == "bool"
        if kind == "number":
            q = quote(c.name)
            rows = view.conn.execute(
                f"SELECT COUNT(DISTINCT {q}), MIN({q}), MAX({q}) FROM {TABLE}"
            ).fetchone()
            flag = rows[0] == 2 and rows[1] == 0 and rows[2] == 1
        yes: tuple[str, ...] = ()
        no: tuple[str, ...] = ()
        if kind == "text":
            said = {v: v.strip().casefold() for v in distinct.get(c.name, ())}
            yes = tuple(v for v, k in said.items() if k in YES_TEXT)
            no = tuple(v for v, k in said.items() if k in NO_TEXT)
            flag = bool(yes and no and len(yes) + len(no) == len(said))
            yes, no = (yes, no) if flag else ((), ())
        out.append(Col(c.name, kind, distinct.get(c.name, ()), flag, yes, no))
    return out


#: The SQL aggregate each word asks for, where a question sets two aggregates side by side.
_AGGREGATE_FN = {"average": "AVG", "mean": "AVG", "total": "SUM", "sum": "SUM", "median": "MEDIAN"}
_AGGREGATE_FN |= {
    "maximum": "MAX",
    "max": "MAX",
    "highest": "MAX",
    "minimum": "MIN",
    "min": "MIN",
    "lowest": "MIN",
}
#: Comparatives that say which way two groups' averages are compared.
_MORE = frozenset("more higher greater larger bigger longer".split())
_LESS = frozenset("less fewer lower smaller shorter".split())


#: Share of a header's words the words before a comparison must name together (one of two, shortened).
TOGETHER_MENTIONED = 0.3
#: A figure of a number column asked for: an aggregate, an extreme, a range.
_MEASURE_ASKED = re.compile(
    r"\b(?:average|mean|median|total|sum|minimum|maximum|min|max|range|highest|lowest|longest|shortest"
    r"|largest|smallest)\b"
)
#: Cosine and margin a word needs to name a number column by meaning where a figure is asked.
MEASURE_FLOOR, MEASURE_MARGIN = 0.4, 0.08


def _unbracketed_words(header: str) -> list[str]:
    """A header's words without a bracketed unit, which need not be said ("gallons consumed" names
    ``Gallons Consumed (in millions)``); all of them where the brackets hold every word."""
    return header_words(re.sub(r"\([^)]*\)", " ", header)) or header_words(header)


def _header_said(header: str, said: list[str]) -> bool:
    """Whether ``said`` names every word of the header (its bracketed unit aside)."""
    hw = _unbracketed_words(header)
    return bool(hw) and all(any(same(h, w) for w in said) for h in hw)


class Planner:
    def __init__(self, question: str, view: View, cols: list[Col]) -> None:
        self.q = question
        self.low = comparisons_spelt(question.lower().replace("’", "'"))
        # "is the share of trips that were round trips above 75%?", "were more than 5% of the cars
        # ...": a bound on a share of rows, not on a column; read apart, the rest read as usual
        self._share_cut: tuple[str, float, str] | None = None
        whole = self.low
        if asks_yes_no(self.low) and (cut := share_cut(self.low)) is not None:
            self._share_cut, self.low = cut[:3], cut[3]
        # "Name the top 3 ..." / "List the ...": the imperative is not a column named 'Name'
        self.words = split_words(re.sub(r"^\s*(name|list|show|give)\b", " ", self.low))
        self.view = view
        self.cols = cols
        self.used: set[str] = set()
        # synonyms by meaning: question words that name no header by their letters, mapped by MiniLM
        # ('gender' -> Sex); cell values are left out (they name a value, not a column)
        values = {str(v).lower() for c in cols for v in c.distinct}
        asked = [w for w in self.words if w not in values]
        self.meant: dict[str, set[str]] = {}
        for w, i in meaning_map(asked, [c.name for c in cols], title=view.sheet.name).items():
            self.meant.setdefault(cols[i].name, set()).add(w)
        # ... and by what a text column holds, for words no header is written with ("airline": the
        # column of airlines), over a header only closer in meaning to the word than the values are
        heads = {h for c in cols for h in header_words(c.name)}
        unnamed = [w for w in asked if not any(same(w, h) for h in heads)]
        held = {c.name: c.distinct for c in cols if c.kind == "text" and c.distinct and not c.flag}
        # (a word an aggregate stands before names the measure it adds up: "the total rainfall" is
        # the rainfall column, whatever cell ``Rain`` it is closer to)
        aggregated = {w for p, w in itertools.pairwise(self.words) if p in _AGGREGATE_FN}
        kinds = {c.name: c.kind for c in cols}
        for w, (name, cos) in meaning_by_values(unnamed, held).items():
            was = next((n for n, ws in self.meant.items() if w in ws), None)
            if was is not None and (was == name or similarity(singular(w), [was])[0] >= cos):
                continue
            if was is not None and kinds.get(was) == "number" and w in aggregated:
                continue
            if was is not None:
                self.meant[was].discard(w)
            self.meant.setdefault(name, set()).add(w)
        # "the lowest song length", "the range of song lengths", "tools that cost more
        # than 200": where a figure of a column is asked or compared and no word names a number
        # column, the word that stands where a measure does -- after a word of a text column's
        # header (the thing measured), or just before the comparison -- names the number column
        # closest to it in meaning, by a lower floor than any column's
        numbers = [c for c in cols if c.kind == "number" and not c.flag and not identifies(c.name)]
        comparisons = list(COMPARISON.finditer(self.low))
        if (
            (_MEASURE_ASKED.search(self.low) or comparisons)
            and numbers
            and not any(mentions(self.words, c.name, self.meant.get(c.name, ())) for c in numbers)
        ):
            texts = [header_text(c.name) for c in numbers]
            things = {h for c in cols if c.kind == "text" for h in header_words(c.name)}
            placed = {ws[-1] for m in comparisons if (ws := split_words(self.low[: m.start()]))}
            placed |= {w for p, w in itertools.pairwise(self.words) if any(same(p, h) for h in things)}
            # (and the word a superlative that names no measure of its own stands before: "the
            # largest crowd", "the 5 biggest crowds"; "the cheapest hotels" ranks by price, not by
            # what "hotels" means)
            bare = [w for w in self.words if not w.isdigit() and w != "the"]
            placed |= {w for p, w in itertools.pairwise(bare) if p in DESCENDING | ASCENDING}
            for w in unnamed:
                if w in FILLER or len(w) < 4 or not w.isalpha() or any(w in ws for ws in self.meant.values()):
                    continue
                if w not in placed:
                    continue
                near = closest(singular(w), texts, margin=MEASURE_MARGIN, floor=MEASURE_FLOOR)
                if near is not None:
                    self.meant.setdefault(numbers[near].name, set()).add(w)
        # "the overnight low", "the daily high": the one measure whose header is that end of a pair
        for w in ("high", "low"):
            ends = [c for c in cols if c.kind == "number" and end_of(c.name) == end_asked(w)]
            if w in self.words and len(ends) == 1 and not any(w in split_words(c.name) for c in cols):
                self.meant.setdefault(ends[0].name, set()).add(w)
        self._ranked: tuple[Col, str] | None = None
        self._items: dict[str, ListForm | None] = {}  # how list columns write lists, read once
        self._ranked_looked = False
        self._every = False  # the question asks for every item in order (see _plan)
        self._offset = 0  # rows skipped before the one asked for ("the second largest": 1)
        self._filters: list[_Filter] | None = None  # read once: plan() and _plan() both ask
        if self._share_cut is not None and self._rate_held(self._share_cut[2]) is not None:
            self._share_cut, self.low = None, whole  # "is the discount rate above 20%": a column's

    def _cell_written(self, col: Col, forms: Iterable[str]) -> Any:
        """The first cell of a text column written as one of ``forms`` in any case, as stored; None
        when no cell is."""
        q = quote(col.name)
        for form in forms:
            hit = self.view.conn.execute(
                f"SELECT {q} FROM {TABLE} WHERE LOWER({q}) = ? LIMIT 1", (form,)
            ).fetchone()
            if hit:
                return hit[0]
        return None

    def _holds_part(self, col: Col, part: str) -> bool:
        """Whether some cell of ``col`` holds ``part``, in any case."""
        hit = self.view.conn.execute(
            f"SELECT 1 FROM {TABLE} WHERE INSTR(LOWER({quote(col.name)}), ?) > 0 LIMIT 1", (part.lower(),)
        ).fetchone()
        return hit is not None

    def _quoted_part(self, quoted: str, taken: set[str]) -> list[_Filter]:
        """A quoted text that is no whole cell but part of cells ("how many airports have
        'International' in their name?"): the rows whose text holds it, in the text column the
        question names (or the one column holding it), in any case."""
        holding = [
            c for c in self.cols if c.kind == "text" and c.name not in taken and self._holds_part(c, quoted)
        ]
        if not holding:
            return []
        sc = self.scores()
        named = [c for c in holding if sc[c.name] > 0]
        if len(holding) > 1 and not named:
            return []
        c = max(named or holding, key=lambda c: sc[c.name])
        sql = f"INSTR(LOWER({quote(c.name)}), {_lit(quoted.lower())}) > 0"
        return [_Filter(sql, quoted.lower(), c.name, f"{c.name} holds '{quoted}'", sql_only=True)]

    def _proper_filters(self, found: list[_Filter]) -> list[_Filter]:
        """A proper name the question writes ("the depots in Leeds", "New York") that is a whole
        cell of a text column too varied to list: the rows holding it. A name that is a word of a
        header, or is already a filter's, is none; of several columns holding it, the one the
        question names."""
        heads = self._header_words
        out: list[_Filter] = []
        taken = {f.column for f in found}
        for name in proper_phrases(self.q):
            low = name.lower()
            if any(low in f.words or f.words in low for f in found + out):
                continue
            if all(any(same(h, w) for h in heads) for w in split_words(low)) or names_month(low, low):
                continue
            # (a state of the USA may be written by its postal code: "Nevada" over ``NV``; a name may
            # end in its column's word: "Crater Lake" in a ``Lake`` column is ``Crater``)
            said = split_words(low)
            while len(said) > 1 and any(same(said[-1], h) for h in heads):
                said = said[:-1]
            named = [low, *([" ".join(said)] if said != split_words(low) else [])]
            forms = named + [code for f in named for code in written_forms(f)[1:]]
            held = []
            for c in self.cols:
                if c.kind != "text" or c.name in taken or any(str(v).lower() == low for v in c.distinct):
                    continue
                cell = self._cell_written(c, forms)
                if cell is not None:
                    held.append((c, cell))
            if held:
                sc = self.scores()
                c, v = max(held, key=lambda p: sc[p[0].name])
                out.append(_Filter(f"{quote(c.name)} = {_lit(v)}", low, c.name, f"{c.name} is {v}"))
                taken.add(c.name)
        return out

    def _letter_filters(self, found: list[_Filter]) -> list[_Filter]:
        """A capital letter the question writes alone after words that name a column holding it as
        a value ("a final grade of C", "room type E"): the rows with that letter. A sentence's
        first word, the pronoun "I" and the article "A" before a word are no values."""
        out: list[_Filter] = []
        taken = {f.column for f in found}
        for m in letters_alone(self.q):
            letter, before = m.group(1), self.q[: m.start()]
            holding = [
                c
                for c in self.cols
                if c.kind == "text" and c.name not in taken and letter in map(str, c.distinct)
            ]
            sc = self.scores(split_words(before.lower())[-3:])
            named = [c for c in holding if sc[c.name] > 0]
            if not named and len(holding) == 1 and all(code_like(v) for v in holding[0].distinct):
                named = holding  # ("games rated M": the one column of short codes that holds it)
            if not named:
                continue
            c = max(named, key=lambda c: sc[c.name])
            out.append(
                _Filter(f"{quote(c.name)} = {_lit(letter)}", letter.lower(), c.name, f"{c.name} is {letter}")
            )
            taken.add(c.name)
        return out

    def _code_filters(self, found: list[_Filter]) -> list[_Filter]:
        """A column of one-letter codes (``M`` / ``F`` / ``U``) and a question word that starts with a
        code's letter and is closest in meaning to that column's header, clearly ("female" -> sex
        ``F``): the rows with that code."""
        from gridsight.text import header_text, similarities

        out: list[_Filter] = []
        coded = [
            c
            for c in self.cols
            if c.kind == "text"
            and len(c.distinct) >= 2
            and all(len(str(v).strip()) == 1 and str(v).strip().isalpha() for v in c.distinct)
            and not any(f.column == c.name for f in found)
        ]
        if not coded:
            return out
        heads = [header_text(c.name) for c in self.cols]
        for w in dict.fromkeys(self.words):
            if len(w) < 3 or w in STOP:
                continue
            sims = similarities(w, heads)
            order = sorted(range(len(sims)), key=lambda i: -sims[i])
            top = self.cols[order[0]]
            if (
                top not in coded
                or sims[order[0]] < CODE_FLOOR
                or sims[order[0]] - sims[order[1]] < CODE_MARGIN
            ):
                continue
            if any(same(w, h) for h in header_words(top.name)):
                continue  # "the final grade": a word of the header, no code ``F``
            hit = [v for v in top.distinct if str(v).strip().lower() == w[0]]
            if len(hit) == 1:
                out.append(
                    _Filter(f"{quote(top.name)} = {_lit(hit[0])}", w, top.name, f"{top.name} is {hit[0]}")
                )
                coded.remove(top)
        return out

    def _category_filters(self, found: list[_Filter]) -> list[_Filter]:
        """A small category named by words that spell no header and no value whole: shortened
        ("associate professors" -> ``AssocProf``) or by meaning ("women" -> ``Female``), as the
        formula tier reads it (:func:`gridsight.text.category_named`); one per column."""
        heads = self._header_words
        valued = {w for c in self.cols if c.kind == "text" for v in c.distinct for w in split_words(str(v))}
        # (a word that names a number column by meaning names a measure, not a value by its start:
        # "the total rainfall" is ``precipitation_mm``, no condition ``Rain``)
        measures = {w for c in self.cols if c.kind == "number" for w in self.meant.get(c.name, ())}
        free = [w for w in free_words(self.words, heads, valued) if w not in measures]
        out: list[_Filter] = []
        taken = {f.column for f in found}
        for c in self.cols:
            if c.kind != "text" or c.name in taken or not c.distinct or not self._category(c.name):
                continue
            values = [str(v) for v in c.distinct]
            v = category_named(free, values)
            if v is not None:
                # (the word that names it, where the question says it: a yes/no question's last
                # value is its test)
                said = next((w for w in free if category_named([w], values) == v), v.lower())
                sql = f"{quote(c.name)} = {_lit(v)}"
                out.append(_Filter(sql, said, c.name, f"{c.name} is {v}"))
        return out

    def _label_filters(self, found: list[_Filter]) -> list[_Filter]:
        """A label the question names by a word that no other label of its column holds, where no
        value is named whole ("the number of pilots" for ``Southwest Pilots`` among ``Southwest
        Mechanics``, ``Southwest Dispatchers`` ...; "who was the financial officer" for ``Executive
        Vice President & Chief Financial Officer``): that row. Only in a text column whose labels are
        all different and few (:data:`MAX_PART_LABELS`), and only when one label is named by more of
        the question's words than any other; a header's words name no label. "Which" / "who" asks
        for a label of the first text column (the rows' names) rather than naming one."""
        if found:
            return []
        texts = [c for c in self.cols if c.kind == "text"]
        if re.search(r"\b(which|who|whom|whose)\b", self.low):
            texts = texts[1:]
        heads = {h for c in self.cols for h in header_words(c.name)}
        asked = [w for w in dict.fromkeys(self.words) if w not in STOP and len(w) > 2 and not w.isdigit()]
        scored: list[tuple[int, str, str]] = []
        for col in texts:
            if not 2 <= len(col.distinct) <= MAX_PART_LABELS or not self._unique(col.name):
                continue
            own = {v: {stem(w) for w in split_words(v) if w not in STOP and len(w) > 2} for v in col.distinct}
            held = Counter(w for ws in own.values() for w in ws)  # (by stem: "Repurchases" = "Repurchase")
            for v, ws in own.items():
                named = {
                    w for w in ws if not any(same(w, h) for h in heads) and any(same(w, q) for q in asked)
                }
                if any(held[w] == 1 for w in named):
                    scored.append((len(named), col.name, v))
        scored.sort(key=lambda p: -p[0])
        if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return []
        _n, name, v = scored[0]
        # (sql_only: the formula tier reads whole labels only, and would total every row)
        sql = f"{quote(name)} = {_lit(v)}"
        return [_Filter(sql, str(v).lower(), name, f"{name} is {v}", sql_only=True)]

    # --- columns --------------------------------------------------------------------------------

    def _col(self, name: str) -> Col | None:
        """The column named ``name``, if the view has one."""
        return next((c for c in self.cols if c.name == name), None)

    def _unique(self, name: str) -> bool:
        """A text column whose filled cells are all different (row labels): a filter on it picks
        one row."""
        n, distinct = self._filled(name)
        return n > 1 and n == distinct

    def _filled(self, name: str) -> tuple[int, int]:
        """(filled cells, different values) of a text column; (0, 0) for any other column."""
        col = self._col(name)
        if col is None or col.kind != "text":
            return 0, 0
        q = quote(name)
        n, distinct = self.view.conn.execute(
            f"SELECT COUNT({q}), COUNT(DISTINCT {q}) FROM {TABLE}"
        ).fetchone()
        return int(n), int(distinct)

    def _named_before(self, before: list[str], unit: str) -> Col | None:
        """The number column the words before a comparison name: the one more of them name ("a
        population density above": ``pop_density``), of those the nearest; a threshold written as a
        percentage ("a female population share above 45%") picks a percentage column first."""
        named: dict[str, tuple[int, int]] = {}
        cols: dict[str, Col] = {}
        for at, w in enumerate(before):
            c = self.best(("number",), [w])
            if c is not None and self._identifies(c.name) and not set(before) & IDENTIFIER_WORDS:
                # an identifier is compared only where named ("vans listed": no ``listing_no``); the
                # word may name another figure too ("patients over 65": ``Patient Age``, not ``patient_id``)
                c = self.best(("number",), [w], exclude={c.name})
                if c is None or self._identifies(c.name):
                    continue
            if c is not None:
                # (how many of the words name it: "an average excise tax" names ``Avg Excise Tax``
                # by three, ``tax_incl_sales`` by one)
                named[c.name] = (len(named_at(before, c.name, self.meant.get(c.name, ()))), at)
                cols[c.name] = c
        # (a header the words name together, shortened: "a maximum temperature above 25" is
        # ``tmax_c``, though no word alone names it)
        together = self.best(("number",), before)
        if (
            together is not None
            and together.name not in named
            and not self._identifies(together.name)
            and mentions(before, together.name) >= TOGETHER_MENTIONED
        ):
            named[together.name] = (len(before), len(before))
            cols[together.name] = together
        if not named:
            return None
        if re.match(r"\s*(?:%|per ?cent|percentage)", unit):
            named = {k: v for k, v in named.items() if percent_header(k)} or named
        return cols[max(named, key=lambda k: named[k])]

    def _holding(self, number: float, exclude: set[str]) -> Col | None:
        """The one number column (no yes/no one) whose values span ``number``, for a comparison in a
        question that names no number column; None when none or several do."""
        if self.best(("number",)) is not None:
            return None
        spans = []
        for c in self.cols:
            if c.kind != "number" or c.flag or c.name in exclude:
                continue
            q = quote(c.name)
            low, high = self.view.conn.execute(f"SELECT MIN({q}), MAX({q}) FROM {TABLE}").fetchone()
            if isinstance(low, int | float) and isinstance(high, int | float) and low <= number <= high:
                spans.append(c)
        return spans[0] if len(spans) == 1 else None

    @cached_property
    def _header_words(self) -> set[str]:
        """Every word that names a header of the table (read once: the columns do not change)."""
        return {h for c in self.cols for h in header_words(c.name)}

    @property
    def _header_years(self) -> list[str]:
        """Numbers of the question that are words of headers (the years of ``hits86``, ``Pop.
        2008``): they name columns, not values."""
        heads = {h for c in self.cols for h in header_words(c.name) if h.isdigit()}
        return [w for w in dict.fromkeys(self.words) if w.isdigit() and w in heads]

    def _names_of_rows(self, exclude: set[str]) -> Col | None:
        """The column that names the rows, for "who": the first text column whose values are all
        different, else the first text column."""
        texts = [c for c in self.cols if c.kind == "text" and c.name not in exclude]
        return next((c for c in texts if self._unique(c.name)), texts[0] if texts else None)

    def _asks_column_named(self, value: str, holder: Col) -> bool:
        """A value that is another column's whole header, asked for by it ("which depot has the
        most vans" where ``delay_reason`` holds ``Depot``): the column is meant, not the value."""
        if not re.search(rf"\b(?:which|what|each|every|per|by)\s+{re.escape(value)}\b", self.low):
            return False
        said = content_words(value)
        return bool(said) and any(c is not holder and content_words(c.name) == said for c in self.cols)

    def _holder_named(self, col: Col, value: object, taken: set[str]) -> Col:
        """The column a value named in the question is read in: ``col``, where it was found first,
        unless another text column holds the same value and the question names that one more (a
        team in ``club19`` and in ``club20``: "at Rovers in 2020" is ``club20``)."""
        holders = [
            c
            for c in self.cols
            if c.kind == "text" and (c is col or (c.name not in taken and value in c.distinct))
        ]
        if len(holders) == 1:
            return col
        # "from JFK to LAX" where two columns hold both: the first column is where rows come from,
        # the next where they go (``ORIGIN`` then ``DEST``; ``start_station`` then ``end_station``)
        v = re.escape(str(value).lower())
        route = re.search(rf"\bfrom\s+(?:the\s+)?{v}\b.*\bto\b|\bfrom\b.*\bto\s+(?:the\s+)?{v}\b", self.low)
        if (
            route is not None
            and len(holders) == 2
            and not any(mentions(self.words, c.name, self.meant.get(c.name, ())) for c in holders)
        ):
            first, second = sorted(holders, key=self.cols.index)
            going = re.search(rf"\bto\s+(?:the\s+)?{v}\b", self.low) is not None
            return second if going else first
        near = value_window(self.words, split_words(str(value)))
        scores, close = self.scores(), self.scores(near)
        by = {c.name: (close[c.name], scores[c.name]) for c in holders}
        top = max(by.values())
        best = [c for c in holders if by[c.name] == top]
        return best[0] if len(best) == 1 else col

    def scores(self, words: list[str] | None = None) -> dict[str, float]:
        ws = words if words is not None else self.words
        return {c.name: mentions(ws, c.name, self.meant.get(c.name, ())) for c in self.cols}

    def best(
        self,
        kinds: tuple[str, ...],
        words: list[str] | None = None,
        exclude: set[str] | None = None,
        *,
        entity: bool = False,
    ) -> Col | None:
        """The column of one of ``kinds`` the words name best; embeddings break exact ties. With
        ``entity`` (the question counts things: "how many different customers"), a tied column that
        identifies them (``customer_id``, ``customer name``) comes before one that measures them."""
        sc = self.scores(words)
        pool = [
            c for c in self.cols if c.kind in kinds and sc[c.name] > 0 and c.name not in (exclude or set())
        ]
        if not pool:
            return None
        top = max(sc[c.name] for c in pool)
        tied = [c for c in pool if sc[c.name] == top]
        # (a header that holds every word of the best one and more, each named, whole or shortened,
        # is the narrower and the one meant: "featured artists" is ``featArtists``, not ``artist``)
        ws = words or self.words
        narrower = [
            c
            for c in pool
            if any(_holds_more(split_words(c.name), split_words(t.name)) for t in tied)
            and _every_word_named(ws, c.name)
        ]
        if narrower:
            tied = narrower
        # (every word of a header written, shortened or not, over a header whose other words the
        # reading leaves out: "average vote" is ``vote_avg``, not ``vote_count``)
        whole = [c for c in pool if _every_word_named(ws, c.name)]
        if whole and not any(c in whole for c in tied):
            tied = [max(whole, key=lambda c: sc[c.name])]
        if entity and len(tied) > 1:
            tied = [c for c in tied if set(split_words(c.name)) & IDENTIFIER_WORDS] or tied
        if len(tied) > 1:  # the header that accounts for more of the words ("home runs in 1986": homer86)
            named = {c.name: len(named_at(ws, c.name, self.meant.get(c.name, ()))) for c in tied}
            tied = [c for c in tied if named[c.name] == max(named.values())]
        if len(tied) > 1:  # the high and low ends of a measure ('temp_max', 'temp_min'): the end asked
            end = end_asked(self.low)
            tied = [c for c in tied if end is not None and end_of(c.name) == end] or tied
        if len(tied) > 1:
            sims = similarity(" ".join(ws), [c.name for c in tied])
            tied = [c for _s, c in sorted(zip(sims, tied, strict=True), key=lambda p: -p[0])]
        return tied[0]

    # --- filters --------------------------------------------------------------------------------

    def filters(self) -> list[_Filter]:
        """The question's conditions on the rows (read once per question; a fresh list each call)."""
        if self._filters is None:
            self._filters = self._read_filters()
        return list(self._filters)

    def _read_filters(self) -> list[_Filter]:
        out: list[_Filter] = []
        low = self.low
        m: re.Match[str] | None  # the phrase each rule below looks for (a search may find none)
        # quoted values and values a text column holds
        quoted = [m.group(1) for m in re.finditer(r"['\"]([^'\"]{1,80})['\"]", self.q)]
        for c in self.cols:
            if c.kind != "text":
                continue
            vals = sorted(c.distinct, key=len, reverse=True)
            plain_low = folded(low)  # (``low`` changes only where a value is taken, and the loop ends)
            for v in vals:
                vl = str(v).lower().strip()
                if len(vl) < 2 or vl in STOP or vl.isdigit():
                    continue
                # (written without its accents too: "the skoda team" is ``Škoda``)
                plain = folded(vl)
                if (
                    any(q.lower() == vl for q in quoted)
                    or _names_value(vl, low, adjective=len(vals) <= CATEGORY_NAMED_MAX)  # "Teslas" too
                    or names_month(vl, low)  # "in February": ``Feb 2024``
                    or (
                        plain != vl
                        and plain not in STOP
                        and len(plain) >= 2
                        and _names_value(plain, plain_low)
                        and plain not in plain_low.split()[:1]
                    )
                ):
                    if (vl in content_words(c.name) and not _named_by_values(c)) or self._asks_column_named(
                        vl, c
                    ):
                        continue
                    if len(vl) <= 3 and any(same(vl, h) for h in self._header_words):
                        continue  # "the ids of the stores": a header's word, no state ``ID``
                    holder = self._holder_named(c, v, {f.column for f in out})
                    out.append(
                        _Filter(f"{quote(holder.name)} = {_lit(v)}", vl, holder.name, f"{holder.name} is {v}")
                    )
                    low = low.replace(vl, " ")
                    break
        out = [self._several(self._either(f)) for f in out]
        out += self._letter_filters(out)
        out += self._code_filters(out)
        out += self._category_filters(out)
        out += self._label_filters(out)
        # an item of a list column ("a pool among their amenities", "mentions @openlab"): the rows
        # whose list holds it
        for c in self.cols:
            if c.kind != "text" or any(f.column == c.name for f in out):
                continue
            items = sorted(self._list_items(c.name), key=len, reverse=True)
            for item in items:
                il = item.lower()
                pos = low.find(il)
                if len(il) < 2 or il in STOP or not _names_value(il, low):
                    continue
                if re.search(
                    r"\b(?:excluding|except|other than|besides|apart from)\s+$|\b(?:most|least|fewest)\s+$",
                    low[max(0, pos - 20) : pos],
                ):
                    continue  # "excluding wifi"; "the most money": a measure, not an item
                out.append(self._item_filter(c.name, item, il))
                low = low.replace(il, " ")
                break
        # ("'International' in their name", "names containing 'Lake'": part of a cell, not a whole one)
        part = re.search(
            r"['\"]\s+(?:anywhere\s+)?in\s+(?:their|its|the|his|her)\s+\w+|\b(?:contain|include)(?:s|ing)?\s+['\"]",
            self.q,
            re.IGNORECASE,
        )
        for qv in quoted if not part else ():
            if not any(f.words == qv.lower() for f in out):
                for c in self.cols:
                    if c.kind == "text" and not c.distinct:
                        hit = self.view.conn.execute(
                            f"SELECT 1 FROM {TABLE} WHERE {quote(c.name)} = ? LIMIT 1", (qv,)
                        ).fetchone()
                        if hit:
                            out.append(
                                _Filter(
                                    f"{quote(c.name)} = {_lit(qv)}", qv.lower(), c.name, f"{c.name} is {qv}"
                                )
                            )
                            break
        for qv in quoted:
            if not any(f.words == qv.lower() for f in out):
                out += self._quoted_part(qv, {f.column for f in out})
        out += self._proper_filters(out)
        # numeric comparisons: the column named just before or inside the phrase
        for m in COMPARISON.finditer(low):
            before = split_words(low[max(0, m.start() - 40) : m.start()])[-4:]
            inside = split_words(m.group(2))
            col = self.best(("number",), inside)
            if col is None and m.group(1) in ("younger than", "older than"):  # what 'older' means
                col = self.best(("number",), m.group(1).split()[:1])
            if col is None:  # "longer than 30 minutes": the column whose unit is written after it
                unit = split_words(low[m.end() : m.end() + 20])[:1]
                measured = [
                    c for c in self.cols if c.kind == "number" and unit and unit_written(c.name, unit[0])
                ]
                col = measured[0] if len(measured) == 1 else None
            # the words after the number ("more than 2 previous owners", "11 days late"), then the
            # words before the phrase, the nearest first ("loan been renewed at least 4 times")
            after = [w for w in split_words(low[m.end() : m.end() + 40])[:3] if w not in STOP]
            by_after = self.best(("number",), after) if after and col is None else None
            by_before = self._named_before(before, low[m.end(3) : m.end(3) + 12]) if col is None else None
            if by_after is not None and by_before is not None and by_after is not by_before:
                # ("an average excise tax above 50 cents per pack": the column more of the words
                # around the comparison name, ``Avg Excise Tax (cents/pack)`` over ``Packs per Capita``)
                around = before + after
                count = {
                    c.name: len(named_at(around, c.name, self.meant.get(c.name, ())))
                    for c in (by_after, by_before)
                }
                by_after = by_before if count[by_before.name] > count[by_after.name] else by_after
            col = col or by_after or by_before
            # "do any assistant professors make more than $100,000?": the one column of such figures
            col = col or self._holding(_num(m.group(3)), {f.column for f in out})
            if col is not None and self._counts_rows(col, after):
                continue  # "at least 5 tickets" over ``ticket_id``: a count of rows, no value
            if col is not None:
                op, num = COMPARISON_OPS[m.group(1)], _lit(_num(m.group(3)))
                out.append(
                    _Filter(f"{quote(col.name)} {op} {num}", m.group(0), col.name, f"{col.name} {op} {num}")
                )
        # "between 30 and 40 years old", "a price between 10 and 20": both bounds on one column
        for m in re.finditer(r"\bbetween\s+\$?(-?\d[\d,]*(?:\.\d+)?)\s+and\s+\$?(-?\d[\d,]*(?:\.\d+)?)", low):
            lo, hi = sorted((_num(m.group(1)), _num(m.group(2))))
            after = split_words(low[m.end() : m.end() + 30])[:3]
            before = split_words(low[max(0, m.start() - 40) : m.start()])[-4:]
            taken = {f.column for f in out}
            aged = self._age_column()
            col = (
                (aged if AGE_SAID.match(low, m.start(2)) else None)
                or self.best(("number",), [w for w in after if w not in STOP], exclude=taken)
                or self._named_before(before, "")
            )
            if col is None or col.flag or col.name in taken:
                continue
            q = quote(col.name)
            out.append(
                _Filter(
                    f"{q} BETWEEN {_lit(lo)} AND {_lit(hi)}",
                    m.group(0),
                    col.name,
                    f"{col.name} is {lo} to {hi}",
                )
            )
        # "scored 100 in math", "got 5 on the rating": the figure a column the noun after it names holds
        for m in re.finditer(
            r"\b(-?\d+(?:\.\d+)?)\s+(?:in|on|for)\s+(?:the\s+|their\s+|his\s+|her\s+)?([a-z]+)\b", low
        ):
            number = _num(m.group(1))
            if re.fullmatch(r"(?:1[89]|20)\d\d", m.group(1)) or any(m.group(1) in f.words for f in out):
                continue  # (a year is a period: "in 2023")
            col = self.best(("number",), [m.group(2)], exclude={f.column for f in out})
            if col is None or col.flag or self._identifies(col.name):
                continue
            scored = quote(col.name)
            held = self.view.conn.execute(
                f"SELECT 1 FROM {TABLE} WHERE {scored} = ? LIMIT 1", (number,)
            ).fetchone()
            if held:
                num = _lit(number)
                out.append(_Filter(f"{scored} = {num}", m.group(0), col.name, f"{col.name} is {num}"))
        # "score of 5", "class 3"
        for m in re.finditer(r"\b([a-z]+)\s+(?:of|=)\s+(-?\d+(?:\.\d+)?)\b", low):
            if any(m.group(0) in f.words or f.words in m.group(0) for f in out):
                continue
            if m.group(2) in self._header_years:
                continue  # "the hitters of 1986": the year names columns (``homer86``)
            if m.group(1) in ("as", "end", "close", "start", "beginning") and re.fullmatch(
                r"(?:1[89]|20)\d\d", m.group(2)
            ):
                continue  # ("as of 2017", "the end of 2017": a date, no value)
            if AGE_SAID.match(low, m.start(2)):
                continue  # "the GPA of 16 year old students": an age, below
            words = split_words(low[max(0, m.start() - 30) : m.end()])
            col = self.best(("number",), words[:-1][-3:])
            if col is not None and not col.flag:
                num = _lit(_num(m.group(2)))
                out.append(
                    _Filter(f"{quote(col.name)} = {num}", m.group(0), col.name, f"{col.name} is {num}")
                )
        # "machines with 32 MB of memory", "houses with 3 bedrooms": the column the unit or the noun
        # after the number names, at that value
        for m in re.finditer(r"\bwith (?:an? )?(\d+(?:\.\d+)?)[\s-]*([a-z]+)(?:\s+(?:of\s+)?([a-z]+))?", low):
            if any(m.group(1) in f.words for f in out) or m.group(1) in self._header_years:
                continue
            said = [w for w in m.groups()[1:] if w and w not in STOP]
            col = self.best(("number",), said, exclude={f.column for f in out})
            if col is not None and not col.flag and not self._identifies(col.name):
                num = _lit(_num(m.group(1)))
                out.append(
                    _Filter(f"{quote(col.name)} = {num}", m.group(0), col.name, f"{col.name} is {num}")
                )
        # "bookings that included children", "orders with returns": a count column above zero
        for m in re.finditer(
            r"\b(?:with|includ(?:e|es|ed|ing)|had|has|have|having)\s+(?:any\s+)?([a-z]+)\b", low
        ):
            if re.match(r"\s+(?:\w+\s+){0,2}?(?:of|than|above|below|over|under|\d)", low[m.end() :]):
                continue  # ("with children under 5", "with more than 2 ...": read above)
            if re.search(r"\b(?:not|never|no)\s+$|n't\s+$", low[max(0, m.start() - 8) : m.start()]):
                continue  # ("does not have any bronze medals": none, read below)
            counted = m.group(1)
            counts = [
                c
                for c in self.cols
                if c.kind == "number"
                and not c.flag
                and not self._identifies(c.name)
                and mentions([counted], c.name) >= 1.0
                and c.name not in {f.column for f in out}
            ]
            if len(counts) == 1 and self._counts_things(counts[0].name):
                c = counts[0]
                out.append(_Filter(f"{quote(c.name)} > 0", m.group(0), c.name, f"{c.name} is above 0"))
        # "17 years old": the one column of ages, at that age (a comparison before it is read above)
        for m in AGE_SAID.finditer(low):
            if COMPARED_BEFORE.search(low[: m.start()]):
                continue  # ("between 30 and 40 years old", "older than 40 years old": read above)
            aged = self._age_column()
            if aged is None or any(f.column == aged.name for f in out):
                continue
            num = _lit(_num(m.group(1)))
            out.append(_Filter(f"{quote(aged.name)} = {num}", m.group(0), aged.name, f"{aged.name} is {num}"))
        # "in the third generation", "2nd class passengers": a number column of a few whole values
        # the noun names, at the ordinal's number
        for m, number in ordinals_named(low):
            col = self.best(("number",), [m.group(2)], exclude={f.column for f in out})
            if col is None or col.flag or not self._few_whole_values(col.name, number):
                continue
            out.append(
                _Filter(f"{quote(col.name)} = {number}", m.group(0), col.name, f"{col.name} is {number}")
            )
        # yes/no columns named in the question
        for c in self.cols:
            if not c.flag:
                continue
            meant = self.meant.get(c.name, set())
            heads = header_words(c.name)
            # by its letters, a flag is named by every word of its header (codes like "30d" aside):
            # "longer trips" is not ``roundTrip``, "books" not ``eBook?``; and as written or by its
            # beginning: "admitted" is not ``Readmit``
            # (a header word another one holds is said with it: "superhost listings" names
            # ``host_is_superhost``)
            needed = [
                h
                for h in heads
                if not any(ch.isdigit() for ch in h) and not any(h in o and o != h for o in heads)
            ]
            whole = all(any(same(h, w) for w in self.words) for h in needed) or (
                _QUESTION_HEADER.match(c.name) is not None and self._asks_own_word(c.name)
            )
            at = [
                i
                for i, w in enumerate(self.words)
                if whole and any(same(h, w) and stem(h).startswith(stem(w)[:4]) for h in heads)
            ]
            # by meaning, never the counted noun ("how many books ...": the noun names the rows), nor a
            # superlative, which ranks ("the cheapest fare" keeps no ``onboard_cafe_open`` rows)
            at += [
                i
                for i, w in enumerate(self.words)
                if w in meant
                and len(w) > 3  # (a particle names no flag by meaning: "handed out" is not ``Outdoor``)
                and not superlative(w)
                and not re.search(rf"\b(?:how many|number of|the most|the fewest) {w}\b", self.low)
            ]
            at.sort()
            if not at:
                continue
            i = at[0]
            window = self.words[max(0, i - 3) : i]
            # ("metropolitan counties ... than non-metropolitan ones": the first mention is the flag's)
            first = re.search(rf"(non[- ]?)?\b{re.escape(self.words[i])}", self.low)
            # (a modal's negation too, "couldn't", "cant"; not any word ending "nt": "does the best-paid
            # respondent work remotely?" asks yes)
            neg = any(w in _NEG or _MODAL_NOT.fullmatch(w) for w in window) or bool(first and first.group(1))
            out.append(
                _Filter(
                    c.truth(not neg),
                    self.words[i],
                    c.name,
                    f"{c.name} is {'FALSE' if neg else 'TRUE'}",
                    sql_only=bool(c.yes),  # (the formula tier reads no yes/no text)
                )
            )
        out.extend(self._calendar_filters(out))
        # "countries other than the USA", "excluding Texas": the rows without that value
        for i, f in enumerate(out):
            if " = " in f.sql and excluded_at(self.low, self.low.find(f.words)):
                out[i] = _Filter(
                    f"NOT ({f.sql})", f.words, f.column, f"{f.desc.replace(' is ', ' is not ', 1)}"
                )
        # "without any X", "do not contain any X", "no X yet", "missing a X", "did not give a X",
        # "X is unknown": rows whose X is empty (a count of none is 0 where X counts something)
        verbs = r"(?:contain|have|include|give|list|record|report|state|provide|specify)"
        # (the state word ends the phrase: "orders are missing a rating", "any trips with a missing
        # rider gender" name what is missing after it)
        follows = r"for|in|from|on|at|among|across|when|where|with|if|or|and"
        thing_after = rf"(?=\s*(?:[?.!,;]|$)|\s+(?:{follows})\b)"
        said_empty = (
            re.search(  # "for how many penguins is the sex unknown", "is the score missing for any game"
                r"\b(?:is|are|was|were)\s+(?:the\s+|their\s+|its\s+)?([a-z0-9 ]{3,30}?)\s+"
                rf"(?:missing|blank|empty|unknown|not given|not recorded)\b{thing_after}",
                low,
            ),
            re.search(
                rf"\b([a-z0-9 ]{{3,40}}?)\s+(?:is|are|was|were)\s+(?:missing|blank|empty|unknown|not given)\b"
                rf"{thing_after}",
                low,
            ),
            re.search(  # "how many people left the comment field blank", "left X unanswered"
                r"\b(?:left|leave|leaves|leaving)\s+(?:the\s+|their\s+|its\s+)?([a-z0-9 ]{3,40}?)\s+"
                r"(?:blank|empty|unanswered|unfilled)\b",
                low,
            ),
            re.search(
                rf"\b(?:without|(?:do|does|did)(?: not|n't) {verbs}|no|missing|unknown|unrecorded"
                r"|lack(?:s|ed|ing)?)\s+"
                r"(?:any\s+|an?\s+|the\s+)?([a-z0-9 ]{3,40})",
                low,
            ),
        )
        # (the first phrase whose words name a column, "the X is missing" before "missing X": "missing
        # for any game" names none, "missing for any stay" the rows)
        kinds = ("text", "number", "date")
        named = ((m, self.best(kinds, split_words(m.group(1))[:3])) for m in said_empty if m)
        m, col = next(((m, col) for m, col in named if col is not None), (None, None))
        if m is not None and col is not None and col.name not in {f.column for f in out}:
            unset = bool(
                re.search(
                    r"\b(?:missing|yet|unknown|blank|empty|unanswered|not given"
                    r"|give|provide|specify|state)\b",
                    low,
                )
            )
            blank = _Filter(_empty(col, unset), m.group(0), col.name, f"{col.name} is empty", sql_only=True)
            out.append(blank)
        return [self._as_item(f) for f in out]

    def _age_column(self) -> Col | None:
        """The one number column of ages (:func:`gridsight.text.age_column`)."""
        at = age_column([(c.kind, c.name) for c in self.cols])
        return None if at is None else self.cols[at]

    def _counts_things(self, name: str) -> bool:
        """Whether a number column counts things: whole numbers from zero up, zero among them."""
        c = quote(name)
        found = self.view.conn.execute(
            f"SELECT MIN({c}), SUM({c} <> CAST({c} AS INTEGER)), SUM({c} = 0) FROM {TABLE}"
        ).fetchone()
        return bool(found) and found[0] is not None and found[0] >= 0 and not found[1] and bool(found[2])

    def _either(self, f: _Filter) -> _Filter:
        """A value filter where the question names another value of the column with "or" beside
        it ("in either Austin or Denver"): the rows with either."""
        col = self._col(f.column)
        if col is None or col.kind != "text" or not f.sql.startswith(f"{quote(col.name)} = "):
            return f
        if not TAKES_BOTH.search(self.low):
            return f  # ("who has won more titles, A or B?": a choice between the two, not both)
        pair = either_of(self.low, [str(v) for v in col.distinct])
        if len(pair) != 2 or f.words not in {v.lower() for v in pair}:
            return f
        values = ", ".join(_lit(v) for v in pair)
        return _Filter(
            f"{quote(col.name)} IN ({values})", f.words, col.name, f"{col.name} is {' or '.join(pair)}"
        )

    def _several(self, f: _Filter) -> _Filter:
        """A value filter where the question lists more values of the column with it ("in October,
        November and December") or spans them ("from October to December"): the rows with any.
        A list offered as a choice ("which sold more, North and South?") stays one value."""
        col = self._col(f.column)
        if col is None or col.kind != "text" or not f.sql.startswith(f"{quote(col.name)} = "):
            return f
        values = [str(v) for v in col.distinct]
        listed, span = listed_values(self.low, values)
        if not any(f.sql == f"{quote(col.name)} = {_lit(v)}" for v in listed):
            return f  # (fewer than two listed, or not with this one)
        if span:
            ordered = in_own_order(values)
            if ordered is None:
                return f  # ("trips from JFK to LAX": a place to another, no span of places)
            a, b = ordered.index(listed[0]), ordered.index(listed[1])
            listed = ordered[min(a, b) : max(a, b) + 1]
        said = ", ".join(_lit(v) for v in listed)
        desc = f"{col.name} is {listed[0]} to {listed[-1]}" if span else f"{col.name} is {', '.join(listed)}"
        return _Filter(f"{quote(col.name)} IN ({said})", f.words, col.name, desc)

    def _aggregate_in_header(self, word: str, rest: str) -> bool:
        """Whether an aggregate word is a word of the column the words after it name ("the highest
        average vote" with ``vote_avg``): the column's name, not an aggregate to take -- unless
        the words after it name a column whole alone ("the highest average vote count")."""
        said = [word, *split_words(rest)[:3]]
        numbers = [c for c in self.cols if c.kind == "number"]
        return any(_every_word_named(said, c.name) for c in numbers) and not any(
            _every_word_named(said[1:], c.name) for c in numbers
        )

    def _few_whole_values(self, name: str, number: int) -> bool:
        """Whether a number column holds a few whole values (at most :data:`ORDINAL_VALUES_MAX`:
        classes, generations, grades), ``number`` among them."""
        c = quote(name)
        found = self.view.conn.execute(
            f"SELECT COUNT(DISTINCT {c}), SUM({c} <> CAST({c} AS INTEGER)), SUM({c} = ?) FROM {TABLE}",
            (number,),
        ).fetchone()
        return bool(found) and 0 < found[0] <= ORDINAL_VALUES_MAX and not found[1] and bool(found[2])

    def _as_item(self, f: _Filter) -> _Filter:
        """A filter on a whole cell of a list column ("Heated seats", a cell that lists it alone) as
        the rows whose list holds it."""
        col = self._col(f.column)
        if col is None or col.kind != "text" or not f.sql.startswith(f"{quote(f.column)} = "):
            return f
        for item in self._list_items(f.column):
            if f.sql == f"{quote(f.column)} = {_lit(item)}":
                return self._item_filter(f.column, item, f.words)
        return f

    # --- plans ----------------------------------------------------------------------------------

    def plan(self) -> Plan | None:
        """The query that answers the question, or None when no shape fits."""
        planned = self._plan()
        if planned is None and asks_yes_no(self.low):
            planned = self._absent(self.filters())
        if planned is not None and any(f.sql_only for f in self.filters()):
            planned.sql_only = True
        if planned is not None and self._ranked is not None and self._ranked[0].name in planned.columns:
            planned.ranked = self._ranked[0].name
        return planned

    def _plan(self) -> Plan | None:
        fs = self.filters()
        fcols = {f.column for f in fs}
        where = (" WHERE " + " AND ".join(f.sql for f in fs)) if fs else ""
        when = (" where " + " and ".join(f.desc for f in fs)) if fs else ""
        low = self.low
        n_m = next(
            (
                m
                for m in re.finditer(r"\b(?:top|bottom|first|last|the)?\s*(\d+|" + "|".join(_N) + r")\b", low)
                if not (re.fullmatch(r"(19|20)\d\d", m.group(1)) and not m.group(0).strip().startswith("top"))
            ),
            None,
        )  # the first count that is not a year ("in 2019"): "top 3", "the 5 most"
        n = None
        if n_m and any(
            w in ("top", "bottom", "first", "last") or (superlative(w) and w not in ("more", "less"))
            for w in self.words
        ):
            raw = n_m.group(1)
            n = _N.get(raw) or (int(raw) if raw.isdigit() else None)
            if n is not None and any(n_m.group(0).strip() in f.words for f in fs):
                n = None
        direction = self._direction()
        starts_bool = asks_yes_no(low)
        place = ordinal_place(low) if n is None else None
        if place is not None:  # "the second largest": one row, after the first
            self._offset = place - 1
        if n is None and not starts_bool and orders_all(self.q):
            # "from the most to the fewest", "deepest first", "in chronological order": every item,
            # the way the first direction word says (or up, for an order that only goes up)
            self._every, n = True, EVERY
            direction = direction or ("ASC" if ASCENDING_ORDER.search(low) else None)
        year = self._full_year(where, when, fcols) if direction is None and not starts_bool else None
        if year is not None:  # ("North America's unit sales for the full year": Q1 to Q4 added up)
            return year
        ratio = self._per_ratio(where, when, fcols) if direction is None and not starts_bool else None
        if ratio is not None:  # ("revenue per unit in March": the one column over the other)
            return ratio

        # distinct counts and uniqueness
        if re.search(
            r"\bhow many (unique|distinct|different)\b|\bnumber of (unique|distinct|different)\b", low
        ):
            col = self.best(("text", "number", "date", "bool"), exclude=fcols, entity=True)
            if col is None:  # "how many different men are followed": the rows' identifier
                ids = [
                    c
                    for c in self.cols
                    if set(header_words(c.name)) & IDENTIFIER_WORDS and c.name not in fcols
                ]
                col = ids[0] if len(ids) == 1 else None
            if col is None:
                return None
            return _distinct_count(col, where, when, 0.9)
        if not fs and (counted_once := self._kinds_listed()) is not None:
            return counted_once
        if starts_bool and re.search(r"\b(every|all|each)\b.*\bunique\b", low):
            col = self.best(("text", "number"))
            if col is None:
                return None
            c = quote(col.name)
            return Plan(
                f"SELECT COUNT(DISTINCT {c}) = COUNT({c}) FROM {TABLE}",
                "unique",
                "boolean",
                0.85,
                f"checks that no value of {col.name} repeats",
                [col.name],
            )
        if starts_bool:
            compared = (
                self._share_test(fs)
                or self._same_row(fs)
                or self._compare_columns(where, when)
                or self._all_recorded(fs)
                or self._compare_groups(fs)
                or self._more_rows_of(fs)
                or self._every_group(fs)
            )
            if compared is not None:
                return compared
        measure_share = None if starts_bool else self._measure_share(fs)
        if measure_share is not None:
            return measure_share
        spread = (
            None if starts_bool else (self._spread(fs, where, when) or self._aggregates_apart(where, when))
        )
        if spread is not None:
            return spread
        having = None if starts_bool else self._having(fs)
        if having is not None:
            return having
        # any / all
        asks_any = re.search(r"^\s*(is|are|was|were) there\b|\b(any|anyone|anybody|ever)\b", low)
        ranks = re.search(r"\bthe (most|least|highest|lowest|\w+est)\b", low)
        tests = sorted((low.find(f.words), i) for i, f in enumerate(fs) if COMPARISON.match(f.words))
        if not tests and len(fs) > 1:
            # "are all the Teslas automatic?": the value named last is the test of the rows the
            # others name
            tests = sorted((low.find(f.words), i) for i, f in enumerate(fs) if " = " in f.sql)
        if (
            not tests
            and len(fs) == 1
            and " = " in fs[0].sql
            and re.match(r"^\s*(?:are|were|do|did)\s+all\b", low)
        ):
            tests = [(low.find(fs[0].words), 0)]  # "are all the airports located in the USA?": every row
        if starts_bool and re.search(r"\b(all|every|each)\b", low) and tests and not asks_any and not ranks:
            # "are all pediatrics patients younger than 18?": the last comparison is the test, the
            # other filters say whose rows (rows with no value are not counted against it)
            test = fs[tests[-1][1]]
            rest = [f for f in fs if f is not test]
            return _every_row(rest, f"NOT ({test.sql})", test.desc, [test.column])
        if starts_bool and asks_any and fs and not ranks:
            return Plan(
                f"SELECT EXISTS (SELECT 1 FROM {TABLE}{where})",
                "any",
                "boolean",
                0.8,
                f"checks whether there is a row{when}",
                sorted(fcols),
            )
        per_group = (
            self._counts_of_listed(fs)
            or self._counts_per_year(fs)
            or self._top_group_counts(fcols, where, when)
            or self._counts_per_group(fcols, where, when)
            or self._per_year(fs)
        )
        if per_group is not None:
            return per_group
        # group-by: "which X has the highest number of / average Y", "most common X", "top 3 X by Y"
        rates = self._rates(fs, n, direction) if fs and not starts_bool else None
        if rates is not None:
            return rates
        group = self._date_group(where, when, n) or self._group(fs, where, when, n, direction)
        if group is not None:
            return group
        # "how many computers do the 3 biggest districts have": a figure of each ranked row
        each = (
            self._extreme_row(fs, where, when, n, direction, False)
            if n and direction is not None and HOW_MANY_EACH.match(low) and not IN_ALL.search(low)
            else None
        )
        if each is not None:
            return each
        # counts
        apart = None if starts_bool else self._count_columns_compared(where, when)
        if apart is not None:
            return apart
        many = re.search(r"\bhow many\b|\bnumber of\b", low)
        # ("the average number of packs": an average, below)
        averaged = re.search(r"\b(?:average|mean|median)\s+number of\b", low)
        # ("the highest number of critical violations", "on average, the number of ...": the
        # aggregate said of a column that counts)
        of = AGGREGATE_BEFORE.search(low[: many.start()]) if many and many.group(0) == "number of" else None
        fn, name = AGGREGATE_SAID[of.group(1)] if of else ("SUM", "total")
        if many and re.search(r"\bon average\b", low) and not averaged:
            fn, name = "AVG", "average"
        # ("how many units were sold": the rows' units done, added up, filtered or not)
        done = re.search(r"\bhow many [a-z]+(?: [a-z]+)? (?:were|was|have been|had been|got) ([a-z]+)\b", low)
        moved = done is not None and is_participle(done.group(1))
        summed = many is not None and (fs or fn != "SUM" or moved) and not averaged
        counted = self._counted_column(many, fcols) if many is not None and summed else None
        if counted is not None:  # "how many units of Beta were sold": a column counts the units
            c = quote(counted.name)
            return Plan(
                f"SELECT {fn}({c}) FROM {TABLE}{where}",
                fn.lower(),
                "number",
                0.75,
                f"takes the {name} {counted.name}{when}",
                [counted.name, *sorted(fcols)],
            )
        # ("the total number of bookings", "the total number of chart entries": the rows, where no
        # number column is named whole by the words, "total" with them -- a ``Total`` column is)
        total_of = re.search(r"\btotal (number|count) of\s+((?:[a-z]+\s*){1,3})", low)
        rows_said = (
            low.replace(total_of.group(0), total_of.group(0)[6:], 1)
            if total_of
            and not self._names_one_row(fs)
            and self._counts_rows_said(["total", *split_words(total_of.group(2))])
            else low
        )
        if re.search(r"\bhow many\b|\bnumber of\b|\bcount\b", low) and not re.search(
            r"\b(average|mean|median|total|sum)\b", self._without_header_aggregates(rows_said, fs)
        ):
            state = re.search(
                r"\bhow many \w+(?: \w+)? (?:were|was|are|is|came back|got|have been|had been) (\w+)\??\s*$",
                low,
            )
            said = self.best(("number",), [state.group(1)]) if state and not fs else None
            if said is not None and not said.flag:
                # "how many loans came back late?" with a ``Days Late`` column: the rows it is above 0
                c = quote(said.name)
                return Plan(
                    f"SELECT COUNT(*) FROM {TABLE} WHERE {c} > 0",
                    "count",
                    "number",
                    0.7,
                    f"counts the rows where {said.name} is above 0",
                    [said.name],
                )
            if self._names_one_row(fs):
                # counting every row is rarely what was asked; nor is counting the one row a label
                # names ("how many women were employed in Lakeside": a figure of that row)
                return None
            return Plan(
                f"SELECT COUNT(*) FROM {TABLE}{where}",
                "count",
                "number",
                0.75,
                f"counts the rows{when}",
                sorted(fcols),
                sql_only=rows_said != low,  # (the formula tier reads "total" as a sum)
            )
        # aggregates of a number column ("the age of the youngest": the lowest age); a yes/no
        # question about the top row ("is the priciest car a BMW?") is the row's test
        ranked = self.ranked_by()
        if starts_bool and direction is not None and not re.search(r"\b(average|mean|total|sum)\b", low):
            tested = self._extreme_row(fs, where, when, n, direction, starts_bool)
            if tested is not None:
                return tested
        per = self._per_period(fs, where, when) if fs and not starts_bool else None
        if per is not None:
            return per
        for words, fn, name in (
            (r"average|mean", "AVG", "average"),
            (r"median", "MEDIAN", "median"),
            # ("the combined revenue of A and B", "A plus B headcount": the rows listed added up;
            # "A and B combined" over columns is their sum, read elsewhere)
            (r"total|sum" + ("|combined|plus" if any(" IN (" in f.sql for f in fs) else ""), "SUM", "total"),
            (r"maximum|max|highest|largest|most", "MAX", "highest"),
            (r"minimum|min|lowest|smallest|least", "MIN", "lowest"),
        ):
            by_adjective = ranked is not None and ranked[1] == ("DESC" if fn == "MAX" else "ASC")
            agg_at = re.search(rf"\b({words})\b", low)
            found = agg_at
            if found and fn == "AVG" and self._aggregate_in_header(found.group(1), low[found.end() :]):
                found = None  # ("the highest average vote": ``vote_avg``'s highest)
            if (
                (found or (fn in ("MAX", "MIN") and by_adjective))
                and not n
                and not self._offset  # "the second highest": a row after the top one
                # (a row asked for, "which ... has the highest"; not "of students who completed")
                and not re.search(
                    r"^\s*(which|who|whose)\b|\b(which|whose)\b|\bof the\b.*\b(with|who)\b", low
                )
            ):
                col = self.best(("number",), exclude=fcols)
                # ("the average vote count": the column the words after "average" name whole, over
                # ``vote_avg``, which "average" itself helps name)
                after = split_words(low[agg_at.end() :])[:3] if agg_at else []
                whole = self.best(("number",), after, exclude=fcols) if after else None
                if whole is not None and mentions(after, whole.name) >= 1.0:
                    col = whole
                if col is None and by_adjective and ranked is not None and ranked[0].kind == "number":
                    col = ranked[0]
                if col is None:
                    continue
                participle = RANKED_BY_PARTICIPLE.search(low) if fn in ("MAX", "MIN") else None
                if participle is not None and not mentions([participle.group(1)], col.name):
                    continue  # ("the price of the highest rated wine": ranked by what no header names)
                if fn in ("MAX", "MIN") and self._asked_before_extreme(col, fcols) is not None:
                    break  # "what <category> has the highest ...": read from the row (below)
                c = quote(col.name)
                return Plan(
                    f"SELECT {fn}({c}) FROM {TABLE}{where}",  # (MEDIAN: the view's own aggregate)
                    fn.lower(),
                    "number",
                    0.75,
                    f"takes the {name} {col.name}{when}",
                    [col.name, *sorted(fcols)],
                )
        # the row with the highest / lowest value: "the X of the Y with the highest Z"
        if direction is not None:
            return self._extreme_row(fs, where, when, n, direction, starts_bool)
        across = self._across_columns(fs, where, when) if fs and not starts_bool else None
        if across is not None:
            return across
        # a lookup: "Which department is Bo in?" -- one column read on the rows the filters keep
        if fs and not starts_bool:
            kinds = ("text", "number", "date", "bool")
            # ("which countries other than the USA appear?": a column kept without a value is asked)
            fcols = fcols - {f.column for f in fs if f.sql.startswith("NOT (")}
            target = self.best(kinds, exclude=fcols)
            if target is None and re.search(r"\bwho\b", low):
                # "who was the financial officer": the rows' names, the first text column
                target = next((c for c in self.cols if c.kind == "text" and c.name not in fcols), None)
            # "what was the outcome of the one match played in 2019": the noun before 'of' is what
            # is read
            of = re.match(
                r"^\s*(?:what|which)\s+(?:are|is|was|were)\s+the\s+((?:\w+\s+){0,2}?\w+)\s+of\b",
                LEADING_PHRASE.sub("", low, count=1),
            )
            if of is not None:
                target = self.best(kinds, split_words(of.group(1)), exclude=fcols) or target
            computed = re.search(
                r"\b(?:total|sum|average|mean|median|combined|number of|count of|how many)\b", low
            )
            # (a list: asked as one, in an order, or by a plural "which countries ...")
            listed = (
                expected_type(self.q) == "list"
                or re.search(r"\balphabetical(?:ly)?\b|\b(?:date|chronological) order\b", low) is not None
                or re.match(
                    r"^\s*(?:which|what)\s+(?!(?:was|has|does|is)\b)[a-z]*[^su\W]s\s+(?!is\b|was\b|has\b)",
                    low,
                )
                is not None
            )
            if target is not None and listed and not computed:
                # "what are the codes of the depots in Leeds", "on which dates did ...": the
                # noun after the question word names the column listed
                asked = asked_columns(self.q, [c.name for c in self.cols if c.name not in fcols])
                if asked:
                    sc = self.scores()
                    target = max((c for c in self.cols if c.name in asked), key=lambda c: sc[c.name])
                return self._rows_listed(target, fs, where, when)
            if target is not None:
                t = quote(target.name)
                if target.kind == "number" and all(
                    self._category(f.column) or f.sql.startswith("strftime(") for f in fs
                ):
                    # "what was revenue in APAC in February": a slice of the rows, named only by
                    # categories the rows share and calendar months, holds the slice's total (one
                    # row: its own value)
                    # (a column of averages or rates is averaged over the slice, not added up)
                    of_rates = bool({"avg", "average", "mean", "rate", "pct"} & set(split_words(target.name)))
                    fn, taken_as = ("AVG", "average") if of_rates else ("SUM", "total")
                    return Plan(
                        f"SELECT {fn}({t}) FROM {TABLE}{where}",
                        fn.lower(),
                        "number",
                        0.7,
                        f"takes the {taken_as} {target.name}{when}",
                        [target.name, *sorted(fcols)],
                    )
                return Plan(
                    f"SELECT DISTINCT {t} FROM {TABLE}{where} LIMIT 2",
                    "lookup",
                    "one",
                    0.7,
                    f"reads {target.name}{when}",
                    [target.name, *sorted(fcols)],
                )
        return None

    def _rows_listed(self, target: Col, fs: list[_Filter], where: str, when: str) -> Plan:
        """Every row's ``target`` where the filters hold, for a request that lists them ("which
        regions have a female share above 45%? list them alphabetically"): in the order it asks
        (alphabetically; in date order; from the largest to the smallest of the figure compared),
        else the table's."""
        t = quote(target.name)
        low = self.low
        order = ""
        if re.search(r"\balphabetical(?:ly)?\b|\bfrom a to z\b|\bin (?:name|alphabetic) order\b", low):
            order = f" ORDER BY {t} ASC"
        elif re.search(r"\b(?:date|time|chronological) order\b|\b(?:earliest|oldest) first\b", low):
            dated = next((c for c in self.cols if c.kind == "date"), None)
            order = f" ORDER BY {quote(dated.name)} ASC" if dated is not None else ""
        elif compass := re.search(
            r"\bfrom (?:the )?(north|south|east|west) to (?:the )?(?:north|south|east|west)\b", low
        ):
            # "from west to east": by the coordinate, as "the westernmost" ranks
            found = ranked_column(f"{compass.group(1)}ernmost", [(c.kind, c.name) for c in self.cols])
            if found is not None:
                order = f" ORDER BY {quote(self.cols[found[0]].name)} {found[1].upper()}"
        else:
            compared = [f.column for f in fs if COMPARISON.match(f.words)]
            way = re.search(
                r"\bfrom (?:the )?(largest|biggest|highest|most|smallest|lowest|fewest|least)\b"
                r"|\b(largest|biggest|highest|smallest|lowest) first\b",
                low,
            )
            if compared and way:
                up = (way.group(1) or way.group(2)) in ("smallest", "lowest", "fewest", "least")
                order = f" ORDER BY {quote(compared[0])} {'ASC' if up else 'DESC'}"
        # (a category's values each once: "which countries appear", not one per row)
        once = "DISTINCT " if self._category(target.name) else ""
        return Plan(
            f"SELECT {once}{t} FROM {TABLE}{where}{' AND' if where else ' WHERE'} {t} IS NOT NULL{order}",
            "rows",
            "list",
            0.7,
            f"lists {target.name}{when}{order.replace(' ORDER BY', ', ordered by').replace(chr(34), '')}",
            [target.name, *sorted({f.column for f in fs})],
        )

    def _adjective(self) -> str | None:
        """The superlative adjective to place by meaning: 'cheapest', 'most expensive' (see
        :func:`gridsight.text.adjective_phrase`)."""
        values = {w for c in self.cols for v in c.distinct for w in split_words(v)}
        heads = self._header_words
        return adjective_phrase(self.words, lambda w: w in values or any(same(w, h) for h in heads))

    def ranked_by(self) -> tuple[Col, str] | None:
        """The number or date column the question's superlative adjective ranks by, and the order
        (DESC / ASC), by meaning (:func:`gridsight.text.ranked_by`): 'the cheapest' -> Price, ASC.
        Ranking columns are left out (every superlative is near 'highest rank'); on a date column
        the order is time's (the oldest date is the earliest)."""
        if self._ranked_looked:
            return self._ranked
        self._ranked_looked = True
        word = self._adjective()
        found = ranked_column(word, [(c.kind, c.name) for c in self.cols]) if word is not None else None
        if found is not None:
            self._ranked = (self.cols[found[0]], found[1].upper())
        return self._ranked

    def _direction(self) -> str | None:
        ws = self.words
        # "the top 4 <things> where the youngest ...": a superlative after the count says which end
        counted = [i for i, w in enumerate(ws[:-1]) if w in ("top", "bottom") and ws[i + 1].isdigit()]
        if counted and any(superlative(w) for w in ws[counted[0] + 2 :]):
            ws = ws[: counted[0]] + ws[counted[0] + 2 :]
        # ("at least 34", "at most 3", "more than 20,000": bounds of a comparison, no end)
        ws = [
            w
            for i, w in enumerate(ws)
            if not _at_bound(ws, i) and not (w in ("more", "less") and ws[i + 1 : i + 2] == ["than"])
        ]
        for w in ws:
            if w in DESCENDING:
                return "DESC"
            if w in ASCENDING:
                return "ASC"
            if superlative(w):
                ranked = self.ranked_by()
                return ranked[1] if ranked is not None else (direction_of(w) or "desc").upper()
        return None

    def _without_header_aggregates(self, low: str, fs: list[_Filter]) -> str:
        """``low`` without the aggregate words that belong to a compared column's header: "how many
        states levied an average excise tax above 50" compares ``Avg Excise Tax`` and averages
        nothing."""
        compared = {f.column for f in fs if COMPARISON.match(f.words)}
        aggregates = {"avg", "average", "mean", "total", "tot", "sum"}
        for m in re.finditer(r"\b(average|mean|total|sum)\s+((?:[a-z]+\s+){0,2}[a-z]+)", low):
            col = self.best(("number",), split_words(m.group(2)))
            if col is not None and col.name in compared and aggregates & set(split_words(col.name)):
                low = low[: m.start(1)] + " " * len(m.group(1)) + low[m.end(1) :]
        return low

    def _counts_rows(self, col: Col, after: list[str]) -> bool:
        """Whether the plural right after a compared number names the rows by their id column ("at
        least 5 tickets" over ``ticket_id``): a count of rows, not a value of that column."""
        return (
            self._identifies(col.name)
            and bool(after)
            and after[0].endswith("s")
            and after[0] not in IDENTIFIER_WORDS
            and any(same(after[0], h) for h in header_words(col.name))
        )

    def _every_group(self, fs: list[_Filter]) -> Plan | None:
        """ "Does every provider have at least 5 admissions?": whether each group of the column the
        noun after "every" / "each" / "all" names has that many rows."""
        m = re.match(r"^\s*(?:does|do|did|has|have|had)\s+(?:every|each|all(?: the)?)\s+([a-z]+)", self.low)
        test = COMPARISON.search(self.low)
        if m is None or test is None:
            return None
        after = [w for w in split_words(self.low[test.end() : test.end() + 30])[:2] if w not in STOP]
        counted = self.best(("number",), after)
        if counted is not None and not self._counts_rows(counted, after):
            return None  # ("... a budget above 5000": a figure of the rows, not how many)
        group = self.best(("text", "number"), [m.group(1)], exclude={counted.name} if counted else set())
        if group is None:
            return None
        g = quote(group.name)
        op, num = COMPARISON_OPS[test.group(1)], _lit(_num(test.group(3)))
        rest = [f for f in fs if f.column != group.name and not COMPARISON.match(f.words)]
        where = f" WHERE {g} IS NOT NULL" + "".join(f" AND {f.sql}" for f in rest)
        return Plan(
            f"SELECT NOT EXISTS (SELECT 1 FROM {TABLE}{where} GROUP BY {g} HAVING NOT (COUNT(*) {op} {num}))",
            "having",
            "boolean",
            0.8,
            f"checks that every {group.name} has a row count {op} {num}",
            [group.name, *sorted(f.column for f in rest)],
        )

    def _compares(self, i: int) -> bool:
        """Whether the question's ``i``-th word opens a comparison ("more than 20,000"), no ranking."""
        return self.words[i] in ("more", "less", "fewer") and self.words[i + 1 : i + 2] == ["than"]

    def _order_col(self, fcols: set[str]) -> Col | None:
        """The number column the superlative ranks by: named in the words after it, else the column
        its adjective means ('the cheapest' -> Price), else the one the whole question names."""
        for i, w in enumerate(self.words):
            if superlative(w) and not self._compares(i):
                # (a year anywhere names its columns: "the top home run totals from 1986": homer86)
                near = [w, *self.words[i + 1 : i + 4], *self._header_years]
                col = self.best(("number", "date"), near, exclude=fcols)
                ranked = self.ranked_by()
                if (
                    col is not None
                    and self._identifies(col.name)
                    and ranked is not None
                    and ranked[0].name not in fcols
                    and not self._identifies(ranked[0].name)
                ):
                    # "the 3 heaviest parcels" over parcel_id and weight_kg, "the most expensive
                    # sailing" over sailing_id and a fare: the rows' numbers are what the noun names,
                    # the adjective's measure is what ranks them
                    return ranked[0]
                if col is not None and self._identifies(col.name):
                    # "the best-paid respondent": the row's noun names its identifier, the other
                    # words a figure to rank by (by letters or by meaning: ``Annual Salary``)
                    other = self.best(("number", "date"), near, exclude=fcols | {col.name})
                    if other is not None and not self._identifies(other.name):
                        return other
                    if not set(near) & IDENTIFIER_WORDS:
                        # ("the highest rated wine" over wine_id and points: an id ranks nothing
                        # unless asked for by its own word, "the highest id")
                        col = None
                if col is not None:
                    return col
                if ranked is not None and ranked[0].name not in fcols:
                    return ranked[0]
                compared = [f.column for f in self.filters() if COMPARISON.match(f.words)]
                if compared and w in DESCENDING | ASCENDING:
                    # "the regions with more than 40,000 residents, from largest to smallest": a bare
                    # superlative ranks by the figure the rows were compared on
                    return next(c for c in self.cols if c.name == compared[0])
        found = self.best(("number", "date"), exclude=fcols)
        if found is not None and self._identifies(found.name) and not set(self.words) & IDENTIFIER_WORDS:
            # (an id ranks nothing unless asked for by its word: "the highest rated wine" is no
            # ``wine_id``)
            ids = {c.name for c in self.cols if self._identifies(c.name)}
            found = self.best(("number", "date"), exclude=fcols | ids)
        said = RANKED_BY_PARTICIPLE.search(self.low)
        if found is not None and said is not None and not mentions([said.group(1)], found.name):
            return None  # ("the price of the highest rated wine": ranked by what no header names)
        return found

    def _group(
        self, fs: list[_Filter], where: str, when: str, n: int | None, direction: str | None
    ) -> Plan | None:
        low = self.low
        common = re.search(
            r"\b(most|least) (common|frequent|popular|used|often|frequently)\b|\bfewest\b"
            r"|\bhighest representation\b"
            r"|\b(?:used|mentioned|cited|listed|named|chosen|picked) (?:the )?(?:most|least)\b",
            low,
        )
        by_count = re.search(
            r"\b(highest|lowest|most|least|largest|smallest|greatest|biggest|fewest) (number|count) of\b"
            r"|\bwith the (most|fewest|least)\b"
            # ("rank the days by number of tables served, busiest first": every group by its rows)
            r"|^\s*(?:please\s+)?(?:rank|order|sort|list)\b.*\bby (?:the |their )?"
            r"(?:(?:number|count) of|head ?count)\b",
            low,
        )
        by_agg = re.search(
            r"\bby (?:their |its |the )?(average|mean|median|total|sum of)\b"
            r"|\b(highest|lowest|largest|smallest|biggest|greatest|\w{3,}est)"
            r" (average|mean|median|total|combined)\b",
            low,
        )
        # "which weather comes with the strongest wind on average": the superlative ranks the
        # groups by the measure's average (its total: "in total")
        closing = None
        if (
            by_agg is not None
            and by_agg.group(3) in ("average", "mean")  # ("the highest total amount across ...": a sum)
            and self._aggregate_in_header(by_agg.group(3), low[by_agg.end() :])
        ):
            by_agg = None  # ("the highest average vote": ``vote_avg``'s highest, no group's average)
        if not by_agg and re.match(r"^\s*(which|what)\b", low) and self._first_super() < len(self.words):
            by_agg = closing = re.search(r"\b(?:on|in) (average|total)\b", low)
        by_freq = re.search(r"\bin terms of frequency\b|\bbased on frequency\b|\bby frequency\b", low)
        most_rows = None if by_freq else self._most_rows()
        by_freq = by_freq or most_rows
        # "which product sold the most units", "the weakest region by revenue": a measure's total
        # ("the most goals in a single game": one row's figure, not a total)
        single = re.search(r"\bin (?:a single|one single|one) \w+", low)
        by_total = None if (common or by_count or by_agg or by_freq or single) else self._by_total()
        if not (common or by_count or by_agg or by_freq or by_total):
            return None
        if (
            by_count
            and not (common or by_agg)
            and re.search(r"\b(?:of|posted|wrote|made|placed) the \w+ with the\b", low)
        ):
            # "the author of the post with the most words", "which company posted the job with the
            # most applicants": one row's value, not a group
            return None
        holder = re.search(r"\b([a-z]+) with the (?:most|fewest|least) ((?:[a-z]+\s*){1,3})", low)
        if (
            by_count
            and not (common or by_agg)
            and holder is not None
            and self.best(("text", "number", "bool", "date"), [holder.group(1)]) is None
            and self.best(("number",), split_words(holder.group(2))) is not None
        ):
            # "the person with the most training hours": the noun names no column, so it is a row,
            # and the words after name a figure of it: one row's value, not a group's count
            return None
        fcols = {f.column for f in fs}
        narrowed = most_rows.group(1).split() if most_rows else []  # "the most home games": home
        kinds = ("text", "number", "bool", "date")
        before = self.words[: self._first_super()]
        key = self.best(kinds, before, exclude=fcols)
        wider = self.best(kinds, before + narrowed, exclude=fcols) if narrowed else None
        # (the words that narrow the rows counted settle a tie among the columns the words before
        # the superlative name -- "which team won the most home games": ``HomeTeam`` -- but beat
        # none they name better: "which city has the most job postings" is ``Location``, by meaning)
        sc = self.scores(before)
        if wider is not None and (key is None or sc[wider.name] >= sc[key.name]):
            key = wider
        if key is not None and key.kind == "bool" and not _every_word_named(before + narrowed, key.name):
            return None  # ("which dish has the most reviews": a word of ``hasDishPhoto`` is no group)
        # "what are the two most frequent claim locations": the words right after "most common" /
        # "most frequent" name the values ranked, before any the question names first ("cases")
        frequent = common is not None and common.group(2) is not None  # ("most frequent", no bare "fewest")
        # (its content words: "most often in 1986" names no column by its year)
        after_common = (
            [
                w
                for w in split_words(low[common.end() : common.end() + 40])[:3]
                if w.isalpha() and w not in STOP
            ]
            if common and frequent
            else []
        )
        named_after = self.best(("text", "bool", "date"), after_common, exclude=fcols)
        if named_after is not None and not self._identifies(named_after.name):
            key = named_after
        if key is None:
            key = self.best(("text", "number", "bool"), exclude=fcols)
        if key is None or (most_rows is not None and key.kind == "text" and self._unique(key.name)):
            return None  # (rows counted per value of a column whose values all differ: one each)
        ranked_words = self.words[self._first_super() :]
        bare_fewest = common is not None and common.group(0) == "fewest"
        if (by_count or bare_fewest) and key.kind == "number" and self.best(("number",), ranked_words) is key:
            # "the 2 libraries with the most books", "who had the fewest goals": ranked by the
            # figures, not grouped by them
            return None
        if (by_agg or by_count) and not closing and self._names_rows(key.name):
            # one row per name: "the district with the lowest average income", "the 2 libraries
            # with the most visitors" are rows' figures, not groups'
            return None
        if by_total is not None and not (key.kind == "text" and self._category(key.name)):
            return None  # a measure's total needs groups: a category the rows share
        k = quote(key.name)
        asc = bool(re.search(r"\b(least|fewest|lowest|smallest|bottom)\b", low))
        asc = asc or (by_total is not None and direction == "ASC")  # "the weakest region by revenue"
        if by_agg is not None and by_agg is not closing and (by_agg.group(2) or "").endswith("est"):
            asc = asc or direction == "ASC"  # "the youngest average age": the lowest average
        if self._every:  # "from the most to the least common": the first direction word's way
            asc = direction == "ASC"
        agg = "COUNT(*)"
        what = "rows"
        measured: list[str] = []
        by_words = by_count or by_total
        counted = self._counted_column(by_words, fcols | {key.name}) if by_words and not by_agg else None
        if counted is not None:  # "the highest number of units" where a column counts the units
            agg, what = f"SUM({quote(counted.name)})", f"total {counted.name}"
            measured.append(counted.name)
        if by_agg:
            at = self.words.index(by_agg.group(0).split()[-1])
            val = self.best(
                ("number",),
                self.words[self._first_super() : at] if closing else self.words[at:],
                exclude=fcols | {key.name},
            )
            ranked = self.ranked_by() if closing and val is None else None
            if ranked is not None and ranked[0].kind == "number" and ranked[0].name != key.name:
                val, asc = ranked[0], ranked[1] == "ASC"  # "the cheapest hotels on average"
            if val is None and closing:
                # ("which member type renews loans the most on average": the verb before the
                # superlative names the measure, ``Renewals``)
                val = self.best(("number",), self.words[: self._first_super()], exclude=fcols | {key.name})
            if val is None:
                return None
            fn = (
                "AVG"
                if re.search(r"\b(average|mean)\b", by_agg.group(0))
                else "MEDIAN"
                if "median" in by_agg.group(0)
                else "SUM"
            )
            agg = f"{fn}({quote(val.name)})"
            what = f"{ {'SUM': 'total', 'AVG': 'average'}.get(fn, 'median') } {val.name}"
            measured.append(val.name)
        limit = n or 1
        if agg == "COUNT(*)" and key.kind == "text" and (items := self._list_items(key.name)):
            # "the two most common tags" where each cell lists several: count the items, not the lists
            ands = "".join(f" AND {f.sql}" for f in fs)
            parts = [
                f"SELECT {_lit(item)} AS item, COUNT(*) AS n FROM {TABLE} WHERE "
                f"{self._item_test(key.name, item)}{ands}"
                for item in items
            ]
            return Plan(
                " UNION ALL ".join(parts) + f" ORDER BY n {'ASC' if asc else 'DESC'} {self._limit(limit)}",
                "categories",
                "list" if n else "text",
                0.8,
                f"counts each item listed in {key.name}{when} and ranks the items",
                [key.name, *sorted(fcols)],
                sql_only=True,
            )
        notnull = f"{k} IS NOT NULL AND {k} <> ''"
        sql = (
            f"SELECT {k} FROM {TABLE}{where}{' AND' if where else ' WHERE'} {notnull} GROUP BY {k} "
            f"ORDER BY {agg} {'ASC' if asc else 'DESC'} {self._limit(limit)}"
        )
        return Plan(
            sql,
            "categories" if key.kind == "text" else "group",  # a text column's groups: see SQL_FIRST
            "list" if n else ("number" if key.kind == "number" else "text"),
            0.8,
            f"groups the rows by {key.name}{when} and ranks the groups by {what}",
            [key.name, *measured, *sorted(fcols)],
        )

    def _years_listed(self) -> list[int] | None:
        """The years a question asks about one by one: each year of a span asked year by year ("from
        2012 to 2015, in year order"; at most 30), or two or more listed ("in 1985, 1990 and 1995")."""
        listed = [int(y) for y in re.findall(r"\b(?:19|20)\d\d\b", self.low)]
        span = re.search(
            r"\b(?:from|between)\s+((?:19|20)\d\d)\s+(?:to|and|through|until)\s+((?:19|20)\d\d)\b", self.low
        )
        if span is not None and re.search(rf"\b(?:{YEAR_BY_YEAR})\b", self.low):
            first, last = int(span.group(1)), int(span.group(2))
            return list(range(first, last + 1)) if 0 < last - first <= 30 else []
        if len(listed) >= 2 and re.search(r"\b(?:19|20)\d\d\s*,?\s+and\s+(?:19|20)\d\d\b", self.low):
            return listed
        return None

    def _year_columns(self) -> list[Col]:
        """The number columns of years: a header saying year, every cell a whole year."""
        return [
            c
            for c in self.cols
            if c.kind == "number" and YEAR_WORDS & set(header_words(c.name)) and self._years_only(c.name)
        ]

    def _counts_per_year(self, fs: list[_Filter]) -> Plan | None:
        """ "How many frosty nights were there in each year from 2019 to 2022?": the rows counted in each
        year asked, in that order (a year without rows counts 0), by a number column of years or the
        year of the date column."""
        years = self._years_listed()
        many = re.match(r"^\s*how many\b", self.low)
        if not years or many is None or self._counted_column(many, set()) is not None:
            return None
        yearly = self._year_columns()
        date = self._date_column()
        if len(yearly) == 1:
            year, read = quote(yearly[0].name), yearly[0].name
        elif not yearly and date is not None:
            year, read = f"CAST(strftime('%Y', {quote(date.name)}) AS INTEGER)", date.name
        else:
            return None
        rest = [f for f in fs if f.column != read and not re.search(r"\b(?:19|20)\d\d\b", f.words)]
        ands = "".join(f" AND {f.sql}" for f in rest)
        return Plan(
            _each_of(years, lambda y: f"SELECT COUNT(*) FROM {TABLE} WHERE {year} = {y}{ands}"),
            "years",
            "list",
            0.8,
            f"counts the rows{' where ' + ' and '.join(f.desc for f in rest) if rest else ''} in each of "
            f"the years {', '.join(map(str, years))}",
            [read, *sorted({f.column for f in rest})],
            sql_only=True,
        )

    def _per_year(self, fs: list[_Filter]) -> Plan | None:
        """ "What was the price index in 1985, 1990 and 1995?", "New York's packs per capita from 1985 to
        1989, in year order": one figure per year listed (or each year of the span), in that order,
        over a table with a number column of years; each year's rows (under the question's other
        conditions) must hold one figure, else there is no plan."""
        years = self._years_listed()
        if years is None:
            return None
        yearly = self._year_columns()
        if len(yearly) != 1 or not years:
            return None
        y = quote(yearly[0].name)
        rest = [f for f in fs if f.column != yearly[0].name]
        measure = self.best(("number",), exclude={yearly[0].name, *(f.column for f in rest)})
        if measure is None or self._identifies(measure.name):
            return None
        m = quote(measure.name)
        ands = "".join(f" AND {f.sql}" for f in rest)
        for year in years:
            one = self.view.conn.execute(
                f"SELECT COUNT(DISTINCT {m}) FROM {TABLE} WHERE {y} = ?{ands}", (year,)
            ).fetchone()
            if one is None or one[0] != 1:
                return None  # (a year of several figures, or none: which one is asked is unclear)
        return Plan(
            _each_of(years, lambda year: f"SELECT MAX({m}) FROM {TABLE} WHERE {y} = {year}{ands}"),
            "years",
            "list",
            0.8,
            f"reads {measure.name} for each of the years {', '.join(map(str, years))}"
            + (" where " + " and ".join(f.desc for f in rest) if rest else ""),
            [measure.name, yearly[0].name, *sorted({f.column for f in rest})],
        )

    def _more_rows_of(self, fs: list[_Filter]) -> Plan | None:
        """ "Are there more female than male respondents?", "are there more women than men?": the
        rows of one value of a category column counted against the rows of another (each side named
        by the value's letters or, in a small category, by meaning: "women" -> ``Female``)."""
        m = re.search(
            r"\b(more|fewer|less)\s+([\w' -]{1,40}?)\s+than\s+([\w' -]{1,40}?)"
            r"(?=\s+(?:among|in|of|on|at|for|with|who|that|are|were|is|was|do|did|have|has)\b|\s*[?.,;]|\s*$)",
            self.low,
        )
        # "does Alaska have more airports than Texas?": the rows of the value before the verb
        # against those of the value after "than"
        owner = re.match(
            r"^\s*(?:does|do|did|has|have|had)\s+([\w' -]{1,40}?)\s+(?:have|has|had|hold|count)\s+"
            r"(more|fewer|less)\s+[\w' -]{1,40}?\s+than\s+([\w' -]{1,40}?)\s*[?.!]*\s*$",
            self.low,
        )
        if owner is not None:
            m = owner
            sides = [split_words(owner.group(1)), split_words(owner.group(3))]
            texts = (owner.group(1), owner.group(3))
            more = owner.group(2)
        elif m is not None:
            sides = [split_words(m.group(2)), split_words(m.group(3))]
            texts = (m.group(2), m.group(3))
            more = m.group(1)
        else:
            return None
        measures = [self.best(("number",), side) for side in sides]
        if any(c is not None and not self._identifies(c.name) for c in measures):
            return None  # "more likes than ...": a measure compared, not rows counted
        for col in self.cols:
            if col.kind != "text" or not self._category(col.name):
                continue
            values = [str(v) for v in col.distinct]
            picked = []
            for side, text in zip(sides, texts, strict=True):
                # (a state of the USA by its postal code: "Alaska" over ``AK``)
                named = [
                    v
                    for v in values
                    if _names_value(v.lower(), text) or v.lower() in written_forms(text.strip())
                ]
                picked.append(named[0] if len(named) == 1 else category_named(side, values))
            if None in picked or picked[0] == picked[1]:
                continue
            k = quote(col.name)
            rest = [f for f in fs if f.column != col.name]
            ands = "".join(f" AND {f.sql}" for f in rest)
            op = ">" if more == "more" else "<"
            a, b = (f"(SELECT COUNT(*) FROM {TABLE} WHERE {k} = {_lit(v)}{ands})" for v in picked)
            return Plan(
                f"SELECT {a} {op} {b}",
                "compare",
                "boolean",
                0.8,
                f"counts the rows where {col.name} is {picked[0]} against those where it is {picked[1]}",
                [col.name, *sorted({f.column for f in rest})],
            )
        return None

    def _asked_as_header_asks(self) -> Col | None:
        """The one column whose header is a question asking what this question asks, by its opening
        "how" and the word after it: "How satisfied are the 3 ...?" reads "On a scale of 1-10, how
        satisfied are you with your job?" (a survey's question headers)."""
        m = re.match(r"^\s*how\s+([a-z]+)\b", LEADING_PHRASE.sub("", self.low, count=1))
        if m is None or m.group(1) in ("many", "much"):
            return None
        found = [
            c
            for c in self.cols
            if any(
                a == "how" and same(b, m.group(1))
                for a, b in itertools.pairwise(w.casefold() for w in re.findall(r"[^\W_]+", c.name))
            )
        ]
        return found[0] if len(found) == 1 else None

    def _asks_own_word(self, name: str) -> bool:
        """Whether the question names a word of a header written as a question ("Did the patient die
        during the stay?") that no other header holds: "how many patients died" asks it, though it
        leaves the rest of the header's words ("stay") unsaid."""
        others = {stem(h) for c in self.cols if c.name != name for h in header_words(c.name)}
        return any(
            same(h, w) and stem(h) not in others for h in header_words(name) for w in self.words if len(h) > 2
        )

    def _counts_of_listed(self, fs: list[_Filter]) -> Plan | None:
        """ "How many airports do Oregon, Washington and Idaho have, in that order?": the rows of
        each value listed by name, in that order, all of one text column (a state of the USA may be
        its postal code)."""
        low = self.low
        if not re.match(r"^\s*how many\b", low) or not re.search(
            r"\bin (?:that|this|the same|the given) order\b|\brespectively\b", low
        ):
            return None
        names = [n.lower() for n in proper_phrases(self.q)]
        if len(names) < 2:
            return None
        for c in self.cols:
            if c.kind != "text":
                continue
            q = quote(c.name)
            found = []
            for name in names:
                cell = self._cell_written(c, written_forms(name))
                if cell is None:
                    break
                found.append(cell)
            if len(found) != len(names):
                continue
            rest = [
                f for f in fs if f.column != c.name and not any(f.words in n or n in f.words for n in names)
            ]
            ands = "".join(f" AND {f.sql}" for f in rest)
            counts = [f"SELECT COUNT(*) FROM {TABLE} WHERE {q} = {_lit(v)}{ands}" for v in found]
            return Plan(
                _each_of(counts, str),
                "years",
                "list",
                0.8,
                f"counts the rows where {c.name} is each of {', '.join(map(str, found))}, in that order",
                [c.name, *sorted({f.column for f in rest})],
                sql_only=True,
            )
        return None

    def _top_group_counts(self, fcols: set[str], where: str, when: str) -> Plan | None:
        """The row counts of the groups with the most rows: "what are the 4 largest airport counts by
        state?", "how many cases did each of the 3 busiest judges hear?" (a list of counts, the
        largest first; "smallest" / "quietest" the other way)."""
        low = self.low
        m = re.search(
            r"\b(\d+|" + "|".join(_N) + r") (largest|biggest|highest|greatest|smallest|lowest) "
            r"(?:[a-z]+ ){0,2}counts? (?:by|per|for each|of each) ([a-z]+)",
            low,
        ) or re.match(
            r"^\s*how many\b.*\beach of the (\d+|" + "|".join(_N) + r") (busiest|largest|biggest|most active"
            r"|quietest|smallest|least active) ([a-z]+)",
            low,
        )
        if m is None:
            return None
        n = _N.get(m.group(1)) or int(m.group(1))
        key = self.best(("text", "number", "bool", "date"), [m.group(3)], exclude=fcols)
        if key is None:
            return None
        up = m.group(2) in ("smallest", "lowest", "quietest", "least active")
        said = f"takes the {n} {'fewest' if up else 'most'}"
        return _group_counts(key.name, fcols, where, when, up, n, said)

    def _counts_per_group(self, fcols: set[str], where: str, when: str) -> Plan | None:
        """ "How many respondents of each gender are there, larger group first?", "how many counties
        does each state have?": the rows counted per value of the column the words after "each" name,
        largest count first unless the question says the smallest comes first."""
        m = COUNT_PER_GROUP.match(self.low)
        if m is None or IN_ALL.search(self.low):
            return None
        key = self.best(("text", "number", "bool"), split_words(m.group(1)), exclude=fcols)
        if key is None or self._identifies(key.name) or self._names_rows(key.name):
            return None
        up = re.search(
            r"\b(?:smallest|smaller|fewest|least|lowest)\b[^,.;]{0,30}\bfirst\b"
            r"|\bfrom the (?:smallest|fewest|least|lowest)\b|\bascending\b",
            self.low,
        )
        return _group_counts(
            key.name, fcols, where, when, bool(up), None, f"{'fewest' if up else 'most'} first"
        )

    def _by_total(self) -> re.Match[str] | None:
        """Where the question ranks by a measure's total: "the most <measure>" or "by <measure>"
        where the words name a number column (see :meth:`_counted_column`)."""
        for m in re.finditer(r"\bthe (?:most|least|fewest)\b|\bby\b", self.low):
            if self._counted_column(m, set()) is not None:
                return m
        return None

    def _counts_rows_said(self, said: list[str]) -> bool:
        """Whether "the total number of <said>" counts rows: its noun names the rows' identifier
        ("bookings": ``booking_ref``), or no number column has every header word said."""
        noun = said[1] if len(said) > 1 else ""
        if any(self._keys_rows(c) and mentions([noun], c.name) > 0 for c in self.cols):
            return True
        return not any(c.kind == "number" and mentions(said, c.name) >= 1.0 for c in self.cols)

    def _full_year(self, where: str, when: str, fcols: set[str]) -> Plan | None:
        """ "What were North America's unit sales for the full year?" over ``Q1 | Q2 | Q3 | Q4`` (or
        month) columns: every period column added up over the rows asked. None where the question
        names another number column (that column's total is asked) or the periods are fewer than 2."""
        periods = [
            c
            for c in self.cols
            if c.kind == "number" and (re.fullmatch(r"(?i)\s*Q[1-4]\s*", c.name) or month_of(c.name))
        ]
        if len(periods) < 2:
            return None
        if not _FULL_YEAR.search(self.low):
            # ("how many Pro units were sold in total?" where the periods are the only figures and
            # none is named: all of them)
            only = all(c.kind != "number" or c in periods for c in self.cols)
            named = any(re.search(rf"\b{re.escape(c.name.strip().casefold())}\b", self.low) for c in periods)
            if (
                not (only and _IN_TOTAL.search(self.low))
                or named
                or re.search(r"\b(?:quarter|month|half)\b", self.low)
            ):
                return None
        other = self.best(("number",), exclude=fcols | {c.name for c in periods})
        if other is not None and not self._identifies(other.name):
            return None  # ("the total revenue for the year": the ``Revenue`` column's)
        added = " + ".join(f"COALESCE(SUM({quote(c.name)}), 0)" for c in periods)
        names = [c.name for c in periods]
        return Plan(
            f"SELECT {added} FROM {TABLE}{where}",
            "sum",
            "number",
            0.75,
            f"adds up {', '.join(names)}{when}",
            [*names, *sorted(fcols)],
            sql_only=True,  # (the formula tier counts the rows of "how many ... units")
        )

    def _per_ratio(self, where: str, when: str, fcols: set[str]) -> Plan | None:
        """ "What was revenue per unit in March?", "the fare per passenger": one number
        column over another, each named by the words either side of "per", added up over the rows
        asked (one row: its own ratio). None where a header says the phrase itself (``Packs per
        Capita``) or a word per row is meant ("per month", "for each")."""
        m = re.search(r"\b((?:[a-z]+\s+){0,3}?[a-z]+)\s+per\s+([a-z]+(?:\s+[a-z]+)?)\b", self.low)
        if m is None or re.search(r"\b(?:each|every|by|average|mean|median)\b", self.low):
            return None  # ("the average units per sale": the rows' average, a sale a row)
        said = [w for w in split_words(m.group(0)) if w not in STOP]
        if any(
            c.kind == "number"
            and re.search(r"\bper\b|/", c.name.casefold())
            and _every_word_named(said, c.name)
            for c in self.cols
        ):
            return None  # (a header writes the ratio: ``Packs per Capita``)
        top = self._named_whole(split_words(m.group(1)), fcols)
        under = split_words(m.group(2))[:1]
        taken = fcols | ({top.name} if top else set())
        # ("revenue per unit" over ``Units sold``: the header its first word heads)
        bottom = self._named_whole(under, taken) or self._headed_by(under, taken)
        if top is None or bottom is None:
            return None
        a, b = quote(top.name), quote(bottom.name)
        return Plan(
            f"SELECT 1.0 * SUM({a}) / NULLIF(SUM({b}), 0) FROM {TABLE}{where}",
            "ratio",
            "number",
            0.75,
            f"divides the {top.name} by the {bottom.name}{when}",
            [top.name, bottom.name, *sorted(fcols)],
        )

    def _headed_by(self, said: list[str], exclude: set[str]) -> Col | None:
        """The one number column (no id) whose header's first word is the one word ``said``."""
        headed = [
            c
            for c in self.cols
            if c.kind == "number"
            and c.name not in exclude
            and not self._identifies(c.name)
            and len(said) == 1
            and (hw := header_words(c.name))
            and same(hw[0], said[0])
        ]
        return headed[0] if len(headed) == 1 else None

    def _named_whole(self, said: list[str], exclude: set[str]) -> Col | None:
        """The one number column (no id) every word of whose header ``said`` names."""
        named = [
            c
            for c in self.cols
            if c.kind == "number"
            and c.name not in exclude
            and not self._identifies(c.name)
            and _header_said(c.name, said)
        ]
        return named[0] if len(named) == 1 else None

    def _counted_column(self, by_count: re.Match[str], exclude: set[str]) -> Col | None:
        """The numeric column the words after "number of" / "the most" name by every word of its
        header, the first of them included ("the most units" with a ``Units`` column; "records (n)"
        with ``n``; "units of Beta were sold" with ``Units sold``): what is counted is then its
        total, not the rows."""
        # ("the most total precipitation", "the most combined sales": the total is what is said)
        rest = re.sub(
            r"^\s*(?:(?:total|combined|overall)\s+)?(?:amount of\s+)?", " ", self.low[by_count.end() :]
        )
        after = re.findall(r"[^\W_]+", rest)
        aside = re.match(r"\s*[^\W_]+\s*\(([^)]*)\)", rest)  # "records (n)": the column in brackets
        first = [after[0], *re.findall(r"[^\W_]+", aside.group(1))] if after and aside else after[:1]
        named = [
            c
            for c in self.cols
            if c.kind == "number"
            and c.name not in exclude
            and not self._identifies(c.name)  # "how many loans" counts rows, not ``Loan #`` values
            and not self._years_only(c.name)  # "in how many years": rows, not a sum of ``Year``
            and any(same(h, w) for h in _unbracketed_words(c.name) for w in first)  # the counted noun first
            and _header_said(c.name, after)
        ]
        return named[0] if len(named) == 1 else None

    def _compare_columns(self, where: str, when: str) -> Plan | None:
        """'Is the average reading score higher than the average math score?': aggregates of two
        columns over the same rows, compared (the second aggregate is the first's when unsaid)."""
        fns = _AGGREGATE_FN
        said = "|".join(("average", "mean", "total", "sum", "median", "maximum", "max", "minimum", "min"))
        m = re.search(
            rf"\b({said})\s+(.+?)\s+(higher|greater|larger|bigger|more|lower|smaller|less)"
            rf"\s+than\s+(?:that of\s+)?(?:the\s+|its\s+|their\s+)?(?:({said})\b\s*)?"
            r"(.*?)[?.!]*\s*$",
            self.low,
        )
        if m is None:
            return None
        fa, fb = fns[m.group(1)], fns[m.group(4) or m.group(1)]
        a = self.best(("number",), split_words(m.group(2)))
        b = self.best(("number",), split_words(m.group(5)), exclude={a.name} if a else set())
        if a is not None and fa != fb and (b is None or not split_words(m.group(5)) or self._same_measure(m)):
            b = a  # "is the mean price greater than its median?": two aggregates of one column
        if a is None or b is None or (a.name == b.name and fa == fb):
            return None
        way = ">" if m.group(3) in ("higher", "greater", "larger", "bigger", "more") else "<"
        return Plan(
            f"SELECT (SELECT {fa}({quote(a.name)}) FROM {TABLE}{where}) {way} "
            f"(SELECT {fb}({quote(b.name)}) FROM {TABLE}{where})",
            "compare",
            "boolean",
            0.75,
            f"compares the {m.group(1)} {a.name} with the {m.group(4) or m.group(1)} {b.name}{when}",
            [a.name, b.name],
        )

    def _extremes_said(self) -> list[tuple[Col, str, str]]:
        """Each superlative of the question with the number or date column it ranks by and its
        order: the column named in the words after it ("the highest load"), else the one the
        adjective means ("the oldest driver": ``driver_age``, DESC)."""
        out: list[tuple[Col, str, str]] = []
        ws = self.words
        numbers = [c for c in self.cols if c.kind in ("number", "date")]
        for i, w in enumerate(ws):
            if not superlative(w) or w in ("more", "less", "top", "bottom") or _at_bound(ws, i):
                continue
            following = list(itertools.takewhile(lambda x: not superlative(x), ws[i + 1 : i + 4]))
            col = (
                self.best(("number", "date"), [x for x in following if x not in STOP]) if following else None
            )
            said_way = direction_of(w) if col is not None else None  # ("the longest loan duration")
            way = said_way.upper() if said_way else None
            if col is None or way is None:
                found = ranked_column(w, [(c.kind, c.name) for c in numbers])
                if found is None:
                    continue
                col, way = numbers[found[0]], found[1].upper()
            out.append((col, way, w))
        return out

    def _same_row(self, fs: list[_Filter]) -> Plan | None:
        """'Is the van with the most parcels also the one with the highest cost?', 'does the oldest
        driver also have the longest route?': whether one row is first by both measures -- the
        second measure of the row first by the first is the second's own extreme."""
        if not re.search(r"\balso\b|\bthe same\b", self.low):
            return None
        ends = self._extremes_said()
        if len(ends) != 2 or ends[0][0] is ends[1][0]:
            return None
        (a, way_a, said_a), (b, way_b, said_b) = ends
        qa, qb = quote(a.name), quote(b.name)
        where = " WHERE " + " AND ".join([*(f.sql for f in fs), f"{qa} IS NOT NULL", f"{qb} IS NOT NULL"])
        # "is the depot with the most parcels the same as the depot with ...": the
        # text column named before the first superlative is compared
        asked = [w for w in self.words[: self._first_super()] if w not in STOP]
        entity = self.best(("text",), asked) if asked else None
        if entity is not None:
            e = quote(entity.name)
            first, second = (
                f"(SELECT {e} FROM {TABLE}{where} ORDER BY {q} {way} LIMIT 1)"
                for q, way in ((qa, way_a), (qb, way_b))
            )
            sql, desc = f"SELECT {first} = {second}", f"the {entity.name} of"
        else:
            extreme = "MAX" if way_b == "DESC" else "MIN"
            sql = (
                f"SELECT (SELECT {qb} FROM {TABLE}{where} ORDER BY {qa} {way_a} LIMIT 1) = "
                f"(SELECT {extreme}({qb}) FROM {TABLE}{where})"
            )
            desc = ""
        return Plan(
            sql,
            "same-row",
            "boolean",
            0.75,
            f"checks whether {desc or 'the row with'} the {said_a} {a.name} is {desc or 'the row with'} the "
            f"{said_b} {b.name}",
            [a.name, b.name, *([entity.name] if entity else []), *sorted({f.column for f in fs})],
        )

    def _same_measure(self, m: re.Match[str]) -> bool:
        """Whether both sides of a comparison of aggregates name the same column ("the average
        Japanese sales ... the median Japanese sales")."""
        return set(split_words(m.group(5))) <= set(split_words(m.group(2)))

    def _absent(self, fs: list[_Filter]) -> Plan | None:
        """'Are there any cars painted Purple?' where no cell holds Purple in any form and Purple is
        a value of the kind a text column holds (:mod:`gridsight.qa._absent`): no row has it."""
        asks_any = r"^\s*(?:is|are|was|were) there\b|\b(?:any|anyone|anybody|at least one)\b"
        if not re.search(asks_any, self.low):
            return None
        name = absent_phrase(self.q, [f.words for f in fs], self._header_words)
        if name is None:
            return None
        texts = [c for c in self.cols if c.kind == "text" and not c.flag]
        forms = written_forms(name.lower())
        if any(self._holds_part(c, form) for c in texts for form in forms):
            return None  # held somewhere: not absent
        values = {
            c.name: self._list_items(c.name)
            or [
                str(v)
                for (v,) in self.view.conn.execute(
                    f"SELECT {quote(c.name)} FROM {TABLE} WHERE {quote(c.name)} <> '' "
                    f"GROUP BY {quote(c.name)} ORDER BY COUNT(*) DESC LIMIT {KIND_SAMPLE}"
                )
            ]
            for c in texts
        }
        at = self.low.find(name.lower())
        before = split_words(self.low[:at])[-4:] if at > 0 else []
        sc = self.scores(before)
        named = sorted((c.name for c in texts if sc[c.name] > 0), key=lambda n: -sc[n])
        column = value_column(name, values, named)
        if column is None:
            return None
        test = (
            self._item_test(column, name) if self._list_items(column) else f"{quote(column)} = {_lit(name)}"
        )
        return Plan(
            f"SELECT EXISTS (SELECT 1 FROM {TABLE} WHERE {test})",
            "absent",
            "boolean",
            0.7,
            f"checks whether any row has {name} in {column} (no cell holds it)",
            [column],
            sql_only=True,
        )

    def _all_recorded(self, fs: list[_Filter]) -> Plan | None:
        """'Do all inspections have a violation description recorded?', 'does every game have a
        user score?': no row, of those the other conditions keep, has the column empty."""
        m = re.match(
            r"^\s*(?:do|does|did|have|has)\s+(?:all|every|each)\b(?:\s+(?:of\s+the\s+)?[\w-]+){0,3}?\s+"
            r"(?:have|has|had|include|carry|show|list)\s+(?:a\s+|an\s+|the\s+|their\s+|its\s+|some\s+)?"
            r"([a-z0-9 ]{3,40}?)"
            r"(?:\s+(?:recorded|given|filled in|entered|listed|set|specified|stated|on file))?"
            r"\s*[?.!]*\s*$",
            self.low,
        )
        valued = r"\b(?:of|with|above|below|over|under|than|more|less|equal|at)\b|\d"
        if m is None or re.search(valued, m.group(1)):
            return None  # ("a grade of A", "a score above 90": a value tested, not a blank)
        col = self.best(("text", "number", "date"), split_words(m.group(1))[:3])
        if col is None or col.flag or any(f.column == col.name for f in fs):
            return None  # ("does every inspection have a grade of A": a value, not a blank, tested)
        return _every_row(fs, _empty(col), f"a value in {col.name}", [col.name], sql_only=True)

    def _spread(self, fs: list[_Filter], where: str, when: str) -> Plan | None:
        """'The range of guest ratings', 'the difference between the highest and lowest mileage',
        'maximum minus minimum': the highest value of a number column less its lowest."""
        low = self.low
        high = r"(?:highest|largest|biggest|greatest|longest|maximum|max|top)"
        lowest = r"(?:lowest|smallest|least|shortest|minimum|min|bottom)"
        between = r"\b(?:difference|gap|spread)\s+between\s+(?:the\s+)?"
        m = (
            re.search(r"\b(?:range|spread)\s+(?:of|in)\b", low)
            or re.search(rf"{between}{high}\s+and\s+(?:the\s+)?{lowest}\b", low)
            or re.search(rf"{between}{lowest}\s+and\s+(?:the\s+)?{high}\b", low)
            or re.search(rf"\b{high}\s+minus\s+(?:the\s+)?{lowest}\b", low)
        )
        bands = r"\b(?:which|what|who)\s+(?:\w+\s+)?(?:range|band|bracket)\b|\branges\b"
        if m is None or re.search(bands, low):
            return None
        # (the measure is named after the phrase: "the range of <guest ratings>", "... lowest <sales>")
        taken = {f.column for f in fs}
        col = self.best(("number",), split_words(low[m.end() :]), exclude=taken) or self.best(
            ("number",), exclude=taken
        )
        if col is None or col.flag:
            return None
        c = quote(col.name)
        return Plan(
            f"SELECT MAX({c}) - MIN({c}) FROM {TABLE}{where}",
            "spread",
            "number",
            0.8,
            f"takes the highest {col.name} less the lowest{when}",
            [col.name, *sorted({f.column for f in fs})],
        )

    def _count_columns_compared(self, where: str, when: str) -> Plan | None:
        """'How many films made more at the box office than their budget?': the rows where one
        number column is above (or below) another, each named on its side of "than"."""
        m = re.search(
            r"\bhow many\b.*?\b(more|less|higher|lower|greater|bigger|larger|smaller|fewer)\s+(.+?)\s+than\s+"
            r"(?:their|its|the|his|her)?\s*(.+?)(?:[?.!]|\s*$)",
            self.low,
        )
        if m is None or COMPARISON.search(self.low):
            return None  # ("more than 20": a comparison with a number, read by the filters)
        a = self.best(("number",), split_words(m.group(2)))
        b = self.best(("number",), split_words(m.group(3)), exclude={a.name} if a else set())
        if a is None or b is None or a.name == b.name:
            return None
        op = ">" if m.group(1) in ("more", "higher", "greater", "bigger", "larger") else "<"
        cond = f"{quote(a.name)} {op} {quote(b.name)}"
        return Plan(
            f"SELECT COUNT(*) FROM {TABLE}{where}{' AND' if where else ' WHERE'} {cond}",
            "count",
            "number",
            0.75,
            f"counts the rows where {a.name} {op} {b.name}{when.replace(' where', ' and', 1)}",
            [a.name, b.name],
        )

    def _aggregates_apart(self, where: str, when: str) -> Plan | None:
        """'The difference between the average math and reading scores': one aggregate of each of
        two columns, the first less the second (a noun the two share stands
        once, after the second: "math and reading scores")."""
        fns = _AGGREGATE_FN
        said = "|".join(("average", "mean", "total", "median", "maximum", "minimum", "highest", "lowest"))
        m = re.search(
            rf"\b(?:difference|gap)\s+between\s+(?:the\s+)?({said})\s+(.+?)\s+and\s+(?:the\s+)?"
            rf"(?:({said})\s+)?(.+?)(?:[?.!]|\s+(?:in|for|among|of)\b|\s*$)",
            self.low,
        )
        if m is None:
            return None
        first, second = split_words(m.group(2)), split_words(m.group(4))
        if not first or not second:
            return None
        # (the shared noun: "math and reading scores" are the math scores and the reading scores)
        a = self.best(("number",), [*first, second[-1]]) if len(second) > 1 else None
        a = a if a is not None and mentions(first, a.name) > 0 else self.best(("number",), first)
        b = self.best(("number",), second, exclude={a.name} if a else set())
        if a is None or b is None or a.name == b.name:
            return None
        fa, fb = fns[m.group(1)], fns[m.group(3) or m.group(1)]
        return Plan(
            f"SELECT (SELECT {fa}({quote(a.name)}) FROM {TABLE}{where}) - "
            f"(SELECT {fb}({quote(b.name)}) FROM {TABLE}{where})",
            "difference",
            "number",
            0.75,
            f"takes the {m.group(1)} {a.name} less the {m.group(3) or m.group(1)} {b.name}{when}",
            [a.name, b.name],
        )

    def _compare_groups(self, fs: list[_Filter]) -> Plan | None:
        """'Do diesel cars have more kilometres on average than petrol cars?', 'do readmitted patients
        have a higher average bill than those who weren't?': the averages of a measure over two
        groups of rows, compared."""
        low = self.low
        than = re.search(r"\bthan\b", low)
        rate = re.search(r"\b(?:rate|share|proportion|percentage|fraction|likelier|more likely)\b", low)
        averaged = re.search(r"\b(average|mean|on the whole|typically)\b", low)
        # ("did the ravens team score more goals than the skoda team?": a number column named between the
        # comparative and "than" is added up over each group)
        summed = (
            re.search(r"\b(?:more|fewer|less)\s+((?:[a-z]+\s+){0,2}?[a-z]+)\s+than\b", low)
            if than is not None and not (averaged or rate)
            else None
        )
        if summed is not None:
            summed_col = self.best(("number",), split_words(summed.group(1)))
            if summed_col is None or not mentions(split_words(summed.group(1)), summed_col.name):
                summed = None
        if than is None or not (averaged or rate or summed):
            return None
        before, after = low[: than.start()], low[than.end() :]
        groups: tuple[str, str, str, str] | None = None  # (column, sql A, sql B, description of A)
        for c in self.cols:  # a value of one column before "than", another of it after
            if c.kind != "text" or groups is not None:
                continue
            values = sorted((str(v) for v in c.distinct), key=len, reverse=True)
            heads = split_words(c.name)

            def named(
                v: str, text: str, heads: list[str] = heads, few: bool = len(values) <= CATEGORY_NAMED_MAX
            ) -> bool:
                if folded(v) != v.lower() and _names_value(folded(v), folded(text)):
                    return True  # (written without its accents: "the skoda team" is ``Škoda``)
                if len(v) > 3 and v.isalpha():  # whole, or a code the word starts ('hisp': "hispanic")
                    return (
                        _names_value(v, text)
                        or re.search(rf"\b{re.escape(v.lower())}[a-z]+", text) is not None
                    )
                if len(v) > 1:
                    return _names_value(v, text, adjective=few)
                # (a one-letter value only after its header's word: "discipline B" ... "discipline A")
                return named_after_header(v, heads, text)

            a = next((v for v in values if named(v, before)), None)
            b = next((v for v in values if v != a and named(v, after)), None)
            if a is not None and b is not None:
                groups = (
                    c.name,
                    f"{quote(c.name)} = {_lit(a)}",
                    f"{quote(c.name)} = {_lit(b)}",
                    f"{c.name} is {a}",
                )
        if groups is None:  # a yes/no group against the rest: "than those who weren't", "than others"
            flag = next((f for f in fs if " = " in f.sql and low.find(f.words) < than.start()), None)
            negated = (
                flag is not None
                and any(  # "than unmarried ones", "than inactive users"
                    w[: len(p)] == p and same(w[len(p) :], flag.words)
                    for w in split_words(after)
                    for p in NEGATING_PREFIXES
                )
            )
            # ("than cars that have been in an accident" after "accident-free cars", "than people who
            # work on site" after "remote workers" over ``Do you work remotely?``: the other side names
            # the same yes/no column again, so it is the rows of its other value)
            again = flag is not None and any(
                same(h, w)
                for h in content_words(flag.column)
                for w in split_words(after)
                if w not in STOP and len(w) > 2
            )
            if flag is not None and (
                negated
                or again
                or re.search(
                    r"\b(?:those|ones|people|rows|others?)\b.*(?:\bnot\b|n't\b)"
                    r"|\bthe rest\b|\bothers\b|\bnon-",
                    after,
                )
            ):
                groups = (flag.column, flag.sql, f"NOT ({flag.sql})", flag.desc)
        if groups is None:
            return None
        column, sql_a, sql_b, desc = groups
        # the measure: named after "average" / "more" ("a higher average bill"), by letters or
        # by meaning; else anywhere before "than"
        cue = re.search(
            r"\b(?:average|mean|more|less|higher|lower|greater|larger|bigger|smaller)\s+(.*)$", before
        )
        # (with the cue word, which may be an initial: "average daily rate" is ``adr``)
        focus = [w for i, w in enumerate(split_words(cue.group(0))) if w not in STOP or i == 0] if cue else []
        # (no identifier is averaged: "greater for vans leaving ..." is no ``van_id``)
        skip = {column} | {c.name for c in self.cols if self._identifies(c.name)}
        measure = self.best(("number",), focus, exclude=skip) if focus else None
        if measure is None and cue and re.match(r"(?:for|among|in|at|on|when|with|across)\b", cue.group(1)):
            # "is the load greater for vans leaving ...": the measure comes first
            first = [w for w in split_words(before[: cue.start()]) if w not in STOP]
            measure = self.best(("number",), first, exclude=skip) if first else None
        if measure is None and cue:
            measure = self._closest_number(split_words(cue.group(0)), column)
        measure = measure or self.best(("number",), split_words(before), exclude={column})
        way: str | None = None
        numbers = [c for c in self.cols if c.kind == "number" and c.name != column]
        for w in reversed(split_words(before)[-8:]):  # ("higher on the overall test, on average")
            if w in _MORE:
                way = ">"
            elif w in _LESS:
                way = "<"
            elif w.endswith("er") and len(w) > 4 and numbers:
                # "windier" names WindSpd by its letters (more of it); "colder" a temperature by
                # meaning (less of it)
                bases = [w[:-3], w[:-3] + "y", w[:-1], w[:-2]] if w.endswith("ier") else [w[:-1], w[:-2]]
                named_by = [self.best(("number",), [b], exclude={column}) for b in bases]
                spelt = next((c for c in named_by if c is not None), None)
                # (by the superlative: "heavier" is placed as "heaviest")
                found = ranked_by(w[:-2] + "est", [c.name for c in numbers]) if spelt is None else None
                if spelt is not None:
                    measure, way = measure or spelt, ">"
                elif found is not None:
                    measure = measure or numbers[found[0]]
                    way = ">" if found[1] == "desc" else "<"
            if way is not None:
                break
        if way is None:  # a long group name between the comparison and "than": "is the temperature
            # greater for vans leaving North Quay St & W 3 Ave Gate than ..."
            said = [w for w in split_words(before) if w in _MORE or w in _LESS]
            way = (">" if said[-1] in _MORE else "<") if said else None
        flag = next((f for f in fs if " = " in f.sql and f.column != column), None) if rate else None
        if flag is not None and way is not None and (measure is None or self._names_flag(flag, measure)):
            # "is the union membership rate higher among black workers than among hispanic ones?":
            # the share of rows the yes/no condition holds for, in each group
            share = f"AVG(CASE WHEN {flag.sql} THEN 1.0 ELSE 0.0 END)"
            return Plan(
                f"SELECT (SELECT {share} FROM {TABLE} WHERE {sql_a}) {way} "
                f"(SELECT {share} FROM {TABLE} WHERE {sql_b})",
                "compare",
                "boolean",
                0.75,
                f"compares the share of rows where {flag.desc} where {desc} with the other group's",
                [flag.column, column],
            )
        if measure is None or way is None:
            return None
        m = quote(measure.name)
        fn, taken_as = ("SUM", "total") if summed is not None else ("AVG", "average")
        return Plan(
            f"SELECT (SELECT {fn}({m}) FROM {TABLE} WHERE {sql_a}) {way} "
            f"(SELECT {fn}({m}) FROM {TABLE} WHERE {sql_b})",
            "compare",
            "boolean",
            0.75,
            f"compares the {taken_as} {measure.name} where {desc} with the other group's",
            [measure.name, column],
        )

    def _names_flag(self, flag: _Filter, measure: Col) -> bool:
        """Whether the question names the yes/no condition's column at least as well as the number
        column it found ("the union membership rate": ``union``, not ``wage``)."""
        sc = self.scores()
        return sc.get(flag.column, 0) >= sc.get(measure.name, 0)

    def _closest_number(self, said: list[str], column: str) -> Col | None:
        """The number column (other than ``column``) the words mean, when one is clearly closest
        ("bill" -> Total Charges)."""
        numbers = [c for c in self.cols if c.kind == "number" and c.name != column]
        sims = similarity(" ".join(said), [c.name for c in numbers])
        top = sorted(range(len(sims)), key=lambda k: -sims[k])
        if sims and sims[top[0]] >= 0.3 and (len(top) == 1 or sims[top[0]] - sims[top[1]] >= 0.05):
            return numbers[top[0]]
        return None

    def _date_column(self) -> Col | None:
        """The date column a calendar word applies to: the only one, the one the question names,
        or the first (a table's first date is most often the date of the row's event)."""
        dated = [c for c in self.cols if c.kind == "date"]
        if len(dated) <= 1:
            return dated[0] if dated else None
        # the word just before the time ("released in 2024", "listed before March 2023") names it
        said = re.search(
            r"\b([a-z]+)\s+(?:in|before|after|since|during|on|by|until)\s+(?:[a-z]+\s+)?(?:19|20)\d\d\b",
            self.low,
        )
        by_verb = [c for c in dated if said and mentions([said.group(1)], c.name) > 0]
        if len(by_verb) == 1:
            return by_verb[0]
        # the calendar words ("month", "year") name the part asked, not a column
        plain = [w for w in self.words if w not in DATE_WORDS]
        named = self.best(("date",), plain)
        if named is not None:
            return named
        # "checked out" names ``Checkout Date``: two words of the question written as one
        stems = [stem(w) for w in plain]
        joined = {a + b for a, b in itertools.pairwise(stems)}
        return next((c for c in dated if joined & set(header_words(c.name))), dated[0])

    def _calendar_filters(self, out: list[_Filter]) -> list[_Filter]:
        """'in February (2024)', 'in 2024', 'before 2025', 'on a Monday', 'at weekends': parts of
        the date column's dates."""
        date = self._date_column()
        if date is None:
            return self._year_filters(out)
        if any(f.column == date.name for f in out):
            return []
        d, name = quote(date.name), date.name
        found: list[_Filter] = []
        month = month_asked(self.q)
        year = year_asked(self.q)
        if month is not None:
            number, in_year = month
            sql = f"strftime('%m', {d}) = '{number:02d}'" + (
                f" AND strftime('%Y', {d}) = '{in_year}'" if in_year else ""
            )
            label = MONTH_NAMES[number - 1] + (f" {in_year}" if in_year else "")
            found.append(_Filter(sql, label.lower(), name, f"{name} is in {label}", sql_only=True))
            year = None if in_year else year
        if year is not None and not any(str(year[1]) in f.words for f in out):
            how, y = year
            taken = {f.column for f in out}
            yearly = self.best(("number",), exclude={f.column for f in out})
            years = [
                c
                for c in self.cols
                if c.kind == "number" and set(header_words(c.name)) <= YEAR_WORDS and c.name not in taken
            ]
            if (
                (yearly is None or yearly not in years)
                and len(years) == 1
                and not mentions(self.words, date.name)
            ):
                # "cars built before 2010" where the question names neither the date column by its
                # words (when a car was listed) nor any other figure: the one column headed just
                # "Year", the rows' own (a ``birth_year`` is a person's, not the row's)
                yearly = years[0]
            if yearly is not None and YEAR_WORDS & set(header_words(yearly.name)):
                # "cars of 2018" where a number column holds the years it names
                op = _YEAR_OPS[how]
                found.append(
                    _Filter(f"{quote(yearly.name)} {op} {y}", str(y), yearly.name, f"{yearly.name} {op} {y}")
                )
            else:
                sql = {
                    "in": f"strftime('%Y', {d}) = '{y}'",
                    "before": f"{d} < '{y}-01-01'",
                    "after": f"{d} >= '{y + 1}-01-01'",
                    "since": f"{d} >= '{y}-01-01'",
                }[how]
                found.append(_Filter(sql, str(y), name, f"{name} is {how} {y}", sql_only=True))
        days = weekdays_asked(self.q)
        if days is not None:
            codes = ", ".join(f"'{k}'" for k in days)
            names = " or ".join(WEEKDAYS[k].capitalize() for k in days)
            found.append(
                _Filter(
                    f"strftime('%w', {d}) IN ({codes})",
                    names.lower(),
                    name,
                    f"{name} is a {names}",
                    sql_only=True,
                )
            )
        return found

    def _year_filters(self, out: list[_Filter]) -> list[_Filter]:
        """'in 2016' over a table with no date column but a number column of years that keys its
        rows (the first column, or one whose header says year; whole numbers from 1800 to 2100, as in
        an annual report's year per row): the rows of that year, or before / after it. A year the
        column does not hold is no filter. "Officer since" beside a name is no key."""
        year = year_asked(self.q)
        if year is None or any(str(year[1]) in f.words for f in out):
            return []
        how, y = year
        used = {f.column for f in out}
        # the column keys the rows: the table's first column, or one its header calls a year
        yearly = [
            c
            for i, c in enumerate(self.cols)
            if c.kind == "number"
            and c.name not in used
            and (i == 0 or YEAR_WORDS & set(header_words(c.name)))
            and self._years_only(c.name)
        ]
        if len(yearly) != 1:
            return []
        name = yearly[0].name
        op = _YEAR_OPS[how]
        if (
            op == "="
            and not self.view.conn.execute(
                f"SELECT 1 FROM {TABLE} WHERE {quote(name)} = ? LIMIT 1", (y,)
            ).fetchone()
        ):
            return []
        return [_Filter(f"{quote(name)} {op} {y}", str(y), name, f"{name} {op} {y}")]

    def _years_only(self, name: str) -> bool:
        """Every filled cell of the number column is a whole number from 1800 to 2100."""
        q = quote(name)
        n, low, high, whole = self.view.conn.execute(
            f"SELECT COUNT({q}), MIN({q}), MAX({q}), SUM({q} = CAST({q} AS INTEGER)) FROM {TABLE}"
        ).fetchone()
        numbers = isinstance(low, int | float) and isinstance(high, int | float)  # (text among them: no)
        return bool(n and whole == n and numbers and low >= 1800 and high <= 2100)

    def _date_group(self, where: str, when: str, n: int | None) -> Plan | None:
        """'On which day of the week are most patients admitted?', 'which month had the fewest
        loans', 'at what hour do most rides start': the calendar part of the date column whose rows
        are the most (or the fewest, or hold the largest total of a measure the question names)."""
        part = date_part_asked(self.q)
        date = self._date_column()
        low = self.low
        if (
            part is None
            or date is None
            or not re.search(
                r"\b(most|fewest|least|highest|lowest|busiest|quietest|largest|smallest|more|less)\b", low
            )
        ):
            return None
        if {part, "day" if part == "weekday" else part} & set(header_words(date.name)):
            return None  # "which month has the highest sales" over a ``Month`` column: its row
        if part_column(part, [c.name for c in self.cols if c is not date]) is not None:
            return None  # a column of its own holds the part (``dayOfWeek``; not ``birth_year``): its groups
        holds = {part, "day", "week"} if part == "weekday" else {part}
        others = [w for w in self.words if w not in holds]
        if any(
            c is not date and holds & set(header_words(c.name)) and mentions(others, c.name)
            for c in self.cols
        ):
            return None  # "in which birth year ...": the column the other words name holds it
        d = quote(date.name)
        code = DATE_PARTS[part]
        raw = f"strftime('{code}', {d})"
        if part == "weekday":
            shown = (
                "CASE "
                + " ".join(f"WHEN {raw} = '{i}' THEN '{w.capitalize()}'" for i, w in enumerate(WEEKDAYS))
                + " END"
            )
        elif part == "month":
            shown = (
                "CASE "
                + " ".join(f"WHEN {raw} = '{i + 1:02d}' THEN '{m}'" for i, m in enumerate(MONTH_NAMES))
                + " END"
            )
        else:
            shown = f"CAST({raw} AS INTEGER)"
        asc = bool(re.search(r"\b(fewest|least|lowest|quietest|smallest|less)\b", low))
        agg, what, read = "COUNT(*)", "rows", [date.name]
        by_total = self._by_total()
        measure = self._counted_column(by_total, set()) if by_total is not None else None
        if measure is not None:  # "which month saw the most rain (mm)": the months' totals
            agg, what = f"SUM({quote(measure.name)})", f"total {measure.name}"
            read.append(measure.name)
        sql = (
            f"SELECT {shown} FROM {TABLE}{where}{' AND' if where else ' WHERE'} {d} IS NOT NULL "
            f"GROUP BY {raw} ORDER BY {agg} {'ASC' if asc else 'DESC'} {self._limit(n)}"
        )
        return Plan(
            sql,
            "categories",
            "list" if n else "one",
            0.75,
            f"groups the rows{when} by the {part} of {date.name} and takes the one with the "
            f"{'fewest' if asc else 'most'} {what}",
            read,
            sql_only=True,
        )

    def _list_form(self, name: str) -> ListForm | None:
        """How a text column writes lists (``['a', 'b']``, ``a, b``), read once; None when its cells
        are not lists."""
        if name not in self._items:
            got = self.view.conn.execute(
                f"SELECT DISTINCT {quote(name)} FROM {TABLE} WHERE {quote(name)} <> '' LIMIT 5000"
            ).fetchall()
            self._items[name] = list_form(v for (v,) in got)
        return self._items[name]

    def _list_items(self, name: str) -> list[str]:
        """The items of a text column whose cells are lists (at most 200); [] when they are not."""
        form = self._list_form(name)
        return list(form.items) if form is not None else []

    def _item_filter(self, name: str, item: str, words: str) -> _Filter:
        """The rows whose list in column ``name`` holds ``item`` (which ``words`` of the question say)."""
        return _Filter(self._item_test(name, item), words, name, f"{name} lists {item}", sql_only=True)

    def _item_test(self, name: str, item: str) -> str:
        """The condition that the list in column ``name`` holds ``item``."""
        form = self._list_form(name)
        assert form is not None  # (asked only of items _list_items gave)
        return item_test(quote(name), item, form)

    def _most_rows(self) -> re.Match[str] | None:
        """ "From which location are the most posts sent?", "what age group do most respondents
        belong to?": the rows themselves counted (a plural that names no column after "most"), per
        value of the column the which/what names."""
        # ("name the 2 vessels that had the most cancellations": which two)
        if not re.match(
            r"^\s*(?:(?:from|in|at|on|for|to) )?(?:which|what|(?:name|list|give|show)(?: me)? the)\b",
            self.low,
        ):
            return None
        # the plural may follow a word or two that narrow the group ("the most home games": the
        # rows counted per home team), which the group's column is then named by
        m = re.search(r"\b(?:the )?(?:most|fewest)((?: [a-z]+){0,2}?) ([a-z]+s)\b", self.low)
        if m is None or any(w in STOP for w in m.group(1).split()):
            return None
        narrowing = m.group(1).split()
        valued = any(narrowing and narrowing[0].startswith(f.words) for f in self.filters())
        if (
            narrowing
            and not valued  # ("the most foggy days": the days of a value, ``Fog``, counted)
            and self._adjective() == f"most {narrowing[0]}"
            and (self.ranked_by() is not None or time_direction(narrowing[0]) is not None)
        ):
            # "the 4 most expensive journals", "the 3 most recent DVD checkouts": a superlative's
            # measure, or time, ranks the rows
            return None
        kinds = ("text", "number", "bool", "date")
        named = self.best(kinds, [m.group(2)])
        if named is not None and named.kind == "number" and 0 < mentions([m.group(2)], named.name) < 1:
            named = None  # ("the most departures" names ``dep_delay`` in part: the rows are counted)
        # ("respondents": an id; "the most dates": dates are counted, not ranked; "which day of the
        # week has the most foggy days": the days are the rows of the group's own column)
        grouped = named is not None and named is self.best(kinds, self.words[: self._first_super()])
        # ("the most tickets" beside ``ticket_id`` and ``Ticket Type``: the rows the ids number)
        numbered = any(
            self._keys_rows(c) and any(same(m.group(2), h) for h in header_words(c.name)) for c in self.cols
        )
        # ("the most cancellations" over a ``Cancelled`` flag the question keeps true: its rows)
        flagged = named is not None and named.flag and any(f.column == named.name for f in self.filters())
        counted = named is None or self._keys_rows(named) or named.kind == "date" or numbered or flagged
        return m if counted or grouped else None

    def _having(self, fs: list[_Filter]) -> Plan | None:
        """ "Which branches lent fewer than 400 items?", "which wards have an average age above 60?":
        the groups of a category column whose row count (or the average or total of a number column
        the question names) passes the comparison."""
        low = self.low
        asked = re.match(r"^\s*(?:which|what)\s+([a-z]+)(?:\s+([a-z]+))?", low)
        test = COMPARISON.search(low)
        if asked is None or test is None:
            return None
        if re.search(r"\bthe (?:most|fewest|least|highest|lowest|largest|smallest)\b", low[: test.start()]):
            return None  # "which meal has the most bookings with adults above 2": a ranking of rows kept
        # ("which state codes ...": the two words name ``state_code``, not ``State``)
        group = self.best(("text",), [w for w in asked.groups() if w and w not in STOP])
        if group is None or not self._category(group.name):
            return None
        rest = [f for f in fs if not COMPARISON.match(f.words) and f.column != group.name]
        between = split_words(low[asked.end() : test.start()])
        after = [w for w in split_words(low[test.end() : test.end() + 30])[:2] if w not in STOP]
        op, num = COMPARISON_OPS[test.group(1)], _lit(_num(test.group(3)))
        fn = "AVG" if re.search(r"\b(average|mean)\b", " ".join(between)) else None
        fn = fn or ("SUM" if re.search(r"\b(total|sum|combined)\b", " ".join(between)) else None)
        measure = None
        if fn is not None:
            measure = self.best(("number",), between, exclude={group.name})
        elif after:
            # (the column the comparison's filter read, from the words around it: "a tax including
            # sales tax above 85 cents" is ``tax_incl_sales_cents``, not any column of cents)
            compared = next((f for f in fs if f.words == test.group(0) and f.column != group.name), None)
            named = self._col(compared.column) if compared is not None else None
            named = named or self.best(("number",), after, exclude={group.name})
            if named is not None and not self._identifies(named.name) and not named.flag:
                fn, measure = "SUM", named  # "more than 5000 streams": the total of the Streams column
        if fn is not None and measure is None:
            return None
        agg = f"{fn}({quote(measure.name)})" if measure is not None else "COUNT(*)"
        g = quote(group.name)
        where = " WHERE " + " AND ".join(f.sql for f in rest) if rest else ""
        what = (
            f"{'average' if fn == 'AVG' else 'total'} {measure.name}" if measure is not None else "row count"
        )
        return Plan(
            f"SELECT {g} FROM {TABLE}{where} GROUP BY {g} HAVING {agg} {op} {num} ORDER BY {g}",
            "having",
            "list",
            0.75,
            f"lists each {group.name} whose {what} is {op} {num}",
            [group.name, *([measure.name] if measure else []), *sorted(f.column for f in rest)],
        )

    def _identifies(self, name: str) -> bool:
        return identifies(name)

    def _names_one_row(self, fs: list[_Filter]) -> bool:
        """Whether the filters keep every row (none) or name one row by a label (each an equality on
        a column whose values all differ): nothing to count."""
        return all(f.sql.startswith(f"{quote(f.column)} = ") and self._unique(f.column) for f in fs)

    def _keys_rows(self, col: Col) -> bool:
        """Whether ``col`` tells the rows apart: an identifier by its header (``order_id``), or a
        text column whose values all differ (``booking_ref``)."""
        return self._identifies(col.name) or (col.kind == "text" and self._unique(col.name))

    def _names_rows(self, name: str) -> bool:
        """A text column whose values nearly all differ (names of the rows, a few repeated): a
        group of it is one row."""
        n, distinct = self._filled(name)
        return n > 1 and distinct * 10 >= n * 9

    def _rates(self, fs: list[_Filter], n: int | None, direction: str | None) -> Plan | None:
        """The share of rows a condition holds for: over all rows ("what percentage of all
        claims were approved?"), or in each group, ranked ("which office has the lowest rate
        of approved claims?", "the 3 teams with the highest share of remote workers",
        "sort the offices by the share of claims approved"). The condition is the
        question's filter named last (the others keep the rows it is a share of); a rate a number
        column holds ("the highest approval rate") is that column's, not a share of rows."""
        low = self.low
        rate = re.search(r"\b(share|proportion|percentage|percent|rate|fraction)\b", low)
        if rate is None:
            return None
        fcols = {f.column for f in fs}
        if self._rate_held(rate.group(1), fcols) is not None:
            return None
        test, rest, share = self._share_of(fs)
        among = " AND ".join(f.sql for f in rest)
        overall = re.match(
            r"^\s*(?:what|which)\s+(?:percentage|percent|share|proportion|fraction)\s+of\b", low
        )
        if overall:
            scale = "100.0 * " if rate.group(1) in ("percentage", "percent") else ""
            return Plan(
                f"SELECT {scale}{share} FROM {TABLE}{' WHERE ' + among if among else ''}",
                "share",
                "number",
                0.75,
                f"takes the share of rows{' where ' + ' and '.join(f.desc for f in rest) if rest else ''}"
                f" that have {test.desc}{' in percent' if scale else ''}",
                sorted(fcols),
            )
        way = direction or (
            "DESC" if re.search(r"\bhigher\b", low) else "ASC" if re.search(r"\blower\b", low) else None
        )
        if way is None:
            return None
        cut = min(self._first_super(), *(i for i, w in enumerate(self.words) if w in ("by", rate.group(1))))
        key = self.best(("text", "date", "number"), self.words[:cut], exclude=fcols)
        if key is None or key.flag or (key.kind == "text" and not self._category(key.name)):
            return None
        k = quote(key.name)
        where = f" WHERE {k} IS NOT NULL" + "".join(f" AND {f.sql}" for f in rest)
        return Plan(
            f"SELECT {k} FROM {TABLE}{where} GROUP BY {k} ORDER BY {share} {way}, {k} ASC"
            f"{'' if self._every else ' ' + self._limit(n)}",
            "rates",
            "list" if n else "text",
            0.75,
            f"ranks each {key.name} by the share of its rows that have {test.desc}, {way.lower()}ending",
            [key.name, *sorted(fcols)],
        )

    def _kinds_listed(self) -> Plan | None:
        """ "How many stations are in the data" over a station's days: the stations, each once -- the
        different values of the text column the counted noun names by its letters."""
        m = _HOW_MANY_LISTED.match(self.low)
        said = [w for w in split_words(m.group(1)) if w not in STOP] if m else []
        col = self.best(("text",), said, entity=True) if said else None
        if col is None or not mentions(said, col.name) or len(col.distinct) < 2:
            return None
        return _distinct_count(col, "", "", 0.8)

    def _measure_share(self, fs: list[_Filter]) -> Plan | None:
        """ "What percentage of total revenue came from the North?": the share of a measure that the
        rows the question's last condition keeps hold, not the share of rows."""
        low = self.low
        overall = re.match(
            r"^\s*(?:what|which)\s+(percentage|percent|%|share|proportion|fraction)\s+of\b", low
        )
        if overall is None or not fs:
            return None
        fcols = {f.column for f in fs}
        measured = self._measure_shared(overall.end(), fcols)
        if measured is None:
            return self._share_of_total_row(fs, overall.end(), overall.group(1))
        test, rest, _share = self._share_of(fs)
        # (1.0: a share of whole numbers is no whole number, as SQLite would divide them)
        scale = "100.0 * " if overall.group(1) in ("percentage", "percent", "%") else "1.0 * "
        m = quote(measured.name)
        kept = " WHERE " + " AND ".join(f.sql for f in rest) if rest else ""
        return Plan(
            f"SELECT {scale}SUM(CASE WHEN {test.sql} THEN {m} ELSE 0 END) / SUM({m}) FROM {TABLE}{kept}",
            "share",
            "number",
            0.75,
            f"takes the share of {measured.name} that rows with {test.desc} hold"
            f"{' in percent' if scale.startswith('100') else ''}",
            [measured.name, *sorted(fcols)],
        )

    def _share_of_total_row(self, fs: list[_Filter], at: int, word: str) -> Plan | None:
        """ "What percentage of the land area of the union was accounted for by Westreach?" over a
        column one of whose rows adds up the others (``Union of Isles``): the rows kept over that
        row's figure, the condition that names the total row itself dropped."""
        fcols = {f.column for f in fs}
        col = self._share_column(at, fcols)
        if col is None:
            return None
        c = quote(col.name)
        conn = self.view.conn
        top, total = self._top_and_sum(col)
        if top is None or total is None or top <= 0 or not _adds_up_the_rest(top, total):
            return None  # (no row adds up the rest)
        # (the condition that keeps the total row alone names the whole, not a part of it)
        parts = [
            f for f in fs if conn.execute(f"SELECT MAX({c}) FROM {TABLE} WHERE {f.sql}").fetchone()[0] != top
        ]
        if not parts:
            return None
        test, rest, _share = self._share_of(parts)
        scale = "100.0 * " if word in ("percentage", "percent", "%") else "1.0 * "
        kept = " AND ".join(f.sql for f in [test, *rest])
        return Plan(
            f"SELECT {scale}(SELECT SUM({c}) FROM {TABLE} WHERE {kept}) / (SELECT MAX({c}) FROM {TABLE})",
            "share",
            "number",
            0.75,
            f"takes the share of the total {col.name} that rows with {test.desc} hold"
            f"{' in percent' if scale.startswith('100') else ''}",
            [col.name, *sorted(fcols)],
        )

    def _measure_shared(self, at: int, fcols: set[str]) -> Col | None:
        """The number column the words right after "what percentage of" name ("... of total revenue
        came from", "... of the offences were in"), where its figures add up: no identifier, no
        yes/no column, no rate, and no row among them that is already the total of the others."""
        col = self._share_column(at, fcols)
        if col is None:
            return None
        top, total = self._top_and_sum(col)
        if top is None or total is None or _adds_up_the_rest(top, total):
            return None  # (one row adds up the rest: a total row the sum would count twice)
        return col

    def _share_column(self, at: int, fcols: set[str]) -> Col | None:
        """The number column the words at ``at`` (after "what percentage of") name by their letters:
        no identifier, no yes/no column, no rate."""
        said = [w for w in split_words(self.low[at : at + 40])[:3] if w not in STOP]
        col = self.best(("number",), said, exclude=fcols) if said else None
        if col is None or col.flag or self._identifies(col.name) or percent_header(col.name):
            return None
        if not mentions(said, col.name):
            return None  # (by letters: a noun placed by meaning is the rows counted, "of bookings")
        return col

    def _top_and_sum(self, col: Col) -> tuple[float | None, float | None]:
        """The largest value of ``col`` and the sum of all of them (None, None: no value)."""
        c = quote(col.name)
        top, total = self.view.conn.execute(f"SELECT MAX({c}), SUM({c}) FROM {TABLE}").fetchone()
        return top, total

    def _rate_held(self, word: str, exclude: set[str] | None = None) -> Col | None:
        """The number column a share word and the words about it name ("the approval rate", "the
        discount percentage"): a rate the table holds, not a share of rows to compute."""
        rate = re.search(rf"\b{word}\b", self.low) if word else None
        if rate is None:
            return None
        low = self.low
        near = split_words(low[: rate.start()])[-2:] + split_words(low[rate.end() : rate.end() + 40])[:4]
        held = self.best(("number",), [w for w in near if w != word], exclude=exclude)
        return None if held is None or held.flag or self._identifies(held.name) else held

    def _share_of(self, fs: list[_Filter]) -> tuple[_Filter, list[_Filter], str]:
        """The condition a share of rows is taken of (the filter named last), the filters that keep
        the rows it is a share of, and the share as SQL."""
        ordered = sorted(fs, key=lambda f: self.low.find(f.words))
        test = ordered[-1]
        return test, ordered[:-1], f"AVG(CASE WHEN {test.sql} THEN 1.0 ELSE 0.0 END)"

    def _share_test(self, fs: list[_Filter]) -> Plan | None:
        """'Is the share of trips that were round trips above 75%?': the share of rows the question's
        last condition holds for (among the rows the others keep), against the bound."""
        if self._share_cut is None or not fs:
            return None
        op, bound, _word = self._share_cut
        test, rest, share = self._share_of(fs)
        among = " AND ".join(f.sql for f in rest)
        among_said = " where " + " and ".join(f.desc for f in rest) if rest else ""
        return Plan(
            f"SELECT {share} {op} {bound!r} FROM {TABLE}{' WHERE ' + among if among else ''}",
            "share",
            "boolean",
            0.75,
            f"checks whether the share of rows{among_said} that have {test.desc} is {op} {bound:g}",
            sorted({f.column for f in fs}),
        )

    def _category(self, name: str) -> bool:
        """A text column of a few values that most rows share (a region, a month), not one that
        tells rows apart (a name, an id)."""
        col = self._col(name)
        return col is not None and col.kind == "text" and 0 < len(col.distinct) * 4 <= self.view.rows

    def _extreme_is(
        self,
        fs: list[_Filter],
        order: Col,
        way: str,
        extreme: str,
        n: int | None = None,
        named_first: bool = False,
    ) -> Plan | None:
        """ "Is the priciest car a BMW?": the value the question names after the superlative is the
        test of the top row, not a filter of the rows ranked (the other filters still are). Of
        several rows, a yes/no column is read for each ("do the 2 houses with the largest lots have
        air conditioning?": each row's answer, as the column writes it)."""
        first = self._first_super()
        after = self.low.find(self.words[first]) if first < len(self.words) else -1
        # (a value of a text column, or a yes/no column: "is the top earner married?")
        text = {c.name for c in self.cols if c.kind == "text" or c.flag}
        tests = [
            f
            for f in fs
            if f.column in text
            and " = " in f.sql
            and after >= 0
            and self.low.find(f.words, after) > after
            and not named_first
        ]
        opening = re.match(r"^\s*(?:is|was|are|were)\s+(?!the\b|an?\b|any\b|there\b)", self.low)
        if not tests and opening is not None and after >= 0:
            # "is Crater Lake the deepest lake?": the value named before the superlative,
            # right after the verb, is the test of the top row
            tests = [
                f
                for f in fs
                if f.column in text and " = " in f.sql and opening.end() <= self.low.find(f.words) < after
            ]
        if not tests:
            return None
        # (the value named last: "is the highest-paid professor a woman?" ranks professors)
        test = max(tests, key=lambda f: self.low.find(f.words, after))
        rest = [f for f in fs if f is not test]
        o = quote(order.name)
        where = " WHERE " + " AND ".join([*(f.sql for f in rest), f"{o} IS NOT NULL"])
        flag = self._col(test.column)
        if n and n > 1 and flag is not None and flag.flag:
            return self._each_row(flag, order, where, way, extreme, n, rest)
        return Plan(
            f"SELECT {test.sql} FROM {TABLE}{where} ORDER BY {o} {way} {self._limit(1)}",
            "argtest",
            "boolean",
            0.7,
            f"checks whether the row with the {extreme} {order.name} has {test.desc}",
            [order.name, *sorted(f.column for f in fs)],
        )

    def _each_row(
        self,
        col: Col,
        order: Col,
        where: str,
        way: str,
        extreme: str,
        n: int,
        fs: list[_Filter],
        when: str = "",
    ) -> Plan:
        """A yes/no column read for each of the ``n`` rows with the ``extreme`` ``order`` (as the
        column writes it: ``yes`` / ``no``)."""
        o = quote(order.name)
        return Plan(
            f"SELECT {quote(col.name)} FROM {TABLE}{where} ORDER BY {o} {way} {self._limit(n)}",
            "argflags",
            "list",
            0.7,
            f"reads {col.name} of the {n} rows with the {extreme} {order.name}{when}",
            [col.name, order.name, *sorted({f.column for f in fs})],
        )

    def _per_period(self, fs: list[_Filter], where: str, when: str) -> Plan | None:
        """ "How much did it make per month on average", "its average monthly sales": the mean of
        the rows' month (or quarter) columns, where the table's columns are months or quarters."""
        each = re.search(r"\b(?:per|each|a|every)\s+(month|quarter)\b|\b(month|quarter)ly\b", self.low)
        if each is None or not re.search(r"\b(average|mean|typical|per)\b", self.low):
            return None
        fcols = {f.column for f in fs}
        unit = each.group(1) or each.group(2)
        periods = [
            c for c in self.cols if c.kind == "number" and c.name not in fcols and _names_period(c.name, unit)
        ]
        if len(periods) < 2:
            return None
        return _columns_plan(periods, fcols, where, f"averages the {len(periods)} {unit} columns{when}", True)

    def _across_columns(self, fs: list[_Filter], where: str, when: str) -> Plan | None:
        """Several number columns of the rows the filters keep, added up: each named whole ("in
        Q3 and Q4", "July plus August"), or every column from one named to another in the table's
        order ("from July to September")."""
        fcols = {f.column for f in fs}
        numbers = [c for c in self.cols if c.kind == "number" and c.name not in fcols]
        if len(numbers) < 2 or set(self.words) & (CHANGE_WORDS | RISE_WORDS | FALL_WORDS):
            return None  # ("how much did it grow from July to September": a change, not a sum)

        def named(word: str) -> Col | None:
            hit = [c for c in numbers if split_words(c.name) == [word]]
            return hit[0] if len(hit) == 1 else None

        picked: list[Col] = []
        span = re.search(r"\b(?:from\s+)?(\w+)\s+(?:to|through|until)\s+(\w+)\b", self.low)
        ends = (named(span.group(1)), named(span.group(2))) if span else (None, None)
        if ends[0] is not None and ends[1] is not None:
            i, j = sorted((numbers.index(ends[0]), numbers.index(ends[1])))
            picked = numbers[i : j + 1]
        elif re.search(r"\b(and|plus|combined|together|altogether|in all)\b", self.low):
            picked = [c for c in numbers if any(split_words(c.name) == [w] for w in self.words)]
        if len(picked) < 2:
            return None
        return _columns_plan(picked, fcols, where, f"adds up {', '.join(c.name for c in picked)}{when}")

    def _lists_rows(self) -> bool:
        """Whether the question lists or asks for rows by a noun that names no column ("name the 3
        most profitable companies", "which firm has ..."), not values ("the 5 largest figures")."""
        m = LISTED_ENTITIES.match(self.low) or ENTITY_ASKED.match(self.low)
        if m is None:
            return False
        noun = noun_of(m.group(1))
        return noun not in VALUE_NOUNS and self.best(("text", "number", "bool", "date"), [noun]) is None

    def _limit(self, n: int | None) -> str:
        """LIMIT n (1 when None), after the rows an ordinal skips ("the third highest": OFFSET 2)."""
        return f"LIMIT {n or 1}" + (f" OFFSET {self._offset}" if self._offset else "")

    def _first_super(self) -> int:
        """Where the first superlative is: the words before it say what is asked ("the top 3
        <things> with the highest ...": 'top' before a count only says how many)."""
        for i, w in enumerate(self.words):
            counts = w in ("top", "bottom") and i + 1 < len(self.words) and self.words[i + 1].isdigit()
            if (superlative(w) and not counts and not _at_bound(self.words, i)) or w in (
                "common",
                "frequent",
                "by",
            ):
                return i
        return len(self.words)

    def _asked_before_extreme(self, measure: Col, fcols: set[str]) -> Col | None:
        """A column other than ``measure`` that the words before the superlative name: "what
        <county> has the highest rate", "the <country> of the oldest": the row's, not the extreme."""
        kinds = ("text", "number", "bool", "date")
        said = self.best(kinds, self.words[: self._first_super()], exclude=fcols | {measure.name})
        return said if said is not None and said.kind != "number" else None

    def _extreme_row(
        self, fs: list[_Filter], where: str, when: str, n: int | None, direction: str, boolean: bool
    ) -> Plan | None:
        fcols = {f.column for f in fs}
        order = self._order_col(fcols)
        if order is None:
            return None
        words_before = self.words[: self._first_super()]
        kinds = ("text", "number", "bool", "date")
        target = self.best(kinds, words_before, exclude=fcols | {order.name})
        if target is not None and self.best(kinds, words_before, exclude=fcols) is order:
            # "give the case IDs of all applications from India, lowest first": the words before the
            # superlative name the order's own column better than any other: its values are listed
            sc = self.scores(words_before)
            target = None if sc[order.name] > sc[target.name] else target
        # (the noun after 'which' / 'what' / 'how many' is what is asked: "in which county is the
        # district with ...", "how many staff do the 2 libraries with the most visitors have")
        asked = re.search(r"\b(?:which|what)\s+([a-z]+)(?:\s+([a-z]+))?", self.low) or re.match(
            r"^\s*how (?:many|much) (?!of\b)([a-z]+)()", self.low
        )
        said = None
        if asked and target is not None:
            # (the noun and a word it heads: "what panel brands" is ``panelBrand``, not ``Panel Count``)
            noun = [w for w in asked.groups() if w and w not in STOP]
            said = self.best(kinds, noun, exclude=fcols)
            named = self.scores(noun)
            if said is not None and 0 < named[said.name] <= named[order.name]:
                said = order  # "on what date did the earliest one start": the order's own date
            # "how many books do the 2 libraries with the most books hold": the order's own figures
            target = None if said is order else said or target
        own = self._asked_as_header_asks()
        if own is not None and own.name not in fcols | {order.name}:
            target = said = own  # "how satisfied are the 3 ...": the header "how satisfied are you ...?"
        counted = _COUNTED.search(self.low)
        values_listed = False
        if counted and said is None:  # (not "what <positions> did the top 3 ...")
            named = self.scores(split_words(counted.group(1)))
            values_listed = named[order.name] > 0 and (
                target is None or named[target.name] <= named[order.name]
            )
            if values_listed:
                target = None  # "the top 3 <order's values> of ...": the ranked figures themselves
        if target is None and not boolean and not values_listed and _NAMES_ASKED.match(self.low):
            # ("name the 3 most-streamed pop tracks": the text column the noun after the superlative
            # names, ``Track Name``, not the figures ranked)
            after = self.words[self._first_super() + 1 :]
            target = next(
                (
                    c
                    for i in range(len(after))
                    if (c := self.best(("text",), after[i : i + 1], exclude=fcols | {order.name})) is not None
                ),
                None,
            )
        if (
            target is None
            and not boolean
            and not values_listed
            and (_ASKS_WHO.match(LEADING_PHRASE.sub("", self.low, count=1)) or self._lists_rows())
        ):
            target = self._names_of_rows(fcols | {order.name})  # "who has the highest rating?"
        if target is not None and _ASKS_WHO.match(LEADING_PHRASE.sub("", self.low, count=1)):
            # "who is the oldest employee": a person's name, before the id "employee" names
            names = [c for c in self.cols if c.kind == "text" and "name" in split_words(c.name)]
            if self._identifies(target.name) and names and names[0] is not target:
                target = names[0]
        elif (
            target is not None
            and target.kind == "number"
            and self._identifies(target.name)
            and not set(self.words) & IDENTIFIER_WORDS
            and _NAMES_ASKED.match(self.low)
        ):
            # ("which dish has the most reviews": the dish by its name, not its ``DishId``)
            target = self._names_of_rows(fcols | {order.name}) or target
        o = quote(order.name)
        asc = direction == "ASC"
        adjective = self._adjective()
        if timelike(order.kind, order.name) and adjective is not None and time_direction(adjective):
            asc = time_direction(adjective) == "asc"  # dates: the earliest / oldest is the smallest
        if is_ranking(order.name):  # a ranking: rank 1 is the top
            if re.search(r"\b(top|best|first|highest|leading)\b", self.low):
                asc = True
            elif re.search(r"\b(bottom|worst|last|lowest)\b", self.low):
                asc = False
        way = "ASC" if asc else "DESC"
        extreme = "lowest" if asc else "highest"
        cond = f"{o} IS NOT NULL"
        w = f"{where}{' AND' if where else ' WHERE'} {cond}"
        asked = WHAT_OF_TOP.match(self.low)
        if target is None and asked is not None and noun_of(asked.group(1)) not in VALUE_NOUNS:
            named = self.scores(split_words(asked.group(1)))
            if not any(named.values()):
                return None  # ("what scores did the 3 cheapest wines get?": no column is named so)
        if target is None or target.name == order.name:
            if boolean:
                return self._extreme_is(fs, order, way, extreme, n)
            # "the 3 longest distinct distances": each value once
            # "which years does it cover, in chronological order": the different values
            once = (
                "DISTINCT "
                if n and (EACH_ONCE.search(self.low) or (self._every and self.low.startswith("which")))
                else ""
            )
            return Plan(
                f"SELECT {once}{o} FROM {TABLE}{w} ORDER BY {o} {way} {self._limit(n)}",
                "top",
                "list" if n else "number",
                0.7,
                f"sorts {'the different values of ' if once else ''}{order.name}{when} "
                f"{way.lower()}ending and takes the first {n or 1}",
                [order.name, *sorted(fcols)],
            )
        if boolean and not (target is not None and target.flag):
            return self._extreme_is(fs, order, way, extreme, n)
        row_named = self._extreme_is(fs, order, way, extreme, n, named_first=True) if boolean else None
        if row_named is not None:
            return row_named  # "is Crater Lake the deepest lake?": the row named, not a flag of it
        t = quote(target.name)
        if boolean and n and n > 1:
            # "do the 2 houses with the largest lots have air conditioning?": each row's own answer,
            # as the column writes it
            return self._each_row(target, order, w, way, extreme, n, fs, when)
        if boolean:
            read = target.truth(True) if target.yes else t  # (a text flag: whether it says yes)
            return Plan(
                f"SELECT {read} FROM {TABLE}{w} ORDER BY {o} {way} {self._limit(1)}",
                "argflag",
                "boolean",
                0.7,
                f"reads {target.name} of the row with the {extreme} {order.name}{when}",
                [target.name, order.name, *sorted(fcols)],
            )
        return Plan(
            f"SELECT {t} FROM {TABLE}{w} ORDER BY {o} {way} {self._limit(n)}",
            "argmax" if not asc else "argmin",
            "list" if n else ("number" if target.kind == "number" else "text"),
            0.7,
            f"reads {target.name} of the {f'{n} rows' if n else 'row'} with the {extreme} {order.name}{when}",
            [target.name, order.name, *sorted(fcols)],
        )

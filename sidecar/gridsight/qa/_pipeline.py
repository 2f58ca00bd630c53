"""The query pipeline: the model writes SELECTs under the table's grammar, code runs and votes.

Candidates for one question over one table's relational view:

* the model's greedy query (under :func:`gridsight.qa._sqlgen.sql_grammar`), with one repair round
  when it fails to run (the error is shown to the model);
* ``samples`` more queries sampled at a temperature (each its own seed);
* the deterministic routes' answer (formula, planner SQL, header paths), kept as one more candidate.

Each query runs on the read-only view under the guard (:func:`gridsight.qa._sql.run_query`: one
SELECT, whitelisted words, the authorizer, row and time caps). A result of the wrong type for the
question, or an empty one, is dropped. The answer is the value most candidates agree on; a tie goes
to the model's greedy query on a flat table and to the routes' header-path reading on a table with
multi-row headers (where the small model reads worst). The answer says which candidates agreed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gridsight.errors import GridSightError
from gridsight.qa._answer import asks_label
from gridsight.qa._relational import TOTAL, Relation
from gridsight.qa._sql import QueryRefused, run_query
from gridsight.qa._sql import quote as quote_name
from gridsight.qa._sqlgen import (
    grounded_values,
    labels_listed,
    messages,
    named_columns,
    named_values,
    offered,
    repair_messages,
    sql_grammar,
)
from gridsight.text import COUNT_PER_GROUP, DIVIDES, HOW_MANY_EACH, IN_ALL, LEADING_PHRASE, count_asked

#: Tokens a query may take (a query longer than this is cut off and dropped).
MAX_QUERY_TOKENS = 120
#: Seconds one model call may take.
CALL_TIMEOUT_S = float(__import__("os").environ.get("GRIDSIGHT_QUERY_TIMEOUT", "20"))
#: Temperature of the sampled candidates.
SAMPLE_TEMPERATURE = 0.7


#: One figure over several rows: "what is the average price of the 3 ...".
_AGGREGATE_ASKED = re.compile(
    r"^what (?:is|was) the (?:average|mean|median|sum|total|number|count|difference|ratio)\b"
    r"|^what (?:are|were) the (?:combined|total|summed|aggregate)\b"
    r"(?!.*\b(?:each|every|per|by|respective|individual|respectively)\b)"
)  # ("what are the combined net assets of the four funds": one sum; "... of each fund": one each)


#: A question that asks for a name or a place, never a figure: "who ...", "where ...", "what is
#: the last name of ...", "give their first names" ("name the year ..." asks for a year).
#: Nouns of a kind of figure: "which year", "name the month with ...", "which rating" may be a number.
_FIGURE_NOUNS = (
    r"(?:year|month|quarter|week|day|date|period|season|decade|age|number|amount|value|figure|total|price|"
    r"score|rating|grade|level|size|rank|ranking|code|id|percentage|percent|share|rate|ratio|time|hour|"
    r"minute|one|two|three|four|five|of|is|was|are|were|has|had|did|does|do)s?\b"
)
_ASKS_NAME = re.compile(
    r"^\s*(?:who|whom|whose|where)\b|\b(?:the|their|his|her|its|first|last|full)\s+names?\b"
    # ("name the energy sub-sector with the largest emissions": the sub-sector, no figure)
    # (a period or a figure is a number: "name the year with the most sales")
    rf"|^\s*(?:name|identify)\s+the\s+(?!\d|top\b|bottom\b|{_FIGURE_NOUNS})[a-z][\w\s-]{{0,60}}?\s+"
    r"(?:with|that|which|having|whose)\b"
    # ("which product line led sales ...": a row's name, not the sales; "which year ..." may be a figure)
    rf"|^\s*which\s+(?!{_FIGURE_NOUNS})[a-z][\w&-]*(?:\s+(?!{_FIGURE_NOUNS})[a-z][\w&-]*)?\s+(?:led|topped|had|has|was|were|"
    r"is|are|did|does|recorded|reported|showed|saw|posted|generated|sold|contributed|made|earned|brought|"
    r"exceeded|came|ranked|grew|fell|rose)\b"
)
_ASKS_AMOUNT = re.compile(r"\bhow (?:many|much|often|long|old)\b|\bnumber of\b|\bcount\b")


def asks_name(question: str) -> bool:
    """Whether ``question`` asks for a name or a place (so a number answers nothing it asked)."""
    low = LEADING_PHRASE.sub("", question.casefold().strip(), count=1)
    return (
        bool(_ASKS_NAME.search(low)) and not _ASKS_AMOUNT.search(low) and expected_type(question) != "boolean"
    )


def offers_choice(question: str) -> bool:
    """Whether a question that opens as a yes/no one offers two things to choose between ("was it
    lower for 10-49 or for 50-249?"): one of them is the answer."""
    low = LEADING_PHRASE.sub("", question.casefold().strip(), count=1)
    return expected_type(question) is None and bool(
        re.match(r"^(is|are|was|were|did|does|do|has|have|had)\b", low) and re.search(r"\w or \w", low)
    )


def asks_year(question: str) -> bool:
    """Whether the question asks for a year: "in what year ...", "which year ..."."""
    return bool(re.match(r"^\s*(?:in |during )?(?:what|which) year\b", question.casefold()))


def could_be_year(value: Any) -> bool:
    """Whether every item of an answer could be a year: a whole number of four digits, or a date or
    text holding four digits in a row (``2004-05``, ``8 March 1944``) or a fiscal year (``FY25``):
    what a question asking for a year can take; a name is none, nor a place such as ``2nd`` or a code
    such as ``C1``."""
    items = answer_items(value)
    return bool(items) and all(
        (1000 <= x <= 2999 and float(x).is_integer())
        if isinstance(x, int | float) and not isinstance(x, bool)
        else bool(re.search(r"(?<!\d)\d{4}(?!\d)|\bFY\s?'?\d\d\b", str(x), re.IGNORECASE))
        for x in items
    )


def is_figure(value: Any) -> bool:
    """A number, or a list of numbers only: what a question asking for a name cannot take."""
    items = answer_items(value)
    return bool(items) and all(isinstance(x, int | float) and not isinstance(x, bool) for x in items)


def expected_type(question: str) -> str | None:
    """The answer type the question's wording asks for (a yes/no question wants TRUE or FALSE)."""
    low = question.casefold().strip()
    # a leading phrase of place or time does not change what is asked: "In 2023, did ..."
    low = LEADING_PHRASE.sub("", low, count=1)
    if re.match(r"^(?:true or false|yes or no)\b", low):
        return "boolean"  # "True or false: other income was lower in Q4 than in Q3."
    # ("Using the consolidated balance sheet: is it true that ...": where to look, then the question;
    # not a label's own colon, "creditors: amounts falling due ...")
    for n in (1, 2, 3):
        lead = re.match(rf"^(?:[^,:?]{{1,90}}[,:]\s*){{{n}}}(?=\w)", low)
        if lead is None or re.search(r"\b(?:which|what|how|who|whom|whose|when|where|why)\b", lead.group(0)):
            break  # (a clause that asks something: "in which year, and by how much, did ...")
        if re.match(r"^(?:is|are|was|were|did|does|do|has|have|had)\b", low[lead.end() :]):
            low = low[lead.end() :]
            break
    if re.match(r"^is it (?:true|the case|correct) that\b", low):
        return "boolean"
    if re.search(
        r"\bor the other way (?:round|around)\b|\bname the (?:larger|smaller|bigger|higher|lower|greater)\b",
        low,
    ):
        return None  # ("were A greater than B, or the other way round? Name the larger line.": which)
    # ("could you look up ...", "can you give ...": a request, not a yes/no question)
    low = re.sub(r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?", "", low)
    if re.match(r"^(is|are|was|were|did|does|do|has|have|had|can|could|will|would|should)\b", low):
        if re.search(r"[\w\"'”’)] or [\w\"'“‘(]", low) and not re.search(r"\bthan\b", low):
            # "X or Y?" asks which ("was A higher than B" asks yes or no, an "or" in a label
            # or not: ``Bachelor's or equivalent``)
            return None
        # "do the 2 houses with the largest lots have air conditioning?": one answer per row
        return "list" if count_asked(low) else "boolean"
    if _AGGREGATE_ASKED.match(low) or (re.match(r"^how (?:many|much)\b", low) and IN_ALL.search(low)):
        # "the average price of the 3 most expensive houses", "how many ... in total" (in a request
        # that lists, "in total" ranks: "the 3 clubs with the most goals in total")
        return "number"
    if re.search(
        r"\b(list|name the|top \d+|bottom \d+"
        r"|(?<![\d\-–])(?!(?:1[89]|2[01])\d\d\b)\d+ (most|least|highest|lowest|largest|smallest))\b",
        low,  # ("in 2020 lowest": a year, not the 2020 lowest; "aged 35-49 highest": a band's end)
    ):
        return "list"
    if (re.search(r"\b(what|which|who) are the\b", low) or re.search(r"\bwhat are\b", low)) and not (
        DIVIDES.search(low) or re.search(r"\b(?:ratio|per\s*cent(?:age)?|%)\s+of\b", low)
    ):
        return "list"  # (not "what are borrowings over total equity": one figure)
    if re.search(r"\bin (?:that|this|the same) order\b|,\s*in order\b|\bone (?:per|for each)\b", low):
        return "list"  # "... for 2022, 2023 and 2024, in that order": one answer per item
    if _VALUES_OVER_SPAN.search(low) and not _OPERATES_ON.search(low):
        return "list"  # ("Austria: values 2019 through 2023?": one figure per year)
    if asks_label(low):
        return None  # "... Give the line label.": a name, whatever the opening words ask
    if COUNT_PER_GROUP.match(low) and not IN_ALL.search(low):
        return "list"  # "how many respondents of each gender are there?": a count per group
    if count_asked(low) and (HOW_MANY_EACH.match(low) or not re.match(r"^how (?:many|much)\b", low)):
        # "which 3 districts have the highest score", "how many computers do the 3 biggest districts
        # have": one answer per ranked row ("how many of the 5 largest ...": a count)
        return "list"
    if re.match(r"^(?:by )?(how many|how much|how far)\b", low) or re.match(
        r"^what (is|was|were) the (average|mean|median|sum|total|number|count|difference|ratio|highest|lowest"
        r"|largest|smallest|maximum|minimum|max|min|biggest|greatest)\b",
        low,
    ):
        # ("the highest <amount>" is the amount; "which/who has the highest" asks for a name; "by how
        # much did A exceed B" is the amount between them)
        return "number"
    return None


#: Figures asked in the plural over a span of years: "values 2019 through 2023", "the figures from
#: 2015 to 2018".
_VALUES_OVER_SPAN = re.compile(
    r"\b(?:values|figures|numbers|amounts|readings)\b[^?]{0,40}?\b(?:19|20)\d\d\s*(?:through|thru|to|until|-|–)\s*"
    r"(?:19|20)\d\d\b"
)
#: Words that do something with figures rather than list them.
_OPERATES_ON = re.compile(
    r"\b(?:sum|total|average|mean|median|change[ds]?|difference|grow|grew|rise|rose|fall|fell|increase[ds]?"
    r"|decrease[ds]?|more|less|higher|lower|highest|lowest|how|which|when|count|between)\b"
)


@dataclass
class Attempt:
    """One candidate: where it came from, what it ran, what it gave (or why it was dropped)."""

    source: str  # "model", "model repaired", "model sample N", "rules"
    sql: str | None = None
    value: Any = None
    error: str | None = None
    read: list[str] = field(default_factory=list)
    confidence: float | None = None  # the routes' own confidence, for the rules' candidate

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        out = {"source": self.source, "query": self.sql, "value": self.value, "error": self.error}
        return out | ({"confidence": self.confidence} if self.confidence is not None else {})


def _plain(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v


_COUNTS = re.compile(r"^SELECT COUNT\(", re.IGNORECASE)


def result_value(rows: list[tuple[Any, ...]], expected: str | None, sql: str = "") -> tuple[Any, str | None]:
    """The answer a query's rows give for a question that wants ``expected``; or (None, why not).
    A yes/no question answered by counting rows asks whether any exist: a count above 0 is TRUE."""
    if not rows:
        return None, "the query found no rows"
    first = [_plain(r[0]) for r in rows]
    if expected == "boolean":
        if len(first) == 1 and (first[0] in (0, 1) or isinstance(first[0], bool)):
            return bool(first[0]), None
        if len(first) == 1 and isinstance(first[0], int) and _COUNTS.match(sql) and " WHERE " in sql:
            return first[0] > 0, None  # (a count of every row says nothing: the table is not empty)
        return None, "a yes/no question needs one TRUE or FALSE"
    if all(v is None for v in first):
        return None, "the query gave only empty values"
    if expected == "list":
        return [v for v in first if v is not None], None
    if len(first) > 1 and len({repr(v) for v in first}) == 1:
        first = first[:1]  # the same value on every row (a scalar subquery repeated per row) is one
    if expected == "number" and len(first) > 1:
        return None, "the question asks for one number, the query gave several rows"
    value = next(v for v in first if v is not None)  # several rows for one thing: ties, the first
    if expected == "number" and (isinstance(value, bool) or not isinstance(value, int | float)):
        return None, "the question asks for a number"
    return value, None


def answer_items(v: Any) -> list[Any]:
    """A value as a flat list (a column of one-item rows reads as the items)."""
    if not isinstance(v, list):
        return [v]
    return [y for x in v for y in (x if isinstance(x, list) else [x])]


def same_value(a: Any, b: Any) -> bool:
    """Two candidates' results are the same answer (numbers to rounding, text regardless of case,
    lists as sets)."""
    fa, fb = answer_items(a), answer_items(b)
    if len(fa) != len(fb):
        return False

    def key(x: Any) -> Any:
        if isinstance(x, bool):
            return ("b", x)
        if isinstance(x, int | float):
            return ("n", round(float(x), 6))
        return ("t", str(x).strip().casefold())

    if isinstance(a, list) or isinstance(b, list):
        return sorted(map(key, fa), key=str) == sorted(map(key, fb), key=str)
    ka, kb = key(fa[0]), key(fb[0])
    if ka[0] == kb[0] == "n":
        return abs(float(fa[0]) - float(fb[0])) <= 1e-6 * max(1.0, abs(float(fa[0])))
    return ka == kb


def run_attempt(rel: Relation, source: str, sql: str, expected: str | None) -> Attempt:
    """Run one query on the view and read its answer; errors become the attempt's reason. A query
    that finds no rows because it also tests the section of a row it names by its label runs again
    without the section test (see :func:`without_section`)."""
    try:
        rows, read = run_query(sql, rel.view)
        if not rows and (looser := without_section(sql, rel)) is not None:
            rows, read = run_query(looser, rel.view)
            sql = looser if rows else sql
    except QueryRefused as exc:
        return Attempt(source, sql, error=str(exc))
    value, why = result_value(rows, expected, sql)
    return Attempt(source, sql, value, why, read)


#: A scalar subquery that reads one cell: ``(SELECT "col" FROM data WHERE ...)``, no aggregate.
_CELL_READ = re.compile(r'^\(SELECT (?:ABS\()?"(?:[^"]|"")+"\)? FROM data WHERE (?P<where>.+)\)$', re.DOTALL)


def cells_read_twice(rel: Relation, sql: str) -> int:
    """How many rows the first of ``sql``'s one-cell subqueries that places more than one row places
    (0 where each places one row or none): a cell read by conditions that two rows meet is read from
    whichever comes first, so the query answers from a guess (``Grants`` under income and again
    under spending)."""
    starts = [m.start() for m in re.finditer(r"\(SELECT ", sql)]
    for start in starts:
        depth, end = 0, None
        for i in range(start, len(sql)):
            depth += {"(": 1, ")": -1}.get(sql[i], 0)
            if depth == 0:
                end = i + 1
                break
        m = _CELL_READ.match(sql[start:end]) if end is not None else None
        if m is None or re.search(r"\b(?:LIMIT|ORDER BY|GROUP BY|SELECT)\b", m.group("where")):
            continue
        try:
            rows, _ = run_query(f"SELECT COUNT(*) FROM data WHERE {m.group('where')}", rel.view)
        except QueryRefused:
            continue
        if rows and isinstance(rows[0][0], int) and rows[0][0] > 1:
            return rows[0][0]
    return 0


def _where_split(sql: str) -> tuple[str, str, str] | None:
    """(what comes before the first WHERE, its conditions, the GROUP BY / ORDER BY / LIMIT tail), or
    None for a query with no WHERE."""
    head, sep, rest = sql.partition(" WHERE ")
    if not sep:
        return None
    m = _CLAUSE_END.search(rest)
    return (head, rest[: m.start()], rest[m.start() :]) if m else (head, rest, "")


def without_section(sql: str, rel: Relation) -> str | None:
    """``sql`` without its top-level conditions on the section column when another condition names
    the row by its label (the small model guesses the section of a row it found: 'Cargo' under
    'Operating expense:'); None when there is nothing to drop."""
    parts = _where_split(sql)
    if parts is None or "(SELECT" in parts[0]:
        return None
    head, where, tail = parts
    if len(_top_level(where, " OR ")) > 1:
        return None
    conjuncts = _conjuncts(where)
    roles = [_role(c, rel) for c in conjuncts]
    if "key" not in roles or "section" not in roles:
        return None
    kept = [c for c, r in zip(conjuncts, roles, strict=True) if r != "section"]
    return head + " WHERE " + " AND ".join(kept) + tail


def _role(conjunct: str, rel: Relation) -> str | None:
    """The role of the column a condition tests (key, section, ...), None for anything else."""
    m = re.match(r'\s*"((?:[^"]|"")*)" (?:=|IN|LIKE) ', conjunct)
    return None if m is None else _column_role(rel, m.group(1).replace('""', '"'))


_CLAUSE_END = re.compile(r" (GROUP BY|ORDER BY|LIMIT) ")
_NUMBER = re.compile(r"(?<![\w\".])-?\d+(?:\.\d+)?")
_STRING = re.compile(r"'((?:[^']|'')*)'")


def _top_level(text: str, sep: str) -> list[str]:
    """``text`` split on ``sep`` outside parentheses and quotes."""
    parts, depth, quote, start, i = [], 0, "", 0, 0
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _chosen_from_list(conjunct: str, rel: Relation) -> frozenset[str]:
    """The values of the row-label or section column a condition tests when the prompt listed that
    column whole: a row the model picked among all of them by meaning ('total traffic' -> 'Revenue
    passenger miles') is a choice, not a copied example, and stays."""
    m = re.match(r'\s*(?:NOT )?"((?:[^"]|"")*)"', conjunct)
    if not m:
        return frozenset()
    try:
        col = rel.column(m.group(1).replace('""', '"'))
    except StopIteration:
        return frozenset()
    if not labels_listed(col):
        return frozenset()
    return frozenset(v for v in rel.distinct_values(col.name) if isinstance(v, str))


def _names_another_column(word: str, conjunct: str, rel: Relation) -> bool:
    """Whether ``word`` is a word of the header of a column other than the one ``conjunct`` tests:
    in "the largest non-home-grown firm", 'home' names the column ``homeGrown`` and does not name
    the value 'home goods' of another column."""
    from gridsight.text import header_words, same

    m = re.match(r'\s*(?:NOT )?"((?:[^"]|"")*)"', conjunct)
    tested = m.group(1).replace('""', '"') if m else None
    return any(c.name != tested and any(same(word, h) for h in header_words(c.name)) for c in rel.columns)


def _grounded(conjunct: str, rel: Relation, question: str) -> bool:
    """Whether every value a WHERE condition compares with is named by the question: numbers that
    occur in it, text values it names (typos allowed), flags whose column it names."""
    from gridsight.qa._sqlgen import match_score, question_words
    from gridsight.text import numbers_named

    if "SELECT" in conjunct:
        return True  # a condition against a subquery compares with data, not with a typed value
    plain = question.replace(",", "")
    spelled = numbers_named(question)
    words = question_words(question)
    chosen = _chosen_from_list(conjunct, rel)
    own = [w for w in words if not _names_another_column(w, conjunct, rel)]
    for m in _STRING.finditer(conjunct):
        value = m.group(1).replace("''", "'")
        if value in chosen:
            continue
        score = match_score(value, words, question)
        if score < 0.5 or (score < 1.0 and match_score(value, own, question) < 0.5):
            return False  # not named, or named only by words that name other columns
    text = _STRING.sub("", conjunct)
    for m in _NUMBER.finditer(re.sub(r'"(?:[^"]|"")*"', "", text)):
        num = m.group(0)
        flag = re.match(r'^\s*"((?:[^"]|"")*)" = [01]\s*$', text)
        if flag and num in ("0", "1"):
            try:
                col = rel.column(flag.group(1).replace('""', '"'))
            except StopIteration:
                return False
            if col.kind == "boolean":
                return match_score(col.name, words, question) >= 0.5 or col.name in _flags_named(
                    rel, question
                )
        if num.lstrip("-") not in spelled and not re.search(
            r"(?<![\d.])" + re.escape(num.lstrip("-")) + r"(?![\d])", plain
        ):
            return False
    return True


_GROUPED = re.compile(
    r'^SELECT ("(?:[^"]|"")*") FROM data(?P<where> WHERE .+?)? GROUP BY \1(?P<rest>( |$).*)$'
)


def without_empty_group(sql: str) -> str:
    """A query that ranks the groups of a column leaves out the group of empty cells (the most
    common "value" of a sparse column is no value)."""
    m = _GROUPED.match(sql)
    if m is None:
        return sql
    col, where = m.group(1), m.group("where")
    cond = f"{col} IS NOT NULL"
    if where and cond in where:
        return sql
    where = (
        f"{where} AND {cond}" if where and " OR " not in where else f" WHERE {cond}" if not where else None
    )
    if where is None:
        return sql
    return f"SELECT {col} FROM data{where} GROUP BY {col}{m.group('rest')}"


_ORDER = re.compile(r" ORDER BY (?P<key>.+?)(?P<dir> ASC| DESC)?(?P<rest>(, .+?)?( LIMIT \d+)?)$")


def orient(sql: str, question: str) -> str:
    """The top-level ORDER BY turned the way the question's one generic direction word points
    ('highest', 'top', 'most' descending; 'lowest', 'bottom', 'least' ascending): the small model
    often writes the ranking the right way round on the wrong column end."""
    from gridsight.text import ASCENDING, DESCENDING, words

    said = set(words(question, camel=False))
    down, up = bool(said & DESCENDING), bool(said & ASCENDING)
    if down == up:
        return sql
    parts = _top_level(sql, " ORDER BY ")
    if len(parts) != 2:
        return sql
    m = _ORDER.match(" ORDER BY " + parts[1])
    if m is None or "(SELECT" in m.group("key"):
        return sql
    want = " DESC" if down else " ASC"
    if (m.group("dir") or " ASC") == want:
        return sql
    return f"{parts[0]} ORDER BY {m.group('key')}{want}{m.group('rest')}"


_LIMIT = re.compile(r" LIMIT \d+$")


def limit_to_count(sql: str, question: str) -> str:
    """A ranking query keeps as many rows as the question asks for ('the 5 lowest' -> LIMIT 5):
    the small model copies LIMIT 1 from its examples."""
    from gridsight.text import count_asked

    n = count_asked(question)
    parts = _top_level(sql, " ORDER BY ")
    if n is None or len(parts) != 2 or "(SELECT" in parts[1]:
        return sql
    return f"{parts[0]} ORDER BY {_LIMIT.sub('', parts[1])} LIMIT {n}"


_AGGREGATE_ITEMS = re.compile(r"^SELECT (?:(?:COUNT|SUM|AVG|MIN|MAX)\([^()]*\)(?:, |(?= FROM)))+ FROM data")
_GROUP_COLUMN = re.compile(r' GROUP BY ("(?:[^"]|"")*")(?: HAVING .+?)? ORDER BY ')


def group_answer(sql: str, question: str) -> str:
    """A ranking of groups answers with the group, not its count: 'which colour is the most common'
    is a colour even when the query selects only COUNT(*) ... GROUP BY colour ORDER BY ... LIMIT.
    A question that asks for a number ('how many') keeps the aggregate."""
    if expected_type(question) == "number" or "(SELECT" in sql:
        return sql
    m = _AGGREGATE_ITEMS.match(sql)
    g = _GROUP_COLUMN.search(sql)
    if m is None or g is None:
        return sql
    return f"SELECT {g.group(1)} FROM data{sql[m.end() :]}"


_MORE = frozenset("higher more greater larger bigger longer older heavier taller".split())
_LESS = frozenset("lower less fewer smaller shorter younger lighter".split())


def compared(sql: str, question: str) -> str:
    """A yes/no question that compares two figures ("do smokers have a higher average pulse than
    non-smokers?") answered by their difference, ``SELECT (A) - (B)``, asks whether A > B (or A < B
    for one comparative of less): the small model writes the subtraction, the question the test. A
    scalar query run ``FROM data`` (once per row) is run once."""
    if expected_type(question) != "boolean":
        return sql
    body = sql[len("SELECT ") :] if sql.startswith("SELECT (") else None
    if body is None:
        return sql
    if body.endswith(" FROM data") and len(_top_level(body, " FROM data")) == 2:
        body = body[: -len(" FROM data")]  # "SELECT (subquery) > (subquery) FROM data": once
    parts = _top_level(body, " - ")
    from gridsight.text import words

    said = set(words(question, camel=False))
    more, less = bool(said & _MORE), bool(said & _LESS)
    if len(parts) == 2 and all(p.startswith("(") and p.endswith(")") for p in parts) and more != less:
        return f"SELECT {parts[0]} {'>' if more else '<'} {parts[1]}"
    return f"SELECT {body}"


def tidy(sql: str, rel: Relation, question: str) -> str:
    """The model's query with its ungrounded conditions pruned, one answer column, the rows a named
    yes/no column implies, a difference as a size, a ranking of
    groups answering with the group, as many rows as the question asks for, its ranking oriented by
    the question and over known values only, and ranked groups without the empty one."""
    sql = implied_flag(one_column(prune(sql, rel, question), rel, question), rel, question)
    sql = without_totals(compared(magnitude(group_answer(sql, question), question), question), rel)
    return without_empty_group(known_order(orient(limit_to_count(sql, question), question)))


_SPANS_ROWS = re.compile(r"\b(?:SUM|AVG|COUNT|MIN|MAX|TOTAL|MEDIAN)\s*\(| ORDER BY ", re.IGNORECASE)


def without_totals(sql: str, rel: Relation) -> str:
    """A query over many rows (an aggregate, a ranking) leaves out the table's total rows: the
    "Total" row under twelve months would count twice in their sum and top every ranking. Not when
    the query names the total mark, or picks rows by their label (a total row may be the one asked)."""
    key = rel.key
    if not any(c.name == TOTAL for c in rel.columns) or not _SPANS_ROWS.search(sql):
        return sql
    if quote_name(TOTAL) in sql or (key is not None and f"{quote_name(key.name)} =" in sql):
        return sql
    return add_condition(sql, f"{quote_name(TOTAL)} = 0")


_NEGATION = re.compile(r"\b(not|non|no|never|without|nor)\b|n't\b", re.IGNORECASE)


def _flags_named(rel: Relation, question: str) -> list[str]:
    """The yes/no columns the question names, by their header's words or by meaning ('survivors'
    -> 'Survived')."""
    from gridsight.qa._sqlgen import named_columns

    flags = {c.name for c in rel.columns if c.kind == "boolean" and c.role == "data"}
    return [n for n in named_columns(rel, question) if n in flags] if flags else []


def implied_flag(sql: str, rel: Relation, question: str) -> str:
    """A yes/no column the question names but the query never tests filters the rows: 'the most
    common gender among the survivors' counts survivors only. Not when the question negates
    anything (which side it means is then unclear)."""
    if _NEGATION.search(question):
        return sql
    for name in _flags_named(rel, question):
        quoted = '"' + name.replace('"', '""') + '"'
        if quoted not in sql:
            sql = add_condition(sql, f"{quoted} = 1")
    return sql


def magnitude(sql: str, question: str) -> str:
    """'The difference between A and B' is a size, whichever the model subtracted from which: a
    query that subtracts one looked-up value from another answers with its absolute value. A
    question about change ('how much did it change') keeps its sign."""
    if not re.search(r"\bdifferen(ce|t)\b", question, re.IGNORECASE) or not sql.startswith("SELECT ("):
        return sql
    body = sql[len("SELECT ") :]
    parts = _top_level(body, " - ")
    if len(parts) != 2 or not all(p.startswith("(") and p.endswith(")") for p in parts):
        return sql
    return f"SELECT ABS({body})"


def add_condition(sql: str, cond: str) -> str:
    """``sql`` with ``cond`` AND-ed to its top-level WHERE (one made when it has none)."""
    parts = _top_level(sql, " WHERE ")
    if len(parts) == 2:
        where = parts[1]
        m = _CLAUSE_END.search(where)
        body, tail = (where[: m.start()], where[m.start() :]) if m else (where, "")
        body = f"({body})" if len(_top_level(body, " OR ")) > 1 else body
        return f"{parts[0]} WHERE {body} AND {cond}{tail}"
    m = _CLAUSE_END.search(sql)
    head, tail = (sql[: m.start()], sql[m.start() :]) if m else (sql, "")
    return f"{head} WHERE {cond}{tail}"


_KEY_ORDER = re.compile(r' ORDER BY ("(?:[^"]|"")*")(?: ASC| DESC)? LIMIT \d+$')


def known_order(sql: str) -> str:
    """A ranking by a column leaves out the rows where that column is empty: SQLite sorts NULL
    first, so 'the oldest' (ascending birth dates) was a row with no birth date."""
    parts = _top_level(sql, " ORDER BY ")
    if len(parts) != 2 or "(SELECT" in parts[1]:
        return sql
    m = _KEY_ORDER.match(" ORDER BY " + parts[1])
    if m is None:
        return sql
    cond = f"{m.group(1)} IS NOT NULL"
    return sql if cond in parts[0] else add_condition(sql, cond)


_PLAIN_ITEMS = re.compile(r'^SELECT ((?:"(?:[^"]|"")*", )+"(?:[^"]|"")*") FROM data')
_QUOTED = re.compile(r'"(?:[^"]|"")*"')


def one_column(sql: str, rel: Relation, question: str) -> str:
    """A query that selects several plain columns answers with one: the column the question names
    first ('the 6 lowest total stats' -> total, not the name beside it); for 'which'/'who' questions
    the row labels' column when selected; else the first. An answer is read from its first column,
    so the choice must be deliberate."""
    from gridsight.qa._sqlgen import named_columns

    m = _PLAIN_ITEMS.match(sql)
    if m is None:
        return sql
    items = _QUOTED.findall(m.group(1))
    names = [i[1:-1].replace('""', '"') for i in items]
    pick = names[0]
    if re.match(r"^\s*(which|who)\b", question, re.IGNORECASE):
        keys = [n for n in names if _column_role(rel, n) == "key"]
        pick = keys[0] if keys else pick
    else:
        named = [n for n in named_columns(rel, question) if n in names]
        pick = named[0] if named else pick
    return f'SELECT "{pick.replace(chr(34), chr(34) * 2)}"{sql[m.end(1) :]}'


def _column_role(rel: Relation, name: str) -> str | None:
    try:
        return rel.column(name).role
    except StopIteration:
        return None


_BETWEEN_OPEN = re.compile(r"\bBETWEEN \S+$")


def _conjuncts(where: str) -> list[str]:
    """A WHERE clause's top-level AND conditions; ``x BETWEEN a AND b`` stays one condition."""
    out: list[str] = []
    for part in _top_level(where, " AND "):
        if out and _BETWEEN_OPEN.search(out[-1]):
            out[-1] += " AND " + part
        else:
            out.append(part)
    return out


def prune(sql: str, rel: Relation, question: str) -> str:
    """``sql`` without the top-level AND conditions whose values the question never names (small
    models copy sample values from the schema into conditions nobody asked for)."""
    parts = _where_split(sql)
    if parts is None or " FROM data" not in parts[0]:
        return without_empty_group(sql)
    head, where, tail = parts
    if len(_top_level(where, " OR ")) > 1 or len(_top_level(tail, "(")) > 1:
        return without_empty_group(sql)
    conjuncts = _conjuncts(where)
    kept = [c for c in conjuncts if _grounded(c, rel, question)]
    if len(kept) == len(conjuncts):
        return without_empty_group(sql)
    return without_empty_group(head + (" WHERE " + " AND ".join(kept) if kept else "") + tail)


def _ask_model(
    model: Any, chat: list[dict[str, str]], grammar: Any, temperature: float, seed: int
) -> str | None:
    kwargs: dict[str, Any] = {"grammar": grammar, "max_tokens": MAX_QUERY_TOKENS, "timeout_s": CALL_TIMEOUT_S}
    if temperature > 0:
        kwargs |= {"temperature": temperature, "seed": seed}
    try:
        done = model.complete(chat, **kwargs)
    except GridSightError:
        return None
    if done.truncated:
        return None
    return str(done.text).strip() or None


def model_attempts(rel: Relation, question: str, model: Any, *, samples: int = 0) -> list[Attempt]:
    """The model's greedy query (repaired once if it fails to run) and ``samples`` sampled ones."""
    expected = expected_type(question)
    rel = offered(rel, question)
    named = named_values(rel, question)
    literals = grounded_values(rel, question, named)
    grammar = sql_grammar(rel, literals, compare=expected == "boolean").grammar
    chat = messages(rel, question, named, named_columns(rel, question))
    out: list[Attempt] = []
    sql = _ask_model(model, chat, grammar, 0.0, 0)
    if sql is None:
        out.append(Attempt("model", error="the model wrote no complete query"))
    else:
        first = _checked(rel, "model", tidy(sql, rel, question), question, expected)
        out.append(first)
        if first.error is not None and first.error.startswith("the query failed"):
            fixed = _ask_model(model, repair_messages(chat, sql, first.error), grammar, 0.0, 0)
            if fixed is not None and fixed != sql:
                out.append(_checked(rel, "model repaired", tidy(fixed, rel, question), question, expected))
    for i in range(samples):
        sql = _ask_model(model, chat, grammar, SAMPLE_TEMPERATURE, i + 1)
        if sql is not None:
            out.append(_checked(rel, f"model sample {i + 1}", tidy(sql, rel, question), question, expected))
    return out


_LIKE = re.compile(r'"((?:[^"]|"")*)" (?:NOT )?LIKE \'((?:[^\']|\'\')*)\'')


def unnamed_pattern(sql: str, rel: Relation, question: str) -> str | None:
    """Why a LIKE test in ``sql`` cannot stand: its pattern is not text the question names in full,
    its column holds no text, or it is a bare number that is no year (the grammar lets the model
    type any pattern; "%.170%" for "taller than 170", or a sample value copied from the schema, says
    nothing the question asked). None: fine."""
    from gridsight.qa._sqlgen import match_score, question_words

    for m in _LIKE.finditer(sql):
        name, pattern = m.group(1).replace('""', '"'), m.group(2).replace("''", "'")
        text = re.sub(r"[%_]+", " ", pattern).strip()
        try:
            kind = rel.column(name).kind
        except StopIteration:
            return f"LIKE over {name}, which is not a column"
        words_or_year = re.search(r"[^\W\d_]", text) or re.fullmatch(r"(1[89]|20)\d\d", text)
        if kind != "text" or not words_or_year or match_score(text, question_words(question), question) < 1.0:
            return f"the pattern {pattern!r} is not text the question names"
    return None


#: A ranking of groups by an aggregate: "the top 3 products by total revenue", "by average price".
_BY_AGGREGATE = re.compile(r"\bby (?:the )?(?:total|average|mean|sum|combined|overall)\b", re.I)


def ungrouped_ranking(sql: str, question: str) -> str | None:
    """Why a query cannot answer a ranking of groups by an aggregate: it ranks single rows (no GROUP
    BY, no aggregate), so a group appears once per row. None: fine."""
    if not _BY_AGGREGATE.search(question):
        return None
    upper = sql.upper()
    if "GROUP BY" in upper or re.search(r"\b(SUM|AVG|COUNT|TOTAL)\s*\(", upper):
        return None
    return "the question ranks groups by an aggregate; the query ranks single rows"


def _checked(rel: Relation, source: str, sql: str, question: str, expected: str | None) -> Attempt:
    """A model query run as an attempt, unless a LIKE pattern in it is the model's own invention or
    it ranks single rows where the question ranks groups."""
    why = unnamed_pattern(sql, rel, question) or ungrouped_ranking(sql, question)
    if why:
        return Attempt(source, sql, error=why)
    done = run_attempt(rel, source, sql, expected)
    if done.ok and is_figure(done.value) and asks_name(question):
        done.error = "the question asks for a name, the query gave a figure"
    return done


@dataclass
class Vote:
    winner: Attempt
    agreeing: list[Attempt]
    voters: int  # attempts that gave an answer

    @property
    def agreement(self) -> float:
        return len(self.agreeing) / self.voters if self.voters else 0.0


#: Which source wins a tie between groups of equal size (first listed wins), by the table's shape.
#: Flat tables: the routes' answer first -- on 168 unseen DataBench-layout questions (2026-11-24) the
#: model and the routes disagreed one to one 41 times, the routes right 26 times, the model 15 (it
#: was the model first while the routes were weaker: on 30 WikiTableQuestions questions then, the
#: model 8, the routes 2). Multi-row headers (SQuARE's structure score): the routes' header-path
#: reading first -- on 30 AIT-QA questions, the routes 10, the model's queries 1 -- and the cells plan
#: (:mod:`gridsight.qa._cells`) before them: it reads sections and header groups too.
TIE_ORDER_FLAT = ("rules", "cells", "model", "model repaired")
TIE_ORDER_HEADERS = ("cells", "rules", "model", "model repaired")


def vote(attempts: list[Attempt], order: tuple[str, ...] = TIE_ORDER_FLAT) -> Vote | None:
    """The result most candidates agree on (ties: the first source in ``order``)."""
    good = [a for a in attempts if a.ok]
    if not good:
        return None
    groups: list[list[Attempt]] = []
    for a in good:
        for g in groups:
            if same_value(g[0].value, a.value):
                g.append(a)
                break
        else:
            groups.append([a])

    def rank(g: list[Attempt]) -> tuple[int, int]:
        best = min((order.index(a.source) for a in g if a.source in order), default=len(order))
        return (len(g), -best)

    top = max(groups, key=rank)
    lead = min(top, key=lambda a: order.index(a.source) if a.source in order else len(order))
    return Vote(lead, top, len(good))

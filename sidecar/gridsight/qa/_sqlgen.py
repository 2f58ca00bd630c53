"""What the model sees and may write when it writes a query: the schema prompt and the SQL grammar.

The grammar is built from the relational view of one table (:mod:`gridsight.qa._relational`):
column identifiers are exactly the view's columns, double-quoted; a string literal compared with a
column is one of that column's own values (those the question names, fuzzy-matched, misspellings
included, or every value of a small category column); numbers are free; functions come from a short
whitelist. So whatever the model writes is a well-formed SELECT over real columns and real values --
and it still passes :func:`gridsight.qa._sql.check_query` and the read-only authorizer before it runs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from gridsight.llm.grammars import Grammar
from gridsight.qa._relational import CATEGORY_MAX, Relation, RelColumn
from gridsight.qa._sql import literal
from gridsight.text import (
    REQUEST_WORDS,
    STOP_WORDS,
    TABLE_WORDS,
    category_named,
    derived,
    is_outline_mark,
    place_meant,
    proper_words,
    same,
    same_month,
    stem,
    without_marks,
    without_outline,
    words,
)

#: String values offered per column (those the question names best first).
LITERALS_PER_COLUMN = 8
#: Distinct values scanned per column for the question's words (beyond that only the most frequent).
SCAN_MAX = 50_000
#: Characters of one literal value in the grammar and the prompt.
LITERAL_MAX = 80
#: A row-label or section column with at most this many values is listed whole in the prompt and
#: the grammar: in a small table the model picks the row a question means among all of them
#: ("total traffic" is the row 'Revenue passenger miles'), which no spelling match can find.
LIST_MAX = 40
#: Values of a listed column offered by meaning (MiniLM) when the question names none by its letters.
MEANT_PER_COLUMN = 3
#: Cosine below which a value is not offered by meaning.
MEANT_FLOOR = 0.35

#: Words that ask or point rather than name a value: they never ground one by themselves.
COMMON = STOP_WORDS | REQUEST_WORDS | TABLE_WORDS | frozenset("name total".split())
_COMMON = COMMON


def tokens(text: str) -> list[str]:
    """The words of a value or a question as grounding reads them (no camel-case split; the
    footnote marks a label ends with left out: ``Coast 2)`` is named by "Coast")."""
    return words(without_marks(text), camel=False)


_tokens = tokens


#: Endings a word takes without changing what it names (plurals, tenses, agent and adjective forms):
#: "post" and "posts" are near, "post" and "Postigo" are not.
_ENDINGS = frozenset(
    (
        "s es e d ed er ers est ing ings y ies ly al ally ion ions ation ations ment ments ive age ness ity"
    ).split()
)


def near_word(a: str, b: str) -> bool:
    """Same word (a month's name and abbreviation alike), a plural or other ending (:data:`_ENDINGS`;
    one stem), or one typo after the same first letter (a changed, dropped or swapped letter;
    four-letter words only a dropped one; numbers only the same)."""
    if a == b or same_month(a, b):
        return True
    if a.isdigit() or b.isdigit():
        return False  # a number is no typo of another: 2023 is not 2024
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and long_.startswith(short) and long_[len(short) :] in _ENDINGS:
        return True
    if len(short) >= 4 and stem(a) == stem(b):
        return True  # one stem, two endings: employed / employment
    if derived(short, long_):
        return True
    if _two_endings(a, b):
        return True
    if len(long_) - len(short) > 1 or len(short) < 4 or (len(short) == 4 and len(long_) == 4):
        return False  # four-letter words: only a dropped letter ("Aldr"), never a changed one
    return a[0] == b[0] and _edits(a, b) <= 1


def _two_endings(a: str, b: str) -> bool:
    """One root of six letters or more with two endings of :data:`_ENDINGS`: "operating" and
    "operations", "investing" and "investments" (a shorter root is too often two words: "general",
    "generation")."""
    for ea in _ENDINGS:
        if a.endswith(ea) and len(a) - len(ea) >= 6:
            root = a[: -len(ea)]
            if b.startswith(root) and b[len(root) :] in _ENDINGS and b[len(root) :] != ea:
                return True
    return False


_near = near_word


def one_typo(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one word with one typo: a letter changed, dropped, added or two
    swapped, after the same first letter (no other ending: "retweeted" is no typo of "retweets")."""
    return a != b and a[:1] == b[:1] and abs(len(a) - len(b)) <= 1 and _edits(a, b) <= 1


def _edits(a: str, b: str) -> int:
    """Edit distance with adjacent transpositions (optimal string alignment): ``Trondhiem`` is one."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                d = min(d, prev2[j - 2] + 1)
            cur.append(d)
        prev2, prev = prev, cur
    return prev[-1]


#: The sign a statement writes before a line, no word of its name: ``Less: Allowance for credit
#: losses``, ``Add: Depreciation``.
_SIGN_SAID = re.compile(r"^\s*(?:less|add|plus|deduct|minus)\s*:\s*", re.IGNORECASE)


#: Where a label's head ends and what qualifies it begins: ``European Union - 27 countries``,
#: ``Germany (until 1990 former territory of the FRG)``, ``Total, all industries``.
_QUALIFIED = re.compile(r"\s+[-–—(]|,|:")


def match_score(value: str, question_words: Sequence[str], question: str) -> float:
    """How fully the question names ``value`` (0..1): the share of the value's words it holds (its
    outline number aside: ``5. Other liabilities``, ``IV. Retained profits``, ``(a) Share capital``;
    and the sign written before it: ``Less: Allowance for credit losses``)."""
    value = _SIGN_SAID.sub("", without_outline(value))
    vw = _tokens(value)
    if not vw:
        return 0.0
    low = question.casefold()
    if len(value) >= 2 and re.search(r"(?<!\w)" + re.escape(value.casefold()) + r"(?!\w)", low):
        return 1.0 + min(len(value), 40) / 400  # the whole value, verbatim: longer is more specific
    content = [w for w in vw if w not in _COMMON]
    if not content:
        return 0.0
    said = initialisms(question)
    if said and _initials(value) & said:
        return 1.0  # "U.S." names "United States", "EU" "European Union", "COGS" "Cost of goods sold"
    head = _QUALIFIED.split(value, maxsplit=1)[0]
    if said and head != value and _initials(head) & said:
        return 1.0  # ("EU" names ``European Union - 27 countries (from 2020)``: its head, qualified)
    aliases = {w for part in _BRACKETED.findall(value) for w in _tokens(part)} if said else set()
    if any(same(w, s) for w in aliases for s in said):
        return 1.0  # "PRASM" names ``Passenger revenue per available seat mile ("PRASM")``
    # (a label's own initialism beside its words, ``Cost per available seat mile (CASM)``, is no word
    # more to name: "cost per ASM" names that label in full)
    own = _initials(_BRACKETED.sub(" ", value))
    named = [w for w in content if w not in own and w.removesuffix("s") not in own] or content
    hit = {i for i, w in enumerate(named) if any(_near(w, q) for q in question_words)}
    hit |= spelt_runs(named, said)
    return len(hit) / len(named) if hit else 0.0


def spelt_runs(words_: Sequence[str], said: set[str]) -> set[int]:
    """The positions of ``words_`` that an initialism of the question spells: a run of two or more
    consecutive words whose first letters read it (``available seat miles`` for "ASM"), or one word
    that is the initialism itself (``asms``)."""
    out: set[int] = set()
    if not said:
        return out
    for i, w in enumerate(words_):
        if any(same(w, s) for s in said):
            out.add(i)
        for j in range(i + 2, len(words_) + 1):
            if "".join(x[0] for x in words_[i:j]) in said:
                out.update(range(i, j))
    return out


#: An initialism as questions write one: capitals with dots (``U.S.``), around an ampersand (``R&D``)
#: or two to five capitals (``EU``).
_INITIALISM = re.compile(r"(?<![\w.&-])((?:[A-Z]\.){2,5}|[A-Z]{1,3}&[A-Z]{1,3}|[A-Z]{2,5})s?(?![\w&-])")


def initialisms(question: str) -> set[str]:
    """The initialisms a question writes, lower case without dots, ampersands or a plural ``s``
    (``U.S.`` -> ``us``, ``PP&E`` -> ``ppe``, ``RPMs`` -> ``rpm``)."""
    return {re.sub(r"[.&]", "", m).lower() for m in _INITIALISM.findall(question)}


def initials_of(label: str) -> set[str]:
    """What an initialism of a label of two to six words reads, with and without its grammar words
    (``Cost of goods sold`` -> ``cogs``, ``cgs``), and without a part in brackets (``Accumulated
    other comprehensive income (loss)`` -> ``aoci``); a qualified label's head's too (``EU``)."""
    head = _QUALIFIED.split(label, maxsplit=1)[0]  # (and its head's: ``European Union - 27 countries``)
    return _initials(label, longest=6) | (_initials(head, longest=6) if head != label else set())


def _initials(label: str, longest: int | None = None) -> set[str]:
    """The initialisms of a label and of it without its bracketed parts (see :func:`initials_of`);
    of labels of at most ``longest`` words with a letter first in each, when given."""
    out: set[str] = set()
    for text in {label, _BRACKETED.sub(" ", label)}:
        every = _tokens(text)
        content = [w for w in every if w not in _COMMON]
        if longest is not None and not (2 <= len(every) <= longest and all(w[0].isalpha() for w in every)):
            continue
        if len(content) >= 2:
            out |= {"".join(w[0] for w in every), "".join(w[0] for w in content)}
    return out


#: A part of a label in brackets: a qualifier (``(loss)``, ``(c)``) or an initialism of its own.
_BRACKETED = re.compile(r"\([^()]*\)")


def question_words(question: str) -> list[str]:
    """The question's words that can ground a value (not grammar words)."""
    return [w for w in _tokens(question) if w not in _COMMON]


#: Words that ask where a row stands in the table: only then is the row-order column offered (on
#: DataBench-style questions the small model otherwise ranked "the top 5" by row number).
_PLACE_WORDS = frozenset(
    "first last next previous before after above below listed preceding following prior position"
    " chart".split()
)


#: Periods a place word can pick ("the first half", "last quarter"): a period, not a row's place.
_PERIOD_WORDS = frozenset("half halves quarter quarters year years month months week weeks season".split())


def asks_place(question: str) -> bool:
    """Whether the question asks where a row stands: a place word that picks no period."""
    pairs = itertools.pairwise([*_tokens(question), ""])
    return any(w in _PLACE_WORDS and nxt not in _PERIOD_WORDS for w, nxt in pairs)


def offered(rel: Relation, question: str) -> Relation:
    """``rel`` as the model sees it for ``question``: the row-order column only when the question
    asks where a row stands."""
    if asks_place(question):
        return rel
    keep = [i for i, c in enumerate(rel.columns) if c.role != "position"]
    if len(keep) == len(rel.columns):
        return rel
    return replace(rel, columns=[rel.columns[i] for i in keep], values=[rel.values[i] for i in keep])


def labels_listed(col: RelColumn) -> bool:
    """Whether ``col`` is the row labels or sections of a small table, listed whole though it is
    more than a category: the model picks among all of them, and its pick is a choice."""
    return col.kind == "text" and col.role in ("key", "section") and CATEGORY_MAX < col.distinct <= LIST_MAX


def listed(col: RelColumn) -> bool:
    """Whether every value of ``col`` is shown and allowed: small categories, and the row labels and
    sections of a small table."""
    return (col.kind == "text" and col.distinct <= CATEGORY_MAX) or labels_listed(col)


def _meant(rel: Relation, col: RelColumn, question: str, exclude: Sequence[str]) -> list[str]:
    """The values of a listed column closest in meaning to the question's content words."""
    from gridsight.text import content_words, header_text, similarities

    phrase = " ".join(w for w in content_words(question) if not w.isdigit())
    values = [v for v in rel.distinct_values(col.name) if isinstance(v, str) and len(v) <= LITERAL_MAX]
    if not phrase or not values:
        return []
    sims = similarities(phrase, [header_text(v, False) for v in values])
    ranked = sorted(zip(sims, values, strict=True), key=lambda p: -p[0])
    return [v for s, v in ranked if s >= MEANT_FLOOR and v not in exclude][:MEANT_PER_COLUMN]


#: Cosine a part of the question must reach with a label for :func:`meant_by_part` to take it, and
#: by which it must beat the part's next label. MiniLM reads a single word of finance loosely
#: ("securities" is 0.55 from ``Common stock``, 0.52 from ``Short-term investments``): only a clear
#: likeness counts.
PART_FLOOR, PART_MARGIN = 0.55, 0.1


def meant_by_part(rel: Relation, col: RelColumn, said: Sequence[str]) -> str | None:
    """The value of a column that one run of one to three consecutive words of ``said`` means most
    clearly: the (run, value) pair of highest cosine, when it reaches :data:`PART_FLOOR` and the
    value beats that run's next value by :data:`PART_MARGIN` ("inventory" in "the inventory balance
    in the parent company's own balance sheet" is ``Stock``; the whole sentence is nearer
    ``Trade creditors``)."""
    from gridsight.text import header_text, vectors

    values = [v for v in rel.distinct_values(col.name) if isinstance(v, str) and len(v) <= LITERAL_MAX]
    runs = list(dict.fromkeys(" ".join(said[i : i + n]) for n in (1, 2, 3) for i in range(len(said) - n + 1)))
    if not values or not runs:
        return None
    vs = vectors([*runs, *(header_text(v, False) for v in values)])
    if vs is None:
        return None
    sims = vs[: len(runs)] @ vs[len(runs) :].T  # (runs x values)
    best: tuple[float, str] | None = None
    for row in sims:
        order = sorted(range(len(values)), key=lambda j: -float(row[j]))
        top = float(row[order[0]])
        clear = len(order) == 1 or top - float(row[order[1]]) >= PART_MARGIN
        if clear and top >= PART_FLOOR and (best is None or top > best[0]):
            best = (top, values[order[0]])
    return best[1] if best else None


def _texts(rel: Relation, col: RelColumn) -> list[str]:
    return [v for v in rel.distinct_values(col.name)[:SCAN_MAX] if isinstance(v, str)]


def _free_words(rel: Relation, qw: Sequence[str]) -> list[str]:
    """The question's words that name no header and no value by their letters (they may name a
    small category's value shortened or by meaning: :func:`gridsight.text.category_named`)."""
    from gridsight.text import free_words, header_words

    heads = (h for c in rel.columns for h in header_words(c.name))
    small = [c for c in rel.columns if c.kind == "text" and c.distinct <= CATEGORY_MAX]
    return free_words(qw, heads, (w for c in small for v in _texts(rel, c) for w in _tokens(v)))


def named_values(rel: Relation, question: str) -> dict[str, list[str]]:
    """Per text column, the values the question names: by their letters (plurals, one typo) best
    first, and in a listed row-label or section column by meaning when no letters match."""
    qw = question_words(question)
    proper = proper_words(question)
    if proper:  # (a proper word that is a whole value names that one: "Finance" is no ``Am. Finance Assn``)
        whole = {v.strip().casefold() for c in rel.columns if c.kind == "text" for v in _texts(rel, c)}
        proper = [w for w in proper if w not in whole]
    free = _free_words(rel, qw)
    out: dict[str, list[str]] = {}
    for col in rel.columns:
        if col.kind != "text":
            continue
        values = _texts(rel, col)
        scored = []
        for v in values:
            if len(v) > LITERAL_MAX:
                continue
            s = match_score(v, qw, question)
            if s >= 0.5 and not _by_number_only(v, qw) and not _mark_unwritten(v, question):
                scored.append((s, v))
        scored.sort(key=lambda p: -p[0])
        chosen = [v for _, v in scored[:LITERALS_PER_COLUMN]]
        if not chosen and (place := place_meant(proper, values)) is not None:  # "Swiss": ``Switzerland``
            chosen = [place]
        if not chosen and col.role == "data" and (meant := category_named(free, values)) is not None:
            chosen = [meant]  # "women": ``Female`` (row labels and sections are read below, as labels)
        if not chosen and col.role in ("key", "section") and listed(col):
            chosen = _meant(rel, col, question, chosen)
        if chosen:
            out[col.name] = chosen
    return out


def _mark_unwritten(value: str, question: str) -> bool:
    """Whether ``value`` is an outline number (``1.``, ``II.``, ``(a)``) that the question does not
    write: as written (``(a)``), or a number as a word of its own ("item 8"), not inside a figure
    ("above 1,400,000" names no line numbered ``1.``)."""
    mark = value.strip()
    if not is_outline_mark(mark):
        return False
    if re.search(rf"(?<![\w.,]){re.escape(mark)}(?![\w,])", question):
        return False
    number = re.sub(r"\D", "", mark)
    return not (number and re.search(rf"(?<![\d.,]){number}(?![\d]|[.,]\d)", question))


def _by_number_only(value: str, qw: list[str]) -> bool:
    """Whether a code's number alone is said, not its letters: "31 December" names no line code
    ``BS-31`` (a label with words, ``Fiscal 2024``, is named by its year)."""
    code = re.fullmatch(r"([A-Za-z]{1,6})[-_./]?(\d{1,6})", value.strip())
    if (
        code is None
        or re.fullmatch(r"(?:19|20)\d\d", code.group(2))
        or code.group(1).upper() in ("FY", "Q", "H")
    ):
        return False  # (``FY2023``, ``Q3``: periods, named by their numbers)
    own = tokens(value)
    said = [w for w in own if any(near_word(w, q) for q in qw)]
    return bool(said) and all(w.isdigit() for w in said) and any(not w.isdigit() for w in own)


#: Columns named after the schema (the question's words in a header, or a header closest in meaning).
NAMED_COLUMNS = 3


def named_columns(rel: Relation, question: str) -> list[str]:
    """The columns the question names, best first: by their header's words (plurals and stems alike;
    a year in a header path counts whole), then by meaning (MiniLM: 'gender' -> 'Sex'). In a wide
    table the small model otherwise picks a column by position ('eye colour' -> the first scale)."""
    from gridsight.text import SHORTENED, header_words, meaning_map, same, shortened

    qw = question_words(question)
    scored: list[tuple[float, int]] = []
    cols = [c for c in rel.columns if c.role in ("data", "key")]
    for i, c in enumerate(cols):
        hw = header_words(c.name)
        hits = [h for h in hw if any(same(h, q) for q in qw)]
        short = [h for h in hw if h not in hits and shortened(h, qw)]
        named = len(hits) + SHORTENED * len(short)
        if named and (named / len(hw) >= 0.5 or any(h.isdigit() and len(h) >= 3 for h in hits)):
            scored.append((named / len(hw) + named, i))
    scored.sort(key=lambda p: -p[0])
    out = [cols[i].name for _, i in scored]
    for i in dict.fromkeys(meaning_map(qw, [c.name for c in cols], title=rel.sheet.name).values()):
        if cols[i].name not in out:
            out.append(cols[i].name)
    return out[:NAMED_COLUMNS]


def grounded_values(
    rel: Relation, question: str, named: dict[str, list[str]] | None = None
) -> dict[str, list[str]]:
    """Per text column, the literals the grammar allows: the values the question names (``named``,
    :func:`named_values` when not given; best first), then every value of a listed column."""
    out = dict(named_values(rel, question) if named is None else named)
    for col in rel.columns:
        if listed(col):
            chosen = out.get(col.name, [])
            rest = [
                v
                for v in rel.distinct_values(col.name)
                if isinstance(v, str) and v not in chosen and len(v) <= LITERAL_MAX
            ]
            if chosen or rest:
                out[col.name] = chosen + rest
    return out


# -- the prompt --------------------------------------------------------------------------------------
SYSTEM = (
    "You write one SQLite query that answers a question about a table named data. "
    "Quote every column name in double quotes, exactly as listed. Compare text columns only with the "
    "values listed for them. For a yes/no question, select a comparison (it gives 1 or 0). "
    "For 'which'/'who' questions select the name column, not the number. "
    "Reply with the query only."
)

#: Worked examples on a made-up table (not from any benchmark): the fixed part of every prompt.
_EXAMPLE_SCHEMA = (
    "Table data, 6 rows. Columns:\n\"Item\" text, 6 distinct, e.g. 'Desk', 'Lamp', 'Chair'\n"
    '"Store" text, values \'North\', \'South\'\n"Price" number, 12 to 240\n"Sold" number, 0 to 31\n'
    '"In stock" boolean\n"Row number" number, the row\'s place in the table (1 = first listed)'
)
EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        "How many items sold more than 10 units in the North store?",
        'SELECT COUNT(*) FROM data WHERE "Sold" > 10 AND "Store" = \'North\'',
    ),
    ("Which item has the highest price?", 'SELECT "Item" FROM data ORDER BY "Price" DESC LIMIT 1'),
    ("What is the number sold for the Chair?", 'SELECT "Sold" FROM data WHERE "Item" = \'Chair\''),
    ("What is the average price of items in stock?", 'SELECT AVG("Price") FROM data WHERE "In stock" = 1'),
    (
        "Is the cheapest item sold in the South store?",
        'SELECT "Store" = \'South\' FROM data ORDER BY "Price" ASC LIMIT 1',
    ),
    ("List the 2 best-selling items.", 'SELECT "Item" FROM data ORDER BY "Sold" DESC LIMIT 2'),
    (
        "Which item is listed right after the Lamp?",
        'SELECT "Item" FROM data WHERE "Row number" = '
        '(SELECT "Row number" FROM data WHERE "Item" = \'Lamp\') + 1',
    ),
    (
        "Which store sold more units in total?",
        'SELECT "Store" FROM data GROUP BY "Store" ORDER BY SUM("Sold") DESC LIMIT 1',
    ),
    (
        "How many more units did the Desk sell than the Lamp?",
        'SELECT (SELECT "Sold" FROM data WHERE "Item" = \'Desk\') - '
        '(SELECT "Sold" FROM data WHERE "Item" = \'Lamp\')',
    ),
)


def _show(v: Any) -> str:
    if isinstance(v, str):
        v = v if len(v) <= 40 else v[:37] + "..."
        return literal(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def describe_column(col: RelColumn, values: Sequence[Any] = ()) -> str:
    """One schema line (``values``: every value of a listed column, shown whole). It does not depend
    on the question, so a table's whole schema stays in the model's KV cache from one question to
    the next; what the question names comes after it."""
    head = f'"{col.name}" {col.kind}'
    if col.unit:
        head += f" ({col.unit})"
    if col.role == "key":
        head += ", the row labels"
    elif col.role == "section":
        head += ", the section each row is under"
    elif col.role == "position":
        return f"{head}, the row's place in the table (1 = first listed)"
    if col.kind in ("number", "date") and col.low is not None:
        return f"{head}, {_show(col.low)} to {_show(col.high)}"
    if col.kind == "boolean":
        return head
    if values:
        return f"{head}, values {', '.join(_show(v) for v in values)}"
    if col.distinct <= CATEGORY_MAX:
        return f"{head}, values {', '.join(_show(v) for v in col.samples)}"
    return f"{head}, {col.distinct} distinct, e.g. {', '.join(_show(v) for v in col.samples[:3])}"


def schema_text(rel: Relation, named: dict[str, list[str]]) -> str:
    """The table as the model reads it, then the values the question names (``named``)."""
    lines = [f"Table data, {len(rel.rows)} rows. Columns:"]
    for c in rel.columns:
        lines.append(describe_column(c, rel.distinct_values(c.name) if labels_listed(c) else ()))
    shown = [
        f'"{c.name}" = {_show(v)}'
        for c in rel.columns
        if c.distinct > CATEGORY_MAX
        for v in named.get(c.name, [])[:3]
    ]
    if shown:
        lines.append("Values the question names: " + "; ".join(shown))
    return "\n".join(lines)


def _preamble() -> list[dict[str, str]]:
    """The system prompt and the worked examples: the same in every prompt."""
    out = [{"role": "system", "content": SYSTEM}]
    for i, (q, sql) in enumerate(EXAMPLES):
        user = (_EXAMPLE_SCHEMA + "\n" if i == 0 else "") + f"Question: {q}"
        out += [{"role": "user", "content": user}, {"role": "assistant", "content": sql}]
    return out


def table_prompt(rel: Relation) -> list[dict[str, str]]:
    """What every prompt on ``rel`` begins with, whatever the question: the preamble and the table's
    schema (what the open-time warm-up reads into the KV cache)."""
    return [*_preamble(), {"role": "user", "content": schema_text(rel, {})}]


def messages(
    rel: Relation, question: str, named: dict[str, list[str]], columns: Sequence[str] = ()
) -> list[dict[str, str]]:
    """The chat: the fixed system prompt and worked examples first (a cached prefix), then the table,
    the columns the question names (``columns``) and the question."""
    out = _preamble()
    text = schema_text(rel, named)
    if columns:
        text += "\nColumns the question names: " + ", ".join(f'"{c}"' for c in columns)
    out.append({"role": "user", "content": text + f"\nQuestion: {question}"})
    return out


def repair_messages(base: list[dict[str, str]], sql: str, error: str) -> list[dict[str, str]]:
    return [
        *base,
        {"role": "assistant", "content": sql},
        {"role": "user", "content": f"That query failed: {error}. Write a corrected query."},
    ]


# -- the grammar -------------------------------------------------------------------------------------
def _gbnf_str(text: str) -> str:
    esc = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    esc = esc.replace("\t", "\\t")
    return '"' + esc + '"'


def _alts(items: Sequence[str]) -> str:
    return " | ".join(items)


@dataclass(frozen=True)
class SqlGrammar:
    grammar: Grammar
    literals: dict[str, list[str]]


def _aggregates(ids: Sequence[str], cols: Sequence[RelColumn]) -> str:
    """SUM, AVG and MEDIAN over number columns, MIN and MAX over numbers and dates: the 0.5B model summed a
    text column of row labels (SQLite answers 0) where it meant a number."""
    nums = [r for r, c in zip(ids, cols, strict=True) if c.kind in ("number", "boolean")]
    ordered = [r for r, c in zip(ids, cols, strict=True) if c.kind in ("number", "date", "boolean")]
    out = ""
    if nums:
        num_col = _alts(nums)
        out += f' | ("SUM(" | "AVG(") ({num_col}) (arith (({num_col}) | num))? ")"'
        out += f' | "MEDIAN(" ({num_col}) ")"'
    if ordered:
        out += f' | ("MIN(" | "MAX(") ({_alts(ordered)}) (arith (({_alts(nums or ordered)}) | num))? ")"'
    return out


def sql_grammar(rel: Relation, literals: dict[str, list[str]], *, compare: bool = True) -> SqlGrammar:
    """A GBNF grammar for SELECT queries over ``rel``'s view (see the module docstring). With
    ``compare`` False (a question that is not yes/no) a selected item is a value, never a comparison:
    the small model answered "show the capacity" with ``SELECT "Section" = '...'``, i.e. 1."""
    cols = rel.columns
    rules: list[str] = []
    ids = [f"c{i}" for i in range(len(cols))]
    for rid, c in zip(ids, cols, strict=True):
        rules.append(f"{rid} ::= {_gbnf_str(chr(34) + c.name + chr(34))}")
    txt_cols = [r for r, c in zip(ids, cols, strict=True) if c.kind in ("text", "date")]
    rules.append(f"col ::= {_alts(ids)}")
    # What a query may select bare: every column but the totals marker, which filters rows and is
    # never an answer (the small model selected it for "what is the goodwill value", answering 0).
    answers = [r for r, c in zip(ids, cols, strict=True) if c.role != "total"]
    rules.append(f"icol ::= {_alts(answers or ids)}")
    # Comparisons: a text column with one of its own values; any column with a number.
    conds = []
    all_lits: list[str] = []
    for rid, c in zip(ids, cols, strict=True):
        vals = literals.get(c.name, [])
        if c.kind in ("text", "date") and vals:
            lits = [_gbnf_str(literal(v)) for v in vals]
            all_lits += lits
            rules.append(f"{rid}v ::= {_alts(lits)}")
            conds.append(f'{rid} (" = " | " != " | " < " | " > ") {rid}v')
            conds.append(f'{rid} " IN (" {rid}v (", " {rid}v)* ")"')
    if txt_cols:
        conds.append(f'({_alts(txt_cols)}) " LIKE \'%" like "%\'"')
    conds.append("flat cmp num")
    conds.append('col (" IS NULL" | " IS NOT NULL")')
    conds.append('col " BETWEEN " num " AND " num')
    rules.append(f"cmpcond ::= {_alts(conds)}")
    rules.append(f"lit ::= {_alts(all_lits) if all_lits else 'num'}")
    # Depth is bounded: an aggregate takes a column (or two with arithmetic), never another
    # aggregate, and a subquery holds no subquery -- the 0.5B model otherwise nests without end.
    rules += [
        'root ::= "SELECT " ("DISTINCT ")? item (", " item)* " FROM data" where? group? order? limit?',
        'sub ::= "SELECT " flat " FROM data" swhere? group? order? limit?',
        'item ::= iexpr (cmp (expr | lit))? | "(" sub ")" cmp (lit | num | "(" sub ")")'
        if compare
        else "item ::= iexpr",
        'iexpr ::= (icol | num | agg | fcall | "(" sub ")") (arith term)?',
        "expr ::= term (arith term)?",
        "flat ::= fterm (arith fterm)?",
        'arith ::= " + " | " - " | " * " | " / "',
        'term ::= fterm | "(" sub ")"',
        "fterm ::= col | num | agg | fcall",
        'fcall ::= "CAST(" col " AS REAL)" | "ROUND(" agg ", " [0-9] ")" | "ABS(" col ")"'
        ' | "LENGTH(" col ")" | "LOWER(" col ")" | "strftime(\'%" [YmdHM] "\', " col ")"',
        'agg ::= "COUNT(*)" | "COUNT(" ("DISTINCT ")? col ")"' + _aggregates(ids, cols),
        'cmp ::= " = " | " != " | " < " | " > " | " <= " | " >= "',
        'where ::= " WHERE " cond ((" AND " | " OR ") cond){0,5}',
        'swhere ::= " WHERE " scond ((" AND " | " OR ") scond){0,5}',
        'cond ::= cmpcond | flat cmp "(" sub ")" (arith num)? | "NOT " cmpcond',
        'scond ::= cmpcond | "NOT " cmpcond',
        'group ::= " GROUP BY " col (", " col)? (" HAVING " agg cmp num)?',
        'order ::= " ORDER BY " flat (" ASC" | " DESC")? (", " flat (" ASC" | " DESC")?)?',
        'limit ::= " LIMIT " [1-9] [0-9]?',
        'num ::= "-"? [0-9]{1,12} ("." [0-9]{1,6})?',
        "like ::= [^'%\\n\"]{1,40}",
    ]
    phrases = [f'"{c.name}"' for c in cols] + [literal(v) for vs in literals.values() for v in vs]
    grammar = Grammar.from_gbnf("\n".join(rules), name="sql").with_phrases([*phrases, " FROM data"])
    return SqlGrammar(grammar, literals)

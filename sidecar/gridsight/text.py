"""The package's one reading of words: tokenizer, stemmer, stop words, and closeness in meaning.

Every rule tier (formula shapes, the SQL planner, table picking) reads requests and headers through
these functions, so a header word and a question word are compared the same way everywhere:

- :func:`words` -- lowercase words; ``finalScore`` and ``net_amount`` split into their words, an
  apostrophe ends a word ("what's" -> what, s).
- :func:`stem` -- a light suffix stemmer (plurals, -ed, -ing) that keeps short words whole.
- :func:`same` -- two words name the same thing: equal stems, a near prefix ("favorit" /
  "favorite") or a word inside a compound header ("order" in "reorder").
- :data:`STOP_WORDS` -- function words; :data:`REQUEST_WORDS` and :data:`TABLE_WORDS` -- how a
  request asks and what it calls the table ("list", "rows"); :data:`OPERATION_WORDS` -- what to
  compute (count, total, highest...); :data:`FILLER` -- all words that never tell a column apart.
- :func:`superlative` / :func:`adjective_phrase` -- superlatives by form ('cheapest', 'most
  expensive'); :data:`DESCENDING` / :data:`ASCENDING` -- the generic direction words only.
- meaning, from the shipped sentence embedder (MiniLM, cached per text): :func:`similarities`,
  :func:`closest`; :func:`meaning_map` -- synonyms ('gender' -> a column headed 'Sex');
  :func:`ranked_by` -- the numeric column and end a superlative means ('the cheapest' -> the lowest
  Unit Price); :func:`direction_of`; :func:`time_direction` for date columns. Every choice by
  meaning needs a clear margin over the runner-up, else nothing is chosen.

Nothing here knows any dataset: no header names, no domain adjectives.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

import numpy as np

_WORD = re.compile(r"[^\W_]+")  # letters of any script: "Pokémon", "Zürich" stay whole
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")

#: Function words: articles, prepositions, pronouns, auxiliaries, question words. They never name a
#: column, a row label or a value. (Words such as 'other', 'per', 'only' are not here: row labels
#: like 'Other revenue' and 'Cost per unit' need them.)
STOP_WORDS = frozenset(
    """
    a an the of in on for to by with from and or is are was were be been being am do does did done
    have has had having what which who whom whose how many much there any that this these those its
    it as at into among all each every me could would should can will might must their his her they
    them than then your you our we i my he she him also whether s t d ll re ve fy fiscal
    """.split()
)

#: Words that name a plan, not what happened: a line under ``Budget`` is read only where one is said.
PLAN_WORDS = frozenset(
    "budget budgets budgeted plan plans planned forecast forecasts forecasted target targets projected"
    " projection projections estimate estimates estimated".split()
)

#: Words a request uses to ask ("show me", "list", "give the value of"), not to name anything.
REQUEST_WORDS = frozenset("show tell give please find get return list value values".split())

#: Words a request uses about the table and its rows ("how many rows / records / people").
TABLE_WORDS = frozenset(
    """
    dataset data table sheet number numbers count counts row rows record records entry entries
    people person present
    """.split()
)

#: Words that say what to compute -- counting, aggregates, ranking, superlative direction -- and so
#: never tell which column is meant ("the highest X": X names it, 'highest' does not).
OPERATION_WORDS = frozenset(
    """
    total sum average mean median maximum minimum max min highest lowest largest smallest biggest
    greatest most least fewest top bottom unique distinct different more less fewer common frequent
    """.split()
)

#: Words that negate what follows ("not refunded", "didn't ship", "without any X").
NEGATION_WORDS = frozenset(
    "not non no none never nor without didn didnt doesn doesnt don dont isn isnt wasn wasnt aren arent "
    "weren werent hasn hasnt haven havent".split()
)

#: Words a header adds to the thing it labels: 'client_name' is the client, 'Name' the row's name.
LABEL_WORDS = frozenset({"name", "names"})

#: A phrase of place or time that opens a question before a comma ("In 2023, did ...", "On
#: average, are ..."): it does not change what is asked.
LEADING_PHRASE = re.compile(
    r"^\s*(?:in|for|during|at|on|among|between|by)\b[^,?]{1,60},\s*"
    # (a period with no comma, before the verb that asks: "In FY2026 were A at least double B?")
    r"|^\s*(?:in|for|during|at|on|as\s+at)\s+(?:(?:fy|q[1-4]|h[12])\s*'?\d{2,4}|(?:19|20)\d\d)\s+"
    r"(?=(?:is|are|was|were|did|does|do|has|have|had)\b)",
    re.IGNORECASE,
)

#: Words that make one figure of several rows: "how many goals did the top 3 score in total".
IN_ALL = re.compile(r"\b(?:in total|combined|altogether|together|in all|overall|on average)\b", re.IGNORECASE)

#: A "how many" question about ranked rows that asks each row's figure, not a count of them ("how
#: many computers do the 3 biggest districts have"; "how many of the 5 ..." counts).
HOW_MANY_EACH = re.compile(r"^\s*how\s+(?:many|much)\s+(?!of\b|among\b)", re.IGNORECASE)

#: "How many respondents of each gender are there", "how many counties does each state have": one
#: count per group (the group is the words after "each").
COUNT_PER_GROUP = re.compile(
    r"^\s*how\s+many\b(?!.*\b(?:average|mean|distinct|different|unique)\b).*?"
    r"(?:\b(?:of|in|for|within|from)\s+each|\b(?:does|do|did)\s+each)\s+([^\W\d_]+(?:\s+[^\W\d_]+)?)",
    re.IGNORECASE,
)

#: Words that ask for a figure for each year of a span, in order ("from 1985 to 1989, in year order").
YEAR_BY_YEAR = r"in year order|year by year|each year|every year|per year"

#: A yes/no question's opening verb, after any :data:`LEADING_PHRASE`; a modal too ("Would every
#: director recommend us?"), but not a polite request ("Could you list the 3 ...").
YES_NO = re.compile(
    r"^\s*(?:is|are|was|were|did|does|do|has|have|had|can|(?:would|will|could|should)(?!\s+you\b))\b",
    re.IGNORECASE,
)


def asks_yes_no(text: str) -> bool:
    """Whether a question asks yes or no by its opening verb ("Is ...", "On average, are ...")."""
    return YES_NO.match(LEADING_PHRASE.sub("", text, count=1)) is not None


#: Generic direction words: which end of a column "the highest X" or "the 3 least X" asks for.
#: Adjectives of one domain ("cheapest", "tallest") are not listed: :func:`superlative` knows them by
#: their form and :func:`ranked_by` / :func:`direction_of` place them by meaning.
#: Words that ask for each value once ("the 3 lowest distinct prices", "the unique titles").
EACH_ONCE = re.compile(r"\b(distinct|different|unique)\b")
DESCENDING = frozenset(
    "highest most largest biggest greatest maximum max top best more strongest peak peaked".split()
)
ASCENDING = frozenset("lowest least smallest fewest minimum min bottom worst less weakest trough".split())

#: Words that ask how two figures relate (the cells planner, :mod:`gridsight.qa._cells`): a change
#: or difference, a ratio, a sum or average, and which way a comparison points.
CHANGE_WORDS = frozenset(
    "change changed changes difference differ gap increase increased decrease decreased grow grew growth"
    " rise rose fall fell drop dropped decline declined move moved movement".split()
)
#: (a figure that "improved" rose, one that "worsened" fell: read of the figure itself, as a profit,
#: a cash flow or a ratio is)
RISE_WORDS = frozenset(
    "increase increased rise rose risen grow grew grown gain gained climb climbed up improve improved".split()
)
FALL_WORDS = frozenset(
    "decrease decreased fall fell fallen drop dropped decline declined shrink shrank down reduction"
    " reduced worsen worsened deteriorate deteriorated".split()
)
RATIO_WORDS = frozenset("ratio times".split())
SUM_WORDS = frozenset("total combined sum together altogether add".split())
AVERAGE_WORDS = frozenset("average averaged averaging averages mean".split())
MORE_WORDS = frozenset("more higher larger greater bigger above exceed exceeded".split())
LESS_WORDS = frozenset("less fewer lower smaller below".split())

#: Words and signs that state a unit of measure or a currency (unit lines, captions).
UNIT = re.compile(
    r"(\b(in\s+)?(thousands?|millions?|billions?|mn|bn|usd|eur|gbp|chf|jpy|dollars?|euros?|pounds?|"
    r"percent(age)?|per\s+cent|kg|tons?|tonnes?|km|mwh|kwh|gwh|units?)\b|[$€£¥%])",
    re.IGNORECASE,
)

#: Endings that make an adjective of a name ending in a vowel (English derivation, not a word list).
_DERIVED = frozenset({"an", "ian", "ean", "ese", "ic", "ical"})


def derived(a: str, b: str) -> bool:
    """A place and its adjective: Canada / Canadian, Italy / Italian, China / Chinese, Japan / Japanese,
    Germany / German."""
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 5 and long_ == short + "y":
        return True  # Germany / German
    if len(short) >= 5 and short[-1] not in "aeiouy" and long_.startswith(short):
        return long_[len(short) :] in _DERIVED  # Japan / Japanese
    return (
        len(short) >= 5
        and short[-1] in "aeiouy"
        and long_.startswith(short[:-1])
        and long_[len(short) - 1 :] in _DERIVED
    )


#: Cosine a proper adjective must reach with a value, and its margin over the next value, to name it.
PROPER_FLOOR, PROPER_MARGIN = 0.7, 0.1
#: Distinct values of a column compared in meaning with a proper adjective (a column of places).
PLACES_MAX = 300
#: A capitalised word: a proper noun or adjective where it does not open a sentence.
_PROPER = re.compile(r"\b([A-Z][a-z]{2,})\b")


def proper_words(text: str) -> list[str]:
    """The capitalised words of ``text`` that do not open a sentence ("Swiss", "French"), lower case."""
    return [
        m.group(1).casefold()
        for m in _PROPER.finditer(text)
        if text[: m.start()].strip() and text[: m.start()].rstrip()[-1] not in ".?!"
    ]


#: The postal codes of the states of the USA (and its capital's district): a table may write a
#: state either way ("stores in Nevada" over a ``state`` column of ``NV``).
US_STATES = dict(
    pair.replace("_", " ").split(":")
    for pair in """alabama:AL alaska:AK arizona:AZ arkansas:AR california:CA colorado:CO connecticut:CT
    delaware:DE florida:FL georgia:GA hawaii:HI idaho:ID illinois:IL indiana:IN iowa:IA kansas:KS
    kentucky:KY louisiana:LA maine:ME maryland:MD massachusetts:MA michigan:MI minnesota:MN
    mississippi:MS missouri:MO montana:MT nebraska:NE nevada:NV new_hampshire:NH new_jersey:NJ
    new_mexico:NM new_york:NY north_carolina:NC north_dakota:ND ohio:OH oklahoma:OK oregon:OR
    pennsylvania:PA rhode_island:RI south_carolina:SC south_dakota:SD tennessee:TN texas:TX utah:UT
    vermont:VT virginia:VA washington:WA west_virginia:WV wisconsin:WI wyoming:WY
    district_of_columbia:DC""".split()
)


def written_forms(name: str) -> list[str]:
    """How a table may write a name, lower case: as said, and a state of the USA also by its postal
    code ("nevada" -> ``nevada``, ``nv``)."""
    low = name.lower()
    return [low, US_STATES[low].lower()] if low in US_STATES else [low]


#: A run of capitalised words ("Leeds", "New York", "St Albans", "USA").
_PROPER_RUN = re.compile(r"\b[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*")


def proper_phrases(text: str) -> list[str]:
    """The runs of capitalised words of ``text`` that do not open a sentence: the names it writes
    ("What are the codes of the depots in Leeds?" -> ``Leeds``; "in New York" -> ``New York``),
    a trailing stop mark aside."""
    out = []
    for m in _PROPER_RUN.finditer(text):
        run = m.group(0).rstrip(".")
        if not text[: m.start()].strip() or text[: m.start()].rstrip()[-1] in ".?!":
            run = run.split(None, 1)[1] if " " in run else ""  # ("Is Crater Lake ...": its first word opens)
        if run:
            out.append(run)
    return out


def place_meant(proper: Sequence[str], values: Sequence[str]) -> str | None:
    """The one value the proper adjectives of a question (:func:`proper_words`) mean when no letters
    derive it: "Swiss" -> ``Switzerland``, "Dutch" -> ``Netherlands`` (MiniLM, at least
    :data:`PROPER_FLOOR` and :data:`PROPER_MARGIN` over the next value, among at most
    :data:`PLACES_MAX` values); None when none is meant, or several, or without the embedder."""
    if not proper or len(values) > PLACES_MAX:
        return None
    meant = {i for w in proper if (i := closest(w, values, PROPER_MARGIN, PROPER_FLOOR)) is not None}
    return values[meant.pop()] if len(meant) == 1 else None


#: Distinct values a category column may hold for its values to be named by shortening or meaning
#: (:func:`category_named`): a handful of codes or classes (``AssocProf``, ``Female``).
CATEGORY_NAMED_MAX = 12
#: Cosine a question word must reach with a category value, and its margin over the next value, to
#: name it by meaning: "women" is 0.69 from ``Female`` and 0.48 from ``Male``; "cars" is 0.60 from
#: ``suv`` and names no class.
CATEGORY_FLOOR, CATEGORY_MARGIN = 0.65, 0.15


def _value_piece(piece: str, word: str) -> float:
    """How well a question word writes one word of a value: 1 whole or as its start, 0.75 as its
    consonants in order (see :func:`_shortens`), 0 not at all. A shortening of three letters has no
    vowel ('snr' of 'senior'): a three-letter name is the start of too many words ('Ann' of
    'annual', or of 'anyone' by its consonants)."""
    if piece == word or same(piece, word):
        return 1.0
    if len(piece) < 4 and any(ch in "aeiou" for ch in piece):
        return 0.0
    if word.startswith(piece):
        return 1.0
    return SHORTENED if _shortens(piece, word) else 0.0


def free_words(said: Sequence[str], heads: Iterable[str], valued: Iterable[str]) -> list[str]:
    """The words of ``said`` that name no header word of ``heads`` (whole or shortened) and no word
    of a value (``valued``), nor stand just before a header's word ("vehicle class" is the column's
    name, not a class): what may still name a category by :func:`category_named`."""
    heads, valued = set(heads), set(valued)

    def names_head(w: str) -> bool:
        return any(same(w, h) or shortened(h, [w]) for h in heads)

    return [
        w
        for i, w in enumerate(said)
        if w not in valued and not names_head(w) and not (i + 1 < len(said) and names_head(said[i + 1]))
    ]


def named_after_header(value: str, heads: Iterable[str], text: str) -> bool:
    """Whether a one-letter value is named right after a word of its column's header ("in discipline
    B", "grade A"): a lone letter elsewhere is an article or a label, not the value."""
    alts = "|".join(re.escape(h) for h in heads if len(h) > 2)
    if not alts or len(value) != 1 or not value.isalnum():
        return False
    return re.search(rf"\b(?:{alts})s?\s+{re.escape(value.lower())}(?![a-z0-9])", text.lower()) is not None


def category_named(said: Sequence[str], values: Sequence[str]) -> str | None:
    """The one value of a small category column (at most :data:`CATEGORY_NAMED_MAX`) that words of a
    question name where no value is written out: every word of the value written whole or shortened
    ("associate professors" -> ``AssocProf``, "full professors" -> ``Prof``; the value that uses
    the most words wins, a tie names none), else by meaning ("women" -> ``Female``; see
    :data:`CATEGORY_FLOOR`). ``said`` are the question's words that name no header and no value by
    their letters (the caller's reading); None when nothing is named clearly."""
    # (a superlative ranks, it names no value: "lowest first" is no priority ``Low``)
    said = [
        w
        for w in dict.fromkeys(said)
        if w.isalpha() and len(w) >= 3 and w not in NOT_NAMES and not (superlative(w) and w.endswith("est"))
    ]
    values = [v for v in dict.fromkeys(values) if isinstance(v, str) and v.strip()]
    if not said or not values or len(values) > CATEGORY_NAMED_MAX:
        return None
    spelt: list[tuple[float, str]] = []
    for v in values:
        vw = words(v)
        if not vw or not all(len(p) >= 3 and p.isalpha() for p in vw):
            continue
        # a word written whole or as its start counts 1, its consonants ('asst') three quarters
        read = [max((_value_piece(p, w) for w in said), default=0.0) for p in vw]
        if all(read):
            spelt.append((sum(read), v))
    if spelt:
        most = max(n for n, _ in spelt)
        best = [v for n, v in spelt if n == most]
        return best[0] if len(best) == 1 else None
    if not available():
        return None
    meant = {
        i
        for w in said
        if (i := closest(w, [header_text(v, False) for v in values], CATEGORY_MARGIN, CATEGORY_FLOOR))
        is not None
    }
    if len(meant) != 1:
        return None
    found = values[meant.pop()]
    # (a value the words spell only in part is not named by meaning: "electric bikes" is no
    # ``Bike was great``)
    return None if any(same(p, w) for p in words(found) for w in said) else found


#: A comparison with a number, as requests write one: the comparison (a key of
#: :data:`COMPARISON_OPS`), up to three words naming what is compared ("more than 3 children", "older
#: than 30"), and the number ("$1,200" -> 1,200: strip the commas).
COMPARISON = re.compile(
    r"\b(above|over|more than|greater than|higher than|larger than|exceeding|exceeds?|exceeded|at least|"
    r"below|under|less than|fewer than|lower than|smaller than|at most|younger than|older than|equal to|"
    r"longer than|shorter than|exactly)\s+"
    r"((?:[a-z]+\s+){0,3}?)(?:of\s+)?[$€£¥]?(-?\d[\d,]*(?:\.\d+)?)(?:\b|(?=(?:m|mn|bn|k|p|c|bp)\b))"
)  # (a unit may follow the figure: 5m, 2bn, 20p, 50c, 25bp)


def comparison(text: str) -> re.Match[str] | None:
    """The first :data:`COMPARISON` in ``text`` that is no span of periods ("the years over
    2023–2025 in which debt exceeded 100": the threshold is 100, "over 2023" opens a span) nor a
    year after words ("over the whole of 2024", "above the 2020 level": a period, no threshold)."""
    at = 0
    while (m := COMPARISON.search(text, at)) is not None:
        at = m.end()
        inner = COMPARISON.search(text, m.start(2))
        if inner is not None and inner.start() < m.start(3):
            at = inner.start()  # ("under current assets exceed 80,000": the comparison by the number)
            continue
        if re.match(r"\s*(?:[-–—]|to\b)\s*'?\d", text[m.end() :]):
            continue
        if m.group(2).strip() and re.fullmatch(r"(?:19|20)\d\d", m.group(3)):
            continue
        return m
    return None


_NUMBER_WORD = (
    r"(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)"
)


def comparisons_spelt(text: str) -> str:
    """``text`` with comparisons written the way :data:`COMPARISON` reads them: 'four or more' ->
    'at least 4', '3 or fewer' -> 'at most 3', 'more than two' -> 'more than 2' (any case)."""
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
    words |= {"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40}
    words |= {"fifty": 50, "hundred": 100}
    up = ("more", "greater", "higher", "above", "over")

    def bound(m: re.Match[str]) -> str:
        n = str(words[m.group(1).lower()]) if m.group(1) else m.group(2)
        return ("at least " if m.group(4).lower() in up else "at most ") + n + (m.group(3) or "")

    # (a unit may stand between: "34°C or more", "5 days or fewer", "10% or less")
    out = re.sub(
        rf"\b(?:{_NUMBER_WORD}|(\d[\d,]*(?:\.\d+)?))(\s*°\s*[cf]\b|\s*%|\s+[a-z]+)?\s+or\s+"
        r"(more|greater|higher|above|over|fewer|less|lower|below|under)\b",
        bound,
        text,
        flags=re.IGNORECASE,
    )
    out = re.sub(
        rf"\b(than|at least|at most|above|below|under|over|exactly) {_NUMBER_WORD}\b",
        lambda m: f"{m.group(1)} {words[m.group(2).lower()]}",
        out,
        flags=re.IGNORECASE,
    )
    # "below minus 15" / "under negative 3.5": the number below zero
    out = re.sub(r"\b(minus|negative)\s+(\d)", r"-\2", out, flags=re.IGNORECASE)
    # "the student with the highest number of absences": the row with the most of them (a row
    # ranked, no count asked)
    out = re.sub(
        r"\b(with|has|had|have)\s+the\s+(?:(highest|largest|greatest)|lowest|smallest)\s+number\s+of\b",
        lambda m: f"{m.group(1)} the {'most' if m.group(2) else 'fewest'}",
        out,
        flags=re.IGNORECASE,
    )
    # "list the 2 hotels by number of bookings": the first of an order, the top ones
    if not re.search(
        rf"\b(?:top|bottom|first|last|{SUPERLATIVE_RX})\b|\b(?:sorted|ordered|arranged)\s+by\b",
        out,
        re.IGNORECASE,
    ):
        out = re.sub(
            r"^(\s*(?:list|name|show|give|what are|which are)\s+the\s+)"
            r"(\d+|two|three|four|five|six|seven|eight|nine|ten)"
            r"(\s+(?:[a-z]+\s+){1,3}?by\s)",
            r"\1top \2\3",
            out,
            flags=re.IGNORECASE,
        )
    # "which gender has the higher average distance?", "which gender has more students with ...":
    # of two, the one with the highest (a comparative that compares with nothing written; "which
    # has more votes, A or B?" compares the two it names)
    if _ASKS_WHICH.match(out) and not re.search(r"\bthan\b|\bor\b", out, re.IGNORECASE):
        out = re.sub(
            rf"\bthe ({'|'.join(_SUPERLATIVE_OF)})\b",
            lambda m: f"the {_SUPERLATIVE_OF[m.group(1).lower()]}",
            out,
            flags=re.IGNORECASE,
        )
        out = re.sub(
            r"\b(has|have|had|with|get|gets|got)\s+(more|fewer|less)\b",
            lambda m: f"{m.group(1)} the {_SUPERLATIVE_OF[m.group(2).lower()]}",
            out,
            flags=re.IGNORECASE,
        )
    # "the top 3 cities in terms of average salary": ranked by it
    out = re.sub(r"\bin terms of\b", "by", out, flags=re.IGNORECASE)
    return out


#: A question asking which of some things: "which gender ...", "what lunch type ...", "who ...".
_ASKS_WHICH = re.compile(r"^\s*(?:(?:in|for|of|from|at|among)\s+)?(?:which|what|who)\b", re.IGNORECASE)
#: Comparatives and the superlative each means where only two things are compared.
_SUPERLATIVE_OF = {
    "higher": "highest",
    "lower": "lowest",
    "larger": "largest",
    "smaller": "smallest",
    "greater": "greatest",
    "bigger": "biggest",
    "longer": "longest",
    "shorter": "shortest",
    "older": "oldest",
    "younger": "youngest",
    "more": "most",
    "fewer": "fewest",
    "less": "least",
}


#: A comparison with a part of another figure: "more than half of", "under a third of", "at least
#: 40% of" (the comparison words of :data:`COMPARISON`; the part as a word or a percentage).
_PART_OF = re.compile(
    r"\b(above|over|more than|greater than|higher than|larger than|exceeding|exceeds?|exceeded|at least|"
    r"below|under|less than|lower than|smaller than|at most|exactly)\s+"
    r"(?:(?:a|one)\s+)?(half|third|quarter|fifth|tenth|two[\s-]thirds|three[\s-]quarters|"
    r"(\d+(?:\.\d+)?)\s*(?:%|per\s*cent\b|percent\b))\s+of\s+(?:the\s+)?([^?.!;]+)",
    re.IGNORECASE,
)
_PARTS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "fifth": 0.2, "tenth": 0.1}
_PARTS |= {"two thirds": 2 / 3, "three quarters": 0.75}


def parts_spelt(text: str) -> str:
    """``text`` with a comparison against a part of another figure written as a ratio against a
    number: "did equity make up more than half of total assets in 2023?" -> "did equity make up
    divided by total assets in 2023 more than 0.5?" (the part as a fraction, never in percent)."""

    def ratio(m: re.Match[str]) -> str:
        part = m.group(3)
        share = float(part) / 100 if part else _PARTS[re.sub(r"[\s-]+", " ", m.group(2).casefold())]
        return f"divided by {m.group(4).strip()} {m.group(1)} {round(share, 6):g}"

    return _PART_OF.sub(ratio, text)


#: What a figure is set against, named after it: "the EBITDA variance against budget" (``Budget`` is the
#: base, the figure asked is ``Variance``), "actual versus plan", "compared with the prior year".
SET_AGAINST = re.compile(
    r"\b(?:against|versus|vs\.?|relative\s+to|compared\s+(?:with|to))\s+((?:the\s+)?[^\W\d_]+)", re.I
)


#: Phrases that divide: "divided by", "by what factor", "as a multiple of", a slash between words
#: ("gross profit / sales"; ``2021/22`` is a year), one line "over" another.
DIVIDES = re.compile(
    r"\bdivided by\b|[^\W\d_]{2}\)?\s*/\s*\(?[^\W\d_]|[^\W\d_]\)?\s*/\s*\(?[^\W\d_]{2}"
    r"|\bby what factor\b|\ba multiple\b|\bmultiple of\b"
    # ("borrowings over total equity": one line over another, not "over the year", "over budget",
    # "over 1,000", "over FY2025", "over time")
    r"|(?<=[^\W\d_] )over\s+(?!(?:the\s+|a\s+|its\s+|their\s+)?(?:(?:year|period|quarter|month|half|last|"
    r"past|next|previous|prior|same|whole|course|time|budget|plan|forecast|target|january|february|march|april|"
    r"may|june|july|august|september|october|november|december|[a-z]{3}-?\d)\b|fy|q[1-4]|h[12]|\d))",
    re.I,
)  # (a slash between two letters alone is a name's: ``A/S``)

#: A budget, plan, forecast or target: a column of figures that did not come about, read only where
#: a question names one.
PLANNED = re.compile(r"\b(?:budget(?:ed)?|plan(?:ned)?|forecasts?|targets?)\b", re.IGNORECASE)

#: A budget named as what a figure is measured against: "beat budget", "below the plan", "against
#: forecast", "over budget", "between actual and budget" (not "in 2024 (plan)", which names a column).
PLAN_AS_BASE = re.compile(
    r"\b(?:against|versus|vs\.?|than|exceed(?:ed|s)?|beat|beaten|outperformed|miss(?:ed)?|short\s+of|below"
    r"|above|over|under|relative\s+to|compared\s+(?:with|to)|actuals?\s+and)\s+(?:the\s+|its\s+|their\s+)?"
    r"(budget(?:ed)?|plan(?:ned)?|forecasts?|targets?)\b",
    re.IGNORECASE,
)


#: The SQL operator of each comparison :data:`COMPARISON` reads.
COMPARISON_OPS = {
    "above": ">", "over": ">", "more than": ">", "greater than": ">", "higher than": ">", "larger than": ">",
    "exceeding": ">", "exceed": ">", "exceeds": ">", "exceeded": ">",
    "older than": ">", "at least": ">=", "below": "<", "under": "<", "less than": "<",
    "fewer than": "<", "lower than": "<", "smaller than": "<", "younger than": "<", "at most": "<=",
    "equal to": "=", "exactly": "=", "longer than": ">", "shorter than": "<",
}  # fmt: skip

#: Header words of a ranking column, where 1 is the top: "top" there means the smallest numbers.
RANK_WORDS = frozenset("rank ranking position place placing standing".split())

#: On a date column a superlative is about time, which runs one way whatever the domain: the
#: earliest / oldest date is the smallest one, the latest / newest / youngest the largest.
EARLIER = frozenset("earliest oldest first".split())
LATER = frozenset("latest newest last youngest recent".split())

#: Words ending in -est that are no superlative (English nouns, verbs and names).
_NOT_SUPERLATIVE = frozenset(
    """
    interest forest honest modest request digest harvest contest protest suggest invest arrest priest
    guest chest nest rest test quest best zest pest vest jest lest crest manifest conquest earnest
    inquest behest tempest unrest bequest attest detest infest ingest congest divest
    west midwest northwest southwest everest budapest bucharest
    """.split()
)

#: Words that never name a column in a request: stop, request and table words.
NOT_NAMES = STOP_WORDS | REQUEST_WORDS | TABLE_WORDS

#: Every word that tells no column apart: the above, and operation, negation and label words (a header
#: made only of them, such as 'Name', is still named by them: see :func:`header_words`).
FILLER = NOT_NAMES | OPERATION_WORDS | NEGATION_WORDS | LABEL_WORDS
#: Words a shortened header may hold beside what it names ('enrltot': enrolled, total).
_FILLS = frozenset("total number count percent average amount value rate".split())


#: Periods as reports abbreviate them, and the words they stand for: ``FY23`` / ``FY 2023`` -> fy
#: 2023, ``1H24`` / ``H1'24`` -> h1 2024, ``3Q23`` / ``Q3'23`` -> q3 2023 (two-digit years are this
#: century's).
_PERIODS = [
    (re.compile(r"\bFY\s?'?(\d{2})\b", re.I), r"FY 20\1"),
    (re.compile(r"\bFY(\d{4})\b", re.I), r"FY \1"),
    (re.compile(r"\bF((?:19|20)\d\d)\b"), r"FY \1"),  # (``F2025``: a JSE results booklet's fiscal year)
    # ("financial year 2025": its "financial" names no ``Financial income`` line)
    (re.compile(r"\b(?:financial|fiscal)\s+year\s+((?:19|20)\d\d)\b", re.I), r"FY \1"),
    # ("the 2024 year", "the 2024 financial year": its "year" names no ``Profit for the year`` line;
    # "the 2024 year-end" is the day, left as it is)
    (re.compile(r"\b((?:19|20)\d\d)\s+(?:financial\s+|fiscal\s+)?year\b(?![\s-]*end)", re.I), r"FY \1"),
    (re.compile(r"\b([12])H\s?'?(\d{2})\b", re.I), r"H\1 20\2"),
    (re.compile(r"\b([1-4])Q\s?'?(\d{2})\b", re.I), r"Q\1 20\2"),
    (re.compile(r"\b([12])H\s?(\d{4})\b", re.I), r"H\1 \2"),
    (re.compile(r"\b([1-4])Q\s?(\d{4})\b", re.I), r"Q\1 \2"),
    (re.compile(r"\b([HQ][1-4])\s?'(\d{2})\b", re.I), r"\1 20\2"),
    # statistics offices' codes: ``2023T2`` (a trimester, a quarter), ``S1 2023`` / ``2023S1``
    # (a semester, a half), ``2016 [YR2016]`` (a year and its code)
    (re.compile(r"\b((?:19|20)\d\d)\s?T([1-4])\b"), r"Q\2 \1"),
    (re.compile(r"\bS([12])\s?((?:19|20)\d\d)\b"), r"H\1 \2"),
    (re.compile(r"\b((?:19|20)\d\d)\s?S([12])\b"), r"H\2 \1"),
    (re.compile(r"\b((?:19|20)\d\d)\s*\[YR\1\]", re.I), r"\1"),
]
#: Periods written in words, by the letter and number headers use: "the second half" is H2.
_PERIODS_IN_WORDS = re.compile(
    r"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(half|quarter|semester)\b", re.I
)
_PERIOD_NUMBER = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


def _period_code(m: re.Match[str]) -> str:
    n, half = _PERIOD_NUMBER[m.group(1).lower()], m.group(2).lower() in ("half", "semester")
    return m.group(0) if half and n > 2 else f"{'H' if half else 'Q'}{n}"


#: Month names and the abbreviations sheets and questions write, with the month's number.
MONTHS = {
    m: i + 1
    for i, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
            ("october", "oct"), ("november", "nov"), ("december", "dec"),
        )
    )
    for m in names
}  # fmt: skip


def same_month(a: str, b: str) -> bool:
    """Two spellings of one month ('Feb' in ``Feb 2024`` and 'February' in a question)."""
    return a != b and a in MONTHS and MONTHS[a] == MONTHS.get(b)


_MONTH_TEXT = re.compile(r"^([a-z]+)\.?(?:[\s\-/,']+(\d{4}|\d{2}))?$")
_YEAR_MONTH = re.compile(r"^((?:19|20)\d\d)[-/.](\d{1,2})$")
_MAY = re.compile(r"\b(?:in|of|for|during|until|since|from|to) may\b|\bmay,? (?:19|20)\d\d\b")


def month_of(value: str) -> tuple[int, int | None] | None:
    """(month, year or None) of a text value that spells a month: ``Feb 2024``, ``February``,
    ``Sep-23``, ``2024-02``; None for any other text."""
    v = value.strip().casefold()
    m = _MONTH_TEXT.match(v)
    if m and m.group(1) in MONTHS:
        y = m.group(2)
        return MONTHS[m.group(1)], (int(y) + (2000 if len(y) == 2 else 0)) if y else None
    m = _YEAR_MONTH.match(v)
    if m and 1 <= int(m.group(2)) <= 12:
        return int(m.group(2)), int(m.group(1))
    return None


#: The months' names, January first.
MONTH_NAMES = tuple(max((m for m, n in MONTHS.items() if n == i), key=len).capitalize() for i in range(1, 13))


def month_asked(question: str) -> tuple[int, int | None] | None:
    """(month, year or None) of the one calendar month a question names ('in February', 'March
    2024'); None when it names none or several."""
    low = question.casefold()
    months = {MONTHS[w] for w in re.findall(r"[a-z]+", low) if w in MONTHS and w != "may"}
    if _MAY.search(low):
        months.add(5)
    if len(months) != 1:
        return None
    years = {int(y) for y in re.findall(r"(?<![\d.,])((?:19|20)\d\d)(?![\d.,])", low)}
    return months.pop(), (years.pop() if len(years) == 1 else None)


#: Weekday names in SQLite's ``strftime('%w')`` order (Sunday is 0).
WEEKDAYS = ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")

#: The calendar parts a question may group or filter rows by, and the ``strftime`` code of each.
DATE_PARTS = {"year": "%Y", "month": "%m", "weekday": "%w", "hour": "%H"}


#: Words that name a calendar part rather than a column.
DATE_WORDS = frozenset(
    "year years month months week weeks weekday weekdays day days hour hours date dates".split()
)


def date_part_asked(question: str) -> str | None:
    """The calendar part a question asks for as its answer ('on which day of the week', 'which
    weekday', 'at what hour of the day', 'in which month', 'which year'): a key of
    :data:`DATE_PARTS`, or None."""
    low = question.casefold()
    m = re.search(
        r"\b(?:which|what)\s+(day of the week|weekday|day|hour(?: of the day)?|time of day|month|year)s?\b",
        low,
    )
    if m is None:
        return None
    part = m.group(1)
    if part.startswith(("day", "weekday")):
        return "weekday"
    if part.startswith(("hour", "time")):
        return "hour"
    return part


def part_column(part: str, headers: Sequence[str]) -> int | None:
    """The column that holds a calendar part as its own values (``Month``, ``dayOfWeek``, not
    ``guest_birth_year``): the index of the first header made of the part's words alone."""
    holds = {part, "day", "week"} if part == "weekday" else {part}
    own = holds | {"of", "the", "number", "no", "name"}
    for i, h in enumerate(headers):
        hw = set(header_words(h))
        if holds & hw and hw <= own:
            return i
    return None


def weekdays_asked(question: str) -> tuple[int, ...] | None:
    """The weekdays (``%w`` numbers) a question keeps: 'on a Monday', 'on Fridays', 'at weekends'
    (Saturday and Sunday), 'on weekdays' (Monday to Friday); None when it names none."""
    low = question.casefold()
    if re.search(r"\b(?:on|at|over|during) (?:a |the )?weekends?\b", low):
        return (0, 6)
    if re.search(r"\b(?:on|during) (?:a )?(?:weekdays?|working days?|business days?)\b", low):
        return (1, 2, 3, 4, 5)
    days = {i for i, d in enumerate(WEEKDAYS) if re.search(rf"\b(?:on|every) (?:a |the )?{d}s?\b", low)}
    return tuple(sorted(days)) if days else None


def year_asked(question: str) -> tuple[str, int] | None:
    """('in', 2024) for 'in 2024' / 'during 2023' / 'of 2022'; ('before', 2025) and ('after', 2019)
    for a year bound; None when no year is named alone (dates and amounts are not years)."""
    low = question.casefold()
    m = re.search(
        r"\b(in|during|of|for|throughout|before|after|since|until|prior to)\s+(?:the year\s+)?((?:19|20)\d\d)"
        # ("in 1995, lowest first" and "in 1995." name the year; "1995.5" no, nor one of a list of
        # years: "for 2021, 2022 and 2023")
        r"(?![\d:/-])(?![.,]\d)(?!,\s*(?:19|20)\d\d)",
        low,
    )
    if m is None:
        return None
    word = m.group(1)
    how = {"since": "after", "until": "before", "prior to": "before"}.get(word, word)
    if how == "after" and word == "since":
        return ("since", int(m.group(2)))
    return (how if how in ("before", "after") else "in", int(m.group(2)))


#: The year before the one a question names, said in words: "the prior year", "the previous
#: financial year", "the preceding year", "the year before", "a year earlier".
_PRIOR_YEAR = re.compile(
    r"\b(?:(?:prior|previous|preceding)\s+(?:financial\s+|fiscal\s+)?year(?![\s-]+(?:on|to|over)\b)"
    r"|year\s+before|a\s+year\s+(?:earlier|before))\b(?!\s*['’]s)",
    re.IGNORECASE,
)
#: A year as a question writes it: ``2025``, ``FY2025``, ``FY25``, ``FY 25``.
_YEAR_WRITTEN = re.compile(
    r"(?<![\w/-])(FY\s*'?)?((?:19|20)\d\d|(?<=FY)\d\d|(?<=FY )\d\d|(?<=FY')\d\d)(?![\w/-])", re.I
)


def prior_year_named(question: str, holds: Callable[[str], bool] = lambda name: False) -> str:
    """The question with "the prior year" written as the year before the one it names, in the same
    form ("Q4 revenue: FY2025 minus prior year" -> "... minus FY2024"), where it names exactly one
    year; else as it was (no year named: "compared with the prior year" sets each year against the
    one before it; and where a text of the workbook ``holds`` the words, a column's own name:
    ``Change on the previous year (%)``)."""
    found = _PRIOR_YEAR.search(question)
    if found is None or holds(found.group(0)):
        return question
    named = {(m.group(1) or "", m.group(2)) for m in _YEAR_WRITTEN.finditer(question)}
    years = {y if len(y) == 4 else f"20{y}" for _, y in named}
    if len(years) != 1:
        return question
    fy, year = min(named)
    before = str(int(year) - 1).zfill(len(year))
    said = f"{fy.upper().replace(' ', '')}{before}"
    # ("the prior year-end": the 2024 year-end)
    return _PRIOR_YEAR.sub(
        lambda m: f"{said} year" if re.match(r"[\s-]*end\b", question[m.end() :], re.I) else said, question
    )


def names_month(value: str, question: str) -> bool:
    """The question names the month a text value spells (:func:`month_of`), in any spelling, and
    no other year than the value's ('in February' names ``Feb 2024``; 'March 2023' does not)."""
    spelt = month_of(value)
    if spelt is None:
        return False
    low = question.casefold()
    months = {MONTHS[w] for w in re.findall(r"[a-z]+", low) if w in MONTHS and w != "may"}
    if _MAY.search(low):
        months.add(5)
    years = {int(y) for y in re.findall(r"(?<![\d.,])((?:19|20)\d\d)(?![\d.,])", low)}
    return spelt[0] in months and (spelt[1] is None or not years or spelt[1] in years)


#: A footnote mark or a status letter at the end of a label, as statistics offices write them:
#: ``Coast 2)``, ``Total (1)``, ``Hills*``, ``Metro¹``, ``2023 p`` or ``2023p`` (provisional), ``Q4 r``
#: (revised), ``Oct to Dec [p]``; a fund statement's lettered note, ``Investments, at value (a)``. (Not
#: the end of a code range: ``Neoplasms (C00-D48)``.)
_MARKS = re.compile(
    r"(?:\s*(?:\(\d{1,2}\)|\([a-h]\)|(?<!\w)\d{1,2}\)|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|\*+|\[[a-z]\])|(?<=\d)\s+[prev]\.?"
    r"|(?<=\d)\s*[(\[][prev][)\]]"
    r"|(?<=(?:19|20)\d\d)[prev])\s*$"
)


#: The currency signs a statement sets alone in a cell, beside the figure they belong to (a column of
#: "$" in a statement converted from PDF): no cell of their own.
CURRENCY_SIGNS = frozenset("$€£¥₹₩₺₽₪₫₱₦฿₴₸₲₡₵¢")
#: The same signs as a regular-expression class: a figure may open with any of them (``₹337,934``).
CURRENCY_CLASS = "[" + "".join(sorted(CURRENCY_SIGNS)).replace("$", r"\$") + "]"


#: An outline number before a statement's line: ``5.``, ``IV.``, ``(a)``, ``A.``, ``(1)``, and a roman
#: numeral or letter before a dash (``II - Tangible fixed assets``; a number before one is a range,
#: ``1 - 30 days``).
_OUTLINE = re.compile(
    r"^\s*(?!\d{1,2}\s?[-–])(\(?)(\d{1,2}|[ivx]{1,4}|[a-h])([.)]|\s?[-–](?=\s))\s+", re.IGNORECASE
)


def without_outline(label: str) -> str:
    """``label`` without the outline number it opens with (``5. Other liabilities``: 'Other
    liabilities'; ``IV. Retained profits``; ``(a) Share capital``)."""
    return _OUTLINE.sub("", label) or label


def is_outline_mark(text: str) -> bool:
    """Whether ``text`` is an outline number alone: ``I.``, ``(1)``, ``(a)``, ``(iii)``, ``b)``."""
    return bool(_OUTLINE.fullmatch(text.strip() + " "))


def outline_kind(text: str) -> str | None:
    """The kind of outline number ``text`` is or opens with -- numbers, letters or roman numerals,
    upper or lower case, in its brackets or with its stop (``(a)``, ``I.``, ``1.``, ``(ii)``) -- or
    None. Lines numbered of one kind are siblings: the next ``(b)`` closes the section ``(a)`` opened."""
    m = _OUTLINE.match(text + " ")
    if m is None:
        return None
    body = m.group(2)
    kind = (
        "number" if body.isdigit() else "roman" if re.fullmatch(r"[ivx]+", body, re.IGNORECASE) else "letter"
    )
    return f"{m.group(1)}{kind}{'-upper' if body.isupper() else ''}{m.group(3).strip()}"


#: A note reference a statement writes at the end of a label: ``Provisions (Note 12)``,
#: ``Goodwill (Notes 4, 5)``.
_NOTE_REF = re.compile(
    r"\s*(?:\((?:notes?|note\s+no\.?)\s*[\w.,\s-]{1,12}\)|\[(?:notes?|note\s+no\.?)\s*[\w.,\s-]{1,12}\])\s*$",
    re.IGNORECASE,
)  # (``(note 3)``; ``[note 1]``, as accessible statistics tables write it)


#: The lettered note a footnote's own line starts with: ``(a) Investments, at cost``.
_LEAD_MARK = re.compile(r"^\s*\([a-h]\)\s+(?=\S)")


def without_marks(label: str) -> str:
    """``label`` without the note reference, footnote marks and status letters it ends with
    (:data:`_NOTE_REF`, :data:`_MARKS`), and the lettered note it starts with (:data:`_LEAD_MARK`)."""
    out = _LEAD_MARK.sub("", label)
    out = _NOTE_REF.sub("", out) or out
    while (trimmed := _MARKS.sub("", out)) != out and trimmed.strip():
        out = trimmed
    return out


_DAY_OF_MONTH = re.compile(r"(?:([a-z]+)\.?\s+(\d{1,2})|(\d{1,2})\s+([a-z]+)\.?)(?:,?\s+(?:19|20)\d\d)?")


def quarter_ended(part: str) -> str | None:
    """The code of the calendar quarter that ends on the day a header part names (``March 31`` or
    ``31 Mar`` -> 'q1', ``September 30`` -> 'q3'), for headers under "Quarter ended"; None for any
    other text."""
    m = _DAY_OF_MONTH.fullmatch(part.strip().casefold())
    if m is None:
        return None
    month, day = MONTHS.get(m.group(1) or m.group(4) or ""), int(m.group(2) or m.group(3))
    if month in (3, 6, 9, 12) and day == (31 if month in (3, 12) else 30):
        return f"q{month // 3}"
    return None


#: A run of months that is a calendar quarter or half: "October–December" is Q4, "Jan-Jun" H1.
_MONTH_RUN = re.compile(
    r"\b(jan|apr|jul|oct)[a-z]*\.?\s*(?:[-–—]|to|through)\s*(mar|jun|sep|dec)[a-z]*\b\.?", re.IGNORECASE
)
_RUNS = {("jan", "mar"): "Q1", ("apr", "jun"): "Q2", ("jul", "sep"): "Q3", ("oct", "dec"): "Q4"}
_RUNS |= {("jan", "jun"): "H1", ("jul", "dec"): "H2"}


def _month_run(m: re.Match[str]) -> str:
    return _RUNS.get((m.group(1).casefold(), m.group(2).casefold()), m.group(0))


#: A month by its number after the year, as PX-Web and SDMX write it: ``2023M02``, ``2023-M02``.
_CODED_MONTH = re.compile(r"\b((?:19|20)\d\d)-?M(0[1-9]|1[0-2])\b")
_MONTH_NAMES = {n: m.title() for m, n in MONTHS.items() if len(m) == 3}  # (each month's three letters)


def periods_spelt(text: str) -> str:
    """``text`` with its periods written as headers write them: abbreviations spelt out (see
    :data:`_PERIODS`), halves and quarters in words as their codes ('the third quarter' -> the Q3),
    and runs of months that are one ('July–September 2023' -> Q3 2023)."""
    text = _PERIODS_IN_WORDS.sub(_period_code, text)
    text = _CODED_MONTH.sub(lambda m: f"{_MONTH_NAMES[int(m.group(2))]} {m.group(1)}", text)
    text = _MONTH_RUN.sub(_month_run, text)
    if not re.search(r"\d", text):
        return text
    for pattern, repl in _PERIODS:
        text = pattern.sub(repl, text)
    return text


def words(text: object, camel: bool = True) -> list[str]:
    """Lowercase words of a request or header: 'finalScore' -> final, score; 'net_amount' -> net,
    amount; "what's" -> what, s; 'FY23' -> fy, 2023, '1H24' and 'first half 2024' -> h1, 2024
    (:func:`periods_spelt`).
    ``camel=False`` keeps 'SouthWest' one word, for running text whose capitals are not word breaks
    (row labels, titles, the question matched against them) and a word that ends in a year whole
    (:func:`year_suffixed`: a row label 'F16' is no year)."""
    raw = periods_spelt(str(text))
    raw = _CAMEL.sub(" ", raw) if camel else raw
    found = _WORD.findall(raw.replace("_", " ").lower())
    return [w for f in found for w in year_suffixed(f)] if camel else found


#: A word that ends in a year: ``sales2019``, ``hits86`` (letters, then four digits of a year or two).
_YEAR_SUFFIX = re.compile(r"([a-z]+)((?:19|20)\d\d|\d\d)")
#: A word of three letters or more numbered with one digit: ``date1``, ``name2``.
_NUMBERED = re.compile(r"([a-z]{3,})(\d)")


def value_window(words: Sequence[str], value: Sequence[str], width: int = 2) -> list[str]:
    """The words just around a value's words in a question ("at Rovers in 2020" -> at, in, 2020;
    "left-handed students" -> handed, students): what says which column holds it. Empty when the
    question does not hold the value's words in a row."""
    n = len(value)
    for i in range(len(words) - n + 1):
        if n and list(words[i : i + n]) == list(value):
            return [*words[max(0, i - width) : i], *words[i + n : i + n + width]]
    return []


def year_suffixed(word: str) -> list[str]:
    """A word that ends in a year, as its two words: 'sales2019' -> sales, 2019; 'hits86' -> hits,
    1986 and 'pop21' -> pop, 2021 (two digits read as Excel reads a year typed so: 00-29 are 20xx);
    a word of three letters or more numbered with one digit as the word and the digit ('date1' ->
    date, 1); any other word whole ('q1', 'mp3', 'x100')."""
    m = _YEAR_SUFFIX.fullmatch(word)
    if m is None:
        numbered = _NUMBERED.fullmatch(word)
        return list(numbered.groups()) if numbered else [word]
    letters, year = m.groups()
    if len(year) == 2:
        year = f"{20 if int(year) < 30 else 19}{year}"
    return [letters, year]


def stem(word: str) -> str:
    """A light stem: plurals, -ed, -ing and -ment; short words and -ss/-us/-is endings stay whole
    ('class', 'status', 'analysis'). 'deliveries' -> delivery, 'delivered' -> deliver, 'employment' and
    'employed' -> employ (see :func:`same`)."""
    w = word.lower()
    if len(w) <= 3 or w.endswith(("ss", "us", "is")):
        return w
    if w.endswith(("ies", "ied")) and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ied", "ies")):
        return w[:-1]  # ('died', 'ties': die, tie)
    if w.endswith(("sses", "xes", "zes", "ches", "shes")):
        return w[:-2]
    if w.endswith("s"):
        return w[:-1]
    for suffix in ("ments", "ment", "ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: -len(suffix)]
            if suffix in ("ing", "ed") and w[-1] == w[-2] and w[-1] not in "aeiouylsz":
                w = w[:-1]  # a doubled consonant: 'planned' -> plan, 'shipping' -> ship
            return w
    return w


def singular(word: str) -> str:
    """The word without a plural ending, still a word ('genders' -> gender, 'cities' -> city,
    'boxes' -> box); :func:`stem` goes further ('favorited' -> favorit) and is for matching letters,
    this is for showing a word to the embedder."""
    w = word.lower()
    if len(w) <= 3 or w.endswith(("ss", "us", "is")) or not w.endswith("s"):
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "xes", "zes", "ches", "shes")):
        return w[:-2]
    return w[:-1]


#: Prefixes that make a word its opposite: an "unemployed" count is not an "employed" one.
NEGATING_PREFIXES = frozenset({"un", "non", "dis", "in", "im", "ir", "il"})


#: Endings that make a verb's stem a noun ('cancell' -> 'cancellation', 'renew' -> 'renewal').
_NOUN_ENDINGS = frozenset({"ation", "ment", "al", "ance", "ence"})


def same(a: str, b: str) -> bool:
    """Two words name the same thing: equal stems, one a near prefix of the other ('deliver' /
    'delivery', 'favorit' / 'favorite'), or a long word inside a short compound ('order' in 'reorder'),
    unless the compound is its opposite ('unemployed', 'non-resident', 'disagree')."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) == 2 and long_ == f"{short}s" and long_ not in STOP_WORDS:
        return True  # the plural of a two-letter word: 'ids', 'pcs' ('has' is no plural of ``ha``)
    a, b = stem(a), stem(b)
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < 5:
        return False
    if long_.startswith(short):
        # (or the noun the verb makes: 'cancelled' / 'cancellations', 'renewed' / 'renewal')
        return len(long_) - len(short) <= 2 or long_[len(short) :] in _NOUN_ENDINGS
    if long_.endswith(short) and long_[: -len(short)].strip("-") in NEGATING_PREFIXES:
        return False
    # (one letter before it makes another word: 'orange' is no 'range', 'flight' no 'light'; a
    # header's code letter does not: 'pclass')
    at = long_.find(short)
    return (
        at >= 0
        and len(long_) <= len(short) + 3
        and not (at == 1 and bool(_known_words()) and known_word(long_))
    )


#: A header's unit in brackets at its end: ``Duration (min)``, ``Price (USD)``, ``Temp (C)``.
_BRACKET_UNIT = re.compile(r"\(\s*([A-Za-z]{1,6})\s*\)\s*$")


def unit_written(header: str, word: str) -> bool:
    """Whether ``word`` writes the unit a header gives in brackets ("minutes" ``Duration (min)``,
    "km" ``Distance (km)``, "kilometres" too): the unit whole, or shortened from the word (its
    start, or its first letter and then letters of it in order)."""
    m = _BRACKET_UNIT.search(header)
    if m is None or not word.isalpha():
        return False
    unit, word = m.group(1).lower(), word.lower()
    if unit == word or same(unit, word):
        return True
    return len(word) >= 4 and word[0] == unit[0] and (word.startswith(unit) or _in_order(unit[1:], word[1:]))


def _shortens(piece: str, word: str) -> bool:
    """``piece`` is a usual shortening of ``word``: its first three letters or more ('temp' of
    'temperature', 'max' of 'maximum'), or its first letter and then only consonants in order ('avg'
    of 'average', 'pct' of 'percent', 'enrl' of 'enrolled', 'hwy' of 'highway': a 'y' is read as a
    consonant). A word with vowels inside ('age') is no shortening of a word it is not the start of
    ('average')."""
    if len(piece) < 3 or len(piece) >= len(word) or piece[0] != word[0]:
        return False
    if word.startswith(piece):
        return True
    return not any(ch in "aeiou" for ch in piece[1:]) and _in_order(piece[1:], word[1:])


def _piece_of(piece: str, word: str) -> bool:
    return piece == word or same(piece, word) or _shortens(piece, word)


@lru_cache(maxsize=4096)
def _shortened(head_word: str, question_words: frozenset[str]) -> int:
    # letters read -> the most question words named so far; filler words ('tot' of 'total') may fill
    # a piece, but name nothing
    read: dict[int, int] = {0: 0}
    # (a first letter alone may be a word's initial before a word written out: 'tmax' of "maximum
    # temperature", 'tmin' of "minimum temperature")
    if len(head_word) >= 4 and any(
        w[0] == head_word[0] and len(w) >= 4 and w not in STOP_WORDS and not w.startswith(head_word[1:3])
        for w in question_words
    ):
        read[1] = 0  # (the initial alone names nothing: the word written out after it must)
    for i in range(len(head_word)):
        if i not in read:
            continue
        for j in range(i + 3, len(head_word) + 1):
            piece = head_word[i:j]
            if piece == head_word:
                # (a usual shortening of a filler word is that word: 'pct' is "percent", no
                # shortening of "precipitation")
                named = any(_shortens(piece, w) for w in question_words) and not any(
                    _shortens(piece, f) and f not in question_words for f in _FILLS
                )
            else:
                named = any(_piece_of(piece, w) for w in question_words)
            if named or (piece != head_word and any(_piece_of(piece, w) for w in _FILLS)):
                read[j] = max(read.get(j, 0), read[i] + named)
    return read.get(len(head_word), 0)


#: What a header word the question names only shortened counts ('temp' of 'temperature'): less than
#: a word named whole, so a header spelt out wins a tie with a shortened one.
SHORTENED = 0.75
#: The longest header word read as shortenings: run-together ones are short (``enrltot``,
#: ``popdensity``); a longer run of letters is no such header.
SHORTENED_LONGEST = 24


def shortened(head_word: str, question_words: Iterable[str]) -> int:
    """How many of the question's words a header word shortens, read whole: 'temp' of
    'temperatures' (1); 'distcod' of 'district' and 'codes' (2); 'mealpct' of 'meal' (and 'percent',
    a word any header may hold); 0 when any of its letters are left over ('distx') or it is the
    question's own word (see :func:`same`). Headers typed often are shortened this way (``avginc``,
    ``enrltot``, ``temp_max``)."""
    if not 3 <= len(head_word) <= SHORTENED_LONGEST or not head_word.isalpha():
        return 0  # (the pieces are read in time that grows with the cube of the length)
    return _shortened(head_word, frozenset(w for w in question_words if w.isalpha() and w != head_word))


def content_words(text: object) -> list[str]:
    """Words that could name something: without stop, request and table words."""
    return [w for w in words(text) if w not in NOT_NAMES]


def header_words(header: object) -> list[str]:
    """What a header names: its words without :data:`FILLER`; a header made only of such words
    ('Total', 'Number') keeps them, as it has nothing else to be named by."""
    ws = words(header)
    return [w for w in ws if w not in FILLER] or [w for w in ws if w not in NOT_NAMES] or ws


def is_ranking(header: object) -> bool:
    """A ranking column by its header ('Rank', 'Final position'): rank 1 is the top."""
    return any(singular(w) in RANK_WORDS for w in words(header))


#: Superlatives of the compass: the header word of the coordinate each ranks by, and its end.
COMPASS = {
    "northernmost": ("latitude", "desc"),
    "southernmost": ("latitude", "asc"),
    "easternmost": ("longitude", "desc"),
    "westernmost": ("longitude", "asc"),
}
#: How a coordinate's header may write it ('lat', 'lng').
_COORDINATE_WORDS = {"latitude": {"latitude", "lat"}, "longitude": {"longitude", "lon", "lng", "long"}}


#: Superlatives of age: on a column of ages the oldest is the highest (on dates, the earliest).
_AGE_ENDS = {"oldest": "desc", "eldest": "desc", "youngest": "asc"}


def superlative(word: str) -> bool:
    """A superlative: a generic direction word, an English -est form ('cheapest', 'newest'), or one of
    the compass ('northernmost')."""
    if word in DESCENDING or word in ASCENDING or word in COMPASS:
        return True
    return len(word) >= 6 and word.endswith("est") and word not in _NOT_SUPERLATIVE


#: Header words that say which end of a pair of measures a column is: ``temp_max`` / ``temp_min``,
#: ``High`` / ``Low``, ``upper_bound`` / ``lower_bound``.
_HIGH_END = frozenset("max maximum high highest upper peak".split())
_LOW_END = frozenset("min minimum low lowest lower bottom".split())


#: Header words that say a column holds percentages ('Female (%)', 'urban_pct', 'Share of votes').
_PERCENT_WORDS = frozenset("pct percent percentage perc share proportion".split())


def percent_header(header: str) -> bool:
    """A header of percentages: a '%' sign or a word such as 'pct', 'percent' or 'share'."""
    return "%" in header or bool(set(words(header)) & _PERCENT_WORDS)


def end_of(header: str) -> str | None:
    """'desc' for the high end of a pair of measures ('temp_max', 'High'), 'asc' for the low end
    ('temp_min', 'Low'); None for a header that names neither (or both)."""
    ws = set(words(header))
    high, low = bool(ws & _HIGH_END), bool(ws & _LOW_END)
    return "desc" if high and not low else "asc" if low and not high else None


def end_asked(request: str) -> str | None:
    """The one end of a measure a request points to: 'the high price', 'the hottest day', 'the
    daily maximum' -> 'desc'; 'the daily low', 'the coldest nights' -> 'asc' (superlatives by
    :func:`direction_of`; 'at least' and 'at most' are bounds, no end); None where it points both
    ways or nowhere."""
    ends = set()
    for w in words(re.sub(r"\bat (?:least|most)\b", " ", request.lower())):
        if w in _HIGH_END or w in _LOW_END:
            ends.add("desc" if w in _HIGH_END else "asc")
        elif superlative(w) and w not in COMPASS:
            end = direction_of(w)
            if end is not None:
                ends.add(end)
    return ends.pop() if len(ends) == 1 else None


#: Counts written as words.
NUMBER_WORDS = {
    w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())
} | {"dozen": 12, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100, "thousand": 1000}
#: Ordinals written as words ('the third generation' names the number 3).
ORDINAL_WORDS = {
    w: i + 1
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
    )
}
_RANK_ENDS = frozenset("top bottom first last".split())
#: Nouns a count before names a period by ("the first nine months", "the last three years").
PERIOD_NOUNS = frozenset("days weeks months quarters years".split())
#: Words after such a noun that close the period it names ("the nine months ended ...").
PERIOD_CLOSERS = ("ended", "ending", "to", "through")
#: A superlative in running text, for patterns: most, least, best, worst, or an -est form (highest,
#: largest, deepest); see :func:`superlative` for one word.
SUPERLATIVE_RX = r"(?:most|least|best|worst|\w{2,}est|(?:north|south|east|west)ernmost)"
#: "the second largest", "the 3rd most common": a place counted from the top.
_ORDINAL = re.compile(
    r"\b(" + "|".join(w for w in ORDINAL_WORDS if w != "first") + r"|[2-9](?:nd|rd|th))[\s-]+"
    rf"{SUPERLATIVE_RX}\b"
    r"|\b(?:ranked|ranks|comes|came|placed)\s+("
    + "|".join(w for w in ORDINAL_WORDS if w != "first")
    + r"|[2-9](?:nd|rd|th))\b",
    re.IGNORECASE,
)  # (also "the second-lowest"; "ranked second for pigs (counting from the smallest)", "which comes
#    second by size")


def ordinal_place(text: str) -> int | None:
    """The place a request asks for before a superlative: 2 for "the second largest" or "the 2nd
    most common"; None without one ("the first" is the superlative itself)."""
    m = _ORDINAL.search(text)
    if m is None:
        return None
    word = (m.group(1) or m.group(2)).casefold()
    return ORDINAL_WORDS.get(word) or int(word[:-2])


#: "the third generation", "in 2nd class": an ordinal before the noun it counts (no superlative).
_ORDINAL_NOUN = re.compile(
    r"\b(" + "|".join(ORDINAL_WORDS) + r"|\d{1,2}(?:st|nd|rd|th))\s+([a-z]+)\b", re.IGNORECASE
)


#: The most values a number column may hold for an ordinal to name one ("the third generation").
ORDINAL_VALUES_MAX = 20


def ordinals_named(text: str) -> list[tuple[re.Match[str], int]]:
    """Ordinals written before a noun, with their number ("the third generation" -> 3, "2nd class"
    -> 2); not before a superlative ("the second largest" is a place, :func:`ordinal_place`) nor in
    a date ("the 3rd of May")."""
    out = []
    for m in _ORDINAL_NOUN.finditer(text):
        word, noun = m.group(1).casefold(), m.group(2).casefold()
        if superlative(noun) or noun in ("of", "and", "or", "to", "in") or noun in MONTHS:
            continue
        out.append((m, ORDINAL_WORDS.get(word) or int(word[:-2])))
    return out


#: Words just before a value that keep the rows without it: "other than the USA", "excluding
#: Texas", "outside of Sales".
EXCLUDED_BEFORE = re.compile(
    r"\b(?:other than|except(?: for)?|excluding|besides|apart from|not in|outside(?: of)?|but)\s+(?:the\s+)?$"
)


def excluded_at(text: str, at: int) -> bool:
    """Whether the value written at ``at`` in ``text`` is excluded (:data:`EXCLUDED_BEFORE`)."""
    return at > 0 and EXCLUDED_BEFORE.search(text[max(0, at - 24) : at]) is not None


#: A question that takes the rows of two values together ("how many ... in either A or B", "the
#: total of A or B"), not one that chooses between them ("who has more, A or B?").
TAKES_BOTH = re.compile(r"\beither\b|^\s*(?:how many|what is the (?:number|total|average|sum|count))\b")


def either_of(text: str, values: Sequence[str]) -> list[str]:
    """Values a text names joined by "or" ("in either Austin or Denver", "Austin or Denver"): each
    of ``values`` written beside another with "or" between, in the order written; [] otherwise."""
    low = text.lower()
    written = [v for v in values if v.lower() in low]  # (only values the text writes can be paired)
    found = []
    for a in written:
        for b in written:
            if a == b:
                continue
            m = re.search(
                rf"(?<![a-z0-9]){re.escape(a.lower())}(?:\s*,)?\s+or\s+(?:the\s+)?{re.escape(b.lower())}(?![a-z0-9])",
                low,
            )
            if m:
                found.append((m.start(), a, b))
    if not found:
        return []
    _at, a, b = min(found)
    return [a, b]


def value_spans(text: str, values: Sequence[str]) -> list[tuple[int, int, str]]:
    """Where a text writes each of ``values`` ((start, end, value), in the order written, none
    overlapping): the value itself as a whole word, or for a month value any spelling of its month
    ("October" for ``Oct``)."""
    low = text.casefold()
    found: list[tuple[int, int, str]] = []
    for v in values:
        spelt = month_of(v)
        if spelt is not None and spelt[1] is None:
            for m in re.finditer(r"[a-z]+", low):
                if MONTHS.get(m.group(0)) == spelt[0] and (m.group(0) != "may" or _MAY.search(low)):
                    found.append((m.start(), m.end(), v))
            continue
        vl = v.casefold().strip()
        if len(vl) < 2:
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(vl)}(?![\w-])", low):
            found.append((m.start(), m.end(), v))
    out: list[tuple[int, int, str]] = []
    for start, end, v in sorted(found, key=lambda f: (f[0], -(f[1] - f[0]))):
        if not out or start >= out[-1][1]:
            out.append((start, end, v))
    return out


#: What joins the members of a list ("Oct, Nov and Dec", "North or South", "A & B").
_LISTED_BY = re.compile(r"\s*(?:,\s*(?:and|or|&|plus)?|and|or|&|/|plus|\+)\s*(?:the\s+)?")
#: What joins a span's two ends ("from Oct to Dec", "April through June", "between 2 and 5").
_SPANNED_BY = re.compile(r"\s*(?:to|through|thru|until|till|-|\u2013|and)\s*(?:the\s+)?")


#: A question that sets the values it lists against each other: they are choices, not one set.
LISTED_AS_CHOICE = re.compile(
    r"\b(?:compare[sd]?|comparing|versus|vs|differences?|differ|ratio|than|more|less|fewer|higher|lower|"
    r"larger|smaller|bigger|greater|better|worse|each)\b"
)


def in_own_order(values: Sequence[str]) -> list[str] | None:
    """A text column's values in their own order where they have one (months by the calendar,
    quarters and weekdays by their place), else None: "from October to December" spans months,
    "from JFK to LAX" spans nothing."""
    months = {v: m for v in values if (m := month_of(v)) is not None}
    if len(months) == len(values):
        return sorted(values, key=lambda v: (months[v][1] or 0, months[v][0]))
    quarters = {v: q for v in values if (q := re.fullmatch(r"(?i)\s*Q([1-4])\s*", v))}
    if len(quarters) == len(values):
        return sorted(values, key=lambda v: quarters[v].group(1))
    week = [d[:3] for d in (*WEEKDAYS[1:], WEEKDAYS[0])]  # (Monday first)
    days = {v: week.index(v.strip().casefold()[:3]) for v in values if v.strip().casefold()[:3] in week}
    if len(days) == len(values):
        return sorted(values, key=lambda v: days[v])
    return None


def listed_values(text: str, values: Sequence[str]) -> tuple[list[str], bool]:
    """The values of one column a text lists together, in the order written, and whether they are
    the two ends of a span ("from October to December", "between April and June"): ([], False)
    when it lists fewer than two, or offers them as a choice: a span or list set against itself
    (:data:`LISTED_AS_CHOICE`), a list with a superlative ("which of A, B or C sold the most") or
    in brackets ("what type of post (original, reply or other) is the most common")."""
    spans = value_spans(text, values)
    low = text.casefold()
    if LISTED_AS_CHOICE.search(low):
        return [], False
    for i in range(len(spans) - 1):
        a, b = spans[i], spans[i + 1]
        gap = low[a[1] : b[0]]
        before = low[max(0, a[0] - 12) : a[0]]
        opener = re.search(r"\b(from|between)\s+(?:the\s+)?$", before)
        if opener and _SPANNED_BY.fullmatch(gap) and (gap.strip() != "and" or opener.group(1) == "between"):
            return [a[2], b[2]], True  # ("from Oct to Dec", "between April and June"; no "from A and B")
        if re.search(r"\s*(?:through|thru|-|\u2013)\s*", gap) and _SPANNED_BY.fullmatch(gap):
            return [a[2], b[2]], True
    for i in range(len(spans) - 1):
        run = [spans[i]]
        for nxt in spans[i + 1 :]:
            if not _LISTED_BY.fullmatch(low[run[-1][1] : nxt[0]]):
                break
            run.append(nxt)
        if len(run) >= 2:
            bracketed = low[: run[0][0]].count("(") > low[: run[0][0]].count(")")
            ranked = any(superlative(w) and w not in ("more", "less") for w in re.findall(r"[a-z]+", low))
            if bracketed or ranked:
                return [], False
            return [r[2] for r in run], False
    return [], False


def folded(text: str) -> str:
    """``text`` without its accents, in lower case ("Škoda" -> "skoda", "São Paulo" -> "sao paulo"):
    questions are often typed without the marks a table writes."""
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    ).casefold()


def code_like(value: object) -> bool:
    """A short code: five characters at most, no space (``M``, ``PG-13``, ``E10+``)."""
    v = str(value).strip()
    return len(v) <= 5 and " " not in v


#: An age said as such: "17 years old", "a 45-year-old".
AGE_SAID = re.compile(r"\b(\d{1,3})[\s-]*years?[\s-]*old\b", re.IGNORECASE)


def age_column(columns: Sequence[tuple[str, str]]) -> int | None:
    """The one number column of ages among ``(kind, name)`` columns (``Age``, ``age_years``,
    ``Patient Age``), or None when there is none or several."""
    aged = [i for i, (kind, name) in enumerate(columns) if kind == "number" and "age" in header_words(name)]
    return aged[0] if len(aged) == 1 else None


#: A comparison just before a figure: "older than 30 years old", "between 30 and 40 years old"
#: compare, they name no one age.
COMPARED_BEFORE = re.compile(r"\b(?:than|above|over|under|below|least|most|and|to)\s*$")
#: A capital letter written alone: "a final grade of C", "films rated R".
_LETTER_ALONE = re.compile(r"(?<![\w'&./-])([A-Z])(?![\w'&./-])")


def letters_alone(text: str) -> list[re.Match[str]]:
    """The capital letters ``text`` writes alone that may be codes ("a final grade of C", "films
    rated R"): not a sentence's first word, the pronoun "I", nor the article "A" before a word."""
    return [
        m
        for m in _LETTER_ALONE.finditer(text)
        if text[: m.start()].strip()
        and m.group(1) != "I"
        and not (m.group(1) == "A" and re.match(r"\s+[a-z]", text[m.end() :]))
    ]


def numbers_named(text: str) -> set[str]:
    """The whole numbers a text names in words ('three', 'the third'), as digits."""
    return {
        str(n) for w in words(text, camel=False) for n in (NUMBER_WORDS.get(w), ORDINAL_WORDS.get(w)) if n
    }


#: A request for every item in order rather than the top one: "from the most to the fewest", "deepest
#: first", "in chronological order", "rank the types by ...", "sorted by price".
_ORDERS_ALL = re.compile(
    rf"\bfrom (?:the )?(?:top|bottom|{SUPERLATIVE_RX})\b(?: \w+){{0,3}}? to (?:the )?\w+"
    r"|\b(?:most|least|\w{3,}est) (?:\w+ )?first\b"
    r"|\bin (?:\w+ )?(?:descending|decreasing|ascending|increasing|chronological|alphabetical|reverse)"
    r" order\b"
    r"|^\s*(?:please\s+)?(?:rank|order|sort)\b|\b(?:ranked|sorted|ordered) (?:by|from)\b",
    re.IGNORECASE,
)
#: Orders that go up ("in chronological order"); the others go the way their first word says.
ASCENDING_ORDER = re.compile(
    r"\bin (?:\w+ )?(?:ascending|increasing|chronological|alphabetical) order\b", re.I
)


def orders_all(text: str) -> bool:
    """Whether a request asks for every item in an order ("List the islands from the most to the
    fewest penguins", "Order the species by bill depth, deepest first") with no count of them; the
    direction is the first direction word's (:func:`direction_of`), or :data:`ASCENDING_ORDER`'s."""
    return count_asked(text) is None and _ORDERS_ALL.search(text) is not None


def count_asked(text: str) -> int | None:
    """How many ranked items a request asks for: 'the top 5', '3 highest', 'bottom three', 'which 6
    players ... the highest'; None when it names no count next to a ranking word (years and other
    numbers are not counts)."""
    ws = words(text, camel=False)

    def count(w: str) -> int | None:
        n = NUMBER_WORDS.get(w) or (int(w) if w.isdigit() and len(w) <= 2 else None)
        return n if n and n > 1 else None

    ranked = any(superlative(w) or w in _RANK_ENDS for w in ws)
    for i, w in enumerate(ws):
        n = count(w)
        if n is None:
            continue
        before = ws[i - 1] if i else ""
        after = ws[i + 1] if i + 1 < len(ws) else ""
        if i >= 2 and ws[i - 2] == "at" and before in ("least", "most"):
            continue  # "at least 4 times": a comparison, not a count of ranked items
        if re.fullmatch(r"(?:19|20)\d\d", before):
            continue  # "in 2022/23": the close of a year that spans two, not a count
        if before.isdigit():
            continue  # "aged 35-49 highest": the end of a band, not a count
        then = ws[i + 2] if i + 2 < len(ws) else ""
        if after in PERIOD_NOUNS and (
            before in ("first", "last", "past", "next", "latest", "previous") or then in PERIOD_CLOSERS
        ):
            continue  # "the first nine months of 2025", "the nine months ended ...": a period, not nine items
        if before in _RANK_ENDS or superlative(before) or superlative(after) or after in _RANK_ENDS:
            return n
        if ranked and before in ("which", "the", "what", "list", "name", "are"):
            return n
    return None


#: Past participles that do not end in -ed ("the highest-paid", "the best-known").
_IRREGULAR_PARTICIPLES = frozenset(
    "paid sold built made spent won held run seen bought kept told brought taught lost grown known "
    "shot led fed set cut hit put read given taken written chosen driven eaten".split()
)


def participle(word: str) -> bool:
    """Whether ``word`` reads as a participle that a superlative can qualify ('paid', 'rated',
    'serving', 'known'; not 'speed' nor 'women')."""
    if word in _IRREGULAR_PARTICIPLES:
        return True
    return (
        len(word) >= 5
        and word.endswith(("ed", "ing"))
        and not word.endswith(("eed", "hundred"))
        and word not in STOP_WORDS
    )


#: "Name the 3 most profitable companies", "Which 2 teams ...", "List the 3 Swiss companies ...":
#: the thing listed is the last word before the clause that ranks or filters it ("what are the 3
#: smallest sales figures" lists figures: values, not rows).
LISTED_ENTITIES = re.compile(
    r"^\s*(?:name|list|which(?:\s+(?:are|were))?"
    r"|what\s+(?:are|were)(?=\s+(?:the\s+)?\d+\s+(?:most|least|[a-z]+est)\b))"  # ("what are the 3 best ...")
    r"\s+(?:the\s+)?(?:top\s+|bottom\s+)?\d+\s+"
    r"((?:[\w-]+\s+){0,3}?[\w-]+?)"
    r"(?=\s+(?:of|for|with|that|who|whose|by|in|on|among|from|have|has|had|were|are|did|do|does)\b|\s*[?.]|\s*$)"
)
#: A superlative with the participle that says what ranks the rows: "the highest rated", "the
#: most-reviewed" (a column no header word names ranks nothing).
RANKED_BY_PARTICIPLE = re.compile(r"\b(?:highest|lowest|best|worst|most|least)[\s-]+([a-z]{3,}ed)\b")
#: "What vintages are the 4 highest rated wines?", "what scores did the 3 cheapest wines get?": a
#: figure of each ranked row, named first.
WHAT_OF_TOP = re.compile(
    r"^\s*(?:what|which)\s+([^\W\d][\w\s-]{0,40}?)\s+(?:do|does|did|are|were|have|has|had)\s+the\s+"
    r"(?:top\s+)?\d+\b"
)
#: One row asked for by a noun: "which company has the highest profits".
ENTITY_ASKED = re.compile(r"^\s*which\s+([\w-]+)\s+(?:has|had|have|is|was|were|did|does|do)\b")
#: Words that list a column's values, not rows: "the top 3 worth values", "the 5 largest figures".
VALUE_NOUNS = frozenset("values figures amounts numbers counts totals readings results".split())


def noun_of(phrase: str) -> str:
    """The noun a listed phrase ends in, before a participle after it ("fares paid" -> fares)."""
    said = phrase.split()
    while len(said) > 1 and participle(said[-1]):
        said.pop()
    return said[-1]


def adjective_phrase(request_words: Sequence[str], names_something: Callable[[str], bool]) -> str | None:
    """The first superlative adjective of a request, to be placed by meaning (:func:`ranked_by`):
    an -est word that is no generic direction word ('cheapest'), or 'most' / 'least' before a word
    that is no filler, number or plural and for which ``names_something`` (a header or a cell
    value, by its letters) is false ('most expensive'); None when there is none."""
    for i, w in enumerate(request_words):
        nxt = request_words[i + 1] if i + 1 < len(request_words) else ""
        if superlative(w) and w not in ("most", "least") and participle(nxt) and not names_something(nxt):
            return f"{w} {nxt}"  # "the highest-paid", "the longest-serving": ranked by what the verb names
        if superlative(w) and w not in DESCENDING and w not in ASCENDING:
            return w
        if w in ("most", "least") and i + 1 < len(request_words):
            nxt = request_words[i + 1]
            if (
                nxt not in FILLER
                and not nxt.isdigit()
                and not nxt.endswith("s")
                and len(nxt) > 3
                and not names_something(nxt)
            ):
                return f"{w} {nxt}"
    return None


# --- meaning (the shipped MiniLM embedder) ------------------------------------------------------

_VECTORS: OrderedDict[str, np.ndarray] = OrderedDict()
_VECTORS_LOCK = threading.Lock()
_EMBEDDER: list[Any] = []  # [embedder or None] once looked up


def _embedder() -> Any:
    if not _EMBEDDER:
        try:
            from gridsight.llm.embeddings import shared_embedder

            _EMBEDDER.append(shared_embedder())
        except Exception:  # no embedding model installed: lexical matching alone
            _EMBEDDER.append(None)
    return _EMBEDDER[0]


def vectors(texts: Sequence[str]) -> np.ndarray | None:
    """Unit vectors of ``texts`` (cached; the last 4,096 texts), or None without the embedder."""
    emb = _embedder()
    if emb is None:
        return None
    with _VECTORS_LOCK:
        missing = list(dict.fromkeys(t for t in texts if t not in _VECTORS))
    if missing:
        try:
            found = emb.embed(missing)
        except Exception:
            return None
        with _VECTORS_LOCK:
            for t, v in zip(missing, found, strict=True):
                _VECTORS[t] = v
            while len(_VECTORS) > 4096:
                _VECTORS.popitem(last=False)
    with _VECTORS_LOCK:
        got = [_VECTORS.get(t) for t in texts]
    if any(v is None for v in got):  # evicted meanwhile by another thread: embed directly
        try:
            return np.asarray(emb.embed(list(texts)))
        except Exception:
            return None
    return np.stack(cast(list[np.ndarray], got)) if got else np.zeros((0, 384), dtype=np.float32)


def similarities(phrase: str, texts: Sequence[str]) -> list[float]:
    """Cosine similarity of ``phrase`` to each text (all zero without the embedder)."""
    if not texts:
        return []
    vs = vectors([phrase, *texts])
    if vs is None:
        return [0.0] * len(texts)
    return [float(x) for x in vs[1:] @ vs[0]]


def closest(phrase: str, texts: Sequence[str], margin: float = 0.05, floor: float = 0.0) -> int | None:
    """The text closest in meaning to ``phrase`` when it beats the runner-up by ``margin`` and
    reaches ``floor`` (cosine); None when none stands out or the embedder is not installed."""
    if not texts:
        return None
    return _standing_out(similarities(phrase, texts), margin, floor)


def _standing_out(sims: Sequence[float], margin: float, floor: float) -> int | None:
    """The index of the highest of ``sims`` when it reaches ``floor`` and beats the runner-up by
    ``margin``; None otherwise (or when every one is 0: no embedder)."""
    if not any(sims):
        return None
    order = sorted(range(len(sims)), key=lambda i: -sims[i])
    if sims[order[0]] < floor:
        return None
    if len(order) > 1 and sims[order[0]] - sims[order[1]] < margin:
        return None
    return order[0]


def _closest_either(word: str, texts: Sequence[str], margin: float, floor: float) -> int | None:
    """:func:`closest` for a word as written and as its singular, each text compared with the form
    nearer it ("councils" is nearer ``Local authorities`` than "council" is)."""
    one = singular(word)
    if one == word:
        return closest(word, texts, margin=margin, floor=floor)
    if not texts:
        return None
    sims = [max(a, b) for a, b in zip(similarities(one, texts), similarities(word, texts), strict=True)]
    return _standing_out(sims, margin, floor)


def header_text(header: str, apart: bool = True) -> str:
    """How a header is shown to the embedder: the words that name it ('Mean Weight (Kg)' -> 'weight
    kg', 'finalScore' -> 'final score'), without the filler that would pull every header alike, and
    words run together apart ('libprice' -> 'lib price': see :func:`run_together`; not with
    ``apart=False``, for cell values: 'minivan' is a kind of its own)."""
    ws = header_words(header)
    return (" ".join(run_together(w) for w in ws) if apart else " ".join(ws)) or str(header)


@lru_cache(maxsize=1)
def _known_words() -> frozenset[str]:
    embedder = _embedder()
    return embedder.known_words() if embedder is not None else frozenset()


def known_word(word: str) -> bool:
    """Whether the embedder's own vocabulary holds ``word`` whole (True without the embedder: no
    word is then taken for an abbreviation)."""
    known = _known_words()
    return not known or word in known


@lru_cache(maxsize=8192)
def run_together(word: str) -> str:
    """Two words typed as one header word, apart ('libprice' -> 'lib price', 'popdensity' -> 'pop
    density', 'yearbuilt' -> 'year built'), so the embedder reads them: the embedder's own
    vocabulary must know both parts, or one of four letters or more beside an unknown one of three
    or four (an abbreviation); a word it knows whole stays whole, and so does one its tokenizer
    already cuts into the same two words ('extraversion') or that has no such split ('avginc')."""
    known = _known_words()
    if len(word) < 6 or not word.isalpha() or not word.islower() or not known or word in known:
        return word
    pieces = _embedder().word_pieces(word)
    best: tuple[int, int, str] | None = None
    for i in range(3, len(word) - 2):
        a, b = word[:i], word[i:]
        if pieces[:2] == [a, f"##{b}"]:
            continue  # the tokenizer reads the two words already ('extra', '##version'): a word
        both = a in known and b in known
        # one known part beside a short unknown one, as abbreviations are ('lib', 'tot'); a long
        # unknown part is the rest of a word ('agree' + 'ableness')
        one = (a in known and len(a) >= 4 and len(b) <= 4) or (b in known and len(b) >= 4 and len(a) <= 4)
        if both or one:
            # both parts known first, then the longest known part
            rank = (int(both), max(len(p) for p in (a, b) if p in known), f"{a} {b}")
            best = rank if best is None or rank[:2] > best[:2] else best
    return best[2] if best else word


def _in_order(piece: str, word: str) -> bool:
    """Every letter of ``piece`` is in ``word``, in order."""
    it = iter(word)
    return all(ch in it for ch in piece)


def abbreviates(token: str, phrase: Sequence[str]) -> bool:
    """Whether a header word is written from the words of ``phrase``, one piece from each in order:
    a piece starts with its word's first letter and keeps its letters in order, two letters at
    least ('airco' <- air conditioning, 'avginc' <- average income, 'garagepl' <- garage places,
    'mathscr' <- math score). From one word: its first four letters or more ('temp' <- temperature),
    five letters or more kept in order ('bathrms' <- bathrooms), or the word with more after it
    (a compound's head: 'lot' -> lotsize, 'gas' -> gashw)."""
    if not phrase or not token.isalpha() or any(not w.isalpha() for w in phrase):
        return False
    if len(phrase) == 1:
        (w,) = phrase
        if token == w or token[0] != w[0]:
            return False
        return (
            (len(token) >= 4 and w.startswith(token))
            or (len(token) >= 5 and _in_order(token, w))
            or (len(w) >= 3 and token.startswith(w) and len(token) - len(w) >= 2)  # 'lot' -> lotsize
        )

    def fits(rest: str, i: int) -> bool:
        if i == len(phrase):
            return not rest
        w = phrase[i]
        if len(rest) < 2 or rest[0] != w[0]:
            return False
        return any(_in_order(rest[:n], w) and fits(rest[n:], i + 1) for n in range(len(rest), 1, -1))

    return fits(token, 0)


#: Words of a request read together as one abbreviated header word, at most.
ABBREVIATED_WORDS = 3


def abbreviations_map(request_words: Sequence[str], heads: Sequence[Sequence[str]]) -> dict[str, int]:
    """{request word: header index} for runs of the request's consecutive content words that write a
    header word no request word names by its letters (:func:`abbreviates`: "air conditioning" ->
    ``airco``, "lot" -> ``lotsize``, "bathrooms" -> ``bathrms``). A run that abbreviates words of
    two headers names neither."""
    # (a word that names a header by its letters writes no other header's abbreviation: "the
    # cheapest fare" is no ``cafe``)
    every = [h for hw in heads for h in hw]
    content = [
        w for w in request_words if w not in FILLER and not w.isdigit() and not any(same(w, h) for h in every)
    ]
    found: dict[str, set[int]] = {}
    for i, hw in enumerate(heads):
        for h in hw:
            if len(h) < 4 or any(same(h, w) for w in content):
                continue
            for start in range(len(content)):
                for n in range(1, ABBREVIATED_WORDS + 1):
                    run = content[start : start + n]
                    if len(run) == n and abbreviates(h, run):
                        for w in run:
                            found.setdefault(w, set()).add(i)
    return {w: next(iter(ix)) for w, ix in found.items() if len(ix) == 1}


def title_text(title: str) -> str:
    """The words of a table's title (its sheet's name) that could say what its rows are:
    '204_Housing' -> 'housing', 'SeattleWeather' -> 'seattle weather'; '' for 'Sheet1' or 'Data'."""
    return " ".join(w for w in words(title) if w.isalpha() and len(w) > 2 and w not in NOT_NAMES)


def meaning_map(
    request_words: Sequence[str],
    headers: Sequence[str],
    floor: float = 0.55,
    margin: float = 0.1,
    title: str = "",
    as_written: bool = False,
) -> dict[str, int]:
    """Synonyms by meaning: for each word of a request that could name a column (no :data:`FILLER`,
    no number, three letters or more) but names no header by its letters, the header MiniLM puts
    clearly closest to it -- 'gender' -> 'Sex', 'wage' -> 'Salary', 'older' -> 'Age' -- as
    {word: header index}. A word maps only when the closest header reaches ``floor`` (cosine) and
    beats the runner-up by ``margin``. The table's ``title`` (its sheet's name) competes as one more
    header: a word closest to it names the rows, not a column ('houses' in a sheet named Housing is
    no ``bedrooms``); a title word that names a header is that header's, not the rows'. Words that
    write a header as an abbreviation (:func:`abbreviations_map`) map first, by their letters, and
    with no embedder they are all the map holds. ``as_written``: a plural is compared as written as
    well as singular, each header with the nearer form ("councils" and ``Local authorities``; a
    statistics table's header parts, where plurals name groups)."""
    heads = [header_words(h) for h in headers]
    out = abbreviations_map(request_words, heads)
    if len(headers) < 1 or not available():
        return out
    texts = [header_text(h) for h in headers]
    # (a title word that is a header's own names that column: a sheet named Wage with a wage column)
    rows = " ".join(t for t in title_text(title).split() if not any(same(t, h) for hw in heads for h in hw))
    for w in dict.fromkeys(request_words):
        if (
            w in out
            or w in FILLER
            or len(w) < 3
            or w.isdigit()
            or any(same(w, h) for hw in heads for h in hw)
        ):
            continue
        i = (
            _closest_either(w, texts, margin=margin, floor=floor)
            if as_written
            else closest(singular(w), texts, margin=margin, floor=floor)
        )
        if i is None:
            continue
        # (a word nearer the title than the header names the rows; one clearly nearest a header of
        # all the headers, and nearer it than the title, names the column: "rainfall" in a sheet of
        # weather stations)
        title_sim, header_sim = similarities(singular(w), [rows, texts[i]]) if rows else (-1.0, 0.0)
        if header_sim > title_sim:
            out[w] = i
    return out


#: Cosine a word must reach with a column's values, and its margin over the next column's, to name
#: that column by what it holds ("airline" and ``Alaska Airlines``, 0.73; "state" and ``Texas``).
VALUES_FLOOR, VALUES_MARGIN = 0.6, 0.1
#: Values of a column compared (the first, most frequent ones).
VALUES_SAMPLE = 8


def meaning_by_values(
    request_words: Sequence[str],
    columns: Mapping[str, Sequence[str]],
    floor: float = VALUES_FLOOR,
    margin: float = VALUES_MARGIN,
) -> dict[str, tuple[str, float]]:
    """Synonyms by what a column holds, for words no header names by letters or by meaning: each
    word of a request that could name a column (three letters or more, no :data:`FILLER`) against
    the first :data:`VALUES_SAMPLE` values of each text column ({name: values}); the column whose
    closest value reaches ``floor`` and beats every other column's by ``margin`` is the one the
    word names ('airline' -> ``Carrier``, whose values are airlines): {word: (column, cosine)}."""
    if not columns or not available():
        return {}
    names = list(columns)
    samples = {n: [str(v) for v in columns[n][:VALUES_SAMPLE] if str(v).strip()] for n in names}
    out: dict[str, tuple[str, float]] = {}
    for w in dict.fromkeys(request_words):
        if w in FILLER or len(w) < 3 or not w.isalpha():
            continue
        tops = sorted(
            ((max(similarities(singular(w), samples[n]), default=0.0), n) for n in names if samples[n]),
            reverse=True,
        )
        if tops and tops[0][0] >= floor and (len(tops) == 1 or tops[0][0] - tops[1][0] >= margin):
            out[w] = (tops[0][1], tops[0][0])
    return out


def ranked_by(
    adjective: str, headers: Sequence[str], floor: float = 0.5, margin: float = 0.05
) -> tuple[int, str] | None:
    """Which of ``headers`` (numeric columns) a superlative ranks by, and which end: ``(index,
    'desc' | 'asc')``, or None. 'the cheapest' is compared in meaning with 'highest <header>' and
    'lowest <header>' for every header; the header of the closest phrase wins when it reaches
    ``floor`` and beats every other header by ``margin``, and the end is the closer of its two
    phrases (the cheapest: the lowest Price)."""
    if not headers or not available():
        return None
    texts = [_money_text(h) if _MONEY.search(h) else header_text(h) for h in headers]
    phrases = [f"highest {t}" for t in texts] + [f"lowest {t}" for t in texts]
    sims = similarities(f"the {adjective}", phrases)
    n = len(texts)
    best = [max(sims[i], sims[n + i]) for i in range(n)]
    order = sorted(range(n), key=lambda i: -best[i])
    top = order[0]
    if best[top] < floor or (n > 1 and best[top] - best[order[1]] < margin):
        return None
    return top, ("desc" if sims[top] >= sims[n + top] else "asc")


def direction_of(word: str) -> str | None:
    """'desc' or 'asc' for a superlative when no column is known: the generic lists first, else its
    meaning compared with 'the highest' / 'the lowest' (None without a clear margin)."""
    if word in DESCENDING:
        return "desc"
    if word in ASCENDING:
        return "asc"
    if word in COMPASS:
        return COMPASS[word][1]
    i = closest(f"the {word}", ["the highest", "the lowest"], margin=0.03)
    return None if i is None else ("desc", "asc")[i]


#: The words a header of years is written with ("Year", ``model_yr``).
YEAR_WORDS = frozenset({"year", "yr"})
#: Header words of a number column that holds points in time (``year``: 1998, 2004).
_TIME_HEADERS = YEAR_WORDS | {"date"}


def timelike(kind: str, name: str) -> bool:
    """Whether a column runs in time, so that a time adjective orders it (:func:`time_direction`):
    a date column, or a number column of years (``year``, ``Year built``)."""
    return kind == "date" or (kind == "number" and bool(set(header_words(name)) & _TIME_HEADERS))


def ranked_column(word: str, columns: Sequence[tuple[str, str]]) -> tuple[int, str] | None:
    """The column a superlative adjective ranks by, among ``(kind, name)`` columns, and its order:
    ``(index, 'desc' | 'asc')``, or None. Number and date columns that are no ranking take part
    (every superlative is near "highest rank"). The column is placed by meaning (:func:`ranked_by`:
    "the cheapest" -> Price, asc), else, for a time adjective, it is the one column that runs in
    time ("the oldest plane": its ``year``); on such a column the order is time's (the oldest is the
    earliest)."""
    pool = [
        i for i, (kind, name) in enumerate(columns) if kind in ("number", "date") and not is_ranking(name)
    ]
    if not pool:
        return None
    if word in COMPASS:  # "the northernmost airport": the highest latitude
        axis, end = COMPASS[word]
        held = [i for i in pool if set(header_words(columns[i][1])) & _COORDINATE_WORDS[axis]]
        return (held[0], end) if len(held) == 1 else None
    if word in _AGE_ENDS:  # "the oldest patient": the one number column of ages, highest first
        aged = [i for i in pool if columns[i][0] == "number" and "age" in header_words(columns[i][1])]
        if len(aged) == 1:
            return aged[0], _AGE_ENDS[word]
    named = _measure_named(word, [columns[i][1] for i in pool])
    found = (named, "desc") if named is not None else ranked_by(word, [columns[i][1] for i in pool])
    if found is None and " " in word:  # "the longest serving": the verb's stem starts a header word
        first, verb = word.split(" ", 1)
        base = stem(verb)
        hits = [
            i for i in pool if len(base) >= 4 and any(h.startswith(base) for h in header_words(columns[i][1]))
        ]
        way = direction_of(first)
        if len(hits) == 1 and way is not None:
            found = (pool.index(hits[0]), way)
    if found is not None:
        at, way = pool[found[0]], found[1]
    else:
        timed = [i for i in pool if timelike(*columns[i])]
        if time_direction(word) is None or len(timed) != 1:
            return None
        at, way = timed[0], "desc"
    return at, (time_direction(word) if timelike(*columns[at]) else None) or way


#: A currency a header writes as its unit: ``Fare (EUR)``, ``Price ($)``, ``Cost £``.
_MONEY = re.compile(r"[€$£¥₹]|\b(?:EUR|USD|GBP|JPY|CHF|CAD|AUD|INR|SEK|NOK|DKK|CNY|NZD)\b")
#: What a header in a currency measures, whatever its own word ("fare", "fee"): a price, a cost.
_MONEY_WORDS = ("price", "cost")


def _measured_words(header: str) -> list[str]:
    """A header's words, and for a header in a currency the words of what it measures (a price, a
    cost): "the priciest" and "the most expensive" rank ``Fare (EUR)``."""
    own = header_words(header)
    return own + [w for w in _MONEY_WORDS if w not in own] if _MONEY.search(header) else own


def _money_text(header: str) -> str:
    """How a header in a currency is shown to the embedder: its words less the currency's, and the
    word of what it measures ('Fare (EUR)' -> 'fare price'; "the most expensive" is near it)."""
    own = [w for w in header_words(header) if not _MONEY.fullmatch(w.upper())]
    return " ".join([*own, _MONEY_WORDS[0]])


def _superlative_base(word: str) -> str | None:
    """The stem a superlative is made from: "priciest" -> 'pric', "hottest" -> 'hot',
    "best-attended" / "most streamed" -> 'attend' / 'stream' (the word after "most" or "best");
    None for a word of no such form."""
    tokens = re.split(r"[\s-]+", word.casefold())
    last = tokens[-1]
    if len(tokens) > 1 and tokens[-2] in ("most", "best", "least", "worst"):
        return stem(last)
    if last.endswith("iest"):
        return last[:-4]
    if last.endswith("est") and len(last) > 5:
        base = last[:-3]
        return base[:-1] if len(base) > 2 and base[-1] == base[-2] else base
    return None


def _measure_named(word: str, headers: Sequence[str]) -> int | None:
    """The one header whose word the superlative is made from ("the priciest" over ``Price per
    Night (€)``, "the best-attended" over ``attendance``): the most of that measure, so the top
    end, whatever meaning would say of the adjective's direction. None where no single header
    shares its stem (four letters at least)."""
    base = _superlative_base(word)
    if base is None or len(base) < 4:
        return None
    hits = [
        i
        for i, h in enumerate(headers)
        if any(
            stem(w).startswith(base) or (len(stem(w)) >= 4 and base.startswith(stem(w)))
            for w in _measured_words(h)
        )
    ]
    return hits[0] if len(hits) == 1 else None


def time_direction(word: str) -> str | None:
    """On a date column: 'asc' for earliest / oldest / first, 'desc' for latest / newest / youngest."""
    if word in EARLIER:
        return "asc"
    if word in LATER:
        return "desc"
    return None


def available() -> bool:
    """Whether closeness in meaning can be measured (the embedding model is installed)."""
    return _embedder() is not None

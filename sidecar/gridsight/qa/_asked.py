"""The column a "what" / "which" / "who was the" question's noun names, and whether an answer's values
come from it.

"What tips went with the 4 highest bills?" asks for tips: four bills answer nothing it asked, however
sure the route that computed them is. The noun right after the question word names the column the
answer is read from ("which month", "what education levels", "which 4 schools"); an answer none of
whose items is a value of that column is set aside for a route whose answer is (:func:`from_asked`).

The noun is read only where it is plainly a column's: a bin of one ("which fare range", "which age
group") or a computed figure ("what total", "which average") reads no column's values, and a noun no
header names (or only a word no header holds) sets nothing aside.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import Any

from gridsight.detect._structure import PATH_SEP
from gridsight.qa._pipeline import answer_items
from gridsight.qa._relational import Relation
from gridsight.qa._sql import iso_text
from gridsight.text import (
    AVERAGE_WORDS,
    LEADING_PHRASE,
    NUMBER_WORDS,
    OPERATION_WORDS,
    STOP_WORDS,
    SUM_WORDS,
    SUPERLATIVE_RX,
    header_words,
    stem,
    without_marks,
    words,
)

_WH = re.compile(
    rf"^\s*(?:(?:in|for|on|at|during|from|of)\s+)?(?:what|which)\s+(?:(?:\d+|{'|'.join(NUMBER_WORDS)})\s+)?(.+)",
    re.IGNORECASE,
)
#: Forms of "to be" after the question word ("what's", "what were").
IS = "(?:is|are|was|were|s)"
#: "What was the weather on the windiest day?", "what are the names of the 3 ...", "what were the 2
#: highest fares of ...": the noun after "the" (past a count and a superlative, which pick values of
#: the column) names the column, when "of", "on", "for" ... follows it.
_THE_OF = re.compile(
    rf"^\s*(?:what|which)(?:\s+|'){IS}\s+the\s+(?:(?:\d+|{'|'.join(NUMBER_WORDS)})\s+)?"
    rf"(?:{SUPERLATIVE_RX}\s+|top\s+|bottom\s+)?((?:[\w-]+\s+){{0,2}}?[\w-]+)\s+(?:of|on|for|in|at|among|behind|with)\b",
    re.IGNORECASE,
)
#: "What's the biggest battery Fenwick Solar has fitted?", "what was the longest delay": the noun
#: right after a superlative after "the".
_THE_MOST = re.compile(
    rf"^\s*(?:what|which)(?:\s+|'){IS}\s+the\s+{SUPERLATIVE_RX}\s+([\w-]+)",
    re.IGNORECASE,
)
#: "who was the captain on the sailing with the biggest delay", "who is the author of ...": the noun
#: after "the" names the column a person is read from.
_WHO_THE = re.compile(
    rf"^\s*who(?:\s+|'){IS}\s+the\s+((?:[\w-]+\s+){{0,2}}?[\w-]+)\s+(?:of|on|for|in|at|behind|with|that|who)\b",
    re.IGNORECASE,
)
#: Nouns that group a column's values into bins: "which fare range", "which age group" ask for a bin.
BIN_NOUNS = frozenset(
    "range ranges bracket brackets band bands bin bins group groups interval intervals".split()
)
#: Words of a figure computed over a column, never one of its values: "what share", "which total".
_COMPUTED = (
    SUM_WORDS
    | AVERAGE_WORDS
    | OPERATION_WORDS
    | frozenset(
        "median share percentage percent proportion ratio difference change count number totals growth"
        " variance deviation spread".split()
    )
)
#: The longest list cell whose items are read (a longer text is a value, not a list).
LIST_CELL_MAX = 2000
#: How many words after the question word may hold the noun ("what community sizes do ...").
WINDOW = 3


def asked_columns(question: str, names: Sequence[str]) -> list[str]:
    """The columns of ``names`` that the noun after a leading "what" / "which" names, by the same
    stem: ``["Listing Month"]`` for "which month ...", ``[]`` when the question opens otherwise, the
    noun is a bin or a computed figure, or no header holds its words."""
    asked = LEADING_PHRASE.sub("", question, count=1)
    most = None
    m = _THE_OF.match(asked) or _WH.match(asked) or _WHO_THE.match(asked) or (most := _THE_MOST.match(asked))
    if m is None:
        return []
    said: list[str] = []
    for w in words(m.group(1), camel=False):
        if w in STOP_WORDS or len(said) == WINDOW:
            break
        said.append(w)
    if any(w in BIN_NOUNS or w in _COMPUTED for w in said):
        return []
    named = [n for n in names if any(_one_word(h, w) for h in header_words(n) for w in said)]
    if [stem(w) for w in said[:2]] == [stem("line"), stem("item")]:
        return []  # ("which line item": a row of a statement, named by its label; no ``Line ID``)
    # (a header the noun heads, its last word, before one the noun only qualifies: "which district"
    # asks for ``districtName``, not ``Avg District Income`` nor ``District Code``)
    headed = [n for n in named if (hw := header_words(n)) and any(_one_word(hw[-1], w) for w in said)]
    # (the noun's own head word before a word that qualifies it: "what panel brands" asks for
    # ``panelBrand``, not ``Panel Count``, whose "count" header_words leaves out)
    by_head = [n for n in headed if said and _one_word(header_words(n)[-1], said[-1])]
    if most is not None:
        return named  # (a superlative's noun may qualify the measure: "the biggest battery", a capacity)
    return by_head or headed or named


def _one_word(a: str, b: str) -> bool:
    """One word, by its stem."""
    return stem(a) == stem(b)


def _key(v: Any) -> Any:
    """A value as the view stores it, compared across routes (numbers to rounding, text by case)."""
    if isinstance(v, int | float):  # (a bool as 0 or 1, as the view stores it)
        return round(float(v), 6)
    if hasattr(v, "isoformat"):
        return iso_text(v)
    text = without_marks(str(v)).strip().casefold()  # (``2023p`` is answered as 2023)
    try:
        return round(float(text.replace(",", "")), 6)  # (a year or a figure written as text)
    except ValueError:
        return text


def _stored_items(v: Any) -> list[Any]:
    """A stored value, and the items of a list cell as pandas writes one ("['red', 'blue']")."""
    if isinstance(v, str) and v.startswith("[") and v.endswith("]") and len(v) <= LIST_CELL_MAX:
        try:
            parsed = ast.literal_eval(v)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return [v]
        if isinstance(parsed, list):
            return [v, *(x for x in parsed if isinstance(x, str | int | float))]
    return [v]


def _headers(rel: Relation) -> set[Any]:
    """Every column's name and every level of its header path ("Commuter" of "Journeys › Commuter")."""
    return {_key(part) for c in rel.columns for part in (c.name, *c.name.split(PATH_SEP))}


def from_asked(rel: Relation, question: str, value: Any) -> bool:
    """Whether ``value`` could answer what the question's noun asks for: true when the noun names no
    column of ``rel``, else every item is a value of a column it names ("which month" -> months) or a
    header of the table ("which sector" over a column per sector)."""
    names = asked_columns(question, [c.name for c in rel.columns])
    if not names:
        return True

    def values() -> set[Any]:
        cells = (v for n in names for v in rel.values_of(n) or () if v is not None)
        return {_key(x) for v in cells for x in _stored_items(v)} | _headers(rel)

    held = rel.memo("asked:" + "\x1f".join(names), values)
    low = question.casefold()
    # (an option the question names is an answer to it: "which chapter, 'Machinery' or 'Toys'?";
    # not a value it filters by: "the biggest battery Fenwick Solar has fitted" is no fitter)
    offers = re.search(r"\bor\b", low) is not None
    return all(
        v is not None and (_key(v) in held or (offers and _named(v, low))) for v in answer_items(value)
    )


def _named(v: Any, question: str) -> bool:
    return isinstance(v, str) and len(v.strip()) > 1 and v.strip().casefold() in question

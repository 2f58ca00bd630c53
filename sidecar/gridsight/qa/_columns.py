"""Which column a phrase names: header words (split camelCase and snake_case, light stemming) first;
synonyms by meaning (MiniLM, :func:`gridsight.text.meaning_map`) for words that name no header by
their letters; embeddings also break ties between lexical matches.

FINDINGS.md: the small model's main failure is choosing the column, so columns are chosen here,
deterministically, and the model only ever breaks ties between candidates that already fit.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from gridsight.text import (
    FILLER,
    SHORTENED,
    STOP_WORDS,
    header_words,
    known_word,
    same,
    shortened,
    similarities,
    stem,
)
from gridsight.text import closest as clearly_closest
from gridsight.text import words as split_words

#: Words that name no column (stop, operation and negation words), as the planner reads them.
STOP = FILLER


def content_words(text: str) -> list[str]:
    """A request's or header's words that could name a column or a value."""
    return [w for w in split_words(text) if w not in STOP]


def _joined(question_words: Iterable[str]) -> list[tuple[str, int, int]]:
    """Two question words in a row written as one ("at bat" -> 'atbat', "home run" -> 'homerun'),
    with the first word's position and length: headers write compounds so. Only from an ordered
    list of words."""
    if not isinstance(question_words, (list, tuple)):
        return []
    return [
        (a + b, i, len(a))
        for i, (a, b) in enumerate(itertools.pairwise(question_words))
        if a.isalpha() and b.isalpha() and len(a + b) >= 5
    ]


def _initialled(question_words: Iterable[str]) -> dict[str, range]:
    """The initials of two or three content words in a row ("north american" -> 'na'), and where
    they stand: a short header word may be them (``NA_Sales``). Only from an ordered list."""
    if not isinstance(question_words, (list, tuple)):
        return {}
    out: dict[str, range] = {}
    for n in (2, 3):
        for i in range(len(question_words) - n + 1):
            run = question_words[i : i + n]
            if all(w.isalpha() and len(w) >= 3 and w not in STOP_WORDS for w in run):
                out.setdefault("".join(w[0] for w in run), range(i, i + n))
    return out


def _capitals(header: str) -> set[str]:
    """The header's words that may be initials, lower case: two or three capitals (``NA_Sales`` ->
    'na'; ``No.`` has none), or three letters no word of the embedder's vocabulary is (``adr``,
    ``mpg_city``)."""
    return {
        t.lower()
        for t in re.findall(r"[A-Za-z]+", header)
        if 2 <= len(t) <= 3 and (t.isupper() or (len(t) == 3 and not known_word(t.lower())))
    }


def _compound(head: str, joined: str, first: int) -> bool:
    """A header word is the compound two question words make (``first`` letters are the first
    word's): it runs into the second word, and has the same stem or is its start but for two
    letters ('homer' of "home run"; 'staff' is no compound of "staff do")."""
    a, b = stem(head), stem(joined)
    if len(a) <= first or not joined.startswith(head[: first + 1]):
        return False
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return a == b or (len(short) >= 5 and long_.startswith(short) and len(long_) - len(short) <= 2)


def mentions(question_words: Iterable[str], header: str, meant: Iterable[str] = ()) -> float:
    """Share of the header's content words the question names, 0..1. ``meant``: question words that
    mean this header by meaning (:func:`gridsight.text.meaning_map`); when no word names it by its
    letters, one of them names it half-way (0.5) -- a synonym never outranks a header named by its
    own words; and a filler word of the header (``total`` of ``total_eur``) names it a quarter-way."""
    head = header_words(header)
    if not head:
        return 0.0
    qw = set(question_words)
    joined = _joined(question_words)
    initials = _initialled(question_words)
    named = [
        1.0
        if any(same(h, w) for w in qw)
        or any(_compound(h, j, first) for j, _, first in joined)
        or (h in initials and h in _capitals(header))
        else SHORTENED * bool(shortened(h, qw))
        for h in head
    ]
    # (a unit in brackets and a linking word count where the question says them, and are not
    # missed where it does not: "the highest nightly prices" names ``Price per Night (€)`` whole,
    # as "nightly" names ``minimum_nights``; "elevation" names ``Elevation (m)`` whole)
    aside = _aside_words(header)
    kept = [n for h, n in zip(head, named, strict=True) if n or h not in aside]
    hit = sum(kept) / len(kept) if kept else 0.0
    if not hit and any(w in qw for w in meant):
        return 0.5
    if not hit:  # a filler word names a header that nothing else names ("order totals": total_eur)
        every = [w for w in split_words(header) if w not in STOP_WORDS] or [""]
        return min(0.25, sum(1 for h in every if any(same(h, w) for w in qw)) / len(every))
    return hit


#: Words that link a header's words ("price per night", "rate of pay").
_LINKING = frozenset("per of and in for to by the a".split())


def _aside_words(header: str) -> set[str]:
    """A header's words that say how it is measured or link its words: a unit in brackets of three
    letters or fewer (``(m)``, ``(°C)``, ``(kg)``) and the linking words (:data:`_LINKING`)."""
    units = {
        w for m in re.finditer(r"\(([^()]{1,12})\)", header) for w in split_words(m.group(1)) if len(w) <= 3
    }
    return units | _LINKING


def named_at(question_words: list[str], header: str, meant: Iterable[str] = ()) -> list[int]:
    """Positions in the question of words that name the header (by letters, or by meaning: ``meant``)."""
    head = header_words(header)
    by_meaning = set(meant)
    qw = set(question_words)
    # a word a shortened header needs ('district' of 'distcod' when the question says "district code")
    needed = {w for h in head if (n := shortened(h, qw)) for w in qw if shortened(h, qw - {w}) < n}
    compounds = {
        i
        for j, at, first in _joined(question_words)
        if any(_compound(h, j, first) for h in head)
        for i in (at, at + 1)
    }
    initials = _initialled(question_words)
    compounds |= {i for h in head if h in _capitals(header) for i in initials.get(h, ())}
    return [
        i
        for i, w in enumerate(question_words)
        if w in by_meaning or w in needed or any(same(h, w) for h in head) or i in compounds
    ]


def similarity(phrase: str, headers: list[str]) -> list[float]:
    """Cosine similarity of a phrase to each header's words (all zero without the embedding model)."""
    return similarities(phrase, [" ".join(split_words(h)) or h for h in headers])


__all__ = [
    "STOP",
    "clearly_closest",
    "content_words",
    "header_words",
    "mentions",
    "named_at",
    "similarity",
    "split_words",
]

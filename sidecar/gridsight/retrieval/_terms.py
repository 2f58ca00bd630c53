"""Rare words: the words of a table's headers and cell values, and the question's words that are rare
in the library.

A question about one of many small tables often names a value rather than a header ("how many laps did
Hulme drive?", "the attendance in 1970"). Every table keeps the set of its **terms**: the stems of the
words of its short values (names, places, years; not sentences) and of adjacent value word pairs
("newcastle_falcon"), stored on its sheet card, and the stems of its header words. A table scores the
inverse document frequency of the question's terms it holds: a word found in one table of four hundred
says much, one found in most tables nothing. A term only a header holds weighs :data:`HEADER_WEIGHT`:
headers already count in the column search (full text and meaning); values count only here.

Four guards keep the signal honest, none of them naming any data:

- only terms found in at most :data:`RARE_SHARE` of the tables count (a library of eight tables has no
  rare word: its one-table words are one in eight);
- a word common in the language says less than a name, even when one table's values happen to hold it
  ("before", "came", "won" inside a title): a single word's weight is multiplied by its commonness
  weight (:func:`language_weight`, from its place in the embedder's vocabulary, which lists whole words
  from the most frequent down; a word the vocabulary cuts into pieces -- a rare name -- keeps its whole
  weight). A pair of adjacent words held together by a value keeps its whole weight: it is a phrase;
- a table with many terms holds any word more easily: a table with more terms than the library's
  average has its score divided by the square root of how many times more (a short table is not
  raised: a table of four rows would otherwise win on any word it holds), so a 7,000-row table of
  posts does not win on a word it holds by chance, and a long table still wins on a name only it holds;
- only tables scoring at least :data:`NEAR_BEST` of the best score are ranked.

Pure functions; :class:`TermIndex` is built in memory from the ``terms`` field of the sheet cards.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from gridsight.text import FILLER, stem, words

#: Words of a value at most for its words to be terms: names, places, years; not sentences.
VALUE_WORDS = 6
#: Characters of a text value at most for its words to be terms (a longer one is a sentence).
VALUE_CHARS = 60
#: Distinct values of one column read for terms (most frequent first): a 100,000-row column of ids
#: must not make a card of megabytes.
VALUES_MAX = 5000
#: A term counts only when at most this share of the library's tables holds it.
RARE_SHARE = 0.1
#: Weight of a term held by a header and by no value of the table.
HEADER_WEIGHT = 0.5
#: Tables ranked: those scoring at least this share of the best.
NEAR_BEST = 0.5
#: A long table's score is divided by (its terms / the library's average) to this power.
LENGTH_POWER = 0.5
#: Power of the commonness weight: (log rank / log vocabulary size) ** COMMON_POWER.
COMMON_POWER = 2.0
#: Joins the two words of a pair term (no word holds it: :func:`tokens` splits on it).
PAIR = "_"

_WORD = re.compile(r"[^\W_]+")  # letters of any script, as gridsight.text.words reads them


def tokens(text: str) -> list[str]:
    """Lowercase words of a value or a question, split as written (no camel case, no period spelling:
    cell values are many and this runs on each of them)."""
    return _WORD.findall(text.lower())


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return stem(word)


def value_terms(value: str) -> list[str]:
    """The terms of one cell value: its word stems and adjacent pairs; none for a sentence."""
    ws = tokens(value)
    if not ws or len(ws) > VALUE_WORDS:
        return []
    stems = [_stem(w) for w in ws]
    return [*stems, *(a + PAIR + b for a, b in pairwise(stems))]


def header_terms(header: str) -> list[str]:
    """The terms of a header: the stems of its words (``finalWorth`` -> final, worth)."""
    return [_stem(w) for w in words(header)]


def term_text(value: object) -> str | None:
    """A cell value as the text its terms are read from: text (short enough to be a name) and whole
    numbers (years, counts); not fractions, dates, times or booleans, whose digits name nothing."""
    if isinstance(value, str):
        return value if len(value) <= VALUE_CHARS else None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return None


def table_terms(values: Iterable[Iterable[object]]) -> str:
    """The sorted, space-separated value terms of a table: of each column's distinct values (at most
    :data:`VALUES_MAX` a column, read by :func:`term_text`)."""
    out: set[str] = set()
    for column in values:
        for i, v in enumerate(column):
            if i >= VALUES_MAX:
                break
            text = term_text(v)
            if text:
                out.update(value_terms(text))
    return " ".join(sorted(t for t in out if t))


def question_terms(question: str) -> list[str]:
    """The terms a question may name: stems of its words that are not :data:`FILLER`, and pairs of
    adjacent such words."""
    ws = tokens(question)
    named = [_stem(w) for w in ws if w not in FILLER]
    pairs = [_stem(a) + PAIR + _stem(b) for a, b in pairwise(ws) if a not in FILLER and b not in FILLER]
    return list(dict.fromkeys([*named, *pairs]))


def language_weight(word: str, ranks: Mapping[str, int] | None, size: int) -> float:
    """How much a question word says as a value, from how common it is in the language: 1 for a word
    outside the vocabulary (``ranks``: whole word -> 0 for the most common, of ``size`` words), else
    (log(rank + 2) / log(size)) ** :data:`COMMON_POWER` -- 'before' (rank 81) weighs 0.19, a word of
    rank 3,000 0.64, one of rank 20,000 0.97. Without ranks every word weighs 1."""
    if not ranks or size < 2:
        return 1.0
    rank = ranks.get(word)
    if rank is None:
        return 1.0
    return min(1.0, math.log(rank + 2) / math.log(size)) ** COMMON_POWER


@dataclass
class TermHit:
    """A table's rare-word score and the question's words it holds."""

    index: int
    score: float
    terms: list[str]


class TermIndex:
    """An in-memory inverted index of the tables' terms (table positions as given): ``values`` holds
    each table's value terms (:func:`table_terms`), ``headers`` its column headers, ``ranks`` the
    language's whole words by commonness (:meth:`gridsight.llm.embeddings.Embedder.word_ranks`; None:
    every word weighs the same)."""

    def __init__(
        self,
        values: Sequence[str],
        headers: Sequence[Sequence[str]],
        ranks: Mapping[str, int] | None = None,
    ) -> None:
        self.size = len(values)
        self.ranks = ranks
        self._vocabulary = len(ranks) if ranks else 0
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        self.lengths: list[int] = []
        for i, (text, heads) in enumerate(zip(values, headers, strict=True)):
            held = dict.fromkeys(text.split(), 1.0)
            for h in heads:
                for t in header_terms(h):
                    held.setdefault(t, HEADER_WEIGHT)
            for t, weight in held.items():
                postings[t].append((i, weight))
            self.lengths.append(len(held))
        self.average = (sum(self.lengths) / self.size) if self.size else 0.0
        self.postings = dict(postings)

    def idf(self, term: str) -> float:
        """log(N / df) for a rare term; 0 for a term in more than :data:`RARE_SHARE` of the tables."""
        df = len(self.postings.get(term, ()))
        if not df or df > RARE_SHARE * self.size:
            return 0.0
        return math.log(self.size / df)

    def search(self, question: str) -> list[TermHit]:
        """Tables holding the question's rare terms, best first (only those near the best score)."""
        scores: dict[int, TermHit] = {}
        spelled: dict[str, str] = {}
        for w in tokens(question):
            spelled.setdefault(_stem(w), w)
        for term in question_terms(question):
            weight = self.idf(term)
            if weight <= 0.0:
                continue
            if PAIR not in term:
                weight *= language_weight(spelled.get(term, term), self.ranks, self._vocabulary)
            for i, held in self.postings[term]:
                norm = max(1.0, self.lengths[i] / (self.average or 1.0)) ** LENGTH_POWER
                hit = scores.setdefault(i, TermHit(i, 0.0, []))
                hit.score += held * weight / norm
                hit.terms.append(term.replace(PAIR, " "))
        if not scores:
            return []
        best = max(h.score for h in scores.values())
        kept = [h for h in scores.values() if h.score >= NEAR_BEST * best]
        return sorted(kept, key=lambda h: (-h.score, h.index))

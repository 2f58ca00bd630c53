"""Which column a phrase names: header words (split camelCase and snake_case, light stemming, a few
general synonyms) first, sentence embeddings only as a tie-breaker between lexical matches.

FINDINGS.md: the small model's main failure is choosing the column, so columns are chosen here,
deterministically, and the model only ever breaks ties between candidates that already fit.
"""

from __future__ import annotations

from collections.abc import Iterable

from gridsight.text import FILLER, header_words, same, similarities
from gridsight.text import closest as clearly_closest
from gridsight.text import words as split_words

#: Words that name no column (stop, operation and negation words), as the planner reads them.
STOP = FILLER
#: General-language words that name the same measure (not tuned to any dataset's headers).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "old": ("age",),
    "older": ("age",),
    "oldest": ("age",),
    "young": ("age",),
    "younger": ("age",),
    "youngest": ("age",),
    "rich": ("worth", "wealth", "net"),
    "richest": ("worth", "wealth", "net"),
    "wealthiest": ("worth", "wealth", "net"),
    "wealthy": ("worth", "wealth", "net"),
    "poorest": ("worth", "wealth", "net"),
    "expensive": ("price", "cost", "fare"),
    "cheapest": ("price", "cost", "fare"),
    "paid": ("fare", "price", "cost", "salary", "pay"),
    "earn": ("salary", "income", "pay"),
    "tall": ("height",),
    "tallest": ("height",),
    "heavy": ("weight",),
    "heaviest": ("weight",),
    "gender": ("sex",),
    "sex": ("gender",),
}


def content_words(text: str) -> list[str]:
    """A request's or header's words that could name a column or a value."""
    return [w for w in split_words(text) if w not in STOP]


def mentions(question_words: Iterable[str], header: str) -> float:
    """Share of the header's content words the question names (synonyms count), 0..1."""
    head = header_words(header)
    if not head:
        return 0.0
    qw = list(question_words)
    expanded = set(qw) | {s for w in qw for s in SYNONYMS.get(w, ())}
    hit = sum(1 for h in head if any(same(h, w) for w in expanded))
    return hit / len(head)


def named_at(question_words: list[str], header: str) -> list[int]:
    """Positions in the question of words that name the header."""
    head = header_words(header)
    out = []
    for i, w in enumerate(question_words):
        cands = (w, *SYNONYMS.get(w, ()))
        if any(same(h, c) for h in head for c in cands):
            out.append(i)
    return out


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

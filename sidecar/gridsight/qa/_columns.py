"""Which column a phrase names: header words (split camelCase and snake_case, light stemming, a few
general synonyms) first, sentence embeddings only as a tie-breaker between lexical matches.

FINDINGS.md: the small model's main failure is choosing the column, so columns are chosen here,
deterministically, and the model only ever breaks ties between candidates that already fit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

_WORD = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
STOP = frozenset(
    "a an the of in on for to by with from and or is are was were be been what which who whom whose how "
    "many much there any that this these those its it as at all each me show tell give value values do "
    "does did have has had their his her they them than then per your you our we i my list name names "
    "top bottom most least highest lowest number numbers count total average mean sum maximum minimum "
    "unique distinct different present dataset data table sheet could would please find get return "
    "among between into out up down whether not no none only also same other every one two three".split()
)
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


def stem(word: str) -> str:
    """A light stem: plural and -ed/-ing endings, enough for header words ('survivors' ~ 'survived')."""
    w = word.lower()
    if w.endswith("es") and not w.endswith(("ses", "xes", "zes", "ches", "shes", "ies")):
        w = w[:-1]  # names -> name, fares -> fare (the -es rule below is for boxes, classes)
    for end, keep in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ied", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(end) and len(w) - len(end) >= 3 and not w.endswith("ss" if end == "s" else "\0"):
            return w[: len(w) - len(end)] + keep
    return w


def split_words(text: str) -> list[str]:
    """Lowercase words of a header or question; 'finalWorth' and 'self_made' split into their words."""
    return _WORD.findall(_CAMEL.sub(" ", str(text)).replace("_", " ").lower())


def content_words(text: str) -> list[str]:
    return [w for w in split_words(text) if w not in STOP]


def header_words(header: str) -> list[str]:
    """A header's content words; a header made only of stop words ('Name', 'Total') keeps them all."""
    return content_words(header) or split_words(header)


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    sa, sb = stem(a), stem(b)
    if sa == sb:
        return True
    short, long_ = sorted((sa, sb), key=len)
    return len(short) >= 4 and long_.startswith(short) and len(long_) - len(short) <= 3


def mentions(question_words: Iterable[str], header: str) -> float:
    """Share of the header's content words the question names (synonyms count), 0..1."""
    head = header_words(header)
    if not head:
        return 0.0
    qw = list(question_words)
    expanded = set(qw) | {s for w in qw for s in SYNONYMS.get(w, ())}
    hit = sum(1 for h in head if any(_same(h, w) for w in expanded))
    return hit / len(head)


def named_at(question_words: list[str], header: str) -> list[int]:
    """Positions in the question of words that name the header."""
    head = header_words(header)
    out = []
    for i, w in enumerate(question_words):
        cands = (w, *SYNONYMS.get(w, ()))
        if any(_same(h, c) for h in head for c in cands):
            out.append(i)
    return out


@lru_cache(maxsize=1)
def _embedder() -> Any:
    try:
        from gridsight.llm.embeddings import shared_embedder

        return shared_embedder()
    except Exception:  # no embedding model installed: lexical matching alone
        return None


def similarity(phrase: str, headers: list[str]) -> list[float]:
    """Cosine similarity of a phrase to each header (all zero without the embedding model)."""
    emb = _embedder()
    if emb is None or not headers:
        return [0.0] * len(headers)
    try:
        vecs = emb.embed([phrase, *(" ".join(split_words(h)) or h for h in headers)])
    except Exception:
        return [0.0] * len(headers)
    return [float(vecs[0] @ v) for v in vecs[1:]]


def clearly_closest(phrase: str, texts: list[str], margin: float = 0.05) -> int | None:
    """The text closest in meaning to ``phrase`` when it beats the runner-up by ``margin`` (cosine,
    MiniLM); None when none stands out or the embedding model is not installed."""
    emb = _embedder()
    if emb is None or not texts:
        return None
    try:
        vectors = emb.embed([phrase, *texts])
    except Exception:
        return None
    sims = vectors[1:] @ vectors[0]
    order = sims.argsort()[::-1]
    if len(order) > 1 and sims[order[0]] - sims[order[1]] < margin:
        return None
    return int(order[0])

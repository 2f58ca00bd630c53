"""The package's one reading of words: tokenizer, stemmer, stop words, and closeness in meaning.

Every rule tier (formula shapes, the SQL planner, table picking) reads requests and headers through
these functions, so a header word and a question word are compared the same way everywhere:

- :func:`words` -- lowercase words; ``finalScore`` and ``net_amount`` split into their words, an
  apostrophe ends a word ("what's" -> what, s).
- :func:`stem` -- a light suffix stemmer (plurals, -ed, -ing) that keeps short words whole.
- :func:`same` -- two words name the same thing: equal stems, a near prefix ("favorit" /
  "favorite") or a word inside a compound header ("class" in "pclass").
- :data:`STOP_WORDS` -- function words and request filler; :data:`OPERATION_WORDS` -- words that say
  what to compute (count, total, highest...), never which column.
- :func:`closest` / :func:`similarities` -- closeness in meaning from the shipped sentence embedder
  (MiniLM), cached per text.

Nothing here knows any dataset: no header names, no domain adjectives.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

_WORD = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")

#: Function words and request filler: they never name a column or a value.
STOP_WORDS = frozenset(
    """
    a an the of in on for to by with from and or is are was were be been being am do does did done
    have has had having what
    which who whom whose how many much there any that this these those its it as at into among all
    each every me show tell give please find get return list could would should can will might must
    their his her they them than then per your you our we i my he she him also only same other
    between out up down whether present s t d ll re ve
    dataset data table sheet value values number numbers count counts row rows record records entry
    entries people person
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

#: Words that negate what follows ("not self-made", "didn't survive", "without any X").
NEGATION_WORDS = frozenset(
    "not non no none never nor without didn didnt doesn doesnt don dont isn isnt wasn wasnt aren arent "
    "weren werent hasn hasnt haven havent".split()
)

#: Words a header adds to the thing it labels: 'client_name' is the client, 'Name' the row's name.
LABEL_WORDS = frozenset({"name", "names"})

#: Every word that tells no column apart: stop, operation, negation and label words (a header made
#: only of them, such as 'Name', is still named by them: see :func:`header_words`).
FILLER = STOP_WORDS | OPERATION_WORDS | NEGATION_WORDS | LABEL_WORDS


def words(text: object) -> list[str]:
    """Lowercase words of a request or header: 'finalScore' -> final, score; 'net_amount' -> net,
    amount; "what's" -> what, s."""
    return _WORD.findall(_CAMEL.sub(" ", str(text)).replace("_", " ").lower())


def stem(word: str) -> str:
    """A light stem: plurals, -ed and -ing; short words and -ss/-us/-is endings stay whole
    ('class', 'status', 'analysis'). 'survivors' -> survivor, 'survived' -> surviv (see :func:`same`)."""
    w = word.lower()
    if len(w) <= 3 or w.endswith(("ss", "us", "is")):
        return w
    if w.endswith(("ies", "ied")) and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "xes", "zes", "ches", "shes")):
        return w[:-2]
    if w.endswith("s"):
        return w[:-1]
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            return w[: -len(suffix)]
    return w


def stems(text: object) -> list[str]:
    return [stem(w) for w in words(text)]


def same(a: str, b: str) -> bool:
    """Two words name the same thing: equal stems, one a near prefix of the other ('surviv' /
    'survivor', 'favorit' / 'favorite'), or a long word inside a short compound ('class' in 'pclass')."""
    if a == b:
        return True
    a, b = stem(a), stem(b)
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < 5:
        return False
    if long_.startswith(short):
        return len(long_) - len(short) <= 2
    return short in long_ and len(long_) <= len(short) + 3


def content_words(text: object) -> list[str]:
    """Words without stop words."""
    return [w for w in words(text) if w not in STOP_WORDS]


def header_words(header: object) -> list[str]:
    """What a header names: its words without :data:`FILLER`; a header made only of such words
    ('Total', 'Number') keeps them, as it has nothing else to be named by."""
    ws = words(header)
    return [w for w in ws if w not in FILLER] or [w for w in ws if w not in STOP_WORDS] or ws


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
    return np.stack(got) if got else np.zeros((0, 384), dtype=np.float32)


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
    sims = similarities(phrase, texts)
    if not any(sims):
        return None
    order = sorted(range(len(sims)), key=lambda i: -sims[i])
    if sims[order[0]] < floor:
        return None
    if len(order) > 1 and sims[order[0]] - sims[order[1]] < margin:
        return None
    return order[0]

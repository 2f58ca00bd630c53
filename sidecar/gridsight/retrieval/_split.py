"""A question as sub-queries: the deterministic split on conjunctions and comparisons.

"Are the youngest surviving passenger and the youngest billionaire the same sex?" asks about two
things; each part is searched on its own so that each can find its own table. The split is purely
by form (conjunctions, comparison phrases, commas and semicolons); parts that name nothing (only
stop and request words) are dropped. The whole question is always the first sub-query.
"""

from __future__ import annotations

import re

from gridsight.text import FILLER, words

#: Words and phrases that join two things asked about (by form only; no domain words).
_JOINERS = (
    r"\bcompared (?:to|with)\b",
    r"\bas well as\b",
    r"\bthe same\b",
    r"\bversus\b",
    r"\bvs\.?",
    r"\bwhereas\b",
    r"\bwhile\b",
    r"\bbut\b",
    r"\band\b",
    r"\bor\b",
    r"\bthan\b",
    r"\bboth\b",
    r"\beither\b",
    r"\bneither\b",
    r"\bnor\b",
    r"[,;]",
)
_SPLIT = re.compile("|".join(_JOINERS), re.IGNORECASE)
#: Most sub-queries besides the whole question.
MAX_PARTS = 4


def _names_something(part: str) -> bool:
    return any(w not in FILLER for w in words(part))


def split_question(question: str) -> list[str]:
    """The whole question, then each part between joiners that names something (in order, unique)."""
    q = re.sub(r"\s+", " ", question).strip()
    out = [q] if q else []
    parts = [p.strip(" ?.!:") for p in _SPLIT.split(q)]
    kept = [p for p in parts if p and _names_something(p)]
    if len(kept) > 1:
        for p in kept[:MAX_PARTS]:
            if p.casefold() not in {o.casefold() for o in out}:
                out.append(p)
    return out

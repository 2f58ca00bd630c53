"""The two row labels a question lists: "the sum of cash and accounts receivable", "which was larger:
property, plant and equipment or long-term debt", "between long-term borrowings and trade payables",
"were short-term borrowings bigger than other reserves".

Each word that joins two members (``and``, ``or``, ``than``, ``plus``, ``minus``, ``versus``,
``divided by``) splits the question into the phrase before it (back to the word that opens the
list: "of", "between", "as" in "defined as", a colon or an opening bracket, the verb) and the
phrase after it (up to the period, the source or the end). Each phrase is
read against the row labels on its own: by its letters first (the label that holds most of its
words, or that holds every word of it, then the fewest words left over), by meaning (MiniLM) when
its letters name none. The split whose two phrases both name a label, two different ones, best
wins; "plant and equipment" is no split when "property, plant and equipment or debt" has a better
one, nor is "fuel and oil" when one label holds both. Words of the chosen columns' headers
("actual minus plan") name no row.
"""

from __future__ import annotations

import re

from gridsight.qa._sqlgen import COMMON, match_score, near_word, question_words, tokens
from gridsight.text import LESS_WORDS, MORE_WORDS, OPERATION_WORDS, closest, header_text

#: Words that join the two members of a list.
_JOIN = re.compile(r"\s+(?:and|or|than|plus|minus|less|versus|vs\.?|divided\s+by)\s+", re.I)
#: Where the first member's phrase opens (read backwards from the join).
_OPENS = re.compile(
    r"(?:\b(?:of|between|was|were|is|are|did|had|has|have|as|add(?:\s+up)?|sum\s+up)\b|[:(])\s*", re.I
)
#: Where the second member's phrase ends.
_ENDS = re.compile(r"\s*(?:\b(?:in|at|for|according|during|from|by|on|which|compared)\b|[()?;:,.]|$)", re.I)
#: A phrase longer than this names no row label.
_MAX_WORDS = 7
#: Cosine a phrase must reach to name a label by meaning, and its lead over the runner-up.
_MEANT_FLOOR, _MEANT_MARGIN = 0.6, 0.05


def listed_members(labels: list[str], question: str, header: frozenset[str] = frozenset()) -> list[str]:
    """The two labels (of ``labels``) the question lists, in its order; [] when it lists none.
    ``header``: the words of the columns' headers, which name no row."""
    best: tuple[float, list[str]] = (0.0, [])
    for join in _JOIN.finditer(question):
        before = question[: join.start()]
        opens = list(_OPENS.finditer(before))
        left = before[opens[-1].end() :] if opens else before
        after = question[join.end() :]
        right = after[: _ENDS.search(after).start()]  # type: ignore[union-attr]  # $ always matches
        a, b = _named(labels, left, header), _named(labels, right, header)
        if a is None or b is None or a[1] == b[1]:
            continue
        score = min(a[0], b[0])
        whole = _named(labels, left + join.group(0) + right, header)
        if whole is not None and whole[0] >= score and _holds(whole[1], left) and _holds(whole[1], right):
            continue  # one label holds both: "fuel and oil"
        if score > best[0]:
            best = (score, [a[1], b[1]])
    return best[1]


def _holds(label: str, phrase: str) -> bool:
    """Whether the label holds a word of the phrase."""
    return any(near_word(w, q) for w in tokens(label) if w not in COMMON for q in question_words(phrase))


def _named(labels: list[str], phrase: str, header: frozenset[str]) -> tuple[float, str] | None:
    """The label a phrase names, with how fully (letters: up to 2; meaning: below 1)."""
    noise = OPERATION_WORDS | MORE_WORDS | LESS_WORDS
    said = [w for w in question_words(phrase) if w not in noise and not any(near_word(h, w) for h in header)]
    if not said or len(said) > _MAX_WORDS:
        return None
    scored = []
    for label in labels:
        held = match_score(label, said, phrase)  # the share of the label's words said
        own = [w for w in tokens(label) if w not in COMMON]
        covered = sum(1 for q in said if any(near_word(w, q) for w in own)) / len(said)
        if held < 0.5 and covered < 1.0:
            continue  # half the label said, or the whole phrase in it ("cash": Cash at bank)
        scored.append((min(held, 1.0) + covered, -len(own), label))
    if scored:
        scored.sort(reverse=True)
        if len(scored) == 1 or scored[0][:2] != scored[1][:2]:
            return scored[0][0], scored[0][2]
        return None
    i = closest(
        " ".join(said), [header_text(v, False) for v in labels], margin=_MEANT_MARGIN, floor=_MEANT_FLOOR
    )
    return (0.5, labels[i]) if i is not None else None

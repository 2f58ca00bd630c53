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
from functools import lru_cache

from gridsight.qa._sqlgen import COMMON, match_score, near_word, question_words, tokens
from gridsight.text import LESS_WORDS, MORE_WORDS, OPERATION_WORDS, closest, header_text

#: Words that join the two members of a list.
_JOIN = re.compile(
    r"\s+(?:and|or|than|plus|minus|less|versus|vs\.?|divided\s+by)\s+|(?<=[^\W\d_]{2})\s*/\s*(?=[^\W\d_]{2})",
    re.I,
)  # (a slash between words divides, "borrowings / total liabilities"; ``2021/22`` is a year)
#: Where the first member's phrase opens (read backwards from the join).
_OPENS = re.compile(
    r"(?:\b(?:of|between|was|were|is|are|did|had|has|have|as|add(?:\s+up)?|sum\s+up)\b|[:(])\s*", re.I
)
#: Where the second member's phrase ends.
_ENDS = re.compile(r"\s*(?:\b(?:in|at|for|according|during|from|by|on|which|compared)\b|[()?;:,.]|$)", re.I)
#: Where a list of periods or places opens: "in 2017-18, 2018-19 and 2019-20".
_PLACES = re.compile(r"\b(?:in|for|at|during)\s+", re.I)
#: A phrase longer than this names no row label.
_MAX_WORDS = 7
#: Cosine a phrase must reach to name a label by meaning, and its lead over the runner-up.
_MEANT_FLOOR, _MEANT_MARGIN = 0.6, 0.05


#: What parts the members of a longer list: "A, B and C", "A plus B plus C", "A, B, C".
LIST_PARTS = re.compile(r"\s*,\s*(?:and\s+|plus\s+|or\s+)?|\s+(?:and|plus|or|&)\s+", re.I)
#: The most pieces one member's words may be cut into by the parting words ("property, plant and
#: equipment").
_MAX_PIECES = 3


def listed_members(labels: list[str], question: str, header: frozenset[str] = frozenset()) -> list[str]:
    """The labels (of ``labels``) the question lists, in its order; [] when it lists none.
    ``header``: the words of the columns' headers, which name no row."""
    many = _listed_many(labels, question, header)
    return many if len(many) > 2 else _listed_two(labels, question, header)


def _listed_many(labels: list[str], question: str, header: frozenset[str]) -> list[str]:
    """Three or more labels listed one after another ("stock, receivables and cash"): the longest run
    of pieces between parting words in which each member (one piece, or a few joined back, as
    "property, plant and equipment") names a label of its own."""
    # (not inside a label written out whole: "accounts receivable, net", "property, plant and equipment")
    spans = _labels_written(labels, question)
    cuts = [m for m in LIST_PARTS.finditer(question) if not any(a < m.start() < b for a, b in spans)]
    if len(cuts) < 2:
        return []
    bounds = [0, *(m.start() for m in cuts), len(question)]
    starts = [0, *(m.end() for m in cuts)]
    pieces = [(starts[i], bounds[i + 1]) for i in range(len(starts))]
    best: list[str] = []
    for first in range(len(pieces)):
        head = question[pieces[first][0] : pieces[first][1]]
        opens = list(_OPENS.finditer(head))
        # (or after the last word that places: "completions in Brennmoor in 2017-18, 2018-19 and
        # 2019-20" lists the years)
        places = list(_PLACES.finditer(head))
        for at in sorted({opens[-1].end() if opens else 0, places[-1].end() if places else 0}):
            found = _members_from(labels, question, pieces, first, pieces[first][0] + at, header)
            if len(found) > len(best):
                best = found
    return best if len(best) > 2 else []


def _members_from(
    labels: list[str],
    question: str,
    pieces: list[tuple[int, int]],
    first: int,
    begin: int,
    header: frozenset[str],
) -> list[str]:
    """The members named from piece ``first`` on (its text from ``begin``), until a piece names none."""
    out: list[str] = []
    i = first
    while i < len(pieces):
        named: tuple[float, str] | None = None
        took = 0
        for n in range(1, _MAX_PIECES + 1):
            if i + n > len(pieces):
                break
            start = begin if i == first else pieces[i][0]
            text = question[start : pieces[i + n - 1][1]]
            # (a label written out whole, commas and all, over its pieces: "accounts receivable, net")
            got = _written_whole(labels, text, at_end=True, whole=True)
            end = _ENDS.search(text)
            last = i + n == len(pieces) or (end is not None and end.start() < len(text) and got is None)
            text = text[: end.start()] if end is not None else text
            got = got or _named_trimmed(labels, text, header)
            if got is not None and got[1] not in out and (named is None or got[0] > named[0]):
                named, took = got, n
            if last:
                break
        if named is None:
            break
        out.append(named[1])
        ends = question[pieces[i][0] if i != first else begin : pieces[i + took - 1][1]]
        i += took
        stop = _ENDS.search(ends)
        if (
            stop is not None
            and stop.start() < len(ends)
            and _written_whole(labels, ends, at_end=True, whole=True) is None
        ):
            break  # (the list ends inside this member: "cash in 2024")
    return out


def _named_trimmed(labels: list[str], text: str, header: frozenset[str]) -> tuple[float, str] | None:
    """The label a list's piece names, its last words dropped if need be ("cash combined")."""
    words_ = text.split()
    for drop in range(min(3, len(words_))):
        got = _named(labels, " ".join(words_[: len(words_) - drop]), header)
        if got is not None:
            return got
    return None


def _listed_two(labels: list[str], question: str, header: frozenset[str]) -> list[str]:
    """The two labels the question lists (see the module docstring)."""
    best: tuple[float, list[str]] = (0.0, [])
    written = _labels_written(labels, question, every=True)
    for join in _JOIN.finditer(question):
        before = question[: join.start()]
        opens = list(_OPENS.finditer(before))
        cut = opens[-1].end() if opens else 0
        # (not inside a label written out whole: "proceeds from sale of property, plant and
        # equipment for Q4 minus ..." opens at "proceeds", not after its "of")
        cut = next((a for a, b in written if a < cut < b <= join.start()), cut)
        left = before[cut:]
        after = question[join.end() :]
        if join.group(0).strip().casefold() == "than" and re.match(r"\s*[$£€]?\s*-?\d", after):
            continue  # ("more than 15%": a bound, no line; "18-24 and 25-34" list two)
        right = after[: _ENDS.search(after).start()]  # type: ignore[union-attr]  # $ always matches
        a = _written_whole(labels, before, at_end=True) or _named(labels, left, header)
        b = _written_whole(labels, after, at_end=False) or _named_trimmed(labels, right, header)
        if a is None or b is None or a[1] == b[1]:
            continue
        score = min(a[0], b[0])
        whole = _named(labels, left + join.group(0) + right, header)
        if _spans(labels, question, join.start(), join.end()) or (
            whole is not None
            and whole[0] >= score
            and (whole[1] not in (a[1], b[1]) or whole[0] > score)
            and _holds(whole[1], left)
            and _holds(whole[1], right)
        ):
            # one label holds both: "fuel and oil" (not "short-term debt and long-term debt"), or the
            # first member's own label names the whole better than the second's names its part:
            # "total revenue and support" is ``Total revenue, support, and gains``
            continue
        if score > best[0]:
            best = (score, [a[1], b[1]])
    return best[1]


@lru_cache(maxsize=4096)
def _spelt(label: str) -> str:
    """A label as the question is compared with it: lower case, one space between words (read once
    per label, not once per piece and join a list is cut into)."""
    return re.sub(r"\s+", " ", label.casefold()).strip()


def _labels_written(labels: list[str], question: str, *, every: bool = False) -> list[tuple[int, int]]:
    """Where the question writes out a label that holds a list's parting words (a comma, "and"; or
    ``every`` label of two words or more)."""
    low = question.casefold()
    out = []
    for label in labels:
        own = _spelt(label)
        if len(own) < 3 or not (LIST_PARTS.search(own) or (every and " " in own)):
            continue
        out += [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w){re.escape(own)}(?!\w)", low)]
    return out


def _written_whole(
    labels: list[str], text: str, *, at_end: bool, whole: bool = False
) -> tuple[float, str] | None:
    """The longest label ``text`` writes out whole right at its end (or start; ``whole``: ``text``
    is the label, but for "the"), named more fully than words can name one: "current portion of
    long-term debt" before "or" is that line, though an "of" inside it would open the phrase at
    "long-term debt"."""
    low = re.sub(r"\s+", " ", text.casefold()).strip(" \"'“”‘’")
    if whole:
        low = re.sub(r"^the ", "", low)
    found = []
    for label in labels:
        own = _spelt(label)
        if len(own) < 3 or len(own.split()) < 2:
            continue  # (one word is no phrase to trust over the words' reading)
        if whole and own != low:
            continue
        pattern = rf"(?<!\w){re.escape(own)}$" if at_end else rf"^{re.escape(own)}(?!\w)"
        if re.search(pattern, low):
            found.append(label)
    return (3.0, max(found, key=len)) if found else None


def _spans(labels: list[str], question: str, start: int, end: int) -> bool:
    """Whether a label written out whole in the question runs across the join at ``start:end``."""
    low = question.casefold()
    for label in labels:
        text = label.casefold().strip()
        if len(text) < 3:
            continue
        for m in re.finditer(re.escape(text), low):
            if m.start() < start and m.end() > end:
                return True
    return False


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
    owns = {label: [w for w in tokens(label) if w not in COMMON] for label in labels}
    # a word few labels hold says more than one most hold ("intangible assets": the intangibles
    # line, not ``Total assets``)
    # (a word no label holds says nothing about which: "combined")
    holding = {q: sum(1 for o in owns.values() if any(near_word(w, q) for w in o)) for q in said}
    weight = {q: 1.0 / n if n else 0.0 for q, n in holding.items()}
    every = sum(weight.values()) or 1.0
    for label in labels:
        held = match_score(label, said, phrase)  # the share of the label's words said
        head = [w for w in tokens(label.split(",")[0]) if w not in COMMON] if "," in label else []
        if head and len(head) == len(said) and all(any(near_word(w, q) for q in said) for w in head):
            # ("long-term debt" is ``Long-term debt, net of current portion``, whose words after the
            # comma only qualify it -- not ``Current portion of long-term debt``)
            held = 1.0
        own = owns[label]
        covered = sum(weight[q] for q in said if any(near_word(w, q) for w in own)) / every
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

"""How a question names a table's lines: the words of a label it writes, the lines it quotes, an
"of which" line under its parent, a section it places a line in, one line in two sections named
together ("non-current plus current"), and a section's closing total where that total has no label.

Pure functions over the relational view and the question's text; :mod:`gridsight.qa._cells` plans
the cells with them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from gridsight.qa._classes import PLACING
from gridsight.qa._headers import parts
from gridsight.qa._relational import POSITION, SECTION, TOTAL, Relation, part_of_above
from gridsight.qa._sqlgen import COMMON, derived, near_word, question_words, tokens
from gridsight.text import OPERATION_WORDS, same, without_marks, without_outline


def said_words(value: str, qw: list[str]) -> set[str]:
    """The words of ``value`` that a question word names."""
    return {w for w in tokens(value) if any(near_word(w, q) for q in qw)}


def words_said(value: str, qw: list[str]) -> set[str]:
    """The question's words that name a word of ``value``."""
    return {q for q in qw for w in tokens(value) if near_word(w, q)}


def runs_of(question: str, label: str, needed: AbstractSet[str] | None = None) -> list[tuple[int, int]]:
    """Where the question writes a label of two words or more whole: the maximal runs of its
    consecutive words that each name a word of the label and together name all of them ("total
    current liabilities", not "current liabilities" for ``Total current liabilities``), or all of
    its ``needed`` words."""
    qt = tokens(question)
    own = tokens(label)
    if len(own) < 2:
        return []  # (one word standing apart is no label written whole: "domestic passengers")
    if needed is None:
        needed = set(own)
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(qt):
        j = i
        while j < len(qt) and any(near_word(w, qt[j]) for w in own):
            j += 1
        if j > i and all(any(near_word(w, q) for q in qt[i:j]) for w in needed if w in own):
            out.append((i, j))
        i = max(j, i + 1)
    return out


def part_words(part: str) -> list[str]:
    """The words that name a header part: not grammar or operation words (``5 units or more``),
    unless the part has no others (``Total``); no footnote mark (``2020-21 [note 1]``)."""
    every = tokens(without_marks(part)) or tokens(part)
    return [w for w in every if w not in COMMON and w not in OPERATION_WORDS] or every


def named_part(part: str, qw: list[str]) -> bool:
    """Whether the question names every word of a header part by the word itself, its stem or its
    adjective (not a near spelling: "plant" does not name ``Plan``; "Canadian" names ``Canada``)."""
    return all(any(same(w, q) or derived(w, q) for q in qw) for w in part_words(part))


#: A text the question quotes: "'Other' under current assets", "the “Provisions” line".
QUOTE = re.compile(r"(?<!\w)['‘\"“]([^'‘’\"“”]{1,80}?)['’\"”](?!\w)")


def quoted_labels(rel: Relation, question: str) -> list[str]:
    """The row labels the question quotes whole (footnote marks and spaces aside), in its order."""
    key = rel.key
    if key is None or not QUOTE.search(question):
        return []
    labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)]
    by_text = {without_marks(v).strip().casefold(): v for v in labels}
    by_text |= {  # (its outline number aside: ``4. Advance payments``)
        k: v for v in labels if (k := without_outline(without_marks(v)).strip().casefold()) not in by_text
    }
    groups = {
        p.strip().casefold()
        for v in (rel.distinct_values(SECTION) if rel.values_of(SECTION) is not None else [])
        if isinstance(v, str)
        for p in parts(v)
    }
    out = []
    for m in QUOTE.finditer(question):
        text = m.group(1).strip().casefold()
        placed = re.search(rf"\b(?:{'|'.join(PLACING)})\s+(?:the\s+)?$", question[: m.start()], re.I)
        if text in by_text and text not in groups and not placed:
            out.append(by_text[text])  # (not "within 'Non-Union citizens'": a group, where to choose)
    return list(dict.fromkeys(out))


#: The question points at an "of which" line ("the 'of which' line under trade receivables").
_OF_WHICH_SAID = re.compile(r"\b(?:of\s+which|thereof|o/w)\b", re.IGNORECASE)


def of_which(rel: Relation, question: str, named: list[str], set_against: bool) -> list[str]:
    """The "of which" line meant where the rows named are its parent and itself, or where the
    question says "of which" and the words name one such line's part ("trade receivables (the 'of
    which' line under trade and other receivables)": ``of which: trade receivables``; "non-current
    lease liabilities" over ``Non-current financial liabilities`` and ``of which lease liabilities``
    below it); else ``named``. A parent and its part set against each other ("what share of A is
    leases", where ``set_against`` says the question sets the lines against each other) stay both."""
    key = rel.key
    labels = (rel.values_of(key.name) or []) if key is not None else []
    sections = rel.values_of(SECTION) or [None] * len(labels)
    parent: dict[str, set[str]] = {}
    context: dict[str, set[str]] = {}  # (the words of its parent and section: what place it)
    above: str | None = None
    for label, section in zip(labels, sections, strict=True):
        if not isinstance(label, str):
            continue
        if part_of_above(label) is None:
            above = label
        elif above is not None:
            parent.setdefault(label, set()).add(above)
            context.setdefault(label, set(tokens(label))).update(tokens(above), tokens(str(section or "")))
    if not parent:
        return named
    qw = question_words(question)
    if _OF_WHICH_SAID.search(question):
        meant = [o for o in parent if named_part(part_of_above(o) or o, qw)]
        if len(meant) > 1:  # (the one under the line the question names)
            meant = [o for o in meant if parent[o] & set(named)] or meant
        if len(meant) == 1:
            return [meant[0], *(v for v in named if v not in parent[meant[0]] and v != meant[0])]
    if len(named) == 2 and not set_against:
        for a, b in (named, named[::-1]):
            # its parent, or a total named only by words that place it ("non-current lease
            # liabilities": ``Total non-current liabilities`` beside ``of which lease liabilities``)
            placing = (
                b in context
                and key is not None
                and totals_named(rel, key.name, {key.name: [a]})
                and set(tokens(a)) - COMMON - {"total"} <= context[b]
            )
            if a in parent.get(b, set()) or placing:
                return [b]
    return named


def totals_named(rel: Relation, key: str, rows: dict[str, list[str]]) -> bool:
    """Whether the question names row labels and every one is a total row's."""
    labels, flags = rel.values_of(key) or [], rel.values_of(TOTAL)
    if flags is None or not rows.get(key):
        return False
    return all(any(lab == v and f == 1 for lab, f in zip(labels, flags, strict=True)) for v in rows[key])


def sections_of(rel: Relation, key: str, labels: list[str]) -> list[str]:
    """The sections the rows with these labels stand in."""
    keys, sections = rel.values_of(key) or [], rel.values_of(SECTION)
    if sections is None:
        return []
    return list(dict.fromkeys(s for k, s in zip(keys, sections, strict=True) if k in labels and s))


def section_named(held: Sequence[str], qw: list[str]) -> str | None:
    """The section of ``held`` the words name: the most of its words, then the fewest of its own
    section's words left unsaid ("current" names ``Current liabilities``, not ``Non-current
    liabilities``, whose "non" it does not say); None on a tie or when none is named."""

    def score(h: str) -> tuple[int, int]:
        said = words_said(h, qw)
        own = tokens(parts(h)[-1])
        return len(said), -sum(1 for w in own if not any(near_word(w, q) for q in qw))

    ranked = sorted(((score(h), h) for h in held), key=lambda p: p[0], reverse=True)
    if not ranked or ranked[0][0][0] == 0:
        return None
    if len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        return None
    return ranked[0][1]


def sections_per_mention(rel: Relation, key: str, label: str, question: str) -> list[str]:
    """The sections a row label repeated under several is named in, one for each place the
    question writes the label ("current borrowings and non-current borrowings": both): the section
    the few words before each place name (:func:`section_named`). Empty unless two differ."""
    sections, keys = rel.values_of(SECTION), rel.values_of(key)
    if sections is None or keys is None:
        return []
    held = list(dict.fromkeys(str(sec) for k, sec in zip(keys, sections, strict=True) if k == label and sec))
    if len(held) < 2:
        return []
    qt, own = tokens(question), tokens(label)
    at = [i for i, q in enumerate(qt) if any(near_word(w, q) for w in own)]
    starts = [i for n, i in enumerate(at) if n == 0 or at[n - 1] != i - 1]
    ends = [i + 1 for n, i in enumerate(at) if n == len(at) - 1 or at[n + 1] != i + 1]
    named: list[str] = []
    before = 0
    for start, end in zip(starts, ends, strict=True):
        found = section_named(held, qt[max(before, start - 3) : start])
        if found is not None:
            named.append(found)
        before = end
    named = list(dict.fromkeys(named))
    return named if len(named) >= 2 else []


def pooled_sections(rel: Relation, question: str, labels: list[str]) -> dict[str, list[str]]:
    """The labels repeated under two sections that the question names together before or after
    one mention ("non-current plus current lease liabilities", "total borrowings (non-current and
    current)"): {label: the two sections}, read as their sum."""
    key = rel.key
    if key is None:
        return {}
    low = question.casefold()
    out: dict[str, list[str]] = {}
    for label in labels:
        held = sections_of(rel, key.name, [label])
        if len(held) < 2:
            continue
        lasts = [tokens(parts(h)[-1]) for h in held]
        for i, a in enumerate(lasts):
            for j, b in enumerate(lasts):
                if i == j:
                    continue
                tail = 0  # (the words the two end with alike: "liabilities")
                while tail < min(len(a), len(b)) - 1 and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
                    tail += 1
                ha, hb = a[: len(a) - tail], b[: len(b) - tail]
                if not ha or not hb:
                    continue
                pa, pb = (r"(?<![\w-])" + r"[\s-]*".join(map(re.escape, h)) + r"(?![\w-])" for h in (ha, hb))
                if re.search(rf"{pa}\s*(?:,|and|plus|\+|&)\s*{pb}", low):
                    out[label] = [held[i], held[j]]
        if label not in out and len(held) == 2 and _total_of_both(rel, key.name, question, label, held):
            out[label] = held
    return out


#: A ratio between lines: "A over B", "A divided by B", "A to B ratio", "gearing".
_RATIO_OF_LINES = re.compile(r"\b(?:divided\s+by|over|ratio|gearing|leverage)\b|\s/\s", re.IGNORECASE)


def _total_of_both(rel: Relation, key: str, question: str, label: str, held: list[str]) -> bool:
    """Whether the question asks the total of a line written once in each of two groups that share
    no other line ("total loans from financial institutions" over the long-term and the short-term
    one), naming neither group: "total" before the line's own words, no word of either group's
    name besides them. Blocks of the same lines (consolidated and mainline) are no such groups."""
    own = [w for w in tokens(label) if w not in COMMON]
    if not own:
        return False
    total = re.search(rf"\btotal\s+(?:the\s+)?{re.escape(own[0])}", question, re.IGNORECASE)
    if not total and not _RATIO_OF_LINES.search(question):
        return False  # (a ratio of the line to another, "borrowings over equity", takes all of it)
    keys, sections = rel.values_of(key) or [], rel.values_of(SECTION) or []
    lines = [{k for k, s in zip(keys, sections, strict=True) if s == h and k != label} for h in held]
    if lines[0] & lines[1]:
        return False
    qw = [q for q in tokens(question) if not any(near_word(q, w) for w in own)]
    return not any(words_said(parts(h)[-1], qw) for h in held)


def closing_total(rel: Relation, section: str) -> int | None:
    """The position of the first total row of ``section`` (the row that closes it), or None."""
    flags, sections, places = rel.values_of(TOTAL), rel.values_of(SECTION), rel.values_of(POSITION)
    if flags is None or sections is None or places is None:
        return None
    return next((p for f, s, p in zip(flags, sections, places, strict=True) if f == 1 and s == section), None)


def heading_line(rel: Relation, section: str) -> int | None:
    """The position of the line that heads ``section`` with figures of its own (a chapter above the
    groups it adds up: ``Diseases of the respiratory system`` over ``Asthma``), labelled as the
    section's last part, in the section around it, marked as a total and above the section's lines;
    None where there is none."""
    return rel.memo(f"heading line of {section}", lambda: _heading_line(rel, section))


def _heading_line(rel: Relation, section: str) -> int | None:
    key = rel.key
    flags, sections, places = rel.values_of(TOTAL), rel.values_of(SECTION), rel.values_of(POSITION)
    if key is None or flags is None or sections is None or places is None:
        return None
    *outer, name = parts(section)
    around = " › ".join(outer) or None
    labels = rel.values_of(key.name) or []
    heads = [
        p
        for v, s, f, p in zip(labels, sections, flags, places, strict=True)
        if f == 1 and v == name and s == around
    ]
    members = [p for s, p in zip(sections, places, strict=True) if s == section]
    # (above its lines: a line that closes them, ``Cash at the end of the year``, heads nothing)
    return heads[0] if len(heads) == 1 and members and heads[0] < min(members) else None


def unnamed_total(
    rel: Relation, question: str, section: str, named: list[str], labelled: bool = False
) -> str | None:
    """The name of ``section`` where its closing total has no label and the question writes that
    name on its own (not inside a line's name nor as the place of one), beside the lines ``named``;
    else None. ``labelled``: a closing total with a label is named by the section's name too, and
    its label is returned ("what percentage of total liabilities and equity did shareholders' equity
    represent": ``Total shareholders' equity``, which closes ``A) Shareholders' equity``)."""
    key = rel.key
    assert key is not None
    at = closing_total(rel, section)
    labels, places = rel.values_of(key.name) or [], rel.values_of(POSITION) or []
    if at is None or at not in places:
        return None
    own = labels[places.index(at)]
    if own not in (None, "") and not (labelled and isinstance(own, str) and named and own not in named):
        return None
    name = parts(section)[-1]
    if name in named:
        return None
    # (written on its own: "fixed asset investments" names the ``Investments`` line, not the section)
    qt = tokens(question)
    theirs = {w for v in named for w in tokens(v)} - COMMON

    def placing(i: int, j: int) -> bool:  # ("'Provisions' in the current liabilities section": a place)
        before = [w for w in qt[max(0, i - 2) : i] if w != "the"]
        return bool(before and before[-1] in PLACING) or (
            j < len(qt) and qt[j] in {"section", "heading", "block"}
        )

    alone = [
        (i, j)
        for i, j in runs_of(question, without_outline(name))
        if not any(0 <= k < len(qt) and any(near_word(w, qt[k]) for w in theirs) for k in (i - 1, j))
        and not placing(i, j)
    ]
    if not alone:
        return None
    return own if isinstance(own, str) and own else name

"""Which row labels a question names where the words alone tie: a block designated by its letter
("Class I"), a line on its own against the same line in each block (``NET ASSETS``), the one line of
a named block, balance lines by the days they write ("at 31 December 2024", "the start of 2024"), and
a longer line the question writes on into from a shorter one's words ("net asset value per share").

Pure functions over the relational view and the question's text; :func:`gridsight.qa._cells._rows`
applies them to what its word matching found.
"""

from __future__ import annotations

import re

from gridsight.qa._headers import dates_written, days_at
from gridsight.qa._lines import sections_of
from gridsight.qa._relational import SECTION, Relation
from gridsight.qa._sqlgen import COMMON, meant_by_part, near_word, tokens
from gridsight.text import periods_spelt, stem


def year_end_at(question: str, label: str) -> int | None:
    """Where the question names the start or the end of the year a label's one day opens or closes
    ("at the start of 2024" over ``Balance at 1 January 2024``), or None."""
    days = dates_written(label)
    if len(days) != 1:
        return None
    day, month, year = next(iter(days))
    opening = (day, month) == (1, 1)
    if not opening and (day, month) != (31, 12):
        return None  # (a day inside the year is no start or end of it)
    return next(
        (
            m.start()
            for m in _YEAR_BOUND.finditer(question)
            if m.group(2) == year and (m.group(1).casefold() in ("start", "beginning", "opening")) == opening
        ),
        None,
    )


#: A kind of share, fund or series named by its letter or number: "Class A", "Class I", "Series B",
#: "Tranche 2" (the letter as written: an "a" in lower case is an article).
DESIGNATOR = re.compile(
    r"\b([Cc]lass|[Ss]eries|[Tt]ranche|[Tt]ier|[Gg]rade|[Pp]hase|CLASS|SERIES|TRANCHE|TIER)\s+([A-Z]{1,2}|\d{1,2})\b"
)


#: "at the start of 2024", "the end of 2025": a balance at a year's opening or closing.
_YEAR_BOUND = re.compile(
    r"\b(start|beginning|opening|end|close)\s+of\s+(?:the\s+)?(?:(?:fiscal|financial)\s+)?(?:year\s+)?"
    r"((?:19|20)\d\d)\b",
    re.IGNORECASE,
)


#: Words that make the day after them the end of a period ("the year ended 31 December 2025"),
#: not a balance's day.
_CLOSES_PERIOD = re.compile(r"\b(?:ended|ending|to|through|until)\s*$", re.IGNORECASE)


def dated_rows(rel: Relation, question: str) -> list[str]:
    """The row labels that write a day the question writes ("was total equity higher at 31 December
    2024 than at 1 January 2024": ``Balance at 31 December 2024``, ``Balance at 1 January 2024``), or
    the first or last day of a year it names ("at the start of 2024"), in the question's order;
    none where the labels write no days."""
    days = rel.memo("days of the row labels", lambda: _days_of_labels(rel))
    if len(days) < 2:
        return []
    order = {v: (int(d[2]), d[1], d[0]) for v, d in days.items()}
    at: list[tuple[int, str]] = []
    spelt = periods_spelt(question)
    for start, day in days_at(spelt):
        if _CLOSES_PERIOD.search(spelt[:start]):
            continue  # ("the year ended 31 December 2025": the day closes a period, no balance asked)
        at += [(start, v) for v, d in days.items() if d == day]
    for m in _YEAR_BOUND.finditer(question):
        within = [v for v in days if days[v][2] == m.group(2)]
        if within:
            pick = min if m.group(1).casefold() in ("start", "beginning", "opening") else max
            at.append((m.start(), pick(within, key=lambda v: order[v])))
    return list(dict.fromkeys(v for _, v in sorted(at)))


#: A balance line named by its place in the period, no day: ``NET ASSETS, END OF YEAR``, ``Cash at
#: beginning of period``.
def _place_in_period(place: str) -> re.Pattern[str]:
    """A label's words for a place in its period: "<place> of (the) (financial) year/period"."""
    return re.compile(
        rf"\b(?:{place})\s+of\s+(?:the\s+)?(?:(?:financial|fiscal|reporting)\s+)?(?:year|period)\b",
        re.IGNORECASE,
    )


_END_LABEL = _place_in_period("end|close")
_START_LABEL = _place_in_period("beginning|start")


def bound_rows(rel: Relation, question: str, qw: list[str]) -> list[str]:
    """The balance lines a question names by the start or end of a year it writes ("net assets at the
    end of 2025" over ``NET ASSETS, END OF YEAR``): the one line whose label says the start or end of
    the year or period, as the question does, and whose other words the question names."""
    key = rel.key
    if key is None:
        return []
    labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)]
    out: list[str] = []
    for m in _YEAR_BOUND.finditer(question):
        opening = m.group(1).casefold() in ("start", "beginning", "opening")
        kind = _START_LABEL if opening else _END_LABEL
        said = {
            v: [any(near_word(w, q) for q in qw) for w in tokens(kind.sub(" ", v)) if w not in COMMON]
            for v in labels
            if kind.search(v)
        }
        fit = [v for v, named in said.items() if named and all(named)]
        # (else the one line of the kind the question names a word of: "the cash balance at the start
        # of 2026" over ``Cash and cash equivalents at the beginning of the financial year``)
        fit = fit or [v for v, named in said.items() if any(named)]
        if len(fit) == 1:
            out.append(fit[0])
    return list(dict.fromkeys(out))


def period_ends(rel: Relation, question: str) -> dict[str, str]:
    """The row labels that write a day the question writes only as the end of a period ("dividends in
    the year ended 30 June 2024" over ``At 30 June 2024``), each with that day's year: the period it
    closes, not its balance."""
    days = rel.memo("days of the row labels", lambda: _days_of_labels(rel))
    spelt = periods_spelt(question)
    out: dict[str, str] = {}
    for start, day in days_at(spelt):
        if _CLOSES_PERIOD.search(spelt[:start]):
            out |= {v: d[2] for v, d in days.items() if d == day}
    return out


def _days_of_labels(rel: Relation) -> dict[str, tuple[int, int, str]]:
    """Each row label that writes one day, with that day (once per relation: every question's row
    naming reads it)."""
    key = rel.key
    labels = [v for v in rel.distinct_values(key.name) if isinstance(v, str)] if key is not None else []
    return {v: next(iter(found)) for v in labels if len(found := dates_written(v)) == 1}


def line_in_section(rel: Relation, out: dict[str, list[str]], qw: list[str]) -> dict[str, list[str]]:
    """``out`` with the one line of the one section named that the question's other words name most
    ("how many Class I shares were outstanding": ``Shares of beneficial interest outstanding`` in
    the Class I block), where no line was named; else ``out`` as it is."""
    key = rel.key
    if key is None or key.name in out or len(out.get(SECTION, [])) != 1:
        return out
    section = out[SECTION][0]
    keys, sections = rel.values_of(key.name) or [], rel.values_of(SECTION) or []
    labels = [k for k, sec in zip(keys, sections, strict=False) if sec == section and isinstance(k, str)]
    own = set(tokens(section))
    rest = [q for q in qw if not any(near_word(w, q) for w in own)]
    cover = {v: {q for q in rest if any(near_word(w, q) for w in tokens(v))} for v in dict.fromkeys(labels)}
    most = max((len(c) for c in cover.values()), default=0)
    winners = [v for v, c in cover.items() if len(c) == most]
    return {**out, key.name: winners} if most and len(winners) == 1 else out


def section_meant(rel: Relation, out: dict[str, list[str]], qw: list[str]) -> dict[str, list[str]]:
    """``out`` with the section of the one line named that the question's other words ``qw`` mean,
    where the line stands in several sections and no section was named: the section whose heading
    one of those words is clearly nearest in meaning to (:func:`~gridsight.qa._sqlgen.meant_by_part`;
    "how much was spent on charitable activities" over ``Charitable activities`` under ``Income
    from:`` and again under ``Expenditure on:``). Else ``out`` as it is."""
    key = rel.key
    if key is None or SECTION in out or len(out.get(key.name, [])) != 1:
        return out
    label = out[key.name][0]
    held = sections_of(rel, key.name, [label])
    if len(held) < 2:
        return out
    section = next((c for c in rel.columns if c.name == SECTION), None)
    own = set(tokens(label))
    rest = [q for q in qw if q not in COMMON and not q.isdigit() and not any(near_word(w, q) for w in own)]
    if section is None or not rest:
        return out
    meant = meant_by_part(rel, section, rest)
    return {**out, SECTION: [meant]} if meant in held else out


def outside_sections(rel: Relation, out: dict[str, list[str]]) -> dict[str, list[str]]:
    """``out`` with one label of several that differ only in case (``NET ASSETS`` and each share
    class's ``Net assets``) kept where the question names no section: the one that stands outside
    every section, the statement's own line."""
    key = rel.key
    if key is None or SECTION in out or len(out.get(key.name, [])) < 2:
        return out
    labels = out[key.name]
    keys, sections = rel.values_of(key.name) or [], rel.values_of(SECTION) or []
    if not sections:
        return out
    alone = {k for k, s in zip(keys, sections, strict=False) if s is None}
    kept = []
    for label in labels:
        same = [o for o in labels if o.casefold() == label.casefold()]
        outside = [o for o in same if o in alone]
        if len(same) == 1 or len(outside) != 1 or label == outside[0]:
            kept.append(label)
    return {**out, key.name: kept}


def designated(rel: Relation, question: str, out: dict[str, list[str]]) -> dict[str, list[str]]:
    """``out`` with the sections and row labels the question designates by letter ("Class I shares")
    kept, where the table writes such designations: ``CLASS I (INSTITUTIONAL) SHARES:``, not ``CLASS
    A SHARES:``, whose words are the same but for a letter the other matching does not weigh."""
    said = {(noun.casefold(), code.casefold()) for noun, code in DESIGNATOR.findall(question)}
    if not said:
        return out
    key = rel.key
    for name in [c.name for c in rel.columns if c.role == "section"] + ([key.name] if key else []):
        values = [v for v in rel.distinct_values(name) if isinstance(v, str)]
        written = {
            v: {(n.casefold(), c.casefold()) for n, c in DESIGNATOR.findall(v.title())} for v in values
        }
        nouns = {n for n, _ in said}
        if not any(n in nouns for pairs in written.values() for n, _ in pairs):
            continue
        meant = [v for v in values if written[v] & said]
        kept = [v for v in out.get(name, []) if v in meant]
        if kept or len(meant) == 1:
            out = {**out, name: kept or meant}
        elif out.get(name) and not kept:
            out = {k: v for k, v in out.items() if k != name}  # (another letter's section: none)
    return out


def written_on(question: str, short: str, long: str) -> bool:
    """Whether the question writes ``long``'s first words, more of them than ``short`` has, as one
    phrase, and ``short``'s words are ``long``'s first words (by stems): "net asset value" writes on
    from ``Net assets`` to ``Net asset value and redemption price per share``."""
    a, b = [stem(w) for w in tokens(short)], tokens(long)
    if not a or len(b) <= len(a) or [stem(w) for w in b[: len(a)]] != a:
        return False
    phrase = r"\W+".join(re.escape(w) + r"\w*" for w in [stem(w) for w in b[: len(a) + 1]])
    return re.search(rf"\b{phrase}", question, re.IGNORECASE) is not None

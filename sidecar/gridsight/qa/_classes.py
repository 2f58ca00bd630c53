"""Rows a question names as a class: "which current liability ...", "the biggest fixed asset
category", "which long-term liability rose most".

A statement groups its lines under section rows (``Current liabilities``) and closes groups with
total rows (``Total liabilities``). A question that asks which line of a group is largest names the
group by its words, singular or plural, with or without "line", "item" or "category" after it. The
group is then:

- a section whose own name (its last part, ``Liabilities › Current liabilities``) has the same
  words as the phrase, with the sections inside it;
- otherwise, when the phrase's last word is what a total totals (``Total liabilities`` for
  "liability") and the words before it name no section ("long-term liability" where only
  ``Current liabilities`` is a section), the lines that total adds up outside its sections: those
  that share its section and stand between it and the total before it.

- "which ... line below gross profit": the lines after that line, up to the one that adds them to
  it (``Operating profit``), in every column;
- otherwise, a line whose label has the phrase's words and whose figures are, in every column, the
  sum of the lines right above it (``Operating expenses`` under ``Staff costs``, ``Administrative
  expenses`` and ``Depreciation``; a council's ``Current Liabilities`` under its lines, which the view
  marks a total): those lines.

Pure functions over a :class:`~gridsight.qa._relational.Relation`; the plan that ranks the rows is
:func:`gridsight.qa._cells.cell_plan`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from gridsight.qa._groups import adds_to
from gridsight.qa._named_lines import figures as figure_columns
from gridsight.qa._relational import POSITION, SECTION, TOTAL, Relation
from gridsight.qa._sql import literal, quote
from gridsight.text import stem, superlative, without_marks, without_outline

#: The words of a group's name: letters, hyphenated words split ("long-term": long, term).
_WORD = re.compile(r"[^\W\d_]+")
#: How far past "which" or a superlative a group's name may run.
_MAX_PHRASE = 4
#: Words after a group's name that ask for a figure ("the highest current asset balance").
_FIGURE_NOUNS = frozenset({"balance", "value", "amount", "figure", "total", "sum", "level"})
#: Words between a superlative and a group's name that say "one of its lines".
_MEMBER_NOUNS = frozenset(
    stem(w)
    for w in ("single", "individual", "component", "item", "line", "element", "constituent", "part", "source")
)
#: Words that place a group's name after them ("how many line items within current assets").
PLACING = frozenset({"within", "in", "under", "among", "inside"})
#: A group named before the question, up to its comma ("Among the current liabilities, which ...",
#: "Of the receivables, which ...").
_OPENING_GROUP = re.compile(r"\s*(?:among|within|of|from)\s+(?:the\s+)?([^,;:?]{3,80}),", re.IGNORECASE)
#: A line that holds the rest of a kind: ``Other EU countries``, ``All other regions``, ``Rest of world``.
RESIDUAL = re.compile(r"\s*(?:all\s+)?(?:other|rest\s+of)\b", re.IGNORECASE)
#: Verbs that put a group's lines in order before its name ("ranking the fixed asset lines, which
#: comes second").
_RANKING = ("rank", "ranking", "ranked", "order", "ordering", "sort", "sorting")
#: Words that never name a group (a total's own word; "the" and its kind).
_NO_GROUP = frozenset({"total", "the", "a", "an", "of", "and", "its", "their"})


@dataclass(frozen=True)
class RowClass:
    """The rows of a group a question names, as SQL conditions on the view."""

    name: str  # the group's name in the table (a section's, or a total's for what it adds up outside)
    conditions: tuple[str, ...]
    members: frozenset[str]  # the labels of its lines


def _stems(text: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in _WORD.findall(text.casefold()) if w not in _NO_GROUP)


def _own_name(section: str) -> str:
    """A section's own name: its last part, less its note reference and a qualifier after a comma
    (``Investments, at fair value (Note 3)``: 'Investments')."""
    own = without_outline(without_marks(section.split(" › ")[-1].strip().rstrip(":").strip()))
    return own.split(",")[0].strip() or own


def _phrases(question: str) -> list[list[str]]:
    """The runs of words after "which", after a superlative, or after "how many (of the)", "number
    of" and "count the" (a count of a group's lines), or after "name every" (a list of them),
    longest first per start."""
    found = [m for m in re.finditer(r"[^\W\d_][\w'-]*", question)]
    out: list[list[str]] = []
    for i, m in enumerate(found):
        w = m.group(0).casefold()
        before = found[i - 1].group(0).casefold() if i > 0 else ""
        if (
            w == "which"
            or (w in ("every", "each") and before in ("name", "list", "count", "identify"))
            or (
                w == "the" and before in ("count", "list", "name", "identify", *_RANKING)
            )  # ("count the non-current asset items", "ranking the non-current asset lines")
            or (
                w == "all" and before in ("list", "name", "identify")
            )  # ("list all current liabilities that fell")
            # ("the biggest current asset", or with no article: "what was biggest current asset")
            or (superlative(w) and before in ("the", "was", "is", "were", "are"))
            or (w == "many" and before == "how")
            or (w == "number" and i + 1 < len(found) and found[i + 1].group(0).casefold() == "of")
        ):
            run = [
                f.group(0)
                for f in found[i + 1 : i + 1 + _MAX_PHRASE + 5]
                if f.group(0).casefold() not in ("of", "the")
            ]
            while run and (
                stem(run[0].casefold()) in _MEMBER_NOUNS or run[0].casefold() in PLACING
            ):  # ("the smallest component of current liabilities", "how many line items within ...")
                run = run[1:]
            out.append(run[: _MAX_PHRASE + 1])
    opening = _OPENING_GROUP.match(question)
    if opening:  # ("Among the tangible fixed assets, which item ...": the words before the comma)
        run = [
            w for w in re.findall(r"[^\W\d_][\w'-]*", opening.group(1)) if w.casefold() not in ("of", "the")
        ]
        out.append(run[: _MAX_PHRASE + 1])
    return out


def asked_class(rel: Relation, question: str) -> RowClass | None:
    """The group of rows the question asks which line of (see the module docstring), or None when
    it names none: no section or total has its words, or a word after them asks for a figure."""
    key = rel.key
    if key is None:
        return None
    sections = rel.values_of(SECTION) or [None] * len(rel.rows)  # (no sections: every line is outside one)
    flags = rel.values_of(TOTAL) or [0] * len(sections)  # (no column: no line is a total)
    names = sorted({s for s in sections if isinstance(s, str)}, key=len)
    labels = rel.values_of(key.name) or []
    below = _below_line(rel, question, labels, flags)
    if below is not None:
        return below
    head = set(_stems(key.name))
    for phrase in _phrases(question):
        if phrase and stem(phrase[0].casefold()) in {stem(f) for f in _FIGURE_NOUNS}:
            continue  # "the highest figure for accrued liabilities": a figure of a line, no group
        if head and head <= set(_stems(" ".join(phrase[: len(head) + 1]))):
            continue  # ("which land use" over ``Land use`` labels: every row is one, no group)
        for n in range(min(len(phrase), _MAX_PHRASE), 0, -1):
            words = _stems(" ".join(phrase[:n]))
            after = phrase[n].casefold() if n < len(phrase) else ""
            if not words or stem(after) in {stem(f) for f in _FIGURE_NOUNS}:
                continue
            found = (
                _section_class(rel, names, words, labels, sections, flags)
                or _outside_sections(rel, labels, sections, flags, words)
                or _summed_above(rel, labels, sections, flags, words)
                or _holding(rel, labels, flags, words)
            )
            if found is not None:
                return found
    return None


def _no_total(rel: Relation) -> tuple[str, ...]:
    """No total line (where the view marks them)."""
    return (f"{quote(TOTAL)} = 0",) if rel.values_of(TOTAL) is not None else ()


def _labelled(rel: Relation) -> str:
    """Lines with a label (an unlabelled subtotal is no line to name)."""
    assert rel.key is not None
    return f"{quote(rel.key.name)} IS NOT NULL"


def _section_class(
    rel: Relation,
    names: list[str],
    words: tuple[str, ...],
    labels: list[object],
    sections: list[object],
    flags: list[object],
) -> RowClass | None:
    own = [s for s in names if set(_stems(_own_name(s))) == set(words)]
    tops = own[:1]  # (the outermost of several with the name)
    if not own:
        # ("which expense line": ``Costs and expenses``, the one section whose name holds the words;
        # "which liability line": ``Non-current liabilities`` and ``Current liabilities`` together)
        holding = [s for s in names if set(words) < set(_stems(_own_name(s))) and not _negated(s, words)]
        tops = [s for s in holding if not any(s.startswith(o + " › ") for o in holding)]
        if _named_outside(tops, words, labels, sections, flags):
            return None  # ("which expense line" beside ``Personnel expenses``, ``Interest expense``)
    if not tops:
        return None
    # (a group of lines inside with a line of its own -- ``Property, plant and equipment`` over
    # ``Land and buildings`` -- is one line of the section, its own; the lines under it are its parts)
    heads = {t: _group_lines(t, names, labels, sections) for t in tops}
    cond = " OR ".join(_within(t, heads[t], rel) for t in tops)
    inside = [
        i
        for i, (sec, f) in enumerate(zip(sections, flags, strict=True))
        if isinstance(sec, str) and any(_in_class(sec, f, str(labels[i]), t, heads[t]) for t in tops)
    ]
    # (a line that adds up the lines above it, unmarked -- ``Other comprehensive income for the
    # year, net of tax`` closing two groups -- is none of the group's items)
    figures = _figures(rel)
    adding = {i for i in inside if _adds_lines_above(figures, i)}
    members = frozenset(str(labels[i]) for i in inside if i not in adding)
    grouped = any(heads.values())
    conds = [f"({cond})", *(() if grouped else _no_total(rel)), _labelled(rel)]
    assert rel.key is not None
    if adding:
        gone = ", ".join(literal(str(labels[i])) for i in sorted(adding))
        conds.append(f"{quote(rel.key.name)} NOT IN ({gone})")
    return RowClass(" and ".join(_own_name(t) for t in tops), tuple(conds), members)


def _negated(section: str, words: tuple[str, ...]) -> bool:
    """Whether a section's own name says "non-" before one of ``words``: ``Non-current assets`` is
    no section of "current assets"."""
    said = _WORD.findall(_own_name(section).casefold())
    return any(w == "non" and stem(n) in words for w, n in pairwise(said))


def _group_lines(top: str, names: list[str], labels: list[object], sections: list[object]) -> list[str]:
    """The lines of section ``top`` that head a group of their own inside it (``top › Their label``)."""
    own = {str(lab) for lab, sec in zip(labels, sections, strict=True) if sec == top and isinstance(lab, str)}
    inner = {s[len(top) + 3 :] for s in names if s.startswith(top + " › ") and " › " not in s[len(top) + 3 :]}
    return sorted(own & inner)


def _in_class(section: str, flag: object, label: str, top: str, heads: list[str]) -> bool:
    """Whether a row (its section, total flag and label) is one of the lines of section ``top``
    whose group lines are ``heads``: the section's own lines and those heads, not their parts."""
    if section == top:
        return flag != 1 or label in heads
    if not section.startswith(top + " › "):
        return False
    return flag != 1 and not any(
        section == f"{top} › {h}" or section.startswith(f"{top} › {h} › ") for h in heads
    )


def _within(top: str, heads: list[str], rel: Relation) -> str:
    """The SQL condition of :func:`_in_class` (no total but the group lines, where there are any)."""
    assert rel.key is not None
    sec, inner = quote(SECTION), f"{quote(SECTION)} LIKE {literal(top + ' › %')}"
    if not heads:
        return f"{sec} = {literal(top)} OR {inner}"
    named = ", ".join(literal(h) for h in heads)
    parts_of = " OR ".join(
        f"{sec} = {literal(f'{top} › {h}')} OR {sec} LIKE {literal(f'{top} › {h} › %')}" for h in heads
    )
    if rel.values_of(TOTAL) is None:  # (no total marked: every line but the groups' parts)
        return f"{sec} = {literal(top)} OR ({inner} AND NOT ({parts_of}))"
    total = quote(TOTAL)
    return (
        f"({sec} = {literal(top)} AND ({total} = 0 OR {quote(rel.key.name)} IN ({named})))"
        f" OR ({inner} AND {total} = 0 AND NOT ({parts_of}))"
    )


def _named_outside(
    tops: list[str], words: tuple[str, ...], labels: list[object], sections: list[object], flags: list[object]
) -> bool:
    """Whether the sections ``tops`` are lines of their own (a group's line over its parts) and a line
    outside them (no total) holds ``words`` as well: then the words name a kind of line, not those
    groups."""
    heads = {_own_name(t).casefold() for t in tops}
    outside = lines_outside(tops, heads, labels, sections, flags)
    return any(set(words) <= set(_stems(without_outline(label))) for label in outside)


def lines_outside(
    tops: list[str], heads: set[str], labels: list[object], sections: list[object], flags: list[object]
) -> list[str]:
    """The labels of the lines outside the sections ``tops`` (their lines and every total left out),
    where the sections are lines of their own: ``heads``, their own names (casefolded), are labels
    too (a group's line over its parts). None where they are headings alone (``Costs and
    expenses:``, named in part all the same)."""
    if not heads & {v.strip().casefold() for v in labels if isinstance(v, str)}:
        return []
    out = []
    for label, sec, flag in zip(labels, sections, flags, strict=True):
        if flag == 1 or not isinstance(label, str) or label.strip().casefold() in heads:
            continue
        if isinstance(sec, str) and any(sec == t or sec.startswith(t + " › ") for t in tops):
            continue
        out.append(label)
    return out


def _figures(rel: Relation) -> list[list[object]]:
    """The values of the table's number columns (:func:`~gridsight.qa._named_lines.figures`)."""
    return [v for c in figure_columns(rel) if (v := rel.values_of(c.name))]


#: Words of a line that adjusts the parts to their whole rather than being one of them.
ADJUSTING = frozenset(
    {"eliminations", "elimination", "adjustments", "adjustment", "reconciling", "reconciliation"}
)


def _run_class(rel: Relation, name: str, labels: list[object], rows: list[int]) -> RowClass:
    """The group of the labelled lines ``rows`` (one run of them), named ``name``; a line that
    adjusts the parts to their whole (``Inter-segment eliminations``) adds up with them but is none
    of them."""
    positions = rel.values_of(POSITION) or []
    lo, hi = positions[rows[0]], positions[rows[-1]]
    adjusting = [
        str(labels[i])
        for i in rows
        if isinstance(labels[i], str)
        and {w.casefold() for w in re.findall(r"[A-Za-z]+", str(labels[i]))} & ADJUSTING
    ]
    key = rel.key
    left_out = [f"{quote(key.name)} <> {literal(a)}" for a in adjusting] if key is not None else []
    return RowClass(
        name,
        (_labelled(rel), f"{quote(POSITION)} BETWEEN {lo} AND {hi}", *left_out),
        frozenset(str(labels[i]) for i in rows if str(labels[i]) not in adjusting),
    )


def _adds_lines_above(figures: list[list[object]], at: int) -> bool:
    """Whether row ``at`` holds, in every number column, the sum of the two or more rows right above
    it."""
    return any(_sums(figures, list(range(start, at)), at) for start in range(at - 2, -1, -1))


def _outside_sections(
    rel: Relation, labels: list[object], sections: list[object], flags: list[object], words: tuple[str, ...]
) -> RowClass | None:
    if len(words) < 2:
        return None
    head, modifier = words[-1], words[:-1]
    if any(
        set(_stems(_own_name(s))) & set(modifier) == set(modifier) for s in sections if isinstance(s, str)
    ):
        return None  # ("current liability": a section's; not what is outside the sections)
    totals = [
        i
        for i, (lab, f) in enumerate(zip(labels, flags, strict=True))
        if f == 1 and isinstance(lab, str) and _stems(lab) == (head,)
    ]
    if len(totals) != 1:
        return None
    at = totals[0]
    before = [i for i in range(at) if flags[i] == 1 and sections[i] == sections[at]]
    start = before[-1] + 1 if before else 0
    rows = [i for i in range(start, at) if sections[i] == sections[at] and flags[i] != 1]
    if len(rows) < 2:
        return None
    positions = rel.values_of(POSITION) or []
    lo, hi = positions[rows[0]], positions[rows[-1]]
    same = f"{quote(SECTION)} = {literal(str(sections[at]))}" if sections[at] else f"{quote(SECTION)} IS NULL"
    if rel.values_of(SECTION) is None:
        same = ""  # (a table without sections: its rows are all in one)
    return RowClass(
        str(labels[at]),
        tuple(
            c
            for c in (same, *_no_total(rel), _labelled(rel), f"{quote(POSITION)} BETWEEN {lo} AND {hi}")
            if c
        ),
        frozenset(str(labels[i]) for i in rows),
    )


def _holding(
    rel: Relation, labels: list[object], flags: list[object], words: tuple[str, ...]
) -> RowClass | None:
    """The lines whose labels end in the phrase's words, where no section or total is named by them:
    "which expense" over ``Personnel expenses``, ``Other operating expenses`` and ``Interest and
    similar expenses`` (two lines at least, not every line, and none named by those words alone)."""
    # (the words end the label, as its head noun does: "expense" heads ``Other operating expenses``,
    # "segment" heads no ``Segment EBITDA`` nor ``Inter-segment revenue``)
    held = [
        i
        for i, (lab, f) in enumerate(zip(labels, flags, strict=True))
        if f != 1 and isinstance(lab, str) and _stems(without_outline(lab))[-len(words) :] == words
    ]
    lines = [
        i for i, (lab, f) in enumerate(zip(labels, flags, strict=True)) if f != 1 and isinstance(lab, str)
    ]
    if len(held) < 2 or len(held) == len(lines):
        return None
    if any(set(_stems(without_outline(str(labels[i])))) == set(words) for i in held):
        return None  # (a line named whole: that line, no kind of lines)
    assert rel.key is not None
    head = _stems(rel.key.name)
    if all(w in head for w in words) or len(lines) - len(held) <= 1:
        return None  # (``Occupation (SOC major group)`` for "which occupation group": every row is one)
    if all(RESIDUAL.match(str(labels[i])) for i in held):
        return None  # (``Other EU countries``, ``Other non-EU countries``: the rest of a kind, no member)
    members = sorted({str(labels[i]) for i in held})
    within = f"{quote(rel.key.name)} IN ({', '.join(literal(m) for m in members)})"
    return RowClass(" ".join(words), (within, *_no_total(rel)), frozenset(members))


def _summed_above(
    rel: Relation, labels: list[object], sections: list[object], flags: list[object], words: tuple[str, ...]
) -> RowClass | None:
    key = rel.key
    assert key is not None
    figures = _figures(rel)
    named = [
        i
        for i, (lab, f) in enumerate(zip(labels, flags, strict=True))
        if isinstance(lab, str) and set(_stems(lab)) == set(words)
    ]  # (a total too: ``Current Liabilities`` under its lines, where no section row names them)
    if len(named) != 1 or not figures:
        return None
    at = named[0]
    for start in range(at - 2, -1, -1):
        rows = list(range(start, at))
        if any(flags[i] == 1 or sections[i] != sections[at] or not isinstance(labels[i], str) for i in rows):
            return None
        if _sums(figures, rows, at):
            return _run_class(rel, str(labels[at]), labels, rows)
    return None


def _sums(figures: list[list[object]], rows: list[int], at: int) -> bool:
    """Whether the figures of ``rows`` add up to those of row ``at`` in every column that holds
    them all (one column at least; within the rounding of the parts)."""
    checked = 0
    for col in figures:
        whole, numbers = col[at], [float(v) for i in rows if isinstance(v := col[i], int | float)]
        if not isinstance(whole, int | float) or len(numbers) != len(rows):
            continue
        if not adds_to(numbers, float(whole)):
            return False
        checked += 1
    return checked > 0


#: "which expense line below gross profit ...": the line the lines asked among follow.
_BELOW = re.compile(
    r"\b(?:line|item|lines|items)\s+(?:below|after|beneath|under)\s+(?:the\s+)?(.+?)(?=\s+(?:was|were|is|are|had|has|with|in|for|at|during)\b|[,?;(]|$)",
    re.I,
)


def _below_line(rel: Relation, question: str, labels: list[object], flags: list[object]) -> RowClass | None:
    """The lines after the line a question places them below, up to the line that adds them to it in
    every column (a running subtotal: gross profit less the expenses below it is operating profit)."""
    m = _BELOW.search(question)
    if m is None:
        return None
    wanted = m.group(1).strip().casefold()
    at = [i for i, lab in enumerate(labels) if isinstance(lab, str) and lab.strip().casefold() == wanted]
    if len(at) != 1:
        return None
    figures = _figures(rel)
    start = at[0]
    for end in range(start + 3, len(labels)):
        rows = list(range(start, end))
        if not all(isinstance(labels[i], str) for i in rows[1:]):
            return None
        if _sums(figures, rows, end):
            return _run_class(rel, str(labels[start]), labels, rows[1:])
    return None

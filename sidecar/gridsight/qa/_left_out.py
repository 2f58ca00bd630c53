"""Lines a question leaves out of the lines it ranks, counts or lists: "which non-operating income
item (excluding 'Other' and the total) was highest", "which OCI items, other than tax lines, were
negative".

A clause opened by "excluding", "except", "other than", "not counting", "ignoring" or "leaving out" names the
lines left out, one or more joined by "and", "or" or commas:

- a label of the table, quoted or written whole ("'Other'", "goodwill"): that line;
- "X lines" or "X items": every line whose label holds the words of X ("tax lines");
- "the total", "totals", "subtotals": the total lines, which a group's ranking leaves out anyway.

The clause is read only where every part of it names lines so: elsewhere "excluding" is arithmetic
("current assets excluding inventories, divided by current liabilities") and the question is left
as written. Pure functions over the labels; the plan applies the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from gridsight.text import stem, without_marks

#: The clause: its opening words, then its parts up to a closing bracket, a mark or the question's end.
_CLAUSE = re.compile(
    r"\s*\(?\s*\b(?:excluding|except(?:\s+for)?|other\s+than|not\s+counting|leaving\s+out|apart\s+from|ignoring"
    r"|disregarding)"
    r"\s+(?P<parts>[^()?;:]+?)\s*(?:\)|(?=[,;:?]\s*(?:which|what|in|for|during|at|were|was|is|are|had|have)\b)"
    r"|(?=\?)|$)",
    re.IGNORECASE,
)
#: The joins between a clause's parts.
_JOIN = re.compile(r"\s*(?:,\s*(?:and|or)?|\band\b|\bor\b|&)\s*", re.IGNORECASE)
#: A part that names the total lines.
_TOTALS = re.compile(r"(?:the\s+|any\s+)?(?:sub-?)?totals?(?:\s+(?:lines?|rows?))?", re.IGNORECASE)
#: A part that names the cells with no figure, which no sum or mean reads anyway: "suppressed values".
_NO_FIGURE = re.compile(
    r"(?:the\s+|any\s+)?(?:suppressed|missing|unpublished|withheld|blank|empty)\s+(?:values?|figures?|cells?|data|entries)",
    re.IGNORECASE,
)
#: A part that names lines by a word of their labels: "tax lines", "the hedging items".
_KIND = re.compile(r"(?:the\s+|any\s+)?(?P<words>.+?)\s+(?:lines?|items?|rows?)", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class LeftOut:
    """The question without its clause, and what the clause leaves out."""

    question: str
    labels: frozenset[str]  # the lines left out by name or by their words
    totals: bool  # the clause names the total lines


def _stems(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(without_marks(text).casefold())]


def _named(part: str, labels: Iterable[str]) -> set[str] | None:
    """The labels one part of the clause names, or None when it names none."""
    text = part.strip().strip("'‘’\"“”").strip()
    if not text:
        return None
    whole = {v for v in labels if without_marks(v).strip().casefold() == text.casefold()}
    if whole:
        return whole
    kind = _KIND.fullmatch(text)
    if kind is None:
        return None
    wanted = _stems(kind.group("words"))
    found = {v for v in labels if wanted and all(w in _stems(v) for w in wanted)}
    return found or None


def left_out(question: str, labels: Iterable[str]) -> LeftOut | None:
    """The lines ``question`` leaves out (see the module docstring), or None when it leaves out none
    by a clause whose every part names lines of ``labels``."""
    labels = [v for v in labels if isinstance(v, str) and v.strip()]
    for m in _CLAUSE.finditer(question):
        parts = [p for p in _JOIN.split(m.group("parts")) if p.strip()]
        named: set[str] = set()
        totals = False
        for part in parts:
            if _TOTALS.fullmatch(part.strip()):
                totals = True
                continue
            if _NO_FIGURE.fullmatch(part.strip()):
                continue
            found = _named(part, labels)
            if found is None:
                break
            named |= found
        else:
            if not parts:
                continue
            return LeftOut(_without(question, m), frozenset(named), totals)
    return None


def _without(question: str, m: re.Match[str]) -> str:
    rest = (question[: m.start()] + " " + question[m.end() :]).strip()
    return re.sub(r"\s+([?.,])", r"\1", re.sub(r"\s{2,}", " ", rest))


def combining_left_out(question: str, combining: Iterable[str]) -> str | None:
    """``question`` without a clause that leaves out only columns that combine others ("excluding
    eliminations and the consolidated column": words of ``combining``), which a question about the
    entities leaves out anyway; None when it has no such clause."""
    allowed = {stem(w) for w in combining} | {stem(w) for w in ("the", "column", "columns", "any", "all")}
    for m in _CLAUSE.finditer(question):
        parts = [p for p in _JOIN.split(m.group("parts")) if p.strip()]
        if parts and all(_stems(p) and set(_stems(p)) <= allowed for p in parts):
            return _without(question, m)
    return None

"""Questions that compare two things, each of which may live in another table.

"Is the average age of the passengers higher than the average age of the billionaires?" is two
questions and one comparison. The form alone (no words of any dataset) splits it: each side becomes
its own question ("What is the average age of the passengers?"), each is answered over the library
(retrieval picks its table, the single-table pipeline answers), and code compares the two values.
The answer carries both sides' values and the evidence of every table used. A side that cannot be
answered makes the whole question abstain.

Forms: ``is A <comparative> than B`` (more/less/greater/higher/lower/…, any ``-er`` word),
``are A and B the same <attribute>``, ``is A the same as B``, ``what is the difference between A and B``,
``what is the sum/total of A and B``, ``how many more … A than B`` is not handled (it is a count with a
filter, and the pipeline reads it as one question).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridsight.qa import QAAnswer

_AUX = r"(?:is|are|was|were|does|do|did|has|have|had)"
_HIGHER = r"more|greater|higher|larger|bigger|longer|older|heavier|taller|richer|later|above|over"
_LOWER = r"less|fewer|lower|smaller|shorter|younger|lighter|cheaper|earlier|below|under"
_COMPARE = re.compile(
    rf"^{_AUX}\s+(?P<a>.+?)\s+(?P<cmp>{_HIGHER}|{_LOWER}|\w+er)\s+than\s+(?P<b>.+?)\s*\??$", re.IGNORECASE
)
_SAME_ATTR = re.compile(
    rf"^{_AUX}\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+(?:of\s+)?the\s+same\s+(?P<attr>[\w ]+?)\s*\??$",
    re.IGNORECASE,
)
_SAME_AS = re.compile(rf"^{_AUX}\s+(?P<a>.+?)\s+the\s+same\s+as\s+(?P<b>.+?)\s*\??$", re.IGNORECASE)
_ARITH = re.compile(
    r"^what\s+is\s+the\s+(?P<op>difference|sum|total)\s+(?:between|of)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s*\??$",
    re.IGNORECASE,
)
_LOWER_WORDS = frozenset(_LOWER.split("|"))


@dataclass(frozen=True)
class Plan:
    """Two questions and how their answers combine."""

    op: str  # gt | lt | eq | diff | sum
    left: str
    right: str


def _ask(side: str) -> str:
    side = side.strip(" ,")
    if re.match(r"(?i)what|which|who|how", side):
        return side[0].upper() + side[1:] + "?"
    return f"What is {side}?"


def plan(question: str) -> Plan | None:
    """The comparison a question asks for, as two questions, or None when it is not of a known form."""
    q = re.sub(r"\s+", " ", question).strip()
    m = _SAME_ATTR.match(q)
    if m:
        attr = m.group("attr").strip()
        return Plan("eq", f"What is the {attr} of {m.group('a')}?", f"What is the {attr} of {m.group('b')}?")
    m = _SAME_AS.match(q)
    if m:
        return Plan("eq", _ask(m.group("a")), _ask(m.group("b")))
    m = _COMPARE.match(q)
    if m:
        word = m.group("cmp").lower()
        a = re.sub(r"(?i)\s+(?:the\s+)?(?:more|less)$", "", m.group("a"))
        return Plan("lt" if word in _LOWER_WORDS else "gt", _ask(a), _ask(m.group("b")))
    m = _ARITH.match(q)
    if m:
        op = "diff" if m.group("op").lower() == "difference" else "sum"
        return Plan(op, _ask(m.group("a")), _ask(m.group("b")))
    return None


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return float(v)
    if isinstance(v, list) and len(v) == 1:
        return _number(v[0])
    return None


def _scalar(v: Any) -> Any:
    return v[0] if isinstance(v, list) and len(v) == 1 else v


def combine(op: str, a: Any, b: Any) -> Any:
    """The comparison's value, or None when the two answers cannot be compared that way."""
    if op == "eq":
        x, y = _scalar(a), _scalar(b)
        nx, ny = _number(x), _number(y)
        if nx is not None and ny is not None:
            return abs(nx - ny) < 1e-9
        return str(x).strip().casefold() == str(y).strip().casefold()
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return None
    if op == "gt":
        return x > y
    if op == "lt":
        return x < y
    value = x - y if op == "diff" else x + y
    return int(value) if float(value).is_integer() else value


def _side(question: str, ask: Callable[[str], tuple[QAAnswer, str | None]]) -> tuple[QAAnswer, str | None]:
    """A side that is a number written out ("What is 30?") is that number; any other is asked."""
    from gridsight.qa._relational import parse_number

    m = re.fullmatch(r"What is (.+)\?", question)
    literal = parse_number(m.group(1)) if m else None
    if literal is not None:
        return QAAnswer(question, "answered", literal, str(literal), "number", confidence=1.0), "the question"
    return ask(question)


def answer_composed(question: str, ask: Callable[[str], tuple[QAAnswer, str | None]]) -> QAAnswer | None:
    """The answer to a two-sided question (``ask`` answers one side: the answer and its file), or None
    when the question is not of a known form (the caller answers it as one question)."""
    p = plan(question)
    if p is None:
        return None
    (left, lfile), (right, rfile) = _side(p.left, ask), _side(p.right, ask)
    for side, ans in ((p.left, left), (p.right, right)):
        if ans.status != "answered":
            return QAAnswer(question, "abstained", reason=f"'{side}' could not be answered: {ans.reason}")
    value = combine(p.op, left.value, right.value)
    if value is None:
        return QAAnswer(
            question,
            "abstained",
            reason=f"the two answers ({left.display}, {right.display}) cannot be compared that way",
        )
    from gridsight.qa._answer import display_of, value_type

    evidence = [*left.evidence, *(e for e in right.evidence if e not in left.evidence)]
    how = {"gt": "greater than", "lt": "less than", "eq": "the same as", "diff": "minus", "sum": "plus"}[p.op]
    explanation = (
        f"'{p.left}' is {left.display} (from {lfile}); '{p.right}' is {right.display} (from {rfile}); "
        f"{left.display} {how} {right.display} gives {display_of(value)}."
    )
    confidence = round(min(left.confidence, right.confidence), 2)
    return QAAnswer(
        question,
        "answered",
        value,
        display_of(value),
        value_type(value),
        None,
        None,
        evidence,
        "compose",
        None,
        explanation,
        None,
        confidence,
        None,
    )

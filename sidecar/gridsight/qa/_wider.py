"""Two readings of a flat table's question that disagree: the one that reads more of what it names.

The formula tier and the planner's query often compute the same; where they differ, the one that
reads every column the other reads and more, each column more named by the question, read what the
other left out: "how many students are enrolled in K-6 districts in total?" counts K-6 rows over
``Grade Span`` alone, or adds up ``Total Enrollment`` over them; "the district codes of the 3 largest
districts by enrollment" sorts the codes themselves, or orders them by ``Total Enrollment``. A column
more that the question does not name (an ``eye colour`` beside the ``hair colour`` asked) decides
nothing. The columns read are the answers' evidence ranges, so neither route's internals are read.
"""

from __future__ import annotations

import re

from gridsight.errors import GridSightError
from gridsight.formula._tree import Call, Literal, Node, Ref, parse_formula, walk
from gridsight.grid import Range
from gridsight.qa._answer import QAAnswer
from gridsight.qa._plan import IDENTIFIER_WORDS, identifies
from gridsight.qa._relational import Relation
from gridsight.text import LABEL_WORDS, STOP_WORDS, header_words, same, shortened, stem, words


def columns_read(answer: QAAnswer) -> set[int]:
    """The sheet columns of the ranges an answer cites (one per column of each range)."""
    out: set[int] = set()
    for ev in answer.evidence or []:
        try:
            rng = Range.parse(str(ev.get("range", "")))
        except GridSightError:  # (a cited name or a malformed range reads no column)
            continue
        out.update(range(rng.left, rng.right + 1))
    return out


def reads_more(rel: Relation, question: str, narrow: QAAnswer, wide: QAAnswer, meant: str | None) -> bool:
    """Whether ``wide`` reads every column ``narrow`` reads and more, each column more one the question
    names by a header word no column of ``narrow`` holds, or the column its superlative means
    (``meant``: "the oldest" -> ``Age``)."""
    a, b = columns_read(narrow), columns_read(wide)
    if not a or not a < b:
        return False
    headers = {c.data.left: c.name for c in rel.columns if c.role in ("key", "data")}
    # (a word the narrow reading's own columns hold names them: "hair color" names no ``eye color``)
    held = {stem(h) for i in a if i in headers for h in header_words(headers[i])}
    said = {stem(w) for w in words(question) if w not in STOP_WORDS} - held
    # (a header word may shorten the question's: ``temp_min`` of "the lowest minimum temperature")
    said |= {stem(h) for i in b - a if i in headers for h in header_words(headers[i]) if shortened(h, said)}
    # (a column the query keeps one value of is named by that value: "the stores in Nevada")
    valued = {m.group(1).replace('""', '"') for m in _KEPT_VALUE.finditer(wide.query or "")}
    return all(
        i in headers
        and (
            headers[i] == meant
            or headers[i] in valued
            or any(stem(h) in said for h in header_words(headers[i]))
        )
        for i in b - a
    )


#: A query's column kept at one value (``"state" = 'NV'``, ``"Year" = 1995``): the planner writes such
#: a condition only for a value the question names.
_KEPT_VALUE = re.compile(r'"((?:[^"]|"")+)"\s*=\s*(?:\'|-?\d)')


#: Header words of a column that numbers the rows (``Case ID``, ``providerNumber``, ``Loan #``): the
#: planner's identifier words less those of a name, which orders rows alphabetically by right.
ID_WORDS = IDENTIFIER_WORDS - LABEL_WORDS
#: A query's column it orders the rows by, or compares with a number.
_ORDERED_OR_COMPARED = re.compile(r'ORDER BY\s+"((?:[^"]|"")+)"|"((?:[^"]|"")+)"\s*[<>]=?\s*-?\d')


def _numbers_rows(name: str, kind: str) -> bool:
    return kind == "number" and identifies(name, ID_WORDS)


def _rankers(answer: QAAnswer) -> set[int]:
    """The sheet columns a formula orders or compares its rows by: the range it sorts by
    (``SORTBY(.., B2:B9)``, ``SORT(A2:A9)``), takes the extreme of to match (``MATCH(MAX(B2:B9), ..)``)
    or compares with a number (``COUNTIFS(A2:A9,"<18")``)."""
    out: set[int] = set()
    if answer.formula:
        try:
            tree = parse_formula(answer.formula)
        except GridSightError:
            return out
        for node in walk(tree):
            if not isinstance(node, Call):
                continue
            keys: list[Node] = []
            if node.name == "SORTBY":
                keys = [a for i, a in enumerate(node.args) if i % 2 == 1]
            elif node.name in ("SORT", "LARGE", "SMALL") and node.args:
                keys = [node.args[0]]
            elif (
                node.name in ("MATCH", "XLOOKUP")
                and node.args
                and isinstance(node.args[0], Call)
                and node.args[0].name in ("MAX", "MIN")
                and node.args[0].args
            ):
                keys = [node.args[0].args[0]]
            elif node.name in ("COUNTIFS", "SUMIFS", "AVERAGEIFS", "MAXIFS", "MINIFS"):
                # (a range compared with a number: ``COUNTIFS(A2:A9,"<18")``)
                start = 0 if node.name == "COUNTIFS" else 1
                pairs = zip(node.args[start::2], node.args[start + 1 :: 2], strict=False)
                keys = [r for r, c in pairs if isinstance(c, Literal) and re.match(r"^[<>]", str(c.value))]
            for key in keys:
                if isinstance(key, Call) and key.name == "FILTER" and key.args:
                    key = key.args[0]
                if isinstance(key, Ref) and key.rng is not None and key.rng.left == key.rng.right:
                    out.add(key.rng.left)
    return out


def ranks_by_id(rel: Relation, question: str, answer: QAAnswer) -> bool:
    """Whether ``answer`` orders or compares the rows by a column that only numbers them
    (``respondent_id`` for "the 5 oldest respondents", "respondents younger than 18") where the
    question says no id, code or number."""
    by = {c.data.left: c for c in rel.columns if c.role in ("key", "data")}
    ids = {i for i in _rankers(answer) if i in by and _numbers_rows(by[i].name, by[i].kind)}
    if answer.query:
        for m in _ORDERED_OR_COMPARED.finditer(answer.query):
            name = (m.group(1) or m.group(2)).replace('""', '"')
            ids |= {i for i, c in by.items() if c.name == name and _numbers_rows(c.name, c.kind)}
    if not ids:
        return False
    # ("the 3 highest ticket numbers", "tickets with an ID above 500": the id is what is asked; "which
    # agent number has the most tickets" says the number of another column than the ranked
    # ``ticket_id``)
    said = words(question)
    for i in ids:
        own = [h for h in header_words(by[i].name) if h not in ID_WORDS]
        others = [
            h
            for c in by.values()
            if c is not by[i] and identifies(c.name, ID_WORDS)
            for h in header_words(c.name)
            if h not in ID_WORDS
        ]
        for at, w in enumerate(said):
            if w not in ID_WORDS:
                continue
            before = said[at - 1] if at else ""
            if any(same(before, h) for h in own) or not any(same(before, h) for h in others):
                return False
    return True

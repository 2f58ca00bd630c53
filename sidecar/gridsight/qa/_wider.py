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

from gridsight.grid import Range
from gridsight.qa._answer import QAAnswer
from gridsight.qa._relational import Relation
from gridsight.text import STOP_WORDS, header_words, stem, words


def columns_read(answer: QAAnswer) -> set[int]:
    """The sheet columns of the ranges an answer cites (one per column of each range)."""
    out: set[int] = set()
    for ev in answer.evidence or []:
        try:
            rng = Range.parse(str(ev.get("range", "")))
        except Exception:  # (a cited name or a malformed range reads no column)
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
    return all(
        i in headers and (headers[i] == meant or any(stem(h) in said for h in header_words(headers[i])))
        for i in b - a
    )

"""EoB-k scoring (the paper's metric): a detected range matches a label when every edge is within k.

Matching is one-to-one and greedy by total edge error, so one detection never counts twice.

Partially labelled sheets (annotators labelled only the tables they chose to structure) are
scored the standard way with ``partial=True``: a detection that overlaps no labelled table is
*unjudged* (neither right nor wrong: nobody said whether it is a table); one that overlaps a
labelled table without matching it is still a false positive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridsight.grid import Range


@dataclass(frozen=True, slots=True)
class Score:
    matched: int
    predicted: int  # judged detections only
    labelled: int
    unjudged: int = 0  # detections on partially labelled sheets that overlap no label

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else (1.0 if not self.labelled else 0.0)

    @property
    def recall(self) -> float:
        return self.matched / self.labelled if self.labelled else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: Score) -> Score:
        return Score(
            self.matched + other.matched,
            self.predicted + other.predicted,
            self.labelled + other.labelled,
            self.unjudged + other.unjudged,
        )


def _error(a: Range, b: Range) -> int:
    return max(abs(a.top - b.top), abs(a.left - b.left), abs(a.bottom - b.bottom), abs(a.right - b.right))


def eob_score(
    predicted: Sequence[Range], labelled: Sequence[Range], k: int, *, partial: bool = False
) -> Score:
    """Matches within ``k`` cells on every edge (EoB-0: exact).

    With ``partial`` (labels cover only some tables), detections overlapping no label are counted
    as unjudged instead of predicted.
    """
    unjudged = 0
    if partial:
        judged = [p for p in predicted if any(p.intersect(g) is not None for g in labelled)]
        unjudged = len(predicted) - len(judged)
        predicted = judged
    pairs = sorted(
        (_error(p, g), i, j)
        for i, p in enumerate(predicted)
        for j, g in enumerate(labelled)
        if _error(p, g) <= k
    )
    used_p: set[int] = set()
    used_g: set[int] = set()
    for _, i, j in pairs:
        if i not in used_p and j not in used_g:
            used_p.add(i)
            used_g.add(j)
    return Score(len(used_p), len(predicted), len(labelled), unjudged)

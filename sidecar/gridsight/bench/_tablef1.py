"""Table-F1 (Bai et al., schema-driven table IE): attribute-level precision and recall per table.

Records are paired by cell. For a pair, every attribute but the value and the cell index counts: both
empty -- nothing; only the prediction filled -- a false positive; only the gold -- a false negative;
both filled -- a true positive when they match (exact match after normalisation, or token-level F1 at
or above :data:`THRESHOLD`), else one false positive and one false negative. A predicted record with
no gold partner adds a false positive per filled attribute (its type included), a gold record with no
predicted partner a false negative per filled attribute. Records of the fallback type ("Other") are not
predictions. Tables are macro-averaged (each table's F1, then the mean).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: Token-F1 at or above this is a match (the paper's threshold, tuned against human judgement).
THRESHOLD = 0.25
EMPTY = "xx"
_CITE = re.compile(r"\\(?:cite\w*|ref)\{[^{}]*\}")
_PUNCT = re.compile(r"(?<!\\)[{}\[\],()@$–+%&#_^~|<>\\/]")


def normalise(text: str) -> str:
    """Lower case, citations dropped, brackets and symbols as spaces, white space collapsed."""
    s = _CITE.sub("", text)
    s = _PUNCT.sub(" ", s).replace("\u00a0", " ")
    return " ".join(s.split()).lower()


def token_f1(gold: str, pred: str) -> float:
    g, p = gold.split(), pred.split()
    common = sum((Counter(g) & Counter(p)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def is_empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() in ("", EMPTY)
    if isinstance(value, Mapping):
        return all(k == EMPTY or is_empty(v) for k, v in value.items()) or not value
    return False


def _as_text(value: Any) -> str:
    if isinstance(value, Mapping):
        return " ".join(f"{k} {v}" for k, v in value.items() if not is_empty(v))
    return str(value)


def attribute_match(gold: Any, pred: Any, exact: bool) -> bool:
    golds = [normalise(_as_text(g)) for g in (gold if isinstance(gold, list) else [gold])]
    p = normalise(_as_text(pred))
    if exact:
        return p in golds
    return max(token_f1(g, p) for g in golds) >= THRESHOLD


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: Counts) -> None:
        self.tp, self.fp, self.fn = self.tp + other.tp, self.fp + other.fp, self.fn + other.fn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


SKIP = frozenset({"value", "cell_index", "char_index"})
#: The breakdown's name for cell coverage (records paired, extra, missing).
CELL = "cell"


def _filled(record: Mapping[str, Any]) -> int:
    return sum(1 for k, v in record.items() if k not in SKIP and not is_empty(v))


def _bump(by: dict[str, Counts] | None, key: str, tp: int = 0, fp: int = 0, fn: int = 0) -> None:
    if by is not None:
        by.setdefault(key, Counts()).add(Counts(tp, fp, fn))


def pair_counts(
    gold: Mapping[str, Any], pred: Mapping[str, Any], exact: bool, by: dict[str, Counts] | None = None
) -> Counts:
    """Counts for one pair of records; ``by`` (when given) collects them per attribute too."""
    c = Counts()
    for key in sorted((set(gold) | set(pred)) - SKIP):
        g, p = gold.get(key), pred.get(key)
        if is_empty(g) and is_empty(p):
            continue
        if is_empty(g):
            c.fp += 1
            _bump(by, key, fp=1)
        elif is_empty(p):
            c.fn += 1
            _bump(by, key, fn=1)
        elif attribute_match(g, p, exact):
            c.tp += 1
            _bump(by, key, tp=1)
        else:
            c.fp += 1
            c.fn += 1
            _bump(by, key, fp=1, fn=1)
    return c


def table_counts(
    gold: Iterable[Mapping[str, Any]],
    pred: Iterable[Mapping[str, Any]],
    key: str,
    exact: bool,
    by: dict[str, Counts] | None = None,
) -> Counts:
    """Counts for one table; records are paired on ``key`` (e.g. ``cell_index``).

    ``by`` (when given) collects the same counts per attribute, plus ``cell``: paired records (tp),
    predicted records with no gold partner (fp) and gold records with none (fn) -- where the F1 is
    lost, for the benchmark's breakdown."""
    gold_by = {str(g[key]): g for g in gold}
    pred_by = {str(p[key]): p for p in pred}
    c = Counts()
    for k, p in pred_by.items():
        g = gold_by.get(k)
        if g is None:
            c.fp += _filled(p)
            _bump(by, CELL, fp=1)
            for a, v in p.items():
                if a not in SKIP and not is_empty(v):
                    _bump(by, a, fp=1)
        else:
            c.add(pair_counts(g, p, exact, by))
            _bump(by, CELL, tp=1)
    for k, g in gold_by.items():
        if k not in pred_by:
            c.fn += _filled(g)
            _bump(by, CELL, fn=1)
            for a, v in g.items():
                if a not in SKIP and not is_empty(v):
                    _bump(by, a, fn=1)
    return c

"""Bounds and aggregates a question says around what it counts: "is the share of trips that were
round trips above 75%?", "were more than 5% of the cars ...", "the highest number of violations".

Pure functions over the lower-cased question; the planner (:mod:`gridsight.qa._plan`) reads the
rest.
"""

from __future__ import annotations

import re

_SHARE_WORD = r"(share|proportion|percentage|percent|fraction|rate)"
_BOUND = (
    r"(above|over|below|under|more than|less than|fewer than|greater than|higher than|lower than"
    r"|at least|at most|exceeds?|exceeding)"
)
_SHARE_OF_BOUND = re.compile(rf"\b{_SHARE_WORD}\s+of\b.*?(\s+{_BOUND}\s+(\d+(?:\.\d+)?)\s*(?:%|percent\b))")
_BOUND_OF = re.compile(rf"(\b{_BOUND}\s+(\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\b)")
_BOUND_OP = {"above": ">", "over": ">", "more than": ">", "greater than": ">", "higher than": ">"}
_BOUND_OP |= {"exceeds": ">", "exceed": ">", "exceeding": ">", "at least": ">=", "at most": "<="}


def share_cut(low: str) -> tuple[str, float, str, str] | None:
    """The bound a yes/no question sets on a share of rows -- (operator, fraction, the share word,
    the question without the bound) -- or None: 'the share of trips ... above 75%' -> ('>', 0.75,
    'share', ...), 'more than 5% of the cars' -> ('>', 0.05, '', ...)."""
    m = _SHARE_OF_BOUND.search(low)
    if m is not None:
        word, phrase, bound, number = m.group(1), m.group(2), m.group(3), m.group(4)
    elif (b := _BOUND_OF.search(low)) is not None:
        word, phrase, bound, number = "", b.group(1), b.group(2), b.group(3)
    else:
        return None
    op = _BOUND_OP.get(bound, "<")
    return op, float(number) / 100, word, low.replace(phrase, " " if word else " the ", 1)


#: An aggregate said just before "number of" ("the highest number of violations"), and the SQL
#: function and the word it is said with.
AGGREGATE_BEFORE = re.compile(
    r"\b(total|highest|maximum|max|largest|biggest|greatest|lowest|minimum|min|smallest|fewest|average|mean"
    r"|median)\s+$"
)
AGGREGATE_SAID = {"total": ("SUM", "total")}
AGGREGATE_SAID |= {
    w: ("MAX", "highest") for w in ("highest", "maximum", "max", "largest", "biggest", "greatest")
}
AGGREGATE_SAID |= {w: ("MIN", "lowest") for w in ("lowest", "minimum", "min", "smallest", "fewest")}
AGGREGATE_SAID |= {"average": ("AVG", "average"), "mean": ("AVG", "average"), "median": ("MEDIAN", "median")}

"""A span of time asked in other units than the column that measures it keeps.

"How many trips lasted over an hour?" over ``Duration (min)`` asks for more than 60 minutes; "stayed
more than two weeks" over ``LengthOfStay_days`` for more than 14 days. The question is written in the
unit of the one time unit the table's headers declare, before any route reads it; a question already
in that unit, or a table whose headers declare none or several, is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gridsight.text import NUMBER_WORDS

#: Seconds in each unit, by the names questions and headers give it.
_SECONDS = {
    "second": 1,
    "sec": 1,
    "minute": 60,
    "min": 60,
    "hour": 3600,
    "hr": 3600,
    "day": 86400,
    "week": 7 * 86400,
}
_UNIT_NAMES = {
    "s": "second",
    "sec": "second",
    "secs": "second",
    "second": "second",
    "seconds": "second",
    "min": "minute",
    "mins": "minute",
    "minute": "minute",
    "minutes": "minute",
    "h": "hour",
    "hr": "hour",
    "hrs": "hour",
    "hour": "hour",
    "hours": "hour",
    "d": "day",
    "day": "day",
    "days": "day",
    "wk": "week",
    "wks": "week",
    "week": "week",
    "weeks": "week",
}
#: A header's unit: in brackets ("Duration (min)", "(in hours)"), or a plural last word after "_"
#: or a space ("LengthOfStay_days", "trip minutes"; "time of day" is no unit).
_HEADER_UNIT = re.compile(
    r"\(\s*(?:in\s+)?([a-z]+)\s*\)\s*$|(?:_|\s)(secs|seconds|mins|minutes|hrs|hours|days|weeks)\s*$"
    r"|(?<=[a-z])(Days|Minutes|Hours|Seconds|Mins|Secs)$"
)
#: A bound in time: "over an hour", "more than two weeks", "under 1.5 hours", "less than 90 seconds".
_SPAN = re.compile(
    r"\b(?P<op>over|under|above|below|more than|less than|longer than|shorter than|fewer than|at least|"
    r"at most|exceeding|within|up to)\s+(?:(?P<half>half an?)|(?P<n>an?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|\d+(?:\.\d+)?))\s+(?P<unit>seconds?|minutes?|hours?|days?|weeks?)\b"
)


def header_unit(header: str) -> str | None:
    """The time unit a header declares ("second", "minute", "hour", "day", "week"), or None."""
    m = _HEADER_UNIT.search(header.strip())
    if m is None:
        return None
    said = next(g for g in m.groups() if g is not None).casefold()
    unit = _UNIT_NAMES.get(said)
    if unit is None or (len(said) == 1 and not header.strip().endswith(")")):
        return None  # (a bare last letter, "... d", is no unit outside brackets)
    return unit


def in_column_units(question: str, headers: Sequence[str]) -> str:
    """``question`` with each span of time it bounds by written in the unit the table's headers
    declare, where they declare exactly one ("over an hour" -> "over 60 minutes")."""
    units = {u for h in headers if (u := header_unit(h)) is not None}
    if len(units) != 1:
        return question
    (unit,) = units

    def convert(m: re.Match[str]) -> str:
        said = _UNIT_NAMES[m.group("unit").casefold()]
        if said == unit:
            return m.group(0)
        if m.group("half"):
            amount = 0.5
        else:
            n = m.group("n").casefold()
            amount = 1.0 if n in ("a", "an") else float(NUMBER_WORDS.get(n, 0) or n)
        value = amount * _SECONDS[said] / _SECONDS[unit]
        written = f"{value:g}"
        return f"{m.group('op')} {written} {unit}s"

    return _SPAN.sub(convert, question)

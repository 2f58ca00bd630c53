"""Periods a question names relative to the table's own: "the prior year", "versus last year",
"year over year", "the latest balance sheet date", "the earliest year shown".

A statement's columns are periods (``2024 | 2023``, ``31 March 2024 | 31 March 2023``). A question
that says "the previous year" means the second latest of them, one that asks how much a line "grew
year over year" means from that year to the latest. :func:`with_periods` writes those phrases as the
years they mean, so the routes read them as if the user had typed the years. A pure function of the
question and the years in the table's header paths; a table whose headers hold fewer than two years
changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from gridsight.qa._headers import dates_written

_YEAR = re.compile(r"(?<![\d.])((?:19|20)\d\d)(?![\d])")
#: "financial year", "fiscal year", "year-end", "balance sheet date": what a period is called.
_PERIOD = (
    r"(?:(?:financial|fiscal|reporting)\s+)?(?:year[- ]end|year|period"
    r"|(?:balance\s+sheet\s+|reporting\s+|closing\s+|closing\s+balance\s+|balance\s+)?date)(?:\s+shown)?"
)
#: Not after a word that says the period before ("the prior closing date" is no closing date).
_NOT_BEFORE = r"(?<!prior\s)(?<!previous\s)(?<!preceding\s)(?<!comparative\s)"
#: The latest period: "the latest year", "the current year", "the most recent balance sheet date".
_AT = r"\b(?:(?:in|for|at|as at|as of|during|on)\s+)?(?:the\s+)?"
_LATEST = re.compile(
    rf"{_AT}{_NOT_BEFORE}(?:latest|current|most recent|this|later|newer|closing)\s+{_PERIOD}\b"
    r"|\b(?:(?:in|for|at|as at|as of|on)\s+)?the\s+(?:last\s+(?:(?:balance\s+sheet\s+|reporting\s+)?date"
    rf"|year|period|year[- ]end)\s+shown|last\s+(?:balance\s+sheet\s+|reporting\s+)?date)\b",
    re.IGNORECASE,
)  # ("the last year shown" is the latest; "last year", no article, the one before it; "the last year
#    of the plan" is no column's)
#: The first period: "the earliest balance sheet date shown", "the oldest year".
_EARLIEST = re.compile(
    rf"{_AT}{_NOT_BEFORE}(?:earliest|oldest|earlier|older|opening)\s+{_PERIOD}\b"
    rf"|{_AT}first\s+(?:balance sheet\s+|reporting\s+)?date\b",
    re.IGNORECASE,
)
#: The period before it: "the prior year", "the comparative period", "last year" (no article).
_PRIOR = re.compile(
    rf"{_AT}(?:prior|previous|preceding|comparative)\s+{_PERIOD}\b"
    r"|\b(?:(?:in|for|at|during)\s+)?(?<!the )last year\b",
    re.IGNORECASE,
)
#: The period before the latest, named from it: "a year before the latest balance sheet date", "the
#: year before the most recent year end", "one year earlier than the current period".
_BEFORE_LATEST = re.compile(
    rf"\b(?:(?:in|for|at|as at|as of|during|on)\s+)?(?:(?:a|one|the)\s+)?(?:year|period)\s+"
    r"(?:before|prior\s+to|earlier\s+than|preceding)\s+"
    rf"(?:the\s+)?(?:latest|most recent|current)\s+{_PERIOD}\b",
    re.IGNORECASE,
)
#: A change against the period before: "compared with the prior year", "versus last year".
_AGAINST = re.compile(
    r"\b(?:compared\s+(?:with|to)|versus|vs\.?|relative\s+to|against|over|from|since|on)\s+(?:the\s+)?"
    rf"(?:(?:prior|previous|preceding|comparative)\s+{_PERIOD}|last\s+year)\b",
    re.IGNORECASE,
)
#: A change over one period: "year over year", "year-on-year", "YoY", "over the latest year".
_OVER_ONE = re.compile(
    r"\b(?:year[- ]over[- ]year|year[- ]on[- ]year|yoy|over\s+the\s+(?:latest|last|past)\s+"
    r"(?:(?:financial|fiscal)\s+)?year|over\s+the\s+(?:(?:financial|fiscal)\s+)?year\s+to"
    r"(?=\s+(?:\d{1,2}\s+)?[a-z]+\.?\s+(?:\d{1,2},?\s+)?(?:19|20)\d\d\b))\b",
    re.IGNORECASE,
)
#: "in 2024", "for 2024", "at 31 March 2024": the one period a change question is about.
_IN_YEAR = r"\b(?:in|for|at|during|as at|as of)\s+(?:(?:the\s+)?(?:fiscal|financial)\s+(?:year\s+)?|FY\s?)?"


#: Periods asked, each set against the one before it: "which years", "the years in which", "how many
#: quarters".
_EACH_AGAINST_PRIOR = re.compile(
    r"\b(?:which|list|name|identify|how\s+many|number\s+of)\s+(?:of\s+)?(?:the\s+)?(?:\d+\s+)?"
    r"(?:(?:fiscal|financial)\s+)?(?:years|quarters|months|periods)\b|\b(?:years|quarters|months)\s+in\s+which\b",
    re.IGNORECASE,
)
#: "the 2024 financial year", "the 2025 fiscal year": a year the header names, said with its kind.
_YEAR_NAMED = re.compile(r"\bthe\s+((?:19|20)\d\d)\s+(?:financial|fiscal|reporting)\s+year\b", re.IGNORECASE)


def header_years(names: Iterable[str]) -> list[int]:
    """The years the header paths name (``2024``, ``31 March 2024 › €m``, ``FY2024``), newest first."""
    found = {int(m) for n in names for m in _YEAR.findall(str(n))}
    found |= {int(y) for n in names for _, _, y in dates_written(str(n))}  # (``As at 31.03.2024``)
    return sorted(found, reverse=True)


def with_periods(question: str, years: list[int], names: Iterable[str] = ()) -> str:
    """``question`` with its relative periods written as the years they mean among ``years``
    (newest first: :func:`header_years`); unchanged when there are fewer than two years, or when
    the question names no relative period. Where the question also names a year, a relative period
    the header ``names`` write themselves (``Current fiscal year (From April 1, 2024 …)``) stays."""
    if len(years) < 2 or _EACH_AGAINST_PRIOR.search(question):
        return question  # ("the years in which X fell compared with the prior year": each, not one)
    # ("in the 2024 financial year": the year; "financial year" is no line's words here)
    question = _YEAR_NAMED.sub(lambda m: m.group(1) if int(m.group(1)) in years else m.group(0), question)
    latest, prior = years[0], years[1]
    said = [int(y) for y in _YEAR.findall(question) if int(y) in years]
    q = question
    change = _AGAINST.search(q) or _OVER_ONE.search(q)
    if change is not None:
        if not said:
            q = _tidy(q[: change.start()] + q[change.end() :])
            return _append(q, f"from {prior} to {latest}")
        if len(set(said)) == 1:
            year = said[0]
            before = [y for y in years if y < year]
            if not before:
                return question
            q = _tidy(q[: change.start()] + q[change.end() :])
            span = f"from {before[0]} to {year}"
            moved = re.sub(_IN_YEAR + rf"{year}\b", span, q, count=1, flags=re.IGNORECASE)
            return moved if moved != q else _append(q, span)
        return question
    if said:
        # ("from 31 March 2024 to the current reporting date": the latest and the earliest are the
        # same whatever else the question names; "the prior year" is before which, it does not say)
        own = " ".join(names).casefold()
        q = _EARLIEST.sub(_year_unless(own, years[-1]), _LATEST.sub(_year_unless(own, latest), q))
        return _tidy(q)
    q = _BEFORE_LATEST.sub(f" in {prior}", q)
    q = _LATEST.sub(f" in {latest}", q)
    q = _EARLIEST.sub(f" in {years[-1]}", q)
    q = _PRIOR.sub(f" in {prior}", q)
    return _tidy(q)


def _year_unless(own: str, year: int) -> Callable[[re.Match[str]], str]:
    """What replaces a relative period: ``year`` (:func:`_year_for`), unless the headers' text
    ``own`` writes the period's words themselves."""

    def replace(m: re.Match[str]) -> str:
        core = re.sub(rf"^\s*{_AT}", "", m.group(0)).casefold()  # (no preposition, no article)
        return m.group(0) if core in own else _year_for(m, year)

    return replace


def _year_for(m: re.Match[str], year: int) -> str:
    """The year that replaces a relative period: after "to", "from", "and" or "between" the year
    alone ("from 2024 to 2025"), else "in 2025"."""
    before = m.string[: m.start()].rstrip().rsplit(" ", 1)[-1].casefold()
    own = m.group(0).strip().split(" ", 1)[0].casefold()
    return f" {year}" if before in ("to", "from", "and", "between") and own == "the" else f" in {year}"


def _append(question: str, phrase: str) -> str:
    """``phrase`` at the end of the question, before its closing mark."""
    m = re.search(r"[?.!]*\s*$", question)
    end = m.start() if m else len(question)
    return f"{question[:end].rstrip(' ,')} {phrase}{question[end:]}"


def _tidy(text: str) -> str:
    text = re.sub(r"\s+([?.!,])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()


#: A fiscal year written by the two calendar years it spans: "2021/22", "fiscal 2023/2024", "FY
#: 2021-22" (a dash only after a word that says fiscal: "2021-22" alone may be a span of two years).
_SPLIT = re.compile(
    r"(?:\b(?:(?:fiscal|financial)\s+(?:year\s+)?|FY\s?))?(?<![\d.])((?:19|20)\d\d)\s*/\s*(\d\d(?:\d\d)?)(?![\d/])"
    r"|\b(?:(?:fiscal|financial)\s+(?:year\s+)?|FY\s?)((?:19|20)\d\d)\s*[-–]\s*(\d\d)(?![\d/])",
    re.IGNORECASE,
)
#: A label that writes a fiscal year by its span (``2021/22``, ``2021-22``) or by its name (``FY2022``).
_SPLIT_LABEL = re.compile(r"(?<!\d)(?:19|20)\d\d\s*[/\-–]\s*\d\d(?!\d)")
_FY_LABEL = re.compile(r"\bFY\s?'?\d\d", re.IGNORECASE)


def split_years(question: str, texts: Iterable[str]) -> str:
    """``question`` with each fiscal year it writes by the two years it spans ("fiscal 2021/22") as
    the year it ends, the way a table that labels single years names it (``FY2022``, or ``2022``):
    a fiscal year is named by the year it ends. Unchanged when a label of the table writes years
    by their span (``2021/22``, read as written) or the two years are not consecutive."""
    if not _SPLIT.search(question):
        return question
    texts = [t for t in texts if isinstance(t, str)]
    if any(_SPLIT_LABEL.search(t) for t in texts):
        return question
    named = any(_FY_LABEL.search(t) for t in texts)

    def ending(m: re.Match[str]) -> str:
        start, end = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if int(end[-2:]) != (int(start) + 1) % 100 or (len(end) == 4 and int(end) != int(start) + 1):
            return m.group(0)
        year = f"{start[:2]}{end[-2:]}" if end[-2:] != "00" else str(int(start) + 1)
        return f"FY{year}" if named else year

    return _SPLIT.sub(ending, question)

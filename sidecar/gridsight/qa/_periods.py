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

import calendar
import datetime as dt
import re
from collections.abc import Callable, Iterable

from gridsight.qa._headers import dates_written, ends_at, with_days_rewritten
from gridsight.text import NUMBER_WORDS, PLANNED, content_words, stem

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
#: "last year" with no article, no "the last year shown": the latest of a run of years.
_LAST_YEAR = re.compile(r"\b(?:(?:in|for|at|during)\s+)?(?<!the )last year\b", re.IGNORECASE)
#: The two periods shown, as a change's ends: "between the two year-ends", "over the two balance
#: sheet dates".
_BOTH_ENDS = re.compile(
    rf"\s*\b(?:between|across|over)\s+(?:the|its)\s+two\s+(?:{_PERIOD}|year[- ]ends|years|dates|periods"
    r"|(?:balance\s+sheet\s+|reporting\s+)dates)\b",
    re.IGNORECASE,
)
#: Both periods shown, taken together: "across both years", "in both balance sheet dates".
_BOTH_SAID = re.compile(
    rf"\s*\b(?:between|across|over|in|for|at)\s+both(?:\s+the)?\s+(?:{_PERIOD}|year[- ]ends|years|dates"
    r"|periods|(?:balance\s+sheet\s+|reporting\s+)dates)\b",
    re.IGNORECASE,
)
#: A yes/no question's opening verb ("were other assets above 3,500 in both years?": each year tested).
_YES_NO = re.compile(r"\s*(?:is|are|was|were|did|does|do|has|have|had|can|could|will|would)\b", re.I)
#: The period before the latest, named from it: "a year before the latest balance sheet date", "the
#: year before the most recent year end", "one year earlier than the current period".
_BEFORE_LATEST = re.compile(
    rf"\b(?:(?:in|for|at|as at|as of|during|on)\s+)?(?:(?:a|one|the)\s+)?(?:year|period)\s+"
    r"(?:before|prior\s+to|earlier\s+than|preceding)\s+"
    rf"(?:the\s+)?(?:latest|most recent|current)\s+{_PERIOD}\b",
    re.IGNORECASE,
)
#: Words that set a figure against another: "compared with", "versus", "vs.", "against".
_VERSUS = r"compared\s+(?:with|to)|versus|vs\.?|against"
#: A change against the period before: "compared with the prior year", "versus last year".
_AGAINST = re.compile(
    rf"\b(?:{_VERSUS}|relative\s+to|over|from|since|on)\s+(?:the\s+)?"
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


#: Every period in time order, named by its ends: "from the oldest date to the most recent", "from
#: the latest year back to the earliest".
SERIES_SPAN = re.compile(
    r"\bfrom\s+the\s+(?:oldest|earliest|latest|newest|most\s+recent)\b[^?\d]{0,40}?\bto\s+the\s+"
    r"(?:oldest|earliest|latest|newest|most\s+recent)\b",
    re.IGNORECASE,
)


#: A run of the latest or the first periods by their number: "over the five most recent years", "the
#: last 3 years", "the first two years shown".
_RUN_OF_YEARS = re.compile(
    r"\b(?:(?:over|in|for|across|during)\s+)?the\s+"
    r"(?:(?P<end>last|latest|most\s+recent|past|final|first|earliest)\s+(?P<n>\d{1,2}|[a-z]+)"
    r"|(?P<n2>\d{1,2}|[a-z]+)\s+(?P<end2>last|latest|most\s+recent|first|earliest))"
    r"\s+years(?:\s+shown)?\b",
    re.IGNORECASE,
)


def with_runs_of_years(question: str, years: list[int]) -> str:
    """``question`` with a run of years named by its number and end ("the five most recent years")
    written as the span it means among ``years`` (newest first): "from 2019 to 2023". Unchanged
    where the number is more than the years shown."""

    def span(m: re.Match[str]) -> str:
        n_text = (m.group("n") or m.group("n2")).casefold()
        n = int(n_text) if n_text.isdigit() else NUMBER_WORDS.get(n_text)
        if n is None or not 1 < n <= len(years):
            return m.group(0)
        first = (m.group("end") or m.group("end2")).casefold() in ("first", "earliest")
        run = sorted(years)[:n] if first else sorted(years)[-n:]
        return f"from {run[0]} to {run[-1]}"

    return _RUN_OF_YEARS.sub(span, question)


def with_periods(question: str, years: list[int], names: Iterable[str] = ()) -> str:
    """``question`` with its relative periods written as the years they mean among ``years``
    (newest first: :func:`header_years`); unchanged when there are fewer than two years, or when
    the question names no relative period. Where the question also names a year, a relative period
    the header ``names`` write themselves (``Current fiscal year (From April 1, 2024 …)``) stays."""
    if len(years) < 2 or _EACH_AGAINST_PRIOR.search(question) or SERIES_SPAN.search(question):
        return question  # ("the years in which X fell compared with the prior year": each, not one)
    # ("in the 2024 financial year": the year; "financial year" is no line's words here)
    question = _YEAR_NAMED.sub(lambda m: m.group(1) if int(m.group(1)) in years else m.group(0), question)
    latest, prior = years[0], years[1]
    if len(years) == 2:  # ("did X rise between the two year-ends": from the one to the other)
        # ("the total of other assets over the two years": each year's, added up, no change)
        pooled = re.search(r"\b(?:total|sum|combined|altogether|together|average|mean)\b", question, re.I)
        both = f" in {prior} and {latest}" if pooled else f" from {prior} to {latest}"
        question = _tidy(_BOTH_ENDS.sub(both, question))
        if pooled:  # ("the sum of other assets across both years")
            question = _tidy(_BOTH_SAID.sub(both, question))
        elif not _YES_NO.match(question) and not re.search(
            r"\b(?:chang\w*|mov\w*|differ\w*|rise|rose|fell|fall|grow\w*|increas\w*|decreas\w*)\b",
            question,
            re.I,
        ):
            # ("trade debtors for both balance sheet dates, in the order shown": each date's
            # figure, in the order the header shows them)
            shown = [int(y) for n in names for y in _YEAR.findall(n) if int(y) in (latest, prior)]
            first, second = dict.fromkeys(shown) if len(set(shown)) == 2 else (latest, prior)
            question = _tidy(_BOTH_SAID.sub(f" in {first} and {second}", question))
    said = [int(y) for y in _YEAR.findall(question) if int(y) in years]
    q = question
    change = _AGAINST.search(q) or _OVER_ONE.search(q)
    if change is not None and _header_writes(change.group(0), names):
        change = None  # ("the % change on the previous year in 2016": a column says so, read it)
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
        before = [y for y in years if y < said[0]]
        if len(set(said)) == 1 and before and not _BEFORE_LATEST.search(q):
            # ("between the previous year-end and the FY2025 year-end": the one before the year named)
            q = _PRIOR.sub(_year_unless(own, before[0]), q)
        return _tidy(q)
    q = _BEFORE_LATEST.sub(lambda m: _year_for(m, prior), q)
    q = _LATEST.sub(lambda m: _year_for(m, latest), q)
    q = _EARLIEST.sub(lambda m: _year_for(m, years[-1]), q)
    if len(years) >= 3:  # ("X last year" over a run of years: the latest shown; beside one comparative
        # year, the one before the current)
        q = _LAST_YEAR.sub(lambda m: _year_for(m, latest), q)
    q = _PRIOR.sub(lambda m: _year_for(m, prior), q)
    return _tidy(q)


def _header_writes(phrase: str, names: Iterable[str]) -> bool:
    """Whether a header writes the phrase's words, its article aside (``Live births: % change on
    previous year`` writes "on the previous year")."""
    core = re.sub(r"\bthe\s+", "", phrase.strip().casefold())
    return any(core in re.sub(r"\bthe\s+", "", str(n).casefold()) for n in names)


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


#: A change verb or noun: "how much did X increase", "the change in X", "grew", "fell".
_CHANGED = re.compile(
    r"\b(change[ds]?|(?:in|de)crease[ds]?|gr[eo]wn?|grows|growth|ris(?:e[ns]?)|rose|f[ae]ll(?:en|s)?|decline[ds]?"
    r"|shr[ai]nk(?:s)?|shrunk"
    r"|drop(?:ped|s)?|jump(?:ed|s)?|improve[ds]?|improvement|deteriorated?|move[ds]?|movement|reduction|reduced)\b",
    re.IGNORECASE,
)  # (no "-ing" form: "farms growing barley" is no change)
#: The question asks a change, not a figure that a change verb describes ("how many farms grew
#: lentils"): how much, the change, whether it rose, which lines fell.
_ASKS_CHANGE = re.compile(
    r"\bhow\s+much\b|\bby\s+(?:how|what)\b|(?:%|\bper\s*cent(?:age)?)\s*(?:change|movement|growth)\b"
    r"|\bhow\s+(?:did|has|have)\b[^?]{0,80}\b(?:move|moved|change|changed)\b"
    r"|\b(?:the|a|an|its)\s+(?:net\s+|percent(?:age)?\s+)?(?:change|increase|decrease|growth|rise"
    r"|fall|decline|movement|improvement|reduction)\b|\bdid\b[^?]{0,80}\b(?:change|increase|decrease|grow|rise|fall|decline"
    r"|drop|improve|shrink)\b|\b(?:which|how\s+many|list|name)\b[^?]{0,80}\b(?:increased|decreased|rose|fell|declined"
    r"|dropped|improved)\b|\bwhat\s+(?:was|were|is|are)\b[^?]{0,60}\bgrowth\b"
    r"|^\s*(?:has|have|had)\b[^?]{0,80}\b(?:changed|increased|decreased|grown|risen|fallen|declined|dropped"
    r"|improved|shrunk)\b",
    re.IGNORECASE,
)


#: Words that name the ends of a change themselves ("from 2023", "compared with 2024").
_ENDS_NAMED = re.compile(
    r"\b(?:between|since|than|versus|vs|compared|against|relative)\b"
    r"|\b(?:from|on)\s+(?:the\s+)?(?:(?:end|start|beginning|close)\s+of\s+(?:the\s+)?)?"
    r"(?:\d|FY|prior\b|previous\b|preceding\b|last\b|opening\b|earlier\b|first\b|year\b|period\b"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)",
    re.IGNORECASE,
)  # ("from 2024", "from the prior year", "on the end of 2024"; not "loans from credit institutions")
#: "in 2025", "over 2025", "during fiscal 2025": the one period a change is over.
_OVER_YEAR = _IN_YEAR.replace("during|", "during|over|across|throughout|")
#: "during the year", "over the financial year": the latest year, no year named.
_DURING_YEAR = re.compile(
    r"\b(?:during|over|in|across|throughout)\s+the\s+(?:(?:financial|fiscal|reporting)\s+)?(?:year|period)\b"
    r"(?!\s+(?:to|ended|ending|end|before|prior)\b)",
    re.IGNORECASE,
)


#: Words of column names that open and close a period: ``Opening balance`` and ``Closing balance``,
#: ``Beginning of year`` and ``End of year``.
OPENING_WORDS = frozenset({"opening", "beginning", "start"})
CLOSING_WORDS = frozenset({"closing", "ending", "end"})
_OPENS = re.compile(rf"\b(?:{'|'.join(sorted(OPENING_WORDS))})\b", re.IGNORECASE)
_CLOSES = re.compile(rf"\b(?:{'|'.join(sorted(CLOSING_WORDS))})\b", re.IGNORECASE)


def _for_the_year(question: str, span: str) -> str | None:
    """``question`` with ``span`` in place of "during the year" (:data:`_DURING_YEAR`), or None
    where it says no such thing."""
    during = _DURING_YEAR.search(question)
    if during is None:
        return None
    return _tidy(f"{question[: during.start()]} {span}{question[during.end() :]}")


def opening_and_closing(names: Iterable[str]) -> tuple[str, str] | None:
    """The one column name that opens the period and the one that closes it (``Opening balance``,
    ``Closing balance``), or None."""
    names = list(names)
    opening = [n for n in names if _OPENS.search(n) and not _CLOSES.search(n)]
    closing = [n for n in names if _CLOSES.search(n) and not _OPENS.search(n)]
    return (opening[0], closing[0]) if len(opening) == 1 and len(closing) == 1 else None


#: "at the end of 2025", "the end of 2024": a year's end, named by its year.
_END_OF_YEAR = re.compile(r"\b(?:the\s+)?end\s+of\s+((?:19|20)\d\d)\b", re.IGNORECASE)
#: A day written with its month's name: "31 December 2025", "December 31, 2025".
_DAY_WRITTEN = re.compile(
    r"\b(?:\d{1,2}\s+[a-z]+\.?|[a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?)\s+(?:19|20)\d\d\b", re.IGNORECASE
)


def ends_dated(question: str, names: Iterable[str], titles: Iterable[str]) -> str:
    """``question`` with the days it names written as the columns that open and close the period
    (``Opening balance``, ``Closing balance``), where the table's title writes the closing day (``As
    at 31 December 2025``): that day, or the end of its year, is the closing column; the same day a
    year before, or the day after it (``1 January 2025``), the opening one. Unchanged elsewhere."""
    ends = opening_and_closing(names)
    days = {d for t in titles for d in dates_written(str(t))}
    if ends is None or len(days) != 1:
        return question
    day, month, year = next(iter(days))
    try:
        closing = dt.date(int(year), month, day)
        before = dt.date(int(year) - 1, month, day)
    except ValueError:
        return question
    opening = {before, before + dt.timedelta(days=1)}

    def column(m: re.Match[str]) -> str:
        said = dates_written(m.group(0))
        if len(said) != 1:
            return m.group(0)
        d, mo, y = next(iter(said))
        try:
            when = dt.date(int(y), mo, d)
        except ValueError:
            return m.group(0)
        return ends[1] if when == closing else ends[0] if when in opening else m.group(0)

    def year_end(m: re.Match[str]) -> str:
        y = int(m.group(1))
        return ends[1] if y == closing.year else ends[0] if y == before.year else m.group(0)

    return _END_OF_YEAR.sub(year_end, _DAY_WRITTEN.sub(column, question))


def _between_ends(question: str, names: Iterable[str]) -> str:
    """``question`` with "from <opening column> to <closing column>" where the table has one column
    of each (``Opening balance``, ``Closing balance``) and the question names neither."""
    ends = opening_and_closing(names)
    if ends is None or _OPENS.search(question) or _CLOSES.search(question):
        return question
    phrase = f"from {ends[0]} to {ends[1]}"
    return _for_the_year(question, phrase) or _append(question, phrase)


#: One quarter a change is asked within: "during Q3 2024", "in Q1 2024", "over Q2 of 2025".
_IN_QUARTER = re.compile(
    r"\b(?:in|during|over|across|throughout|for)\s+(?:the\s+)?Q([1-4])\s*(?:of\s+)?((?:19|20)\d\d)\b",
    re.IGNORECASE,
)


def changed_in_quarter(question: str, names: Iterable[str]) -> str:
    """``question`` with a change within one quarter it names ("how much did deposits change during
    Q3 2024", "did total assets grow in Q1 2024") written from the column that closes the quarter
    before to the one that closes it ("from Jun-24 to Sep-24"), where the columns are balances at
    quarter ends (``Dec-23``, ``Mar-24``, ...); else as it was."""
    m = _IN_QUARTER.search(question)
    if m is None or not _CHANGED.search(question) or not _ASKS_CHANGE.search(question):
        return question
    quarter, year = int(m.group(1)), int(m.group(2))
    closes = {(e[0], e[1]): n for n in names if (e := ends_at(n)) is not None and e[1] in (3, 6, 9, 12)}
    end = (year, 3 * quarter)
    start = (year - 1, 12) if quarter == 1 else (year, 3 * quarter - 3)
    if end not in closes or start not in closes:
        return question
    return question[: m.start()] + f"from {closes[start]} to {closes[end]}" + question[m.end() :]


def changed_in_year(question: str, years: list[int], own: Iterable[str], names: Iterable[str] = ()) -> str:
    """``question`` with a change over one period it names alone ("how much did usable reserves
    increase in 2025", "the change in X during the year") written from the period before: "from 2024
    to 2025" (``years`` newest first, :func:`header_years`). A balance at one date or a year's
    figure changes from the one before it. Unchanged where the question names both ends, or where
    the table's own texts ``own`` hold the change word (``% change``, ``Increase in receivables``,
    ``Revenue growth``: a line or column to read). A table whose columns open and close the period
    (``Opening balance``, ``Closing balance``) changes from the one to the other."""
    names = list(names)
    m = _CHANGED.search(question)
    if m is None or not _ASKS_CHANGE.search(question) or _EACH_AGAINST_PRIOR.search(question):
        return question
    if _ENDS_NAMED.search(question):
        return question
    root = m.group(1)[:4].casefold()
    said = {stem(w) for w in content_words(question)} - {stem(m.group(1).casefold())}
    if any(root in t.casefold() and {stem(w) for w in content_words(t)} & said for t in own):
        return question  # (a line or column the question names: ``Increase in receivables``)
    if len(years) < 2:
        return _between_ends(question, names)
    written = [int(y) for y in _YEAR.findall(question)]
    if len(set(written)) > 1 or any(y not in years for y in written):
        return question
    if not written:
        span = f"from {years[1]} to {years[0]}"
        # (a column of changes, ``Change`` or ``Increase/(decrease)``, is the one to read for "how
        # much"; "did X shrink" compares the two dates all the same)
        moves = any(_CHANGED.search(n) and not _YEAR.search(n) for n in names) and not re.match(
            r"\s*(?:did|has|have|had|is|was|were|does)\b", question, re.IGNORECASE
        )
        # (``31.12.2025`` too; a budget's column only where the question names a budget)
        dated = [n for n in names if (_YEAR.search(n) or dates_written(n)) and not PLANNED.search(n)]
        if len(years) == 2 and len(dated) == 2 and _for_the_year(question, span) is None and not moves:
            # ("how much did other assets fall?" over two dated columns: from one to the other)
            return _append(question, span)
        return _for_the_year(question, span) or question
    year = written[0]
    before = [y for y in years if y < year]
    if not before:
        # (a restatement's opening column, ``1 Jan 2024``, and the year's close: the year's change)
        within = _opened_and_closed(names, year)
        if within is None:
            return question
        span = f"from {within[0]} to {within[1]}"
        return re.sub(_OVER_YEAR + rf"{year}\b", span, question, count=1, flags=re.IGNORECASE)
    ends = _year_ends(names, year, before[0])
    span = f"from {ends[0]} to {ends[1]}" if ends else f"from {before[0]} to {year}"
    return re.sub(_OVER_YEAR + rf"{year}\b", span, question, count=1, flags=re.IGNORECASE)


def _dates_shown(names: Iterable[str]) -> dict[tuple[int, int, int], str]:
    """The day each column of ``names`` writes, (year, month, day) to the header part that writes it
    (``March 31, 2026`` of ``March 31, 2026 › (Unaudited)``); columns writing none or several left
    out, the first of two writing one day kept."""
    days: dict[tuple[int, int, int], str] = {}
    for name in names:
        dated = [p for p in str(name).split(" › ") if len(dates_written(p)) == 1]
        if len(dated) == 1:
            day, month, year = next(iter(dates_written(dated[0])))
            days.setdefault((int(year), month, day), dated[0].strip())
    return days


def _opened_and_closed(names: Iterable[str], year: int) -> tuple[str, str] | None:
    """The day that opens ``year`` (1 January, a restatement's opening balance sheet) and the latest
    day of it the columns ``names`` write, as the header parts write them; None without both."""
    days = _dates_shown(names)
    of_year = sorted(d for d in days if d[0] == year)
    if len(of_year) < 2 or of_year[0][1:] != (1, 1) or of_year[-1][1:] != (12, 31):
        return None  # (not months dated their first days: a 1 January opening and a year-end)
    return days[of_year[0]], days[of_year[-1]]


def _year_ends(names: Iterable[str], year: int, before: int) -> tuple[str, str] | None:
    """The dates the columns ``names`` write that end ``before`` and ``year`` (the latest of each),
    where ``year`` has several (quarter ends: ``31 December 2024`` and ``31 December 2025`` of
    five); else None."""
    days = _dates_shown(names)
    of_year = sorted(d for d in days if d[0] == year)
    of_before = sorted(d for d in days if d[0] == before)
    if len(of_year) < 2 or not of_before:
        return None
    return days[of_before[-1]], days[of_year[-1]]


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


#: A label of twelve months across two years: ``Apr 2020 to Mar 2021``, ``April 2020 - March 2021``.
_MONTH_SPAN = re.compile(
    r"\b[a-z]{3,9}\.?\s+(?:19|20)\d\d\s*(?:to|-|–)\s*[a-z]{3,9}\.?\s+(?:19|20)\d\d\b", re.IGNORECASE
)


def split_years(question: str, texts: Iterable[str]) -> str:
    """``question`` with each fiscal year it writes by the two years it spans ("fiscal 2021/22") as
    the year it ends, the way a table that labels single years names it (``FY2022``, or ``2022``):
    a fiscal year is named by the year it ends. Unchanged when a label of the table writes years
    by their span (``2021/22``, read as written) or the two years are not consecutive."""
    if not _SPLIT.search(question):
        return question
    texts = [t for t in texts if isinstance(t, str)]
    if any(_SPLIT_LABEL.search(t) or _MONTH_SPAN.search(t) for t in texts):
        return question  # (``Apr 2020 to Mar 2021`` is named by both its years: read as written)
    named = any(_FY_LABEL.search(t) for t in texts)

    def ending(m: re.Match[str]) -> str:
        start, end = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if int(end[-2:]) != (int(start) + 1) % 100 or (len(end) == 4 and int(end) != int(start) + 1):
            return m.group(0)
        year = f"{start[:2]}{end[-2:]}" if end[-2:] != "00" else str(int(start) + 1)
        return f"FY{year}" if named else year

    return _SPLIT.sub(ending, question)


#: The latest quarter's end and the one before it: "the most recent quarter end", "the prior
#: quarter-end", "the end of the previous quarter".
def _quarter_named(place: str) -> re.Pattern[str]:
    """A quarter's end named by its ``place`` (alternatives): "at the end of the <place> quarter"."""
    return re.compile(
        rf"\b(?:(?:at|as\s+of|as\s+at|on)\s+)?(?:the\s+)?(?:end\s+of\s+the\s+)?(?:{place})\s+"
        r"quarter(?:[- ]end(?:\s+date)?)?\b",
        re.IGNORECASE,
    )


_LATEST_QUARTER = _quarter_named(r"latest|most\s+recent|current")
_PRIOR_QUARTER = _quarter_named(r"prior|previous|preceding")
#: A date a table writes, named by its place among them: "the earliest date shown", "the latest
#: quarter end", "the first month-end shown" ("the first quarter" alone is Q1: "first" only before
#: "shown").
_DATE_KIND = r"(?:quarter|month|period|year)[- ]end(?:\s+date)?|(?:balance\s+sheet\s+|reporting\s+)?date"


def _date_placed(place: str, shown: str) -> re.Pattern[str]:
    """A date named by its ``place`` (alternatives), or by the word ``shown`` needs after it."""
    return re.compile(
        rf"\b(?:(?:at|as\s+of|as\s+at|on)\s+)?(?:the\s+)?(?:(?:{place})\s+(?:{_DATE_KIND})(?:\s+shown)?"
        rf"|{shown}\s+(?:{_DATE_KIND})\s+shown)\b",
        re.IGNORECASE,
    )


_FIRST_DATE = _date_placed(r"earliest|oldest", "first")
_LAST_DATE = _date_placed(r"latest|most\s+recent", "last")
#: A question that lists a figure per period: "list ...", "for each quarter end", "in order".
_LISTED = re.compile(r"\b(?:list|each|every|series|in\s+(?:time\s+)?order)\b", re.IGNORECASE)
#: Both ends at once: "from the first to the last quarter end shown", "between the earliest and the
#: latest date".
_FIRST_TO_LAST = re.compile(
    r"\b(from|between)\s+the\s+(?:first|earliest|oldest)\s+(?:to|and)\s+the\s+(?:last|latest|most\s+recent)\s+"
    rf"(?:{_DATE_KIND}|quarter[- ]ends|month[- ]ends|dates)(?:\s+shown)?\b",
    re.IGNORECASE,
)
#: A change over the latest quarter or the year so far: "the linked-quarter change", "the
#: year-to-date increase", "since the prior quarter".
_LINKED_QUARTER = re.compile(
    r"\b(?:(?:linked|sequential)[- ]quarter|quarter[- ](?:on|over)[- ]quarter|qoq)\b", re.IGNORECASE
)
_YEAR_TO_DATE = re.compile(r"\b(?:year[- ]to[- ]date|ytd)\b", re.IGNORECASE)
#: A change against the same date a year before: "year over year", "compared with a year earlier",
#: "versus the same quarter last year".
_YEAR_AGO = re.compile(
    r"\b(?:year[- ]over[- ]year|year[- ]on[- ]year|yoy"
    rf"|(?:(?:{_VERSUS}|from|since|over|relative\s+to)\s+)?(?:a|one|the)\s+year"
    r"\s+(?:earlier|ago|before)"
    rf"|(?:(?:{_VERSUS}|from|since|over)\s+)?the\s+same\s+(?:quarter|date|"
    r"quarter[- ]end|period)\s+(?:a\s+year\s+(?:ago|earlier)|last\s+year|of\s+the\s+prior\s+year))\b",
    re.IGNORECASE,
)
#: "since December 31, 2025", "from June 30, 2025", "compared with ...": a change from that date.
_SINCE = re.compile(
    rf"\b(?:since|from|{_VERSUS}|relative\s+to)\s+(?:the\s+end\s+of\s+)?",
    re.IGNORECASE,
)
#: "since the end of last year", "since year-end", "compared with the prior year-end": the last year
#: end shown.
_SINCE_YEAR_END = re.compile(
    rf"\b(since|from|{_VERSUS})\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?"
    r"(?:last|prior|previous|preceding)\s+(?:fiscal\s+|financial\s+)?year|(?:(?:last|prior|previous|preceding)\s+)?"
    r"(?:fiscal\s+|financial\s+)?year[- ]end)\b",
    re.IGNORECASE,
)


#: "the end of the third quarter of 2023", "the close of the second quarter 2024".
_QUARTER_BY_PLACE = re.compile(
    r"\b(?:the\s+)?(?:end|close)\s+of\s+the\s+(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
    r"(?:\s+of)?\s+((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_QUARTER_PLACES = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


def with_quarters(question: str, names: Iterable[str]) -> str:
    """``question`` with the quarter ends it names written as the quarter columns ``names`` hold
    (``Q1`` ... ``Q4``, under their years): "as of September 30, 2024" is "as of Q3 2024", "the close
    of the third quarter of 2023" is "Q3 2023" (calendar quarters). Unchanged where no header is a
    quarter, or where a header writes days itself (those are read as written)."""
    parts = [p.strip() for n in names for p in str(n).split(" › ")]
    if not any(re.fullmatch(r"(?i)Q[1-4](?:\s*(?:19|20)\d\d)?|(?:19|20)\d\d\s*Q[1-4]", p) for p in parts):
        return question
    if any(dates_written(p) for p in parts):
        return question

    def quarter(day: tuple[int, int, str]) -> str | None:
        d, m, y = day
        if m % 3 or d != calendar.monthrange(int(y), m)[1]:
            return None  # (no quarter's last day)
        return f"Q{m // 3} {y}"

    out = with_days_rewritten(question, quarter)
    return _QUARTER_BY_PLACE.sub(lambda m: f"Q{_QUARTER_PLACES[m.group(1).casefold()]} {m.group(2)}", out)


def with_dates(question: str, names: Iterable[str]) -> str:
    """``question`` with the quarter ends it names by their place written as the dates the headers
    ``names`` write: "the most recent quarter end" over ``September 30, 2025 | June 30, 2025 |
    December 31, 2024`` is "September 30, 2025", "the prior quarter end" "June 30, 2025" (the
    quarter before it, where a column shows it); a linked-quarter change is from the one to the other,
    a year-to-date change from the last year end before the latest date to it. Unchanged where the
    headers write fewer than two dates."""
    if not (
        _LATEST_QUARTER.search(question)
        or _PRIOR_QUARTER.search(question)
        or _LINKED_QUARTER.search(question)
        or _YEAR_TO_DATE.search(question)
        or _YEAR_AGO.search(question)
        or _SINCE.search(question)
        or _SINCE_YEAR_END.search(question)
        or _FIRST_DATE.search(question)
        or _LAST_DATE.search(question)
        or _FIRST_TO_LAST.search(question)
    ):
        return question
    written = _dates_shown(names)
    if len(written) < 2:
        return question
    order = sorted(written, reverse=True)
    if not (SERIES_SPAN.search(question) or _LISTED.search(question)):
        # (not "list X from the oldest date to the most recent": every date in order, not the ends)
        question = _by_place(question, written, order)
    return _after_places(question, written, order)


def _by_place(
    question: str, written: dict[tuple[int, int, int], str], order: list[tuple[int, int, int]]
) -> str:
    """``question`` with the dates it names by their place written as the headers write them."""
    latest = order[0]
    # ("from the first to the last quarter end shown": the earliest date to the latest)
    question = _FIRST_TO_LAST.sub(
        lambda m: (
            f"{m.group(1)} {written[order[-1]]} {'to' if m.group(1).casefold() == 'from' else 'and'} "
            f"{written[latest]}"
        ),
        question,
    )
    question = _FIRST_DATE.sub(lambda m: _date_for(m, written[order[-1]]), question)
    return _LAST_DATE.sub(lambda m: _date_for(m, written[latest]), question)


def _after_places(
    question: str, written: dict[tuple[int, int, int], str], order: list[tuple[int, int, int]]
) -> str:
    """The rest of :func:`with_dates`: a year ago, since the year end, linked quarters, year to
    date, the prior and the latest quarter end."""
    latest = order[0]
    months = latest[0] * 12 + latest[1]
    prior_q = next((d for d in order if d[0] * 12 + d[1] == months - 3), None)
    year_end = next((d for d in order[1:] if (d[1], d[2]) == (12, 31)), None)
    year_ago = (latest[0] - 1, latest[1], latest[2])
    q = question
    ago = _YEAR_AGO.search(q)
    changes = _CHANGED.search(q) is not None
    if ago is not None and year_ago in written and not _ENDS_NAMED.search(q[: ago.start()] + q[ago.end() :]):
        if changes or re.search(r"\byear[- ](?:over|on)[- ]year\b|\byoy\b", ago.group(0), re.IGNORECASE):
            # ("the year-over-year growth in deposits" over quarter ends: from the same date a year before)
            q = _append(
                _tidy(q[: ago.start()] + q[ago.end() :]), f"from {written[year_ago]} to {written[latest]}"
            )
        else:  # ("total equity a year ago": the figure at that date)
            q = _tidy(f"{q[: ago.start()]} at {written[year_ago]}{q[ago.end() :]}")
    if year_end is not None:  # ("since the end of last year", "since year-end": the last year end shown)
        q = _SINCE_YEAR_END.sub(lambda m: f"{m.group(1)} {written[year_end]}", q)
    if _LINKED_QUARTER.search(q):
        # (from the quarter end before the one the question names, else before the latest: "the
        # quarter-on-quarter change at 30 June 2025")
        named = [d for d in order if (d[2], d[1], str(d[0])) in dates_written(q)]
        last = named[0] if len(named) == 1 else latest
        before = next((d for d in order if d[0] * 12 + d[1] == last[0] * 12 + last[1] - 3), None)
        if before is not None:
            q = _LINKED_QUARTER.sub("", q)
            if named:
                q = re.sub(rf"\b(?:(?:at|as of|as at|on)\s+)?{re.escape(written[last])}", "", q)
            q = _append(_tidy(q), f"from {written[before]} to {written[last]}")
    if _YEAR_TO_DATE.search(q) and year_end is not None:
        q = _append(_YEAR_TO_DATE.sub("", q), f"from {written[year_end]} to {written[latest]}")
    if prior_q is not None:
        q = _PRIOR_QUARTER.sub(lambda m: _date_for(m, written[prior_q]), q)
    q = _LATEST_QUARTER.sub(lambda m: _date_for(m, written[latest]), q)
    return _tidy(_to_latest(q, written, latest, changes))


def _to_latest(
    q: str, written: dict[tuple[int, int, int], str], latest: tuple[int, int, int], changes: bool
) -> str:
    """``q`` with a change from one date shown and no end ("how much did net loans grow since
    December 31, 2025", "the increase in deposits from June 30, 2025") run to the latest date."""
    since = _SINCE.search(q)
    if since is None or (not changes and not since.group(0).casefold().startswith("since")):
        return q
    days = dates_written(q[since.end() : since.end() + 30])
    start = next(((int(y), m, d) for d, m, y in days if (int(y), m, d) in written), None)
    rest = q[since.end() :]
    year_at = re.search(r"(?:19|20)\d\d", rest)
    cut = since.end() + (year_at.end() if year_at else 0)
    if len(days) != 1 or start is None or start == latest or re.search(r"\bto\b", q[cut:], re.IGNORECASE):
        return q
    return _tidy(f"{q[: since.start()]} from {q[since.end() : cut]} to {written[latest]}{q[cut:]}")


def _date_for(m: re.Match[str], date: str) -> str:
    """What replaces a quarter end named by its place: the date, after "at" where the phrase had it."""
    opening = m.group(0).strip().split(" ", 1)[0].casefold()
    return f" at {date}" if opening in ("at", "as", "on") else f" {date}"


_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
#: A year a question dates its figure by, with the words that lead to it: "in 2017", "as of December
#: 2017", "at the end of 2017", "for the year 2019", "in fiscal 2018", "(2016)".
_DATED_BY = re.compile(
    r"[\s,]*(?:\b(?:in|for|during|as\s+of|as\s+at|at|by|on|of|from)\s+(?:the\s+)?"
    r"(?:(?:end|close|start|beginning)\s+of\s+(?:the\s+)?)?)?"
    rf"(?:(?:fiscal\s+)?year\s+|fiscal\s+|fy\s*|(?:{_MONTHS})\.?\s+(?:\d{{1,2}},?\s+)?)?"
    r"\(?\b(?:19|20)\d\d\b\)?",
    re.IGNORECASE,
)
_A_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
#: A year however a table writes it: ``2022M11``, ``FY2022``, ``2022Q1``, ``31.12.2022``.
_YEAR_WRITTEN = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def holds_a_year(texts: Iterable[str], values: Iterable[Iterable[object]]) -> bool:
    """Whether a table writes a year anywhere: in ``texts`` (its titles, headers and labels) or among
    its ``values`` (a date, or a whole number from 1900 to 2100)."""
    if any(_YEAR_WRITTEN.search(t) for t in texts):
        return True
    for column in values:
        for v in column:
            if isinstance(v, dt.date):
                return True
            if isinstance(v, str) and _YEAR_WRITTEN.search(v):
                return True
            if isinstance(v, int | float) and not isinstance(v, bool) and v == int(v) and 1900 <= v <= 2100:
                return True
    return False


def without_unheld_year(question: str, held: bool, texts: Iterable[str]) -> str:
    """``question`` without the one year it dates its figure by, where the table writes no year at all
    (``held`` False, and none of its ``texts`` writes the year short: ``goals19``): a fleet table of
    one filing asked "how many Q400 did we own in 2017?" reads its one figure, the year being the
    filing's. A question naming two years keeps them (a change needs both, and a table of no years
    cannot give it)."""
    years = set(_A_YEAR.findall(question))
    if held or len(years) != 1:
        return question
    short = re.compile(rf"(?<!\d){next(iter(years))[2:]}(?!\d)")
    if any(short.search(t) for t in texts):
        return question
    out = _DATED_BY.sub("", question, count=1)
    return re.sub(r"\s+([?.!])", r"\1", out).strip() if content_words(out) else question

"""Two lines from two tables of one workbook, set against each other: "net debt (in the
reconciliation beside the balance sheet) divided by total equity", "the equity ratio from the key
figures less the share of equity in the statement", "profit for the year as a percentage of the
balance sheet's shareholders' funds", "net assets per full-time equivalent employee" (a workforce
sheet's ``FTE`` total), "was turnover more than twice the net assets".

Where the question names two row labels (:func:`gridsight.qa._members.listed_members`, over the
labels of every table, the best table's sheet first) and each stands in one table only, the two tables'
own figures for the period the question names are read one by one, each with its table's routes
("What was net debt in 2025?"), and the arithmetic the question writes between them -- a ratio, a
share, a difference or a sum -- is done on the two figures; a yes/no question tests one against the
other (times a factor it names). Both cells are the evidence. Nothing is read where the question
names one period in neither table, or names no arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gridsight.qa._answer import QAAnswer
from gridsight.qa._headers import YEARS
from gridsight.qa._members import listed_members
from gridsight.qa._pick import Candidate, relation_for
from gridsight.qa._pipeline import expected_type
from gridsight.text import NUMBER_WORDS, words

#: A share or a percentage of a base named after "of": "as a percentage of B", "B's share".
_SHARE_OF = re.compile(
    r"(?:\b(?:as\s+an?\s+)?(?:percentage|percent|share|proportion|fraction)|%)\s+of\b", re.IGNORECASE
)
#: The arithmetic a question writes between two figures, in the order the figures are named.
_DIVIDED = re.compile(
    r"\bdivided\s+by\b|\bratio\b|\bover\b|[^\W\d_]\s*/\s*[^\W\d_]|\bper\b|\brelative\s+to\b|\bmultiple\s+of\b"
    r"|\bhow\s+many\s+times\b.*\bcovers?\b",
    re.IGNORECASE,
)
_LESS = re.compile(r"\bminus\b|\bless\b|\bdifference\b|\bexceed(?:s|ed)?\b|\bmore\s+than\b", re.IGNORECASE)
_PLUS = re.compile(r"\bplus\b|\bsum\s+of\b|\btotal\s+of\b|\bcombined\b|\badd(?:ing|ed)?\b", re.IGNORECASE)
_PERCENT = re.compile(r"\bpercent(?:age)?\b|%", re.IGNORECASE)


def answer_across_tables(
    question: str,
    found: list[Candidate],
    answer_in: Callable[[Candidate, str], QAAnswer],
    rank: Callable[[str], list[Candidate]] | None = None,
    anchor: str | None = None,
) -> QAAnswer | None:
    """The figure two lines of two tables on the best table's sheet give together (see the module
    docstring), or None where the question names no such pair. ``answer_in`` answers a question
    over one candidate table; ``rank`` ranks the tables for a phrase of the question (the two
    figures' own phrases, when no two row labels are named: "inventories as a percentage of FY24
    total net sales" over a balance sheet and a sales table whose total line reads ``Total``).
    ``anchor``: the sheet the question is asked on, which one of the two tables must be on."""
    if not found:
        return None
    # (the best table's sheet first; a workbook's other sheets too: the profit and loss account's
    # profit over the balance sheet's equity)
    sheet = found[0].sheet
    tables = [c for c in found if c.sheet is sheet and c.relation is None]
    tables += [c for c in found if c.sheet is not sheet and c.relation is None]
    if len(tables) < 2:
        return None
    years = sorted({w for w in words(question) if YEARS.fullmatch(w)})  # ("FY24": 2024)
    if expected_type(question) == "boolean":
        # ("was turnover more than twice the net assets": a test of two figures, no arithmetic asked)
        found_ = _compared(question, tables, years, answer_in, rank) if rank is not None else None
        return _on_sheet(found_, anchor)
    op = _operation(question)
    if op is None or len(years) > 1:
        return None  # (no arithmetic, or more than one period: nothing to read across tables)
    by_labels = _on_sheet(_by_labels(question, tables, years, op, answer_in) if years else None, anchor)
    if by_labels is not None or rank is None:
        return by_labels
    return _on_sheet(_by_phrases(question, tables, years, answer_in, rank), anchor)


def _on_sheet(answer: QAAnswer | None, anchor: str | None) -> QAAnswer | None:
    """``answer`` where it reads a cell of the sheet ``anchor`` (the question is asked there), or no
    sheet is named; else None."""
    if answer is None or anchor is None:
        return answer
    return answer if any(e.get("sheet") == anchor for e in answer.evidence) else None


def _by_labels(
    question: str,
    tables: list[Candidate],
    years: list[str],
    op: str,
    answer_in: Callable[[Candidate, str], QAAnswer],
) -> QAAnswer | None:
    """Two row labels named, each in one table (the module docstring)."""
    shared = _SHARE_OF.search(question)
    labels = []
    for c in tables:
        rel = relation_for(c)
        key = rel.key
        labels.append({v for v in rel.distinct_values(key.name) if isinstance(v, str)} if key else set())
    every = sorted({v for held in labels for v in held})
    named = listed_members(every, question)
    if len(named) != 2:
        named = _written_whole(every, question)
    if len(named) != 2:
        return None
    homes = [[i for i, held in enumerate(labels) if label in held] for label in named]
    if any(len(h) != 1 for h in homes) or homes[0] == homes[1]:
        return None
    when = _when(question, years)
    parts = [
        answer_in(tables[h[0]], f"What was {label}{when}?") for label, h in zip(named, homes, strict=True)
    ]
    if any(p.status != "answered" or not _number(p.value) for p in parts):
        return None
    first = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", named[0])}
    before = (
        {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", question[: shared.start()])} if shared else set()
    )
    pair = (named[0], named[1])
    if shared is not None and not first & before:
        # ("what percentage of total equity was net debt": the base is named first, after "of")
        parts, pair = parts[::-1], pair[::-1]
    return _combined(question, op, pair, parts, years)


def _combined(
    question: str, op: str, named: tuple[str, str], parts: list[QAAnswer], years: list[str]
) -> QAAnswer | None:
    """The answer ``op`` gives on the two figures ``parts`` read (in the order named)."""
    values = [p.value for p in parts]
    a, b = (float(v) for v in values)
    times = _TIMES.search(question) if op == "/" else None  # ("receivables / net sales x 365": days)
    if op == "/":
        if b == 0:
            return None
        value = (
            a / b * (100.0 if _PERCENT.search(question) else 1.0) * (float(times.group(1)) if times else 1.0)
        )
    else:
        value = a - b if op == "-" else a + b
    told = f"{named[0]} ({values[0]}) {op} {named[1]} ({values[1]})"
    when = f", for {years[0]}" if years else ""
    when += f", times {times.group(1)}" if times else ""
    display = f"{value:,.4f}".rstrip("0").rstrip(".")
    sheets = {e["sheet"] for p in parts for e in p.evidence}
    where = "two tables on one sheet" if len(sheets) == 1 else "two tables on two sheets"
    return _answered(question, value, display, "number", parts, f"{where}: {told}{when}")


#: The two figures of a ratio, a difference or a sum, each by its own phrase (``a`` the first).
_PHRASED = (
    (
        "/",
        re.compile(
            r"^(?P<a>.+?)\s+(?:as\s+an?\s+)?(?:percentage|percent|%|share|proportion|fraction)\s+of\s+"
            r"(?P<b>.+)$",
            re.IGNORECASE,
        ),
    ),
    (
        "/",
        re.compile(
            r"^(?:.*?\b)?(?:share|percentage|proportion|fraction)\s+of\s+(?P<b>.+?)\s+(?:was|were|is|are|"
            r"came\s+from|comes?\s+from|did)\s+(?P<a>.+)$",
            re.IGNORECASE,
        ),
    ),
    ("/", re.compile(r"^(?:.*?\b)?ratio\s+of\s+(?P<a>.+?)\s+to\s+(?P<b>.+)$", re.IGNORECASE)),
    (
        "/",
        re.compile(
            r"^(?:.*?\b)?how\s+many\s+times\s+(?:does|do|did|is|are|was|were|would)\s+(?P<a>.+?)\s+"
            r"(?:cover|covers)\s+(?P<b>.+)$",
            re.IGNORECASE,
        ),
    ),
    (
        "/",
        re.compile(
            r"^(?P<a>.+?)\s+(?:divided\s+by|relative\s+to|over(?!\s+(?:the|a|\d))|/)\s+(?P<b>.+)$",
            re.IGNORECASE,
        ),
    ),
    (
        "/",  # ("total assets per branch", "premiums as a multiple of total equity")
        re.compile(r"^(?P<a>.+?)\s+(?:per(?!\s*cent)|as\s+a\s+multiple\s+of)\s+(?P<b>.+)$", re.IGNORECASE),
    ),
    ("-", re.compile(r"^(?P<a>.+?)\s+(?:minus|less)\s+(?P<b>.+)$", re.IGNORECASE)),
    ("+", re.compile(r"^(?P<a>.+?)\s+plus\s+(?P<b>.+)$", re.IGNORECASE)),
)
#: What opens a question before the figure it names: "what's", "give me the", "quick one: what is".
_LEAD = re.compile(
    r"^(?:.*?\b(?:calculated|defined|measured|computed|worked\s+out)\s+as\s+|.*?\bi\.e\.?,?\s+|.*?=\s*)?"
    r"(?:.*?[:\-–]\s+)?(?:.*?\b(?:what(?:'s|\s+is|\s+was|\s+are|\s+were)?|give\s+me|tell\s+me|show\s+me|"
    r"calculate|compute|is|was|are|were)\s+)?(?:the\s+|our\s+)?",
    re.IGNORECASE,
)
#: What closes a phrase after its figure: "in percent", ", i.e. ...", "?", "(x 365)".
_TAIL = re.compile(
    r"\s*(?:\?.*|,.*|[()].*|\s+(?:in|as\s+an?|as)\s+(?:per\s*cent(?:age)?|%).*|\s+x\s*\d+.*)$",
    re.IGNORECASE,
)


def _phrases(question: str) -> tuple[str, str, str] | None:
    """The phrases that name the two figures of the question's arithmetic, and the operation:
    ("year-end inventories", "FY24 total net sales", "/") for "what is year-end inventories as a
    percentage of FY24 total net sales?"; None where no pattern reads two phrases."""
    text = re.sub(r"\s+", " ", question).strip()
    for op, pattern in _PHRASED:
        m = pattern.match(text)
        if m is None:
            continue
        a = _TIMES.sub("", _LEAD.sub("", m.group("a"), count=1)).strip(" ,;:-")  # ("creditors x 365 / sales")
        b = _TAIL.sub("", m.group("b")).strip(" ,;:-")
        if a and b and len(a) <= 80 and len(b) <= 80:
            return a, b, op
    return None


#: Two figures compared in a yes/no question, perhaps by a multiple: "was A more than twice B",
#: "were A lower than B".
_COMPARED = re.compile(
    r"^\s*(?:was|were|is|are|did|does|do|has|have|had)\s+(?P<a>.+?)\s+(?:(?P<more>more|greater|larger|bigger"
    r"|higher)|(?P<less>less|smaller|lower|fewer))\s+than\s+(?:(?P<k>twice|double|triple|(?:\d+(?:\.\d+)?|two"
    r"|three|four|five|ten)\s+times)\s+)?(?P<b>.+?)\s*\??\s*$",
    re.IGNORECASE,
)
_FACTORS = {"twice": 2.0, "double": 2.0, "triple": 3.0}


def _compared(
    question: str,
    tables: list[Candidate],
    years: list[str],
    answer_in: Callable[[Candidate, str], QAAnswer],
    rank: Callable[[str], list[Candidate]],
) -> QAAnswer | None:
    """Whether one table's figure is more (or less) than another's, perhaps times a factor: "was
    group turnover in 2024 more than twice the group's net assets at the year end" over a profit and
    loss account and a balance sheet. None where the two phrases are not each one table's."""
    m = _COMPARED.match(re.sub(r"\s+", " ", question))
    if m is None:
        return None
    a, b = m.group("a").strip(" ,"), _TAIL.sub("", m.group("b")).strip(" ,")
    read = _read_apart(question, tables, years, answer_in, rank, (re.sub(r"(?i)^the\s+", "", a), b))
    if read is None:
        return None
    k = (m.group("k") or "").casefold().removesuffix(" times")
    factor = (
        float(k) if re.fullmatch(r"\d+(?:\.\d+)?", k) else _FACTORS.get(k) or float(NUMBER_WORDS.get(k, 1))
    )
    first, second = (float(p.value) for p in read)
    value = first > factor * second if m.group("more") else first < factor * second
    told = f"{a} ({read[0].value}) {'>' if m.group('more') else '<'} {factor:g} × {b} ({read[1].value})"
    return _answered(question, value, "TRUE" if value else "FALSE", "boolean", read, f"two tables: {told}")


def _answered(
    question: str, value: object, display: str, kind: str, parts: list[QAAnswer], explanation: str
) -> QAAnswer:
    """The answer two tables' figures ``parts`` give, both cited."""
    return QAAnswer(
        question,
        "answered",
        value=value,
        display=display,
        type=kind,
        evidence=[e for p in parts for e in p.evidence],
        route="cells",
        explanation=explanation,
        confidence=min(p.confidence for p in parts),
        table=", ".join(p.table or "" for p in parts),
    )


def _by_phrases(
    question: str,
    tables: list[Candidate],
    years: list[str],
    answer_in: Callable[[Candidate, str], QAAnswer],
    rank: Callable[[str], list[Candidate]],
) -> QAAnswer | None:
    """Each figure's phrase asked of the table of the sheet that names it best, where the two are
    different tables and each gives a number."""
    phrased = _phrases(question)
    if phrased is None:
        return None
    a, b, op = phrased
    parts = _read_apart(question, tables, years, answer_in, rank, (a, b))
    return _combined(question, op, (a, b), parts, years) if parts is not None else None


def _read_apart(
    question: str,
    tables: list[Candidate],
    years: list[str],
    answer_in: Callable[[Candidate, str], QAAnswer],
    rank: Callable[[str], list[Candidate]],
    phrases: tuple[str, str],
) -> list[QAAnswer] | None:
    """The figures the two ``phrases`` name, each read in the table that names it best, where those
    are two tables and each gives a number; else None."""
    a, b = phrases
    on_sheet = {id(c.table) for c in tables}
    homes = []
    for phrase in (a, b):
        ranked = sorted(
            (c for c in rank(_undated(phrase)) if id(c.table) in on_sheet and c.score > 0),
            key=lambda c: (c.score, c.phrases),  # ("total assets" written as one: the statement's)
            reverse=True,
        )
        tied = len(ranked) > 1 and ranked[1].score >= ranked[0].score
        if not ranked or (tied and not (ranked[0].phrases and not ranked[1].phrases)):
            return None  # (no table, or two tables name the phrase equally)
        homes.append(ranked[0])
    if homes[0].table is homes[1].table:
        return None  # (one table holds both: its own routes read them)
    when = _when(question, years)
    parts = [
        _figure_of(home, _undated(phrase), when, answer_in)
        for home, phrase in zip(homes, (a, b), strict=True)
    ]
    if any(p.status != "answered" or not _number(p.value) for p in parts):
        return None
    return parts


def _figure_of(
    home: Candidate, phrase: str, when: str, answer_in: Callable[[Candidate, str], QAAnswer]
) -> QAAnswer:
    """The figure ``phrase`` names in its table at ``when``; where it names a column and no row
    ("full-time equivalent employees" over an ``FTE`` column by directorate), the column's total."""
    found = answer_in(home, f"What was {phrase}{when}?")
    if found.status == "answered" or re.match(r"(?i)total\b", phrase):
        return found
    return answer_in(home, f"What was total {phrase}{when}?")


#: A factor a ratio is multiplied by: "x 365", "× 12", "* 100".
_TIMES = re.compile(r"(?<![\w.])[x×*]\s*(\d+(?:\.\d+)?)\b", re.IGNORECASE)


#: The words of a phrase that say when, not what: a date, a year, "FY24", "year-end", "at".
_WHEN = re.compile(
    r"\b(?:(?:as\s+)?(?:at|on|in|for|of)\s+)?(?:the\s+)?(?:\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{1,2}\s+[a-z]{3,9}\s+\d{4}|"
    r"[a-z]{3,9}\s+\d{1,2},?\s+\d{4}|fy\s*\d{2,4}|(?:(?:end\s+of\s+)?(?:the\s+)?[qh][1-4]\s+)?(?:19|20)\d\d|"
    r"[a-z]{3,9}\s+\d{4}|year[\s-]end|"
    r"(?:latest|current|prior|previous|last)\s+(?:year|period|quarter)(?:[\s-]end)?)\b",
    re.IGNORECASE,
)


#: The words a date is introduced by ("as at the", "in"), which say nothing of which date it is.
_DATE_LEAD = re.compile(r"^(?:(?:as\s+)?(?:at|on|in|for|of)\s+)?(?:the\s+)?", re.IGNORECASE)


def _when(question: str, years: list[str]) -> str:
    """The dates the question writes, wherever it writes them, to ask each figure at: "total equity
    divided by RWAs at the end of Q1 2023" asks both at the end of Q1 2023; else its one year."""
    dates: list[str] = []
    cores: set[str] = set()
    for m in _WHEN.finditer(question):
        core = _DATE_LEAD.sub("", m.group(0).strip()).casefold()
        if any(ch.isdigit() for ch in core) and core not in cores:
            # ("inventories at the FY25 year end relative to FY25 revenue": FY25 once)
            cores.add(core)
            dates.append(m.group(0).strip())
    return f" {' '.join(dates)}" if dates else f" in {years[0]}" if years else ""


def _undated(phrase: str) -> str:
    """A phrase without the words that date it, and without brackets: what it names."""
    return re.sub(r"\s+", " ", _WHEN.sub(" ", re.sub(r"[()]", " ", phrase))).strip() or phrase


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _operation(question: str) -> str | None:
    """The arithmetic the question writes between its two figures: "/" (a ratio or a share), "-"
    or "+"; None where it writes none."""
    if _DIVIDED.search(question) or _SHARE_OF.search(question):
        return "/"
    if _LESS.search(question):
        return "-"
    return "+" if _PLUS.search(question) else None


def _written_whole(labels: list[str], question: str) -> list[str]:
    """The labels the question writes whole ("what percentage of total equity was net debt"), in the
    order written, leaving out one written inside another (``Net debt`` inside ``Net debt to
    equity``)."""
    low = " " + re.sub(r"[^\w%]+", " ", question.casefold()) + " "
    at = {}
    for label in labels:
        text = re.sub(r"[^\w%]+", " ", label.casefold()).strip()
        if len(text) >= 3 and (i := low.find(f" {text} ")) >= 0:
            at[label] = (i, i + len(text))
    whole = [v for v in at if not any(o != v and at[o][0] <= at[v][0] and at[v][1] <= at[o][1] for o in at)]
    return sorted(whole, key=lambda v: at[v][0])

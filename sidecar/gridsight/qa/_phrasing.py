"""Ways of asking for the top row that say the same as "which ... had the highest ...".

"Name the energy sub-sector with the largest emissions in 2023" and "Looking at the emissions in
2023, which sub-sector ranks highest?" ask what "Which energy sub-sector had the largest emissions in
2023?" asks; every route reads that form, so the question is written so before any route reads it.
A request for several rows ("name the 3 sectors with ...") is left as it is.
"""

from __future__ import annotations

import re

#: "Name the X with the largest Y ...", "Identify the X that had the lowest Y ...".
_NAME_THE = re.compile(
    r"^\s*(?:name|identify|state|give|find)\s+the\s+(?!\d|top\b|bottom\b|two\b|three\b|four\b|five\b)"
    r"(?P<what>[^,?]{1,80}?)\s+(?:with|that\s+had|that\s+has|which\s+had|which\s+has|having|showing|"
    r"recording)\s+the\s+(?P<rest>(?:highest|lowest|largest|smallest|most|least|greatest|biggest|fewest)\b.*)$",
    re.IGNORECASE,
)
#: "Looking at Y in 2022, which X ranks highest?", "In terms of Y, what X comes last?".
_LOOKING_AT = re.compile(
    r"^\s*(?:looking\s+at|considering|in\s+terms\s+of|regarding|as\s+for|judging\s+by)\s+(?P<measure>[^,?]{1,120}),"
    r"\s*(?:which|what)\s+(?P<what>[^,?]{1,80}?)\s+(?:ranks?|ranked|comes?|came|stands?|stood|is|was)\s+"
    r"(?:the\s+)?(?P<place>highest|lowest|largest|smallest|first|last|top|bottom)\s*[?.]?\s*$",
    re.IGNORECASE,
)
#: "... across all products", "over all the stores", "for all channels combined": each group's rows
#: added up.
_ACROSS_ALL = re.compile(
    r"\s*,?\s*\b(?:across|over|for)\s+all\s+(?:the\s+)?[a-z]+(?:\s+combined)?\b", re.IGNORECASE
)
_TOP_OF = re.compile(
    r"\b(the\s+(?:highest|lowest|largest|smallest|most|least|fewest|greatest|biggest))\s+(?!total\b)"
)
#: The rows named as a whole: "in the inspection records", "across the dataset", "of all the entries".
_THE_RECORDS = re.compile(
    r"\s+\b(?:in|across|among|throughout|of)\s+(?:the|this|these|all(?:\s+the)?)\s+(?:[a-z]+\s+){0,2}?"
    r"(?:records|data|dataset|data\s+set|table|entries|rows|list|log)\b",
    re.IGNORECASE,
)
#: "What region brought in the highest revenue ...?", "What regions had sales above 500?": "what"
#: before a noun and a superlative or a threshold asks which rows, as "which" does ("what is/was ...",
#: "what percentage/share/amount ..." ask a figure).
_WHAT_NOUN = re.compile(
    r"^(?P<lead>\s*(?:in\s+[^,?]{1,40},\s*)?)what\s+(?!(?:is|was|are|were|did|does|do|has|have|had|will|would|"
    r"percentage|percent|per\s*cent|share|proportion|fraction|ratio|amount|value|figure|total|sum|number|"
    r"count|level|rate|price|cost|year|month|quarter|period|date|day|time|age|difference|change|growth|"
    r"multiple|margin|return|sales|revenue|much|many|size)\b)(?=[a-z][\w\s&-]{0,60}?\b(?:highest|lowest|"
    r"largest|smallest|most|least|greatest|biggest|fewest|above|below|exceed(?:ed|s)?|(?:more|less|fewer|greater)\s+than)\b)",
    re.IGNORECASE,
)
#: "What was the top-selling product line in Q4 2024?", "Best-selling product line in Q4 2024?".
_TOP_SELLING = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:was|were|is|are)\s+)?(?:the\s+|our\s+)?(?P<top>top|best|highest|biggest|"
    r"worst|lowest|weakest)[-\s]+selling\s+(?P<what>[^,?]{1,60}?)\s+(?P<rest>(?:in|at|for|during|over|across)\b"
    r"[^?]*)\??\s*$",
    re.IGNORECASE,
)
#: "Which product line led sales in Q3?", "Which region topped the revenue table in 2024?".
_LED = re.compile(
    r"^(?P<lead>\s*(?:in\s+[^,?]{1,40},\s*)?)which\s+(?P<what>[^,?]{1,60}?)\s+(?:led|topped)\s+(?:the\s+)?"
    r"(?P<rest>[^?]+?)\??\s*$",
    re.IGNORECASE,
)
#: The superlative a rank's place says.
_PLACES = {"first": "highest", "top": "highest", "last": "lowest", "bottom": "lowest"}


#: "..., or the other way round?": a test turned into a choice (the request after it says which).
_OTHER_WAY = re.compile(r",?\s+or\s+the\s+other\s+way\s+(?:round|around)\b", re.IGNORECASE)


def as_which(question: str) -> str:
    """``question`` as "Which X had the <superlative> Y ...?" where it asks for the top row another
    way, without "or the other way round" where a request names the larger of the two after it
    ("were A greater than B, or the other way round? Name the larger line."); unchanged otherwise."""
    question = _OTHER_WAY.sub("", question) if re.search(r"[?.]\s*\w", question) else question
    # ("the single largest current liability" is the largest one)
    question = re.sub(
        r"\bsingle\s+(?=(?:largest|biggest|highest|greatest|smallest|lowest)\b)",
        "",
        question,
        flags=re.IGNORECASE,
    )
    m = _NAME_THE.match(question)
    if m is not None:
        return f"Which {m.group('what')} had the {m.group('rest')}"
    m = _TOP_SELLING.match(question)
    if m is not None:
        low = m.group("top").casefold() in {"worst", "lowest", "weakest"}
        return f"Which {m.group('what')} had the {'lowest' if low else 'highest'} sales {m.group('rest')}?"
    m = _LED.match(question)
    if m is not None:
        rest = re.sub(r"\s+(?:table|ranking|list)\b", "", m.group("rest"), count=1, flags=re.IGNORECASE)
        which = "which" if m.group("lead") else "Which"
        return f"{m.group('lead')}{which} {m.group('what')} had the highest {rest}?"
    m = _WHAT_NOUN.match(question)
    if m is not None:
        return f"{m.group('lead')}{'which' if m.group('lead') else 'Which'} {question[m.end() :]}"
    m = _LOOKING_AT.match(question)
    if m is not None:
        place = m.group("place").casefold()
        measure = re.sub(r"^(?:the|a)\s+", "", m.group("measure").strip(), flags=re.IGNORECASE)
        return f"Which {m.group('what')} had the {_PLACES.get(place, place)} {measure}?"
    return question


def with_total_across(question: str) -> str:
    """ "Which region had the highest unit sales across all products?" as "Which region had the
    highest total unit sales?": the group's rows added up, not its best row. Unchanged unless the
    question asks which group ranks first."""
    across = _ACROSS_ALL.search(question)
    asks_group = r"^\s*(?:in\s+[^,]+,\s*)?(?:which|what\s+(?!is\b|was\b|are\b|were\b)[a-z]+)\b"
    if across is None or not re.match(asks_group, question, re.IGNORECASE):
        return question
    top = _TOP_OF.search(question)
    if top is None:
        return question
    out = question[: across.start()] + question[across.end() :]
    return _TOP_OF.sub(lambda m: f"{m.group(1)} total ", out, count=1)


def without_records_named(question: str) -> str:
    """``question`` without the words that name the table's rows as a whole: "which cuisine appears
    most often in the inspection records?" asks what "which cuisine appears most often?" asks (the
    records' "inspection" names no column of them)."""

    def dropped(m: re.Match[str]) -> str:
        before = question[: m.start()].split()[-1:]
        # ("how many stations are in the data", "who is listed in the table": where the rows are
        # what the question asks about, the phrase stays)
        return m.group(0) if before and before[0].casefold() in _BEING else ""

    return _THE_RECORDS.sub(dropped, question)


#: Words after which "in the data" says where things are, not which rows are meant.
_BEING = frozenset("is are was were be been listed included represented present there appear appears".split())

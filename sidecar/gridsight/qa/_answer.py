"""The answer a question gets: the same shape in the CLI, the API and the task pane."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gridsight.formula._excel_values import excel_round
from gridsight.text import FALL_WORDS, words


@dataclass
class QAAnswer:
    question: str
    status: str  # "answered" | "abstained"
    value: Any = None
    display: str = ""
    type: str | None = None  # "number" | "text" | "boolean" | "date" | "list"
    formula: str | None = None
    query: str | None = None
    evidence: list[dict[str, str]] = field(default_factory=list)  # [{"sheet", "range"}]
    route: str | None = None  # "formula" | "sql" | "blocks"
    unit: str | None = None
    explanation: str = ""
    reason: str | None = None
    confidence: float = 0.0
    table: str | None = None
    structure: float | None = None  # the SQuARE-style score that chose the route
    #: Who settled a tie among tables or cells that fit equally: "meaning" (embeddings) or "model".
    chosen_by: str | None = None
    #: Share of the candidates that gave an answer which agree with this one (None: no vote was held).
    agreement: float | None = None
    #: Every candidate of the vote: source, query, value, and why it was dropped.
    candidates: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "status": self.status,
            "value": self.value,
            "display": self.display,
            "type": self.type,
            "formula": self.formula,
            "query": self.query,
            "evidence": list(self.evidence),
            "route": self.route,
            "unit": self.unit,
            "explanation": self.explanation,
            "reason": self.reason,
            "confidence": self.confidence,
            "table": self.table,
            "structure": self.structure,
            "chosen_by": self.chosen_by,
            "agreement": self.agreement,
            "candidates": list(self.candidates),
        }


def value_type(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "list"
    return "text"


def display_of(value: Any) -> str:
    """The answer as a person reads it; an empty cell found by a lookup reads "(blank)", not ''."""
    if value == "":
        return "(blank)"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return f"{value:,.2f}".rstrip("0").rstrip(".") if abs(value) < 1e15 else repr(value)
    if isinstance(value, list):
        flat = [x for row in value for x in (row if isinstance(row, list) else [row])]
        return ", ".join(display_of(x) for x in flat)
    return "" if value is None else str(value)


_PLACES = {"no": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4}
#: "to one decimal place", "two decimals", "2 d.p.", "to the nearest whole number".
_DECIMALS = re.compile(
    r"\b(no|zero|one|two|three|four|\d)\s*(?:decimal(?:\s+places?|s)?\b|d\.?p\.?(?!\w))"
    r"|\bnearest\s+(?:whole(?:\s+(?:number|percent(?:age)?(?:\s+point)?))?|integer)\b"
    r"|\bround(?:ed)?\s+to\s+(?:an?\s+)?(?:whole|integer)\b",
    re.IGNORECASE,
)


def decimals_asked(question: str) -> int | None:
    """The decimal places the question asks its number in ("to one decimal place": 1, "to the
    nearest whole number": 0), or None when it asks none."""
    m = _DECIMALS.search(question)
    if m is None:
        return None
    word = (m.group(1) or "0").casefold()
    return _PLACES[word] if word in _PLACES else int(word)


#: The whole clause that asks for the rounding: ", rounded to 1 decimal", "(to 2 d.p.)", "to the
#: nearest whole number".
_ROUNDING = re.compile(
    r"[,;]?\s*(?P<open>\()?\s*(?:(?:rounded|round|correct|accurate|expressed)\s+)?(?:(?:to|at|with|in)\s+(?:the\s+|an?\s+)?)?"
    rf"(?:{_DECIMALS.pattern})\s*(?(open)\))",
    re.IGNORECASE,
)


def without_rounding(question: str) -> str:
    """The question less the clause that asks for its number's rounding (applied to the answer by
    :func:`rounded_as_asked`): "in 2013, rounded to 1 decimal" names no second figure to read."""
    return _ROUNDING.sub("", question).strip() or question


def rounding_asked(
    value: Any, formula: str | None, question: str
) -> tuple[float | int, str | None, int] | None:
    """(value, formula, places) rounded as the question asks: Excel's ROUND of the value
    (:func:`excel_round`; a whole number for 0 places) and the formula wrapped in ROUND, so that the
    cell gives the same figure. None when no rounding is asked or the value is no finite number."""
    places = decimals_asked(question)
    if (
        places is None
        or isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
    ):
        return None
    r = excel_round(value, places)
    wrapped = f"=ROUND({formula[1:]},{places})" if formula and formula.startswith("=") else formula
    return (int(r) if places == 0 else r), wrapped, places


def rounded_as_asked(ans: QAAnswer, question: str) -> QAAnswer:
    """A number answer rounded as the question asks (:func:`rounding_asked`); any other answer as
    it is."""
    rounded = rounding_asked(ans.value, ans.formula, question)
    if rounded is None:
        value = ans.value
        if isinstance(value, float) and math.isfinite(value):
            # the noise of binary fractions: 113.8 + 123.1 is 236.9, as a cell shows it, not
            # 236.89999999999998 (a true fraction, 780 / 1320, keeps its digits)
            short = float(f"{value:.10g}")
            if short != value and abs(short - value) <= 1e-13 * abs(value):
                ans.value = short
                ans.display = display_of(short)
        return ans
    ans.value, ans.formula, places = rounded
    ans.display = display_of(ans.value)
    ans.explanation += f" Rounded to {places} decimal place{'s' if places != 1 else ''}, as asked."
    return ans


#: "... in FY2025, as a positive amount", "(ignore the sign)": the size of a figure the sheet shows
#: negative.
_POSITIVE = re.compile(
    r",?\s*(?:expressed\s+|given\s+|shown\s+|stated\s+)?as\s+a\s+positive\s+(?:amount|number|figure|value|total)\b"
    r"|\b(?:give|giving|report|state|express)\s+(?:it\s+|the\s+answer\s+)?(?:as\s+)?an?\s+positive\s+(?:amount|number|figure|value|total)\b"
    r"|,?\s*\b(?:ignor(?:e|ing)\s+(?:the|its|any)\s+signs?|regardless\s+of\s+(?:the\s+|its\s+)?sign)\b",
    re.IGNORECASE,
)


#: A bracket or a sentence of its own: where a question states how its answer is to be written.
_ASIDE = re.compile(r"\(([^()]{1,80})\)|(?:(?<=[.?!])|^)\s*([^.?!()]{1,80}[.!])(?=\s|$)")
#: "negative if it decreased", "Give a negative number for a fall", "a fall is shown as negative".
_SIGN_RULE = re.compile(r"\b(?:negative|minus\s+sign|minus)\b", re.IGNORECASE)


def _sign_convention(aside: re.Match[str]) -> str:
    """'' where the bracket or sentence only says that a fall is written negative (the signed
    change, later less earlier, which is how a change is read anyway); else the text as it was:
    its words "fall", "decreased" ask no fall."""
    said = aside.group(1) or aside.group(2) or ""
    talk = set(words(said)) - {"negative", "minus", "sign", "positive", "plus"}
    if _SIGN_RULE.search(said) and talk & FALL_WORDS and len(talk) <= 8 and not re.search(r"\d", said):
        return ""
    return aside.group(0)


def without_sign(question: str) -> str:
    """The question less its "as a positive amount" (applied by :func:`positive_as_asked`) and less a
    sign convention ("(negative if it decreased)", "Give a negative number for a fall.")."""
    question = _ASIDE.sub(_sign_convention, question)
    return _POSITIVE.sub("", question).strip() or question


#: Words that ask how much went out: "how much interest was paid", "dividends paid", "spend buying".
_PAID = re.compile(r"\b(?:paid|pay|spend|spent|spending|bought|buying|outflows?)\b", re.IGNORECASE)
#: A formula that reads one cell: ``='Cash flow'!C18``.
_ONE_CELL = re.compile(r"^=(?:'[^']+'|[^!'\s]+)!\$?[A-Z]{1,3}\$?\d+$")


def positive_as_asked(ans: QAAnswer, question: str) -> QAAnswer:
    """A number answer as its size where the question asks for a positive amount (the formula
    wrapped in ABS), or asks how much was paid or spent where the one cell read shows the payment
    negative, as a cash flow statement does (``Interest paid (2,811)``: 2,811 was paid); any other
    answer as it is."""
    value = ans.value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ans
    paid = value < 0 and _PAID.search(question) is not None and _ONE_CELL.match(ans.formula or "") is not None
    if not (_POSITIVE.search(question) or paid):
        return ans
    ans.value = abs(value)
    ans.display = display_of(ans.value)
    if ans.formula and ans.formula.startswith("="):
        ans.formula = f"=ABS({ans.formula[1:]})"
    return ans


#: A sentence that only shows the answer's form by example: 'Answer like "Q1".', "Reply e.g. 'H2'".
_EXAMPLE = re.compile(
    r"(?:^|(?<=[.?!;:]))\s*(?:answer|reply|respond|give\s+it|write\s+it)\s+(?:like|as\s+in|e\.g\.|such\s+as|"
    r"in\s+the\s+form)\s*:?\s*(?:\"[^\"]{1,40}\"|'[^']{1,40}'|“[^”]{1,40}”)\s*[.!]?\s*$",
    re.IGNORECASE,
)


def without_example(question: str) -> str:
    """The question less a closing sentence that only shows the answer's form by example
    ('... highest? Answer like "Q1".'): the example's words name no cell to read."""
    return _EXAMPLE.sub("", question).strip() or question


#: What an aside rules out: "(the combined figure, not men or women separately)", ", not the
#: company's": after a comma or an opening bracket, up to the closing one or the sentence's end.
_RULED_OUT = re.compile(
    r"(?<=[,(])\s*(?:not|rather\s+than|instead\s+of)\s+(?:the\s+)?[^\W\d_]+(?:'s)?"
    r"(?:\s+(?:or|and|nor)\s+(?:the\s+)?[^\W\d_]+(?:'s)?)*(?:\s+separately|\s+alone)?\s*(?=[).;?]|$)",
    re.IGNORECASE,
)


def without_ruled_out(question: str) -> str:
    """The question less an aside's words for what is not asked ("(the combined figure, not men or
    women separately)"): they name the cells the question does not want."""
    return _RULED_OUT.sub(" ", question)


#: "Table A (segment assets and liabilities)": what a table is, said beside its name to pick it.
_TABLE_ASIDE = re.compile(
    r"\b((?:table|schedule|exhibit|note|statement)\s+(?:[A-Z]|\d{1,2}(?:\.\d{1,2})?))\s*\([^()]{1,100}\)",
    re.IGNORECASE,
)


def without_table_aside(question: str) -> str:
    """The question less the brackets that describe a table named by its letter or number ("In
    Table A (segment assets and liabilities), which had the larger segment liabilities ..."): once
    the table is picked, their words name none of its cells (here: no ``Segment assets`` column)."""
    return _TABLE_ASIDE.sub(r"\1", question)


#: A financial statement named as where to look ("what did the income statement show for sales",
#: "according to the consolidated balance sheet"): not a balance sheet *date*.
_STATEMENT_NAMED = re.compile(
    r"\b(?:income\s+statements?|balance\s+sheets?(?!\s+(?:dates?|totals?))|cash[- ]flow\s+statements?|"
    r"statements?\s+of\s+(?:financial\s+position|operations|comprehensive\s+income|cash\s+flows?|profit\s+or\s+loss|"
    r"income)|profit\s+and\s+loss\s+(?:account|statement)s?)\b",
    re.IGNORECASE,
)


def without_statement_named(question: str, own: Sequence[str]) -> str:
    """The question with the statement it names as its source written "statement" ("what did the
    income statement show for sales": its "income" names no ``Net income`` line; "the parent
    company balance sheet" keeps the entity it names), unless the table's own labels hold that
    name (a ``Balance sheet total`` line)."""
    held = " ".join(own).casefold()

    def generic(m: re.Match[str]) -> str:
        return m.group(0) if m.group(0).casefold().rstrip("s") in held else "statement"

    return _STATEMENT_NAMED.sub(generic, question)


#: A name in the possessive: "Foxglove's", "Quarry Hill's" (capitalised words, up to four; not the
#: end of a name written with a slash, "Nordvik A/S's").
_OWNER = re.compile(r"(?<![/&\w])((?:[A-Z][\w&.-]*\s+){0,3}[A-Z][\w&.-]+)['\u2019]s\b")


def without_owner(question: str, titles: Sequence[str], own: Sequence[str]) -> str:
    """The question with the owner its titles name written "the": "What was Foxglove's largest
    current liability?" over a sheet titled ``Foxglove Cosmetics Inc.`` asks the table's largest
    line. An owner the table's own labels or headers write ("Norland's jobless rate") is kept."""
    titled = set(words(" ".join(titles)))
    held = set(words(" ".join(own)))

    def the(m: re.Match[str]) -> str:
        said = words(m.group(1))
        if said and set(said) <= titled and not set(said) & held:
            return "the"
        return m.group(0)

    return _OWNER.sub(the, question)


#: Words that call a table a document: a statement, a balance sheet, a summary, a schedule.
_DOCUMENT = re.compile(
    r"\b(?:statements?|balance\s+sheets?|summary|schedule|accounts|bilan)\b", re.IGNORECASE
)


def without_title(question: str, titles: Sequence[str]) -> str:
    """The question with a title of the chosen table it writes whole (three words or more) as
    "statement": "the statement of net assets available for benefits" names the table, not its
    ``Net assets available for benefits`` line."""
    for title in sorted(titles, key=len, reverse=True):
        spaced = r"\s+".join(re.escape(w) for w in title.split())
        # (a document's name -- "statement of ...", "... balance sheet" --, not a measure's: the
        # title "Number of dwellings completed" is what the figures count)
        if len(title.split()) >= 3 and _DOCUMENT.search(title):
            question = re.sub(rf"\b{spaced}\b", "statement", question, flags=re.IGNORECASE)
    return question


#: "Give the line label.", "Answer with the column heading.": the answer is a label, not a figure.
_LABEL_ASKED = re.compile(
    r"\b(?:give|answer\s+with|reply\s+with|name)\s+(?:the|its)\s+(?:(?:line|row|column|item|category)\s+)?"
    r"(?:label|name|heading|header|title)\b",
    re.IGNORECASE,
)


def asks_label(question: str) -> bool:
    """Whether the question asks outright for a row label or column heading as its answer."""
    return bool(_LABEL_ASKED.search(question))

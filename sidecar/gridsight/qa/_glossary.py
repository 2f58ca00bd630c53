"""Measures that financial statements are read by, which a question may name without defining them
("the current ratio at the end of 2024", "operating margin in 2023").

Each measure has its textbook definition, written in the words that statement lines use. A question
that names a measure gets the definition in brackets after the name ("defined as ..."), unless the
question defines the measure itself, or a label of the workbook already holds the name (a row headed
``Current ratio`` is read as it is). The definition is then read like any arithmetic the question writes out:
:func:`gridsight.qa._cells._written` finds each line it names and the operators between them.

These are accounting definitions, not words taken from any table. Where textbooks disagree (gearing
is net debt over equity in one and borrowings over equity in another), the measure is left out: the
question has to define it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from functools import partial

from gridsight.qa._definition import definition
from gridsight.qa._sqlgen import initials_of
from gridsight.text import stem, without_marks

_QUICK = "{current assets} excluding {inventories}, divided by {current liabilities}"

#: Measure -> its definition; each ``{line}`` is a line of the statements (see :data:`LINES`).
TERMS: dict[str, str] = {
    "current ratio": "{current assets} divided by {current liabilities}",
    "quick ratio": _QUICK,
    "acid-test ratio": _QUICK,
    "acid test ratio": _QUICK,
    "cash ratio": "{cash} divided by {current liabilities}",
    "working capital": "{current assets} minus {current liabilities}",
    "free cash flow": "{operating cash flow} minus {capital expenditure}",
    "debt-to-equity ratio": "{total liabilities} divided by {total equity}",
    "debt to equity ratio": "{total liabilities} divided by {total equity}",
    "debt ratio": "{total liabilities} divided by {total assets}",
    "equity ratio": "{total equity} divided by {total assets}",
    "gross margin": "{gross profit} divided by {revenue}, in percent",
    "gross profit margin": "{gross profit} divided by {revenue}, in percent",
    "operating margin": "{operating profit} divided by {revenue}, in percent",
    "operating profit margin": "{operating profit} divided by {revenue}, in percent",
    "net margin": "{net profit} divided by {revenue}, in percent",
    "net profit margin": "{net profit} divided by {revenue}, in percent",
    "return on equity": "{net profit} divided by {total equity}, in percent",
    "return on assets": "{net profit} divided by {total assets}, in percent",
    "asset turnover": "{revenue} divided by {total assets}",
    "effective tax rate": "{income tax} divided by {profit before tax}, in percent",
    "ebit margin": "{operating profit} divided by {revenue}, in percent",
    "ebitda margin": "{ebitda} divided by {revenue}, in percent",
    "payout ratio": "{dividend per share} divided by {earnings per share}",
    "dividend payout ratio": "{dividend per share} divided by {earnings per share}",
    "dividend cover": "{earnings per share} divided by {dividend per share}",
    # (debt as the lines that carry it: see gridsight.qa._debt; leases left out)
    "net debt": "{total debt} minus {cash}",
    "interest cover": "{operating profit} divided by {finance costs}",
    "interest coverage": "{operating profit} divided by {finance costs}",
    "interest coverage ratio": "{operating profit} divided by {finance costs}",
    "times interest earned": "{operating profit} divided by {finance costs}",
}

#: Line -> the names statements give it under IFRS, US GAAP and UK GAAP, the usual one first. A
#: definition names a line by the first of its names that the workbook holds.
LINES: dict[str, tuple[str, ...]] = {
    "operating cash flow": (
        "net cash provided by operating activities",
        "net cash from operating activities",
        "net cash generated from operating activities",
        "net cash inflow from operating activities",
        "cash generated from operations",
        "operating cash flow",
    ),
    "capital expenditure": (
        "purchases of property and equipment",
        "purchases of property, plant and equipment",
        "purchase of property, plant and equipment",
        "capital expenditure",
    ),
    "current assets": ("current assets",),
    "current liabilities": ("current liabilities", "creditors: amounts falling due within one year"),
    "inventories": ("inventories", "inventory", "stocks", "stock"),
    "cash": ("cash",),
    "total liabilities": ("total liabilities",),
    "total equity": ("total equity", "shareholders' equity", "stockholders' equity", "shareholders' funds"),
    "total assets": ("total assets",),
    "gross profit": ("gross profit",),
    "operating profit": ("operating profit", "operating income", "profit from operations", "ebit"),
    "net profit": ("net profit", "net income", "profit for the year", "profit after tax", "net earnings"),
    "revenue": (
        "revenue",
        "total net revenues",
        "total revenues",
        "total revenue",
        "net revenues",
        "net revenue",
        "revenues",
        "net sales",
        "turnover",
        "sales",
    ),
    "income tax": (
        "income tax expense",
        "income tax",
        "taxation",
        "tax on profit",
        "tax expense",
        "provision for income taxes",
    ),
    "profit before tax": (
        "profit before tax",
        "profit before taxation",
        "profit before income tax",
        "income before income taxes",
        "earnings before income taxes",
        "income before provision for income taxes",
    ),
    "ebitda": ("ebitda",),
    "total debt": ("total debt", "total borrowings", "borrowings"),
    "finance costs": (
        "finance costs",
        "interest payable and similar expenses",
        "interest payable and similar charges",
        "interest expense",
        "finance expense",
        "interest costs",
    ),
    "dividend per share": ("dividend per share", "dividends per share", "dividends declared per share"),
    "earnings per share": ("basic earnings per share", "earnings per share", "basic eps", "eps"),
}

#: Abbreviations of statement lines and measures that are no initials of the words they stand for
#: ("EBIT" is operating profit; "op. profit") or whose words a table rarely writes out ("ETR"); the
#: initials of a label ("PBT", "PP&E") are read by :func:`gridsight.qa._sqlgen.initials_of`.
ABBREVIATIONS: dict[str, str] = {
    "ebit": "operating profit",
    "etr": "effective tax rate",
    "capex": "capital expenditure",
    "opex": "operating expenses",
    "op.": "operating",
    "gp": "gross profit",
    "eps": "earnings per share",
    "dps": "dividend per share",
    "pbt": "profit before tax",
    "nci": "non-controlling interests",
    "a/r": "accounts receivable",
    "a/p": "accounts payable",
    "pp&e": "property, plant and equipment",
}
_ABBREVIATED = re.compile(
    r"(?<![\w.&])("
    + "|".join(re.escape(a) for a in sorted(ABBREVIATIONS, key=len, reverse=True))
    + r")(?![\w&])",
    re.IGNORECASE,
)

#: The question writes its own definition: an operator, or "defined as".
_DEFINES = re.compile(
    r"\b(?:defined|divided\s+by|minus|plus|excluding|as\s+an?\s+(?:share|percentage)\s+of)\b|[/÷]",
    re.IGNORECASE,
)
#: Longest names first: "net profit margin" before "net margin" would not matter, but "debt ratio"
#: must not take the "debt-to-equity ratio"'s words.
_NAMES = re.compile(
    r"\b(" + "|".join(re.escape(t) for t in sorted(TERMS, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def spelt_out(question: str, holds: Callable[[str], bool]) -> str:
    """``question`` with each abbreviation of :data:`ABBREVIATIONS` that no text of the workbook
    holds written out ("EBIT margin" as "operating profit margin"; a row headed ``EBIT`` is read as
    it is).

    Args:
        question: the user's words.
        holds: whether a label of the workbook holds a name.
    """
    return _ABBREVIATED.sub(
        lambda m: m.group(0) if holds(m.group(0).rstrip(".")) else ABBREVIATIONS[m.group(0).casefold()],
        question,
    )


def defined(question: str, holds: Callable[[str], bool]) -> str:
    """``question`` with the definition of each measure it names, in brackets after the name.

    Args:
        question: the user's words.
        holds: whether a label of the workbook holds a name (then the label is read, not the
            definition).

    Returns:
        The question as it was when it names no measure, defines its own, or names one the workbook
        labels; otherwise the question with each definition added.
    """
    if _DEFINES.search(question) or definition(question) is not None:
        # ("Quick ratio: cash, investments and receivables over current liabilities"; its lines
        # by the workbook's names: "operating cash flow minus capital expenditure")
        return _lines_named(question, holds)

    lines: dict[str, str] = {}  # each line's name, found once for every measure the question names

    def written(m: re.Match[str]) -> str:
        name = m.group(0)
        if holds(name):
            return name
        # (a name of the same measure that the workbook labels: "EBIT margin" over ``Operating margin``)
        same = [t for t, d in TERMS.items() if d == TERMS[name.casefold()] and holds(t)]
        if same:
            return same[0]
        if not lines:
            lines.update(_names_held(holds))
        return f"{name} (defined as {TERMS[name.casefold()].format_map(lines)})"

    return _TO_RATIO.sub(
        lambda m: m.group(0) if holds(m.group(0)) or m.group(0).casefold() in TERMS else _own_ratio(m),
        _NAMES.sub(written, question),
    )


#: The lines of :data:`LINES` by the names a question uses for them, longest first.
_LINE_NAMES = re.compile(
    r"\b(" + "|".join(re.escape(n) for n in sorted(LINES, key=len, reverse=True)) + r")\b", re.I
)


def _lines_named(question: str, holds: Callable[[str], bool]) -> str:
    """``question`` with each line of :data:`LINES` it names by a name no label holds written as the
    workbook names it ("capital expenditure" as ``Purchases of property and equipment``); names
    the workbook holds, and lines it holds under none of their names, are kept."""
    held: dict[str, str] = {}

    def named(m: re.Match[str]) -> str:
        name = m.group(0)
        if holds(name):
            return name
        rest = question[m.start() :].casefold()
        if any(rest.startswith(alias) and len(alias) > len(name) for alias in LINES[name.casefold()]):
            return name  # ("income tax expense": a name of the line already, as the statement may write it)
        if not held:
            held.update(_names_held(holds))
        own = held.get(name.casefold(), name)
        return own if holds(own) else name

    return _LINE_NAMES.sub(named, question)


#: A ratio that names its terms: "the loan-to-deposit ratio", "net-debt-to-EBITDA ratio" (not one the
#: question defines in brackets after it).
_TO_RATIO = re.compile(
    r"(?<![\w-])([^\W\d_]+(?:-[^\W\d_]+)*?)-to-([^\W\d_]+(?:-[^\W\d_]+)*)\s+ratio\b(?!\s*\()", re.I
)


def _own_ratio(m: re.Match[str]) -> str:
    """A ratio named by its terms, defined by them: the first divided by the second."""
    first, second = (g.replace("-", " ") for g in m.groups())
    return f"{m.group(0)} (defined as {first} divided by {second})"


def _names_held(holds: Callable[[str], bool]) -> dict[str, str]:
    """Each line's name as the workbook writes it: the first of its names a label holds, unless that
    name is only a word of another line's name ("taxation" in ``Profit before taxation`` is no tax
    line where ``Tax on profit`` is one); else its usual name."""
    held = {line: [n for n in names if holds(n)] for line, names in LINES.items()}
    out = {}
    for line, names in LINES.items():
        others = [n for other, found in held.items() if other != line for n in found]
        own = [
            n for n in held[line] if not any(re.search(rf"\b{re.escape(n)}\b", o) and o != n for o in others)
        ]
        # (and a name inside a longer one of the same line that a label holds: ``Net revenues``
        # over "revenue", which ``Deferred revenue`` holds too)
        own = [n for n in own if not any(n != o and re.search(rf"\b{re.escape(n)}", o) for o in own)] or own
        out[line] = next(iter(own or held[line]), names[0])
    return out


#: A total line for the part of a whole that is "non-" something: ``Total non-current liabilities``.
_NEGATED_TOTAL = re.compile(r"total non (\S+) (.+)")
#: The total of the long-term part of a whole under the names a UK statement gives it: "total long
#: term liabilities", "total fixed assets" (the current part's total beside it).
_LONG_TERM_TOTAL = re.compile(r"total (long term|fixed) (assets|liabilities)")


def totals_of_parts(question: str, texts: Iterable[str]) -> str:
    """``question`` with each "total X" that no line of the workbook totals written as the sum of
    the two lines that total its parts, "non-Y" and "Y": "total liabilities" is "(total non-current
    liabilities plus total current liabilities)" in a balance sheet that totals only those two (IFRS
    statements often give no total of liabilities, only of equity and liabilities together).

    Args:
        question: the user's words (after :func:`defined`).
        texts: the workbook's texts.
    """
    if "total" not in question.casefold():
        return question
    every = {re.sub(r"[\s-]+", " ", t.casefold()).strip() for t in texts if len(t) <= 120}
    # (only lines that hold "total" take part, and the two parts' own names where no line totals
    # either with "total": a German-style statement closes ``Non-current liabilities`` and ``Current
    # liabilities`` with their figures under those names)
    spaced = {t for t in every if "total" in t}
    unnamed: set[str] = set()  # (the wholes whose parts are named without "total")
    for whole in ("assets", "liabilities"):
        named = (f"non current {whole}", f"current {whole}")
        if all(n in every and f"total {n}" not in every for n in named):
            spaced |= {f"total {n}" for n in named}
            unnamed.add(whole)
    for text in sorted(spaced):
        m = _NEGATED_TOTAL.fullmatch(text)
        long_term = _LONG_TERM_TOTAL.fullmatch(text)
        if m is not None:
            part, whole = m.groups()
            other = f"total non-{part} {whole}"
        elif long_term is not None:  # (a UK statement's "total long term liabilities", "total fixed assets")
            part, whole = "current", long_term.group(2)
            other = text
        else:
            continue
        if f"total {part} {whole}" not in spaced or f"total {whole}" in spaced:
            continue
        words_ = r"[\s-]+".join(re.escape(w) for w in whole.split())
        sum_ = f"({other} plus total {part} {whole})"
        if whole in unnamed:
            sum_ = f"(non-{part} {whole} plus {part} {whole})"

        def parts(found: re.Match[str], sum_: str = sum_, whole: str = whole) -> str:
            # (not "total liabilities and equity" where a line totals both: ``Total equity and
            # liabilities``)
            joined = (found.group("joined") or "").casefold()
            if joined not in ("", "total") and any(
                t.startswith("total ") and {joined, *whole.split()} <= set(t.split()) for t in spaced
            ):
                return found.group(0)
            after = re.sub(r"[\s-]+", " ", found.string[found.start() :].casefold())
            if any(t.startswith(f"total {whole} ") and after.startswith(t) for t in spaced):
                return found.group(0)  # ("total assets less current liabilities", a line of its own)
            return sum_ + found.group(0)[len(found.group("total")) :]  # (the "and ..." kept)

        question = re.sub(
            rf"(?P<total>\btotal\s+{words_})\b(?:\s+(?:and|&)\s+(?P<joined>[^\W\d_]+))?",
            parts,
            question,
            flags=re.IGNORECASE,
        )
    return question


#: Two qualifiers joined before the noun they share: "guarantor and non-guarantor subsidiaries".
_ELIDED = re.compile(
    r"\b(?P<a>[^\W\d_][\w-]*)\s+(?P<conj>and|or|&)\s+(?P<b>[^\W\d_][\w-]*)\s+(?P<n>[^\W\d_]+(?:\s+[^\W\d_]+)?)",
    re.IGNORECASE,
)


def _as_name(text: str) -> str:
    """A text as :func:`elided_heads` compares it: no marks, case, hyphens, leading "total" or colon."""
    out = re.sub(r"[\s-]+", " ", without_marks(text).casefold()).strip(" :")
    return out.removeprefix("total ")


def elided_heads(question: str, texts: Iterable[str]) -> str:
    """``question`` with a noun two qualifiers share written after each, where the workbook writes
    both as names (headers or labels): "the guarantor and non-guarantor subsidiaries" is "the
    guarantor subsidiaries and non-guarantor subsidiaries" beside ``Guarantor Subsidiaries`` and
    ``Non-Guarantor Subsidiaries`` -- the first qualifier alone reads as a word of the second name.

    Args:
        question: the user's words.
        texts: the workbook's texts.
    """
    if not _ELIDED.search(question):
        return question
    names = {_as_name(t) for t in texts if len(t) <= 80}

    def spelt(m: re.Match[str]) -> str:
        a, b, noun = m.group("a"), m.group("b"), m.group("n")
        for n in (noun, noun.split()[0]):  # (the shared noun: two words, or one)
            rest = noun[len(n) :]
            pair = (_as_name(f"{a} {n}"), _as_name(f"{b} {n}"))
            if pair[0] != pair[1] and all(p in names for p in pair):
                return f"{a} {n} {m.group('conj')} {b} {n}{rest}"
        return m.group(0)

    return _ELIDED.sub(spelt, question)


#: Names the three vocabularies of financial statements give one thing: IFRS (IAS 1), US GAAP and
#: the UK Companies Act formats. A question may use any of them over a statement that uses another
#: ("stock" over ``Inventories``, "on a consolidated basis" over a ``Group`` column). Each group is
#: a crosswalk between standards, not words taken from any table or question; the first name a
#: table holds is the one a name it does not hold is read as.
#: Property, plant and equipment where a table heads it ``Fixed assets`` and names no such line: a
#: question's "PP&E" is that line (a UK table's ``Fixed assets`` that totals other lines is not asked
#: so: one way only).
_FIXED_AS_PPE = (
    "fixed assets",
    "property, plant and equipment",
    "property and equipment",
    "tangible assets",
    "tangible fixed assets",
)
SAME_THING: tuple[tuple[str, ...], ...] = (
    ("group", "consolidated"),
    # (the UK format's ``Company`` columns beside ``Group`` are the parent's own figures; only read
    # one way, see :data:`_ONE_WAY`: "company" is no parent in a table that heads a ``Parent`` column)
    ("company", "parent company", "parent"),
    # (a consolidating statement's column of amounts taken out: what is "eliminated on consolidation")
    (
        "eliminations",
        "eliminated on consolidation",
        "eliminated in consolidation",
        "consolidation adjustments",
    ),
    ("inventories", "inventory", "stocks", "stock"),
    (
        "trade and other receivables",
        "accounts receivable",
        "trade receivables",
        "trade debtors",
        "receivables",
        "debtors",
    ),
    ("trade and other payables", "accounts payable", "trade payables", "trade creditors", "payables"),
    (
        "creditors: amounts falling due within one year",
        "current liabilities",
        "short term creditors",
        "current creditors",
        "creditors due within one year",
        "creditors falling due within one year",
    ),
    (
        "creditors: amounts falling due after more than one year",
        "long term creditors",
        "non current creditors",
        "creditors due after one year",
        "creditors due after more than one year",
        "creditors falling due after more than one year",
        "creditors falling due after one year",
    ),
    ("current", "short term", "due within one year"),
    ("non current", "long term", "due after more than one year"),
    ("revenue", "turnover", "net sales", "sales", "top line"),
    (
        "net income",
        "profit for the year",
        "profit for the financial year",
        "net profit",
        "net earnings",
        "bottom line profit",
        "bottom line",
    ),
    (
        "shareholders' funds",
        "total equity",
        "total shareholders' equity",
        "total stockholders' equity",
        "shareholders' equity",
        "stockholders' equity",
    ),
    # (tangible assets are property, plant and equipment in any standard's words; a US statement's
    # ``Fixed assets, net`` is that line too: read one way, see :data:`_ONE_WAY`)
    ("property, plant and equipment", "property and equipment", "tangible assets", "tangible fixed assets"),
    _FIXED_AS_PPE,
    ("fixed assets", "non current assets"),
    ("operating profit", "operating income", "profit from operations", "income from operations"),
    (
        "profit before tax",
        "profit before taxation",
        "profit before income tax",
        "income before income taxes",
        "pre-tax profit",
        "pre-tax income",
        "pretax income",
        "income before taxes",
        "income before provision for income taxes",
        "earnings before income taxes",
    ),
    ("income tax expense", "tax on profit", "taxation", "provision for income taxes", "tax charge"),
    ("cost of sales", "cost of goods sold", "cost of revenue"),
    ("share capital", "called up share capital", "common stock"),
    ("share premium", "share premium account", "additional paid-in capital"),
    ("retained earnings", "accumulated profits", "retained profits", "profit and loss account"),
    (
        "finance costs",
        "interest expense",
        "finance expense",
        "interest costs",
        "interest payable and similar expenses",
        "interest payable and similar charges",
    ),
    ("non-controlling interests", "minority interests"),
    ("cash and cash equivalents", "cash at bank and in hand"),
    # (a cash flow statement's lines by the names analysts give them)
    (
        "purchases of property and equipment",
        "purchases of property, plant and equipment",
        "purchase of property, plant and equipment",
        "purchase of property and equipment",
        "capital expenditures",
        "capital expenditure",
    ),
    # (the totals of a cash flow statement's three sections, by their names under IFRS, US GAAP and
    # UK GAAP and by the names analysts give them; not "net cash inflow from ...", which asks a sign)
    *(
        (
            f"net cash from {kind} activities",
            f"net cash generated from {kind} activities",
            f"net cash provided by {kind} activities",
            f"net cash used in {kind} activities",
            f"net cash used by {kind} activities",
            f"net cash flows from {kind} activities",
            f"net cash flow from {kind} activities",
            f"net cash provided by (used in) {kind} activities",
            f"net cash (used in)/from {kind} activities",
            f"net cash from/(used in) {kind} activities",
            f"net {kind} cash flow",
            f"{kind} cash flow",
        )
        for kind in ("operating", "investing", "financing")
    ),
    (
        "net increase (decrease) in cash and cash equivalents",
        "net increase in cash and cash equivalents",
        "net change in cash and cash equivalents",
        "net change in cash",
    ),
    (
        "changes in operating assets and liabilities",
        "working capital changes",
        "working-capital change",
        "changes in working capital",
    ),
    (
        "cash and cash equivalents at end",
        "cash and cash equivalents at the end",
        "closing cash and cash equivalents",
        "closing cash",
        "ending cash",
    ),
    (
        "cash and cash equivalents at beginning",
        "cash and cash equivalents at the beginning",
        "opening cash and cash equivalents",
        "opening cash",
        "beginning cash",
    ),
    # (a statement's balance columns: CAS and movement tables write ``Closing balance``, ``Opening
    # balance`` where a question says when)
    ("closing balance", "end of the year", "end of year", "end of the period", "end of period"),
    (
        "opening balance",
        "beginning of the year",
        "beginning of year",
        "start of the year",
        "beginning of the period",
        "start of the period",
    ),
)

#: Groups of :data:`SAME_THING` read only as their first name: the others name it, it names none of
#: them ("the company" is any reporting company, where "the parent" is the ``Company`` column).
_ONE_WAY = frozenset({("company", "parent company", "parent"), _FIXED_AS_PPE})


def _spaced(text: str) -> str:
    """A text as the stems of its words, one space apart ("Trade receivables" as "trade receiv"),
    without the footnote marks it ends with (``Other operating income¹``)."""
    return " ".join(stem(w) for w in re.findall(r"[^\W_]+(?:'[^\W_]+)?", without_marks(text).casefold()))


def _holds(text: str, name: str) -> bool:
    """Whether ``text`` holds ``name`` as whole words, by their stems (both as :func:`_spaced`)."""
    return re.search(rf"(?<!\S){re.escape(_spaced(name))}(?!\S)", text) is not None


def _either_number(word: str) -> str:
    """A pattern for a word, singular or plural ("inventory", "inventories")."""
    if word.endswith("ies"):
        return re.escape(word[:-3]) + "(?:y|ies)"
    if word.endswith("y"):
        return re.escape(word[:-1]) + "(?:y|ies)"
    return re.escape(word.removesuffix("s")) + "(?:e?s)?"


#: Capitals written as a word, two to six ("FHLB", "NAV"), perhaps with a plural "s".
_CAPITALS = re.compile(r"(?<![\w.&-])([A-Z]{2,6})s?(?![\w&.-])")
#: Words an initialism may leave out ("Cost of goods sold": COGS or CGS).
_SMALL_WORDS = frozenset(
    {"of", "and", "the", "for", "to", "in", "on", "a", "an", "at", "by", "through", "with"}
)


def initials_written_out(question: str, texts: Iterable[str], held: Iterable[str] = ()) -> str:
    """``question`` with each initialism it writes in capitals ("FHLB advances") spelt as the run of
    words of a label whose initials it is (``Federal Home Loan Bank advances``; "financial assets at
    FVOCI": ``... at fair value through other comprehensive income``), where the label goes on with
    the word the question writes next or comes after the one it writes before, exactly one run
    fits, and no text nor cell value ``held`` holds the capitals as a word of its own (``NYSE`` in a
    column of exchanges) nor has them as the initials of its whole (``ROCE``:
    :func:`gridsight.qa._sqlgen.initials_of` reads those); grammar words may be left out of the
    initials. Every other word is left as written."""
    texts = [t for t in texts if isinstance(t, str) and len(t) <= 200]
    own_words = {w.casefold() for t in [*texts, *held] for w in re.findall(r"[^\W_]+", str(t))}
    whole = {i for t in texts for i in initials_of(t)}  # (a whole label's initials are read as they are)
    for m in reversed(list(_CAPITALS.finditer(question))):
        caps = m.group(1)
        if caps.casefold() in own_words or caps.casefold() in whole:
            continue
        following = re.match(r"\W*([^\W\d_]+)", question[m.end() :])
        before = [
            w for w in re.findall(r"[^\W\d_]+", question[: m.start()]) if w.casefold() not in _SMALL_WORDS
        ]
        beside = (
            stem(before[-1].casefold()) if before else "",
            stem(following.group(1).casefold()) if following else "",
        )
        runs = {run for t in texts for run in _initials_run(caps, re.findall(r"[^\W\d_]+", t), beside)}
        if len(runs) == 1:
            question = question[: m.start()] + runs.pop() + question[m.end() :]
    return question


def initialisms_said(question: str, texts: Iterable[str]) -> str:
    """``question`` with a run of three to six of its words written as the capitals of a text that
    are their initials, grammar words counted or not ("staff costs year to date" over a ``YTD``
    column; "the liquidity coverage ratio" over ``LCR``), where exactly one text's capitals fit the
    run and the question does not write them already. Two letters are left alone: any two words
    have initials ("under key" is no ``UK``)."""
    texts = [t for t in texts if isinstance(t, str) and len(t) <= 200]
    capitals = {m.group(1) for t in texts for m in _CAPITALS.finditer(t) if len(m.group(1)) >= 3}
    capitals -= {m.group(1) for m in _CAPITALS.finditer(question)}
    if not capitals:
        return question
    held = "\n".join(_spaced(t) for t in texts)
    said = list(re.finditer(r"[^\W\d_]+", question))
    limit = len(question)  # (runs are written from the last; one never reaches into another)
    for i in range(len(said) - 1, -1, -1):
        for run in range(6, 2, -1):
            found = _initials_of_run(said[i : i + run + 3], run, capitals)
            if found is not None and found[1] <= limit:
                caps, end = found
                words_ = question[said[i].start() : end]
                if (
                    _holds(held, words_)
                    or {words_.split()[0].casefold(), words_.split()[-1].casefold()} & _SMALL_WORDS
                ):
                    continue  # (the texts write the words out; "a big cat" spells no ``ABC``)
                question, limit = question[: said[i].start()] + caps + question[end:], said[i].start()
                break
    return question


def _initials_of_run(said: list[re.Match[str]], letters: int, capitals: set[str]) -> tuple[str, int] | None:
    """The one text's capitals of ``letters`` letters that the first words of ``said`` spell, all
    words counted or grammar words left out, with where the run ends; None if none or several."""
    fits: set[tuple[str, int]] = set()
    for skip in (False, True):
        initials, end = "", 0
        for j, m in enumerate(said):
            if skip and j > 0 and m.group(0).casefold() in _SMALL_WORDS:
                continue
            initials, end = initials + m.group(0)[0].upper(), m.end()
            if len(initials) == letters:
                break
        if len(initials) == letters and initials in capitals:
            fits.add((initials, end))
    return fits.pop() if len({c for c, _ in fits}) == 1 and len(fits) == 1 else None


def _initials_run(caps: str, said: list[str], beside: tuple[str, str]) -> set[str]:
    """The runs of the words ``said`` whose initials are ``caps`` (grammar words may be left out),
    lower case, where the words go on as the question does on one side: the stems ``beside`` are
    the question's word before the capitals (grammar words aside) and its word after them."""
    out: set[str] = set()
    for i, first in enumerate(said):
        if first.casefold() in _SMALL_WORDS:
            continue
        got = ""
        for j in range(i, min(len(said), i + 2 * len(caps))):
            w = said[j]
            if w.casefold() not in _SMALL_WORDS or caps[len(got) :].startswith(w[0].upper()):
                if w[0].upper() != caps[len(got)]:
                    break
                got += w[0].upper()
            if got == caps:
                ahead = [w for w in said[:i] if w.casefold() not in _SMALL_WORDS]
                goes_on = j + 1 < len(said) and stem(said[j + 1].casefold()) == beside[1]
                comes_after = bool(ahead) and stem(ahead[-1].casefold()) == beside[0]
                if goes_on or comes_after:
                    out.add(" ".join(said[i : j + 1]).casefold())
                break
    return out


def in_own_terms(question: str, texts: Iterable[str]) -> str:
    """``question`` with each statement name that no text of the table holds written as the name
    of the same thing that one does (see :data:`SAME_THING`): "the % change in stock in the
    consolidated accounts" over ``Stocks`` under ``Group`` is read as "... in stock in the group
    accounts". A name the table holds is left as written, and so is every other word.

    Args:
        question: the user's words.
        texts: the chosen table's row labels, sections and header parts.
    """
    texts = [t for t in texts if isinstance(t, str) and len(t) <= 200]
    # (a label names its head, not what an "of" phrase qualifies it by: ``Cost of sales`` holds no
    # "sales" that ``Revenue`` could be named by; ``Total assets less current liabilities`` holds no
    # current liabilities)
    held = "\n".join(
        _spaced(re.split(r"\s+(?:of|less|minus)\s+", t, maxsplit=1, flags=re.I)[0]) for t in texts
    )
    low = _spaced(question)
    # (the labels the question writes out whole keep their words: "cost of sales" is ``Cost of sales``)
    written = [t for t in texts if _holds(low, t)]
    whole = [_spaced(t) for t in written]
    labels = [_spaced(t) for t in texts]  # (whole, for names with "of": ``Purchases of property ...``)
    lines = {t.strip().casefold() for t in texts if len(t.split()) == 1}
    for names in SAME_THING:
        if names in _ONE_WAY and not _holds(held, names[0]):
            continue
        own = next((n for n in names if _holds(held, n)), None) or next(
            (n for n in names if " of " in n and any(_spaced(n) == t for t in labels)), None
        )
        if own is None:
            continue
        for name in sorted(set(names) - {own}, key=len, reverse=True):
            if (
                (_holds(held, name) and not _head_of(name, own, labels, question))
                or not _holds(low, name)
                or _spaced(name) == _spaced(own)
            ):
                continue
            if any(_holds(w, name) for w in whole):
                continue
            if own in name or any(
                _spaced(name) in _spaced(o) and _spaced(name) != _spaced(o) and _holds(low, o)
                for o in names
                if o != name
            ):
                continue  # ("net sales" holds "sales"; "non current" holds "current")
            pattern = r"[\s\-\u2010-\u2013]+".join(_either_number(w) for w in name.split())
            question = re.sub(
                rf"(?<![\w-]){pattern}(?![\w-])",
                partial(_own_name, own=own, lines=lines, names=names, labels=written),
                question,
                flags=re.I,
            )
            low = _spaced(question)
    return question


def _head_of(name: str, own: str, labels: list[str], question: str) -> bool:
    """Whether the one word ``name`` is the head of the table's own name for the thing (plural or
    not), no line is headed by it alone, and the question names a line by it, not a kind of lines
    ("which payables line"): "receivables" over ``Accounts receivable, net`` beside ``Tax
    receivable`` means the trade receivables, whose names hold the word only as a qualified one."""
    said, heads = _spaced(name).split(), _spaced(own).split()
    kind = re.search(
        rf"\b(?:which|among|of\s+the|all)\s+{re.escape(name)}\b|\b{re.escape(name)}\s+(?:lines?|items?|categor)",
        question,
        re.IGNORECASE,
    )
    return len(said) == 1 and len(heads) > 1 and heads[-1] == said[0] and said[0] not in labels and not kind


def _own_name(
    m: re.Match[str], own: str, lines: AbstractSet[str], names: Iterable[str], labels: Iterable[str] = ()
) -> str:
    """The table's own name ``own`` for the name ``m`` found, unless that only qualifies a line or
    starts inside a label the question writes out ("gross profit for the year": ``Gross profit``,
    for a period; no "profit for the year")."""
    if _qualifies_a_label(m, lines, names) or _inside_label(m, labels):
        return m.group(0)
    return own


def _inside_label(m: re.Match[str], labels: Iterable[str]) -> bool:
    """Whether a label of ``labels``, written out in ``m``'s string, starts before ``m`` and runs
    into it."""
    low = m.string.casefold()
    for label in labels:
        words_ = re.findall(r"[^\W_]+", label.casefold())
        if len(words_) < 2:
            continue
        for found in re.finditer(r"(?<!\w)" + r"\W+".join(map(re.escape, words_)) + r"(?!\w)", low):
            if found.start() < m.start() < found.end():
                return True
    return False


def _qualifies_a_label(m: re.Match[str], lines: AbstractSet[str], names: Iterable[str]) -> bool:
    """Whether the one word ``m`` found is no name itself, only a form of one (the adjective
    "payable" beside "payables"), and comes right after a word that is a whole text of the table, and
    so only qualifies that line: "VAT payable" over a ``VAT`` line names no payables ("closing stock"
    is stock, a name as written)."""
    word = m.group(0).strip().casefold()
    before = re.search(r"([^\W_]+)\s+$", m.string[: m.start()])
    return (
        " " not in word and word not in names and before is not None and before.group(1).casefold() in lines
    )


#: A name and a definition in brackets right after it: "the natural increase (live births minus deaths)".
_DEFINED_AFTER = re.compile(r"(?P<name>[^\W\d_][\w'’\- ]{0,60}?)\s*\((?P<definition>[^()]{3,200})\)")


def named_not_defined(question: str, texts: Iterable[str], places: Iterable[str] = ()) -> str:
    """``question`` without the definition it writes in brackets after a name that the table holds
    as a label or header of its own: "the natural increase (live births minus deaths)" over a
    ``Natural increase`` column reads the column, as a measure the workbook labels is read as it is.

    Args:
        question: the user's words (after the table is chosen).
        texts: the chosen table's row labels, sections and header parts.
        places: the table's sections: a bracket of their words only is where the name stands
            ("total borrowings (non-current plus current)"), kept.
    """
    held = [_spaced(t) for t in texts if isinstance(t, str) and 0 < len(t) <= 200]
    if "(" not in question or not held:
        return question
    place_words = {w for p in places if isinstance(p, str) for w in _spaced(p).split()}

    def drop(m: re.Match[str]) -> str:
        defines = _DEFINES.search(m.group("definition"))
        if not defines:
            return m.group(0)  # ("in 2024 (actual)": no definition, a part of what is named)
        first = _spaced(m.group("definition")[: defines.start()]).strip()
        if first and first in _spaced(question[: m.start("definition") - 1]):
            return m.group(0)  # ("between A and B (A minus B)": the order, of two things named already)
        own = set(_spaced(_DEFINES.sub(" ", m.group("definition"))).split()) - {"and", "the"}
        if own and own <= place_words:
            return m.group(0)  # ("borrowings (non-current plus current)": its places, no definition)
        words = _spaced(m.group("name")).split()
        # the name's last words (one to four, a word of letters among them) are a whole label
        for n in range(min(4, len(words)), 0, -1):
            tail = words[-n:]
            if " ".join(tail) in held and any(w.isalpha() for w in tail):
                return m.group("name")
        return m.group(0)

    return _DEFINED_AFTER.sub(drop, question)


#: "whose operating profit was negative", "components with a positive balance", "was an outflow",
#: "were cash outflows": a sign as a bound.
_SIGNED = re.compile(
    r"\b(was|were|is|are|had|has|have|with|showed|shows|reported|recorded|carry|carries|carried|bear|bears"
    r"|show)\s+(?:an?\s+)?(?:net\s+)?(?:cash\s+)?(negative|positive|outflow|inflow)s?\b(?:\s+sign\b)?",
    re.IGNORECASE,
)  # ("which lines carry a negative sign": below 0)

#: "was there a net cash outflow from investing activities in 2024", "did financing activities
#: generate net cash in 2024": a cash flow's sign asked of the flow itself.
_FLOW_ASKED = re.compile(
    r"^\s*(?:(?:was|were)\s+there|did\s+(?:the\s+)?(?:company|group|entity|business|it)\s+(?:have|record|"
    r"report|show))\s+(?:an?\s+)?(?:net\s+)?(?:cash\s+)?(?P<sign>outflow|inflow)\s+(?:from|in|of|on)\s+"
    r"(?:the\s+)?(?P<what>[^?]+?)\s*\??\s*$"
    r"|^\s*did\s+(?:the\s+)?(?P<what2>[^?]+?)\s+(?P<made>generate|provide|produce|use|consume)\s+(?:net\s+)?"
    r"cash\b(?P<rest>[^?]*)\??\s*$",
    re.IGNORECASE,
)


#: "were financing cash flows negative overall in 2024?", "in how many months was EBITDA negative?":
#: the sign asked after the figure's name.
_SIGN_ASKED = re.compile(
    r"(?:^|(?<=\bmonths\s)|(?<=\byears\s)|(?<=\bquarters\s)|(?<=\bperiods\s)|(?<=\bmonth\s)|(?<=\byear\s)"
    r"|(?<=\bquarter\s)|(?<=\bperiod\s))"
    r"(\s*(?:was|were|is|are)\s+(?!there\b)[^?;]{3,120}?)\s+(?:an?\s+)?(?:net\s+)?(negative|positive|outflow|inflow)\b"
    r"(?!\s+(?:amounts?|figures?|numbers?|values?)\b)",
    re.IGNORECASE,
)


def signs_as_bounds(question: str, own: Iterable[str]) -> str:
    """``question`` with a sign asked of a figure written as a bound: "was negative" as "was below
    0", "had a positive balance" as "had above 0 balance", "were financing cash flows negative" as
    "were financing cash flows below 0" -- unless the table names a line or column by that word
    (``Negative goodwill``)."""
    flow = _FLOW_ASKED.match(question)
    if flow is not None:  # (the flow's sign: "was net cash from investing activities in 2024 below 0")
        if flow.group("sign"):
            below, what = flow.group("sign").casefold() == "outflow", flow.group("what")
        else:
            below = flow.group("made").casefold() in ("use", "consume")
            what = f"{flow.group('what2')}{flow.group('rest')}"
        question = f"Was net cash from {what} {'below' if below else 'above'} 0?"
    if not _SIGNED.search(question) and not _SIGN_ASKED.search(question):
        return question  # (most questions ask no sign: the table's words are not read for them)
    held = {w for text in own for w in re.findall(r"[a-z]+", text.casefold())}

    def bound(m: re.Match[str]) -> str:
        sign = m.group(2).casefold()
        below = sign in ("negative", "outflow")
        return m.group(0) if sign in held else f"{m.group(1)} {'below' if below else 'above'} 0"

    return _SIGN_ASKED.sub(bound, _SIGNED.sub(bound, question))


#: A loss said where the statement writes only its profit: "was there a net loss", "made an operating
#: loss", "a loss before tax".
_LOSS = re.compile(
    r"\b(?:(?P<asked>was\s+there)|there\s+was|(?:made|make|makes|making|recorded|reported|showed|shows|show"
    r"|had|has|have|posted))\s+an?\s+(?P<kind>net|operating|gross|pre-?tax)?\s*loss\b",
    re.IGNORECASE,
)


def losses_as_signs(question: str, own: Iterable[str]) -> str:
    """``question`` with a loss asked of a statement that names only the profit written as that
    profit below 0: "in how many months was there a net loss" over ``Net profit`` is "in how many
    months was net profit below 0" -- unless a text of the table says "loss" (``Profit/(loss) for
    the year`` is read as it is), or it writes no such profit."""
    if not _LOSS.search(question):
        return question
    texts = [t.casefold() for t in own if isinstance(t, str)]
    if any(re.search(r"\bloss(?:es)?\b", t) for t in texts):
        return question

    def signed(m: re.Match[str]) -> str:
        kind = (m.group("kind") or "").casefold()
        profit = f"{kind} profit".strip()
        if not any(re.search(rf"\b{re.escape(profit)}\b", t) for t in texts):
            return m.group(0)
        return f"was {profit} below 0" if m.group("asked") else f"{profit} was below 0"

    return _LOSS.sub(signed, question)


#: "intangible assets other than goodwill", "receivables excluding trade receivables": a whole less a
#: part, up to the next preposition or mark.
_LESS_A_PART = r"\s+(?:other\s+than|excluding|except(?:\s+for)?|besides|apart\s+from)\s+(?:the\s+)?(.+?)" + (
    r"(?=\s+(?:in|at|for|on|during|as|from|between|over|under|within|was|were|is|did|and)\b|[,.;:?()]|$)"
)


#: "long-term debt, including its current portion": the line and the part of it due within a year.
_WITH_CURRENT_PORTION = re.compile(
    r"\b(?P<verb>was|were|is|are|of|the|total)\s+(?P<line>(?:[\w'-]+\s+){0,3}?[\w'-]+),?\s+"
    r"including\s+(?:its|the)\s+current\s+portion\b,?",
    re.IGNORECASE,
)


def current_portion_added(question: str, texts: Iterable[str]) -> str:
    """``question`` with "X, including its current portion" written as "X plus the current portion
    of X", where a text of the table names a current portion (``Current portion of long-term
    debt``): the two lines added up."""
    if not any(isinstance(t, str) and "current portion" in t.casefold() for t in texts):
        return question

    def added(m: re.Match[str]) -> str:
        line = m.group("line")
        bare = re.sub(r"^total\s+", "", line, flags=re.IGNORECASE)  # (a portion "of total X" is a share)
        return f"{m.group('verb')} {line} plus the current portion of {bare}"

    return _WITH_CURRENT_PORTION.sub(added, question)


#: A clause that leaves lines out, written before what it leaves them out of: "Excluding cash, what
#: were total current assets in 2025?"
_LEADING_EXCLUSION = re.compile(
    r"^\s*(?P<clause>(?:excluding|leaving\s+out|apart\s+from|not\s+counting|other\s+than)\s+[^,?]{2,80}?),"
    r"\s*(?P<rest>[^?]+?)\s*(?P<end>[?.!]*)\s*$",
    re.IGNORECASE,
)


def exclusion_after(question: str) -> str:
    """``question`` with a leading clause that leaves something out written after the figure it asks
    ("What were total current assets in 2025 excluding cash?"), where the routes read such a clause;
    a count or a ranking after it keeps its order (their routes read the clause first)."""
    m = _LEADING_EXCLUSION.match(question)
    if m is None or not re.match(r"(?:what|how\s+much)\b", m.group("rest"), re.IGNORECASE):
        return question  # ("Excluding the total, how many industries ...": lines counted, read as written)
    rest = m.group("rest")
    return (
        f"{rest[:1].upper()}{rest[1:]} {m.group('clause')[:1].lower()}{m.group('clause')[1:]}{m.group('end')}"
    )


#: "total non-current liabilities", "noncurrent assets", "long-term assets": the part of a whole that
#: is not current.
_NON_CURRENT = re.compile(
    r"\b(?:the\s+)?(?:total\s+)?(?:non[- ]?current|long[- ]term)\s+(assets|liabilities)\b", re.IGNORECASE
)
#: Words that set a figure against another: where the complement stands inside such a question,
#: its arithmetic is left to the routes as written.
_RELATES = re.compile(r"\b(?:share|ratio|percent(?:age)?|proportion|divided|over|per|fraction)\b|%", re.I)


#: A question about the lines of a group, not its figure: a count, a choice, a ranking.
_AMONG_LINES = re.compile(
    r"\b(?:how\s+many|number\s+of|which|list|name|rank\w*|largest|smallest|biggest|highest|lowest)\b",
    re.IGNORECASE,
)


def complement_named(question: str, texts: Iterable[str]) -> str:
    """``question`` with "total non-current liabilities" written as "(total liabilities minus total
    current liabilities)" where the table names no line nor section non-current (a US balance
    sheet lists its long-term lines under no heading) but has both totals; the figure asked alone,
    not within a share or a ratio."""
    m = _NON_CURRENT.search(question)
    if m is None or _RELATES.search(question) or _AMONG_LINES.search(question):
        return question
    noun = m.group(1).casefold()
    low = {re.sub(r"\s+", " ", t.casefold().strip().rstrip(":")) for t in texts if isinstance(t, str)}
    before = re.findall(r"[^\W\d_]+", question[: m.start()].casefold())[-1:]
    if before and before[0] in ("other", "within", "under", "among", "inside", "in"):
        return question  # (``Other long-term liabilities``; a line placed "within non-current liabilities")
    said = re.sub(r"\s+", " ", question.casefold())
    if any(
        t in said and m.group(0).casefold().removeprefix("the ") in t and len(t) > len(m.group(0))
        for t in low
    ):
        return question  # (a label the question writes that holds the words)
    # (a line or section of that name; ``Other non-current liabilities`` is one line of them)
    if any(re.fullmatch(rf"(?:total\s+)?(?:non[- ]?current|long[- ]term)\s+{noun}", t) for t in low):
        return question
    if f"total {noun}" not in low or f"total current {noun}" not in low:
        return question
    return f"{question[: m.start()]}(total {noun} minus total current {noun}){question[m.end() :]}"


def others_named(question: str, texts: Iterable[str]) -> str:
    """``question`` with "X other than Y" written as the table's own ``Other X`` line, where the
    table has one and Y names another of its lines ("intangible assets other than goodwill" over
    ``Goodwill`` and ``Other intangible assets``)."""
    texts = [t for t in texts if isinstance(t, str) and len(t) <= 200]
    labels = {t.casefold().strip() for t in texts}
    for text in texts:
        m = re.match(r"\s*other\s+(.+)", text, re.IGNORECASE)
        if m is None:
            continue
        rest = m.group(1).strip()
        pattern = re.compile(r"\b" + re.escape(rest) + _LESS_A_PART, re.IGNORECASE)
        found = pattern.search(question)
        if found is None or not any(found.group(1).casefold() in label for label in labels):
            continue
        question = question[: found.start()] + text.strip() + question[found.end() :]
    return question

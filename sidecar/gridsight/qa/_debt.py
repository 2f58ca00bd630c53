"""Debt said as a whole: "total borrowings", "total debt", "gross debt", or "borrowings" and "debt"
alone ("net debt (total borrowings minus cash)"), where no line of the workbook is headed so.

A balance sheet spreads its borrowings over several lines (``Current portion of long-term debt``,
``Long-term debt, less current portion``, ``Short-term borrowings``, ``Notes payable``), and an IFRS
one writes ``Borrowings`` twice, under current and non-current liabilities. Read by its words alone,
"total borrowings" finds a line that only mentions them (``Proceeds from borrowings`` in the cash-flow
statement). The phrase is written out instead as the lines that carry debt, added up: each label
that names a kind of debt (debt, borrowings, loans, notes payable, bonds, debentures, overdrafts, a
credit facility, commercial paper) and is no flow, cost, asset or measure of it (``Repayments of
debt``, ``Interest expense``, ``Loans to customers``, ``Net debt``). A label written twice is read as
its current and its non-current line.

These are the textbook's kinds of interest-bearing debt, not words taken from any table. Lease
liabilities are left out: they are a liability of their own, and definitions of net debt differ on
them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from gridsight.text import without_marks

#: A label that names a kind of interest-bearing debt.
_DEBT_LINE = re.compile(
    r"\b(?:debt|borrowings?|loans?|notes\s+payable|(?:senior|convertible|unsecured|secured|subordinated)"
    r"\s+notes|bonds?|debentures?|overdrafts?|credit\s+facilit(?:y|ies)|commercial\s+paper)\b",
    re.IGNORECASE,
)
#: Words that make a label with a debt word something else: a flow of cash, a cost, an asset, a
#: measure, a total or a reconciliation's line.
_NOT_DEBT = re.compile(
    r"\b(?:proceeds|repayments?|repaid|repay|issuance|issued|issue|interest\s+(?:expense|paid|payable|"
    r"income|cost|on)|expenses?|costs?|gains?|loss(?:es)?|extinguishment|forgiveness|receivables?|to|from|"
    r"ratio|per|net|total|equity|securities|investments?|fair\s+value|changes?|increase|decrease|"
    r"movement|maturities|maturity|covenants?)\b",
    re.IGNORECASE,
)
#: Debt asked as a whole: "total borrowings", "gross debt", "the debt", "borrowings".
_ASKED = re.compile(
    r"(?<![\w-])(?:(?P<whole>total|gross|all|overall)\s+)?(?P<noun>borrowings|debt|indebtedness)(?![\w-])",
    re.IGNORECASE,
)
#: A definition the question states after a name: "total borrowings, calculated as ...".
_STATED = re.compile(
    r"\b(?:calculated|computed|defined|measured|taken|worked\s+out)\s+as\b|\bi\.\s?e\.", re.IGNORECASE
)
#: How far after the name a definition of it may start.
_DEFINED_WITHIN = 40
#: Words that may stand right before "debt" or "borrowings" said alone (not "net debt", "long-term
#: debt", "bank borrowings": kinds of it).
_BEFORE = frozenset(
    "the its their our of in was were is are and or what how much on at for with plus minus less "
    "by as had has have did does".split()
)
#: Words after the noun that make it part of another name ("debt securities", "debt to equity").
_AFTER = frozenset(
    "to ratio securities issuance issued instruments service covenants maturity maturities holders "
    "costs cost expense repayment repayments portion classified due falling within under included shown "
    "listed presented recorded reported current non-current".split()
)
#: A word of arithmetic inside a label.
_OPERATOR = re.compile(r"\b(?:less|minus|plus|net\s+of|divided|over|excluding)\b|[/+]", re.IGNORECASE)
#: The most labels read as debt lines; more is a note listing instruments, not a balance sheet.
_MAX_LINES = 8


def _name(text: str) -> str:
    return re.sub(r"\s+", " ", without_marks(text)).strip(" :").casefold()


def _said_whole(m: re.Match[str]) -> bool:
    """Whether the match says debt as a whole, not a kind of it or a part of another name."""
    before = re.findall(r"[\w'’]+", m.string[: m.start()])
    after = re.match(r"\s*([^\W\d_]+)", m.string[m.end() :])
    if after is not None and after.group(1).casefold() in _AFTER:
        return False
    if re.match(r"\s*\(", m.string[m.end() :]):
        return False  # ("total borrowings (current and non-current)": the question says which lines)
    if m.group("whole"):
        return not before or before[-1].casefold() != "net"
    return not before or before[-1].casefold() in _BEFORE or before[-1].endswith(("'s", "’s"))


def _defined_after(m: re.Match[str]) -> bool:
    """Whether the question says what it takes the debt named to be, right after it ("total
    borrowings in 2023, calculated as A plus B")."""
    return _STATED.search(m.string[m.end() : m.end() + _DEFINED_WITHIN]) is not None


def debt_lines(cells: Iterable[str]) -> list[tuple[str, int]]:
    """The labels among ``cells`` (text cells, repeats kept, in the workbook's order) that carry
    debt, each with how many times it is written."""
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for text in cells:
        if len(text) > 80 or not _DEBT_LINE.search(text) or _NOT_DEBT.search(text):
            continue
        name = _name(text)
        counts[name] += 1
        first.setdefault(name, without_marks(text).strip(" :"))
    return [(first[n], counts[n]) for n in first]


def debt_written_out(question: str, cells: Callable[[], Iterable[str]]) -> str:
    """``question`` with debt said as a whole written as the lines that carry it, added up
    ("net debt (total borrowings minus cash)" as "net debt (Current portion of long-term debt plus
    Long-term debt minus cash)"), where no label is headed with the words said.

    Args:
        question: the user's words.
        cells: the workbook's text cells, repeats kept, in order (read only when the question says
            debt as a whole).

    Returns:
        The question as it was where it says no debt as a whole, a label is headed with its words, or
        the workbook holds fewer than two debt lines; otherwise the question with the lines written out.
    """
    asked = [m for m in _ASKED.finditer(question) if _said_whole(m) and not _defined_after(m)]
    if not asked:
        return question
    texts = [t for t in cells() if len(t) <= 80]
    lines = debt_lines(texts)
    if not lines or len(lines) > _MAX_LINES:
        return question
    labels = Counter(_name(t) for t in texts)
    if len(lines) == 1 and lines[0][1] == 1:
        return question  # (one line carries the debt: the words find it)
    parts: list[str] = []
    for label, times in lines:
        # (a label that writes an operator, ``Long-term debt, less current portion``, in quotes: one line)
        name = f'"{label}"' if _OPERATOR.search(label) else label
        parts += [f"current {name}", f"non-current {name}"] if times > 1 else [name]
    written = " plus ".join(parts)
    out = question
    for m in reversed(asked):
        said = re.sub(r"\s+", " ", m.group(0)).casefold()
        if labels[said] == 1:
            continue  # (a line headed "Total borrowings", or "Borrowings" once, is read as it is)
        out = f"{out[: m.start()]}{written}{out[m.end() :]}"
    return out

"""A figure the question defines in words, read as arithmetic over the lines it names.

"Net debt (non-current borrowings plus current borrowings minus cash)", "the current ratio? Define it
as total current assets divided by current liabilities", "total provisions, i.e. current plus
non-current provisions", "taking working capital as current assets minus current liabilities": the
user states the formula, and the answer is that formula over the cells it names, not whatever figure
the measure's name touches. This module reads the definition's text into an expression tree whose
leaves are the words of each line (:class:`Line`); :mod:`gridsight.qa._cells` finds each line's cell
and compiles the tree to one query. Pure functions over text: only language words (plus, minus,
divided by, the sum of ...), never a table's.

Division binds loosest, as a reader of "debtors plus cash, divided by creditors" means it; a
parenthesis groups; "the sum of A, B and C" and "the difference between A and B" name their
operands by list.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

#: Where a stated definition starts: "define it as", "defined as", "calculated as", "i.e.", "taking
#: working capital as" (the name between "taking" and "as" is the measure's).
_STARTS = re.compile(
    r"\b(?:define[ds]?(?:\s+(?:it|this|them|the\s+[\w-]+(?:\s+[\w-]+)?))?\s+as|defined\s+as|calculated\s+as"
    r"|computed\s+as|measured\s+as|worked\s+out\s+as|i\.\s?e\.,?|that\s+is,"
    r"|taking\s+[^,?.()]{2,60}?\s+(?:to\s+be|as)|(?:with|where)\s+[^,?.()]{2,60}?\s+(?:defined|taken)\s+as"
    r"|^\s*using|^\s*(?P<adding>adding|summing|add\s+up|add\s+together|sum\s+up)|(?<=[^\W\d_])\s*=|(?<=[\w)])\s*:(?=\s)(?!\s*(?:how|what|which|who|whom|when|where|why|is|are|was|were|did|does|do|has"
    r"|have|had|can|could|would|will|give|list|name|show|tell)\b)"
    r"|^\s*what(?:\s+is|\s+was|'s)(?=\s+(?:the\s+)?[\w' -]+\s+(?:divided\s+by|plus)\s)"
    r"|^(?=\s*[^\W\d_][\w' -]+\s+plus\s))\s*",
    re.IGNORECASE,
)  # ("Using A divided by B, what was ...", "Adding A and B, how much ...", "the cash cost ratio = A / B",
# "Leverage at 31 Dec 2025: total liabilities divided by total equity?", "What is total
# liabilities divided by total equity at 31 Dec 2024?": the arithmetic written out is its own definition)
#: Where a definition written after its start ends: a clause that asks, rounds or gives a unit.
_CLAUSE = re.compile(
    r",?\s+(?:and\s+)?(?:give|giving|answer|express|expressed|stated|shown|round|rounded|report|reported"
    r"|how|what|in\s+(?:percent|per\s+cent|%|percentage|\$|£|€)|as\s+an?\s+(?:percent|percentage|%|multiple|ratio)"
    r"|to\s+\d|as\s+at|as\s+of|in\s+the\s+[\w\s'-]{1,40}?\s+column"
    r"|(?:at|on|for|in)\s+(?:the\s+)?(?:\d+|fy\s?'?\d+|(?:fiscal|financial)\s+(?:year\s+)?\d|(?:year|period)\s+(?:ended|ending|to)"
    r"|end\s+of|close|start|prior|previous|latest|last|first|[qh][1-4]\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b))"
    r"(?:\b|(?<=[%$£€]))",
    re.IGNORECASE,
)  # (a period, not a line's own words: "profit for the year" is a line, "for the year ended ..." a period)
#: The answer's form written at the end of a definition: ", %", ", in percent", ", 1dp", ", £m".
_FORMAT_TAIL = re.compile(
    r"(?:\s*,\s*(?:%|in\s+(?:%|per\s*cent|percent(?:age)?)|as\s+an?\s+(?:%|percentage)|per\s*cent|percent(?:age)?"
    r"|\d+\s*d\.?\s*p\.?|\d+\s+decimal\s+places?|to\s+\d+\s+(?:d\.?p\.?|decimal\s+places?)"
    r"|[£$€]\s*(?:m|bn|k|000)|(?:in\s+)?(?:thousands|millions)))+\s*$",
    re.IGNORECASE,
)
#: A line's outline mark ("B) CURRENT ASSETS", "ii) Trade receivables"): no parenthesis, and no word
#: a reader says.
_OUTLINE = re.compile(r"(?:(?<=\s)|^)(?:[A-Z]|[ivx]{1,4}|\d{1,2})\)\s+")
#: Operators, loosest first. Each is matched outside parentheses only.
_DIVIDE = re.compile(
    r",?\s+divided\s+by\s+|\s+/\s+|\s+over\s+(?!\d)|,?\s+as\s+an?\s+(?:share|percentage|proportion|fraction|multiple)\s+of\s+",
    re.IGNORECASE,
)
_TIMES = re.compile(r",?\s+(?:multiplied\s+by|times)\s+", re.IGNORECASE)
_PLUS_MINUS = re.compile(
    r",?\s+(?:(plus|added\s+to|\+)|(minus|less(?!\s+than\b)|deducting|[-−–]))\s+", re.IGNORECASE
)
#: A line named only through a list: "the sum of A, B and C", "the total of ...".
_SUM_OF = re.compile(r"^(?:the\s+)?(?:sum|total|aggregate)\s+of\s+(?:the\s+)?", re.IGNORECASE)
_DIFFERENCE = re.compile(r"^(?:the\s+)?difference\s+between\s+", re.IGNORECASE)
_RATIO = re.compile(r"^(?:the\s+)?ratio\s+of\s+(.+?)\s+to\s+(.+)$", re.IGNORECASE)
#: "(as a positive amount)": the line as a positive figure, however the statement presents it.
_POSITIVE = re.compile(
    r"\s*\(?\s*(?:taken\s+|shown\s+|expressed\s+)?as\s+an?\s+positive(?:\s+(?:amount|figure|number|value))?\s*\)?\s*$",
    re.IGNORECASE,
)
#: Words that say a parenthesis holds arithmetic (a definition), not a unit or a column's name.
_OPERATES = re.compile(
    r"\b(?:plus|minus|less(?!\s+than)|divided\s+by|multiplied\s+by|sum\s+of|difference\s+between"
    r"|ratio\s+of)\b|\s[-+/]\s",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Line:
    """Words that name one line, or a list of lines to add up ("cash and term deposits");
    ``positive``: taken as a positive amount."""

    text: str
    positive: bool = False
    listed: bool = False  # ("the sum of A, B and C": a list said as one)


@dataclass(frozen=True)
class Apply:
    """An operator ("+", "-", "*", "/") over two expressions."""

    op: str
    left: Expr
    right: Expr


Expr = Line | Apply


@dataclass(frozen=True)
class Definition:
    """A stated definition: its expression, and the question without it (the words that still place
    the cells: the period, the column)."""

    expr: Expr
    rest: str
    head: str = ""  # the noun right before a parenthesis that defines it ("total borrowing (...)")


def lines_of(expr: Expr) -> list[Line]:
    """The leaves of ``expr``, left to right."""
    if isinstance(expr, Line):
        return [expr]
    return [*lines_of(expr.left), *lines_of(expr.right)]


def divides(expr: Expr) -> bool:
    """Whether the expression's outermost operation is a division (a ratio: percent may scale it)."""
    return isinstance(expr, Apply) and expr.op == "/"


def definition(question: str) -> Definition | None:
    """The definition the question states, or None (no definition, or one that names no arithmetic:
    "i.e. the closing balance" is a name, not a formula)."""
    question = re.sub(
        r"\s*\(\s*\)", "", _OUTLINE.sub("", question)
    )  # (a bracket emptied: "(as a positive amount)")
    for found, bracketed in ((_stated_after(question), False), (_in_parentheses(question), True)):
        if found is None:
            continue
        text, rest = found
        tail = _FORMAT_TAIL.search(text)
        if tail is not None and tail.start() > 0:  # ("(loans / deposits, %, 1dp)": the answer's form)
            text, rest = text[: tail.start()], f"{rest} {tail.group(0).strip(' ,')}"
        expr = parse(text)
        if isinstance(expr, Apply) or (isinstance(expr, Line) and expr.listed):
            head = re.search(r"([^\W\d_][\w'-]*)\s*$", rest[: rest.find("  ")] if bracketed else "")
            return Definition(
                expr, re.sub(r"\s{2,}", " ", rest).strip(" ,;"), head.group(1) if head is not None else ""
            )
    return None


#: A list the question asks the sum of by its verb: "what did A and B add up to in 2025?".
_ADDED_UP = re.compile(
    r"^\s*(?:what|how\s+much)\s+(?:did|do|does|would|will)\s+(?P<list>[^?()]+?)\s+"
    r"(?:add\s+up\s+to|sum\s+to|come\s+to|amount\s+to)\b",
    re.IGNORECASE,
)


def _stated_after(question: str) -> tuple[str, str] | None:
    """The text after "define it as" and its kin, up to the clause that ends it."""
    added = _ADDED_UP.search(question)
    if added is not None and _LIST_OF_LINES.search(added.group("list")):
        return f"the sum of {added.group('list')}", question[added.end() :]
    m = _STARTS.search(question)
    if m is None:
        return None
    start = m.end()
    end = _end_of(question, start)
    text = question[start:end].strip(" ,;")
    if m.group("adding"):
        text = f"the sum of {text}"  # ("adding A and B": a list added up)
    # the words the start's own phrase says stay ("taking working capital as": the measure's name)
    rest = question[: m.start()] + " " + question[end:]
    return text, rest


def _end_of(question: str, start: int) -> int:
    """Where a definition starting at ``start`` ends: a question mark, a sentence's full stop, a
    semicolon, a parenthesis that holds no arithmetic, or a clause that asks, rounds or places --
    each outside parentheses."""
    depth = 0
    i = start
    while i < len(question):
        ch = question[i]
        if ch == "(":
            close = _closing(question, i)
            if (
                depth == 0
                and not _OPERATES.search(question[i + 1 : close])
                and not _POSITIVE.match(question[i : close + 1])
            ):
                return i  # ("(in thousands of dollars)", "(total column)": no part of the formula)
            depth += 1
        elif ch == ")":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (
            ch in "?;" or (ch == "." and (i + 1 == len(question) or question[i + 1] == " "))
        ):
            return i
        elif depth == 0 and ch in ", " and (m := _CLAUSE.match(question, i)) is not None and i > start:
            return m.start()
        i += 1
    return len(question)


def _closing(text: str, at: int) -> int:
    """The index of the parenthesis that closes the one at ``at`` (the text's end if none does)."""
    depth = 0
    for i in range(at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return len(text)


#: An operator beside a parenthesis: it groups a part of arithmetic written in the question itself
#: ("(lentils plus barley) divided by melons"), it defines nothing.
_OPERATOR_AFTER = re.compile(
    r"\s*,?\s*(?:divided\s+by|multiplied\s+by|times|plus|minus|less(?!\s+than)|over|[-+*/×÷])(?:\s|$)",
    re.IGNORECASE,
)
_OPERATOR_BEFORE = re.compile(
    r"(?:\b(?:divided\s+by|multiplied\s+by|times|plus|minus|less|of)|[-+*/×÷])\s*$", re.IGNORECASE
)


def _in_parentheses(question: str) -> tuple[str, str] | None:
    """The first parenthesis that holds arithmetic ("net debt (borrowings minus cash)"), unless an
    operator beside it makes it a part of arithmetic the question writes out."""
    for m in re.finditer(r"\(", question):
        close = _closing(question, m.start())
        inner = question[m.start() + 1 : close]
        grouping = _OPERATOR_AFTER.match(question, close + 1) or _OPERATOR_BEFORE.search(
            question[: m.start()]
        )
        if _OPERATES.search(inner) and not re.fullmatch(r"[\s\d.,+\-/%]*", inner) and not grouping:
            # (two spaces mark where the parenthesis stood: the name it defines ends there)
            before = question[: m.start()].rstrip()
            return _headed(inner, before), before + "  " + question[close + 1 :]
    return None


def _headed(inner: str, before: str) -> str:
    """A parenthesis of modifiers alone ("total borrowings (non-current plus current)") with the
    head noun of the name before it given to each: "non-current borrowings plus current borrowings"."""
    head = re.search(r"([^\W\d_][\w'-]*)\s*$", before)
    pieces = _split(inner.strip(), _PLUS_MINUS)
    if head is None or len(pieces) < 2 or any(len(p.split()) != 1 for p, _ in pieces):
        return inner
    return "".join(f"{m.group(0) if m else ''}{p.strip()} {head.group(1)}" for p, m in pieces)


def _split(text: str, pattern: re.Pattern[str]) -> list[tuple[str, re.Match[str] | None]]:
    """``text`` cut at every match of ``pattern`` outside parentheses and double quotes (a label
    written whole: ""Long-term debt, less current portion""): (piece, the match before it)."""
    out: list[tuple[str, re.Match[str] | None]] = []
    depth, last, before = 0, 0, None
    quoted = _quoted_spans(text)
    cuts = {m.start(): m for m in pattern.finditer(text) if not any(a < m.start() < b for a, b in quoted)}
    i = 0
    while i < len(text):
        ch = text[i]
        if depth == 0 and i in cuts and i > last:
            m = cuts[i]
            out.append((text[last:i], before))
            last, before = m.end(), m
            i = m.end()
            continue
        depth += {"(": 1, ")": -1}.get(ch, 0)
        i += 1
    out.append((text[last:], before))
    return out


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes something in double quotes: (opening, closing) indices."""
    return [(m.start(), m.end() - 1) for m in re.finditer(r'"[^"]{1,120}"|“[^”]{1,120}”', text)]


def parse(text: str) -> Expr | None:
    """The expression ``text`` writes, or None where a piece is empty."""
    text = text.strip(" ,;.")
    if not text:
        return None
    if text.startswith("(") and _closing(text, 0) == len(text) - 1:
        return parse(text[1:-1])
    for pattern, ops in ((_DIVIDE, "/"), (_TIMES, "*")):
        pieces = _split(text, pattern)
        if len(pieces) > 1:
            return _chain([(p, ops if m else "") for p, m in pieces], _sum)
    return _sum(text)


def _sum(text: str) -> Expr | None:
    pieces = _split(text, _PLUS_MINUS)
    if len(pieces) == 1:
        return _term(text)
    signed = [(p, "" if m is None else "+" if m.group(1) else "-") for p, m in pieces]
    # ("total assets minus goodwill and intangible assets": both taken away, their sum)
    signed = [
        (f"the sum of {p}" if op == "-" and _LIST_OF_LINES.search(p) and not _SUM_OF.match(p) else p, op)
        for p, op in signed
    ]
    return _chain(_spread(signed), _term)


#: Two or more lines listed in one operand: "goodwill and intangible assets", "A, B and C".
_LIST_OF_LINES = re.compile(r"\w\s+and\s+\w|,\s+\w")


def _chain(pieces: list[tuple[str, str]], read: Callable[[str], Expr | None]) -> Expr | None:
    """Left to right: ``a op b op c`` as ``(a op b) op c``."""
    out: Expr | None = None
    for text, op in pieces:
        expr = read(text) if text.strip(" ,") else None
        if expr is None:
            return None
        out = expr if out is None else Apply(op, out, expr)
    return out


def _spread(signed: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """:func:`spread_heads` over the pieces of a sum, each with its sign."""
    return list(zip(spread_heads([text for text, _ in signed]), [op for _, op in signed], strict=True))


def spread_heads(pieces: list[str]) -> list[str]:
    """A modifier said alone before the next line's own ("current plus non-current borrowings",
    "current and non-current liabilities", "short-term and long-term debt") takes that line's head:
    "current borrowings"."""
    out = [p.strip() for p in pieces]
    for i in range(len(out) - 1):
        words_, nxt = out[i].split(), out[i + 1].split()
        if len(words_) == 1 and len(nxt) > 1 and set(_parts(words_[0])) & set(_parts(nxt[0])):
            out[i] = f"{words_[0]} {' '.join(nxt[1:])}"
    return out


def _parts(word: str) -> list[str]:
    return [p for p in re.split(r"[-‐–]", word.casefold()) if p]


def _term(text: str) -> Expr | None:
    text = text.strip(" ,;.")
    text = re.sub(r"^(?:the|a|an)\s+", "", text, flags=re.IGNORECASE)
    if not text:
        return None
    if text.startswith("(") and _closing(text, 0) == len(text) - 1:
        return parse(text[1:-1])
    positive = _POSITIVE.search(text)
    if positive is not None and positive.start() > 0:
        inner = _term(text[: positive.start()])
        if isinstance(inner, Line):
            return Line(inner.text, positive=True, listed=inner.listed)
        return None  # (a positive amount of a formula: not written)
    if (m := _RATIO.match(text)) is not None:
        a, b = _term(m.group(1)), _term(m.group(2))
        return Apply("/", a, b) if a is not None and b is not None else None
    if (m := _DIFFERENCE.match(text)) is not None:
        halves = re.split(r"\s+and\s+", text[m.end() :], maxsplit=1)
        if len(halves) == 2:
            a, b = _term(halves[0]), _term(halves[1])
            return Apply("-", a, b) if a is not None and b is not None else None
    if (m := _SUM_OF.match(text)) is not None and text[m.end() :]:
        return Line(text[m.end() :], listed=True)
    if (m := re.fullmatch(r'"([^"]+)"|“([^”]+)”', text)) is not None:
        return Line(m.group(1) or m.group(2))  # (a label written whole, in quotes)
    return Line(text)


#: "do A equal B", "are A equal to B", "does A agree with B", "is A the same as B": two sides compared.
_EQUALITY = re.compile(
    r"^\s*(?:do|does|did|is|are|was|were)\s+(?P<a>.+?)\s+(?:equals?(?:\s+to)?|agrees?\s+(?:with|to)"
    r"|match(?:es)?|ties?\s+(?:up\s+)?(?:to|with)|reconciles?\s+(?:to|with)|(?:exactly\s+)?the\s+same\s+as)\s+"
    r"(?P<b>.+?)\s*[?.]?\s*$",
    re.IGNORECASE,
)
#: "is the statement in balance", "does each column of the balance sheet balance": the identity of a
#: statement of financial position, asked of its columns.
_BALANCE = re.compile(
    r"^\s*(?:(?:is|are|was|were)\s+(?:the\s+)?(?P<what>[^?]*?)\s+(?:in\s+balance|balanced)"
    r"|(?:does|do|did)\s+(?:the\s+)?(?P<whose>[^?]*?)\s+balance(?=\s*(?:[?.]|$|(?:in|at|for|on|across|as)\b)))"
    r"(?P<where>[^?]*)",
    re.IGNORECASE,
)
#: Where the sides are compared: "at both dates", "for each year", "in every column", "for 2025 and
#: 2024"; ``every``: each column of the kind said.
_WHERE = re.compile(
    r"\s+(?:(?:in|at|for|on|across|as\s+(?:at|of))\s+)?(?P<place>(?:(?:each|every|both|all)\b|(?:the\s+)?"
    r"(?:(?:19|20)\d\d|fy)).*)$",
    re.IGNORECASE,
)
_EVERY = re.compile(r"\b(?:each|every|both|all)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Equality:
    """Two sides a yes/no question compares column by column (None, None: a statement's own identity,
    "is it in balance"); ``where``: the words that say which columns; ``every``: each column of the
    kind they say ("both years", "each column")."""

    left: Expr | None
    right: Expr | None
    where: str
    every: bool


def equality(question: str) -> Equality | None:
    """The comparison a yes/no question asks of each column ("do total assets equal total
    liabilities and equity at both dates?", "is the balance sheet in balance for each year?"), or
    None where it asks none, or of no columns it names ("does cash equal 5?" is a test of one cell)."""
    question = _OUTLINE.sub("", question)
    balance = _BALANCE.match(question)
    if balance is not None and not _EQUALITY.match(question):
        where = f"{balance.group('where')} {balance.group('what') or balance.group('whose')}"
        return Equality(None, None, where.strip(), bool(_EVERY.search(where)))
    m = _EQUALITY.match(question)
    if m is None:
        return None
    right, where = m.group("b"), ""
    cut = _WHERE.search(right)
    if cut is not None:
        right, where = right[: cut.start()], cut.group("place")
    if not where or re.fullmatch(r"[\d\s.,%$£€-]+", right.strip()):
        return None  # (no columns said: one cell's test; a number: a threshold)
    a, b = parse(m.group("a")), parse(right)
    if a is None or b is None:
        return None
    return Equality(a, b, where, bool(_EVERY.search(where)))

"""The lines of a statement that words name, and arithmetic over their cells.

A stated definition's operand ("non-current borrowings", "cash and cash equivalents and term
deposits", "borrowings (current and non-current)") names one line, or a list of lines to add up: the
line whose label, with its section, names every word, the label at least one (:func:`named_line`).
Lines alike (one label in two sections) are told apart by the words that name a section, by a plan
said or not (``Actual`` and ``Budget``), by a text column's value the question names (a year's
block), or else they are unclear. A statement of financial position's identity names its lines
exactly (:func:`identity`). The expression over the lines compiles to SQL over the relational view
(:func:`compiled`) and to Excel arithmetic over the cells themselves (:func:`excel`).

Pure functions over the relational view; :mod:`gridsight.qa._cells` plans with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import combinations

from gridsight.grid import Range
from gridsight.qa._definition import Apply, Expr, Line, lines_of, spread_heads
from gridsight.qa._headers import PATH_SEP, parts, year_of
from gridsight.qa._relational import POSITION, SECTION, TOTAL, Relation, RelColumn, part_of_above
from gridsight.qa._sql import literal, quote
from gridsight.qa._sqlgen import near_word, tokens
from gridsight.text import PLAN_WORDS, STOP_WORDS, without_marks


def figures(rel: Relation) -> list[RelColumn]:
    """The table's number columns: the cells a plan reads."""
    return rel.memo(
        "figure columns", lambda: [c for c in rel.columns if c.role == "data" and c.kind == "number"]
    )


#: Words of a column that holds no line's amounts: a note's number, a reference.
_NOT_AMOUNTS = frozenset({"note", "notes", "ref", "reference"})


def amounts(rel: Relation) -> list[RelColumn]:
    """The number columns that hold the lines' amounts (not a ``Note`` column's numbers)."""
    return rel.memo(
        "amount columns",
        lambda: [c for c in figures(rel) if not {w for p in parts(c.name) for w in tokens(p)} & _NOT_AMOUNTS],
    )


def _read(col: str, named: dict[str, str], place: int | None = None) -> str:
    """The query of one cell of ``col``: in the line ``named`` by its label (and at ``place``)."""
    conds = [f"{quote(k)} = {literal(v)}" for k, v in named.items()]
    conds += [f"{quote(POSITION)} = {place}"] if place is not None else []
    return f"(SELECT {quote(col)} FROM data{' WHERE ' + ' AND '.join(conds) if conds else ''})"


#: The words of a statement's equity line ("Total stockholders' equity", "Shareholders' funds", "Net
#: assets", "Capital and reserves"); a line with other words ("Share capital") is one of its parts.
_EQUITY = frozenset(
    {"equity", "funds", "net", "assets", "shareholders", "stockholders", "members", "partners", "owners"}
    | {"capital", "reserves", "deficit"}
)


def identity(rel: Relation, question: str) -> tuple[Expr, Expr] | None:
    """A statement of financial position's identity as two sides over its lines: ``Total assets``
    against the line of liabilities and equity (``Total liabilities and stockholders' equity``); else
    against ``Total liabilities`` plus the equity line (``Total equity``, ``Net assets``); else (a UK
    balance sheet) ``Net assets`` against the equity line (``Shareholders' funds``). Each line is
    named exactly (``Total current liabilities`` is no total of the liabilities). The first whose
    lines the table has; None where none does."""
    key = rel.key
    assert key is not None
    labels = [v for v in rel.values_of(key.name) or [] if isinstance(v, str)]
    said = [set(tokens(v)) - _GRAMMAR for v in labels]

    def exact(words_: set[str]) -> list[str]:
        return [v for v, t in zip(labels, said, strict=True) if t == words_][-1:]

    claims = [
        v for v, t in zip(labels, said, strict=True) if "liabilities" in t and t - {"liabilities"} <= _EQUITY
    ]
    equity = [
        v
        for v, t in zip(labels, said, strict=True)
        if t <= _EQUITY and t & {"equity", "funds", "deficit", "net"} and t != {"assets"}
    ]
    owners = [v for v in equity if not {"net", "assets"} <= set(tokens(v))]
    tries: list[tuple[Expr, Expr]] = [(Line(a), Line(c)) for a in exact({"assets"}) for c in claims[-1:]]
    tries += [
        (Line(a), Apply("+", Line(debt), Line(e)))
        for a in exact({"assets"})
        for debt in exact({"liabilities"})
        for e in equity[-1:]
    ]
    tries += [(Line(n), Line(e)) for n in exact({"net", "assets"}) for e in owners[-1:]]
    reading = Reading.of(rel, question)
    for left, right in tries:
        lines = [*lines_of(left), *lines_of(right)]
        if all(line_cells(rel, line.text, reading) for line in lines):
            return left, right
    return None


def compiled(rel: Relation, col: str, expr: Expr, cells: dict[Line, list[int]], sized: set[Line]) -> str:
    """``expr`` as SQL over the cells of ``col`` in its lines, the lines in ``sized`` by their size."""
    if isinstance(expr, Line):
        read = " + ".join(_line_cell(rel, col, i) for i in cells[expr])
        read = read if len(cells[expr]) == 1 else f"({read})"
        return f"ABS({read})" if expr in sized else read
    left = compiled(rel, col, expr.left, cells, sized)
    right = compiled(rel, col, expr.right, cells, sized)
    if expr.op == "/":
        return f"{_grouped(left)} / {_grouped(right)}"  # (by zero: NULL, no answer)
    return f"({left} {expr.op} {right})"


def excel(rel: Relation, col: str, expr: Expr, cells: dict[Line, list[int]], sized: set[Line]) -> str:
    """``expr`` as Excel arithmetic over the cells themselves (an empty cell counts as 0 there, as a
    statement's dash means)."""
    if isinstance(expr, Line):
        data = rel.column(col).data
        refs = "+".join(Range(rel.rows[i], data.left, rel.rows[i], data.left).ref() for i in cells[expr])
        refs = refs if len(cells[expr]) == 1 else f"({refs})"
        return f"ABS({refs})" if expr in sized else refs
    left = excel(rel, col, expr.left, cells, sized)
    right = excel(rel, col, expr.right, cells, sized)
    if expr.op == "/":
        return f"{bracketed(left)}/{bracketed(right)}"
    return f"({left}{expr.op}{right})"


def unbracketed(text: str) -> str:
    """``text`` without the brackets around the whole of it."""
    return text[1:-1] if _enclosed(text) else text


def bracketed(text: str) -> str:
    """``text`` in brackets unless it is one cell or one bracket already."""
    if re.fullmatch(r"[A-Z]{1,3}\d+|ABS\([A-Z]{1,3}\d+\)", text) or _enclosed(text):
        return text
    return f"({text})"


def _grouped(sql: str) -> str:
    """``sql`` in parentheses unless it is one already (a cell's subquery, a sum in brackets)."""
    return sql if _enclosed(sql) else f"({sql})"


def _enclosed(text: str) -> bool:
    """Whether one bracket encloses the whole of ``text``."""
    return text.startswith("(") and _closing_at(text) == len(text) - 1


def _closing_at(sql: str) -> int:
    """Where the parenthesis that opens ``sql`` closes (quotes aside)."""
    depth, quote_ = 0, ""
    for i, ch in enumerate(sql):
        if ch in "'\"" and quote_ in ("", ch):
            quote_ = "" if quote_ else ch  # ('' inside a literal closes and opens it again)
            continue
        if quote_:
            continue
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return i
    return -1


def sized(rel: Relation, expr: Expr, cells: dict[Line, list[int]]) -> set[Line]:
    """The lines read by their size: those said "as a positive amount", and those a statement shows
    negative (an outflow, creditors in brackets) where the definition takes them away or divides
    by or into them -- "cash from operations minus purchases of equipment" deducts the purchases
    however they are signed; added ("plus"), a line keeps its sign. A line shown negative that a
    line shown positive is taken from is read by its size too: "borrowings less cash" is the debt
    less the cash, whatever brackets the debt is shown in."""
    out = {line for line in lines_of(expr) if line.positive}

    def negative(line: Line) -> bool:
        return all(_shown_negative(rel, i) for i in cells[line])

    def visit(node: Expr, signed: bool) -> None:
        if isinstance(node, Line):
            if not signed and negative(node):
                out.add(node)
            return
        if (
            node.op == "-"
            and all(negative(line) for line in lines_of(node.left))
            and not all(negative(line) for line in lines_of(node.right))
        ):
            out.update(lines_of(node.left))
        visit(node.left, signed and node.op in "+-")
        visit(node.right, signed and node.op == "+")

    visit(expr, True)
    leaves = lines_of(expr)
    summed = len(leaves) > 1 or len(cells[leaves[0]]) > 1  # (or one list: "what did A and B come to")
    if summed and _only_adds(expr) and all(negative(line) for line in leaves):
        # ("total payables (due within a year plus due later)": what is owed, in all)
        out.update(leaves)
    return out


def _only_adds(expr: Expr) -> bool:
    """Whether ``expr`` adds lines up and does nothing else."""
    return isinstance(expr, Line) or (expr.op == "+" and _only_adds(expr.left) and _only_adds(expr.right))


def _shown_negative(rel: Relation, i: int) -> bool:
    """Whether the ``i``-th line is negative in every figure it has (a net loss one year is no
    outflow: a line the statement always shows in brackets is)."""
    dated = [c for c in amounts(rel) if year_of(c.name) is not None] or amounts(rel)
    found = [
        v
        for c in dated
        if isinstance(v := (rel.values_of(c.name) or [])[i], int | float) and not isinstance(v, bool)
    ]
    return bool(found) and all(v <= 0 for v in found) and any(v < 0 for v in found)


#: The most lines one named list adds up ("cash, term deposits and short-term investments").
MAX_LISTED = 4


def line_cells(rel: Relation, text: str, reading: Reading) -> list[int] | None:
    """The lines (to add up) that the words ``text`` name: one line, a line with its kinds in
    parentheses ("borrowings (current and non-current)", "debtors (trade, other, prepayments)"), or a
    list of lines ("cash and cash equivalents and term deposits": the fewest lines that name every
    word); [] where several lines fit alike, None where none does."""
    inner = re.search(r"\(([^()]*)\)\s*$", text)
    if inner is not None:
        head = text[: inner.start()].strip()
        # ("total debt (current + non-current borrowings)": the kinds' own head spread to both)
        kinds = spread_heads([k for k in _KINDS_CUT.split(inner.group(1)) if k.strip()])
        found = [named_line(rel, f"{k} {head}", reading) or named_line(rel, k, reading) for k in kinds]
        if 1 < len(found) <= MAX_LISTED and all(found):
            return [i for f in found if f for i in f]
        return named_line(rel, head, reading)  # ("(net)", "(a)": no kinds)
    whole = named_line(rel, text, reading)
    if whole and not (_LIST_CUT.search(text) and not any(_LIST_CUT.search(_label(rel, i)) for i in whole)):
        return whole  # (a line whose label has the "and" too: "cash and cash equivalents")
    cuts = list(_LIST_CUT.finditer(text))
    for n in range(1, min(len(cuts), MAX_LISTED - 1) + 1):
        for chosen in combinations(cuts, n):
            bounds = [0, *[x for m in chosen for x in (m.start(), m.end())], len(text)]
            pieces = spread_heads([text[bounds[i] : bounds[i + 1]] for i in range(0, len(bounds), 2)])
            found = [named_line(rel, p, reading) for p in pieces]
            if all(found):
                # ("current liabilities and non-current liabilities": two lines, though
                # ``Total non-current liabilities`` has every word of the two)
                return [i for f in found if f for i in f]
    return whole  # (several lines alike: [], no line: None)


def _section_words_said(section: object, asked: AbstractSet[str]) -> int:
    """How many words of a line's section the question names."""
    if not isinstance(section, str):
        return 0
    return len(
        {
            w
            for p in parts(section)
            for w in tokens(p)
            if w not in _GRAMMAR and any(near_word(w, q) for q in asked)
        }
    )


def _total_of(label: str) -> set[str]:
    """The words a total line totals: its label's less "total" and its letter (``Total fixed assets
    (B)``: fixed, assets); none for a line that says no "total"."""
    own = tokens(re.sub(r"\s*\([A-Za-z]{1,2}\)\s*$", "", label))
    return {w for w in own if w not in _GRAMMAR} - {"total"} if "total" in own else set()


def _label(rel: Relation, i: int) -> str:
    """The ``i``-th line's label ('' where it has none)."""
    key = rel.key
    label = (rel.values_of(key.name) or [])[i] if key is not None else None
    return label if isinstance(label, str) else ""


@dataclass(frozen=True)
class Reading:
    """What reading a line's words needs besides them: the words of the table's column headers (they
    place the column, not the line), and whether the question speaks of a plan (a budget, a
    forecast)."""

    words: frozenset[str]
    plan_said: bool
    placed: tuple[tuple[str, str], ...] = ()  # (column, value): a text column's one value said
    asked: frozenset[str] = frozenset()  # the question's own words (a section it names elsewhere)

    @staticmethod
    def of(rel: Relation, question: str) -> Reading:
        header = {w for c in rel.columns if c.role == "data" for p in parts(c.name) for w in tokens(p)}
        said = set(tokens(question))
        placed = []
        for c in rel.columns:
            if c.role == "data" and c.kind == "text":
                held = {v for v in rel.values_of(c.name) or [] if isinstance(v, str) and tokens(v)}
                named = [v for v in held if set(tokens(v)) <= said]
                if len(named) == 1:  # ("for 2024" in a statement of changes in equity: the year's block)
                    placed.append((c.name, named[0]))
        asked = frozenset(w for w in tokens(question) if w not in _GRAMMAR and w not in header)
        return Reading(frozenset(header), _planned(question), tuple(placed), asked)


def _planned(text: object) -> bool:
    """Whether ``text`` speaks of a plan rather than what happened ("Budget", "forecast 2026")."""
    return isinstance(text, str) and bool(set(tokens(text)) & PLAN_WORDS)


#: Words that name no line: grammar, "total" (a line's total is the line), and the nouns that say
#: what kind of figure a line is ("the tax charge" is ``Tax``; "the cash balance" is ``Cash``).
_GRAMMAR = STOP_WORDS | {"total", "charge", "charges", "balance", "amount", "figure", "line", "item"}
#: What a word after a label's comma weighs when left unsaid (it only qualifies the label; it tells
#: apart labels the words before name alike).
_QUALIFIER_WEIGHT = 0.1
#: Where the kinds in a line's brackets are cut: "(current and non-current)", "(trade, other)",
#: "(non-current plus current)".
_KINDS_CUT = re.compile(r"\s*,\s*(?:and\s+)?|\s+(?:and|plus|\+)\s+")
#: Where a list of lines is cut: a comma, "and".
_LIST_CUT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")


def named_line(rel: Relation, text: str, reading: Reading) -> list[int] | None:
    """The one line (with an amount in some column) whose label (with its section) names every word of
    ``text`` -- the label at least one of them; ties go to the fewest words of the label, then of
    the section, left unnamed ("current borrowings": ``Borrowings`` under ``Current liabilities``,
    not under ``Non-current liabilities``). A figure without a label is its section's total, named
    by the section's name. Lines of one label in several sections that no word places are added up
    where the words say "total" ("total borrowings"); else the line is unclear: []. None: no line."""
    key = rel.key
    assert key is not None
    said = [w for w in tokens(text) if w not in _GRAMMAR and w not in reading.words and not w.isdigit()]
    if not said:
        return None
    labels = rel.values_of(key.name) or []
    sections = rel.values_of(SECTION) or [None] * len(labels)
    summed = _section_lines(rel, said, labels, sections)
    if summed is not None:
        return summed
    scored: list[tuple[tuple[int, float, int, int], int]] = []
    for i, (label, section) in enumerate(zip(labels, sections, strict=False)):
        if not _has_figures(rel, i):
            continue  # (a heading: no figure in any column)
        if isinstance(label, str) and label.strip():
            own = tokens(label)
        elif isinstance(section, str):
            own = tokens(parts(section)[-1])  # (a section's figure without a label: its total)
        else:
            continue
        around = [w for p in parts(section) for w in tokens(p)] if isinstance(section, str) else []
        by_label = {q for q in said if any(near_word(w, q) for w in own)}
        by_section = {q for q in said if any(near_word(w, q) for w in around)}
        if not by_label or by_label | by_section != set(said):
            continue
        # (words after a comma qualify the label: ``Long-term debt, net of current portion`` is
        # named whole by "long-term debt")
        head = tokens(label.split(",")[0]) if isinstance(label, str) and label.strip() else own
        left_label = {w for w in head if w not in _GRAMMAR and not any(near_word(w, q) for q in said)}
        qualifiers = {w for w in own if w not in _GRAMMAR and not any(near_word(w, q) for q in said)}
        left = len(left_label) + _QUALIFIER_WEIGHT * len(qualifiers - left_label)
        placed = by_section - by_label  # (the section tells lines apart only where a word names it)
        left_section = {w for w in around if w not in _GRAMMAR and not any(near_word(w, q) for q in said)}
        scored.append(((-len(by_label), left, -len(placed), len(left_section) if placed else 0), i))
    if not scored:
        return None
    best = min(s for s, _ in scored)
    top = [i for s, i in scored if s == best]
    outside = [i for i in top if not isinstance(sections[i], str)]
    if len(top) > 1 and len(outside) == 1:
        top = outside  # ("net assets": the line under no heading, not a share class's own)
    meant = [i for i in top if _planned(sections[i]) is reading.plan_said]
    if len(top) > 1 and len(meant) == 1:
        top = meant  # ("gross profit" under ``Actual`` and ``Budget``: a plan is meant only when said)
    held = [i for i in top if all((rel.values_of(c) or [])[i] == v for c, v in reading.placed)]
    if len(top) > 1 and len(held) == 1:
        top = held  # ("dividends ... for 2024": the line of the 2024 block)
    if len(top) > 1:  # ("revenue" where the question names the segment elsewhere: its section's line)
        named = {i: _section_words_said(sections[i], reading.asked - set(said)) for i in top}
        most = max(named.values())
        if most and sum(1 for n in named.values() if n == most) == 1:
            top = [i for i in top if named[i] == most]
    flags = rel.values_of(TOTAL) or []
    totals = [i for i in top if i < len(flags) and flags[i] == 1]
    if len(top) > 1 and len(totals) == 1 and len({sections[i] for i in top}) == 1:
        top = totals  # ("revenue" beside ``Product revenue`` and ``Service revenue``: their total)
    # ("fixed assets": ``Total fixed assets (B)``, the total of those words alone, over ``Tangible fixed
    # assets`` and ``Intangible fixed assets``, which other words qualify)
    whole = [i for i in top if _total_of(_label(rel, i)) == set(said)]
    if len(top) > 1 and len(whole) == 1:
        top = whole
    joined = [i for i in top if "and" in tokens(_label(rel, i)) and "and" not in tokens(text)]
    if len(top) - len(joined) == 1:
        # ("equity" beside ``Total liabilities and equity``: that line adds it to another thing)
        top = [i for i in top if i not in joined]
    if len(top) > 1 and "total" not in tokens(text) and _repeated_blocks(rel, [sections[i] for i in top]):
        top = top[:1]  # (the same lines again under each block: the first block, the statement's whole)
    if len(top) > 1:
        tied = [i for s, i in scored if s[:2] == best[:2]]
        if len({str(labels[i]).casefold() for i in tied}) > 1 or not (
            "total" in tokens(text) or _one_class(sections[i] for i in tied)
        ):
            return []  # (several lines alike: which is unclear)
        top = tied  # ("total borrowings": the current and the non-current line added up)
    return top


def _same_words(a: Iterable[str], b: Iterable[str]) -> bool:
    """Whether each word of ``a`` names one of ``b`` and each of ``b`` one of ``a``."""
    a, b = list(a), list(b)
    return (
        bool(a)
        and all(any(near_word(x, y) for y in b) for x in a)
        and all(any(near_word(y, x) for x in a) for y in b)
    )


def _section_lines(
    rel: Relation, said: list[str], labels: list[object], sections: list[object]
) -> list[int] | None:
    """The lines of the one section that ``said`` names whole, where no line totals it: "total
    liabilities" in a statement that lists its ``Liabilities`` and closes them only with ``Total
    equity and liabilities`` is the sum of the lines under ``Liabilities`` (its totals and "of which"
    lines left out); None where a line bears those words alone (``Total liabilities``) or no section
    (or several) has them."""
    if any(
        isinstance(label, str) and _same_words(_words_of(label), said) and _has_figures(rel, i)
        for i, label in enumerate(labels)
    ):
        return None
    named = {s for s in sections if isinstance(s, str) and _same_words(_words_of(parts(s)[-1]), said)}
    tops = [s for s in named if not any(s.startswith(o + PATH_SEP) for o in named)]
    if len(tops) != 1:
        return None
    top = tops[0]
    flags = rel.values_of(TOTAL) or [0] * len(labels)
    rows = [
        i
        for i, (label, section) in enumerate(zip(labels, sections, strict=False))
        if isinstance(section, str)
        and (section == top or section.startswith(top + PATH_SEP))
        and isinstance(label, str)
        and label.strip()
        and flags[i] != 1
        and part_of_above(label) is None
        and _has_figures(rel, i)
    ]
    return rows if len(rows) >= 2 else None


def _words_of(label: str) -> list[str]:
    """A label's words that name a line: no grammar, no "total", no mark or colon."""
    return [w for w in tokens(without_marks(label)) if w not in _GRAMMAR]


def _one_class(sections: Iterable[object]) -> bool:
    """Whether sections are kinds of one class, their names' last word the same (``Current
    liabilities`` and ``Non-current liabilities``): a line written alike under each is one figure in
    parts, which a definition's word for it adds up ("net debt (borrowings less cash)"). Not so
    ``Income from:`` and ``Expenditure on:``."""
    heads = {
        tokens(parts(s)[-1])[-1] if isinstance(s, str) and tokens(parts(s)[-1]) else None for s in sections
    }
    return len(heads) == 1 and None not in heads


#: The share of lines two sections must have in common to be one list of lines repeated.
REPEATED = 0.8


def _repeated_blocks(rel: Relation, sections: list[object]) -> bool:
    """Whether the sections are blocks that repeat one list of lines (``Actual`` and ``Budget``,
    ``Group`` and ``Company``), not parts of a whole (``Current liabilities`` beside
    ``Non-current liabilities`` hold different lines)."""
    key = rel.key
    if key is None or len(set(map(str, sections))) < 2 or not all(isinstance(s, str) for s in sections):
        return False
    labels, held = rel.values_of(key.name) or [], rel.values_of(SECTION) or []
    lines = [
        {str(v).casefold() for v, h in zip(labels, held, strict=False) if h == s and v} for s in sections
    ]
    return all(
        len(a & b) >= REPEATED * min(len(a), len(b)) and min(len(a), len(b)) > 2 for a in lines for b in lines
    )


def _has_figures(rel: Relation, i: int) -> bool:
    """Whether the ``i``-th line holds an amount in some column (a heading holds none, though a note
    number may stand beside it)."""
    return any(
        isinstance(v := (rel.values_of(c.name) or [])[i], int | float) and not isinstance(v, bool)
        for c in amounts(rel)
    )


def _line_cell(rel: Relation, col: str, i: int) -> str:
    """The cell of ``col`` in the ``i``-th line: by its label where no other line has that label,
    else by its place too; an empty cell of a line with figures elsewhere is 0 (a statement's dash)."""
    cell = _line_read(rel, col, i)
    value = (rel.values_of(col) or [])[i]
    return cell if isinstance(value, int | float) else f"COALESCE({cell}, 0)"


def _line_read(rel: Relation, col: str, i: int) -> str:
    key = rel.key
    assert key is not None
    labels = rel.values_of(key.name) or []
    places = rel.values_of(POSITION)
    label = labels[i]
    named = {key.name: label} if isinstance(label, str) and label.strip() else {}
    if (named and labels.count(label) == 1) or places is None:
        return _read(col, named)
    return _read(col, named, places[i])

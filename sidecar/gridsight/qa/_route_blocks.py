"""The blocks route (SQuARE's structure-preserving retrieval) for multi-row headers and merged layouts.

A formula over such a table is awkward, but every value has an address in words: its row label and
its column's header path (``2023 › H1 › Actual``), under the table's unit line. The table is split
into blocks of header + consecutive rows that fit a token budget (SpreadsheetLLM appendix M.2:
header + body[i:i+k]); each block is searched for the rows whose label the question names, and the
blocks' findings are merged (for these rules the same as one search of the whole table; the split
bounds what one step reads, as the paper's does for the model). Where several cells fit equally and
the question holds words the labels do not place ("the first half"), meaning (MiniLM) and then the
model choose among those cells only; where every word is placed, the question is ambiguous and
GridSight asks which.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from gridsight.grid import Kind, Range, Sheet, Workbook
from gridsight.qa._answer import QAAnswer, display_of, value_type
from gridsight.qa._columns import clearly_closest
from gridsight.qa._pick import Candidate
from gridsight.qa._pick import words as _plain_words
from gridsight.qa._relational import table_unit
from gridsight.text import PLAN_AS_BASE, SET_AGAINST, stem, superlative

#: Token budget of one block (the paper's threshold for answering a region in one go).
BLOCK_TOKENS = 4096
#: Rows in a block at least (the paper's header + 3 rows).
MIN_BLOCK_ROWS = 3
#: Cosine margin by which one cell's description must beat the next to be chosen by meaning.
MEANING_MARGIN = 0.05


@dataclass(frozen=True)
class Block:
    """Header rows + a run of data rows of one table: every value keeps its header path and unit."""

    header: Range | None
    body: Range


def _cell_tokens(sheet: Sheet, r: int, left: int, right: int) -> int:
    """cl100k tokens of a row in the vanilla layout, estimated (4 characters a token, 3 per address)."""
    return sum(3 + len(str(sheet.value(r, c) or "")) // 4 for c in range(left, right + 1))


def split_table(sheet: Sheet, table: Any, budget: int = BLOCK_TOKENS) -> list[Block]:
    """Appendix M.2: one block when the table fits ``budget`` tokens, else header + row runs that do."""
    t = table.range
    header = (
        Range(min(table.header_rows), t.left, max(table.header_rows), t.right) if table.header_rows else None
    )
    first = (header.bottom + 1) if header is not None else t.top
    if first > t.bottom:
        return []
    head = (
        sum(_cell_tokens(sheet, r, t.left, t.right) for r in range(header.top, header.bottom + 1))
        if header
        else 0
    )
    sample = range(first, min(first + 20, t.bottom + 1))
    per_row = max(1, sum(_cell_tokens(sheet, r, t.left, t.right) for r in sample) // len(sample))
    step = max(MIN_BLOCK_ROWS, (budget - head) // per_row)
    return [
        Block(header, Range(r, t.left, min(r + step - 1, t.bottom), t.right))
        for r in range(first, t.bottom + 1, step)
    ]


@dataclass(frozen=True)
class _Hit:
    score: int
    row: int
    col: int


class _Labels:
    """The row labels of a table (its row-header columns joined), read once per question."""

    def __init__(self, sheet: Sheet, table: Any, cols: list[int]) -> None:
        t = table.range
        columns = [sheet.column_values(Range(t.top, c, t.bottom, c)) for c in cols]
        self.top = t.top
        self.text = [" ".join(str(v or "") for v in row).strip() for row in zip(*columns, strict=True)]

    def __getitem__(self, row: int) -> str:
        return self.text[row - self.top]


#: Label words that name the whole of what the rest of the label names: "Total operating revenue" is
#: the operating revenue, where "Other operating revenue" is a part of it.
_WHOLE = frozenset({"total"})


#: The words of a line that adds up every other line of its table ("Total", "Totals", "Grand total").
_GRAND_TOTAL = frozenset({"total", "totals", "grand", "overall"})
#: Words that ask for rows, not a figure of the whole ("which type", "the fleet by type", "each").
_ROW_WORDS = frozenset({"which", "who", "whose", "each", "every", "per", "by", "list", "rank"})


def _picks_rows(question: str) -> bool:
    """Whether the question picks or lists lines (which, each, a superlative), not the whole's figure."""
    return any(w in _ROW_WORDS or superlative(w) for w in _plain_words(question))


def _grand_total(blocks: list[Block], labels: _Labels) -> list[int]:
    """The one row of the table labelled only as a total of all the others (``Totals``), if one is."""
    found = [
        r
        for block in blocks
        for r in range(block.body.top, block.body.bottom + 1)
        if (label := _plain_words(labels[r])) and label <= _GRAND_TOTAL
    ]
    return found if len(found) == 1 else []


def _stemmed(text: str) -> set[str]:
    """The stems of a text's words (:func:`gridsight.qa._pick.words`): "inventory" names
    ``Inventories``, as a statement's lines are read; a flat table's cells are matched by the words
    as written (a list of schools is no "locations" for its ``Location`` column's sake alone)."""
    return {stem(w) for w in _plain_words(text)}


def _rows(
    block: Block, asked: set[str], labels: _Labels, words: Callable[[str], set[str]]
) -> list[tuple[int, int]]:
    """Rows of one block whose whole label the question names; scores count the words matched,
    minus the label's words the question leaves out (a total's own word costs nothing)."""
    rows: list[tuple[int, int]] = []
    for r in range(block.body.top, block.body.bottom + 1):
        label_words = words(labels[r])
        hit = len(asked & label_words)
        if hit and hit == len(label_words & asked) and label_words:
            rows.append((hit * 10 - len(label_words - asked - _WHOLE), r))
    return rows


def _cols(
    table: Any,
    asked: set[str],
    label_cols: list[int],
    words: Callable[[str], set[str]],
    base: AbstractSet[str] = frozenset(),
) -> list[tuple[int, int]]:
    """Columns whose header path parts the question names (the same in every block). A column named
    only by what the question sets a figure against (``base``: "the variance against budget", "by
    how much did sales beat budget") is none: the figure asked is another."""
    cols: list[tuple[int, int]] = []
    for i, path in enumerate(table.header_paths):
        c = table.range.left + i
        if c in label_cols:
            continue
        parts = [p.strip().lower() for p in path.split("›") if p.strip()]
        named = [p for p in parts if words(p) and words(p) <= asked]
        if named and not all(words(p) <= base for p in named):
            cols.append((len(named) * 10 - (len(parts) - len(named)), c))
    return cols


def _describe(table: Any, hit: _Hit, labels: _Labels, unit: str | None) -> str:
    path = table.header_paths[hit.col - table.range.left].replace(" › ", " ")
    return f"{labels[hit.row]} for {path}" + (f" ({unit})" if unit else "")


def by_blocks(
    workbook: Workbook, cand: Candidate, question: str, model: Any = None, *, stemmed: bool = False
) -> QAAnswer:
    """The cell whose row label and column header path the question names (see the module docstring);
    ``stemmed``: where the words as written name no cell, they name labels by their stems (a
    statement's lines, :func:`_stemmed`: "inventory" is ``Inventories``)."""
    if stemmed:
        plain = by_blocks(workbook, cand, question, model)
        if plain.status == "answered":
            return plain  # ("services revenue": ``Services``, not also ``Revenues:`` by its stem)
    words = _stemmed if stemmed else _plain_words
    sh, t = cand.sheet, cand.table
    asked = words(question)
    label_cols = list(t.row_header_cols) or [t.range.left]
    labels = _Labels(sh, t, label_cols)
    # (what the question sets a figure against: "the variance against budget", "beat budget")
    base = {
        w
        for m in [*SET_AGAINST.finditer(question), *PLAN_AS_BASE.finditer(question)]
        for w in words(m.group(1))
    }
    cols = _cols(t, asked, label_cols, words, base)
    blocks = split_table(sh, t)
    rows = [hit for block in blocks for hit in _rows(block, asked, labels, words)]
    if not rows and cols and not _picks_rows(question):
        # ("how many aircraft were leased?" of a fleet table: its one ``Totals`` line)
        rows = [(0, r) for r in _grand_total(blocks, labels)]
    if not rows or not cols:
        missing = "row label" if not rows else "column header"
        return _abstain(question, cand, f"no {missing} in the table matches the question")
    rows.sort(key=lambda x: (-x[0], x[1]))
    cols.sort(key=lambda x: (-x[0], x[1]))
    top_rows = [r for s, r in rows if s == rows[0][0]]
    top_cols = [c for s, c in cols if s == cols[0][0]]
    matched = rows[0][0] // 10 + cols[0][0] // 10  # words matched by the label and the header path
    hits = [_Hit(matched, r, c) for r in top_rows for c in top_cols]
    how = "words"
    if len(hits) > 1:
        placed = {w for w in asked if any(w in words(labels[h.row]) for h in hits)}
        placed |= {w for h in hits for w in asked if w in words(t.header_paths[h.col - t.range.left])}
        what = "columns" if len(top_cols) > 1 else "rows"
        names = [_describe(t, h, labels, None) for h in hits]
        reason = f"the question fits several {what} ({'; '.join(names[:3])}); say which"
        if asked <= placed or len(hits) > 6:
            return _abstain(question, cand, reason)
        texts = [_describe(t, h, labels, table_unit(t)) for h in hits]
        i = clearly_closest(question, texts, MEANING_MARGIN)
        if i is None:
            from gridsight.qa._choose import choose

            i = choose(model, question, texts)
            how = "model"
        else:
            how = "meaning"
        if i is None:
            return _abstain(question, cand, reason)
        hits = [hits[i]]
    return _answer(workbook, cand, question, hits[0], label_cols, labels, how)


#: A dash written for nil in a column of figures (``-``, ``–``, ``—``).
NIL = re.compile(r"\s*[-–—]\s*")


def _figures_around(sheet: Sheet, table: Any, col: int) -> bool:
    """Whether the table's column holds figures in most of its filled cells (three at least)."""
    body = range(max(table.header_rows) + 1 if table.header_rows else table.range.top, table.range.bottom + 1)
    filled = [v for r in body if (v := sheet.value(r, col)) not in (None, "")]
    numbers = sum(1 for v in filled if isinstance(v, int | float) and not isinstance(v, bool))
    return numbers >= 3 and 2 * numbers > len(filled)


def _abstain(question: str, cand: Candidate, reason: str) -> QAAnswer:
    return QAAnswer(question, "abstained", reason=reason, route="blocks", table=cand.ref)


def _answer(
    workbook: Workbook,
    cand: Candidate,
    question: str,
    hit: _Hit,
    label_cols: list[int],
    labels: _Labels,
    how: str,
) -> QAAnswer:
    from gridsight.formula import evaluate_formula
    from gridsight.qa._relational import parse_number

    sh, t = cand.sheet, cand.table
    r, c = hit.row, hit.col
    cell = sh.cell(r, c)
    address = Range(r, c, r, c).ref()
    value: Any = cell.value if cell.kind != Kind.EMPTY else None
    if cell.formula and value is None:  # a formula never calculated by Excel: compute it now
        ev = evaluate_formula(cell.formula, workbook, sh, at=(r, c))
        if not ev.ok or ev.error is not None:
            return _abstain(question, cand, f"{address} holds {cell.formula}, which does not evaluate")
        value = ev.value
    if value is None:
        return _abstain(question, cand, f"{address} is empty")
    if isinstance(value, str) and (number := parse_number(value)) is not None:
        value = number  # a figure stored as text ("23,043"), read as the relational view reads it
    elif isinstance(value, str) and NIL.fullmatch(value) and _figures_around(sh, t, c):
        value = 0  # (a dash among a column's figures: nil, as a statement writes it)
    header_cells = Range(min(t.header_rows), c, max(t.header_rows), c).ref() if t.header_rows else address
    label_cells = Range(r, min(label_cols), r, max(label_cols)).ref()
    evidence = [{"sheet": sh.name, "range": x} for x in dict.fromkeys([address, label_cells, header_cells])]
    path = t.header_paths[c - t.range.left]
    unit = table_unit(t)
    shown = display_of(value)
    sentence = (
        f"{labels[r]} for {path.replace(' › ', ' ')} is {shown}"
        + (f" ({unit})" if unit else "")
        + f", in {address}."
    )
    confidence = round(min(0.95, 0.4 + 0.15 * hit.score), 2)
    if how != "words":
        sentence += f" (several cells fit; {'meaning' if how == 'meaning' else 'the model'} chose this one)"
        confidence = min(confidence, 0.6)
    ref = f"='{sh.name}'!{address}" if re.search(r"[^A-Za-z0-9_]", sh.name) else f"={sh.name}!{address}"
    answer = QAAnswer(
        question,
        "answered",
        value,
        shown,
        value_type(value),
        ref,
        None,
        evidence,
        "blocks",
        unit,
        sentence,
        None,
        confidence,
        cand.ref,
    )
    answer.chosen_by = None if how == "words" else how
    return answer

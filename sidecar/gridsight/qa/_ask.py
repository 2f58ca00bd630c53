"""Answer a question: pick the table, route by structure, gate on confidence, abstain with a reason."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gridsight.errors import GridSightError
from gridsight.grid import Kind, Range, Sheet, Workbook
from gridsight.qa._answer import QAAnswer, display_of, value_type

#: Structure score at which a table is answered by header paths instead of a formula (SQuARE routes
#: multi-row headers and merged layouts to structure-preserving blocks).
BLOCKS_AT = 1.0
#: Below this, an answer from one route is not trusted: the other route is tried, then abstention.
CONFIDENT = 0.5
MAX_QUESTION = 2000
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    "a an the of in on for to by with from and or is are was were be what which who how many much "
    "there any that this these those its it as at all each me show tell give value".split()
)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(str(text).lower()) if w not in _STOP}


@dataclass
class _Candidate:
    sheet: Sheet
    table: Any  # DetectedTable
    score: float


def structure_score(table: Any, sheet: Sheet) -> float:
    """Header depth beyond one row, plus ten times the share of merged cells in the header area."""
    depth = len(table.header_rows)
    header = (
        Range(min(table.header_rows), table.range.left, max(table.header_rows), table.range.right)
        if table.header_rows
        else None
    )
    merged = 0
    if header is not None:
        for m in sheet.merges:
            part = m.with_sheet(None).intersect(header)
            if part is not None:
                merged += part.size
    density = merged / header.size if header is not None and header.size else 0.0
    return round(max(0, depth - 1) + 10 * density, 2)


def _table_score(question: set[str], sheet: Sheet, table: Any) -> float:
    """How much of the question this table's headers, titles and row labels name."""
    named: set[str] = set()
    for path in table.header_paths:
        named |= _words(path)
    for label in (*table.titles, *table.units):
        named |= _words(label.text)
    for col in table.row_header_cols:
        for r in range(table.range.top, table.range.bottom + 1):
            v = sheet.value(r, col)
            if isinstance(v, str):
                named |= _words(v)
    hit = sum(1 for w in question if w in named or any(n.startswith(w) and len(w) > 3 for n in named))
    return hit / max(1, len(question))


def _candidates(workbook: Workbook, sheet: str | None, question: str) -> list[_Candidate]:
    from gridsight.detect import detect_tables

    words = _words(question)
    sheets = [workbook.sheet(sheet)] if sheet else list(workbook.sheets)
    out = []
    for sh in sheets:
        for t in detect_tables(sh).tables:
            out.append(_Candidate(sh, t, _table_score(words, sh, t)))
    return sorted(out, key=lambda c: -c.score)


def answer_question(
    workbook: Workbook, question: str, sheet: str | None = None, *, model: Any = None
) -> QAAnswer:
    """The answer to ``question`` with its evidence, or an abstention that says why."""
    q = (question or "").strip()
    if not q:
        return QAAnswer(question, "abstained", reason="the question is empty")
    if len(q) > MAX_QUESTION:
        return QAAnswer(
            question, "abstained", reason=f"the question is longer than {MAX_QUESTION:,} characters"
        )
    found = _candidates(workbook, sheet, q)
    if not found:
        return QAAnswer(question, "abstained", reason="no table was found on the sheet(s)")
    best = found[0]
    if best.score == 0 and len(found) > 1:  # one table: its routes decide (values, synonyms...)
        return QAAnswer(
            question, "abstained", reason="no table's headers or labels match the question's words"
        )
    rivals = [
        c
        for c in found[1:]
        if c.score == best.score and (c.sheet, c.table.range) != (best.sheet, best.table.range)
    ]
    if rivals:
        tied = [best, *rivals][:8]
        chosen = _by_meaning(q, tied) or (_by_model(q, tied, model) if model is not None else None)
        if chosen is None:
            names = ", ".join(f"{c.sheet.name}!{c.table.range.ref()}" for c in tied[:4])
            return QAAnswer(
                question, "abstained", reason=f"several tables fit the question equally ({names}); say which"
            )
        best = chosen
    structure = structure_score(best.table, best.sheet)
    routes = ("blocks", "formula") if structure >= BLOCKS_AT else ("formula", "blocks")
    tried: list[str] = []
    for route in routes:
        ans = _blocks(workbook, best, q) if route == "blocks" else _formula(workbook, best, q, model)
        ans.structure = structure
        if ans.status == "answered" and ans.confidence >= CONFIDENT:
            return ans
        tried.append(f"{route}: {ans.reason or f'confidence {ans.confidence:.2f}'}")
    return QAAnswer(
        question,
        "abstained",
        reason="no route answered with confidence (" + "; ".join(tried) + ")",
        table=f"{best.sheet.name}!{best.table.range.ref()}",
        structure=structure,
    )


_AMOUNT_SHAPES = (
    "aggregate-sum",
    "aggregate-average",
    "aggregate-max",
    "aggregate-min",
    "aggregate-median",
    "extreme-",
    "lookup-extreme",
    "top-n-values",
    "change",
)


#: How much closer (cosine) one table's description must be to the question to break a lexical tie.
MEANING_MARGIN = 0.05


def _describe(c: _Candidate) -> str:
    """What a table is about, in words: sheet, titles, column header paths, first row labels."""
    t = c.table
    labels = []
    for col in t.row_header_cols[:1]:
        first = (max(t.header_rows) + 1) if t.header_rows else t.range.top
        for r in range(first, min(first + 5, t.range.bottom + 1)):
            v = c.sheet.value(r, col)
            if isinstance(v, str):
                labels.append(v)
    titles = " ".join(x.text for x in t.titles)
    columns = ", ".join(p for p in t.header_paths if p)
    return f"{c.sheet.name}. {titles}. Columns: {columns}. Rows: {', '.join(labels)}"


def _by_meaning(question: str, tied: list[_Candidate]) -> _Candidate | None:
    """The tied table whose description is clearly closest in meaning (MiniLM embeddings), or None."""
    try:
        from gridsight.llm.embeddings import shared_embedder

        vectors = shared_embedder().embed([question, *(_describe(c) for c in tied)])
    except Exception:  # no embedding model here: the tie stands
        return None
    sims = vectors[1:] @ vectors[0]
    order = sims.argsort()[::-1]
    if len(order) > 1 and sims[order[0]] - sims[order[1]] < MEANING_MARGIN:
        return None
    return tied[int(order[0])]


def _by_model(question: str, tied: list[_Candidate], model: Any) -> _Candidate | None:
    """The model names one of the tied tables by number (a grammar admits nothing else)."""
    from gridsight.llm import Grammar

    options = "\n".join(f"{i}. {_describe(c)}" for i, c in enumerate(tied, 1))
    grammar = Grammar.from_gbnf("root ::= " + " | ".join(f'"{i}"' for i in range(1, len(tied) + 1)) + "\n")
    prompt = (
        "Which table answers the question? Answer with its number only.\n"
        f"Question: {question}\nTables:\n{options}"
    )
    try:
        pick = int(model.complete(prompt, grammar=grammar, max_tokens=3, timeout_s=20).text.strip()) - 1
    except Exception:  # cancelled, timed out, not a number: the tie stands
        return None
    return tied[pick] if 0 <= pick < len(tied) else None


def _unit(table: Any) -> str | None:
    return table.units[0].text if table.units else None


def _formula(workbook: Workbook, cand: _Candidate, question: str, model: Any) -> QAAnswer:
    from gridsight.formula import generate_formula

    t = cand.table
    header = max(t.header_rows) if t.header_rows else t.range.top
    bottom = t.range.bottom
    totals = set(t.total_rows) | set(t.subtotal_rows)
    while bottom > header and bottom in totals:
        bottom -= 1
    area = Range(header, t.range.left, bottom, t.range.right)
    ans = generate_formula(question, workbook, cand.sheet, area=area, model=model)
    table = f"{cand.sheet.name}!{t.range.ref()}"
    if ans.formula is None:
        return QAAnswer(question, "abstained", reason=ans.reason, route="formula", table=table)
    evidence = [{"sheet": cand.sheet.name, "range": r.split("!")[-1].replace("'", "")} for r in ans.evidence]
    value = ans.value
    # the table's unit line applies to its amounts, not to counts, shares or growth
    amount = (ans.shape or "").startswith(_AMOUNT_SHAPES) and value_type(value) in ("number", "list")
    amount = amount and ans.display is None  # dates shown as dates are not amounts
    return QAAnswer(
        question,
        "answered",
        value,
        ans.display if ans.display is not None else display_of(value),
        value_type(value),
        ans.formula,
        None,
        evidence,
        "formula",
        _unit(t) if amount else None,
        ans.explanation or "",
        None,
        ans.confidence,
        table,
    )


def _blocks(workbook: Workbook, cand: _Candidate, question: str) -> QAAnswer:
    """The cell whose row label and column header path the question names (multi-row headers)."""
    from gridsight.formula import evaluate_formula

    sh, t = cand.sheet, cand.table
    table = f"{sh.name}!{t.range.ref()}"
    words = _words(question)
    first_data = (max(t.header_rows) + 1) if t.header_rows else t.range.top
    label_cols = [c for c in t.row_header_cols] or [t.range.left]
    rows: list[tuple[int, int]] = []
    for r in range(first_data, t.range.bottom + 1):
        label = " ".join(str(sh.value(r, c) or "") for c in label_cols)
        label_words = _words(label)
        hit = len(words & label_words)
        if hit and hit == len(label_words & words) and label_words:
            rows.append((hit * 10 - len(label_words - words), r))
    cols: list[tuple[int, int]] = []
    for i, path in enumerate(t.header_paths):
        c = t.range.left + i
        if c in label_cols:
            continue
        parts = [p.strip().lower() for p in path.split("›") if p.strip()]
        hit = sum(1 for p in parts if _words(p) and _words(p) <= words)
        if hit:
            cols.append((hit * 10 - (len(parts) - hit), c))
    if not rows or not cols:
        missing = "row label" if not rows else "column header"
        return QAAnswer(
            question,
            "abstained",
            reason=f"no {missing} in the table matches the question",
            route="blocks",
            table=table,
        )
    rows.sort(reverse=True)
    cols.sort(reverse=True)
    if len(cols) > 1 and cols[0][0] == cols[1][0]:
        paths = [t.header_paths[c - t.range.left] for _s, c in cols[:3] if cols[0][0] == _s]
        return QAAnswer(
            question,
            "abstained",
            reason=f"the question fits several columns ({'; '.join(paths)}); say which",
            route="blocks",
            table=table,
        )
    if len(rows) > 1 and rows[0][0] == rows[1][0]:
        return QAAnswer(
            question,
            "abstained",
            reason="the question fits several rows; say which",
            route="blocks",
            table=table,
        )
    r, c = rows[0][1], cols[0][1]
    cell = sh.cell(r, c)
    address = Range(r, c, r, c).ref()
    value: Any = cell.value if cell.kind != Kind.EMPTY else None
    if cell.formula and value is None:  # a formula never calculated by Excel: compute it now
        ev = evaluate_formula(cell.formula, workbook, sh, at=(r, c))
        if not ev.ok or ev.error is not None:
            return QAAnswer(
                question,
                "abstained",
                reason=f"{address} holds {cell.formula}, which does not evaluate",
                route="blocks",
                table=table,
            )
        value = ev.value
    if value is None:
        return QAAnswer(question, "abstained", reason=f"{address} is empty", route="blocks", table=table)
    header_cells = Range(min(t.header_rows), c, max(t.header_rows), c).ref() if t.header_rows else address
    label_cells = Range(r, min(label_cols), r, max(label_cols)).ref()
    evidence = [{"sheet": sh.name, "range": x} for x in dict.fromkeys([address, label_cells, header_cells])]
    path = t.header_paths[c - t.range.left]
    label = " ".join(str(sh.value(r, lc) or "") for lc in label_cols).strip()
    unit = _unit(t)
    shown = display_of(value)
    sentence = (
        f"{label} for {path.replace(' › ', ' ')} is {shown}"
        + (f" ({unit})" if unit else "")
        + f", in {address}."
    )
    matched = (rows[0][0] // 10) + (cols[0][0] // 10)
    confidence = round(min(0.95, 0.4 + 0.15 * matched), 2)
    ref = f"='{sh.name}'!{address}" if re.search(r"[^A-Za-z0-9_]", sh.name) else f"={sh.name}!{address}"
    return QAAnswer(
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
        table,
    )


def evidence_valid(answer: QAAnswer, workbook: Workbook) -> bool:
    """Every evidence range names a real sheet and lies inside the sheet's used range."""
    for ev in answer.evidence:
        try:
            sh = workbook.sheet(ev["sheet"])
            rng = Range.parse(ev["range"])
        except (GridSightError, KeyError, ValueError):
            return False
        used = sh.used_range
        inside = used.with_sheet(None).intersect(rng.with_sheet(None)) if used is not None else None
        if inside is None or inside.ref() != rng.with_sheet(None).ref():
            return False
    return True

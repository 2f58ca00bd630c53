"""The model's part: it judges what the table does not state, one record at a time, under a grammar.

For each target cell (scaffold order) the model sees a short prompt -- caption, header rows, the record
templates, then the cell's own row and the cell -- and writes one JSON object under a JSON-schema
grammar: ``value`` (one of the next few scaffold values), ``type`` (one of the schema's types) and each
judged attribute (one of the texts around the cell -- header pieces, row labels, section, their words --
or null). The copied attributes (unit, header path, row label) never go through the model.

Order check and recovery (the paper's): a record whose ``value`` is not the next scaffold cell's left the
left-to-right, top-down order; it is dropped (truncated) and the model is prompted again with that next
cell's value fixed. Prompts share their beginning (table and templates first, the row and the cell
last), so the model's prompt cache evaluates each table's head once and each cell's tail only.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gridsight.errors import GrammarError, ModelError
from gridsight.extract._detect import Structure, TargetCell
from gridsight.extract._records import STRONG, Record, fill_attributes, types_named
from gridsight.extract._schema import ExtractSchema
from gridsight.extract._sides import judged_names
from gridsight.extract._table import TableGrid
from gridsight.llm import Grammar, Message

#: Scaffold values the model may name for the next record (the next cell and this many - 1 after it).
VALUE_WINDOW = 3
#: Texts offered per judged attribute, and their length.
MAX_CHOICES = 24
CHOICE_CHARS = 60
#: Characters of the caption, a header row, the cell's row, the context text in the prompt.
CAPTION_CHARS = 200
ROW_CHARS = 240
CONTEXT_CHARS = 400
MAX_TOKENS = 96
TIMEOUT_S = 60.0

SYSTEM = (
    "You describe numeric cells of a table as JSON records that follow the given templates. "
    "Pick the record type the cell's column, row and caption support; use the fallback type when none "
    "fits. Fill each attribute with the table text it names, or null when the table does not say."
)


@dataclass
class ModelStats:
    """What the model cost for one extraction."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    recoveries: int = 0  # records dropped for leaving the order, then asked again
    failures: int = 0  # cells the model could not describe (the rules' record was kept)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "recoveries": self.recoveries,
            "failures": self.failures,
            "seconds": round(self.seconds, 3),
        }


def in_order(values: Sequence[str], expected: Sequence[str]) -> int:
    """How many leading generated records follow the scaffold order (the paper's order check): the
    output is truncated after them and the next prompt starts at ``expected[n]``."""
    n = 0
    for got, want in zip(values, expected, strict=False):
        if got != want:
            break
        n += 1
    return n


_FOOTNOTE = re.compile(r"(?<=[)\]A-Z0-9])[a-h*†‡§](?=\s|$)")
_BRACKETS = re.compile(r"[(\[][^()\[\]]*[)\]]")


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def choices(grid: TableGrid, st: Structure, cell: TargetCell, schema: ExtractSchema) -> dict[str, str]:
    """Texts a judged attribute may take, each with the side of the table it comes from (``row``:
    the cell's row labels and section; ``column``: its header levels): the texts without brackets,
    footnote marks and type names, then their words."""
    raw: list[tuple[str, str]] = [("row", grid.text(cell.row, c)) for c in st.label_cols]
    raw.append(("row", st.row_labels[cell.row]))
    raw += [("column", grid.text(r, cell.col)) for r in range(st.header_rows)]
    raw.append(("row", st.sections[cell.row]))
    out: dict[str, str] = {}
    for side, text in raw:
        stripped = _stripped(text, schema)
        # the text as written only when stripping left it whole: its unit and type name belong to
        # other attributes, which the code fills
        pieces = stripped if stripped[0] and stripped[0] != text else [text, *stripped[1:]]
        for piece in pieces:
            piece = piece.strip(" /,;:")
            if piece and len(piece) <= CHOICE_CHARS and piece not in out and not _is_number_only(piece):
                out[piece] = side
    return dict(list(out.items())[:MAX_CHOICES])


@dataclass
class Roles:
    """Which side of the table (row labels or column headers) each judged attribute is read from.

    Decided once per table when the model can score text (:func:`score_roles`: the likeliest reading
    of a few cells, all attributes together), else by a vote over the model's records so far. Once an
    attribute's side is known, later records offer it only texts from that side: one table reads one
    way, not a different way per cell."""

    votes: dict[str, dict[str, int]] = field(default_factory=dict)
    fixed: dict[str, str] = field(default_factory=dict)
    #: Attributes the table's sides give (:mod:`gridsight.extract._sides`): copied, never asked.
    copied: frozenset[str] = frozenset()
    #: Whether some text of the table names a record type: the rules' types then stand.
    types_named: bool = False
    #: The table's side reading (a :class:`~gridsight.extract._sides.TableSides`), for a retyped cell.
    sides: Any = None
    #: Scored types by header path: cells under one header whose labels name no type share the judgement.
    types: dict[str, str] = field(default_factory=dict)

    def add(self, attribute: str, side: str | None) -> None:
        if side is not None:
            counts = self.votes.setdefault(attribute, {})
            counts[side] = counts.get(side, 0) + 1

    def side(self, attribute: str) -> str | None:
        if attribute in self.fixed:
            return self.fixed[attribute]
        counts = self.votes.get(attribute, {})
        total = sum(counts.values())
        if total < ROLE_VOTES:
            return None
        best = max(counts, key=lambda k: counts[k])
        return best if counts[best] / total >= ROLE_SHARE else None


#: Records an attribute's side is voted on before it is fixed, and the share the winner needs.
ROLE_VOTES = 6
ROLE_SHARE = 0.6


def _is_number_only(text: str) -> bool:
    return re.fullmatch(r"[\d.,\s%±-]+", text) is not None and not re.fullmatch(r"\d{1,3}[a-z]?", text)


def _stripped(text: str, schema: ExtractSchema) -> list[str]:
    """The text without bracketed parts, a trailing footnote mark and type names, then its words."""
    s = _BRACKETS.sub(" ", _FOOTNOTE.sub("", text))
    s = re.sub(r"\s+", " ", s).strip()
    for name in types_named(schema, s):
        s = re.sub(re.escape(name), " ", s, flags=re.I)
    s = re.sub(r"\s+", " ", s).strip(" -–,")
    words = [w.strip(",;:") for w in s.split() if len(w.strip(",;:")) >= 2]
    return [s, *words] if len(words) > 1 else [s]


def table_head(grid: TableGrid, st: Structure, schema: ExtractSchema, context: str | None) -> str:
    """The part of the prompt shared by every cell of the table."""
    lines = []
    if context:
        lines.append("Context: " + _short(context, CONTEXT_CHARS))
    if grid.caption:
        lines.append("Caption: " + _short(grid.caption, CAPTION_CHARS))
    for r in range(st.header_rows):
        lines.append("Header: " + _short(" | ".join(grid.rows[r]), ROW_CHARS))
    lines.append("")
    lines.append(f"JSON templates for {len(schema.types)} record types:")
    lines += schema.templates()
    if schema.fallback:
        lines.append(f'Use "{schema.fallback}" for a cell no other type fits.')
    return "\n".join(lines)


def cell_prompt(grid: TableGrid, st: Structure, cell: TargetCell, head: str) -> list[Message]:
    """Chat messages for one cell: the table head, then its row, then the cell."""
    row = _short(" | ".join(grid.rows[cell.row]), ROW_CHARS)
    col = st.header_paths[cell.col] if cell.col < len(st.header_paths) else ""
    label = st.row_labels[cell.row]
    tail = f"\n\nRow: {row}\n\nCell: {cell.text!r} in column {col!r}" + (f", row {label!r}" if label else "")
    tail += ". Describe it as one JSON record."
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": head + tail}]


#: Cells whose readings are scored to decide the sides, and the most judged attributes decided jointly.
ROLE_CELLS = 3
ROLE_ATTRIBUTES = 3


def _first(options: dict[str, str], side: str) -> str | None:
    return next((text for text, s in options.items() if s == side), None)


def _score(model: Any, messages: list[Message], text: str, stats: ModelStats) -> float | None:
    started = time.perf_counter()
    try:
        value = float(model.score(messages, text, timeout_s=TIMEOUT_S))
    except (ModelError, AttributeError, TypeError) as exc:
        stats.notes.append(f"score: {exc}"[:200])
        return None
    finally:
        stats.seconds += time.perf_counter() - started
    stats.calls += 1
    return value


def score_roles(
    model: Any,
    grid: TableGrid,
    st: Structure,
    schema: ExtractSchema,
    cells: Sequence[TargetCell],
    records: Sequence[Record],
    head: str,
    stats: ModelStats,
) -> dict[str, str]:
    """Each judged attribute's side, from the likeliest joint reading of the first few typed cells:
    every assignment of row/column to the attributes is scored as the record's continuation."""
    if not getattr(model, "can_score", False):
        return {}
    attrs = judged_names(schema)[:ROLE_ATTRIBUTES]
    if not attrs:
        return {}
    picked = [i for i, r in enumerate(records) if r.type not in (None, schema.fallback)][:ROLE_CELLS]
    totals: dict[tuple[str, ...], float] = {}
    for i in picked or range(min(ROLE_CELLS, len(cells))):
        cell, rec = cells[i], records[i]
        options = choices(grid, st, cell, schema)
        texts = {side: _first(options, side) for side in ("row", "column")}
        if None in texts.values():
            continue
        messages = cell_prompt(grid, st, cell, head)
        rtype = rec.type if rec.type not in (None, schema.fallback) else judged_type_name(schema)
        for combo in itertools.product(("row", "column"), repeat=len(attrs)):
            body = ", ".join(
                f"{json.dumps(a)}: {json.dumps(texts[side])}" for a, side in zip(attrs, combo, strict=True)
            )
            text = "{" + f'"value": {json.dumps(cell.value)}, "type": {json.dumps(rtype)}, ' + body
            value = _score(model, messages, text, stats)
            if value is None:
                return {}
            totals[combo] = totals.get(combo, 0.0) + value
    if not totals:
        return {}
    best = max(totals, key=lambda k: totals[k])
    return dict(zip(attrs, best, strict=True))


def judged_type_name(schema: ExtractSchema) -> str:
    return next((t.name for t in schema.types if t.name != schema.fallback), schema.types[0].name)


def score_type(
    model: Any, messages: list[Message], cell: TargetCell, names: Sequence[str], stats: ModelStats
) -> str | None:
    """The likeliest record type for a cell whose labels do not settle it."""
    if not getattr(model, "can_score", False) or len(names) < 2:
        return None
    best, best_score = None, float("-inf")
    for name in names:
        value = _score(
            model, messages, "{" + f'"value": {json.dumps(cell.value)}, "type": {json.dumps(name)}', stats
        )
        if value is None:
            return None
        if value > best_score:
            best, best_score = name, value
    return best


def record_schema(
    schema: ExtractSchema,
    values: Sequence[str],
    type_options: Sequence[str],
    options: dict[str, str],
    roles: Roles | None = None,
) -> dict[str, Any]:
    """The JSON schema the model's record must match: the value, the type, then each judged text
    attribute (one of ``options``, those of its voted side only once the vote is clear, or null).
    Object-valued attributes are left to the code (empty)."""
    props: dict[str, Any] = {"value": {"enum": list(dict.fromkeys(values))}}
    if len(type_options) > 1:
        props["type"] = {"enum": list(type_options)}  # one settled type is not written by the model
    for t in schema.types:
        if t.name not in type_options:
            continue
        for a in t.attributes:
            if not a.judged or a.kind != "string" or a.name in props:
                continue
            if roles is not None and a.name in roles.copied:
                continue  # the table's sides give it
            side = roles.side(a.name) if roles is not None else None
            texts = [text for text, s in options.items() if side is None or s == side]
            props[a.name] = {"enum": [*texts, None]} if texts else {"type": "null"}
    return {"type": "object", "properties": props, "required": list(props)}


def type_options(schema: ExtractSchema, rec: Record, types_named: bool = False) -> list[str]:
    """The types the model may choose: the rules' own alone when the cell's labels name exactly one (the
    table states it), when some text of the table names a type (the table says which cells hold
    which type: the others are the fallback) or when the embeddings typed it (measured: the 0.5B
    model's scored types were worse), else all (the rules' guess first, the fallback last)."""
    if rec.type is not None and (rec.evidence in (*STRONG, "embedding") or types_named):
        return [rec.type]
    first = [rec.type] if rec.type is not None and rec.type != schema.fallback else []
    rest = [n for n in schema.names if n != schema.fallback and n not in first]
    return first + rest + ([schema.fallback] if schema.fallback else [])


def _copied(roles: Roles | None) -> frozenset[str]:
    return roles.copied if roles is not None else frozenset()


def _asked(schema: ExtractSchema, type_name: str, roles: Roles | None) -> list[str]:
    """The judged text attributes of a type that the model is asked for (those no side gives)."""
    rtype = schema.get(type_name)
    if rtype is None:
        return []
    return [
        a.name for a in rtype.attributes if a.judged and a.kind == "string" and a.name not in _copied(roles)
    ]


def ask(
    model: Any, messages: list[Message], grammar_doc: dict[str, Any], stats: ModelStats
) -> dict[str, Any] | None:
    """One constrained completion; the parsed object, or None when the model gave nothing usable."""
    try:
        grammar = Grammar.from_json_schema(grammar_doc, name="extract-record")
    except GrammarError as exc:
        stats.notes.append(f"grammar: {exc}")
        return None
    started = time.perf_counter()
    try:
        done = model.complete(messages, grammar=grammar, max_tokens=MAX_TOKENS, timeout_s=TIMEOUT_S)
    except ModelError as exc:
        stats.failures += 1
        stats.notes.append(str(exc)[:200])
        return None
    finally:
        stats.seconds += time.perf_counter() - started
    stats.calls += 1
    stats.prompt_tokens += done.prompt_tokens
    stats.completion_tokens += done.completion_tokens
    if done.truncated:
        return None
    try:
        doc = json.loads(done.text)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def judge(
    model: Any,
    grid: TableGrid,
    st: Structure,
    schema: ExtractSchema,
    cells: Sequence[TargetCell],
    index: int,
    rec: Record,
    head: str,
    stats: ModelStats,
    roles: Roles | None = None,
) -> Record:
    """The model's record for ``cells[index]`` (the rules' record kept where the model fails).

    The type: the rules' when the cell's own labels name it; else the likeliest by score (or, for a
    model that cannot score, the model's choice under the grammar). The judged attributes: one
    constrained completion, order-checked against the scaffold.
    """
    cell = cells[index]
    messages = cell_prompt(grid, st, cell, head)
    types = type_options(schema, rec, roles.types_named if roles is not None else False)
    if len(types) > 1:  # the labels do not settle the type: the likeliest one, by score
        known = roles.types.get(rec.header_path) if roles is not None else None
        scored = known or score_type(model, messages, cell, types, stats)
        if scored is not None:
            types = [scored]
            if roles is not None and rec.header_path:
                roles.types[rec.header_path] = scored
    if types == [schema.fallback]:
        if rec.type != schema.fallback:
            rec.type, rec.evidence, rec.filled_by = schema.fallback, "model", "model"
            fill_attributes(rec, schema, grid, {})
        return rec  # nothing left to judge
    if len(types) == 1 and types[0] != rec.type:
        rec.type, rec.evidence, rec.filled_by = types[0], "model", "model"
        given = roles.sides.values(grid, st, schema, cell, rec.type) if roles and roles.sides else {}
        fill_attributes(rec, schema, grid, given)
    options = choices(grid, st, cell, schema)
    if len(types) == 1 and not _asked(schema, types[0], roles):
        return rec  # the type is settled and the sides give every judged attribute: nothing to ask
    upcoming = [c.value for c in cells[index : index + VALUE_WINDOW]]
    doc = ask(model, messages, record_schema(schema, upcoming, types, options, roles), stats)
    if doc is not None and in_order([str(doc.get("value"))], [cell.value]) == 0:
        stats.recoveries += 1  # out of order: truncate, and prompt again from this cell
        doc = ask(model, messages, record_schema(schema, [cell.value], types, options, roles), stats)
    if doc is None or doc.get("value") != cell.value:
        stats.failures += doc is not None
        return rec
    chosen = doc.get("type", types[0])
    if isinstance(chosen, str) and schema.get(chosen) is not None:
        if chosen != rec.type:
            rec.evidence = "model"
        rec.type = chosen
    judged = {k: v for k, v in doc.items() if k not in ("value", "type") and isinstance(v, str)}
    if roles is not None and rec.type != schema.fallback:
        for name, text in judged.items():
            roles.add(name, options.get(text))
    if roles is not None and roles.sides is not None:
        judged.update(roles.sides.values(grid, st, schema, cell, rec.type))
    fill_attributes(rec, schema, grid, judged)
    rec.filled_by = "model"
    return rec

"""Judged attributes from the table's two sides: which attribute reads the row labels, which the column
headers, and the text each side gives a cell.

A table states most of what a record needs on its two sides: the row labels name the thing a row is
about, the column headers the thing a column measures. A judged attribute (``treatment compound``,
``target compound``, ``metric``, ``model/method``) is read from one side, the same side for the whole
table:

* :meth:`SideReader.texts` -- per cell, the text each side gives: ``row`` is the row's *identifying* label
  column (the label column with the most distinct values, so a substituent column ``R1`` next to the
  compound number is not read), ``column`` is the cell's header path without the record type's name,
  the unit, brackets, footnote marks and dispersion tails (``± SD``), keeping only the header levels
  that tell apart the columns holding the same record type (``CHO-D2 / EC50 (nM)`` and
  ``CHO-D3 / EC50 (nM)`` differ by their upper level: ``CHO-D2``).
* :func:`assign_sides` -- one side per attribute, at most one attribute per side: a side whose
  header holds a word of the attribute's own name (the words it does not share with the other judged
  attributes: ``target`` for ``target compound``) takes it; where no header names one, the schema's
  order decides (the first judged attribute reads the rows: a table lists the things it is about down
  its rows) when there are no more judged attributes than sides.

Measured and left out: MiniLM similarity between an attribute's name and a side's header text (it
cannot tell ``treatment`` from ``target`` for headers such as ``enzyme`` or ``compd``: it cost up to
18 points of Table-F1 on the visible ChemTables tables, 2 at the widest margin tried), and the chat
models' scores for the two readings (asked which side holds which, the 0.5B and 1.5B models say "the
rows are the treatment" on every table; scoring a statement of each reading, the 0.5B model's verdict
flips with the order the two attributes are named in).

No word list: the names come from the user's schema, the texts from the table.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from gridsight.extract._detect import Structure, TargetCell, header_unit
from gridsight.extract._schema import ExtractSchema
from gridsight.extract._table import TableGrid

SIDES = ("row", "column")
#: Characters of a side's description compared with the attribute names.
DESCRIPTION_CHARS = 200

_FOOTNOTE_MARK = re.compile(r"(?<=[A-Z0-9])[a-h*†‡§¶](?=\s|$|[(\[/])|(?<=\S)[*†‡§¶]+(?=\s|$)")
_GLUED_MARK = re.compile(r"(?<=[)\]])[a-h*†‡§¶]{1,2}(?=\s|$)")
_BRACKETED = re.compile(r"[(\[][^()\[\]]*[)\]]")
_DISPERSION = re.compile(r"\s*(?:±|\+/-)\s*\S*\s*$")

Embed = Callable[[Sequence[str]], np.ndarray]


def judged_names(schema: ExtractSchema) -> list[str]:
    """Judged text attributes of the schema's non-fallback types, in template order."""
    out: list[str] = []
    for t in schema.types:
        if t.name == schema.fallback:
            continue
        out += [a.name for a in t.attributes if a.judged and a.kind == "string" and a.name not in out]
    return out


def identifying_column(grid: TableGrid, st: Structure) -> int | None:
    """The label column with the most distinct values over the data rows (the leftmost on ties)."""
    best, best_n = None, 0
    for c in st.label_cols:
        values = {grid.text(r, c) for r in range(st.header_rows, grid.height) if grid.text(r, c)}
        if len(values) > best_n:
            best, best_n = c, len(values)
    return best


def strip_header(text: str, schema: ExtractSchema) -> str:
    """A header without the record types' names, its unit, brackets, footnote marks and ``± SD``."""
    s = _GLUED_MARK.sub("", text)
    unit = header_unit(s)
    s = _BRACKETED.sub(" ", s)
    s = _FOOTNOTE_MARK.sub("", s)
    for t in schema.types:
        s = re.sub(r"(?<![\w])" + re.escape(t.name) + r"(?![\w])", " ", s, flags=re.IGNORECASE)
    if unit:
        s = re.sub(r"(?:\bin\s+|,\s*)?" + re.escape(unit) + r"\s*$", " ", s.strip())
    s = _DISPERSION.sub("", s)
    return re.sub(r"\s+", " ", s).strip(" -–,;:/")


def distinguishing_levels(grid: TableGrid, st: Structure, cols: Sequence[int]) -> list[int]:
    """Header rows whose texts differ among ``cols`` (all rows when one column or none differ)."""
    levels = list(range(st.header_rows))
    if len(cols) < 2:
        return levels
    kept = [r for r in levels if len({grid.text(r, c) for c in cols}) > 1]
    return kept or levels


@dataclass(frozen=True)
class SideReader:
    """Per table: the identifying label column and, per record type, the header levels kept."""

    id_col: int | None
    levels: dict[str, list[int]]
    #: Per record type, the header words all its columns share (``Inhibition`` in ``CHK1 Inhibition``
    #: and ``CHK2 Inhibition``): they tell no column apart, so a column's text goes without them.
    shared: dict[str, set[str]] = field(default_factory=dict)

    def texts(
        self, grid: TableGrid, st: Structure, schema: ExtractSchema, cell: TargetCell, rtype: str | None
    ) -> dict[str, str]:
        out: dict[str, str] = {}
        row = grid.text(cell.row, self.id_col) if self.id_col is not None else ""
        out["row"] = row or st.row_labels[cell.row]
        levels = self.levels.get(rtype or "", list(range(st.header_rows)))
        parts: list[str] = []
        for r in levels:
            piece = strip_header(grid.text(r, cell.col), schema)
            if piece and piece not in parts:
                parts.append(piece)
        out["column"] = without_words(" / ".join(parts), self.shared.get(rtype or "", set()))
        return {k: v for k, v in out.items() if v}


def without_words(text: str, words: set[str]) -> str:
    """``text`` without the given whole words (case ignored); ``text`` itself if nothing would be left."""
    out = text
    for w in words:
        out = re.sub(r"(?<![^\W_])" + re.escape(w) + r"(?![^\W_])", " ", out, flags=re.IGNORECASE)
    out = re.sub(r"\s+", " ", out).strip(" -–/,;:")
    out = re.sub(r"^[-–]+|[-–]+$", "", out).strip()
    return out or text


def side_reader(
    grid: TableGrid,
    st: Structure,
    schema: ExtractSchema,
    cells: Sequence[TargetCell],
    types: Sequence[str | None],
) -> SideReader:
    """The reader for one table; ``types`` are the record types of ``cells`` (the rules' or model's)."""
    by_type: dict[str, list[int]] = {}
    for cell, t in zip(cells, types, strict=True):
        if t is not None and cell.col not in by_type.setdefault(t, []):
            by_type[t].append(cell.col)
    levels = {t: distinguishing_levels(grid, st, cols) for t, cols in by_type.items()}
    reader = SideReader(identifying_column(grid, st), levels)
    shared: dict[str, set[str]] = {}
    for t, cols in by_type.items():
        texts = {reader.texts(grid, st, schema, TargetCell(0, c, "", ""), t).get("column", "") for c in cols}
        common = set.intersection(*(_words(x) for x in texts)) if len(texts) > 1 and all(texts) else set()
        if common and all(_words(x) - common for x in texts):  # every column keeps a name of its own
            shared[t] = common
    return replace(reader, shared=shared)


def own_words(names: Sequence[str]) -> dict[str, str]:
    """Each name without the words every other name shares (``treatment compound`` -> ``treatment``)."""
    words = {n: re.findall(r"[\w.\-]+", n.casefold()) for n in names}
    out = {}
    for n in names:
        others = [set(words[m]) for m in names if m != n]
        shared = set.intersection(*others) if others else set()
        own = [w for w in words[n] if w not in shared]
        out[n] = " ".join(own) if own else n
    return out


def side_descriptions(
    grid: TableGrid, st: Structure, reader: SideReader, header_texts: Sequence[str]
) -> dict[str, str]:
    """What each side is about: the identifying label column's header, and the column headers read."""
    row = ""
    if reader.id_col is not None:
        row = " ".join(dict.fromkeys(grid.text(r, reader.id_col) for r in range(st.header_rows)))
    column = "; ".join(dict.fromkeys(t for t in header_texts if t))
    return {"row": row.strip()[:DESCRIPTION_CHARS], "column": column[:DESCRIPTION_CHARS]}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.casefold()))


#: Caption words after an attribute's own word that may name what it is (``treatment with each X``).
CAPTION_WINDOW = 4


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def caption_hints(caption: str, attributes: Sequence[str], side_words: dict[str, set[str]]) -> dict[str, str]:
    """Sides the caption ties to attributes: where a word of an attribute's own name is followed, within
    :data:`CAPTION_WINDOW` words, by a word found on exactly one side of the table (``... treatment with
    each polyphenols`` and a column header ``Polyphenols IC50 in µM``: the treatment reads the columns)."""
    tokens = [_stem(w) for w in re.findall(r"[^\W_]+", caption.casefold())]
    stems = {side: {_stem(w) for w in words if len(w) >= 3} for side, words in side_words.items()}
    only = {side: stems[side] - set().union(*(v for k, v in stems.items() if k != side)) for side in stems}
    own = {a: {_stem(w) for w in _words(n)} for a, n in own_words(attributes).items()}
    hints: dict[str, str] = {}
    for a in attributes:
        found = set()
        for i, tok in enumerate(tokens):
            if tok in own[a]:
                window = set(tokens[i + 1 : i + 1 + CAPTION_WINDOW])
                found |= {side for side, words in only.items() if window & words}
        if len(found) == 1:
            hints[a] = found.pop()
    return hints


def assign_sides(
    attributes: Sequence[str], descriptions: dict[str, str], hints: dict[str, str] | None = None
) -> dict[str, str]:
    """Each attribute's side (at most one attribute per side): the assignment under which the most
    sides' descriptions contain words of their attribute's own name (``model/method`` reads a column
    headed ``Method``); where nothing is named, the schema's order (the first attribute on the rows,
    the next on the columns) when there are no more attributes than sides, else none."""
    if not attributes:
        return {}
    own = {a: _words(w) for a, w in own_words(attributes).items()}
    seen = {s: _words(descriptions.get(s, "")) for s in SIDES}

    hinted = hints or {}

    def named(assignment: dict[str, str]) -> int:
        return sum(1 for a, s in assignment.items() if own[a] & seen[s] or hinted.get(a) == s)

    # the schema's order is evidence only when there are no more attributes than sides
    few = len(attributes) <= len(SIDES)
    best = dict(zip(attributes, SIDES, strict=False)) if few else {}
    best_score = named(best)
    for picked in itertools.permutations(attributes, min(len(SIDES), len(attributes))):
        candidate = {
            a: s for a, s in zip(picked, SIDES, strict=False) if few or own[a] & seen[s] or hinted.get(a) == s
        }
        if named(candidate) > best_score:
            best, best_score = candidate, named(candidate)
    return best


def default_embed() -> Embed | None:
    """The local MiniLM embedder's ``embed``, or None when it is not installed (the schema's order
    then decides the sides)."""
    from gridsight.errors import GridSightError

    try:
        from gridsight.llm.embeddings import shared_embedder

        return shared_embedder().embed
    except (GridSightError, ImportError):
        return None


@dataclass(frozen=True)
class TableSides:
    """One table's reading: the side reader and each judged attribute's side."""

    reader: SideReader
    sides: dict[str, str]

    def values(
        self, grid: TableGrid, st: Structure, schema: ExtractSchema, cell: TargetCell, rtype: str | None
    ) -> dict[str, str]:
        """The judged attributes' texts for one cell (those whose side gives it a text)."""
        texts = self.reader.texts(grid, st, schema, cell, rtype)
        return {a: texts[s] for a, s in self.sides.items() if s in texts}


def table_sides(
    grid: TableGrid,
    st: Structure,
    schema: ExtractSchema,
    cells: Sequence[TargetCell],
    types: Sequence[str | None],
) -> TableSides:
    """Read the table's sides and assign the schema's judged attributes to them (see the module)."""
    typed = [None if t == schema.fallback else t for t in types]
    reader = side_reader(grid, st, schema, cells, typed)
    headers = [
        reader.texts(grid, st, schema, cell, t).get("column", "")
        for cell, t in zip(cells, typed, strict=True)
        if t is not None
    ]
    descriptions = side_descriptions(grid, st, reader, headers)
    names = judged_names(schema)
    hints = caption_hints(grid.caption, names, side_words(grid, st, schema, reader, cells, typed))
    return TableSides(reader, assign_sides(names, descriptions, hints))


def side_words(
    grid: TableGrid,
    st: Structure,
    schema: ExtractSchema,
    reader: SideReader,
    cells: Sequence[TargetCell],
    typed: Sequence[str | None],
) -> dict[str, set[str]]:
    """The words on each side: the identifying label column (header and values), and every header
    level of the typed columns (without the type names)."""
    row: set[str] = set()
    if reader.id_col is not None:
        for r in range(grid.height):
            row |= _words(grid.text(r, reader.id_col))
    column: set[str] = set()
    for cell, t in zip(cells, typed, strict=True):
        if t is not None:
            for r in range(st.header_rows):
                column |= _words(grid.text(r, cell.col))
    types = set().union(*(_words(t.name) for t in schema.types))
    return {"row": row - types, "column": column - types}


def type_description(schema: ExtractSchema, name: str) -> str:
    """A record type as text: its name, then its attribute names (and its description, if any)."""
    rtype = schema.get(name)
    if rtype is None:
        return name
    attrs = ", ".join(a.name for a in rtype.attributes)
    return " ".join(p for p in (f"{name}: {attrs}" if attrs else name, rtype.description) if p)


def types_by_similarity(texts: Sequence[str], schema: ExtractSchema, embed: Embed) -> list[str | None]:
    """Per text (a cell's caption, header path and row label), the non-fallback record type whose
    description (:func:`type_description`) is the most similar, by sentence embeddings."""
    names = [t.name for t in schema.types if t.name != schema.fallback]
    if not names or not texts:
        return [None] * len(texts)
    unique = list(dict.fromkeys(texts))
    vectors = embed([type_description(schema, n) for n in names] + unique)
    sim = vectors[len(names) :] @ vectors[: len(names)].T
    best = {text: names[int(np.argmax(row))] for text, row in zip(unique, sim, strict=True)}
    return [best[t] for t in texts]

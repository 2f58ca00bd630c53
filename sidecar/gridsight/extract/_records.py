"""Records: one per target cell, with the attributes the table states filled by code.

The code fills the cell's address, value, header path, row label and unit, and every schema attribute
whose source is one of those. The record type is chosen by the rules when the cell's own header path or
row label names exactly one type (``IC50 (μM)`` names the type ``IC50``); otherwise the rules fall
back to the section title or caption, and to the schema's fallback type. The model, when present,
judges the rest (:mod:`gridsight.extract._model`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gridsight.extract._detect import Structure, TargetCell, cell_unit, header_unit
from gridsight.extract._schema import ExtractSchema
from gridsight.extract._table import TableGrid

#: Where the rules' type came from, strongest first: "header" and "row" are the cell's own labels.
STRONG = ("header", "row")


@dataclass
class Record:
    """One extracted record."""

    address: str
    row: int  # 0-based, in the table
    col: int
    value: str
    text: str
    type: str | None
    attributes: dict[str, Any] = field(default_factory=dict)
    header_path: str = ""
    row_label: str = ""
    unit: str | None = None
    section: str = ""
    evidence: str = "none"  # where the type came from: header, row, section, caption, model, none
    filled_by: str = "rules"  # "rules" or "model"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"address": self.address, "value": self.value, "type": self.type}
        out.update(self.attributes)
        out.update(
            {
                "header_path": self.header_path,
                "row_label": self.row_label,
                "unit": self.attributes.get("unit", self.unit),
                "text": self.text,
                "filled_by": self.filled_by,
            }
        )
        return out


#: A footnote mark glued to a word (``IC50a``, ``Ki*``): dropped before names are compared.
_GLUED_MARK = re.compile(r"(?<=[A-Z0-9])[a-h](?![A-Za-z0-9])")


def _tokens(text: str) -> list[str]:
    return re.findall(r"[0-9a-zµμα-ω]+", _GLUED_MARK.sub("", text).casefold())


def _names(name: str, text: str) -> bool:
    """Whether ``text`` holds the type name as whole words (case and punctuation ignored)."""
    want, have = _tokens(name), _tokens(text)
    if not want:
        return False
    n = len(want)
    return any(have[i : i + n] == want for i in range(len(have) - n + 1))


def types_named(schema: ExtractSchema, text: str) -> list[str]:
    """The schema's record types (not the fallback) that ``text`` names."""
    return [t.name for t in schema.types if t.name != schema.fallback and _names(t.name, text)]


def rule_type(schema: ExtractSchema, places: list[tuple[str, str]]) -> tuple[str | None, str]:
    """The first place (header, row, section, caption) that names exactly one type decides."""
    for where, text in places:
        named = types_named(schema, text)
        if len(named) == 1:
            return named[0], where
        if len(named) > 1:
            return named[0], where + "-ambiguous"
    return schema.fallback, "none"


def find_unit(cell: TargetCell, places: list[tuple[str, str]]) -> str | None:
    """The unit written in the cell, else in its header path, row label, section or caption."""
    unit = cell_unit(cell.text)
    if unit:
        return unit
    for _, text in places:
        for piece in reversed(text.split(" / ")):
            unit = header_unit(piece)
            if unit:
                return unit
    return None


def places(grid: TableGrid, st: Structure, cell: TargetCell) -> list[tuple[str, str]]:
    """The texts that describe a cell, closest first."""
    return [
        ("header", st.header_paths[cell.col] if cell.col < len(st.header_paths) else ""),
        ("row", st.row_labels[cell.row]),
        ("section", st.sections[cell.row]),
        ("caption", grid.caption),
    ]


def copied(source: str, record: Record, grid: TableGrid) -> str | None:
    """A deterministic attribute's value."""
    if source == "unit":
        return record.unit
    if source == "row_label":
        return record.row_label or None
    if source == "column_header":
        return record.header_path or None
    if source == "caption":
        return grid.caption or None
    return None


def rule_record(grid: TableGrid, st: Structure, schema: ExtractSchema, cell: TargetCell) -> Record:
    """The record the rules alone give: type from the labels that name one, copied attributes set,
    judged attributes null."""
    where = places(grid, st, cell)
    type_name, evidence = rule_type(schema, where)
    rec = Record(
        address=grid.address(cell.row, cell.col),
        row=cell.row,
        col=cell.col,
        value=cell.value,
        text=cell.text,
        type=type_name,
        header_path=where[0][1],
        row_label=st.row_labels[cell.row],
        unit=find_unit(cell, where[:3]) or find_unit(cell, where[3:]),
        section=st.sections[cell.row],
        evidence=evidence,
    )
    fill_attributes(rec, schema, grid, {})
    return rec


def demote_caption_types(records: list[Record], schema: ExtractSchema, grid: TableGrid) -> list[Record]:
    """When some cells' own labels name their type, the table says which cells hold which type: a type
    the caption alone suggests is then dropped (those cells name another quantity)."""
    if any(r.evidence in STRONG for r in records):
        for r in records:
            if r.evidence.startswith("caption"):
                r.type, r.evidence = schema.fallback, "none"
                fill_attributes(r, schema, grid, {})
    return records


def type_by_embedding(
    records: list[Record], schema: ExtractSchema, grid: TableGrid, embed: Any
) -> list[Record]:
    """When no text of the table names any record type (no header, row label, section or caption),
    the rules know nothing: each cell then takes the type whose description is the most similar to its
    caption, header path and row label (:func:`gridsight.extract._sides.types_by_similarity`)."""
    from gridsight.extract._sides import types_by_similarity

    if embed is None or any(r.evidence != "none" for r in records):
        return records
    texts = [" ".join(p for p in (grid.caption, r.header_path, r.row_label) if p) for r in records]
    for rec, name in zip(records, types_by_similarity(texts, schema, embed), strict=True):
        if name is not None:
            rec.type, rec.evidence = name, "embedding"
            fill_attributes(rec, schema, grid, {})
    return records


def fill_attributes(rec: Record, schema: ExtractSchema, grid: TableGrid, judged: dict[str, Any]) -> None:
    """Set the record's attributes for its type: copied ones from the table, judged ones from
    ``judged`` (null when absent)."""
    rtype = schema.get(rec.type) if rec.type else None
    rec.attributes = {}
    if rtype is None:
        return
    for attr in rtype.attributes:
        if attr.source is not None:
            rec.attributes[attr.name] = copied(attr.source, rec, grid)
        else:
            rec.attributes[attr.name] = judged.get(attr.name)

"""Extraction end to end: table grid -> structure -> scaffold cells -> one record per cell, in order."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gridsight.errors import ExtractInputError
from gridsight.extract._detect import Structure, structure, target_cells
from gridsight.extract._model import ModelStats, Roles, judge, score_roles, table_head
from gridsight.extract._records import (
    Record,
    demote_caption_types,
    fill_attributes,
    rule_record,
    type_by_embedding,
)
from gridsight.extract._schema import ExtractSchema
from gridsight.extract._sides import Embed, default_embed, judged_names, table_sides
from gridsight.extract._table import TableGrid


@dataclass
class Extraction:
    """The records of one table, its structure, and what the model cost."""

    records: list[Record]
    structure: Structure
    stats: ModelStats = field(default_factory=ModelStats)
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "records": [r.to_dict() for r in self.records],
            "header_rows": self.structure.header_rows,
            "label_columns": list(self.structure.label_cols),
            "model": self.model,
            "model_stats": self.stats.to_dict(),
        }


def iter_records(
    grid: TableGrid,
    schema: ExtractSchema,
    *,
    model: Any = None,
    context: str | None = None,
    stats: ModelStats | None = None,
    embed: Embed | bool | None = True,
) -> Iterator[Record]:
    """One record per numeric cell, left to right and top down, each yielded as soon as it is ready.

    ``model`` (a runtime or a :class:`~gridsight.llm.ModelQueue`) judges the record type and the
    attributes the table does not state; without it the rules alone fill what they can. A cell the
    model fails on (time-out, prompt too long) keeps the rules' record: no record is ever lost.
    ``embed`` (a text embedder, True for the local MiniLM, False or None for none) types the cells of
    a table none of whose texts names a record type.

    Raises:
        ExtractInputError: the table has no numeric cells (raised here, before any record).
    """
    st = structure(grid)
    cells = target_cells(grid, st)
    if not cells:
        raise ExtractInputError("the table has no numeric cells to extract")
    stats = stats if stats is not None else ModelStats()
    head = table_head(grid, st, schema, context) if model is not None else ""

    def records() -> Iterator[Record]:
        rules = demote_caption_types([rule_record(grid, st, schema, cell) for cell in cells], schema, grid)
        if all(r.evidence == "none" for r in rules):  # no text names a type: the embeddings judge
            embedder = default_embed() if embed is True else (embed or None)
            rules = type_by_embedding(rules, schema, grid, embedder)
        sides = table_sides(grid, st, schema, cells, [r.type for r in rules])
        for cell, rec in zip(cells, rules, strict=True):
            fill_attributes(rec, schema, grid, sides.values(grid, st, schema, cell, rec.type))
        roles = Roles(
            copied=frozenset(sides.sides),
            types_named=any(r.evidence not in ("none", "embedding") for r in rules),
            sides=sides,
        )
        if model is not None and len(roles.copied) < len(judged_names(schema)):
            roles.fixed = score_roles(model, grid, st, schema, cells, rules, head, stats)
        for i, rec in enumerate(rules):
            if model is not None:
                rec = judge(model, grid, st, schema, cells, i, rec, head, stats, roles)
            yield rec

    return records()


def extract_table(
    grid: TableGrid,
    schema: ExtractSchema,
    *,
    model: Any = None,
    context: str | None = None,
    embed: Embed | bool | None = True,
) -> Extraction:
    """All records of a table (see :func:`iter_records`)."""
    stats = ModelStats()
    records = list(iter_records(grid, schema, model=model, context=context, stats=stats, embed=embed))
    name = getattr(model, "name", None) if model is not None else None
    return Extraction(records, structure(grid), stats, str(name) if name else ("model" if model else None))

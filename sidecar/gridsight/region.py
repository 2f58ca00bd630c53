"""Explain a region of a sheet: what it holds, which tables it touches, what its formulas do.

The right-click "Explain this region" answer. Deterministic facts first -- counts by kind, the
detected tables with their header paths, titles, units and totals, and the formulas grouped by
pattern (a column of ``=B4+C4``, ``=B5+C5``... is one fill-down, explained once) -- each with the
cells it came from. A model may later phrase the summary; it never changes the facts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gridsight.errors import GridSightError
from gridsight.grid import Kind, Range, Sheet, Workbook

#: Formula groups explained in full; the rest are counted.
MAX_FORMULA_GROUPS = 12
#: Formula cells grouped by pattern; past this (a selection of a million formulas) the rest are only
#: counted, so "explain" stays well under a second on any selection.
MAX_FORMULA_CELLS = 20_000


@dataclass(frozen=True)
class Fact:
    """One sentence and the cells it is about."""

    text: str
    cells: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "cells": list(self.cells)}


@dataclass
class RegionExplanation:
    sheet: str
    range: str
    facts: list[Fact] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    formula_groups: list[dict[str, Any]] = field(default_factory=list)

    @property
    def summary(self) -> str:
        return " ".join(f.text for f in self.facts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sheet": self.sheet,
            "range": self.range,
            "summary": self.summary,
            "facts": [f.to_dict() for f in self.facts],
            "tables": self.tables,
            "formula_groups": self.formula_groups,
        }


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _counts(sheet: Sheet, area: Range) -> dict[str, int]:
    r0, c0 = sheet.origin
    h, w = sheet.shape
    t, b = max(area.top, r0), min(area.bottom, r0 + h - 1)
    left, right = max(area.left, c0), min(area.right, c0 + w - 1)
    if t > b or left > right:
        return {}
    ks = sheet.kinds[t - r0 : b - r0 + 1, left - c0 : right - c0 + 1]
    fs = sheet.formula_ids[t - r0 : b - r0 + 1, left - c0 : right - c0 + 1]
    names = {
        Kind.NUMBER: "number",
        Kind.TEXT: "text",
        Kind.BOOL: "true/false",
        Kind.DATETIME: "date",
        Kind.ERROR: "error",
    }
    out = {name: int(np.count_nonzero(ks == k)) for k, name in names.items()}
    out["formula"] = int(np.count_nonzero(fs >= 0))
    return {k: v for k, v in out.items() if v}


def _table_facts(sheet: Sheet, area: Range) -> Iterator[tuple[Fact, dict[str, Any]]]:
    from gridsight.detect import detect_tables

    for t in detect_tables(sheet).tables:
        if t.range.intersect(area) is None:
            continue
        named = [p for p in t.header_paths if p]
        more = " and more" if len(named) > 8 else ""
        head = f" with columns {', '.join(named[:8])}{more}" if named else ""
        rows = t.range.height - len(t.header_rows)
        text = f"Table {t.range.ref()}{head}; {_plural(rows, 'row')} below its header"
        extras = []
        if t.titles:
            extras.append(f'titled "{t.titles[0].text}"')
        if t.units:
            extras.append(f"in {t.units[0].text}")
        if t.total_rows:
            extras.append("total row " + ", ".join(str(r + 1) for r in t.total_rows))
        text += (" (" + "; ".join(extras) + ")" if extras else "") + "."
        cells = tuple(dict.fromkeys([t.range.ref(), *(x.range.ref() for x in (*t.titles, *t.units))]))
        yield Fact(text, cells), t.to_dict()


def _formula_groups(workbook: Workbook, sheet: Sheet, area: Range) -> list[dict[str, Any]]:
    from gridsight.formula import explain_formula, relative_form

    groups: dict[str, list[Any]] = {}
    seen = 0
    for cell in sheet.iter_cells(area):
        if cell.formula:
            seen += 1
            if seen > MAX_FORMULA_CELLS:
                break
            groups.setdefault(relative_form(cell.formula, (cell.row, cell.col)), []).append(cell)
    out = []
    ranked = sorted(groups.values(), key=lambda cs: (-len(cs), cs[0].row, cs[0].col))
    for cells in ranked[:MAX_FORMULA_GROUPS]:
        first = cells[0]
        try:
            sentence = explain_formula(first.formula or "", workbook, sheet)
        except GridSightError as exc:
            sentence = f"Cannot be read: {exc}"
        where = _span(cells)
        errors = sorted({str(c.value) for c in cells if c.kind == Kind.ERROR})
        out.append(
            {
                "cells": where,
                "count": len(cells),
                "example": first.address,
                "formula": first.formula,
                "explanation": sentence,
                "errors": errors,
            }
        )
    return out


def _span(cells: list[Any]) -> str:
    rows = [c.row for c in cells]
    cols = [c.col for c in cells]
    rng = Range(min(rows), min(cols), max(rows), max(cols))
    return rng.ref() if rng.size == len(cells) else f"{len(cells)} cells from {cells[0].address}"


def explain_region(workbook: Workbook, sheet: str | Sheet, area: str | Range) -> RegionExplanation:
    """Deterministic facts about a range: contents, tables, formula patterns (see module doc)."""
    sh = sheet if isinstance(sheet, Sheet) else workbook.sheet(sheet)
    rng = Range.parse(area) if isinstance(area, str) else area
    used = sh.used_range
    if rng.is_whole_columns or rng.is_whole_rows:
        clipped = rng.intersect(used) if used is not None else None
        rng = clipped if clipped is not None else Range(rng.top, rng.left, rng.top, rng.left)
    rng = rng.with_sheet(None)
    out = RegionExplanation(sh.name, rng.ref())
    counts = _counts(sh, rng)
    if not counts:
        out.facts.append(Fact(f"{rng.ref()} is empty.", (rng.ref(),)))
        return out
    parts = [
        _plural(v, k if k != "true/false" else "true/false value")
        for k, v in counts.items()
        if k != "formula"
    ]
    n_formulas = counts.get("formula", 0)
    if parts:
        text = f"{rng.ref()} holds " + ", ".join(parts)
        text += f", {_plural(n_formulas, 'formula')}" if n_formulas else ""
    else:  # formulas whose results were never saved (a file written by a program, not by Excel)
        text = f"{rng.ref()} holds {_plural(n_formulas, 'formula')} with no saved results"
    out.facts.append(Fact(text + ".", (rng.ref(),)))
    for fact, table in _table_facts(sh, rng):
        out.facts.append(fact)
        out.tables.append(table)
    groups = _formula_groups(workbook, sh, rng)
    out.formula_groups = groups
    for g in groups:
        lead = f"{g['cells']} ({g['formula']})"
        if g["count"] > 1:
            each = ""
            if ":" in g["cells"]:
                span = Range.parse(g["cells"])
                each = ", one per row" if span.width == 1 else ", one per column" if span.height == 1 else ""
            lead = f"{g['cells']} ({_plural(g['count'], 'formula')} like {g['formula']}{each})"
        line = f"{lead}: {g['explanation']}"
        if g["errors"]:
            line = line.rstrip(".") + f"; shows {', '.join(g['errors'])}."
        out.facts.append(
            Fact(line, (g["cells"],) if ":" in g["cells"] or len(g["cells"]) < 12 else (g["example"],))
        )
    itemised = sum(g["count"] for g in groups)
    if counts.get("formula", 0) > itemised:
        rest = counts["formula"] - itemised
        out.facts.append(Fact(f"{_plural(rest, 'more formula')} not itemised.", (rng.ref(),)))
    merges = [m.ref() for m in sh.merges if m.intersect(rng.with_sheet(sh.name)) is not None]
    if merges:
        out.facts.append(Fact(f"Merged cells: {', '.join(merges[:10])}.", tuple(merges[:10])))
    return out

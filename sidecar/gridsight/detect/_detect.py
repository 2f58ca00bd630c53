"""The detection pipeline: cells -> pieces -> skeletons -> tables (optionally refined by a model)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from gridsight.detect._assemble import TextAt, assemble, join_rule
from gridsight.detect._cells import CellGrid, cell_grid
from gridsight.detect._model import DetectedTable, Detection
from gridsight.detect._segment import Box, join_columns, xy_cut
from gridsight.detect._structure import build_table, is_table
from gridsight.grid import Sheet, Workbook


def candidate_pieces(g: CellGrid, text_at: TextAt) -> list[Box]:
    """Blocks cut at empty rows and columns, re-joined where they belong together.

    Paragraph lines stand apart from the tables they run beside: each is a piece of its own (it
    becomes a title or note line), never a column of the table.
    """
    pieces = join_columns(xy_cut(g.occupied), g.occupied, join_rule(g, text_at))
    return pieces + [Box(int(r), int(c), int(r), int(c)) for r, c in np.argwhere(g.prose)]


def detect_tables(sheet: Sheet, *, refiner: Any = None) -> Detection:
    """Every table on a sheet, with header rows, titles, notes, units and totals.

    Args:
        sheet: the sheet to read (never modified).
        refiner: optional object with ``refine(sheet, tables) -> (tables, model_name)``; the rules
            alone are used when it is None or when it raises a GridSightError.

    Returns:
        A :class:`Detection`; an empty sheet gives no tables.
    """
    t0 = time.perf_counter()
    if sheet.is_empty:
        return Detection(sheet.name, (), None, None, time.perf_counter() - t0)
    g = cell_grid(sheet)
    tids, texts = g.label_ids, sheet.texts

    def text_at(r: int, c: int) -> str:
        """The text of a label cell ('' for values and empty cells)."""
        i = int(tids[r, c])
        return texts[i] if i >= 0 else ""

    skeletons = assemble(g, candidate_pieces(g, text_at), text_at)
    tables = [build_table(sheet, g, sk, text_at) for sk in skeletons if is_table(g, sk.box)]
    tables.sort(key=lambda t: (t.range.top, t.range.left))
    model: str | None = None
    messages: list[str] = []
    if refiner is not None and tables:
        from gridsight.errors import GridSightError

        try:
            tables, model = refiner.refine(sheet, tables)
        except GridSightError as exc:
            messages.append(f"model refinement skipped: {exc}")
    return Detection(
        sheet.name, tuple(tables), sheet.used_range, model, time.perf_counter() - t0, tuple(messages)
    )


def detect_workbook(wb: Workbook, *, sheet: str | None = None, refiner: Any = None) -> list[Detection]:
    """Detection for one named sheet or for every sheet of a workbook."""
    sheets = [wb.sheet(sheet)] if sheet is not None else list(wb)
    return [detect_tables(s, refiner=refiner) for s in sheets]


__all__ = ["DetectedTable", "Detection", "detect_tables", "detect_workbook"]

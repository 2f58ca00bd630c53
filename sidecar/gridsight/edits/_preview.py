"""Preview an edit plan: before/after of every cell, the check of every formula, and conflicts.

Pure: takes the plan's writes and the workbook as it is now, returns plain data. Formulas are
evaluated against the workbook with the plan's value writes already in place, so a formula that
sums cells the same plan fills shows the new total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gridsight.edits._check import FormulaCheck, check_formula
from gridsight.edits._content import CellContent, content_of_cell, infer_type
from gridsight.edits._patch import patch_workbook
from gridsight.edits._plan import CellWrite
from gridsight.grid import Workbook


@dataclass(frozen=True)
class CellPreview:
    write: CellWrite
    before: CellContent
    after: CellContent
    conflict: bool
    problems: tuple[str, ...]
    check: FormulaCheck | None

    def to_json(self) -> dict[str, Any]:
        return {
            "sheet": self.write.sheet,
            "cell": self.write.address,
            "before": self.before.to_json(),
            "after": self.after.to_json(),
            "expected": self.write.expected.to_json(),
            "conflict": self.conflict,
            "problems": list(self.problems),
            "formula_check": self.check.to_json() if self.check else None,
        }


@dataclass(frozen=True)
class Preview:
    cells: tuple[CellPreview, ...]

    @property
    def conflicts(self) -> list[CellPreview]:
        return [c for c in self.cells if c.conflict]

    @property
    def invalid(self) -> list[CellPreview]:
        return [c for c in self.cells if c.problems]

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.invalid

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "conflicts": len(self.conflicts),
            "invalid": len(self.invalid),
            "cells": [c.to_json() for c in self.cells],
        }


def _after(w: CellWrite, before: CellContent, check: FormulaCheck | None) -> CellContent:
    fmt = w.new.number_format if w.new.number_format is not None else before.number_format
    if w.new.formula is None:
        return CellContent(w.new.type, w.new.value, None, fmt)
    value = check.value if check is not None else None
    if check is not None and check.error:
        return CellContent("x", check.error, w.new.formula, fmt)
    if isinstance(value, list):  # a spilled array: the anchor shows its top-left value
        value = value[0][0] if value and isinstance(value[0], list) and value[0] else None
    letter = infer_type(value)
    if letter == "?":
        letter, value = "s", str(value)
    return CellContent(letter, value, w.new.formula, fmt)


def preview_writes(writes: Sequence[CellWrite], workbook: Workbook) -> Preview:
    """Before/after, conflicts (current content differs from expected) and problems of each write."""
    value_writes = [(w.sheet, w.row, w.col, w.new) for w in writes if w.new.formula is None]
    evaluated = patch_workbook(workbook, value_writes) if value_writes else workbook
    out = []
    for w in writes:
        sheet = workbook.sheet(w.sheet)
        before = content_of_cell(sheet.cell(w.row, w.col))
        conflict = not w.expected.same_content(before)
        problems: list[str] = []
        merge = sheet.merge_at(w.row, w.col)
        if merge is not None and (merge.top, merge.left) != (w.row, w.col):
            problems.append(
                f"{w.address} is inside the merged range {merge.ref()}; only its top-left cell "
                "can hold content"
            )
        check = None
        if w.new.formula is not None:
            check = check_formula(w.new.formula, evaluated, w.sheet, w.row, w.col)
            problems.extend(check.problems)
        out.append(CellPreview(w, before, _after(w, before, check), conflict, tuple(problems), check))
    return Preview(tuple(out))

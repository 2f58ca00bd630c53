"""What detection returns: plain frozen data with sheet addresses, ready for JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gridsight.grid import Range


@dataclass(frozen=True, slots=True)
class Label:
    """A piece of text next to (or inside) a table: a title line, a note, a unit line."""

    range: Range
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"range": self.range.ref(), "text": self.text}


@dataclass(frozen=True, slots=True)
class DetectedTable:
    """One table: its range (header + data, as the paper labels it) and how it is built.

    Rows and columns are 0-based sheet coordinates, like :class:`Range`.
    """

    range: Range
    header_rows: tuple[int, ...] = ()
    header_paths: tuple[str, ...] = ()  # one per column of ``range``; "" where unlabelled
    row_header_cols: tuple[int, ...] = ()
    titles: tuple[Label, ...] = ()
    notes: tuple[Label, ...] = ()
    units: tuple[Label, ...] = ()
    total_rows: tuple[int, ...] = ()
    subtotal_rows: tuple[int, ...] = ()
    source: str = "rules"  # "rules" or the model that adjusted it

    @property
    def header_range(self) -> Range | None:
        if not self.header_rows:
            return None
        r = self.range
        return Range(min(self.header_rows), r.left, max(self.header_rows), r.right, r.sheet)

    @property
    def data_range(self) -> Range | None:
        r = self.range
        top = max(self.header_rows) + 1 if self.header_rows else r.top
        return Range(top, r.left, r.bottom, r.right, r.sheet) if top <= r.bottom else None

    @property
    def title(self) -> Label | None:
        return self.titles[-1] if self.titles else None

    def to_dict(self) -> dict[str, Any]:
        hr, dr = self.header_range, self.data_range
        return {
            "range": self.range.ref(),
            "header_range": hr.ref() if hr else None,
            "data_range": dr.ref() if dr else None,
            "header_rows": [r + 1 for r in self.header_rows],
            "header_paths": list(self.header_paths),
            "row_header_cols": [Range(0, c, 0, c).ref().rstrip("1") for c in self.row_header_cols],
            "title": self.title.to_dict() if self.title else None,
            "titles": [t.to_dict() for t in self.titles],
            "notes": [n.to_dict() for n in self.notes],
            "units": [u.to_dict() for u in self.units],
            "total_rows": [r + 1 for r in self.total_rows],
            "subtotal_rows": [r + 1 for r in self.subtotal_rows],
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class Detection:
    """All tables of one sheet, plus how they were found."""

    sheet: str
    tables: tuple[DetectedTable, ...]
    used_range: Range | None
    model: str | None = None
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default_factory=tuple)  # e.g. why the model was not used
    model_questions: int = 0  # doubtful decisions put to the model
    model_skipped: int = 0  # doubtful decisions not put to it: no time left in the sheet's budget

    def to_dict(self) -> dict[str, Any]:
        return {
            "sheet": self.sheet,
            "used_range": self.used_range.ref() if self.used_range else None,
            "model": self.model,
            "model_questions": self.model_questions,
            "model_skipped": self.model_skipped,
            "tables": [t.to_dict() for t in self.tables],
            "messages": list(self.notes),
        }

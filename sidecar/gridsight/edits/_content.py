"""What a cell holds, as plain JSON-able data: the unit edit plans compare, show and restore.

Why one small type: the same "expected old content" must be read from the in-memory model (a
snapshot), from a file on disk (openpyxl) and from live Excel, and compared in one way everywhere.
Content is the formula when the cell has one, else the typed value; number formats are shown and
restored but never make a conflict (they are looks, not content).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gridsight.errors import EditPlanError
from gridsight.grid import ERROR_VALUES, Cell, Kind

#: snapshot.v1 type letters, shared with the add-in.
TYPE_LETTERS = {
    Kind.EMPTY: "e",
    Kind.NUMBER: "n",
    Kind.TEXT: "s",
    Kind.BOOL: "b",
    Kind.DATETIME: "d",
    Kind.ERROR: "x",
}
#: Longest text Excel keeps in a cell.
MAX_TEXT = 32767
Scalar = float | int | str | bool | None


@dataclass(frozen=True)
class CellContent:
    """A cell's content: type letter, value (dates as Excel serials), formula, number format.

    ``number_format`` None means "not stated" (expected content given by a client may omit it).
    """

    type: str = "e"
    value: Scalar = None
    formula: str | None = None
    number_format: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "value": self.value, "formula": self.formula}
        if self.number_format is not None:
            out["number_format"] = self.number_format
        return out

    @property
    def is_empty(self) -> bool:
        return self.formula is None and self.type == "e"

    def same_content(self, other: CellContent) -> bool:
        """True when both hold the same formula, or (without formulas) the same typed value."""
        if self.formula is not None or other.formula is not None:
            return _norm_formula(self.formula) == _norm_formula(other.formula)
        return same_value(self.type, self.value, other.type, other.value)


def _norm_formula(f: str | None) -> str | None:
    return None if f is None else f.strip()


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    return float(v)


def same_value(t1: str, v1: Scalar, t2: str, v2: Scalar) -> bool:
    """Typed equality; numbers and dates (both serials to Excel) compare with a tiny tolerance."""
    e1, e2 = t1 == "e" or v1 is None or v1 == "", t2 == "e" or v2 is None or v2 == ""
    if e1 or e2:
        return e1 and e2
    numeric = {"n", "d"}
    if t1 in numeric and t2 in numeric:
        a, b = _num(v1), _num(v2)
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9)
    if t1 != t2:
        return False
    return v1 == v2


def content_of_cell(cell: Cell) -> CellContent:
    """A cell of the in-memory model -> CellContent."""
    kind = Kind(cell.kind)
    letter = TYPE_LETTERS[kind]
    value: Scalar
    if kind == Kind.EMPTY:
        value = None
    elif kind in (Kind.NUMBER, Kind.DATETIME):
        value = _serial_of(cell)
    elif kind == Kind.BOOL:
        value = bool(cell.value)
    else:
        value = str(cell.value)
    return CellContent(letter, value, cell.formula, cell.number_format)


def _serial_of(cell: Cell) -> float | int:
    v = cell.value
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int | float):
        return v
    from gridsight.grid import datetime_to_serial

    x = datetime_to_serial(v)  # type: ignore[arg-type]
    return int(x) if float(x).is_integer() else x


def content_from_json(doc: Any, where: str, *, allow_partial: bool = False) -> CellContent:
    """Client JSON -> CellContent, with a clear message naming ``where`` when it is malformed."""
    if not isinstance(doc, dict):
        raise EditPlanError(f"{where}: expected an object with type/value/formula")
    unknown = set(doc) - {"type", "value", "formula", "number_format"}
    if unknown:
        raise EditPlanError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    formula = doc.get("formula")
    if formula is not None and (not isinstance(formula, str) or not formula.startswith("=")):
        raise EditPlanError(f"{where}: formula must be text starting with '='")
    value = doc.get("value")
    letter = doc.get("type")
    if letter is None:
        letter = infer_type(value)
    if letter not in ("e", "n", "s", "b", "d", "x"):
        raise EditPlanError(f"{where}: type must be one of e n s b d x, not {letter!r}")
    check_value(letter, value, where)
    fmt = doc.get("number_format")
    if fmt is not None and (not isinstance(fmt, str) or len(fmt) > 255):
        raise EditPlanError(f"{where}: number_format must be text of at most 255 characters")
    return CellContent(letter, value, formula, fmt)


def infer_type(value: Any) -> str:
    """The type letter a bare JSON value implies (dates need an explicit ``d``)."""
    if value is None:
        return "e"
    if isinstance(value, bool):
        return "b"
    if isinstance(value, int | float):
        return "n"
    if isinstance(value, str):
        return "x" if value in ERROR_VALUES else "s"
    return "?"


def check_value(letter: str, value: Any, where: str) -> None:
    """Raise EditPlanError when a value does not fit its type letter."""
    ok = {
        "e": value is None or value == "",
        "n": _num(value) is not None and math.isfinite(float(value)),
        "d": _num(value) is not None and 0 <= float(value) < 2958466,
        "b": isinstance(value, bool),
        "s": isinstance(value, str),
        "x": isinstance(value, str) and value in ERROR_VALUES,
    }[letter]
    if not ok:
        raise EditPlanError(f"{where}: value {value!r} does not fit type {letter!r}"[:300])
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise EditPlanError(f"{where}: text longer than Excel's {MAX_TEXT:,} characters")

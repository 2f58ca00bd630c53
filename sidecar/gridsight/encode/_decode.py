"""The encoding read back as a sheet: what a reader of the text alone can know about the cells.

Why: to measure what an encoding step costs downstream without a model in the loop, the benchmark
runs the rule-based table detector on the sheet decoded from the text (compact coordinates) and maps
its ranges back through the address map. A lossy step that hides what detection needs shows up as a
lower EoB F1 than the lossless encoding's, in the same run. Styles never reach the text, so this
sheet has none; type labels become one placeholder value of their type.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from gridsight.encode._encode import FORMULA_TOKEN, decode_index
from gridsight.encode._semantic import TEXT_LABEL
from gridsight.encode._types import DataType, format_type
from gridsight.grid import Sheet, rc_to_a1

#: Placeholder value per type label (the number formats keep their own string as the cell's format).
PLACEHOLDERS: dict[str, Any] = {
    DataType.YEAR.label: 2000,
    DataType.INTEGER.label: 7,
    DataType.FLOAT.label: 1.5,
    DataType.SCIENTIFIC.label: 1e20,
    DataType.PERCENTAGE.label: "50%",
    DataType.DATE.label: dt.datetime(2020, 1, 1),
    DataType.TIME.label: "12:00",
    DataType.CURRENCY.label: "$5",
    DataType.EMAIL.label: "a@b.org",
}


#: Labels that stand for text, never for a number format (``TextData`` would parse as a date format).
TEXT_LABELS = frozenset((TEXT_LABEL, FORMULA_TOKEN[1:-1]))


def decode_sheet(text: str, name: str = "Decoded") -> Sheet:
    """A sheet holding what an inverted-index encoding says, at its compact addresses.

    Literal values come back as they are (numbers written as text stay text); ``{IntNum}``-style
    labels become a placeholder of their type; a number-format label (``{#,##0.00}``) becomes a
    number with that format; ``{TextData}`` and ``{Formula}`` (and any unknown label) stay text in braces.
    """
    cells: dict[str, Any] = {}
    formats: dict[str, str] = {}
    for (r, c), value in decode_index(text).items():
        ref = rc_to_a1(r, c)
        if not (value.startswith("{") and value.endswith("}")):
            cells[ref] = value
            continue
        label = value[1:-1]
        if label in TEXT_LABELS:
            cells[ref] = value
        elif label in PLACEHOLDERS:
            cells[ref] = PLACEHOLDERS[label]
        elif format_type(label) is not None:
            kind = format_type(label)
            cells[ref] = dt.datetime(2020, 1, 1) if kind in (DataType.DATE, DataType.TIME) else 1.5
            formats[ref] = label
        else:
            cells[ref] = value
    return Sheet.from_cells(name, cells, formats=formats)

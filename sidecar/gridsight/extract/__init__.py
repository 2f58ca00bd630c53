"""Schema-driven extraction: any table -> JSON records that follow the user's schema.

>>> from gridsight.extract import extract_table, from_text, parse_schema
>>> result = extract_table(from_text(html), parse_schema(templates))   # rules only
>>> [r.to_dict() for r in result.records]

A rule-based cell detector picks the numeric cells (left to right, top down); each becomes a record
whose address, value, header path, row label and unit are copied from the table by code. A model, when
given, judges only the record type and the attributes that need judgement, one record at a time under a
JSON-schema grammar, with the order check and recovery of Bai et al. (schema-driven table IE).
"""

from gridsight.extract._detect import Structure, TargetCell, numeric_value, structure, target_cells
from gridsight.extract._extract import Extraction, extract_table, iter_records
from gridsight.extract._model import ModelStats, in_order
from gridsight.extract._records import Record
from gridsight.extract._schema import Attribute, ExtractSchema, RecordType, parse_schema
from gridsight.extract._table import TableGrid, from_csv, from_latex, from_markup, from_sheet, from_text

__all__ = [
    "Attribute",
    "ExtractSchema",
    "Extraction",
    "ModelStats",
    "Record",
    "RecordType",
    "Structure",
    "TableGrid",
    "TargetCell",
    "extract_table",
    "from_csv",
    "from_latex",
    "from_markup",
    "from_sheet",
    "from_text",
    "in_order",
    "iter_records",
    "numeric_value",
    "parse_schema",
    "structure",
    "target_cells",
]

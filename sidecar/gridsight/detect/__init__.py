"""Table detection: every table on a sheet, with its header, title, notes, units and totals.

>>> from gridsight.detect import detect_tables
>>> detection = detect_tables(sheet)            # rules only: deterministic, no model needed
>>> [t.range.ref() for t in detection.tables]

Pure functions over :class:`gridsight.grid.Sheet`; no file I/O, no spreadsheet library imports.
"""

from gridsight.detect._detect import detect_tables, detect_workbook, forget_detections
from gridsight.detect._model import DetectedTable, Detection, Label
from gridsight.detect._score import Score, eob_score
from gridsight.detect._structure import PATH_SEP

__all__ = [
    "PATH_SEP",
    "DetectedTable",
    "Detection",
    "Label",
    "Score",
    "detect_tables",
    "detect_workbook",
    "eob_score",
    "forget_detections",
]

"""GridSight: a local, private AI copilot for Excel. This package is the Python sidecar."""

from gridsight.errors import GridSightError
from gridsight.grid import Range, Sheet, Workbook

__version__ = "0.1.0"

__all__ = ["GridSightError", "Range", "Sheet", "Workbook", "__version__"]

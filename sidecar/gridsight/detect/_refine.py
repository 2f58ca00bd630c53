"""Optional model refinement: the local model may choose among / adjust the rule-based ranges.

The rules never depend on this. A refiner exists only when both the SheetCompressor
(``gridsight.encode``) and the model runtime (``gridsight.llm``) are installed *and* expose the
hooks used here; otherwise :func:`load_refiner` returns None with the reason, and detection runs on
rules alone (that is also what ``--no-model`` asks for).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any


def load_refiner() -> tuple[Any | None, str]:
    """The model refiner if this installation has one, else (None, why not)."""
    for module in ("gridsight.encode", "gridsight.llm"):
        if importlib.util.find_spec(module) is None:
            return None, f"{module} is not installed; rules only"
    try:
        llm = importlib.import_module("gridsight.llm")
    except Exception as exc:  # a half-built sibling package must not break detection
        return None, f"gridsight.llm failed to import ({type(exc).__name__}); rules only"
    factory = getattr(llm, "table_range_refiner", None)
    if factory is None:
        return None, "gridsight.llm has no table_range_refiner yet; rules only"
    try:
        return factory(), "model refinement on"
    except Exception as exc:  # no model file, bad checksum, ...: keep the rules' answer
        return None, f"model unavailable ({exc}); rules only"

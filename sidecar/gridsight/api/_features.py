"""Optional engine features, plugged into the API by name when (and only when) they are installed.

Each entry names the engine package it needs and the API module that adds its routes (a function
``register(api)``). A feature whose package is missing or fails to import is reported by /health
with the reason, and its routes simply do not exist -- the sidecar never fails to start for it.
Add a feature by adding one line here.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from typing import Any

from gridsight.api._openapi import Api

log = logging.getLogger("gridsight.api")


@dataclass(frozen=True)
class Feature:
    engine: str  # the package the feature needs, e.g. "gridsight.formula"
    routes: str  # the API module with register(api)
    needs: tuple[str, ...] = ()  # attributes the engine package must export


FEATURES: dict[str, Feature] = {
    "formula": Feature(
        "gridsight.formula", "gridsight.api._feat_formula", ("validate_formula", "evaluate_formula")
    ),
    "formula-language": Feature(
        "gridsight.formula",
        "gridsight.api._feat_formula_language",
        ("generate_formula", "suggest", "explain_formula", "suggest_fill"),
    ),
    "detect": Feature("gridsight.detect", "gridsight.api._feat_detect", ("detect_tables",)),
    "encode": Feature("gridsight.encode", "gridsight.api._feat_encode", ("encode_sheet",)),
    "model": Feature("gridsight.llm", "gridsight.api._feat_model", ()),
    "explain-region": Feature("gridsight.region", "gridsight.api._feat_region", ("explain_region",)),
    "qa": Feature("gridsight.qa", "gridsight.api._feat_qa", ("answer_question",)),
    "extract": Feature("gridsight.extract", "gridsight.api._feat_extract", ("iter_records", "parse_schema")),
    "library": Feature("gridsight.retrieval", "gridsight.api._feat_library", ("build_index", "Library")),
}


def install_features(api: Api, features: dict[str, Feature] | None = None) -> dict[str, dict[str, Any]]:
    """Register the routes of every available feature; returns {name: {available, reason}}."""
    report: dict[str, dict[str, Any]] = {}
    for name, feat in (features or FEATURES).items():
        try:
            if importlib.util.find_spec(feat.engine) is None:
                report[name] = {"available": False, "reason": f"{feat.engine} is not installed"}
                continue
            engine = importlib.import_module(feat.engine)
            missing = [a for a in feat.needs if not hasattr(engine, a)]
            if missing:
                report[name] = {"available": False, "reason": f"{feat.engine} lacks {', '.join(missing)}"}
                continue
            importlib.import_module(feat.routes).register(api)
            report[name] = {"available": True, "reason": None}
        except Exception as exc:  # a broken optional feature must not stop the sidecar
            log.warning("feature %s unavailable: %s", name, exc)
            report[name] = {"available": False, "reason": f"{type(exc).__name__}: {exc}"[:300]}
    return report

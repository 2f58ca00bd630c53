"""FORECAST.ETS and its companions need the optional ``statsmodels`` package in the engine.

Without it the engine caught the ImportError and gave ``#VALUE!``, which passed for a result. Here
the engine's own argument checks still run (Excel's ``#NUM!`` and ``#VALUE!`` for bad arguments come
first), and then the formula is reported as unsupported, with the package it needs.
"""

from __future__ import annotations

from typing import Any

PACKAGE = "statsmodels"
REASON = "FORECAST.ETS needs the statsmodels package, which is not installed (optional package)"


def package_missing() -> bool:
    import importlib.util

    return importlib.util.find_spec(PACKAGE) is None


def patch_ets() -> None:
    """The engine's ETS model training, looked up at call time by FORECAST.ETS, .CONFINT, .STAT and
    .SEASONALITY: without statsmodels, the argument checks, then :data:`REASON` as an error the
    engine lets through (a ``formulas`` BaseError)."""
    import formulas.functions.stat as stat
    from formulas.errors import BaseError
    from formulas.functions import Error, FoundError

    class MissingPackageError(BaseError):
        gridsight_reason = REASON

    train = stat._train_ets_model

    def train_or_report(
        values: Any, timeline: Any, seasonality: Any, completion: Any, aggregation: Any
    ) -> Any:
        if not package_missing():
            return train(values, timeline, seasonality, completion, aggregation)
        stat._prepare_ets_data(values, timeline, completion, aggregation)  # Excel's argument errors
        if not 0 <= int(seasonality) <= 8760:
            raise FoundError(err=Error.errors["#NUM!"])
        raise MissingPackageError(REASON)

    stat._train_ets_model = train_or_report


def reason_of(exc: BaseException) -> str | None:
    """The reason an engine failure carries (the engine wraps errors in its own), or None."""
    seen: set[int] = set()
    stack: list[Any] = [exc]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        reason = getattr(e, "gridsight_reason", None)
        if isinstance(reason, str):
            return reason
        stack.extend(
            [e.__cause__, e.__context__, *(a for a in getattr(e, "args", ()) if isinstance(a, BaseException))]
        )
        stack.append(getattr(e, "ex", None))
    return None

"""Formula language feature: generate, suggest, explain and fill-down routes."""

from gridsight.api._feat_formula import register_language as register

__all__ = ["register"]

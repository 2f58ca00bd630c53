"""Formulas: parse, police, validate, evaluate and explain (on the `formulas` engine)."""

from gridsight.formula._engine import known_functions, patch_engine, warm_up
from gridsight.formula._evaluate import Evaluation, Validation, evaluate_formula, validate_formula
from gridsight.formula._explain import explain_formula
from gridsight.formula._generate import Answer, generate_formula
from gridsight.formula._pattern import FillSuggestion, relative_form, suggest_fill, translate
from gridsight.formula._policy import REFUSED_FUNCTIONS, policy_violations
from gridsight.formula._recalc import CellCheck, RecalcResult, recalculate
from gridsight.formula._suggest import Suggestion, suggest
from gridsight.formula._tree import (
    BinOp,
    Call,
    Literal,
    Missing,
    Node,
    Ref,
    UnaryOp,
    external_link,
    parse_formula,
    walk,
)

__all__ = [
    "REFUSED_FUNCTIONS",
    "Answer",
    "BinOp",
    "Call",
    "CellCheck",
    "Evaluation",
    "FillSuggestion",
    "Literal",
    "Missing",
    "Node",
    "RecalcResult",
    "Ref",
    "Suggestion",
    "UnaryOp",
    "Validation",
    "evaluate_formula",
    "explain_formula",
    "external_link",
    "generate_formula",
    "known_functions",
    "parse_formula",
    "patch_engine",
    "policy_violations",
    "recalculate",
    "relative_form",
    "suggest",
    "suggest_fill",
    "translate",
    "validate_formula",
    "walk",
    "warm_up",
]

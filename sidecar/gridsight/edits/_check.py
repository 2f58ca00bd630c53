"""Formula checks for edit plans, through whichever validator is installed.

The formula feature (``gridsight.formula``) validates against the workbook and evaluates, giving
the new value and the spill area. Where it is absent, the fallback still parses with the
``formulas`` package and checks every function name against its catalogue. Both paths refuse the
functions that reach outside the workbook or run code, and DDE links, whatever the engine says.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from gridsight.grid import MAX_COLS, MAX_ROWS, Range, Workbook

#: Refused by GridSight itself, on top of any policy the formula feature applies.
REFUSED: dict[str, str] = {
    "WEBSERVICE": "it fetches data from the internet",
    "FILTERXML": "it parses XML fetched from outside the workbook",
    "CALL": "it calls code in a DLL",
    "REGISTER": "it registers code from a DLL",
    "REGISTER.ID": "it registers code from a DLL",
    "EXEC": "it runs a program",
    "DDE": "it opens a DDE channel to another program",
    "DDEAUTO": "it opens a DDE channel to another program",
    "RTD": "it reads a real-time data server outside Excel",
}
_STRING = re.compile(r'"(?:[^"]|"")*"')
_FUNC = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(")


@dataclass(frozen=True)
class FormulaCheck:
    """Whether a formula may be written at a cell, and what it would show there."""

    ok: bool
    problems: tuple[str, ...] = ()
    refused: bool = False
    functions: tuple[str, ...] = ()
    value: Any = None
    error: str | None = None
    spill: str | None = None
    spill_free: bool | None = None
    checked_by: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problems": list(self.problems),
            "refused": self.refused,
            "functions": list(self.functions),
            "value": self.value,
            "error": self.error,
            "spill": self.spill,
            "spill_free": self.spill_free,
            "checked_by": self.checked_by,
        }


def house_policy(formula: str) -> list[str]:
    """Refusals that hold whatever validator runs: dangerous functions and DDE links."""
    bare = _STRING.sub('""', formula)
    reasons = []
    for name in dict.fromkeys(m.group(1).upper() for m in _FUNC.finditer(bare)):
        short = name.removeprefix("_XLFN.").removeprefix("_XLWS.")
        if short in REFUSED:
            reasons.append(f"{short} is not allowed: {REFUSED[short]}")
    if "|" in bare:
        reasons.append("DDE links (program|topic!item) are not allowed: they start other programs")
    return reasons


Checker = Callable[[str, Workbook, str, int, int], FormulaCheck]


@cache
def formula_checker() -> Checker:
    """The best checker installed: the formula feature when it imports, else the parse-only fallback."""
    try:
        mod = importlib.import_module("gridsight.formula")
    except ImportError:
        return _fallback_check
    if hasattr(mod, "validate_formula") and hasattr(mod, "evaluate_formula"):
        return _feature_check(mod)
    return _fallback_check


def checker_name() -> str:
    return "gridsight.formula" if formula_checker() is not _fallback_check else "formulas-parse"


def check_formula(formula: str, workbook: Workbook, sheet: str, row: int, col: int) -> FormulaCheck:
    """Check a formula destined for ``sheet`` at (row, col); refusals always make it not ok."""
    refusals = house_policy(formula)
    result = formula_checker()(formula, workbook, sheet, row, col)
    if not refusals:
        return result
    problems = tuple(dict.fromkeys((*refusals, *result.problems)))
    return FormulaCheck(False, problems, True, result.functions, checked_by=result.checked_by)


def _feature_check(mod: Any) -> Checker:
    def check(formula: str, workbook: Workbook, sheet: str, row: int, col: int) -> FormulaCheck:
        v = mod.validate_formula(formula, workbook, sheet, at=(row, col))
        if not v.ok:
            return FormulaCheck(
                False, tuple(v.problems), bool(v.refused), tuple(v.functions), checked_by="gridsight.formula"
            )
        ev = mod.evaluate_formula(formula, workbook, sheet, at=(row, col))
        problems = list(ev.problems)
        spill = spill_free = None
        if ev.spill:
            h, w = ev.spill
            if row + h > MAX_ROWS or col + w > MAX_COLS:
                problems.append("its result would spill past the edge of the sheet (#SPILL!)")
            else:
                spill = Range(row, col, row + h - 1, col + w - 1).ref()
                spill_free = ev.spill_free
                if spill_free is False:
                    problems.append(f"its result spills into {spill}, which is not empty (#SPILL!)")
        if ev.error:
            where = f" (from {ev.error_source})" if ev.error_source else ""
            problems.append(f"it evaluates to the error {ev.error}{where}")
        ok = ev.ok and not problems
        return FormulaCheck(
            ok,
            tuple(problems),
            False,
            tuple(v.functions),
            ev.value,
            ev.error,
            spill,
            spill_free,
            "gridsight.formula",
        )

    return check


def _catalogue() -> frozenset[str] | None:
    try:
        import formulas
    except ImportError:  # pragma: no cover - formulas ships with the formula feature
        return None
    # compiling an unknown name caches a `not_implemented` stand-in under it: not a function
    return frozenset(
        n.upper()
        for n, fn in formulas.get_functions().items()
        if getattr(fn, "__name__", "") != "not_implemented"
    )


def _fallback_check(formula: str, workbook: Workbook, sheet: str, row: int, col: int) -> FormulaCheck:
    """Parse with `formulas` and check names against its catalogue (no evaluation)."""
    known = _catalogue()
    if known is None:
        return FormulaCheck(
            False, ("no formula parser is installed (pip install formulas)",), checked_by="none"
        )
    import formulas

    try:
        tokens = formulas.Parser().ast(formula)[0]
    except Exception as exc:  # the parser raises several types for bad text
        msg = str(exc.args[0] % exc.args[1:]) if len(exc.args) > 1 else str(exc)
        return FormulaCheck(
            False, (f"it does not parse: {msg.splitlines()[0][:200]}",), checked_by="formulas-parse"
        )
    names: list[str] = []
    problems: list[str] = []
    for tok in tokens:
        if type(tok).__name__ != "Function":
            continue
        name = str(tok.name).upper().removeprefix("_XLFN.").removeprefix("_XLWS.")
        if name not in names:
            names.append(name)
        if name not in known and name not in REFUSED:
            problems.append(f"{name} is not a known Excel function (#NAME?)")
    return FormulaCheck(not problems, tuple(problems), False, tuple(names), checked_by="formulas-parse")

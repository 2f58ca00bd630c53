"""Validate a formula against a workbook, then evaluate it by feeding only the ranges it reads.

Compiling one formula and handing it its inputs takes milliseconds; loading a whole workbook into
the engine's ExcelModel takes seconds per 100k cells -- far too slow while a user waits.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gridsight.errors import GridSightError, UnknownSheetError
from gridsight.formula._blankcount import blank_counts, mentions_counts
from gridsight.formula._context import workbook_functions
from gridsight.formula._date1904 import date_system
from gridsight.formula._engine import engine_lock, known_functions
from gridsight.formula._excel_ets import reason_of
from gridsight.formula._excel_regression import DEFAULT_WORDS, omitted_defaults
from gridsight.formula._intersect import NO_RANGES, implicit_intersection
from gridsight.formula._policy import policy_violations
from gridsight.formula._refops import (
    eta_lambdas,
    range_chains,
    range_endpoints,
    ref_error_ranges,
    reference_operators,
)
from gridsight.formula._reftext import from_a1
from gridsight.formula._relcompile import compile_at, relative_key
from gridsight.formula._subtotal import depends_on_cells, nested_subtotals
from gridsight.formula._translate import (
    OffsetError,
    expand_3d,
    expand_names,
    expand_structured,
    inline_lambdas,
    inline_lets,
    named_lambdas,
    own_cell,
    r1c1_to_a1,
    reference_spans,
    resolve_offsets,
)
from gridsight.formula._tree import Call, Node, Ref, external_link, parse_formula, walk
from gridsight.grid import MAX_COLS, MAX_ROWS, Kind, Range, Sheet, Workbook, datetime_to_serial, rc_to_a1

#: The prefix files give LET and LAMBDA parameter names (``_xlpm.x``), outside string literals.
_XLPM = re.compile(r'_xlpm\.(?=(?:[^"]*"[^"]*")*[^"]*$)', re.IGNORECASE)
#: Calls rewritten to the range they point at before the engine runs.
_DYNAMIC_REF = re.compile(r"(?:OFFSET|INDIRECT|GRIDSIGHT\.SPAN)\s*\(", re.IGNORECASE)
#: Largest range a formula may read here (cells), to keep evaluation interactive.
MAX_INPUT_CELLS = 5_000_000


@dataclass(frozen=True)
class Validation:
    """Whether a formula may be written: every problem, in words, plus what it reads."""

    formula: str
    ok: bool
    problems: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    refused: bool = False


@dataclass(frozen=True)
class Evaluation:
    """The result of running a formula: a value or array, or the error and where it came from."""

    formula: str
    ok: bool
    value: Any = None
    error: str | None = None
    error_source: str | None = None
    spill: tuple[int, int] | None = None
    spill_free: bool | None = None
    problems: tuple[str, ...] = ()
    references: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "formula": self.formula,
            "ok": self.ok,
            "value": _jsonable(self.value),
            "error": self.error,
            "error_source": self.error_source,
            "spill": list(self.spill) if self.spill else None,
            "spill_free": self.spill_free,
            "problems": list(self.problems),
            "references": list(self.references),
        }


def _jsonable(v: Any) -> Any:
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dt.date | dt.time):
        return v.isoformat()
    return v


def _normal(formula: str) -> str:
    text = formula.strip()
    return text if text.startswith("=") else "=" + text


def _sheet_of(wb: Workbook | None, name: str | None, default: Sheet | None) -> Sheet | None:
    if name is None:
        return default
    if wb is None:
        raise UnknownSheetError(f"no workbook to find sheet {name!r} in")
    return wb.sheet(name)


def validate_formula(
    formula: str,
    workbook: Workbook | None = None,
    sheet: str | Sheet | None = None,
    *,
    at: str | tuple[int, int] | None = None,
    links: bool = False,
) -> Validation:
    """Parse, apply the policy, check every function is known and every reference exists.

    ``at`` is the formula's cell, for this-row structured references (``Sales[@Amount]``).
    ``links``: accept HYPERLINK with any target, for formulas already in a workbook that are only
    evaluated (HYPERLINK shows its text and opens nothing); what GridSight writes keeps the policy."""
    text = _normal(formula)
    link = external_link(text)
    if link:
        return Validation(text, False, (f"it links outside this workbook ({link})",), refused=True)
    try:
        tree = parse_formula(_runnable(text, workbook, sheet, at))
    except GridSightError as exc:
        return Validation(text, False, (str(exc),))
    problems: list[str] = []
    refused = policy_violations(tree, text)
    if links:
        refused = [r for r in refused if not r.startswith("HYPERLINK")]
    problems.extend(refused)
    known = known_functions()
    functions: list[str] = []
    references: list[str] = []
    current = _resolve_current(workbook, sheet)
    for node in walk(tree):
        if isinstance(node, Call):
            name = node.name.removeprefix("_XLFN.").removeprefix("_XLWS.")
            if name not in functions:
                functions.append(name)
            if (
                name not in known
                and name not in ("ARRAY", "LET", "LAMBDA")
                and not any(p.startswith(name) for p in problems)
            ):
                problems.append(f"{name} {_not_run(name)}")
        elif isinstance(node, Ref):
            if node.rng is None:
                if not _is_let_variable(tree, node):
                    problems.append(
                        f"{node.name or node.text} is not a cell reference or known name (#NAME?)"
                    )
                continue
            shown = str(node.rng) if node.sheet else node.rng.ref()
            if shown not in references:
                references.append(shown)
            if node.sheet is not None and workbook is not None:
                try:
                    workbook.sheet(node.sheet)
                except UnknownSheetError:
                    problems.append(f"the sheet {node.sheet!r} does not exist (#REF!)")
            elif (
                node.sheet is not None
                and current is not None
                and node.sheet.casefold() != current.name.casefold()
            ):
                problems.append(f"the sheet {node.sheet!r} does not exist (#REF!)")
    return Validation(text, not problems, tuple(problems), tuple(functions), tuple(references), bool(refused))


#: Functions whose results come from outside the cells, never evaluated here, by what they read.
_OUTSIDE_CELLS = {
    "GETPIVOTDATA": "reads a pivot table's cache, which GridSight does not evaluate (pivot table)",
    "STOCKHISTORY": "fetches data from the internet, which GridSight does not do (external data)",
    "WEBSERVICE": "fetches data from the internet, which GridSight does not do (external data)",
    "RTD": "reads a real-time data server, which GridSight does not do (external data)",
    "IMAGE": "fetches a picture from the internet, which GridSight does not do (external data)",
}


def _not_run(name: str) -> str:
    """Why a function the engine lacks is not run, in words (its kind in brackets)."""
    if name in _OUTSIDE_CELLS:
        return _OUTSIDE_CELLS[name]
    if name.startswith("CUBE"):
        return "reads an OLAP cube or the Data Model, which GridSight does not evaluate (cube function)"
    return "is not a function GridSight can check (#NAME?)"


def _runnable(
    text: str,
    workbook: Workbook | None,
    sheet: str | Sheet | None,
    at: str | tuple[int, int] | None,
    intersect: bool = False,
) -> str:
    """The formula with structured references and defined names expanded, applied LAMBDAs inlined,
    and (``intersect``, for a formula that is not an array formula) Excel's implicit intersection."""
    current = _resolve_current(workbook, sheet)
    cell = (Range.parse(at).top, Range.parse(at).left) if isinstance(at, str) else at
    name = current.name if current else None
    expanded = eta_lambdas(text)  # BYROW(A1:C3,SUM), saved as _xleta.SUM: the LAMBDA it stands for
    if workbook is not None and workbook.names and "(" in expanded:  # =cal_month(1), a named LAMBDA
        applied = named_lambdas(expanded, _lambda_names(workbook, name))
        if applied is not None:  # inlined before anything parses it (LAMBDA(...)(1) does not parse)
            expanded = inline_lambdas(_XLPM.sub("", applied))
    expanded = _XLPM.sub("", expanded) if "_xlpm." in expanded.lower() else expanded  # LET/LAMBDA names
    if "LAMBDA(" in expanded.upper():  # LAMBDA(x,x+1)(5), before anything parses it
        expanded = inline_lambdas(expanded)
    named_refs = _name_references(workbook, name, cell)
    if ":" in expanded and ("!" in expanded or (workbook is not None and workbook.names)):
        expanded = range_endpoints(expanded, named_refs) or expanded  # Imps!M4:'Imps'!M76, C2:EndName
    if ":" in expanded and "(" in expanded:  # A1:OFFSET(A1,4,0), INDEX(r,1,1):INDEX(r,1,n)
        expanded = reference_spans(expanded) or expanded
    expanded = range_chains(expanded) or expanded  # A1:B2:C3, the range spanning them
    expanded = ref_error_ranges(expanded) or expanded  # #REF!:B4, a range with a deleted end
    if workbook is not None and ":" in expanded and "!" in expanded:
        expanded = expand_3d(expanded, workbook.sheet_names)
    expanded = expand_structured(expanded, workbook, name, cell)
    expanded = expand_names(
        expanded,
        workbook,
        name,
        lambda t: expand_structured(range_endpoints(t, named_refs) or t, workbook, name, cell),
        at=cell,
    )
    expanded = inline_lambdas(expanded)
    if "LET(" in expanded.upper():  # LET(x,1,y,x-1,y): names that use names, written out
        expanded = inline_lets(expanded) or expanded
    if "," in expanded or " " in expanded or "AREAS" in expanded.upper():  # (A1,C1), A1:C3 B2:D4
        expanded = reference_operators(expanded) or expanded
    if cell is not None:
        expanded = own_cell(parse_formula(expanded), cell) or expanded
    if any(word in expanded.upper() for word in ("SUBTOTAL", "AGGREGATE")):
        expanded = nested_subtotals(parse_formula(expanded), workbook, current) or expanded
    if mentions_counts(expanded):
        expanded = blank_counts(parse_formula(expanded), workbook, current) or expanded
    if any(word in expanded.upper() for word in ("SHEET", "FORMULA", "ISREF")):
        expanded = workbook_functions(parse_formula(expanded), workbook, current) or expanded
    upper = expanded.upper()
    if any(word in upper for word in DEFAULT_WORDS):
        expanded = omitted_defaults(parse_formula(expanded)) or expanded
    if cell is not None and (intersect or "SINGLE(" in upper or any(f in upper for f in NO_RANGES)):
        expanded = implicit_intersection(parse_formula(expanded), cell, single_only=not intersect) or expanded
    return expanded


def _name_references(
    workbook: Workbook | None, sheet: str | None, at: tuple[int, int] | None
) -> Callable[[str, str | None], str | None]:
    """The reference a defined name stands for, as seen from ``at`` (``EndofDPoint`` ->
    ``Deals!$C$90``), for a name on ``on`` (else the formula's sheet); None for a name of anything
    else or no name."""

    def reference(name: str, on: str | None) -> str | None:
        found = workbook.defined_name(name, on or sheet) if workbook is not None else None
        if found is None:
            return None
        text = found.text.lstrip("=").strip()
        text = from_a1(text, at) if at is not None else text
        try:
            Range.parse(text)
        except GridSightError:
            return None
        return text

    return reference


def _lambda_names(workbook: Workbook, sheet: str | None) -> Callable[[str], str | None]:
    """A defined name's LAMBDA text (as the file stores it, ``_xlfn.LAMBDA(...)``), else None."""

    def lambda_of(name: str) -> str | None:
        found = workbook.defined_name(name, sheet)
        if found is None:
            return None
        text = found.text.lstrip("=").strip()
        return text if _LAMBDA_TEXT.match(text) else None

    return lambda_of


_LAMBDA_TEXT = re.compile(r"^(?:_xlfn\.)?LAMBDA\(", re.IGNORECASE)


#: The text the engine runs for a formula (for callers that analyse what a formula reads).
runnable_text = _runnable


def _is_let_variable(tree: Node, ref: Ref) -> bool:
    """Names bound by LET/LAMBDA are variables, not unknown names."""
    for node in walk(tree):
        name = node.name.removeprefix("_XLFN.") if isinstance(node, Call) else ""
        if name in ("LET", "LAMBDA"):
            params = node.args[:-1] if name == "LAMBDA" else node.args[0:-1:2]  # type: ignore[attr-defined]
            if any(isinstance(p, Ref) and p.text.upper() == ref.text.upper() for p in params):
                return True
    return False


def _resolve_current(workbook: Workbook | None, sheet: str | Sheet | None) -> Sheet | None:
    if isinstance(sheet, Sheet):
        return sheet
    if workbook is None:
        return None
    if sheet is None:
        return workbook.sheets[0] if workbook.sheets else None
    return workbook.sheet(sheet)


#: Formula cells without a saved result that one evaluation computes on the way (a file written by
#: a program, not by Excel, has none): beyond this the evaluation stops with a clear error.
MAX_UNCALCULATED = 5000
_PENDING = threading.local()


def _uncalculated(workbook: Workbook | None, sheet: Sheet, row: int, col: int, formula: str) -> Any:
    """The engine value of a formula cell whose result was never saved, computed now (recursively:
    a total over subtotals works), with cycles and runaway chains refused."""
    from formulas.functions import Error

    stack: set[tuple[str, int, int]] | None = getattr(_PENDING, "stack", None)
    if not stack:  # the outermost evaluation: a fresh budget
        stack = _PENDING.stack = set()
        _PENDING.count = 0
    key = (sheet.name, row, col)
    if key in stack:
        raise GridSightError(f"{rc_to_a1(row, col)} on {sheet.name!r} is part of a circular reference")
    if len(stack) >= 64:
        raise GridSightError("formulas without saved results nest more than 64 deep")
    _PENDING.count += 1
    if _PENDING.count > MAX_UNCALCULATED:
        raise GridSightError(
            f"more than {MAX_UNCALCULATED:,} formulas without saved results would have to be computed"
        )
    stack.add(key)
    try:
        ev = evaluate_formula(formula, workbook, sheet, at=(row, col))
    finally:
        stack.discard(key)
    if not ev.ok:
        raise GridSightError(
            f"{rc_to_a1(row, col)} on {sheet.name!r} cannot be computed: {'; '.join(ev.problems)}"
        )
    if ev.error is not None:
        return Error.errors.get(ev.error, Error.errors["#VALUE!"])
    value = ev.value
    while isinstance(value, list):  # an array result: the anchor cell shows its first item
        value = value[0] if value else None
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return datetime_to_serial(value, date1904=sheet.date1904)
    return value


def _cell_input(
    sheet: Sheet | None,
    rng: Range,
    workbook: Workbook | None = None,
    compute: bool = True,
    as_reference: bool = False,
) -> Any:
    """The engine's view of a range: numbers, text, bools, errors, EMPTY; dates as serials.

    Formula cells with no saved result (files written by programs, not Excel) are computed.
    ``as_reference``: a single cell stays a 1x1 array, as the engine's own workbook model passes a
    reference, so functions tell a reference (``SUM(A1)`` skips a TRUE in A1) from a value
    (``SUM(TRUE)`` is 1)."""
    from formulas.functions import Error

    bottom, right = rng.bottom, rng.right
    if sheet is not None and sheet.used_range is not None:
        used = sheet.used_range
        if rng.is_whole_columns:
            bottom = max(used.bottom, rng.top)
        if rng.is_whole_rows:
            right = max(used.right, rng.left)
    elif rng.is_whole_columns or rng.is_whole_rows:
        bottom, right = rng.top, rng.left
    h, w = bottom - rng.top + 1, right - rng.left + 1
    if h * w > MAX_INPUT_CELLS:
        raise GridSightError(
            f"{rng.ref()} has {h * w:,} cells; formulas here may read at most {MAX_INPUT_CELLS:,}"
        )
    out = _empties((h, w))
    grids = _OVERRIDE.get()
    grid = grids.get(sheet.name.casefold()) if grids is not None and sheet is not None else None
    if grid is not None and sheet is not None and sheet.used_range is not None:
        r0, c0 = sheet.origin
        gh, gw = grid.shape
        t, b = max(rng.top, r0), min(bottom, r0 + gh - 1)
        left, rt = max(rng.left, c0), min(right, c0 + gw - 1)
        if t <= b and left <= rt:
            out[t - rng.top : b - rng.top + 1, left - rng.left : rt - rng.left + 1] = grid[
                t - r0 : b - r0 + 1, left - c0 : rt - c0 + 1
            ]
    elif sheet is not None and sheet.used_range is not None:
        r0, c0 = sheet.origin
        sh_h, sh_w = sheet.shape
        t, b = max(rng.top, r0), min(bottom, r0 + sh_h - 1)
        left, rt = max(rng.left, c0), min(right, c0 + sh_w - 1)
        if t <= b and left <= rt:
            ks = sheet.kinds[t - r0 : b - r0 + 1, left - c0 : rt - c0 + 1]
            nums = sheet.numbers[t - r0 : b - r0 + 1, left - c0 : rt - c0 + 1]
            tids = sheet.text_ids[t - r0 : b - r0 + 1, left - c0 : rt - c0 + 1]
            block = _empties(ks.shape)
            num_mask = (ks == Kind.NUMBER) | (ks == Kind.DATETIME)
            block[num_mask] = nums[num_mask]
            bool_mask = ks == Kind.BOOL
            block[bool_mask] = nums[bool_mask] != 0
            texts = np.array((*sheet.texts, ""), dtype=object)
            text_mask = ks == Kind.TEXT
            block[text_mask] = texts[tids[text_mask]]
            for i, j in zip(*np.nonzero(ks == Kind.ERROR), strict=True):
                block[i, j] = Error.errors.get(sheet.texts[tids[i, j]], Error.errors["#VALUE!"])
            if compute:
                fids = sheet.formula_ids[t - r0 : b - r0 + 1, left - c0 : rt - c0 + 1]
                for i, j in zip(*np.nonzero((fids >= 0) & (ks == Kind.EMPTY)), strict=True):
                    formula = sheet.formulas[int(fids[i, j])]
                    block[i, j] = _uncalculated(workbook, sheet, t + int(i), left + int(j), formula)
            out[t - rng.top : b - rng.top + 1, left - rng.left : rt - rng.left + 1] = block
    if h == 1 and w == 1 and not as_reference:
        return out[0, 0]
    return out


#: Values that replace a sheet's saved ones while formulas are recalculated (see :func:`values_override`).
_OVERRIDE: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("_OVERRIDE", default=None)


def engine_values(sheet: Sheet) -> Any:
    """The whole sheet (its stored rectangle, from ``sheet.origin``) as the engine sees its cells:
    a writable object array of numbers, text, bools, error values and EMPTY."""
    if sheet.used_range is None:
        return _empties((0, 0))
    r0, c0 = sheet.origin
    h, w = sheet.shape
    out = _cell_input(sheet, Range(r0, c0, r0 + h - 1, c0 + w - 1), None, compute=False)
    if not isinstance(out, np.ndarray):
        block = _empties((1, 1))
        block[0, 0] = out
        return block
    return out


@contextlib.contextmanager
def values_override(grids: dict[str, Any]) -> Iterator[None]:
    """Within the block, formulas read sheet values from ``grids`` (sheet name casefolded -> an array
    as :func:`engine_values` returns) instead of the saved ones: how a recalculation feeds each formula
    the values computed before it."""
    token = _OVERRIDE.set(grids)
    try:
        yield
    finally:
        _OVERRIDE.reset(token)


def _empties(shape: tuple[int, ...]) -> Any:
    """An object array of the engine's EMPTY token (np.full would turn the token into a str)."""
    import schedula as sh

    out = np.empty(shape, dtype=object)
    out.fill(sh.EMPTY)
    return out


def _input_range(key: str) -> tuple[str | None, Range]:
    prefix, _, ref = key.rpartition("!")
    sheet = prefix.strip("'").replace("''", "'") if prefix else None
    return sheet or None, Range.parse(ref)


def _python(v: Any) -> Any:
    import schedula as sh
    from formulas.functions import XlError

    if isinstance(v, list | tuple | np.ndarray):  # an engine function that put a list in one cell
        flat = np.ravel(np.asarray(v, dtype=object))
        return _python(flat[0]) if flat.size else None
    if v is sh.EMPTY or v is None or (type(v) is type(sh.EMPTY) and str(v) == "empty"):
        return None
    if isinstance(v, XlError):
        return str(v)
    if isinstance(v, np.bool_ | bool):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating | float):
        x = float(v)
        return int(x) if x.is_integer() and abs(x) < 2**53 else x
    if isinstance(v, np.str_):
        return str(v)
    return v


def _is_error(v: Any) -> bool:
    from formulas.functions import XlError

    if isinstance(v, np.ndarray):
        return v.size == 1 and isinstance(v.ravel()[0], XlError)
    return isinstance(v, XlError)


def evaluate_formula(
    formula: str,
    workbook: Workbook | None = None,
    sheet: str | Sheet | None = None,
    *,
    at: str | tuple[int, int] | None = None,
    intersect: bool = False,
    forms: dict[Any, bool] | None = None,
    links: bool = False,
) -> Evaluation:
    """Validate, then run a formula on the workbook's current values.

    Args:
        formula: formula text, with or without the leading '='.
        workbook: where references point (None for formulas of constants).
        sheet: the sheet unqualified references belong to (default: the first).
        at: the cell the formula would live in; needed to tell whether a spill area is free.
        intersect: evaluate it as a plain (not array) formula stored at ``at`` in a file: a range where
            one value is expected gives the value in ``at``'s row or column (implicit intersection).
        links: accept HYPERLINK with any target (see :func:`validate_formula`).
        forms: a cache for many formulas of one workbook (a recalculation): a formula one fill away
            from one that validated and needed no rewriting (no names, tables, ROW(), intersection)
            needs neither either, so it skips both.
    """
    cell = (Range.parse(at).top, Range.parse(at).left) if isinstance(at, str) else at
    form = (intersect, links, relative_key(_normal(formula), cell)[0]) if forms is not None and cell else None
    if form is not None and forms is not None and forms.get(form):
        v = Validation(_normal(formula), True)
        run = v.formula
    else:
        v = validate_formula(formula, workbook, sheet, at=at, links=links)
        if not v.ok:
            return Evaluation(v.formula, False, problems=v.problems, references=v.references)
        run = _runnable(v.formula, workbook, sheet, at, intersect)
        if form is not None and forms is not None and run == v.formula and not depends_on_cells(run):
            forms[form] = True
    current = _resolve_current(workbook, sheet)

    def number(text: str) -> Any:
        inner = evaluate_formula(text, workbook, sheet)
        if not inner.ok or inner.error is not None:
            raise OffsetError(inner.error or "#VALUE!", f"{text[1:]} gives {inner.error or 'no value'}")
        return inner.value

    try:
        if _DYNAMIC_REF.search(run):
            run = (
                resolve_offsets(parse_formula(run), number, _indirect_resolver(workbook, current, at)) or run
            )
            if any(word in run.upper() for word in ("ROW", "COLUMN")):  # ROW(INDIRECT(A1)): now ROW(B7)
                run = own_cell(parse_formula(run), cell) or run
            if any(word in run.upper() for word in ("SUBTOTAL", "AGGREGATE")):  # over OFFSET(..):OFFSET(..)
                run = nested_subtotals(parse_formula(run), workbook, current) or run
            if "ISREF" in run.upper():  # ISREF(A1:OFFSET(A1,1,1)): now ISREF(A1:B2)
                run = workbook_functions(parse_formula(run), workbook, current) or run
    except OffsetError as exc:
        return Evaluation(v.formula, True, error=exc.error, error_source=str(exc), references=v.references)
    except GridSightError as exc:
        return Evaluation(v.formula, False, problems=(str(exc),), references=v.references)
    date1904 = bool(workbook.date1904 if workbook is not None else current is not None and current.date1904)
    try:
        with date_system(date1904):
            fn, keys = compile_at(run, cell)
    except Exception as exc:
        return Evaluation(
            v.formula,
            False,
            problems=(reason_of(exc) or f"the engine cannot compile it ({type(exc).__name__})",),
        )
    try:
        args = []
        for key in keys:
            if not isinstance(key, str):  # a number written in the formula (see _relcompile)
                args.append(key)
                continue
            sheet_name, rng = _input_range(key)
            args.append(
                _cell_input(_sheet_of(workbook, sheet_name, current), rng, workbook, as_reference=True)
            )
    except GridSightError as exc:
        return Evaluation(v.formula, False, problems=(str(exc),), references=v.references)
    with engine_lock(), date_system(date1904):
        try:
            raw = fn(*args)
        except Exception as exc:
            reason = reason_of(exc) or f"the engine failed on it ({type(exc).__name__})"
            return Evaluation(v.formula, False, problems=(reason,))
        solution = list(fn.solution.items()) if getattr(fn, "solution", None) else []
    inputs = set(fn.inputs)
    if _is_error(raw):
        err = str(raw.ravel()[0]) if isinstance(raw, np.ndarray) else str(raw)
        source = next((k for k, val in solution if k not in inputs and _is_error(val)), None)
        return Evaluation(v.formula, True, error=err, error_source=source, references=v.references)
    if isinstance(raw, np.ndarray) and raw.ndim == 2 and raw.size > 1:
        h, w = raw.shape
        value = [[_python(x) for x in row] for row in raw.tolist()]
        spill_free = _spill_free(current, at, h, w) if at is not None else None
        return Evaluation(
            v.formula, True, value=value, spill=(h, w), spill_free=spill_free, references=v.references
        )
    if isinstance(raw, np.ndarray):
        raw = raw.ravel()[0] if raw.size else None
    return Evaluation(v.formula, True, value=_python(raw), references=v.references)


def _indirect_resolver(
    workbook: Workbook | None, current: Sheet | None, at: str | tuple[int, int] | None
) -> Callable[[str, bool], str]:
    """INDIRECT's text -> range text: an A1 or R1C1 reference (with or without a sheet), a structured
    reference or a defined name; anything else is ``#REF!``, as in Excel."""
    cell = (Range.parse(at).top, Range.parse(at).left) if isinstance(at, str) else at
    name = current.name if current else None

    def reference(text: str, a1: bool) -> str:
        candidate = text if a1 else r1c1_to_a1(text, cell)
        if candidate is not None and _plain_reference(candidate, workbook, current):
            return str(Range.parse(candidate))  # as the parser writes it: "05:05" is 5:5, "SS077" SS77
        if a1 and "[" in text and workbook is not None:
            try:
                expanded = expand_structured("=" + text, workbook, name, cell)[1:]
            except GridSightError:
                expanded = ""
            if _plain_reference(expanded, workbook, current):
                return expanded
        if a1 and workbook is not None:
            found = workbook.defined_name(text, name)
            if found is not None and _plain_reference(found.text, workbook, current):
                return found.text
        raise OffsetError("#REF!", f"INDIRECT({text!r}) is not a reference in this workbook")

    return reference


#: INDIRECT's text -> range text, for callers that resolve references ahead of evaluation.
indirect_resolver = _indirect_resolver


def _plain_reference(text: str, workbook: Workbook | None, current: Sheet | None) -> bool:
    """``text`` is one range, on a sheet that exists."""
    try:
        rng = Range.parse(text)
    except GridSightError:
        return False
    if rng.sheet is None:
        return True
    if workbook is None:
        return current is not None and rng.sheet.casefold() == current.name.casefold()
    try:
        workbook.sheet(rng.sheet)
    except UnknownSheetError:
        return False
    return True


def _spill_free(sheet: Sheet | None, at: str | tuple[int, int], h: int, w: int) -> bool:
    if isinstance(at, str):
        anchor = Range.parse(at)
        r0, c0 = anchor.top, anchor.left
    else:
        r0, c0 = at
    if r0 + h > MAX_ROWS or c0 + w > MAX_COLS:
        return False
    if sheet is None:
        return True
    for cell in sheet.iter_cells(Range(r0, c0, r0 + h - 1, c0 + w - 1)):
        if (cell.row, cell.col) != (r0, c0):
            return False
    return True

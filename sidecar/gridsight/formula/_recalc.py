"""Recalculate a workbook's formulas and compare each with the result Excel saved in the file.

Every formula is evaluated in dependency order from the saved values of the non-formula cells: a
formula that reads another formula's cell reads the value GridSight computed for it (a true
recalculation), so errors propagate as they would after a change. Each cell's result is compared with
Excel's own saved result. A cell whose inputs differ from Excel's is evaluated a second time from
Excel's saved inputs, which separates an error of its own (``saved_inputs_agree`` False) from one that
only propagated into it.

Not counted as differences, but reported: cells on circular references, cells calling volatile or
environment functions (NOW, RAND, CELL...), and cells whose value comes from outside the workbook
(``external``: user-defined functions of a macro or an add-in, data from the internet or a server,
other workbooks Excel kept no values of). All keep Excel's saved value for the cells that read them.
A formula GridSight cannot run (an unknown function, a defined name, an external link) keeps its saved
value too and is counted as unsupported, with the reason.

Time is bounded: each cell has a guard (where the platform allows an interval timer) and the whole
workbook a budget; cells left when the budget runs out are reported as skipped.
"""

from __future__ import annotations

import contextlib
import heapq
import re
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from gridsight.errors import GridSightError
from gridsight.formula._compare import cell_value, difference_kind, external_kind, same, unsupported_kind
from gridsight.formula._depgraph import Area, CellKey, FormulaIndex, GraphNode, evaluation_order
from gridsight.formula._engine import patch_engine
from gridsight.formula._evaluate import (
    Evaluation,
    engine_values,
    evaluate_formula,
    indirect_resolver,
    runnable_text,
    values_override,
)
from gridsight.formula._guard import CellTimeout, cell_guard
from gridsight.formula._intersect import computed_array
from gridsight.formula._links import LinkCache, linked_values, own_workbook
from gridsight.formula._platform import character_set
from gridsight.formula._relcompile import relative_key
from gridsight.formula._subtotal import depends_on_cells, hidden_rows
from gridsight.formula._translate import OffsetError, resolve_offsets
from gridsight.formula._tree import Call, Literal, Node, Ref, UnaryOp, parse_formula, walk
from gridsight.grid import ERROR_VALUES, Kind, Range, Sheet, Workbook, datetime_to_serial, rc_to_a1
from gridsight.sources._xlsx_arrays import Iteration
from gridsight.sources._xlsx_rows import HiddenRows

#: Functions whose result depends on the moment or the machine, not on the workbook.
VOLATILE = frozenset({"NOW", "TODAY", "RAND", "RANDBETWEEN", "RANDARRAY", "CELL", "INFO"})
#: Default time limits (seconds): one cell, one workbook.
CELL_BUDGET_S = 10.0
WORKBOOK_BUDGET_S = 300.0

ArrayAreas = Mapping[str, Mapping[tuple[int, int], Range]]


@dataclass(frozen=True)
class CellCheck:
    """One formula cell: what Excel saved, what GridSight computed, and how they compare.

    ``status``: agree | differ | unsupported | skipped | circular | volatile | external | unsaved (no
    saved result to compare with). ``kind`` names the difference or the reason a cell was not computed."""

    sheet: str
    cell: str
    formula: str
    status: str
    kind: str | None = None
    excel: Any = None
    ours: Any = None
    reason: str | None = None
    saved_inputs_agree: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: _plain(v) for k, v in asdict(self).items()}


def _plain(v: Any) -> Any:
    if isinstance(v, float | int | bool | str) or v is None:
        return str(v) if type(v).__name__ == "CellError" else v
    return str(v)


@dataclass(frozen=True)
class RecalcResult:
    """Every formula cell's check, in evaluation order, and the time it took."""

    workbook: str | None
    cells: tuple[CellCheck, ...]
    seconds: float
    stopped: str | None = None

    def count(self, status: str) -> int:
        return sum(1 for c in self.cells if c.status == status)

    @property
    def formulas(self) -> int:
        """Formulas compared: agreed + differ + unsupported (skipped ones count as unsupported)."""
        return sum(1 for c in self.cells if c.status in ("agree", "differ", "unsupported", "skipped"))

    @property
    def agreed(self) -> int:
        return self.count("agree")

    @property
    def agreement(self) -> float:
        return round(self.agreed / self.formulas, 4) if self.formulas else 0.0

    @property
    def saved_inputs_agreed(self) -> int:
        """Cells that agree when evaluated from Excel's saved inputs (each formula on its own)."""
        return sum(
            1
            for c in self.cells
            if c.status in ("agree", "differ")
            and (c.saved_inputs_agree if c.saved_inputs_agree is not None else c.status == "agree")
        )

    def by_kind(self) -> dict[str, int]:
        """Differences, unsupported and external cells counted by kind, largest first."""
        kinds = Counter(
            f"{c.status}: {c.kind}"
            for c in self.cells
            if c.status in ("differ", "unsupported", "skipped", "external")
        )
        return dict(kinds.most_common())

    def summary(self) -> dict[str, Any]:
        n = self.formulas
        return {
            "formulas": n,
            "agreed": self.agreed,
            "differ": self.count("differ"),
            "unsupported": self.count("unsupported") + self.count("skipped"),
            "agreement": self.agreement,
            "saved_inputs_agreed": self.saved_inputs_agreed,
            "saved_inputs_agreement": round(self.saved_inputs_agreed / n, 4) if n else 0.0,
            "circular": self.count("circular"),
            "volatile": self.count("volatile"),
            "external": self.count("external"),
            "unsaved": self.count("unsaved"),
            "skipped": self.count("skipped"),
            "by_kind": self.by_kind(),
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
        }


def _engine_value(v: Any) -> Any:
    """A computed cell value as the engine reads it back (errors as the engine's error values)."""
    from formulas.functions import Error

    if isinstance(v, str) and v in ERROR_VALUES:
        return Error.errors.get(v, Error.errors["#VALUE!"])
    if v is None:
        return 0.0
    return v


def _intersect(value: list[list[Any]], at: tuple[int, int], refs: Sequence[Range]) -> Any:
    """Excel's implicit intersection of an array result with the formula's own row and column: the
    item in the formula's row of a range as tall as the array (its column, for a wide one), else
    ``#VALUE!``; an array no range explains gives its top-left item."""
    h, w = len(value), len(value[0]) if value else 0
    row = col = 0
    if h > 1:
        tall = [r for r in refs if r.height == h]
        if not tall:
            return value[0][0]
        hits = [at[0] - r.top for r in tall if r.top <= at[0] <= r.bottom]
        if not hits:
            return "#VALUE!"
        row = hits[0]
    if w > 1:
        wide = [r for r in refs if r.width == w]
        if not wide:
            return value[row][0]
        hits = [at[1] - r.left for r in wide if r.left <= at[1] <= r.right]
        if not hits:
            return "#VALUE!"
        col = hits[0]
    return value[row][col]


#: Beyond this many multi-cell array formulas on a sheet, the cells they fill are not ordered after
#: them (a reference then reads the array's saved values until the formula is evaluated).
MAX_FILL_CHECKS = 2000


class _Book:
    """The workbook's formula cells, their precedents, and the values being recalculated."""

    def __init__(
        self,
        wb: Workbook,
        arrays: ArrayAreas,
        deadline: float = float("inf"),
        links: LinkCache | None = None,
    ) -> None:
        self.wb = wb
        self.deadline = deadline  # past it, formulas are no longer analysed (they will be skipped)
        self.sheets = {s.name.casefold(): s for s in wb.sheets}
        self.arrays = {k.casefold(): v for k, v in arrays.items()}
        self.formulas: dict[CellKey, str] = {}
        for s in wb.sheets:
            r0, c0 = s.origin
            for i, j in zip(*np.nonzero(s.formula_ids >= 0), strict=True):
                self.formulas[(s.name.casefold(), r0 + int(i), c0 + int(j))] = s.formulas[
                    int(s.formula_ids[i, j])
                ]
        self.index = FormulaIndex(self.formulas)
        #: per sheet, the array formulas that fill more than their own cell: (area, anchor)
        self.fills: dict[str, list[tuple[Range, CellKey]]] = {}
        for name, areas in self.arrays.items():
            for (r, c), area in areas.items():
                if (name, r, c) in self.formulas and (area.height > 1 or area.width > 1):
                    self.fills.setdefault(name, []).append((area, (name, r, c)))
        #: the text each formula is evaluated from: spill references (``C1#``) made ranges, references
        #: to the workbook itself by index (``[0]!Name``) plain
        self.texts = {
            k: _spill_refs(f, self.sheets[k[0]].name, self.arrays) if "ANCHORARRAY(" in f.upper() else f
            for k, f in self.formulas.items()
        }
        for k, f in self.texts.items():
            if "[0]" in f:
                self.texts[k] = own_workbook(f) or f
        if links:  # references to other workbooks: the values Excel kept of them
            for k, f in self.texts.items():
                if "[" in f:
                    self.texts[k] = linked_values(f, links) or f
        self._refs: dict[CellKey, tuple[Range, ...]] = {}
        self._names: dict[CellKey, frozenset[str]] = {}
        self._areas: dict[CellKey, tuple[Area, ...]] = {}
        self._area_cells: dict[Area, tuple[CellKey, ...]] = {}
        self._area_sets: dict[Area, frozenset[CellKey]] = {}
        #: each array formula's own area (its anchor -> the cells it fills)
        self.own_fill = {a: area for fills in self.fills.values() for area, a in fills}
        #: relative forms of formulas that need no rewriting -> their functions (see ``_parse``)
        self.plain: dict[tuple[bool, str], frozenset[str]] = {}
        #: the same for evaluation (``evaluate_formula(forms=...)``)
        self.forms: dict[Any, bool] = {}

    def refs(self, key: CellKey) -> tuple[Range, ...]:
        """The ranges a formula reads (structured references expanded), each with its sheet."""
        if key not in self._refs:
            self._parse(key)
        return self._refs[key]

    def functions(self, key: CellKey) -> frozenset[str]:
        if key not in self._names:
            self._parse(key)
        return self._names[key]

    def _parse(self, key: CellKey) -> None:
        sheet = self.sheets[key[0]]
        at = (key[1], key[2])
        text = self.texts[key]
        intersect = at not in self.arrays.get(key[0], {})
        form, matches = relative_key(text, at)
        known = self.plain.get((intersect, form))
        if known is not None:
            # one fill away from a formula that needed no rewrite: its references are as written
            try:
                self._refs[key] = tuple(_as_range(m.group(0), sheet.name) for m in matches)
                self._names[key] = known
                return
            except GridSightError:
                pass
        refs: list[Range] = []
        names: set[str] = set()
        try:
            run = runnable_text(text, self.wb, sheet, at, intersect)
            tree = parse_formula(run)
            static = _static_targets(tree, self.wb, sheet, at)
            for node in walk(static or tree):
                if isinstance(node, Ref) and node.rng is not None:
                    refs.append(node.rng.with_sheet(node.sheet or sheet.name))
                elif isinstance(node, Call):
                    names.add(node.name.removeprefix("_XLFN.").removeprefix("_XLWS."))
            written = {_key(_as_range(m.group(0), sheet.name)) for m in matches}
            if run == text and written == {_key(r) for r in refs} and not depends_on_cells(text):
                self.plain[(intersect, form)] = frozenset(names)
        except (GridSightError, RecursionError, ValueError):
            pass
        self._refs[key] = tuple(refs)
        self._names[key] = frozenset(names)

    def areas(self, key: CellKey) -> tuple[Area, ...]:
        """The ranges a formula reads on the workbook's sheets, as nodes of the dependency graph
        (shared by every formula reading the same range)."""
        found = self._areas.get(key)
        if found is not None:
            return found
        if key not in self._refs and time.perf_counter() > self.deadline:
            return ()
        out: list[Area] = []
        for rng in self.refs(key):
            name = (rng.sheet or "").casefold()
            if name in self.sheets:
                # an array formula reading part of the area it fills does not read itself
                fill = self.own_fill.get(key)
                without = key if fill is not None and fill.intersect(rng) is not None else None
                out.append(Area(name, rng.top, rng.left, rng.bottom, rng.right, without))
        self._areas[key] = found = tuple(out)
        return found

    def area_cells(self, area: Area) -> tuple[CellKey, ...]:
        """The formula cells an area holds, and the array formulas that fill part of it (a cell an
        array formula fills is that formula's result: read after it)."""
        found = self._area_cells.get(area)
        if found is not None:
            return found
        rng = Range(area.top, area.left, area.bottom, area.right)
        out = self.index.inside(area.sheet, rng)
        fills = self.fills.get(area.sheet, ())
        if len(fills) <= MAX_FILL_CHECKS:
            out.extend(a for part, a in fills if a != area.without and part.intersect(rng) is not None)
        self._area_cells[area] = found = tuple(dict.fromkeys(out))
        return found

    def precedents(self, node: GraphNode) -> tuple[GraphNode, ...]:
        """The dependency graph's edges: a formula cell reads areas, an area holds formula cells."""
        if isinstance(node, Area):
            return self.area_cells(node)
        return self.areas(node)

    def reads_any(self, key: CellKey, cells: set[CellKey]) -> bool:
        """Whether the formula at ``key`` reads one of ``cells`` (formula cells), looking through the
        smaller side: a few changed cells against a range of thousands, or the reverse."""
        if not cells:
            return False
        for area in self.areas(key):
            inside = self.area_cells(area)
            if len(inside) > 16 and len(cells) < len(inside):
                members = self._area_sets.get(area)
                if members is None:
                    members = self._area_sets[area] = frozenset(inside)
                if any(c in members for c in cells):
                    return True
            elif any(c in cells for c in inside):
                return True
        return False


_ANCHOR = re.compile(
    r"_xlfn\.ANCHORARRAY\(\s*(?:(?P<sheet>'(?:[^']|'')*'|[A-Za-z0-9_.]+)!)?\$?(?P<col>[A-Za-z]{1,3})\$?(?P<row>[0-9]+)\s*\)",
    re.IGNORECASE,
)


def _spill_refs(formula: str, sheet: str, arrays: Mapping[str, Mapping[tuple[int, int], Range]]) -> str:
    """``_xlfn.ANCHORARRAY(C1)`` (``C1#`` in Excel) -> the area the array formula at C1 fills, as the
    file records it; ``#REF!`` when C1 holds no array formula (Excel's answer)."""

    def area(m: re.Match[str]) -> str:
        name = m.group("sheet")
        target = name.strip("'").replace("''", "'") if name else sheet
        try:
            anchor = Range.parse(f"{m.group('col')}{m.group('row')}")
        except GridSightError:
            return "#REF!"
        found = arrays.get(target.casefold(), {}).get((anchor.top, anchor.left))
        if found is None:
            return "#REF!"
        return f"{name}!{found.ref()}" if name else found.ref()

    return _ANCHOR.sub(area, formula)


def _static_targets(tree: Node, wb: Workbook, sheet: Sheet, at: tuple[int, int]) -> Node | None:
    """The formula with INDIRECT and OFFSET replaced by the ranges they point at, when their
    arguments are constants (``INDIRECT("B1:B9")``, ``OFFSET(A1,2,0,3,1)``), so that the formula cells
    there come first; None when there are none or they depend on other cells."""
    if not any(
        isinstance(n, Call) and n.name.removeprefix("_XLFN.") in ("INDIRECT", "OFFSET") for n in walk(tree)
    ):
        return None

    def constant(text: str) -> Any:
        node = parse_formula(text)
        sign = 1
        while isinstance(node, UnaryOp) and node.op in ("-", "+"):
            sign, node = (-sign if node.op == "-" else sign), node.operand
        if isinstance(node, Literal) and node.kind == "number":
            return sign * node.value
        if isinstance(node, Literal) and node.kind in ("text", "bool") and sign == 1:
            return node.value
        raise OffsetError("#VALUE!", "not a constant")

    try:
        resolved = resolve_offsets(tree, constant, indirect_resolver(wb, sheet, at), errors_as_values=False)
        return parse_formula(resolved) if resolved else None
    except (OffsetError, GridSightError):
        return None


def _as_range(text: str, sheet: str) -> Range:
    rng = Range.parse(text)
    return rng if rng.sheet is not None else rng.with_sheet(sheet)


def _key(rng: Range) -> tuple[int, int, int, int, str]:
    return rng.top, rng.left, rng.bottom, rng.right, (rng.sheet or "").casefold()


def _saved(sheet: Sheet, row: int, col: int) -> tuple[bool, Any]:
    """(has a saved result, the saved value as a number, text, bool or error code)."""
    cell = sheet.cell(row, col)
    if cell.kind == Kind.EMPTY:
        return False, None
    v = cell.value
    if cell.kind == Kind.DATETIME and not isinstance(v, int | float):
        v = datetime_to_serial(v, date1904=sheet.date1904)  # type: ignore[arg-type]  # the workbook's serial
    return True, v


def _grid(sheet: Sheet) -> Any:
    """The sheet's values as the engine reads them (a 1904-date workbook's dates as its own serials:
    its formulas run in the 1904 date system, see ``_date1904``)."""
    return engine_values(sheet)


def recalculate(
    wb: Workbook,
    *,
    sheets: Sequence[str] | None = None,
    arrays: ArrayAreas | None = None,
    budget_s: float = WORKBOOK_BUDGET_S,
    cell_budget_s: float = CELL_BUDGET_S,
    mac: bool = False,
    iteration: Iteration | None = None,
    links: LinkCache | None = None,
    hidden: Mapping[str, HiddenRows] | None = None,
) -> RecalcResult:
    """Recalculate ``wb`` (only the formulas of ``sheets`` and what they read, when given).

    ``arrays`` names the array-formula anchors and their areas (:func:`read_array_formulas`); other
    formulas get Excel's implicit intersection when they yield an array. ``mac``: Excel for Mac last
    calculated it (CHAR and CODE use the Macintosh character set, see ``_platform``). ``iteration``: the
    file's iterative-calculation setting (:func:`read_iteration`), which decides what Excel saved for
    circular references. ``links``: the values Excel kept of the workbooks it links to
    (:func:`read_external_links`), which references to them read. ``hidden``: each sheet's hidden
    rows (:func:`read_hidden_rows`), which SUBTOTAL and AGGREGATE leave out as Excel does."""
    with character_set(mac), hidden_rows(hidden):
        return _recalculate(wb, sheets, arrays, budget_s, cell_budget_s, iteration, links)


def _recalculate(
    wb: Workbook,
    sheets: Sequence[str] | None,
    arrays: ArrayAreas | None,
    budget_s: float,
    cell_budget_s: float,
    iteration: Iteration | None = None,
    links: LinkCache | None = None,
) -> RecalcResult:
    patch_engine()  # loading the engine (seconds, once a process) is not the workbook's time
    start = time.perf_counter()
    book = _Book(wb, arrays or {}, start + budget_s, links)
    wanted = {wb.sheet(s).name.casefold() for s in sheets} if sheets else None
    roots = [k for k in book.formulas if wanted is None or k[0] in wanted]
    plan = evaluation_order(roots, book.precedents, frozenset(book.formulas))
    grids: dict[str, Any] = {}
    saved: dict[str, Any] = {}
    for name, sheet in book.sheets.items():
        try:
            grids[name] = _grid(sheet)
        except GridSightError:
            continue  # a sheet too large to hold: its formulas read saved values
        saved[name] = grids[name].copy()
    run = _Run(book, grids, start, budget_s, cell_budget_s, saved, iteration)
    cycle_of = {k: cycle for cycle in plan.cycles for k in cycle}
    checks: list[CellCheck] = []
    done: set[CellKey] = set()
    for key in plan.order:
        if key in done:
            continue
        if key in cycle_of:
            checks.extend(run.cycle(cycle_of[key]))
            done.update(cycle_of[key])
        else:
            checks.append(run.check(key))
    if wanted is not None:  # the formulas they read on other sheets were evaluated, not reported
        checks = [c for c in checks if c.sheet.casefold() in wanted]
    return RecalcResult(wb.name, tuple(checks), time.perf_counter() - start, run.stopped)


#: A cycle of formula cells (a strongly connected component of the references as written) is evaluated
#: from no value of its own, again wherever a cell it reads changed, until no value changes: a cycle
#: only in the references as written (``INDEX(Table[Col], ROW()-1)`` down its own column, an ``IF``
#: whose branch leaves it) settles on the values Excel computes, whatever its cells started from. It
#: gets at most its size + 1 sweeps and this many evaluations per cell; one that does not settle, or
#: settles on values that depend on where it started, reads itself: a true circular reference.
MAX_CYCLE_PASSES = 10
MAX_CYCLE_CELLS = 5000
#: At most this many passes for a workbook with iterative calculation on (Excel's default is 100).
MAX_ITERATIONS = 100
#: A cycle's cells start blank (no value yet: not Excel's saved ones, which would make the comparison
#: circular), then from an error value, then from a number. A cell whose value depends on none of them
#: never read the cycle's own still-changing values. An error goes through most functions; a number
#: goes through IFERROR, which catches the error; a blank is what ISBLANK and COUNTA tell apart.
_BLANK = object()
_SEEDS: tuple[Any, ...] = (_BLANK, "#NULL!", 7919.0001)
#: Statuses of cells whose value was computed here; the others (external, unsupported, reading a
#: circular reference) keep Excel's saved value for the cells that read them.
_COMPUTED = frozenset(("agree", "differ", "unsaved"))


def _empty() -> Any:
    """The engine's blank cell."""
    import schedula as sh

    return sh.EMPTY


class _CycleGraph:
    """A cycle's cells (sorted by sheet, row, column) and the ranges they read as written that hold
    cells of the cycle, as numbered areas: ``reads[i]`` the areas cell i reads, ``holders[i]`` those
    holding it. Kept per area, not per pair of cells: a column of n ``INDEX`` over its own column is n
    areas read, not n x n edges. ``order``: the order cells are evaluated in, each after the cells of
    the cycle it reads through a range holding only that one (``Table[[#This Row],[Interest]]``), by
    sheet order where those references go round or say nothing (``INDEX(Table[Balance], ROW()-1)``
    reads one cell of a column of the cycle, which one is known only when it runs)."""

    def __init__(self, book: _Book, cells: tuple[CellKey, ...]) -> None:
        self.cells = cells
        pos = {k: i for i, k in enumerate(cells)}
        number: dict[Area, int] = {}
        members: list[list[int]] = []
        reads: list[list[int]] = []
        holders: list[list[int]] = [[] for _ in cells]
        after: list[list[int]] = [[] for _ in cells]  # single-cell reads: the cells read after i
        waiting = [0] * len(cells)
        for i, key in enumerate(cells):
            mine: list[int] = []
            for area in book.areas(key):
                a = number.get(area)
                if a is None:
                    inside = [pos[c] for c in book.area_cells(area) if c in pos]
                    if not inside:
                        continue
                    a = number[area] = len(members)
                    members.append(inside)
                    for j in inside:
                        holders[j].append(a)
                mine.append(a)
                if len(members[a]) == 1 and members[a][0] != i:
                    after[members[a][0]].append(i)
                    waiting[i] += 1
            reads.append(sorted(set(mine)))
        self.reads = tuple(tuple(r) for r in reads)
        self.holders = tuple(tuple(h) for h in holders)
        self.areas = len(members)
        self._after, self._waiting = after, waiting
        self.order = self._kahn(1)

    def backward(self) -> tuple[int, ...]:
        """The other order: the same single-cell reads, the last cell in sheet order first (a column
        where each row's ``INDEX`` reads the row below)."""
        return self._kahn(-1)

    def _kahn(self, sign: int) -> tuple[int, ...]:
        """Kahn's order over the single-cell reads, by sheet position (``sign`` 1: smallest first);
        where they go round, the first cell left in that order goes next."""
        n = len(self.cells)
        waiting = list(self._waiting)
        ready = [sign * i for i, w in enumerate(waiting) if w == 0]
        heapq.heapify(ready)
        placed = [False] * n
        order: list[int] = []
        by_position = range(n) if sign > 0 else range(n - 1, -1, -1)
        first = 0
        while len(order) < n:
            if ready:
                i = sign * heapq.heappop(ready)
                if placed[i]:
                    continue
            else:
                while placed[by_position[first]]:
                    first += 1
                i = by_position[first]
            placed[i] = True
            order.append(i)
            for j in self._after[i]:
                waiting[j] -= 1
                if waiting[j] == 0 and not placed[j]:
                    heapq.heappush(ready, sign * j)
        return tuple(order)


class _Run:
    """One recalculation's state: the values so far, which cells differ, the time spent."""

    def __init__(
        self,
        book: _Book,
        grids: dict[str, Any],
        start: float,
        budget_s: float,
        cell_budget_s: float,
        saved: dict[str, Any] | None = None,
        iteration: Iteration | None = None,
    ) -> None:
        self.book, self.grids, self.saved = book, grids, saved
        self.start, self.budget_s, self.cell_budget_s = start, budget_s, cell_budget_s
        self.iteration = iteration or Iteration()
        self.changed: set[CellKey] = set()
        #: cells on a circular reference Excel did not calculate, and the cells that read them
        self.circular: set[CellKey] = set()
        self.stopped: str | None = None

    def _settle(self, cells: tuple[CellKey, ...], passes: int, delta: float) -> list[CellCheck] | None:
        """Evaluate ``cells`` in order, over and over, until no value changes by more than ``delta``
        (none at all for 0); None when they do not settle within ``passes``."""
        previous: list[Any] | None = None
        for _ in range(passes):
            results = [self.check(k) for k in cells]
            if any(r.status in ("skipped", "volatile") for r in results):
                return None
            values = [r.ours for r in results]
            if previous is not None and all(
                _within(a, b, delta) for a, b in zip(previous, values, strict=True)
            ):
                return results
            previous = values
        return None

    def _seed(self, cells: Sequence[CellKey], seed: Any) -> None:
        for key in cells:
            sheet = self.book.sheets[key[0]]
            grid = self.grids.get(key[0])
            if grid is not None:
                r0, c0 = sheet.origin
                grid[key[1] - r0, key[2] - c0] = _empty() if seed is _BLANK else _engine_value(seed)

    def _keep_saved(self, key: CellKey) -> Any:
        """Put Excel's saved value back in ``key``'s cell, for the cells that read it; return it."""
        sheet = self.book.sheets[key[0]]
        has, excel = _saved(sheet, key[1], key[2])
        grid = self.grids.get(key[0])
        if grid is not None:
            r0, c0 = sheet.origin
            grid[key[1] - r0, key[2] - c0] = _engine_value(excel) if has else _empty()
        return excel

    def cycle(self, cells: tuple[CellKey, ...]) -> list[CellCheck]:
        """Evaluate a cycle of formula cells (each reads the next, as written).

        Without iterative calculation Excel does not calculate a circular reference: it warns and saves
        0 in its cells and in the cells that read them. So the cycle is evaluated from blank cells until
        no value changes (:meth:`_fixed_point`), then again from an error value and from a number in
        every cell: when it does not settle, or its values depend on where it started, the cycle truly
        reads itself and its cells are reported as circular (with what reads them), as is a cycle
        through an array formula (which evaluates every argument); otherwise (a cycle only in the
        references as written, such as ``INDEX`` down its own column, or an ``IF`` whose branch leaves
        the cycle) they are compared with Excel's values as usual.
        With iterative calculation on, a cycle that truly reads itself runs from Excel's saved values
        (where Excel's next calculation would start) up to the file's ``iterateCount`` passes (at most
        100) until no value changes by more than its ``iterateDelta``; a cell that does not settle, or
        settles elsewhere than Excel's value (which depends on the passes Excel made before it was
        saved), is reported as circular."""
        it = self.iteration
        if len(cells) > MAX_CYCLE_CELLS:
            return self._circular("circular reference", cells)
        arrays = self.book.arrays
        # an array formula evaluates every argument (IF over an array takes both branches)
        if not any((k[1], k[2]) in arrays.get(k[0], {}) for k in cells):
            results = self._as_written(cells)
            if results is not None:
                return results
            if self.stopped is not None:  # the budget ran out: skipped, not circular
                return [self.check(k) for k in cells]
        if it.enabled:
            for key in cells:
                self._keep_saved(key)
            results = self._settle(cells, min(it.count, MAX_ITERATIONS) + 1, it.delta)
            if results is None:
                return self._circular("iterative calculation that does not settle", cells)
            off = [k for k, r in zip(cells, results, strict=True) if r.status == "differ"]
            return self._replace(results, cells, off, "iterative calculation")
        return self._circular("circular reference", cells, mark=True)

    def _as_written(self, cells: tuple[CellKey, ...]) -> list[CellCheck] | None:
        """The cycle's checks when it is one only in the references as written: it reaches the same
        values from every start in ``_SEEDS``; None when it does not (it reads itself)."""
        graph = _CycleGraph(self.book, cells)
        order = graph.order
        fixed: list[Any] | None = None
        for seed in _SEEDS:
            values = self._fixed_point(graph, order, seed)
            if values is None and fixed is None and self.stopped is None:
                # a chain that reads against sheet order settles in few sweeps the other way round
                order = graph.backward()
                values = self._fixed_point(graph, order, seed)
            if values is None:
                return None
            if fixed is not None and not all(same(a, b) for a, b in zip(fixed, values, strict=True)):
                return None
            fixed = values
        return [self.check(k) for k in cells]  # at the fixed point: compared as usual

    def _fixed_point(self, graph: _CycleGraph, order: Sequence[int], seed: Any) -> list[Any] | None:
        """Every cell of the cycle set to ``seed``, then evaluated in ``order``, again each time
        a range it reads (as written) holds a cell whose value changed since, until none is left to
        evaluate: the values reached, by position in ``graph.cells``. None when more than size + 1
        sweeps or ``MAX_CYCLE_PASSES`` evaluations per cell are needed, or a cell cannot be evaluated
        within the cycle (volatile, or the time budget ran out)."""
        cells, n = graph.cells, len(graph.cells)
        self._seed(cells, seed)
        values: list[Any] = [seed] * n
        read_at: list[int] = [-1] * n  # when each cell was last evaluated (-1: not yet)
        changed_at = [-1] * graph.areas  # when each area last held a cell whose value changed
        clock = 0
        budget = n * MAX_CYCLE_PASSES
        for _ in range(n + 2):  # n + 1 sweeps that evaluate, one that finds nothing left
            evaluated = False
            for i in order:
                at = read_at[i]
                if at >= 0 and not any(changed_at[a] > at for a in graph.reads[i]):
                    continue
                budget -= 1
                if budget < 0:
                    return None
                evaluated = True
                read_at[i] = clock
                clock += 1
                r = self.check(cells[i], saved_inputs=False)
                if r.status in ("skipped", "volatile"):
                    return None
                value = r.ours if r.status in _COMPUTED else self._keep_saved(cells[i])
                if values[i] is _BLANK or not same(values[i], value):
                    values[i] = value
                    for a in graph.holders[i]:
                        changed_at[a] = clock
            if not evaluated:
                return values
        return None

    def _replace(
        self,
        results: list[CellCheck],
        cells: tuple[CellKey, ...],
        keys: Sequence[CellKey],
        kind: str,
        mark: bool = False,
    ) -> list[CellCheck]:
        """``results`` with the cells of ``keys`` reported as circular instead."""
        if not keys:
            return results
        circular = dict(zip(keys, self._circular(kind, keys, mark), strict=True))
        return [circular.get(k, r) for k, r in zip(cells, results, strict=True)]

    def _circular(self, kind: str, keys: Sequence[CellKey], mark: bool = False) -> list[CellCheck]:
        """Report ``keys`` as circular; what reads them reads Excel's values again.
        ``mark``: Excel did not calculate them, so the cells that read them are circular too."""
        out = []
        for key in keys:
            sheet = self.book.sheets[key[0]]
            _has, excel = _saved(sheet, key[1], key[2])
            grid = self.grids.get(key[0])
            if grid is not None:
                r0, c0 = sheet.origin
                grid[key[1] - r0, key[2] - c0] = _engine_value(excel) if _has else _engine_value(None)
            self.changed.discard(key)
            if mark:
                self.circular.add(key)
            out.append(
                CellCheck(
                    sheet.name, rc_to_a1(key[1], key[2]), self.book.formulas[key], "circular", kind, excel
                )
            )
        return out

    def check(self, key: CellKey, saved_inputs: bool = True) -> CellCheck:
        """Evaluate one formula cell from the values so far, store its value, compare with Excel's.
        ``saved_inputs``: a cell whose inputs differ from Excel's is evaluated from Excel's saved inputs
        too (``saved_inputs_agree``); not while a cycle is settling."""
        book = self.book
        sheet = book.sheets[key[0]]
        formula = book.formulas[key]
        at = (key[1], key[2])
        address = rc_to_a1(*at)
        has_saved, excel = _saved(sheet, *at)
        if self.stopped is None and time.perf_counter() - self.start > self.budget_s:
            self.stopped = f"the workbook's time budget of {self.budget_s:g} s ran out"
        if self.stopped is not None:
            return CellCheck(sheet.name, address, formula, "skipped", "time budget", excel)
        volatile = book.functions(key) & VOLATILE
        if volatile:
            kind = ", ".join(sorted(volatile))
            return CellCheck(sheet.name, address, formula, "volatile", kind, excel)
        if self.circular and book.reads_any(key, self.circular):
            self.circular.add(key)  # Excel did not calculate it either: it reads a circular reference
            return CellCheck(sheet.name, address, formula, "circular", "reads a circular reference", excel)
        tainted = saved_inputs and book.reads_any(key, self.changed)
        area = book.arrays.get(key[0], {}).get(at)
        text = book.texts[key]
        ev = _evaluate(text, book.wb, sheet, at, self.grids, self.cell_budget_s, area is None, book.forms)
        named = None if ev.ok else unknown_names_as_errors(text, ev.problems)
        if named is not None:  # a name the workbook does not define: Excel's #NAME?, as it computes it
            text = named
            ev = _evaluate(text, book.wb, sheet, at, self.grids, self.cell_budget_s, area is None, book.forms)
        if not ev.ok:
            reason = ev.problems[0] if ev.problems else "cannot be evaluated"
            kind = unsupported_kind(reason)
            outside = external_kind(
                kind, reason, formula, lambda n: book.wb.defined_name(n, sheet.name) is not None
            )
            if outside is not None and outside.startswith("user-defined") and same(excel, "#NAME?"):
                # no macro or add-in supplied it when Excel saved: Excel's own answer, as computed here
                self._seed((key,), "#NAME?")  # what the cells reading it read (a cycle may have seeded it)
                return CellCheck(sheet.name, address, formula, "agree", None, excel, "#NAME?")
            if outside is not None:  # no engine could recompute it from the file: reported, not counted
                return CellCheck(sheet.name, address, formula, "external", outside, excel, None, reason)
            return CellCheck(sheet.name, address, formula, "unsupported", kind, excel, None, reason)
        ours = _shown(ev, at, area, book.refs(key), text)
        _store(self.grids.get(key[0]), sheet, at, ev, area, ours, book)
        if not has_saved:
            return CellCheck(sheet.name, address, formula, "unsaved", None, None, ours)
        agree = same(excel, ours)
        if agree:
            self.changed.discard(key)
        else:
            self.changed.add(key)
        saved_agree = None
        if tainted:
            alone = _evaluate(
                text, book.wb, sheet, at, self.saved, self.cell_budget_s, area is None, book.forms
            )
            saved_agree = alone.ok and same(excel, _shown(alone, at, area, book.refs(key), text))
        if agree:
            return CellCheck(sheet.name, address, formula, "agree", None, excel, ours, None, saved_agree)
        kind = "propagated from inputs that differ" if saved_agree else difference_kind(excel, ours)
        why = ev.error_source if ev.error is not None else None
        return CellCheck(sheet.name, address, formula, "differ", kind, excel, ours, why, saved_agree)


_UNKNOWN_NAME = re.compile(
    r"^([A-Za-z_\\][A-Za-z0-9_.\\]*) is not a cell reference or known name \(#NAME\?\)$"
)
_QUOTED = re.compile(r'"(?:[^"]|"")*"')


def unknown_names_as_errors(formula: str, problems: Sequence[str]) -> str | None:
    """A file's formula with each name its workbook does not define written as ``#NAME?``, what Excel
    computes for it (``=IFERROR(Broken,0)`` is 0); None unless every problem is such a name. Only for
    recalculation: a formula GridSight writes with an unknown name is refused instead."""
    names = [m.group(1) for m in map(_UNKNOWN_NAME.match, problems) if m]
    if not names or len(names) != len(problems):
        return None
    strings = [(m.start(), m.end()) for m in _QUOTED.finditer(formula)]
    pattern = re.compile(
        r"(?<![\w.!'\]$])(?:" + "|".join(map(re.escape, names)) + r")(?![\w.(!])", re.IGNORECASE
    )
    out = pattern.sub(
        lambda m: m.group(0) if any(a <= m.start() < b for a, b in strings) else "#NAME?", formula
    )
    return out if out != formula else None


def _within(a: Any, b: Any, delta: float) -> bool:
    """``a`` and ``b`` are the same value, or numbers at most ``delta`` apart."""
    if same(a, b):
        return True
    if delta <= 0 or isinstance(a, bool) or isinstance(b, bool):
        return False
    return isinstance(a, int | float) and isinstance(b, int | float) and abs(a - b) <= delta


def _evaluate(
    formula: str,
    wb: Workbook,
    sheet: Sheet,
    at: tuple[int, int],
    grids: dict[str, Any] | None,
    cell_budget_s: float,
    intersect: bool,
    forms: dict[Any, bool] | None = None,
) -> Evaluation:
    """One cell's evaluation, from ``grids`` (None: from the saved values), within its time guard."""
    try:
        with (
            cell_guard(cell_budget_s),
            values_override(grids) if grids is not None else contextlib.nullcontext(),
        ):
            return evaluate_formula(formula, wb, sheet, at=at, intersect=intersect, forms=forms, links=True)
    except CellTimeout:
        return Evaluation(formula, False, problems=(f"the engine took more than {cell_budget_s:g} s",))
    except GridSightError as exc:
        return Evaluation(formula, False, problems=(str(exc),))
    except RecursionError:
        return Evaluation(formula, False, problems=("the engine failed on it (RecursionError)",))


def _shown(
    ev: Evaluation, at: tuple[int, int], area: Range | None, refs: Sequence[Range], formula: str = ""
) -> Any:
    """The value the formula's own cell shows: an array formula's top-left item; in a formula that
    is not one, the item of a range in the formula's row or column (Excel intersects references),
    and the top-left item of an array a function computed (MMULT, MINVERSE, TRANSPOSE...)."""
    if ev.error is not None:
        return ev.error
    value = ev.value
    if isinstance(value, list) and area is None and (len(value) > 1 or (value and len(value[0]) > 1)):
        value = value[0][0] if _computed(formula) else _intersect(value, at, refs)
    return cell_value(value)


def _computed(formula: str) -> bool:
    try:
        return computed_array(parse_formula(formula))
    except (GridSightError, RecursionError):
        return False


def _store(
    grid: Any,
    sheet: Sheet,
    at: tuple[int, int],
    ev: Evaluation,
    area: Range | None,
    shown: Any,
    book: _Book,
) -> None:
    """Write the computed value (and, for an array formula, the cells it fills) where later
    formulas read it."""
    if grid is None:
        return
    r0, c0 = sheet.origin
    h, w = grid.shape

    def put(r: int, c: int, v: Any) -> None:
        if 0 <= r - r0 < h and 0 <= c - c0 < w:
            grid[r - r0, c - c0] = _engine_value(v)

    put(at[0], at[1], shown)
    if area is None or ev.error is not None or not isinstance(ev.value, list):
        return
    name = sheet.name.casefold()
    for i, line in enumerate(ev.value):
        for j, v in enumerate(line if isinstance(line, list) else [line]):
            r, c = at[0] + i, at[1] + j
            if (i or j) and area.contains(r, c) and (name, r, c) not in book.formulas:
                put(r, c, cell_value(v))

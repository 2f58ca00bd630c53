"""Excel's reference operators that the engine cannot run: the space (intersection) and the comma
inside parentheses (union).

* ``A1:C3 B2:D4`` is the cells both ranges share, ``B2:C3``; no shared cell is ``#NULL!``. Ranges
  written in the text are intersected here, so the engine sees one plain range.
* ``(A1:A2,C1:C2)`` is a reference made of several areas. Functions whose arguments are all lists of
  values (SUM, COUNT, MAX, AVERAGE...) read ``SUM((A1:A2,C1:C2),E1)`` as ``SUM(A1:A2,C1:C2,E1)``;
  ``AREAS`` counts the areas, ``INDEX(union, r, c, n)`` with a constant ``n`` is ``INDEX`` of area ``n``,
  ``ROWS`` and ``COLUMNS`` of several areas are ``#REF!``.
  A union anywhere else is reported (:class:`UnionError`), never evaluated wrongly.

Pure tree rewrites (the engine's tokenizer reads both operators, but its evaluator treats the result
as one input it cannot be given).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gridsight.errors import FormulaSyntaxError, GridSightError
from gridsight.formula._translate import to_text
from gridsight.formula._tree import BinOp, Call, Literal, Node, Ref, parse_formula, walk
from gridsight.grid import Range

#: Functions whose every argument is a list of values: a union argument is its areas, one by one.
_LISTS = frozenset(
    (
        "SUM SUMSQ PRODUCT AVERAGE AVERAGEA COUNT COUNTA COUNTBLANK MAX MAXA MIN MINA MEDIAN MODE "
        "MODE.SNGL STDEV STDEV.S STDEV.P STDEVP STDEVA STDEVPA VAR VAR.S VAR.P VARP VARA VARPA AND OR "
        "XOR CONCAT GEOMEAN HARMEAN AVEDEV DEVSQ KURT SKEW GCD LCM"
    ).split()
)


#: Functions of a reference's size or place: of an empty intersection they are ``#NULL!``.
_SIZES = frozenset(("AREAS", "ROWS", "COLUMNS", "ROW", "COLUMN"))


class UnionError(FormulaSyntaxError):
    """A union reference where GridSight cannot run it."""


def _areas(node: Node) -> list[Node]:
    if isinstance(node, BinOp) and node.op == ",":
        return _areas(node.left) + _areas(node.right)
    return [node]


def _static(node: Node) -> tuple[str | None, Range] | str | None:
    """(sheet, range) of a written range or of an intersection of written ranges, ``"#NULL!"`` when
    an intersection is empty, None when it is anything else or spans sheets."""
    if isinstance(node, Ref) and node.rng is not None:
        return node.sheet, node.rng
    if not (isinstance(node, BinOp) and node.op == " "):
        return None
    left, right = _static(node.left), _static(node.right)
    if left == "#NULL!" or right == "#NULL!":
        return "#NULL!"
    if not isinstance(left, tuple) or not isinstance(right, tuple):
        return None
    (sheet, a), (other, b) = left, right
    if (sheet or "").casefold() != (other or sheet or "").casefold():
        return None
    top, bottom = max(a.top, b.top), min(a.bottom, b.bottom)
    first, last = max(a.left, b.left), min(a.right, b.right)
    if top > bottom or first > last:
        return "#NULL!"
    return sheet, Range(top, first, bottom, last)


def _intersection(node: BinOp) -> str | None:
    """The text of an intersection's cells (``#NULL!`` when none); None when it is not of written
    ranges on one sheet."""
    found = _static(node)
    if found is None or isinstance(found, str):
        return found
    sheet, rng = found
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{rng.ref()}" if sheet else rng.ref()


def _is_union(node: Node) -> bool:
    return isinstance(node, BinOp) and node.op == ","


def _has_union(node: Node) -> bool:
    return _is_union(node) or (
        isinstance(node, BinOp) and node.op == " " and (_has_union(node.left) or _has_union(node.right))
    )


def _spread(node: Node) -> list[tuple[str | None, Range]] | None:
    """The areas of a union, or of an intersection with a union (it distributes: ``(A,B) C`` is
    ``(A C, B C)``, empty parts dropped), as (sheet, range); None when a part is not written."""
    if _is_union(node):
        assert isinstance(node, BinOp)
        left, right = _spread(node.left), _spread(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, BinOp) and node.op == " " and _has_union(node):
        left, right = _spread(node.left), _spread(node.right)
        if left is None or right is None:
            return None
        out = []
        for sheet, a in left:
            for other, b in right:
                if (sheet or "").casefold() != (other or sheet or "").casefold():
                    return None
                hit = a.intersect(b)
                if hit is not None:
                    out.append((sheet, hit))
        return out
    found = _static(node)
    if isinstance(found, tuple):
        return [found]
    return [] if found == "#NULL!" else None


def _area_text(sheet: str | None, rng: Range) -> str:
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{rng.ref()}" if sheet else rng.ref()


def _name(node: Call) -> str:
    return node.name.removeprefix("_XLFN.").removeprefix("_XLWS.")


def reference_operators(formula: str) -> str | None:
    """The formula with written intersections replaced by their range and unions spread over the
    arguments that take them; None when it has neither. Raises :class:`UnionError` for a union that
    cannot be run."""
    if "," not in formula and " " not in formula and "AREAS" not in formula.upper():
        return None
    tree = parse_formula(formula)
    if not any(
        (isinstance(n, BinOp) and n.op in (" ", ",")) or (isinstance(n, Call) and _name(n) == "AREAS")
        for n in walk(tree)
    ):
        return None

    def swap(node: Node) -> str | None:
        if isinstance(node, BinOp) and node.op == " " and _has_union(node):
            raise UnionError(f"the intersection {node.text} is only supported in SUM, COUNT, MAX...")
        if isinstance(node, BinOp) and node.op == " ":
            done = _intersection(node)
            if done is None:
                raise UnionError(f"the intersection {node.text} is not of two written ranges")
            return done
        if isinstance(node, BinOp) and node.op == ",":
            raise UnionError(f"the union reference {node.text} is only supported in SUM, COUNT, MAX...")
        if not isinstance(node, Call):
            return None
        name = _name(node)
        if name in _SIZES and len(node.args) == 1 and isinstance(_static(node.args[0]), str):
            return "#NULL!"  # the size or place of an empty intersection
        if name == "AREAS" and len(node.args) == 1 and isinstance(_static(node.args[0]), tuple):
            return "1"  # one range (the engine sees only its values)
        unions = [_is_union(a) for a in node.args]
        spread = [_spread(a) if _has_union(a) and not _is_union(a) else None for a in node.args]
        if not any(unions) and all(x is None for x in spread):
            return None
        if name in _LISTS:
            args: list[Any] = []
            for a, parts in zip(node.args, spread, strict=True):
                if parts is not None:  # an intersection with a union: its areas
                    args.extend(_area_text(*p) for p in parts) if parts else args.append("#NULL!")
                else:
                    args.extend(to_text(x, swap) for x in _areas(a))
            return f"{node.name}(" + ",".join(args) + ")"
        count = len(spread[0]) if spread and spread[0] is not None else None
        if count is None and unions and unions[0]:
            count = len(_areas(node.args[0]))
        if name == "AREAS" and len(node.args) == 1 and count is not None:
            return str(count) if count else "#NULL!"
        if name in ("ROWS", "COLUMNS") and len(node.args) == 1 and count is not None:
            if count == 1 and spread[0]:
                return f"{node.name}({_area_text(*spread[0][0])})"
            return "#REF!" if count else "#NULL!"  # several areas have no one size
        if name == "INDEX" and unions[0] and not any(unions[1:]):
            areas = _areas(node.args[0])
            n = node.args[3] if len(node.args) > 3 else Literal("1", 1.0, "number")
            if isinstance(n, Literal) and n.kind == "number":
                k = int(n.value)
                if not 1 <= k <= len(areas):
                    return "#REF!"
                rest = [to_text(a, swap) for a in node.args[1:3]]
                return "INDEX(" + ",".join([to_text(areas[k - 1], swap), *rest]) + ")"
        raise UnionError(f"the union reference in {name} is only supported in SUM, COUNT, MAX...")

    return "=" + to_text(tree, swap)


_CHAIN = re.compile(r"(?<![\w.!:$])\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+){2,}(?![\w(!])")


def range_chains(formula: str) -> str | None:
    """``C14:E14:G13:I14`` (the range operator between ranges) -> the range spanning them all,
    ``C13:I14``, as Excel reads it; None when the formula has no such chain."""
    if formula.count(":") < 2:
        return None
    strings = [(m.start(), m.end()) for m in _STRING.finditer(formula)]

    def span(m: re.Match[str]) -> str:
        if any(a <= m.start() < b for a, b in strings):
            return m.group(0)
        cells = [Range.parse(part.replace("$", "")) for part in m.group(0).split(":")]
        top, left = min(c.top for c in cells), min(c.left for c in cells)
        bottom, right = max(c.bottom for c in cells), max(c.right for c in cells)
        return Range(top, left, bottom, right).ref()

    out = _CHAIN.sub(span, formula)
    return out if out != formula else None


#: A range with a deleted end: ``#REF!:B4``, ``B4:#REF!``, ``Sheet1!#REF!:#REF!``.
_REF_RANGE = re.compile(
    r"(?:(?:'(?:[^']|'')*'|[A-Za-z0-9_.]+)!)?(?:#REF!:(?:\$?[A-Za-z]{1,3}\$?[0-9]+|#REF!)|\$?[A-Za-z]{1,3}\$?[0-9]+:#REF!)",
    re.IGNORECASE,
)


def ref_error_ranges(formula: str) -> str | None:
    """A range with a deleted end (``SUM(#REF!:B4)``, what Excel saves after the rows or the sheet
    it started on were deleted) -> ``#REF!``, the value Excel gives it; None when there is none."""
    if "#REF!:" not in formula.upper() and ":#REF!" not in formula.upper():
        return None
    strings = [(m.start(), m.end()) for m in _STRING.finditer(formula)]

    def error(m: re.Match[str]) -> str:
        return m.group(0) if any(a <= m.start() < b for a, b in strings) else "#REF!"

    out = _REF_RANGE.sub(error, formula)
    return out if out != formula else None


#: Functions that call a function given by name, and how many values they pass it (None: MAP passes
#: one per array before it).
_ETA_ARITY: dict[str, int | None] = {
    "BYROW": 1,
    "BYCOL": 1,
    "MAP": None,
    "REDUCE": 2,
    "SCAN": 2,
    "MAKEARRAY": 2,
}
_ETA = re.compile(r"_xleta\.([A-Za-z][A-Za-z0-9_.]*)", re.IGNORECASE)
_STRING = re.compile(r'"(?:[^"]|"")*"')


def eta_lambdas(formula: str) -> str:
    """A function passed by name (Excel 365's ``BYROW(A1:C3,SUM)``, saved as ``_xleta.SUM``) as the
    LAMBDA it stands for: ``BYROW(A1:C3,LAMBDA(eta_a,SUM(eta_a)))``; REDUCE and SCAN pass two values,
    MAP one per array. Left as it is inside other functions (GROUPBY, PIVOTBY), which are reported."""
    strings = [(m.start(), m.end()) for m in _STRING.finditer(formula)]

    def in_string(i: int) -> bool:
        return any(a <= i < b for a, b in strings)

    def caller(at: int) -> tuple[str, int] | None:
        depth, commas, i = 0, 0, at - 1
        while i >= 0:
            ch = formula[i]
            if not in_string(i):
                if ch == ")":
                    depth += 1
                elif ch == "(" and depth:
                    depth -= 1
                elif ch == "(":
                    name = re.search(r"([A-Za-z_][A-Za-z0-9_.]*)$", formula[:i])
                    return (name.group(1).upper().split(".")[-1], commas) if name else None
                elif ch == "," and not depth:
                    commas += 1
            i -= 1
        return None

    def swap(m: re.Match[str]) -> str:
        if in_string(m.start()):
            return m.group(0)
        found = caller(m.start())
        if found is None or found[0] not in _ETA_ARITY:
            return m.group(0)
        arity = _ETA_ARITY[found[0]] or found[1]
        names = ",".join(f"_xlpm.eta_{chr(96 + k)}" for k in range(1, arity + 1))  # not cell names
        return f"_xlfn.LAMBDA({names},{m.group(1)}({names}))"

    return _ETA.sub(swap, formula) if "_xleta." in formula.lower() else formula


_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_\\][\w.]*)"
_ENDPOINT = rf"(?:{_SHEET}!)?(?:\$?[A-Za-z]{{1,3}}\$?\d+(?![\w.])|[A-Za-z_\\][\w.]*)"
#: ``a:b`` where a side names its sheet or is a defined name: ``Imps!M4:'Imps'!M76``,
#: ``Deals!$C$2:EndofDPoint``.
_ENDPOINTS = re.compile(rf"(?<![\w.!:$'\]#])({_ENDPOINT}):({_ENDPOINT})(?![\w.(!\[:])")


def _endpoint(text: str, name_ref: Callable[[str, str | None], str | None]) -> tuple[Range, bool] | None:
    """The range one side of ``a:b`` stands for (its sheet in ``Range.sheet``), and whether it was a
    defined name; None when it is neither a reference nor a name of one."""
    sheet, _, ref = text.rpartition("!")
    bare = ref.replace("$", "")
    if re.fullmatch(r"[A-Za-z]{1,3}\d+", bare):
        try:
            rng = Range.parse(text.replace("$", ""))
        except GridSightError:
            return None
        return rng, False
    found = name_ref(ref, sheet.strip("'").replace("''", "'") or None)
    if found is None:
        return None
    try:
        return Range.parse(found.replace("$", "")), True
    except GridSightError:
        return None


def range_endpoints(formula: str, name_ref: Callable[[str, str | None], str | None]) -> str | None:
    """The range operator where a side names its sheet again or is a defined name of a reference,
    as Excel reads it: ``Imps!M4:'Imps'!M76`` is ``Imps!M4:M76``, ``Deals!$C$2:EndofDPoint`` (a name
    of ``Deals!$C$90``) is ``Deals!C2:C90``, the range spanning both sides. ``name_ref(name, sheet)``
    is the reference text a name stands for, or None. Sides on two different sheets are left as they
    are (the parser reports them). None when nothing changes."""
    if ":" not in formula:
        return None
    strings = [(m.start(), m.end()) for m in _STRING.finditer(formula)]

    def span(m: re.Match[str]) -> str:
        if any(a <= m.start() < b for a, b in strings):
            return m.group(0)
        left, right = _endpoint(m.group(1), name_ref), _endpoint(m.group(2), name_ref)
        if left is None or right is None:
            return m.group(0)
        (a, named_a), (b, named_b) = left, right
        if not (named_a or named_b or b.sheet is not None):
            return m.group(0)  # a plain range
        sheets = {s.casefold(): s for s in (a.sheet, b.sheet) if s is not None}
        if len(sheets) > 1:
            return m.group(0)
        whole = Range(min(a.top, b.top), min(a.left, b.left), max(a.bottom, b.bottom), max(a.right, b.right))
        sheet = next(iter(sheets.values()), None)
        return _area_text(sheet, whole)

    out = _ENDPOINTS.sub(span, formula)
    return out if out != formula else None

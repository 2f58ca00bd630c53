"""Excel's reference operators that the engine cannot run: the space (intersection) and the comma
inside parentheses (union).

* ``A1:C3 B2:D4`` is the cells both ranges share, ``B2:C3``; no shared cell is ``#NULL!``. Ranges
  written in the text are intersected here, so the engine sees one plain range.
* ``(A1:A2,C1:C2)`` is a reference made of several areas. Functions whose arguments are all lists of
  values (SUM, COUNT, MAX, AVERAGE...) read ``SUM((A1:A2,C1:C2),E1)`` as ``SUM(A1:A2,C1:C2,E1)``;
  ``AREAS`` counts the areas, ``INDEX(union, r, c, n)`` with a constant ``n`` is ``INDEX`` of area ``n``.
  A union anywhere else is reported (:class:`UnionError`), never evaluated wrongly.

Pure tree rewrites (the engine's tokenizer reads both operators, but its evaluator treats the result
as one input it cannot be given).
"""

from __future__ import annotations

from gridsight.errors import FormulaSyntaxError
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


class UnionError(FormulaSyntaxError):
    """A union reference where GridSight cannot run it."""


def _areas(node: Node) -> list[Node]:
    if isinstance(node, BinOp) and node.op == ",":
        return _areas(node.left) + _areas(node.right)
    return [node]


def _intersection(left: Node, right: Node) -> str | None:
    """The text of two written ranges' shared cells (``#NULL!`` when none); None when either side is
    not a plain range or they lie on different sheets."""
    if not (isinstance(left, Ref) and isinstance(right, Ref) and left.rng is not None and right.rng is not None):
        return None
    a, b = left.rng, right.rng
    if (left.sheet or "").casefold() != (right.sheet or left.sheet or "").casefold():
        return None
    top, bottom = max(a.top, b.top), min(a.bottom, b.bottom)
    first, last = max(a.left, b.left), min(a.right, b.right)
    if top > bottom or first > last:
        return "#NULL!"
    ref = Range(top, first, bottom, last).ref()
    sheet = left.sheet
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{ref}" if sheet else ref


def _name(node: Call) -> str:
    return node.name.removeprefix("_XLFN.").removeprefix("_XLWS.")


def reference_operators(formula: str) -> str | None:
    """The formula with written intersections replaced by their range and unions spread over the
    arguments that take them; None when it has neither. Raises :class:`UnionError` for a union that
    cannot be run."""
    if "," not in formula and " " not in formula:
        return None
    tree = parse_formula(formula)
    if not any(isinstance(n, BinOp) and n.op in (" ", ",") for n in walk(tree)):
        return None

    def swap(node: Node) -> str | None:
        if isinstance(node, BinOp) and node.op == " ":
            left, right = to_text(node.left, swap), to_text(node.right, swap)
            done = _intersection(parse_formula(left), parse_formula(right))
            if done is None:
                raise UnionError(f"the intersection {node.text} is not of two written ranges")
            return done
        if isinstance(node, BinOp) and node.op == ",":
            raise UnionError(f"the union reference {node.text} is only supported in SUM, COUNT, MAX...")
        if not isinstance(node, Call):
            return None
        name = _name(node)
        unions = [isinstance(a, BinOp) and a.op == "," for a in node.args]
        if not any(unions):
            return None
        if name in _LISTS:
            args = [to_text(x, swap) for a in node.args for x in _areas(a)]
            return f"{node.name}(" + ",".join(args) + ")"
        if name == "AREAS" and len(node.args) == 1:
            return str(len(_areas(node.args[0])))
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

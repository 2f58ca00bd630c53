"""Constant arguments of INDIRECT and OFFSET, computed without the engine.

``INDIRECT("A"&ROW()-1)`` down a column becomes ``INDIRECT(("A"&(5-1)))``, ``(A"&(6-1))``... once the
formula's own row is written in (``_translate.own_cell``): a different constant in every cell, which
the engine would compile anew each time (milliseconds a cell). Whole-number arithmetic and joins of
text are computed here instead, exactly as Excel does them (a whole number joins as its digits);
anything else (a fraction, a division, text in arithmetic, a function) is left to the engine.
"""

from __future__ import annotations

from typing import Any

from gridsight.formula._tree import BinOp, Literal, Node, UnaryOp

#: Whole numbers up to this size join as their digits in Excel (15 significant digits).
_EXACT = 10**15


class NotConstant(Exception):
    """The expression is not whole-number arithmetic and joins of text."""


def fold(node: Node) -> int | str:
    """The value of ``node`` when it is whole-number arithmetic (+ - *) and joins (&) of literals;
    raises NotConstant otherwise."""
    if isinstance(node, Literal):
        if node.kind == "text":
            return str(node.value)
        if node.kind == "number" and float(node.value).is_integer() and abs(node.value) < _EXACT:
            return int(node.value)
        raise NotConstant
    if isinstance(node, UnaryOp) and node.op in ("-", "+"):
        v = fold(node.operand)
        if isinstance(v, int):
            return -v if node.op == "-" else v
        raise NotConstant
    if isinstance(node, BinOp) and node.op in ("+", "-", "*", "&"):
        a, b = fold(node.left), fold(node.right)
        if node.op == "&":
            return f"{a}{b}"
        if isinstance(a, int) and isinstance(b, int):
            out = a + b if node.op == "+" else a - b if node.op == "-" else a * b
            if abs(out) < _EXACT:
                return out
    raise NotConstant


def folded(node: Node) -> Any:
    """``fold(node)``, or None when it is not such a constant."""
    try:
        return fold(node)
    except NotConstant:
        return None

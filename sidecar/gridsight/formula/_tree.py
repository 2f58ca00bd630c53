"""Formula text -> a small syntax tree, built over the `formulas` package's tokenizer.

Why our own tree: policy checks (what a HYPERLINK points at), explanations ("Sums Sales where ...")
and candidate generation all need to walk the structure, and the engine's compiled graph is not
meant for that. The tokenizer stays the engine's, so what we walk is what it computes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gridsight.errors import FormulaSyntaxError
from gridsight.formula._shape import Shape, fill_slots, number_slot, shape_of, slot_of
from gridsight.grid import Range

# Excel precedence, tightest last: comparisons < & < + - < * / < ^ < % < unary -
_BINARY = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3, "*": 4, "/": 4, "^": 5}
# an external workbook: by file name, drive or URL as typed, or by index (``[1]Sheet1!A1``) as saved
_EXTERNAL = re.compile(
    r"\[[^\]]*\.(xl[a-z]*|csv|ods)\]|'?[a-z]:\\|https?://[^\"]*!|(?<![\w\]])'?\[\d+\][^!\"(),]*!",
    re.IGNORECASE,
)
_DDE = re.compile(r"(?:^|[=+\-*/&,(])\s*'?[A-Za-z0-9_.]+\|'?[^|]*'?!", re.IGNORECASE)


@dataclass(frozen=True)
class Node:
    """Base class; ``text`` is the engine's canonical form of the sub-expression."""

    text: str


@dataclass(frozen=True)
class Literal(Node):
    value: Any  # float, str, bool, or an error string like '#N/A'
    kind: str  # 'number' | 'text' | 'bool' | 'error'


@dataclass(frozen=True)
class Ref(Node):
    """A cell or range reference; ``rng`` is None for a defined name (e.g. `TaxRate`)."""

    rng: Range | None
    sheet: str | None
    name: str | None = None


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class UnaryOp(Node):
    op: str  # '-', '+', '%'
    operand: Node


@dataclass(frozen=True)
class Missing(Node):
    """An omitted argument, as in SORT(A1:A9,,-1)."""


def walk(node: Node) -> list[Node]:
    """Every node of the tree, parents before children."""
    out = [node]
    if isinstance(node, Call):
        for a in node.args:
            out.extend(walk(a))
    elif isinstance(node, BinOp):
        out.extend(walk(node.left))
        out.extend(walk(node.right))
    elif isinstance(node, UnaryOp):
        out.extend(walk(node.operand))
    return out


def _tokens(formula: str) -> list[Any]:
    import formulas

    from gridsight.formula._engine import patch_engine

    patch_engine()  # the tokenizer's own patches (``--``) apply to what we walk too
    try:
        tokens, _builder = formulas.Parser().ast(formula)
    except Exception as exc:  # the tokenizer raises FormulaError, ParenthesesError, TokenError...
        msg = (
            str(
                exc.args[1]
                if len(exc.args) > 1 and isinstance(exc.args[0], str) and "%s" in exc.args[0]
                else exc
            )
            .strip()
            .splitlines()[0]
        )
        raise FormulaSyntaxError(f"cannot parse {formula!r}: {type(exc).__name__}: {msg}"[:300]) from None
    return list(tokens)


class _Parser:
    def __init__(self, tokens: list[Any]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> Any:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> Any:
        tok = self.peek()
        self.i += 1
        return tok

    def expression(self, min_prec: int = 0) -> Node:
        left = self.unary()
        while True:
            tok = self.peek()
            if tok is not None and type(tok).__name__ == "Intersect":  # A1:C3 B2:D4, Excel's space operator
                self.take()
                right = self.unary()
                left = BinOp(f"({left.text} {right.text})", " ", left, right)
                continue
            if tok is None or type(tok).__name__ != "OperatorToken":
                return left
            op = tok.name
            if op == "%":
                self.take()
                left = UnaryOp(f"{left.text}%", "%", left)
                continue
            prec = _BINARY.get(op)
            if prec is None or prec < min_prec:
                if prec is None and op.strip() == "":  # range intersection ' '
                    self.take()
                    right = self.unary()
                    left = BinOp(f"({left.text} {right.text})", " ", left, right)
                    continue
                return left
            self.take()
            right = self.expression(prec + 1)
            left = BinOp(tok.attr.get("expr", f"({left.text} {op} {right.text})"), op, left, right)

    def unary(self) -> Node:
        tok = self.peek()
        if tok is not None and type(tok).__name__ == "OperatorToken" and tok.name in ("u-", "u+", "u--"):
            self.take()
            operand = self.unary()
            return UnaryOp(tok.attr.get("expr", f"-{operand.text}"), tok.name[1:], operand)
        return self.primary()

    def primary(self) -> Node:
        tok = self.take()
        if tok is None:
            raise FormulaSyntaxError("the formula ends too early")
        kind = type(tok).__name__
        expr = tok.attr.get("expr", tok.name)
        if kind in ("Function", "Lambda"):
            return self.call(tok, expr)
        if kind == "Range":
            return _ref(tok, expr)
        if kind == "Number":
            if tok.name in ("TRUE", "FALSE"):
                return Literal(expr, tok.name == "TRUE", "bool")
            return Literal(expr, float(tok.name), "number")
        if kind == "String":
            return Literal(expr, tok.name, "text")
        if kind == "Error":
            return Literal(expr, tok.name, "error")
        if kind == "Parenthesis" and tok.name == "(":
            inner = self.expression()
            close = self.take()
            while close is not None and type(close).__name__ == "Separator" and close.name == ",":
                right = self.expression()  # (A1:A2,C1:C2): Excel's union operator
                inner = BinOp(f"({inner.text},{right.text})", ",", inner, right)
                close = self.take()
            if close is None or close.name != ")":
                raise FormulaSyntaxError("unbalanced parentheses")
            return inner
        if kind == "Empty":
            return Missing("")
        raise FormulaSyntaxError(f"unexpected {tok.name!r}")

    def call(self, tok: Any, expr: str) -> Node:
        opened = self.take()
        if opened is None or opened.name != "(":
            raise FormulaSyntaxError(f"{tok.name} must be followed by '('")
        args: list[Node] = []
        nxt = self.peek()
        if nxt is not None and type(nxt).__name__ == "Parenthesis" and nxt.name == ")":
            self.take()
            return Call(expr, tok.name.upper(), ())
        while True:
            nxt = self.peek()
            if nxt is not None and type(nxt).__name__ == "Separator":
                args.append(Missing(""))
            else:
                args.append(self.expression())
            nxt = self.peek()
            if tok.name == "ARRAY" and nxt is not None and nxt.name == "ARRAY":
                continue  # {1;2}: the tokenizer gives rows as ARRAY(ARRAY(1) ARRAY(2)), no separator
            sep = self.take()
            if sep is None:
                raise FormulaSyntaxError(f"{tok.name}( is not closed")
            if type(sep).__name__ == "Parenthesis" and sep.name == ")":
                return Call(expr, tok.name.upper(), tuple(args))
            if type(sep).__name__ != "Separator":
                raise FormulaSyntaxError(f"unexpected {sep.name!r} in the arguments of {tok.name}")


_INDIRECT_TEXT = re.compile(r'^\s*(?:_xlfn\.)?INDIRECT\(\s*"((?:[^"]|"")*)"\s*\)\s*$', re.IGNORECASE)


def _ref(tok: Any, expr: str) -> Node:
    attr = tok.attr
    indirect = _INDIRECT_TEXT.match(attr.get("indirect") or "")
    if indirect:  # the tokenizer reads INDIRECT("B2") as the range; keep the call, resolved later
        text = indirect.group(1).replace('""', '"')
        return Call(attr["indirect"], "INDIRECT", (Literal(f'"{indirect.group(1)}"', text, "text"),))
    sheet = attr.get("sheet") or None
    if "r1" not in attr and "c1" not in attr:
        return Ref(expr, None, sheet, name=attr.get("ref") or tok.name)
    ref = attr.get("ref") or tok.name
    try:
        rng = Range.parse(ref)
    except Exception:
        return Ref(expr, None, sheet, name=ref)
    return Ref(expr, rng.with_sheet(sheet), sheet)


@lru_cache(maxsize=2048)
def parse_formula(formula: str) -> Node:
    """Formula text (with or without '=') -> tree. Raises FormulaSyntaxError with the reason.

    A formula of a shape parsed before (the same text but for its cell references, see ``_shape``)
    is built from that shape's tree instead of being tokenized again."""
    if not isinstance(formula, str) or not formula.strip():
        raise FormulaSyntaxError("empty formula")
    text = formula.strip()
    if not text.startswith("="):
        text = "=" + text
    if len(text) > 8192:
        raise FormulaSyntaxError("formula longer than Excel's 8,192 characters")
    shape = shape_of(text)
    if shape is None:
        return _parse(text)
    try:
        template = _TEMPLATES[shape.key]
    except KeyError:
        try:
            template = _parse(shape.template)
        except FormulaSyntaxError:
            template = None  # the error is the formula's own: told with its own text below
        if len(_TEMPLATES) >= MAX_TEMPLATES:
            _TEMPLATES.clear()
        _TEMPLATES[shape.key] = template
    if template is None:
        return _parse(text)
    return _filled(template, shape)


#: Shapes parsed so far -> their template tree (None: the template does not parse).
_TEMPLATES: dict[str, Node | None] = {}
MAX_TEMPLATES = 4096


def _parse(text: str) -> Node:
    p = _Parser(_tokens(text))
    tree = p.expression()
    if p.peek() is not None:
        raise FormulaSyntaxError(f"unexpected {p.peek().name!r} after the end of the formula")
    return tree


def _filled(node: Node, shape: Shape) -> Node:
    """A template tree with its slots' references and numbers in place of the placeholders."""
    if isinstance(node, Ref):
        slot = slot_of(node.rng) if node.rng is not None else None
        if slot is None:
            return node
        rng = shape.refs[slot].with_sheet(node.sheet)
        return Ref(fill_slots(node.text, shape), rng, node.sheet, node.name)
    if isinstance(node, Literal):
        slot = number_slot(node.value, node.text) if node.kind == "number" else None
        if slot is None:
            return node
        digits = shape.numbers[slot]
        return Literal(digits, float(digits), "number")
    if isinstance(node, Call):
        return Call(fill_slots(node.text, shape), node.name, tuple(_filled(a, shape) for a in node.args))
    if isinstance(node, BinOp):
        left, right = _filled(node.left, shape), _filled(node.right, shape)
        return BinOp(fill_slots(node.text, shape), node.op, left, right)
    if isinstance(node, UnaryOp):
        return UnaryOp(fill_slots(node.text, shape), node.op, _filled(node.operand, shape))
    return node


def external_link(formula: str) -> str | None:
    """The external-workbook or DDE reference in a formula's text, if any (checked before parsing,
    because the tokenizer rejects some of these forms outright)."""
    stripped = re.sub(r'"(?:[^"]|"")*"', '""', formula)
    m = _EXTERNAL.search(stripped) or _DDE.search(stripped)
    return m.group(0).strip("=+-*/&,( ") if m else None

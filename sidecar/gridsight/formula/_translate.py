"""Rewrite what the `formulas` engine cannot run into what it can, before evaluation.

Two forms people use that the engine lacks:

* ``LAMBDA(x, y, body)(1, 2)`` -- a lambda applied directly. It is inlined: each parameter in the
  body is replaced by its argument in parentheses, giving ``(body with 1 and 2)``.
* ``OFFSET(ref, rows, cols, [height], [width])`` -- returns a *reference*, which the engine cannot
  produce. Its arguments are evaluated first; the call is replaced by the static range it points at
  (``OFFSET(B4,1,0,3,1)`` -> ``B5:B7``), so everything around it (SUM, INDEX...) computes normally.
  A result outside the sheet is Excel's ``#REF!``.

The rewrite is only for computing a value: the formula the user sees and writes stays theirs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gridsight.errors import FormulaSyntaxError
from gridsight.formula._fold import folded
from gridsight.formula._reftext import from_a1
from gridsight.formula._tree import BinOp, Call, Literal, Missing, Node, Ref, UnaryOp, walk
from gridsight.grid import Range
from gridsight.grid._address import MAX_COLS, MAX_ROWS

_LAMBDA = re.compile(r"(?<![A-Za-z0-9_.])(?:_xlfn\.)?LAMBDA\(", re.IGNORECASE)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


class OffsetError(Exception):
    """OFFSET points outside the sheet or gets arguments that are not numbers: ``#REF!`` / ``#VALUE!``."""

    def __init__(self, error: str, reason: str) -> None:
        super().__init__(reason)
        self.error = error


def _closing(text: str, open_at: int) -> int:
    """Index of the ')' matching the '(' at ``open_at`` (strings and nesting respected), or -1."""
    depth, i, n = 0, open_at, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = text.find('"', i + 1)
            while i != -1 and i + 1 < n and text[i + 1] == '"':
                i = text.find('"', i + 2)
            if i == -1:
                return -1
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _split_args(text: str, opening: str = "({", closing: str = ")}", structured: bool = False) -> list[str]:
    """Top-level comma-separated pieces of an argument list (no outer parentheses). ``structured``:
    the items of a structured reference's brackets (``opening="["``), where ``'`` escapes the next
    character and a comma inside a column name's brackets is part of it (``[Price, net]``)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if structured and ch == "'":
            i += 1
        elif ch == '"' and not structured:
            j = text.find('"', i + 1)
            while j != -1 and j + 1 < len(text) and text[j + 1] == '"':
                j = text.find('"', j + 2)
            i = len(text) if j == -1 else j
        elif ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _substitute(body: str, names: dict[str, str]) -> str:
    """Replace whole-word parameter names outside string literals."""
    out, pieces = [], re.split(r'("(?:[^"]|"")*")', body)
    for k, piece in enumerate(pieces):
        if k % 2:  # a string literal
            out.append(piece)
            continue
        for name, value in names.items():
            piece = re.sub(
                rf"(?<![A-Za-z0-9_.$!]){re.escape(name)}(?![A-Za-z0-9_.(!:])", value, piece, flags=re.I
            )
        out.append(piece)
    return "".join(out)


def inline_lambdas(formula: str) -> str:
    """``=LAMBDA(x,x*2)(5)`` -> ``=(5)*2`` wrapped as ``=((5)*2)``; other text is left alone."""
    text = formula
    for _ in range(20):  # nested applications, innermost last; bounded
        m = next((m for m in _LAMBDA.finditer(text) if _applied(text, m.end() - 1)), None)
        if m is None:
            return text
        close = _closing(text, m.end() - 1)
        call_close = _closing(text, close + 1)
        pieces = _split_args(text[m.end() : close])
        args = _split_args(text[close + 2 : call_close]) if call_close > close + 2 else []
        params, body = pieces[:-1], pieces[-1]
        if not all(_NAME.match(p) for p in params):
            raise FormulaSyntaxError("LAMBDA needs parameter names before its body")
        if len(args) != len(params):
            raise FormulaSyntaxError(f"LAMBDA takes {len(params)} argument(s); it was given {len(args)}")
        inlined = "(" + _substitute(body, {p: f"({a})" for p, a in zip(params, args, strict=True)}) + ")"
        text = text[: m.start()] + inlined + text[call_close + 1 :]
    return text


_LET = re.compile(r"(?<![A-Za-z0-9_.])(?:_xlfn\.)?LET\(", re.IGNORECASE)
#: The longest text :func:`inline_lets` writes (a chain that uses each name many times grows fast).
_LET_LIMIT = 20_000


def _substitute_once(body: str, names: dict[str, str]) -> str:
    """Whole-word names outside string literals replaced in one pass (a value is not searched again)."""
    if not names:
        return body
    folded = {k.casefold(): v for k, v in names.items()}
    pattern = re.compile(
        r"(?<![A-Za-z0-9_.$!])(" + "|".join(re.escape(k) for k in names) + r")(?![A-Za-z0-9_.(!:])", re.I
    )
    pieces = re.split(r'("(?:[^"]|"")*")', body)
    return "".join(
        piece if k % 2 else pattern.sub(lambda m: folded[m.group(1).casefold()], piece)
        for k, piece in enumerate(pieces)
    )


def inline_lets(formula: str) -> str | None:
    """LETs whose names use the names before them (``LET(x,1,y,x-1,y)``, which the engine fails on)
    written out: each name replaced by its value in parentheses, ``((1)-1)``. A LET whose values use no
    name of its own is left to the engine. None when nothing changed (or the text would grow past
    :data:`_LET_LIMIT`)."""
    text, changed = formula, False
    start = 0
    for _ in range(50):  # bounded
        m = next((m for m in _LET.finditer(text, start)), None)
        if m is None:
            break
        close = _closing(text, m.end() - 1)
        if close == -1:
            break
        pieces = _split_args(text[m.end() : close])
        if len(pieces) < 3 or len(pieces) % 2 == 0 or not all(_NAME.match(p.strip()) for p in pieces[:-1:2]):
            start = m.end()
            continue
        names = [p.strip() for p in pieces[:-1:2]]
        values = pieces[1:-1:2]
        chained = any(
            _substitute_once(v, {n: "\0" for n in names[:i]}) != v for i, v in enumerate(values) if i
        )
        if not chained:
            start = m.end()
            continue
        bound: dict[str, str] = {}
        for n, v in zip(names, values, strict=True):
            bound[n] = "(" + _substitute_once(v, bound) + ")"
        body = "(" + _substitute_once(pieces[-1], bound) + ")"
        text = text[: m.start()] + body + text[close + 1 :]
        changed = True
        if len(text) > _LET_LIMIT:
            return None
    return text if changed else None


#: The function that stands for ``a:b`` when a side is a function giving a reference (resolved with
#: OFFSET and INDIRECT before the engine runs, :func:`resolve_offsets`).
SPAN = "GRIDSIGHT.SPAN"
_REFERENCE_CALLS = ("OFFSET", "INDIRECT", "INDEX", "CHOOSE")
_REF_TOKEN = re.compile(
    r"(?:'(?:[^']|'')+'|[^\W\d][\w.]*)!\$?[A-Za-z]{1,3}\$?\d+|\$?[A-Za-z]{1,3}\$?\d+|[^\W\d][\w.]*"
)


def _call_before(text: str, end: int) -> int | None:
    """Start of a reference function's call ending with the ')' at ``end - 1``, else None."""
    depth, i = 0, end - 1
    while i >= 0:
        ch = text[i]
        if ch == '"':
            i = text.rfind('"', 0, i)
            if i == -1:
                return None
        elif ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                m = re.search(r"(?:_xlfn\.)?([A-Za-z]+)$", text[:i])
                if m and m.group(1).upper() in _REFERENCE_CALLS:
                    return m.start()
                return None
        i -= 1
    return None


#: An error value as a side of ``:`` (``OFFSET(#REF!,-1,0):#REF!``, what Excel saves once the
#: range's end was deleted).
_ERROR_SIDE = re.compile(r"#(?:REF!|N/A|VALUE!|NULL!|DIV/0!|NUM!|NAME\?)", re.IGNORECASE)


def _operand_before(text: str, colon: int) -> int | None:
    if colon > 0 and text[colon - 1] == ")":
        return _call_before(text, colon)
    m = re.search(r"#(?:REF!|N/A|VALUE!|NULL!|DIV/0!|NUM!|NAME\?)$", text[:colon], re.IGNORECASE)
    if m:
        return m.start()
    if colon > 0 and text[colon - 1] == "]":  # a structured reference: T[Qty]:INDEX(T[Qty],3)
        opening = [j for j in range(colon - 1) if text[j] == "["]
        for j in reversed(opening):  # the bracket that closes just before ':' (escapes read forwards)
            if _bracket_end(text, j) == colon - 1:
                m = re.search(r"[\w.\\]*$", text[:j])
                return m.start() if m else j
        return None
    m = re.search(r"(?:(?:'(?:[^']|'')+'|[^\W\d][\w.]*)!)?\$?[^\W\d][\w.$]*$", text[:colon])
    return m.start() if m else None


def _operand_after(text: str, colon: int) -> tuple[int, bool] | None:
    """End of the operand after ``:``, and whether it is a reference function's call."""
    m = re.match(r"(?:_xlfn\.)?([A-Za-z]+)\(", text[colon + 1 :])
    if m and m.group(1).upper() in _REFERENCE_CALLS:
        close = _closing(text, colon + m.end())
        return (close + 1, True) if close != -1 else None
    m = _REF_TOKEN.match(text, colon + 1) or _ERROR_SIDE.match(text, colon + 1)
    if m and m.end() < len(text) and text[m.end()] == "[":  # a structured reference: T[@Qty]
        close = _bracket_end(text, m.end())
        return (close + 1, False) if close != -1 else None
    return (m.end(), False) if m else None


def reference_spans(formula: str) -> str | None:
    """``A1:OFFSET(A1,4,0)``, ``INDEX(r,1,1):INDEX(r,1,n)``, ``INDIRECT("A1"):INDIRECT("A9")``: the
    range operator beside a function that gives a reference, written ``GRIDSIGHT.SPAN(a,b)`` for
    :func:`resolve_offsets` (the parser takes ``:`` only between references). None when there is none."""
    if ":" not in formula or "(" not in formula:
        return None
    text, changed = formula, False
    for _ in range(20):
        pieces = re.split(r'("(?:[^"]|"")*")', text)
        offset, hit = 0, None
        for k, piece in enumerate(pieces):
            if k % 2 == 0:
                for m in re.finditer(":", piece):
                    colon = offset + m.start()
                    start = _operand_before(text, colon)
                    after = _operand_after(text, colon)
                    if start is None or after is None:
                        continue
                    left_call = text[colon - 1] == ")"
                    if left_call or after[1]:
                        hit = (start, colon, after[0])
                        break
            if hit:
                break
            offset += len(piece)
        if hit is None:
            break
        start, colon, end = hit
        text = f"{text[:start]}{SPAN}({text[start:colon]},{text[colon + 1 : end]}){text[end:]}"
        changed = True
    return text if changed else None


_CALL_NAME = re.compile(r"(?<![A-Za-z0-9_.!'\]])([A-Za-z_\\][A-Za-z0-9_.]*)\(")


def named_lambdas(formula: str, lambda_of: Callable[[str], str | None]) -> str | None:
    """Calls of defined names that hold a LAMBDA (``=week()``, ``=cal_month(1)``, where the workbook
    defines ``cal_month`` as ``LAMBDA(mo, ...)``) written as that LAMBDA applied to the arguments, for
    :func:`inline_lambdas`; ``lambda_of(name)`` is the name's LAMBDA text or None. Text in quotes is
    left alone; None when there is no such call."""
    changed = False
    text = formula
    for _ in range(10):  # a LAMBDA that calls another named one; bounded
        parts = re.split(r'("(?:[^"]|"")*")', text)
        found = False
        for i in range(0, len(parts), 2):

            def swap(m: re.Match[str]) -> str:
                nonlocal found
                body = lambda_of(m.group(1))
                if body is None:
                    return m.group(0)
                found = True
                return body + "("

            parts[i] = _CALL_NAME.sub(swap, parts[i])
        if not found:
            break
        changed = True
        text = "".join(parts)
    return text if changed else None


def _applied(text: str, open_at: int) -> bool:
    close = _closing(text, open_at)
    return close != -1 and close + 1 < len(text) and text[close + 1] == "("


def to_text(node: Node, swap: Callable[[Node], str | None] = lambda n: None) -> str:
    """Formula text for a tree (``swap`` may replace any sub-tree's text)."""
    alt = swap(node)
    if alt is not None:
        return alt
    if isinstance(node, Literal):
        if node.kind == "text":
            return '"' + str(node.value).replace('"', '""') + '"'
        if node.kind == "bool":
            return "TRUE" if node.value else "FALSE"
        if node.kind == "number":
            v = float(node.value)
            return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
        return str(node.value)
    if isinstance(node, Ref):
        if node.rng is None:
            return node.name or node.text
        sheet = node.sheet
        ref = node.rng.ref()
        return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{ref}" if sheet else ref
    if isinstance(node, Missing):
        return ""
    if isinstance(node, UnaryOp):
        inner = to_text(node.operand, swap)
        return f"({inner})%" if node.op == "%" else f"{node.op}({inner})"
    if isinstance(node, BinOp):
        op = " " if node.op == " " else node.op
        return f"({to_text(node.left, swap)}{op}{to_text(node.right, swap)})"
    if isinstance(node, Call):
        if node.name == "ARRAY":
            rows = node.args if all(isinstance(a, Call) and a.name == "ARRAY" for a in node.args) else (node,)
            body = ";".join(
                ",".join(to_text(x, swap) for x in (r.args if isinstance(r, Call) else ())) for r in rows
            )
            return "{" + body + "}"
        return f"{node.name}(" + ",".join(to_text(a, swap) for a in node.args) + ")"
    return node.text


def resolve_offsets(
    tree: Node,
    number: Callable[[str], Any],
    reference: Callable[[str, bool], str] | None = None,
    errors_as_values: bool = True,
) -> str | None:
    """The formula with every OFFSET (and, given ``reference``, INDIRECT) replaced by the static range
    it points at, or None when it has neither.

    ``number(text)`` evaluates an argument's formula text to a value (raising on errors);
    ``reference(text, a1)`` turns INDIRECT's text into range text (raising OffsetError for #REF!).
    ``errors_as_values``: a call inside the formula that gives an error becomes that error value
    (``IFERROR(INDIRECT(bad),0)`` is 0); otherwise, and for the whole formula, OffsetError is raised."""
    names = ("OFFSET", "INDIRECT", SPAN) if reference is not None else ("OFFSET", SPAN)
    if not any(isinstance(n, Call) and n.name.removeprefix("_XLFN.") in names for n in walk(tree)):
        return None

    def swap(node: Node) -> str | None:
        try:
            if isinstance(node, Call) and node.name.removeprefix("_XLFN.") == "OFFSET":
                return _offset_text(node, swap, number)
            if isinstance(node, Call) and node.name == SPAN:
                return _span_text(node, swap, number)
            if (
                reference is not None
                and isinstance(node, Call)
                and node.name.removeprefix("_XLFN.") == "INDIRECT"
            ):
                return _indirect_text(node, swap, number, reference)
        except OffsetError as exc:
            if node is tree or not errors_as_values or exc.error not in _LITERAL_ERRORS:
                raise  # the whole formula's error, with its reason
            return exc.error  # the call's error value, for IFERROR and ISERROR around it to see
        return None

    return "=" + to_text(tree, swap)


#: Error values the engine's tokenizer reads as literals.
_LITERAL_ERRORS = frozenset(("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"))


def _value(node: Node, swap: Callable[[Node], str | None], number: Callable[[str], Any]) -> Any:
    """An argument's value: whole-number arithmetic and joins of text computed here (the same in
    every cell of a column, see ``_fold``), anything else by ``number``."""
    found = folded(node)
    return found if found is not None else number("=" + to_text(node, swap))


def _indirect_text(
    node: Call,
    swap: Callable[[Node], str | None],
    number: Callable[[str], Any],
    reference: Callable[[str, bool], str],
) -> str:
    if not 1 <= len(node.args) <= 2:
        raise OffsetError(
            "#VALUE!", "INDIRECT takes the reference's text and optionally whether it is A1-style"
        )
    text = _value(node.args[0], swap, number)
    a1 = True
    if len(node.args) == 2 and not isinstance(node.args[1], Missing):
        a1 = bool(number("=" + to_text(node.args[1], swap)))
    if not isinstance(text, str) or not text.strip():
        raise OffsetError("#REF!", "INDIRECT's text is not a reference")
    return reference(text.strip(), a1)


_R1C1 = re.compile(r"^R(\[-?\d+\]|\d+)?C(\[-?\d+\]|\d+)?$", re.IGNORECASE)


def r1c1_to_a1(text: str, at: tuple[int, int] | None) -> str | None:
    """``R2C3`` -> ``C2``; ``R[1]C[-1]`` relative to ``at``; a range ``R1C1:R2C2``; None if not R1C1."""
    sheet, _, ref = text.rpartition("!")
    corners = []
    for part in ref.split(":"):
        m = _R1C1.match(part.strip())
        if m is None:
            return None
        pos = []
        for got, own in ((m.group(1), at[0] if at else None), (m.group(2), at[1] if at else None)):
            if got is None or got.startswith("["):
                if own is None:
                    return None
                pos.append(own + (int(got[1:-1]) if got else 0))
            else:
                pos.append(int(got) - 1)
        corners.append(pos)
    try:
        rng = Range.from_cells(corners[0][0], corners[0][1], corners[-1][0], corners[-1][1])
    except Exception:
        return None
    return f"{sheet}!{rng.ref()}" if sheet else rng.ref()


def _offset_text(node: Call, swap: Callable[[Node], str | None], number: Callable[[str], Any]) -> str:
    if not 3 <= len(node.args) <= 5:
        raise OffsetError(
            "#VALUE!", "OFFSET takes a reference, rows, columns and optionally height and width"
        )
    base = node.args[0]
    if isinstance(base, Call) and base.name in ("OFFSET", "INDIRECT"):  # OFFSET(INDIRECT("A1"),1,1)
        text = _offset_text(base, swap, number) if base.name == "OFFSET" else swap(base)
        if text is None:
            raise OffsetError("#VALUE!", "OFFSET's first argument must be a cell or range reference")
        if text in _LITERAL_ERRORS:
            raise OffsetError(text, f"OFFSET's reference is {text}")
        ref = Range.parse(text.split("!")[-1])
        sheet = _sheet_of_text(text)
    elif isinstance(base, Ref) and base.rng is not None:
        ref, sheet = base.rng, base.sheet
    elif isinstance(base, Literal) and base.kind == "error" and str(base.value) in _LITERAL_ERRORS:
        raise OffsetError(str(base.value), f"OFFSET's reference is {base.value}")  # OFFSET(#REF!,1,0)
    else:
        raise OffsetError("#VALUE!", "OFFSET's first argument must be a cell or range reference")

    def arg(i: int, default: int) -> int:
        if i >= len(node.args) or isinstance(node.args[i], Missing):
            return default
        v = _value(node.args[i], swap, number)
        if v is None or v == "":  # a blank cell: 0
            return 0 if i < 3 else default
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise OffsetError("#VALUE!", f"OFFSET's argument {i + 1} is not a number")
        return int(v)

    rows, cols = arg(1, 0), arg(2, 0)
    height, width = arg(3, ref.height), arg(4, ref.width)
    if height == 0 or width == 0:
        raise OffsetError("#REF!", "OFFSET with a height or width of 0")
    top, left = ref.top + rows, ref.left + cols
    bottom, right = top + abs(height) - 1, left + abs(width) - 1
    if height < 0:
        top, bottom = top + height + 1, top
    if width < 0:
        left, right = left + width + 1, left
    if top < 0 or left < 0 or bottom >= MAX_ROWS or right >= MAX_COLS:
        raise OffsetError("#REF!", "OFFSET points outside the sheet")
    out = Range(top, left, bottom, right).ref()
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{out}" if sheet else out


def _reference_text(node: Node, swap: Callable[[Node], str | None], number: Callable[[str], Any]) -> str:
    """The range a side of ``a:b`` stands for: a reference, OFFSET/INDIRECT (through ``swap``),
    INDEX of a reference (its cell, row or column), CHOOSE among references."""
    if isinstance(node, Ref) and node.rng is not None:
        return to_text(node)
    if isinstance(node, Literal) and node.kind == "error" and str(node.value) in _LITERAL_ERRORS:
        raise OffsetError(str(node.value), f"a side of ':' is {node.value}")  # OFFSET(A1,1,0):#REF!
    if isinstance(node, Call):
        name = node.name.removeprefix("_XLFN.")
        if name in ("OFFSET", "INDIRECT", SPAN):
            text = swap(node)
            if text is None or text in _LITERAL_ERRORS:
                raise OffsetError(text or "#REF!", f"{name} gives no reference")
            return text
        if name == "CHOOSE" and len(node.args) >= 2:
            k = _value(node.args[0], swap, number)
            if isinstance(k, bool) or not isinstance(k, int | float) or not 1 <= int(k) < len(node.args):
                raise OffsetError("#VALUE!", "CHOOSE's index is out of its choices")
            return _reference_text(node.args[int(k)], swap, number)
        if name == "INDEX" and 2 <= len(node.args) <= 3:
            base = node.args[0]
            if not (isinstance(base, Ref) and base.rng is not None):
                raise OffsetError("#VALUE!", "INDEX's array is not a reference")
            rng = base.rng
            row = _value(node.args[1], swap, number) if not isinstance(node.args[1], Missing) else 0
            col = (
                _value(node.args[2], swap, number)
                if len(node.args) == 3 and not isinstance(node.args[2], Missing)
                else 0
            )
            if any(isinstance(v, bool) or not isinstance(v, int | float) for v in (row, col)):
                raise OffsetError("#VALUE!", "INDEX's row or column is not a number")
            r, c = int(row or 0), int(col or 0)
            if len(node.args) == 2 and rng.height == 1 and r:  # one row: the number picks a column
                r, c = 0, r
            if r < 0 or c < 0 or r > rng.height or c > rng.width:
                raise OffsetError("#REF!", "INDEX points outside its reference")
            top, bottom = (rng.top + r - 1,) * 2 if r else (rng.top, rng.bottom)
            left, right = (rng.left + c - 1,) * 2 if c else (rng.left, rng.right)
            out = Range(top, left, bottom, right).ref()
            return f"'{base.sheet.replace(chr(39), chr(39) * 2)}'!{out}" if base.sheet else out
    raise OffsetError("#VALUE!", "a side of ':' is not a reference")


def _span_text(node: Call, swap: Callable[[Node], str | None], number: Callable[[str], Any]) -> str:
    """``a:b``: the smallest range holding both references (on one sheet)."""
    if len(node.args) != 2:
        raise OffsetError("#VALUE!", "':' takes two references")
    texts = [_reference_text(a, swap, number) for a in node.args]
    sheets = {_sheet_of_text(t) for t in texts} - {None}
    if len(sheets) > 1:
        raise OffsetError("#REF!", "':' between references on different sheets")
    a, b = (Range.parse(t.split("!")[-1]) for t in texts)
    out = Range(min(a.top, b.top), min(a.left, b.left), max(a.bottom, b.bottom), max(a.right, b.right)).ref()
    sheet = next(iter(sheets), None)
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{out}" if sheet else out


def _sheet_of_text(text: str) -> str | None:
    if "!" not in text:
        return None
    return text.rsplit("!", 1)[0].strip("'").replace("''", "'")


def own_cell(tree: Node, at: tuple[int, int] | None) -> str | None:
    """``ROW``/``COLUMN`` made constants the engine can compute: ``ROW()`` (the formula's own cell) and
    ``ROW(B7)`` give 7, ``ROW(B2:B4)`` gives ``{2;3;4}``, ``COLUMN(B1:D1)`` gives ``{2,3,4}`` (the engine
    sees only a range's values, not where it lies); ``ROWS``/``COLUMNS`` of a reference its size
    (``ROWS(C:C)`` is 1048576; the engine saw the used rows only). None when the formula has none."""

    def constant(node: Node) -> str | None:
        if not isinstance(node, Call):
            return None
        name = node.name.removeprefix("_XLFN.")
        if name in ("ROWS", "COLUMNS") and len(node.args) == 1:
            arg = node.args[0]
            if isinstance(arg, Ref) and arg.rng is not None:  # ROWS(C:C) is 1048576, not the used rows
                return str(arg.rng.height if name == "ROWS" else arg.rng.width)
            return None
        if name not in ("ROW", "COLUMN"):
            return None
        if not node.args:
            if at is None:
                return None
            rng = Range(at[0], at[1], at[0], at[1])
        elif len(node.args) == 1 and isinstance(node.args[0], Ref) and node.args[0].rng is not None:
            rng = node.args[0].rng
        elif len(node.args) == 1 and isinstance(node.args[0], Literal) and node.args[0].kind == "error":
            return str(node.args[0].value)  # ROW(#REF!), an INDIRECT that pointed nowhere: #REF!
        else:
            return None
        if node is tree and (
            (name == "ROW" and (rng.is_whole_columns or rng.height > 100_000))
            or (name == "COLUMN" and (rng.is_whole_rows or rng.width > 100_000))
        ):
            return str((rng.top if name == "ROW" else rng.left) + 1)  # =ROW(D:D) alone shows its first
        if node.name.endswith("ROW"):
            if rng.is_whole_columns or rng.height > 100_000:
                return None
            items = [str(r + 1) for r in range(rng.top, rng.bottom + 1)]
            return items[0] if len(items) == 1 else "{" + ";".join(items) + "}"
        if rng.is_whole_rows or rng.width > 100_000:
            return None
        items = [str(c + 1) for c in range(rng.left, rng.right + 1)]
        return items[0] if len(items) == 1 else "{" + ",".join(items) + "}"

    if not any(constant(n) is not None for n in walk(tree)):
        return None
    return "=" + to_text(tree, constant)


# --- 3D references ---------------------------------------------------------------------------------
_3D = re.compile(
    r"(?<![\w.!'])(?:'(?P<q1>(?:[^']|'')+)'|(?P<p1>[A-Za-z_][\w.]*)):(?:'(?P<q2>(?:[^']|'')+)'|(?P<p2>[A-Za-z_][\w.]*))"
    r"!(?P<ref>\$?[A-Za-z]{1,3}\$?[0-9]{1,7}(?::\$?[A-Za-z]{1,3}\$?[0-9]{1,7})?)"
)
_3D_QUOTED = re.compile(r"^'(?P<q1>(?:[^']|'')+):(?P<q2>(?:[^']|'')+)'!")


def expand_3d(formula: str, sheet_names: list[str]) -> str:
    """``SUM(Jan:Mar!B2)`` -> ``SUM(Jan!B2,Feb!B2,Mar!B2)``: a reference through a run of sheets, in
    workbook order, as the list of the same reference on each (SUM, AVERAGE, COUNT, MAX... take it
    so). Sheets that do not exist leave the text as it is (the parser then reports it)."""
    if ":" not in formula or "!" not in formula:
        return formula
    folded = [n.casefold() for n in sheet_names]

    def one(m: re.Match[str]) -> str:
        first = (m.group("q1") or m.group("p1")).replace("''", "'")
        last = (m.group("q2") or m.group("p2")).replace("''", "'")
        if first.casefold() not in folded or last.casefold() not in folded:
            return m.group(0)
        i, j = sorted((folded.index(first.casefold()), folded.index(last.casefold())))
        return ",".join(
            f"'{n.replace(chr(39), chr(39) * 2)}'!{m.group('ref')}" for n in sheet_names[i : j + 1]
        )

    pieces = re.split(r'("(?:[^"]|"")*")', formula)
    for k in range(0, len(pieces), 2):
        pieces[k] = _3D.sub(one, re.sub(r"'((?:[^':]|'')+):((?:[^':]|'')+)'!", r"'\1':'\2'!", pieces[k]))
    return "".join(pieces)


# --- defined names --------------------------------------------------------------------------------
#: Names that refer to names are followed this many times (Excel allows chains; cycles are #NAME?).
MAX_NAME_DEPTH = 8


def _is_reference(text: str) -> bool:
    try:
        Range.parse(text)
    except Exception:
        return False
    return True


def expand_names(
    formula: str,
    workbook: Any,
    sheet: str | None,
    inner: Callable[[str], str] = lambda t: t,
    at: tuple[int, int] | None = None,
) -> str:
    """``=U*Area`` -> ``=NUMERIC1!$B$8*NUMERIC1!$B$7`` using the workbook's defined names (a name
    local to ``sheet`` first, then the workbook's); a name that stands for a constant or a formula
    is put in parentheses. ``inner`` rewrites a name's own text first (its structured references).
    LET and LAMBDA variables are left alone. Text without names comes back unchanged. ``at`` (the
    formula's 0-based cell) is where a name's relative references are seen from (Excel stores them as
    seen from A1: a name ``Sheet1!$B1`` used in C5 is ``Sheet1!$B5``)."""
    if not getattr(workbook, "names", ()):
        return formula
    from gridsight.formula._tree import parse_formula

    for _ in range(MAX_NAME_DEPTH):
        tree = parse_formula(formula)
        bound = _bound_names(tree)

        def lookup(node: Node, bound: set[str] = bound) -> Any:
            if not isinstance(node, Ref) or node.rng is not None:
                return None
            name = node.name or node.text
            if name.upper() in bound:
                return None
            return workbook.defined_name(name, node.sheet or sheet)

        if not any(lookup(n) is not None for n in walk(tree)):
            return formula

        def swap(node: Node) -> str | None:
            found = lookup(node)
            if found is None:
                return None
            text = inner("=" + (from_a1(found.text, at) if at is not None else found.text))[1:]
            return text if _is_reference(text) else f"({text})"

        formula = "=" + to_text(tree, swap)
    raise FormulaSyntaxError(f"defined names refer to each other more than {MAX_NAME_DEPTH} deep (#NAME?)")


def _bound_names(tree: Node) -> set[str]:
    """Names bound by LET and LAMBDA in a tree (upper-case)."""
    out: set[str] = set()
    for node in walk(tree):
        if isinstance(node, Call) and node.name in ("LET", "LAMBDA", "_XLFN.LET", "_XLFN.LAMBDA"):
            params = node.args[:-1] if node.name.endswith("LAMBDA") else node.args[0:-1:2]
            out.update(p.text.upper() for p in params if isinstance(p, Ref))
    return out


# --- structured references ------------------------------------------------------------------------
_IDENT = re.compile(r"[\w.\\]")  # table names may hold any letter (テーブル15)
_SPECIALS = ("#all", "#data", "#headers", "#totals", "#this row")


class StructuredRefError(FormulaSyntaxError):
    """A structured reference to a table or column that does not exist (Excel: #REF!)."""


def expand_structured(
    formula: str, workbook: Any, sheet: str | None, at: tuple[int, int] | None = None
) -> str:
    """``=SUM(Sales[Amount])`` -> ``=SUM(B2:B40)`` using the workbook's Excel tables.

    Handles ``Table[Col]``, ``Table[[Col1]:[Col2]]``, ``Table[#All]`` / ``[#Data]`` / ``[#Headers]`` /
    ``[#Totals]``, combinations such as ``Table[[#Headers],[Col]]``, this-row ``Table[@Col]`` (and an
    unqualified ``[@Col]`` inside a table, given ``at``), and a bare table name (its data rows).
    Text without tables or brackets comes back unchanged."""
    tables = getattr(workbook, "tables", ()) or ()
    if not tables or ("[" not in formula and not _mentions_table(formula, tables)):
        return formula
    out, i, n = [], 0, len(formula)
    while i < n:
        ch = formula[i]
        if ch == '"':  # copy string literals untouched
            j = i + 1
            while j < n and (formula[j] != '"' or (j + 1 < n and formula[j + 1] == '"')):
                j += 2 if formula[j] == '"' else 1
            out.append(formula[i : j + 1])
            i = j + 1
            continue
        if ch == "[":
            start = i
            while start > 0 and _IDENT.match(formula[start - 1]):
                start -= 1
            name = formula[start:i]
            close = _bracket_end(formula, i)
            if close == -1:
                raise FormulaSyntaxError("a structured reference is missing its closing ']'")
            text = _resolve(name, formula[i + 1 : close], workbook, sheet, at)
            if i > start:  # the table name was copied already, one character at a time
                del out[len(out) - (i - start) :]
            out.append(text)
            i = close + 1
            continue
        out.append(ch)
        i += 1
    return _bare_tables("".join(out), tables, sheet)


def _bracket_end(text: str, open_at: int) -> int:
    """Index of the ``]`` closing the structured reference's ``[`` at ``open_at``, or -1; ``'``
    escapes the character after it in a column name (``[Column'']`` is the column ``Column'``,
    ``[a']b]`` the column ``a]b``)."""
    depth, k = 0, open_at
    while k < len(text):
        ch = text[k]
        if ch == "'":
            k += 2
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return -1


def _mentions_table(text: str, tables: Any) -> bool:
    return any(re.search(rf"(?<![\w.!']){re.escape(t.name)}(?![\w.(\[!])", text, re.I) for t in tables)


def _bare_tables(text: str, tables: Any, sheet: str | None) -> str:
    pieces = re.split(r'("(?:[^"]|"")*")', text)
    for k in range(0, len(pieces), 2):
        for t in tables:
            rows = t.rows("#data")
            if rows is None:
                continue
            target = _qualified(t, Range(rows[0], t.ref.left, rows[1], t.ref.right), sheet)
            pieces[k] = re.sub(
                rf"(?<![\w.!']){re.escape(t.name)}(?![\w.(\[!])", target, pieces[k], flags=re.I
            )
    return "".join(pieces)


def _qualified(table: Any, rng: Range, sheet: str | None) -> str:
    if sheet is not None and table.sheet.casefold() == sheet.casefold():
        return rng.ref()
    return "'" + table.sheet.replace("'", "''") + "'!" + rng.ref()


def _unescape(name: str) -> str:
    return re.sub(r"'(.)", r"\1", name)


def _resolve(name: str, spec: str, workbook: Any, sheet: str | None, at: tuple[int, int] | None) -> str:
    if name:
        table = workbook.table(name)
        if table is None:
            raise StructuredRefError(f"there is no table named {name!r} (#REF!)")
    else:  # [@Col] inside a table: the table holding the formula's cell
        table = next(
            (
                t
                for t in workbook.tables
                if at is not None
                and sheet is not None
                and t.sheet.casefold() == sheet.casefold()
                and t.ref.contains(at[0], at[1])
            ),
            None,
        )
        if table is None:
            raise StructuredRefError(f"[{spec}] refers to a table, but the cell is not inside one (#REF!)")
    spec = spec.strip()
    parts: set[str] = set()
    cols: list[str] = []
    if spec.startswith("@"):
        parts.add("#this row")
        rest = spec[1:].strip()
        if rest.startswith("[") and rest.endswith("]"):
            rest = rest[1:-1]
        cols = rest.split("]:[") if rest else []
    elif "[" not in spec:
        if spec.lower() in _SPECIALS:
            parts.add(spec.lower())
        elif spec:
            cols = [spec]
    else:
        for item in _split_args(spec, "[", "]", structured=True):
            item = item.strip()
            span = [x.strip().removeprefix("[").removesuffix("]") for x in re.split(r"\]\s*:\s*\[", item)]
            if len(span) == 1 and span[0].lower() in _SPECIALS:
                parts.add(span[0].lower())
            elif span[0].startswith("@"):
                parts.add("#this row")
                cols = [span[0][1:].strip("[]")]
            else:
                cols = span
    left, right = table.ref.left, table.ref.right
    if cols:
        idx = [table.column_index(_unescape(c)) for c in cols]
        if any(k is None for k in idx):
            missing = next(c for c, k in zip(cols, idx, strict=True) if k is None)
            raise StructuredRefError(f"table {table.name!r} has no column {_unescape(missing)!r} (#REF!)")
        left, right = table.ref.left + min(idx), table.ref.left + max(idx)
    parts = parts or {"#data"}
    if "#this row" in parts:
        data = table.rows("#data")
        if at is None or data is None or not data[0] <= at[0] <= data[1]:
            raise StructuredRefError(
                "a this-row reference (@) needs a cell inside the table's rows (#VALUE!)"
            )
        top = bottom = at[0]
    else:
        spans = [table.rows(p) for p in parts]
        if any(s is None for s in spans):
            raise StructuredRefError(f"table {table.name!r} has no {' / '.join(sorted(parts))} rows (#REF!)")
        top = min(s[0] for s in spans if s)
        bottom = max(s[1] for s in spans if s)
    return _qualified(table, Range(top, left, bottom, right), sheet)

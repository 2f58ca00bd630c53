"""Compile once per formula *shape*: a column of ``=B2*C2``, ``=B3*C3``... shares one compiled function.

Compiling costs the engine several milliseconds per formula text, and a workbook's formulas are mostly
fills of a few relative formulas. The engine's compiled function reads each reference as an input of
values (what lies where is settled before: ROW(), OFFSET, INDIRECT, intersections are rewritten), so
formulas that differ only in the cells they reference compile to the same function with different
inputs: the first one's function is kept, and each later one gets the input ranges its own
references name. The shape keeps which references are the same input (``=A1*A1`` is not ``=A1*B1``)
and whether each is one cell or a range; absolute references count like relative ones, since the
engine's rewrites drop the ``$`` (``List!$B$3`` down a column becomes ``'List'!B3`` in every cell).
Whole numbers written in the formula are inputs too (the shape's function is compiled with a
placeholder cell for each, and each formula feeds its own numbers): once ``ROW()`` is written in,
``VLOOKUP(ROW()-7,Data!$A:$N,5,FALSE)`` down a column differs in a number in every cell. A formula
whose shape does not compile that way (a number inside an array constant) compiles with its numbers.
When the engine's input names cannot be matched to the references in the text (a name), the formula
is simply compiled on its own.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any, Literal

from gridsight.formula._date1904 import is_1904
from gridsight.formula._engine import compile_formula
from gridsight.formula._platform import is_mac
from gridsight.formula._shape import number_spans

# references outside strings: an optional sheet prefix, then a cell, a cell range, whole columns or rows
_REF = re.compile(
    r"(?<![A-Za-z0-9_.$'!])(?P<sheet>(?:'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_.]*)!)?"
    r"(?P<ref>\$?[A-Za-z]{1,3}\$?[0-9]{1,7}(?::\$?[A-Za-z]{1,3}\$?[0-9]{1,7})?"
    r"|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?[0-9]{1,7}:\$?[0-9]{1,7})(?![A-Za-z0-9_(!.:])"
)
_STRING = re.compile(r'"(?:[^"]|"")*"')
_PART = re.compile(r"(\$?)([A-Za-z]{1,3})?(\$?)([0-9]{1,7})?")
#: Relative forms kept (each holds one compiled function).
MAX_FORMS = 4096
_LOCK = threading.Lock()
_Form = tuple[Any, tuple[tuple[int, str], ...]]  # compiled function, per input (its reference index, name)
#: Number slot i is compiled as the input cell XFB{FIRST_NUMBER_ROW + i}.
FIRST_NUMBER_ROW = 1_046_001
MAX_NUMBERS = 900
_NUMBER_CELL = re.compile(r"^XFB(10[0-9]{5})$")
_MENTIONS = re.compile(r"XFB10[0-9]{5}", re.IGNORECASE)
_FORMS: dict[tuple[str, bool, bool], _Form | None] = {}


def _segments(text: str) -> list[tuple[bool, int, int]]:
    """(is a string literal, start, end) pieces of the text, in order."""
    out, last = [], 0
    for s in _STRING.finditer(text):
        out.append((False, last, s.start()))
        out.append((True, s.start(), s.end()))
        last = s.end()
    out.append((False, last, len(text)))
    return out


def _letters_to_col(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def _relative_part(part: str, at: tuple[int, int]) -> str:
    m = _PART.fullmatch(part)
    if m is None:
        return part
    cabs, letters, rabs, digits = m.groups()
    out = ""
    if digits:
        row = int(digits) - 1
        out += f"R{row + 1}" if rabs else f"R[{row - at[0]}]"
    if letters:
        col = _letters_to_col(letters)
        out += f"C{col + 1}" if cabs else f"C[{col - at[1]}]"
    return out


def _keyed(text: str, slot: Callable[[re.Match[str]], str]) -> tuple[str, list[re.Match[str]]]:
    """The text with each reference outside strings written as ``slot`` gives it (the rest upper
    case), and the reference matches, in order."""
    pieces: list[str] = []
    matches: list[re.Match[str]] = []
    for literal, start, end in _segments(text):
        if literal:
            pieces.append(text[start:end])
            continue
        last = start
        for m in _REF.finditer(text, start, end):
            matches.append(m)
            pieces.append(text[last : m.start("ref")].upper())
            pieces.append(slot(m))
            last = m.end()
        pieces.append(text[last:end].upper())
    return "".join(pieces), matches


def relative_key(text: str, at: tuple[int, int]) -> tuple[str, list[re.Match[str]]]:
    """The formula's R1C1 form at ``at`` (equal for formulas one fill apart; string literals kept as
    they are) and its reference matches, in order."""
    return _keyed(text, lambda m: ":".join(_relative_part(p, at) for p in m.group("ref").split(":")))


def shape_key(text: str) -> tuple[str, list[re.Match[str]]]:
    """The formula's shape (equal for formulas that differ only in the cells they reference; string
    literals kept as they are) and its reference matches, in order."""
    classes: dict[str, int] = {}

    def slot(m: re.Match[str]) -> str:
        name = _engine_name(m)
        return f"\x00{classes.setdefault(name, len(classes))}{':' if ':' in name else ''}\x00"

    return _keyed(text, slot)


def _number_slots(text: str) -> tuple[str, tuple[int, ...]]:
    """The text with each whole number written in it (outside strings, references and quoted sheet
    names) made a placeholder input cell, and the numbers, in order; the text itself when it has
    none (or names a placeholder cell)."""
    if _MENTIONS.search(text):
        return text, ()
    out: list[str] = []
    numbers: list[int] = []
    last = 0
    for literal, start, end in _segments(text):
        if literal:
            continue
        taken = [(m.start(), m.end()) for m in _REF.finditer(text, start, end)]
        for a, b in number_spans(text, start, end, taken):
            out.append(text[last:a])
            out.append(f"XFB{FIRST_NUMBER_ROW + len(numbers)}")
            numbers.append(int(text[a:b]))
            last = b
    if not numbers or len(numbers) > MAX_NUMBERS:
        return text, ()
    out.append(text[last:])
    return "".join(out), tuple(numbers)


def _engine_name(m: re.Match[str]) -> str:
    return ((m.group("sheet") or "") + m.group("ref").replace("$", "")).upper()


def _unquoted(name: str) -> str:
    """An input's name without its sheet's quotes (the engine drops those a name does not need:
    ``'List'!B3`` is its input ``LIST!B3``)."""
    sheet, bang, ref = name.rpartition("!")
    if sheet.startswith("'") and sheet.endswith("'"):
        sheet = sheet[1:-1].replace("''", "'")
    return sheet + bang + ref


def compile_at(text: str, at: tuple[int, int] | None) -> tuple[Any, list[str | int]]:
    """The compiled function for ``text`` and the input names to feed it, in its order."""
    if at is None:
        fn = compile_formula(text)
        return fn, list(fn.inputs)
    template, numbers = _number_slots(text)
    form, matches = shape_key(template)
    key = (form, is_1904(), is_mac())  # constants are computed while compiling: date system, charset
    with _LOCK:
        known: _Form | Literal[False] | None = _FORMS.get(key, False)
    if known is False:
        try:
            fn = compile_formula(template)
        except Exception:
            if template == text:
                raise
            fn = None  # numbers the engine takes only as written (an array constant): not inputs
        names = [_unquoted(_engine_name(m)) for m in matches]
        mapping: list[tuple[int, str]] = []
        for inp in fn.inputs if fn is not None else ():
            if _unquoted(inp) not in names:
                mapping = []
                break
            mapping.append((names.index(_unquoted(inp)), inp))
        entry = (fn, tuple(mapping)) if fn is not None and len(mapping) == len(fn.inputs) else None
        with _LOCK:
            if len(_FORMS) >= MAX_FORMS:
                _FORMS.clear()
            _FORMS[key] = entry
        if entry is None:
            fn = compile_formula(text)
            return fn, list(fn.inputs)
        known = entry
    if known is None:  # inputs the text does not name plainly: compile this one on its own
        fn = compile_formula(text)
        return fn, list(fn.inputs)
    fn, order = known
    return fn, [_input(matches[i], numbers) for i, _ in order]


def _input(m: re.Match[str], numbers: tuple[int, ...]) -> str | int:
    """What feeds an input: the name of the range it reads, or the number written in its place."""
    slot = _NUMBER_CELL.match(m.group(0).upper()) if m.group("sheet") is None else None
    if slot is not None:
        return numbers[int(slot.group(1)) - FIRST_NUMBER_ROW]
    return _engine_name(m)

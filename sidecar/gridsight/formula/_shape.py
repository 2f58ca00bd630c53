"""A formula's shape: its text with each cell or range reference made a numbered slot.

Formulas filled down a column (``=IF(C5=List!$B$3,A4+1,0)``, ``=IF(C6=List!$B$3,A5+1,0)``...) have one
shape, and so do the texts the engine's rewrites make of them (structured references expanded, names
replaced). Tokenizing a formula costs the engine's parser milliseconds; a formula of a shape already
parsed is built from that shape's tree with its own references put in the slots (see
``_tree.parse_formula``), so a column of thousands of formulas is tokenized once.

The shape is taken from the text alone, conservatively: string literals and the insides of brackets
(structured references) stay as they are, whole columns and rows too (``Data!$A:$N``), and a reference
whose written form is not the canonical one the parser gives it (``B2:A1``, ``A1:A1``, lower case is
fine) is no slot, and neither is one at the sheet's far edge (the parser reads ``[1]Sheet!XFD4`` as a
name): the shape keeps them as written, and only equal texts share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gridsight.errors import GridSightError
from gridsight.grid import Range

#: Literal pieces: string literals and bracketed parts (structured references, external indexes).
_LITERAL = re.compile(r'"(?:[^"]|"")*"|\[[^\]]*\]')
#: A cell or a range of cells outside literals, with an optional sheet (kept in the shape).
_SLOT = re.compile(
    r"(?<![A-Za-z0-9_.$'!:\\])(?P<sheet>(?:'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_.]*)!)?"
    r"(?P<ref>\$?[A-Za-z]{1,3}\$?[0-9]{1,7}(?::\$?[A-Za-z]{1,3}\$?[0-9]{1,7})?)(?![A-Za-z0-9_(!.:\[])"
)
#: Placeholders: slot i is the cell XFA{FIRST_ROW + i} (a range: XFA..:XFC.. on that row), cells no
#: workbook formula names; a shape whose own text mentions them is not used.
FIRST_ROW = 1_047_001
MAX_SLOTS = 1_000
_XFA = 16380  # column XFA, from 0
_PLACEHOLDER = re.compile(r"XFA(10[0-9]{5})(?::XFC10[0-9]{5})?")
#: A whole number written as such (not part of a name, a reference, a decimal or a percentage).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.$:!'\\#@])(?:0|[1-9][0-9]{0,8})(?![0-9A-Za-z_.:(!%\[$'])")
_EXPONENT = re.compile(r"[0-9.][Ee][+-]?\Z")
_QUOTED = re.compile(r"'(?:[^']|'')*'")
#: Number slot i is written FIRST_NUMBER + i.
FIRST_NUMBER = 8_047_001
_NUMBER_PLACEHOLDER = re.compile(r"(?<![0-9A-Za-z_.$:!])8047[0-9]{3}(?![0-9A-Za-z_.:(!])")
_MENTIONS = re.compile(r"XF[AC]10[0-9]{5}|8047[0-9]{3}", re.IGNORECASE)


@dataclass(frozen=True)
class Shape:
    """``key``: the text with slots marked (equal for formulas of one shape); ``template``: the
    text with each slot's placeholder, to parse; ``refs``: each reference slot's range, in order;
    ``numbers``: each number slot's digits."""

    key: str
    template: str
    refs: tuple[Range, ...]
    numbers: tuple[str, ...] = ()


def _refs(text: str, start: int, end: int) -> list[tuple[int, int, str, Range | None]]:
    """(start, end, slot text, range) of each reference between start and end; range None for
    those kept as written (their digits are not numbers either)."""
    out: list[tuple[int, int, str, Range | None]] = []
    for m in _SLOT.finditer(text, start, end):
        written = m.group("ref").replace("$", "").upper()
        try:
            rng: Range | None = Range.parse(written)
        except GridSightError:
            rng = None
        if rng is not None and (rng.ref() != written or rng.right >= _XFA or rng.bottom + 1 >= FIRST_ROW):
            rng = None  # B2:A1, A1:A1 (not the parser's canonical text); the sheet's far edge
        out.append((m.start("ref") if rng is not None else m.start(), m.end(), written, rng))
    return out


def number_spans(text: str, start: int, end: int, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(start, end) of each whole number written between start and end, outside references,
    quoted sheet names and exponents (``1E+5``)."""
    taken = taken + [(q.start(), q.end()) for q in _QUOTED.finditer(text, start, end)]
    out = []
    for m in _NUMBER.finditer(text, start, end):
        if any(a < m.end() and m.start() < b for a, b in taken) or _EXPONENT.search(text, 0, m.start()):
            continue
        out.append((m.start(), m.end()))
    return out


def shape_of(text: str) -> Shape | None:
    """The formula's shape, or None when it has no slot (or more than ``MAX_SLOTS`` of a kind)."""
    key: list[str] = []
    template: list[str] = []
    refs: list[Range] = []
    numbers: list[str] = []
    last = 0
    for lit in (*_LITERAL.finditer(text), None):
        end = lit.start() if lit is not None else len(text)
        found = _refs(text, last, end)
        slots: list[tuple[int, int, Range | str]] = [(a, b, r) for a, b, _w, r in found if r is not None]
        taken = [(a, b) for a, b, _w, _r in found]
        slots += [(a, b, text[a:b]) for a, b in number_spans(text, last, end, taken)]
        pos = last
        for a, b, what in sorted(slots, key=lambda x: x[0]):
            key.append(text[pos:a])
            template.append(text[pos:a])
            if isinstance(what, str):
                key.append("\x01")
                template.append(str(FIRST_NUMBER + len(numbers)))
                numbers.append(what)
            else:
                slot = FIRST_ROW + len(refs)
                ranged = what.height > 1 or what.width > 1
                key.append("\x00:\x00" if ranged else "\x00")  # the tree has no $: shapes ignore it
                template.append(f"XFA{slot}:XFC{slot}" if ranged else f"XFA{slot}")
                refs.append(what)
            pos = b
        piece = text[pos : lit.end() if lit is not None else len(text)]
        key.append(piece)
        template.append(piece)
        last = lit.end() if lit is not None else len(text)
    if not (refs or numbers) or len(refs) > MAX_SLOTS or len(numbers) > MAX_SLOTS:
        return None
    shape = "".join(key)
    if _MENTIONS.search(shape):  # the text itself names a placeholder
        return None
    return Shape(shape, "".join(template), tuple(refs), tuple(numbers))


def slot_of(rng: Range) -> int | None:
    """The slot a placeholder range stands for, or None for any other range."""
    row = rng.top + 1  # the placeholder's row as written (Range counts from 0)
    if rng.left != _XFA or not FIRST_ROW <= row < FIRST_ROW + MAX_SLOTS or rng.bottom != rng.top:
        return None
    return row - FIRST_ROW


def number_slot(value: float, text: str) -> int | None:
    """The slot a placeholder number stands for, or None for any other number."""
    if not FIRST_NUMBER <= value < FIRST_NUMBER + MAX_SLOTS or text != str(int(value)):
        return None
    return int(value) - FIRST_NUMBER


def fill_slots(text: str, shape: Shape) -> str:
    """A template's text (the parser's canonical form of a part of it) with each placeholder
    replaced by its slot's reference or number."""
    if shape.refs:
        text = _PLACEHOLDER.sub(lambda m: shape.refs[int(m.group(1)) - FIRST_ROW].ref(), text)
    if shape.numbers:
        text = _NUMBER_PLACEHOLDER.sub(lambda m: shape.numbers[int(m.group(0)) - FIRST_NUMBER], text)
    return text

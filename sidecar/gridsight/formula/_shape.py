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
_MENTIONS = re.compile(r"XF[AC]10[0-9]{5}", re.IGNORECASE)


@dataclass(frozen=True)
class Shape:
    """``key``: the text with slots marked (equal for formulas of one shape); ``template``: the
    text with each slot's placeholder, to parse; ``refs``: each slot's range, in order."""

    key: str
    template: str
    refs: tuple[Range, ...]


def shape_of(text: str) -> Shape | None:
    """The formula's shape, or None when it has no slot (or more than ``MAX_SLOTS``)."""
    key: list[str] = []
    template: list[str] = []
    refs: list[Range] = []
    last = 0
    for lit in (*_LITERAL.finditer(text), None):
        end = lit.start() if lit is not None else len(text)
        pos = last
        for m in _SLOT.finditer(text, last, end):
            written = m.group("ref").replace("$", "").upper()
            try:
                rng = Range.parse(written)
            except GridSightError:
                continue
            if rng.ref() != written or rng.right >= _XFA or rng.bottom + 1 >= FIRST_ROW:
                continue  # B2:A1, A1:A1 (not the parser's canonical text); the sheet's far edge
            plain = text[pos : m.start("ref")]
            key.append(plain)
            template.append(plain)
            slot = FIRST_ROW + len(refs)
            key.append("\x00:\x00" if ":" in written else "\x00")  # the tree has no $: shapes ignore it
            template.append(f"XFA{slot}:XFC{slot}" if ":" in written else f"XFA{slot}")
            refs.append(rng)
            pos = m.end()
        piece = text[pos : lit.end() if lit is not None else len(text)]
        key.append(piece)
        template.append(piece)
        last = lit.end() if lit is not None else len(text)
    if not refs or len(refs) > MAX_SLOTS:
        return None
    shape = "".join(key)
    if _MENTIONS.search(shape):  # the text itself names a placeholder cell
        return None
    return Shape(shape, "".join(template), tuple(refs))


def slot_of(rng: Range) -> int | None:
    """The slot a placeholder range stands for, or None for any other range."""
    row = rng.top + 1  # the placeholder's row as written (Range counts from 0)
    if rng.left != _XFA or not FIRST_ROW <= row < FIRST_ROW + MAX_SLOTS or rng.bottom != rng.top:
        return None
    return row - FIRST_ROW


def fill_slots(text: str, refs: tuple[Range, ...]) -> str:
    """A template's text (the parser's canonical form of a part of it) with each placeholder
    replaced by its slot's reference."""
    return _PLACEHOLDER.sub(lambda m: refs[int(m.group(1)) - FIRST_ROW].ref(), text)

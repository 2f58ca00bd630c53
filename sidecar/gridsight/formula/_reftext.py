"""Cell references in a formula's text, found outside strings, quoted sheet names and structured
references: moved (:func:`gridsight.formula._pattern.translate`) or seen from another cell
(:func:`from_a1`, for the relative references of defined names)."""

from __future__ import annotations

import re
from collections.abc import Callable

from gridsight.errors import RangeSyntaxError
from gridsight.grid import MAX_COLS, MAX_ROWS, col_to_letters, letters_to_col

# References outside strings, quoted sheet names and structured-reference brackets: a whole-column
# range (B:B, $A:C), a whole-row range (2:2, $3:$5) or a cell (optional $, letters, optional $, digits),
# each not part of a name, a function call (LOG10(...)) or a sheet name (Sheet1!).
REF = re.compile(
    r"(?<![A-Za-z0-9_.$])(?P<c1abs>\$?)(?P<c1>[A-Za-z]{1,3}):(?P<c2abs>\$?)(?P<c2>[A-Za-z]{1,3})(?![A-Za-z0-9_(!.])"
    r"|(?<![A-Za-z0-9_.$:])(?P<r1abs>\$?)(?P<r1>[0-9]{1,7}):(?P<r2abs>\$?)(?P<r2>[0-9]{1,7})(?![A-Za-z0-9_.(!:])"
    r"|(?<![A-Za-z0-9_.])(?P<cabs>\$?)(?P<letters>[A-Za-z]{1,3})(?P<rabs>\$?)(?P<digits>[0-9]{1,7})(?![A-Za-z0-9_(!])"
)
# What no reference is found in: string literals, quoted sheet names, [structured] references.
OPAQUE = re.compile(r'"(?:[^"]|"")*"|\'(?:[^\']|\'\')*\'|\[(?:[^\[\]]|\[[^\[\]]*\])*\]')


def map_refs(formula: str, fn: Callable[[re.Match[str]], str]) -> str:
    out, last = [], 0
    for m in OPAQUE.finditer(formula):
        out.append(REF.sub(fn, formula[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(REF.sub(fn, formula[last:]))
    return "".join(out)


def from_a1(text: str, at: tuple[int, int]) -> str:
    """A defined name's text as seen from the 0-based cell ``at``: Excel stores a name's relative
    references as seen from A1 (``Sheet1!$B1`` used in C5 is ``Sheet1!$B5``), offsets wrapping around
    the sheet's edges (``XFD1048576`` from A1 is one column left and one row up). $-anchored parts
    stay."""
    dr, dc = at

    def col(absolute: str, letters: str) -> str:
        n = letters_to_col(letters)
        return absolute + col_to_letters(n if absolute else (n + dc) % MAX_COLS)

    def row(absolute: str, digits: str) -> str:
        n = int(digits) - 1
        return f"{absolute}{(n if absolute else (n + dr) % MAX_ROWS) + 1}"

    def seen(m: re.Match[str]) -> str:
        g = m.groupdict()
        try:
            if g["c1"] is not None:
                return f"{col(g['c1abs'], g['c1'])}:{col(g['c2abs'], g['c2'])}"
            if g["r1"] is not None:
                return f"{row(g['r1abs'], g['r1'])}:{row(g['r2abs'], g['r2'])}"
            if not 1 <= int(g["digits"]) <= MAX_ROWS:
                return m.group(0)
            return col(g["cabs"], g["letters"]) + row(g["rabs"], g["digits"])
        except RangeSyntaxError:  # letters beyond XFD: not a reference
            return m.group(0)

    return map_refs(text, seen) if at != (0, 0) else text

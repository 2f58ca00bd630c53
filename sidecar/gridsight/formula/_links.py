"""References to other workbooks (``[1]Prices!B2``) replaced by the values Excel kept of them.

Excel saves, with each external link, the values it last read from the other workbook
(:func:`gridsight.sources._xlsx_links.read_external_links`); recalculation uses them, as Excel does
while the other file is closed. A lone cell becomes its value (0 when Excel kept none: a blank cell),
a range an array constant (blanks as empty text, which SUM, COUNT and AVERAGE skip as they skip
blanks). A reference to a sheet whose values Excel did not keep stays, and is reported as an
external link.
"""

from __future__ import annotations

import re
from typing import Any

from gridsight.grid import ERROR_VALUES, Range

#: ``[1]Sheet!A1``, ``'[1]My sheet'!$A$1:$B$9`` (outside quoted text, which is masked first).
_LINKED = re.compile(
    r"(?<![\w\]])(?:'\[(?P<qn>\d+)\](?P<qs>(?:[^']|'')*)'|\[(?P<n>\d+)\](?P<s>[A-Za-z0-9_.]+))!"
    r"(?P<ref>\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)"
)
_STRING = re.compile(r'"(?:[^"]|"")*"')
#: Larger ranges are not written out as constants (the formula stays unsupported).
MAX_LINKED_CELLS = 10_000

LinkCache = dict[int, dict[str, dict[tuple[int, int], Any]]]


def _literal(v: Any, blank: str) -> str:
    if v is None:
        return blank
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int | float):
        return repr(float(v)) if v != int(v) else str(int(v))
    if isinstance(v, str) and v in ERROR_VALUES:
        return v
    return '"' + str(v).replace('"', '""') + '"'


def linked_values(formula: str, cache: LinkCache) -> str | None:
    """``formula`` with every external reference the cache holds written as its values; None when
    there is none, or when one is not in the cache (the formula then stays as it is)."""
    if "[" not in formula or not cache:
        return None
    strings = [(m.start(), m.end()) for m in _STRING.finditer(formula)]
    out, last, changed = [], 0, False
    for m in _LINKED.finditer(formula):
        if any(a <= m.start() < b for a, b in strings):
            continue
        number = int(m.group("qn") or m.group("n"))
        sheet = (m.group("qs") or "").replace("''", "'") if m.group("qn") else m.group("s")
        cells = cache.get(number, {}).get(sheet.casefold())
        if cells is None:
            return None
        rng = Range.parse(m.group("ref").replace("$", ""))
        if rng.size > MAX_LINKED_CELLS:
            return None
        if rng.size == 1:
            text = _literal(cells.get((rng.top, rng.left)), "0")
        else:
            rows = (
                ",".join(_literal(cells.get((r, c)), '""') for c in range(rng.left, rng.right + 1))
                for r in range(rng.top, rng.bottom + 1)
            )
            text = "{" + ";".join(rows) + "}"
        out.append(formula[last : m.start()] + text)
        last, changed = m.end(), True
    return "".join(out) + formula[last:] if changed else None


#: ``[0]!Name``, ``[0]Sheet!A1``, ``'[0]My sheet'!A1``: Excel's index 0 is the workbook itself.
_OWN = re.compile(r"(?<![\w\]])('?)\[0\]")


def own_workbook(formula: str) -> str | None:
    """``formula`` with references to the workbook itself by index (``SUM([0]!Sales)`` as Excel saves a
    name of this workbook written with its file name) made plain (``SUM(Sales)``); None when it has
    none."""
    if "[0]" not in formula:
        return None
    strings = [(m.start(), m.end()) for m in _STRING.finditer(formula)]
    out, last = [], 0
    for m in _OWN.finditer(formula):
        if any(a <= m.start() < b for a, b in strings):
            continue
        rest = formula[m.end() :]
        out.append(formula[last : m.start()] + m.group(1))
        last = m.end() + (1 if rest.startswith("!") else 0)  # [0]!Name: no sheet before the name
    return "".join(out) + formula[last:] if out else None

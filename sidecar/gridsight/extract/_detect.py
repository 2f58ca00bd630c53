"""The rule-based cell detector (the scaffold of the paper's method) and the table's structure.

* :func:`numeric_value` -- the first number of a cell's text (``1.0 (0.86, 1.2)`` -> ``1.0``,
  ``>100`` -> ``>100``, ``12 ± 3`` -> ``12``), or None when the text does not start with one.
* :func:`structure` -- header rows (marked in the markup, found by table detection, or the leading rows
  with no numbers), row-label columns (the leftmost column, and the next ones while they hold text), and
  per column its header path, per row its label.
* :func:`target_cells` -- every numeric cell outside the label columns, left to right, top down.

Units come from the cell itself (``127 nM``) or else from its header path (``IC50 (μM)``,
``Price, $``, ``in µM``): a short bracketed or trailing piece that is not a plain word list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gridsight.extract._table import TableGrid, clean

#: A number at the start of a cell, after an optional comparison sign and sign.
_LEADING_NUMBER = re.compile(
    r"^(?P<cmp>[<>≤≥~≈]=?\s*)?(?P<num>[-−–+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-−–+]?\.\d+)"
    r"(?P<exp>\s*[eE][-−+]?\d+|\s*[×x]\s*10\s*[-−–]?\d+)?"
)
#: Text after the number that still makes the cell a measurement (unit, footnote mark, spread).
_TAIL_OK = re.compile(r"^(?:$|[\s(\[±%*†‡§¶#,;/]|[a-zA-Zµμ°]{1,6}\b|[a-h]$|[a-h][\s,*†‡]|\))")
#: Bracketed pieces of a header, and "in X" / ", X" trailing pieces: unit candidates.
_BRACKETED = re.compile(r"[(\[]([^()\[\]]{1,24})[)\]](?![A-Za-z0-9]{2})")
_TRAILING = re.compile(r"(?:,|\bin)\s+([^\s,()]{1,12})\s*$")
_UNIT_CHARS = re.compile(r"^[A-Za-zµμ°%/·\-−–^\d$€£¥ .²³⁻¹]+$")
#: Cell units: what follows the number directly (``127 nM``, ``25 µg/mL``, ``12%``).
_CELL_UNIT = re.compile(r"^\s*(%|[µμ]?[A-Za-zµμ°]{1,4}(?:/[A-Za-zµμ]{1,4})?)(?:\s|$|[(\[±])")
#: Footnote letters glued to header text (``(μM)a``): dropped before unit reading.
_FOOTNOTE_TAIL = re.compile(r"(?<=[)\]])[a-z*†‡§]{1,2}(?=\s|$)")
#: Words that are measurement words rather than units when alone in brackets.
_NOT_UNIT = re.compile(r"^(?:n|N|n\s*=\s*\d+|\d+|[a-z]|SD|SEM|SE|CI|mean|median|range|total)$")


def numeric_value(text: str) -> str | None:
    """The cell's leading number as written (comparison sign kept), or None when it has none."""
    s = clean(text)
    if not s:
        return None
    m = _LEADING_NUMBER.match(s)
    if m is None:
        return None
    tail = s[m.end() :]
    if tail and not _TAIL_OK.match(tail):
        return None
    if tail[:1].isalpha() and len(tail) <= 3 and tail.isalnum() and not tail.isalpha():
        return None  # "4a2": an identifier, not a number
    if re.match(r"^[a-zA-Z]", tail) and re.match(r"^[a-zA-Z]+\d", tail):
        return None  # "5HT2A"-like names
    return (m.group("cmp") or "").replace(" ", "") + m.group("num") + (m.group("exp") or "").replace(" ", "")


def cell_unit(text: str) -> str | None:
    """A unit written right after the cell's number (``127 nM`` -> ``nM``)."""
    s = clean(text)
    m = _LEADING_NUMBER.match(s)
    if m is None:
        return None
    tail = s[m.end() :]
    u = _CELL_UNIT.match(tail)
    if u is None:
        return None
    unit = u.group(1)
    if len(unit) == 1 and unit not in "%MgLs°":
        return None  # a footnote letter ("64f"), not a unit
    return unit


def header_unit(header: str) -> str | None:
    """The unit a header names: the last bracketed piece that reads as one, else a trailing ``in X``."""
    h = _FOOTNOTE_TAIL.sub("", clean(header))
    for piece in reversed(_BRACKETED.findall(h)):
        cand = re.split(r"\s*[±,;]\s*", piece.strip())[0].strip()
        if re.search(r"[A-Z]{2,}\d", cand) or cand[:1].isdigit():
            continue  # an identifier ("CHK2/CHK1") or a label ("[35S]"), not a unit
        plausible = bool(cand) and _UNIT_CHARS.match(cand) is not None and not _NOT_UNIT.match(cand)
        symbol = any(ch.isalpha() or ch in "%$€£¥°" for ch in cand)
        if plausible and len(cand.split()) <= 2 and symbol and not re.fullmatch(r"[A-Z][a-z]{3,}", cand):
            return cand
    m = _TRAILING.search(h)
    if m and _UNIT_CHARS.match(m.group(1)) and not _NOT_UNIT.match(m.group(1)):
        return m.group(1)
    return None


def _is_numeric_row(grid: TableGrid, r: int, first: int) -> bool:
    return any(numeric_value(grid.text(r, c)) for c in range(first, grid.width))


def header_row_count(grid: TableGrid) -> int:
    """How many leading rows are headers."""
    if grid.known_header_rows:
        return max(grid.known_header_rows) + 1
    if grid.marked_header_rows:
        lead = 0
        while lead in grid.marked_header_rows:
            lead += 1
        if lead:
            return lead
    if grid.height < 2:
        return 0
    n = 0
    limit = min(4, grid.height - 1)
    while n < limit and not _is_numeric_row(grid, n, 1):
        n += 1
    return n


def label_columns(grid: TableGrid, first_data: int) -> tuple[int, ...]:
    """The leftmost column, then each next column while its data cells are mostly text."""
    if grid.known_label_cols:
        return grid.known_label_cols
    if grid.width < 2:
        return ()
    cols = [0]
    for c in range(1, min(grid.width - 1, 3)):
        values = [grid.text(r, c) for r in range(first_data, grid.height) if grid.text(r, c)]
        if not values:
            break
        text_share = sum(1 for v in values if numeric_value(v) is None) / len(values)
        if text_share < 0.8:
            break
        cols.append(c)
    return tuple(cols)


@dataclass(frozen=True)
class Structure:
    """Header rows, label columns, and the texts a record copies: header paths and row labels."""

    header_rows: int
    label_cols: tuple[int, ...]
    header_paths: tuple[str, ...]  # one per column
    row_labels: tuple[str, ...]  # one per row ("" for header rows)
    sections: tuple[str, ...]  # per row, the section title above it ("" when none)


def _join(parts: list[str]) -> str:
    out: list[str] = []
    for p in parts:
        if p and (not out or out[-1] != p):
            out.append(p)
    return " / ".join(out)


def structure(grid: TableGrid) -> Structure:
    """Where the headers and row labels are, and the text of each."""
    n_head = header_row_count(grid)
    labels = label_columns(grid, n_head)
    paths = tuple(_join([grid.text(r, c) for r in range(n_head)]) for c in range(grid.width))
    row_labels: list[str] = []
    sections: list[str] = []
    section = ""
    for r in range(grid.height):
        if r < n_head:
            row_labels.append("")
            sections.append("")
            continue
        filled = [c for c in range(grid.width) if grid.text(r, c)]
        distinct = {grid.text(r, c) for c in filled}
        if (
            filled
            and len(distinct) == 1
            and grid.width > 2
            and numeric_value(grid.text(r, filled[0])) is None
        ):
            section = grid.text(r, filled[0])  # a title alone on its row (or spanning it)
        row_labels.append(_join([grid.text(r, c) for c in labels]))
        sections.append(section)
    return Structure(n_head, labels, paths, tuple(row_labels), tuple(sections))


@dataclass(frozen=True)
class TargetCell:
    """A numeric cell the scaffold says needs a record."""

    row: int
    col: int
    text: str  # the whole cell text
    value: str  # its leading number


def target_cells(grid: TableGrid, struct: Structure | None = None) -> list[TargetCell]:
    """Numeric cells outside header rows and label columns, in left-to-right, top-down order."""
    st = struct or structure(grid)
    out: list[TargetCell] = []
    for r in range(grid.height):
        for c in range(grid.width):
            text = grid.text(r, c)
            if r < st.header_rows or c in st.label_cols:
                continue
            value = numeric_value(text)
            if value is not None:
                out.append(TargetCell(r, c, text, value))
    return out

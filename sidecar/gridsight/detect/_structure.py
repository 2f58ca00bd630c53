"""Reading a table's inside: header rows and paths, row-header columns, totals, unit lines."""

from __future__ import annotations

import datetime as dt
import re

import numpy as np

from gridsight.detect._assemble import Skeleton, TextAt
from gridsight.detect._cells import TEXT, VALUE, CellGrid
from gridsight.detect._model import DetectedTable, Label
from gridsight.detect._rows import is_header_row, names_its_columns
from gridsight.detect._segment import Box
from gridsight.grid import Kind, Range, Sheet
from gridsight.text import UNIT as _UNIT

MAX_HEADER_ROWS = 6
PATH_SEP = " › "
_TOTAL = re.compile(r"\b(grand\s+total|totals?|sum|overall|all\s+\w+\s+total)\b", re.IGNORECASE)
_SUBTOTAL = re.compile(r"\b(sub[-\s]?totals?)\b", re.IGNORECASE)
_AGG_FORMULA = re.compile(r"^=\s*(SUM|SUBTOTAL|AGGREGATE)\(", re.IGNORECASE)


def header_rows(g: CellGrid, box: Box) -> list[int]:
    """The leading label rows, when one of them heads the values below (or a header-like row)."""
    rows: list[int] = []
    found = False
    written = 0  # (blank rows between a header's lines do not count: merged cells leave them)
    for r in range(box.top, min(box.bottom, box.top + 2 * MAX_HEADER_ROWS)):
        if not (g.cls[r, box.left : box.right + 1] != 0).any():
            rows.append(r)
            continue
        written += 1
        if written > MAX_HEADER_ROWS:
            break
        header = is_header_row(g, Box(r, box.left, box.bottom, box.right), r)
        if (g.cls[r, box.left : box.right + 1] == VALUE).any() and not header:
            break
        rows.append(r)
        found = found or header
    if not found:
        return [box.top] if names_its_columns(g, box) else []
    while len(rows) > 1 and _stub_only(g, box, rows[-1]):
        rows.pop()  # a section label under the header (``Field crops``) opens the body
    return _label_table_header(g, box, rows) if len(rows) > 1 else rows


def _stub_only(g: CellGrid, box: Box, r: int) -> bool:
    """A row whose one label sits in the table's first column and spans nothing, or whose labels sit
    in its first two columns alone, an outline number before a section's name (``(1) | Equity``)."""
    occ = g.cls[r, box.left : box.right + 1] != 0
    if box.width > 3 and occ[:2].all() and occ.sum() == 2:
        return bool(g.merge_span[r, box.left : box.left + 2].max() < 2)
    return bool(occ[0] and occ.sum() == 1 and g.merge_span[r, box.left] < 2)


def _label_table_header(g: CellGrid, box: Box, rows: list[int]) -> list[int]:
    """The header of a table whose leading rows are all labels. Where values follow, those rows are
    the header; in a table of labels only (a lookup list: Name, Department, Office) they run to its
    end, so the header is the first row plus the rows under it that hang under a merged group label
    or are styled like it (bold, fill, border) while the rows after them are not -- the rest are records."""
    inside = g.cls[box.top : box.bottom + 1, box.left : box.right + 1]
    if (inside == VALUE).any():
        return rows
    cols = slice(box.left, box.right + 1)

    def styled(r: int) -> bool:
        occ = g.cls[r, cols] != 0
        return bool(occ.any() and g.styled[r, cols][occ].mean() >= 0.5)

    keep = 1
    while keep < len(rows):
        r, above = rows[keep], rows[keep - 1]
        group = g.merge_span[above, cols].max(initial=1) >= 2
        after = r + 1 if r < box.bottom else None
        if not (group or (styled(r) and styled(above) and (after is None or not styled(after)))):
            break
        keep += 1
    return rows[:keep]


def _merge_anchor(sheet: Sheet, row: int, col: int) -> tuple[int, int] | None:
    m = sheet.merge_at(row, col)
    return (m.top, m.left) if m is not None else None


def header_paths(sheet: Sheet, g: CellGrid, box: Box, hrows: list[int], text_at: TextAt) -> list[str]:
    """Per column, the labels of every header row from top to bottom: ``Revenue › 2023 › Q1``.

    A merged label covers all its columns; in upper header rows a label also covers the empty
    cells to its right (the common unmerged group-header layout), never in the last header row.
    """
    r0, c0 = g.origin
    out: list[list[str]] = [[] for _ in range(box.width)]
    own = [False] * box.width  # (a label of the column's own, written or merged over it)
    # (the last header row that holds a label: a blank row under the headers spreads nothing, nor
    # makes the row above it an upper one -- ``Restated*`` under one date of two is that date's)
    written = [i for i, r in enumerate(hrows) if (g.cls[r, box.left : box.right + 1] != 0).any()]
    final = written[-1] if written else len(hrows) - 1
    for i, r in enumerate(hrows):
        last = i >= final
        carry = ""
        for j, c in enumerate(range(box.left, box.right + 1)):
            text = _cell_label(sheet, g, r, c, text_at)
            if not text:
                anchor = _merge_anchor(sheet, r + r0, c + c0)
                if anchor is not None:
                    ar, ac = anchor[0] - r0, anchor[1] - c0
                    if 0 <= ar < g.cls.shape[0] and 0 <= ac < g.cls.shape[1]:
                        text = _cell_label(sheet, g, ar, ac, text_at)
            if text:
                # (``Note`` above the note numbers heads that column alone, never the periods beside it)
                carry = text if j > 0 and not NOTE_LABEL.fullmatch(text) else ""
                own[j] = True
            elif not last and carry:
                text = carry
            if text and (not out[j] or out[j][-1] != text):
                out[j].append(text)
    body = slice(hrows[-1] + 1 if hrows else box.top, box.bottom + 1)
    empty = ~(g.cls[body, box.left : box.right + 1] != 0).any(axis=0)
    # (a spacer column between column groups, empty under a label spread over it, heads nothing)
    return [PATH_SEP.join(parts) if own[j] or not empty[j] else "" for j, parts in enumerate(out)]


#: The header of a statement's column of note references (``Note``, ``Notes``, ``Note no.``).
NOTE_LABEL = re.compile(r"\s*(?:notes?|note\s+no\.?|ref\.?)\s*", re.IGNORECASE)


def _cell_label(sheet: Sheet, g: CellGrid, r: int, c: int, text_at: TextAt) -> str:
    if g.cls[r, c] == TEXT:
        return " ".join(text_at(r, c).split())
    if g.cls[r, c] != 0:
        cell = sheet.cell(r + g.origin[0], c + g.origin[1])
        return "" if cell.value is None else _header_text(cell.value)
    return ""


def _header_text(value: object) -> str:
    """A header cell's value as a label: a date as statements write it (``30 June 2024``, not
    ``2024-06-30 00:00:00``), anything else as its text."""
    if isinstance(value, dt.datetime) and value.time() == dt.time(0, 0):
        value = value.date()
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return f"{value.day} {value.strftime('%B')} {value.year}"
    return str(value)


def row_header_cols(g: CellGrid, box: Box, first_data: int) -> list[int]:
    """Leading columns of labels beside value columns (at most three)."""
    if first_data > box.bottom:
        return []
    body = g.cls[first_data : box.bottom + 1, box.left : box.right + 1]
    if not (body == VALUE).any():
        return []
    cols: list[int] = []
    for j in range(min(3, box.width - 1)):
        col = body[:, j]
        occ = col != 0
        if occ.sum() == 0 or (col == TEXT).sum() < 0.7 * occ.sum():
            break
        cols.append(box.left + j)
    years = g.yearish[first_data : box.bottom + 1, box.left]
    rest = g.figures(slice(first_data, box.bottom + 1), slice(box.left + 1, box.right + 1))
    if not cols and _years_down(body[:, 0], years) and rest.any(axis=1).all():
        # (years down the first column, figures beside them: ``2024`` and ``2023`` over quarters
        # ``Q1`` .. ``Q4`` -- the years label the rows)
        cols.append(box.left)
    return cols


def _years_down(col: np.ndarray, years: np.ndarray) -> bool:
    """Whether every filled cell of a column is a year, two at least."""
    filled = col != 0
    return int(filled.sum()) >= 2 and bool((years | ~filled).all())


def total_rows(
    sheet: Sheet, g: CellGrid, box: Box, first_data: int, text_at: TextAt
) -> tuple[list[int], list[int]]:
    totals: list[int] = []
    subs: list[int] = []
    r0, c0 = g.origin
    area = slice(first_data, box.bottom + 1), slice(box.left, box.right + 1)
    is_text = g.cls[area] == TEXT
    has_text = is_text.any(axis=1)
    first_text = np.argmax(is_text, axis=1)  # each row's first label (read once per distinct text)
    has_formula: np.ndarray = np.any(sheet.formula_ids[area] >= 0, axis=1)
    kinds: dict[int, str] = {}  # label id -> "sub", "total" or ""
    for i in np.flatnonzero(has_text | has_formula):
        r = int(i) + first_data
        kind = ""
        if has_text[i]:
            c = box.left + int(first_text[i])
            tid = int(g.label_ids[r, c])
            if tid not in kinds:
                label = text_at(r, c)
                kinds[tid] = "sub" if _SUBTOTAL.search(label) else "total" if _TOTAL.search(label) else ""
            kind = kinds[tid]
        if kind == "sub":
            subs.append(r)
            continue
        if kind == "total":
            totals.append(r)
            continue
        if not has_formula[i]:
            continue
        fids = sheet.formula_ids[r, box.left : box.right + 1]
        forms = [sheet.formulas[f] for f in fids if f >= 0]
        vals = int((g.cls[r, box.left : box.right + 1] == VALUE).sum())
        if forms and vals and sum(1 for f in forms if _AGG_FORMULA.match(f)) >= max(1, vals // 2):
            totals.append(r)
    del r0, c0
    more_totals, more_subs = sums_above(sheet, box, first_data, has_text, {*totals, *subs})
    return sorted({*totals, *more_totals}), sorted({*subs, *more_subs})


#: Rows read when looking for totals by their figures (a register of thousands has none to find).
MAX_SUMMED_ROWS = 2_000
#: How far a published total may sit from the sum of its rounded parts, relative to it.
SUM_TOLERANCE = 0.002


def sums_above(
    sheet: Sheet, box: Box, first_data: int, labelled: np.ndarray, known: set[int]
) -> tuple[list[int], list[int]]:
    """Totals that no word marks (``All ages``): a labelled row that ends its block (the table's last,
    or one before a section label or a marked total) and whose figures are the sums of every ordinary
    row above it, three at least (a total), or of the rows since the last section or total, two at
    least (a subtotal), in every number column it fills -- two at least, or one over five rows."""
    h = box.bottom - first_data + 1
    if h < 3 or h > MAX_SUMMED_ROWS:
        return [], []
    area = slice(first_data, box.bottom + 1), slice(box.left, box.right + 1)
    nums = np.where(sheet.kinds[area] == Kind.NUMBER, sheet.numbers[area], np.nan)
    grand = np.zeros(nums.shape[1])
    section = np.zeros(nums.shape[1])
    n_grand = n_section = 0
    totals: list[int] = []
    subs: list[int] = []
    for i in range(h):
        row, r = nums[i], first_data + i
        filled = ~np.isnan(row)
        if r in known or not filled.any():
            section[:], n_section = 0.0, 0  # a section label or a marked total: the next block
            continue
        ends = i == h - 1 or first_data + i + 1 in known or np.isnan(nums[i + 1]).all()
        if labelled[i] and ends and n_grand >= 2:
            if n_grand >= 3 and _sums(row, filled, grand, n_grand):
                totals.append(r)
                section[:], n_section = 0.0, 0
                continue
            if n_section >= 2 and n_section < n_grand and _sums(row, filled, section, n_section):
                subs.append(r)
                section[:], n_section = 0.0, 0
                continue
        figures = np.nan_to_num(row)
        grand += figures
        section += figures
        n_grand, n_section = n_grand + 1, n_section + 1
    return totals, subs


def _sums(row: np.ndarray, filled: np.ndarray, total: np.ndarray, parts: int) -> bool:
    cols = int(filled.sum())
    if cols < 2 and not (cols == 1 and parts >= 5):
        return False
    got, want = row[filled], total[filled]
    return bool(np.all(np.abs(got - want) <= SUM_TOLERANCE * np.abs(want) + 1e-9) and np.any(want != 0))


def _label(sheet: Sheet, g: CellGrid, b: Box, text_at: TextAt) -> Label:
    r0, c0 = g.origin
    m = sheet.merge_at(b.top + r0, b.left + c0)
    rng = m if m is not None else Range(b.top + r0, b.left + c0, b.bottom + r0, b.right + c0, sheet.name)
    texts = [
        " ".join(text_at(r, c).split())
        for r in range(b.top, b.bottom + 1)
        for c in range(b.left, b.right + 1)
        if g.label_ids[r, c] >= 0
    ]
    # a merged line exported cell by cell repeats its text in every cell: read it once
    texts = [t for i, t in enumerate(texts) if i == 0 or t != texts[i - 1]]
    return Label(rng.with_sheet(sheet.name), " ".join(texts))


def _lines(g: CellGrid, boxes: list[Box]) -> list[Box]:
    """Each occupied row of each label box on its own: one title line, one note, one unit line."""
    out = []
    for b in boxes:
        for r in range(b.top, b.bottom + 1):
            cols = np.flatnonzero(
                (g.cls[r, b.left : b.right + 1] != 0) | (g.label_ids[r, b.left : b.right + 1] >= 0)
            )
            if cols.size:
                out.append(Box(r, b.left + int(cols[0]), r, b.left + int(cols[-1])))
    return out


def build_table(sheet: Sheet, g: CellGrid, sk: Skeleton, text_at: TextAt) -> DetectedTable:
    box = sk.box
    r0, c0 = g.origin
    hrows = header_rows(g, box)
    first_data = (hrows[-1] + 1) if hrows else box.top
    paths = header_paths(sheet, g, box, hrows, text_at) if hrows else [""] * box.width
    totals, subs = total_rows(sheet, g, box, first_data, text_at)
    titles = tuple(_label(sheet, g, t, text_at) for t in _lines(g, sk.titles))
    notes = tuple(_label(sheet, g, n, text_at) for n in _lines(g, sk.notes))
    units = [lab for lab in (*titles, *notes) if _UNIT.search(lab.text) and len(lab.text) <= 60]
    for r in hrows:
        for c in range(box.left, box.right + 1):
            if g.cls[r, c] == TEXT:
                t = " ".join(text_at(r, c).split())
                if _UNIT.search(t) and re.search(r"^\(.*\)$|^(in|usd|eur|gbp|\$|€|£)\b", t, re.IGNORECASE):
                    units.append(Label(Range(r + r0, c + c0, r + r0, c + c0, sheet.name), t))
    rng = Range(box.top + r0, box.left + c0, box.bottom + r0, box.right + c0, sheet.name)
    return DetectedTable(
        range=rng,
        header_rows=tuple(r + r0 for r in hrows),
        header_paths=tuple(paths),
        row_header_cols=tuple(c + c0 for c in row_header_cols(g, box, first_data)),
        titles=titles,
        notes=notes,
        units=tuple(units),
        total_rows=tuple(r + r0 for r in totals),
        subtotal_rows=tuple(r + r0 for r in subs),
    )


def is_table(g: CellGrid, box: Box) -> bool:
    """Big enough and dense enough to be a table rather than a stray label or a paragraph."""
    if box.width < 2 or box.height < 2:
        return False
    sub = g.cls[box.top : box.bottom + 1, box.left : box.right + 1]
    per_row = (sub != 0).sum(axis=1)
    return bool((per_row >= 2).sum() >= 2 and np.count_nonzero(sub) >= 4)

"""The SheetCompressor pipeline: vanilla encoding, then extraction -> translation -> aggregation.

Output formats (all addresses are compact-sheet addresses; :class:`AddressMap` maps them back):

* vanilla (section 3.1): one line per row, ``|A1,Year|B1, |C1,Profit|`` (an empty cell is ``B1, ``);
* without the inverted index: the same row-major layout over the kept rows/columns, with aggregated
  rectangles written once at their top-left cell (``|B2:D9,{IntNum}|``);
* with the inverted index (section 3.3): one line per distinct value, ``A1,B2:B9 value``, empty cells
  left out. Aggregated cells show their number-format string or type label in braces:
  ``C2:C40 {#,##0.00}`` / ``B2:B40 {IntNum}``. Addresses come first and a space separates them from
  the value: cl100k then merges the space into the value's first token, ~9% fewer tokens than the
  paper's ``(value|A1)`` on the shared corpus, at no loss;
* value lists (:mod:`gridsight.encode._lists`): a run of cells whose values occur once is one line,
  its range then the values in order, ``A3:C3 Region|Units|Price`` (an empty item is an empty cell);
  a run repeated at several places is one line with every place, ``A3:C3,A9:C9 Region|Units|Price``.

Values are escaped so that decoding is exact: backslash, newline and carriage return become ``\\\\``,
``\\n``, ``\\r``, in the index ``|`` becomes ``\\|``, and a literal value starting with ``{`` gets a
leading backslash. The address list is everything before the first space of a line (addresses never
hold spaces); the value is the rest, leading spaces included. A line whose value holds an unescaped
``|`` is a list.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from gridsight.encode._anchors import find_anchors
from gridsight.encode._cells import display_block, signatures, valued_cells
from gridsight.encode._lists import list_signatures, value_lists
from gridsight.encode._rects import BOTTOM, KEY, LEFT, RIGHT, TOP, rectangles
from gridsight.encode._remap import AddressMap, AxisMap
from gridsight.encode._semantic import semantic_compress
from gridsight.encode._types import (
    DataType,
    format_type,
    harmonize_columns,
    number_types,
    recognize_text,
    short_format,
)
from gridsight.errors import RangeSyntaxError
from gridsight.grid import MAX_COLS, Kind, Range, Sheet, col_to_letters

ObjArray = npt.NDArray[np.object_]

_TYPE_LABELS = np.array([t.label for t in DataType], dtype=object)
_DATE_LABEL = DataType.DATE.label
_PLAIN_NUMBER = (DataType.INTEGER, DataType.FLOAT)

#: Marks a type/format key among literal keys while keying (never printed).
_TYPE_MARK = "\x01"


@dataclass(frozen=True)
class EncodeOptions:
    """Which SheetCompressor modules run (the paper's ablation switches) and their settings."""

    anchors: bool = True
    k: int = 4
    #: Anchors from detected tables' edges (appendix C's candidate step, see ``_anchors``); ``False``:
    #: every discrepancy line is an anchor, which keeps more of long, varied tables.
    table_anchors: bool = True
    index: bool = True
    aggregate: bool = True
    #: Index only: runs of cells whose values occur once become one line ``A3:C3 a|b|c`` (lossless).
    lists: bool = True
    #: Lossy: row labels of data blocks summarised as ``{TextData}``, long text cut, one number type per
    #: column (see ``_semantic``). On by default: it cost no detection on the shared corpus.
    semantic: bool = True
    #: Vanilla only: append each cell's number format (``|A1,0.5,0%|``); the paper found it hurts.
    formats: bool = False
    #: ``compact``: kept rows/columns renumbered contiguously (section 3.2), mapped back by the
    #: address map; ``original``: every printed address is the sheet's own (ranges split at gaps).
    addresses: Literal["compact", "original"] = "compact"

    def __post_init__(self) -> None:
        if not isinstance(self.k, int) or self.k < 0:
            raise ValueError("k must be a non-negative integer")
        if self.addresses not in ("compact", "original"):
            raise ValueError("addresses must be 'compact' or 'original'")

    @property
    def label(self) -> str:
        """``anchors+index+aggregate`` style; ``index`` without value lists reads ``index(no lists)``."""
        mods = (
            ("anchors" if self.table_anchors else "anchors(lines)", self.anchors),
            ("index" if self.lists else "index(no lists)", self.index),
            ("aggregate", self.aggregate),
            ("semantic", self.semantic),
        )
        parts = [p for p, on in mods if on]
        return "+".join(parts) if parts else "vanilla"


@dataclass(frozen=True)
class SheetEncoding:
    """An encoded sheet: the text the model reads and the map from its addresses to the sheet."""

    sheet: str
    text: str
    options: EncodeOptions
    address_map: AddressMap
    rows: int
    cols: int
    kept_rows: int
    kept_cols: int
    cells: int
    kept_cells: int = 0

    def translate(self, ref: str) -> str:
        """A compact address or range from this encoding -> the original sheet's range text."""
        return self.address_map.translate(ref)


def escape_value(text: str, *, bar: bool = False) -> str:
    """Make a cell value one unambiguous line (see the module docstring); ``bar`` also escapes ``|``,
    the separator of value lists and of the row-major layout."""
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    if "\n" in text or "\r" in text:
        text = text.replace("\n", "\\n").replace("\r", "\\r")
    if bar and "|" in text:
        text = text.replace("|", "\\|")
    if text.startswith("{"):
        text = "\\" + text
    return text


def unescape_value(text: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append({"n": "\n", "r": "\r"}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _letters(cols: int, first: int = 0) -> list[str]:
    return [col_to_letters(c) for c in range(first, min(first + cols, MAX_COLS))]


def vanilla_encoding(sheet: Sheet, *, formats: bool = False) -> str:
    """Section 3.1: every cell of the used range, row-major, with its original address."""
    h, w = sheet.shape
    if h == 0 or w == 0:
        return ""
    r0, c0 = sheet.origin
    texts = display_block(sheet, np.arange(h), np.arange(w))
    letters = _letters(w, c0)
    fmts = np.array(sheet.number_formats, dtype=object)[sheet.format_ids] if formats else None
    lines: list[str] = []
    for i in range(h):
        n = r0 + i + 1
        row = texts[i]
        if fmts is None:
            cells = [f"{letters[j]}{n},{escape_value(t) if t else ' '}" for j, t in enumerate(row.tolist())]
        else:
            frow = fmts[i].tolist()
            cells = [
                f"{letters[j]}{n},{escape_value(t) if t else ' '}"
                + (f",{frow[j]}" if frow[j] != "General" else "")
                for j, t in enumerate(row.tolist())
            ]
        lines.append("|" + "|".join(cells) + "|\n")
    return "".join(lines)


def _plain_number_types(sheet: Sheet) -> npt.NDArray[np.uint8]:
    """Types of the General-formatted numbers over the *whole* sheet, harmonised per column run.

    Harmonising before extraction matters: a column's type is decided by all its values, not by
    the few rows that happen to be kept near anchors."""
    plain_fmt = np.array([format_type(f) is None for f in sheet.number_formats], dtype=bool)
    plain = (sheet.kinds == Kind.NUMBER) & plain_fmt[sheet.format_ids]
    grid = np.zeros(sheet.shape, dtype=np.uint8)
    grid[plain] = number_types(sheet.numbers[plain])
    return harmonize_columns(grid)


def _type_tokens(
    sheet: Sheet, rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp], coarse: bool = False
) -> ObjArray:
    """Per kept cell: the aggregation token (number format string or type label) or None.

    ``coarse`` (semantic compression): a plain number format (``0``, ``#,##0.00``: no currency,
    percent, date or exponent) shows the type it formats, ``IntNum`` or ``FloatNum``, so a column
    whose cells carry ``0`` and ``0.00`` or no format at all is one range."""
    ix = np.ix_(rows, cols)
    kinds = sheet.kinds[ix]
    out = np.full(kinds.shape, None, dtype=object)
    numeric = (kinds == Kind.NUMBER) | (kinds == Kind.DATETIME)
    if numeric.any():
        fids = sheet.format_ids[ix]
        plain = np.zeros(kinds.shape, dtype=bool)
        for fid in np.unique(fids[numeric]).tolist():
            fmt = sheet.number_formats[fid]
            sel = numeric & (fids == fid)
            ftype = format_type(fmt)
            if coarse and ftype in _PLAIN_NUMBER:
                out[sel] = ftype.label
            elif ftype is not None:
                out[sel] = short_format(fmt)  # the paper's NFS, without padding and extra sections
            else:
                plain |= sel
        dates = plain & (kinds == Kind.DATETIME)
        out[dates] = _DATE_LABEL
        plain &= ~dates
        if plain.any():
            grid = _plain_number_types(sheet)[ix]
            out[plain] = _TYPE_LABELS[grid[plain]]
    text = kinds == Kind.TEXT
    if text.any():
        tids = sheet.text_ids[ix][text]
        uniq, inverse = np.unique(tids, return_inverse=True)
        labels_t = []
        for t in uniq.tolist():
            dtype = recognize_text(sheet.texts[t])
            labels_t.append(None if dtype == DataType.OTHERS else dtype.label)
        out[text] = np.array(labels_t, dtype=object)[inverse]
    return out


def _keys(texts: ObjArray, tokens: ObjArray | None) -> tuple[npt.NDArray[np.int64], list[str], int]:
    """Integer keys per cell (numbered in row-major order of first appearance), their printed labels,
    and the key of empty cells. A dict factorises faster than sorting a million Python strings."""
    keyed = texts.copy()
    if tokens is not None:
        agg = tokens != None  # noqa: E711 (element-wise)
        if agg.any():
            keyed[agg] = np.array([_TYPE_MARK + t for t in tokens[agg].tolist()] + [None], dtype=object)[:-1]
    index: dict[str, int] = {}
    setdefault = index.setdefault
    ids = np.array([setdefault(x, len(index)) for x in keyed.ravel().tolist()], dtype=np.int64)
    labels = []
    empty_key = -1
    for i, u in enumerate(index):
        if u == "":
            empty_key = i
            labels.append("")
        elif u.startswith(_TYPE_MARK):
            labels.append("{" + u[1:] + "}")
        else:
            labels.append(escape_value(u, bar=True))
    return ids.reshape(texts.shape), labels, empty_key


class _Placement:
    """Where local kept rows/columns are written: compact numbers (renumbered) or original ones.

    ``row_pos[i]``/``col_pos[j]`` are the 0-based sheet positions printed for kept local row i and
    column j. With original positions a rectangle that spans dropped lines is split at the gaps, so
    each printed range holds only cells that were encoded.
    """

    def __init__(self, row_pos: npt.NDArray[np.int64], col_pos: npt.NDArray[np.int64]) -> None:
        self.row_pos = row_pos
        self.col_pos = col_pos
        self.letters = _letters(int(col_pos[-1]) + 1) if col_pos.size else []
        self.row_runs = self._runs(row_pos)
        self.col_runs = self._runs(col_pos)

    @staticmethod
    def _runs(pos: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Run id per index: consecutive positions share a run."""
        if pos.size == 0:
            return pos
        return np.concatenate(([0], np.cumsum(np.diff(pos) != 1)))

    def _one(self, t: int, left: int, b: int, r: int) -> str:
        L = self.letters
        if t == b and left == r:
            return f"{L[left]}{t + 1}"
        return f"{L[left]}{t + 1}:{L[r]}{b + 1}"

    def _split(self, t: int, left: int, b: int, r: int) -> str:
        """A local rectangle that crosses gaps -> one original range per (row run, column run)."""
        parts = []
        rp, cp = self.row_pos, self.col_pos
        row_cuts = [t, *(np.flatnonzero(np.diff(rp[t : b + 1]) != 1) + t + 1).tolist(), b + 1]
        col_cuts = [left, *(np.flatnonzero(np.diff(cp[left : r + 1]) != 1) + left + 1).tolist(), r + 1]
        for ra, rb in itertools.pairwise(row_cuts):
            for ca, cb in itertools.pairwise(col_cuts):
                parts.append(self._one(int(rp[ra]), int(cp[ca]), int(rp[rb - 1]), int(cp[cb - 1])))
        return ",".join(parts)

    def refs(self, rects: npt.NDArray[np.int64]) -> list[str]:
        """The printed address of each rectangle (local kept coordinates)."""
        if rects.shape[0] == 0:
            return []
        t, left, b, r = (rects[:, i] for i in (TOP, LEFT, BOTTOM, RIGHT))
        whole = (self.row_runs[t] == self.row_runs[b]) & (self.col_runs[left] == self.col_runs[r])
        rp, cp = self.row_pos, self.col_pos
        out = [
            self._one(ta, la, ba, ra)
            for ta, la, ba, ra in zip(
                rp[t].tolist(), cp[left].tolist(), rp[b].tolist(), cp[r].tolist(), strict=True
            )
        ]
        for i in np.flatnonzero(~whole).tolist():
            out[i] = self._split(int(t[i]), int(left[i]), int(b[i]), int(r[i]))
        return out


def _index_text(
    rects: npt.NDArray[np.int64],
    labels: list[str],
    place: _Placement,
    lists: npt.NDArray[np.int64] | None = None,
    keys: npt.NDArray[np.int64] | None = None,
    empty_key: int = -1,
) -> str:
    """Index lines (one per key, addresses row-major) and list lines, ordered by their first cell
    (every line starts at a different cell: list cells are not in ``rects``)."""
    width = max(int(keys.shape[1]) if keys is not None else 0, 1)
    lines: list[str] = []
    positions: list[npt.NDArray[np.int64]] = []
    if rects.shape[0]:
        refs = place.refs(rects)
        kcol = rects[:, KEY]
        order = np.argsort(kcol, kind="stable")  # rects are row-major, so each key's refs stay row-major
        sorted_keys = kcol[order]
        starts = np.concatenate(([0], np.flatnonzero(np.diff(sorted_keys)) + 1))
        ends = np.concatenate((starts[1:], [order.size]))
        first = order[starts]  # each key's first rectangle in row-major order
        positions.append(rects[first, TOP] * width + rects[first, LEFT])
        ordered = [refs[i] for i in order.tolist()]
        for a, b, k in zip(starts.tolist(), ends.tolist(), sorted_keys[starts].tolist(), strict=True):
            ref_text = ordered[a] if b - a == 1 else ",".join(ordered[a:b])
            lines.append(f"{ref_text} {labels[k]}\n")
    if lists is not None and lists.shape[0] and keys is not None:
        list_refs = place.refs(lists)  # the group column stands where refs() ignores the key
        group = lists[:, 4]
        starts = np.concatenate(([0], np.flatnonzero(np.diff(group)) + 1))
        ends = np.concatenate((starts[1:], [group.size]))
        for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
            t, left, bottom, r = lists[a, :4].tolist()
            cells = keys[t : bottom + 1, left : r + 1].ravel().tolist()
            items = "|".join("" if k == empty_key else labels[k] for k in cells)
            lines.append(f"{','.join(list_refs[a:b])} {items}\n")
        positions.append(lists[starts, 0] * width + lists[starts, 1])
    if not lines:
        return ""
    order_all = np.argsort(np.concatenate(positions), kind="stable").tolist()
    return "".join([lines[i] for i in order_all])


def _grid_text(
    keys: npt.NDArray[np.int64],
    labels: list[str],
    empty_key: int,
    rects: npt.NDArray[np.int64] | None,
    place: _Placement,
) -> str:
    """Row-major layout; aggregated rectangles (if any) are written once at their top-left cell."""
    h, w = keys.shape
    covered = np.zeros((h, w), dtype=bool)
    at: dict[tuple[int, int], str] = {}
    if rects is not None and rects.shape[0]:
        for (t, left, b, r, k), ref in zip(rects.tolist(), place.refs(rects), strict=True):
            covered[t : b + 1, left : r + 1] = True
            at[(t, left)] = f"{ref},{labels[k]}"
    letters = [place.letters[c] for c in place.col_pos.tolist()]
    lines: list[str] = []
    for i, pos in enumerate(place.row_pos.tolist()):
        n = pos + 1
        cells: list[str] = []
        krow = keys[i].tolist()
        crow = covered[i].tolist()
        for j in range(w):
            if crow[j]:
                s = at.get((i, j))
                if s is not None:
                    cells.append(s)
                continue
            k = krow[j]
            cells.append(f"{letters[j]}{n},{labels[k] if k != empty_key else ' '}")
        lines.append("|" + "|".join(cells) + "|\n")
    return "".join(lines)


#: A1 references in formula text: optional sheet prefix, cell or cell:cell (not inside strings).
_FORMULA_REF = re.compile(
    r"""("(?:[^"]|"")*")"""  # a string literal: left alone
    r"|((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?"  # sheet prefix
    r"(?<![\w.$])(\$?[A-Za-z]{1,3}\$?\d{1,7})(?::(\$?[A-Za-z]{1,3}\$?\d{1,7}))?(?![\w(!])"
)


def _readdress_formula(formula: str, amap: AddressMap) -> str | None:
    """Formula text with this sheet's references in compact coordinates, or None when a referenced
    row/column was dropped (the text would then hold an address that is not true in either sheet)."""
    failed = False

    def sub(m: re.Match[str]) -> str:
        nonlocal failed
        if m.group(1) is not None:
            return m.group(0)
        prefix = m.group(2)
        if prefix is not None:
            name = prefix[:-1].strip("'").replace("''", "'")
            if name.lower() != amap.sheet.lower():
                return m.group(0)  # another sheet: its own addresses
        corners = [g for g in (m.group(3), m.group(4)) if g]
        out = []
        for ref in corners:
            plain = ref.replace("$", "")
            try:
                compact = amap.to_compact(plain)
            except RangeSyntaxError:
                compact = None
            if compact is None:
                failed = True
                return m.group(0)
            text = compact.ref()
            if "$" in ref:  # keep absolute markers where they were
                col_abs, row_abs = ref.startswith("$"), "$" in ref.lstrip("$")
                letters = text.rstrip("0123456789")
                text = ("$" if col_abs else "") + letters + ("$" if row_abs else "") + text[len(letters) :]
            out.append(text)
        return (prefix or "") + ":".join(out)

    result = _FORMULA_REF.sub(sub, formula)
    return None if failed else result


#: Shown instead of formula text whose references cannot be written in compact coordinates.
FORMULA_TOKEN = "{Formula}"


def encode_sheet(sheet: Sheet, options: EncodeOptions | None = None) -> SheetEncoding:
    """Encode one sheet with the chosen modules (default: every module, k=4, compact addresses).

    Args:
        sheet: any sheet of the workbook model (an empty sheet encodes to '').
        options: module switches; ``EncodeOptions(anchors=False, index=False, aggregate=False,
            semantic=False)`` is the vanilla encoding of section 3.1, and ``semantic=False`` alone
            keeps every value the paper's modules keep.

    Returns:
        The text, its address map (compact -> original), and how much of the sheet was kept.
    """
    opts = options or EncodeOptions()
    h, w = sheet.shape
    r0, c0 = sheet.origin
    ident = AddressMap(sheet.name, AxisMap.identity(), AxisMap.identity())
    if h == 0 or w == 0:
        return SheetEncoding(sheet.name, "", opts, ident, 0, 0, 0, 0, 0)
    if not (opts.anchors or opts.index or opts.aggregate or opts.semantic):
        text = vanilla_encoding(sheet, formats=opts.formats)
        return SheetEncoding(sheet.name, text, opts, ident, h, w, h, w, h * w, h * w)
    if opts.anchors:
        anchors = find_anchors(sheet, opts.k, tables=opts.table_anchors)
        rows, cols = np.flatnonzero(anchors.keep_rows), np.flatnonzero(anchors.keep_cols)
        amap = AddressMap(
            sheet.name, AxisMap.from_kept(r0, anchors.keep_rows), AxisMap.from_kept(c0, anchors.keep_cols)
        )
    else:
        rows, cols = np.arange(h), np.arange(w)
        amap = ident
    compact = opts.addresses == "compact"
    if compact or amap.is_identity:
        place = _Placement(
            r0 + np.arange(rows.size, dtype=np.int64), c0 + np.arange(cols.size, dtype=np.int64)
        )
    else:
        place = _Placement(r0 + rows.astype(np.int64), c0 + cols.astype(np.int64))
        amap = ident  # every printed address is already the original one
    tokens = _type_tokens(sheet, rows, cols, opts.semantic) if opts.aggregate else None
    texts = display_block(sheet, rows, cols, skip=None if tokens is None else tokens != None)  # noqa: E711
    if compact and not amap.is_identity:
        _readdress_formulas(sheet, rows, cols, texts, amap)
    if tokens is not None:
        _blank_out_spaces(sheet, rows, cols, texts)
    codes = signatures(sheet)[np.ix_(rows, cols)] if opts.semantic or (opts.index and opts.lists) else None
    if opts.semantic and codes is not None:
        if tokens is None:
            tokens = np.full(texts.shape, None, dtype=object)
        semantic_compress(sheet, rows, cols, texts, tokens, codes)
    if tokens is not None:
        tokens[texts == ""] = None
    keys, labels, empty_key = _keys(texts, tokens)
    if opts.index:
        rects = rectangles(keys, skip=empty_key)
        lists = None
        if opts.lists:
            literal = np.array([not lab.startswith("{") for lab in labels], dtype=bool)
            assert codes is not None
            roles = list_signatures(codes, valued_cells(sheet, rows, cols))
            rects, lists = value_lists(keys, rects, literal, empty_key, roles, place.row_runs, place.col_runs)
        text = _index_text(rects, labels, place, lists, keys, empty_key)
    else:
        agg_rects = None
        if tokens is not None:
            is_type = np.array([lab.startswith("{") for lab in labels], dtype=bool)
            type_keys = np.where(is_type[keys], keys, -1)
            agg_rects = rectangles(type_keys, skip=-1)
        text = _grid_text(keys, labels, empty_key, agg_rects, place)
    return SheetEncoding(
        sheet.name, text, opts, amap, h, w, int(rows.size), int(cols.size), h * w, int(rows.size * cols.size)
    )


def _blank_out_spaces(
    sheet: Sheet, rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp], texts: ObjArray
) -> None:
    """Aggregation shows a text cell of only spaces as empty: it looks empty on screen, and the vanilla
    encoding already prints it like an empty cell (``|B1, |``). Decided once per distinct string."""
    if not sheet.texts:
        return
    blank = np.array([not t.strip() for t in sheet.texts], dtype=bool)
    if not blank.any():
        return
    ix = np.ix_(rows, cols)
    texts[(sheet.kinds[ix] == Kind.TEXT) & blank[sheet.text_ids[ix]]] = ""


def _readdress_formulas(
    sheet: Sheet, rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp], texts: ObjArray, amap: AddressMap
) -> None:
    """Formula text shown for cells without a cached value, rewritten into compact addresses."""
    ix = np.ix_(rows, cols)
    shown = (sheet.kinds[ix] == Kind.EMPTY) & (sheet.formula_ids[ix] >= 0)
    if not shown.any():
        return
    cache: dict[str, str] = {}
    for i, j in zip(*np.nonzero(shown), strict=True):
        f = str(texts[i, j])
        if f not in cache:
            new = _readdress_formula(f, amap)
            cache[f] = _TYPE_MARK + FORMULA_TOKEN[1:-1] if new is None else new
        texts[i, j] = cache[f]


def _split_items(value: str) -> list[str] | None:
    """A list line's items (still escaped), or None when ``value`` holds no unescaped ``|``."""
    if "|" not in value:
        return None
    items: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            cur.append(value[i : i + 2])
            i += 2
            continue
        if ch == "|":
            items.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    if not items:
        return None
    items.append("".join(cur))
    return items


def decode_index(text: str) -> dict[tuple[int, int], str]:
    """Inverse of the inverted-index text: ``{(row, col): value}`` for every encoded cell (0-based,
    compact coordinates). Type keys come back in braces (``"{IntNum}"``); a list line gives its i-th
    item to the i-th cell of its range. Raises on malformed lines."""
    cells: dict[tuple[int, int], str] = {}

    def put(n: int, ref: str, r: int, c: int, val: str) -> None:
        if (r, c) in cells:
            raise RangeSyntaxError(f"line {n}: {ref} overlaps a cell encoded before")
        cells[(r, c)] = val

    for n, line in enumerate(text.split("\n"), start=1):
        if not line:
            continue
        refs, sep, value = line.partition(" ")
        if not sep:
            raise RangeSyntaxError(f"line {n} has no space between its addresses and its value")
        is_type = value.startswith("{")
        items = None if is_type else _split_items(value)
        if items is not None:
            for ref in refs.split(","):  # a list at several places holds the same items at each
                rng = Range.parse(ref)
                if rng.top != rng.bottom and rng.left != rng.right:
                    raise RangeSyntaxError(f"line {n}: a list needs one row or one column, not {ref}")
                if rng.size != len(items):
                    raise RangeSyntaxError(f"line {n}: {len(items)} items for the {rng.size} cells of {ref}")
                for i, item in enumerate(items):
                    if item:
                        r, c = (rng.top, rng.left + i) if rng.top == rng.bottom else (rng.top + i, rng.left)
                        put(n, ref, r, c, unescape_value(item))
            continue
        val = value if is_type else unescape_value(value)
        for ref in refs.split(","):
            rng = Range.parse(ref)
            for r in range(rng.top, rng.bottom + 1):
                for c in range(rng.left, rng.right + 1):
                    put(n, ref, r, c, val)
    return cells

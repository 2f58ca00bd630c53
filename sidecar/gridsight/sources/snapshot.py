"""snapshot.v1: the JSON the Excel add-in sends (schema in gridsight/schemas/snapshot.v1.schema.json).

``load_snapshot(doc_or_chunks) -> Workbook`` and ``dump_snapshot(workbook) -> dict`` round-trip a
workbook exactly. The payload is untrusted: the document's structure is checked with jsonschema,
and the cells themselves (which jsonschema would check one Python call at a time) are checked
here while they are read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from gridsight.errors import GridSightError, SnapshotError, UnknownSheetError
from gridsight.grid import (
    ERROR_VALUES,
    ExcelTable,
    Kind,
    Range,
    Sheet,
    SheetBuilder,
    Workbook,
    is_date_format,
)

SCHEMA_ID = "gridsight.snapshot.v1"
_TYPE_OF = {
    "e": Kind.EMPTY,
    "n": Kind.NUMBER,
    "s": Kind.TEXT,
    "b": Kind.BOOL,
    "d": Kind.DATETIME,
    "x": Kind.ERROR,
}
_LETTER = {v: k for k, v in _TYPE_OF.items()}


@cache
def snapshot_schema() -> dict[str, Any]:
    """The JSON Schema of snapshot.v1 (shipped inside the package)."""
    text = resources.files("gridsight.schemas").joinpath("snapshot.v1.schema.json").read_text("utf-8")
    return json.loads(text)


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(snapshot_schema())


def _shallow(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document with cell arrays emptied: jsonschema checks the structure, we check cells."""
    out = dict(doc)
    sheets = doc.get("sheets")
    if isinstance(sheets, list):
        out["sheets"] = [
            {k: ([] if k in ("values", "types") and isinstance(v, list) else v) for k, v in s.items()}
            if isinstance(s, dict)
            else s
            for s in sheets
        ]
    return out


def validate_snapshot(doc: Any) -> None:
    """Raise SnapshotError naming the first problem in a snapshot.v1 document."""
    if not isinstance(doc, dict):
        raise SnapshotError(f"a snapshot must be a JSON object, not {type(doc).__name__}")
    errors = sorted(_validator().iter_errors(_shallow(doc)), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(document)"
        raise SnapshotError(f"snapshot.v1 invalid at {where}: {err.message[:300]}")


def _blocks(docs: Sequence[Mapping[str, Any]]) -> tuple[list[str], dict[str, list[Mapping[str, Any]]]]:
    order: list[str] = []
    blocks: dict[str, list[Mapping[str, Any]]] = {}
    for doc in docs:
        for sh in doc["sheets"]:
            name = sh["name"]
            if name not in blocks:
                order.append(name)
                blocks[name] = []
            blocks[name].append(sh)
    return order, blocks


def load_snapshot(
    doc: Mapping[str, Any] | Sequence[Mapping[str, Any]], sheets: Sequence[str] | None = None
) -> Workbook:
    """One snapshot.v1 document, or all chunks of one, -> Workbook."""
    docs = [doc] if isinstance(doc, Mapping) else list(doc)
    if not docs:
        raise SnapshotError("no snapshot documents given")
    for d in docs:
        validate_snapshot(d)
    _check_chunks(docs)
    meta = docs[0].get("workbook") or {}
    date1904 = bool(meta.get("date1904", False))
    order, blocks = _blocks(docs)
    if sheets is not None:
        folded = {n.casefold(): n for n in order}
        chosen = []
        for s in sheets:
            if s.casefold() not in folded:
                raise UnknownSheetError(
                    f"snapshot has no sheet named {s!r}; sheets are: {', '.join(map(repr, order)) or 'none'}"
                )
            chosen.append(folded[s.casefold()])
        order = chosen
    out = [_load_sheet(name, blocks[name], date1904) for name in order]
    return Workbook(out, name=meta.get("name"), date1904=date1904, tables=_tables(meta, order))


def _tables(meta: Mapping[str, Any], order: Sequence[str]) -> tuple[ExcelTable, ...]:
    """The workbook's Excel tables, checked against the sheets the snapshot holds."""
    known = {n.casefold() for n in order}
    out = []
    for doc in meta.get("tables") or ():
        try:
            table = ExcelTable.from_dict(doc)
        except GridSightError as exc:
            raise SnapshotError(f"table {doc.get('name')!r}: {exc}") from None
        if len(table.columns) != table.ref.width:
            raise SnapshotError(
                f"table {table.name!r} has {len(table.columns)} column names for {table.ref.width} columns"
            )
        if table.sheet.casefold() in known:
            out.append(table)
    return tuple(out)


def _check_chunks(docs: Sequence[Mapping[str, Any]]) -> None:
    chunks = [d.get("chunk") for d in docs]
    if len(docs) == 1 and chunks[0] is None:
        return
    if any(c is None for c in chunks):
        raise SnapshotError("when several documents are given, each needs a `chunk` object")
    ids = {c.get("id") for c in chunks if c is not None}
    counts = {c["count"] for c in chunks if c is not None}
    if len(ids) > 1 or len(counts) > 1:
        raise SnapshotError("chunks come from different snapshots (their id or count differ)")
    got = sorted(c["index"] for c in chunks if c is not None)
    if got != list(range(counts.pop())):
        raise SnapshotError(f"incomplete or repeated chunks: got indexes {got[:20]}")


def _iter_areas(mapping: Mapping[str, Any], what: str, name: str) -> Iterator[tuple[Range, Any]]:
    for ref, val in mapping.items():
        try:
            yield Range.parse(ref), val
        except GridSightError as exc:
            raise SnapshotError(f"sheet {name!r} {what}: {exc}") from None


def _load_sheet(name: str, blocks: list[Mapping[str, Any]], date1904: bool) -> Sheet:
    b = SheetBuilder(name, date1904=date1904)
    formats: dict[tuple[int, int], str] = {}
    styles: dict[tuple[int, int], int] = {}
    for blk in blocks:
        for rng, fmt in _iter_areas(blk.get("number_formats") or {}, "number_formats", name):
            _check_area(rng, name)
            for rc in rng.cells():
                formats[rc] = fmt
        for rng, st in _iter_areas(blk.get("styles") or {}, "styles", name):
            _check_area(rng, name)
            for rc in rng.cells():
                styles[rc] = st
    formulas: dict[tuple[int, int], str] = {}
    for blk in blocks:
        for rng, f in _iter_areas(blk.get("formulas") or {}, "formulas", name):
            formulas[(rng.top, rng.left)] = f
        for m in blk.get("merges") or []:
            try:
                b.add_merge(Range.parse(m))
            except GridSightError as exc:
                raise SnapshotError(f"sheet {name!r} merges: {exc}") from None
    seen: set[tuple[int, int]] = set()
    for blk in blocks:
        _load_block(b, blk, name, formats, styles, formulas, seen)
    # Formats, styles and formulas on cells the blocks did not list still count.
    for (r, c), f in formulas.items():
        if (r, c) not in seen:
            b.add(
                r,
                c,
                Kind.EMPTY,
                formula=f,
                fmt_id=b.intern_format(formats.get((r, c))),
                style=styles.get((r, c), 0),
            )
            seen.add((r, c))
    for (r, c), fmt in formats.items():
        if (r, c) not in seen:
            b.add(r, c, Kind.EMPTY, fmt_id=b.intern_format(fmt), style=styles.get((r, c), 0))
            seen.add((r, c))
    for (r, c), st in styles.items():
        if (r, c) not in seen:
            b.add(r, c, Kind.EMPTY, style=st)
    return b.build()


def _check_area(rng: Range, name: str) -> None:
    if rng.size > 25_000_000:
        raise SnapshotError(f"sheet {name!r}: {rng.ref()} is too large an area for a format or style")


def _load_block(
    b: SheetBuilder,
    blk: Mapping[str, Any],
    name: str,
    formats: dict[tuple[int, int], str],
    styles: dict[tuple[int, int], int],
    formulas: dict[tuple[int, int], str],
    seen: set[tuple[int, int]],
) -> None:
    ref = blk.get("range")
    values = blk.get("values")
    types = blk.get("types")
    if ref is None:
        if values or types:
            raise SnapshotError(f"sheet {name!r}: values given without a range")
        return
    rng = Range.parse(ref)
    values = values if values is not None else []
    if len(values) != rng.height:
        raise SnapshotError(
            f"sheet {name!r}: range {rng.ref()} has {rng.height} rows, values has {len(values)}"
        )
    if types is not None and len(types) != rng.height:
        raise SnapshotError(
            f"sheet {name!r}: range {rng.ref()} has {rng.height} rows, types has {len(types)}"
        )
    add, intern_format = b.add, b.intern_format
    for i, row in enumerate(values):
        if not isinstance(row, list) or len(row) != rng.width:
            got = len(row) if isinstance(row, list) else type(row).__name__
            raise SnapshotError(
                f"sheet {name!r}: values row {i} has {got} cells; {rng.ref()} is {rng.width} wide"
            )
        letters = types[i] if types is not None else None
        if letters is not None and (not isinstance(letters, str) or letters.strip("ensbdx")):
            raise SnapshotError(
                f"sheet {name!r}: types row {i} must be a string of the letters e n s b d x, got {letters!r}"[
                    :300
                ]
            )
        if letters is not None and len(letters) != rng.width:
            raise SnapshotError(
                f"sheet {name!r}: types row {i} has {len(letters)} letters; expected {rng.width}"
            )
        r = rng.top + i
        for j, v in enumerate(row):
            c = rng.left + j
            key = (r, c)
            fmt = formats.get(key)
            letter = letters[j] if letters is not None else None
            kind, num, text = _typed(v, letter, fmt, name, r, c)
            formula = formulas.get(key)
            style = styles.get(key, 0)
            if kind == Kind.EMPTY and formula is None and fmt is None and not style:
                continue
            seen.add(key)
            add(r, c, kind, num, text, formula, intern_format(fmt), style)


def _typed(
    v: Any, letter: str | None, fmt: str | None, name: str, r: int, c: int
) -> tuple[int, float, str | None]:
    def bad(msg: str) -> SnapshotError:
        return SnapshotError(f"sheet {name!r} cell {Range(r, c, r, c).ref()}: {msg}")

    if letter is None:
        if v is None:
            return Kind.EMPTY, 0.0, None
        if isinstance(v, bool):
            return Kind.BOOL, float(v), None
        if isinstance(v, int | float):
            return (
                (Kind.DATETIME if is_date_format(fmt) and 0 <= v < 2958466 else Kind.NUMBER),
                float(v),
                None,
            )
        if isinstance(v, str):
            return (Kind.ERROR, 0.0, v) if v in ERROR_VALUES else (Kind.TEXT, 0.0, v)
        raise bad(f"a value must be a number, text, boolean or null, not {type(v).__name__}")
    kind = _TYPE_OF[letter]
    if kind == Kind.EMPTY:
        if v not in (None, ""):
            raise bad("type e (empty) with a value")
        return Kind.EMPTY, 0.0, None
    if kind in (Kind.NUMBER, Kind.DATETIME):
        if (
            isinstance(v, bool)
            or not isinstance(v, int | float)
            or v != v
            or v in (float("inf"), float("-inf"))
        ):
            raise bad(f"type {letter} needs a finite number, got {v!r}"[:200])
        return kind, float(v), None
    if kind == Kind.BOOL:
        if not isinstance(v, bool):
            raise bad(f"type b needs true or false, got {v!r}"[:200])
        return kind, float(v), None
    if not isinstance(v, str):
        raise bad(f"type {letter} needs a string, got {v!r}"[:200])
    if len(v) > 32767:
        raise bad("text longer than Excel's 32,767 characters")
    if kind == Kind.ERROR and v not in ERROR_VALUES:
        raise bad(f"{v!r} is not an Excel error value")
    return kind, 0.0, v


# -- dumping ------------------------------------------------------------------------------------


def _json_number(x: float) -> int | float:
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


def _runs(ids: np.ndarray, origin: tuple[int, int]) -> Iterator[tuple[str, int]]:
    """Non-zero cells as vertical runs: ('B2:B9', id) for each column's run of one id."""
    r0, c0 = origin
    _h, w = ids.shape
    for j in range(w):
        col = ids[:, j]
        nz = np.flatnonzero(col)
        if nz.size == 0:
            continue
        start = prev = int(nz[0])
        for i in [*map(int, nz[1:]), None]:
            if i is not None and i == prev + 1 and col[i] == col[start]:
                prev = i
                continue
            yield Range(r0 + start, c0 + j, r0 + prev, c0 + j).ref(), int(col[start])
            if i is not None:
                start = prev = i


def dump_sheet(sheet: Sheet) -> dict[str, Any]:
    """One sheet -> its snapshot.v1 object (runs of equal formats/styles become ranges)."""
    out: dict[str, Any] = {"name": sheet.name}
    used = sheet.used_range
    out["range"] = used.ref() if used is not None else None
    values: list[list[Any]] = []
    types: list[str] = []
    formulas: dict[str, str] = {}
    if used is not None:
        kinds = sheet.kinds
        h, w = sheet.shape
        for i in range(h):
            row: list[Any] = []
            letters = []
            for j in range(w):
                k = int(kinds[i, j])
                letters.append(_LETTER[Kind(k)])
                if k in (Kind.NUMBER, Kind.DATETIME):
                    row.append(_json_number(float(sheet.numbers[i, j])))
                elif k == Kind.BOOL:
                    row.append(bool(sheet.numbers[i, j]))
                elif k in (Kind.TEXT, Kind.ERROR):
                    row.append(sheet.texts[int(sheet.text_ids[i, j])])
                else:
                    row.append(None)
            values.append(row)
            types.append("".join(letters))
        for i, j in zip(*np.nonzero(sheet.formula_ids >= 0), strict=True):
            ref = Range(used.top + int(i), used.left + int(j), used.top + int(i), used.left + int(j)).ref()
            formulas[ref] = sheet.formulas[int(sheet.formula_ids[i, j])]
    out["values"] = values
    out["types"] = types
    if formulas:
        out["formulas"] = formulas
    fmts = {ref: sheet.number_formats[i] for ref, i in _runs(sheet.format_ids, sheet.origin)}
    if fmts:
        out["number_formats"] = fmts
    sts = dict(_runs(sheet.styles, sheet.origin))
    if sts:
        out["styles"] = sts
    if sheet.merges:
        out["merges"] = [m.ref() for m in sheet.merges]
    return out


def dump_snapshot(workbook: Workbook | Iterable[Sheet], *, name: str | None = None) -> dict[str, Any]:
    """Workbook -> one snapshot.v1 document (the inverse of load_snapshot)."""
    if isinstance(workbook, Workbook):
        sheets, date1904, name = list(workbook.sheets), workbook.date1904, name or workbook.name
    else:
        sheets, date1904 = list(workbook), False
    meta: dict[str, Any] = {"name": name, "date1904": date1904}
    if isinstance(workbook, Workbook) and workbook.tables:
        meta["tables"] = [t.to_dict() for t in workbook.tables]
    return {
        "schema": SCHEMA_ID,
        "workbook": meta,
        "sheets": [dump_sheet(s) for s in sheets],
    }


class SnapshotSource:
    """A snapshot.v1 document (or its chunks) as a Source."""

    name = "officejs"

    def __init__(self, doc: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> None:
        self.doc = doc

    def read(self, sheets: Sequence[str] | None = None) -> Workbook:
        return load_snapshot(self.doc, sheets)

    def close(self) -> None:
        pass

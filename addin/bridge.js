// The Office.js bridge: Excel as a GridSight host.
//
// - snapshot.v1 from the live workbook (values, formulas, number formats, style flags from
//   getCellProperties, merged areas), in row blocks, sent in chunks under Office's 5 MB request cap;
// - kept fresh: worksheet changes (onChanged) send a new snapshot, debounced;
// - editplan.v1 applied with every target cell checked against its expected content first: any
//   difference is a conflict and nothing is written;
// - selection tracking and selecting evidence cells.
//
// Office.js is only present inside Excel; nothing here runs in the plain-browser host.

import { cellRef, colLetters, formatRange, isDateFormat, parseRange, quoteSheet } from "./a1.js";

/** Bytes one upload may carry: well under Office's 5 MB cap, whatever the JSON escaping adds. */
export const CHUNK_BYTES = 4 * 1024 * 1024;
/** Cells read per Excel.run round trip (values + formulas + formats of ~200k cells stay fast). */
export const BLOCK_CELLS = 100_000;
const SCHEMA = "gridsight.snapshot.v1";
const enc = new TextEncoder();

const STYLE = { bold: 1, italic: 2, underline: 4, fill: 8, top: 16, bottom: 32, left: 64, right: 128 };

function typeLetter(valueType, fmt) {
  switch (valueType) {
    case "Empty":
      return "e";
    case "String":
      return "s";
    case "Boolean":
      return "b";
    case "Error":
      return "x";
    case "Integer":
    case "Double":
      return isDateFormat(fmt) ? "d" : "n";
    default:
      return "s";
  }
}

function styleFlags(props) {
  const f = props?.format;
  if (!f) return 0;
  let s = 0;
  if (f.font?.bold) s |= STYLE.bold;
  if (f.font?.italic) s |= STYLE.italic;
  if (f.font?.underline && f.font.underline !== "None") s |= STYLE.underline;
  const fill = (f.fill?.color || "").toUpperCase();
  if (fill && fill !== "#FFFFFF" && fill !== "WHITE") s |= STYLE.fill;
  const b = f.borders || {};
  const edge = (k) => b[k]?.style && b[k].style !== "None";
  if (edge("EdgeTop")) s |= STYLE.top;
  if (edge("EdgeBottom")) s |= STYLE.bottom;
  if (edge("EdgeLeft")) s |= STYLE.left;
  if (edge("EdgeRight")) s |= STYLE.right;
  return s;
}

/** One row block of a sheet as a snapshot.v1 sheet entry (pure: testable without Excel). */
export function blockEntry(name, top, left, values, formulas, formats, valueTypes, props) {
  const h = values.length;
  const w = h ? values[0].length : 0;
  const types = [];
  const outFormulas = {};
  const outFormats = {};
  const styles = {};
  const outValues = [];
  for (let i = 0; i < h; i++) {
    let letters = "";
    const row = [];
    for (let j = 0; j < w; j++) {
      const fmt = formats?.[i]?.[j];
      const t = typeLetter(valueTypes[i][j], fmt);
      letters += t;
      let v = values[i][j];
      if (t === "e") v = null;
      row.push(v === "" && t !== "s" ? null : v);
      const addr = cellRef(top + i, left + j);
      const f = formulas?.[i]?.[j];
      if (typeof f === "string" && f.startsWith("=") && f !== values[i][j]) outFormulas[addr] = f;
      if (fmt && fmt !== "General") outFormats[addr] = fmt;
      const s = styleFlags(props?.[i]?.[j]);
      if (s) styles[addr] = s;
    }
    types.push(letters);
    outValues.push(row);
  }
  const entry = { name, range: formatRange({ top, left, bottom: top + h - 1, right: left + w - 1 }), values: outValues, types };
  if (Object.keys(outFormulas).length) entry.formulas = outFormulas;
  if (Object.keys(outFormats).length) entry.number_formats = outFormats;
  if (Object.keys(styles).length) entry.styles = styles;
  return entry;
}

function rowOf(addr) {
  return Number(/\d+/.exec(addr.split(":")[0])[0]) - 1;
}

/** Split a sheet entry into two by rows (for blocks too big for one request). */
export function splitEntry(e) {
  const r = parseRange(e.range);
  const h = r.bottom - r.top + 1;
  if (h < 2) throw new Error(`one row of sheet ${e.name} is larger than a request may be`);
  const mid = r.top + Math.floor(h / 2);
  const half = (top, bottom) => {
    const keep = (m) => {
      if (!m) return undefined;
      const out = Object.fromEntries(Object.entries(m).filter(([a]) => rowOf(a) >= top && rowOf(a) <= bottom));
      return Object.keys(out).length ? out : undefined;
    };
    const part = {
      name: e.name,
      range: formatRange({ top, left: r.left, bottom, right: r.right }),
      values: e.values.slice(top - r.top, bottom - r.top + 1),
      types: e.types.slice(top - r.top, bottom - r.top + 1),
    };
    for (const k of ["formulas", "number_formats", "styles"]) {
      const v = keep(e[k]);
      if (v) part[k] = v;
    }
    return part;
  };
  const parts = [half(r.top, mid - 1), half(mid, r.bottom)];
  if (e.merges) parts[0].merges = e.merges; // merges may span the cut: they travel whole, once
  return parts;
}

/**
 * Group sheet entries into snapshot.v1 documents of at most `limit` bytes each (one document when
 * everything fits; otherwise every document carries `chunk: {id, index, count}`).
 */
export function packChunks(entries, workbook, limit = CHUNK_BYTES) {
  const docs = [];
  let current = [];
  let size = 0;
  const overhead = enc.encode(JSON.stringify({ schema: SCHEMA, workbook, chunk: { id: "x".repeat(40), index: 99999, count: 99999 } })).length;
  const queue = [...entries];
  while (queue.length) {
    const e = queue.shift();
    const n = enc.encode(JSON.stringify(e)).length + 1;
    if (n + overhead > limit) {
      queue.unshift(...splitEntry(e));
      continue;
    }
    if (current.length && size + n + overhead > limit) {
      docs.push(current);
      current = [];
      size = 0;
    }
    current.push(e);
    size += n;
  }
  if (current.length || !docs.length) docs.push(current);
  if (docs.length === 1) return [{ schema: SCHEMA, workbook, sheets: docs[0] }];
  const id = `snap-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return docs.map((sheets, index) => ({ schema: SCHEMA, workbook, chunk: { id, index, count: docs.length }, sheets }));
}

async function readSheet(ctx, ws, name, withStyles) {
  const used = ws.getUsedRangeOrNullObject(false);
  used.load("rowIndex,columnIndex,rowCount,columnCount");
  await ctx.sync();
  if (used.isNullObject) return [{ name, range: null, values: [], types: [] }];
  const { rowIndex: top, columnIndex: left, rowCount: h, columnCount: w } = used;
  const rowsPer = Math.max(1, Math.floor(BLOCK_CELLS / Math.max(1, w)));
  const entries = [];
  for (let r = 0; r < h; r += rowsPer) {
    const n = Math.min(rowsPer, h - r);
    const rng = ws.getRangeByIndexes(top + r, left, n, w);
    rng.load("values,formulas,numberFormat,valueTypes");
    const props = withStyles
      ? rng.getCellProperties({
          format: {
            font: { bold: true, italic: true, underline: true },
            fill: { color: true },
            borders: { style: true },
          },
        })
      : null;
    await ctx.sync();
    entries.push(
      blockEntry(name, top + r, left, rng.values, rng.formulas, rng.numberFormat, rng.valueTypes, props?.value),
    );
  }
  if (Office.context.requirements.isSetSupported("ExcelApi", "1.13")) {
    const merged = used.getMergedAreasOrNullObject();
    merged.load("areas/items/address");
    await ctx.sync();
    if (!merged.isNullObject) {
      const merges = merged.areas.items.map((a) => formatRange(parseRange(a.address)));
      if (merges.length) entries[0].merges = merges;
    }
  }
  return entries;
}

/** The whole workbook as snapshot.v1 documents (chunked when large). */
export async function buildSnapshot() {
  return Excel.run(async (ctx) => {
    const sheets = ctx.workbook.worksheets;
    sheets.load("items/name,items/visibility");
    const active = ctx.workbook.worksheets.getActiveWorksheet();
    active.load("name");
    await ctx.sync();
    const withStyles = Office.context.requirements.isSetSupported("ExcelApi", "1.9");
    const entries = [];
    for (const ws of sheets.items) entries.push(...(await readSheet(ctx, ws, ws.name, withStyles)));
    const workbook = { name: workbookName(), active_sheet: active.name };
    return packChunks(entries, workbook);
  });
}

function workbookName() {
  const url = Office.context.document?.url || "";
  const last = url.split(/[\\/]/).pop();
  return last || "Workbook";
}

/** Send snapshot documents; returns the new workbook session's info. */
export async function uploadSnapshot(api, docs, journalKey) {
  if (docs.length === 1) return api.post("/workbooks", { snapshot: docs[0], journal_key: journalKey });
  let info = null;
  for (const doc of docs) {
    info = await api.post(`/workbooks/chunks?journal_key=${encodeURIComponent(journalKey)}`, doc);
  }
  return info;
}

/** Whether a cell as Excel reports it still holds what an edit plan expects (formula, else typed value). */
export function sameContent(expected, values, formulas, valueTypes, fmt) {
  const formula = typeof formulas === "string" && formulas.startsWith("=") && formulas !== values ? formulas : null;
  if (expected.formula || formula) return (expected.formula || "").trim() === (formula || "").trim();
  const t = typeLetter(valueTypes, fmt);
  const emptyA = expected.type === "e" || expected.value === null || expected.value === "";
  const emptyB = t === "e" || values === "" || values === null;
  if (emptyA || emptyB) return emptyA && emptyB;
  if (typeof expected.value === "number" && typeof values === "number") {
    return Math.abs(expected.value - values) <= 1e-9 * Math.max(1, Math.abs(values));
  }
  return String(expected.value) === String(values);
}

/**
 * How one edit-plan write reaches a cell: a formula, a clear, or a value. Text always lands as text:
 * Excel parses a value it is given as if typed ("=1+1" becomes a formula, "1e3" a number), so a text
 * value goes with Excel's text marker, a leading apostrophe, which Excel keeps out of the value.
 */
export function cellWrite(w) {
  if (w.formula) return { formula: w.formula };
  if (w.type === "e" || w.value === null || w.value === undefined) return { clear: true };
  if (typeof w.value === "string") return { value: "'" + w.value };
  return { value: w.value };
}

/**
 * Apply an editplan.v1 document: add its `new_sheets` (a sheet of that name already there is a
 * conflict), read every target, compare with `expected`, write only when all match (else the added
 * sheets go again), then delete its `drop_sheets` (an undo's). Returns {ok, written, conflicts}.
 */
export async function applyEditPlan(doc, state = {}) {
  state.applying = true;
  try {
    return await Excel.run(async (ctx) => {
      const sheets = ctx.workbook.worksheets;
      const adding = doc.new_sheets || [];
      const dropping = new Set((doc.drop_sheets || []).map((n) => n.toLowerCase()));
      const there = adding.map((name) => {
        const ws = sheets.getItemOrNullObject(name);
        ws.load("isNullObject");
        return { name, ws };
      });
      await ctx.sync();
      const taken = there.filter((t) => !t.ws.isNullObject);
      if (taken.length) {
        const conflicts = taken.map((t) => ({ sheet: t.name, cell: "", expected: "no such sheet", found: "a sheet of that name" }));
        return { ok: false, written: 0, conflicts };
      }
      const added = adding.map((name) => sheets.add(name));
      const targets = doc.actions.map((a) => {
        const r = sheets.getItem(a.sheet).getRange(a.cell);
        r.load("values,formulas,valueTypes,numberFormat");
        return { a, r };
      });
      await ctx.sync();
      const conflicts = [];
      for (const { a, r } of targets) {
        if (!sameContent(a.expected, r.values[0][0], r.formulas[0][0], r.valueTypes[0][0], r.numberFormat[0][0])) {
          conflicts.push({ sheet: a.sheet, cell: a.cell, expected: a.expected, found: { value: r.values[0][0], formula: r.formulas[0][0] } });
        }
      }
      if (conflicts.length) {
        for (const ws of added) ws.delete(); // nothing written: the sheets this plan added go again
        await ctx.sync();
        return { ok: false, written: 0, conflicts };
      }
      let written = 0;
      for (const { a, r } of targets) {
        if (dropping.has(a.sheet.toLowerCase())) continue; // the whole sheet goes below
        const w = a.write;
        const how = cellWrite(w);
        if (how.formula !== undefined) r.formulas = [[how.formula]];
        else if (how.clear) r.clear("Contents");
        else r.values = [[how.value]];
        if (w.number_format) r.numberFormat = [[w.number_format]];
        written += 1;
      }
      for (const name of doc.drop_sheets || []) sheets.getItem(name).delete();
      await ctx.sync();
      return { ok: true, written, conflicts: [] };
    });
  } finally {
    setTimeout(() => {
      state.applying = false;
    }, 500);
  }
}

/** The host object the pane talks to when it runs inside Excel. */
export function createExcelHost() {
  const listeners = { selection: [], edit: [], stale: [] };
  const state = { applying: false };
  let selection = null;

  async function readSelection() {
    return Excel.run(async (ctx) => {
      const r = ctx.workbook.getSelectedRange();
      r.load("address");
      const ws = r.worksheet;
      ws.load("name");
      const used = ws.getUsedRangeOrNullObject(true);
      used.load("address");
      await ctx.sync();
      const p = parseRange(r.address);
      const u = used.isNullObject ? null : parseRange(used.address);
      return { sheet: ws.name, range: formatRange(p), used: u ? formatRange(u) : null };
    });
  }

  return {
    kind: "excel",
    label: "Excel",
    state,
    async connect(api) {
      const docs = await buildSnapshot();
      const key = docs[0].workbook?.name || "Workbook";
      return uploadSnapshot(api, docs, key);
    },
    async start() {
      Office.context.document.addHandlerAsync(Office.EventType.DocumentSelectionChanged, async () => {
        try {
          selection = await readSelection();
          for (const cb of listeners.selection) cb(selection);
        } catch {
          /* a selection read can fail while Excel is busy: the next change tries again */
        }
      });
      await Excel.run(async (ctx) => {
        ctx.workbook.worksheets.onChanged.add(async (ev) => {
          if (state.applying || ev.source === "Remote") return;
          await Excel.run(async (c2) => {
            const ws = c2.workbook.worksheets.getItem(ev.worksheetId);
            ws.load("name");
            await c2.sync();
            for (const cb of listeners.edit) cb({ sheet: ws.name, range: ev.address });
          });
          for (const cb of listeners.stale) cb();
        });
        await ctx.sync();
      });
      selection = await readSelection();
    },
    async selection() {
      selection = await readSelection();
      return selection;
    },
    onSelection(cb) {
      listeners.selection.push(cb);
    },
    onEdit(cb) {
      listeners.edit.push(cb);
    },
    onStale(cb) {
      listeners.stale.push(cb);
    },
    async select(sheet, range) {
      await Excel.run(async (ctx) => {
        const ws = ctx.workbook.worksheets.getItem(sheet);
        ws.activate();
        ws.getRange(range).select();
        await ctx.sync();
      });
    },
    applyEditPlan(doc) {
      return applyEditPlan(doc, state);
    },
    async showPane() {
      if (Office.addin?.showAsTaskpane) await Office.addin.showAsTaskpane();
    },
    quote: quoteSheet,
    colLetters,
  };
}

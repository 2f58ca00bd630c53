// The sheet preview: a read-only grid rendered from GET /workbooks/{id}/range, where evidence is
// highlighted and a selection can be made (the plain-browser host's stand-in for Excel's grid).

import { colLetters, contains, formatRange, parseRange } from "/addin/a1.js";

const MAX_ROWS = 200;
const MAX_COLS = 30;

function display(v, type) {
  if (v === null || v === undefined) return "";
  if (type === "b") return v ? "TRUE" : "FALSE";
  if (typeof v === "number") {
    if (type === "d") return excelDate(v);
    return Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumFractionDigits: 4 });
  }
  return String(v);
}

function excelDate(serial) {
  const ms = Math.round((serial - 25569) * 86400 * 1000);
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(serial) : d.toISOString().slice(0, 10);
}

export class SheetView {
  constructor(root, { api, onSelect }) {
    this.root = root;
    this.api = api;
    this.onSelect = onSelect;
    this.wid = null;
    this.sheet = null;
    this.block = null; // {top, left, bottom, right}
    this.marks = [];
    this.sel = null;
    this.anchor = null;
    root.addEventListener("mousedown", (e) => this._down(e));
    root.addEventListener("mouseover", (e) => this._over(e));
    window.addEventListener("mouseup", () => this._up());
    root.addEventListener("keydown", (e) => this._key(e));
  }

  async load(wid, sheetInfo, { signal } = {}) {
    this.wid = wid;
    this.sheet = sheetInfo.name;
    const used = sheetInfo.used_range ? parseRange(sheetInfo.used_range) : { top: 0, left: 0, bottom: 0, right: 0 };
    // From A1 (as Excel shows it), one spare row and column so an empty target cell can be picked.
    const block = {
      top: 0,
      left: 0,
      bottom: Math.min(used.bottom + 2, MAX_ROWS - 1),
      right: Math.min(used.right + 1, MAX_COLS - 1),
    };
    const ref = formatRange(block);
    const data = await this.api.get(
      `/workbooks/${encodeURIComponent(wid)}/range?ref=${encodeURIComponent(ref)}&sheet=${encodeURIComponent(this.sheet)}`,
      { signal },
    );
    this.block = block;
    this.data = data;
    this.render();
  }

  render() {
    const { block, data } = this;
    const table = document.createElement("table");
    table.className = "grid";
    const caption = document.createElement("caption");
    caption.className = "visually-hidden";
    caption.textContent = `Sheet ${this.sheet}, ${formatRange(block)}`;
    table.append(caption);
    const head = table.createTHead().insertRow();
    head.append(document.createElement("th"));
    for (let c = block.left; c <= block.right; c++) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = colLetters(c);
      head.append(th);
    }
    const body = table.createTBody();
    for (let r = block.top; r <= block.bottom; r++) {
      const tr = body.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = String(r + 1);
      tr.append(th);
      for (let c = block.left; c <= block.right; c++) {
        const td = tr.insertCell();
        const i = r - block.top;
        const j = c - block.left;
        const type = data.types[i]?.[j] || "e";
        td.textContent = display(data.values[i]?.[j], type);
        td.dataset.r = String(r);
        td.dataset.c = String(c);
        td.dataset.ref = `${colLetters(c)}${r + 1}`;
        if (type === "n" || type === "d") td.classList.add("num");
        const f = data.formulas[td.dataset.ref];
        if (f) {
          td.classList.add("formula");
          td.title = f;
          if (!td.textContent) td.textContent = f; // no cached value (a file never opened in Excel)
        }
      }
    }
    this.root.replaceChildren(table);
    this._paint();
  }

  /** Highlight evidence cells (and scroll to them). */
  async highlight(sheet, range) {
    const r = parseRange(range);
    const target = sheet || r.sheet || this.sheet;
    if (target && target !== this.sheet && this.switchSheet) await this.switchSheet(target);
    this.marks = [r];
    this._paint();
    this.root.querySelector("td.evidence")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  clearMarks() {
    this.marks = [];
    this._paint();
  }

  setSelection(range) {
    this.sel = range;
    this._paint();
  }

  _paint() {
    for (const td of this.root.querySelectorAll("td")) {
      const r = Number(td.dataset.r);
      const c = Number(td.dataset.c);
      td.classList.toggle("evidence", this.marks.some((m) => contains(m, r, c)));
      td.classList.toggle("selected", !!this.sel && contains(this.sel, r, c));
    }
  }

  _cell(e) {
    const td = e.target.closest?.("td");
    return td && this.root.contains(td) ? { row: Number(td.dataset.r), col: Number(td.dataset.c) } : null;
  }

  _down(e) {
    const p = this._cell(e);
    if (!p) return;
    e.preventDefault();
    this.root.focus({ preventScroll: true });
    this.anchor = e.shiftKey && this.sel ? { row: this.sel.top, col: this.sel.left } : p;
    this._extend(p);
    this.dragging = true;
  }

  _over(e) {
    if (!this.dragging) return;
    const p = this._cell(e);
    if (p) this._extend(p);
  }

  _up() {
    if (!this.dragging) return;
    this.dragging = false;
    this._emit();
  }

  _extend(p) {
    const a = this.anchor;
    this.sel = {
      top: Math.min(a.row, p.row),
      left: Math.min(a.col, p.col),
      bottom: Math.max(a.row, p.row),
      right: Math.max(a.col, p.col),
    };
    this._paint();
  }

  _key(e) {
    if (!this.sel) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    const row = Math.max(0, Math.min(this.block.bottom, this.sel.top + m[0]));
    const col = Math.max(0, Math.min(this.block.right, this.sel.left + m[1]));
    this.anchor = { row, col };
    this._extend({ row, col });
    this._emit();
  }

  _emit() {
    if (!this.sel) return;
    const i = this.sel.top - this.block.top;
    const j = this.sel.left - this.block.left;
    const single = this.sel.top === this.sel.bottom && this.sel.left === this.sel.right;
    const empty = single && (this.data.types[i]?.[j] || "e") === "e" && !this.data.formulas[formatRange(this.sel)];
    this.onSelect?.({ sheet: this.sheet, range: formatRange(this.sel), empty });
  }
}

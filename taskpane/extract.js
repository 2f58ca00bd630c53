// The Extract tab: choose a region (the selection or a typed range), paste or pick a schema, preview
// the records as the sidecar streams them (POST /workbooks/{id}/extract), then download them as JSON
// or write them to a new sheet through an edit plan (POST …/extract/sheet, preview, apply, undo).

import { quoteSheet } from "/addin/a1.js";
import { isAbort } from "./api.js";
import { $, el, fmtValue } from "./dom.js";

/** Records shown in the preview table (all of them are kept for the download and the sheet). */
const SHOW_ROWS = 200;
/** Keys of a record that are bookkeeping, not data: left out of the table and the sheet. */
const HIDDEN = new Set(["text", "filled_by"]);

export function recordColumns(records) {
  const cols = ["address", "value", "type"];
  for (const r of records) for (const k of Object.keys(r)) if (!cols.includes(k) && !HIDDEN.has(k)) cols.push(k);
  return cols;
}

export class ExtractPanel {
  constructor(app) {
    this.app = app;
    this.records = [];
    this.ctl = null;
  }

  wire() {
    $("extract-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.run();
    });
    $("extract-use-selection").addEventListener("click", () => this.useSelection(true));
    $("extract-schema-file").addEventListener("change", (e) => this.pickSchema(e.target.files?.[0]));
    $("extract-download").addEventListener("click", () => this.download());
    $("extract-sheet-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.toSheet();
    });
  }

  /** The tab was opened: start from the current selection when no region is typed yet. */
  shown() {
    if (!$("extract-range").value.trim()) this.useSelection(false);
  }

  async useSelection(tell) {
    const sel = await this.app.host.selection?.().catch?.(() => null);
    if (sel?.range) {
      $("extract-range").value = `${quoteSheet(sel.sheet || this.app._sheetName())}!${sel.range}`;
    } else if (tell) {
      this._say("Select the table first (in the sheet, or type its range here).", "error");
    }
  }

  pickSchema(file) {
    if (!file) return;
    if (file.size > 1_000_000) {
      this._say(`${file.name} is larger than 1 MB; a schema is a few lines of JSON.`, "error");
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      $("extract-schema").value = String(reader.result || "");
      this._say(`Schema read from ${file.name}.`);
    };
    reader.onerror = () => this._say(`Could not read ${file.name}.`, "error");
    reader.readAsText(file);
  }

  _say(text, cls = "muted") {
    const p = $("extract-status");
    p.className = `extract-status ${cls}`;
    p.textContent = text;
  }

  async run() {
    const app = this.app;
    const schema = $("extract-schema").value.trim();
    if (!app.wid) return this._say("Open a workbook first.", "error");
    if (!schema) return this._say("Paste a schema (or pick a schema file) first.", "error");
    const range = $("extract-range").value.trim();
    const body = { schema, ...(range ? { range } : { sheet: app._sheetName() }) };
    this.ctl?.abort();
    const ctl = new AbortController();
    this.ctl = ctl;
    const signal = AbortSignal.any ? AbortSignal.any([ctl.signal, app.epoch.signal]) : ctl.signal;
    this.records = [];
    $("extract-actions").hidden = true;
    $("extract-plan").replaceChildren();
    const tbody = el("tbody");
    let cols = [];
    const table = el("table", { class: "answer-table records-table" }, el("thead"), tbody);
    $("extract-records").replaceChildren(table);
    const addRow = (r) => {
      if (this.records.length > SHOW_ROWS) return;
      const now = recordColumns(this.records);
      if (now.length !== cols.length) {
        cols = now;
        table.tHead.replaceChildren(el("tr", {}, cols.map((c) => el("th", { scope: "col", text: c }))));
        for (const tr of tbody.rows) tr.replaceChildren(...cols.map((c) => el("td", { text: fmtValue(tr._rec[c]) })));
      }
      const tr = el("tr", {}, cols.map((c) => el("td", { text: fmtValue(r[c]) })));
      tr._rec = r;
      tbody.append(tr);
    };
    $("extract-run").disabled = true;
    this._say("Reading the region…");
    document.body.dataset.extract = "running";
    try {
      const res = await app.api.stream(`/workbooks/${encodeURIComponent(app.wid)}/extract`, body, {
        signal,
        onEvent: (name, data) => {
          if (name !== "record") return;
          this.records.push(data);
          addRow(data);
          this._say(`${this.records.length} record${this.records.length === 1 ? "" : "s"}…`);
        },
      });
      for (const r of res.records || []) {
        this.records.push(r); // a plain (not streamed) answer
        addRow(r);
      }
      const n = this.records.length;
      const more = n > SHOW_ROWS ? ` (the first ${SHOW_ROWS} are shown)` : "";
      this._say(`${n} record${n === 1 ? "" : "s"}${range ? ` from ${range}` : ""}${more}. Nothing is written until you choose below.`, "done");
      $("extract-actions").hidden = n === 0;
      const canWrite = ["file", "snapshot"].includes(app.info?.kind); // not live Excel through xlwings
      $("extract-to-sheet").disabled = !canWrite;
      $("extract-plan").replaceChildren(
        canWrite ? "" : el("p", { class: "muted small", text: "Writing a new sheet needs a workbook opened from its file or sent by the Excel add-in; here, download the JSON." }),
      );
      document.body.dataset.extract = "done";
    } catch (err) {
      if (isAbort(err)) return;
      document.body.dataset.extract = "failed";
      this._say(err.friendly || String(err), "error");
    } finally {
      $("extract-run").disabled = false;
    }
  }

  /** The records as a JSON file, exactly as previewed. */
  download() {
    const blob = new Blob([JSON.stringify(this.records, null, 2) + "\n"], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: "records.json" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  /** Plan -> preview (nothing written) -> Apply -> Undo, as every other write in the pane. */
  async toSheet() {
    const app = this.app;
    const name = $("extract-sheet").value.trim();
    const out = el("div", { class: "plan", "aria-live": "polite" });
    $("extract-plan").replaceChildren(out);
    if (!name) return out.append(el("p", { class: "error", text: "Give the new sheet a name." }));
    const wid = app.wid;
    const spin = app._spinner(out, "Preparing the sheet…");
    try {
      const plan = await app.api.post(`/workbooks/${encodeURIComponent(wid)}/extract/sheet`, { records: this.records, sheet_name: name });
      const pv = await app.api.post(`/workbooks/${encodeURIComponent(wid)}/plans/${encodeURIComponent(plan.id)}/preview`);
      spin.done();
      const cols = recordColumns(this.records).length;
      out.append(
        el("p", {
          class: "plan-summary",
          text: pv.ok
            ? `Preview: a new sheet “${plan.sheet}” with a header row and ${plan.rows - 1} record rows × ${cols} columns (${pv.cells.length} cells). Nothing is written until you press Apply; Undo removes the sheet again.`
            : `This cannot be applied: ${pv.conflicts} cell(s) changed, ${pv.invalid} invalid.`,
        }),
      );
      const apply = el("button", { type: "button", class: "primary", text: "Apply", disabled: !pv.ok });
      const cancel = el("button", { type: "button", class: "quiet", text: "Cancel", onclick: () => out.remove() });
      apply.addEventListener("click", () => app.applyPlan(out, wid, plan.id, apply, cancel));
      out.append(el("div", { class: "row" }, apply, cancel));
    } catch (err) {
      spin.done();
      out.append(el("p", { class: "error", text: err.friendly || String(err) }));
    }
  }
}

// The task pane: chat with streamed answers and clickable evidence, the sheet map, formula
// preview -> apply -> undo, suggestions while typing, quiet proposals, model status, and errors
// people can act on. Host-neutral: everything Excel-specific is behind `host` (addin/bridge.js),
// everything browser-specific behind the browser host and the sheet preview.

import { formatRange, intersect, parseRange, quoteSheet, rangeSize } from "/addin/a1.js";
import { bindApp } from "/addin/commands.js";
import { GridSightFailure, isAbort } from "./api.js";
import { $, answerLines, el, fmtValue } from "./dom.js";
import { ExtractPanel } from "./extract.js";
import { FolderMode } from "./folder.js";
import { SheetView } from "./sheetview.js";

/** Cells "Explain this region" accepts after clipping the selection to the used range. */
export const EXPLAIN_MAX_CELLS = 200_000;
const SUGGEST_DELAY_MS = 120;
// After this long without a keystroke, ask the sidecar to let the model reorder the suggestions.
const REFINE_IDLE_MS = 900;
/** Failures about the connection itself: shown once in the banner with what to do. */
export const BANNER_CODES = new Set(["offline", "cut_off", "stale_secret", "workbook_gone"]);
const TABS = ["chat", "map", "sheet", "extract"];

function contentText(c) {
  if (!c) return "(empty)";
  if (c.formula) return `${c.formula} → ${fmtValue(c.value)}`;
  if (c.type === "e" || c.value === null || c.value === "") return "(empty)";
  return fmtValue(c.value);
}

export class App {
  constructor({ api, host }) {
    this.api = api;
    this.host = host;
    this.wid = null;
    this.info = null;
    this.features = {};
    this.epoch = new AbortController(); // aborted when the workbook changes: stops every answer
    this.busy = new Set();
    this.suggestSeq = 0;
    this.suggestCtl = null;
    this.sheetView = null;
    this.tab = "chat";
    this.folder = new FolderMode(this);
    this.extract = new ExtractPanel(this);
    bindApp(this);
  }

  // ------------------------------------------------------------------ start-up and connection
  async start() {
    this._wireTabs();
    this._wireComposer();
    this._wireBanner();
    $("workbook-select").addEventListener("change", (e) => this.switchWorkbook(e.target.value));
    $("sheet-select").addEventListener("change", (e) => this._showSheet(e.target.value));
    $("proposal-dismiss").addEventListener("click", () => this._hideProposal());
    if (this.host.kind === "excel") {
      $("tab-sheet").hidden = true; // Excel's own grid is the sheet
    } else {
      this.sheetView = new SheetView($("sheet-view"), {
        api: this.api,
        onSelect: (sel) => this._browserSelect(sel),
      });
      this.sheetView.switchSheet = (name) => this._showSheet(name);
      this.host.attachPreview?.(this.sheetView);
    }
    this.host.onSelection?.((sel) => this._onSelection(sel));
    this.host.onEdit?.((ev) => this._proposeAfterEdit(ev.sheet, ev.range));
    this.host.onStale?.(() => this._scheduleRefresh());
    window.addEventListener("resize", () => this._layout());
    this._layout();
    this.folder.wire();
    this.extract.wire();
    const folder = new URLSearchParams(location.search).get("folder");
    if (folder) this.folder.setMode("folder", folder);
    await this.connect();
    if (folder) await this.folder.open(folder);
  }

  async connect(wantedId = null) {
    this._hideBanner();
    this._status("Connecting to GridSight…");
    try {
      const health = await this.api.get("/health");
      this.features = Object.fromEntries(Object.entries(health.features || {}).map(([k, v]) => [k, !!v.available]));
      try {
        const doc = await this.api.get("/openapi.json");
        const paths = Object.keys(doc.paths || {});
        this.features.ask = paths.some((p) => p.endsWith("/ask"));
        this.features.explain = paths.some((p) => p.endsWith("/explain") && !p.includes("/formula/"));
      } catch {
        /* older sidecar: keep /health's view */
      }
      if (this.host.kind === "excel") this._status("Reading the workbook…");
      const info = await this.host.connect(this.api, wantedId);
      await this.host.start?.();
      await this._useWorkbook(info);
      this._modelStatus();
    } catch (err) {
      this._status("Not connected");
      if (err?.code === "no_workbook" && this.folder.on) this._status("Folder mode: open a folder above");
      else if (err?.code === "no_workbook") this._showOpenForm(err);
      else this.showFailure(err);
    }
  }

  async _useWorkbook(info) {
    this.epoch.abort();
    this.epoch = new AbortController();
    this.wid = info.id;
    this.info = info;
    document.body.dataset.workbook = info.id;
    await this._fillWorkbookSelect();
    const sheets = info.sheets || [];
    $("sheet-select").replaceChildren(...sheets.map((s) => el("option", { value: s.name, text: s.name })));
    const tasks = [this._loadMap()];
    if (this.sheetView && sheets.length) tasks.push(this._showSheet(sheets[0].name));
    await Promise.all(tasks);
  }

  async _fillWorkbookSelect() {
    const select = $("workbook-select");
    let list = [this.info];
    if (this.host.kind !== "excel") {
      try {
        list = (await this.api.get("/workbooks")).workbooks;
      } catch {
        /* keep the one we have */
      }
    }
    select.replaceChildren(
      ...list.map((w) => el("option", { value: w.id, text: w.name || w.id, selected: w.id === this.wid })),
    );
    select.disabled = list.length < 2;
  }

  async switchWorkbook(wid) {
    if (wid === this.wid) return;
    this._hideProposal();
    try {
      const info = await this.api.get(`/workbooks/${encodeURIComponent(wid)}`);
      await this._useWorkbook(info);
      this._note(`Switched to ${info.name || wid}.`);
    } catch (err) {
      this.showFailure(err);
    }
  }

  async _modelStatus() {
    try {
      const m = await this.api.get("/model");
      const name = m.path ? m.path.split(/[\\/]/).pop() : "default model";
      if (m.ready) this._status(`Ready · local model: ${name}${m.file_present ? "" : " (set up on first use)"}`);
      else this._status("Ready · formulas and facts only (local model not installed)");
    } catch {
      this._status("Ready");
    }
    document.body.dataset.ready = "1";
  }

  _scheduleRefresh() {
    clearTimeout(this._refreshTimer);
    this._refreshTimer = setTimeout(async () => {
      if (this.busy.size) return this._scheduleRefresh();
      try {
        const old = this.wid;
        const info = await this.host.connect(this.api);
        this.wid = info.id;
        this.info = info;
        document.body.dataset.workbook = info.id;
        this._loadMap();
        if (old && old !== info.id) this.api.json("DELETE", `/workbooks/${encodeURIComponent(old)}`).catch(() => {});
      } catch (err) {
        this.showFailure(err);
      }
    }, 1500);
  }

  // ------------------------------------------------------------------ banner and status
  _wireBanner() {
    $("banner-retry").addEventListener("click", () => this.connect());
    $("banner-reload").addEventListener("click", () => location.reload());
  }

  _status(text) {
    $("status-line").textContent = text;
  }

  showFailure(err) {
    if (isAbort(err)) return;
    const f = err instanceof GridSightFailure ? err : new GridSightFailure("error", String(err?.message || err));
    $("banner-text").textContent = f.friendly;
    $("banner-reload").hidden = f.code !== "stale_secret";
    $("banner-retry").hidden = f.code === "stale_secret";
    $("banner").hidden = false;
    $("banner").dataset.code = f.code;
    if (f.code === "offline" || f.code === "cut_off") this._status("Not connected");
    if (f.code === "workbook_gone") this.connect();
  }

  _hideBanner() {
    $("banner").hidden = true;
  }

  _showOpenForm(err) {
    const log = $("chat-log");
    const input = el("input", { id: "open-path", type: "text", placeholder: "/path/to/workbook.xlsx", "aria-label": "Workbook path" });
    const form = el(
      "form",
      { class: "open-form" },
      el("p", { text: err.friendly }),
      el("div", { class: "composer-row" }, input, el("button", { type: "submit", text: "Open" })),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const info = await this.api.post("/workbooks", { path: input.value.trim() });
        form.remove();
        await this._useWorkbook(info);
        this._modelStatus();
      } catch (er) {
        this.showFailure(er);
      }
    });
    log.append(el("li", { class: "msg system" }, form));
  }

  // ------------------------------------------------------------------ tabs and layout
  _wireTabs() {
    const tabs = TABS;
    for (const t of tabs) $(`tab-${t}`).addEventListener("click", () => this.showTab(t));
    document.querySelector(".tabs").addEventListener("keydown", (e) => {
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      const visible = tabs.filter((t) => !$(`tab-${t}`).hidden && getComputedStyle($(`tab-${t}`)).display !== "none");
      const i = visible.indexOf(this.tab);
      const next = visible[(i + (e.key === "ArrowRight" ? 1 : visible.length - 1)) % visible.length];
      this.showTab(next);
      $(`tab-${next}`).focus();
    });
  }

  _wide() {
    return window.innerWidth >= 640;
  }

  showTab(name) {
    if (this._wide() && name === "chat") name = this.side || (this.sheetView ? "sheet" : "map");
    this.tab = name;
    if (name !== "chat") this.side = name;
    this._layout();
    if (name === "extract") this.extract.shown();
  }

  _layout() {
    const wide = this._wide();
    document.body.classList.toggle("wide", wide);
    let active = this.tab;
    if (wide && active === "chat") active = this.side || (this.sheetView ? "sheet" : "map");
    for (const t of TABS) {
      const on = t === active;
      $(`tab-${t}`).setAttribute("aria-selected", String(on));
      $(`tab-${t}`).tabIndex = on ? 0 : -1;
      $(`panel-${t}`).hidden = !(on || (wide && t === "chat"));
    }
  }

  // ------------------------------------------------------------------ sheet map and preview
  async _loadMap() {
    const box = $("sheet-map");
    try {
      const doc = await this.api.get(`/workbooks/${encodeURIComponent(this.wid)}/detect`, { signal: this.epoch.signal });
      const parts = [];
      for (const s of doc.sheets) {
        const items = s.tables.map((t) => {
          const label = t.title ? `${t.title} · ${t.range}` : t.range;
          const rows = t.data_range ? parseRange(t.data_range) : null;
          const n = rows ? rows.bottom - rows.top + 1 : 0;
          return el(
            "li",
            { class: "table-card" },
            el("button", { type: "button", class: "link", text: label, onclick: () => this.showEvidence(s.sheet, t.range) }),
            el("span", { class: "muted small", text: ` ${n} row${n === 1 ? "" : "s"}` }),
            el("p", { class: "cols small", text: (t.header_paths || []).join(" · ") }),
            t.units?.length ? el("p", { class: "muted small", text: `Units: ${t.units.map((u) => u.unit || u).join(", ")}` }) : null,
            el("button", {
              type: "button",
              class: "quiet small",
              text: "Explain",
              "aria-label": `Explain ${s.sheet}!${t.range}`,
              onclick: () => this.explainSelection({ sheet: s.sheet, range: t.range }),
            }),
          );
        });
        parts.push(
          el("h3", { class: "sheet-name", text: s.sheet }),
          items.length ? el("ul", { class: "tables" }, items) : el("p", { class: "muted small", text: "No tables found." }),
        );
      }
      box.replaceChildren(...parts);
    } catch (err) {
      if (isAbort(err)) return;
      box.replaceChildren(el("p", { class: "muted", text: err.friendly || String(err) }));
    }
  }

  async _showSheet(name) {
    if (!this.sheetView) return;
    const s = (this.info.sheets || []).find((x) => x.name === name);
    if (!s) return;
    $("sheet-select").value = name;
    try {
      await this.sheetView.load(this.wid, s, { signal: this.epoch.signal });
    } catch (err) {
      if (!isAbort(err)) this.showFailure(err);
    }
  }

  async showEvidence(sheet, range) {
    try {
      if (this.sheetView) this.showTab("sheet"); // wide: beside the chat; narrow: instead of it
      await this.host.select(sheet, range);
    } catch (err) {
      this.showFailure(err);
    }
  }

  _browserSelect(sel) {
    this.host.setSelection?.(sel);
    if (sel.empty) this._proposeAfterEdit(sel.sheet, sel.range, true);
    else this._hideProposal();
  }

  _onSelection(sel) {
    this.currentSheet = sel?.sheet || this.currentSheet;
  }

  _sheetName() {
    return this.currentSheet || this.sheetView?.sheet || this.info?.sheets?.[0]?.name;
  }

  // ------------------------------------------------------------------ chat
  _note(text) {
    $("chat-log").append(el("li", { class: "msg system", text }));
  }

  _bubble(cls) {
    $("chat-hint")?.remove();
    const li = el("li", { class: `msg ${cls}` });
    $("chat-log").append(li);
    li.scrollIntoView({ block: "end" });
    return li;
  }

  _spinner(li, text) {
    const sp = el("p", { class: "working", role: "status" }, el("span", { class: "dot", "aria-hidden": "true" }), el("span", { text }));
    li.setAttribute("aria-busy", "true");
    li.append(sp);
    return {
      set: (t) => {
        sp.lastChild.textContent = t;
      },
      done: () => {
        sp.remove();
        li.removeAttribute("aria-busy");
      },
    };
  }

  _evidence(items, sheet) {
    const chips = [];
    for (const ev of items || []) {
      const rangeText = typeof ev === "string" ? ev : ev.range;
      let sh = typeof ev === "string" ? null : ev.sheet;
      let rng = rangeText;
      try {
        const p = parseRange(rangeText);
        if (p.sheet) sh = p.sheet;
        rng = formatRange(p);
      } catch {
        continue;
      }
      sh = sh || sheet || this._sheetName();
      const label = sh === this._sheetName() ? rng : `${sh}!${rng}`;
      chips.push(
        el("button", {
          type: "button",
          class: "chip",
          text: label,
          "aria-label": `Show cells ${quoteSheet(sh)}!${rng}`,
          "data-sheet": sh,
          "data-range": rng,
          onclick: () => this.showEvidence(sh, rng),
        }),
      );
    }
    return chips.length ? el("p", { class: "evidence-row" }, el("span", { class: "muted small", text: "From " }), chips) : null;
  }

  async ask(text) {
    if (this.folder.on) return this.folder.ask(text);
    text = text.trim();
    if (!text || !this.wid) return;
    this._closeSuggestions();
    $("ask-input").value = "";
    this._bubble("user").textContent = text;
    const li = this._bubble("answer");
    const spin = this._spinner(li, "Reading the workbook…");
    const signal = this.epoch.signal;
    const wid = this.wid;
    const token = {};
    this.busy.add(token);
    try {
      let answer;
      const sheet = this._sheetName();
      if (this.features.ask) {
        const res = await this.api.stream(
          `/workbooks/${encodeURIComponent(wid)}/ask`,
          { question: text, ...(sheet ? { sheet } : {}) },
          { signal, onEvent: (name, data) => spin.set(progressText(name, data)) },
        );
        answer = res.answer || res;
      } else {
        const g = await this.api.post(`/workbooks/${encodeURIComponent(wid)}/formula/generate`, { request: text, ...(sheet ? { sheet } : {}) }, { signal });
        answer = {
          question: text,
          status: g.formula ? "answered" : "abstained",
          value: g.value,
          formula: g.formula,
          evidence: g.evidence,
          explanation: g.explanation,
          reason: g.reason,
          confidence: g.confidence,
          closest: g.closest_columns,
        };
      }
      spin.done();
      this._renderAnswer(li, answer, sheet);
    } catch (err) {
      spin.done();
      if (isAbort(err)) li.append(el("p", { class: "muted", text: "Stopped: you switched to another workbook. Nothing was written." }));
      else this._failIn(li, err);
    } finally {
      this.busy.delete(token);
    }
  }

  _renderAnswer(li, a, sheet) {
    li.dataset.status = a.status || "answered";
    if (a.status === "abstained" || (!a.formula && a.value === undefined && !a.display)) {
      li.append(el("p", { class: "abstain", text: a.reason || "I could not answer that from this workbook." }));
      if (a.closest?.length) li.append(el("p", { class: "muted small", text: `Columns that come close: ${a.closest.join(", ")}` }));
      const ev = this._evidence(a.evidence, sheet);
      if (ev) li.append(ev);
      return;
    }
    li.append(...answerLines(a));
    const ev = this._evidence(a.evidence, sheet);
    if (ev) li.append(ev);
    if (a.table?.rows?.length) li.append(renderTable(a.table));
    if (a.formula) {
      li.append(
        el("div", { class: "row" }, el("button", {
          type: "button",
          class: "small",
          text: "Put in a cell…",
          onclick: (e) => {
            e.target.disabled = true;
            this.placeFormula(li, a.formula, a.evidence, sheet);
          },
        })),
      );
    }
  }

  // ------------------------------------------------------------------ formula: place, preview, apply, undo
  async _defaultTarget(evidence, sheet) {
    const sel = await this.host.selection?.().catch?.(() => null);
    if (sel?.range && !sel.range.includes(":") && (this.host.kind === "excel" || sel.empty)) return { sheet: sel.sheet, cell: sel.range };
    const first = (evidence || [])[0];
    if (!first) return { sheet, cell: "" };
    const p = parseRange(typeof first === "string" ? first : first.range);
    const sh = p.sheet || (typeof first === "object" && first.sheet) || sheet;
    // The first empty cell below the evidence, in its first column.
    const ref = formatRange({ top: p.bottom + 1, left: p.left, bottom: p.bottom + 20, right: p.left });
    try {
      const data = await this.api.get(`/workbooks/${encodeURIComponent(this.wid)}/range?ref=${encodeURIComponent(ref)}&sheet=${encodeURIComponent(sh)}`);
      const k = data.types.findIndex((t, i) => t === "e" && !data.formulas[formatRange({ top: p.bottom + 1 + i, left: p.left, bottom: p.bottom + 1 + i, right: p.left })]);
      return { sheet: sh, cell: formatRange({ top: p.bottom + 1 + Math.max(0, k), left: p.left, bottom: p.bottom + 1 + Math.max(0, k), right: p.left }) };
    } catch {
      return { sheet: sh, cell: formatRange({ top: p.bottom + 1, left: p.left, bottom: p.bottom + 1, right: p.left }) };
    }
  }

  async placeFormula(li, formula, evidence, sheet) {
    const target = await this._defaultTarget(evidence, sheet);
    const id = `cell-${Math.random().toString(36).slice(2, 8)}`;
    const cellInput = el("input", { id, type: "text", value: target.cell, size: "8", class: "cell-input" });
    const box = el(
      "form",
      { class: "place" },
      el("label", { for: id, text: `Write ${formula} into ${target.sheet ? `${target.sheet}!` : ""}` }),
      el("div", { class: "row" }, cellInput, el("button", { type: "submit", text: "Preview" })),
    );
    box.addEventListener("submit", (e) => {
      e.preventDefault();
      this.previewPlan(box, [{ sheet: target.sheet, cell: cellInput.value.trim(), formula }], `Write ${formula}`);
    });
    li.append(box);
    cellInput.focus();
  }

  async previewPlan(box, writes, description) {
    const old = box.querySelector(".plan");
    old?.remove();
    const out = el("div", { class: "plan", "aria-live": "polite" });
    box.append(out);
    const spin = this._spinner(out, "Checking the formula…");
    const wid = this.wid;
    try {
      const plan = await this.api.post(`/workbooks/${encodeURIComponent(wid)}/plans`, { writes, description });
      const pv = await this.api.post(`/workbooks/${encodeURIComponent(wid)}/plans/${encodeURIComponent(plan.id)}/preview`);
      spin.done();
      const rows = pv.cells.map((c) => {
        const chk = c.formula_check;
        const verdict = c.conflict ? "changed since read" : c.problems.length ? c.problems.join("; ") : chk ? (chk.ok ? "valid" : (chk.problems || []).join("; ")) : "ok";
        return el(
          "tr",
          { class: c.conflict || c.problems.length ? "bad" : "good" },
          el("th", { scope: "row", text: `${c.sheet}!${c.cell}` }),
          el("td", { class: "before", text: contentText(c.before) }),
          el("td", { class: "after", text: contentText(c.after) }),
          el("td", { class: "check", text: verdict }),
        );
      });
      out.append(
        el(
          "table",
          { class: "preview-table" },
          el("caption", { text: pv.ok ? "Preview: nothing is written until you press Apply" : "Preview: this cannot be applied" }),
          el("thead", {}, el("tr", {}, el("th", { text: "Cell" }), el("th", { text: "Before" }), el("th", { text: "After" }), el("th", { text: "Check" }))),
          el("tbody", {}, rows),
        ),
      );
      const apply = el("button", { type: "button", class: "primary", text: "Apply", disabled: !pv.ok });
      const cancel = el("button", { type: "button", class: "quiet", text: "Cancel", onclick: () => out.remove() });
      apply.addEventListener("click", () => this.applyPlan(out, wid, plan.id, apply, cancel));
      out.append(el("div", { class: "row" }, apply, cancel));
    } catch (err) {
      spin.done();
      out.append(el("p", { class: "error", text: err.friendly || String(err) }));
    }
  }

  async applyPlan(out, wid, pid, apply, cancel) {
    apply.disabled = cancel.disabled = true;
    const spin = this._spinner(out, "Writing…");
    try {
      const res = await this.api.post(`/workbooks/${encodeURIComponent(wid)}/plans/${encodeURIComponent(pid)}/apply`);
      if (res.editplan) {
        const done = await this.host.applyEditPlan(res.editplan);
        if (!done.ok) {
          await this.api.post(`/workbooks/${encodeURIComponent(wid)}/undo`).catch(() => {}); // keep the journal true
          spin.done();
          out.append(el("p", { class: "error", text: `Nothing was written: ${done.conflicts.map((c) => `${c.sheet}!${c.cell}`).join(", ")} changed since GridSight read it. Try again.` }));
          this._scheduleRefresh();
          return;
        }
      }
      spin.done();
      const n = res.cells_written ?? 0;
      const where = res.path ? ` and saved ${res.path.split(/[\\/]/).pop()} (backup kept)` : "";
      const msg = el("p", { class: "done", text: `Wrote ${n} cell${n === 1 ? "" : "s"}${where}.` });
      const undo = el("button", { type: "button", class: "small", text: "Undo" });
      undo.addEventListener("click", () => this.undo(out, wid, undo));
      out.append(msg, el("div", { class: "row" }, undo));
      await this._afterWrite();
    } catch (err) {
      spin.done();
      out.append(el("p", { class: "error", text: err.friendly || String(err) }));
    }
  }

  async undo(out, wid, button) {
    button.disabled = true;
    const spin = this._spinner(out, "Undoing…");
    try {
      const res = await this.api.post(`/workbooks/${encodeURIComponent(wid)}/undo`);
      if (res.editplan) {
        const done = await this.host.applyEditPlan(res.editplan);
        if (!done.ok) throw new GridSightFailure("conflict", "Those cells changed again since; nothing was undone in Excel.");
      }
      spin.done();
      const n = res.cells_restored ?? 0;
      out.append(el("p", { class: "done", text: `Undone: restored ${n} cell${n === 1 ? "" : "s"}.` }));
      await this._afterWrite();
    } catch (err) {
      spin.done();
      out.append(el("p", { class: "error", text: err.friendly || String(err) }));
    }
  }

  async _afterWrite() {
    try {
      this.info = await this.api.get(`/workbooks/${encodeURIComponent(this.wid)}`);
      const shown = $("sheet-select").value;
      $("sheet-select").replaceChildren(...(this.info.sheets || []).map((s) => el("option", { value: s.name, text: s.name, selected: s.name === shown })));
    } catch {
      /* the preview keeps its old picture */
    }
    if (this.sheetView?.sheet) await this._showSheet(this.sheetView.sheet);
    this._loadMap();
  }

  // ------------------------------------------------------------------ explain this region
  async explainSelection(sel) {
    if (!this._wide()) this.showTab("chat");
    if (!sel || !sel.range) {
      this._note("Select some cells first (click or drag in the sheet), then choose Explain this region.");
      return null;
    }
    let region;
    try {
      region = parseRange(sel.range);
    } catch {
      this._note(`“${sel.range}” is not a range GridSight can read.`);
      return null;
    }
    const sheet = sel.sheet || region.sheet || this._sheetName();
    const info = (this.info?.sheets || []).find((s) => s.name === sheet);
    const usedText = sel.used || info?.used_range;
    const asked = rangeSize(region);
    if (usedText) {
      const clipped = intersect(region, parseRange(usedText));
      if (!clipped) {
        this._note(`${sheet}!${formatRange(region)} is empty: there is nothing to explain there.`);
        return null;
      }
      region = clipped;
    }
    const li0 = this._bubble("user");
    li0.textContent = `Explain ${quoteSheet(sheet)}!${formatRange(region)}`;
    const li = this._bubble("answer explain");
    if (rangeSize(region) > EXPLAIN_MAX_CELLS) {
      li.append(
        el("p", {
          class: "error",
          text: `That selection holds ${rangeSize(region).toLocaleString("en-US")} cells${asked !== rangeSize(region) ? ` (of ${asked.toLocaleString("en-US")} selected)` : ""}; GridSight explains up to ${EXPLAIN_MAX_CELLS.toLocaleString("en-US")} at a time. Select one table or block and try again.`,
        }),
      );
      return null;
    }
    const spin = this._spinner(li, "Looking at the region…");
    const facts = el("ul", { class: "facts" });
    li.append(facts);
    const token = {};
    this.busy.add(token);
    try {
      const res = await this.api.stream(
        `/workbooks/${encodeURIComponent(this.wid)}/explain`,
        { range: formatRange(region), sheet },
        {
          signal: this.epoch.signal,
          onEvent: (name, data) => {
            if (name === "fact") facts.append(this._fact(data, sheet));
            else spin.set(progressText(name, data));
          },
        },
      );
      spin.done();
      const r = res.region || res;
      li.dataset.status = "explained";
      facts.replaceChildren(...(r.facts || []).map((f) => this._fact(f, sheet)));
      const said = (r.facts || []).map((f) => f.text).join(" ");
      if (r.summary && r.summary !== said) li.insertBefore(el("p", { class: "summary", text: r.summary }), facts);
      li.dataset.summary = r.summary || "";
      return r;
    } catch (err) {
      spin.done();
      if (isAbort(err)) li.append(el("p", { class: "muted", text: "Stopped: you switched to another workbook." }));
      else this._failIn(li, err);
      return null;
    } finally {
      this.busy.delete(token);
    }
  }

  /** A failed answer: connection-level problems go to the banner (once), the bubble says so briefly. */
  _failIn(li, err) {
    if (BANNER_CODES.has(err.code)) {
      this.showFailure(err);
      li.append(el("p", { class: "error", text: "No answer: GridSight could not be reached (see the note above). Nothing was written." }));
    } else li.append(el("p", { class: "error", text: err.friendly || String(err) }));
  }

  _fact(f, sheet) {
    const chips = this._evidence(f.cells || [], sheet);
    return el("li", {}, el("span", { text: f.text }), chips ? " " : null, chips);
  }

  // ------------------------------------------------------------------ suggestions while typing
  _wireComposer() {
    const input = $("ask-input");
    $("composer").addEventListener("submit", (e) => {
      e.preventDefault();
      const active = this._activeSuggestion();
      if (active) return this._take(active);
      this.ask(input.value);
    });
    input.addEventListener("input", () => {
      clearTimeout(this._suggestTimer);
      clearTimeout(this._refineTimer);
      this._suggestTimer = setTimeout(() => this._suggest(input.value), SUGGEST_DELAY_MS);
    });
    input.addEventListener("keydown", (e) => this._suggestKeys(e));
    input.addEventListener("blur", () => setTimeout(() => this._closeSuggestions(), 150));
  }

  async _suggest(text) {
    this.suggestCtl?.abort(); // the newest keystroke wins: older requests are cancelled
    const seq = ++this.suggestSeq;
    if (text.trim().length < 2 || !this.wid || this.folder.on) return this._closeSuggestions();
    const ctl = new AbortController();
    this.suggestCtl = ctl;
    const sheet = this._sheetName();
    try {
      const res = await this.api.post(
        `/workbooks/${encodeURIComponent(this.wid)}/formula/suggest`,
        { partial: text, limit: 6, ...(sheet ? { sheet } : {}) },
        { signal: ctl.signal },
      );
      if (seq !== this.suggestSeq) return; // stale
      this._showSuggestions(res.suggestions || []);
      if ((res.suggestions || []).length >= 2) {
        this._refineTimer = setTimeout(() => this._refine(text, seq), REFINE_IDLE_MS);
      }
    } catch (err) {
      if (!isAbort(err) && seq === this.suggestSeq) this._closeSuggestions();
    }
  }

  // The user paused: the model may move the suggestion it judges they mean to the top. A keystroke
  // aborts it (and the sidecar cancels it in the model queue); any failure keeps the list as it is.
  async _refine(text, seq) {
    if (seq !== this.suggestSeq || $("suggestions").hidden) return;
    const ctl = new AbortController();
    this.suggestCtl = ctl;
    const sheet = this._sheetName();
    try {
      const res = await this.api.post(
        `/workbooks/${encodeURIComponent(this.wid)}/formula/suggest`,
        { partial: text, limit: 6, refine: true, ...(sheet ? { sheet } : {}) },
        { signal: ctl.signal },
      );
      if (seq === this.suggestSeq && !$("suggestions").hidden) this._showSuggestions(res.suggestions || []);
    } catch {
      // refinement is optional: the rule-built list stays
    }
  }

  _showSuggestions(items) {
    const list = $("suggestions");
    const input = $("ask-input");
    if (!items.length) return this._closeSuggestions();
    list.replaceChildren(
      ...items.map((s, i) =>
        el(
          "li",
          {
            id: `sugg-${i}`,
            role: "option",
            "aria-selected": "false",
            "data-text": s.text,
            onmousedown: (e) => {
              e.preventDefault();
              this._take(e.currentTarget);
            },
          },
          el("span", { class: "s-text", text: s.text }),
          s.formula ? el("code", { class: "s-formula", text: s.formula }) : null,
        ),
      ),
    );
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    input.removeAttribute("aria-activedescendant");
  }

  _closeSuggestions() {
    $("suggestions").hidden = true;
    $("suggestions").replaceChildren();
    $("ask-input").setAttribute("aria-expanded", "false");
    $("ask-input").removeAttribute("aria-activedescendant");
  }

  _activeSuggestion() {
    const id = $("ask-input").getAttribute("aria-activedescendant");
    return id ? document.getElementById(id) : null;
  }

  _suggestKeys(e) {
    const list = $("suggestions");
    if (list.hidden) return;
    const items = [...list.children];
    const cur = this._activeSuggestion();
    let i = cur ? items.indexOf(cur) : -1;
    if (e.key === "ArrowDown") i = (i + 1) % items.length;
    else if (e.key === "ArrowUp") i = (i - 1 + items.length) % items.length;
    else if (e.key === "Escape") {
      e.preventDefault();
      return this._closeSuggestions();
    } else if (e.key === "Tab" && cur) {
      e.preventDefault();
      return this._take(cur);
    } else return;
    e.preventDefault();
    for (const it of items) it.setAttribute("aria-selected", "false");
    items[i].setAttribute("aria-selected", "true");
    items[i].scrollIntoView({ block: "nearest" });
    $("ask-input").setAttribute("aria-activedescendant", items[i].id);
  }

  _take(item) {
    const input = $("ask-input");
    input.value = item.dataset.text;
    this.suggestCtl?.abort();
    this.suggestSeq++;
    this._closeSuggestions();
    input.focus();
  }

  // ------------------------------------------------------------------ quiet proposals
  async _proposeAfterEdit(sheet, range, isTarget = false) {
    clearTimeout(this._proposeTimer);
    this._proposeTimer = setTimeout(async () => {
      try {
        const p = parseRange(range);
        // After an edit: the cell below it (fill down) is the natural next step; a clicked empty
        // cell is itself the target.
        const cell = isTarget ? formatRange(p) : formatRange({ top: p.bottom + 1, left: p.left, bottom: p.bottom + 1, right: p.left });
        const res = await this.api.post(`/workbooks/${encodeURIComponent(this.wid)}/formula/fill`, { cell, sheet }, { signal: this.epoch.signal });
        if (!res.proposal) return this._hideProposal();
        const pr = res.proposal;
        const like = pr.based_on?.length ? ` like ${pr.based_on.join(", ")}` : "";
        $("proposal-text").textContent = `${sheet}!${res.cell}: fill ${pr.formula}${like}${pr.value !== null && pr.value !== undefined ? ` (gives ${fmtValue(pr.value)})` : ""}?`;
        $("proposal").hidden = false;
        $("proposal-accept").onclick = () => {
          this._hideProposal();
          const li = this._bubble("answer");
          li.append(el("p", { class: "explanation", text: `Fill ${res.cell} with ${pr.formula}${like}.` }));
          const box = el("div", { class: "place" });
          li.append(box);
          this.previewPlan(box, [{ sheet, cell: res.cell, formula: pr.formula }], `Fill ${res.cell}`);
          if (!this._wide()) this.showTab("chat");
        };
      } catch {
        this._hideProposal();
      }
    }, 300);
  }

  _hideProposal() {
    $("proposal").hidden = true;
  }
}

function progressText(name, data) {
  if (data && typeof data === "object") {
    if (data.message) return data.message;
    if (data.stage) return `${data.stage}…`;
    if (data.step) return `${data.step}…`;
  }
  return name === "progress" ? "Working…" : `${name}…`;
}

function renderTable(t) {
  const cols = t.columns || [];
  const rows = (t.rows || []).slice(0, 20);
  return el(
    "table",
    { class: "answer-table" },
    el("thead", {}, el("tr", {}, cols.map((c) => el("th", { text: String(c) })))),
    el("tbody", {}, rows.map((r) => el("tr", {}, (Array.isArray(r) ? r : cols.map((c) => r[c])).map((v) => el("td", { text: fmtValue(v) }))))),
  );
}

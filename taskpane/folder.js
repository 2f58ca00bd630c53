// Folder mode: the pane asks about every spreadsheet in a folder on this computer instead of one
// workbook. The sidecar indexes the folder (POST /libraries, progress streamed file by file) and
// answers across its files (POST /libraries/{id}/ask); evidence chips name the file, and in the
// browser and desktop window a chip opens that file in the sheet view with the cells marked.

import { isAbort } from "./api.js";
import { $, answerLines, el } from "./dom.js";

const LAST_FOLDER = "gridsight.folder";

export class FolderMode {
  constructor(app) {
    this.app = app;
    this.on = false;
    this.lib = null; // the opened library's info
    this.opened = new Map(); // file -> workbook id, for evidence
    this.ctl = null;
    this.opening = null; // the newest open(), while it runs and after
  }

  wire() {
    for (const radio of document.querySelectorAll('input[name="mode"]')) {
      radio.addEventListener("change", (e) => this.setMode(e.target.value));
    }
    $("folder-bar").addEventListener("submit", (e) => {
      e.preventDefault();
      this.open($("folder-path").value);
    });
  }

  setMode(mode, path = null) {
    this.on = mode === "folder";
    $(`mode-${mode}`).checked = true;
    document.body.dataset.mode = mode;
    $("folder-bar").hidden = !this.on;
    document.querySelector(".wb-pick").hidden = this.on;
    $("ask-input").placeholder = this.on ? "e.g. which region sold the most?" : "e.g. total units";
    document.querySelector(".composer-label").textContent = this.on
      ? "Ask about the spreadsheets in the folder"
      : "Ask, or describe a formula";
    if (this.on) {
      const input = $("folder-path");
      if (path) input.value = path;
      else if (!input.value) input.value = safeStorage()?.getItem(LAST_FOLDER) || "";
      if (!this.lib) input.focus();
    }
  }

  _say(text, cls = "muted") {
    const p = $("folder-status");
    p.className = `folder-status ${cls}`;
    p.textContent = text;
  }

  /** Index (or update) the folder, showing each file as it is read. Returns the library or null. */
  open(path) {
    this.opening = this._open(path);
    return this.opening;
  }

  async _open(path) {
    path = (path || "").trim();
    if (!path) {
      this._say("Type or paste the path of a folder that holds spreadsheets.", "error");
      $("folder-path").focus();
      return null;
    }
    this.ctl?.abort();
    const ctl = new AbortController();
    this.ctl = ctl;
    $("folder-open").disabled = true;
    this._say("Opening the folder…");
    document.body.dataset.folder = "indexing";
    try {
      const info = await this.app.api.stream(
        "/libraries",
        { path },
        {
          signal: ctl.signal,
          onEvent: (name, d) => {
            if (name !== "progress") return;
            const skipped = d.status === "skipped" ? ` (skipped: ${d.reason})` : "";
            this._say(`Indexing ${d.files_done} of ${d.files_total} files · ${d.cells.toLocaleString("en-US")} cells · ${d.file}${skipped}`);
          },
        },
      );
      this.lib = info;
      this.opened.clear();
      safeStorage()?.setItem(LAST_FOLDER, info.path);
      const r = info.report || {};
      const skipped = Object.keys(r.skipped || {}).length;
      const tables = r.tables_in_index ?? r.tables;
      this._say(
        `${info.name}: ${info.files_total} file${info.files_total === 1 ? "" : "s"}, ${tables} table${tables === 1 ? "" : "s"}` +
          (skipped ? `, ${skipped} skipped (${Object.entries(r.skipped).map(([f, why]) => `${f}: ${why}`).join("; ")})` : "") +
          ". Ask away.",
        "done",
      );
      document.body.dataset.folder = "ready";
      document.body.dataset.ready = "1";
      $("ask-input").focus();
      return info;
    } catch (err) {
      if (isAbort(err)) return null;
      document.body.dataset.folder = "failed";
      this.lib = null;
      if (err.code === "offline" || err.code === "stale_secret") this.app.showFailure(err);
      this._say(err.friendly || String(err), "error");
      return null;
    } finally {
      $("folder-open").disabled = false;
    }
  }

  async ask(text) {
    text = (text || "").trim();
    if (!text) return;
    if (!this.lib && this.opening) await this.opening; // asked while the folder is still being indexed
    if (!this.lib) {
      this.app._note("Open a folder first: type its path above and press Open.");
      return;
    }
    this.app._closeSuggestions();
    $("ask-input").value = "";
    this.app._bubble("user").textContent = text;
    const li = this.app._bubble("answer folder");
    const spin = this.app._spinner(li, "Finding the tables…");
    const token = {};
    this.app.busy.add(token);
    const askOnce = () =>
      this.app.api.stream(`/libraries/${encodeURIComponent(this.lib.id)}/ask`, { question: text }, { onEvent: () => spin.set("Answering…") });
    try {
      let res;
      try {
        res = await askOnce();
      } catch (err) {
        if (err.code !== "unknown_library") throw err;
        spin.set("The helper restarted: opening the folder again…"); // its libraries live in memory
        if (!(await this.open(this.lib.path))) throw err;
        res = await askOnce();
      }
      spin.done();
      this.render(li, res.answer || res);
    } catch (err) {
      spin.done();
      this.app._failIn(li, err);
    } finally {
      this.app.busy.delete(token);
    }
  }

  render(li, a) {
    li.dataset.status = a.status || "answered";
    if (a.status !== "answered") {
      li.append(el("p", { class: "abstain", text: a.reason || "No table in the folder answers that." }));
      return;
    }
    li.append(...answerLines(a));
    const chips = (a.evidence || []).map((ev) => this._chip(ev));
    if (chips.length) li.append(el("p", { class: "evidence-row" }, el("span", { class: "muted small", text: "From " }), chips));
  }

  _chip(ev) {
    const label = `${ev.file} · ${ev.sheet}!${ev.range}`;
    if (this.app.host.kind === "excel") {
      // Excel shows one workbook; the evidence is in another file: name it, nothing to click.
      return el("span", { class: "chip static", text: label, "data-file": ev.file });
    }
    return el("button", {
      type: "button",
      class: "chip",
      text: label,
      "aria-label": `Open ${ev.file} and show ${ev.sheet}!${ev.range}`,
      "data-file": ev.file,
      "data-sheet": ev.sheet,
      "data-range": ev.range,
      onclick: () => this.showEvidence(ev),
    });
  }

  /** Open the evidence's file as a workbook (once) and mark its cells in the sheet view. */
  async showEvidence(ev) {
    const app = this.app;
    try {
      let wid = this.opened.get(ev.file);
      let info = null;
      if (wid) info = await app.api.get(`/workbooks/${encodeURIComponent(wid)}`).catch(() => null);
      if (!info) {
        const sep = this.lib.path.includes("\\") && !this.lib.path.includes("/") ? "\\" : "/";
        const path = this.lib.path.replace(/[\\/]+$/, "") + sep + ev.file.split("/").join(sep);
        info = await app.api.post("/workbooks", { path });
        this.opened.set(ev.file, info.id);
      }
      if (app.wid !== info.id) await app._useWorkbook(info);
      await app._showSheet(ev.sheet);
      await app.showEvidence(ev.sheet, ev.range);
    } catch (err) {
      app.showFailure(err);
    }
  }
}

function safeStorage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage off (private mode, Office's sandbox)
  }
}

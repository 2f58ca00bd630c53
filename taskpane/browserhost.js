// The plain-browser (and desktop-window) host: no Office.js. The workbook is a file the sidecar
// opened from disk; the "selection" is the one made in the pane's sheet preview, and evidence is
// shown by highlighting cells there. Edits go through the sidecar, which writes the file itself.

import { GridSightFailure } from "./api.js";

export function createBrowserHost() {
  const listeners = { selection: [], edit: [], stale: [] };
  let selection = null;
  let preview = null; // set by the app: {highlight(sheet, range), show()}

  return {
    kind: "browser",
    label: "browser",
    attachPreview(p) {
      preview = p;
    },
    async connect(api, wantedId = null) {
      const { workbooks } = await api.get("/workbooks");
      const params = new URLSearchParams(location.search);
      const want = wantedId || params.get("wb");
      const pick = workbooks.find((w) => w.id === want) || workbooks.find((w) => w.kind === "file") || workbooks[0];
      if (!pick) {
        throw new GridSightFailure(
          "no_workbook",
          "No workbook is open in GridSight. Open one below, or start the helper with “gridsight serve --workbook PATH”.",
        );
      }
      return pick;
    },
    async start() {},
    async selection() {
      return selection;
    },
    setSelection(sel) {
      selection = sel;
      for (const cb of listeners.selection) cb(sel);
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
      await preview?.highlight(sheet, range);
    },
    async applyEditPlan() {
      return { ok: true, written: 0, conflicts: [] }; // file sessions are written by the sidecar
    },
    async showPane() {},
  };
}

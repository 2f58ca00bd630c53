// Add-in commands. With the shared runtime the task pane page is also the function file, so a
// command runs in the pane's own JavaScript: it can read the selection and show its answer there.
//
// `explainRegion` is the right-click (ContextMenuCell) "Explain this region" command. The same
// function serves every host: in Excel it is registered with Office.actions.associate; in a plain
// browser or the desktop window it is reachable as window.GridSight.commands.explainRegion (tests
// call it exactly that way).

let app = null;

export function bindApp(theApp) {
  app = theApp;
}

/** Read the selection, bring the pane up, explain the region there. `event.completed()` always runs. */
export async function explainRegion(event) {
  let work = null;
  try {
    if (!app) throw new Error("GridSight is still starting; try again in a moment");
    await app.host.showPane?.();
    const sel = await app.host.selection();
    work = app.explainSelection(sel);
  } catch (err) {
    app?.showFailure(err);
  } finally {
    event?.completed?.();
  }
  return work;
}

export function registerCommands() {
  const office = globalThis.Office;
  if (office?.actions?.associate) office.actions.associate("explainRegion", explainRegion);
}

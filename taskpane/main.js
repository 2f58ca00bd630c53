// Entry point: pick the host (Excel when Office.js is on the page, else the browser host), start
// the pane, and expose it as window.GridSight (commands, for the shared runtime and for tests).

import { explainRegion, registerCommands } from "/addin/commands.js";
import { Api } from "./api.js";
import { App } from "./app.js";
import { createBrowserHost } from "./browserhost.js";

async function officeReady() {
  if (!globalThis.Office?.onReady) return null;
  try {
    const info = await Promise.race([Office.onReady(), new Promise((r) => setTimeout(() => r(null), 8000))]);
    return info?.host ? info : null;
  } catch {
    return null;
  }
}

async function boot() {
  const secret = document.querySelector('meta[name="gridsight-secret"]')?.content || "";
  const api = new Api({ secret });
  let host;
  const office = await officeReady();
  if (office) {
    const { createExcelHost } = await import("/addin/bridge.js");
    host = createExcelHost();
    registerCommands();
  } else {
    host = createBrowserHost();
  }
  document.body.dataset.host = host.kind;
  const app = new App({ api, host });
  window.GridSight = { app, api, host, commands: { explainRegion } };
  await app.start();
}

boot();

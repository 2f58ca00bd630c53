// The sidecar's HTTP API as the pane uses it: JSON calls, Server-Sent Event streams over fetch
// (EventSource cannot POST or send the secret header), cancellation, and friendly errors.

export const SECRET_HEADER = "X-GridSight-Secret";

/** An error the pane can show as it is: `friendly` is a sentence for people, `code` for code. */
export class GridSightFailure extends Error {
  constructor(code, friendly, { status = 0, detail = null, serverMessage = "" } = {}) {
    super(friendly);
    this.code = code;
    this.friendly = friendly;
    this.status = status;
    this.detail = detail;
    this.serverMessage = serverMessage;
  }
}

export const START_HINT =
  "GridSight's helper program is not running. Start it in a terminal with “gridsight serve” " +
  "(add --workbook PATH to open a file), then press Try again.";

function friendlyFor(status, code, message) {
  if (status === 401) {
    return new GridSightFailure(
      "stale_secret",
      "This pane holds an old key: the GridSight helper was reset since the pane opened. Reload the pane to pick up the new key.",
      { status, serverMessage: message },
    );
  }
  if (status === 404 && code === "unknown_workbook") {
    return new GridSightFailure(
      "workbook_gone",
      "The workbook's session has ended (the helper restarted or closed it). Reconnecting to it…",
      { status, serverMessage: message },
    );
  }
  if (status === 413) {
    return new GridSightFailure("too_large", `That is too much at once: ${message}`, { status, serverMessage: message });
  }
  if (status === 409) {
    return new GridSightFailure(code || "conflict", message || "The workbook changed; nothing was written.", {
      status,
      serverMessage: message,
    });
  }
  if (status >= 500) {
    return new GridSightFailure(code || "server", `GridSight hit a problem: ${message || "see its log"}`, {
      status,
      serverMessage: message,
    });
  }
  return new GridSightFailure(code || "bad_request", message || `Request failed (${status})`, {
    status,
    serverMessage: message,
  });
}

function offline(err) {
  return new GridSightFailure("offline", START_HINT, { serverMessage: String(err && err.message) });
}

function isAbort(err) {
  return err && (err.name === "AbortError" || err.code === "aborted");
}

export class Api {
  constructor({ base = location.origin, secret = "" } = {}) {
    this.base = base;
    this.secret = secret;
    this.prefix = `${base}/api/v1`;
  }

  headers(extra = {}) {
    return { "Content-Type": "application/json", [SECRET_HEADER]: this.secret, ...extra };
  }

  async _fetch(path, init) {
    try {
      return await fetch(this.prefix + path, { cache: "no-store", ...init });
    } catch (err) {
      if (isAbort(err)) throw err;
      throw offline(err);
    }
  }

  static async _failure(resp) {
    let code = "";
    let message = "";
    let detail = null;
    try {
      const doc = await resp.json();
      code = doc.error?.code || "";
      message = doc.error?.message || "";
      detail = doc.error?.detail ?? null;
    } catch {
      message = resp.statusText;
    }
    const f = friendlyFor(resp.status, code, message);
    f.detail = detail;
    return f;
  }

  /** One JSON request; throws GridSightFailure (or AbortError when `signal` fires). */
  async json(method, path, body = undefined, { signal } = {}) {
    const resp = await this._fetch(path, {
      method,
      headers: this.headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    if (!resp.ok) throw await Api._failure(resp);
    if (resp.status === 204) return null;
    try {
      return await resp.json();
    } catch (err) {
      if (isAbort(err)) throw err;
      throw new GridSightFailure("cut_off", "The answer was cut off: the GridSight helper stopped. " + START_HINT);
    }
  }

  get(path, opts) {
    return this.json("GET", path, undefined, opts);
  }

  post(path, body, opts) {
    return this.json("POST", path, body ?? {}, opts);
  }

  /**
   * POST with `Accept: text/event-stream`; calls onEvent(name, data) for every event before the
   * result, returns the result's data, throws the error event as a GridSightFailure. A stream that
   * ends without a result (the helper stopped mid-answer) is a failure too, never a hang.
   */
  async stream(path, body, { signal, onEvent = () => {} } = {}) {
    const resp = await this._fetch(path, {
      method: "POST",
      headers: this.headers({ Accept: "text/event-stream" }),
      body: JSON.stringify(body ?? {}),
      signal,
    });
    if (!resp.ok) throw await Api._failure(resp);
    const type = resp.headers.get("Content-Type") || "";
    if (!type.includes("text/event-stream")) return resp.json();
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (isAbort(err) || signal?.aborted) throw err;
          throw new GridSightFailure("cut_off", "The answer was cut off: the GridSight helper stopped. " + START_HINT);
        }
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const parsed = parseFrame(frame);
          if (!parsed) continue;
          if (parsed.event === "result") return parsed.data;
          if (parsed.event === "error") {
            const e = parsed.data?.error || {};
            throw friendlyFor(parsed.data?.status || 500, e.code, e.message);
          }
          onEvent(parsed.event, parsed.data);
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    throw new GridSightFailure("cut_off", "The answer was cut off: the GridSight helper stopped. " + START_HINT);
  }
}

/** One SSE frame -> {event, data}; comments (keep-alives) -> null. */
export function parseFrame(frame) {
  let event = "message";
  const data = [];
  for (const line of frame.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const i = line.indexOf(":");
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  try {
    return { event, data: JSON.parse(data.join("\n")) };
  } catch {
    return { event, data: data.join("\n") };
  }
}

export { isAbort };

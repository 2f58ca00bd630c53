// Small DOM helpers shared by the pane's modules (no framework: the pane must load inside Excel).

export const $ = (id) => document.getElementById(id);

/** el("p", {class: "x", text: "hi", onclick: f}, child, ...) -> a new element. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export function fmtValue(v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumFractionDigits: 6 });
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (Array.isArray(v)) return v.map((row) => (Array.isArray(row) ? row.map(fmtValue).join(", ") : fmtValue(row))).join("; ");
  return String(v);
}

/** The lines every answer shows: its value (with unit), formula or query, and explanation. */
export function answerLines(a) {
  const shown = a.display ?? fmtValue(a.value);
  return [
    el("p", { class: "value", text: `${shown}${a.unit ? ` ${a.unit}` : ""}` }),
    a.formula ? el("p", { class: "formula" }, el("code", { text: a.formula })) : null,
    a.query ? el("p", { class: "query" }, el("code", { text: a.query })) : null,
    a.explanation ? el("p", { class: "explanation", text: a.explanation }) : null,
  ].filter(Boolean);
}

// A1 addresses without Office: parse, format, size, clip. Shared by the bridge and the pane.

export function colLetters(col) {
  // 0-based column index -> letters (0 -> A, 25 -> Z, 26 -> AA)
  let n = col + 1;
  let s = "";
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export function colIndex(letters) {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function cellRef(row, col) {
  return `${colLetters(col)}${row + 1}`;
}

/** "Sales!$B$2:$F$9" or "'My sheet'!B2" or "B:B" or "3:3" -> {sheet, top, left, bottom, right} (0-based). */
export function parseRange(text) {
  let sheet = null;
  let ref = String(text).trim();
  const bang = ref.lastIndexOf("!");
  if (bang >= 0) {
    sheet = ref.slice(0, bang);
    if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
    ref = ref.slice(bang + 1);
  }
  ref = ref.replace(/\$/g, "").toUpperCase();
  const [a, b = a] = ref.split(":");
  const part = (p, end) => {
    let m = /^([A-Z]{1,3})(\d+)$/.exec(p);
    if (m) return { row: Number(m[2]) - 1, col: colIndex(m[1]) };
    m = /^([A-Z]{1,3})$/.exec(p);
    if (m) return { row: end ? 1048575 : 0, col: colIndex(m[1]) };
    m = /^(\d+)$/.exec(p);
    if (m) return { row: Number(m[1]) - 1, col: end ? 16383 : 0 };
    throw new Error(`not an A1 range: ${text}`);
  };
  const p = part(a, false);
  const q = part(b, true);
  return {
    sheet,
    top: Math.min(p.row, q.row),
    left: Math.min(p.col, q.col),
    bottom: Math.max(p.row, q.row),
    right: Math.max(p.col, q.col),
  };
}

export function formatRange(r) {
  const a = cellRef(r.top, r.left);
  const b = cellRef(r.bottom, r.right);
  return a === b ? a : `${a}:${b}`;
}

export function quoteSheet(name) {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

export function rangeSize(r) {
  return (r.bottom - r.top + 1) * (r.right - r.left + 1);
}

export function intersect(a, b) {
  const r = {
    sheet: a.sheet,
    top: Math.max(a.top, b.top),
    left: Math.max(a.left, b.left),
    bottom: Math.min(a.bottom, b.bottom),
    right: Math.min(a.right, b.right),
  };
  return r.top <= r.bottom && r.left <= r.right ? r : null;
}

export function contains(r, row, col) {
  return row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;
}

/** True when an Excel number format shows dates or times (ignores quoted text, [colours], escapes). */
export function isDateFormat(fmt) {
  if (!fmt || fmt === "General" || fmt === "@") return false;
  const bare = String(fmt)
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[(?!h\]|m\]|s\])[^\]]*\]/gi, "")
    .split(";")[0];
  return /[dmyhs]/i.test(bare) && !/^[#0.,%\s]*E/i.test(bare);
}

"""The JavaScript the window runs in the task pane (the same page Excel shows), kept in one place.

Each snippet is an expression returning plain JSON values, so every web view backend can hand the
result back to Python.
"""

from __future__ import annotations

import json

READY = "Boolean(document.body && document.body.dataset.ready === '1')"

BANNER = (
    "(() => { const b = document.getElementById('banner');"
    " return b && !b.hidden ? document.getElementById('banner-text').textContent : null; })()"
)

LAST_ANSWER = (
    "(() => { const all = document.querySelectorAll('.msg.answer'); const li = all[all.length - 1];"
    " if (!li || !li.querySelector('.value, .abstain, .error')) return null;"
    " const t = (s) => { const e = li.querySelector(s); return e ? e.textContent : null; };"
    " return {status: li.dataset.status || (li.querySelector('.error') ? 'error' : 'answered'),"
    " value: t('.value'), formula: t('.formula code'), reason: t('.abstain') || t('.error'),"
    " chips: Array.from(li.querySelectorAll('.chip')).map((c) => c.textContent)}; })()"
)

SHOW_EVIDENCE = (
    "(() => { const all = document.querySelectorAll('.msg.answer'); const li = all[all.length - 1];"
    " const c = li && li.querySelector('.chip'); if (!c) return false; c.click(); return true; })()"
)

EVIDENCE_CELLS = "document.querySelectorAll('td.evidence').length"


def ask(question: str) -> str:
    """Ask through the pane itself, exactly as typing the question and pressing Send does."""
    return f"(() => {{ window.GridSight.app.ask({json.dumps(question)}); return true; }})()"


def switch_workbook(workbook_id: str) -> str:
    return f"(() => {{ window.GridSight.app.switchWorkbook({json.dumps(workbook_id)}); return true; }})()"


def open_folder(path: str) -> str:
    """Folder mode on ``path``: the pane indexes it (progress in the pane) and asks across its files."""
    return (
        f"(() => {{ const f = window.GridSight.app.folder; f.setMode('folder', {json.dumps(path)});"
        f" f.open({json.dumps(path)}); return true; }})()"
    )


def show_notice(text: str) -> str:
    """Put ``text`` in the pane's banner (the place connection problems are shown)."""
    return (
        "(() => { const b = document.getElementById('banner'); if (!b) return false;"
        f" document.getElementById('banner-text').textContent = {json.dumps(text)};"
        " const r = document.getElementById('banner-retry'); if (r) r.hidden = true;"
        " b.hidden = false; return true; })()"
    )


def error_page(title: str, message: str) -> str:
    """A self-contained page for failures that happen before the pane can load."""
    import html

    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>GridSight</title><style>"
        "body{font:15px system-ui,sans-serif;margin:32px;color:#1f2328;background:#fff}"
        "h1{font-size:20px;color:#b42318}p{line-height:1.5;max-width:60em}"
        "code{background:#f3f4f6;padding:1px 4px}"
        "</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(message)}</p>"
        "<p>The same message is in the log; close this window to exit.</p></body></html>"
    )

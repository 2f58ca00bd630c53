"""`gridsight bench compress`: SheetCompressor ratio, ablation, boundary retention, speed, peers.

Over every spreadsheet under the corpus folder (``tables/`` of the shared corpus, or any folder with
the same layout): vanilla vs compressed cl100k tokens per sheet, the paper's Table 1 ablation (every
combination of the three modules), boundary retention against each subfolder's ``labels.json``
(share of labelled tables' top/bottom rows and left/right columns that extraction keeps; also per k
like appendix D.1), encode throughput, and a generated 1M-cell sheet timed in a fresh process.

With ``--peers`` the PyPI packages ``sheetwise``, ``sheet-compressor`` and ``xlcompress`` are installed
into a throwaway venv under a temp folder and run in subprocesses on the same sheets (the same grid of
display values, the same vanilla baseline, the same tokenizer). A peer that fails to install or
crashes on a sheet is reported, not fatal.
"""

from __future__ import annotations

import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import click
import numpy as np
from rich.console import Console

from gridsight.bench._common import BenchResult, corpus_options, emit, resolve_corpus, run_json_child
from gridsight.detect import forget_detections
from gridsight.encode import (
    EncodeOptions,
    cl100k_tokens,
    decode_sheet,
    encode_sheet,
    find_anchors,
    vanilla_encoding,
)
from gridsight.encode._cells import display_block
from gridsight.encode.cli import module_options, options_from
from gridsight.errors import GridSightError
from gridsight.grid import Kind, Range, Sheet
from gridsight.sources import open_workbook

SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm", ".csv", ".tsv")
PEERS = ("sheetwise", "sheet-compressor", "xlcompress")
RETENTION_KS = (0, 1, 2, 4, 8)
#: Each encoder (ours and every peer) is timed as the best of this many runs per sheet.
REPEATS = 3

# ----------------------------------------------------------------------------------------------
# labels


@dataclass(frozen=True)
class LabelledTable:
    file: Path
    sheet: str | None  # None: the file's only/first sheet (CSV)
    rng: Range
    #: Tasi form: annotators labelled only some tables (detections elsewhere are unjudged).
    partial: bool = False


def _find_file(folder: Path, name: str) -> Path | None:
    direct = [p for p in folder.rglob(name) if p.is_file()]
    return direct[0] if direct else None


def load_labels(root: Path) -> list[LabelledTable]:
    """Every labelled table under ``root``: each ``labels.json`` in the Tasi form
    ({file: {tables: [{sheet, range}]}}) or the FUSTE form ({file: {regions: [{region_type, top_lx,
    bot_rx}]}}, 0-based [col, row]; only ``Table`` regions). Files that are absent are skipped."""
    out: list[LabelledTable] = []
    for labels in sorted(root.rglob("labels.json")):
        try:
            doc = json.loads(labels.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise GridSightError(f"{labels}: not readable JSON ({exc})") from None
        if not isinstance(doc, dict):
            continue
        for name, entry in doc.items():
            if not isinstance(entry, dict):
                continue
            path = _find_file(labels.parent, name)
            if path is None:
                continue
            for t in entry.get("tables") or []:
                if isinstance(t, dict) and t.get("range"):
                    out.append(LabelledTable(path, t.get("sheet"), Range.parse(str(t["range"])), True))
            for reg in entry.get("regions") or []:
                if not isinstance(reg, dict) or reg.get("region_type") != "Table":
                    continue
                (c1, r1), (c2, r2) = reg["top_lx"], reg["bot_rx"]
                out.append(LabelledTable(path, None, Range.from_cells(int(r1), int(c1), int(r2), int(c2))))
    return out


def boundary_lines(sheet: Sheet, rng: Range, keep_rows: np.ndarray, keep_cols: np.ndarray) -> list[bool]:
    """Kept? for the table's top row, bottom row, left column, right column. A line outside the used
    range is empty in both sheets and counts as kept (the map extends past the last kept line)."""
    r0, c0 = sheet.origin
    h, w = sheet.shape

    def kept(idx: int, origin: int, size: int, mask: np.ndarray) -> bool:
        i = idx - origin
        return not (0 <= i < size) or bool(mask[i])

    return [
        kept(rng.top, r0, h, keep_rows),
        kept(rng.bottom, r0, h, keep_rows),
        kept(rng.left, c0, w, keep_cols),
        kept(rng.right, c0, w, keep_cols),
    ]


# ----------------------------------------------------------------------------------------------
# our encoder over the corpus

#: The paper's Table 1 (every combination of its three modules, semantic compression off), then our
#: additions: the full default, and the default without value lists.
ABLATION: tuple[tuple[str, EncodeOptions], ...] = (
    *(
        (
            "+".join(n for n, on in zip(("anchors", "index", "aggregate"), flags, strict=True) if on)
            or "vanilla",
            EncodeOptions(anchors=flags[0], index=flags[1], aggregate=flags[2], semantic=False),
        )
        for flags in itertools.product((False, True), repeat=3)
    ),
    ("anchors+index+aggregate+semantic", EncodeOptions()),
    ("no_lists", EncodeOptions(lists=False)),
    ("line_anchors", EncodeOptions(table_anchors=False)),
)


@dataclass
class SheetRun:
    file: str
    sheet: Sheet
    cells: int
    vanilla_tokens: int
    compressed_tokens: int
    encode_s: float
    load_s: float
    text: str = ""
    ablation: dict[str, int] = field(default_factory=dict)
    lossless_text: str = ""


def corpus_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SPREADSHEET_SUFFIXES)


def run_ours(
    root: Path, options: EncodeOptions, status: Callable[[str], None]
) -> tuple[list[SheetRun], list[dict[str, Any]]]:
    runs: list[SheetRun] = []
    failures: list[dict[str, Any]] = []
    for path in corpus_files(root):
        rel = str(path.relative_to(root))
        status(f"encoding {rel}")
        t = time.perf_counter()
        try:
            wb = open_workbook(path)
        except GridSightError as exc:
            failures.append({"file": rel, "error": str(exc)})
            continue
        load_s = time.perf_counter() - t
        sheets = [s for s in wb if not s.is_empty]
        for s in sheets:
            secs = float("inf")
            for _ in range(REPEATS):  # best of N, as for the peers: timing noise from a shared machine
                forget_detections()  # table anchors detect from cold each time, as a new sheet would
                t = time.perf_counter()
                enc = encode_sheet(s, options)
                secs = min(secs, time.perf_counter() - t)
            vanilla = vanilla_encoding(s)
            run = SheetRun(
                rel,
                s,
                s.shape[0] * s.shape[1],
                cl100k_tokens(vanilla),
                cl100k_tokens(enc.text),
                secs,
                load_s / max(len(sheets), 1),
                enc.text,
            )
            for name, opts in ABLATION:
                if name == "vanilla":
                    run.ablation[name] = run.vanilla_tokens
                else:
                    run.ablation[name] = cl100k_tokens(encode_sheet(s, replace(opts, k=options.k)).text)
            other: Literal["compact", "original"] = (
                "original" if options.addresses == "compact" else "compact"
            )
            alt = replace(options, addresses=other)
            run.ablation[f"{other}_addresses"] = cl100k_tokens(encode_sheet(s, alt).text)
            run.lossless_text = encode_sheet(s, replace(options, semantic=False)).text
            runs.append(run)
    return runs, failures


def _labelled_sheets(root: Path, runs: list[SheetRun]) -> list[tuple[LabelledTable, Sheet | None]]:
    """Each labelled table with the encoded sheet it lies on (None: the file or sheet was not read)."""
    by_file: dict[str, list[SheetRun]] = {}
    for r in runs:
        by_file.setdefault(r.file, []).append(r)
    out: list[tuple[LabelledTable, Sheet | None]] = []
    for lab in load_labels(root):
        cands = by_file.get(str(lab.file.relative_to(root)), [])
        if lab.sheet is None:
            sheet = cands[0].sheet if cands else None
        else:
            name = lab.sheet.lower()
            sheet = next((c.sheet for c in cands if c.sheet.name.lower() == name), None)
        out.append((lab, sheet))
    return out


def retention(
    root: Path, runs: list[SheetRun], k: int, *, table_anchors: bool = True
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Boundary retention at ``k`` and at each of RETENTION_KS, plus the lines that were dropped."""
    ks = sorted({*RETENTION_KS, k})
    kept = dict.fromkeys(ks, 0)
    total = 0
    missed: list[dict[str, Any]] = []
    skipped = 0
    anchors_cache: dict[tuple[int, int], Any] = {}
    for lab, sheet in _labelled_sheets(root, runs):
        rel = str(lab.file.relative_to(root))
        if sheet is None:
            skipped += 1
            continue
        total += 4
        for kk in ks:
            key = (id(sheet), kk)
            if key not in anchors_cache:
                anchors_cache[key] = find_anchors(sheet, kk, tables=table_anchors)
            a = anchors_cache[key]
            lines = boundary_lines(sheet, lab.rng, a.keep_rows, a.keep_cols)
            kept[kk] += sum(lines)
            if kk == k:
                for name, ok in zip(("top", "bottom", "left", "right"), lines, strict=True):
                    if not ok:
                        missed.append(
                            {"file": rel, "sheet": sheet.name, "table": lab.rng.ref(), "line": name}
                        )
    share = {kk: (kept[kk] / total if total else None) for kk in ks}
    return {
        "tables": total // 4,
        "lines": total,
        "kept": kept[k],
        "share": share[k],
        "by_k": share,
        "skipped": skipped,
    }, missed


# ----------------------------------------------------------------------------------------------
# what the encoding leaves for table detection

#: Rule detection on the sheet itself, and on the sheet decoded from the encoding without / with
#: semantic compression (the check that decides semantic compression's default).
DETECT_VARIANTS = ("sheet", "lossless", "semantic")


def detection_check(root: Path, runs: list[SheetRun], options: EncodeOptions) -> dict[str, Any]:
    """EoB-0 / EoB-2 F1 of the rule-based detector (``gridsight.detect``) per variant.

    For ``lossless`` and ``semantic`` the detector reads only what the text says (:func:`decode_sheet`:
    values, type labels, compact addresses; no styles) and its ranges are mapped back through the
    address map, so the two differ only by what semantic compression hides. Tasi labels are partial
    (detections overlapping no label are unjudged), FUSTE labels complete, as in ``bench detect``.
    A detector that is missing or fails is reported, not fatal.
    """
    if not options.index:
        return {"error": "needs the inverted index (--no-index was given)"}
    try:
        from gridsight.detect import Score, detect_tables, eob_score
    except Exception as exc:  # a sibling package mid-change must not break the encoder's bench
        return {"error": f"gridsight.detect failed to import ({type(exc).__name__}: {exc})"}
    per_sheet: dict[int, tuple[Sheet, list[LabelledTable]]] = {}
    for lab, sheet in _labelled_sheets(root, runs):
        if sheet is not None:
            per_sheet.setdefault(id(sheet), (sheet, []))[1].append(lab)
    zero = Score(0, 0, 0)
    totals = {v: [zero, zero] for v in DETECT_VARIANTS}
    failures: list[dict[str, str]] = []
    for sheet, labs in per_sheet.values():
        labelled = [lab.rng for lab in labs]
        partial = any(lab.partial for lab in labs)
        for variant in DETECT_VARIANTS:
            try:
                if variant == "sheet":
                    found = [t.range for t in detect_tables(sheet).tables]
                else:
                    enc = encode_sheet(sheet, replace(options, semantic=variant == "semantic"))
                    decoded = detect_tables(decode_sheet(enc.text, sheet.name))
                    found = [enc.address_map.to_original(t.range) for t in decoded.tables]
            except Exception as exc:  # report the sheet, keep scoring the rest
                failures.append(
                    {"sheet": sheet.name, "variant": variant, "error": f"{type(exc).__name__}: {exc}"}
                )
                continue
            predicted = [Range(p.top, p.left, p.bottom, p.right) for p in found]
            for i, k in enumerate((0, 2)):
                totals[variant][i] = totals[variant][i] + eob_score(predicted, labelled, k, partial=partial)
    return {
        "sheets": len(per_sheet),
        "tables": sum(len(labs) for _, labs in per_sheet.values()),
        **{
            f"eob{k}_f1_{v}": round(totals[v][i].f1, 4) for v in DETECT_VARIANTS for i, k in enumerate((0, 2))
        },
        "failures": failures,
    }


# ----------------------------------------------------------------------------------------------
# peers

_RUNNER = r"""
import json, sys, time, traceback
peer, jobs_path, start, REPEATS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
jobs = json.load(open(jobs_path, encoding="utf-8"))

def run(job):
    best, texts = float("inf"), None
    for _ in range(REPEATS):
        secs, texts = run_once(job)
        best = min(best, secs)
    return best, texts

def run_once(job):
    rows = job["rows"]
    if peer == "sheetwise":
        import pandas as pd
        from sheetwise import SpreadsheetLLM
        df = pd.DataFrame(rows, dtype=object).replace("", None)
        t = time.perf_counter()
        text = SpreadsheetLLM().compress_and_encode_for_llm(df)
        return time.perf_counter() - t, {"sheetwise": text}
    if peer == "sheet-compressor":
        from sheet_compressor import compress
        grid = {"rows": rows, "origin": {"row": job["origin"][0] + 1, "col": job["origin"][1] + 1}}
        t = time.perf_counter()
        res = compress(grid)
        secs = time.perf_counter() - t
        return secs, {"sheet-compressor/" + k: v["string"] for k, v in res["encodings"].items()}
    if peer == "xlcompress":
        import xlcompress
        t = time.perf_counter()
        res = xlcompress.compress_grid(rows, name=job["name"])
        return time.perf_counter() - t, {"xlcompress": res.compressed}
    raise SystemExit("unknown peer " + peer)

for i in range(start, len(jobs)):
    job = jobs[i]
    try:
        secs, texts = run(job)
        print(json.dumps({"i": i, "seconds": secs, "texts": texts}), flush=True)
    except BaseException as exc:  # a peer's panic must not stop the others
        msg = (type(exc).__name__ + ": " + str(exc))[:300]
        print(json.dumps({"i": i, "error": msg}), flush=True)
"""


def _peer_env(tmp: Path, status: Callable[[str], None]) -> tuple[Path | None, dict[str, str]]:
    """A throwaway venv with each peer installed separately; install errors per peer."""
    env_dir = tmp / "venv"
    status("creating a throwaway venv for the peers")
    try:
        venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    except Exception as exc:  # any venv failure is reported, not fatal
        return None, dict.fromkeys(PEERS, f"venv creation failed: {exc}")
    py = env_dir / "bin" / "python"
    if not py.exists():
        py = env_dir / "Scripts" / "python.exe"
    errors: dict[str, str] = {}
    for peer in PEERS:
        status(f"installing {peer} into the throwaway venv")
        try:
            proc = subprocess.run(
                [str(py), "-m", "pip", "install", "--disable-pip-version-check", "-q", peer],
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
            )
        except subprocess.TimeoutExpired:
            errors[peer] = "pip install timed out"
            continue
        if proc.returncode != 0:
            errors[peer] = "pip install failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1][:300]
    return py, errors


def _peer_jobs(runs: list[SheetRun]) -> list[dict[str, Any]]:
    jobs = []
    for r in runs:
        s = r.sheet
        h, w = s.shape
        texts = display_block(s, np.arange(h), np.arange(w))
        jobs.append({"name": s.name, "origin": list(s.origin), "rows": texts.tolist()})
    return jobs


def _run_peer(py: Path, peer: str, jobs_path: Path, n: int, runner: Path) -> Iterator[dict[str, Any]]:
    """Results per job; when the peer process dies, the job it was on is reported and the rest resumes."""
    start = 0
    while start < n:
        proc = subprocess.Popen(
            [str(py), str(runner), peer, str(jobs_path), str(start), str(REPEATS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        last = start - 1
        for line in proc.stdout:
            try:
                doc = json.loads(line)
            except json.JSONDecodeError:
                continue
            last = int(doc["i"])
            yield doc
        proc.wait()
        err = proc.stderr.read() if proc.stderr else ""
        if last + 1 >= n:
            break
        crashed = last + 1
        tail = (err.strip().splitlines() or [f"exit code {proc.returncode}"])[-1][:300]
        yield {"i": crashed, "error": f"process died: {tail}"}
        start = crashed + 1


def _text_values(sheet: Sheet) -> set[str]:
    """Distinct text values of a sheet (labels, headers, notes) used to check what an output keeps."""
    ids = np.unique(sheet.text_ids[sheet.kinds == Kind.TEXT])
    return {sheet.texts[i].strip() for i in ids.tolist() if sheet.texts[i].strip()}


def text_coverage(values: set[str], text: str) -> float:
    if not values:
        return 1.0
    return sum(1 for v in values if v in text) / len(values)


def run_peers(runs: list[SheetRun], status: Callable[[str], None]) -> dict[str, Any]:
    """Per peer variant: tokens, time, failures, and how much of the sheets' text its output keeps."""
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="gridsight-peers-") as tmp_s:
        tmp = Path(tmp_s)
        py, install_errors = _peer_env(tmp, status)
        jobs = _peer_jobs(runs)
        jobs_path = tmp / "jobs.json"
        jobs_path.write_text(json.dumps(jobs), encoding="utf-8")
        runner = tmp / "runner.py"
        runner.write_text(_RUNNER, encoding="utf-8")
        values = [_text_values(r.sheet) for r in runs]
        for peer in PEERS:
            if py is None or peer in install_errors:
                results[peer] = {"installed": False, "error": install_errors.get(peer, "no venv")}
                continue
            status(f"running {peer} on {len(jobs)} sheets")
            per_variant: dict[str, dict[str, Any]] = {}
            failures: list[dict[str, str]] = []
            seconds = 0.0
            cells = 0
            for doc in _run_peer(py, peer, jobs_path, len(jobs), runner):
                run = runs[int(doc["i"])]
                if "error" in doc:
                    failures.append({"file": run.file, "sheet": run.sheet.name, "error": doc["error"]})
                    continue
                seconds += float(doc["seconds"])
                cells += run.cells
                for variant, text in doc["texts"].items():
                    v = per_variant.setdefault(
                        variant, {"vanilla": 0, "tokens": 0, "ratios": [], "coverage": []}
                    )
                    toks = cl100k_tokens(text or "")
                    v["vanilla"] += run.vanilla_tokens
                    v["tokens"] += toks
                    v["ratios"].append(run.vanilla_tokens / max(toks, 1))
                    v["coverage"].append(text_coverage(values[int(doc["i"])], text or ""))
            results[peer] = {
                "installed": True,
                "sheets_ok": len(jobs) - len(failures),
                "failures": failures,
                "seconds": seconds,
                "cells_per_s": cells / seconds if seconds > 0 else None,
                "variants": {
                    name: {
                        "aggregate_ratio": v["vanilla"] / max(v["tokens"], 1),
                        "median_ratio": statistics.median(v["ratios"]) if v["ratios"] else None,
                        "tokens": v["tokens"],
                        "vanilla_tokens": v["vanilla"],
                        "text_coverage": statistics.fmean(v["coverage"]) if v["coverage"] else None,
                    }
                    for name, v in per_variant.items()
                },
            }
    return results


# ----------------------------------------------------------------------------------------------
# the 1M-cell sheet, timed in a fresh process

_MILLION = r"""
import json, resource, sys, time
import numpy as np
from gridsight.bench.compress import million_cell_sheet
from gridsight.encode import encode_sheet, EncodeOptions
kind = sys.argv[1]
sheet = million_cell_sheet(int(sys.argv[2]), kind)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t = time.perf_counter()
enc = encode_sheet(sheet, EncodeOptions())
secs = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": secs, "cells": sheet.shape[0] * sheet.shape[1], "kept_rows": enc.kept_rows,
                  "chars": len(enc.text), "rss_mb": rss, "rss_before_mb": before}))
"""


def million_cell_sheet(cells: int = 1_000_000, kind: str = "tables") -> Sheet:
    """A generated sheet of about ``cells`` cells, built straight into arrays (no file).

    ``tables``: a title, a bold header and 20 typed columns (ints, floats, dates, percents, categories,
    ~5% blanks), a second table below. ``noise``: every cell a distinct random value (worst case:
    nothing to drop, nothing to merge).
    """
    from gridsight.grid import SheetBuilder, Style

    cols = 20
    rows = max(cells // cols, 2)
    rng = np.random.default_rng(7)
    b = SheetBuilder("Generated")
    if kind == "noise":
        vals = rng.random((rows, cols))
        words = rng.integers(0, 10**9, size=(rows, cols))
        for i in range(rows):
            for j in range(cols):
                if (i + j) % 2:
                    b.add(i, j, Kind.NUMBER, float(vals[i, j]))
                else:
                    b.add(i, j, Kind.TEXT, text=f"w{words[i, j]}")
        return b.build()
    pct = b.intern_format("0.0%")
    date = b.intern_format("yyyy-mm-dd")
    money = b.intern_format("#,##0.00")
    b.add(0, 0, Kind.TEXT, text="Generated report", style=int(Style.BOLD))
    for j in range(cols):
        b.add(2, j, Kind.TEXT, text=f"Column {j + 1}", style=int(Style.BOLD | Style.BORDER_BOTTOM))
    blanks = rng.random((rows, cols)) < 0.05
    ints = rng.integers(0, 100_000, size=(rows, cols))
    floats = rng.random((rows, cols)) * 1000
    cats = ("North", "South", "East", "West")
    split = rows * 2 // 3
    for i in range(3, rows):
        if split <= i < split + 3:
            continue
        if i == split + 3:
            for j in range(cols):
                b.add(i, j, Kind.TEXT, text=f"Second {j + 1}", style=int(Style.BOLD))
            continue
        for j in range(cols):
            if blanks[i, j]:
                continue
            m = j % 5
            if m == 0:
                b.add(i, j, Kind.NUMBER, float(ints[i, j]))
            elif m == 1:
                b.add(i, j, Kind.NUMBER, float(floats[i, j]), fmt_id=money)
            elif m == 2:
                b.add(i, j, Kind.DATETIME, float(40000 + ints[i, j] % 4000), fmt_id=date)
            elif m == 3:
                b.add(i, j, Kind.NUMBER, float(floats[i, j] / 1000), fmt_id=pct)
            else:
                b.add(i, j, Kind.TEXT, text=cats[int(ints[i, j]) % 4])
    return b.build()


def measure_million(cells: int, kind: str) -> dict[str, Any]:
    return run_json_child(
        [sys.executable, "-c", _MILLION, kind, str(cells)], timeout=900, what=f"{kind} 1M-cell encode"
    )


# ----------------------------------------------------------------------------------------------


def run(
    corpus: Path | None, options: EncodeOptions, peers: bool, cells: int, console: Console
) -> BenchResult:
    root = resolve_corpus(corpus, "tables")
    status_ctx = console.status("")
    with status_ctx:
        runs, failures = run_ours(root, options, lambda m: status_ctx.update(m))
        if not runs:
            raise GridSightError(f"no readable spreadsheets under {root}")
        ret, missed = retention(root, runs, options.k, table_anchors=options.table_anchors)
        status_ctx.update("detecting tables on the decoded encodings")
        detection = detection_check(root, runs, options)
        peer_results = run_peers(runs, lambda m: status_ctx.update(m)) if peers else {}
        million: dict[str, Any] = {}
        if cells > 0:
            for kind in ("tables", "noise"):
                status_ctx.update(f"encoding a generated {cells:,}-cell sheet ({kind})")
                million[kind] = measure_million(cells, kind)

    rows: list[dict[str, Any]] = []
    for r in runs:
        rows.append(
            {
                "file": r.file,
                "sheet": r.sheet.name,
                "cells": r.cells,
                "vanilla": r.vanilla_tokens,
                "compressed": r.compressed_tokens,
                "ratio": r.vanilla_tokens / max(r.compressed_tokens, 1),
                "encode_ms": r.encode_s * 1000,
            }
        )
    total_v = sum(r.vanilla_tokens for r in runs)
    total_c = sum(r.compressed_tokens for r in runs)
    enc_s = sum(r.encode_s for r in runs)
    load_s = sum(r.load_s for r in runs)
    n_cells = sum(r.cells for r in runs)
    names = [name for name, _ in ABLATION] + [n for n in runs[0].ablation if n.endswith("_addresses")]
    ablation = {
        name: {
            "tokens": sum(r.ablation[name] for r in runs),
            "ratio": total_v / max(sum(r.ablation[name] for r in runs), 1),
        }
        for name in names
    }

    best_name: str | None = None
    best: dict[str, Any] | None = None
    best_any: tuple[str, float] | None = None
    values = [_text_values(r.sheet) for r in runs]
    coverage = [text_coverage(v, r.text) for v, r in zip(values, runs, strict=True)]
    for row, cov in zip(rows, coverage, strict=True):
        row["text_coverage"] = cov
    our_cov = statistics.fmean(coverage)
    lossless_cov = statistics.fmean(
        text_coverage(v, r.lossless_text) for v, r in zip(values, runs, strict=True)
    )
    for peer, res in peer_results.items():
        for variant, v in (res.get("variants") or {}).items():
            row = {
                "file": f"(peer) {variant}",
                "sheet": f"{res['sheets_ok']}/{len(runs)} ok",
                "cells": None,
                "vanilla": v["vanilla_tokens"],
                "compressed": v["tokens"],
                "ratio": v["aggregate_ratio"],
                "encode_ms": res["seconds"] * 1000,
                "text_coverage": v["text_coverage"],
            }
            rows.append(row)
            if best_any is None or v["aggregate_ratio"] > best_any[1]:
                best_any = (variant, v["aggregate_ratio"])
            # a peer output counts as an encoding of the sheet only if it keeps as much text as ours
            if (v["text_coverage"] or 0) + 1e-9 >= our_cov and (
                best is None or v["aggregate_ratio"] > best["ratio"]
            ):
                best_name, best = variant, {"ratio": v["aggregate_ratio"], "cells_per_s": res["cells_per_s"]}
        if not res.get("installed"):
            rows.append(
                {"file": f"(peer) {peer}", "sheet": "not installed", "ratio": None, "error": res.get("error")}
            )

    summary: dict[str, Any] = {
        "aggregate_ratio": round(total_v / max(total_c, 1), 3),
        "median_ratio": round(statistics.median(r["ratio"] for r in rows[: len(runs)]), 3),
        "boundary_retention": round(ret["share"], 4) if ret["share"] is not None else None,
        "cells_per_s": round(n_cells / enc_s, 1) if enc_s > 0 else None,
        "best_peer": best_name,
        "best_peer_ratio": round(best["ratio"], 3) if best else None,
        "best_peer_cells_per_s": round(best["cells_per_s"], 1) if best and best["cells_per_s"] else None,
        "best_peer_rule": "highest ratio among peer outputs that keep at least our share of the "
        "sheets' distinct text values (text_coverage)",
        "best_any_peer": best_any[0] if best_any else None,
        "best_any_peer_ratio": round(best_any[1], 3) if best_any else None,
        "text_coverage": round(our_cov, 4),
        "text_coverage_lossless": round(lossless_cov, 4),
        **{k: v for k, v in detection.items() if k.startswith("eob")},
        "cells_per_s_with_load": round(n_cells / (enc_s + load_s), 1) if enc_s + load_s > 0 else None,
        "sheets": len(runs),
        "files_failed": len(failures),
        "k": options.k,
        "modules": options.label,
        "vanilla_tokens": total_v,
        "compressed_tokens": total_c,
        "labelled_tables": ret["tables"],
        "boundary_lines": ret["lines"],
        **{f"ratio_{name.replace('+', '_')}": round(a["ratio"], 3) for name, a in ablation.items()},
        **{f"boundary_retention_k{kk}": round(v, 4) for kk, v in ret["by_k"].items() if v is not None},
    }
    if million:
        summary["million_cells_encode_s"] = round(million["tables"]["seconds"], 3)
        summary["million_cells_noise_encode_s"] = round(million["noise"]["seconds"], 3)
        summary["million_cells_peak_rss_mb"] = round(max(m["rss_mb"] for m in million.values()), 1)
    headline = (
        f"compress: {summary['aggregate_ratio']:.1f}x aggregate (median {summary['median_ratio']:.1f}x) over "
        f"{len(runs)} sheets, boundary retention {summary['boundary_retention']:.1%} at k={options.k}, "
        f"{summary['cells_per_s']:,.0f} cells/s"
    )
    if best_name and best:
        headline += f"; best peer {best_name} {best['ratio']:.1f}x"
    elif peers:
        headline += "; no peer kept the sheets' text"
    if million:
        headline += f"; 1M cells in {summary['million_cells_encode_s']:.2f} s"
    return BenchResult(
        "compress",
        ("file", "sheet", "cells", "vanilla", "compressed", "ratio", "encode_ms", "text_coverage"),
        rows,
        summary,
        headline,
        extra={
            "ablation": ablation,
            "retention": {**ret, "missed": missed},
            "detection": detection,
            "peers": peer_results,
            "million_cells": million,
            "failures": failures,
        },
    )


@click.command("compress")
@corpus_options
@module_options
@click.option(
    "--peers", is_flag=True, help="Also run sheetwise, sheet-compressor and xlcompress (throwaway venv)."
)
@click.option(
    "--cells",
    type=click.IntRange(min=0),
    default=1_000_000,
    show_default=True,
    help="Size of the generated sheets timed in a fresh process (0 skips them).",
)
def command(
    corpus: Path | None,
    out: Path | None,
    no_anchors: bool,
    no_table_anchors: bool,
    no_index: bool,
    no_aggregate: bool,
    no_lists: bool,
    no_semantic: bool,
    addresses: str,
    k: int,
    peers: bool,
    cells: int,
) -> None:
    """Compression ratio, Table-1 ablation, boundary retention, detection on the decoded encoding and
    speed of the encoder (and peers)."""
    options = options_from(
        no_anchors, no_index, no_aggregate, k, addresses, no_lists, no_semantic, no_table_anchors
    )
    emit(run(corpus, options, peers, cells, Console(stderr=True)), out)

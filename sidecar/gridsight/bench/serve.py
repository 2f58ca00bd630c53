"""`gridsight bench serve`: the sidecar under load on loopback HTTPS (1, 8 and 32 concurrent clients).

The server runs as a real `gridsight serve` child process (so its memory is its own), on a fresh
data folder. Endpoints: health; range read; snapshot upload (1k cells); detect on a generated
10k-cell sheet when table detection is installed; suggest (completions of "total col") when the
formula language feature is installed (otherwise its figures are null with a note, never
invented). Each corpus workbook is also opened through the API once, so any folder with the corpus
layout exercises the file path.
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from gridsight.bench._common import BenchResult, corpus_options, emit, resolve_corpus
from gridsight.bench.read import corpus_files, make_big_workbook

CONCURRENCY = (1, 8, 32)
#: Requests per (endpoint, concurrency); heavier endpoints run fewer.
REQUESTS = {"health": 400, "range": 400, "upload": 96, "detect": 96, "suggest": 96}
MAX_CORPUS_FILES = 25


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process in MB (Linux /proc; psutil elsewhere when installed)."""
    status = Path(f"/proc/{pid}/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    try:
        import psutil

        return float(psutil.Process(pid).memory_info().rss) / 1024**2
    except Exception:
        return None


def _percentile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


class _Sidecar:
    """A `gridsight serve` child process and what a client needs to reach it."""

    def __init__(self, home: Path) -> None:
        env = {**os.environ, "GRIDSIGHT_HOME": str(home)}
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gridsight", "serve", "--port", "0", "--format", "json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        if not line:
            self.proc.kill()
            raise click.ClickException("the sidecar did not start")
        facts = json.loads(line)
        self.port = int(facts["port"])
        self.secret = Path(facts["secret_file"]).read_text().strip()
        from gridsight.api._tls import cert_paths, client_context

        self.ctx = client_context(cert_paths(home))

    def connect(self) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection("localhost", self.port, context=self.ctx, timeout=120)

    def call(
        self, conn: http.client.HTTPSConnection, method: str, path: str, body: bytes | None = None
    ) -> tuple[int, bytes]:
        conn.request(
            method,
            path,
            body=body,
            headers={"X-GridSight-Secret": self.secret, "Content-Type": "application/json"},
        )
        resp = conn.getresponse()
        return resp.status, resp.read()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _load(
    side: _Sidecar, make: Callable[[], tuple[str, str, bytes | None]], total: int, clients: int
) -> tuple[list[float], int, float]:
    """``total`` requests from ``clients`` keep-alive connections; returns latencies (ms), errors, seconds."""
    lat: list[float] = []
    errors = 0
    lock = threading.Lock()
    per = [total // clients + (1 if i < total % clients else 0) for i in range(clients)]

    def worker(n: int) -> None:
        nonlocal errors
        conn = side.connect()
        mine: list[float] = []
        bad = 0
        for _ in range(n):
            method, path, body = make()
            t = time.perf_counter()
            try:
                status, _ = side.call(conn, method, path, body)
                ok = 200 <= status < 300
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = side.connect()
            mine.append((time.perf_counter() - t) * 1000)
            bad += 0 if ok else 1
        conn.close()
        with lock:
            lat.extend(mine)
            errors += bad

    threads = [threading.Thread(target=worker, args=(n,)) for n in per if n]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return lat, errors, time.perf_counter() - start


def _snapshot_body(cells: int = 1000, cols: int = 10) -> bytes:
    rows = cells // cols
    values = [[f"h{j}" for j in range(cols)]] + [[i * cols + j for j in range(cols)] for i in range(1, rows)]
    doc = {
        "schema": "gridsight.snapshot.v1",
        "workbook": {"name": "bench.xlsx"},
        "sheets": [{"name": "Data", "range": f"A1:J{rows}", "values": values}],
    }
    return json.dumps({"snapshot": doc}).encode()


@click.command("serve")
@corpus_options
def command(corpus: Path | None, out: Path | None) -> None:
    """Requests/s and p50/p95 latency per endpoint at 1, 8, 32 clients; RSS idle and under load."""
    root = resolve_corpus(corpus, "tables")
    files = corpus_files(root)[:MAX_CORPUS_FILES]
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="gridsight-bench-serve-") as tmp:
        home = Path(tmp) / "home"
        book = make_big_workbook(Path(tmp) / "10k.xlsx", cells=10_000, cols=10)
        side = _Sidecar(home)
        try:
            conn = side.connect()
            status, body = side.call(conn, "GET", "/api/v1/health")
            features = json.loads(body)["features"] if status == 200 else {}
            status, body = side.call(
                conn, "POST", "/api/v1/workbooks", json.dumps({"path": str(book)}).encode()
            )
            if status != 201:
                raise click.ClickException(f"could not open the 10k-cell workbook: {body[:200]!r}")
            wid = json.loads(body)["id"]
            first_answer_s = None
            if features.get("formula-language", {}).get("available"):
                st, _ = side.call(
                    conn,
                    "POST",
                    f"/api/v1/workbooks/{wid}/formula/generate",
                    json.dumps({"request": "total of c1"}).encode(),
                )
                if st == 200:  # process start -> first answer, the workbook opened on the way
                    first_answer_s = round(time.perf_counter() - side.started, 2)
            opened = []
            open_errors = 0
            for f in files:
                t = time.perf_counter()
                st, _ = side.call(
                    conn, "POST", "/api/v1/workbooks", json.dumps({"path": str(f.resolve())}).encode()
                )
                opened.append((time.perf_counter() - t) * 1000)
                open_errors += 0 if st == 201 else 1
            conn.close()
            time.sleep(0.5)
            idle = rss_mb(side.proc.pid)
            upload = _snapshot_body()
            endpoints: dict[str, Callable[[], tuple[str, str, bytes | None]]] = {
                "health": lambda: ("GET", "/api/v1/health", None),
                "range": lambda: ("GET", f"/api/v1/workbooks/{wid}/range?ref=A1:J100", None),
            }
            if features.get("detect", {}).get("available"):
                endpoints["detect"] = lambda: ("GET", f"/api/v1/workbooks/{wid}/detect?sheet=Data", None)
            else:
                notes.append("table detection is not installed: detect_p95_ms is null")
            if features.get("formula-language", {}).get("available"):
                endpoints["suggest"] = lambda: (
                    "POST",
                    f"/api/v1/workbooks/{wid}/formula/suggest",
                    b'{"partial": "total col", "sheet": "Data"}',
                )
            else:
                notes.append("formula suggestions are not installed: suggest_p50_ms/suggest_p95_ms are null")
            # Last: every upload opens a session, and past the session cap the oldest are closed.
            endpoints["upload"] = lambda: ("POST", "/api/v1/workbooks", upload)
            peak = [idle or 0.0]
            sampling = threading.Event()

            def sample() -> None:
                while not sampling.wait(0.05):
                    v = rss_mb(side.proc.pid)
                    if v is not None:
                        peak[0] = max(peak[0], v)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            rows: list[dict[str, Any]] = []
            total_errors = open_errors
            for name, make in endpoints.items():
                for clients in CONCURRENCY:
                    lat, errs, secs = _load(side, make, REQUESTS[name], clients)
                    total_errors += errs
                    rows.append(
                        {
                            "endpoint": name,
                            "clients": clients,
                            "requests": len(lat),
                            "rps": len(lat) / secs if secs else None,
                            "p50_ms": _percentile(lat, 0.5),
                            "p95_ms": _percentile(lat, 0.95),
                            "max_ms": max(lat) if lat else None,
                            "errors": errs,
                        }
                    )
            sampling.set()
            sampler.join()
        finally:
            side.stop()

    def at8(endpoint: str, key: str) -> float | None:
        return next((r[key] for r in rows if r["endpoint"] == endpoint and r["clients"] == 8), None)

    summary = {
        "suggest_p50_ms": at8("suggest", "p50_ms"),
        "suggest_p95_ms": at8("suggest", "p95_ms"),
        "detect_p95_ms": at8("detect", "p95_ms"),
        "errors": total_errors,
        "rss_mb_idle": round(idle, 1) if idle is not None else None,
        "rss_mb_load": round(peak[0], 1) if peak[0] else None,
        "health_rps_8": at8("health", "rps"),
        "health_p95_ms_8": at8("health", "p95_ms"),
        "range_p95_ms_8": at8("range", "p95_ms"),
        "upload_p95_ms_8": at8("upload", "p95_ms"),
        "detect_p50_ms_8": at8("detect", "p50_ms"),
        "corpus_files_opened": len(opened),
        "open_p50_ms": statistics.median(opened) if opened else None,
        "first_answer_s": first_answer_s,
    }

    def ms(v: float | None) -> str:
        return "null" if v is None else f"{v:.0f} ms"

    headline = (
        f"serve: detect p95 {ms(summary['detect_p95_ms'])} at 8 clients (10k cells), health "
        f"{summary['health_rps_8'] or 0:.0f} req/s, errors {total_errors}, RSS {summary['rss_mb_idle']} MB "
        f"idle / {summary['rss_mb_load']} MB load; suggest p95 {ms(summary['suggest_p95_ms'])}; "
        f"start to first answer {first_answer_s} s"
    )
    emit(
        BenchResult(
            "serve",
            ["endpoint", "clients", "requests", "rps", "p50_ms", "p95_ms", "max_ms", "errors"],
            rows,
            summary,
            headline,
            extra={"notes": notes, "workbook_cells": 10_000},
        ),
        out,
    )

"""A real sidecar over HTTPS on loopback, and a small client that trusts only its generated CA."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gridsight.api import SECRET_HEADER, Running, client_context, start_server


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def error(self) -> dict[str, Any]:
        doc = self.json
        assert set(doc) == {"error"}, doc
        assert set(doc["error"]) == {"code", "message", "detail"}, doc
        return doc["error"]  # type: ignore[no-any-return]


class Client:
    """Keep-alive HTTPS client for one running sidecar."""

    def __init__(self, running: Running, host: str = "localhost") -> None:
        self.running = running
        self.host = host
        self.ctx = client_context(running.certs)
        self.conn: http.client.HTTPSConnection | None = None

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        secret: str | None = "default",
    ) -> Reply:
        h = {"Content-Type": "application/json"}
        if secret == "default":
            h[SECRET_HEADER] = self.running.secret
        elif secret is not None:
            h[SECRET_HEADER] = secret
        h.update(headers or {})
        data = body if isinstance(body, bytes | str) or body is None else json.dumps(body)
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPSConnection(
                    self.host, self.running.port, context=self.ctx, timeout=30
                )
            try:
                self.conn.request(method, path, body=data, headers=h)
                resp = self.conn.getresponse()
                out = Reply(resp.status, resp.headers, resp.read())
                if resp.will_close:
                    self.close()
                return out
            except (ConnectionError, http.client.HTTPException):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", "/api/v1" + path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Reply:
        return self.request("POST", "/api/v1" + path, body, **kw)

    def delete(self, path: str, **kw: Any) -> Reply:
        return self.request("DELETE", "/api/v1" + path, **kw)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("gridsight-home")


@pytest.fixture(scope="module")
def running(home: Path) -> Iterator[Running]:
    r = start_server(0, home, threads=4, max_body=1024 * 1024, max_range_cells=10_000)
    yield r
    r.stop()


@pytest.fixture()
def client(running: Running) -> Iterator[Client]:
    c = Client(running)
    yield c
    c.close()


def write_xlsx(path: Path) -> Path:
    """A small real workbook: numbers, text, a date with its format, a formula, a bool, an error, a merge."""
    import datetime as dt

    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws["A1"], ws["B1"], ws["C1"] = "Month", "Units", "Price"
    ws["A2"], ws["B2"], ws["C2"] = dt.datetime(2024, 1, 1), 10, 2.5
    ws["A3"], ws["B3"], ws["C3"] = dt.datetime(2024, 2, 1), 12, 2.75
    ws["A2"].number_format = ws["A3"].number_format = "yyyy-mm-dd"
    ws["C2"].number_format = ws["C3"].number_format = "#,##0.00"
    ws["D1"] = "Revenue"
    ws["D2"], ws["D3"] = "=B2*C2", "=B3*C3"
    ws["E1"], ws["E2"] = "Checked", True
    ws["F1"] = "#N/A"
    ws["A5"] = "Notes"
    ws.merge_cells("A5:C5")
    other = wb.create_sheet("Other")
    other["A1"] = "=Sales!B2+1"
    wb.save(path)
    return path


def write_assay(path: Path) -> Path:
    """The extraction examples' table: compounds with an IC50 column and a solubility column (Assay!A1:C3)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Assay"
    for row in (
        ["Compound", "Kinase A IC50 (nM)", "Solubility (mg/mL)"],
        ["C-1", 12, 0.5],
        ["C-2", 8.5, 1.2],
    ):
        ws.append(row)
    wb.save(path)
    return path

"""POST /workbooks/{wid}/ask over the real HTTPS server: the answer contract, SSE, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gridsight.demo import build_demo_workbook


def _open_demo(client: Any, tmp_path: Path) -> str:
    r = client.post("/workbooks", {"path": str(build_demo_workbook(tmp_path / "demo.xlsx"))})
    assert r.status == 201, r.body
    return str(r.json["id"])


def test_ask_plain_and_streamed(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    r = client.post(f"/workbooks/{wid}/ask", {"question": "What is the total of North?"})
    assert r.status == 200, r.body
    ans = r.json["answer"]
    assert (ans["status"], ans["value"], ans["formula"], ans["route"]) == (
        "answered",
        1815,
        "=SUM(B4:B15)",
        "formula",
    )
    assert (
        ans["evidence"] == [{"sheet": "Sales 2024", "range": "B4:B15"}] and ans["unit"] == "USD (thousands)"
    )
    r = client.post(
        f"/workbooks/{wid}/ask",
        {"question": "How many unicorns have wings?"},
        headers={"Accept": "text/event-stream"},
    )
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream")
    frames = [f.split("\n") for f in r.body.decode().split("\n\n") if f.strip() and not f.startswith(":")]
    events = [(a.removeprefix("event: "), json.loads(b.removeprefix("data: "))) for a, b in frames]
    assert [e for e, _ in events] == ["progress", "progress", "result"]
    assert events[-1][1]["answer"]["status"] == "abstained" and events[-1][1]["answer"]["value"] is None


def test_ask_bad_input(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    for body, status in (
        ({"question": 5}, 400),
        ({"question": "x", "extra": 1}, 400),
        ({"question": "x", "model": "yes"}, 400),
        ({"question": "x", "sheet": "Nope"}, 404),
    ):
        r = client.post(f"/workbooks/{wid}/ask", body)
        assert r.status == status, (body, r.body)
        assert r.error["message"]
    assert client.post("/workbooks/nope/ask", {"question": "x"}).status == 404

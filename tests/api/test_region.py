"""POST /workbooks/{wid}/explain over the real HTTPS server: plain JSON, SSE, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gridsight.demo import build_demo_workbook


def _open_demo(client: Any, tmp_path: Path) -> str:
    r = client.post("/workbooks", {"path": str(build_demo_workbook(tmp_path / "demo.xlsx"))})
    assert r.status == 201, r.body
    return str(r.json["id"])


def test_explain_region_json_and_stream(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    r = client.post(f"/workbooks/{wid}/explain", {"range": "H3:J7", "sheet": "Sales 2024"})
    assert r.status == 200, r.body
    region = r.json["region"]
    assert (region["sheet"], region["range"]) == ("Sales 2024", "H3:J7")
    assert region["summary"] == (
        "H3:J7 holds 8 numbers, 7 texts. "
        "Table H3:J7 with columns Region, Target, Growth; 4 rows below its header."
    )
    r = client.post(
        f"/workbooks/{wid}/explain",
        {"range": "'Sales 2024'!B16:F16"},
        headers={"Accept": "text/event-stream"},
    )
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream")
    frames = [f.split("\n") for f in r.body.decode().split("\n\n") if f.strip() and not f.startswith(":")]
    events = [(a.removeprefix("event: "), json.loads(b.removeprefix("data: "))) for a, b in frames]
    assert [e for e, _ in events] == ["fact", "fact", "fact", "result"]
    assert events[2][1] == {
        "text": "B16:F16 (5 formulas like =SUM(B4:B15), one per column): Returns the sum of North (B4:B15).",
        "cells": ["B16:F16"],
    }
    assert events[-1][1]["region"]["facts"][2] == events[2][1]


def test_explain_region_bad_input(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    for body, status, code in (
        ({"range": "B2:"}, 400, "bad_range"),
        ({"range": 7}, 400, "bad_request"),
        ({"range": "A1", "extra": True}, 400, "bad_request"),
        ({"range": "A1", "sheet": 3}, 400, "bad_request"),
        ({"range": "A1", "sheet": "Nope"}, 404, None),
    ):
        r = client.post(f"/workbooks/{wid}/explain", body)
        assert r.status == status, (body, r.body)
        if code:
            assert r.error["code"] == code
    r = client.post("/workbooks/unknown/explain", {"range": "A1"})
    assert r.status == 404 and r.error["code"]
    r = client.post(f"/workbooks/{wid}/explain", {"range": "A:XFD"})  # the whole sheet, answered at once
    assert r.status == 200 and r.json["region"]["range"] == "A1:J19"

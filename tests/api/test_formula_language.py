"""The formula language routes over the real HTTPS server: generate, suggest, explain, fill."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gridsight.demo import build_demo_workbook


def _open_demo(client: Any, tmp_path: Path) -> str:
    path = build_demo_workbook(tmp_path / "demo.xlsx")
    r = client.post("/workbooks", {"path": str(path)})
    assert r.status == 201, r.body
    return str(r.json["id"])


def test_generate(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    r = client.post(f"/workbooks/{wid}/formula/generate", {"request": "What is the total of North?"})
    assert r.status == 200
    assert (r.json["formula"], r.json["value"], r.json["evidence"]) == ("=SUM(B4:B15)", 1815, ["B4:B15"])
    r = client.post(f"/workbooks/{wid}/formula/generate", {"request": "How many unicorns have wings?"})
    assert r.status == 200 and r.json["formula"] is None and r.json["reason"].startswith("no formula shape")


def test_suggest_explain_fill(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    r = client.post(f"/workbooks/{wid}/formula/suggest", {"partial": "total no", "limit": 3})
    assert r.status == 200 and r.json["suggestions"][0] == {
        "text": "total North",
        "formula": "=SUM(B4:B15)",
        "shape": "aggregate-sum",
    }
    r = client.post(f"/workbooks/{wid}/formula/explain", {"formula": "=AVERAGE(I4:I7)"})
    assert r.json["explanation"] == "Returns the average of Target (I4:I7)."
    r = client.post(f"/workbooks/{wid}/formula/fill", {"cell": "G16"})
    assert r.json["proposal"]["formula"] == "=SUM(G4:G15)" and r.json["proposal"]["direction"] == "right"
    r = client.post(f"/workbooks/{wid}/formula/fill", {"cell": "A1"})
    assert r.json == {"cell": "A1", "proposal": None}


def test_bad_requests(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    for path, body in (
        ("generate", {"request": 5}),
        ("generate", {"request": "x", "extra": 1}),
        ("suggest", {"partial": "total", "limit": 0}),
        ("suggest", {"partial": "total", "limit": True}),
        ("explain", {"formula": ""}),
        ("fill", {"cell": 3}),
    ):
        r = client.post(f"/workbooks/{wid}/formula/{path}", body)
        assert r.status == 400, (path, body, r.body)
        assert r.error["code"] == "bad_request"
    assert client.post(f"/workbooks/{wid}/formula/explain", {"formula": "=SUM(1,"}).status == 422
    assert client.post(f"/workbooks/{wid}/formula/fill", {"cell": "ZZZZ1"}).status in (400, 422)
    assert client.post(f"/workbooks/{wid}/formula/generate", {"request": "x", "sheet": "Nope"}).status in (
        400,
        404,
    )


def test_suggest_refine_flag(client: Any, tmp_path: Path) -> None:
    wid = _open_demo(client, tmp_path)
    r = client.post(f"/workbooks/{wid}/formula/suggest", {"partial": "total no", "refine": "yes"})
    assert r.status == 400 and r.error["message"] == "`refine` must be true or false"
    # one suggestion: nothing to rank, so the model is never loaded and the answer is immediate
    r = client.post(f"/workbooks/{wid}/formula/suggest", {"partial": "total no", "refine": True, "limit": 1})
    assert r.status == 200 and [s["formula"] for s in r.json["suggestions"]] == ["=SUM(B4:B15)"]

"""POST /workbooks/{wid}/extract over the real HTTPS server: records plain and streamed, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import write_assay

SCHEMA = [
    {"value": "xx", "type": "Other"},
    {"value": "xx", "type": "IC50", "unit": "xx", "compound": "xx", "target": "xx"},
]


def _open(client: Any, tmp_path: Path) -> str:
    r = client.post("/workbooks", {"path": str(write_assay(tmp_path / "assay.xlsx"))})
    assert r.status == 201, r.body
    return str(r.json["id"])


def test_extract_plain_and_streamed(client: Any, tmp_path: Path) -> None:
    wid = _open(client, tmp_path)
    r = client.post(f"/workbooks/{wid}/extract", {"schema": SCHEMA, "range": "Assay!A1:C3", "model": False})
    assert r.status == 200, r.body
    recs = r.json["records"]
    assert [(x["address"], x["value"], x["type"], x["unit"]) for x in recs] == [
        ("B2", "12", "IC50", "nM"),
        ("C2", "0.5", "Other", "mg/mL"),
        ("B3", "8.5", "IC50", "nM"),
        ("C3", "1.2", "Other", "mg/mL"),
    ]
    assert r.json["count"] == 4 and r.json["model_stats"]["calls"] == 0
    table = "<table><tr><th>x</th><th>MIC (µg/mL)</th></tr><tr><td>26a</td><td>25</td></tr></table>"
    schema = [{"value": "xx", "type": "Other"}, {"value": "xx", "type": "MIC", "unit": "xx"}]
    r = client.post(
        f"/workbooks/{wid}/extract",
        {"schema": schema, "table": table, "model": False},
        headers={"Accept": "text/event-stream"},
    )
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream")
    frames = [f.split("\n") for f in r.body.decode().split("\n\n") if f.strip() and not f.startswith(":")]
    events = [(a.removeprefix("event: "), json.loads(b.removeprefix("data: "))) for a, b in frames]
    assert [e for e, _ in events] == ["record", "result"]
    assert events[0][1]["type"] == "MIC" and events[0][1]["unit"] == "µg/mL" and events[1][1]["count"] == 1


def test_extract_bad_input(client: Any, tmp_path: Path) -> None:
    wid = _open(client, tmp_path)
    for body, status, words in (
        ({"range": "A1:C3"}, 400, "schema"),
        ({"schema": {"type": "object", "properties": 3}}, 400, "JSON Schema"),
        ({"schema": SCHEMA, "range": "A1:A3", "model": False}, 400, "no numeric cells"),
        ({"schema": SCHEMA, "range": "Nope!A1:B2"}, 404, "Nope"),
        ({"schema": SCHEMA, "model": "yes"}, 400, "model"),
        ({"schema": SCHEMA, "table": "<table></table>", "range": "A1"}, 400, "not both"),
        ({"schema": SCHEMA, "extra": 1}, 400, "extra"),
    ):
        r = client.post(f"/workbooks/{wid}/extract", body)
        assert r.status == status, (body, r.body)
        assert words.lower() in r.error["message"].lower(), r.error
    assert client.post("/workbooks/nope/extract", {"schema": SCHEMA}).status == 404

"""A folder as one library over the real HTTPS server: open (index into a real lancedb folder), watch
progress, ask across files with file/sheet/range evidence, and every kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, spreadsheet_folder: Any) -> Path:
    return spreadsheet_folder(tmp_path_factory.mktemp("library") / "books")  # type: ignore[no-any-return]


def _events(body: bytes) -> list[tuple[str, Any]]:
    frames = [f for f in body.decode().split("\n\n") if f.strip() and not f.startswith(":")]
    out = []
    for f in frames:
        head, data = f.split("\n", 1)
        out.append((head.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


def test_open_index_status_and_ask(client: Any, folder: Path, home: Path) -> None:
    r = client.post("/libraries", {"path": str(folder)}, headers={"Accept": "text/event-stream"})
    assert r.status == 200, r.body
    events = _events(r.body)
    progress = [d for e, d in events if e == "progress"]
    assert [p["files_done"] for p in progress] == [1, 2, 3] and {p["files_total"] for p in progress} == {3}
    assert {p["file"] for p in progress} == {"billionaires.csv", "passengers.csv", "sub/farm.xlsx"}
    assert progress[-1]["cells"] > 0
    kind, info = events[-1]
    assert kind == "result" and info["status"] == "ready" and info["report"]["tables"] == 3
    lid = info["id"]
    assert Path(info["report"]["db"]).is_relative_to(home / "indexes")  # the sidecar's home, not the folder
    assert (Path(info["report"]["db"]) / "index.json").is_file()

    status = client.get(f"/libraries/{lid}")
    assert status.status == 200 and status.json["status"] == "ready"
    assert status.json["files_done"] == status.json["files_total"] == 3
    assert [x["id"] for x in client.get("/libraries").json["libraries"]] == [lid]

    ans = client.post(
        f"/libraries/{lid}/ask", {"question": "How old is the youngest billionaire?", "model": False}
    )
    assert ans.status == 200, ans.body
    a = ans.json["answer"]
    assert a["status"] == "answered" and a["value"] == 27 and a["file"] == "billionaires.csv"
    assert a["evidence"] == [{"file": "billionaires.csv", "sheet": "billionaires", "range": "C2:C4"}]
    assert a["retrieval"]["tables"][0]["file"] == "billionaires.csv"

    ans = client.post(
        f"/libraries/{lid}/ask",
        {"question": "What is the total of Tonnes?", "model": False},
        headers={"Accept": "text/event-stream"},
    )
    events = _events(ans.body)
    assert events[0][0] == "progress" and events[-1][0] == "result"
    a = events[-1][1]["answer"]
    assert a["value"] == 245 and a["evidence"][0]["file"] == "sub/farm.xlsx"
    assert a["evidence"][0]["sheet"] == "Harvest" and a["evidence"][0]["range"] == "B2:B4"

    nothing = client.post(
        f"/libraries/{lid}/ask", {"question": "What is the capital of Mars?", "model": False}
    )
    assert nothing.status == 200 and nothing.json["answer"]["status"] == "abstained"
    assert "closest" in nothing.json["answer"]["reason"]

    # Opening it again is incremental: nothing changed, same id.
    again = client.post("/libraries", {"path": str(folder)})
    assert again.status == 201 and again.json["id"] == lid and again.json["report"]["unchanged"] == 3
    assert client.delete(f"/libraries/{lid}").status == 204
    assert client.get(f"/libraries/{lid}").status == 404


def test_bad_folders_and_bad_requests(client: Any, folder: Path, tmp_path: Path, home: Path) -> None:
    empty = tmp_path / "empty"
    (empty / ".hidden").mkdir(parents=True)
    (empty / "notes.txt").write_text("no spreadsheets here", encoding="utf-8")
    (empty / ".hidden" / "x.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bad.xlsx").write_bytes(b"this is not a zip file")
    for body, status, code, words in (
        ({"path": str(tmp_path / "nope")}, 404, "folder_not_found", "does not exist"),
        ({"path": str(folder / "passengers.csv")}, 400, "not_a_folder", "not a folder"),
        ({"path": str(empty)}, 422, "no_spreadsheets", "holds no spreadsheet"),
        ({"path": str(broken)}, 422, "no_tables", "no table was found in the 1 spreadsheet"),
        ({"path": "relative/folder"}, 400, "bad_request", "absolute"),
        ({"path": ""}, 400, "bad_request", "folder"),
        ({"path": 7}, 400, "bad_request", "folder"),
        ({"path": "/tmp/\x00evil"}, 400, "bad_request", "path"),
        ({"path": str(folder), "db": "/etc"}, 400, "bad_request", "unknown field"),
        ({}, 400, "bad_request", "folder"),
    ):
        r = client.post("/libraries", body)
        assert r.status == status, (body, r.body)
        assert r.error["code"] == code and words in r.error["message"], r.error
    # A folder with more spreadsheets than a library takes (a pasted "/") is refused before indexing.
    from gridsight.api import _feat_library

    many = tmp_path / "many"
    (many / "deep" / "er").mkdir(parents=True)
    for i in range(4):
        (many / "deep" / "er" / f"t{i}.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_feat_library, "MAX_FILES", 3)
        r = client.post("/libraries", {"path": str(many)})
        assert r.status == 413 and "more than 3 spreadsheets" in r.error["message"], r.body
        mp.setattr(_feat_library, "MAX_FILES", 10)
        mp.setattr(_feat_library, "SCAN_SECONDS", -1.0)  # looking takes too long
        r = client.post("/libraries", {"path": str(many)})
        assert r.status == 413 and r.error["code"] == "folder_too_large", r.body
    assert not (home / "indexes" / "many").exists() and not list((home / "indexes").glob("many-*"))
    assert client.post("/libraries", b"{not json").error["code"] == "bad_json"
    assert client.post("/libraries", b"[1, 2]").status == 400
    # A library whose files could not be read reports why, and refuses questions with a 409.
    failed = [x for x in client.get("/libraries").json["libraries"] if x["path"] == str(broken)]
    assert failed and failed[0]["status"] == "failed" and "no table" in failed[0]["error"]
    r = client.post(f"/libraries/{failed[0]['id']}/ask", {"question": "total?"})
    assert r.status == 409 and r.error["code"] == "library_not_ready"
    # Questions: unknown library, malformed, empty, too long, wrong types.
    assert client.post("/libraries/lib_nope/ask", {"question": "x"}).error["code"] == "unknown_library"
    lid = client.post("/libraries", {"path": str(folder)}).json["id"]
    for body in (
        {"question": ""},
        {"question": "x" * 2001},
        {"question": 3},
        {"question": "q", "model": "yes"},
        {"question": "q", "sheet": "A"},
    ):
        r = client.post(f"/libraries/{lid}/ask", body)
        assert r.status == 400, (body, r.body)
    assert client.post(f"/libraries/{lid}/ask", b'{"question": ').error["code"] == "bad_json"


def test_library_routes_are_documented(client: Any) -> None:
    doc = client.get("/openapi.json").json
    assert {"/api/v1/libraries", "/api/v1/libraries/{lid}", "/api/v1/libraries/{lid}/ask"} <= set(
        doc["paths"]
    )
    assert client.get("/health").json["features"]["library"]["available"] is True


def test_ask_with_the_real_model(client: Any, folder: Path) -> None:
    """The route hands the local model (when its file is in place) to retrieval and the QA pipeline;
    the answer is still computed by code and carries the same evidence."""
    lid = client.post("/libraries", {"path": str(folder)}).json["id"]
    r = client.post(
        f"/libraries/{lid}/ask",
        {"question": "How old is the youngest billionaire?", "model": True},
        headers={"Accept": "text/event-stream"},  # keep-alives every 10 s while the model works
    )
    assert r.status == 200, r.body
    kind, result = _events(r.body)[-1]
    assert kind == "result", result
    a = result["answer"]
    assert a["value"] == 27 and a["evidence"] == [
        {"file": "billionaires.csv", "sheet": "billionaires", "range": "C2:C4"}
    ]


def test_status_and_a_second_open_while_indexing(running: Any, client: Any, tmp_path: Path) -> None:
    """While a folder is being indexed, GET shows how far it got and a second open is a 409; checked from
    inside the indexing run itself (its progress callback), so the timing is certain."""
    from gridsight.api._feat_library import index, libraries

    folder = tmp_path / "growing"
    folder.mkdir()
    for i in range(3):
        (folder / f"t{i}.csv").write_text(f"Item,Count\nA,{i}\nB,{i + 1}\n", encoding="utf-8")
    with running.app.app_context():
        entry = libraries().open(folder.resolve(), running.config.home)  # what POST /libraries registers
    seen: list[tuple[str, Any]] = []

    def probe(event: str, data: Any) -> None:
        if len(seen) < 2:  # after the first file: one status read, one competing open
            seen.append(("status", client.get(f"/libraries/{entry.id}").json))
            seen.append(("open", client.post("/libraries", {"path": str(folder)})))

    done = index(entry, probe)
    status = seen[0][1]
    assert status["status"] == "indexing" and status["files_done"] == 1 and status["files_total"] == 3
    assert status["current"] == "t0.csv" and status["cells"] == 6
    second = seen[1][1]
    assert second.status == 409 and second.error["code"] == "indexing" and entry.id in second.error["message"]
    assert done["status"] == "ready" and done["files_done"] == 3 and done["current"] is None

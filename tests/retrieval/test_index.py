"""The folder index: built, updated incrementally, robust to bad files, rebuilt when old."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gridsight.retrieval._index as index_mod
from gridsight.retrieval import FileEvent, Library, build_index
from gridsight.retrieval._store import VERSION_FILE, Store

from .conftest import BILLIONAIRES, make_library, write_csv


def test_build_then_nothing_changed(tmp_path: Path, embedder: object) -> None:
    folder, db = make_library(tmp_path / "books"), tmp_path / "index"
    events: list[FileEvent] = []
    first = build_index(folder, db, embedder=embedder, on_file=events.append)
    assert sorted(first.indexed) == ["billionaires.csv", "passengers.xlsx", "shops/shops.xlsx"]
    assert (first.tables, first.skipped, first.removed) == (4, {}, [])
    assert first.columns == 5 + 5 + 3 + 4
    assert [e.done for e in events] == [1, 2, 3] and {e.total for e in events} == {3}
    assert sum(e.cells for e in events) == first.cells > 0
    store = Store(db, embedder.name, create=False)  # type: ignore[attr-defined]
    assert store.count("sheets") == 4 and store.count("columns") == 17
    again = build_index(folder, db, embedder=embedder)
    assert again.indexed == [] and len(again.unchanged) == 3 and again.tables == 0


def test_changed_and_deleted_files(tmp_path: Path, embedder: object) -> None:
    folder, db = make_library(tmp_path / "books"), tmp_path / "index"
    build_index(folder, db, embedder=embedder)
    write_csv(folder / "billionaires.csv", [*BILLIONAIRES, ("Eli Moe", "M", 45, 3000, "Peru")])
    (folder / "passengers.xlsx").unlink()
    report = build_index(folder, db, embedder=embedder)
    assert report.indexed == ["billionaires.csv"] and report.removed == ["passengers.xlsx"]
    lib = Library(db, embedder)
    files = {s["file"] for s in lib.sheets.values()}
    assert files == {"billionaires.csv", "shops/shops.xlsx"}
    rows = {s["file"]: s["rows"] for s in lib.sheets.values()}
    assert rows["billionaires.csv"] == 5  # the new row is there, the old card is gone
    assert Store(db, embedder.name, create=False).count("columns") == 5 + 3 + 4  # type: ignore[attr-defined]


def test_unreadable_files_are_skipped_with_a_reason(tmp_path: Path, embedder: object) -> None:
    folder, db = make_library(tmp_path / "books"), tmp_path / "index"
    (folder / "broken.xlsx").write_bytes(b"PK\x03\x04 this is not a workbook")
    (folder / "empty.csv").write_bytes(b"")
    (folder / "~$passengers.xlsx").write_bytes(b"lock file of an open workbook")
    (folder / "notes.txt").write_text("not a spreadsheet", encoding="utf-8")
    report = build_index(folder, db, embedder=embedder)
    assert set(report.skipped) <= {"broken.xlsx", "empty.csv"} and "broken.xlsx" in report.skipped
    assert report.skipped["broken.xlsx"]
    assert "passengers.xlsx" in report.indexed and report.tables == 4
    again = build_index(folder, db, embedder=embedder)  # a skipped file is not retried while unchanged
    assert "broken.xlsx" in again.skipped and again.indexed == []


def test_a_file_that_changes_while_read(
    tmp_path: Path, embedder: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, db = make_library(tmp_path / "books"), tmp_path / "index"
    real = index_mod._read
    writes = {"n": 0}

    def read_while_saving(path: Path, rel: str):  # type: ignore[no-untyped-def]
        out = real(path, rel)
        if rel == "billionaires.csv":  # the user saves again while GridSight reads
            writes["n"] += 1
            write_csv(path, [*BILLIONAIRES, ("Saved", "M", writes["n"], 1, "Peru")])
        return out

    monkeypatch.setattr(index_mod, "_read", read_while_saving)
    report = build_index(folder, db, embedder=embedder)
    assert "changed while" in report.skipped["billionaires.csv"] and writes["n"] == 2
    monkeypatch.setattr(index_mod, "_read", real)
    later = build_index(folder, db, embedder=embedder)  # once it stops changing, it is indexed
    assert later.indexed == ["billionaires.csv"] and later.skipped == {}


def test_an_index_of_another_version_is_rebuilt(tmp_path: Path, embedder: object) -> None:
    folder, db = make_library(tmp_path / "books"), tmp_path / "index"
    build_index(folder, db, embedder=embedder)
    (db / VERSION_FILE).write_text(json.dumps({"version": 0, "embedder": "old"}), encoding="utf-8")
    report = build_index(folder, db, embedder=embedder)
    assert report.rebuilt and len(report.indexed) == 3 and report.tables == 4
    assert json.loads((db / VERSION_FILE).read_text(encoding="utf-8"))["version"] >= 1
    (db / VERSION_FILE).write_text("{not json", encoding="utf-8")  # damaged: rebuilt too, never a crash
    assert build_index(folder, db, embedder=embedder).rebuilt


def test_missing_folder_and_missing_index(tmp_path: Path, embedder: object) -> None:
    from gridsight.errors import GridSightError

    with pytest.raises(GridSightError, match="does not exist"):
        build_index(tmp_path / "nope", tmp_path / "index", embedder=embedder)
    with pytest.raises(GridSightError, match="holds no GridSight index"):
        Library(tmp_path, embedder)


def test_a_damaged_index_is_rebuilt_by_a_writer_and_refused_by_a_reader(
    tmp_path: Path, embedder: object
) -> None:
    import shutil

    from gridsight.errors import GridSightError

    folder, db = make_library(tmp_path / "books"), tmp_path / "index"
    build_index(folder, db, embedder=embedder)
    shutil.rmtree(db / "columns.lance" / "_versions")  # a half-deleted table
    with pytest.raises(GridSightError, match="damaged"):
        Library(db, embedder)
    report = build_index(folder, db, embedder=embedder)
    assert report.rebuilt and len(report.indexed) == 3
    assert (
        Library(db, embedder).search("How old is the youngest billionaire?").tables[0].file
        == "billionaires.csv"
    )

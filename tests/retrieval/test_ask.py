"""Answering over a folder: retrieval picks the table, the single-workbook QA pipeline answers; the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gridsight.cli import cli
from gridsight.retrieval import Library
from gridsight.retrieval._answer import ask_folder, ask_library

from .conftest import PASSENGERS, make_library


def test_answer_comes_from_the_retrieved_table(library_dir: tuple[Path, Path], library: Library) -> None:
    folder, _db = library_dir
    result = ask_library(library, folder, "What is the average fare paid by the passengers?")
    ans = result.answer
    fares = [r[4] for r in PASSENGERS[1:]]
    assert ans.status == "answered" and abs(ans.value - sum(fares) / len(fares)) < 1e-9
    assert result.file == "passengers.xlsx"
    assert ans.evidence and all(
        e["file"] == "passengers.xlsx" and e["sheet"] == "Passengers" for e in ans.evidence
    )
    assert "retrieved from passengers.xlsx" in ans.explanation


def test_a_question_about_a_second_sheet(library_dir: tuple[Path, Path], library: Library) -> None:
    folder, _db = library_dir
    result = ask_library(library, folder, "What is the total amount?")
    assert result.answer.status == "answered" and result.answer.value == 545.75
    assert result.answer.evidence[0] | {} == {**result.answer.evidence[0], "file": "shops/shops.xlsx"}
    assert result.answer.evidence[0]["sheet"] == "Orders"


def test_abstains_naming_the_closest_tables(library_dir: tuple[Path, Path], library: Library) -> None:
    folder, _db = library_dir
    result = ask_library(library, folder, "What is the boiling point of liquid nitrogen on Venus?")
    assert result.answer.status == "abstained"
    assert "closest" in (result.answer.reason or "") and ".xls" in (result.answer.reason or "")


def test_ask_folder_builds_the_index_when_missing(tmp_path: Path, embedder: object) -> None:
    folder = make_library(tmp_path / "books")
    db = tmp_path / "index"
    result = ask_folder(folder, "How old is the youngest billionaire?", db=db, embedder=embedder)
    assert (db / "index.json").is_file()
    assert (
        result.answer.status == "answered" and result.answer.value == 27 and result.file == "billionaires.csv"
    )


def test_cli_index_and_ask(tmp_path: Path) -> None:
    folder = make_library(tmp_path / "books")
    (folder / "broken.xlsx").write_bytes(b"PK\x03\x04 a damaged zip")
    db = tmp_path / "index"
    runner = CliRunner()
    res = runner.invoke(cli, ["index", str(folder), "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("3 indexed, 0 unchanged, 0 removed, 1 skipped; 4 new tables, 17 new columns")
    assert "skipped broken.xlsx: " in res.output
    again = runner.invoke(cli, ["index", str(folder), "--db", str(db), "--format", "json"])
    doc = json.loads(again.output)
    assert doc["unchanged"] == 4 and doc["indexed"] == [] and list(doc["skipped"]) == ["broken.xlsx"]
    res = runner.invoke(cli, ["ask", str(folder), "How old is the youngest billionaire?", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0] == "27"
    assert "evidence: billionaires.csv billionaires!" in res.output
    res = runner.invoke(cli, ["ask", str(folder), "What is the capital of Mars?", "--db", str(db)])
    assert res.exit_code == 1 and res.output.startswith("cannot answer: no table's columns are about")


def test_cli_bad_folder(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["index", str(tmp_path / "missing"), "--db", str(tmp_path / "i")])
    assert res.exit_code == 2 and "does not exist" in res.output


def test_the_progress_bar_counts_files_and_cells(tmp_path: Path, embedder: object) -> None:
    from io import StringIO

    from rich.console import Console

    from gridsight.retrieval.cli import index_folder

    folder = make_library(tmp_path / "books")
    out = StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    report = index_folder(folder, tmp_path / "index", console=console, embedder=embedder)
    text = out.getvalue()
    assert f"3/3 files, {report.cells:,} cells" in text


def test_an_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    db = str(tmp_path / "index")
    runner = CliRunner()
    res = runner.invoke(cli, ["index", str(tmp_path / "empty"), "--db", db])
    assert res.exit_code == 0 and res.output.startswith("0 indexed")
    res = runner.invoke(cli, ["ask", str(tmp_path / "empty"), "What is the total?", "--db", db])
    assert res.exit_code == 1 and res.output == "cannot answer: the library holds no tables\n"

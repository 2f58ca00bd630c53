"""`gridsight extract` on real files: JSON lines, --out, --to-sheet through an edit plan, --undo, errors."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from gridsight.cli import cli

SCHEMA = [
    {"value": "xx", "type": "Other"},
    {"value": "xx", "type": "IC50", "unit": "xx", "compound": "xx", "target": "xx"},
]


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("GRIDSIGHT_HOME", str(tmp_path / "home"))
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Assay"
    ws.append(["Notes on the assay"])
    ws.append([])
    for row in (
        ["Compound", "Kinase A IC50 (nM)", "Solubility (mg/mL)"],
        ["C-1", 12, 0.5],
        ["C-2", 8.5, "n.d."],
    ):
        ws.append(row)
    book = tmp_path / "assay.xlsx"
    wb.save(book)
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA), encoding="utf-8")
    return book, schema


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_records_as_json_lines(files: tuple[Path, Path]) -> None:
    book, schema = files
    code, out, _ = _run("extract", str(book), "--schema", str(schema), "--range", "Assay!A3:C5")
    assert code == 0
    docs = [json.loads(line) for line in out.splitlines()]
    assert [(d["address"], d["value"], d["type"], d.get("unit")) for d in docs] == [
        ("B4", "12", "IC50", "nM"),
        ("C4", "0.5", "Other", "mg/mL"),
        ("B5", "8.5", "IC50", "nM"),
    ]
    assert docs[0]["row_label"] == "C-1" and docs[0]["header_path"] == "Kinase A IC50 (nM)"


def test_out_file_and_new_sheet_with_undo(files: tuple[Path, Path], tmp_path: Path) -> None:
    book, schema = files
    out = tmp_path / "records.jsonl"
    code, _, err = _run("extract", str(book), "--schema", str(schema), "--range", "A3:C5", "--out", str(out))
    assert code == 0 and "wrote 3 records" in err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    before = book.read_bytes()
    code, out_text, _ = _run(
        "extract",
        str(book),
        "--schema",
        str(schema),
        "--range",
        "A3:C5",
        "--to-sheet",
        "Records",
        "--dry-run",
    )
    assert code == 0 and json.loads(out_text)["applied"] is False and book.read_bytes() == before
    code, out_text, _ = _run(
        "extract", str(book), "--schema", str(schema), "--range", "A3:C5", "--to-sheet", "Records"
    )
    assert code == 0 and json.loads(out_text)["applied"] is True
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames == ["Assay", "Records"]
    rows = [[c.value for c in r] for r in wb["Records"].iter_rows()]
    assert rows[0][:4] == ["address", "value", "type", "unit"] and rows[1][:4] == ["B4", "12", "IC50", "nM"]
    # the same name again is refused, nothing written
    code, _, err = _run(
        "extract", str(book), "--schema", str(schema), "--range", "A3:C5", "--to-sheet", "Records"
    )
    assert code == 2 and "already has a sheet named 'Records'" in err
    code, out_text, _ = _run("extract", str(book), "--undo")
    assert code == 0 and json.loads(out_text)["cells_restored"] > 0
    assert openpyxl.load_workbook(book).sheetnames == ["Assay"]
    code, _, err = _run("extract", str(book), "--undo")
    assert code == 2 and "nothing to undo" in err


def test_bad_input_is_one_clear_line(files: tuple[Path, Path], tmp_path: Path) -> None:
    book, schema = files
    bad = tmp_path / "bad.json"
    bad.write_text('{"type": "object", "properties": 7}', encoding="utf-8")
    code, _, err = _run("extract", str(book), "--schema", str(bad))
    assert code == 2 and err.startswith("error: not a valid JSON Schema")
    code, _, err = _run("extract", str(book), "--schema", str(schema), "--range", "A1:A2")
    assert code == 2 and "no numeric cells" in err
    code, _, err = _run("extract", str(tmp_path / "missing.xlsx"), "--schema", str(schema))
    assert code == 2 and "does not exist" in err
    html = tmp_path / "t.html"
    html.write_text(
        "<table><tr><th>a</th><th>b</th></tr><tr><td>x</td><td>1.5 nM</td></tr></table>", encoding="utf-8"
    )
    code, _, err = _run("extract", str(html), "--schema", str(schema), "--to-sheet", "R")
    assert code == 2 and "--to-sheet writes into an .xlsx" in err
    code, out, _ = _run("extract", str(html), "--schema", str(schema))
    assert code == 0 and json.loads(out)["unit"] == "nM"

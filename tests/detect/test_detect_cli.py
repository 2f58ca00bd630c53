"""`gridsight detect` and `gridsight bench detect` end to end (real files, real output)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from gridsight.cli import cli


def test_detect_text(styled_xlsx: Path) -> None:
    path = styled_xlsx
    res = CliRunner().invoke(cli, ["detect", str(path), "--no-model"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[:4] == [
        "sheet Report: 2 table(s)  used A1:G10",
        "  T1 A3:C8",
        "     title   A1:H1  Quarterly sales",
        "     header  A3:C3  rows 3",
    ]
    assert res.output.rstrip().endswith("(model switched off (--no-model))")


def test_detect_json_and_picture(styled_xlsx: Path, tmp_path: Path) -> None:
    path = styled_xlsx
    png = tmp_path / "map.png"
    res = CliRunner().invoke(
        cli,
        ["detect", str(path), "--sheet", "report", "--format", "json", "--picture", str(png), "--no-model"],
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    tables = doc["sheets"][0]["tables"]
    assert [t["range"] for t in tables] == ["A3:C8", "E3:G7"]
    assert tables[0]["total_rows"] == [8] and tables[0]["header_paths"] == ["Product", "Q1", "Q2"]
    assert doc["pictures"] == [str(png)]
    with Image.open(png) as img:
        assert img.format == "PNG" and img.width >= 8 * 10 and img.height > 10 * 10


def test_detect_bad_input(styled_xlsx: Path, tmp_path: Path) -> None:
    missing = CliRunner().invoke(cli, ["detect", str(tmp_path / "nope.xlsx")])
    assert missing.exit_code == 2 and missing.output.startswith("error: ")
    path = styled_xlsx
    bad_sheet = CliRunner().invoke(cli, ["detect", str(path), "--sheet", "Nope", "--no-model"])
    assert bad_sheet.exit_code == 2 and bad_sheet.output.startswith("error: ")


def test_bench_detect(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    res = CliRunner().invoke(
        cli,
        ["bench", "detect", "--corpus", str(corpus / "tables"), "--out", str(out), "--no-model", "--no-big"],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(out.read_text())["summary"]
    for key in ("eob0_precision", "eob0_recall", "eob0_f1", "eob2_f1", "seconds_per_sheet"):
        assert 0.0 <= summary[key] <= 1.0, key
    folders = sorted(p.name for p in (corpus / "tables").iterdir() if (p / "labels.json").is_file())
    assert sorted(summary["by_folder"]) == folders
    assert summary["model"] is None
    assert summary["sheets"] == sum(f["sheets"] for f in summary["by_folder"].values())
    assert summary["eob2_f1"] >= summary["eob0_f1"] > 0.6  # the aggregate on the visible sets
    assert summary["recall"] > 0.75
    # Tasi labels only some tables: detections overlapping none are unjudged, the strict
    # figures count them as false positives
    assert summary["eob0_precision_strict"] <= summary["eob0_precision"]
    assert summary["eob0_f1_strict"] <= summary["eob0_f1"]
    assert summary["unjudged_detections"] >= 1
    last = res.output.rstrip().splitlines()[-1]
    assert last.startswith("detect: EoB-0 F1 ") and "strict" in last


def _csv_table(path: Path, top: int) -> None:
    """A CSV with a title line, then a header and four rows from row ``top`` (0-based)."""
    lines = ["Sales by region,,"] + [",,"] * (top - 1)
    lines += ["Region,Q1,Q2"] + [f"r{i},{i},{i * 2}" for i in range(4)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_bench_reads_every_labelled_folder_whatever_its_name(tmp_path: Path, styled_xlsx: Path) -> None:
    root = tmp_path / "my corpus"
    # the root itself holds FUSTE-format labels, its CSV beside them (no csv/ folder)
    root.mkdir()
    _csv_table(root / "a.csv", 2)
    region = {"region_type": "Table", "top_lx": [0, 2], "bot_rx": [2, 6]}
    title = {"region_type": "MetaTitle", "top_lx": [0, 0], "bot_rx": [0, 0]}
    (root / "labels.json").write_text(json.dumps({"a.csv": {"n_regions": 2, "regions": [region, title]}}))
    # a sub-folder in the Tasi format under a name that is neither tasi nor fuste
    books = root / "workbooks"
    (books / "xlsx").mkdir(parents=True)
    (books / "xlsx" / "r.xlsx").write_bytes(styled_xlsx.read_bytes())
    tables = [{"sheet": "Report", "range": "A3:C8"}, {"sheet": "Report", "range": "E3:G8"}]
    (books / "labels.json").write_text(json.dumps({"r.xlsx": {"included": True, "tables": tables}}))
    # a FUSTE-format sub-folder whose label is one row short (EoB-0 miss, EoB-2 hit)
    sheets = root / "zz sheets"
    (sheets / "csv").mkdir(parents=True)
    _csv_table(sheets / "csv" / "b.csv", 1)
    short = {"region_type": "Table", "top_lx": [0, 1], "bot_rx": [2, 4]}
    (sheets / "labels.json").write_text(json.dumps({"b.csv": {"regions": [short]}}))
    (root / "no labels").mkdir()  # a folder without labels.json is not a set
    out = tmp_path / "d.json"
    res = CliRunner().invoke(
        cli, ["bench", "detect", "--corpus", str(root), "--out", str(out), "--no-model", "--no-big"]
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(out.read_text())["summary"]
    by = summary["by_folder"]
    assert list(by) == ["my corpus", "workbooks", "zz sheets"]
    assert by["my corpus"]["eob0_f1"] == 1.0 and by["my corpus"]["labelled_tables"] == 1
    # E3:G7 overlaps the E3:G8 label without matching it: judged, a false positive
    assert by["workbooks"]["recall"] == 0.5 and by["workbooks"]["labelled_tables"] == 2
    assert by["zz sheets"]["eob0_f1"] == 0.0 and by["zz sheets"]["eob2_f1"] == 1.0
    assert summary["sheets"] == 3 and summary["labelled_tables"] == 4
    assert summary["recall"] == 0.5 and summary["precision"] == 0.5
    for key in ("eob0_f1", "eob0_f1_strict", "eob2_f1", "precision", "recall", "seconds_per_sheet"):
        assert 0.0 <= summary[key] <= 1.0, key
    assert "workbooks" in res.output.rstrip().splitlines()[-1]


def test_bench_without_labelled_folders_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "tasi").mkdir()
    res = CliRunner().invoke(cli, ["bench", "detect", "--corpus", str(tmp_path), "--no-model", "--no-big"])
    assert res.exit_code != 0 and "no labelled sheets" in res.output
    (tmp_path / "labels.json").write_text("{not json")
    res = CliRunner().invoke(cli, ["bench", "detect", "--corpus", str(tmp_path), "--no-model", "--no-big"])
    assert res.exit_code != 0 and "cannot read" in res.output and "Traceback" not in res.output
    (tmp_path / "labels.json").write_text('{"a.csv": {"regions": [{"region_type": "Table", "top_lx": [0]}]}}')
    (tmp_path / "a.csv").write_text("x,y\n1,2\n")
    res = CliRunner().invoke(cli, ["bench", "detect", "--corpus", str(tmp_path), "--no-model", "--no-big"])
    assert res.exit_code != 0 and "'a.csv' is malformed" in res.output and "Traceback" not in res.output

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
    assert summary["model"] is None and summary["sheets"] == 40
    assert summary["eob2_f1"] >= summary["eob0_f1"] > 0.3
    # Tasi labels only some tables: detections overlapping none are unjudged, the strict
    # figures count them as false positives
    assert summary["eob0_precision_strict"] <= summary["eob0_precision"]
    assert summary["eob0_f1_strict"] <= summary["eob0_f1"]
    assert summary["unjudged_detections"] >= 1
    last = res.output.rstrip().splitlines()[-1]
    assert last.startswith("detect: EoB-0 F1 ") and "strict" in last

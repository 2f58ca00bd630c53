"""`gridsight bench compress` on a corpus folder written here (both label forms) and on the shared one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import Workbook as OpenpyxlWorkbook

from gridsight.bench.compress import load_labels
from gridsight.cli import cli
from gridsight.grid import Range

SUMMARY_KEYS = {
    "aggregate_ratio",
    "median_ratio",
    "boundary_retention",
    "cells_per_s",
    "best_peer",
    "best_peer_ratio",
    "best_peer_cells_per_s",
}


@pytest.fixture
def mini_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "tables"
    (root / "tasi" / "xlsx").mkdir(parents=True)
    (root / "fuste" / "csv").mkdir(parents=True)
    wb = OpenpyxlWorkbook()
    ws = wb.active
    ws.title = "Data"
    ws["A1"] = "Quarterly units"
    ws.append([])
    ws.append(["Region", "Q1", "Q2", "Q3"])
    for i in range(80):
        ws.append([f"R{i % 7}", i, i * 2, i * 3])
    wb.save(root / "tasi" / "xlsx" / "a.xlsx")
    labels = {
        "a.xlsx": {"tables": [{"sheet": "data", "range": "A3:D83"}]},
        "missing.xlsx": {"tables": [{"sheet": "X", "range": "A1:B2"}]},
    }
    (root / "tasi" / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    rows = ["Title,,", ",,", "k,v,w"] + [f"x{i % 5},{i},{i / 4}" for i in range(50)] + [",,", "note,,"]
    (root / "fuste" / "csv" / "b.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    fuste = {
        "b.csv": {
            "regions": [
                {"region_type": "Table", "top_lx": [0, 2], "bot_rx": [2, 52]},
                {"region_type": "MetaTitle", "top_lx": [0, 0], "bot_rx": [0, 0]},
            ]
        }
    }
    (root / "fuste" / "labels.json").write_text(json.dumps(fuste), encoding="utf-8")
    return tmp_path


def test_labels_in_both_forms(mini_corpus: Path) -> None:
    labels = load_labels(mini_corpus / "tables")
    assert [(lab.file.name, lab.sheet, lab.rng) for lab in labels] == [
        ("b.csv", None, Range.parse("A3:C53")),  # FUSTE [col,row] 0-based; only Table regions
        ("a.xlsx", "data", Range.parse("A3:D83")),
    ]


def test_bench_on_a_written_corpus(mini_corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "compress.json"
    result = CliRunner().invoke(
        cli, ["bench", "compress", "--corpus", str(mini_corpus), "--out", str(out), "--cells", "0"]
    )
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("compress: ") and "boundary retention 100.0% at k=4" in last
    doc = json.loads(out.read_text())
    s = doc["summary"]
    assert set(s) >= SUMMARY_KEYS
    assert s["boundary_retention"] == 1.0
    assert (s["labelled_tables"], s["boundary_lines"], s["sheets"]) == (2, 8, 2)
    assert (s["best_peer"], s["best_peer_ratio"], s["best_peer_cells_per_s"]) == (None, None, None)
    assert s["aggregate_ratio"] == round(s["vanilla_tokens"] / s["compressed_tokens"], 3)
    assert s["aggregate_ratio"] > 10
    assert s["ratio_vanilla"] == 1.0
    assert s["ratio_anchors_index_aggregate_semantic"] == s["aggregate_ratio"]  # the default
    assert s["aggregate_ratio"] > s["ratio_anchors_index_aggregate"]  # the paper's three modules
    assert s["ratio_no_lists"] < s["aggregate_ratio"]
    assert s["text_coverage"] < s["text_coverage_lossless"] == 1.0  # semantic hid some row labels
    # detection on the decoded encoding, with and without semantic compression, beside the sheet's own
    assert {f"eob{k}_f1_{v}" for k in (0, 2) for v in ("sheet", "lossless", "semantic")} <= set(s)
    assert doc["detection"]["sheets"] == 2 and doc["detection"]["failures"] == []
    assert doc["retention"]["skipped"] == 0 and doc["retention"]["missed"] == []
    assert {r["file"] for r in doc["rows"]} == {"tasi/xlsx/a.xlsx", "fuste/csv/b.csv"}


def test_bench_accepts_the_tables_folder_itself(mini_corpus: Path) -> None:
    result = CliRunner().invoke(
        cli, ["bench", "compress", "--corpus", str(mini_corpus / "tables"), "--cells", "0"]
    )
    assert result.exit_code == 0


def test_bench_refuses_a_folder_without_spreadsheets(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["bench", "compress", "--corpus", str(tmp_path), "--cells", "0"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no readable spreadsheets under")


def test_bench_on_the_shared_corpus(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "shared.json"
    result = CliRunner().invoke(
        cli, ["bench", "compress", "--corpus", str(corpus), "--out", str(out), "--cells", "0"]
    )
    assert result.exit_code == 0, result.output
    s = json.loads(out.read_text())["summary"]
    assert s["sheets"] >= 49 and s["labelled_tables"] >= 61  # the corpus grows (fuste_dev)
    assert s["boundary_retention"] >= 0.99
    assert s["aggregate_ratio"] > s["ratio_anchors_index_aggregate"] > s["ratio_anchors_index"] > 1.0
    assert s["eob0_f1_semantic"] >= s["eob0_f1_lossless"] - 0.02  # semantic's default rests on this


def test_a_peer_process_that_dies_costs_one_sheet_not_the_run(tmp_path: Path) -> None:
    import sys

    from gridsight.bench.compress import _run_peer

    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{}] * 4))
    runner = tmp_path / "runner.py"
    runner.write_text(
        "import json, os, sys\n"
        "for i in range(int(sys.argv[3]), 4):\n"
        "    if i == 1:\n"
        "        os.abort()  # a native crash, as a Rust panic across FFI or a segfault would be\n"
        "    print(json.dumps({'i': i, 'seconds': 0.5, 'texts': {'p': 'x'}}), flush=True)\n"
    )
    docs = list(_run_peer(Path(sys.executable), "p", jobs, 4, runner))
    assert [d["i"] for d in docs] == [0, 1, 2, 3]
    assert docs[1] == {"i": 1, "error": "process died: exit code -6"}
    assert all("error" not in d for d in (docs[0], docs[2], docs[3]))

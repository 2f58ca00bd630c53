"""`gridsight bench excel --corpus DIR --out FILE.json` over any folder of workbooks."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from click.testing import CliRunner

from gridsight.cli import cli


def test_bench_excel_over_any_folder(tmp_path: Path, excel: SimpleNamespace) -> None:
    F = excel.F
    corpus = tmp_path / "whatever name"
    (corpus / "nested" / "deeper").mkdir(parents=True)
    excel.write(corpus / "a.xlsx", {"S": {"A1": 2, "B1": F("A1*2", 4), "C1": F("B1+1", 9)}})
    excel.write(
        corpus / "nested" / "deeper" / "b.xlsx",
        {"T": {"A1": "x", "B1": F('A1&"y"', "xy"), "C1": F("TODAY()", 1)}},
    )
    (corpus / "nested" / "broken.xlsx").write_bytes(b"PK\x03\x04 a damaged package")
    (corpus / "notes.txt").write_text("not a workbook", encoding="utf-8")
    out = tmp_path / "out" / "excel.json"
    r = CliRunner().invoke(cli, ["bench", "excel", "--corpus", str(corpus), "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    s = doc["summary"]
    assert {"formulas", "agreed", "differ", "unsupported", "agreement", "by_kind", "seconds_total"} <= set(s)
    assert (s["formulas"], s["agreed"], s["differ"], s["unsupported"]) == (3, 2, 1, 0)
    assert s["agreement"] == round(2 / 3, 4) and s["by_kind"] == {"differ: number": 1}
    assert s["volatile"] == 1 and s["unreadable"] == 1 and s["workbooks"] == 3
    assert doc["examples"]["differ: number"][0]["cell"] == "C1"
    assert r.output.strip().splitlines()[-1].startswith("excel: 2/3 formulas agree")


def test_bench_excel_empty_folder_is_a_clear_error(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["bench", "excel", "--corpus", str(tmp_path)])
    assert r.exit_code != 0 and "no .xlsx" in r.output and "Traceback" not in r.output

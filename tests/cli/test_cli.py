"""The CLI over real files, asserting whole outputs; bad input exits 2 with one line, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import Workbook as OpenpyxlWorkbook
from openpyxl.styles import Font

from gridsight.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines())


@pytest.fixture
def book(tmp_path: Path) -> Path:
    wb = OpenpyxlWorkbook()
    ws = wb.active
    ws.title = "Q1"
    ws["B1"] = "Costs"
    ws.merge_cells("B1:C1")
    ws["B2"], ws["C2"] = "Item", "Cost"
    ws["B2"].font = Font(bold=True)
    ws["B3"], ws["C3"] = "Tea", 2.5
    ws["C3"].number_format = "0.00"
    ws["B4"], ws["C4"] = "Total", "=SUM(C3:C3)"
    wb.create_sheet("Empty")
    path = tmp_path / "cli.xlsx"
    wb.save(path)
    return path


def test_info_table(book: Path) -> None:
    code, out, _ = run("info", str(book))
    assert code == 0
    assert lines(out) == lines(f"""\
{book}
┏━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━┓
┃ sheet ┃ used range ┃ values ┃ formulas ┃ merges ┃ formatted ┃ styled ┃
┡━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━┩
│ Q1    │ B1:C4      │      6 │        1 │      1 │         1 │      1 │
│ Empty │ (empty)    │      0 │        0 │      0 │         0 │      0 │
└───────┴────────────┴────────┴──────────┴────────┴───────────┴────────┘
""")


def test_info_json(book: Path) -> None:
    code, out, _ = run("info", str(book), "--format", "json")
    assert code == 0
    assert json.loads(out) == {
        "file": str(book),
        "date1904": False,
        "sheets": [
            {
                "name": "Q1",
                "used_range": "B1:C4",
                "rows": 4,
                "columns": 2,
                "values": 6,
                "formulas": 1,
                "merges": 1,
                "formatted": 1,
                "styled": 1,
                "number_formats": ["0.00"],
            },
            {
                "name": "Empty",
                "used_range": None,
                "rows": 0,
                "columns": 0,
                "values": 0,
                "formulas": 0,
                "merges": 0,
                "formatted": 0,
                "styled": 0,
                "number_formats": [],
            },
        ],
    }


def test_show_grid_and_formulas(book: Path) -> None:
    code, out, _ = run("show", str(book), "--range", "B:C", "--formulas")
    assert code == 0
    assert lines(out) == lines("""\
Q1!B1:C4
┏━━━┳━━━━━━━┳━━━━━━━━━━━━━┓
┃   ┃ B     ┃ C           ┃
┡━━━╇━━━━━━━╇━━━━━━━━━━━━━┩
│ 1 │ Costs │             │
│ 2 │ Item  │ Cost        │
│ 3 │ Tea   │ 2.50        │
│ 4 │ Total │ =SUM(C3:C3) │
└───┴───────┴─────────────┘
""")


def test_show_json_and_sheet_options(book: Path) -> None:
    code, out, _ = run("show", str(book), "--range", "'q1'!B2:C3", "--format", "json")
    assert code == 0
    assert json.loads(out) == {
        "sheet": "Q1",
        "range": "B2:C3",
        "values": [["Item", "Cost"], ["Tea", 2.5]],
        "formulas": {},
        "clipped": False,
        "requested": "B2:C3",
    }
    code, out, _ = run("show", str(book), "--sheet", "Empty")
    assert (code, out) == (0, "Empty: (empty)\n")


def test_show_clips_huge_requests(book: Path) -> None:
    code, out, _ = run("show", str(book), "--range", "A1:CZ9000", "--format", "json")
    doc = json.loads(out)
    assert (
        code == 0
        and doc["clipped"] is True
        and doc["range"] == "A1:BH500"
        and doc["requested"] == "A1:CZ9000"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["info", "{tmp}/missing.xlsx"], "error: {tmp}/missing.xlsx: no such file"),
        (["show", "{book}", "--range", "A1:ZZZZ3"], "error: 'ZZZZ3' is not an A1 cell address"),
        (["show", "{book}", "--range", "B2:"], "error: '' is not an A1 cell address"),
        (
            ["show", "{book}", "--sheet", "Nope"],
            "error: cli.xlsx has no sheet named 'Nope'; sheets are: 'Q1', 'Empty'",
        ),
        (
            ["show", "{book}", "--range", "'Nope'!A1"],
            "error: no sheet named 'Nope'; sheets are: 'Q1', 'Empty'",
        ),
        (["info", "{tmp}/blob.xlsx"], "error: blob.xlsx is not a spreadsheet GridSight can read"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(book: Path, tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "blob.xlsx").write_bytes(b"\x00\x01\x02garbage" * 100)
    args = [a.format(tmp=tmp_path, book=book) for a in args]
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith(message.format(tmp=tmp_path)) and err.count("\n") == 1
    assert "Traceback" not in err


def test_demo_prints_what_it_sees() -> None:
    code, out, _ = run("demo", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    sheet = doc["workbook"]["sheets"][0]
    assert (sheet["name"], sheet["used_range"], sheet["values"], sheet["formulas"], sheet["merges"]) == (
        "Sales 2024",
        "A1:J19",
        86,
        17,
        1,
    )
    grid = doc["grid"]
    assert grid["values"][2][:6] == ["Month", "North", "South", "East", "West", "Total"]
    assert grid["values"][3][:2] == ["2024-01-01T00:00:00", 120.5]
    assert grid["formulas"]["F16"] == "=SUM(F4:F15)"


def test_demo_keeps_the_workbook_when_asked(tmp_path: Path) -> None:
    code, out, _ = run("demo", "--out", str(tmp_path / "d.xlsx"))
    assert code == 0 and (tmp_path / "d.xlsx").is_file()
    assert f"demo workbook saved to {tmp_path / 'd.xlsx'}" in out.replace("\n", "")


def test_console_script_errors_without_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("gridsight")
    proc = subprocess.run(
        [str(exe), "info", str(tmp_path / "nope.csv")], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr == f"error: {tmp_path / 'nope.csv'}: no such file\n"


def test_usage_errors_exit_2() -> None:
    code, _, err = run("show")
    assert code == 2 and "Missing argument 'PATH'" in err


def test_bench_read_writes_the_summary_contract(corpus: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "read.json"
    code, out, _ = run("bench", "read", "--corpus", str(corpus), "--cells", "4000", "--out", str(out_file))
    assert code == 0, out
    summary = json.loads(out_file.read_text())["summary"]
    assert set(summary) >= {
        "files",
        "failed",
        "seconds_total",
        "million_cells_values_s",
        "million_cells_formats_s",
        "peak_rss_mb",
    }
    expected = sum(1 for p in (corpus / "tables").rglob("*") if p.suffix in (".xlsx", ".csv"))
    assert summary["files"] == expected and summary["failed"] == 0
    assert out.rstrip().splitlines()[-1].startswith(f"read: {expected} files, 0 failed")


def test_help_lists_the_commands() -> None:
    code, out, _ = run("--help")
    assert code == 0
    for name in ("demo", "info", "show", "bench", "explain-formula", "formula"):
        assert f"  {name} " in out
    code, out, _ = run("bench", "--help")
    assert code == 0 and "  read " in out and "  formula " in out


def test_demo_finds_tables_and_answers() -> None:
    code, out, _ = run("demo", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    ranges = [t["range"] for t in doc["detection"]["tables"]]
    assert ranges == ["A3:F16", "H3:J7"]
    assert [(a["formula"], a["value"], a["display"]) for a in doc["answers"]] == [
        ("=SUM(B4:B15)", 1815, None),
        ("=INDEX(H4:H7,MATCH(MAX(J4:J7),J4:J7,0))", "East", None),
        ("=INDEX(A4:A15,MATCH(MAX(B4:B15),B4:B15,0))", 45627, "Dec 2024"),
    ]
    assert doc["region"]["range"] == "A3:F16"
    assert doc["region"]["facts"][0]["text"] == "A3:F16 holds 48 numbers, 7 texts, 12 dates, 17 formulas."

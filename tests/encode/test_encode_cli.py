"""`gridsight encode` over real files: whole outputs asserted; bad input exits 2 with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


BUDGET_TEXT = """\
B2 Budget 2024
B4 Item
C4 Cost
D4 Share
E4 Due
B5 Item 1
C5:C14 {#,##0.00}
D5:D14 {0%}
E5:E14 {yyyy-mm-dd}
B6 Item 2
B7 Item 3
B8 Item 4
B9 Item 5
B10 Item 26
B11 Item 27
B12 Item 28
B13 Item 29
B14 Item 30
B15 Total
C15 =SUM(C5:C14)
B17 Note: figures\\nare estimates | unaudited
-- Budget: 1,057 -> 137 cl100k tokens (7.7x); kept 16/36 rows, 4/4 columns
-- address map (compact = original): rows 10:17 = 30:37
"""


def test_encode_text(styled_book: Path) -> None:
    code, out, err = run("encode", str(styled_book))
    assert (code, err) == (0, "")
    assert out == BUDGET_TEXT


def test_encode_json(styled_book: Path) -> None:
    code, out, _ = run("encode", str(styled_book), "--sheet", "budget", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["modules"], doc["k"], doc["addresses"]) == ("anchors+index+aggregate", 4, "compact")
    sheet = doc["sheets"][0]
    assert {k: sheet[k] for k in ("sheet", "vanilla_tokens", "compressed_tokens", "ratio")} == {
        "sheet": "Budget",
        "vanilla_tokens": 1057,
        "compressed_tokens": 137,
        "ratio": 7.715,
    }
    assert (sheet["rows"], sheet["cols"], sheet["kept_rows"], sheet["kept_cols"]) == (36, 4, 16, 4)
    assert sheet["address_map"] == {
        "identity": False,
        "rows": [{"compact": "1:9", "original": "1:9"}, {"compact": "10:17", "original": "30:37"}],
        "cols": [{"compact": "A:E", "original": "A:E"}],
    }
    assert sheet["text"] + "-- " == BUDGET_TEXT.split("-- ")[0] + "-- "
    assert sheet["model_compressed_tokens"] is None


@pytest.mark.parametrize(
    ("flags", "first_lines"),
    [
        (["--no-anchors"], ["B2 Budget 2024", "B4 Item"]),
        (["--no-aggregate", "--k", "0"], ["B2 Budget 2024", "B4 Item", "C4 Cost"]),
        (["--no-index"], ["|B2,Budget 2024|C2, |D2, |E2, |", "|B3, |C3, |D3, |E3, |"]),
        (["--no-anchors", "--no-index", "--no-aggregate"], ["|B2,Budget 2024|C2, |D2, |E2, |"]),
        (["--addresses", "original"], ["B2 Budget 2024", "B4 Item"]),
    ],
)
def test_switches(styled_book: Path, flags: list[str], first_lines: list[str]) -> None:
    code, out, _ = run("encode", str(styled_book), *flags)
    assert code == 0
    assert out.splitlines()[: len(first_lines)] == first_lines


def test_switch_results_differ_as_expected(styled_book: Path) -> None:
    def tokens(*flags: str) -> int:
        _, out, _ = run("encode", str(styled_book), "--format", "json", *flags)
        return int(json.loads(out)["sheets"][0]["compressed_tokens"])

    full = tokens()
    assert tokens("--no-anchors") > full
    assert tokens("--no-aggregate") > full
    assert tokens("--no-index") > full
    assert tokens("--no-anchors", "--no-index", "--no-aggregate") == 1057  # vanilla


def test_every_sheet_and_empty_ones(tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "One"
    wb.active["A1"] = "only"
    wb.create_sheet("Blank")
    path = tmp_path / "two.xlsx"
    wb.save(path)
    code, out, _ = run("encode", str(path))
    assert code == 0
    assert out == (
        "## One\nA1 only\n-- One: 6 -> 4 cl100k tokens (1.5x); kept 1/1 rows, 1/1 columns\n"
        "\n## Blank\n-- Blank: empty sheet, nothing to encode\n"
    )


def test_ragged_csv_with_error_values(tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text("Name,Score\nAna,3,extra\nBo\n,,,,\nCy,#DIV/0!\n", encoding="utf-8")
    code, out, _ = run("encode", str(path))
    assert code == 0
    assert out.splitlines()[:8] == [
        "A1 Name",
        "B1 Score",
        "A2 Ana",
        "B2 {IntNum}",
        "C2 extra",
        "A3 Bo",
        "A5 Cy",
        "B5 #DIV/0!",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sheet", "nope"], "error: budget.xlsx has no sheet named 'nope'; sheets are: 'Budget'\n"),
        (
            ["--model", "/nonexistent/model.gguf"],
            "error: model file /nonexistent/model.gguf does not exist\n",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(styled_book: Path, args: list[str], message: str) -> None:
    code, out, err = run("encode", str(styled_book), *args)
    assert (code, out, err) == (2, "", message)


def test_missing_and_non_spreadsheet_files(tmp_path: Path) -> None:
    code, _, err = run("encode", str(tmp_path / "nope.xlsx"))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    junk = tmp_path / "junk.xlsx"
    junk.write_bytes(b"\x00\x01 not a zip")
    code, _, err = run("encode", str(junk))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1

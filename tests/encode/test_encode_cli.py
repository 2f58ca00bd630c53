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
B4:E4 Item|Cost|Share|Due
B5 Item 1
C5:C13 {FloatNum}
D5:D13 {0%}
E5:E13 {yyyy-mm-dd}
B6:B13 {TextData}
B14 Total
C14 =SUM(C5:C13)
B16 Note: figures\\nare estimates \\| unaudited
-- Budget: 1,057 -> 84 cl100k tokens (12.6x); kept 15/36 rows, 4/4 columns
-- address map (compact = original): rows 10:16 = 31:37
"""


def test_encode_text(styled_book: Path) -> None:
    code, out, err = run("encode", str(styled_book))
    assert (code, err) == (0, "")
    assert out == BUDGET_TEXT


def test_encode_json(styled_book: Path) -> None:
    code, out, _ = run("encode", str(styled_book), "--sheet", "budget", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["modules"], doc["k"], doc["addresses"]) == ("anchors+index+aggregate+semantic", 4, "compact")
    sheet = doc["sheets"][0]
    assert {k: sheet[k] for k in ("sheet", "vanilla_tokens", "compressed_tokens", "ratio")} == {
        "sheet": "Budget",
        "vanilla_tokens": 1057,
        "compressed_tokens": 84,
        "ratio": 12.583,
    }
    assert (sheet["rows"], sheet["cols"], sheet["kept_rows"], sheet["kept_cols"]) == (36, 4, 15, 4)
    assert sheet["address_map"] == {
        "identity": False,
        "rows": [{"compact": "1:9", "original": "1:9"}, {"compact": "10:16", "original": "31:37"}],
        "cols": [{"compact": "A:E", "original": "A:E"}],
    }
    assert sheet["text"] + "-- " == BUDGET_TEXT.split("-- ")[0] + "-- "
    assert sheet["model_compressed_tokens"] is None


@pytest.mark.parametrize(
    ("flags", "first_lines"),
    [
        (["--no-anchors"], ["B2 Budget 2024", "B4:E4 Item|Cost|Share|Due", "B5 Item 1", "C5:C34 {FloatNum}"]),
        # k=0 keeps only the anchors: the table's edge columns B and E, not C:D inside it
        (["--no-aggregate", "--k", "0"], ["B2 Budget 2024", "B4:C4 Item|Due", "B5 Item 1", "C5 2024-01-01"]),
        (
            ["--no-aggregate", "--k", "0", "--no-table-anchors"],
            ["B2 Budget 2024", "B4:E4 Item|Cost|Share|Due", "B5:B7 Item 1|Item 30|Total"],
        ),
        (["--no-index"], ["|B2,Budget 2024|C2, |D2, |E2, |", "|B3, |C3, |D3, |E3, |"]),
        (["--no-anchors", "--no-index", "--no-aggregate"], ["|B2,Budget 2024|C2, |D2, |E2, |"]),
        (
            ["--addresses", "original"],
            ["B2 Budget 2024", "B4:E4 Item|Cost|Share|Due", "B5 Item 1", "C5:C9,C31:C34 {FloatNum}"],
        ),
        (["--no-lists"], ["B2 Budget 2024", "B4 Item", "C4 Cost"]),
        (
            ["--no-semantic"],
            [
                "B2 Budget 2024",
                "B4:E4 Item|Cost|Share|Due",
                "B5:B14 Item 1|Item 2|Item 3|Item 4|Item 5|Item 27|Item 28|Item 29|Item 30|Total",
            ],
        ),
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
    assert (full, tokens("--no-semantic"), tokens("--no-lists")) == (84, 111, 88)
    assert tokens("--no-aggregate") > full
    assert tokens("--no-index") > full
    # semantic summarises the dropped rows' labels too; without it, anchors are what saves tokens
    assert tokens("--no-anchors") == full
    assert tokens("--no-anchors", "--no-semantic") > tokens("--no-semantic")
    assert tokens("--no-anchors", "--no-index", "--no-aggregate", "--no-semantic") == 1057  # vanilla


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
    assert out.splitlines()[:7] == [
        "A1:B1 Name|Score",
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

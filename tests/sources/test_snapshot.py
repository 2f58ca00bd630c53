from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from gridsight.demo import build_demo_workbook
from gridsight.errors import SnapshotError, UnknownSheetError
from gridsight.grid import CellError, Kind, Sheet, Style, Workbook
from gridsight.sources import dump_snapshot, load_snapshot, open_workbook, snapshot_schema


def small() -> Workbook:
    s = Sheet.from_cells(
        "Q1 Sales",
        {
            "A1": "Region",
            "B1": "Amount",
            "A2": "North",
            "B2": 10.5,
            "B3": "=B2*2",
            "C2": True,
            "C3": CellError("#DIV/0!"),
            "D2": 45292.0,
        },
        formats={"B2": "#,##0.00", "D2": "yyyy-mm-dd", "E5": "0%"},
        styles={"A1": Style.BOLD | Style.FILL, "B1": Style.BOLD | Style.FILL},
        merges=("A5:B5",),
    )
    return Workbook([s, Sheet.from_cells("Empty", {})], name="small.xlsx")


def test_dump_is_exact_and_valid_against_the_schema() -> None:
    doc = dump_snapshot(small())
    Draft202012Validator(snapshot_schema()).validate(doc)
    assert doc == {
        "schema": "gridsight.snapshot.v1",
        "workbook": {"name": "small.xlsx", "date1904": False},
        "sheets": [
            {
                "name": "Q1 Sales",
                "range": "A1:D3",
                "values": [
                    ["Region", "Amount", None, None],
                    ["North", 10.5, True, 45292],
                    [None, None, "#DIV/0!", None],
                ],
                "types": ["ssee", "snbn", "eexe"],
                "formulas": {"B3": "=B2*2"},
                "number_formats": {"B2": "#,##0.00", "D2": "yyyy-mm-dd"},
                "styles": {"A1": 9, "B1": 9},
                "merges": ["A5:B5"],
            },
            {"name": "Empty", "range": None, "values": [], "types": []},
        ],
    }


def test_round_trip_is_exact() -> None:
    wb = small()
    assert load_snapshot(dump_snapshot(wb)) == wb
    assert load_snapshot(json.loads(json.dumps(dump_snapshot(wb)))) == wb


def test_round_trip_of_real_workbooks(corpus: Path, tmp_path: Path) -> None:
    files = [
        build_demo_workbook(tmp_path / "demo.xlsx"),
        *sorted((corpus / "tables" / "tasi" / "xlsx").glob("*.xlsx"))[:8],
    ]
    for path in files:
        wb = open_workbook(path)
        doc = json.loads(json.dumps(dump_snapshot(wb)))
        Draft202012Validator(snapshot_schema()).validate(doc)
        assert load_snapshot(doc) == wb, path.name


def test_types_may_be_omitted_as_office_js_sends_them() -> None:
    doc = {
        "schema": "gridsight.snapshot.v1",
        "sheets": [
            {
                "name": "S",
                "range": "B2:D3",
                "values": [["x", 1, True], ["#N/A", 45292, None]],
                "number_formats": {"C3": "yyyy-mm-dd"},
            }
        ],
    }
    s = load_snapshot(doc).sheets[0]
    assert [s.cell(a).kind for a in ("B2", "C2", "D2", "B3", "C3", "D3")] == [
        Kind.TEXT,
        Kind.NUMBER,
        Kind.BOOL,
        Kind.ERROR,
        Kind.DATETIME,
        Kind.EMPTY,
    ]


def test_range_keys_cover_runs_of_cells() -> None:
    doc = {
        "schema": "gridsight.snapshot.v1",
        "sheets": [
            {
                "name": "S",
                "range": "A1:A3",
                "values": [[1], [2], [3]],
                "types": ["n", "n", "n"],
                "number_formats": {"A1:A3": "0.0"},
                "styles": {"A1:A2": 1},
            }
        ],
    }
    s = load_snapshot(doc).sheets[0]
    assert [s.cell(f"A{i}").number_format for i in (1, 2, 3)] == ["0.0"] * 3
    assert [int(s.cell(f"A{i}").style) for i in (1, 2, 3)] == [1, 1, 0]


def chunked() -> list[dict[str, Any]]:
    base = {"schema": "gridsight.snapshot.v1", "workbook": {"name": "big.xlsx"}}
    return [
        {
            **base,
            "chunk": {"id": "k", "index": 0, "count": 2},
            "sheets": [
                {
                    "name": "Data",
                    "range": "A1:B2",
                    "values": [["h1", "h2"], [1, 2]],
                    "types": ["ss", "nn"],
                    "formulas": {"B3": "=B2+1"},
                }
            ],
        },
        {
            **base,
            "chunk": {"id": "k", "index": 1, "count": 2},
            "sheets": [
                {"name": "Data", "range": "A3:B3", "values": [[3, 3]], "types": ["nn"]},
                {"name": "More", "range": "C3", "values": [["z"]]},
            ],
        },
    ]


def test_chunks_are_joined() -> None:
    wb = load_snapshot(chunked())
    assert wb.sheet_names == ["Data", "More"] and wb.name == "big.xlsx"
    d = wb["Data"]
    assert d.values("A1:B3") == [["h1", "h2"], [1, 2], [3, 3]]
    assert d.cell("B3").formula == "=B2+1"
    assert load_snapshot(list(reversed(chunked()))).sheets[0].values("A1:B3") == d.values("A1:B3")


def test_sheet_filter() -> None:
    assert load_snapshot(chunked(), sheets=["more"]).sheet_names == ["More"]
    with pytest.raises(UnknownSheetError):
        load_snapshot(chunked(), sheets=["nope"])


def mutate(path: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(dump_snapshot(small()))
    target: Any = doc
    keys = path.split(".")
    for k in keys[:-1]:
        target = target[int(k)] if k.isdigit() else target[k]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "no snapshot documents"),
        ([1], "must be a JSON object"),
        (mutate("schema", "gridsight.snapshot.v2"), "at schema"),
        (mutate("sheets", KeyError), "'sheets' is a required property"),
        (mutate("sheets.0.name", ""), "at sheets/0/name"),
        (mutate("sheets.0.name", "a/b"), "at sheets/0/name"),
        (mutate("sheets.0.range", "A0:B2"), "at sheets/0/range"),
        (mutate("sheets.0.values.0", ["x"]), "values row 0 has 1 cells; A1:D3 is 4 wide"),
        (mutate("sheets.0.values", [[1, 2, 3, 4]]), "has 3 rows, values has 1"),
        (mutate("sheets.0.types.0", "sszz"), "types row 0 must be a string of the letters"),
        (mutate("sheets.0.types.0", 5), "types row 0 must be a string"),
        (mutate("sheets.0.types.1", "snbs"), "cell D2: type s needs a string"),
        (mutate("sheets.0.types.2", "eens"), "cell C3: type n needs a finite number"),
        (mutate("sheets.0.values.1", ["North", {"x": 1}, True, 1]), "cell B2: type n needs a finite number"),
        (mutate("sheets.0.types.1", "xnbn"), "'North' is not an Excel error value"),
        (mutate("sheets.0.formulas", {"B3": "SUM(1)"}), "at sheets/0/formulas/B3"),
        (mutate("sheets.0.formulas", {"nope": "=1"}), "at sheets/0/formulas"),
        (mutate("sheets.0.styles", {"A1": 999}), "at sheets/0/styles/A1"),
        (mutate("sheets.0.extra", 1), "Additional properties"),
        (mutate("sheets.0.number_formats", {"A:A": "0"}), "number_formats"),
        ([chunked()[0]], None),
        ([chunked()[0], chunked()[0]], "incomplete or repeated chunks"),
    ],
)
def test_malformed_payloads_get_clear_errors(doc: Any, message: str | None) -> None:
    if message is None:  # a lone chunk is a complete document only when count == 1
        with pytest.raises(SnapshotError):
            load_snapshot(
                [{**doc[0], "chunk": {"id": "k", "index": 0, "count": 2}}, doc[0] | {"chunk": None}]
            )
        return
    with pytest.raises(SnapshotError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_snapshot(doc)


def test_snapshot_json_files_open_like_workbooks(tmp_path: Path) -> None:
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(dump_snapshot(small())), encoding="utf-8")
    assert open_workbook(path) == small()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SnapshotError, match="not valid JSON"):
        open_workbook(bad)

"""`gridsight bench extract`: Table-F1 as the paper defines it, on a corpus folder built here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsight.bench._tablef1 import Counts, normalise, table_counts, token_f1
from gridsight.cli import cli


@pytest.mark.parametrize(
    ("gold", "pred", "f1"),
    [
        ("CoNLL 2003", "CoNLL 03", 0.5),
        ("Named Entity Recognition", "Entity Recognition", 0.8),
        ("F1", "Accuracy", 0.0),
    ],
)
def test_token_f1(gold: str, pred: str, f1: float) -> None:
    assert token_f1(normalise(gold), normalise(pred)) == pytest.approx(f1)


def test_table_counts_follow_the_paper() -> None:
    gold = [
        {"cell_index": "CA(1,1)", "value": "1", "type": "IC50", "target": "CHK1", "unit": "μM"},
        {"cell_index": "CA(2,1)", "value": "2", "type": "IC50", "target": "CHK1", "unit": "xx"},
    ]
    pred = [
        {"cell_index": "CA(1,1)", "type": "IC50", "target": "CHK1 Inhibition", "unit": "μM"},
        {"cell_index": "CA(3,1)", "type": "IC50", "target": "xx", "unit": "nM"},
    ]
    fuzzy = table_counts(gold, pred, "cell_index", exact=False)
    exact = table_counts(gold, pred, "cell_index", exact=True)
    # pair 1: type, unit right; target right by token-F1 (0.67 >= 0.25) but not exactly;
    # unmatched prediction: 2 filled attributes (FP); unmatched gold: 2 filled attributes (FN)
    assert (fuzzy.tp, fuzzy.fp, fuzzy.fn) == (3, 2, 2)
    assert (exact.tp, exact.fp, exact.fn) == (2, 3, 3)
    assert Counts(3, 2, 2).f1 == pytest.approx(0.6)


def test_breakdown_counts_each_attribute_and_the_cells() -> None:
    gold = [
        {"cell_index": "CA(1,1)", "value": "1", "type": "IC50", "target": "CHK1", "unit": "μM"},
        {"cell_index": "CA(2,1)", "value": "2", "type": "IC50", "target": "CHK1", "unit": "xx"},
    ]
    pred = [
        {"cell_index": "CA(1,1)", "type": "IC50", "target": "CHK2", "unit": "μM"},
        {"cell_index": "CA(3,1)", "type": "IC50", "target": "xx", "unit": "nM"},
    ]
    by: dict[str, Counts] = {}
    total = table_counts(gold, pred, "cell_index", exact=False, by=by)
    assert {k: (c.tp, c.fp, c.fn) for k, c in by.items()} == {
        "cell": (1, 1, 1),  # one pair, one extra prediction, one missed gold cell
        "type": (1, 1, 1),
        "target": (0, 1, 2),  # wrong on the pair (fp + fn), missed on the unpaired gold record
        "unit": (1, 1, 0),
    }
    # the per-attribute counts add up to the table's (cells are not attributes)
    assert sum(c.tp for k, c in by.items() if k != "cell") == total.tp
    assert sum(c.fp for k, c in by.items() if k != "cell") == total.fp
    assert sum(c.fn for k, c in by.items() if k != "cell") == total.fn


def test_bench_extract_on_a_small_corpus(tmp_path: Path) -> None:
    table = (
        "<table-wrap><caption><title>Potency</title></caption><table><thead><tr><th>compd</th>"
        "<th>CHK1 IC50 (μM)a</th><th>LE</th></tr></thead><tbody><tr><td>2</td><td>1.0 (0.8, 1.2)</td>"
        "<td>0.38</td></tr><tr><td>4</td><td>1.5</td><td>0.27</td></tr></tbody></table></table-wrap>"
    )
    gold = [
        {
            "cell_index": f"CA({r},1)",
            "value": v,
            "type": "IC50",
            "target": "CHK1",
            "treatment": t,
            "unit": "μM",
        }
        for r, v, t in ((1, "1.0", "2"), (2, "1.5", "4"))
    ]
    folder = tmp_path / "s2j"
    folder.mkdir()
    (folder / "chem_small.jsonl").write_text(
        json.dumps({"id": "t1", "table_processed": table, "cell_list_gold": gold}) + "\n", encoding="utf-8"
    )
    out = tmp_path / "r.json"
    r = CliRunner().invoke(
        cli, ["bench", "extract", "--corpus", str(folder), "--model", "none", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    summary = json.loads(out.read_text(encoding="utf-8"))["summary"]
    assert {"tables", "table_f1", "table_f1_exact", "seconds_per_table"} <= set(summary)
    # rules alone: type and unit from the header; the compound column gives the treatment, the header
    # (without type name, unit and footnote mark) the target; the LE column is "Other" (not scored)
    assert summary["tables"] == 1 and summary["table_f1"] == pytest.approx(1.0)
    assert r.output.strip().splitlines()[-1].startswith("extract: Table-F1 100.0 (exact 100.0) over 1 tables")
    by = summary["f1_by_attribute"]["chem_small"]
    assert by["cell"] == {"f1": 1.0, "tp": 2, "fp": 0, "fn": 0}
    assert {k: v["tp"] for k, v in by.items()} == {
        "cell": 2,
        "type": 2,
        "unit": 2,
        "target": 2,
        "treatment": 2,
    }
    empty = tmp_path / "empty"
    empty.mkdir()
    r = CliRunner().invoke(cli, ["bench", "extract", "--corpus", str(empty), "--model", "none"])
    assert r.exit_code == 2 and "no *.jsonl table files" in r.output

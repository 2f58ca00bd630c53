"""Extraction with the real default model: it is asked only for what the table's sides do not give,
under the grammar, in order -- and it must get a plain case right."""

from __future__ import annotations

from gridsight.extract import ModelStats, from_text, iter_records, parse_schema
from gridsight.llm._llama import LlamaRuntime

TABLE = """<table><caption>MIC values of the new compounds</caption>
<thead><tr><th>Compound</th><th>S. aureus</th><th>E. coli</th></tr></thead>
<tbody><tr><td>5a</td><td>4</td><td>16</td></tr></tbody></table>"""
#: Three judged attributes: "compound" is named by the label column's header (copied from the rows);
#: the other two are named by no header, so the model judges them.
SCHEMA = [
    {"value": "xx", "type": "Other"},
    {"value": "xx", "type": "MIC", "unit": "xx", "compound": "xx", "bacterium": "xx", "medium": "xx"},
]


def test_real_model_fills_what_the_sides_leave(runtime: LlamaRuntime) -> None:
    stats = ModelStats()
    records = list(iter_records(from_text(TABLE), parse_schema(SCHEMA), model=runtime, stats=stats))
    # every cell, in order; the caption names the type (the model never retypes a table that names one)
    assert [r.value for r in records] == ["4", "16"] and stats.calls >= 2
    assert all(r.type == "MIC" for r in records)
    assert [r.attributes["compound"] for r in records] == ["5a", "5a"]  # copied, never asked
    # the bacterium is the cell's column header: the model must pick it among the texts around the cell
    assert [r.attributes["bacterium"] for r in records] == ["S. aureus", "E. coli"]
    assert stats.failures == 0 and all(r.filled_by == "model" for r in records)
    assert records[0].attributes.get("unit", records[0].unit) == records[0].unit  # copied by code

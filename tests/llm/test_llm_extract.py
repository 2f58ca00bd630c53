"""Extraction with the real default model: it judges what the table does not state."""

from __future__ import annotations

from gridsight.extract import ModelStats, from_text, iter_records, parse_schema
from gridsight.llm._llama import LlamaRuntime

TABLE = """<table><caption>Minimum inhibitory concentrations of the new compounds against bacteria</caption>
<thead><tr><th>Compound</th><th>S. aureus</th><th>Yield (%)</th></tr></thead>
<tbody><tr><td>5a</td><td>4</td><td>72</td></tr></tbody></table>"""
SCHEMA = [
    {"value": "xx", "type": "Other"},
    {"value": "xx", "type": "MIC", "unit": "xx", "compound": "xx", "bacterium": "xx"},
    {"value": "xx", "type": "IC50", "unit": "xx", "compound": "xx", "bacterium": "xx"},
]


def test_model_judges_the_type_the_labels_do_not_name(runtime: LlamaRuntime) -> None:
    schema = parse_schema(SCHEMA)
    rules = list(iter_records(from_text(TABLE), schema))
    assert [r.type for r in rules] == ["Other", "Other"]  # no label names a type: the rules cannot tell
    stats = ModelStats()
    records = list(iter_records(from_text(TABLE), schema, model=runtime, stats=stats))
    assert [(r.value, r.type) for r in records] == [("4", "MIC"), ("72", "Other")]
    assert records[0].attributes["bacterium"] == "S. aureus" and records[0].filled_by == "model"
    assert stats.calls > 0 and stats.failures == 0

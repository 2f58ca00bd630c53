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


def test_model_judges_the_types_the_labels_do_not_name(runtime: LlamaRuntime) -> None:
    schema = parse_schema(SCHEMA)
    rules = list(iter_records(from_text(TABLE), schema))
    assert [r.type for r in rules] == ["Other", "Other"]  # no label names a type: the rules cannot tell
    stats = ModelStats()
    records = list(iter_records(from_text(TABLE), schema, model=runtime, stats=stats))
    # the yield column is judged not to be a potency; the MIC column is judged MIC or left Other (the
    # 0.5B model's scores for it are close), never IC50, and a typed record reads its column
    assert [r.value for r in records] == ["4", "72"] and records[1].type == "Other"
    assert records[0].type in ("MIC", "Other")
    if records[0].type == "MIC":
        assert records[0].attributes["bacterium"] in ("S. aureus", "aureus")
    assert records[0].header_path == "S. aureus" and records[1].unit == "%"
    assert stats.calls > 0 and stats.failures == 0

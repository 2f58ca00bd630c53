"""Extraction with the real default model: grammar-valid records in order, and (known weak) judgement."""

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


def _run(runtime: LlamaRuntime) -> tuple[list, ModelStats]:  # type: ignore[type-arg]
    stats = ModelStats()
    return list(iter_records(from_text(TABLE), parse_schema(SCHEMA), model=runtime, stats=stats)), stats


def test_real_model_records_are_grammar_valid_and_in_order(runtime: LlamaRuntime) -> None:
    records, stats = _run(runtime)
    # a request that times out on a loaded machine keeps the rules' record: still in order, never lost
    assert [r.value for r in records] == ["4", "72"] and stats.calls > 0
    allowed = {"5a", "S. aureus", "aureus", "Yield", None}
    for r in records:
        assert r.type in ("MIC", "IC50", "Other")
        assert all(r.attributes.get(a) in allowed for a in ("compound", "bacterium"))
        assert r.attributes.get("unit", r.unit) == r.unit  # copied by code, never by the model
    assert records[0].header_path == "S. aureus" and records[1].unit == "%"

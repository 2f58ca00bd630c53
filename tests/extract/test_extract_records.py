"""Schemas, rules-only records, and the model loop's order check and recovery (scripted runtime)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from gridsight.errors import ExtractInputError, ExtractSchemaError
from gridsight.extract import ModelStats, extract_table, from_text, in_order, iter_records, parse_schema
from gridsight.llm import Message, ScriptedRuntime

TEMPLATES = [
    {"value": "xx", "type": "Other"},
    {"value": "xx", "type": "IC50", "unit": "xx", "compound": "xx", "target": "xx"},
    {"value": "xx", "type": "MIC", "unit": "xx", "compound": "xx", "target": "xx"},
]
#: A third judged attribute no side of TABLE names: the model is asked for it (and for "target").
ASKED = [
    {"value": "xx", "type": "Other"},
    {"value": "xx", "type": "IC50", "unit": "xx", "compound": "xx", "target": "xx", "assay": "xx"},
]
TABLE = """<table><caption>Activity of the series</caption>
<thead><tr><th>Compound</th><th>Kinase A IC50 (nM)a</th><th>Solubility (mg/mL)</th></tr></thead>
<tbody><tr><td>C-1</td><td>12</td><td>0.5</td></tr><tr><td>C-2</td><td>&gt;100</td><td>n.d.</td></tr></tbody></table>"""


def test_templates_and_json_schema_read_the_same() -> None:
    a = parse_schema(TEMPLATES)
    assert a.names == ["Other", "IC50", "MIC"] and a.fallback == "Other"
    assert [(x.name, x.source) for x in a.get("IC50").attributes] == [  # type: ignore[union-attr]
        ("unit", "unit"),
        ("compound", None),
        ("target", None),
    ]
    js = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [
            {"type": "object", "properties": {"value": {"type": "string"}, "type": {"const": "Other"}}},
            {
                "type": "object",
                "properties": {
                    "type": {"enum": ["IC50", "MIC"]},
                    "unit": {"type": "string"},
                    "compound": {"type": "string", "x-source": "row_label"},
                    "target": {"type": "string", "description": "what was measured"},
                },
            },
        ],
    }
    b = parse_schema(json.dumps(js))
    assert b.names == ["Other", "IC50", "MIC"] and b.fallback == "Other"
    assert [(x.name, x.source) for x in b.get("MIC").attributes] == [  # type: ignore[union-attr]
        ("unit", "unit"),
        ("compound", "row_label"),
        ("target", None),
    ]
    lines = "\n".join(json.dumps(t) for t in TEMPLATES)
    assert parse_schema(lines).names == a.names


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ("", "empty"),
        ("{not json", "not JSON"),
        ('{"type": "object", "properties": 5}', "not a valid JSON Schema"),
        ('{"type": "object", "properties": {"a": {"type": "string"}}}', '"type" property'),
        ('[{"value": "xx"}]', 'no "type"'),
        ('[{"type": "A"}, {"type": "A"}]', "twice"),
        ('{"properties": {"type": {"const": "A"}, "u": {"x-source": "moon"}}}', "x-source"),
        ("42", "JSON object"),
    ],
)
def test_bad_schemas(schema: str, message: str) -> None:
    with pytest.raises(ExtractSchemaError, match=message):
        parse_schema(schema)


def test_rules_only_records() -> None:
    result = extract_table(from_text(TABLE), parse_schema(TEMPLATES))
    docs = [r.to_dict() for r in result.records]
    assert [(d["address"], d["value"], d["type"]) for d in docs] == [
        ("B2", "12", "IC50"),
        ("C2", "0.5", "Other"),
        ("B3", ">100", "IC50"),
    ]
    first = docs[0]
    # the label column is headed "Compound": that attribute reads the row labels, the other the columns
    assert first["unit"] == "nM" and first["compound"] == "C-1" and first["target"] == "Kinase A"
    assert first["header_path"] == "Kinase A IC50 (nM)a" and first["row_label"] == "C-1"
    assert docs[1]["unit"] == "mg/mL" and "compound" not in docs[1]
    assert result.model is None and result.stats.calls == 0


def test_no_numeric_cells_is_a_clear_error() -> None:
    with pytest.raises(ExtractInputError, match="no numeric cells"):
        iter_records(
            from_text("<table><tr><th>a</th></tr><tr><td>x</td></tr></table>"), parse_schema(TEMPLATES)
        )


@pytest.mark.parametrize(
    ("got", "want", "n"),
    [
        (["1", "2", "3"], ["1", "2", "3"], 3),
        (["1", "3"], ["1", "2", "3"], 1),
        (["9"], ["1"], 0),
        ([], ["1"], 0),
    ],
)
def test_order_check(got: list[str], want: list[str], n: int) -> None:
    assert in_order(got, want) == n


def test_model_loop_recovers_from_an_out_of_order_record() -> None:
    asked: list[str] = []

    def reply(messages: Sequence[Message]) -> str:
        cell = messages[-1]["content"].rsplit("Cell: ", 1)[1].split(" ", 1)[0].strip("'")
        asked.append(cell)
        if cell == "12" and asked.count("12") == 1:
            # the first record skips ahead to the next cell's value: truncated, asked again
            return '{"value": "0.5", "type": "Other", "compound": null, "target": null}'
        if cell == "12":
            return '{"value": "12", "compound": "C-1", "target": "Kinase A"}'
        if cell == "0.5":
            return '{"value": "0.5", "type": "Other", "compound": null, "target": null}'
        return '{"value": ">100", "compound": "C-2", "target": "Kinase A"}'

    runtime = ScriptedRuntime(reply)
    stats = ModelStats()
    records = list(iter_records(from_text(TABLE), parse_schema(ASKED), model=runtime, stats=stats))
    # "0.5" sits under a header that names no type while another header names one: the table types
    # it (the fallback), and its type's attributes are none -- nothing to ask
    assert asked == ["12", "12", ">100"]
    assert stats.recoveries == 1 and stats.calls == 3
    assert [(r.value, r.type, r.attributes.get("compound")) for r in records] == [
        ("12", "IC50", "C-1"),
        ("0.5", "Other", None),
        (">100", "IC50", "C-2"),
    ]
    assert records[0].attributes["unit"] == "nM"  # copied by code, never by the model
    assert records[0].attributes["target"] == "Kinase A"
    assert all(r.filled_by == "model" for r in (records[0], records[2]))
    # the value the model may name is one of the next scaffold cells; the settled type is not asked
    first_prompt = runtime.requests[0]
    gbnf = first_prompt.grammar.gbnf if first_prompt.grammar is not None else ""
    assert 'value- ::= "\\"12\\"" | "\\"0.5\\"" | "\\">100\\""' in gbnf
    assert "type-kv" not in gbnf and '"\\"Kinase A\\""' in gbnf
    # "compound" is read from the side whose header names it (the label column): never asked
    assert "compound" not in gbnf and "assay" in gbnf


def test_model_failure_keeps_the_rules_record() -> None:
    runtime = ScriptedRuntime(["not json at all"])
    records = list(iter_records(from_text(TABLE), parse_schema(ASKED), model=runtime))
    assert [(r.value, r.type, r.filled_by) for r in records] == [
        ("12", "IC50", "rules"),
        ("0.5", "Other", "rules"),
        (">100", "IC50", "rules"),
    ]


def test_a_wide_long_table_keeps_every_record_in_order_with_short_prompts() -> None:
    cols = [f"Target {i} IC50 (nM)" for i in range(30)]
    body = "".join(
        f"<tr><td>C-{r}</td>" + "".join(f"<td>{r}.{c}</td>" for c in range(30)) + "</tr>" for r in range(20)
    )
    head = "".join(f"<th>{c}</th>" for c in cols)
    table = f"<table><thead><tr><th>Compound</th>{head}</tr></thead>{body}</table>"

    def reply(messages: Sequence[Message]) -> str:
        cell = messages[-1]["content"].rsplit("Cell: ", 1)[1].split(" ", 1)[0].strip("'")
        return json.dumps({"value": cell, "compound": None, "target": None})

    runtime = ScriptedRuntime(reply)
    records = list(iter_records(from_text(table), parse_schema(ASKED), model=runtime))
    assert len(records) == 600 and [r.value for r in records[:3]] == ["0.0", "0.1", "0.2"]
    assert [(r.row, r.col) for r in records] == sorted((r.row, r.col) for r in records)
    longest = max(runtime.prompt_tokens(q.messages) for q in runtime.requests)
    assert longest < 700  # the header and the cell's row are cut to a fixed size: any table fits


def test_a_caption_type_yields_to_columns_that_name_theirs() -> None:
    caption_only = TABLE.replace("Activity of the series", "MIC of the series").replace(
        "Kinase A IC50", "S. aureus"
    )
    assert [r.type for r in extract_table(from_text(caption_only), parse_schema(TEMPLATES)).records] == [
        "MIC",
        "MIC",
        "MIC",
    ]
    named = TABLE.replace("Activity of the series", "MIC of the series")  # column B names IC50 itself
    assert [r.type for r in extract_table(from_text(named), parse_schema(TEMPLATES)).records] == [
        "IC50",
        "Other",
        "IC50",
    ]

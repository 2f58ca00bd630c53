"""Judged attributes read from the table's sides: the identifying label column, the header levels that
tell same-type columns apart, the side assignment, and types by embedding when no text names one."""

from __future__ import annotations

import pytest

from gridsight.extract import extract_table, from_latex, from_text, parse_schema
from gridsight.extract._sides import (
    assign_sides,
    caption_hints,
    own_words,
    strip_header,
    types_by_similarity,
)

CHEM = parse_schema(
    [{"value": "xx", "type": "Other"}]
    + [
        {"value": "xx", "type": t, "unit": "xx", "treatment compound": "xx", "target compound": "xx"}
        for t in ("IC50", "EC50")
    ]
)


def _rows(table: str, schema=CHEM) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    return [r.to_dict() for r in extract_table(from_text(table), schema, embed=False).records]


def test_the_identifying_label_column_is_read_not_a_substituent_column() -> None:
    table = """<table><thead><tr><th>compd</th><th>R1</th><th>R2</th><th>Kinase X IC50 (nM)a</th></tr></thead>
    <tbody><tr><td>5</td><td>Me</td><td>H</td><td>8</td></tr><tr><td>19a</td><td>Me</td><td>Cl</td><td>18</td></tr>
    <tr><td>20</td><td>Et</td><td>H</td><td>12</td></tr></tbody></table>"""
    docs = _rows(table)
    # three label columns; the compound numbers are the most distinct, the substituents repeat
    assert [d["treatment compound"] for d in docs] == ["5", "19a", "20"]
    assert {d["target compound"] for d in docs} == {"Kinase X"}  # type name, unit, footnote mark gone
    assert {d["unit"] for d in docs} == {"nM"}


def test_header_levels_that_tell_same_type_columns_apart() -> None:
    upper = """<table><thead><tr><th></th><th colspan="2">CHO-D2</th><th colspan="2">CHO-D3</th></tr>
    <tr><th>compd</th><th>EC50 (nM)</th><th>Emax</th><th>EC50 (nM)</th><th>Emax</th></tr></thead>
    <tbody><tr><td>1a</td><td>33</td><td>104</td><td>1.5</td><td>90</td></tr></tbody></table>"""
    docs = [d for d in _rows(upper) if d["type"] == "EC50"]
    # the lower level is the same for both; of the upper one, the word both share ("CHO") goes too
    assert [d["target compound"] for d in docs] == ["D2", "D3"]
    lower = """<table><thead><tr><th></th><th colspan="2">Kinases IC50 in µM</th></tr>
    <tr><th>compd</th><th>ABL</th><th>SRC</th></tr></thead>
    <tbody><tr><td>1a</td><td>3</td><td>4</td></tr></tbody></table>"""
    docs = _rows(lower)
    assert [(d["type"], d["target compound"], d["unit"]) for d in docs] == [
        ("IC50", "ABL", "µM"),
        ("IC50", "SRC", "µM"),
    ]


def test_words_all_same_type_columns_share_are_dropped() -> None:
    table = """<table><thead><tr><th>compd</th><th>CHK1 Inhibition IC50 (μM)a</th>
    <th>CHK2 Inhibition IC50 (μM)a</th><th>Kinase X EC50 (nM)</th></tr></thead>
    <tbody><tr><td>2</td><td>1.0</td><td>50</td><td>7</td></tr></tbody></table>"""
    assert [(d["type"], d["target compound"]) for d in _rows(table)] == [
        ("IC50", "CHK1"),
        ("IC50", "CHK2"),
        ("EC50", "Kinase X"),  # the only EC50 column: nothing to compare with, its words stay
    ]


@pytest.mark.parametrize(
    ("header", "stripped"),
    [
        ("CHK1 Inhibition IC50 (μM)a", "CHK1 Inhibition"),
        ("inhibition of tubulin assembly IC50 (μM) ± SD", "inhibition of tubulin assembly"),
        ("Hill slope", "Hill slope"),
        ("Polyphenols IC50 in µM", "Polyphenols"),
        ("EC50a (nM)", ""),
        ("Der p 1 IC50 (nM)", "Der p 1"),
    ],
)
def test_strip_header(header: str, stripped: str) -> None:
    assert strip_header(header, CHEM) == stripped


def test_side_assignment() -> None:
    two = ["treatment compound", "target compound"]
    assert own_words(two) == {"treatment compound": "treatment", "target compound": "target"}
    # nothing named: the schema's order (the first attribute reads the rows)
    assert assign_sides(two, {"row": "compd", "column": "CHK1"}) == {
        "treatment compound": "row",
        "target compound": "column",
    }
    # a side's header holding an attribute's own word decides
    assert assign_sides(two, {"row": "Target enzyme", "column": "INDO"}) == {
        "target compound": "row",
        "treatment compound": "column",
    }
    many = ["task", "metric", "training data/set", "model/method"]
    assert assign_sides(many, {"row": "Method", "column": "Acc"}) == {"model/method": "row"}
    assert assign_sides(many, {"row": "Setting", "column": "Acc"}) == {}  # order is no evidence for four


def test_a_transposed_table_reads_its_attributes_from_the_named_side() -> None:
    table = """<table><thead><tr><th>target</th><th>INDO IC50</th><th>CF3-INDO IC50</th></tr></thead>
    <tbody><tr><td>mCOX-2</td><td>127 nM</td><td>267 nM</td></tr></tbody></table>"""
    docs = _rows(table)
    # "INDO" and "CF3-INDO" share "INDO", but dropping it would leave "INDO" no name: both stay whole
    assert [(d["treatment compound"], d["target compound"], d["unit"]) for d in docs] == [
        ("INDO", "mCOX-2", "nM"),
        ("CF3-INDO", "mCOX-2", "nM"),
    ]


def test_the_caption_ties_an_attribute_to_a_side() -> None:
    words = {"row": {"cell", "types", "jurkat", "k562"}, "column": {"polyphenols", "quercetin", "apigenin"}}
    two = ["treatment compound", "target compound"]
    caption = "IC50 values in each leukemic cell line after 24 h treatment with each polyphenol."
    assert caption_hints(caption, two, words) == {"treatment compound": "column"}
    assert caption_hints("Inhibition of kinases by the series", two, words) == {}  # no attribute word
    # the hint beats the schema's order: the treatment reads the columns, so the target the rows
    table = """<table><caption>Growth inhibition of cell lines after treatment with each polyphenol</caption>
    <thead><tr><th rowspan="2">Cell line</th><th colspan="2">Polyphenols IC50 in µM</th></tr>
    <tr><th>Quercetin</th><th>Apigenin</th></tr></thead>
    <tbody><tr><td>JURKAT</td><td>10</td><td>143</td></tr><tr><td>K562</td><td>33</td><td>20</td></tr></tbody>
    </table>"""
    docs = _rows(table)
    assert [(d["treatment compound"], d["target compound"]) for d in docs] == [
        ("Quercetin", "JURKAT"),
        ("Apigenin", "JURKAT"),
        ("Quercetin", "K562"),
        ("Apigenin", "K562"),
    ]


ML = parse_schema(
    [
        {"value": "xx", "type": "Other"},
        {"value": "xx", "type": "Data Stat.", "dataset": "xx", "attribute name": "xx"},
        {"value": "xx", "type": "Result", "task": "xx", "metric": "xx", "model/method": "xx"},
    ]
)


def test_types_by_embedding_with_the_real_minilm() -> None:
    from gridsight.llm.embeddings import shared_embedder

    embed = shared_embedder().embed
    texts = ["Dataset statistics / Test", "Accuracy of the models on the test set / BERT"]
    assert types_by_similarity(texts, ML, embed) == ["Data Stat.", "Result"]
    table = r"""\begin{table}\begin{tabular}{lcc} Method & SST-2 & MNLI \\ BERT & 93.1 & 84.2 \\
    \end{tabular}\caption{Accuracy of the models on the test set.}\end{table}"""
    docs = [r.to_dict() for r in extract_table(from_latex(table), ML, embed=embed).records]
    # no text names a type: the embedding types the cells; "Method" names the row side's attribute
    assert [(d["type"], d["model/method"]) for d in docs] == [("Result", "BERT"), ("Result", "BERT")]
    # a table whose texts name a type keeps the rules' reading (no embedding typing)
    named = r"""\begin{tabular}{lc} Method & Result \\ BERT & 93.1 \\ \end{tabular}"""
    assert [r.type for r in extract_table(from_latex(named), ML, embed=embed).records] == ["Result"]


def test_latex_nested_tabular_and_multirow() -> None:
    table = r"""\begin{tabular}{c|cc}
    \multirow{2}{*}{Dataset} & \multirow{2}{*}{\begin{tabular}[c]{@{}c@{}}Target\\ Coverage\end{tabular}}
    & Err. \\
    & & \\
    \multirow{2}{*}{Cifar-10} & 100\% & 9.58 \\
     & 95\% & 8.74 \\
    \end{tabular}"""
    g = from_latex(table)
    assert g.rows[0] == ("Dataset", "Target Coverage", "Err.")
    assert [r[0] for r in g.rows[2:]] == ["Cifar-10", "Cifar-10"]

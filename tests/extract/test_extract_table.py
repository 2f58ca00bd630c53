"""Reading tables: markup spans, CSV, LaTeX, sheets; the cell detector; structure; bad input."""

from __future__ import annotations

import pytest

from gridsight.errors import ExtractInputError
from gridsight.extract import (
    from_csv,
    from_latex,
    from_markup,
    from_text,
    numeric_value,
    structure,
    target_cells,
)
from gridsight.extract._detect import cell_unit, header_unit

SPANNED = """<table-wrap><caption><title>Potency of the series</title></caption><table>
<thead><tr><th rowspan="2">compd</th><th colspan="2">EC50 (nM)<xref>a</xref></th></tr>
<tr><th>D2</th><th>D3</th></tr></thead>
<tbody><tr><td>1a</td><td>218&#xa0;&#xb1;&#xa0;12</td><td>&gt;1000</td></tr>
<tr><td>1b</td><td>n.d.</td><td>10.6 (9.1, 12)</td></tr></tbody></table>
<table-wrap-foot><fn><p>a Mean of three runs.</p></fn></table-wrap-foot></table-wrap>"""


def test_markup_spans_headers_and_caption() -> None:
    g = from_markup(SPANNED)
    assert g.rows[0] == ("compd", "EC50 (nM)a", "EC50 (nM)a")
    assert g.rows[1] == ("compd", "D2", "D3")
    assert g.rows[2] == ("1a", "218 ± 12", ">1000")
    assert g.marked_header_rows == (0, 1) and g.caption == "Potency of the series"
    assert "Mean of three runs" in g.notes
    st = structure(g)
    assert st.header_rows == 2 and st.label_cols == (0,)
    assert st.header_paths == ("compd", "EC50 (nM)a / D2", "EC50 (nM)a / D3")
    assert st.row_labels[2:] == ("1a", "1b")
    cells = target_cells(g, st)
    assert [(c.row, c.col, c.value) for c in cells] == [(2, 1, "218"), (2, 2, ">1000"), (3, 2, "10.6")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12", "12"),
        ("1.0 (0.86, 1.2)", "1.0"),
        ("0.043 ± 0.011", "0.043"),
        (">100", ">100"),
        ("< 0.01", "<0.01"),
        ("−3.5", "−3.5"),
        ("1,234.5", "1,234.5"),
        ("127 nM", "127"),
        ("64f", "64"),
        ("12%", "12"),
        ("1.2e-3", "1.2e-3"),
        ("n.d.", None),
        ("CHK1", None),
        ("5HT2A", None),
        ("", None),
        ("rac-7", None),
    ],
)
def test_numeric_value(text: str, value: str | None) -> None:
    assert numeric_value(text) == value


@pytest.mark.parametrize(
    ("header", "unit"),
    [
        ("CHK1 IC50 (μM)a", "μM"),
        ("RSK2 IC50 [μM]", "μM"),
        ("GI50 (μM ± SD)a", "μM"),
        ("Polyphenols IC50 in µM", "µM"),
        ("Price, $", "$"),
        ("Selectivity (CHK2/CHK1)b", None),
        ("Hill slope", None),
        ("EC50 (nM)a [35S]GTPγS", "nM"),
        ("Yield (n = 3)", None),
    ],
)
def test_header_unit(header: str, unit: str | None) -> None:
    assert header_unit(header) == unit


def test_cell_unit() -> None:
    assert cell_unit("127 nM") == "nM" and cell_unit("25 µg/mL") == "µg/mL" and cell_unit("64f") is None


def test_csv_and_latex() -> None:
    g = from_csv("Model,Acc,F1\nA,0.91,0.88\nB,0.85,0.80\n")
    assert g.rows[1] == ("A", "0.91", "0.88") and structure(g).header_rows == 1
    tex = r"""\begin{table}\begin{tabular}{lcc}\toprule
    Model & \multicolumn{2}{c}{Scores} \\ & Acc & F1 \\ \midrule
    \textbf{A} & 0.91 & $0.88 \pm 0.01$ \\ \bottomrule\end{tabular}\caption{Results on X}\end{table}"""
    g = from_latex(tex)
    assert g.rows[0] == ("Model", "Scores", "Scores") and g.rows[2] == ("A", "0.91", "0.88 ± 0.01")
    assert g.caption == "Results on X"
    assert [c.value for c in target_cells(g)] == ["0.91", "0.88"]
    assert from_text("a,b\n1,2\n").rows == (("a", "b"), ("1", "2"))


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        ("", None, "empty"),
        ("<p>no table here</p>", "html", "no <table>"),
        ("a,b", "yaml", "unknown table format"),
    ],
)
def test_bad_table_text(text: str, fmt: str | None, message: str) -> None:
    with pytest.raises(ExtractInputError, match=message):
        from_text(text, fmt)


def test_huge_span_is_capped() -> None:
    g = from_markup('<table><tr><td colspan="99999">x</td></tr><tr><td>1</td></tr></table>')
    assert g.width == 100

"""Formulas of one shape (a filled column) are tokenized and compiled once, whatever their absolute
references and row numbers; a range many formulas read is one node of the dependency graph; and
the trees built from a shape are the very trees the parser gives."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from gridsight.commands.recalc import recalc_file
from gridsight.formula import _engine, _relcompile, _tree
from gridsight.formula._depgraph import Area
from gridsight.formula._recalc import _Book
from gridsight.formula._shape import shape_of
from gridsight.sources import open_workbook

ROWS = 150


def _column(excel: SimpleNamespace) -> dict[str, object]:
    """A running count that restarts where column B is not 'x' (INDIRECT to the row above, an
    absolute criterion cell), and a column reading all of column A by position."""
    F = excel.F
    cells: dict[str, object] = {"A1": 0, "E1": "x"}
    count = 0
    for r in range(2, ROWS + 2):
        mark = "y" if r % 7 == 0 else "x"
        count = count + 1 if mark == "x" else 0
        cells[f"B{r}"] = mark
        cells[f"A{r}"] = F(f'IF(B{r}=$E$1,INDIRECT("A"&ROW()-1)+1,0)', count)
        cells[f"C{r}"] = F(f"INDEX($A:$A,ROW(A{r}))*2", count * 2)
    return cells


def test_a_filled_column_is_tokenized_and_compiled_a_few_times(
    tmp_path: Path, excel: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokenized: list[str] = []
    compiled: list[str] = []
    real_tokens, real_compile = _tree._tokens, _engine.compile_formula
    monkeypatch.setattr(_tree, "_tokens", lambda t: tokenized.append(t) or real_tokens(t))
    monkeypatch.setattr(_relcompile, "compile_formula", lambda t: compiled.append(t) or real_compile(t))
    monkeypatch.setattr(_relcompile, "_FORMS", {})
    monkeypatch.setattr(_tree, "_TEMPLATES", {})
    _tree.parse_formula.cache_clear()
    path = excel.write(tmp_path / "column.xlsx", {"S": _column(excel)})
    result = recalc_file(path)
    assert result.agreed == 2 * ROWS and result.formulas == 2 * ROWS
    # a handful of shapes, not one parse and one compile per cell (2 x 150 formulas)
    assert len(tokenized) < 30, tokenized[:40]
    assert len(compiled) < 10, compiled[:20]


def test_a_range_many_formulas_read_is_one_node(tmp_path: Path, excel: SimpleNamespace) -> None:
    wb = open_workbook(excel.write(tmp_path / "graph.xlsx", {"S": _column(excel)}))
    book = _Book(wb, {})
    readers = [k for k in book.formulas if k[2] == 2]  # column C, each reading all of column A
    shared = set.intersection(*(set(book.precedents(k)) for k in readers))
    # not 150 x 150 edges: one node, which all 150 read, holding the 150 formulas of column A
    assert len(shared) == 1 and isinstance(area := next(iter(shared)), Area)
    assert len(book.precedents(area)) == ROWS


@pytest.mark.parametrize(
    "formula",
    [
        "=IF((c5=List!$B$3),INDIRECT(\"A\"&ROW(b5)-1)+1,0)+SUM($A:$B,3:$4,'My sheet 2'!$a1:b$2)",
        "=A1+A1*2-B2",
        "=SUM(B2:A1)+a1:a1+1E+5+1.5+5%+0",
        "=Sheet1!A1:B3 B2:C4",
        "=SUM(B2,C2,'!\"'!A1,IFERROR(([1]sheet!XFD4),0))",
        '=VLOOKUP(A7&"|"&$B$3,Data!$A$1:$J$729,4,FALSE)',
        "={1,2;3,4}",
        '=TEXT(A1,"0.00")&" of "&B7',
        "=XFA1047001+8047001",
    ],
)
def test_trees_from_a_shape_are_the_parsers_own(formula: str) -> None:
    """Parsed through its shape (a second formula of that shape is built from the first's tree), the
    tree equals the tokenizer's, for references at the sheet's edge and placeholders' own cells too."""
    other = formula.replace("5", "6").replace("3", "9")
    for text in (formula, other):
        _tree.parse_formula.cache_clear()
        try:
            direct = _tree._parse(text)
        except Exception as exc:  # the parser's refusal must be the same
            with pytest.raises(type(exc)):
                _tree.parse_formula(text)
            continue
        assert _tree.parse_formula(text) == direct


def test_shape_slots() -> None:
    """References and whole numbers are slots; strings, structured references, whole columns,
    quoted sheet names and exponents are not."""
    shape = shape_of("=IF(Sales[@Qty]>2,\"B2\",'Q 1'!C3*1E+5)+SUM($A:$A)")
    assert shape is not None
    assert [r.ref() for r in shape.refs] == ["C3"] and shape.numbers == ("2",)
    assert shape_of("=A1+2") is not None and shape_of("=A1+2").key == shape_of("=$Z$9+7").key  # type: ignore[union-attr]

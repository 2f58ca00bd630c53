"""Grammar builders and the GBNF checker; the formula and range grammars with the real default model."""

from __future__ import annotations

import re

import formulas
import pytest

from gridsight.errors import GrammarError, RangeSyntaxError
from gridsight.grid import Range, Sheet, col_to_letters
from gridsight.llm import Grammar, formula_grammar, get_prompt, parse_ranges, range_grammar
from gridsight.llm._gbnf import check_grammar
from gridsight.llm._llama import LlamaRuntime
from gridsight.llm.grammars import DANGEROUS_FUNCTIONS, column_range_gbnf, forced_text, int_range_gbnf


def _as_regex(alternatives: str) -> re.Pattern[str]:
    """The builders emit only literals, classes and {n}: a faithful regex for checking them."""
    return re.compile(
        "^(?:" + "|".join(a.replace('"', "").replace(" ", "") for a in alternatives.split(" | ")) + ")$"
    )


@pytest.mark.parametrize(
    ("lo", "hi"),
    [
        (0, 0),
        (1, 1),
        (1, 9),
        (1, 10),
        (5, 123),
        (99, 100),
        (10, 19),
        (100, 999),
        (37, 4021),
        (1, 20),
        (2, 20),
        (7, 7),
        (199, 1201),
        (1, 1_048_576),
    ],
)
def test_int_range_matches_exactly(lo: int, hi: int) -> None:
    rx = _as_regex(int_range_gbnf(lo, hi))
    for n in range(max(0, lo - 200), min(hi + 200, lo + 30_000)):
        assert bool(rx.match(str(n))) == (lo <= n <= hi), n
    assert not rx.match("0" + str(max(lo, 1)))  # no leading zeros


@pytest.mark.parametrize(
    ("lo", "hi"), [(0, 0), (0, 25), (0, 26), (3, 700), (25, 27), (700, 702), (27, 51), (0, 16383)]
)
def test_column_range_matches_exactly(lo: int, hi: int) -> None:
    rx = _as_regex(column_range_gbnf(lo, hi))
    for c in range(max(0, lo - 100), min(16384, hi + 100)):
        assert bool(rx.match(col_to_letters(c))) == (lo <= c <= hi), c


def test_small_range_grammar_text() -> None:
    g = range_grammar(12, 4, max_ranges=2)
    assert g.gbnf == (
        'root ::= rng (", " rng){0,1} | "NONE"\n'
        "col ::= [A-D]\n"
        'row ::= [1-9] | "1" [0-2]\n'
        "cell ::= col row\n"
        'rng ::= cell ":" cell\n'
    )


def test_formula_grammar_text() -> None:
    g = formula_grammar(
        ["sum", "WEBSERVICE", "TODAY"], ranges=["B2:B9"], max_depth=1, max_args=2, max_terms=2
    )
    assert g.info["functions"] == ["SUM", "TODAY"]
    assert g.gbnf == (
        'root ::= "=" e0r\n'
        'ref ::= "B2:B9"\n'
        'num ::= [0-9]{1,9} ("." [0-9]{1,4})?\n'
        'str ::= "\\"" [^"\\x00-\\x1f]{0,30} "\\""\n'
        'op ::= "+" | "-" | "*" | "/" | "^" | "&" | "=" | "<>" | "<=" | ">=" | "<" | ">"\n'
        'fn ::= "SUM"\n'
        'fn0 ::= "TODAY"\n'
        'atom ::= ref | fn0 "()" | num | str | "TRUE" | "FALSE"\n'
        "e0 ::= t0 (op t0){0,1}\n"
        "e0r ::= t0r (op t0){0,1}\n"
        'c0 ::= fn "(" e1 ("," e1){0,1} ")"\n'
        'c0r ::= fn "(" e1r ("," e1){0,1} ")"\n'
        't0 ::= atom | "-" atom | "(" e1 ")" | c0\n'
        't0r ::= ref | "-" ref | "(" e1r ")" | c0r\n'
        "e1 ::= t1 (op t1){0,1}\n"
        "e1r ::= t1r (op t1){0,1}\n"
        't1 ::= atom | "-" atom\n'
        't1r ::= ref | "-" ref\n'
    )


def test_formula_grammar_without_required_reference() -> None:
    g = formula_grammar(["SUM"], area="A1:B3", max_depth=1, require_ref=False)
    assert g.gbnf.startswith('root ::= "=" e0\n')
    assert "e0r" not in g.gbnf


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"functions": ["SUM"]}, "needs the sheet's ranges"),
        ({"functions": ["SUM"], "ranges": ["B2:"]}, "bad range"),
        ({"functions": ["SUM;DROP"], "ranges": ["A1"]}, "is not a function name"),
        ({"functions": ["SUM"], "area": "A:C"}, "bounded used range"),
        ({"functions": ["SUM"], "ranges": ["A1"], "max_depth": 0}, "at least 1"),
    ],
)
def test_formula_grammar_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(GrammarError, match=message):
        formula_grammar(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 5), "at least one row"),
        ((5, 5, 0), "at least one row"),
        ((2, 2, 1_048_576), "outside the worksheet"),
    ],
)
def test_range_grammar_errors(args: tuple[int, ...], message: str) -> None:
    n_rows, n_cols, *top = args
    kwargs = {"top": top[0]} if top and top[0] > 1 else ({"max_ranges": top[0]} if top else {})
    with pytest.raises(GrammarError, match=message):
        range_grammar(n_rows, n_cols, **kwargs)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A1:F9, A12:F18", ["A1:F9", "A12:F18"]),
        ("NONE", []),
        ("['range': 'A1:F9', 'range': 'a12:f18']", ["A1:F9", "A12:F18"]),
        ("D9:B2", ["B2:D9"]),
        ("A1:B2, A1:B2", ["A1:B2"]),
    ],
)
def test_parse_ranges(text: str, expected: list[str]) -> None:
    assert [r.ref() for r in parse_ranges(text, Range.parse("A1:F20"))] == expected


def test_parse_ranges_outside_area() -> None:
    with pytest.raises(RangeSyntaxError, match="outside the sheet area A1:F20"):
        parse_ranges("A1:G3", Range.parse("A1:F20"))


@pytest.mark.parametrize(
    ("gbnf", "message"),
    [
        ("", "empty grammar"),
        ('root ::= "a', "unterminated string literal"),
        ("root ::= [a-z", "unterminated character class"),
        ("root ::= foo", "uses rule 'foo' but never defines it"),
        ('x ::= "a"', "has no 'root' rule"),
        ('root ::= "a" root', "rule 'root' has no finite expansion"),
        ('root ::= "a" | "b" "\\x00"', "contains NUL"),
        ("root ::= [^\\x00-\\U0010FFFF]", "matches no producible character"),
        ('root ::= "a" ("b" loop)?\nloop ::= "c" loop', "rule 'loop' has no finite expansion"),
        ("root ::= * ", "with nothing before it"),
        ('root ::= "a"{x}', "bad repetition"),
    ],
)
def test_grammars_that_cannot_finish_are_refused(gbnf: str, message: str) -> None:
    with pytest.raises(GrammarError, match=re.escape(message)):
        check_grammar(gbnf)


@pytest.mark.parametrize(
    "gbnf",
    [
        'root ::= "a" root?',
        'root ::= ws "x"\nws ::= ([ \\t\\n] ws)?',
        'root ::= ("yes" | "no") "."{0,3}  # comment\n',
        'root ::= (\n  "a"\n  | "b"\n)+',
        'root ::= [^"\\\\] .',
    ],
)
def test_grammars_that_can_finish_are_accepted(gbnf: str) -> None:
    assert "root" in check_grammar(gbnf)


def test_llama_cpp_example_grammars_pass_the_checker() -> None:
    from llama_cpp import llama_grammar

    names = [n for n in dir(llama_grammar) if n.endswith("_GBNF")]
    assert len(names) >= 5
    for name in names:
        check_grammar(getattr(llama_grammar, name))


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ("{not json", "not valid JSON"),
        ({"type": "object", "properties": {"a": {"$ref": "#/nowhere"}}}, "unsupported"),
    ],
)
def test_bad_json_schema(schema: object, message: str) -> None:
    with pytest.raises(GrammarError, match=message):
        Grammar.from_json_schema(schema)  # type: ignore[arg-type]


# --- the real default model under these grammars ------------------------------------------------

FUNCTIONS = [
    "SUM",
    "AVERAGE",
    "MAX",
    "MIN",
    "COUNT",
    "COUNTA",
    "COUNTIF",
    "SUMIF",
    "AVERAGEIF",
    "ROUND",
    "IF",
    "ABS",
    "MEDIAN",
    "LARGE",
    "SMALL",
    "AND",
    "OR",
    "LEN",
    "UPPER",
    "TODAY",
    "HYPERLINK",
]

SHEETS = {
    "sales": (
        {"A1": "Region", "B1": "Month", "C1": "Units", "D1": "Revenue"},
        30,
        [
            "total revenue",
            "average units",
            "largest revenue",
            "how many rows are for North",
            "revenue of North in total",
        ],
    ),
    "staff": (
        {"A1": "Name", "B1": "Dept", "C1": "Salary", "D1": "Age", "E1": "Start"},
        12,
        ["mean salary", "oldest age", "number of people", "salary total for Sales dept", "youngest age"],
    ),
    "grades": (
        {"B2": "Student", "C2": "Math", "D2": "Art"},
        25,
        [
            "best math grade",
            "average art grade",
            "median math grade",
            "count students with math over 50",
            "sum of art grades rounded to 1 decimal",
        ],
    ),
    "stock": (
        {"A1": "SKU", "B1": "Qty", "C1": "Price"},
        99,
        ["total quantity", "highest price", "average price", "how many SKUs", "total stock value"],
    ),
}


def _sheet(headers: dict[str, str], rows: int) -> tuple[Sheet, dict[str, str]]:
    cells: dict[str, object] = dict(headers)
    columns: dict[str, str] = {}
    for ref, name in headers.items():
        r = Range.parse(ref)
        letters = col_to_letters(r.left)
        first, last = r.top + 2, r.top + 1 + rows
        for row in range(first, last + 1):
            cells[f"{letters}{row}"] = (
                row * 3 if name not in ("Region", "Name", "SKU", "Student", "Dept") else f"x{row}"
            )
        columns[name] = f"{letters}{first}:{letters}{last}"
    return Sheet.from_cells("S", cells), columns  # type: ignore[arg-type]


_REF = re.compile(r"(?<![A-Z\"])([A-Z]{1,3}[0-9]{1,7})(?::([A-Z]{1,3}[0-9]{1,7}))?")


def _referenced(formula: str) -> list[Range]:
    no_strings = re.sub(r'"[^"]*"', '""', formula)
    return [
        Range.parse(m.group(0))
        for m in _REF.finditer(no_strings)
        if not no_strings[m.end() :].startswith("(")
    ]


def test_formula_grammar_with_the_real_model_20_requests(runtime: LlamaRuntime) -> None:
    parser = formulas.Parser()
    outputs: list[str] = []
    for headers, rows, tasks in SHEETS.values():
        sheet, columns = _sheet(headers, rows)
        used = sheet.used_range
        assert used is not None
        grammar = formula_grammar(FUNCTIONS, ranges=columns.values(), area=used)
        listing = ", ".join(f"{name}={rng}" for name, rng in columns.items())
        for task in tasks:
            messages = get_prompt("formula").render(columns=listing, task=task)
            done = runtime.complete(messages, grammar=grammar, max_tokens=48)
            text = done.text
            outputs.append(text)
            assert done.finish_reason == "stop", (task, text)
            assert text.startswith("="), text
            parser.ast(text)[1].compile()  # parses and compiles in an independent Excel formula engine
            called = set(re.findall(r"([A-Z][A-Z0-9.]*)\(", text))
            assert called <= set(FUNCTIONS) - DANGEROUS_FUNCTIONS, text
            refs = _referenced(text)
            assert refs, text
            assert all(r.intersect(used) == r for r in refs), (text, used.ref())
    assert len(outputs) == 20
    assert len(set(outputs)) >= 8  # varied requests, varied answers


def test_range_grammar_with_the_real_model(runtime: LlamaRuntime) -> None:
    grammar = range_grammar(14, 6, max_ranges=4)
    area = Range(0, 0, 13, 5)
    sheet_text = (
        "(Budget 2024|A1),(Item|A3),(Plan|B3),(Actual|C3),(TextData|A4:A9),(IntNum|B4:C9),"
        "(Name|E3),(Phone|F3),(TextData|E4:F7),(Notes: approved|A12)"
    )
    done = runtime.complete(
        get_prompt("detect_tables").render(sheet=sheet_text), grammar=grammar, max_tokens=40
    )
    assert done.finish_reason == "stop"
    assert re.fullmatch(r"NONE|[A-F]\d+:[A-F]\d+(, [A-F]\d+:[A-F]\d+)*", done.text), done.text
    ranges = parse_ranges(done.text, area)
    assert all(r.intersect(area) == r for r in ranges)


# -- jump-forward decoding --------------------------------------------------------------------------
_PHRASES = tuple(sorted(['"Name"', '"Nation"', '"Price"', "'North'", " FROM data"]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('SELECT "Na', (0, "")),  # "Name" or "Nation": the model chooses
        ('SELECT "Nam', (4, 'e"')),
        ('SELECT "P', (2, 'rice"')),
        ('SELECT "Price"', (0, "")),  # a finished phrase forces nothing
        ("SELECT 1 WHERE x = 'N", (2, "orth'")),
        ('SELECT "Price" F', (2, "ROM data")),
        ('SELECT "', (0, "")),  # one character chooses nothing yet
        ("", (0, "")),
    ],
)
def test_forced_text(text: str, expected: tuple[int, str]) -> None:
    assert forced_text(_PHRASES, text) == expected


def test_with_phrases_sorts_and_keeps_the_grammar() -> None:
    g = Grammar.from_gbnf('root ::= "a"').with_phrases(['"b"', '"a"', '"a"', "x"])
    assert g.phrases == ('"a"', '"b"') and g.gbnf == 'root ::= "a"'


def test_jump_forward_with_the_real_model(runtime: LlamaRuntime) -> None:
    """Forcing the rest of a begun phrase writes what the model writes alone, in fewer model steps."""
    names = ["Quarterly revenue before tax", "Quarterly revenue after tax", "Region of the sales office"]
    ids = " | ".join('"\\"' + n + '\\""' for n in names)
    grammar = Grammar.from_gbnf(f'root ::= "SELECT " col " FROM data"\ncol ::= {ids}')
    chat = [
        {"role": "system", "content": "Write one SQLite query over the table data."},
        {
            "role": "user",
            "content": "Columns: "
            + ", ".join(f'"{n}"' for n in names)
            + "\nQuestion: list the region of each sales office.",
        },
    ]
    steps: list[int] = []
    llm = runtime._llm
    plain_eval = llm.eval
    try:
        llm.eval = lambda tokens: (steps.append(len(tokens)), plain_eval(tokens))[1]
        alone = runtime.complete(chat, grammar=grammar, max_tokens=40, timeout_s=300)
        alone_steps = len(steps)
        steps.clear()
        jumped = runtime.complete(
            chat, grammar=grammar.with_phrases(f'"{n}"' for n in names), max_tokens=40, timeout_s=300
        )
    finally:
        llm.eval = plain_eval
    assert alone.text == jumped.text == 'SELECT "Region of the sales office" FROM data'
    assert len(steps) < alone_steps and max(steps) > 1

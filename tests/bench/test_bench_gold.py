"""Gold answers of `bench qa` / `bench formula`: golds that are not text, answer_alt, WTQ's matching."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import click
import pytest

from gridsight.bench._gold import Question, compare, load_questions, score, wtq_match, wtq_normalize


@pytest.mark.parametrize(
    ("value", "gold", "kind", "ok"),
    [
        (19, 19, "number", True),  # JSON number
        (19.004, 19.0, "number", True),
        (18, 19, "number", False),
        (True, True, "boolean", True),  # JSON bool
        (False, True, "boolean", False),
        ("True", True, "boolean", True),
        (False, "No", "boolean", True),  # a gold written "Yes" / "No"
        (True, "No", "boolean", False),
        (True, "yes", "boolean", True),
        ([["US"], ["CN"]], ["CN", "US"], "list[category]", True),  # JSON list
        ([["US"]], ["CN", "US"], "list[category]", False),
        ([3, 1.004], [1, 3], "list[number]", True),
        ([3], [3, 3], "list[number]", False),  # as DataBench: sorted lists, repeats count
        (7, [7], "number", True),  # a list of one item is that item
        (7, [7, 8], "number", False),
        ("Oslo", ["Oslo"], "category", True),
        (2014, 2014, "category", True),
    ],
)
def test_gold_that_is_not_text(value: Any, gold: Any, kind: str, ok: bool) -> None:
    assert compare(value, gold, kind) is ok


def _q(**kw: Any) -> Question:
    base: dict[str, Any] = {
        "question": "q",
        "answer": "x",
        "type": "category",
        "dataset": "d",
        "path": None,
        "file": "f.csv",
    }
    return Question(**(base | kw))


def test_answer_alt_counts_as_right() -> None:
    q = _q(answer="0.846", type="number", alt=[84.6])
    assert score(0.846, q) == "answer"
    assert score(84.6, q) == "answer_alt"
    assert score(8.46, q) is None


TWO = ["John Velazquez", "Pat Day"]


@pytest.mark.parametrize(
    ("value", "raw", "canon", "ok"),
    [
        (17, ["17 years"], ["17.0"], True),  # the canonical number
        ("17", ["17 years"], ["17.0"], True),
        ("17 years", ["17 years"], ["17.0"], True),  # the text itself
        (18, ["17 years"], ["17.0"], False),
        (34.7e9, ["$34.7 billion"], ["34700000000.0"], True),
        ("December 27, 2008", ["December 27, 2008"], ["2008-12-27"], True),
        (dt.date(2008, 12, 27), ["December 27, 2008"], ["2008-12-27"], True),  # dates canonicalised
        (dt.datetime(2008, 12, 27), ["December 27, 2008"], ["2008-12-27"], True),
        ("27 December 2008", ["December 27, 2008"], ["2008-12-27"], True),
        ("2008-12-27", ["December 27, 2008"], ["2008-12-27"], True),
        ("2008-12-28", ["December 27, 2008"], ["2008-12-27"], False),
        (1995, ["1995"], ["1995"], True),
        ("natasa maric", ["Nataša Marić"], ["Nataša Marić"], True),  # diacritics, case
        ("Italy", ["Italy (ITA)"], ["Italy (ITA)"], True),  # trailing parenthetical
        ("Smith", ['"Smith"'], ['"Smith"'], True),  # outer quotes
        ("10-4", ["10–4"], ["10–4"], True),  # dashes
        ("Jr", ["Jr."], ["Jr."], True),  # final '.'
        ("Brazil", ["Brazil[1]"], ["Brazil[1]"], True),  # citation
        ([["Pat Day"], ["John Velazquez"]], TWO, TWO, True),
        (["Pat Day"], TWO, TWO, False),
        (["Pat Day", "Pat Day", "x"], ["Pat Day"], ["Pat Day"], False),
        (True, ["yes"], ["yes"], True),
        ("Berlin", ["Bern"], ["Bern"], False),
    ],
)
def test_wtq_matching(value: Any, raw: list[str], canon: list[str], ok: bool) -> None:
    assert wtq_match(value, raw, canon) is ok


def test_wtq_normalize_is_the_official_one() -> None:
    assert wtq_normalize(" “Crème brûlée” (dessert) ") == "creme brulee"
    assert wtq_normalize('"Hello World."') == "hello world"
    assert wtq_normalize("Zürich*") == "zurich"


def test_wtq_scoring_applies_only_to_lines_with_canon() -> None:
    wtq = _q(answer="17 years", raw=["17 years"], canon=["17.0"], canon_type="number")
    assert score(17, wtq) == "wtq"
    assert score("17 years", wtq) == "answer"
    databench = _q(answer="17 years")
    assert score(17, databench) is None and score("17 YEARS", databench) is None


def _write_qa(folder: Path, lines: list[Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join((json.dumps(x) if not isinstance(x, str) else x) + "\n" for x in lines)
    (folder / "qa.jsonl").write_text(text, encoding="utf-8")
    return folder


def test_a_line_without_type_is_typed_from_its_gold(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("a\n1\n", encoding="utf-8")
    root = _write_qa(
        tmp_path,
        [
            {"question": "n?", "answer": 3, "file": "t.csv"},
            {"question": "b?", "answer": False, "file": "t.csv"},
            {"question": "l?", "answer": [1, 2], "file": "t.csv"},
            {"question": "c?", "answer": ["x", 2], "file": "t.csv"},
            {"question": "s?", "answer": "Oslo", "file": "t.csv"},
        ],
    )
    assert [q.type for q in load_questions(root)] == [
        "number",
        "boolean",
        "list[number]",
        "list[category]",
        "category",
    ]


def test_other_names_of_a_type_are_read_as_it(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("a\n1\n", encoding="utf-8")
    root = _write_qa(
        tmp_path,
        [
            {"question": "s?", "answer": "Oslo", "type": "text", "file": "t.csv"},
            {"question": "n?", "answer": "3", "type": "Numeric", "file": "t.csv"},
            {"question": "b?", "answer": "True", "type": "bool", "file": "t.csv"},
            {"question": "l?", "answer": [1, 2], "type": "list", "file": "t.csv"},
        ],
    )
    assert [q.type for q in load_questions(root)] == ["category", "number", "boolean", "list[number]"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "qa.jsonl:2: not valid JSON"),
        ("[1, 2]", "qa.jsonl:2: a line must be a JSON object"),
        ({"question": "q?", "file": "t.csv"}, "qa.jsonl:2: the line has no 'answer'"),
        ({"answer": 1, "file": "t.csv"}, "qa.jsonl:2: the line has no 'question'"),
        ({"question": "q?", "answer": 1}, "qa.jsonl:2: the line has no 'file'"),
        ({"question": "q?", "answer": 1, "type": "money", "file": "t.csv"}, "unknown answer type 'money'"),
        ({"question": "q?", "answer": None, "file": "t.csv"}, "'answer' must be text, a number"),
    ],
)
def test_a_malformed_line_names_its_place(tmp_path: Path, line: Any, message: str) -> None:
    (tmp_path / "t.csv").write_text("a\n1\n", encoding="utf-8")
    root = _write_qa(tmp_path, [{"question": "ok?", "answer": 1, "file": "t.csv"}, line])
    with pytest.raises(click.ClickException) as err:
        load_questions(root)
    assert message in err.value.message


def test_a_folder_without_questions_says_so(tmp_path: Path) -> None:
    with pytest.raises(click.ClickException, match=r"neither a workbook-QA qa\.jsonl nor DataBench"):
        load_questions(tmp_path)
    (tmp_path / "qa.jsonl").write_text("\n", encoding="utf-8")
    with pytest.raises(click.ClickException, match="hold no questions"):
        load_questions(tmp_path)

"""The model tier's checks, with a scripted runtime (what the model says is fixed; the checks are real)."""

from __future__ import annotations

import pytest

from gridsight.formula._generate import generate_formula
from gridsight.grid import SheetBuilder, Workbook
from gridsight.llm import ScriptedRuntime

ROWS = [
    ("Name", "Glasses", "Dating App", "Score"),
    ("Ann", "Constantly", "Yes", 3),
    ("Bo", "Rarely", "No", 5),
    ("Cy", "Constantly", "Yes", 4),
]


def book() -> Workbook:
    b = SheetBuilder("S")
    for i, row in enumerate(ROWS):
        for j, v in enumerate(row):
            b.set(i, j, v)
    return Workbook([b.build()])


REQUEST = "How many respondents wear glasses all the time?"  # no shape: 'all the time' is no value


@pytest.mark.parametrize(
    ("reply", "formula", "reason_end"),
    [
        ('=COUNTIF(B2:B4,"Constantly")', '=COUNTIF(B2:B4,"Constantly")', None),
        ('=COUNTIF(C2:C4,"Yes")', None, "reads none of the columns the request names"),
        ('=COUNTIF(B2:B4,"all the time")', None, 'tests for "all the time", which no cell holds'),
        ("=COUNTIF(B2:B4", None, "failed (cannot parse"),
    ],
)
def test_model_answers_are_checked(reply: str, formula: str | None, reason_end: str | None) -> None:
    runtime = ScriptedRuntime([reply])
    assert generate_formula(REQUEST, book(), "S").formula is None  # the rules abstain
    ans = generate_formula(REQUEST, book(), "S", model=runtime)
    assert ans.formula == formula, ans.reason
    if formula is not None:
        assert (ans.shape, ans.confidence, ans.value, ans.evidence) == ("model", 0.3, 2, ("B2:B4",))
    else:
        assert ans.reason is not None and reason_end in ans.reason
        assert ans.reason.startswith("no formula shape matches this request")
    sent = runtime.requests[0]
    assert sent.grammar is not None and sent.max_tokens == 96
    assert "Glasses=B2:B4" in sent.messages[-1]["content"]


def test_nonsense_never_reaches_the_model() -> None:
    runtime = ScriptedRuntime(["=SUM(D2:D4)"])
    ans = generate_formula("How many unicorns have wings?", book(), "S", model=runtime)
    assert ans.formula is None and runtime.requests == []


def test_rules_first() -> None:
    runtime = ScriptedRuntime(["=SUM(D2:D4)"])
    ans = generate_formula("What is the average score?", book(), "S", model=runtime)
    assert (ans.formula, ans.shape, runtime.requests) == ("=AVERAGE(D2:D4)", "aggregate-average", [])


def test_refine_lets_the_model_reorder_only() -> None:
    from gridsight.formula._suggest import refine_suggestions, suggest

    wb = book()
    plain = [s.text for s in suggest("total", wb, "S")]
    assert plain == ["total Score"]  # one suggestion: nothing to rank, the model is not asked
    runtime = ScriptedRuntime(["1"])
    assert [s.text for s in refine_suggestions("total", wb, "S", model=runtime)] == plain
    assert runtime.requests == []


def _two_number_book() -> Workbook:
    b = SheetBuilder("S")
    for i, row in enumerate([("Region", "Sales", "Units"), ("East", 10, 1), ("West", 20, 2)]):
        for j, v in enumerate(row):
            b.set(i, j, v)
    return Workbook([b.build()])


@pytest.mark.parametrize(
    ("reply", "first"), [("2", "total Units"), ("1", "total Sales"), ("9", "total Sales")]
)
def test_refine_moves_the_models_pick_first(reply: str, first: str) -> None:
    from gridsight.formula._suggest import refine_suggestions, suggest

    wb = _two_number_book()
    assert [s.text for s in suggest("total", wb, "S")] == ["total Sales", "total Units"]
    runtime = ScriptedRuntime([reply])
    got = refine_suggestions("total", wb, "S", model=runtime)
    assert got[0].text == first and sorted(s.text for s in got) == ["total Sales", "total Units"]
    assert "1. total Sales\n2. total Units" in runtime.requests[0].messages[-1]["content"]

"""The formula model tier with the real default model: whatever it writes is checked before it is shown."""

from __future__ import annotations

from typing import Any

from gridsight.formula import evaluate_formula
from gridsight.formula._generate import generate_formula
from gridsight.grid import SheetBuilder, Workbook


def test_real_model_fills_in_or_abstains_with_reason(runtime: Any) -> None:
    b = SheetBuilder("S")
    rows = [
        ("Name", "Glasses", "Score"),
        ("Ann", "Constantly", 3),
        ("Bo", "Rarely", 5),
        ("Cy", "Constantly", 4),
    ]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            b.set(i, j, v)
    wb = Workbook([b.build()])
    request = "How many respondents wear glasses all the time?"
    assert generate_formula(request, wb, "S").formula is None  # no rule matches: the model's turn
    ans = generate_formula(request, wb, "S", model=runtime)
    if ans.formula is None:  # refused: the reason says what the model wrote and why it was refused
        assert ans.reason is not None and "the model" in ans.reason
    else:  # shown: valid, evaluated, reading the named column, flagged as the model's
        ev = evaluate_formula(ans.formula, wb, "S")
        assert ev.ok and ev.error is None and ans.value == ev.value
        assert ans.shape == "model" and ans.confidence == 0.3 and "B2:B4" in ans.evidence


def test_real_model_reorders_suggestions_without_inventing(runtime: Any) -> None:
    from gridsight.formula._suggest import refine_suggestions, suggest

    b = SheetBuilder("S")
    for i, row in enumerate([("Region", "Sales", "Units"), ("East", 10, 1), ("West", 20, 2)]):
        for j, v in enumerate(row):
            b.set(i, j, v)
    wb = Workbook([b.build()])
    plain = suggest("total un", wb, "S") + suggest("total", wb, "S")
    got = refine_suggestions("total", wb, "S", model=runtime)
    assert sorted(s.formula for s in got) == sorted({s.formula for s in suggest("total", wb, "S")})
    assert {s.formula for s in got} <= {s.formula for s in plain}

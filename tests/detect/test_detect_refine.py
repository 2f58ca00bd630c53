"""Model refinement without a real model: the doubtful decisions the rules state, the grammar the
model answers under, and the gate that keeps a position-biased model from overriding the rules."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import pytest

from gridsight.detect import detect_tables
from gridsight.detect._alternatives import uncertain_points
from gridsight.detect._assemble import assemble
from gridsight.detect._cells import cell_grid
from gridsight.detect._detect import candidate_pieces
from gridsight.detect._refine import SHEET_BUDGET_S, TableRangeRefiner, crop, load_refiner
from gridsight.detect._structure import is_table
from gridsight.grid import Range, Sheet
from gridsight.llm import Completion


def _rows(top: int, header: tuple[str, ...], n: int) -> dict[str, object]:
    cols = "ABCDEFGH"
    cells: dict[str, object] = {f"{cols[j]}{top}": h for j, h in enumerate(header)}
    for i in range(1, n + 1):
        cells[f"A{top + i}"] = f"r{i}"
        for j in range(1, len(header)):
            cells[f"{cols[j]}{top + i}"] = i * 10 + j
    return cells


# (name, cells, merges, kind, the rules' reading, the other reading)
DOUBTS = [
    (
        "short lone label right above the header",
        {"A1": "Sales", **_rows(2, ("Region", "Q1", "Q2"), 4)},
        (),
        "title-or-header",
        ["A2:C6"],
        ["A1:C6"],
    ),
    (
        "lone label as the last row",
        {**_rows(1, ("Region", "Q1", "Q2"), 4), "A6": "other"},
        (),
        "row-or-note",
        ["A1:C6"],
        ["A1:C5"],
    ),
    (
        "parts stacked across a blank row",
        {**_rows(1, ("Region", "Q1", "Q2"), 3), "A6": "r9", "B6": 1, "C6": 2, "A7": "r10", "B7": 3, "C7": 4},
        (),
        "one-or-two",
        ["A1:C7"],
        ["A1:C4", "A6:C7"],
    ),
]


def _points(sheet: Sheet) -> list[tuple[str, list[list[str]]]]:
    g = cell_grid(sheet)

    def text_at(r: int, c: int) -> str:
        i = int(g.label_ids[r, c])
        return sheet.texts[i] if i >= 0 else ""

    sks = [sk for sk in assemble(g, candidate_pieces(g, text_at), text_at) if is_table(g, sk.box)]
    r0, c0 = g.origin
    return [
        (
            ch.kind,
            [
                [
                    Range(sk.box.top + r0, sk.box.left + c0, sk.box.bottom + r0, sk.box.right + c0).ref()
                    for sk in o
                ]
                for o in ch.options
            ],
        )
        for ch in uncertain_points(g, sks, text_at)
    ]


@pytest.mark.parametrize(
    ("name", "cells", "merges", "kind", "rules", "other"), DOUBTS, ids=[d[0] for d in DOUBTS]
)
def test_doubtful_decisions(
    name: str,
    cells: dict[str, object],
    merges: tuple[str, ...],
    kind: str,
    rules: list[str],
    other: list[str],
) -> None:
    assert _points(Sheet.from_cells("S", cells, merges=merges)) == [(kind, [rules, other])]


@pytest.mark.parametrize(
    ("cells", "merges"),
    [
        # a banner merged over the table is a title by its formatting: nothing to ask
        ({"A1": "Sales", **_rows(2, ("Region", "Q1", "Q2"), 4)}, ("A1:C1",)),
        # a long sentence above is a title, not a header line
        (
            {
                "A1": "Sales by region for the financial year ending June",
                **_rows(2, ("Region", "Q1", "Q2"), 4),
            },
            (),
        ),
        # one clean table
        (_rows(1, ("Region", "Q1", "Q2"), 4), ()),
    ],
)
def test_no_doubt_where_the_layout_settles_it(cells: dict[str, object], merges: tuple[str, ...]) -> None:
    assert _points(Sheet.from_cells("S", cells, merges=merges)) == []


class FakeModel:
    """Answers each prompt with ``pick(first, second)``; records every prompt and grammar."""

    def __init__(self, pick: Any) -> None:
        self.pick = pick
        self.calls: list[tuple[Sequence[dict[str, str]], str]] = []

    def complete(self, messages: Sequence[dict[str, str]], *, grammar: Any, **_: Any) -> Completion:
        self.calls.append((messages, grammar.gbnf))
        question = messages[-1]["content"].rsplit("\n", 1)[-1]  # "The table is X or Y?"
        first, second = question.removeprefix("The table is ").rstrip("?").split(" or ")
        return Completion(self.pick(first, second), "stop", 10, 2, 0.01)


DOUBTFUL = {"A1": "Sales", **_rows(2, ("Region", "Q1", "Q2"), 4)}


@pytest.mark.parametrize(
    ("pick", "expected", "calls"),
    [
        (lambda a, b: a, "A2:C6", 1),  # names the first option: the rules' reading, asked once
        (lambda a, b: b, "A2:C6", 2),  # names the second: position bias, inconsistent, rules stand
        (lambda a, b: "A1:C5" if "A1:C5" in (a, b) else a, "A1:C6", 2),  # the other reading, twice
    ],
)
def test_refiner_gate(pick: Any, expected: str, calls: int) -> None:
    model = FakeModel(pick)
    det = detect_tables(Sheet.from_cells("S", DOUBTFUL), refiner=TableRangeRefiner(model, "fake"))
    assert [t.range.ref() for t in det.tables] == [expected]
    assert len(model.calls) == calls and det.model == "fake" and det.model_questions == 1
    assert det.tables[0].source == ("fake" if expected == "A1:C6" else "rules")
    # the grammar admits exactly the two readings, written inside the area the model sees
    assert model.calls[0][1] == 'root ::= "A2:C5" | "A1:C5"\n'


class ScoringModel(FakeModel):
    """Names the other reading in both orders; a scoring runtime also weighs both readings."""

    can_score = True

    def __init__(self, other_logprob: float) -> None:
        super().__init__(lambda a, b: "A1:C5")
        self.other_logprob = other_logprob

    def score(self, messages: Sequence[dict[str, str]], reply: str, **_: Any) -> float:
        return self.other_logprob if reply == "A1:C5" else -1.0


@pytest.mark.parametrize(("other_logprob", "expected"), [(-0.5, "A2:C6"), (-4.0, "A2:C6"), (1.0, "A1:C6")])
def test_a_scoring_runtime_must_find_the_other_reading_far_likelier(
    other_logprob: float, expected: str
) -> None:
    """Named twice is not enough where scores exist: the other reading needs 80% of the probability
    (e**0.5 / (1 + e**0.5) = 62%: the rules stand; e**2 / (1 + e**2) = 88%: it wins)."""
    det = detect_tables(
        Sheet.from_cells("S", DOUBTFUL), refiner=TableRangeRefiner(ScoringModel(other_logprob), "fake")
    )
    assert [t.range.ref() for t in det.tables] == [expected]


def test_refiner_failures_keep_the_rules() -> None:
    class Broken:
        def complete(self, *_: Any, **__: Any) -> Completion:
            raise TimeoutError("model too slow")

    det = detect_tables(Sheet.from_cells("S", DOUBTFUL), refiner=TableRangeRefiner(Broken(), "broken"))
    assert [t.range.ref() for t in det.tables] == ["A2:C6"]
    assert det.notes == ("model asked about 1 doubtful edge(s); its choice changed 0 table(s)",)


def test_load_refiner_without_a_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("GRIDSIGHT_MODEL", str(tmp_path / "missing.gguf"))
    refiner, why = load_refiner()
    assert refiner is None and why.startswith("model unavailable") and why.endswith("rules only")


def test_crop_keeps_true_addresses() -> None:
    sheet = Sheet.from_cells("S", {"B2": "x", "C3": 1, "D9": 2, "B5": "m"}, merges=("B5:C5",))
    part = crop(sheet, Range.parse("B3:C5"))
    assert part.origin == (2, 1) and part.used_range is not None
    assert part.value("C3") == 1 and part.merges == (Range.parse("B5:C5").with_sheet("S"),)


class SlowModel(FakeModel):
    """Names the rules' reading; reads at ``seconds_per_token`` and records the timeout it was given."""

    def __init__(self) -> None:
        super().__init__(lambda a, b: a)
        self.timeouts: list[float] = []

    def count_tokens(self, text: str) -> int:
        return len(text)

    def complete(self, messages: Sequence[dict[str, str]], *, grammar: Any, **kw: Any) -> Completion:
        self.timeouts.append(kw["timeout_s"])
        return super().complete(messages, grammar=grammar)


def test_a_question_the_model_cannot_answer_in_the_sheets_time_is_not_asked() -> None:
    """Detection stays under its 1 s per sheet: reading the encoding at 10 ms a token would take
    seconds, so the rules' reading stands and the note says why."""
    model = SlowModel()
    refiner = TableRangeRefiner(model, "slow")
    refiner.seconds_per_token = 0.01
    det = detect_tables(Sheet.from_cells("S", DOUBTFUL), refiner=refiner)
    assert [t.range.ref() for t in det.tables] == ["A2:C6"]
    assert model.calls == [] and det.model_questions == 0 and det.model_skipped == 1
    assert det.notes == (
        "model asked about 0 doubtful edge(s); its choice changed 0 table(s)",
        "1 doubtful edge(s) kept the rules' reading: no time left to ask",
    )


def test_a_question_asked_gets_only_the_time_left_in_the_sheets_budget() -> None:
    model = SlowModel()
    det = detect_tables(Sheet.from_cells("S", DOUBTFUL), refiner=TableRangeRefiner(model, "quick"))
    assert det.model_questions == 1 and det.model_skipped == 0 and len(model.timeouts) == 1
    assert 0 < model.timeouts[0] <= SHEET_BUDGET_S
    # a caller with more time to spend (a batch job, the tests of the model's choices) says so
    model = SlowModel()
    refiner = TableRangeRefiner(model, "patient", sheet_budget_s=60.0)
    refiner.seconds_per_token = 0.01
    det = detect_tables(Sheet.from_cells("S", DOUBTFUL), refiner=refiner)
    assert det.model_questions == 1 and SHEET_BUDGET_S < model.timeouts[0] <= 10.0


def test_an_answer_cut_off_at_the_deadline_keeps_the_rules() -> None:
    """Even when what came out before the cut reads like the other reading."""

    class CutOff(FakeModel):
        def complete(self, messages: Sequence[dict[str, str]], *, grammar: Any, **_: Any) -> Completion:
            return Completion("A1:C5", "timeout", 10, 1, 0.9)

    det = detect_tables(
        Sheet.from_cells("S", DOUBTFUL), refiner=TableRangeRefiner(CutOff(lambda a, b: a), "x")
    )
    assert [t.range.ref() for t in det.tables] == ["A2:C6"] and det.model_questions == 1


@pytest.mark.parametrize("budget", [0.0, -5.0])
def test_no_time_at_all_asks_nothing(budget: float) -> None:
    """A spent (or nonsensical, negative) budget asks nothing and keeps the rules' answer."""
    model = SlowModel()
    det = detect_tables(
        Sheet.from_cells("S", DOUBTFUL), refiner=TableRangeRefiner(model, "x", sheet_budget_s=budget)
    )
    assert [t.range.ref() for t in det.tables] == ["A2:C6"]
    assert model.calls == [] and det.model_questions == 0 and det.model_skipped == 1


def test_the_refiner_prices_questions_at_the_speed_it_last_saw() -> None:
    """Reading a prompt cannot be cut short, and a machine shared with other work reads slower
    than at warm-up: once a question took longer than priced, the next is priced at that speed
    and, where the sheet's time cannot cover it, not asked."""

    class Sleepy(SlowModel):
        def complete(self, messages: Sequence[dict[str, str]], *, grammar: Any, **kw: Any) -> Completion:
            time.sleep(0.2)
            return super().complete(messages, grammar=grammar, **kw)

    model = Sleepy()
    refiner = TableRangeRefiner(model, "sleepy", sheet_budget_s=5.0)
    refiner.seconds_per_token = 1e-6  # what a fast warm-up measured
    first = detect_tables(Sheet.from_cells("S", DOUBTFUL), refiner=refiner)
    assert first.model_questions == 1 and len(model.calls) == 1
    refiner.sheet_budget_s = 0.15  # less than the question took
    second = detect_tables(Sheet.from_cells("S", DOUBTFUL), refiner=refiner)
    assert second.model_questions == 0 and second.model_skipped == 1 and len(model.calls) == 1

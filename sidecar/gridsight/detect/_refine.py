"""Model refinement: at the rules' doubtful decisions the local model picks one of their readings.

The rules never depend on this. For each doubtful decision (:mod:`gridsight.detect._alternatives`)
the model reads the SheetCompressor encoding of the area around it (``gridsight.encode``, compact
addresses) with the paper's detection prompt (appendix L.2, ``detect_tables``), and answers under a
grammar that admits exactly the options' ranges written in the compact sheet -- so it can only
choose, never invent. The address map turns its answer back into the sheet's ranges.

Why so narrow: the default model (Qwen2.5-Coder 0.5B) names the right range among two close ones
only a little better than chance (FINDINGS.md: good at choosing under a grammar, at little else),
and it must never make the rules' answer worse. Anything that goes wrong -- no model, a timeout, an
option the encoding cannot express, an answer that is not an option -- keeps the rules' reading.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from gridsight.grid import Range, Sheet

#: An encoding longer than this (characters, about 600 tokens) is not worth a question to a 0.5B
#: model: it would take seconds to read on a laptop CPU (a wide header of long labels).
MAX_ENCODING_CHARS = 2_000
#: Probability share (averaged over both option orders) the other reading needs when scored.
CONFIRM_SHARE = 0.8
#: Time per sheet, rules and model together (the issue's bound: under 1 s for sheets up to 100k
#: cells). A question the model cannot finish before it runs out is not asked; a question that
#: overruns is cut off at the deadline. Either way the rules' reading stands.
SHEET_BUDGET_S = 0.8
#: Prompt-reading speed assumed until the warm-up measures the real one (2-core laptop CPU).
DEFAULT_SECONDS_PER_TOKEN = 1 / 150
#: Tokens a question adds to the sheet's encoding (the "The table is ... or ...?" line, the turn
#: markers) plus what the answers cost to generate, in prompt-token equivalents.
QUESTION_OVERHEAD_TOKENS = 40
#: What :meth:`TableRangeRefiner.choose` returns for a question it had no time to ask.
NOT_ASKED = -1


def crop(sheet: Sheet, area: Range) -> Sheet:
    """The part of ``sheet`` inside ``area`` as a sheet of its own, at its true addresses."""
    r0, c0 = sheet.origin
    h, w = sheet.shape
    top, left = max(area.top - r0, 0), max(area.left - c0, 0)
    bottom, right = min(area.bottom - r0, h - 1), min(area.right - c0, w - 1)
    rows, cols = slice(top, bottom + 1), slice(left, right + 1)
    kept = Range(top + r0, left + c0, bottom + r0, right + c0)
    merges = tuple(m for m in sheet.merges if kept.intersect(m) == m.with_sheet(None))
    return Sheet(
        sheet.name,
        (top + r0, left + c0),
        sheet.kinds[rows, cols].copy(),
        sheet.numbers[rows, cols].copy(),
        sheet.text_ids[rows, cols].copy(),
        sheet.formula_ids[rows, cols].copy(),
        sheet.format_ids[rows, cols].copy(),
        sheet.styles[rows, cols].copy(),
        sheet.texts,
        sheet.formulas,
        sheet.number_formats,
        merges,
        sheet.date1904,
    )


class TableRangeRefiner:
    """Asks a model (a runtime or the shared queue: anything with ``complete``) to choose.

    Option 0 is the rules' reading. The model is asked with it named first; if it names the other
    reading, it is asked again with the order swapped, and the other reading counts only when the
    model picks it both times. A small model that names whichever option comes first (position
    bias) thus never overrides the rules.
    """

    def __init__(
        self, model: Any, name: str, *, timeout_s: float = 10.0, sheet_budget_s: float = SHEET_BUDGET_S
    ) -> None:
        self.model = model
        self.name = name
        self.timeout_s = timeout_s
        self.sheet_budget_s = sheet_budget_s  # detection's time per sheet, rules and model together
        self.seconds_per_token = DEFAULT_SECONDS_PER_TOKEN

    def _count(self, text: str) -> int:
        """Tokens of ``text`` for the model (a character estimate when it cannot say)."""
        count = getattr(self.model, "count_tokens", None)
        if count is None:
            count = getattr(getattr(self.model, "runtime", None), "count_tokens", None)
        try:
            return int(count(text)) if count is not None else len(text) // 3 + 1
        except Exception:  # a queue whose model failed to load: the estimate will do
            return len(text) // 3 + 1

    def _seconds_to_ask(self, text: str) -> float:
        """What one question costs: reading the area's encoding ``text`` (the prompt's fixed part is
        already cached by :meth:`warm_up`) and the short answers."""
        return (self._count(text) + QUESTION_OVERHEAD_TOKENS) * self.seconds_per_token

    def prompt(self, sheet: Sheet, focus: Range, options: Sequence[Sequence[Range]]) -> tuple[str, list[str]]:
        """The encoding of ``focus`` and each reading's ranges inside it, in the compact sheet's
        addresses ('' when a reading cannot be written there: a corner the encoding dropped)."""
        from gridsight.encode import EncodeOptions, encode_sheet

        # every discrepancy line stays an anchor: the question is where the rules' tables end, so
        # their own edges must not decide what the model sees
        enc = encode_sheet(crop(sheet, focus), EncodeOptions(table_anchors=False))
        answers: list[str] = []
        for opt in options:
            parts = [r.intersect(focus) for r in sorted(opt, key=lambda x: (x.top, x.left))]
            refs = [enc.address_map.to_compact(p) for p in parts if p is not None]
            answers.append(
                "" if not refs or any(x is None for x in refs) else ", ".join(x.ref() for x in refs if x)
            )
        return enc.text, answers

    def choose(
        self,
        sheet: Sheet,
        focus: Range,
        options: Sequence[Sequence[Range]],
        *,
        deadline: float | None = None,
    ) -> int | None:
        """0 when the rules' reading stands, 1 when the model picked the other in both orders; None
        when it cannot be asked, did not answer (in time: ``deadline`` is a ``time.monotonic()``
        instant), or answered differently when the order changed; :data:`NOT_ASKED` when the
        question could not be answered before ``deadline``, so it was not put to the model."""
        from gridsight.llm import Grammar, get_prompt

        def timeout() -> float:
            left = self.timeout_s if deadline is None else min(self.timeout_s, deadline - time.monotonic())
            if left <= 0:
                raise TimeoutError
            return left

        text, answers = self.prompt(sheet, focus, options)
        cost = self._seconds_to_ask(text)
        if deadline is not None and time.monotonic() + cost > deadline:
            return NOT_ASKED
        if (
            len(answers) != 2
            or not all(answers)
            or answers[0] == answers[1]
            or len(text) > MAX_ENCODING_CHARS
        ):
            return None
        grammar = Grammar.from_gbnf(
            "root ::= " + " | ".join(f'"{a}"' for a in answers) + "\n", "detect-choice"
        )
        template = get_prompt("detect_choose")
        picks: list[Any] = []
        for first, second in (answers, answers[::-1]):
            messages = template.render(sheet=text, first=first, second=second)
            if picks and deadline is not None and time.monotonic() + cost > deadline:
                return None  # no time for the second order: the rules' reading stands
            try:
                left = timeout()
            except TimeoutError:
                return None
            started = time.monotonic()
            try:
                done = self.model.complete(
                    messages, grammar=grammar, max_tokens=max(map(len, answers)) + 4, timeout_s=left
                )
            except Exception:  # no model, timeout, cancelled: the rules' reading stands
                self._observe(time.monotonic() - started, text)  # (a timeout took at least this long)
                return None
            cost = self._observe(time.monotonic() - started, text)
            if done.truncated:
                return None  # cut off (the deadline): the rules' reading stands
            picks.append(done.text.strip())
            if picks[0] == answers[0]:
                return 0  # the rules' reading, named first, stands: no second question needed
        if picks[0] != picks[1] or picks[0] not in answers:
            return None
        pick = answers.index(picks[0])
        if pick == 1 and not self._confirmed(template, text, answers, timeout, deadline):
            return None
        return pick

    def _observe(self, seconds: float, text: str) -> float:
        """Learn the reading speed from a question that took ``seconds`` (a machine shared with
        other work reads slower than at warm-up: prompt reading cannot be cut short, so the next
        questions must be priced at today's speed); returns what a question on ``text`` costs now."""
        observed = seconds / (self._count(text) + QUESTION_OVERHEAD_TOKENS)
        if observed > self.seconds_per_token:
            self.seconds_per_token = observed
        else:  # faster again: come down halfway
            self.seconds_per_token = (self.seconds_per_token + observed) / 2
        return self._seconds_to_ask(text)

    def _confirmed(
        self, template: Any, text: str, answers: list[str], timeout: Any, deadline: float | None = None
    ) -> bool:
        """A runtime that can score must also find the other reading far likelier (summed over both
        option orders) than the rules' reading: naming it under a grammar alone overturned a right
        title-or-header reading once the prompt described the encoding truthfully."""
        if not getattr(self.model, "can_score", False):
            return True
        from gridsight.llm import shares

        other = 0.0
        try:
            for first, second in (answers, answers[::-1]):
                messages = template.render(sheet=text, first=first, second=second)
                scores = []
                for a in answers:
                    cost = self._seconds_to_ask(text)
                    if deadline is not None and time.monotonic() + cost > deadline:
                        return False  # no time to score: the rules' reading stands
                    left = timeout()
                    started = time.monotonic()
                    try:
                        scores.append(self.model.score(messages, a, timeout_s=left))
                    finally:
                        self._observe(time.monotonic() - started, text)
                other += shares(scores)[1]
        except Exception:  # no score: the rules' reading stands
            return False
        return other / 2 >= CONFIRM_SHARE

    def warm_up(self) -> None:
        """Read the prompt's fixed part (instructions and examples) once, so the model's prefix
        cache holds it before the first sheet: the first question then costs what later ones do."""
        from gridsight.llm import Grammar, get_prompt

        messages = get_prompt("detect_choose").render(sheet="A1 Region", first="A1:A2", second="A2:A2")
        try:
            done = self.model.complete(
                messages, grammar=Grammar.from_gbnf('root ::= "A1:A2"\n', "warm"), max_tokens=6
            )
        except Exception:  # a failed warm-up only means a slower first question
            return
        if done.prompt_tokens > 100 and done.seconds > 0:
            # The whole prompt was read from a cold cache: this machine's reading speed.
            self.seconds_per_token = done.seconds / done.prompt_tokens


def load_refiner(model: str | None = None) -> tuple[TableRangeRefiner | None, str]:
    """The model refiner over the configured local model (loaded and warmed up), else (None, why not)."""
    try:
        from gridsight.llm import load_runtime

        runtime = load_runtime(model)
    except Exception as exc:  # no model file, no llama.cpp, bad checksum: keep the rules' answer
        return None, f"model unavailable ({exc}); rules only"
    refiner = TableRangeRefiner(runtime, str(runtime.name))
    refiner.warm_up()
    return refiner, "model refinement on"

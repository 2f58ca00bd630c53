"""The model as a tie-breaker: it names one of the candidates the rules built, never its own answer.

Used where the rules found several candidates that fit equally (tables in stage 1, cells in the
blocks route) and the question holds words the rules could not place. The grammar admits only the
candidates' numbers, so the small model can only choose; any failure (no model, timeout, cancelled)
leaves the deterministic outcome, which is to ask the user which one.
"""

from __future__ import annotations

from typing import Any

#: Options shown to the model at most (the prompt stays short; more candidates means "say which").
MAX_OPTIONS = 6


def choose(model: Any, question: str, options: list[str], *, timeout_s: float = 20.0) -> int | None:
    """The index of the option the model judges answers ``question``; None when it cannot say.

    Args:
        model: a runtime or the shared :class:`~gridsight.llm.ModelQueue` (both have ``complete``);
            None means no choice.
        question: the user's question (cut to 500 characters).
        options: one line of words per candidate, in the rules' order.
    """
    if model is None or not 2 <= len(options) <= MAX_OPTIONS:
        return None
    from gridsight.llm import Grammar, get_prompt

    numbers = " | ".join(f'"{i}"' for i in range(1, len(options) + 1))
    grammar = Grammar.from_gbnf(f"root ::= {numbers}\n", "qa-choice")
    listing = "\n".join(f"{i}. {' '.join(text.split())[:300]}" for i, text in enumerate(options, 1))
    messages = get_prompt("qa_choose").render(question=" ".join(question.split())[:500], options=listing)
    try:
        done = model.complete(messages, grammar=grammar, max_tokens=3, timeout_s=timeout_s)
        pick = int(done.text.strip()) - 1
    except Exception:  # no model, timed out, cancelled, not a number: the rules' outcome stands
        return None
    return pick if 0 <= pick < len(options) else None

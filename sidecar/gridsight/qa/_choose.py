"""The model as a tie-breaker: it names one of the candidates the rules built, never its own answer.

Used where the rules found several candidates that fit equally (tables in stage 1, cells in the
blocks route) and the question holds words the rules could not place. Any failure (no model,
timeout, cancelled, not sure enough) leaves the deterministic outcome: ask the user which one.

How the model chooses matters more than the prompt. Asked to name an option by number under a
grammar, Qwen2.5-0.5B answered "1" for 8 of 8 hand-made ties, whatever the options (probability of
the first option 0.58-0.64: position bias, no signal). Asked instead how likely the user's question
is as its reply to each option (noisy-channel scoring, :meth:`Runtime.score`), it ranked 12 of 12
correctly, with the runner-up far behind where the choice is clear. So runtimes that can score are
used that way, and the options' probabilities must clear :data:`CONFIDENCE`; runtimes that cannot
score name an option under a grammar twice, in both orders, and must agree with themselves.
"""

from __future__ import annotations

from typing import Any

#: Options shown to the model at most (more candidates means "say which").
MAX_OPTIONS = 6
#: Share of the probability (softmax over the options' scores) the best option must hold.
CONFIDENCE = 0.8


def choose(model: Any, question: str, options: list[str], *, timeout_s: float = 20.0) -> int | None:
    """The index of the option the model judges ``question`` is about; None when it cannot say.

    Args:
        model: a runtime or the shared :class:`~gridsight.llm.ModelQueue`; None means no choice.
        question: the user's question (cut to 500 characters).
        options: one line of words per candidate, in the rules' order.
    """
    if model is None or not 2 <= len(options) <= MAX_OPTIONS:
        return None
    q = " ".join(question.split())[:500]
    texts = [" ".join(t.split())[:300] for t in options]
    try:
        if getattr(model, "can_score", False):
            return _by_likelihood(model, q, texts, timeout_s)
        return _by_name(model, q, texts, timeout_s)
    except Exception:  # no model, timed out, cancelled, not a number: the rules' outcome stands
        return None


def _by_likelihood(model: Any, question: str, options: list[str], timeout_s: float) -> int | None:
    from gridsight.llm import get_prompt, shares

    template = get_prompt("qa_ask_about")
    share = shares([model.score(template.render(option=o), question, timeout_s=timeout_s) for o in options])
    best = max(range(len(options)), key=lambda i: share[i])
    return best if share[best] >= CONFIDENCE else None


def _by_name(model: Any, question: str, options: list[str], timeout_s: float) -> int | None:
    from gridsight.llm import Grammar, get_prompt

    numbers = " | ".join(f'"{i}"' for i in range(1, len(options) + 1))
    grammar = Grammar.from_gbnf(f"root ::= {numbers}\n", "qa-choice")
    template = get_prompt("qa_choose")
    picks = []
    for order in (list(range(len(options))), list(reversed(range(len(options))))):
        listing = "\n".join(f"{n}. {options[i]}" for n, i in enumerate(order, 1))
        done = model.complete(
            template.render(question=question, options=listing),
            grammar=grammar,
            max_tokens=3,
            timeout_s=timeout_s,
        )
        picks.append(order[int(done.text.strip()) - 1])
    return picks[0] if picks[0] == picks[1] else None

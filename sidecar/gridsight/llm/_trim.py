"""Fit a prompt into the model's context by policy: drop whole units (cells, rows), say so, never cut text.

Callers give the prompt as structured parts -- instructions, the question, the encoded sheet as a list
of cells or rows -- so that trimming can only remove whole units, lowest priority first, from the end
of a part, and always leaves a visible marker ("... 37 more rows not shown"). Parts that cannot be
trimmed (the instruction, the question) must fit, or the request fails with PromptTooLongError: a
prompt is never silently truncated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gridsight.errors import PromptTooLongError
from gridsight.llm._runtime import Message


@dataclass(frozen=True)
class PromptPart:
    """One piece of a prompt.

    ``text`` is atomic: kept whole, or dropped whole when ``required`` is False. ``units`` (cells, rows,
    examples) are joined by ``joiner`` and may be dropped from the end, one whole unit at a time.
    Parts with a lower ``priority`` are trimmed first. Consecutive parts with the same ``role`` form
    one chat message.
    """

    name: str
    text: str = ""
    units: Sequence[str] = ()
    required: bool = True
    priority: int = 0
    role: str = "user"
    joiner: str = "\n"
    unit_name: str = "items"


@dataclass(frozen=True)
class FittedPrompt:
    """The messages to send, their token count, and what was left out (part name -> units dropped)."""

    messages: list[Message]
    tokens: int
    dropped: dict[str, int] = field(default_factory=dict)

    @property
    def trimmed(self) -> bool:
        return bool(self.dropped)


def _render(parts: Sequence[PromptPart], keep: dict[str, int], dropped_parts: set[str]) -> list[Message]:
    messages: list[Message] = []
    for part in parts:
        if part.name in dropped_parts:
            continue
        pieces = [part.text] if part.text else []
        if part.units:
            kept = keep.get(part.name, len(part.units))
            if kept:
                pieces.append(part.joiner.join(part.units[:kept]))
            if kept < len(part.units):
                pieces.append(
                    f"... {len(part.units) - kept} more {part.unit_name} not shown"
                    " (trimmed to fit the model's context)"
                )
        if not pieces:
            continue
        body = "\n".join(pieces)
        if messages and messages[-1]["role"] == part.role:
            messages[-1] = {"role": part.role, "content": messages[-1]["content"] + "\n\n" + body}
        else:
            messages.append({"role": part.role, "content": body})
    return messages


def fit_prompt(
    parts: Sequence[PromptPart],
    max_prompt_tokens: int,
    count: Callable[[Sequence[Message]], int],
) -> FittedPrompt:
    """Messages from ``parts`` that take at most ``max_prompt_tokens`` by ``count`` (use the runtime's
    ``prompt_tokens`` so the chat template is counted too, and pass its context minus the answer budget).

    Raises:
        PromptTooLongError: the parts that cannot be trimmed do not fit on their own.
    """
    names = [p.name for p in parts]
    if len(set(names)) != len(names):
        raise ValueError("prompt part names must be unique")
    keep: dict[str, int] = {}
    dropped_parts: set[str] = set()

    def size() -> int:
        return count(_render(parts, keep, dropped_parts))

    def most_units_that_fit(name: str, lo: int, hi: int) -> int:
        """Binary search: the most units of ``name`` in lo..hi that keep the prompt in budget
        (``lo`` is known to fit)."""
        while lo < hi:
            mid = (lo + hi + 1) // 2
            keep[name] = mid
            if size() <= max_prompt_tokens:
                lo = mid
            else:
                hi = mid - 1
        keep[name] = lo
        return lo

    total = size()
    if total <= max_prompt_tokens:
        return FittedPrompt(_render(parts, keep, dropped_parts), total)
    order = sorted(
        (p for p in parts if p.units or not p.required), key=lambda p: (p.priority, -names.index(p.name))
    )
    for part in order:
        if part.units:
            lo, hi = 0, len(part.units)  # find the most units that fit: fits(lo) unknown, fits(hi) false
            keep[part.name] = 0
            if size() > max_prompt_tokens:
                continue  # even with no units (only the marker) it does not fit: trim the next part too
            most_units_that_fit(part.name, lo, hi)
            break
        dropped_parts.add(part.name)
        if size() <= max_prompt_tokens:
            break
    # Dropping a later part may have freed room: let trimmed unit lists grow back as far as they fit.
    for part in order:
        if (
            part.units
            and part.name not in dropped_parts
            and keep.get(part.name, len(part.units)) < len(part.units)
        ):
            most_units_that_fit(part.name, keep[part.name], len(part.units))
    total = size()
    if total > max_prompt_tokens:
        fixed = count(_render([p for p in parts if p.required], {p.name: 0 for p in parts}, set()))
        raise PromptTooLongError(
            f"the prompt's fixed parts need {fixed:,} tokens, more than the {max_prompt_tokens:,} available;"
            " shorten the question or use a model with a longer context"
        )
    dropped = {
        p.name: len(p.units) - keep[p.name] for p in parts if p.name in keep and keep[p.name] < len(p.units)
    }
    dropped.update({p.name: len(p.units) or 1 for p in parts if p.name in dropped_parts})
    return FittedPrompt(_render(parts, keep, dropped_parts), total, dropped)

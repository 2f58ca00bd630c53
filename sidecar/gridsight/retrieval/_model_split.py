"""Sub-queries written by the model under a JSON-schema grammar, kept only where they copy the question.

The deterministic split (:mod:`gridsight.retrieval._split`) cuts on conjunctions and comparison words;
the model can also split "the youngest surviving passenger and the youngest billionaire" into the
things looked up. Its reply is constrained to ``{"parts": [...]}`` (at most four short strings) and
every part must consist of the question's own words (a part that brings in a word the question does
not hold is dropped), so the model may rephrase nothing into a fact. Any failure (no model, timeout,
bad JSON) leaves the deterministic split alone.
"""

from __future__ import annotations

import json
from typing import Any

from gridsight.text import words

#: The reply's shape: one to four parts of at most 120 characters.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "parts": {
            "type": "array",
            "items": {"type": "string", "maxLength": 120},
            "minItems": 1,
            "maxItems": 4,
        }
    },
    "required": ["parts"],
}


def faithful(part: str, question: str) -> bool:
    """Every word of ``part`` is a word of ``question`` (case and word order aside)."""
    mine, theirs = words(part, camel=False), set(words(question, camel=False))
    return bool(mine) and all(w in theirs for w in mine)


def model_parts(model: Any, question: str, *, timeout_s: float = 20.0) -> list[str]:
    """The model's sub-queries of ``question`` that copy its words (empty when the model fails)."""
    if model is None:
        return []
    from gridsight.llm import Grammar, get_prompt

    try:
        grammar = Grammar.from_json_schema(SCHEMA, "retrieval-split")
        done = model.complete(
            get_prompt("retrieval_split").render(question=" ".join(question.split())[:500]),
            grammar=grammar,
            max_tokens=120,
            timeout_s=timeout_s,
        )
        parts = json.loads(done.text)["parts"]
    except Exception:  # no model, timed out, cancelled, not JSON: the deterministic split stands
        return []
    out: list[str] = []
    for p in parts if isinstance(parts, list) else []:
        if isinstance(p, str) and faithful(p, question) and p.strip() not in out:
            out.append(p.strip())
    return out

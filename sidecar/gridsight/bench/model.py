"""`gridsight bench model`: load time, prefill and decode speed, grammar-constrained speed, embeddings/s, RSS.

Runs the configured model (the default Qwen2.5-Coder-0.5B unless ``--model PATH``/settings say
otherwise). ``--corpus`` is accepted for a uniform interface and not used: the inputs are generated
here, so figures are comparable between machines. Each timing is the median of ``--repeat`` runs;
the KV cache is reset before each prefill so no run profits from the previous one's prefix.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import click

from gridsight.bench._common import BenchResult, corpus_options, emit, peak_rss_mb


def _sheet_prompt(rows: int) -> str:
    """A synthetic encoded sheet, like the encoder's output, about 12 tokens a row."""
    lines = ["(Region|A1),(Month|B1),(Units|C1),(Revenue|D1)"]
    regions = ["North", "South", "East", "West"]
    for r in range(2, rows + 2):
        month = f"2024-{r % 12 + 1:02d}"
        lines.append(f"({regions[r % 4]}|A{r}),({month}|B{r}),({r * 7 % 97}|C{r}),({r * 131 % 9973}|D{r})")
    return "\n".join(lines)


def _median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else 0.0


def run(model: Path | None, repeat: int = 3) -> BenchResult:
    from gridsight.llm import Grammar, formula_grammar, get_prompt
    from gridsight.llm._llama import LlamaRuntime
    from gridsight.llm._locate import locate_model
    from gridsight.llm.embeddings import Embedder

    started = time.perf_counter()
    located = locate_model() if model is None else None
    locate_s = time.perf_counter() - started
    runtime = LlamaRuntime(located if model is None else model)
    load_s = runtime.load_seconds
    llm = runtime._llm

    prefill: list[float] = []
    prompt = f"Here is a sheet:\n{_sheet_prompt(40)}\nWhich column holds revenue?"
    for _ in range(repeat):
        llm.reset()
        c = runtime.complete(prompt, max_tokens=1, timeout_s=300)
        prefill.append(c.prompt_tokens / c.first_token_s if c.first_token_s else 0.0)
    prompt_tokens = c.prompt_tokens

    decode: list[float] = []
    for _ in range(repeat):
        llm.reset()
        c = runtime.complete("Write a short story about a spreadsheet.", max_tokens=64, timeout_s=300)
        decode.append(c.tokens_per_s)
    gen_tokens = c.completion_tokens

    schema = {
        "type": "object",
        "properties": {
            "columns": {"type": "array", "items": {"type": "string"}, "minItems": 6, "maxItems": 6}
        },
        "required": ["columns"],
    }
    json_grammar = Grammar.from_json_schema(schema)
    constrained: list[float] = []
    for _ in range(repeat):
        llm.reset()
        c = runtime.complete(
            "List six column names for a sales table as JSON.",
            grammar=json_grammar,
            max_tokens=96,
            timeout_s=300,
        )
        constrained.append(c.tokens_per_s)
    grammar_tokens = c.completion_tokens

    fgrammar = formula_grammar(
        ["SUM", "AVERAGE", "MAX", "MIN", "COUNT", "COUNTIF", "ROUND"],
        ranges=["C2:C41", "D2:D41"],
        area="A1:D41",
    )
    formula_s: list[float] = []
    for task in ("total revenue", "average units", "largest revenue"):
        msgs = get_prompt("formula").render(
            columns="Region=A2:A41, Month=B2:B41, Units=C2:C41, Revenue=D2:D41", task=task
        )
        t = time.perf_counter()
        runtime.complete(msgs, grammar=fgrammar, max_tokens=40, timeout_s=300)
        formula_s.append(time.perf_counter() - t)

    texts = [f"{w} {i} of the {t} table" for i in range(256) for w, t in [("column", "sales")]]
    texts += [
        f"Total {m} revenue for region {r}"
        for m in ("January", "February", "March", "April")
        for r in range(64)
    ]
    t = time.perf_counter()
    embedder = Embedder()
    embed_load = time.perf_counter() - t
    rates: list[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        embedder.embed(texts)
        rates.append(len(texts) / (time.perf_counter() - t))

    summary: dict[str, Any] = {
        "model": runtime.name,
        "load_s": round(load_s, 3),
        "prompt_tok_s": round(_median(prefill), 1),
        "gen_tok_s": round(_median(decode), 1),
        "grammar_tok_s": round(_median(constrained), 1),
        "embed_per_s": round(_median(rates), 1),
        "rss_mb": round(peak_rss_mb(), 1),
        "locate_s": round(locate_s, 3),
        "formula_latency_s": round(_median(formula_s), 3),
        "threads": runtime.threads,
        "context": runtime.context_length,
    }
    rows = [
        {
            "measure": "locate + verify",
            "value": locate_s,
            "unit": "s",
            "note": "header check; sha256 if not stamped",
        },
        {"measure": "load", "value": load_s, "unit": "s", "note": str(runtime.model.path.name)},
        {
            "measure": "prefill",
            "value": _median(prefill),
            "unit": "tok/s",
            "note": f"{prompt_tokens} prompt tokens",
        },
        {
            "measure": "decode",
            "value": _median(decode),
            "unit": "tok/s",
            "note": f"{gen_tokens} tokens, free text",
        },
        {
            "measure": "decode, JSON grammar",
            "value": _median(constrained),
            "unit": "tok/s",
            "note": f"{grammar_tokens} tokens",
        },
        {
            "measure": "formula (grammar)",
            "value": _median(formula_s),
            "unit": "s",
            "note": "few-shot prompt, warm prefix",
        },
        {"measure": "embedder load", "value": embed_load, "unit": "s", "note": "all-MiniLM-L6-v2 int8"},
        {
            "measure": "embeddings",
            "value": _median(rates),
            "unit": "texts/s",
            "note": f"{len(texts)} texts, batch 32",
        },
        {"measure": "peak RSS", "value": summary["rss_mb"], "unit": "MB", "note": "whole process"},
    ]
    headline = (
        f"{runtime.name}: load {load_s:.2f} s, prefill {summary['prompt_tok_s']:.0f} tok/s, decode"
        f" {summary['gen_tok_s']:.1f} tok/s, grammar {summary['grammar_tok_s']:.1f} tok/s, embeddings"
        f" {summary['embed_per_s']:.0f}/s, peak RSS {summary['rss_mb']:.0f} MB ({runtime.threads} threads)"
    )
    return BenchResult("model", ["measure", "value", "unit", "note"], rows, summary, headline)


@click.command(name="model")
@corpus_options
@click.option(
    "--model",
    "model",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="A GGUF to measure.",
)
@click.option(
    "--repeat", type=click.IntRange(1, 20), default=3, show_default=True, help="Runs per timing (median)."
)
def command(corpus: Path | None, out: Path | None, model: Path | None, repeat: int) -> None:
    """Speed and memory of the local model runtime and the embedder."""
    del corpus  # inputs are generated; the option exists so every benchmark takes the same flags
    emit(run(model, repeat), out)

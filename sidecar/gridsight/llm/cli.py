"""`gridsight model status|use|prepare`: which model GridSight runs, and choosing another GGUF."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import click

from gridsight.llm._gguf import template_label
from gridsight.llm._locate import DEFAULT_MODEL, check_model_file, ensure_default_model, locate_model
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
    """Everything `model status` reports, as plain data (assembles/verifies the default model if needed)."""
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
        "licence": DEFAULT_MODEL.licence if model.source == "default" else None,
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
    """The human-readable status block (stable text: it is quoted in the README and asserted in tests)."""
    size = doc["size_bytes"]
    where = {"default": "default model", "env": f"from ${MODEL_ENV}", "settings": "from settings"}[
        doc["source"]
    ]
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


@click.group(name="model")
def command() -> None:
    """The local model: status, choose a GGUF, prepare the default model."""


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


@command.command("use")
@click.argument("path", required=False, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--default", "use_default", is_flag=True, help="Go back to the built-in default model.")
def use(path: Path | None, use_default: bool) -> None:
    """Use the GGUF chat model at PATH from now on (checked first; saved in the settings file)."""
    if use_default == (path is not None):
        raise click.UsageError("give a GGUF PATH or --default")
    if use_default:
        write_setting("model", None)
        click.echo(f"using the default model ({DEFAULT_MODEL.filename})")
    else:
        assert path is not None
        path = Path(os.path.abspath(path.expanduser()))  # keep a symlink the user may repoint later
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
def prepare() -> None:
    """Assemble and verify the default model now (the first model request would do it anyway)."""
    started = time.perf_counter()
    result = ensure_default_model()
    verb = "assembled" if result.assembled else "already in place"
    click.echo(f"{result.path}: {verb}, sha256 verified ({time.perf_counter() - started:.1f} s)")

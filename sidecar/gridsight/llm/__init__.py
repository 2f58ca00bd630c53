"""The local model layer: locate/verify models, run them under grammars, queue requests, embed text.

Nothing here imports ``llama_cpp`` or ``onnxruntime`` at import time: a missing or broken model is a
clear :class:`~gridsight.errors.ModelError` when a model feature is used, and every deterministic
feature keeps working.
"""

from gridsight.llm._gguf import GGUFInfo, check_chat_model, read_gguf, template_label
from gridsight.llm._locate import (
    CODER_15B,
    DEFAULT_MODEL,
    KNOWN_MODELS,
    MODEL_ALIASES,
    Assembly,
    ChunkedModel,
    DefaultModel,
    ModelFile,
    check_model_file,
    ensure_default_model,
    ensure_model,
    known_model,
    locate_known_model,
    locate_model,
)
from gridsight.llm._paths import EMBED_MODEL_ENV, HOME_ENV, MODEL_ENV, data_dir, read_settings, write_setting
from gridsight.llm._queue import ModelQueue, Ticket, shared_queue
from gridsight.llm._runtime import (
    Completion,
    Control,
    Message,
    Request,
    Runtime,
    ScriptedRuntime,
    as_messages,
    register_runtime,
    runtime_factory,
    shares,
)
from gridsight.llm._trim import FittedPrompt, PromptPart, fit_prompt
from gridsight.llm.grammars import (
    DANGEROUS_FUNCTIONS,
    Grammar,
    formula_grammar,
    parse_ranges,
    range_grammar,
)
from gridsight.llm.prompts import PROMPTS, PROMPTS_VERSION, PromptTemplate, get_prompt


def load_runtime(model: str | None = None, runtime: str = "llama", **kwargs: object) -> Runtime:
    """Load the configured chat model, or ``model``, with the named runtime.

    ``model`` is a known model's name or alias (``default``, ``0.5b``, ``1.5b``, ``qwen2.5-coder-1.5b``:
    assembled and sha256-verified first, whatever the settings say) or a GGUF path.
    """
    known = known_model(model) if isinstance(model, str) else None
    return runtime_factory(runtime)(locate_known_model(known) if known else model, **kwargs)


__all__ = [
    "CODER_15B",
    "DANGEROUS_FUNCTIONS",
    "DEFAULT_MODEL",
    "EMBED_MODEL_ENV",
    "HOME_ENV",
    "KNOWN_MODELS",
    "MODEL_ALIASES",
    "MODEL_ENV",
    "PROMPTS",
    "PROMPTS_VERSION",
    "Assembly",
    "ChunkedModel",
    "Completion",
    "Control",
    "DefaultModel",
    "FittedPrompt",
    "GGUFInfo",
    "Grammar",
    "Message",
    "ModelFile",
    "ModelQueue",
    "PromptPart",
    "PromptTemplate",
    "Request",
    "Runtime",
    "ScriptedRuntime",
    "Ticket",
    "as_messages",
    "check_chat_model",
    "check_model_file",
    "data_dir",
    "ensure_default_model",
    "ensure_model",
    "fit_prompt",
    "formula_grammar",
    "get_prompt",
    "known_model",
    "load_runtime",
    "locate_known_model",
    "locate_model",
    "parse_ranges",
    "range_grammar",
    "read_gguf",
    "read_settings",
    "register_runtime",
    "runtime_factory",
    "shared_queue",
    "shares",
    "template_label",
    "write_setting",
]

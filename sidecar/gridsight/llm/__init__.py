"""The local model layer: locate/verify models, run them under grammars, queue requests, embed text.

Nothing here imports ``llama_cpp`` or ``onnxruntime`` at import time: a missing or broken model is a
clear :class:`~gridsight.errors.ModelError` when a model feature is used, and every deterministic
feature keeps working.
"""

from gridsight.llm._gguf import GGUFInfo, check_chat_model, read_gguf, template_label
from gridsight.llm._locate import (
    DEFAULT_MODEL,
    Assembly,
    DefaultModel,
    ModelFile,
    check_model_file,
    ensure_default_model,
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
    """Load the configured chat model (or ``model``, a GGUF path) with the named runtime."""
    return runtime_factory(runtime)(model, **kwargs)


__all__ = [
    "DANGEROUS_FUNCTIONS",
    "DEFAULT_MODEL",
    "EMBED_MODEL_ENV",
    "HOME_ENV",
    "MODEL_ENV",
    "PROMPTS",
    "PROMPTS_VERSION",
    "Assembly",
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
    "fit_prompt",
    "formula_grammar",
    "get_prompt",
    "load_runtime",
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

"""The llama-cpp-python runtime: one GGUF, all cores, greedy unless a request samples, the GGUF's template.

``llama_cpp`` is imported only here and only when a model is loaded, so ``import gridsight`` and every
deterministic feature work on a machine without it (or without a model).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from gridsight.errors import GrammarError, ModelIntegrityError, ModelNotFoundError
from gridsight.llm._gbnf import check_grammar
from gridsight.llm._locate import ModelFile, check_model_file, locate_model
from gridsight.llm._runtime import Control, Message, Request, Runtime
from gridsight.llm.grammars import Grammar, forced_text

PREFILL_CHUNK = 256  # prompt tokens evaluated between two cancel/timeout checks (~2 s on 2 cores)
#: Within this many seconds of a deadline, prefill in short chunks (measured: 64-token chunks cost
#: ~5% throughput) so a tight time budget -- detection's 1 s per sheet -- is overrun by ~0.3 s at most.
NEAR_DEADLINE_S = 3.0
SHORT_CHUNK = 64
DEFAULT_CONTEXT = 4096  # enough for a compressed sheet; more costs RAM (KV cache) for little gain
#: Grammar-constrained decoding checks the grammar against this many most likely tokens first and
#: only against the whole vocabulary when none of them is allowed (llama.cpp's own common sampler
#: does the same): llama-cpp-python applies the grammar to all 151k tokens of a Qwen vocabulary at
#: every step, 5-10x slower than unconstrained decoding.
GRAMMAR_TOP_K = 48


def _token_data_dtype() -> Any:
    import numpy as np

    return np.dtype([("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])  # llama_token_data's layout


_TOKEN_DATA = _token_data_dtype()


def import_llama() -> ModuleType:
    """``llama_cpp``, or a clear error saying how to install it."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise ModelNotFoundError(
            "the model runtime llama-cpp-python is not installed: "
            'CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF" pip install llama-cpp-python'
            f" ({exc})"
        ) from None
    return llama_cpp


def import_llama_grammar() -> ModuleType:
    import_llama()
    from llama_cpp import llama_grammar

    return llama_grammar


_STDERR_LOCK = threading.Lock()  # fd 2 is process-wide: one capture at a time


@contextlib.contextmanager
def captured_c_stderr() -> Iterator[list[str]]:
    """Capture what C code writes to fd 2 (llama.cpp's log) so it can go into an error message."""
    out: list[str] = []
    with _STDERR_LOCK:
        try:
            saved = os.dup(2)
        except OSError:  # no real stderr (embedded, some Windows GUIs): nothing to capture
            yield out
            return
        with tempfile.TemporaryFile() as tmp:
            os.dup2(tmp.fileno(), 2)
            try:
                yield out
            finally:
                os.dup2(saved, 2)
                os.close(saved)
                tmp.seek(0)
                out.append(tmp.read().decode("utf-8", errors="replace"))


class LlamaRuntime(Runtime):
    """A GGUF chat model loaded with llama-cpp-python."""

    can_stream = True
    supports_grammar = True
    can_score = True

    def __init__(
        self,
        model: ModelFile | str | Path | None = None,
        *,
        n_ctx: int = DEFAULT_CONTEXT,
        n_threads: int | None = None,
        seed: int = 0,
    ) -> None:
        """Load a model (default: :func:`locate_model`'s choice).

        Raises:
            ModelNotFoundError, ModelIntegrityError, ModelKindError: the file is missing, damaged, or
                not a chat model; ModelNotFoundError also when llama-cpp-python is missing.
        """
        if model is None:
            model = locate_model()
        elif not isinstance(model, ModelFile):
            path = Path(model).expanduser()
            info, fallback = check_model_file(path)
            model = ModelFile(path, "argument", info, fallback)
        self.model = model
        llama_cpp = import_llama()
        self.threads = n_threads or os.cpu_count() or 1  # llama.cpp's default is half the cores
        self.context_length = min(n_ctx, model.info.context_length) if model.info.context_length else n_ctx
        self.name = model.info.name
        self._lock = threading.Lock()
        started = time.perf_counter()
        detail: Exception | None
        with captured_c_stderr() as log:
            try:
                self._llm = llama_cpp.Llama(
                    model_path=str(model.path),
                    n_ctx=self.context_length,
                    n_threads=self.threads,
                    n_threads_batch=self.threads,
                    n_batch=PREFILL_CHUNK,
                    seed=seed,
                    chat_format=model.chat_format,
                    verbose=False,
                )
            except (ValueError, RuntimeError, OSError) as exc:
                detail = exc
            else:
                detail = None
        if detail is not None:
            tail = " ".join((log[0] if log else "").strip().splitlines()[-2:])
            raise ModelIntegrityError(
                f"llama.cpp could not load {model.path.name}: {detail}" + (f" ({tail})" if tail else "")
            )
        self.load_seconds = time.perf_counter() - started
        self._llama_cpp = llama_cpp
        self._formatter = self._make_formatter()

    def _make_formatter(self) -> Any:
        from llama_cpp import llama_chat_format

        if self.model.chat_format is not None:
            fmt = getattr(llama_chat_format, f"format_{self.model.chat_format}")
            return lambda messages: fmt(messages=messages)
        llm = self._llm
        eos_id, bos_id = llm.token_eos(), llm.token_bos()
        eos = llm._model.token_get_text(eos_id) if eos_id != -1 else ""
        bos = llm._model.token_get_text(bos_id) if bos_id != -1 else ""
        return llama_chat_format.Jinja2ChatFormatter(
            template=self.model.info.chat_template or "",
            eos_token=eos,
            bos_token=bos,
            add_generation_prompt=True,
        )

    # -- tokens --------------------------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def render(self, messages: Sequence[Message]) -> tuple[str, list[str]]:
        """The chat prompt exactly as the model sees it, and the template's stop strings."""
        try:
            result = self._formatter(messages=list(messages))
        except Exception as exc:  # a template that raises on these roles (e.g. no system role)
            raise GrammarError(f"the model's chat template rejected the messages: {exc}") from None
        stop = result.stop if isinstance(result.stop, list) else ([result.stop] if result.stop else [])
        return result.prompt, [s for s in stop if s]

    def prompt_token_ids(self, messages: Sequence[Message]) -> list[int]:
        prompt, _ = self.render(messages)
        return list(self._llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True))

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        return len(self.prompt_token_ids(messages))

    # -- grammar -------------------------------------------------------------------------------------
    def compile_grammar(self, grammar: Grammar) -> Any:
        """Check with our analyser and with llama.cpp's own parser, then build the sampler grammar.

        Both checks matter: llama-cpp-python defers parsing to sampling time, where a bad grammar
        crashes the process instead of raising.
        """
        check_grammar(grammar.gbnf, grammar.root)
        lib = self._llama_cpp
        with captured_c_stderr() as log:
            sampler = lib.llama_sampler_init_grammar(
                self._llm._model.vocab, grammar.gbnf.encode("utf-8"), grammar.root.encode("utf-8")
            )
        if not sampler:
            msg = " ".join((log[0] if log else "").strip().splitlines()[:2]) or "llama.cpp rejected it"
            raise GrammarError(f"grammar {grammar.name!r} does not compile: {msg}")
        lib.llama_sampler_free(sampler)
        from llama_cpp import LlamaGrammar

        return LlamaGrammar.from_string(grammar.gbnf, verbose=False)

    # -- generation ----------------------------------------------------------------------------------
    def execute(self, request: Request, control: Control) -> Iterator[str]:
        from llama_cpp import StoppingCriteriaList

        tokens = self.prompt_token_ids(request.messages)
        _, stops = self.render(request.messages)
        control.prompt_tokens = len(tokens)
        if request.continuation is not None:
            self._score(tokens, request.continuation, control)
            return
        self.check_fits(len(tokens), request.max_tokens)
        grammar = self.compile_grammar(request.grammar) if request.grammar is not None else None
        seen = [0]

        def criteria_fn(ids: Any, _logits: Any) -> bool:
            # Called once per sampled token with a growing prefix, and once more after the loop with a
            # prefix no longer than the last: count only the growing calls.
            if len(ids) <= seen[0]:
                return False
            seen[0] = len(ids)
            return control.on_token()

        criteria = StoppingCriteriaList([criteria_fn])
        with self._lock:  # one generation at a time on this llama context
            if not self._prefill(tokens, control):
                return
            if request.grammar is not None:
                yield from self._constrained(request, control)
                return
            stream = self._llm.create_completion(
                tokens,
                max_tokens=request.max_tokens,
                temperature=request.temperature,
                seed=request.seed if request.temperature > 0 else None,
                repeat_penalty=1.0,
                stop=[*stops, *request.stop],
                stream=True,
                grammar=grammar,
                stopping_criteria=criteria,
            )
            for chunk in stream:
                choice = chunk["choices"][0]
                if choice["text"]:
                    yield choice["text"]
                if choice.get("finish_reason"):
                    control.finish_reason = choice["finish_reason"]

    def _constrained(self, request: Request, control: Control) -> Iterator[str]:
        """Decode under the request's grammar, checking the likeliest tokens first (see GRAMMAR_TOP_K).

        Greedy at temperature 0; otherwise a softmax sample (seeded) over the allowed likeliest tokens.
        The prompt is already in the KV cache (:meth:`_prefill`)."""
        import numpy as np

        assert request.grammar is not None
        llm, lib = self._llm, self._llama_cpp
        vocab = llm._model.vocab
        with captured_c_stderr():
            smpl = lib.llama_sampler_init_grammar(
                vocab, request.grammar.gbnf.encode("utf-8"), request.grammar.root.encode("utf-8")
            )
        if not smpl:
            raise GrammarError(f"grammar {request.grammar.name!r} does not compile")
        n_vocab = llm.n_vocab()
        rng = np.random.default_rng(request.seed)
        pending = b""
        done: list[tuple[int, str]] = []  # the tokens written so far, with their text
        phrases = request.grammar.phrases
        try:
            while control.tokens < request.max_tokens:
                logits = np.ctypeslib.as_array(lib.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(n_vocab,))
                token = self._pick(smpl, logits, request.temperature, rng)
                if token is None or lib.llama_vocab_is_eog(vocab, token):
                    control.finish_reason = "stop"
                    break
                if control.on_token():
                    return
                lib.llama_sampler_accept(smpl, token)
                pending += llm.detokenize([token], special=False)
                try:
                    text, pending = pending.decode("utf-8"), b""
                except UnicodeDecodeError:
                    text = ""  # a character split over tokens: wait for the rest of it
                batch = [token]
                done.append((token, text))
                if text and phrases:
                    rest = self._phrase_rest(done, phrases)
                    forced = self._accepted(smpl, rest, request.max_tokens, control)
                    for t in forced:
                        piece = llm.detokenize([t], special=False).decode("utf-8", errors="replace")
                        done.append((t, piece))
                        text += piece
                    batch += forced
                if text:
                    yield text
                llm.eval(batch)  # forced tokens go in one batch: about the cost of one sampled token
            else:
                control.finish_reason = "length"
        finally:
            lib.llama_sampler_free(smpl)

    def _phrase_rest(self, done: list[tuple[int, str]], phrases: Sequence[str]) -> list[int]:
        """The tokens that finish the phrase the model has begun (see :func:`forced_text`) but its
        last, split as the tokenizer splits the whole phrase: the model reads its usual tokens, not
        odd pieces. None when the tokens already written are not how the tokenizer would begin it."""
        begun, rest = forced_text(phrases, "".join(s for _, s in done))
        if not rest:
            return []
        k, covered = len(done), 0
        while k > 0 and covered < begun:
            k -= 1
            covered += len(done[k][1])
        head = [t for t, _ in done[k:]]
        whole = "".join(s for _, s in done[k:]) + rest
        canon = list(self._llm.tokenize(whole.encode("utf-8"), add_bos=False, special=False))
        # The phrase's last token is left to the model: it often merges with what follows ('")').
        return canon[len(head) : -1] if canon[: len(head)] == head else []

    def _accepted(self, smpl: Any, tokens: list[int], budget: int, control: Control) -> list[int]:
        """The leading ``tokens`` the grammar accepts in turn (accepted into ``smpl``), within the
        token budget: jump-forward decoding of a phrase the model has begun."""
        import ctypes

        import numpy as np

        lib = self._llama_cpp
        out: list[int] = []
        for token in tokens:
            if control.tokens >= budget:
                break
            data = np.zeros(1, dtype=_TOKEN_DATA)
            data["id"], data["logit"] = token, 0.0
            pointer = data.ctypes.data_as(ctypes.POINTER(lib.llama_token_data))
            arr = lib.llama_token_data_array(pointer, 1, -1, False)
            lib.llama_sampler_apply(smpl, ctypes.byref(arr))
            if arr.size < 1 or not np.isfinite(data["logit"][0]) or control.on_token():
                break
            lib.llama_sampler_accept(smpl, token)
            out.append(int(token))
        return out

    def _pick(self, smpl: Any, logits: Any, temperature: float, rng: Any) -> int | None:
        """The next token the grammar allows: the likeliest (or a sample) among the top tokens, else
        among the whole vocabulary."""
        import ctypes

        import numpy as np

        lib = self._llama_cpp
        for ids in (np.argpartition(-logits, GRAMMAR_TOP_K)[:GRAMMAR_TOP_K], None):
            data = np.zeros(len(logits) if ids is None else len(ids), dtype=_TOKEN_DATA)
            data["id"] = np.arange(len(logits)) if ids is None else ids
            data["logit"] = logits if ids is None else logits[ids]
            pointer = data.ctypes.data_as(ctypes.POINTER(lib.llama_token_data))
            arr = lib.llama_token_data_array(pointer, len(data), -1, False)
            lib.llama_sampler_apply(smpl, ctypes.byref(arr))
            kept = data[: arr.size]
            kept = kept[np.isfinite(kept["logit"])]
            if not len(kept):
                continue
            scores = kept["logit"].astype(np.float64)
            if temperature <= 0:
                return int(kept["id"][int(np.argmax(scores))])
            weights = np.exp((scores - scores.max()) / temperature)
            return int(rng.choice(kept["id"], p=weights / weights.sum()))
        return None

    def _score(self, tokens: list[int], continuation: str, control: Control) -> None:
        """Sum of log P(token | everything before it) over the continuation's tokens, in one batch.

        The prompt is prefilled as for generation (its cached prefix reused); the continuation is then
        decoded in one batch asking llama.cpp for the logits of every position, which costs about as
        much as prefilling it. The KV cache and ``input_ids`` are left describing what was evaluated.
        """
        import numpy as np

        llm, lib = self._llm, self._llama_cpp
        cont = list(llm.tokenize(continuation.encode("utf-8"), add_bos=False, special=False))
        self.check_fits(len(tokens) + len(cont), 0)
        if not cont:
            control.logprob = 0.0
            return
        with self._lock:
            if not self._prefill(tokens, control):
                return
            n_vocab = llm.n_vocab()
            first = np.ctypeslib.as_array(lib.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(n_vocab,))
            rows = [np.array(first, dtype=np.float64)]
            rest = cont[:-1]
            if rest:
                n_past = llm.n_tokens
                llm._ctx.kv_cache_seq_rm(-1, n_past, -1)
                llm._batch.set_batch(batch=rest, n_past=n_past, logits_all=True)
                llm._ctx.decode(llm._batch)
                flat = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(len(rest) * n_vocab,))
                rows += list(flat.reshape(len(rest), n_vocab).astype(np.float64))
                llm.input_ids[n_past : n_past + len(rest)] = rest
                llm.n_tokens = n_past + len(rest)
            total = 0.0
            for row, tok in zip(rows, cont, strict=True):
                top = row.max()
                total += float(row[tok] - top - np.log(np.exp(row - top).sum()))
            control.logprob = total
            control.finish_reason = "stop"

    def _prefill(self, tokens: list[int], control: Control) -> bool:
        """Evaluate the prompt in chunks, checking for cancel/timeout between them; False if stopped.

        llama-cpp-python evaluates a whole prompt in one uninterruptible call (a 4k-token sheet takes
        30+ s on 2 cores); chunking lets a cancelled or timed-out request free the model within one
        chunk. The longest prefix already in the KV cache is kept (same system prompt, same sheet),
        and ``create_completion`` then finds the whole prompt cached and starts sampling at once.
        """
        llm = self._llm
        cached = llm.input_ids[: llm.n_tokens]
        same = 0
        for a, b in zip(cached, tokens, strict=False):
            if a != b:
                break
            same += 1
        if same == len(tokens) == llm.n_tokens and not llm._requires_eval:
            return not control.should_stop()
        llm.n_tokens = min(same, len(tokens) - 1)  # re-evaluate at least the last token: fresh logits
        start = llm.n_tokens
        while start < len(tokens):
            if control.should_stop():
                return False
            near = control.deadline is not None and control.deadline - control.clock() < NEAR_DEADLINE_S
            step = SHORT_CHUNK if near else PREFILL_CHUNK
            llm.eval(tokens[start : start + step])
            start += step
        return not control.should_stop()

    def describe(self) -> dict[str, object]:
        info = self.model.info
        return {
            "name": self.name,
            "path": str(self.model.path),
            "source": self.model.source,
            "architecture": info.architecture,
            "context_length": self.context_length,
            "trained_context_length": info.context_length,
            "threads": self.threads,
            "load_s": self.load_seconds,
        }

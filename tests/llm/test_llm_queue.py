"""One model per process behind a queue: ordering, sessions, cancellation, budgets and errors."""

from __future__ import annotations

import threading
import time

import pytest

from gridsight.errors import ModelError, ModelNotFoundError, PromptTooLongError, RequestCancelledError
from gridsight.llm import ModelQueue, ScriptedRuntime
from gridsight.llm._llama import LlamaRuntime


def _wait_for(condition: object, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.002)


def test_requests_run_in_order_and_stream() -> None:
    q = ModelQueue(ScriptedRuntime(["one two three", "four five"]))
    a = q.submit("first")
    b = q.submit("second")
    assert list(a.stream()) == ["one", " two", " three"]
    assert b.result().text == "four five"
    assert (a.number, b.number) == (1, 2)
    assert a.finished_at is not None and b.started_at is not None and a.finished_at <= b.started_at
    q.close()


def test_newer_request_of_a_session_cancels_the_older_one() -> None:
    q = ModelQueue(ScriptedRuntime(["a b c d e f g h i j k l m n o p"], token_delay_s=0.02))
    typing1 = q.submit("Sum of col", session="pane")
    _wait_for(lambda: typing1.control.tokens)
    typing2 = q.submit("Sum of column B", session="pane")
    other = q.submit("unrelated", session="other")
    with pytest.raises(RequestCancelledError):
        typing1.result(timeout=5)
    assert typing2.result(timeout=5).text.startswith("a b c")
    assert other.result(timeout=5).finish_reason == "stop"
    q.close()


def test_cancelled_while_queued_never_reaches_the_model() -> None:
    runtime = ScriptedRuntime(["x y z"], token_delay_s=0.01)
    q = ModelQueue(runtime)
    running = q.submit("busy")
    queued = q.submit("waiting")
    queued.cancel()
    with pytest.raises(RequestCancelledError):
        queued.result(timeout=5)
    running.result(timeout=5)
    assert [r.messages[0]["content"] for r in runtime.requests] == ["busy"]
    q.close()


def test_budget_and_errors_go_to_the_ticket_and_the_worker_survives() -> None:
    q = ModelQueue(ScriptedRuntime(["a b c d e f"]))
    assert q.submit("x", max_tokens=2).result().finish_reason == "length"
    too_long = q.submit("word " * 5000, max_tokens=10)
    with pytest.raises(PromptTooLongError):
        too_long.result(timeout=5)
    assert q.submit("again").result(timeout=5).text == "a b c d e f"
    q.close()


def test_a_runtime_bug_is_a_model_error_not_a_dead_worker() -> None:
    def explode(_messages: object) -> str:
        raise RuntimeError("boom")

    q = ModelQueue(ScriptedRuntime(explode))
    with pytest.raises(ModelError, match="the model failed: RuntimeError: boom"):
        q.submit("x").result(timeout=5)
    q.close()


def test_a_missing_model_fails_each_request_clearly() -> None:
    def load() -> ScriptedRuntime:
        raise ModelNotFoundError("model file /nope.gguf does not exist")

    q = ModelQueue(load)
    for _ in range(2):
        with pytest.raises(ModelNotFoundError, match=r"/nope\.gguf"):
            q.submit("x").result(timeout=5)
    q.close()


def test_closed_queue_refuses_work() -> None:
    q = ModelQueue(ScriptedRuntime(["a"]))
    q.close()
    with pytest.raises(ModelError, match="closed"):
        q.submit("x")


def test_cancellation_frees_the_real_model_within_100ms_of_the_next_token(runtime: LlamaRuntime) -> None:
    q = ModelQueue(runtime)
    long = q.submit("Count from 1 to 400, separated by commas.", max_tokens=400, session="pane")
    _wait_for(lambda: long.control.tokens >= 3)
    # a newer request from the same typing session cancels the long one
    short = q.submit("Say OK.", max_tokens=4, session="pane")
    with pytest.raises(RequestCancelledError):
        long.result(timeout=30)
    ctl = long.control
    assert ctl.cancelled_at is not None and ctl.stopped_at is not None and long.finished_at is not None
    assert ctl.tokens < 400
    # the first token after the cancel stopped generation, and the queue was free 100 ms after it
    assert long.finished_at - ctl.stopped_at < 0.1
    assert short.started_at is not None and short.started_at - ctl.stopped_at < 0.1
    assert short.result(timeout=30).completion_tokens > 0
    q.close()


def test_real_model_requests_from_threads_are_serialised(runtime: LlamaRuntime) -> None:
    q = ModelQueue(runtime)
    results: dict[int, str] = {}

    def ask(i: int) -> None:
        results[i] = q.complete(f"Reply with the number {i}.", max_tokens=4).text

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [0, 1, 2]
    assert all(results.values())
    q.close()


def test_runtimes_are_registered_by_name() -> None:
    from gridsight.llm import load_runtime, register_runtime, runtime_factory

    assert runtime_factory("llama") is LlamaRuntime
    assert runtime_factory("scripted") is ScriptedRuntime
    register_runtime("echo", lambda _model=None: ScriptedRuntime(lambda messages: messages[-1]["content"]))
    assert load_runtime(runtime="echo").complete("same words back").text == "same words back"
    with pytest.raises(ModelError, match="unknown model runtime 'nope'; known: echo, llama, scripted"):
        runtime_factory("nope")

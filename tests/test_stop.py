"""Stop in the chat: Gradio's cancellation closes the answer's generator, which closes the model's
stream on the server (a remote LLM's connection; a local model's token generator) and frees the queue."""

from __future__ import annotations

import threading
import time
from typing import Any, Iterator

import pytest

from assistant.answer import Assistant
from assistant.config import Settings
from assistant.llm import OpenAICompatibleLLM
from assistant.ui import build_app, mark_stopped
from bench.servers import free_port
from tests.test_answer import A, FakeRetriever
from tests.test_llm_backends import Handler, server  # noqa: F401 - the fixture is used by name

QUESTION = "How does LookFast work?"


class EndlessLocalLLM:
    """Stands in for llama.cpp: one token per next(), for ever, and it notes when it is closed."""

    name = "endless"

    def __init__(self) -> None:
        self.started, self.closed, self.finite = threading.Event(), threading.Event(), False

    def stream(self, messages: Any, max_tokens: int) -> Iterator[str]:
        try:
            for _ in range(3 if self.finite else 10**9):
                self.started.set()
                time.sleep(0.02)
                yield "word "
        finally:
            self.closed.set()


def serve(llm: Any) -> tuple[Any, str]:
    """The chat app on a free loopback port, answering with ``llm`` over a fixed retriever."""
    settings = Settings.from_env({}, max_tokens=100_000)
    assistant = Assistant(FakeRetriever([A]), lambda: llm, settings)  # type: ignore[arg-type]
    app = build_app(settings, factory=lambda _s: assistant)
    port = free_port()
    app.queue(default_concurrency_limit=4)
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    return app, f"http://127.0.0.1:{port}/"


def wait_for(check: Any, seconds: float) -> bool:
    """Poll ``check`` until it is true or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return bool(check())


def test_stop_closes_the_local_model_stream_and_frees_the_queue() -> None:
    from gradio_client import Client

    llm = EndlessLocalLLM()
    app, url = serve(llm)
    try:
        client = Client(url, verbose=False)
        job = client.submit(QUESTION, [], api_name="/chat")
        assert llm.started.wait(60)
        stopped_at = time.monotonic()
        job.cancel()
        assert llm.closed.wait(2), "the model kept writing after Stop"
        assert time.monotonic() - stopped_at < 2
        llm.finite = True  # the next question gets a whole (short) answer, so the queue was freed
        chat, _sources, _trace, _box = client.predict(QUESTION, [], api_name="/chat")
        assert "LookFast" in str(chat[-1]["content"])
    finally:
        app.close()


def test_stop_closes_a_remote_llm_stream(server: str) -> None:  # noqa: F811 - the fixture
    from gradio_client import Client

    Handler.mode = "endless"
    app, url = serve(OpenAICompatibleLLM(server, timeout=5))
    try:
        job = Client(url, verbose=False).submit(QUESTION, [], api_name="/chat")
        assert wait_for(lambda: Handler.seen, 60)
        time.sleep(0.3)  # a few pieces streamed
        job.cancel()
        assert wait_for(lambda: Handler.gone, 2), "the LLM server was still streaming after Stop"
    finally:
        app.close()


@pytest.mark.parametrize("partial, kept", [
    ("_Writing…_", False), ("…", False), ("LookFast is a decoding ▌", True)])
def test_a_stopped_reply_is_marked_not_checked(partial: str, kept: bool) -> None:
    chat = [{"role": "user", "content": "q"}, {"role": "assistant", "content": [{"type": "text", "text": partial}]}]
    text = mark_stopped(chat)[-1]["content"]
    assert 'class="stopped"' in text and "not checked" in text and "▌" not in text
    assert ("LookFast is a decoding" in text) is kept


def test_a_finished_answer_is_left_as_it_is() -> None:
    chat = [{"role": "user", "content": "q"}, {"role": "assistant", "content": '<div class="answer turn-0">A [1]</div>'}]
    assert mark_stopped(chat) == chat

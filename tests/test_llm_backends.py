"""LLM backends: an OpenAI-compatible server on loopback (streaming, garbage, down) and model paths."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from assistant.config import Settings
from assistant.llm import (
    LLMError,
    OpenAICompatibleLLM,
    avoid_amx_buffers,
    cpu_has_amx,
    load_llm,
    packaged_model_path,
    resolve_model_path,
)
from bench.servers import refused_port


class Handler(BaseHTTPRequestHandler):
    """Streams a fixed reply as server-sent events, or garbage when asked for it."""

    mode = "ok"
    seen: list[dict] = []
    gone: list[float] = []  # when a client that left was noticed

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Handler.seen.append(body)
        if Handler.mode == "slow":  # nothing at all until well after the client's timeout
            time.sleep(2)
        if Handler.mode == "html":  # a proxy's error page instead of the model
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"<html><body><h1>502 Bad Gateway</h1></body></html>")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        if Handler.mode == "garbage":
            self.wfile.write(b"data: <html>not json</html>\n\n")
            return
        if Handler.mode in ("endless", "trickle"):  # ignores max_tokens and never stops
            self.stream_forever(0.02 if Handler.mode == "endless" else 0.3)
            return
        for piece in ["Lookahead ", "decoding ", "is fast [1]."]:
            event = {"choices": [{"delta": {"content": piece}}]}
            self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
            self.wfile.flush()
            if Handler.mode == "stall":  # one piece, then silence longer than the client waits
                time.sleep(2)
                return
        self.wfile.write(b"data: [DONE]\n\n")

    def stream_forever(self, interval: float) -> None:
        """One piece per ``interval`` until the client closes the connection."""
        try:
            while True:
                event = {"choices": [{"delta": {"content": "word "}}]}
                self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()
                time.sleep(interval)
        except OSError:
            Handler.gone.append(time.monotonic())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)  # bound here and kept: no port race
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Handler.mode, Handler.seen, Handler.gone = "ok", [], []
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_streams_from_an_openai_compatible_server(server: str) -> None:
    llm = load_llm(Settings.from_env({}, llm_url=server, llm_model="tiny"))
    assert isinstance(llm, OpenAICompatibleLLM)
    pieces = list(llm.stream([{"role": "user", "content": "hi"}], 32))
    assert "".join(pieces) == "Lookahead decoding is fast [1]."
    request = Handler.seen[0]
    assert request["model"] == "tiny" and request["stream"] is True and request["temperature"] == 0


def test_garbage_from_the_server_is_a_clear_error(server: str) -> None:
    Handler.mode = "garbage"
    with pytest.raises(LLMError, match="not a chat completion"):
        list(OpenAICompatibleLLM(server).stream([{"role": "user", "content": "hi"}], 8))


def test_slow_or_stalling_server_is_a_clear_error(server: str) -> None:
    Handler.mode = "slow"
    with pytest.raises(LLMError, match=r"did not answer within 0.5 s \(2 tries\)"):
        list(OpenAICompatibleLLM(server, timeout=0.5, retries=1).stream([{"role": "user", "content": "hi"}], 8))
    assert len(Handler.seen) == 2  # retried once before giving up
    Handler.mode = "stall"
    pieces: list[str] = []
    with pytest.raises(LLMError, match="stopped answering mid-reply"):
        for piece in OpenAICompatibleLLM(server, timeout=0.5).stream([{"role": "user", "content": "hi"}], 8):
            pieces.append(piece)
    assert pieces == ["Lookahead "]


def drain(stream: Iterator[str], limit_s: float, pieces: list[str]) -> None:
    """Read a reply into ``pieces``; fail (instead of hanging) if it runs past ``limit_s`` or 200 pieces."""
    start = time.monotonic()
    for piece in stream:
        pieces.append(piece)
        assert time.monotonic() - start < limit_s and len(pieces) < 200, "the reply was never cut"


def test_server_that_never_stops_is_cut_at_the_token_cap(server: str) -> None:
    Handler.mode = "endless"
    pieces: list[str] = []
    with pytest.raises(LLMError, match="kept writing past the 8 tokens asked for"):
        drain(OpenAICompatibleLLM(server).stream([{"role": "user", "content": "hi"}], 8), 10, pieces)
    assert len(pieces) == 8
    deadline = time.monotonic() + 5
    while not Handler.gone and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Handler.gone  # the connection was closed, so the server stopped writing


def test_server_that_trickles_is_cut_at_the_reply_deadline(server: str) -> None:
    Handler.mode = "trickle"
    started, pieces = time.monotonic(), []
    with pytest.raises(LLMError, match=r"still writing after 1 s"):
        drain(OpenAICompatibleLLM(server, timeout=5, reply_seconds=1).stream(
            [{"role": "user", "content": "hi"}], 1000), 8, pieces)
    assert 1 <= time.monotonic() - started < 2.5 and 2 <= len(pieces) <= 5


def test_reader_that_leaves_closes_the_stream(server: str) -> None:
    Handler.mode = "endless"
    stream = OpenAICompatibleLLM(server).stream([{"role": "user", "content": "hi"}], 1000)
    assert [next(stream), next(stream)] == ["word ", "word "]
    stream.close()  # what happens to the answer when the chat's client goes away
    deadline = time.monotonic() + 5
    while not Handler.gone and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Handler.gone


def test_html_instead_of_a_stream_is_a_clear_error(server: str) -> None:
    Handler.mode = "html"
    with pytest.raises(LLMError, match="sent a web page, not a chat completion"):
        list(OpenAICompatibleLLM(server).stream([{"role": "user", "content": "hi"}], 8))


def test_trickling_server_gives_the_notice_and_the_extractive_answer(server: str) -> None:
    from assistant.answer import Assistant
    from tests.test_answer import A, FakeRetriever

    Handler.mode = "trickle"
    settings = Settings.from_env({}, llm_url=server, llm_reply_seconds=1, llm_timeout=5)
    assistant = Assistant(FakeRetriever([A]), lambda: load_llm(settings), settings)  # type: ignore[arg-type]
    answers: list = []  # asked in a thread, so that a reply that is never cut fails the test instead of hanging it
    asking = threading.Thread(target=lambda: answers.append(assistant.ask("How does LookFast work?")), daemon=True)
    asking.start()
    asking.join(5)
    assert answers, "no answer within 5 s"
    answer = answers[0]
    assert "still writing after 1 s" in answer.notice and "most relevant sentences instead" in answer.notice
    assert answer.mode == "extractive" and answer.citations and "LookFast" in answer.answer


def test_server_down_is_retried_then_reported() -> None:
    with refused_port() as port:  # held, never listening: nothing else can answer there meanwhile
        llm = OpenAICompatibleLLM(f"http://127.0.0.1:{port}/v1", retries=1)
        with pytest.raises(LLMError, match="unreachable"):
            list(llm.stream([{"role": "user", "content": "hi"}], 8))


def test_model_paths(tmp_path: Path) -> None:
    with pytest.raises(LLMError, match="model file not found"):
        resolve_model_path(str(tmp_path / "missing.gguf"))
    dropped = tmp_path / "models"
    dropped.mkdir()
    (dropped / "mine.gguf").write_bytes(b"GGUF")
    assert resolve_model_path("", dropped) == dropped / "mine.gguf"
    assert resolve_model_path("", tmp_path / "empty").name.endswith(".gguf")  # the packaged SmolLM2


def test_amx_is_read_from_the_cpu_flags(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f amx_bf16 amx_tile amx_int8\n")
    assert cpu_has_amx(info)
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f\nbugs\t\t: amx_int8\n")
    assert not cpu_has_amx(info)  # only the flags line counts
    assert not cpu_has_amx(tmp_path / "missing")


def test_models_load_without_extra_buffers_where_amx_would_crash() -> None:
    import llama_cpp.llama_cpp as native

    assert avoid_amx_buffers(has_amx=True)
    assert native.llama_model_default_params().use_extra_bufts is False
    wrapped = native.llama_model_default_params
    assert avoid_amx_buffers(has_amx=True) and native.llama_model_default_params is wrapped  # once per process


def test_model_server_serves_the_packaged_model_unless_told_otherwise() -> None:
    from assistant.model_server import server_argv

    assert server_argv(["--port", "8080"])[:2] == ["--model", str(packaged_model_path())]
    assert server_argv(["--model", "/m/x.gguf", "--port", "8080"]) == ["--model", "/m/x.gguf", "--port", "8080"]
    assert server_argv(["--model=/m/x.gguf"]) == ["--model=/m/x.gguf"]

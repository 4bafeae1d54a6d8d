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
from assistant.llm import LLMError, OpenAICompatibleLLM, load_llm, resolve_model_path
from tests.app_server import free_port


class Handler(BaseHTTPRequestHandler):
    """Streams a fixed reply as server-sent events, or garbage when asked for it."""

    mode = "ok"
    seen: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Handler.seen.append(body)
        if Handler.mode == "slow":  # nothing at all until well after the client's timeout
            time.sleep(2)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        if Handler.mode == "garbage":
            self.wfile.write(b"data: <html>not json</html>\n\n")
            return
        for piece in ["Lookahead ", "decoding ", "is fast [1]."]:
            event = {"choices": [{"delta": {"content": piece}}]}
            self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
            self.wfile.flush()
            if Handler.mode == "stall":  # one piece, then silence longer than the client waits
                time.sleep(2)
                return
        self.wfile.write(b"data: [DONE]\n\n")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Handler.mode, Handler.seen = "ok", []
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


def test_server_down_is_retried_then_reported() -> None:
    llm = OpenAICompatibleLLM(f"http://127.0.0.1:{free_port()}/v1", retries=1)
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

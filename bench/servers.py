"""Start the real app (real packaged models), a Chroma server or an LLM server on a free loopback port.

Shared by the load bench and the tests (which import it from here: bench imports nothing from tests).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from assistant.config import PROJECT_ROOT


PORT_ATTEMPTS = 5  # a port chosen free can be taken by another process before the server binds it
# How a server says its port is taken: the app's own check, uvicorn/Python, Chroma (Rust), Gradio.
PORT_TAKEN = re.compile(r"already in use|Errno 98|os error 98|empty port", re.IGNORECASE)
# A restarted `chroma run` asks for the port it had; the old process may still hold it a moment.
RESTART_BUDGET_S = 30.0


class PortTaken(RuntimeError):
    """The server could not bind its port: another process took it."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free just now. Another process may take it before a
    server binds it, so servers started on it are retried on a new one (``serving_on_free_port``)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def refused_port() -> Iterator[int]:
    """A loopback port where connections are refused for as long as the block runs: the socket
    stays bound (so no other process can listen there) but never listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def wait_http(url: str, timeout: float, proc: subprocess.Popen | None = None, log: Path | None = None) -> None:
    """Poll ``url`` until it answers (any HTTP status) or fail with the server's output; raises
    PortTaken when the server exited because its port was taken."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            output = log.read_text(encoding="utf-8", errors="replace")[-2000:] if log is not None else ""
            if PORT_TAKEN.search(output):
                raise PortTaken(f"{url}: port taken ({output.strip().splitlines()[-1]})")
            raise RuntimeError(f"server exited with {proc.returncode}: {output}")
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


def launch(command: list[str], log: Path, probe: str, env: dict[str, str] | None = None, mode: str = "w",
           timeout: float = 120) -> subprocess.Popen:
    """Start a server command with its output in ``log`` and wait until ``probe`` answers;
    raises PortTaken (the process gone) when its port was taken."""
    with open(log, mode, encoding="utf-8") as out:
        proc = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_http(probe, timeout, proc, log)
    except BaseException:
        stop(proc)
        raise
    return proc


@contextmanager
def serving_on_free_port(command: Callable[[int], list[str]], log: Path, probe: Callable[[int], str],
                         env: dict[str, str] | None = None) -> Iterator[int]:
    """Run ``command(port)`` on a free port until ``probe(port)`` answers, on a new port when the
    chosen one was taken meanwhile; yields the port and stops the server afterwards."""
    for _ in range(PORT_ATTEMPTS):
        port = free_port()
        try:
            proc = launch(command(port), log, probe(port), env)
        except PortTaken:
            continue
        try:
            yield port
        finally:
            stop(proc)
        return
    raise RuntimeError(f"no free port after {PORT_ATTEMPTS} tries; see {log}")


@contextmanager
def running_app(data_dir: Path, log: Path, **env: str) -> Iterator[str]:
    """`assistant serve` on a free port; yields its base URL and stops it afterwards."""
    full_env = child_env(GRADIO_ANALYTICS_ENABLED="False", **env)
    with serving_on_free_port(
            lambda port: [sys.executable, "-m", "assistant", "serve", "--data-dir", str(data_dir), "--port", str(port)],
            log, lambda port: f"http://127.0.0.1:{port}/", full_env) as port:
        yield f"http://127.0.0.1:{port}"


class ChromaServer:
    """`chroma run` on a free loopback port, with its storage in ``path``; can be stopped and restarted."""

    def __init__(self, path: Path, log: Path) -> None:
        self.path, self.log = path, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.started_once = False
        self.start_seconds = 0.0  # how long the last start took, for budgets that must cover a restart

    def start(self) -> "ChromaServer":
        """Start the server and wait for its heartbeat. The first start moves to another free port
        when its port was taken; a restart keeps the port (clients know it) and retries for up to
        RESTART_BUDGET_S while the port is still held."""
        chroma = Path(sys.executable).with_name("chroma")
        began, attempt = time.monotonic(), 0
        while True:
            attempt += 1
            command = [str(chroma), "run", "--path", str(self.path), "--host", "127.0.0.1", "--port", str(self.port)]
            try:
                self.proc = launch(command, self.log, f"{self.url}/api/v2/heartbeat", mode="a", timeout=60)
                break
            except PortTaken:
                if not self.started_once and attempt < PORT_ATTEMPTS:
                    self.port = free_port()
                    self.url = f"http://127.0.0.1:{self.port}"
                elif not self.started_once or time.monotonic() - began > RESTART_BUDGET_S:
                    raise
                else:
                    time.sleep(0.5)
        self.started_once = True
        self.start_seconds = time.monotonic() - began
        return self

    def stop(self) -> None:
        """Stop the server and wait until it has exited."""
        if self.proc is not None:
            stop(self.proc)
        self.proc = None


@contextmanager
def llama_server(log: Path, model: Path | None = None) -> Iterator[str]:
    """llama-cpp-python's own OpenAI-compatible server (`python -m assistant.model_server`, which runs
    `llama_cpp.server`) on a free loopback port, serving ``model`` (default: the packaged SmolLM2);
    yields its /v1 base URL."""
    named = ["--model", str(model)] if model else []
    with serving_on_free_port(
            lambda port: [sys.executable, "-m", "assistant.model_server", *named,
                          "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"],
            log, lambda port: f"http://127.0.0.1:{port}/v1/models") as port:
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

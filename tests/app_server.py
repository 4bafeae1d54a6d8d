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


def ingest_seeds(data_dir: Path) -> None:
    """Index the seed papers with the packaged MiniLM."""
    subprocess.run([sys.executable, "-m", "assistant", "ingest", "--data-dir", str(data_dir)], cwd=PROJECT_ROOT,
                   check=True, capture_output=True, text=True)


@contextmanager
def running_app(data_dir: Path, log: Path, **env: str) -> Iterator[str]:
    """`assistant serve` on a free port; yields its base URL and stops it afterwards."""
    port = free_port()
    full_env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", **env}
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen([sys.executable, "-m", "assistant", "serve", "--data-dir", str(data_dir),
                                 "--port", str(port)], cwd=PROJECT_ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_http(url + "/", 120, proc)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()

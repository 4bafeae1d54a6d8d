"""The test servers' port handling: a port taken between choosing and binding is retried."""

from __future__ import annotations

import socket
import sys
import urllib.request
from pathlib import Path

import pytest

from bench import servers


def test_a_taken_port_is_retried_on_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        ports = iter([busy, servers.free_port()])  # the first choice is taken by the time it is used
        monkeypatch.setattr(servers, "free_port", lambda: next(ports))
        command = lambda port: [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]  # noqa: E731
        with servers.serving_on_free_port(command, tmp_path / "http.log",
                                           lambda port: f"http://127.0.0.1:{port}/") as port:
            assert port != busy
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
                assert response.status == 200


def test_refused_port_refuses_while_held() -> None:
    with servers.refused_port() as port:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()

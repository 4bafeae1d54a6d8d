"""With ASSISTANT_AUTH set, neither the page nor the API answers without logging in."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.app_server import ingest_seeds, running_app

pytestmark = pytest.mark.real


def test_login_required_for_ui_and_api(tmp_path: Path) -> None:
    from gradio_client import Client

    ingest_seeds(tmp_path / "data")
    with running_app(tmp_path / "data", tmp_path / "server.log", ASSISTANT_AUTH="alice:s3cret") as url:
        assert url.startswith("http://127.0.0.1:")  # loopback by default
        for path in ("/config", "/gradio_api/info"):  # what the page and the API clients read first
            with pytest.raises(urllib.error.HTTPError) as denied:
                urllib.request.urlopen(url + path, timeout=10)
            assert denied.value.code == 401
        with pytest.raises(Exception):
            Client(url, verbose=False).predict("", "Moritz Hardt", "", api_name="/find")
        with pytest.raises(Exception):
            Client(url, auth=("alice", "wrong"), verbose=False)
        choices = Client(url, auth=("alice", "s3cret"), verbose=False).predict("", "Moritz Hardt", "", api_name="/find")
        assert choices  # logged in: the API answers

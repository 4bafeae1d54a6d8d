"""The same code against a real Chroma server (`chroma run`) on a free loopback port."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from assistant.config import Settings
from assistant.embedding import HashEmbedder
from assistant.index import Index
from assistant.ingest import ingest
from assistant.retrieval import Retriever
from assistant.store import StoreError
from tests.app_server import free_port, wait_http
from tests.conftest import SEEDS, quiet

pytestmark = pytest.mark.server
CHROMA = Path(sys.executable).with_name("chroma")


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `chroma run` server with its own storage folder."""
    root = tmp_path_factory.mktemp("chroma-server")
    port = free_port()
    with open(root / "server.log", "w") as log:
        proc = subprocess.Popen([str(CHROMA), "run", "--path", str(root / "db"), "--host", "127.0.0.1",
                                 "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_http(f"http://127.0.0.1:{port}/api/v2/heartbeat", 60, proc)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(15)


def test_ingest_and_search_through_the_server(chroma_url: str, tmp_path: Path) -> None:
    embedder = HashEmbedder()
    settings = Settings.from_env({}, data_dir=tmp_path / "local", chroma_url=chroma_url)
    report = ingest([SEEDS], settings, embedder_factory=lambda: embedder, log=quiet)
    assert report.papers["added"] + report.papers["unchanged"] == 39
    # A second app process with its own (empty) data dir sees the same index, via the server.
    other = replace(settings, data_dir=tmp_path / "other")
    messages: list[str] = []
    index = Index.open(other, log=messages.append)
    assert index.store.location == chroma_url and not (tmp_path / "other" / "chroma").exists()
    status = index.status()
    assert status["dense"] == status["lexical"] and status["dense"]["papers"] == 39
    hits = Retriever(index, lambda: embedder, other).search("Lookahead decoding LLM inference", k=3)
    assert hits[0].paper_id == "33512"


def test_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path, chroma_url=f"http://127.0.0.1:{free_port()}")
    with pytest.raises(StoreError, match="cannot reach the Chroma server"):
        Index.open(settings, log=quiet)

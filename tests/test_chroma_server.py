"""The same code against a real Chroma server (`chroma run`) on a free loopback port."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from assistant.config import Settings
from assistant.embedding import HashEmbedder
from assistant.index import Index
from assistant.ingest import ingest
from assistant.retrieval import Retriever
from assistant import store
from assistant.store import StoreError
from bench.servers import ChromaServer, refused_port
from tests.conftest import SEEDS, quiet

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChromaServer]:
    """A `chroma run` server with its own storage folder."""
    root = tmp_path_factory.mktemp("chroma-server")
    chroma = ChromaServer(root / "db", root / "server.log").start()
    try:
        yield chroma
    finally:
        chroma.stop()


@pytest.fixture
def chroma_url(server: ChromaServer) -> str:
    """The running server's URL (restarted if a test left it stopped)."""
    if server.proc is None:
        server.start()
    return server.url


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
    with refused_port() as port:  # held, never listening: nothing else can answer there meanwhile
        settings = Settings.from_env({}, data_dir=tmp_path, chroma_url=f"http://127.0.0.1:{port}")
        with pytest.raises(StoreError, match="cannot reach the Chroma server"):
            Index.open(settings, log=quiet)


def test_server_restarted_mid_session(server: ChromaServer, chroma_url: str, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = HashEmbedder()
    settings = Settings.from_env({}, data_dir=tmp_path / "local", chroma_url=chroma_url)
    ingest([SEEDS], settings, embedder_factory=lambda: embedder, log=quiet)
    retriever = Retriever(Index.open(settings, log=quiet), lambda: embedder, settings)
    assert retriever.search("Lookahead decoding LLM inference", k=1)[0].paper_id == "33512"

    # Down for longer than the retry budget: a clear error, not a traceback from the HTTP client.
    server.stop()
    started = time.monotonic()
    with pytest.raises(StoreError, match="Chroma server .* is not reachable .* retried"):
        retriever.search("Lookahead decoding LLM inference", k=1)
    assert time.monotonic() - started >= 5  # it did wait and retry

    # Back within the retry budget (a restart): the same call succeeds without the caller noticing.
    # The budget must cover a restart on this machine: a loaded machine can take longer to start
    # `chroma run` than the default 10 s, so it is set from the measured first start, with margin.
    budget = max(store.RETRY_SECONDS, 1.0 + 3 * server.start_seconds + 5)
    monkeypatch.setattr(store, "RETRY_SECONDS", budget)
    restart = threading.Timer(1.0, server.start)
    restart.start()
    started = time.monotonic()
    assert retriever.search("Lookahead decoding LLM inference", k=1)[0].paper_id == "33512"
    assert time.monotonic() - started < budget
    restart.join()
    assert retriever.index.status()["dense"]["papers"] == 39

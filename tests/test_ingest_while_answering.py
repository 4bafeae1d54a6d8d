"""Ingest while the chat answers: answers keep coming, and a paper whose chunks are written but
whose registry record is not (a half-written paper) is never shown.

The ingest runs in its own process against the app's data dir and is stopped at exact points by
ingest's test-only pause hook, so the dangerous moment does not depend on timing or model speed:
it stops between batch 2's chunks and its registry records, the app is started then (a freshly
opened embedded Chroma sees every chunk on disk, the half-written ones included), and the test
first checks that Chroma's vector index really holds those chunks before asking about them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.config import PROJECT_ROOT, Settings
from assistant.embedding import HashEmbedder
from assistant.index import Index
from assistant.ingest import PAUSE_ENV
from bench.servers import ask_app, running_app
from tests.conftest import SEEDS, quiet, synthetic_corpus, wait_pause

pytestmark = pytest.mark.real

ENV = {**os.environ, "ASSISTANT_EMBED_MODEL": "hash"}


def passages(answer: dict) -> list[str]:
    """Paper ids of the passages an answer was made from, best first."""
    return [p["paper_id"] for p in answer["trace"].get("passages", [])]


def assert_answered(answer: dict) -> None:
    """An answer came (no error) and showed sources."""
    assert answer["text"] and not answer["text"].startswith("⚠️"), answer["text"]
    assert answer["shown"], answer["text"]


def test_answers_keep_coming_and_never_show_a_half_written_paper(tmp_path: Path) -> None:
    data, source = tmp_path / "data", tmp_path / "synthetic.jsonl"
    titles = synthetic_corpus(source, 400)  # four batches: 128, 128, 128, 16
    subprocess.run([sys.executable, "-m", "assistant", "ingest", str(SEEDS), "--data-dir", str(data)],
                   cwd=PROJECT_ROOT, env=ENV, check=True, capture_output=True)
    proc = subprocess.Popen([sys.executable, "-m", "assistant", "ingest", str(source), "--data-dir", str(data)],
                            cwd=PROJECT_ROOT, env={**ENV, PAUSE_ENV: "chunks-written:2,committed:3"},
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        point, batch, half_written = wait_pause(proc)
        assert (point, batch) == ("chunks-written", 2)
        committed = [pid for pid in titles if pid not in half_written][:128]  # batch 1, committed

        # The dangerous state is there: a freshly opened index finds the half-written chunks.
        index = Index.open(Settings.from_env({}, data_dir=data), log=quiet)
        index.store.reopen()
        embedder = HashEmbedder()
        for pid in half_written[:3]:
            raw = index.store.query(embedder.embed([titles[pid]])[0], 3)
            assert [paper for _, paper, _ in raw][:1] == [pid]  # Chroma's own query ranks it first
        assert not set(half_written) & set(index.store.paper_hashes())

        with running_app(data, tmp_path / "app.log", ASSISTANT_EMBED_MODEL="hash",
                         ASSISTANT_REFRESH_SECONDS="1") as url:
            # Asked by their exact titles, the half-written papers are never shown.
            stalled = [ask_app(url, titles[pid]) for pid in half_written[:3]]
            for answer in stalled:
                assert_answered(answer)
            assert not {pid for a in stalled for pid in a["shown"] + passages(a)} & set(half_written)
            # A paper committed earlier in the same, still running ingest is already answerable.
            early = ask_app(url, titles[committed[5]])
            assert_answered(early)
            assert passages(early)[:1] == [committed[5]], early["trace"]

            # Resumed, the ingest writes on; the app answers meanwhile (the ingest cannot finish
            # before it stops again after batch 3).
            os.kill(proc.pid, signal.SIGCONT)
            during = ask_app(url, "What is ReadAgent?")
            assert proc.poll() is None
            assert_answered(during)
            assert (wait_pause(proc))[:2] == ("committed", 3)
            time.sleep(1.5)  # past the app's refresh interval: batches 2 and 3 are committed now
            for pid in half_written[:3]:
                after = ask_app(url, titles[pid])
                assert pid in passages(after)[:3], after["trace"]
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()

    # The next ingest completes the killed one; status is consistent.
    done = subprocess.run([sys.executable, "-m", "assistant", "ingest", str(SEEDS), str(source), "--data-dir",
                           str(data), "--json"], cwd=PROJECT_ROOT, env=ENV, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    status = Index.open(Settings.from_env({}, data_dir=data), log=quiet).status()
    assert status["consistent"] and status["dense"]["papers"] == 39 + len(titles)

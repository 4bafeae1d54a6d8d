"""Ingest survives being killed at random points; the index stays consistent."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from assistant.config import PROJECT_ROOT, Settings
from assistant.index import Index
from tests.conftest import CATALOGUE, SEEDS, quiet

ENV = {**os.environ, "ASSISTANT_EMBED_MODEL": "hash"}


def start_ingest(data_dir: Path, *paths: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "assistant", "ingest", *map(str, paths), "--data-dir", str(data_dir),
                             "--json"], cwd=PROJECT_ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_kill_9_during_ingest_then_ingest_completes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sources = [SEEDS, CATALOGUE] if CATALOGUE.is_file() else [SEEDS]
    rng = random.Random(1234)
    killed = 0
    for _ in range(20):
        proc = start_ingest(data, *sources)
        time.sleep(rng.uniform(0.5, 6.0))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.communicate()
    assert killed >= 10  # most runs really were interrupted
    final = start_ingest(data, *sources)
    out, err = final.communicate(timeout=900)
    assert final.returncode == 0, err
    report = json.loads(out)
    expected = 2634 if len(sources) == 2 else 39
    assert sum(report["papers"][k] for k in ("added", "updated", "unchanged")) == expected
    index = Index.open(Settings.from_env({}, data_dir=data), log=quiet)
    status = index.status()
    assert status["consistent"] and status["dense"]["papers"] == expected
    ids = index.store.chunks.get(include=[])["ids"]
    assert len(ids) == len(set(ids)) == status["dense"]["chunks"]


def test_two_ingests_at_once_one_refuses(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sources = [SEEDS, CATALOGUE] if CATALOGUE.is_file() else [SEEDS]
    first = start_ingest(data, *sources)
    time.sleep(2.5)
    second = start_ingest(data, SEEDS)
    _, err2 = second.communicate(timeout=300)
    first.communicate(timeout=900)
    assert first.returncode == 0
    assert second.returncode != 0 and "another ingest" in err2 and "Traceback" not in err2

"""Shared fixtures: a temporary data dir and a deterministic fake embedder."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from assistant.config import PROJECT_ROOT, Settings
from assistant.embedding import HashEmbedder
from assistant.index import Index
from assistant.ingest import PAUSE_MARKER, ingest
from assistant.retrieval import Retriever
from bench.servers import ingest_seeds, running_app

SEEDS = PROJECT_ROOT / "seeds"
CATALOGUE = PROJECT_ROOT.parent / "shared" / "data" / "icml2024" / "ICML 2024 Events.json"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings pointing at an empty data dir."""
    return Settings.from_env({}, data_dir=tmp_path / "data")


@pytest.fixture
def fake_embedder() -> HashEmbedder:
    """Deterministic bag-of-words embedder."""
    return HashEmbedder()


def big_source(tmp_path: Path) -> Path:
    """The ICML catalogue, or where it is absent, 1,500 generated papers (both far beyond the seeds)."""
    if CATALOGUE.is_file():
        return CATALOGUE
    path = tmp_path / "many.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        for n in range(1500):
            out.write(json.dumps({"paper_id": f"g{n}", "title": f"Generated paper {n} on topic t{n}",
                                  "abstract": f"We study problem number {n} with method m{n}. " * 20}) + "\n")
    return path


SYLLABLES = ["ka", "lo", "mi", "ran", "tu", "vex", "zor", "pel", "qui", "dob", "sen", "hav", "gri", "fum", "wen", "jax"]


def pseudo_word(n: int) -> str:
    """A made-up word, distinct for each ``n``: its syllables spell ``n`` in base 16."""
    out = ""
    for _ in range(4):
        n, digit = divmod(n, len(SYLLABLES))
        out += SYLLABLES[digit]
    return out


def synthetic_corpus(path: Path, n: int) -> dict[str, str]:
    """Write ``n`` generated papers to ``path``; returns id -> title. Each paper's title and
    abstract use made-up words of their own, so even a crude embedder finds it by its title."""
    titles = {}
    with open(path, "w", encoding="utf-8") as out:
        for k in range(n):
            a, b, c = (pseudo_word(3 * k + j) for j in range(3))
            pid, title = f"syn{k}", f"{a.title()} {b} for {c} estimation"
            titles[pid] = title
            abstract = (f"We present {a.title()}, a {b} method for {c} estimation. {a.title()} reduces {c} error "
                        f"by {k % 97}.5% on the {b} benchmark, and {a.title()} runs in linear time.")
            out.write(json.dumps({"paper_id": pid, "title": title, "abstract": abstract}) + "\n")
    return titles


def wait_pause(proc: subprocess.Popen) -> tuple[str, int, list[str]]:
    """Read the ingest's stderr up to its next pause marker: (point, batch, paper ids of the batch)."""
    seen = []
    for line in proc.stderr:
        if line.startswith(PAUSE_MARKER + " "):
            _, point, batch, ids = line.rstrip("\n").split(" ", 3)
            return point, int(batch), json.loads(ids)
        seen.append(line)
    proc.wait()
    raise AssertionError(f"ingest exited ({proc.returncode}) before pausing: {''.join(seen)[-2000:]}")


def quiet(_message: str) -> None:
    """A logger that drops messages."""


@pytest.fixture
def seeded(settings: Settings, fake_embedder: HashEmbedder) -> Retriever:
    """The seed papers ingested with the fake embedder, opened for search."""
    ingest([SEEDS], settings, embedder_factory=lambda: fake_embedder, log=quiet)
    return Retriever(Index.open(settings, log=quiet), lambda: fake_embedder, settings)


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app (packaged models) with the seeds indexed, on a free loopback port."""
    root = tmp_path_factory.mktemp("app")
    ingest_seeds(root / "data")
    with running_app(root / "data", root / "server.log") as url:
        yield url


# Tests marked ``required`` prove guarantees the README states (a full or read-only disk). They
# skip where they cannot run (no root, no mount); where REQUIRED_TESTS_MUST_RUN is set (`make test`
# as root), such a skip fails the run instead of passing quietly.
REQUIRED_ENV = "REQUIRED_TESTS_MUST_RUN"
_required_skips: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Remember skips of tests marked ``required``."""
    if report.skipped and "required" in report.keywords:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _required_skips.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a required test was skipped and the environment asks for all of them."""
    if _required_skips and os.environ.get(REQUIRED_ENV) and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say loudly which required tests were skipped."""
    if _required_skips:
        verdict = "FAILED: they must run here" if os.environ.get(REQUIRED_ENV) else "their guarantees are unproven"
        terminalreporter.section(f"required tests skipped ({verdict})", sep="!", red=True, bold=True)
        for line in _required_skips:
            terminalreporter.write_line(line)

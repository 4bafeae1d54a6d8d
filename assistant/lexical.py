"""The lexical index: BM25 over each paper's title, authors, area and abstract.

Built once per ingest from the Chroma registry and saved in the data dir next to a snapshot
of the papers (so a query never reads Chroma for metadata). Each build goes to its own
folder and a ``CURRENT`` pointer is swapped atomically, so a crash never leaves a
half-written index in use. The snapshot's fingerprint (ids + content hashes) tells whether
it still matches Chroma; when it does not, or the files are damaged, it is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from assistant.corpus import Paper
from assistant.errors import AssistantError
from assistant.filters import PaperFilter
from assistant.store import StoredPaper
from assistant.text import tokenize

TITLE_REPEAT = 2  # the title counts twice: title words are the most telling
STALE_BUILD_SECONDS = 60  # an older build that CURRENT does not name is removed on the next save


class LexicalIndexError(AssistantError, RuntimeError):
    """The lexical index is missing, damaged or out of date."""


def fingerprint(hashes: dict[str, str]) -> str:
    """Identity of an index state: sorted paper ids with their content hashes."""
    digest = hashlib.sha256()
    for pid in sorted(hashes):
        digest.update(f"{pid}\0{hashes[pid]}\n".encode())
    return digest.hexdigest()[:24]


def paper_document(paper: Paper) -> str:
    """The text BM25 sees for one paper."""
    return " ".join([paper.title] * TITLE_REPEAT + [" ".join(paper.authors), paper.area, paper.abstract])


@dataclass
class LexicalIndex:
    """BM25 over papers, with the paper snapshot that search reads metadata from."""

    papers: list[StoredPaper]
    fingerprint: str
    built_at: str
    retriever: Any  # bm25s.BM25

    @property
    def n_chunks(self) -> int:
        """Chunks known to the snapshot (must equal the dense index's count)."""
        return sum(len(p.spans) for p in self.papers)

    # Built once per snapshot, on first use: rebuilt per search they cost 30 ms at 260k papers.
    @cached_property
    def positions(self) -> dict[str, int]:
        """Paper id -> its position in ``papers`` (and in the BM25 scores)."""
        return {p.paper.paper_id: i for i, p in enumerate(self.papers)}

    @cached_property
    def chunk_counts(self) -> np.ndarray:
        """Chunks of each paper, by position."""
        return np.array([len(p.spans) for p in self.papers], dtype=np.int64)

    @cached_property
    def filters(self) -> PaperFilter:
        """The author and area filters over this snapshot."""
        return PaperFilter(self.papers)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every paper for ``query`` (zeros when no query word is indexed)."""
        tokens = [t for t in tokenize(query) if t in self.retriever.vocab_dict]
        if not tokens or not self.papers:
            return np.zeros(len(self.papers), dtype=np.float32)
        return np.asarray(self.retriever.get_scores(tokens), dtype=np.float32)


def build(papers: list[StoredPaper]) -> LexicalIndex:
    """Index the given papers (in a stable order)."""
    import bm25s

    papers = sorted(papers, key=lambda p: p.paper.paper_id)
    retriever = bm25s.BM25()
    corpus = [tokenize(paper_document(p.paper)) or ["\u2205"] for p in papers]
    if corpus:
        retriever.index(corpus, show_progress=False)
    fp = fingerprint({p.paper.paper_id: p.content_hash for p in papers})
    return LexicalIndex(papers, fp, datetime.now(UTC).isoformat(timespec="seconds"), retriever)


def save(index: LexicalIndex, root: Path) -> None:
    """Write the index to a fresh folder under ``root`` and point ``CURRENT`` at it."""
    root.mkdir(parents=True, exist_ok=True)
    folder = root / f"{index.fingerprint}-{os.getpid()}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    snapshot = {
        "fingerprint": index.fingerprint,
        "built_at": index.built_at,
        "papers": [p.to_dict() for p in index.papers],
    }
    (folder / "papers.json").write_text(json.dumps(snapshot, ensure_ascii=False), encoding="utf-8")
    if index.papers:
        index.retriever.save(str(folder / "bm25"))
    pointer = root / f"CURRENT.tmp-{os.getpid()}"
    pointer.write_text(folder.name, encoding="utf-8")
    os.replace(pointer, root / "CURRENT")
    # Another process (an app refreshing while an ingest saves) may be writing or may just
    # have pointed CURRENT at its own build: keep the live one and anything recent.
    live = {folder.name, (root / "CURRENT").read_text(encoding="utf-8").strip()}
    for old in root.iterdir():
        if old.is_dir() and old.name not in live and time.time() - old.stat().st_mtime > STALE_BUILD_SECONDS:
            shutil.rmtree(old, ignore_errors=True)


def load(root: Path) -> LexicalIndex:
    """Read the current index; raises LexicalIndexError when missing or damaged."""
    import bm25s

    try:
        folder = root / (root / "CURRENT").read_text(encoding="utf-8").strip()
        snapshot = json.loads((folder / "papers.json").read_text(encoding="utf-8"))
        papers = [StoredPaper.from_dict(d) for d in snapshot["papers"]]
        retriever = bm25s.BM25.load(str(folder / "bm25")) if papers else bm25s.BM25()
        if papers and retriever.scores["num_docs"] != len(papers):
            raise ValueError(f"BM25 holds {retriever.scores['num_docs']} documents, snapshot {len(papers)}")
    except FileNotFoundError as exc:
        raise LexicalIndexError(f"no lexical index in {root}") from exc
    except Exception as exc:
        raise LexicalIndexError(f"lexical index in {root} is damaged ({type(exc).__name__}: {exc})") from exc
    return LexicalIndex(papers, snapshot["fingerprint"], snapshot["built_at"], retriever)

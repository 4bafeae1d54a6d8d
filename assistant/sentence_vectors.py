"""Sentence vectors for the second ranking stage: each abstract sentence, and the title as a
sentence of its own, embedded at ingest and kept in one numpy file beside the index.

Like the BM25 snapshot the file is derived from the papers, but it cannot be rebuilt from Chroma
without embedding again, so ingest keeps it, when the settings switch the second stage on
(``sentence_weight`` above 0; with it off ingest never touches the file): it embeds the sentences
of every paper it writes and of every stored paper the file lacks, so a missing or damaged file
is rebuilt by the next such ingest.
Each paper's rows carry the paper's content hash, and rows of another version are never used.
The file is replaced in one rename: a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.corpus import Paper
from assistant.text import split_sentences

FILE = "sentences.npz"


class SentenceStoreError(RuntimeError):
    """The sentence vectors are missing or damaged."""


def paper_sentences(paper: Paper) -> list[str]:
    """The texts embedded for one paper: its title, then each sentence of its abstract."""
    texts = [paper.title.strip(), *(s.text for s in split_sentences(paper.abstract))]
    return [t for t in texts if t]


@dataclass
class SentenceVectors:
    """Every paper's sentence vectors, in one array with each paper's rows side by side."""

    model: str
    vectors: np.ndarray  # float16, one L2-normalised row per sentence (half the disk; cosines move < 1e-3)
    rows: dict[str, tuple[str, int, int]]  # paper id -> (content hash, first row, row past the last)

    @property
    def n_papers(self) -> int:
        """Papers that have sentence vectors."""
        return len(self.rows)

    def for_paper(self, paper_id: str, content_hash: str) -> np.ndarray | None:
        """The paper's sentence vectors, or None when the file has none for this version of it."""
        found = self.rows.get(paper_id)
        if found is None or found[0] != content_hash:
            return None
        return self.vectors[found[1] : found[2]]

    def merged(self, new: dict[str, tuple[str, np.ndarray]], current: dict[str, str]) -> SentenceVectors:
        """This store with ``new`` (paper id -> (hash, vectors)) written over it, keeping only the
        papers of ``current`` (paper id -> content hash) whose rows match their hash."""
        parts: list[tuple[str, str, np.ndarray]] = []
        for pid, digest in sorted(current.items()):
            if pid in new and new[pid][0] == digest:
                parts.append((pid, digest, np.asarray(new[pid][1], dtype=np.float16)))
            elif (old := self.for_paper(pid, digest)) is not None:
                parts.append((pid, digest, old))
        dimension = self.vectors.shape[1] if self.vectors.ndim == 2 else 0
        for _, _, vectors in parts:
            dimension = vectors.shape[1]
        rows, start = {}, 0
        for pid, digest, vectors in parts:
            rows[pid] = (digest, start, start + len(vectors))
            start += len(vectors)
        stacked = np.concatenate([v for *_, v in parts]) if parts else np.zeros((0, dimension), np.float16)
        return SentenceVectors(self.model, stacked.astype(np.float16), rows)


def empty(model: str) -> SentenceVectors:
    """A store with no papers."""
    return SentenceVectors(model, np.zeros((0, 0), dtype=np.float16), {})


def save(store: SentenceVectors, path: Path) -> None:
    """Write the store to ``path`` through a temporary file and one rename."""
    ids = sorted(store.rows, key=lambda pid: store.rows[pid][1])
    offsets = np.array([store.rows[pid][1] for pid in ids] + [len(store.vectors)], dtype=np.int64)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as handle:
            np.savez(
                handle,
                vectors=store.vectors,
                offsets=offsets,
                ids=np.array(ids, dtype=str),
                hashes=np.array([store.rows[pid][0] for pid in ids], dtype=str),
                model=np.array(store.model),
            )
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def load(path: Path) -> SentenceVectors:
    """Read the store; raises SentenceStoreError saying why when it is missing or damaged."""
    try:
        with np.load(path, allow_pickle=False) as data:
            vectors, offsets = data["vectors"], data["offsets"]
            ids, hashes, model = data["ids"].tolist(), data["hashes"].tolist(), str(data["model"])
    except FileNotFoundError as exc:
        raise SentenceStoreError(f"there are no sentence vectors in {path}") from exc
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise SentenceStoreError(f"the sentence vectors in {path} are damaged ({type(exc).__name__}: {exc})") from exc
    if (
        vectors.ndim != 2
        or len(offsets) != len(ids) + 1
        or len(hashes) != len(ids)
        or (len(offsets) and (offsets[0] != 0 or offsets[-1] != len(vectors) or np.any(np.diff(offsets) < 0)))
    ):
        raise SentenceStoreError(f"the sentence vectors in {path} are damaged (their row table does not add up)")
    rows = {pid: (digest, int(offsets[n]), int(offsets[n + 1])) for n, (pid, digest) in enumerate(zip(ids, hashes))}
    return SentenceVectors(model, vectors, rows)


def stamp(path: Path) -> tuple[int, int] | None:
    """(modification time, size) of the file, None when absent: tells a reader the file changed."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size

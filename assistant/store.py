"""The dense index: a Chroma collection of chunks plus a registry collection of papers.

Chroma is the source of truth. Embedded (``PersistentClient`` in the data dir) by default;
with a server URL the same code uses ``HttpClient``. A paper's registry record is written
after its chunks, so it acts as the commit marker: chunks without a registry record (a
crash mid-ingest) are never returned by search.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Sequence
from urllib.parse import urlparse

import numpy as np

from assistant.chunking import Chunk
from assistant.corpus import Paper

CHUNKS = "chunks"
PAPERS = "papers"
META = "meta"


class StoreError(RuntimeError):
    """The index cannot be opened or written (locked, corrupt, unreachable, read-only)."""


@dataclass
class StoredPaper:
    """A paper as the registry holds it."""

    paper: Paper
    content_hash: str
    spans: list[tuple[int, int]]  # chunk offsets into the abstract, by chunk index


def _client(data_dir: Path, chroma_url: str) -> Any:
    try:
        import chromadb
        from chromadb.config import Settings as ChromaSettings
    except ImportError as exc:  # pragma: no cover
        raise StoreError("chromadb is not installed: pip install chromadb") from exc
    settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if chroma_url:
        parsed = urlparse(chroma_url if "://" in chroma_url else f"http://{chroma_url}")
        try:
            client = chromadb.HttpClient(host=parsed.hostname or "127.0.0.1", port=parsed.port or 8000,
                                         ssl=parsed.scheme == "https", settings=settings)
            client.heartbeat()
            return client
        except Exception as exc:
            raise StoreError(f"cannot reach the Chroma server at {chroma_url}: {exc}") from exc
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(data_dir / "chroma"), settings=settings)
    except Exception as exc:
        raise StoreError(f"cannot open the index in {data_dir / 'chroma'} (locked, corrupt or not writable): {exc}") from exc


class ChromaStore:
    """Chunks with their embeddings, and one registry record per paper."""

    def __init__(self, data_dir: Path, chroma_url: str = "") -> None:
        self.location = chroma_url or str(data_dir / "chroma")
        self.client = _client(data_dir, chroma_url)
        try:
            # embedding_function=None: we always pass vectors, and Chroma's default would fetch a model.
            self.chunks = self.client.get_or_create_collection(
                CHUNKS, embedding_function=None, metadata={"hnsw:space": "cosine"})
            self.papers = self.client.get_or_create_collection(
                PAPERS, embedding_function=None, metadata={"hnsw:space": "cosine"})
            self.meta = self.client.get_or_create_collection(META, embedding_function=None)
        except Exception as exc:
            raise StoreError(f"cannot open the collections in {self.location}: {exc}") from exc

    # ------------------------------------------------------------ reads
    def paper_hashes(self) -> dict[str, str]:
        """paper id -> content hash, for every committed paper."""
        got = self._call(self.papers.get, include=["metadatas"])
        return {pid: meta["content_hash"] for pid, meta in zip(got["ids"], got["metadatas"])}

    def load_papers(self) -> list[StoredPaper]:
        """Every committed paper with its abstract and chunk offsets."""
        got = self._call(self.papers.get, include=["metadatas", "documents"])
        out = []
        for pid, meta, doc in zip(got["ids"], got["metadatas"], got["documents"]):
            paper = Paper(pid, meta.get("title", ""), json.loads(meta.get("authors", "[]")), meta.get("area", ""),
                          meta.get("url", ""), doc or "", meta.get("source", ""))
            out.append(StoredPaper(paper, meta["content_hash"], [tuple(s) for s in json.loads(meta["spans"])]))
        return out

    def counts(self) -> dict[str, int]:
        """Papers and chunks in the dense index (committed chunks only)."""
        return {"papers": self._call(self.papers.count), "chunks": self._call(self.chunks.count)}

    def query(self, vector: np.ndarray, n: int, paper_ids: Sequence[str] | None = None) -> list[tuple[str, str, float]]:
        """Nearest chunks: (chunk id, paper id, cosine similarity), best first."""
        total = self._call(self.chunks.count)
        if total == 0 or n <= 0:
            return []
        where = None
        if paper_ids is not None:
            if not paper_ids:
                return []
            where = {"paper_id": {"$in": list(paper_ids)}}
        got = self._call(self.chunks.query, query_embeddings=[vector.tolist()], n_results=min(n, total),
                         where=where, include=["metadatas", "distances"])
        return [(cid, meta["paper_id"], 1.0 - float(dist))
                for cid, meta, dist in zip(got["ids"][0], got["metadatas"][0], got["distances"][0])]

    def get_meta(self) -> dict[str, Any]:
        """Index-wide facts (embedding model, last ingest time)."""
        got = self._call(self.meta.get, ids=["index"], include=["metadatas"])
        return dict(got["metadatas"][0]) if got["ids"] else {}

    # ------------------------------------------------------------ writes
    def write(self, items: Iterable[tuple[Paper, str, list[Chunk], np.ndarray]], old_chunk_counts: dict[str, int]) -> None:
        """Upsert papers with their chunks and vectors; chunks first, registry record last."""
        items = list(items)
        if not items:
            return
        batch = max(1, min(int(getattr(self.client, "get_max_batch_size", lambda: 4000)()), 4000))
        ids, vecs, docs, metas = [], [], [], []
        stale: list[str] = []
        for paper, _, chunks, vectors in items:
            for chunk, vec in zip(chunks, vectors):
                ids.append(chunk.chunk_id)
                vecs.append(vec.tolist())
                docs.append(chunk.text)
                metas.append({"paper_id": paper.paper_id, "index": chunk.index, "start": chunk.start, "end": chunk.end})
            stale.extend(f"{paper.paper_id}::{i}" for i in range(len(chunks), old_chunk_counts.get(paper.paper_id, 0)))
        for i in range(0, len(ids), batch):
            self._call(self.chunks.upsert, ids=ids[i:i + batch], embeddings=vecs[i:i + batch],
                       documents=docs[i:i + batch], metadatas=metas[i:i + batch])
        if stale:
            self._call(self.chunks.delete, ids=stale)
        for i in range(0, len(items), batch):
            part = items[i:i + batch]
            self._call(self.papers.upsert,
                       ids=[p.paper_id for p, _, _, _ in part],
                       embeddings=[_mean(v).tolist() for _, _, _, v in part],
                       documents=[p.abstract for p, _, _, _ in part],
                       metadatas=[_paper_meta(p, h, c) for p, h, c, _ in part])

    def remove_orphans(self, spans: dict[str, int]) -> int:
        """Delete chunks that no committed paper owns (left by an interrupted ingest)."""
        got = self._call(self.chunks.get, include=["metadatas"])
        orphans = [cid for cid, meta in zip(got["ids"], got["metadatas"])
                   if meta["index"] >= spans.get(meta["paper_id"], 0)]
        for i in range(0, len(orphans), 4000):
            self._call(self.chunks.delete, ids=orphans[i:i + 4000])
        return len(orphans)

    def set_meta(self, **values: Any) -> None:
        """Record index-wide facts; ``last_ingest`` is stamped now."""
        values["last_ingest"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        merged = {**self.get_meta(), **values}
        self._call(self.meta.upsert, ids=["index"], embeddings=[[0.0]], documents=["index"], metadatas=[merged])

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"index at {self.location}: {type(exc).__name__}: {exc}") from exc


def _mean(vectors: np.ndarray) -> np.ndarray:
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    norm = np.linalg.norm(mean)
    return mean / norm if norm else mean


def _paper_meta(paper: Paper, content_hash: str, chunks: list[Chunk]) -> dict[str, Any]:
    return {"title": paper.title, "authors": json.dumps(paper.authors, ensure_ascii=False), "area": paper.area,
            "url": paper.url, "source": paper.source, "content_hash": content_hash,
            "n_chunks": len(chunks), "spans": json.dumps([[c.start, c.end] for c in chunks])}

"""The dense index: a Chroma collection of chunks plus a registry collection of papers.

Chroma is the source of truth. Embedded (``PersistentClient`` in the data dir) by default;
with a server URL the same code uses ``HttpClient``. A paper's registry record is written
after its chunks, so it acts as the commit marker: chunks without a registry record (a
crash mid-ingest) are never returned by search.
"""

from __future__ import annotations

import atexit
import errno
import json
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import numpy as np

from assistant.chunking import Chunk
from assistant.corpus import Paper
from assistant.errors import AssistantError

CHUNKS = "chunks"
PAPERS = "papers"
META = "meta"
# The META record every write of papers replaces: with the paper count it tells a running app,
# cheaply, whether to compare every paper's hash (0.3 s at 2,600 papers, growing with them).
CHANGES = "changes"
# Measured: the catalogue index takes 15 KB of disk per chunk (68 MB for 4,470 chunks, BM25
# included). Ingest asks for twice that, plus a margin, before it writes anything, because
# Chroma cannot read its own index again until space is freed once a write fails for lack of it.
BYTES_PER_CHUNK = 32 * 1024
SPACE_MARGIN = 8 * 1024 * 1024
# Records read per ``get``: Chroma 1.5's embedded store fails a get of 36,494 chunks with "too many
# SQL variables" (SQLite's limit is 32,766), so reading everything goes page by page.
GET_PAGE = 5000
# A restarting Chroma server refuses connections for a second or two; calls are retried
# with backoff for this long before the user sees an error.
RETRY_SECONDS = 10.0


class StoreError(AssistantError, RuntimeError):
    """The index cannot be opened or written (locked, corrupt, unreachable, read-only)."""


@dataclass(kw_only=True)
class StoredPaper:
    """A paper as the registry holds it."""

    paper: Paper
    content_hash: str
    spans: list[tuple[int, int]]  # chunk offsets into the abstract, by chunk index

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> StoredPaper:
        """The stored paper a decoded record describes: the paper's fields, ``content_hash`` and ``spans``."""
        return cls(
            paper=Paper.from_dict(record),
            content_hash=record["content_hash"],
            spans=[(int(start), int(end)) for start, end in record["spans"]],
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (JSON-ready); ``from_dict`` reads it back."""
        return {**self.paper.to_dict(), "content_hash": self.content_hash, "spans": self.spans}


def _client(path: Path, chroma_url: str) -> Any:
    try:
        import chromadb
        from chromadb.config import Settings as ChromaSettings
    except ImportError as exc:  # pragma: no cover
        raise StoreError("chromadb is not installed: pip install chromadb") from exc
    settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if chroma_url:
        parsed = urlparse(chroma_url if "://" in chroma_url else f"http://{chroma_url}")
        try:
            client = chromadb.HttpClient(
                host=parsed.hostname or "127.0.0.1",
                port=parsed.port or 8000,
                ssl=parsed.scheme == "https",
                settings=settings,
            )
            client.heartbeat()
            return client
        except Exception as exc:
            raise StoreError(f"cannot reach the Chroma server at {chroma_url}: {exc}") from exc
    try:
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=settings)
    except Exception as exc:
        raise StoreError(f"cannot open the index in {path} (locked, corrupt or not writable): {exc}") from exc


def is_read_only(path: Path) -> bool:
    """True when ``path`` (or the nearest folder above it that exists) cannot be written,
    e.g. a read-only mount; root passes plain permission bits, so those do not count."""
    while not path.exists() and path.parent != path:
        path = path.parent
    database = path / "chroma.sqlite3"
    return not os.access(path, os.W_OK) or (database.exists() and not os.access(database, os.W_OK))


def read_only_message(data_dir: Path) -> str:
    """What to tell a user who tries to write an index on a read-only disk."""
    return (
        f"the data dir {data_dir} is read-only, so nothing can be ingested there; the index in it is unchanged "
        "(use --data-dir on a writable disk, or copy the folder there)"
    )


def _writable_copy(chroma_dir: Path) -> Path:
    """Copy a read-only index to a temporary folder (Chroma writes to its database even to read)."""
    copy = Path(tempfile.mkdtemp(prefix="assistant-index-copy-")) / "chroma"
    shutil.copytree(chroma_dir, copy)
    atexit.register(shutil.rmtree, copy.parent, True)
    return copy


class ChromaStore:
    """Chunks with their embeddings, and one registry record per paper."""

    def __init__(self, data_dir: Path, chroma_url: str = "", writing: bool = False, log: Any = None) -> None:
        """Open (or create) the index: the Chroma server at ``chroma_url``, else ``data_dir/chroma``.

        An index on a read-only disk is searched from a temporary copy; ``writing=True``
        (ingest) refuses it instead, before anything is touched.
        """
        self.remote = bool(chroma_url)
        self.location = chroma_url or str(data_dir / "chroma")
        path = data_dir / "chroma"
        if not self.remote and is_read_only(path):
            if writing or not path.is_dir():
                raise StoreError(read_only_message(data_dir))
            self.client = self._open_copy(path, log, f"The data dir {data_dir} is read-only")
        else:
            try:
                self.client = _client(path, chroma_url)
            except StoreError as exc:
                if self.remote or not _is_disk_full(exc, str(path)):
                    raise
                if writing:
                    raise StoreError(
                        f"the disk holding {path} is full, so nothing can be ingested; free some space "
                        "and run ingest again (the index there is unchanged)"
                    ) from exc
                self.client = self._open_copy(path, log, f"The disk holding {path} is full")
        self._open_collections()

    def _open_collections(self) -> None:
        try:
            # embedding_function=None: we always pass vectors, and Chroma's default would fetch a model.
            self.chunks = self.client.get_or_create_collection(
                CHUNKS, embedding_function=None, metadata={"hnsw:space": "cosine"}
            )
            self.papers = self.client.get_or_create_collection(
                PAPERS, embedding_function=None, metadata={"hnsw:space": "cosine"}
            )
            self.meta = self.client.get_or_create_collection(META, embedding_function=None)
        except Exception as exc:
            raise StoreError(f"cannot open the collections in {self.location}: {exc}") from exc

    def reopen(self) -> None:
        """Catch up with papers another process wrote (embedded mode only).

        An embedded Chroma keeps the vector index it loaded: rows another process commits show
        up in ``get``, but not in ``query`` until the client is opened again. Chroma shares one
        client per folder within a process, so that shared client is dropped first. A server
        needs none of this.
        """
        if self.remote:
            return
        from chromadb.api.shared_system_client import SharedSystemClient

        identifier = getattr(self.client, "_identifier", None)
        systems = getattr(SharedSystemClient, "_identifier_to_system", None)
        if identifier is None or not isinstance(systems, dict):
            return  # another chromadb layout: nothing known to refresh
        systems.pop(identifier, None)
        getattr(SharedSystemClient, "_identifier_to_refcount", {}).pop(identifier, None)
        self.client = _client(Path(identifier), "")
        self._open_collections()

    def persist_vectors(self) -> None:
        """Save the chunks' HNSW graph with every written chunk in it (embedded mode only).

        Embedded Chroma saves the graph only every ``sync_threshold`` (1,000) chunk writes; the
        chunks written since stay in its log, and every process that opens the index inserts them
        into its in-memory graph again, in an order that differs from process to process. The
        approximate nearest chunks then differ between runs near the edge of the dense pool, and
        so does the fused ranking (bench/EVAL.md: q044, q170). Lowering the threshold, reopening
        and reading once makes Chroma insert the backlog and save the graph; the threshold is then
        put back, so a large ingest still saves every 1,000 chunks, not every batch. Best effort:
        a Chroma without these settings keeps its per-process graph.
        """
        if self.remote:
            return
        try:
            threshold = self.chunks.configuration["hnsw"]["sync_threshold"]
            self.chunks.modify(configuration={"hnsw": {"sync_threshold": 1}})
            self.reopen()
            self.chunks.count()  # replays the log into the graph, which the threshold of 1 saves
            self.chunks.modify(configuration={"hnsw": {"sync_threshold": threshold}})
        except Exception:  # noqa: BLE001 - only determinism across processes is at stake
            return

    @staticmethod
    def _open_copy(path: Path, log: Any, why: str) -> Any:
        """Search a temporary copy of an index that cannot be opened where it is."""
        try:
            copy = _writable_copy(path)
        except OSError as exc:
            raise StoreError(
                f"{why}, and the index could not be copied to a temporary folder to search it: {exc.strerror or exc}"
            ) from exc
        if log is not None:
            log(f"{why}: searching a copy of its index in {copy.parent}; the original is left as it is.")
        return _client(copy, "")

    # ------------------------------------------------------------ reads
    def paper_hashes(self) -> dict[str, str]:
        """paper id -> content hash, for every committed paper."""
        got = self._get_all(self.papers, ["metadatas"])
        return {pid: meta["content_hash"] for pid, meta in zip(got["ids"], got["metadatas"])}

    def load_papers(self) -> list[StoredPaper]:
        """Every committed paper with its abstract and chunk offsets."""
        got = self._get_all(self.papers, ["metadatas", "documents"])
        out = []
        for pid, meta, doc in zip(got["ids"], got["metadatas"], got["documents"]):
            # Chroma metadata holds scalars only: authors and spans are stored as JSON text.
            record = {
                **meta,
                "paper_id": pid,
                "abstract": doc or "",
                "authors": json.loads(meta.get("authors", "[]")),
                "spans": json.loads(meta["spans"]),
            }
            out.append(StoredPaper.from_dict(record))
        return out

    def _get_all(self, collection: Any, include: list[str]) -> dict[str, list[Any]]:
        """Every record of a collection, read GET_PAGE at a time: one unbounded ``get`` fails once
        a collection holds more than about 32k records (SQLite's limit on query variables)."""
        out: dict[str, list[Any]] = {"ids": [], **{key: [] for key in include}}
        while True:
            got = self._call(collection.get, include=include, limit=GET_PAGE, offset=len(out["ids"]))
            for key, values in out.items():
                values.extend(got[key] or [])
            if len(got["ids"]) < GET_PAGE:
                return out

    def change_marker(self) -> tuple[int, str]:
        """(committed papers, id of the last write of papers): when neither moved, no paper changed
        (unless a writer without this marker, or one killed right after committing, wrote them)."""
        got = self._call(self.meta.get, ids=[CHANGES], include=["metadatas"])
        stamp = str(got["metadatas"][0].get("write", "")) if got["ids"] else ""
        return self._call(self.papers.count), stamp

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
        got = self._call(
            self.chunks.query,
            query_embeddings=[vector.tolist()],
            n_results=min(n, total),
            where=where,
            include=["metadatas", "distances"],
        )
        return [
            (cid, meta["paper_id"], 1.0 - float(dist))
            for cid, meta, dist in zip(got["ids"][0], got["metadatas"][0], got["distances"][0])
        ]

    def get_meta(self) -> dict[str, Any]:
        """Index-wide facts (embedding model, last ingest time)."""
        got = self._call(self.meta.get, ids=["index"], include=["metadatas"])
        return dict(got["metadatas"][0]) if got["ids"] else {}

    # ------------------------------------------------------------ writes
    def write(
        self,
        items: Iterable[tuple[Paper, str, list[Chunk], np.ndarray]],
        old_chunk_counts: dict[str, int],
        between: Callable[[], None] | None = None,
    ) -> None:
        """Upsert papers with their chunks and vectors; chunks first, registry record last.

        ``between`` runs after the chunks are written and before the registry records: the
        moment a crash leaves half-written papers (tests stop or kill the process there).
        """
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
            self._call(
                self.chunks.upsert,
                ids=ids[i : i + batch],
                embeddings=vecs[i : i + batch],
                documents=docs[i : i + batch],
                metadatas=metas[i : i + batch],
            )
        if stale:
            self._call(self.chunks.delete, ids=stale)
        if between is not None:
            between()
        for i in range(0, len(items), batch):
            part = items[i : i + batch]
            self._call(
                self.papers.upsert,
                ids=[p.paper_id for p, _, _, _ in part],
                embeddings=[_mean(v).tolist() for _, _, _, v in part],
                documents=[p.abstract for p, _, _, _ in part],
                metadatas=[_paper_meta(p, h, c) for p, h, c, _ in part],
            )
        stamp = {"write": uuid.uuid4().hex}
        self._call(self.meta.upsert, ids=[CHANGES], embeddings=[[0.0]], documents=[CHANGES], metadatas=[stamp])

    def remove_orphans(self, spans: dict[str, int]) -> int:
        """Delete chunks that no committed paper owns (left by an interrupted ingest)."""
        got = self._get_all(self.chunks, ["metadatas"])
        orphans = [
            cid for cid, meta in zip(got["ids"], got["metadatas"]) if meta["index"] >= spans.get(meta["paper_id"], 0)
        ]
        for i in range(0, len(orphans), 4000):
            self._call(self.chunks.delete, ids=orphans[i : i + 4000])
        return len(orphans)

    def vector_dimension(self) -> int | None:
        """Length of the stored chunk vectors (None while there are none)."""
        got = self._call(self.chunks.get, limit=1, include=["embeddings"])
        embeddings = got.get("embeddings")
        return len(embeddings[0]) if embeddings is not None and len(embeddings) else None

    def set_meta(self, stamp: bool = True, **values: Any) -> None:
        """Record index-wide facts; ``last_ingest`` is stamped now unless ``stamp`` is False."""
        if stamp:
            values["last_ingest"] = datetime.now(UTC).isoformat(timespec="seconds")
        merged = {**self.get_meta(), **values}
        self._call(self.meta.upsert, ids=["index"], embeddings=[[0.0]], documents=["index"], metadatas=[merged])

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run one Chroma call; a remote one is retried while the server is unreachable
        (every call here is a read, an upsert or a delete by id, so repeating it is safe)."""
        deadline = time.monotonic() + RETRY_SECONDS
        delay = 0.25
        while True:
            try:
                return fn(*args, **kwargs)
            except StoreError:
                raise
            except Exception as exc:
                if self.remote and _is_connection_error(exc):
                    if time.monotonic() + delay < deadline:
                        time.sleep(delay)
                        delay = min(delay * 2, 2.0)
                        continue
                    raise StoreError(
                        f"the Chroma server at {self.location} is not reachable "
                        f"({_root_cause(exc)}), retried for {RETRY_SECONDS:.0f} s; "
                        "is `chroma run` up?"
                    ) from exc
                if _is_disk_full(exc, self.location):
                    raise StoreError(
                        f"the disk holding {self.location} is full ({_root_cause(exc)}). Free some space: "
                        "papers committed before are kept, and a partly written batch is cleaned up "
                        "by the next ingest"
                    ) from exc
                raise StoreError(f"index at {self.location}: {type(exc).__name__}: {exc}") from exc


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _root_cause(exc: BaseException) -> str:
    last = _chain(exc)[-1]
    return f"{type(last).__name__}: {last}"


def _is_connection_error(exc: BaseException) -> bool:
    """Refused, reset or dropped connections (what a server restart looks like), not API errors."""
    import httpx

    return any(isinstance(e, (httpx.TransportError, ConnectionError)) for e in _chain(exc))


def _is_disk_full(exc: BaseException, location: str) -> bool:
    """ENOSPC anywhere in the chain, or Chroma's own wording once a write has failed for space."""
    if any(isinstance(e, OSError) and e.errno == errno.ENOSPC for e in _chain(exc)):
        return True
    text = str(exc).lower()
    if "disk is full" in text or "no space left" in text:
        return True
    try:
        # Chroma reports a failed write as a compaction error; the free space tells the cause.
        return Path(location).exists() and shutil.disk_usage(location).free < SPACE_MARGIN
    except OSError:
        return False


def required_space(n_chunks: int) -> int:
    """Bytes of free disk an ingest of ``n_chunks`` new chunks asks for before it writes."""
    return n_chunks * BYTES_PER_CHUNK + SPACE_MARGIN


def _mean(vectors: np.ndarray) -> np.ndarray:
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    norm = np.linalg.norm(mean)
    return mean / norm if norm else mean


def _paper_meta(paper: Paper, content_hash: str, chunks: list[Chunk]) -> dict[str, Any]:
    return {
        "title": paper.title,
        "authors": json.dumps(paper.authors, ensure_ascii=False),
        "area": paper.area,
        "url": paper.url,
        "source": paper.source,
        "content_hash": content_hash,
        "n_chunks": len(chunks),
        "spans": json.dumps([[c.start, c.end] for c in chunks]),
    }

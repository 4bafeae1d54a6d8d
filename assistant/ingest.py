"""Ingest: parse sources, upsert changed papers into Chroma, rebuild BM25 once.

Content hashes decide what changes, so a second run over the same files embeds nothing.
Only one ingest may write an index at a time (a lock file in the data dir).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np

from assistant import sentence_vectors
from assistant.chunking import chunk_abstract, embedding_text
from assistant.config import Settings
from assistant.corpus import Paper, ParseResult, Rejected, collect_files, parse_file, readable_label
from assistant.embedding import Embedder, load_embedder
from assistant.errors import AssistantError
from assistant.index import Index, Log, stderr_log
from assistant.seed_metadata import enrich
from assistant.sentence_vectors import paper_sentences
from assistant.store import StoredPaper, StoreError, read_only_message, required_space

BATCH_PAPERS = 128  # papers embedded and committed together; a crash loses at most one batch
LARGE_FILE_BYTES = 16 * 2**20  # reading a file this big is announced (the catalogue is 4 MiB)
# Test-only: comma-separated "<point>:<batch>" pairs at which the ingest process prints a marker
# line and stops itself (SIGSTOP), so a test can look at the index at exactly that moment and
# then resume it (SIGCONT) or kill it. Points: started (batch 0: lock held, orphans removed),
# embedded, chunks-written (a batch's chunks are in, its registry records are not), committed.
PAUSE_ENV = "INGEST_TEST_PAUSE"  # not ASSISTANT_*: a test hook, not a setting
PAUSE_MARKER = "INGEST-PAUSE"


class IngestLocked(AssistantError, RuntimeError):
    """Another ingest holds the data dir."""


@dataclass
class IngestReport:
    """What an ingest did."""

    papers: Counter = field(default_factory=Counter)  # added / updated / unchanged
    chunks: Counter = field(default_factory=Counter)
    rejected: list[Rejected] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)
    files: int = 0
    sentences: int = 0  # sentences embedded for the second ranking stage

    def to_dict(self) -> dict:
        """JSON-ready summary."""
        return {
            "files": self.files,
            "papers": {k: self.papers.get(k, 0) for k in ("added", "updated", "unchanged")}
            | {"rejected": len(self.rejected)},
            "chunks": {k: self.chunks.get(k, 0) for k in ("added", "updated", "unchanged")},
            "sentences_embedded": self.sentences,
            "skipped_events": dict(self.skipped),
            "rejected": [{"where": r.where, "reason": r.reason} for r in self.rejected],
        }


@contextmanager
def ingest_lock(data_dir: Path) -> Iterator[None]:
    """Exclusive, non-blocking lock on the data dir; released even if the process is killed."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        # Closed by `with handle` below; opened outside it so that only opening errors read as "cannot write".
        handle = open(data_dir / "ingest.lock", "a+", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        if exc.errno == errno.EROFS:
            raise StoreError(read_only_message(data_dir)) from None
        raise StoreError(
            f"cannot write to the data dir {data_dir} ({exc.strerror}); the index there is unchanged"
        ) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                handle.seek(0)
                holder = handle.read().strip() or "another process"
                raise IngestLocked(f"another ingest is writing {data_dir} ({holder}); try again when it ends") from None
            raise
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def checkpoint(point: str, batch: int, paper_ids: Sequence[str] = ()) -> None:
    """Stop here when ``INGEST_TEST_PAUSE`` names this point and batch (see PAUSE_ENV).

    The marker line ``INGEST-PAUSE <point> <batch> <json paper ids>`` goes to stderr before the
    stop, so a test reading stderr knows which papers the batch holds.
    """
    wanted = os.environ.get(PAUSE_ENV, "")
    if not wanted or f"{point}:{batch}" not in wanted.replace(" ", "").split(","):
        return
    print(f"{PAUSE_MARKER} {point} {batch} {json.dumps(list(paper_ids))}", file=sys.stderr, flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)


def parse_sources(paths: Sequence[Path], log: Log = stderr_log) -> tuple[ParseResult, int]:
    """Parse every file under ``paths``; merge duplicates of one paper id."""
    files, missing = collect_files(paths)
    merged = ParseResult(rejected=list(missing))
    by_id: dict[str, Paper] = {}
    for n, path in enumerate(files, 1):
        if _size(path) >= LARGE_FILE_BYTES:  # a big file takes a while: say which one
            log(f"  reading {path} ({_size(path) / 2**20:,.0f} MiB, file {n}/{len(files)})")
        result = parse_file(path)
        merged.rejected.extend(result.rejected)
        merged.skipped.update(result.skipped)
        for paper in result.papers:
            enrich(paper)
            by_id[paper.paper_id] = merge(by_id.get(paper.paper_id), paper)
    merged.papers = list(by_id.values())
    return merged, len(files)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # parse_file reports why it cannot be read


def merge(old: Paper | None, new: Paper) -> Paper:
    """The new record, with fields it leaves empty taken from the old record of the same paper."""
    if old is None:
        return new
    return Paper(
        paper_id=new.paper_id,
        title=new.title or old.title,
        authors=new.authors or old.authors,
        area=new.area or old.area,
        url=new.url or old.url,
        abstract=new.abstract or old.abstract,
        source=new.source or old.source,
    )


def ingest(
    paths: Sequence[Path],
    settings: Settings,
    embedder_factory: Callable[[], Embedder] | None = None,
    log: Log = stderr_log,
) -> IngestReport:
    """Ingest files into the index in ``settings.data_dir``; returns counts per outcome."""
    parsed, n_files = parse_sources(paths, log)
    report = IngestReport(rejected=parsed.rejected, skipped=parsed.skipped, files=n_files)
    factory = embedder_factory or (lambda: load_embedder(settings.embed_model))
    with ingest_lock(settings.data_dir):
        index = Index.open(settings, log, writing=True)
        stored = {p.paper.paper_id: p for p in index.store.load_papers()}
        chunk_counts = {pid: len(p.spans) for pid, p in stored.items()}
        orphans = index.store.remove_orphans(chunk_counts)
        if orphans:
            log(f"Removed {orphans} chunks left by an interrupted ingest.")
        checkpoint("started", 0)
        todo: list[tuple[Paper, str, str]] = []  # (paper, hash, added|updated)
        for paper in parsed.papers:
            old = stored.get(paper.paper_id)
            if old is not None and old.paper.abstract == paper.abstract:
                paper = merge(old.paper, paper)  # a source without areas does not erase known ones
            if not paper.title:
                paper.title = readable_label(paper.abstract)
            digest = paper.content_hash()
            if old is not None and old.content_hash == digest:
                report.papers["unchanged"] += 1
                report.chunks["unchanged"] += len(old.spans)
                continue
            todo.append((paper, digest, "added" if old is None else "updated"))
        # The sentence vectors serve only the second ranking stage: with it off (sentence_weight 0,
        # the default) ingest neither reads nor writes the sentence file and embeds no sentences,
        # which nearly triple its encoding (300 papers: chunks 162 s, sentences 307 s; bench/FUSION.md).
        with_sentences = settings.sentence_weight > 0
        sentence_path = settings.data_dir / sentence_vectors.FILE
        known = (
            _known_sentences(sentence_path, index.store.get_meta().get("embedding_model", ""), log)
            if with_sentences
            else sentence_vectors.empty("")  # never saved: with the stage off nothing is added to it
        )
        current = {pid: p.content_hash for pid, p in stored.items()} | {p.paper_id: d for p, d, _ in todo}
        changing = {p.paper_id for p, _, _ in todo}
        lacking = [
            p
            for pid, p in sorted(stored.items())
            if with_sentences and pid not in changing and known.for_paper(pid, p.content_hash) is None
        ]
        new_sentences: dict[str, tuple[str, np.ndarray]] | None = {} if with_sentences else None
        embedder: Embedder | None = None
        try:
            if todo or lacking:
                embedder = factory()
                _check_model(index, embedder)
                # Recorded before the first vector is written: an ingest killed after its first batch
                # still leaves the model on record, so the next one with another model is refused.
                index.store.set_meta(stamp=False, embedding_model=embedder.name)
                if todo:
                    _write_papers(todo, settings, index, embedder, chunk_counts, report, new_sentences, log)
                    index.store.set_meta(embedding_model=embedder.name)
                if lacking and new_sentences is not None:
                    log(f"  sentence vectors missing for {len(lacking):,} stored papers: embedding their sentences")
                    _embed_sentences(lacking, embedder, new_sentences, report, log)
        finally:
            # Whatever was embedded is kept, even when a later batch failed: the next ingest embeds
            # only the sentences still missing.
            if new_sentences and embedder is not None:
                merged = replace(known.merged(new_sentences, current), model=embedder.name)
                _save_sentences(merged, sentence_path, log)
        # Also after an ingest that changed nothing: a backlog an earlier one left is saved too.
        index.store.persist_vectors()
        index.refresh(log=lambda _msg: None)
    return report


def _write_papers(
    todo: list[tuple[Paper, str, str]],
    settings: Settings,
    index: Index,
    embedder: Embedder,
    chunk_counts: dict[str, int],
    report: IngestReport,
    new_sentences: dict[str, tuple[str, np.ndarray]] | None,
    log: Log,
) -> None:
    """Chunk, embed and commit the new and changed papers batch by batch, and embed their
    sentences into ``new_sentences`` unless it is None (the second stage is off)."""
    chunked = [
        (paper, digest, outcome, chunk_abstract(paper.paper_id, paper.abstract)) for paper, digest, outcome in todo
    ]
    log(
        f"  {len(todo):,} papers ({sum(len(c) for *_, c in chunked):,} chunks) to embed, "
        f"{report.papers['unchanged']:,} unchanged, {len(report.rejected):,} rejected"
    )
    if not settings.chroma_url:
        _check_space(settings.data_dir, sum(len(c) for *_, c in chunked))
    for batch_no, start in enumerate(range(0, len(chunked), BATCH_PAPERS), 1):
        items = []
        for paper, digest, outcome, chunks in chunked[start : start + BATCH_PAPERS]:
            items.append((paper, digest, chunks))
            report.papers[outcome] += 1
            report.chunks[outcome] += len(chunks)
        texts = [embedding_text(p.title, c.text) for p, _, cs in items for c in cs]
        sentences = [paper_sentences(p) for p, _, _ in items] if new_sentences is not None else []
        # Chunks and sentences in one call: the encoder sorts one list by length and pads less.
        vectors = embedder.embed(texts + [t for own in sentences for t in own])
        written, offset = [], 0
        for paper, digest, chunks in items:
            written.append((paper, digest, chunks, vectors[offset : offset + len(chunks)]))
            offset += len(chunks)
        for (paper, digest, _), own in zip(items, sentences):
            if new_sentences is not None:
                new_sentences[paper.paper_id] = (digest, vectors[offset : offset + len(own)])
            offset += len(own)
            report.sentences += len(own)
        batch_ids = [paper.paper_id for paper, *_ in items]
        checkpoint("embedded", batch_no, batch_ids)
        index.store.write(
            written,
            chunk_counts,
            between=partial(checkpoint, "chunks-written", batch_no, batch_ids),
        )
        checkpoint("committed", batch_no, batch_ids)
        log(f"  embedded {min(start + BATCH_PAPERS, len(todo))}/{len(todo)} papers")


def _embed_sentences(
    papers: list[StoredPaper],
    embedder: Embedder,
    new_sentences: dict[str, tuple[str, np.ndarray]],
    report: IngestReport,
    log: Log,
) -> None:
    """Sentence vectors for stored papers that have none (an index from before they existed, or a
    lost or damaged sentence file)."""
    for start in range(0, len(papers), BATCH_PAPERS):
        batch = papers[start : start + BATCH_PAPERS]
        sentences = [paper_sentences(p.paper) for p in batch]
        vectors = embedder.embed([t for own in sentences for t in own])
        offset = 0
        for stored, own in zip(batch, sentences):
            new_sentences[stored.paper.paper_id] = (stored.content_hash, vectors[offset : offset + len(own)])
            offset += len(own)
            report.sentences += len(own)
        log(f"  embedded the sentences of {min(start + BATCH_PAPERS, len(papers))}/{len(papers)} papers")


def _known_sentences(path: Path, model: str, log: Log) -> sentence_vectors.SentenceVectors:
    """The sentence vectors already on disk, or an empty store when they are missing, damaged
    or of another model (every stored paper's sentences are then embedded again)."""
    try:
        known = sentence_vectors.load(path)
    except sentence_vectors.SentenceStoreError as exc:
        if path.exists():
            log(f"Rebuilding the sentence vectors: {exc}.")
        return sentence_vectors.empty(model)
    return known if known.model == model else sentence_vectors.empty(model)


def _save_sentences(store: sentence_vectors.SentenceVectors, path: Path, log: Log) -> None:
    try:
        sentence_vectors.save(store, path)
    except OSError as exc:
        log(
            f"Could not save the sentence vectors to {path} ({exc.strerror or exc}); the next ingest embeds them again."
        )


def _check_space(data_dir: Path, n_chunks: int) -> None:
    """Refuse, before writing anything, an ingest the disk has no room for."""
    need, free = required_space(n_chunks), shutil.disk_usage(data_dir).free
    if free < need:
        raise StoreError(
            f"not enough free disk space in {data_dir} for {n_chunks:,} new chunks: about "
            f"{need / 2**20:,.0f} MiB needed, {free / 2**20:,.0f} MiB free; nothing was written and "
            "the index is unchanged"
        )


def _check_model(index: Index, embedder: Embedder) -> None:
    """Refuse to mix vectors of two models in one index."""
    current = index.store.get_meta().get("embedding_model")
    if current and current != embedder.name:
        raise StoreError(
            f"the index was built with the embedding model '{current}', not '{embedder.name}'; "
            "use a new --data-dir for another model"
        )
    if not current:  # an index whose first ingest was interrupted before the model was recorded
        dimension = index.store.vector_dimension()
        if dimension is not None and dimension != embedder.dimension:
            raise StoreError(
                f"the index holds vectors of {dimension} dimensions from another embedding model, not "
                f"'{embedder.name}' ({embedder.dimension}); use a new --data-dir for another model"
            )

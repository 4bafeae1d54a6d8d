"""The two indexes together: Chroma (truth) and the BM25 snapshot derived from it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant import lexical, sentence_vectors
from assistant.config import Settings
from assistant.lexical import LexicalIndex
from assistant.store import ChromaStore, StoredPaper

Log = Callable[[str], None]
NO_PAPERS = "no papers are indexed yet; run `assistant ingest`"


def missing_index(settings: Settings) -> str | None:
    """Why there is no index to read at ``settings.data_dir`` (a mistyped --data-dir, or nothing
    ingested yet), or None; checked before opening, which would create an empty one there."""
    if settings.chroma_url or (settings.data_dir / "chroma" / "chroma.sqlite3").is_file():
        return None
    return f"{NO_PAPERS} (there is no index in {settings.data_dir}; is --data-dir right?)"


def stderr_log(message: str) -> None:
    """Default logger: one line on standard error."""
    print(message, file=sys.stderr, flush=True)


@dataclass
class Index:
    """An opened index: the Chroma store, a lexical index that matches it, and the sentence
    vectors of the second ranking stage (None when missing or damaged: search then keeps the
    first stage's order)."""

    store: ChromaStore
    lexical: lexical.LexicalIndex
    lexical_root: Path
    sentences_path: Path
    rescoring: bool = False  # the settings ask for the second stage: a missing store is worth a log line
    sentences: sentence_vectors.SentenceVectors | None = None
    sentences_problem: str = ""
    _sentences_stamp: tuple[int, int] | str | None = "unread"
    marker: tuple[int, str] = (-1, "")  # the store's change marker when the lexical index last matched it

    @classmethod
    def open(cls, settings: Settings, log: Log = stderr_log, writing: bool = False) -> Index:
        """Open Chroma, then load the lexical index, rebuilding it when missing, damaged or stale,
        and the sentence vectors.

        ``writing`` (ingest) refuses an index on a read-only disk instead of searching a copy.
        """
        store = ChromaStore(settings.data_dir, settings.chroma_url, writing=writing, log=log)
        root = settings.data_dir / "lexical"
        index = cls(store, _empty(), root, settings.data_dir / sentence_vectors.FILE, settings.sentence_weight > 0)
        index.refresh(log)
        return index

    def snapshot(self) -> LexicalIndex:
        """The current lexical snapshot: its papers and BM25 scores belong together, even if a
        refresh swaps in a newer one meanwhile."""
        return self.lexical

    def papers(self) -> list[StoredPaper]:
        """The papers committed in the current lexical snapshot."""
        return self.lexical.papers

    def nearest_chunks(
        self, vector: np.ndarray, n: int, paper_ids: Sequence[str] | None = None
    ) -> list[tuple[str, str, float]]:
        """The ``n`` chunks nearest ``vector`` (optionally of ``paper_ids`` only): (chunk id, paper id, cosine)."""
        return self.store.query(vector, n, paper_ids)

    def sentence_store(self) -> sentence_vectors.SentenceVectors | None:
        """The sentence vectors of the second stage, or None when they cannot be used."""
        return self.sentences

    def load_sentences(self, log: Log = stderr_log) -> None:
        """(Re)read the sentence vectors; when they cannot be used, say so once (only when the
        settings ask for the second stage) and search without them."""
        self._sentences_stamp = sentence_vectors.stamp(self.sentences_path)
        try:
            self.sentences, self.sentences_problem = sentence_vectors.load(self.sentences_path), ""
        except sentence_vectors.SentenceStoreError as exc:
            self.sentences, self.sentences_problem = None, str(exc)
            if self.rescoring and self.lexical.papers:
                log(f"Searching without the sentence rescoring: {exc}; run `assistant ingest` to rebuild them.")

    def refresh(self, log: Log = stderr_log) -> bool:
        """Bring the lexical index in line with Chroma, and reread sentence vectors an ingest
        rewrote; True when the lexical index had to change.

        The chat calls this every 30 s. Comparing every paper's hash took 0.3 s at 2,600 papers and
        grows with them, so the lexical part runs only when the store's change marker moved (or on
        the first call); the sentence file is checked by its own stamp (one stat), since it is
        written after the store's last change.
        """
        changed = self._refresh_lexical(log)
        if self._sentences_stamp != sentence_vectors.stamp(self.sentences_path):
            self.load_sentences(log)
        return changed

    def _refresh_lexical(self, log: Log) -> bool:
        """Match the lexical index to Chroma when the store's change marker moved."""
        marker = self.store.change_marker()  # read first: a write during the check moves it again
        if self.lexical.fingerprint and marker == self.marker:
            return False
        changed = self._match(log)
        self.marker = marker
        return changed

    def _match(self, log: Log) -> bool:
        """Compare every paper's hash with the lexical index; load or rebuild it when they differ."""
        current = lexical.fingerprint(self.store.paper_hashes())
        if self.lexical.fingerprint == current:
            return False
        if self.lexical.fingerprint:  # papers changed since this process opened the index
            self.store.reopen()
        try:
            loaded = lexical.load(self.lexical_root)
            if loaded.fingerprint == current:
                self.lexical = loaded
                return True
            reason = "out of date with the dense index"
        except lexical.LexicalIndexError as exc:
            reason = str(exc)
        if current != lexical.fingerprint({}):
            log(f"Rebuilding the lexical index from Chroma: {reason}.")
        self.rebuild_lexical()
        return True

    def rebuild_lexical(self) -> None:
        """Rebuild BM25 from the papers committed in Chroma and save it."""
        built = lexical.build(self.store.load_papers())
        try:
            lexical.save(built, self.lexical_root)
        except OSError:
            pass  # a read-only data dir still serves searches from memory
        self.lexical = built

    def status(self) -> dict[str, Any]:
        """What the index holds, for `assistant status`."""
        dense = self.store.counts()
        meta = self.store.get_meta()
        lex = {"papers": len(self.lexical.papers), "chunks": self.lexical.n_chunks}
        sentences = (
            {"papers": self.sentences.n_papers, "sentences": len(self.sentences.vectors)}
            if self.sentences is not None
            else {"problem": self.sentences_problem if self.rescoring else "none (the second stage is off)"}
        )
        return {
            "dense": dense,
            "lexical": lex,
            "consistent": dense == lex,
            "sentence_vectors": sentences,
            "embedding_model": meta.get("embedding_model", ""),
            "store": self.store.location,
            "lexical_built_at": self.lexical.built_at,
            "last_ingest": meta.get("last_ingest", ""),
        }


def _empty() -> lexical.LexicalIndex:
    return lexical.LexicalIndex([], "", "", None)

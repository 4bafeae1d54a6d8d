"""Hybrid search: dense chunks (MiniLM in Chroma) and BM25 papers, fused by weighted reciprocal
rank (``rrf``) or by a weighted sum of normalised scores (``minmax``, ``zscore``).

One hit per paper. A dense hit counts at its best chunk; the hit's passage is that chunk, or
for papers found only lexically the chunk sharing most query words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assistant.config import Settings
from assistant.corpus import OfPaper, Paper
from assistant.embedding import Embedder
from assistant.errors import AssistantError
from assistant.index import Index
from assistant.store import StoredPaper
from assistant.text import fold, tokenize

DENSE_POOL = 100  # chunks fetched from Chroma per query
LEXICAL_POOL = 100  # papers taken from BM25 per query
FUSIONS = ("rrf", "minmax", "zscore")


class QueryError(AssistantError, ValueError):
    """The query cannot be searched (empty, or nothing but whitespace)."""


@dataclass(kw_only=True)
class Hit(OfPaper):
    """One paper found for a query: the paper, its matched passage and its scores."""

    rank: int
    paper: Paper
    text: str  # the matched passage
    score: float  # fused score (higher is better)
    dense_score: float  # best chunk cosine similarity (0 when the paper had no dense hit)
    lexical_score: float  # BM25 score of the paper
    start: int  # passage offsets into the abstract
    end: int

    @classmethod
    def whole(cls, rank: int, paper: Paper) -> Hit:
        """A hit whose passage is the whole abstract, with no search scores (a paper asked for by id)."""
        return cls(
            rank=rank,
            paper=paper,
            text=paper.abstract,
            score=0.0,
            dense_score=0.0,
            lexical_score=0.0,
            start=0,
            end=len(paper.abstract),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the shape ``search --json`` prints)."""
        return {
            "rank": self.rank,
            **self.paper.header(),
            "text": self.text,
            "abstract": self.paper.abstract,
            "score": round(float(self.score), 6),
            "dense_score": round(float(self.dense_score), 6),
            "lexical_score": round(float(self.lexical_score), 6),
            "start": self.start,
            "end": self.end,
        }


def normalise_query(query: str, max_chars: int) -> tuple[str, str]:
    """Strip and bound a query; returns (query, notice). Raises QueryError when empty."""
    text = " ".join((query or "").split())
    if not text:
        raise QueryError("the query is empty: type a question or some keywords")
    if len(text) > max_chars:
        cut = text[:max_chars].rsplit(" ", 1)[0] or text[:max_chars]
        return cut, f"the query was {len(text):,} characters; only the first {len(cut):,} were used"
    return text, ""


def matches_filters(paper: StoredPaper, author: str | None, area: str | None) -> bool:
    """Author and area filters: case- and accent-insensitive substring matches; the author filter
    must start at a word, so "Yang Zhang" keeps to its own papers, not Xiaoyang Zhang's (typing the
    start of a name, "hard", still finds Hardt)."""
    if author:
        starts_word = re.compile(r"(?<!\w)" + re.escape(fold(author.strip())))
        if not any(starts_word.search(fold(a)) for a in paper.paper.authors):
            return False
    return not area or fold(area) in fold(paper.paper.area)


class Retriever:
    """Searches an opened Index; the embedder is loaded on first use."""

    def __init__(self, index: Index, embedder_factory: Callable[[], Embedder], settings: Settings) -> None:
        self.index = index
        self._embedder_factory = embedder_factory
        self._embedder: Embedder | None = None
        self.settings = settings

    @property
    def embedder(self) -> Embedder:
        """The query embedder (loaded lazily: importing it costs seconds)."""
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def closeness(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosine of ``query`` with each of ``texts`` (an abstract's sentences)."""
        return closeness(self.embedder, query, texts)

    def papers(self) -> list[StoredPaper]:
        """The papers of the current index snapshot."""
        return self.index.papers()

    def refresh(self) -> bool:
        """Catch up with papers another process ingested; True when the index changed."""
        return self.index.refresh()

    def status(self) -> dict[str, Any]:
        """What the searched index holds (papers and chunks on each side, models, times)."""
        return self.index.status()

    def hits_for(self, paper_ids: Sequence[str]) -> list[Hit]:
        """Whole-abstract hits for the given papers, in the given order; unknown ids are left out."""
        by_id = {p.paper.paper_id: p.paper for p in self.papers()}
        return [Hit.whole(rank, by_id[pid]) for rank, pid in enumerate((pid for pid in paper_ids if pid in by_id), 1)]

    def search(self, query: str, k: int | None = None, author: str | None = None, area: str | None = None) -> list[Hit]:
        """Best ``k`` papers for ``query`` with optional author/area filters, best first."""
        query, _ = normalise_query(query, self.settings.max_query_chars)
        k = k or self.settings.top_k
        lexical = self.index.snapshot()  # one snapshot for the whole query
        papers = lexical.papers
        if not papers:
            return []
        position = {p.paper.paper_id: i for i, p in enumerate(papers)}
        allowed: np.ndarray | None = None
        if author or area:
            allowed = np.array([matches_filters(p, author, area) for p in papers])
            if not allowed.any():
                return []

        # Dense: best chunk per paper, only chunks of papers committed in the snapshot.
        vector = self.embedder.embed([query])[0]
        ids = [papers[i].paper.paper_id for i in np.flatnonzero(allowed)] if allowed is not None else None
        dense_best: dict[int, tuple[float, int]] = {}
        for chunk_id, pid, sim in self.index.nearest_chunks(vector, DENSE_POOL, ids):
            i = position.get(pid)
            chunk_no = int(chunk_id.rsplit("::", 1)[1])
            if i is None or chunk_no >= len(papers[i].spans):
                continue  # half-written or stale chunk
            if i not in dense_best or sim > dense_best[i][0]:
                dense_best[i] = (sim, chunk_no)
        dense_order = sorted(dense_best, key=lambda i: -dense_best[i][0])

        # Lexical: BM25 over whole papers.
        bm25 = lexical.scores(query)
        if allowed is not None:
            bm25 = np.where(allowed, bm25, 0.0)
        top = np.argsort(-bm25, kind="stable")[:LEXICAL_POOL]
        lexical_order = [int(i) for i in top if bm25[i] > 0]

        if self.settings.fusion == "rrf":
            fused = self._fuse(dense_order, lexical_order)
        else:
            dense = {i: sim for i, (sim, _) in dense_best.items()}
            fused = score_fusion(
                dense,
                bm25,
                lexical_order,
                self.settings.dense_weight,
                self.settings.lexical_weight,
                self.settings.fusion,
            )
        best = sorted(fused, key=lambda i: -fused[i])[:k]
        terms = set(tokenize(query))
        hits = []
        for rank, i in enumerate(best, 1):
            stored = papers[i]
            chunk_no = dense_best[i][1] if i in dense_best else _best_lexical_chunk(stored, terms)
            start, end = stored.spans[chunk_no] if stored.spans else (0, len(stored.paper.abstract))
            hits.append(
                Hit(
                    rank=rank,
                    paper=stored.paper,
                    text=stored.paper.abstract[start:end],
                    score=fused[i],
                    dense_score=dense_best.get(i, (0.0, 0))[0],
                    lexical_score=float(bm25[i]),
                    start=start,
                    end=end,
                )
            )
        return hits

    def _fuse(self, dense_order: list[int], lexical_order: list[int]) -> dict[int, float]:
        """Weighted reciprocal-rank fusion of the two rankings."""
        k = self.settings.rrf_k
        fused: dict[int, float] = {}
        for weight, order in ((self.settings.dense_weight, dense_order), (self.settings.lexical_weight, lexical_order)):
            for rank, i in enumerate(order, 1):
                fused[i] = fused.get(i, 0.0) + weight / (k + rank)
        return fused


def closeness(embedder: Embedder, query: str, texts: Sequence[str]) -> list[float]:
    """Cosine of ``query`` with each of ``texts`` in ``embedder``'s space: what a question means,
    where its words and an abstract's differ."""
    if not texts:
        return []
    vectors = np.asarray(embedder.embed([query, *texts]), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return [float(v) for v in vectors[1:] @ vectors[0]]


def _normalise(values: np.ndarray, how: str) -> np.ndarray:
    """Scores on one scale: min-max to [0, 1], or z-scores (0 spread maps to zeros)."""
    if how == "minmax":
        span = values.max() - values.min()
        return (values - values.min()) / span if span > 0 else np.zeros_like(values)
    spread = values.std()
    return (values - values.mean()) / spread if spread > 0 else np.zeros_like(values)


def score_fusion(
    dense: dict[int, float],
    bm25: np.ndarray,
    lexical_order: list[int],
    dense_weight: float,
    lexical_weight: float,
    how: str,
) -> dict[int, float]:
    """Weighted sum of normalised dense and BM25 scores over the union of both pools.

    Unlike RRF this keeps how far apart the scores are: a paper far ahead on BM25 (an exact
    method name) is not pulled level with one that is merely ranked next by the dense side.
    A paper outside the dense pool gets the pool's lowest similarity, an upper bound of its own.
    """
    candidates = list(dict.fromkeys([*dense, *lexical_order]))
    if not candidates:
        return {}
    floor = min(dense.values()) if dense else 0.0
    d = _normalise(np.array([dense.get(i, floor) for i in candidates], dtype=float), how)
    lex = _normalise(np.array([bm25[i] for i in candidates], dtype=float), how)
    total = dense_weight * d + lexical_weight * lex
    return {i: float(v) for i, v in zip(candidates, total)}


def _best_lexical_chunk(stored: StoredPaper, terms: set[str]) -> int:
    best, best_overlap = 0, -1
    for n, (start, end) in enumerate(stored.spans):
        overlap = len(terms & set(tokenize(stored.paper.abstract[start:end])))
        if overlap > best_overlap:
            best, best_overlap = n, overlap
    return best

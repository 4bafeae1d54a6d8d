"""Hybrid search: dense chunks (MiniLM in Chroma) and BM25 papers, fused by weighted reciprocal
rank (``rrf``) or by a weighted sum of normalised scores (``minmax``, ``zscore``); then, when
``sentence_weight`` is above 0, a second stage reorders the best ``RESCORE_POOL`` papers by how
close the query is to their best sentences (embedded at ingest, the title as one of them).

One hit per paper. A dense hit counts at its best chunk; the hit's passage is that chunk, or
for papers found only lexically the chunk sharing most query words.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assistant.config import Settings
from assistant.corpus import OfPaper, Paper
from assistant.embedding import Embedder
from assistant.errors import AssistantError
from assistant.index import Index
from assistant.lexical import LexicalIndex
from assistant.sentence_vectors import SentenceVectors
from assistant.store import StoredPaper
from assistant.text import tokenize

DENSE_POOL = 100  # chunks fetched from Chroma per query
# A filtered Chroma query costs in proportion to the chunks the filter lets through (measured on
# 20k chunks, 2 busy cores: 22 ms for 556 papers' ids, 167 ms for 2,000, 201 ms for 5,000), and an
# unfiltered one in proportion to the chunks it returns (33 ms for 1,000, 110 ms for 3,000). So a
# broad filter (an area in a large index) asks for DENSE_POOL / share chunks unfiltered, at most
# WIDE_POOL, and drops the rest, about DENSE_POOL of them kept (dense_request).
WIDE_POOL = 2000
LEXICAL_POOL = 100  # papers taken from BM25 per query
RESCORE_POOL = 50  # papers of the first stage the second stage reorders
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

    def papers(self) -> list[StoredPaper]:
        """The papers of the current index snapshot."""
        return self.index.papers()

    def refresh(self) -> bool:
        """Catch up with papers another process ingested; True when the index changed."""
        return self.index.refresh()

    def status(self) -> dict[str, Any]:
        """What the searched index holds (papers and chunks on each side, models, times)."""
        return self.index.status()

    def filtered(self, author: str | None, area: str | None) -> list[StoredPaper]:
        """The papers of the snapshot that pass the author and area filters, in snapshot order."""
        lexical = self.index.snapshot()
        allowed = lexical.filters.allowed(author, area)
        return list(lexical.papers) if allowed is None else [lexical.papers[i] for i in np.flatnonzero(allowed)]

    def hits_for(self, paper_ids: Sequence[str]) -> list[Hit]:
        """Whole-abstract hits for the given papers, in the given order; unknown ids are left out."""
        lexical = self.index.snapshot()
        return [
            Hit.whole(rank, lexical.papers[lexical.positions[pid]].paper)
            for rank, pid in enumerate((pid for pid in paper_ids if pid in lexical.positions), 1)
        ]

    def search(self, query: str, k: int | None = None, author: str | None = None, area: str | None = None) -> list[Hit]:
        """Best ``k`` papers for ``query`` with optional author/area filters, best first."""
        query, _ = normalise_query(query, self.settings.max_query_chars)
        k = k or self.settings.top_k
        lexical = self.index.snapshot()  # one snapshot for the whole query
        papers = lexical.papers
        if not papers:
            return []
        position = lexical.positions
        allowed = lexical.filters.allowed(author, area)
        if allowed is not None and not allowed.any():
            return []

        # Dense: best chunk per paper, only chunks of papers committed in the snapshot.
        vector = self.embedder.embed([query])[0]
        pool, ids = dense_request(allowed, lexical)
        dense_best: dict[int, tuple[float, int]] = {}
        for chunk_id, pid, sim in self.index.nearest_chunks(vector, pool, ids):
            i = position.get(pid)
            chunk_no = int(chunk_id.rsplit("::", 1)[1])
            if i is None or chunk_no >= len(papers[i].spans):
                continue  # half-written or stale chunk
            if allowed is not None and not allowed[i]:
                continue  # a wide unfiltered pool holds papers the filter leaves out
            if i not in dense_best or sim > dense_best[i][0]:
                dense_best[i] = (sim, chunk_no)
        dense_order = sorted(dense_best, key=lambda i: -dense_best[i][0])

        # Lexical: BM25 over whole papers.
        bm25 = lexical.scores(query)
        if allowed is not None:
            bm25 = np.where(allowed, bm25, 0.0)
        lexical_order = [int(i) for i in top_scores(bm25, LEXICAL_POOL) if bm25[i] > 0]

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
        sentences = self.index.sentence_store() if self.settings.sentence_weight > 0 else None
        if sentences is not None:
            similarity = sentence_similarity(
                sentences, papers, _top(fused, RESCORE_POOL), vector, self.settings.sentence_pooling
            )
            fused = rescore(fused, similarity, self.settings.sentence_weight)
        best = _top(fused, k)
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


def dense_request(allowed: np.ndarray | None, lexical: LexicalIndex) -> tuple[int, list[str] | None]:
    """How many chunks to ask Chroma for, and the paper ids to restrict them to (None: no restriction).

    A filtered query costs in proportion to the chunks the filter keeps, an unfiltered one to the
    chunks it returns: the wide unfiltered pool is taken when it returns fewer chunks than the
    filter keeps (an area at 26k papers: 1,800 against 2,000), never at the catalogue's size.
    """
    if allowed is None:
        return DENSE_POOL, None
    kept = int(lexical.chunk_counts[allowed].sum())
    total = int(lexical.chunk_counts.sum())
    pool = math.ceil(DENSE_POOL * total / kept) if kept else total
    if pool <= WIDE_POOL and pool < kept:
        return pool, None
    return DENSE_POOL, [lexical.papers[i].paper.paper_id for i in np.flatnonzero(allowed)]


def top_scores(scores: np.ndarray, n: int) -> np.ndarray:
    """Positions of the ``n`` highest scores, best first, ties in position order (as a stable sort
    of all scores gives them). Sorts only the n best: a full sort took 20 ms at 260k papers."""
    if len(scores) <= n:
        return np.argsort(-scores, kind="stable")
    threshold = np.partition(scores, len(scores) - n)[len(scores) - n]
    ahead = np.flatnonzero(scores > threshold)
    tied = np.flatnonzero(scores == threshold)[: n - len(ahead)]
    chosen = np.concatenate([ahead, tied])
    return chosen[np.argsort(-scores[chosen], kind="stable")]


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


def _top(scores: dict[int, float], n: int) -> list[int]:
    return sorted(scores, key=lambda i: -scores[i])[:n]


def sentence_similarity(
    store: SentenceVectors, papers: Sequence[StoredPaper], candidates: list[int], vector: np.ndarray, pooling: str
) -> dict[int, float]:
    """Each candidate's sentence score: the query's cosine with its best sentence (``max``) or the
    mean of its best two (``top2``). Papers without vectors for their current text are left out."""
    found = [
        (i, v)
        for i in candidates
        if (v := store.for_paper(papers[i].paper.paper_id, papers[i].content_hash)) is not None
    ]
    found = [(i, v) for i, v in found if len(v)]
    if not found:
        return {}
    # One product for all candidates: about 500 sentences of 384 dimensions, well under a millisecond.
    sims = np.concatenate([v for _, v in found]).astype(np.float32) @ vector.astype(np.float32)
    out, start = {}, 0
    for i, v in found:
        own = np.sort(sims[start : start + len(v)])[::-1]
        start += len(v)
        out[i] = float(own[0] if pooling == "max" else own[:2].mean())
    return out


def rescore(first: dict[int, float], similarity: dict[int, float], weight: float) -> dict[int, float]:
    """The second stage: the first ``RESCORE_POOL`` papers by ``(1 - weight) * z(first-stage score)
    + weight * z(sentence score)``, z-scores taken over those papers; the rest keep their order below.

    A candidate without sentence vectors gets the lowest sentence score of the others; with fewer
    than two candidates scored there is nothing to compare, and the first stage stands.
    """
    order = _top(first, len(first))
    pool, rest = order[:RESCORE_POOL], order[RESCORE_POOL:]
    if sum(i in similarity for i in pool) < 2:
        return first
    floor = min(similarity[i] for i in pool if i in similarity)
    a = _normalise(np.array([first[i] for i in pool], dtype=float), "zscore")
    b = _normalise(np.array([similarity.get(i, floor) for i in pool], dtype=float), "zscore")
    out = {i: float(v) for i, v in zip(pool, (1.0 - weight) * a + weight * b)}
    low = min(out.values())
    out.update({i: low - n for n, i in enumerate(rest, 1)})  # below every reordered paper, in their old order
    return out


def _best_lexical_chunk(stored: StoredPaper, terms: set[str]) -> int:
    best, best_overlap = 0, -1
    for n, (start, end) in enumerate(stored.spans):
        overlap = len(terms & set(tokenize(stored.paper.abstract[start:end])))
        if overlap > best_overlap:
            best, best_overlap = n, overlap
    return best

"""Fusion grid over the eval questions, over the catalogue index, on the tuning and held-out parts.

    PYTHONPATH=. python bench/tune_fusion.py      (after `ASSISTANT_SENTENCE_WEIGHT=0.1 assistant eval --retrieval`
                                                  has built data/eval/* with the sentence vectors)

Rows: BM25 alone, dense alone, RRF (weights 1:1, k=60), and weighted sums of min-max and z-score
normalised scores for a range of dense shares; then the second stage (the first stage's best 50
reordered by the query's cosine with each paper's best sentence, or the mean of its best two) on
top of RRF and of the z-score row that did best on the tuning part, for a range of sentence
weights. Questions are routed as answering routes them. The setting is chosen on the tuning part
only (best MRR, then hit@5); the held-out part is printed beside it and never used to choose.
Last, search p50 over the catalogue for the first stages and the best second stage, with the
query encoder the app uses and no caching.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.config import Settings  # noqa: E402
from assistant.embedding import Embedder, load_embedder, load_query_embedder  # noqa: E402
from assistant.evaluation import SPLITS, load_questions, search_query, split_metrics  # noqa: E402
from assistant.index import Index  # noqa: E402
from assistant.retrieval import Retriever  # noqa: E402

DENSE_SHARES = (0.2, 0.3, 0.4, 0.5, 0.6)
SENTENCE_WEIGHTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.7)
KINDS = ("paraphrase", "keyword", "method", "author", "two_papers", "number", "followup", "area")


class CachedEmbedder:
    """Embeds each distinct query once across the grid."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dimension = inner, inner.name, inner.dimension
        self._one = lru_cache(maxsize=None)(lambda text: inner.embed([text])[0])

    def embed(self, texts: list[str]) -> np.ndarray:
        """One vector per text, from the cache when seen before."""
        return np.stack([self._one(t) for t in texts])


def cache_queries(index: Index) -> None:
    """Chroma and BM25 answer each distinct query once: the grid reruns the same queries."""
    store_query, lexical_scores = index.store.query, index.lexical.scores
    seen: dict[Any, Any] = {}

    def query(vector: np.ndarray, n: int, ids: Any = None) -> Any:
        key = ("d", vector.tobytes(), n, tuple(ids) if ids is not None else None)
        if key not in seen:
            seen[key] = store_query(vector, n, ids)
        return seen[key]

    def scores(text: str) -> np.ndarray:
        if ("l", text) not in seen:
            seen[("l", text)] = lexical_scores(text)
        return seen[("l", text)]

    index.store.query, index.lexical.scores = query, scores  # type: ignore[method-assign]


def grid() -> list[tuple[str, dict[str, Any]]]:
    """(label, setting overrides) for each row."""
    rows = [("bm25 alone", dict(fusion="rrf", dense_weight=0.0, lexical_weight=1.0)),
            ("dense alone", dict(fusion="rrf", dense_weight=1.0, lexical_weight=0.0)),
            ("rrf 1:1 k=60", dict(fusion="rrf", dense_weight=1.0, lexical_weight=1.0, rrf_k=60))]
    for how in ("minmax", "zscore"):
        rows += [(f"{how} w={w:.1f}", dict(fusion=how, dense_weight=w, lexical_weight=1.0 - w)) for w in DENSE_SHARES]
    return rows


def second_stage(first: str, first_overrides: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(label, overrides) of the second stage on top of one first stage."""
    return [
        (f"{first}+sent {pooling} {w:.1f}", {**first_overrides, "sentence_weight": w, "sentence_pooling": pooling})
        for pooling in ("max", "top2")
        for w in SENTENCE_WEIGHTS
    ]


def line(label: str, m: dict[str, dict[str, float]]) -> str:
    """One row: overall hit@1 / hit@5 / MRR, then hit@5 per kind."""
    a = m["all"]
    kinds = " ".join(f"{k[:5]} {m[k]['hit@5']:.2f}" for k in KINDS if k in m)
    auth = m.get("author", {}).get("all_gold@10", 0.0)
    return f"  {label:<21} {a['hit@1']:.3f} {a['hit@5']:.3f} {a['mrr']:.3f}  authors-complete {auth:.2f} | {kinds}"


def tuned(row: tuple[str, dict[str, Any], dict[str, Any]]) -> tuple[float, float]:
    """What a row is chosen by: MRR, then hit@5, on the tuning part only."""
    return row[2]["tune"]["all"]["mrr"], row[2]["tune"]["all"]["hit@5"]


def main() -> None:
    base = Settings.from_env()
    settings = replace(base, data_dir=base.data_dir / "eval" / "catalogue")
    embedder = CachedEmbedder(load_embedder(base.embed_model))
    index = Index.open(settings)
    if index.sentences is None:
        sys.exit(f"no sentence vectors ({index.sentences_problem}); run `ASSISTANT_SENTENCE_WEIGHT=0.1 assistant eval --retrieval` to add them")
    cache_queries(index)
    questions = load_questions()
    results: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    def measure(rows: list[tuple[str, dict[str, Any]]]) -> None:
        for label, overrides in rows:
            m = split_metrics(questions, Retriever(index, lambda: embedder, replace(settings, **overrides)), index="catalogue")
            results.append((label, overrides, m))
            print(f"{label}: tune {m['tune']['all']['mrr']:.3f}  heldout {m['heldout']['all']['mrr']:.3f}", file=sys.stderr, flush=True)

    measure(grid())
    best_z = max((r for r in results if r[0].startswith("zscore")), key=tuned)
    measure(second_stage("rrf", results[2][1]) + second_stage(f"z{best_z[0][-3:]}", best_z[1]))
    for split in SPLITS:
        n = int(results[0][2][split]["all"]["n"])
        print(f"{split} part (n={n}): setting -> hit@1 hit@5 mrr, author completeness, hit@5 per kind")
        for label, _, m in results:
            print(line(label, m[split]))
    best = max(results[2:], key=tuned)
    best_second = max((r for r in results if "+sent" in r[0]), key=tuned)
    print(f"chosen on the tuning part: {best[0]}")
    print(verdict(best[0], best[2]["heldout"], results[0][2]["heldout"]))
    if best_second is not best:
        print(verdict(best_second[0], best_second[2]["heldout"], results[0][2]["heldout"]))
    print(latency(settings, questions, [results[2], best_z, best_second]))


def latency(settings: Settings, questions: list[dict[str, Any]], rows: list[tuple[str, dict[str, Any], Any]]) -> str:
    """Search p50 / p95 over the catalogue, one plain search per question for each row's setting,
    the settings taking turns query by query so that a busy machine slows them alike; wall time,
    and the process's CPU time (what the search costs, without the wait for a core)."""
    index = Index.open(settings)  # a fresh one: the grid's index answers from a cache
    query_embedder = load_query_embedder(settings.embed_model)
    searchers = [(r[0], Retriever(index, lambda: query_embedder, replace(settings, **r[1]))) for r in rows]
    queries = [search_query(q) for q in questions]
    for _, searcher in searchers:
        searcher.search(queries[0], 10)  # warm
    wall: dict[str, list[float]] = {label: [] for label, _ in searchers}
    cpu: dict[str, list[float]] = {label: [] for label, _ in searchers}
    for n, query in enumerate(queries):
        for label, searcher in searchers[n % len(searchers) :] + searchers[: n % len(searchers)]:
            w, c = time.perf_counter(), time.process_time()
            searcher.search(query, 10)
            wall[label].append((time.perf_counter() - w) * 1000)
            cpu[label].append((time.process_time() - c) * 1000)
    lines = [f"search over the catalogue ({len(index.lexical.papers):,} papers), {len(queries)} queries, the app's "
             f"query encoder, no cache, settings in turn; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:"]
    for label, _ in searchers:
        lines.append(f"  {label:<21} wall p50 {statistics.median(wall[label]):.1f} ms  p95 {pct(wall[label], 95):.1f} ms"
                     f"   CPU p50 {statistics.median(cpu[label]):.1f} ms  p95 {pct(cpu[label], 95):.1f} ms")
    return "\n".join(lines)


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def verdict(label: str, chosen: dict[str, dict[str, float]], bm25: dict[str, dict[str, float]]) -> str:
    """Held-out, per kind: a setting against BM25 alone (hit@5 and MRR), and whether it passes the
    bar a new default must pass: no kind worse, and better overall."""
    lines = [f"held-out part, {label} vs BM25 alone, per kind: hit@5 / MRR"]
    worse_kinds = []
    for kind in [*KINDS, "all"]:
        if kind in chosen:
            c, b = chosen[kind], bm25[kind]
            worse = c["hit@5"] < b["hit@5"] or c["mrr"] < b["mrr"] - 1e-9
            better = c["hit@5"] > b["hit@5"] or c["mrr"] > b["mrr"] + 1e-9
            word = "WORSE" if worse else "better" if better else "equal"
            lines.append(f"  {kind:<11} {c['hit@5']:.3f} / {c['mrr']:.3f}   vs {b['hit@5']:.3f} / {b['mrr']:.3f}   {word}")
            if worse:
                worse_kinds.append(kind)
    if worse_kinds:
        lines.append(f"  passes the bar for a default (no kind worse, better overall): no, worse on {', '.join(worse_kinds)}")
    else:
        overall = chosen["all"]["mrr"] > bm25["all"]["mrr"] + 1e-9 or chosen["all"]["hit@5"] > bm25["all"]["hit@5"]
        lines.append(f"  passes the bar for a default (no kind worse, better overall): {'yes' if overall else 'no'}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

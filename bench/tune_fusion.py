"""Fusion grid over the eval questions, over the catalogue index, on the tuning and held-out parts.

    PYTHONPATH=. python bench/tune_fusion.py      (after `assistant eval --retrieval` has built data/eval/*)

Rows: BM25 alone, dense alone, RRF (weights 1:1, k=60), and weighted sums of min-max and z-score
normalised scores for a range of dense shares. Questions are routed as answering routes them.
The setting is chosen on the tuning part only (best MRR, then hit@5); the held-out part is
printed beside it and never used to choose.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.config import Settings  # noqa: E402
from assistant.embedding import Embedder, load_embedder  # noqa: E402
from assistant.evaluation import SPLITS, load_questions, split_metrics  # noqa: E402
from assistant.index import Index  # noqa: E402
from assistant.retrieval import Retriever  # noqa: E402

DENSE_SHARES = (0.2, 0.3, 0.4, 0.5, 0.6)
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


def line(label: str, m: dict[str, dict[str, float]]) -> str:
    """One row: overall hit@1 / hit@5 / MRR, then hit@5 per kind."""
    a = m["all"]
    kinds = " ".join(f"{k[:5]} {m[k]['hit@5']:.2f}" for k in KINDS if k in m)
    auth = m.get("author", {}).get("all_gold@10", 0.0)
    return f"  {label:<14} {a['hit@1']:.3f} {a['hit@5']:.3f} {a['mrr']:.3f}  authors-complete {auth:.2f} | {kinds}"


def main() -> None:
    base = Settings.from_env()
    settings = replace(base, data_dir=base.data_dir / "eval" / "catalogue")
    embedder = CachedEmbedder(load_embedder(base.embed_model))
    index = Index.open(settings)
    cache_queries(index)
    questions = load_questions()
    results = []
    for label, overrides in grid():
        m = split_metrics(questions, Retriever(index, lambda: embedder, replace(settings, **overrides)))
        results.append((label, m))
        print(f"{label}: tune {m['tune']['all']['mrr']:.3f}  heldout {m['heldout']['all']['mrr']:.3f}", file=sys.stderr, flush=True)
    for split in SPLITS:
        n = int(results[0][1][split]["all"]["n"])
        print(f"{split} part (n={n}): setting -> hit@1 hit@5 mrr, author completeness, hit@5 per kind")
        for label, m in results:
            print(line(label, m[split]))
    best = max(results[2:], key=lambda r: (r[1]["tune"]["all"]["mrr"], r[1]["tune"]["all"]["hit@5"]))
    print(f"chosen on the tuning part: {best[0]}")
    print(verdict(best[1]["heldout"], results[0][1]["heldout"]))


def verdict(chosen: dict[str, dict[str, float]], bm25: dict[str, dict[str, float]]) -> str:
    """Held-out, per kind: the chosen setting against BM25 alone (hit@5 and MRR)."""
    lines = ["held-out part, chosen vs BM25 alone, per kind: hit@5 / MRR"]
    for kind in [*KINDS, "all"]:
        if kind in chosen:
            c, b = chosen[kind], bm25[kind]
            worse = c["hit@5"] < b["hit@5"] or c["mrr"] < b["mrr"] - 1e-9
            better = c["hit@5"] > b["hit@5"] or c["mrr"] > b["mrr"] + 1e-9
            word = "WORSE" if worse else "better" if better else "equal"
            lines.append(f"  {kind:<11} {c['hit@5']:.3f} / {c['mrr']:.3f}   vs {b['hit@5']:.3f} / {b['mrr']:.3f}   {word}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

"""Grid over the fusion settings on the eval questions, over the catalogue index.

    python bench/tune_fusion.py        (after `assistant eval --retrieval` has built data/eval/*)

Prints hit@1 / hit@5 / MRR for each setting so the chosen defaults can be justified.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.config import Settings  # noqa: E402
from assistant.embedding import load_embedder  # noqa: E402
from assistant.evaluation import load_questions, retrieval_metrics  # noqa: E402
from assistant.index import Index  # noqa: E402
from assistant.retrieval import Retriever  # noqa: E402


class CachedEmbedder:
    """Embeds each distinct query once across the grid."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.name, self.dimension = inner, inner.name, inner.dimension
        self._one = lru_cache(maxsize=None)(lambda text: inner.embed([text])[0])

    def embed(self, texts):  # type: ignore[no-untyped-def]
        import numpy as np

        return np.stack([self._one(t) for t in texts])


def main() -> None:
    base = Settings.from_env()
    embedder = CachedEmbedder(load_embedder(base.embed_model))
    questions = load_questions()
    # Dense only and BM25 only first, as references for what fusion adds.
    grid = [(1.0, 0.0, 60), (0.0, 1.0, 60)] + list(itertools.product([1.0], [1.0, 1.5, 2.0, 3.0], [10, 30, 60]))
    for name in sys.argv[1:] or ["catalogue"]:
        settings = replace(base, data_dir=base.data_dir / "eval" / name)
        index = Index.open(settings)
        print(f"{name}: dense_w lexical_w rrf_k -> hit@1 hit@5 mrr (all answerable)")
        for dw, lw, k in grid:
            s = replace(settings, dense_weight=dw, lexical_weight=lw, rrf_k=k)
            m = retrieval_metrics(questions, Retriever(index, lambda: embedder, s))
            a, p = m["all"], m.get("paraphrase", {})
            print(f"  {dw:.1f} {lw:.1f} {k:>3} -> {a['hit@1']:.3f} {a['hit@5']:.3f} {a['mrr']:.3f}"
                  f"   paraphrase {p.get('hit@1', 0):.3f} {p.get('hit@5', 0):.3f} {p.get('mrr', 0):.3f}", flush=True)


if __name__ == "__main__":
    main()

"""Would pseudo-relevance feedback on the BM25 side find the paraphrases plain BM25 misses?

    python bench/feedback_probe.py [--part tune] [--fusion rrf,zscore]

The BM25 scores of a query get the BM25 scores of the ten most telling words of its first
``docs`` BM25 hits (term frequency in the hit times inverse document frequency, weighted by the
hit's score; the query's own words left out), scaled to the same maximum and added at weight
``lam``; the fused ranking is then made as answering makes it. Printed: hit@1, hit@5 and MRR over
the catalogue questions of one part, for RRF 1:1 and z-score fusion (0.3 dense : 0.7 BM25), at
each weight. Runs over the catalogue index of ``assistant eval`` (``data/eval/catalogue``).
Choose on the tuning part only (the default).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant import lexical  # noqa: E402
from assistant.config import Settings  # noqa: E402
from assistant.embedding import load_embedder  # noqa: E402
from assistant.evaluation import by_split, load_questions, retrieval_metrics  # noqa: E402
from assistant.index import Index  # noqa: E402
from assistant.retrieval import Retriever  # noqa: E402
from assistant.text import tokenize  # noqa: E402

TERMS = 10
SETTING: dict[str, float] = {"lam": 0.0, "docs": 3}
_plain = lexical.LexicalIndex.scores
_documents: dict[int, tuple[list[list[str]], dict[str, float]]] = {}


def _tokens(index: lexical.LexicalIndex) -> tuple[list[list[str]], dict[str, float]]:
    """Each paper's tokens and every token's inverse document frequency, once per snapshot."""
    if id(index) not in _documents:
        docs = [tokenize(lexical.paper_document(p.paper)) for p in index.papers]
        df = Counter(t for d in docs for t in set(d))
        idf = {t: math.log((len(docs) + 1) / (c + 0.5)) for t, c in df.items()}
        _documents[id(index)] = (docs, idf)
    return _documents[id(index)]


def _with_feedback(index: lexical.LexicalIndex, query: str) -> np.ndarray:
    base = _plain(index, query)
    if SETTING["lam"] <= 0 or not base.any():
        return base
    docs, idf = _tokens(index)
    top = np.argsort(-base)[: int(SETTING["docs"])]
    asked = set(tokenize(query))
    weight: Counter[str] = Counter()
    for i in top:
        counts = Counter(docs[i])
        for t, c in counts.items():
            if t not in asked:
                weight[t] += c / max(len(docs[i]), 1) * idf[t] * base[i] / base[top[0]]
    terms = [t for t, _ in weight.most_common(TERMS) if t in index.retriever.vocab_dict]
    if not terms:
        return base
    extra = np.asarray(index.retriever.get_scores(terms), dtype=np.float32)
    if extra.max() > 0:
        extra *= base.max() / extra.max()
    return base + SETTING["lam"] * extra


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="tune", choices=("tune", "heldout"))
    parser.add_argument("--fusion", default="rrf,zscore")
    args = parser.parse_args()
    settings = Settings.from_env()
    catalogue = replace(settings, data_dir=settings.data_dir / "eval" / "catalogue", chroma_url="")
    if not (catalogue.data_dir).is_dir():
        print(f"no catalogue index at {catalogue.data_dir}: run `assistant eval` first", file=sys.stderr)
        return 1
    embedder = load_embedder(settings.embed_model)
    questions = by_split(load_questions())[args.part]
    lexical.LexicalIndex.scores = _with_feedback  # type: ignore[method-assign]
    for fusion in args.fusion.split(","):
        fused: Any = (
            replace(catalogue, fusion="rrf")
            if fusion == "rrf"
            else replace(catalogue, fusion="zscore", dense_weight=0.3, lexical_weight=0.7)
        )
        for lam, docs in ((0.0, 3), (0.2, 3), (0.2, 5), (0.35, 3), (0.35, 5), (0.5, 3), (0.5, 5)):
            SETTING.update(lam=lam, docs=docs)
            retriever = Retriever(Index.open(fused), lambda: embedder, fused)
            m = retrieval_metrics(questions, retriever, index="catalogue")["all"]
            print(
                f"{args.part} {fusion:6} weight {lam:<4} from {docs} hits: hit@1 {m['hit@1']:.3f} "
                f"hit@5 {m['hit@5']:.3f} mrr {m['mrr']:.3f} (n={m['n']:.0f})",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

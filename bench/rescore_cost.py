"""Cost of the second ranking stage alone: sentence similarity and rescoring of 50 candidates, over
the catalogue eval index's sentence vectors (random unit queries: the cost does not depend on them).

    PYTHONPATH=. python bench/rescore_cost.py      (after `assistant eval --retrieval` has built data/eval/catalogue)
"""

import statistics
import time

import numpy as np

from assistant.config import Settings
from assistant import lexical, sentence_vectors
from assistant.retrieval import sentence_similarity, rescore

base = Settings.from_env()
d = base.data_dir / "eval" / "catalogue"
t = time.perf_counter()
store = sentence_vectors.load(d / sentence_vectors.FILE)
load_ms = (time.perf_counter() - t) * 1000
papers = lexical.load(d / "lexical").papers
rng = np.random.default_rng(0)
cpu = []
for n in range(500):
    v = rng.standard_normal(384).astype(np.float32)
    v /= np.linalg.norm(v)
    cand = list(rng.choice(len(papers), 100, replace=False))
    first = {int(i): float(100 - k) for k, i in enumerate(cand)}
    c = time.process_time()
    sim = sentence_similarity(store, papers, sorted(first, key=lambda i: -first[i])[:50], v, "top2")
    rescore(first, sim, 0.1)
    cpu.append((time.process_time() - c) * 1000)
print(
    f"sentence store: {store.n_papers} papers, {len(store.vectors)} sentences, {(d / sentence_vectors.FILE).stat().st_size / 2**20:.1f} MiB, load {load_ms:.0f} ms"
)
print(
    f"second stage alone (50 candidates, top2): CPU p50 {statistics.median(cpu):.2f} ms, p95 {sorted(cpu)[int(0.95 * len(cpu))]:.2f} ms over {len(cpu)} runs"
)

"""The second ranking stage: sentence vectors written at ingest, read at search, and a first-stage
search when they are missing or damaged (deterministic fake embedder)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from assistant import sentence_vectors
from assistant.config import ConfigError, Settings
from assistant.embedding import HashEmbedder
from assistant.index import Index
from assistant.ingest import ingest
from assistant.retrieval import RESCORE_POOL, Retriever, rescore
from assistant.sentence_vectors import paper_sentences
from tests.conftest import SEEDS, quiet

QUERY = "privacy of language model training data"


def run(settings: Settings, embedder: HashEmbedder, paths: list[Path] | None = None):
    return ingest(paths or [SEEDS], settings, embedder_factory=lambda: embedder, log=quiet)


class CountingEmbedder(HashEmbedder):
    """The fake embedder, counting the texts it encodes."""

    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed(self, texts):
        self.texts += len(texts)
        return super().embed(texts)


def on(settings: Settings) -> Settings:
    """The settings with the second stage switched on: only then does ingest embed sentences."""
    return replace(settings, sentence_weight=0.9)


def retriever(settings: Settings, embedder: HashEmbedder, log=quiet) -> Retriever:
    return Retriever(Index.open(settings, log=log), lambda: embedder, settings)


def test_default_ingest_writes_no_sentences(settings: Settings, fake_embedder: HashEmbedder) -> None:
    assert settings.sentence_weight == 0  # the second stage is off by default
    counting = CountingEmbedder()
    report = run(settings, counting)
    assert report.sentences == 0 and not (settings.data_dir / sentence_vectors.FILE).exists()
    assert counting.texts == report.chunks["added"] > 0  # chunks only, nothing else encoded
    messages: list[str] = []
    searcher = retriever(settings, fake_embedder, log=messages.append)
    assert searcher.search(QUERY, k=5) and messages == []  # no word about the absent file

    # Switching the stage on later: the next ingest embeds the stored papers' sentences, and no chunk.
    counting.texts = 0
    later = run(on(settings), counting)
    assert later.papers["unchanged"] == 39 and later.chunks.get("added", 0) == 0
    assert counting.texts == later.sentences > 0
    assert sentence_vectors.load(settings.data_dir / sentence_vectors.FILE).n_papers == 39


def test_ingest_writes_every_papers_sentences_and_keeps_them(settings: Settings, fake_embedder: HashEmbedder) -> None:
    settings = on(settings)
    report = run(settings, fake_embedder)
    path = settings.data_dir / sentence_vectors.FILE
    store = sentence_vectors.load(path)
    papers = Index.open(settings, log=quiet).lexical.papers
    assert store.model == fake_embedder.name and store.n_papers == len(papers) == 39
    assert report.sentences == len(store.vectors) == sum(len(paper_sentences(p.paper)) for p in papers)
    paper = papers[0]
    texts = paper_sentences(paper.paper)
    assert texts[0] == paper.paper.title and len(texts) > 2  # the title is a sentence of its own
    stored = store.for_paper(paper.paper.paper_id, paper.content_hash)
    assert stored is not None and np.allclose(stored, fake_embedder.embed(texts), atol=2e-3)
    assert store.for_paper(paper.paper.paper_id, "another version") is None

    before = sentence_vectors.stamp(path)
    again = run(settings, fake_embedder)
    assert again.sentences == 0 and sentence_vectors.stamp(path) == before  # nothing changed, nothing written


def test_changed_paper_gets_new_sentence_rows(tmp_path: Path, settings: Settings, fake_embedder: HashEmbedder) -> None:
    settings = on(settings)
    src = tmp_path / "p.jsonl"
    rows = [{"id": "Q1", "title": "Quokka", "abstract": "We count marsupials. It works."},
            {"id": "Q2", "title": "Wombat", "abstract": "We track wombats at night. They dig."}]
    src.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    run(settings, fake_embedder, [src])
    rows[0]["abstract"] = "We count marsupials from the air. Drones help. It works."
    src.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    report = run(settings, fake_embedder, [src])
    assert report.papers["updated"] == 1 and report.sentences == 4  # the title and three sentences of Q1 only
    store = sentence_vectors.load(settings.data_dir / sentence_vectors.FILE)
    by_id = {p.paper.paper_id: p for p in Index.open(settings, log=quiet).lexical.papers}
    assert len(store.for_paper("Q1", by_id["Q1"].content_hash)) == 4
    assert len(store.for_paper("Q2", by_id["Q2"].content_hash)) == 3
    assert len(store.vectors) == 7  # the old version's rows are gone


def test_search_reorders_by_the_best_sentence(settings: Settings, fake_embedder: HashEmbedder) -> None:
    rescoring = on(settings)
    run(rescoring, fake_embedder)
    first_stage = [h.paper_id for h in retriever(settings, fake_embedder).search(QUERY, k=10)]
    searcher = retriever(rescoring, fake_embedder)
    assert [h.paper_id for h in searcher.search(QUERY, k=10)] != []

    # Give the paper ranked 6th a sentence that is the query itself: the second stage must lift it
    # to the top, and an app that is already open must see the rewritten file on its next refresh.
    lifted = first_stage[5]
    index = searcher.index
    digest = {p.paper.paper_id: p.content_hash for p in index.lexical.papers}
    store = index.sentences.merged({lifted: (digest[lifted], fake_embedder.embed([QUERY]))}, digest)
    sentence_vectors.save(store, index.sentences_path)
    assert [h.paper_id for h in searcher.search(QUERY, k=10)][0] != lifted
    index.refresh(log=quiet)
    assert [h.paper_id for h in searcher.search(QUERY, k=10)][0] == lifted
    # The first stage alone does not move it.
    assert [h.paper_id for h in retriever(settings, fake_embedder).search(QUERY, k=10)] == first_stage


@pytest.mark.parametrize("damage", ["missing", "garbage", "truncated"])
def test_missing_or_damaged_sentences_fall_back_to_the_first_stage(
    settings: Settings, fake_embedder: HashEmbedder, damage: str
) -> None:
    rescoring = on(settings)
    run(rescoring, fake_embedder)
    path = settings.data_dir / sentence_vectors.FILE
    first_stage = [h.paper_id for h in retriever(settings, fake_embedder).search(QUERY, k=10)]
    if damage == "missing":
        path.unlink()
    elif damage == "garbage":
        path.write_bytes(b"not a numpy file")
    else:
        path.write_bytes(path.read_bytes()[:5000])
    messages: list[str] = []
    searcher = retriever(rescoring, fake_embedder, log=messages.append)
    assert searcher.index.sentences is None
    assert len(messages) == 1 and messages[0].startswith("Searching without the sentence rescoring")
    assert ("there are no sentence vectors" if damage == "missing" else "damaged") in messages[0]
    assert [h.paper_id for h in searcher.search(QUERY, k=10)] == first_stage
    assert searcher.index.status()["sentence_vectors"]["problem"]

    report = run(rescoring, fake_embedder)  # the next ingest rebuilds them, embedding nothing else
    assert report.papers["unchanged"] == 39 and report.sentences > 0
    assert sentence_vectors.load(path).n_papers == 39


def test_rescore_reorders_only_the_pool() -> None:
    first = {i: 100.0 - i for i in range(RESCORE_POOL + 5)}
    similarity = {i: 0.1 for i in range(RESCORE_POOL)} | {RESCORE_POOL - 1: 0.9}
    out = rescore(first, similarity, 0.5)
    order = sorted(out, key=lambda i: -out[i])
    assert order[0] == RESCORE_POOL - 1  # last of the pool, best sentence
    assert order[RESCORE_POOL:] == list(range(RESCORE_POOL, RESCORE_POOL + 5))  # the rest, in their order, below
    assert rescore(first, {3: 0.9}, 0.5) == first  # one scored paper: nothing to compare
    # A paper without sentence vectors counts as the least similar of the others, not as 0.
    out = rescore({0: 3.0, 1: 2.0, 2: 1.0}, {0: 0.2, 2: 0.4}, 0.8)
    assert max(out, key=out.get) == 2 and out[1] < out[0]


def test_sentence_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="sentence_pooling"):
        Settings.from_env({"ASSISTANT_SENTENCE_POOLING": "mean"})
    with pytest.raises(ConfigError, match="sentence_weight"):
        Settings.from_env({"ASSISTANT_SENTENCE_WEIGHT": "1.5"})

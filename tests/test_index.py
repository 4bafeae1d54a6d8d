"""Ingest and hybrid search with the deterministic fake embedder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.embedding import HashEmbedder
from assistant.index import Index
from assistant.ingest import IngestLocked, ingest, ingest_lock
from assistant.retrieval import QueryError, Retriever
from tests.conftest import SEEDS, quiet

ABSTRACT = ("We introduce Quokka, a method for counting marsupials in aerial photographs. "
            "Quokka reaches 97.5% accuracy on 12 islands. It runs on a laptop.")


def run(paths: list[Path], settings: Settings, embedder: HashEmbedder):
    return ingest(paths, settings, embedder_factory=lambda: embedder, log=quiet)


def open_retriever(settings: Settings, embedder: HashEmbedder) -> Retriever:
    return Retriever(Index.open(settings, log=quiet), lambda: embedder, settings)


def test_ingest_seeds_then_again_changes_nothing(settings: Settings, fake_embedder: HashEmbedder) -> None:
    first = run([SEEDS], settings, fake_embedder)
    assert first.papers["added"] == 39 and not first.rejected
    calls = []
    second = ingest([SEEDS], settings, embedder_factory=lambda: calls.append(1) or fake_embedder, log=quiet)
    assert second.papers["unchanged"] == 39 and second.papers["added"] == second.papers["updated"] == 0
    assert second.chunks["unchanged"] == first.chunks["added"]
    assert calls == []  # nothing changed, so the embedder was never even loaded
    status = Index.open(settings, log=quiet).status()
    assert status["dense"] == status["lexical"] == {"papers": 39, "chunks": first.chunks["added"]}
    assert status["consistent"] and status["last_ingest"]


def test_changed_paper_is_replaced_not_duplicated(tmp_path: Path, settings: Settings, fake_embedder: HashEmbedder) -> None:
    src = tmp_path / "p.jsonl"
    long_abstract = " ".join([ABSTRACT] * 12)
    src.write_text(json.dumps({"id": "Q1", "title": "Quokka", "abstract": long_abstract}) + "\n", encoding="utf-8")
    run([src], settings, fake_embedder)
    n_before = Index.open(settings, log=quiet).store.counts()["chunks"]
    src.write_text(json.dumps({"id": "Q1", "title": "Quokka v2", "abstract": ABSTRACT}) + "\n", encoding="utf-8")
    report = run([src], settings, fake_embedder)
    assert report.papers["updated"] == 1
    index = Index.open(settings, log=quiet)
    assert index.store.counts() == {"papers": 1, "chunks": 1} and n_before > 1
    hits = open_retriever(settings, fake_embedder).search("marsupials aerial photographs")
    assert [(h.paper_id, h.title) for h in hits] == [("Q1", "Quokka v2")]


def test_bad_files_are_reported_and_the_rest_ingested(tmp_path: Path, settings: Settings, fake_embedder: HashEmbedder) -> None:
    run([SEEDS], settings, fake_embedder)
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "good.json").write_text(json.dumps([{"id": "Q1", "title": "Quokka", "abstract": ABSTRACT},
                                                 {"id": "Q2", "title": "No abstract"}]), encoding="utf-8")
    (batch / "bad.txt").write_bytes(b"\xff\xfe\x00bad" * 40)
    (batch / "empty.csv").write_text("", encoding="utf-8")
    (batch / "notes.docx").write_bytes(b"PK")
    report = run([batch, tmp_path / "missing.json"], settings, fake_embedder)
    assert report.papers["added"] == 1
    reasons = " | ".join(f"{r.where}: {r.reason}" for r in report.rejected)
    for expected in ("missing field 'abstract'", "not UTF-8", "empty", "unsupported file type", "no such file"):
        assert expected in reasons
    assert Index.open(settings, log=quiet).store.counts()["papers"] == 40


def test_search_one_hit_per_paper_with_filters(seeded: Retriever) -> None:
    hits = seeded.search("privacy", k=10)
    assert hits and len({h.paper_id for h in hits}) == len(hits)
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert all(h.text in h.abstract and h.abstract[h.start:h.end] == h.text for h in hits)
    hardt = seeded.search("learning", k=10, author="moritz hardt")
    assert hardt and all(any("Hardt" in a for a in h.authors) for h in hardt)
    area = seeded.search("learning", k=10, area="reinforcement")
    assert area and all("Reinforcement" in h.area for h in area)
    assert seeded.search("learning", author="Nobody Atall") == []


def test_title_query_finds_its_paper(seeded: Retriever) -> None:
    for stored in seeded.index.lexical.papers[:10]:
        assert seeded.search(stored.paper.title, k=1)[0].paper_id == stored.paper.paper_id


def test_empty_and_huge_queries(seeded: Retriever) -> None:
    with pytest.raises(QueryError, match="empty"):
        seeded.search("   \n ")
    hits = seeded.search("privacy " * 20000)  # 160,000 characters: bounded, not a crash
    assert hits


def test_second_ingest_is_refused_while_one_runs(settings: Settings, fake_embedder: HashEmbedder) -> None:
    with ingest_lock(settings.data_dir):
        with pytest.raises(IngestLocked, match="another ingest"):
            run([SEEDS], settings, fake_embedder)
    assert run([SEEDS], settings, fake_embedder).papers["added"] == 39


def test_damaged_lexical_index_is_rebuilt(settings: Settings, fake_embedder: HashEmbedder) -> None:
    run([SEEDS], settings, fake_embedder)
    root = settings.data_dir / "lexical"
    current = root / (root / "CURRENT").read_text().strip()
    (current / "papers.json").write_text("{garbage", encoding="utf-8")
    messages: list[str] = []
    index = Index.open(settings, log=messages.append)
    assert len(index.lexical.papers) == 39
    assert messages and "Rebuilding the lexical index" in messages[0] and "damaged" in messages[0]
    (root / "CURRENT").unlink()
    assert len(Index.open(settings, log=quiet).lexical.papers) == 39


def test_score_fusion_keeps_how_far_ahead_a_paper_is() -> None:
    """An exact-name BM25 match far ahead of the rest stays first against a paper the dense side
    ranks only slightly higher; a paper outside the dense pool gets the pool's lowest similarity."""
    import numpy as np

    from assistant.retrieval import score_fusion

    bm25 = np.array([20.0, 2.0, 1.0, 0.0])
    for how in ("minmax", "zscore"):
        fused = score_fusion({1: 0.62, 2: 0.60, 0: 0.58}, bm25, [0, 1, 2], 0.3, 0.7, how)
        assert max(fused, key=fused.get) == 0
        assert score_fusion({1: 0.6}, bm25, [0, 1], 0.3, 0.7, how).keys() == {0, 1}


def test_ingest_saves_every_chunk_in_the_vector_graph(settings: Settings, fake_embedder: HashEmbedder) -> None:
    """Embedded Chroma saves its HNSW graph every 1,000 chunk writes; chunks written since would be
    inserted again by every process that opens the index, each building a different graph, so the
    nearest chunks (and the rankings) would change from run to run. Ingest leaves no such backlog."""
    import sqlite3

    run([SEEDS], settings, fake_embedder)  # ~70 chunks: far below Chroma's threshold
    db = sqlite3.connect(settings.data_dir / "chroma" / "chroma.sqlite3")
    saved, logged = db.execute(
        "SELECT COALESCE((SELECT m.seq_id FROM max_seq_id m WHERE m.segment_id = s.id), 0),"
        " (SELECT MAX(q.seq_id) FROM embeddings_queue q WHERE q.topic LIKE '%' || c.id)"
        " FROM collections c JOIN segments s ON s.collection = c.id AND s.scope = 'VECTOR' WHERE c.name = 'chunks'"
    ).fetchone()
    assert saved >= logged

"""What keeps search cost from growing with every paper: snapshot-wide filters, a partial sort of
the BM25 scores, and the change marker that spares the chat a hash comparison every 30 s."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from assistant import lexical, retrieval, store
from assistant.config import Settings
from assistant.corpus import Paper
from assistant.embedding import HashEmbedder
from assistant.filters import PaperFilter, matches_filters
from assistant.index import Index
from assistant.ingest import ingest
from assistant.retrieval import Retriever, top_scores
from assistant.store import StoredPaper
from tests.conftest import quiet

AUTHORS = [
    ["Xiaoyang Zhang", "Moritz Hardt"],
    ["Yang Zhang"],
    ["Bernhard Schölkopf", "Anna Li"],
    [],
    ["Li Yang", "Zhang Yang"],
    ["J. Zico Kolter", "Andrew Gordon Wilson"],
    ["Ángel Díaz"],
]
AREAS = ["Deep Learning · Theory", "Theory · Learning Theory", "", "Social Aspects · Privacy", "Deep Learning"]


def stored(n: int) -> StoredPaper:
    """Paper ``n`` with its authors and area taken in turn from the lists above."""
    paper = Paper(
        paper_id=f"p{n}",
        title=f"Title {n}",
        authors=AUTHORS[n % len(AUTHORS)],
        area=AREAS[n % len(AREAS)],
        abstract="An abstract.",
    )
    return StoredPaper(paper=paper, content_hash="h", spans=[(0, 12)])


@pytest.mark.parametrize(
    "author",
    [
        None,
        "",
        "  ",
        "Yang Zhang",
        "yang",
        "zhang",
        "hard",
        "ardt",
        "scholkopf",
        "SCHÖLKOPF",
        "angel diaz",
        "díaz",
        "li",
        "zico kolter",
        "j. zico",
        "a",
        "nobody",
        "Zhang\x00Yang",
        "g z",
    ],
)
@pytest.mark.parametrize("area", [None, "", "theory", "Deep Learning", "learning theory", "privacy", " ", "\x00"])
def test_snapshot_filter_keeps_exactly_the_papers_the_paper_check_keeps(author: str | None, area: str | None) -> None:
    papers = [stored(n) for n in range(40)]
    allowed = PaperFilter(papers).allowed(author, area)
    expected = [matches_filters(p, author, area) for p in papers]
    if not author and not area:
        assert allowed is None
    else:
        assert allowed.tolist() == expected


@pytest.mark.parametrize("n", [1, 5, 100])
def test_partial_sort_ranks_like_a_stable_full_sort(n: int) -> None:
    rng = np.random.default_rng(7)
    for scores in (rng.random(500), rng.integers(0, 4, 500).astype(float), np.zeros(50), rng.random(3)):
        assert top_scores(scores, n).tolist() == np.argsort(-scores, kind="stable")[:n].tolist()


def test_chat_refresh_reads_every_hash_only_after_a_write(
    tmp_path: Path, settings: Settings, fake_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text(json.dumps({"paper_id": "a", "title": "Quokka sampling", "abstract": "Quokka sampling."}) + "\n")
    second.write_text(json.dumps({"paper_id": "b", "title": "Wombat pruning", "abstract": "Wombat pruning."}) + "\n")
    ingest([first], settings, embedder_factory=lambda: fake_embedder, log=quiet)
    app = Index.open(settings, log=quiet)
    reads: list[int] = []
    paper_hashes = app.store.paper_hashes
    monkeypatch.setattr(app.store, "paper_hashes", lambda: reads.append(1) or paper_hashes())

    assert not app.refresh(quiet) and not reads  # nothing written since it opened: no hash is read
    ingest([second], settings, embedder_factory=lambda: fake_embedder, log=quiet)  # another writer
    assert app.refresh(quiet) and reads == [1]
    hits = Retriever(app, lambda: fake_embedder, settings).search("wombat pruning", k=1)
    assert [h.paper_id for h in hits] == ["b"]
    assert not app.refresh(quiet) and reads == [1]


def test_a_changed_abstract_is_seen_though_the_count_is_the_same(
    tmp_path: Path, settings: Settings, fake_embedder: HashEmbedder
) -> None:
    source = tmp_path / "one.jsonl"
    source.write_text(json.dumps({"paper_id": "a", "title": "Quokka", "abstract": "Quokka sampling."}) + "\n")
    ingest([source], settings, embedder_factory=lambda: fake_embedder, log=quiet)
    app = Index.open(settings, log=quiet)
    source.write_text(json.dumps({"paper_id": "a", "title": "Quokka", "abstract": "Numbat sampling."}) + "\n")
    ingest([source], replace(settings), embedder_factory=lambda: fake_embedder, log=quiet)
    assert app.refresh(quiet)
    assert app.lexical.papers[0].paper.abstract == "Numbat sampling."


def snapshot(n_papers: int) -> lexical.LexicalIndex:
    """A lexical index of ``n_papers`` papers of two chunks each (no BM25: only its counts are read)."""
    papers = [
        StoredPaper(paper=Paper(paper_id=f"p{n}", abstract="An abstract."), content_hash="h", spans=[(0, 5), (5, 12)])
        for n in range(n_papers)
    ]
    return lexical.LexicalIndex(papers, "f", "", None)


def test_dense_pool_is_wide_only_where_the_filter_keeps_more_chunks_than_it_returns() -> None:
    big, small = snapshot(260_000), snapshot(2_600)
    assert retrieval.dense_request(None, big) == (retrieval.DENSE_POOL, None)
    area = np.arange(260_000) % 18 == 3  # one area of 18: 14,445 papers, 28,890 chunks kept
    assert retrieval.dense_request(area, big) == (1800, None)  # 1,800 chunks unfiltered, ~100 of them kept
    author = np.arange(260_000) < 40
    n, ids = retrieval.dense_request(author, big)
    assert n == retrieval.DENSE_POOL and ids == [f"p{i}" for i in range(40)]
    n, ids = retrieval.dense_request(np.arange(2_600) % 18 == 3, small)  # 145 papers: their ids cost less
    assert n == retrieval.DENSE_POOL and ids is not None and len(ids) == 145


def test_a_wide_pool_filtered_here_finds_what_the_filtered_query_finds(
    seeded: Retriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the wide pool covers the index, searching it and dropping other papers gives the
    same hits as asking Chroma for the kept papers only."""
    narrow = seeded.search("learning theory", 10, area="Theory")
    total = seeded.index.store.counts()["chunks"]
    monkeypatch.setattr(retrieval, "dense_request", lambda allowed, lex: (total, None))
    wide = seeded.search("learning theory", 10, area="Theory")
    assert wide and all("theory" in h.area.lower() for h in wide)
    assert [h.paper_id for h in wide] == [h.paper_id for h in narrow]
    assert [round(h.score, 9) for h in wide] == [round(h.score, 9) for h in narrow]


def test_reading_every_paper_goes_page_by_page(seeded: Retriever, monkeypatch: pytest.MonkeyPatch) -> None:
    """One unbounded Chroma get fails past ~32k records; paged reads return every record once."""
    monkeypatch.setattr(store, "GET_PAGE", 7)  # 39 seed papers: five full pages and a part
    limits: list[int | None] = []
    call = seeded.index.store._call
    monkeypatch.setattr(seeded.index.store, "_call", lambda fn, **kw: limits.append(kw.get("limit")) or call(fn, **kw))
    papers = seeded.index.store.load_papers()
    assert limits == [7] * 6
    assert sorted(p.paper.paper_id for p in papers) == sorted(p.paper.paper_id for p in seeded.papers())
    assert len(seeded.index.store.paper_hashes()) == len(papers) == 39
    assert seeded.index.store.remove_orphans({p.paper.paper_id: len(p.spans) for p in papers}) == 0

"""The search filter for half-written papers, on a state built by hand.

A crash (or a concurrent ingest) can leave chunks in Chroma whose paper has no registry record
yet, and a paper re-ingested with fewer chunks can leave its old trailing chunks behind. Both
kinds of chunk are returned by Chroma's nearest-neighbour query; search must never show them.
"""

from __future__ import annotations

from assistant.chunking import chunk_abstract, embedding_text
from assistant.embedding import HashEmbedder
from assistant.retrieval import Retriever

GHOST_ID = "ghost-1"
GHOST_TITLE = "Spectral Lanterns Illuminate Quantised Walrus Migration"
GHOST_ABSTRACT = ("We present Spectral Lanterns, a method that illuminates quantised walrus migration routes. "
                  "Spectral Lanterns tracks 400 walruses across 12 Arctic seasons.")


def write_chunks_only(retriever: Retriever, embedder: HashEmbedder, paper_id: str, title: str, abstract: str,
                      first_index: int = 0) -> list[str]:
    """Write a paper's chunks (numbered from ``first_index``) without its registry record,
    as an ingest killed between the two writes leaves them; returns the chunk ids."""
    chunks = chunk_abstract(paper_id, abstract)
    ids = [f"{paper_id}::{first_index + c.index}" for c in chunks]
    vectors = embedder.embed([embedding_text(title, c.text) for c in chunks])
    retriever.index.store.chunks.upsert(
        ids=ids, embeddings=[v.tolist() for v in vectors], documents=[c.text for c in chunks],
        metadatas=[{"paper_id": paper_id, "index": first_index + c.index, "start": c.start, "end": c.end}
                   for c in chunks])
    return ids


def test_chunks_without_a_registry_record_are_never_returned(seeded: Retriever, fake_embedder: HashEmbedder) -> None:
    ids = write_chunks_only(seeded, fake_embedder, GHOST_ID, GHOST_TITLE, GHOST_ABSTRACT)
    # The dangerous state really is there: Chroma's own query ranks the ghost's chunks first.
    raw = seeded.index.store.query(fake_embedder.embed([GHOST_TITLE])[0], 5)
    assert raw and raw[0][0] in ids and raw[0][1] == GHOST_ID
    for query in (GHOST_TITLE, "quantised walrus migration", "Spectral Lanterns"):
        hits = seeded.search(query, k=10)
        assert GHOST_ID not in [h.paper_id for h in hits], query
        for hit in hits:  # every passage shown lies inside its own, committed paper's abstract
            assert hit.text == hit.abstract[hit.start:hit.end]


def test_stale_trailing_chunks_of_a_committed_paper_are_never_returned(seeded: Retriever,
                                                                       fake_embedder: HashEmbedder) -> None:
    target = next(p for p in seeded.papers() if p.paper.title)
    n_spans = len(target.spans)
    # A chunk past the paper's committed spans, whose text matches the query better than any real one.
    stale = write_chunks_only(seeded, fake_embedder, target.paper.paper_id, GHOST_TITLE, GHOST_ABSTRACT,
                              first_index=n_spans)
    raw = seeded.index.store.query(fake_embedder.embed([GHOST_TITLE])[0], 5)
    assert raw and raw[0][0] in stale
    hits = seeded.search(GHOST_TITLE, k=10)
    for hit in hits:
        if hit.paper_id == target.paper.paper_id:  # found lexically or by a real chunk: a committed span
            assert (hit.start, hit.end) in target.spans
        assert hit.text == hit.abstract[hit.start:hit.end]


"""Parsing every ingest format, by structure."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.corpus import parse_file, parse_listing, readable_label, split_authors
from assistant.seed_metadata import enrich, load_metadata
from tests.conftest import SEEDS

LONG = ("We study a problem that matters. " * 8).strip()


def test_bare_listing_skips_heading() -> None:
    text = f"My Listing Heading\n\n{LONG}\n\n{LONG.replace('problem', 'question')}\n"
    papers = parse_listing(text, "x.txt").papers
    assert len(papers) == 2
    assert all(p.authors == [] and p.area == "" for p in papers)
    assert not any("Heading" in p.abstract for p in papers)


def test_listing_with_area_and_author_lines() -> None:
    text = (f"Search page\n\nTheory · Optimization\n\nAda Lovelace, Alan Turing\n\n{LONG}\n\n"
            f"Deep Learning\n\nGrace Hopper\n\n{LONG.replace('matters', 'counts')}\n")
    papers = parse_listing(text, "x.txt").papers
    assert [p.area for p in papers] == ["Theory · Optimization", "Deep Learning"]
    assert [p.authors for p in papers] == [["Ada Lovelace", "Alan Turing"], ["Grace Hopper"]]


def test_seed_files_parse_to_39_papers_with_metadata() -> None:
    papers = [p for f in sorted(SEEDS.glob("*.txt")) for p in parse_file(f).papers]
    assert len(papers) == 39
    for p in papers:
        enrich(p)
    assert all(p.title and p.url.startswith("https://ICML.cc/virtual/2024/poster/") for p in papers)
    assert all(p.paper_id.isdigit() for p in papers)
    assert len(load_metadata()) == 39
    with_area = [p for p in papers if p.area]
    assert len(with_area) == 20 and all(p.authors for p in with_area)


def test_catalogue_posters_only(tmp_path: Path) -> None:
    events = [
        {"type": "Poster", "name": "A Title", "virtualsite_url": "https://ICML.cc//virtual/2024/poster/123",
         "speakers/authors": "Ann One, Bob Two", "abstract": LONG},
        {"type": "Workshop", "name": "W", "virtualsite_url": "u", "speakers/authors": "", "abstract": "w"},
        {"type": "Poster", "name": "No abstract", "virtualsite_url": "https://ICML.cc//virtual/2024/poster/124",
         "speakers/authors": "C", "abstract": ""},
    ]
    path = tmp_path / "events.json"
    path.write_text(json.dumps(events), encoding="utf-8")
    result = parse_file(path)
    assert [(p.paper_id, p.title, p.authors, p.url) for p in result.papers] == [
        ("123", "A Title", ["Ann One", "Bob Two"], "https://ICML.cc/virtual/2024/poster/123")]
    assert result.skipped == {"Workshop": 1}
    assert len(result.rejected) == 1 and "no abstract" in result.rejected[0].reason


def test_records_json_jsonl_csv(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps([{"id": "P1", "title": "T1", "abstract": LONG, "authors": ["X Y"]},
                                                  {"title": "no abstract"}]), encoding="utf-8")
    (tmp_path / "b.jsonl").write_text(json.dumps({"doc_id": 7, "text": LONG, "area": "Theory"}) + "\n{broken\n",
                                      encoding="utf-8")
    (tmp_path / "c.csv").write_text(f'title,abstract,authors,url\nT3,"{LONG}","A B; C D",http://x\n', encoding="utf-8")
    a, b, c = (parse_file(tmp_path / n) for n in ("a.json", "b.jsonl", "c.csv"))
    assert [p.paper_id for p in a.papers] == ["P1"]
    assert "missing field 'abstract'" in a.rejected[0].reason
    assert [p.paper_id for p in b.papers] == ["7"] and b.papers[0].area == "Theory"
    assert "b.jsonl:2" in b.rejected[0].where
    assert c.papers[0].authors == ["A B", "C D"] and c.papers[0].paper_id.startswith("h")


def test_bad_files_are_rejected_with_reasons(tmp_path: Path) -> None:
    (tmp_path / "latin1.txt").write_bytes("caf\xe9 ".encode("latin-1") * 50)
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    reasons = {n: parse_file(tmp_path / n).rejected[0].reason for n in ("latin1.txt", "empty.jsonl", "paper.pdf", "bad.json")}
    assert "not UTF-8" in reasons["latin1.txt"]
    assert "empty" in reasons["empty.jsonl"]
    assert "unsupported file type '.pdf'" in reasons["paper.pdf"]
    assert "invalid JSON" in reasons["bad.json"]


def test_labels_and_authors() -> None:
    assert readable_label("We present X. More text.") == "Untitled: We present X."
    assert readable_label("") == "Untitled paper"
    assert split_authors("A B, C D and E F") == ["A B", "C D", "E F"]

"""Titles, authors and links for the seed abstracts, made from the ICML catalogue.

The seed listing pages carry bare abstracts; every one of them appears verbatim in the
catalogue. ``python -m assistant.seed_metadata`` writes the small file
``assistant/resources/seed_metadata.json`` so the default corpus has titles without the
3.9 MB catalogue. At ingest, papers whose abstract matches an entry get its id, title,
authors and url wherever their own source left those empty.
"""

from __future__ import annotations

import argparse
import json
from functools import lru_cache
from pathlib import Path

from assistant.corpus import Paper, abstract_key, collect_files, fallback_id, parse_catalogue, parse_file
from assistant.paths import PROJECT_ROOT, resource

METADATA_PATH = resource("seed_metadata.json")
DEFAULT_CATALOGUE = PROJECT_ROOT.parent / "shared" / "data" / "icml2024" / "ICML 2024 Events.json"


@lru_cache(maxsize=1)
def load_metadata(path: Path = METADATA_PATH) -> dict[str, dict]:
    """abstract key -> {paper_id, title, authors, url}; empty when the file is absent."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))["papers"]
    except (OSError, ValueError, KeyError):
        return {}


def enrich(paper: Paper, metadata: dict[str, dict] | None = None) -> Paper:
    """Fill a paper's missing id, title, authors and url from the seed metadata."""
    meta = (load_metadata() if metadata is None else metadata).get(abstract_key(paper.abstract))
    if not meta:
        return paper
    if paper.paper_id == fallback_id(paper.abstract):  # the source gave no id of its own
        paper.paper_id = meta["paper_id"]
    paper.title = paper.title or meta["title"]
    paper.authors = paper.authors or list(meta["authors"])
    paper.url = paper.url or meta["url"]
    return paper


def build(seeds_dir: Path, catalogue: Path) -> dict:
    """Match every seed abstract to its catalogue poster."""
    posters = parse_catalogue(json.loads(catalogue.read_text(encoding="utf-8")), catalogue.name).papers
    by_key = {abstract_key(p.abstract): p for p in posters}
    files, _ = collect_files([seeds_dir])
    entries: dict[str, dict] = {}
    unmatched = 0
    for path in files:
        for seed in parse_file(path).papers:
            poster = by_key.get(abstract_key(seed.abstract))
            if poster is None:
                unmatched += 1
                continue
            entries[abstract_key(seed.abstract)] = {
                "paper_id": poster.paper_id,
                "title": poster.title,
                "authors": poster.authors,
                "url": poster.url,
            }
    return {
        "source": "ICML 2024 Events.json (LukasMosser/icml2024_finder, Apache-2.0)",
        "unmatched": unmatched,
        "papers": dict(sorted(entries.items())),
    }


def main() -> None:
    """Command line: regenerate the seed metadata file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=resource("seeds"))
    parser.add_argument("--catalogue", type=Path, default=DEFAULT_CATALOGUE)
    parser.add_argument("--out", type=Path, default=METADATA_PATH)
    args = parser.parse_args()
    data = build(args.seeds, args.catalogue)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(data['papers'])} seed papers matched, {data['unmatched']} unmatched -> {args.out}")


if __name__ == "__main__":
    main()

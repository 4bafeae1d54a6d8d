"""Answer the eval's questions and conversations again and say which answers changed.

Every judged answer in ``bench/judged/*.jsonl`` keeps its verdict only while its text and
citations stay the same (and, in a conversation, those of every earlier turn); this prints the
ids whose answers differ from a judged file, so that exactly those are read again.

    python bench/replay.py [--ids c111,c112.3,q0] [--against bench/judged/after.jsonl] [--out FILE]

``--ids`` takes id prefixes (``c1`` is every conversation from c100 to c199 and c1 itself).
Answers are made over the seeds index of ``assistant eval`` (``data/eval/seeds``), which
``assistant eval`` builds; the packaged model drafts single-paper answers, greedy.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant import answer_eval, quality_eval  # noqa: E402
from assistant.config import Settings  # noqa: E402
from assistant.embedding import load_embedder  # noqa: E402
from assistant.evaluation import QUESTIONS, load_questions  # noqa: E402
from assistant.index import Index  # noqa: E402
from assistant.retrieval import Retriever  # noqa: E402


def _wanted(item_id: str, prefixes: list[str]) -> bool:
    return not prefixes or any(item_id.startswith(p) for p in prefixes)


def answers(prefixes: list[str], settings: Settings) -> list[dict[str, Any]]:
    """Every answer of the chosen questions and conversations, as the records that are judged."""
    seeds = replace(settings, data_dir=settings.data_dir / "eval" / "seeds", chroma_url="")
    embedder = load_embedder(settings.embed_model)
    retriever = Retriever(Index.open(seeds), lambda: embedder, seeds)
    questions = [
        q for q in load_questions(QUESTIONS) if q.get("index") != "catalogue" and _wanted(q["id"], prefixes)
    ]
    conversations = [c for c in quality_eval.load(quality_eval.CONVERSATIONS) if _wanted(c["id"], prefixes)]
    dump: list[dict[str, Any]] = []
    if questions:
        answer_eval.answer_metrics(questions, retriever, settings, dump)
    if conversations:
        answer_eval.conversation_metrics(conversations, retriever, settings, dump)
    return dump


def _shown(record: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """What a reader judged: the answer's text and the papers it cites."""
    return record["answer"], tuple(c["paper_id"] for c in record["citations"])


def changed(new: list[dict[str, Any]], judged: dict[str, dict[str, Any]]) -> list[str]:
    """Ids whose answer differs from the judged one, or follows a changed turn of its conversation."""
    out: list[str] = []
    dirty: set[str] = set()
    for record in new:
        conv = record["id"].split(".")[0] if record["set"] == "conversations" else record["id"]
        old = judged.get(record["id"])
        if old is None or conv in dirty or _shown(old) != _shown(record):
            out.append(record["id"])
            if record["set"] == "conversations":
                dirty.add(conv)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default="", help="comma-separated id prefixes (default: all)")
    parser.add_argument("--against", type=Path, default=ROOT / "bench" / "judged" / "after.jsonl")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "replay.jsonl")
    args = parser.parse_args()
    prefixes = [p.strip() for p in args.ids.split(",") if p.strip()]
    new = answers(prefixes, Settings.from_env())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in new), encoding="utf-8")
    judged = {}
    if args.against.is_file():
        judged = {r["id"]: r for r in map(json.loads, args.against.read_text(encoding="utf-8").splitlines())}
    moved = changed(new, judged)
    print(f"{len(new)} answers written to {args.out}; {len(moved)} differ from {args.against.name}")
    for item in moved:
        print(f"  {item}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Would MiniLM closeness decide what the word rules cannot? Three probes on the labelled sets.

    python bench/closeness_probes.py [--weights 0,1,2,3,4]

1. "The abstract does not mention X": for every per-paper line of c051-c130 (conversation turns
   with answering sentences labelled by reading in ``tests/eval/evidence.jsonl``), is the sentence
   MiniLM puts closest to the asked part a labelled answering sentence, and how often is the
   abstract truly silent? Printed per part, for the lines that say "does not mention" and for all
   lines at several closeness floors.
2. Refusals: for every judged answer that refuses (``bench/judged/after.jsonl``), the closest
   sentence of the five best papers; a refusal is wrong when the turn has gold papers. A floor that
   lets wrong refusals through must stay above every right one of the tuning part.
3. ``--weights``: the evidence figures of ``assistant eval`` (asked papers cited, answering
   sentence quoted) with ``CLOSENESS_WEIGHT`` set to each value, per part.

Runs over the seeds index of ``assistant eval`` (``data/eval/seeds``). Figures are printed, never
tuned on the held-out part.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant import answer_eval, evidence, quality_eval, shapes  # noqa: E402
from assistant.answer import Assistant  # noqa: E402
from assistant.config import Settings  # noqa: E402
from assistant.embedding import load_embedder  # noqa: E402
from assistant.evaluation import QUESTIONS, load_questions  # noqa: E402
from assistant.index import Index  # noqa: E402
from assistant.llm import load_llm  # noqa: E402
from assistant.retrieval import Retriever  # noqa: E402
from assistant.text import split_sentences  # noqa: E402

LABELS = ROOT / "tests" / "eval" / "evidence.jsonl"
JUDGED = ROOT / "bench" / "judged" / "after.jsonl"
FLOORS = (0.2, 0.3, 0.4)


def _folded(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _conversations() -> list[dict[str, Any]]:
    return [c for c in quality_eval.load(quality_eval.CONVERSATIONS) if int(c["id"][1:4]) >= 51]


def _per_paper_lines(retriever: Retriever, settings: Settings) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every per-paper line the conversations produce: the asked part, each sentence's closeness
    and whether the line said "does not mention"; and the answer records."""
    lines: list[dict[str, Any]] = []
    dump: list[dict[str, Any]] = []
    order = [f"{c['id']}.{t}" for c in _conversations() for t in range(1, len(c["turns"]) + 1)]
    original = shapes._per_paper

    def recording(question: str, hits: Any, base: Any, need_number: bool, pointers_ok: bool) -> Any:
        closeness = evidence._CLOSENESS.get()
        out = original(question, hits, base, need_number, pointers_ok)
        for h in hits:
            cited = next((c for c in out.citations if c.paper_id == h.paper_id), None)
            sentences = [s.text for s in split_sentences(h.abstract)]
            lines.append(
                {
                    "id": order[len(dump)],
                    "paper_id": h.paper_id,
                    "sentences": sentences,
                    "close": [closeness(s) if closeness else 0.0 for s in sentences],
                    "said_absent": cited is not None and not cited.evidence,
                    "abstract": h.abstract,
                    "title": h.title,
                }
            )
        return out

    shapes._per_paper = recording
    try:
        answer_eval.conversation_metrics(_conversations(), retriever, settings, dump)
    finally:
        shapes._per_paper = original
    return lines, dump


def absent_probe(lines: list[dict[str, Any]]) -> None:
    """Probe 1: the closest sentence where the rules say "does not mention"."""
    labels = {(r["id"], r["paper_id"]): r for r in map(json.loads, LABELS.open())}
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    seen = set()
    for line in lines:
        label = labels.get((line["id"], line["paper_id"]))
        key = (line["id"], line["paper_id"])
        if label is None or not (label["sentences"] or label["absent"]) or key in seen:
            continue
        seen.add(key)
        wanted = [_folded(t) for t in label["sentences"]]
        best = max(range(len(line["sentences"])), key=lambda i: line["close"][i])
        text = _folded(line["sentences"][best])
        labelled = any(w in text or text in w for w in wanted)
        s = stats[label["split"]]
        s["lines"] += 1
        if line["said_absent"]:
            s["said_absent"] += 1
            s["said_absent_truly"] += label["absent"]
            s["said_absent_closest_labelled"] += labelled
            doing = shapes.what_it_does(line["abstract"], line["title"])
            s["said_absent_contribution_labelled"] += doing is not None and any(
                w in _folded(doing.text) or _folded(doing.text) in w for w in wanted
            )
        for floor in FLOORS:
            if line["close"][best] >= floor:
                s[f"over_{floor}"] += 1
                s[f"over_{floor}_labelled"] += labelled
                s[f"over_{floor}_absent"] += label["absent"]
    print('1. "does not mention" lines (c051-c130) and the sentence MiniLM puts closest to the asked part')
    for part in ("tune", "heldout"):
        s = stats[part]
        print(
            f'  {part:<8} lines {s["lines"]}; said "does not mention" {s["said_absent"]}, of which the abstract is'
            f" truly silent in {s['said_absent_truly']} and the closest sentence answers in"
            f" {s['said_absent_closest_labelled']}, the sentence saying what the paper does in"
            f" {s['said_absent_contribution_labelled']}"
        )
        for floor in FLOORS:
            n = s[f"over_{floor}"]
            share = s[f"over_{floor}_labelled"] / n if n else 0.0
            print(
                f"           closest >= {floor}: {n} lines, closest is an answering sentence in {share:.2f},"
                f" abstract silent in {s[f'over_{floor}_absent']}"
            )


def refusal_probe(assistant: Assistant) -> None:
    """Probe 2: how close the nearest sentence is, for right and wrong refusals."""
    judged = {r["id"]: r for r in map(json.loads, JUDGED.open())}
    conversations = {c["id"]: c for c in quality_eval.load(quality_eval.CONVERSATIONS)}
    questions = {q["id"]: q for q in load_questions(QUESTIONS)}
    rows = []
    for rid, record in judged.items():
        if record["mode"] != "refusal":
            continue
        history: list[dict[str, Any]] = []
        if "." in rid:
            cid, turn = rid.split(".")
            asked = conversations[cid]["turns"][: int(turn)]
            for earlier in asked[:-1]:
                d = assistant.ask(earlier["question"], history).to_dict()
                history.append({"question": earlier["question"], "citations": d["citations"], "focus": d["focus"]})
            question = asked[-1]["question"]
        else:
            question = questions[rid]["question"]
        plan = assistant.plan(question, history)
        hits = list(plan.hits or assistant.retriever.search(plan.rewritten))[:5]
        closeness = assistant._closeness.for_question(plan.question, hits)
        best = max((closeness(s.text) for h in hits for s in split_sentences(h.abstract)), default=0.0)
        rows.append((record["split"], bool(record["gold"]), best, rid))
    print("2. refusals: the closest sentence of the five best papers (wrong = a paper answers)")
    for part in ("tune", "heldout"):
        right = sorted(b for s, wrong, b, _ in rows if s == part and not wrong)
        wrong = sorted(b for s, w, b, _ in rows if s == part and w)
        print(
            f"  {part:<8} right refusals {len(right)} (closest up to {max(right, default=0):.3f}),"
            f" wrong refusals {len(wrong)} (closest {', '.join(f'{b:.3f}' for b in wrong)})"
        )


def weight_probe(weights: list[float], retriever: Retriever, settings: Settings) -> None:
    """Probe 3: the evidence figures at each closeness weight."""
    labels = [json.loads(line) for line in LABELS.open()]
    default = evidence.CLOSENESS_WEIGHT
    print("3. evidence figures by closeness weight (asked papers cited / answering sentence quoted)")
    try:
        for weight in weights:
            evidence.CLOSENESS_WEIGHT = weight
            dump: list[dict[str, Any]] = []
            answer_eval.conversation_metrics(_conversations(), retriever, settings, dump)
            m = answer_eval.evidence_metrics(labels, dump)
            print(
                f"  weight {weight:<4} tune {m['tune']['cited']:.3f} / {m['tune']['answering_quoted']:.3f}"
                f"   heldout {m['heldout']['cited']:.3f} / {m['heldout']['answering_quoted']:.3f}"
            )
    finally:
        evidence.CLOSENESS_WEIGHT = default


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default="", help="comma-separated closeness weights to measure (slow)")
    args = parser.parse_args()
    settings = Settings.from_env()
    seeds = replace(settings, data_dir=settings.data_dir / "eval" / "seeds", chroma_url="")
    embedder = load_embedder(settings.embed_model)
    retriever = Retriever(Index.open(seeds), lambda: embedder, seeds)
    lines, _ = _per_paper_lines(retriever, settings)
    absent_probe(lines)
    refusal_probe(Assistant(retriever, lambda: load_llm(settings), seeds))
    if args.weights:
        weight_probe([float(w) for w in args.weights.split(",")], retriever, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())

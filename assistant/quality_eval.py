"""Labelled-set figures that need no model: the question classifier and the sentence checker.

- ``tests/eval/intents.jsonl``: questions labelled with the kind of answer they need; the
  classifier's accuracy per split and its confusions.
- ``tests/eval/faithfulness.jsonl``: sentences the packaged model drafted for the eval
  questions, each labelled supported / unsupported by reading the cited abstract (never by the
  checker). The checker's precision (kept and supported / kept) and recall (kept / supported).

Every figure is reported on the tuning part and on the held-out part (fixed by id), which
nothing was chosen on.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from assistant.citations import check
from assistant.config import PROJECT_ROOT
from assistant.intents import detect
from assistant.retrieval import Hit
from assistant.store import StoredPaper

EVAL = PROJECT_ROOT / "tests" / "eval"
INTENTS = EVAL / "intents.jsonl"
FAITHFULNESS = EVAL / "faithfulness.jsonl"
CONVERSATIONS = EVAL / "conversations.jsonl"
EVIDENCE = EVAL / "evidence.jsonl"
SPLITS = ("tune", "heldout")


def load(path: Path) -> list[dict[str, Any]]:
    """A JSON Lines file."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def intent_accuracy(rows: Iterable[dict[str, Any]], papers: Sequence[StoredPaper]) -> dict[str, Any]:
    """Accuracy of ``intents.detect`` per split, with the confusions (label -> detected: count)."""
    out: dict[str, Any] = {}
    per: dict[str, list[bool]] = defaultdict(list)
    confusions: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        got = detect(row["question"], papers, int(row.get("focus", 0))).kind
        per[row["split"]].append(got == row["kind"])
        per["all"].append(got == row["kind"])
        if got != row["kind"]:
            confusions[row["split"]][f"{row['kind']}->{got}"] += 1
            confusions["all"][f"{row['kind']}->{got}"] += 1
    for split, hits in per.items():
        out[split] = {
            "n": len(hits),
            "accuracy": sum(hits) / len(hits) if hits else 0.0,
            "confusions": dict(confusions[split].most_common()),
        }
    return out


def checker_verdict(row: dict[str, Any], hit: Hit) -> bool:
    """Does the checker keep the drafted sentence, citing the paper it was labelled against? The
    sentence is checked as it was drafted: its end punctuation kept, an unfinished one left open.
    Code pointers are allowed here: dropping them is a usefulness policy, not a support verdict."""
    claim = row["claim"].strip()
    end = claim[-1] if claim[-1:] in ".?!" else ""
    finished = bool(end) and row.get("complete", True)
    sentence = claim[: len(claim) - len(end)].rstrip() + " [1]" + (end or "") + ("" if finished else " …")
    return bool(check(sentence, [hit], pointers_ok=True, question=row.get("question", "")).sentences)


def checker_metrics(rows: Iterable[dict[str, Any]], hits_by_id: dict[str, Hit]) -> dict[str, dict[str, float]]:
    """Precision and recall of the checker against the reading labels, per split and kind group."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        hit = hits_by_id.get(row["paper_id"])
        if hit is None:
            continue
        kept = checker_verdict(row, hit)
        supported = row["label"] == "supported"
        group = "list/compare/follow-up" if row.get("group") == "multi" else "single"
        for key in (row["split"], "all", f"{row['split']} {group}"):
            c = counts[key]
            c["n"] += 1
            c["supported"] += supported
            c["kept"] += kept
            c["kept_supported"] += kept and supported
    return {
        key: {
            "n": c["n"],
            "supported": c["supported"],
            "kept": c["kept"],
            "precision": c["kept_supported"] / c["kept"] if c["kept"] else 1.0,
            "recall": c["kept_supported"] / c["supported"] if c["supported"] else 1.0,
        }
        for key, c in counts.items()
    }


def format_intents(metrics: dict[str, Any]) -> str:
    """The classifier figures as text."""
    lines = ["question classifier (tests/eval/intents.jsonl)"]
    for split in (*SPLITS, "all"):
        if split in metrics:
            m = metrics[split]
            worst = ", ".join(f"{k} {v}" for k, v in list(m["confusions"].items())[:4]) or "none"
            lines.append(f"  {split:<8} n={m['n']:<4} accuracy {m['accuracy']:.3f}   confusions: {worst}")
    return "\n".join(lines)


def format_checker(metrics: dict[str, dict[str, float]]) -> str:
    """The checker figures as text."""
    lines = [
        "sentence checker against reading labels (tests/eval/faithfulness.jsonl)",
        f"  {'part':<32}{'n':>6}{'supported':>11}{'kept':>7}{'precision':>11}{'recall':>9}",
    ]
    for key in sorted(metrics, key=lambda k: (k.split()[0] == "all", k.split()[0] != "tune", k)):
        m = metrics[key]
        lines.append(
            f"  {key:<32}{m['n']:>6}{m['supported']:>11}{m['kept']:>7}{m['precision']:>11.3f}{m['recall']:>9.3f}"
        )
    return "\n".join(lines)

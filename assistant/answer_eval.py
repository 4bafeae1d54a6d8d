"""End-to-end answer metrics over the evaluation questions (``assistant eval``)."""

from __future__ import annotations

import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from assistant.answer import Answer, Assistant
from assistant.llm import load_llm
from assistant.retrieval import Retriever


def score(q: dict[str, Any], answer: Answer) -> dict[str, float]:
    """Per-question figures; keys absent when they do not apply.

    No figure re-checks the answer's numbers against its cited abstracts: that is the checker's
    own test, so such a figure could never fall below 1 (the checker is measured against reading
    labels in quality_eval instead)."""
    gold = set(q["gold"])
    cited = [c.paper_id for c in answer.citations]
    out: dict[str, float] = {}
    if q.get("expect_authors"):  # "who wrote ...?", alone or as a follow-up: every name must be given
        out["authors_ok"] = float(all(a in answer.answer for a in q["expect_authors"]))
    if not gold:
        out["refusal_ok"] = float(answer.refused)
        return out
    out["false_refusal"] = float(answer.refused)
    out["hit@5"] = float(bool(gold & {h.paper_id for h in answer.passages[:5]}))
    if cited:
        out["citation_precision"] = sum(pid in gold for pid in cited) / len(cited)
    out["citation_recall"] = len(gold & set(cited)) / len(gold)
    if q.get("number"):
        out["number_ok"] = float(_has_number(answer.answer, q["number"]))
    if q["kind"] == "followup":
        authors_ok = all(a in answer.answer for a in q.get("expect_authors", []))
        out["followup_ok"] = float(bool(gold & set(cited)) and authors_ok)
    return out


def _has_number(text: str, number: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(number)}(?![\w])", text) is not None or number in text.split()


def record(answer: Answer, **extra: Any) -> dict[str, Any]:
    """One answer as a line of the answers file that is read and judged (bench/JUDGED.md)."""
    d = answer.to_dict()
    return {
        **extra,
        "kind_detected": d["kind"],
        "mode": d["mode"],
        "answer": d["answer"],
        "rewritten": d["rewritten_query"],
        "notice": d["notice"],
        "refused": d["refused"],
        "citations": [
            {"n": c["n"], "paper_id": c["paper_id"], "title": c["title"], "evidence": c["evidence"]}
            for c in d["citations"]
        ],
        "focus": d["focus"],
        "total_ms": d["timings_ms"].get("total_ms"),
        "first_visible_ms": d["timings_ms"].get("first_token_ms", d["timings_ms"].get("total_ms")),
    }


def answer_metrics(
    questions: Iterable[dict[str, Any]], retriever: Retriever, settings: Any, dump: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Run every question through the pipeline; aggregate per kind, per split and overall.
    ``dump``: receives every answer as a record for reading."""
    assistant = Assistant(retriever, lambda: load_llm(settings), settings)
    per_kind: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    times, first_tokens = [], []
    for q in questions:
        answer = assistant.ask(q["question"], q.get("history", []))
        times.append(answer.timings_ms["total_ms"])
        if "first_token_ms" in answer.timings_ms:
            first_tokens.append(answer.timings_ms["first_token_ms"])
        if dump is not None:
            dump.append(
                record(
                    answer,
                    id=q["id"],
                    set="questions",
                    kind=q["kind"],
                    split=q.get("split", ""),
                    question=q["question"],
                    history=q.get("history", []),
                    gold=q["gold"],
                )
            )
        for group in (q["kind"], "all", f"all {q.get('split', 'tune')}"):
            per_kind[group]["n"].append(1.0)
            for key, value in score(q, answer).items():
                per_kind[group][key].append(value)
        print(
            f"  {q['id']} {q['kind']:<12} {'REFUSED' if answer.refused else answer.mode:<10} "
            f"cited={[c.paper_id for c in answer.citations]} gold={q['gold']}",
            file=sys.stderr,
        )
    out: dict[str, Any] = {}
    for kind, values in per_kind.items():
        row: dict[str, float] = {"n": float(len(values["n"]))}
        for key, vals in values.items():
            if key != "n":
                row[key] = sum(vals) / len(vals) if vals else float("nan")
        out[kind] = row
    out["_timing"] = {
        "median_total_ms": statistics.median(times) if times else 0.0,
        "median_first_token_ms": statistics.median(first_tokens) if first_tokens else 0.0,
    }
    return out


COLUMNS = [
    "n",
    "hit@5",
    "citation_precision",
    "citation_recall",
    "refusal_ok",
    "false_refusal",
    "number_ok",
    "followup_ok",
    "authors_ok",
]


def format_answers(metrics: dict[str, Any]) -> str:
    """The answer metrics as a table (blank where a figure does not apply)."""
    lines = [
        "answers over the seeds index (" + ", ".join(f"{k}={v:.0f}" for k, v in metrics["_timing"].items()) + ")",
        f"  {'kind':<14}" + "".join(f"{c[:14]:>15}" for c in COLUMNS),
    ]
    for kind in sorted((k for k in metrics if not k.startswith("_")), key=lambda k: (k.startswith("all"), k)):
        row = metrics[kind]
        cells = []
        for c in COLUMNS:
            v = row.get(c)
            cells.append(f"{'':>15}" if v is None else f"{int(v):>15}" if c == "n" else f"{v:>15.3f}")
        lines.append(f"  {kind:<14}" + "".join(cells))
    return "\n".join(lines)


def conversation_metrics(
    conversations: Iterable[dict[str, Any]],
    retriever: Retriever,
    settings: Any,
    dump: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Every turn of every conversation, answered with the earlier turns' answers as history.

    Per split: turns whose gold papers are all cited (the answer covers every paper asked about),
    turns with no gold that are refused, and the time to the whole answer and to the first
    visible text per answer shape."""
    assistant = Assistant(retriever, lambda: load_llm(settings), settings)
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    shape_times: dict[str, list[float]] = defaultdict(list)
    shape_first: dict[str, list[float]] = defaultdict(list)
    for conv in conversations:
        history: list[dict[str, Any]] = []
        for t, turn in enumerate(conv["turns"], 1):
            answer = assistant.ask(turn["question"], history)
            d = answer.to_dict()
            history.append({"question": turn["question"], "citations": d["citations"], "focus": d["focus"]})
            cited = {c["paper_id"] for c in d["citations"]}
            gold = set(turn["gold"])
            for key in (conv["split"], "all"):
                s = sums[key]
                s["turns"] += 1
                if gold:
                    s["answerable"] += 1
                    s["all_gold_cited"] += gold <= cited
                    s["no_extra_cited"] += cited <= gold
                else:
                    s["unanswerable"] += 1
                    s["refused"] += answer.refused
            shape_times[answer.mode].append(answer.timings_ms["total_ms"])
            shape_first[answer.mode].append(answer.timings_ms.get("first_token_ms", answer.timings_ms["total_ms"]))
            if dump is not None:
                dump.append(
                    record(
                        answer,
                        id=f"{conv['id']}.{t}",
                        set="conversations",
                        kind="conversation",
                        split=conv["split"],
                        question=turn["question"],
                        history=[h["question"] for h in history[:-1]],
                        gold=turn["gold"],
                        expect=turn.get("expect", ""),
                    )
                )
    out: dict[str, Any] = {}
    for key, s in sums.items():
        out[key] = {
            "turns": s["turns"],
            "all_gold_cited": s["all_gold_cited"] / s["answerable"] if s["answerable"] else 0.0,
            "no_extra_cited": s["no_extra_cited"] / s["answerable"] if s["answerable"] else 0.0,
            "unanswerable_refused": s["refused"] / s["unanswerable"] if s["unanswerable"] else 0.0,
        }
    out["_shapes"] = {
        mode: {
            "n": len(v),
            "p50_ms": statistics.median(v),
            "first_visible_p50_ms": statistics.median(shape_first[mode]),
        }
        for mode, v in shape_times.items()
    }
    return out


def _folded(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def evidence_metrics(
    labels: Iterable[dict[str, Any]], answers: Iterable[dict[str, Any]]
) -> dict[str, dict[str, float]]:
    """How often an answer quotes, for each paper a turn asks about, the sentence that answers it.

    ``labels`` (``tests/eval/evidence.jsonl``): per conversation turn and asked paper, the abstract
    sentences a correct answer quotes, or ``absent`` when the abstract does not say, labelled by
    reading. ``answers``: the answer records ``conversation_metrics`` dumps. Per part: the asked
    papers the answer cites at all, those whose cited evidence holds a labelled sentence, and for
    ``absent`` ones, those cited with no sentence claimed to answer (the "does not mention" line)."""
    by_id = {a["id"]: a for a in answers}
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for label in labels:
        answer = by_id.get(label["id"])
        if answer is None or not (label["sentences"] or label["absent"]):  # metadata asks quote nothing
            continue
        cited = [c for c in answer["citations"] if c["paper_id"] == label["paper_id"]]
        quoted = [_folded(e) for c in cited for e in c["evidence"]]
        for key in (label["split"], "all"):
            s = sums[key]
            s["pairs"] += 1
            s["cited"] += bool(cited)
            if label["absent"]:
                s["absent"] += 1
                s["absent_said"] += bool(cited) and not quoted
            else:
                s["present"] += 1
                wanted = [_folded(t) for t in label["sentences"]]
                s["quoted"] += any(w in q or q in w for w in wanted for q in quoted)
    return {
        key: {
            "pairs": s["pairs"],
            "cited": s["cited"] / s["pairs"] if s["pairs"] else 0.0,
            "answering_quoted": s["quoted"] / s["present"] if s["present"] else 0.0,
            "absent_said": s["absent_said"] / s["absent"] if s["absent"] else 0.0,
        }
        for key, s in sums.items()
    }


def format_evidence(metrics: dict[str, dict[str, float]]) -> str:
    """The evidence figures as text."""
    lines = [
        "evidence per asked paper (tests/eval/evidence.jsonl, answering sentences labelled by reading)",
        f"  {'part':<10}{'pairs':>7}{'paper cited':>13}{'answering sentence quoted':>27}{'absent said so':>16}",
    ]
    for key in ("tune", "heldout", "all"):
        if key in metrics:
            m = metrics[key]
            lines.append(
                f"  {key:<10}{int(m['pairs']):>7}{m['cited']:>13.3f}{m['answering_quoted']:>27.3f}{m['absent_said']:>16.3f}"
            )
    return "\n".join(lines)


def format_conversations(metrics: dict[str, Any]) -> str:
    """The conversation figures as text."""
    lines = [
        "conversations (tests/eval/conversations.jsonl), every turn",
        f"  {'part':<10}{'turns':>7}{'all asked cited':>17}{'no extra cited':>16}{'unanswerable refused':>22}",
    ]
    for key in ("tune", "heldout", "all"):
        if key in metrics:
            m = metrics[key]
            lines.append(
                f"  {key:<10}{int(m['turns']):>7}{m['all_gold_cited']:>17.3f}{m['no_extra_cited']:>16.3f}"
                f"{m['unanswerable_refused']:>22.3f}"
            )
    lines.append("  answer shape: n, p50 total / p50 first visible text (ms)")
    for mode, m in sorted(metrics["_shapes"].items()):
        lines.append(f"    {mode:<14}{m['n']:>5}{m['p50_ms']:>10.0f}{m['first_visible_p50_ms']:>10.0f}")
    return "\n".join(lines)

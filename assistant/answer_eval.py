"""End-to-end answer metrics over the evaluation questions (``assistant eval``)."""

from __future__ import annotations

import re
import statistics
import sys
from collections import defaultdict
from typing import Any, Iterable

from assistant.answer import Answer, Assistant
from assistant.citations import markers, numbers
from assistant.llm import load_llm
from assistant.retrieval import Retriever
from assistant.sentences import split_sentences


def grounded_sentences(answer: Answer) -> tuple[int, int]:
    """(sentences whose numbers all occur in their cited abstracts, sentences with citations)."""
    by_n = {c.n: f"{c.title} {c.abstract}" for c in answer.citations}
    ok = total = 0
    lines = answer.answer.splitlines() if answer.mode == "comparison" else [answer.answer]
    for line in lines:
        for cell in (line.split("|") if answer.mode == "comparison" else [line]):
            for s in split_sentences(cell):
                text, keys = markers(s.text)
                if not keys:
                    continue
                total += 1
                source = " ".join(by_n.get(k, "") for k in keys)
                ok += numbers(text) <= numbers(source)
    return ok, total


def score(q: dict[str, Any], answer: Answer) -> dict[str, float]:
    """Per-question figures; keys absent when they do not apply."""
    gold = set(q["gold"])
    cited = [c.paper_id for c in answer.citations]
    out: dict[str, float] = {}
    ok, total = grounded_sentences(answer)
    out["grounded_ok"], out["grounded_total"] = ok, total
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


def answer_metrics(questions: Iterable[dict[str, Any]], retriever: Retriever, settings: Any) -> dict[str, Any]:
    """Run every question through the pipeline; aggregate per kind and overall."""
    assistant = Assistant(retriever, lambda: load_llm(settings), settings)
    per_kind: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    times, first_tokens = [], []
    for q in questions:
        answer = assistant.ask(q["question"], q.get("history", []))
        times.append(answer.timings_ms["total_ms"])
        if "first_token_ms" in answer.timings_ms:
            first_tokens.append(answer.timings_ms["first_token_ms"])
        for key, value in score(q, answer).items():
            per_kind[q["kind"]][key].append(value)
            per_kind["all"][key].append(value)
        print(f"  {q['id']} {q['kind']:<12} {'REFUSED' if answer.refused else answer.mode:<10} "
              f"cited={[c.paper_id for c in answer.citations]} gold={q['gold']}", file=sys.stderr)
    out: dict[str, Any] = {}
    for kind, values in per_kind.items():
        row: dict[str, float] = {"n": float(sum(1 for _ in values.get("grounded_total", [])))}
        for key, vals in values.items():
            if key.startswith("grounded"):
                continue
            row[key] = sum(vals) / len(vals) if vals else float("nan")
        total = sum(values.get("grounded_total", []))
        row["numbers_grounded"] = sum(values.get("grounded_ok", [])) / total if total else 1.0
        out[kind] = row
    out["_timing"] = {"median_total_ms": statistics.median(times) if times else 0.0,
                      "median_first_token_ms": statistics.median(first_tokens) if first_tokens else 0.0}
    return out


COLUMNS = ["n", "hit@5", "citation_precision", "citation_recall", "refusal_ok", "false_refusal", "number_ok",
           "followup_ok", "numbers_grounded"]


def format_answers(metrics: dict[str, Any]) -> str:
    """The answer metrics as a table (blank where a figure does not apply)."""
    lines = ["answers over the seeds index (" + ", ".join(f"{k}={v:.0f}" for k, v in metrics["_timing"].items()) + ")",
             f"  {'kind':<12}" + "".join(f"{c[:14]:>15}" for c in COLUMNS)]
    for kind in sorted((k for k in metrics if not k.startswith("_")), key=lambda k: (k == "all", k)):
        row = metrics[kind]
        cells = []
        for c in COLUMNS:
            v = row.get(c)
            cells.append(f"{'':>15}" if v is None else f"{int(v):>15}" if c == "n" else f"{v:>15.3f}")
        lines.append(f"  {kind:<12}" + "".join(cells))
    return "\n".join(lines)

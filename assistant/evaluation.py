"""Evaluation harness: retrieval metrics on the project's question set, over two indexes.

- ``seeds``: the 39 seed papers only;
- ``catalogue``: the seeds plus all 2,634 ICML 2024 posters, where lookalikes are real.
Every figure is given for the tuning part and the held-out part (``split``, fixed by id): the
held-out part was never used to choose anything. Questions whose gold is outside an index
(``index: catalogue``) count only over the catalogue.
Figures are printed, never asserted: quality targets live here, not in tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from assistant import answer_eval, quality_eval
from assistant.answer import Assistant
from assistant.condense import Turn, standalone
from assistant.config import PROJECT_ROOT, Settings
from assistant.embedding import Embedder, load_embedder
from assistant.index import Index
from assistant.ingest import ingest
from assistant.intents import detect
from assistant.retrieval import Retriever
from assistant.seed_metadata import DEFAULT_CATALOGUE
from assistant.text import fold

QUESTIONS = PROJECT_ROOT / "tests" / "eval" / "questions.jsonl"
SPLITS = ("tune", "heldout")
# Routes that only a question of that kind may take: any other question sent there misfires.
_NAMED_ROUTES = {"author": {"papers_by", "authors_of"}, "two_papers": {"compare"}, "area": {"area", "list"}}


def load_questions(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    """The evaluation questions (JSON Lines)."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def search_query(q: dict[str, Any]) -> str:
    """A question as one search string (follow-ups with their earlier questions)."""
    return standalone(q["question"], [], [Turn(h) for h in q.get("history", [])])


def ranked_ids(q: dict[str, Any], retriever: Retriever, k: int = 10) -> list[str]:
    """Paper ids the assistant retrieves for a question, exactly as answering does
    (follow-up rewriting, author/area filters, one search per compared paper), then
    topped up from a plain search so every question gets ``k`` ranks."""
    settings = replace(retriever.settings, top_k=k)
    plan = Assistant(retriever, _no_llm, settings).plan(q["question"], q.get("history", []))
    ranked = list(dict.fromkeys(h.paper_id for h in plan.hits))
    for h in retriever.search(plan.rewritten, k):
        if h.paper_id not in ranked:
            ranked.append(h.paper_id)
    return ranked[:k]


def _no_llm() -> Any:
    raise RuntimeError("retrieval evaluation never calls the model")


def gold_in(q: dict[str, Any], retriever: Retriever) -> set[str]:
    """The papers that answer ``q`` in this index. "Which papers did X write?" is answered by
    every indexed paper of X: over the catalogue that is more than the seed papers listed."""
    gold = set(q["gold"])
    if q["kind"] != "author" or not gold:
        return gold
    papers = {p.paper.paper_id: p.paper for p in retriever.papers()}
    common = set.intersection(*(set(papers[g].authors) for g in gold if g in papers)) if gold <= set(papers) else set()
    named = {a for a in common if fold(a) in fold(q["question"])}
    return gold | {pid for pid, p in papers.items() if named & set(p.authors)}


def retrieval_metrics(
    questions: Iterable[dict[str, Any]], retriever: Retriever, k: int = 10, index: str = ""
) -> dict[str, dict[str, float]]:
    """hit@1, hit@5, MRR and all-gold@10 per kind and overall (answerable questions only).

    ``index`` names the index searched ("seeds", "catalogue"): a question marked for one index only
    (``"index": "seeds"``: "which papers are about privacy?", whose gold is the seed papers on it,
    while dozens of catalogue posters answer it too) is left out over any other."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    indexed = {p.paper.paper_id for p in retriever.papers()} if retriever is not None else set()
    for q in questions:
        if indexed and not set(q["gold"]) <= indexed:
            continue  # a catalogue-only question over the seeds index
        if index and q.get("index", index) != index:
            continue
        gold = gold_in(q, retriever)
        if not gold:
            continue
        ranked = ranked_ids(q, retriever, k)
        first = next((r for r, pid in enumerate(ranked, 1) if pid in gold), None)
        for kind in (q["kind"], "all"):
            s = sums[kind]
            s["n"] += 1
            s["hit@1"] += first == 1
            s["hit@5"] += first is not None and first <= 5
            s["mrr"] += 1.0 / first if first else 0.0
            s["all_gold@10"] += gold <= set(ranked[:10]) or set(ranked[:10]) <= gold
    return {kind: {m: (v if m == "n" else v / s["n"]) for m, v in s.items()} for kind, s in sums.items()}


def by_split(questions: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The questions of each part (``tune``, ``heldout``)."""
    parts: dict[str, list[dict[str, Any]]] = {split: [] for split in SPLITS}
    for q in questions:
        parts[q["split"]].append(q)
    return parts


def split_metrics(
    questions: Iterable[dict[str, Any]], retriever: Retriever, k: int = 10, index: str = ""
) -> dict[str, Any]:
    """``retrieval_metrics`` on the tuning part and on the held-out part separately."""
    return {split: retrieval_metrics(qs, retriever, k, index) for split, qs in by_split(questions).items()}


def expected_route(q: dict[str, Any]) -> set[str] | None:
    """The intents that handle a labelled question correctly; None when it cannot be told alone
    (a follow-up depends on the papers in focus)."""
    kind = q["kind"]
    if kind == "followup":
        return None
    if kind == "author":
        return {"authors_of"} if q.get("expect_authors") else {"papers_by"}
    if kind in _NAMED_ROUTES:
        return _NAMED_ROUTES[kind]
    return {"lookup", "list", "quantity", "attribute"}  # anything but an author, comparison or area route


def route_ok(q: dict[str, Any], retriever: Retriever) -> tuple[bool, str]:
    """Does the question go where it should? A papers-by question must also name the right author
    (one every gold paper shares). Returns (correct, detected kind)."""
    papers = retriever.papers()
    intent = detect(q["question"], papers)
    ok = intent.kind in (expected_route(q) or set())
    if ok and intent.kind == "papers_by":
        by_id = {p.paper.paper_id: p.paper for p in papers}
        shared = set.intersection(*(set(by_id[g].authors) for g in q["gold"] if g in by_id))
        ok = bool(shared & set(intent.authors))
    return ok, intent.kind


def routing_accuracy(questions: Iterable[dict[str, Any]], retriever: Retriever) -> dict[str, dict[str, Any]]:
    """Share of labelled questions routed correctly, per part, with the misroutes (kind->route: n)."""
    indexed = {p.paper.paper_id for p in retriever.papers()}
    out: dict[str, dict[str, Any]] = {}
    for split, qs in by_split(questions).items():
        results = [
            (q, *route_ok(q, retriever)) for q in qs if expected_route(q) is not None and set(q["gold"]) <= indexed
        ]
        wrong: dict[str, int] = defaultdict(int)
        for q, ok, got in results:
            if not ok:
                wrong[f"{q['kind']}->{got}"] += 1
        out[split] = {
            "n": len(results),
            "accuracy": sum(ok for _, ok, _ in results) / max(len(results), 1),
            "misroutes": dict(wrong),
        }
    return out


def search_latency(questions: Iterable[dict[str, Any]], retriever: Retriever, k: int = 10) -> dict[str, float]:
    """p50 / p95 milliseconds of one plain search per question (the query embedder warmed first)."""
    queries = [search_query(q) for q in questions]
    retriever.search(queries[0], k)
    times = []
    for query in queries:
        start = time.perf_counter()
        retriever.search(query, k)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"n": len(times), "p50_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))]}


def title_check(retriever: Retriever, limit: int | None = None) -> dict[str, float]:
    """Each catalogue poster's exact title as the query must find its own paper."""
    papers = [p.paper for p in retriever.papers() if p.paper.url][:limit]
    hit1 = hit10 = 0
    for paper in papers:
        ranked = [h.paper_id for h in retriever.search(paper.title, 10)]
        hit1 += bool(ranked) and ranked[0] == paper.paper_id
        hit10 += paper.paper_id in ranked
    n = max(len(papers), 1)
    return {"n": len(papers), "hit@1": hit1 / n, "hit@10": hit10 / n}


def eval_index(settings: Settings, name: str, sources: list[Path], embedder: Embedder) -> Retriever:
    """Ingest ``sources`` into ``<data_dir>/eval/<name>`` (a no-op when unchanged) and open it."""
    sub = replace(settings, data_dir=settings.data_dir / "eval" / name, chroma_url="")
    ingest(sources, sub, embedder_factory=lambda: embedder, log=lambda m: print(f"[{name}] {m}", file=sys.stderr))
    return Retriever(Index.open(sub), lambda: embedder, sub)


def format_table(title: str, metrics: dict[str, dict[str, float]]) -> str:
    """Metrics as a fixed-width table."""
    cols = ["n", "hit@1", "hit@5", "mrr", "all_gold@10"]
    lines = [title, f"  {'kind':<12}" + "".join(f"{c:>12}" for c in cols)]
    for kind in sorted(metrics, key=lambda k: (k == "all", k)):
        m = metrics[kind]
        lines.append(f"  {kind:<12}" + "".join(f"{int(m[c]):>12}" if c == "n" else f"{m[c]:>12.3f}" for c in cols))
    return "\n".join(lines)


def format_routing(routing: dict[str, dict[str, Any]]) -> str:
    """Routing accuracy per part, with the misroutes."""
    lines = ["routing of the labelled questions (catalogue index; follow-ups left out)"]
    for split, r in routing.items():
        wrong = ", ".join(f"{k} {v}" for k, v in sorted(r["misroutes"].items())) or "none"
        lines.append(f"  {split:<8} n={r['n']:<4} accuracy {r['accuracy']:.3f}   misroutes: {wrong}")
    return "\n".join(lines)


def run_cli(
    args: argparse.Namespace, settings: Settings, embedder_factory: Callable[[], Embedder] | None = None
) -> int:
    """``assistant eval``: print retrieval metrics over the seeds and catalogue indexes."""
    questions = load_questions(args.questions or QUESTIONS)
    catalogue = args.catalogue or DEFAULT_CATALOGUE
    embedder = (embedder_factory or (lambda: load_embedder(settings.embed_model)))()
    results: dict[str, Any] = {}
    seeds = eval_index(settings, "seeds", [settings.seeds_dir], embedder)
    results["seeds"] = split_metrics(questions, seeds, index="seeds")
    if catalogue.is_file():
        full = eval_index(settings, "catalogue", [settings.seeds_dir, catalogue], embedder)
        results["catalogue"] = split_metrics(questions, full, index="catalogue")
        results["routing"] = routing_accuracy(questions, full)
        results["latency"] = search_latency(questions, full)
        if args.title_check:
            results["title_check"] = title_check(full)
    else:
        print(f"note: catalogue {catalogue} not found; only the seeds index was evaluated", file=sys.stderr)
    papers = seeds.papers()
    results["intents"] = quality_eval.intent_accuracy(quality_eval.load(quality_eval.INTENTS), papers)
    if quality_eval.FAITHFULNESS.is_file():
        hits = {h.paper_id: h for h in seeds.hits_for([p.paper.paper_id for p in papers])}
        results["checker"] = quality_eval.checker_metrics(quality_eval.load(quality_eval.FAITHFULNESS), hits)
    if not args.retrieval:
        dump: list[dict[str, Any]] = []
        # Answers are read over the seeds index: a catalogue-only question has no seed paper to cite.
        seed_questions = [q for q in questions if q.get("index") != "catalogue"]
        results["answers"] = answer_eval.answer_metrics(seed_questions, seeds, settings, dump)
        results["conversations"] = answer_eval.conversation_metrics(
            quality_eval.load(quality_eval.CONVERSATIONS), seeds, settings, dump
        )
        if quality_eval.EVIDENCE.is_file():
            results["evidence"] = answer_eval.evidence_metrics(quality_eval.load(quality_eval.EVIDENCE), dump)
        if args.answers_out:
            args.answers_out.parent.mkdir(parents=True, exist_ok=True)
            with open(args.answers_out, "w", encoding="utf-8") as out:
                out.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in dump)
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
        return 0
    print(
        f"fusion: {settings.fusion} dense_weight={settings.dense_weight} lexical_weight={settings.lexical_weight}"
        + (f" rrf_k={settings.rrf_k}" if settings.fusion == "rrf" else "")
    )
    for name in ("seeds", "catalogue"):
        for split in SPLITS if name in results else ():
            print(format_table(f"retrieval over the {name} index, {split} part", results[name][split]))
    if "routing" in results:
        print(format_routing(results["routing"]))
        lat = results["latency"]
        print(
            f"search over the catalogue: p50 {lat['p50_ms']:.1f} ms  p95 {lat['p95_ms']:.1f} ms  ({lat['n']} queries)"
        )
    if "title_check" in results:
        t = results["title_check"]
        print(f"exact-title check over {t['n']} posters: hit@1 {t['hit@1']:.3f}  hit@10 {t['hit@10']:.3f}")
    print(quality_eval.format_intents(results["intents"]))
    if "checker" in results:
        print(quality_eval.format_checker(results["checker"]))
    if "answers" in results:
        print(answer_eval.format_answers(results["answers"]))
        print(answer_eval.format_conversations(results["conversations"]))
        if "evidence" in results:
            print(answer_eval.format_evidence(results["evidence"]))
    return 0

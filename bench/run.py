"""Benchmarks: ingest, re-ingest, search latency, cold start, serve start, memory, and answer generation.

Every figure is measured in this one run next to a baseline measured the same way, and
written to bench/RESULTS.md with the command that made it. Run with ``make bench``.

    python bench/run.py [--skip-answers] [--skip-catalogue] [--out bench/out] [--only-start | --only-answers | --only-ingest]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.chunking import chunk_abstract, embedding_text  # noqa: E402
from assistant.config import Settings  # noqa: E402
from assistant.embedding import MiniLMEmbedder  # noqa: E402
from assistant.evaluation import load_questions, search_query  # noqa: E402
from assistant import segments  # noqa: E402
from assistant.index import Index  # noqa: E402
from assistant.ingest import ingest, parse_sources  # noqa: E402
from assistant.retrieval import DENSE_POOL, LEXICAL_POOL, Retriever  # noqa: E402
from assistant.seed_metadata import DEFAULT_CATALOGUE  # noqa: E402
from assistant.sentence_vectors import paper_sentences  # noqa: E402


def quiet(_message: str) -> None:
    """Drop progress lines."""


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_ingest(settings: Settings, sources: list[Path], embedder: MiniLMEmbedder) -> dict:
    """Full ingest vs the raw encode of the same texts (chunks, and the sentences of the second
    ranking stage when ``settings`` switch it on, as only then does ingest embed them); then an
    unchanged re-ingest."""
    parsed, _ = parse_sources(sources)
    texts = [embedding_text(p.title, c.text) for p in parsed.papers for c in chunk_abstract(p.paper_id, p.abstract)]
    sentences = [paper_sentences(p) for p in parsed.papers] if settings.sentence_weight > 0 else []
    t = time.perf_counter()
    embedder.model.encode(texts, batch_size=embedder.batch_size, normalize_embeddings=True, show_progress_bar=False)
    chunks_s = time.perf_counter() - t
    t = time.perf_counter()
    embedder.model.encode([s for own in sentences for s in own], batch_size=embedder.batch_size,
                          normalize_embeddings=True, show_progress_bar=False)
    raw_s = chunks_s + time.perf_counter() - t
    t = time.perf_counter()
    report = ingest(sources, settings, embedder_factory=lambda: embedder, log=quiet)
    ingest_s = time.perf_counter() - t
    t = time.perf_counter()
    again = ingest(sources, settings, embedder_factory=lambda: embedder, log=quiet)
    reingest_s = time.perf_counter() - t
    return {"papers": report.papers["added"], "chunks": len(texts), "sentences": report.sentences,
            "raw_encode_chunks_s": chunks_s, "raw_encode_s": raw_s, "ingest_s": ingest_s,
            "throughput_ratio": raw_s / ingest_s, "chunks_per_s": len(texts) / ingest_s,
            "reingest_s": reingest_s, "reingest_share": reingest_s / ingest_s,
            "reingest_unchanged": again.papers["unchanged"]}


def first_papers(sources: list[Path], n: int, path: Path) -> Path:
    """The first ``n`` papers of ``sources`` as one JSON Lines file."""
    parsed, _ = parse_sources(sources)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        for paper in parsed.papers[:n]:
            out.write(json.dumps(paper.to_dict(), ensure_ascii=False) + "\n")
    return path


def bench_search(settings: Settings, embedder: MiniLMEmbedder, queries: list[str], rounds: int = 3) -> dict:
    """Pipeline search vs bare encode + Chroma query + BM25 scoring on the same data, interleaved."""
    index = Index.open(settings, log=quiet)
    retriever = Retriever(index, lambda: embedder, settings)
    collection = index.store.chunks
    bm25 = index.lexical
    for q in queries[:3]:  # warm both paths
        retriever.search(q, 10)
    pipeline, bare = [], []
    for _ in range(rounds):
        for q in queries:
            t = time.perf_counter()
            vec = embedder.embed([q])[0]
            collection.query(query_embeddings=[vec.tolist()], n_results=min(DENSE_POOL, collection.count()),
                             include=["metadatas", "distances"])
            scores = bm25.scores(q)
            scores.argsort()[::-1][:LEXICAL_POOL]
            bare.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            retriever.search(q, 10)
            pipeline.append((time.perf_counter() - t) * 1000)
    return {"papers": len(bm25.papers), "queries": len(pipeline),
            "pipeline_p50_ms": statistics.median(pipeline), "pipeline_p95_ms": pct(pipeline, 95),
            "bare_p50_ms": statistics.median(bare), "bare_p95_ms": pct(bare, 95),
            "overhead_ratio_p50": statistics.median(pipeline) / statistics.median(bare)}


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, str, float]:
    """Wall time of one fresh process, what it printed and its own peak RSS in MB."""
    t = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)  # this child's rusage, not the maximum over all children
    seconds = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, command)
    return seconds, out, usage.ru_maxrss / 1024


def bench_cold_start(settings: Settings, query: str, runs: int = 3) -> dict:
    """Wall time of a fresh `assistant search` process until its result is printed, against a fresh
    `python -c "import sentence_transformers"` measured in the same run, the two interleaved."""
    env = {**os.environ, "ASSISTANT_DATA_DIR": str(settings.data_dir)}
    times, baseline, rss = [], [], []
    for _ in range(runs):
        baseline.append(_timed([sys.executable, "-c", "import sentence_transformers"], env)[0])
        seconds, out, peak = _timed([sys.executable, "-m", "assistant", "search", query, "--json", "-k", "5"], env)
        times.append(seconds)
        rss.append(peak)
        assert json.loads(out), "cold-start search returned nothing"
    median, base = statistics.median(times), statistics.median(baseline)
    return {"runs": runs, "median_s": median, "import_sentence_transformers_s": base, "ratio": median / base,
            "peak_rss_mb": max(rss)}


def bench_serve_page(settings: Settings, runs: int = 3) -> dict:
    """Seconds from starting `assistant serve` until its page answers, against a fresh
    `python -c "import sentence_transformers"` measured in the same run."""
    env = {**os.environ, "ASSISTANT_DATA_DIR": str(settings.data_dir), "GRADIO_ANALYTICS_ENABLED": "False"}
    times, baseline = [], []
    for _ in range(runs):
        baseline.append(_timed([sys.executable, "-c", "import sentence_transformers"], env)[0])
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "assistant", "serve", "--port", str(port)], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                assert proc.poll() is None, "assistant serve exited"
                try:
                    page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
                    break
                except OSError:
                    time.sleep(0.05)
            times.append(time.perf_counter() - t)
            assert b"gradio" in page.lower()
        finally:
            proc.terminate()
            proc.wait(30)
    median, base = statistics.median(times), statistics.median(baseline)
    return {"runs": runs, "median_s": median, "import_sentence_transformers_s": base, "ratio": median / base}


def bench_start(settings: Settings, query: str) -> dict:
    """Cold search and serve-page times, each as a ratio against importing sentence-transformers."""
    print("cold start…", file=sys.stderr)
    cold = bench_cold_start(settings, query) | {"papers": Index.open(settings, log=quiet).status()["dense"]["papers"]}
    print("serve page…", file=sys.stderr)
    return {"cold_start": cold, "serve_page": bench_serve_page(settings)}


def _first_piece_s(llm: object, messages: list[dict], max_tokens: int) -> tuple[float, float]:
    """A bare `create_chat_completion` stream on ``messages`` from the model's present state: seconds
    to its first text piece and to its end."""
    t = time.perf_counter()
    first = None
    for chunk in llm.model.create_chat_completion(messages=messages, max_tokens=max_tokens,  # type: ignore[attr-defined]
                                                  temperature=0.0, top_k=1, stream=True):
        if first is None and chunk["choices"][0]["delta"].get("content"):
            first = time.perf_counter() - t
    end = time.perf_counter() - t
    return (end if first is None else first), end


def median(values: list[float]) -> float:
    """The median, 0 for no values."""
    return statistics.median(values) if values else 0


def _common_prefix(a: list[int], b: list[int]) -> int:
    """Length of the longest common start of two token lists."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def bench_answers(settings: Settings, embedder: MiniLMEmbedder, questions: list[dict]) -> dict:
    """Answer timings over the eval set, asked one after another as in one chat, the model loaded as
    `assistant serve` loads it (system prompt prefilled): each answer starts from the state the previous
    one left, its prompt in llama.cpp's KV cache, so the shared system prompt is not evaluated again.
    Never from a cache holding the same prompt: every bare call below starts from that same state or
    from a cleared cache.

    Against, on the same prompts in the same run: generation by a bare
    `llama_cpp` call from the same state (overhead ratio), and the time to first token from a cleared
    cache, every prompt token evaluated (what each answer cost before the cache was kept). The three
    runs of a prompt follow one another: the pipeline's, the cold one, the bare one."""
    from assistant.answer import Assistant
    from assistant.llm import LlamaCppLLM, fixed_prefix, resolve_model_path

    llm = LlamaCppLLM(resolve_model_path(settings.model_path), threads=settings.llm_threads, prefix=fixed_prefix())
    assistant = Assistant(Retriever(Index.open(settings, log=quiet), lambda: embedder, settings), lambda: llm, settings)
    captured: list[list[dict]] = []
    original = llm.stream

    def recording(messages, max_tokens):  # keep the exact prompt for the bare baseline
        captured.append(list(messages))
        yield from original(messages, max_tokens)

    llm.stream = recording  # type: ignore[method-assign]
    totals, first, gen, bare, prompt_tokens, evaluated, generated_totals = [], [], [], [], [], [], []
    bare_first, cold_first = [], []
    shapes = bench_shapes(assistant)  # leaves the chat's model state, as a user's earlier turns do
    for q in questions:
        captured.clear()
        before = llm.model.save_state()  # what the previous answer left; the bare calls start from it too
        cached = list(before.input_ids[:before.n_tokens])
        answer = assistant.ask(q["question"], q.get("history", []))
        totals.append(answer.timings_ms["total_ms"])
        if not captured:
            continue  # metadata answers, comparisons and refusals do not call the model
        first.append(answer.timings_ms["first_token_ms"] - answer.timings_ms["retrieval_ms"])
        gen.append(answer.timings_ms["generation_ms"])
        generated_totals.append(answer.timings_ms["total_ms"])
        # Cold first, then bare from the saved state: the bare run ends as the pipeline's did (this
        # prompt and its reply in the cache), the state the next question starts from.
        llm.model.reset()
        cold_first.append(_first_piece_s(llm, captured[0], 1)[0] * 1000)
        tokens = list(llm.model.input_ids[: llm.model.n_tokens])  # the whole prompt, just evaluated
        prompt_tokens.append(len(tokens))
        evaluated.append(len(tokens) - _common_prefix(cached, tokens))
        llm.model.load_state(before)
        to_first, whole = _first_piece_s(llm, captured[0], settings.max_tokens)
        bare_first.append(to_first * 1000)
        bare.append(whole * 1000)
    return {"questions": len(questions), "generated": len(gen),
            "median_total_ms": median(totals), "median_total_generated_ms": median(generated_totals),
            "median_first_token_ms": median(first),
            "median_bare_first_token_ms": median(bare_first), "median_cold_first_token_ms": median(cold_first),
            "first_token_ratio_to_cold": median(bare_first) / median(cold_first) if cold_first else 0,
            "median_generation_ms": median(gen), "median_bare_llama_ms": median(bare),
            "generation_overhead_ratio": (median(gen) / median(bare)) if bare else 0,
            "median_prompt_tokens": median(prompt_tokens), "median_evaluated_prompt_tokens": median(evaluated),
            "shapes": shapes}


def bench_shapes(assistant: object) -> dict:
    """Time per answer shape over every turn of the eval conversations (lists, comparisons, per-paper
    attributes, single-paper answers): p50 to the whole answer and to the first visible text (the
    first streamed token, or the answer itself when nothing streams)."""
    totals: dict[str, list[float]] = {}
    visible: dict[str, list[float]] = {}
    for line in (ROOT / "tests" / "eval" / "conversations.jsonl").read_text(encoding="utf-8").splitlines():
        history: list[dict] = []
        for turn in json.loads(line)["turns"]:
            answer = assistant.ask(turn["question"], history)  # type: ignore[attr-defined]
            d = answer.to_dict()
            history.append({"question": turn["question"], "citations": d["citations"], "focus": d["focus"]})
            t = answer.timings_ms
            # A message cut into several requests is answered part by part: timed as its own row
            mode = "several requests" if segments.requests(turn["question"]) else answer.mode
            totals.setdefault(mode, []).append(t["total_ms"])
            visible.setdefault(mode, []).append(t.get("first_token_ms", t["total_ms"]))
    return {mode: {"n": len(v), "p50_total_ms": statistics.median(v), "p50_first_visible_ms": statistics.median(visible[mode])}
            for mode, v in sorted(totals.items())}


def describe_load(name: str, r: dict) -> str:
    """One load scenario's figures (from bench/load.py), as lines."""
    lines = [f"answers arrived {r['arrived']}/{r['asked']}, citing their own session's paper {r['own_paper']}/{r['asked']}, "
             f"with citations {r['cited']}/{r['asked']}, errors {r['errors']}; citing another session's paper "
             f"{r.get('mixed', 'not measured')}, the same answer to different questions "
             f"{r.get('same_answer_to_different_questions', 'not measured')}; queue positions reported: "
             f"{r['max_queue_rank'] is not None} (max rank {r['max_queue_rank']})",
             f"answer time p50 {r['p50_s']:.1f} s, p95 {r['p95_s']:.1f} s; {r['answers_per_min']:.1f} answers/min",
             "peak RSS " + ", ".join(f"{k} {v:.0f} MB" for k, v in r["peak_rss_mb"].items())]
    if name == "ingest":
        a = r["after_ingest"]
        lines.insert(0, f"{r['rounds']} rounds of sessions while the catalogue ingest ran ({r['ingest_s']:.0f} s, "
                        f"{r['papers_added']} papers added, finished: {r['ingest_ok']})")
        lines.append(f"right after the ingest, over 2,634 papers: arrived {a['arrived']}/{a['asked']}, own paper "
                     f"{a['own_paper']}/{a['asked']}, p50 {a['p50_s']:.1f} s")
    return "\n".join(lines)


def write_results(results: dict, command: str, path: Path) -> None:
    """Human-readable results file."""
    lines = ["# Benchmark results", "", f"Made by `{command}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
             f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. Medians; ratios are "
             "against a baseline measured in the same run.", ""]
    if "ingest" in results:
        r = results["ingest"]
        lines += [f"## Ingest ({'full catalogue + seeds' if r['papers'] > 2000 else 'part of the catalogue'})", ""] + ([f"Made by `{r['command']}`.", ""] if "command" in r else [])
        lines += [
                  f"- {r['papers']} papers, {r['chunks']} chunks, {r.get('sentences', 0)} sentences (the title and each "
                  f"abstract sentence, for the second ranking stage): ingest {r['ingest_s']:.1f} s vs raw "
                  f"`SentenceTransformer.encode` of the same texts {r['raw_encode_s']:.1f} s: "
                  f"**throughput ratio {r['throughput_ratio']:.2f}** (target >= 0.8); {r['chunks_per_s']:.0f} chunks/s",
                  f"- of the raw encode, the chunks alone take {r.get('raw_encode_chunks_s', r['raw_encode_s']):.1f} s: "
                  f"the sentences cost {r['raw_encode_s'] / r.get('raw_encode_chunks_s', r['raw_encode_s']) - 1:.0%} more "
                  "encoding",
                  f"- re-ingest of the unchanged corpus: {r['reingest_s']:.2f} s = **{r['reingest_share']:.1%} of the first "
                  f"ingest** (target < 5%), {r['reingest_unchanged']} papers unchanged", ""]
    for name in ("search_seeds", "search_catalogue", "search_catalogue_rescored"):
        if name in results:
            r = results[name]
            second = ", with the second stage (sentence rescoring)" if name.endswith("rescored") else ""
            lines += [f"## Search latency, {r['papers']} papers{second} ({r['queries']} queries)", ""]
            lines += [f"Made by `{r['command']}`{r.get('setting', '')}.", ""] if "command" in r else []
            lines += [
                      f"- pipeline p50 {r['pipeline_p50_ms']:.1f} ms, p95 {r['pipeline_p95_ms']:.1f} ms",
                      f"- bare encode + Chroma query + BM25 scoring p50 {r['bare_p50_ms']:.1f} ms, p95 {r['bare_p95_ms']:.1f} ms",
                      f"- **overhead ratio {r['overhead_ratio_p50']:.2f}** (target <= 1.5)", ""]
    if "cold_start" in results:
        r = results["cold_start"]
        lines += ["## Cold start", ""] + ([f"Made by `{r['command']}`.", ""] if "command" in r else [])
        lines += [f"- `assistant search QUERY --json` in a fresh process over {r.get('papers', '?')} "
                  f"papers, time to first result: median {r['median_s']:.1f} s over {r['runs']} runs; peak RSS "
                  f"{r['peak_rss_mb']:.0f} MB"]
        if "ratio" in r:
            lines += [f"- against `python -c \"import sentence_transformers\"` in the same run "
                      f"({r['import_sentence_transformers_s']:.1f} s): **ratio {r['ratio']:.2f}** (target <= 1.0)"]
        if "serve_page" in results:
            p = results["serve_page"]
            lines += [f"- `assistant serve` until its page answers: median {p['median_s']:.1f} s (target <= 5 s); "
                      f"against the same import ({p['import_sentence_transformers_s']:.1f} s): **ratio {p['ratio']:.2f}**"]
        lines += [""]
    if "answers" in results:
        r = results["answers"]
        lines += ["## Answers (packaged SmolLM2-135M, greedy)", "",
                  f"Made by `{r.get('command', command)}`.", "",
                  f"- {r['questions']} eval questions, {r['generated']} went to the model (the rest were answered from "
                  "metadata, compared extractively or refused)",
                  f"- total answer time median {r['median_total_ms']:.0f} ms over all questions, "
                  f"{r.get('median_total_generated_ms', 0):.0f} ms over those the model wrote; time to first token "
                  f"after retrieval median {r['median_first_token_ms']:.0f} ms (target <= 1000 ms)"
                  + ("" if "median_cold_first_token_ms" not in r else
                     ", the questions asked one after another as in one chat"),
                  *([] if "median_cold_first_token_ms" not in r else [
                      f"- first token of a bare `llama_cpp` call on the same prompts from the same model state "
                      f"{r['median_bare_first_token_ms']:.0f} ms vs from a cleared cache (the whole prompt evaluated) "
                      f"{r['median_cold_first_token_ms']:.0f} ms: **ratio {r['first_token_ratio_to_cold']:.2f}**"]),
                  f"- generation in the pipeline median {r['median_generation_ms']:.0f} ms vs bare `llama_cpp.Llama` "
                  f"on the same prompts {r['median_bare_llama_ms']:.0f} ms: **overhead {r['generation_overhead_ratio']:.2f}x** "
                  "(target <= 1.15)",
                  f"- prompt tokens per answer: median {r['median_prompt_tokens']:.0f}"
                  + ("" if "median_evaluated_prompt_tokens" not in r else
                     f", of which evaluated (after the prefix the previous answer left in the cache) "
                     f"{r['median_evaluated_prompt_tokens']:.0f}"), ""]
        if r.get("shapes"):
            lines += ["Per answer shape, every turn of the eval conversations (targets: list and comparison p50 <= 6 s, "
                      "first visible text <= 1.5 s):", "", "| shape | turns | p50 whole answer | p50 first visible text |",
                      "|---|---|---|---|"]
            lines += [f"| {mode} | {m['n']} | {m['p50_total_ms']:.0f} ms | {m['p50_first_visible_ms']:.0f} ms |"
                      for mode, m in r["shapes"].items()]
            lines += [""]
    if "load" in results:
        r = results["load"]
        lines += ["## Load: concurrent chat sessions through the real server", "",
                  f"Made by `{r['command']}` on {r['when']}, {r['cores']} cores: {r['sessions']} concurrent `gradio_client` "
                  "sessions on loopback, each asking about a different seed paper; answers run one at a time per "
                  "app through Gradio's queue.", ""]
        titles = {"idle": "One app (embedded Chroma, in-process model), seeds indexed",
                  "ingest": "The same app while another process ingests the whole catalogue into its index",
                  "shared": "Two app processes sharing one `chroma run` and one `python -m llama_cpp.server`"}
        for name in ("idle", "ingest", "shared"):
            if name in r:
                lines += [f"### {titles[name]}", ""] + [f"- {line}" for line in describe_load(name, r[name]).splitlines()] + [""]
        if "idle" in r and "ingest" in r and r["idle"]["p50_s"]:
            lines += [f"Answer time during the ingest against idle, same run: **p50 ratio "
                      f"{r['ingest']['p50_s'] / r['idle']['p50_s']:.2f}**.", ""]
        if "idle" in r and "shared" in r and r["idle"]["answers_per_min"]:
            lines += [f"Throughput of the shared deployment against one app, same run: **"
                      f"{r['shared']['answers_per_min'] / r['idle']['answers_per_min']:.2f}x**.", ""]
    lines += [f"Peak memory of the benchmark process: {results['peak_rss_mb']:.0f} MB.", "",
              "Raw figures:", "", "```json", json.dumps(results, indent=1), "```", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    """Run the benchmarks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out")
    parser.add_argument("--skip-catalogue", action="store_true")
    parser.add_argument("--skip-answers", action="store_true")
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "RESULTS.md")
    parser.add_argument("--only-answers", action="store_true",
                        help="rerun only the answer benchmark and merge it into bench/results.json")
    parser.add_argument("--only-ingest", action="store_true",
                        help="rerun only the catalogue ingest and its search latency and merge them into bench/results.json")
    parser.add_argument("--ingest-papers", type=int, default=0,
                        help="with --only-ingest, ingest only this many papers of the seeds and catalogue")
    parser.add_argument("--sentence-weight", type=float, default=0.0,
                        help="with --only-ingest, also time search with the second stage at this weight")
    parser.add_argument("--sentence-pooling", default="max", choices=("max", "top2"))
    parser.add_argument("--only-start", action="store_true",
                        help="rerun only the start-time figures (over bench/out's catalogue index when there is one) "
                             "and merge them into bench/results.json")
    args = parser.parse_args()
    command = " ".join(["python bench/run.py", *sys.argv[1:]]).strip()
    raw_path = args.results.with_name("results.json")
    if not (args.only_answers or args.only_start or args.only_ingest):
        shutil.rmtree(args.out, ignore_errors=True)
    base = Settings.from_env({k: v for k, v in os.environ.items() if k.startswith("ASSISTANT_")})
    seeds = replace(base, data_dir=args.out / "seeds", chroma_url="")
    full = replace(base, data_dir=args.out / "catalogue", chroma_url="")
    questions = load_questions()
    seed_questions = [q for q in questions if q.get("index") != "catalogue"]  # answers are timed over the seeds
    queries = [search_query(q) for q in questions if q["gold"]]
    embedder = MiniLMEmbedder()
    results: dict = {}
    ingest([base.seeds_dir], seeds, embedder_factory=lambda: embedder, log=quiet)
    if args.only_start:
        start = full if (full.data_dir / "chroma").is_dir() else seeds
        results = json.loads(raw_path.read_text(encoding="utf-8"))
        results.update(bench_start(start, queries[0]))
        results["cold_start"]["command"] = command
        raw_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        write_results(results, results.get("command", command), args.results)
        print(args.results.read_text(encoding="utf-8"))
        return
    if args.only_ingest:
        shutil.rmtree(full.data_dir, ignore_errors=True)
        results = json.loads(raw_path.read_text(encoding="utf-8"))
        sources = [base.seeds_dir, DEFAULT_CATALOGUE]
        if args.ingest_papers:  # a share of the catalogue, where a whole ingest would take too long
            sources = [first_papers(sources, args.ingest_papers, args.out / "subset.jsonl")]
        print(f"ingest benchmark ({args.ingest_papers or 'all'} papers)…", file=sys.stderr)
        ingested = (replace(full, sentence_weight=args.sentence_weight, sentence_pooling=args.sentence_pooling)
                    if args.sentence_weight else full)  # ingest embeds sentences only with the stage on
        results["ingest"] = bench_ingest(ingested, sources, embedder)
        # Search is timed over the whole catalogue: the eval index when only part was ingested here.
        searched = replace(full, data_dir=base.data_dir / "eval" / "catalogue") if args.ingest_papers else full
        results["search_catalogue"] = bench_search(searched, embedder, queries)
        results["ingest"]["command"] = results["search_catalogue"]["command"] = command
        if args.sentence_weight:
            rescored = replace(searched, sentence_weight=args.sentence_weight, sentence_pooling=args.sentence_pooling)
            results["search_catalogue_rescored"] = bench_search(rescored, embedder, queries) | {
                "command": command, "setting": f" (sentence_weight {args.sentence_weight}, {args.sentence_pooling})"}
        raw_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        write_results(results, results.get("command", command), args.results)
        print(args.results.read_text(encoding="utf-8"))
        return
    if args.only_answers:
        results = json.loads(raw_path.read_text(encoding="utf-8"))
        results["answers"] = bench_answers(seeds, embedder, seed_questions)
        results["answers"]["command"] = command
        results["peak_rss_mb"] = max(results.get("peak_rss_mb", 0), peak_rss_mb())
        raw_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        write_results(results, results.get("command", command), args.results)
        print(args.results.read_text(encoding="utf-8"))
        return
    if not args.skip_catalogue and DEFAULT_CATALOGUE.is_file():
        print("ingest benchmark (full catalogue)…", file=sys.stderr)
        results["ingest"] = bench_ingest(full, [base.seeds_dir, DEFAULT_CATALOGUE], embedder)
    print("search benchmark…", file=sys.stderr)
    results["search_seeds"] = bench_search(seeds, embedder, queries)
    if "ingest" in results:
        results["search_catalogue"] = bench_search(full, embedder, queries)
    results.update(bench_start(full if "ingest" in results else seeds, queries[0]))
    if not args.skip_answers:
        print("answers…", file=sys.stderr)
        results["answers"] = bench_answers(seeds, embedder, seed_questions)
    results["peak_rss_mb"] = peak_rss_mb()
    results["command"] = command
    if raw_path.is_file():  # bench/load.py's figures are made separately; keep them
        previous = json.loads(raw_path.read_text(encoding="utf-8"))
        if "load" in previous:
            results["load"] = previous["load"]
    raw_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write_results(results, command, args.results)
    print(args.results.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()

"""Load check: concurrent chat sessions against the real app on loopback ports.

    python bench/load.py [--sessions 8] [--timeout 900] [--only idle,ingest,shared]

Three scenarios, measured in one run so that their figures can be compared:

- idle: `assistant serve` (embedded Chroma, in-process SmolLM2) with the seeds indexed; N
  `gradio_client` sessions at once, each asking a different question whose paper is known.
- ingest: the same app while another process ingests the whole catalogue into its data dir;
  rounds of N sessions run until that ingest ends.
- shared: two `assistant serve` processes sharing one `chroma run` server and one
  `python -m assistant.model_server` (llama_cpp.server with the packaged model); the N sessions are split between them.

For each: every answer arrives, cites its own session's paper first and no paper that is another
session's (no mixing between sessions), sessions with different questions get different answers,
the queue reports positions; p50/p95 answer time, throughput and the servers' peak memory.
The figures are merged into bench/results.json and bench/RESULTS.md is rewritten from it.
Bounded in sessions and time; loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.ingest import parse_sources  # noqa: E402
from assistant.seed_metadata import DEFAULT_CATALOGUE  # noqa: E402
from bench.run import describe_load, write_results  # noqa: E402
from bench.servers import ChromaServer, ingest_seeds, llama_server, message_text, running_app  # noqa: E402

QUESTIONS = [  # (question, a fragment of the title of the seed paper its answer must cite)
    ("What is ReadAgent?", "Reading Agent"),
    ("How does Lookahead decoding speed up LLM inference?", "Lookahead Decoding"),
    ("How can diffusion model sampling be parallelized?", "Parallel Sampling of Diffusion"),
    ("What are codebook features?", "Codebook Features"),
    ("What is DoraemonGPT?", "DoraemonGPT"),
    ("How does MeZO-SVRG reduce the variance of zeroth-order fine-tuning?", "Zeroth-Order"),
    ("What is Rényi Pufferfish privacy?", "Pufferfish"),
    ("How are crystal structures predicted with equivariant diffusion?", "Crystal Structure"),
]


CITED = re.compile(r'id="src-(?:\d+-)?\d+" data-paper="([^"]*)"')  # a cited source in the Sources panel


def own_papers() -> list[str]:
    """The seed paper id each question is about, found by its title fragment (one paper each)."""
    papers = parse_sources([ROOT / "seeds"], lambda _msg: None)[0].papers
    ids = []
    for _, fragment in QUESTIONS:
        found = [p.paper_id for p in papers if fragment in p.title]
        if len(found) != 1:
            raise SystemExit(f"the title fragment {fragment!r} names {len(found)} seed papers, not one")
        ids.append(found[0])
    return ids


def peak_rss_mb(pid: int) -> float:
    """VmHWM of a process (its peak resident memory), 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def server_pid(log: Path) -> int | None:
    """The pid `assistant serve` printed in its log."""
    text = log.read_text(encoding="utf-8", errors="replace")
    return int(text.split("(pid ", 1)[1].split(")")[0]) if "(pid " in text else None


def run_round(urls: list[str], n: int, timeout: float) -> dict:
    """N concurrent sessions, session i on urls[i % len(urls)]; what arrived and how fast."""
    from gradio_client import Client

    results: dict[int, dict] = {}
    ranks: list[int] = []
    papers = own_papers()
    asked = {papers[i % len(QUESTIONS)] for i in range(n)}

    def session(i: int) -> None:
        question, _ = QUESTIONS[i % len(QUESTIONS)]
        own = papers[i % len(QUESTIONS)]
        client = Client(urls[i % len(urls)], verbose=False)
        start = time.perf_counter()
        job = client.submit(question, [], api_name="/chat")
        while not job.done() and time.perf_counter() - start < timeout:
            status = job.status()
            if status.rank is not None:
                ranks.append(status.rank)
            time.sleep(0.2)
        chat, sources, _trace, _box = job.result(timeout=max(1.0, timeout - (time.perf_counter() - start)))
        text = message_text(chat[-1]["content"])
        cited = CITED.findall(sources if isinstance(sources, str) else "")
        results[i] = {"seconds": time.perf_counter() - start, "own_paper": cited[:1] == [own],
                      "mixed": bool(set(cited) & (asked - {own})), "question": question, "text": text,
                      "cited": 'class="cite"' in text, "error": text.startswith("⚠️")}

    threads = [threading.Thread(target=session, args=(i,)) for i in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return {"wall_s": time.perf_counter() - t0, "answers": list(results.values()), "max_rank": max(ranks, default=None)}


def summarise(rounds: list[dict], sessions: int) -> dict:
    """p50/p95 answer time, throughput and correctness over one or more rounds."""
    answers = [a for r in rounds for a in r["answers"]]
    times = sorted(a["seconds"] for a in answers)
    # Within a round, sessions that asked different questions must not get the same answer text.
    same = sum(1 for r in rounds for x in r["answers"] for y in r["answers"]
               if x is not y and x["question"] < y["question"] and x["text"] == y["text"])
    wall = sum(r["wall_s"] for r in rounds)
    asked = sessions * len(rounds)
    return {"asked": asked, "arrived": len(answers), "own_paper": sum(a["own_paper"] for a in answers),
            "mixed": sum(a["mixed"] for a in answers), "same_answer_to_different_questions": same,
            "cited": sum(a["cited"] for a in answers), "errors": sum(a["error"] for a in answers),
            "max_queue_rank": max((r["max_rank"] for r in rounds if r["max_rank"] is not None), default=None),
            "p50_s": statistics.median(times) if times else 0.0,
            "p95_s": times[min(len(times) - 1, max(0, round(0.95 * len(times)) - 1))] if times else 0.0,
            "answers_per_min": len(times) / wall * 60 if wall else 0.0}


def warm(url: str) -> None:
    """One answer, so the models are loaded before anything is timed."""
    from gradio_client import Client

    Client(url, verbose=False).predict("What is ReadAgent?", [], api_name="/chat")


def scenario_idle(root: Path, sessions: int, timeout: float) -> dict:
    ingest_seeds(root / "data")
    with running_app(root / "data", root / "idle.log") as url:
        warm(url)
        result = summarise([run_round([url], sessions, timeout)], sessions)
        result["peak_rss_mb"] = {"app": peak_rss_mb(server_pid(root / "idle.log") or 0)}
    return result


def scenario_ingest(root: Path, sessions: int, timeout: float) -> dict:
    data = root / "ingest-data"
    ingest_seeds(data)
    log = root / "ingest-app.log"
    with running_app(data, log, ASSISTANT_REFRESH_SECONDS="5") as url:
        warm(url)
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "assistant", "ingest", str(ROOT / "seeds"), str(DEFAULT_CATALOGUE),
                                 "--data-dir", str(data), "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        rounds = []
        while proc.poll() is None and time.perf_counter() - started < timeout:
            rounds.append(run_round([url], sessions, timeout))
        out, _ = proc.communicate(timeout=timeout)
        ingest_s = time.perf_counter() - started
        report = json.loads(out) if proc.returncode == 0 else {}
        after = summarise([run_round([url], sessions, timeout)], sessions)  # the app now sees the catalogue
        result = summarise(rounds, sessions)
        result |= {"rounds": len(rounds), "ingest_s": ingest_s, "ingest_ok": proc.returncode == 0,
                   "papers_added": report.get("papers", {}).get("added", 0), "after_ingest": after,
                   "peak_rss_mb": {"app": peak_rss_mb(server_pid(log) or 0)}}
    return result


def scenario_shared(root: Path, sessions: int, timeout: float) -> dict:
    with ExitStack() as stack:
        chroma = ChromaServer(root / "chroma-db", root / "chroma.log").start()
        stack.callback(chroma.stop)
        llm_url = stack.enter_context(llama_server(root / "llm.log"))
        subprocess.run([sys.executable, "-m", "assistant", "ingest", "--data-dir", str(root / "shared-ingest"),
                        "--chroma-url", chroma.url], cwd=ROOT, check=True, capture_output=True)
        env = {"ASSISTANT_CHROMA_URL": chroma.url, "ASSISTANT_LLM_URL": llm_url}
        logs = [root / f"shared-app{n}.log" for n in (1, 2)]
        urls = [stack.enter_context(running_app(root / f"shared-app{n}", logs[n - 1], **env)) for n in (1, 2)]
        for url in urls:
            warm(url)
        result = summarise([run_round(urls, sessions, timeout)], sessions)
        llm_pid = int(subprocess.run(["pgrep", "-f", "assistant.model_server"], capture_output=True, text=True).stdout.split()[0])
        result["peak_rss_mb"] = {"app1": peak_rss_mb(server_pid(logs[0]) or 0), "app2": peak_rss_mb(server_pid(logs[1]) or 0),
                                 "llm_server": peak_rss_mb(llm_pid),
                                 "chroma_server": peak_rss_mb(chroma.proc.pid if chroma.proc else 0)}
    return result


SCENARIOS: dict[str, Callable[[Path, int, float], dict]] = {
    "idle": scenario_idle, "ingest": scenario_ingest, "shared": scenario_shared}


def main() -> None:
    """Run the scenarios, print their figures and merge them into bench/results.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--only", default="idle,ingest,shared", help="comma-separated scenarios")
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "results.json")
    args = parser.parse_args()
    n = max(1, min(args.sessions, len(QUESTIONS)))
    root = Path(tempfile.mkdtemp(prefix="assistant-load-"))
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    load: dict = {"command": " ".join(["python bench/load.py", *sys.argv[1:]]), "sessions": n,
                  "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": os.cpu_count()}
    for name in [s.strip() for s in args.only.split(",") if s.strip()]:
        if name == "ingest" and not DEFAULT_CATALOGUE.is_file():
            print("skipping the ingest scenario: the catalogue is not there", file=sys.stderr)
            continue
        print(f"scenario {name}…", file=sys.stderr, flush=True)
        load[name] = SCENARIOS[name](root, n, args.timeout)
        print(f"## {name}\n{describe_load(name, load[name])}\n", flush=True)
    if args.results.is_file():
        results = json.loads(args.results.read_text(encoding="utf-8"))
        results["load"] = {**results.get("load", {}), **load}
        args.results.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        write_results(results, results.get("command", "python bench/run.py"), args.results.with_name("RESULTS.md"))


if __name__ == "__main__":
    main()

"""Load check: N concurrent chat sessions against the real app on a loopback port.

    python bench/load.py [--sessions 8] [--timeout 600]

Starts `assistant serve` on a free port with the seeds indexed, opens N gradio_client
sessions at once, each asking a different question whose paper is known, and checks that
every answer arrives, cites its own paper (no mixing between sessions), and that the queue
reported positions. Prints p50/p95 answer time, throughput and the server's peak memory;
bounded in sessions and time, loopback only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.app_server import ingest_seeds, running_app  # noqa: E402

QUESTIONS = [  # (question, a title fragment its answer must cite)
    ("What is ReadAgent?", "Reading Agent"),
    ("How does Lookahead decoding speed up LLM inference?", "Lookahead Decoding"),
    ("How can diffusion model sampling be parallelized?", "Parallel Sampling of Diffusion"),
    ("What are codebook features?", "Codebook Features"),
    ("What is DoraemonGPT?", "DoraemonGPT"),
    ("How does MeZO-SVRG reduce the variance of zeroth-order fine-tuning?", "Zeroth-Order"),
    ("What is Rényi Pufferfish privacy?", "Pufferfish"),
    ("How are crystal structures predicted with equivariant diffusion?", "Crystal Structure"),
]


def peak_rss_mb(pid: int) -> float:
    """VmHWM of a process (its peak resident memory)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    """Run the load check and print its figures."""
    from gradio_client import Client

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    n = max(1, min(args.sessions, len(QUESTIONS)))
    root = Path(tempfile.mkdtemp(prefix="assistant-load-"))
    ingest_seeds(root / "data")
    with running_app(root / "data", root / "server.log") as url:
        Client(url, verbose=False).predict("What is ReadAgent?", [], api_name="/chat")  # warm the models
        results: dict[int, dict] = {}
        ranks: list[int] = []

        def session(i: int) -> None:
            question, expected = QUESTIONS[i]
            client = Client(url, verbose=False)
            start = time.perf_counter()
            job = client.submit(question, [], api_name="/chat")
            while not job.done() and time.perf_counter() - start < args.timeout:
                status = job.status()
                if status.rank is not None:
                    ranks.append(status.rank)
                time.sleep(0.2)
            chat, sources, _trace, _box = job.result(timeout=max(1.0, args.timeout - (time.perf_counter() - start)))
            results[i] = {"seconds": time.perf_counter() - start, "own_paper": expected in sources,
                          "cited": "class=\"cite\"" in str(chat[-1]["content"])}

        threads = [threading.Thread(target=session, args=(i,)) for i in range(n)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.timeout)
        wall = time.perf_counter() - t0
        log = (root / "server.log").read_text()
        server_pid = int(log.split("(pid ", 1)[1].split(")")[0]) if "(pid " in log else None
        times = sorted(r["seconds"] for r in results.values())
        print(f"sessions: {n}, answers arrived: {len(results)}/{n}, citing their own paper: "
              f"{sum(r['own_paper'] for r in results.values())}/{n}, with citations: "
              f"{sum(r['cited'] for r in results.values())}/{n}")
        print(f"queue positions reported: {len(ranks) > 0} (max rank seen {max(ranks) if ranks else '-'})")
        if times:
            print(f"answer time p50 {statistics.median(times):.1f} s, p95 {times[min(len(times) - 1, round(0.95 * len(times)) - 1)]:.1f} s, "
                  f"throughput {len(times) / wall * 60:.1f} answers/min over {wall:.1f} s")
        if server_pid:
            print(f"server peak RSS {peak_rss_mb(server_pid):.0f} MB")


if __name__ == "__main__":
    main()

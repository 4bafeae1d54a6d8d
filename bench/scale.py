"""How cost grows: search latency, app memory and the BM25 snapshot at 2.6k, 26k and 260k papers.

    python bench/scale.py [--sizes 2600,26000,260000] [--modes embedded,server] [--queries 200]
                          [--step-seconds 900] [--before-code PATH] [--work DIR]

Synthetic papers are made from the ICML 2024 catalogue (shared/data/icml2024, Apache-2.0, see its
NOTICE.md): each title joins the halves of two catalogue titles, each abstract is 4 to 8 catalogue
sentences, authors and areas are drawn from the catalogue's and the seeds'. The deterministic
hash embedder (384 dimensions, MiniLM's) stands in for MiniLM so that ingesting 260k papers takes
minutes, not hours; search cost does not depend on which model made the vectors, only a query's
encode does (MiniLM's is measured in bench/RESULTS.md, ~20 ms).

Each size is reached by ingesting the papers it adds to the index of the size before (the
project's own ``ingest``, in a child process), once into embedded Chroma and once into a
`chroma run` server on loopback. At each size a fresh child process plays the app: it opens the
index, runs title and keyword searches and filtered searches, checks for changes as the chat
does every 30 s, and rebuilds BM25; it reports timings and its resident memory. With
``--before-code`` the same probe also runs with another checkout's ``assistant`` package (the
code before a fix) over the same index, for before/after figures.

Writes bench/scale.json, bench/SCALE.md (tables) and bench/scale.png (matplotlib, from the
optional ``bench`` extra: pip install -e '.[bench]'). A step that runs past --step-seconds is
stopped; what it measured so far is reported, marked as cut short.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# A probe with --code runs another checkout's package over the same index (before/after figures).
sys.path.insert(0, os.environ.get("SCALE_CODE_ROOT") or str(ROOT))
sys.path.insert(1, str(ROOT))

DIMENSION = 384  # all-MiniLM-L6-v2's
DEFAULT_SIZES = (2600, 26000, 260000)
JSON_OUT = ROOT / "bench" / "scale.json"
MD_OUT = ROOT / "bench" / "SCALE.md"
PNG_OUT = ROOT / "bench" / "scale.png"
CATALOGUE = ROOT.parent / "shared" / "data" / "icml2024" / "ICML 2024 Events.json"


# ---------------------------------------------------------------------------- synthetic papers
def catalogue_parts(catalogue: Path) -> dict[str, list[str]]:
    """Titles, abstract sentences, author names and subject areas to build papers from."""
    from assistant.ingest import parse_sources
    from assistant.text import split_sentences

    if not catalogue.is_file():
        raise SystemExit(f"the catalogue is not at {catalogue}; pass --catalogue")
    posters = parse_sources([catalogue], lambda _m: None)[0].papers
    seeds = parse_sources([ROOT / "seeds"], lambda _m: None)[0].papers
    sentences = [s.text for p in posters for s in split_sentences(p.abstract) if 40 <= len(s.text) <= 400]
    return {
        "titles": sorted(p.title for p in posters if len(p.title.split()) >= 4),
        "sentences": sentences,
        "authors": sorted({a for p in posters for a in p.authors}),
        "areas": sorted({p.area for p in seeds if p.area}),
    }


def synthetic_paper(parts: dict[str, list[str]], n: int) -> dict[str, Any]:
    """Paper ``n`` (the same for a given n on every run)."""
    rng = random.Random(n)
    first, second = (rng.choice(parts["titles"]).split() for _ in range(2))
    title = " ".join(first[: len(first) // 2] + second[len(second) // 2 :])
    return {
        "paper_id": f"s{n}",
        "title": title,
        "authors": rng.sample(parts["authors"], rng.randint(1, 6)),
        "area": rng.choice(parts["areas"]),
        "abstract": " ".join(rng.sample(parts["sentences"], rng.randint(4, 8))),
    }


FILE_PAPERS = 25_000  # papers per file and per ingest: ingest refuses a file over 200 MB (234k papers make ~290 MB)


def write_papers(parts: dict[str, list[str]], start: int, stop: int, folder: Path) -> list[Path]:
    """Papers ``start``..``stop - 1`` as JSON-lines files (a format ``assistant ingest`` reads)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for first in range(start, stop, FILE_PAPERS):
        paths.append(folder / f"papers-{first}.jsonl")
        with open(paths[-1], "w", encoding="utf-8") as out:
            last = min(stop, first + FILE_PAPERS)
            out.writelines(json.dumps(synthetic_paper(parts, n), ensure_ascii=False) + "\n" for n in range(first, last))
    return paths


def query_set(parts: dict[str, list[str]], size: int, count: int) -> dict[str, Any]:
    """Searches for an index of ``size`` papers: titles (the paper is known), keyword queries
    (four words of one of its sentences), and author- and area-filtered searches."""
    rng = random.Random(size)
    picked = [synthetic_paper(parts, rng.randrange(size)) for _ in range(count)]
    titles = [(p["title"], p["paper_id"]) for p in picked[: count // 2]]
    keywords = []
    for p in picked[count // 2 :]:
        words = [w for w in p["abstract"].split() if len(w) > 4]
        keywords.append(" ".join(rng.sample(words, min(4, len(words)))))
    filtered = picked[: max(10, count // 10)]
    return {
        "titles": titles,
        "keywords": keywords,
        "by_author": [(p["title"].split()[0], p["authors"][0]) for p in filtered],
        "by_area": [(p["title"].split()[0], p["area"].split(" · ")[-1]) for p in filtered],
    }


# ---------------------------------------------------------------------------- child processes
def rss_mb(pid: int | str = "self") -> tuple[float, float]:
    """(resident, peak resident) memory of a process in MB; zeros when it is gone."""
    now = peak = 0.0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    except OSError:
        pass
    return now, peak


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def settings_for(data_dir: Path, chroma_url: str) -> Any:
    """The project's settings for this index: embedded Chroma in ``data_dir``, or the server."""
    from assistant.config import Settings

    return Settings.from_env({}, data_dir=data_dir, chroma_url=chroma_url, embed_model="hash")


def ingest_child(args: argparse.Namespace) -> dict[str, Any]:
    """Ingest one file of new papers (in its own process, so its memory is its own)."""
    from assistant.embedding import HashEmbedder
    from assistant.ingest import ingest

    started = time.perf_counter()
    report = ingest(
        [Path(p) for p in args.ingest.split(",")],
        settings_for(Path(args.data_dir), args.chroma_url),
        embedder_factory=lambda: HashEmbedder(DIMENSION),
        log=lambda message: print(message, file=sys.stderr, flush=True),  # progress, read if it is stopped
    )
    return {
        "ingest_s": time.perf_counter() - started,
        "added": report.papers["added"],
        "chunks_added": report.chunks["added"],
        "unchanged": report.papers["unchanged"],
        "rejected": [f"{r.where}: {r.reason}" for r in report.rejected][:5],
        "ingest_peak_rss_mb": rss_mb()[1],
    }


def timed_searches(retriever: Any, queries: list[tuple[str, str | None, str | None]]) -> list[float]:
    """Milliseconds per search, each (query, author, area)."""
    out = []
    for query, author, area in queries:
        started = time.perf_counter()
        retriever.search(query, 10, author=author, area=area)
        out.append((time.perf_counter() - started) * 1000)
    return out


def probe_child(args: argparse.Namespace) -> dict[str, Any]:
    """Play the app over an index: open, search, check for changes, rebuild BM25."""
    from assistant.embedding import HashEmbedder
    from assistant.index import Index
    from assistant.retrieval import Retriever

    queries = json.loads(Path(args.probe).read_text(encoding="utf-8"))
    settings = settings_for(Path(args.data_dir), args.chroma_url)
    out: dict[str, Any] = {"rss_start_mb": rss_mb()[0]}
    started = time.perf_counter()
    index = Index.open(settings, log=lambda _m: None)
    out["open_s"] = time.perf_counter() - started
    out["papers"] = len(index.lexical.papers)
    out["chunks"] = index.lexical.n_chunks
    embedder = HashEmbedder(DIMENSION)
    retriever = Retriever(index, lambda: embedder, settings)
    warm = [(q, None, None) for q, _ in queries["titles"][:5]]
    timed_searches(retriever, warm + [(q, a, None) for q, a in queries["by_author"][:2]])
    out["rss_open_mb"] = rss_mb()[0]

    plain = [(q, None, None) for q, _ in queries["titles"]] + [(q, None, None) for q in queries["keywords"]]
    times = timed_searches(retriever, plain)
    out["search_p50_ms"], out["search_p95_ms"] = pct(times, 50), pct(times, 95)
    found = sum(pid in {h.paper_id for h in retriever.search(q, 5)} for q, pid in queries["titles"][: args.hit_sample])
    out["title_hit5"] = found / max(1, min(args.hit_sample, len(queries["titles"])))
    for kind, key in (("author", "by_author"), ("area", "by_area")):
        spec = [(q, f, None) if kind == "author" else (q, None, f) for q, f in queries[key]]
        times = timed_searches(retriever, spec)
        out[f"{kind}_p50_ms"], out[f"{kind}_p95_ms"] = pct(times, 50), pct(times, 95)

    # The answer pipeline's own per-snapshot tables (author and area names, word rarity): built on
    # the first question after the index opens or changes, the same way assistant.answer does.
    from assistant import intents
    from assistant.evidence import Rarity

    started = time.perf_counter()
    intents.detect("What did Yang Zhang work on?", index.lexical.papers)
    Rarity([f"{p.paper.title}. {p.paper.abstract}" for p in index.lexical.papers])
    out["first_question_setup_s"] = time.perf_counter() - started

    started = time.perf_counter()
    index.refresh(log=lambda _m: None)  # nothing changed: what the chat pays every 30 s
    out["refresh_s"] = time.perf_counter() - started
    out["rss_mb"], out["peak_rss_mb"] = rss_mb()

    snapshot = index.lexical_root / (index.lexical_root / "CURRENT").read_text(encoding="utf-8").strip()
    out["snapshot_mb"] = folder_mb(snapshot)
    out["snapshot_papers_mb"] = (snapshot / "papers.json").stat().st_size / 2**20
    started = time.perf_counter()
    index.rebuild_lexical()
    out["rebuild_s"] = time.perf_counter() - started
    out["rebuild_peak_rss_mb"] = rss_mb()[1]
    return out


def folder_mb(path: Path) -> float:
    """Disk use of the files under ``path``, in MB."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20 if path.exists() else 0.0


def run_child(flags: list[str], timeout: float, code: str = "") -> tuple[dict[str, Any], str]:
    """Run this script as a child with ``flags``; (its JSON result, '' or why it has none). A child
    stopped at ``timeout`` is an ingest cut short: its last progress line says how far it got."""
    env = {**os.environ, "SCALE_CODE_ROOT": code} if code else dict(os.environ)
    env.pop("ASSISTANT_CHROMA_URL", None)
    command = ["nice", "-n", "10", sys.executable, str(Path(__file__).resolve()), *flags]
    with tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        try:
            done = subprocess.run(
                command, stdout=subprocess.PIPE, stderr=err, text=True, timeout=timeout, env=env, cwd=ROOT, check=False
            )
        except subprocess.TimeoutExpired:
            err.seek(0)
            progress = re.findall(r"embedded (\d+)/(\d+) papers", err.read())
            if not progress:
                return {}, f"stopped after {timeout:.0f} s, before its first batch was in"
            done_papers, total = map(int, progress[-1])
            return {"ingest_s": timeout, "added": done_papers}, (
                f"stopped after {timeout:.0f} s, {done_papers:,} of {total:,} papers in"
            )
        err.seek(0)
        stderr = err.read()
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        return {}, f"exit {done.returncode}: {stderr.strip()[-600:]}"
    return json.loads(lines[-1]), ""


# ---------------------------------------------------------------------------- one mode, all sizes
def run_mode(mode: str, sizes: list[int], parts: dict[str, list[str]], work: Path, opts: argparse.Namespace) -> list:
    """Grow one index through ``sizes`` and probe it at each."""
    from bench.servers import ChromaServer

    data_dir = work / mode / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    server = ChromaServer(work / mode / "server-db", work / mode / "server.log").start() if mode == "server" else None
    url = server.url if server else ""
    rows: list[dict[str, Any]] = []
    have = opts.from_papers
    try:
        for size in sizes:
            row: dict[str, Any] = {"mode": mode, "size": size, "notes": []}
            flags = ["--data-dir", str(data_dir)] + (["--chroma-url", url] if url else [])
            done = work / mode / f"ingested-{size}.json"  # a rerun over the same --work probes again, no ingest
            if done.exists():
                row.update(json.loads(done.read_text(encoding="utf-8")))
            else:
                sources = write_papers(parts, have, size, work / f"papers-{have}-{size}")
                row.update(ingest_step(sources, flags, opts.step_seconds, f"[{mode}] papers {have:,}..{size:,}"))
                shutil.rmtree(sources[0].parent, ignore_errors=True)
                done.write_text(json.dumps(row), encoding="utf-8")
            have = size
            queries = work / f"queries-{size}.json"
            queries.write_text(json.dumps(query_set(parts, size, opts.queries)), encoding="utf-8")
            print(f"[{mode}] probe at {size:,}", file=sys.stderr, flush=True)
            probe, problem = run_child(["--probe", str(queries), *flags], opts.step_seconds)
            row.update(probe)
            if problem:
                row["notes"].append(f"probe {problem}")
            if probe.get("papers", 0) > size:  # a reused --work folder already grown past this step
                row["notes"].append(f"the index held {probe['papers']:,} papers, more than this step's {size:,}")
            if opts.before_code and probe:
                before, problem = run_child(["--probe", str(queries), *flags], opts.step_seconds, opts.before_code)
                row["before"] = before or {"problem": problem}
            row["chroma_disk_mb"] = folder_mb(work / mode / ("server-db" if server else "data/chroma"))
            if server and server.proc is not None:
                row["server_rss_mb"], row["server_peak_rss_mb"] = rss_mb(server.proc.pid)
            rows.append(row)
            print(f"[{mode}] {json.dumps(row)}", file=sys.stderr, flush=True)
            save_rows(rows, mode)
            if row["notes"] and not probe:
                break  # a larger size would only take longer
    finally:
        if server:
            server.stop()
    return rows


def ingest_step(sources: list[Path], flags: list[str], budget: float, label: str) -> dict[str, Any]:
    """Ingest the files one ingest each (each commits and rebuilds BM25, as separate ingests do),
    until they are all in or ``budget`` seconds are spent; what got in, and notes on what did not."""
    out: dict[str, Any] = {"ingest_s": 0.0, "added": 0, "chunks_added": 0, "ingest_peak_rss_mb": 0.0, "notes": []}
    for n, source in enumerate(sources, 1):
        left = budget - out["ingest_s"]
        if left < 30:
            out["notes"].append(f"{budget:.0f} s spent before file {n}/{len(sources)}; {out['added']:,} papers added")
            break
        print(f"{label}: ingest file {n}/{len(sources)}, {left:.0f} s left", file=sys.stderr, flush=True)
        result, problem = run_child(["--ingest", str(source), *flags], left)
        out["ingest_s"] += result.get("ingest_s", 0.0)
        out["added"] += result.get("added", 0)
        out["chunks_added"] += result.get("chunks_added", 0)
        out["ingest_peak_rss_mb"] = max(out["ingest_peak_rss_mb"], result.get("ingest_peak_rss_mb", 0.0))
        if result.get("rejected"):
            out["notes"].append(f"ingest refused: {'; '.join(result['rejected'])}")
        if problem:
            out["notes"].append(f"ingest of file {n}/{len(sources)} {problem}; {out['added']:,} papers added in all")
            break
    return out


def save_rows(rows: list[dict[str, Any]], mode: str) -> None:
    """Merge one mode's rows into bench/scale.json (kept between runs, one mode at a time)."""
    old = json.loads(JSON_OUT.read_text(encoding="utf-8")) if JSON_OUT.exists() else {"rows": []}
    kept = [r for r in old["rows"] if r["mode"] != mode or r["size"] not in {x["size"] for x in rows}]
    old["rows"] = sorted(kept + rows, key=lambda r: (r["mode"], r["size"]))
    old["machine"] = (
        f"{os.cpu_count()} CPU cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB"
    )
    JSON_OUT.write_text(json.dumps(old, indent=1) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------- plot
def plot(rows: list[dict[str, Any]], path: Path) -> str:
    """Four panels against papers (log-log): search latency, app memory, BM25 snapshot, rebuild."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return "matplotlib is not installed (pip install -e '.[bench]'), so no plot was drawn"
    panels = [
        (
            "search p50 (ms)",
            [("search_p50_ms", "no filter", "-"), ("author_p50_ms", "author", "--"), ("area_p50_ms", "area", ":")],
        ),
        ("app memory (MB)", [("rss_mb", "resident", "-"), ("rebuild_peak_rss_mb", "peak in a BM25 rebuild", "--")]),
        ("BM25 snapshot on disk (MB)", [("snapshot_mb", "snapshot", "-")]),
        (
            "seconds",
            [("rebuild_s", "BM25 rebuild", "-"), ("open_s", "app open", "--"), ("refresh_s", "change check", ":")],
        ),
    ]
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    colours = {"embedded": "tab:blue", "server": "tab:orange"}
    whole = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}")
    for ax, (title, series) in zip(axes.flat, panels):
        for mode in ("embedded", "server"):
            mine = [r for r in rows if r["mode"] == mode and "search_p50_ms" in r]
            if not mine or (title.startswith("BM25 snapshot") and mode == "server"):
                continue  # the snapshot is the same file in both modes
            for key, label, style in series:
                xs = [r["papers"] for r in mine]
                ax.plot(
                    xs,
                    [max(r[key], 1e-3) for r in mine],
                    style,
                    marker="o",
                    color=colours[mode],
                    label=f"{mode}: {label}",
                )
                before = [(r["papers"], r["before"][key]) for r in mine if key in r.get("before", {})]
                if mode == "embedded" and before and key in ("author_p50_ms", "area_p50_ms", "refresh_s"):
                    ax.plot(*zip(*before), style, marker="x", color="grey", label=f"before the fixes: {label}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(whole)
        ax.yaxis.set_major_formatter(whole)
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_title(title)
        ax.set_xlabel("papers")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("How cost grows (hash embedder, 384 dimensions; 2 CPU cores)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return ""


# ---------------------------------------------------------------------------- report
def table(rows: list[dict[str, Any]]) -> list[str]:
    """The figures as Markdown table rows."""
    out = [
        (
            "| Chroma | papers | chunks | ingest (papers/s) | search p50 / p95 (ms) | author filter p50 (ms) "
            "| area filter p50 (ms) | app open (s) | change check (s) | app RSS (MB) | BM25 snapshot (MB) "
            "| BM25 rebuild (s) | peak RSS in rebuild (MB) | Chroma disk (MB) | server RSS (MB) |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "search_p50_ms" not in r:
            out.append(f"| {r['mode']} | {r['size']:,} (not measured) |" + " |" * 13)
            continue
        rate = f"{r['added'] / r['ingest_s']:,.0f}" if r.get("ingest_s") else "-"
        server = f"{r['server_rss_mb']:,.0f}" if "server_rss_mb" in r else "-"
        out.append(
            f"| {r['mode']} | {r['papers']:,} | {r['chunks']:,} | {rate} | {r['search_p50_ms']:.0f} / "
            f"{r['search_p95_ms']:.0f} | {r['author_p50_ms']:.0f} | {r['area_p50_ms']:.0f} | {r['open_s']:.1f} "
            f"| {r['refresh_s']:.2f} | {r['rss_mb']:,.0f} | {r['snapshot_mb']:,.0f} | {r['rebuild_s']:.1f} "
            f"| {r['rebuild_peak_rss_mb']:,.0f} | {r['chroma_disk_mb']:,.0f} | {server} |"
        )
    return out


def before_after(rows: list[dict[str, Any]]) -> list[str]:
    """Rows that also hold figures from the code before the fixes."""
    keys = [
        ("search_p50_ms", "search p50 (ms)"),
        ("search_p95_ms", "search p95 (ms)"),
        ("author_p50_ms", "author filter p50 (ms)"),
        ("area_p50_ms", "area filter p50 (ms)"),
        ("open_s", "app open (s)"),
        ("refresh_s", "change check (s)"),
        ("rss_mb", "app RSS (MB)"),
    ]
    out = ["| Chroma | papers | " + " | ".join(label for _, label in keys) + " |", "|---|---|" + "---|" * len(keys)]
    for r in rows:
        b = r.get("before") or {}
        if "search_p50_ms" not in r or not b:
            continue
        if "search_p50_ms" not in b:
            why = re.sub(r"^.*?index at \S+: ", "", b.get("problem", "no figures").splitlines()[-1])[-120:]
            out.append(f"| {r['mode']} | {r['papers']:,} | before: failed ({why}) |" + " |" * (len(keys) - 1))
            continue
        cells = [f"{b[k]:,.{0 if b[k] >= 10 else 2}f} → {r[k]:,.{0 if r[k] >= 10 else 2}f}" for k, _ in keys]
        out.append(f"| {r['mode']} | {r['papers']:,} | " + " | ".join(cells) + " |")
    return out if len(out) > 2 else []


def write_report(data: dict[str, Any], md: Path, command: str, plot_note: str) -> None:
    """Rewrite the figures part of SCALE.md; the prose after the END marker is kept."""
    marker = "<!-- figures end: the text below is written by hand -->"
    kept = md.read_text(encoding="utf-8").split(marker, 1)[1] if md.exists() and marker in md.read_text() else "\n"
    rows = data["rows"]
    notes = [f"- {r['mode']} {r['size']:,}: {n}" for r in rows for n in r.get("notes", [])]
    lines = [
        "# How cost grows",
        "",
        f"Made by `python bench/scale.py` (`make scale`) on {data.get('machine', 'this machine')}; each run",
        "merges its rows into bench/scale.json, so rows can come from separate runs (a step is rerun alone",
        f"with `--sizes N`); this file and the plot were last drawn by `{command}`.",
        "Synthetic papers from the catalogue's sentences; the hash embedder (384 dimensions) stands in",
        "for MiniLM, so a query's encode (~20 ms with MiniLM) is not in the search times.",
        "",
        "![How cost grows](scale.png)" if not plot_note else f"(No plot: {plot_note}.)",
        "",
        *table(rows),
        "",
    ]
    ba = before_after(rows)
    if ba:
        lines += ["Before → after the fixes below, same index, same queries:", "", *ba, ""]
    if notes:
        lines += ["Steps cut short:", "", *notes, ""]
    md.write_text("\n".join(lines) + marker + kept, encoding="utf-8")


# ---------------------------------------------------------------------------- main
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (the --ingest/--probe forms are the child processes)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)), help="papers at each step, ascending")
    ap.add_argument("--modes", default="embedded,server", help="embedded, server or both")
    ap.add_argument("--queries", type=int, default=200, help="searches timed at each size")
    ap.add_argument("--hit-sample", type=int, default=50, help="title searches checked for their paper in the top 5")
    ap.add_argument("--step-seconds", type=float, default=900, help="an ingest or probe running longer is stopped")
    ap.add_argument("--before-code", default="", help="a checkout whose assistant/ is probed too (before/after)")
    ap.add_argument("--catalogue", type=Path, default=CATALOGUE)
    ap.add_argument("--work", type=Path, default=None, help="folder for the indexes (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--from-papers", type=int, default=0, help="papers a reused --work index already holds")
    ap.add_argument("--report-only", action="store_true", help="redraw SCALE.md and the plot from bench/scale.json")
    ap.add_argument("--ingest", help=argparse.SUPPRESS)
    ap.add_argument("--probe", help=argparse.SUPPRESS)
    ap.add_argument("--data-dir", help=argparse.SUPPRESS)
    ap.add_argument("--chroma-url", default="", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        args.size_list = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        ap.error(f"--sizes must be whole numbers separated by commas, not {args.sizes!r}")
    if not args.size_list or args.size_list != sorted(set(args.size_list)) or args.size_list[0] < 10:
        ap.error("--sizes must be ascending, distinct, and at least 10 papers")
    args.mode_list = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not args.mode_list or set(args.mode_list) - {"embedded", "server"}:
        ap.error(f"--modes takes embedded and/or server, not {args.modes!r}")
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the steps, then write scale.json, SCALE.md and scale.png."""
    args = parse_args(argv)
    if args.ingest or args.probe:
        result = ingest_child(args) if args.ingest else probe_child(args)
        print(json.dumps(result), flush=True)
        return
    command = "python bench/scale.py " + " ".join(sys.argv[1:] if argv is None else argv)
    if not args.report_only:
        parts = catalogue_parts(args.catalogue)
        work = args.work or Path(tempfile.mkdtemp(prefix="assistant-scale-"))
        work.mkdir(parents=True, exist_ok=True)
        try:
            for mode in args.mode_list:
                run_mode(mode, args.size_list, parts, work, args)
        finally:
            if not args.keep and args.work is None:
                shutil.rmtree(work, ignore_errors=True)
    data = json.loads(JSON_OUT.read_text(encoding="utf-8"))
    note = plot(data["rows"], PNG_OUT)
    write_report(data, MD_OUT, command.strip(), note)
    print("\n".join(table(data["rows"])))
    print(f"peak RSS of the bench itself: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()

"""The command line with the real packaged models, on a seeds index built once per session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.config import PROJECT_ROOT
from bench.servers import ingest_seeds, refused_port
from tests.conftest import SEEDS

pytestmark = pytest.mark.real
HIT_KEYS = {"rank", "paper_id", "title", "authors", "area", "url", "text", "abstract", "score"}


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli") / "data"
    ingest_seeds(root)
    return root


def cli(data_dir: Path, *args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant", *args, "--data-dir", str(data_dir)], cwd=PROJECT_ROOT,
                          input=stdin, capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})})


def test_search_json_shape_and_jsonl(data_dir: Path) -> None:
    out = cli(data_dir, "search", "speed up LLM decoding", "--json", "-k", "3")
    hits = json.loads(out.stdout)
    assert len(hits) == 3 and HIT_KEYS <= set(hits[0])
    assert hits[0]["title"] == "Break the Sequential Dependency of LLM Inference Using Lookahead Decoding"
    assert len({h["paper_id"] for h in hits}) == 3 and isinstance(hits[0]["authors"], list)
    lines = cli(data_dir, "search", "-k", "2", stdin="reading agent gist memory\nprivacy\n").stdout.splitlines()
    assert [len(json.loads(line)) for line in lines] == [2, 2]
    assert json.loads(lines[0])[0]["paper_id"] == "34161"


def test_empty_and_huge_queries(data_dir: Path) -> None:
    empty = cli(data_dir, "search", "  ")
    assert empty.returncode != 0 and "empty" in empty.stderr and "Traceback" not in empty.stderr
    huge = cli(data_dir, "search", "decoding " * 12_500, "--json")  # 112,500 characters
    assert huge.returncode == 0 and json.loads(huge.stdout)


def test_status_reports_both_indexes(data_dir: Path) -> None:
    status = json.loads(cli(data_dir, "status", "--json").stdout)
    assert status["dense"] == status["lexical"] and status["dense"]["papers"] == 39 and status["consistent"]
    assert "MiniLM" in status["embedding_model"] and status["last_ingest"]


def test_ingest_again_is_unchanged(data_dir: Path) -> None:
    report = json.loads(cli(data_dir, "ingest", "--json").stdout)
    assert report["papers"] == {"added": 0, "updated": 0, "unchanged": 39, "rejected": 0}


def seed_paragraphs() -> list[str]:
    """Every paragraph of the seed files as raw text with whitespace collapsed: read straight from
    the files, not through the parser or the index, so it is an expectation of its own."""
    return [" ".join(block.split()) for path in sorted(SEEDS.glob("*.txt"))
            for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]


# Written by hand from the seed file: the Lookahead decoding abstract opens with this sentence.
LOOKAHEAD_OPENING = "Autoregressive decoding of large language models (LLMs) is memory bandwidth bounded"


def test_ask_json_structure_with_real_model(data_dir: Path) -> None:
    out = cli(data_dir, "ask", "How does Lookahead decoding speed up LLM inference?", "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert {"question", "answer", "refused", "citations", "passages", "rewritten_query", "timings_ms"} <= set(answer)
    assert not answer["refused"] and answer["citations"]
    retrieved = {p["paper_id"] for p in answer["passages"]}
    paragraphs = seed_paragraphs()
    lookahead = next(p for p in paragraphs if p.startswith(LOOKAHEAD_OPENING))
    for c in answer["citations"]:
        assert c["paper_id"] in retrieved and f"[{c['n']}]" in answer["answer"]
        # Each evidence sentence is a sentence of one abstract paragraph of the seed files.
        assert c["evidence"] and all(any(" ".join(e.split()) in p for p in paragraphs) for e in c["evidence"]), c
    cited = {c["paper_id"]: c for c in answer["citations"]}
    assert "33512" in cited
    # The Lookahead paper's evidence comes from the Lookahead abstract, and says what the answer claims.
    assert all(" ".join(e.split()) in lookahead for e in cited["33512"]["evidence"]), cited["33512"]["evidence"]
    assert "Lookahead decoding" in answer["answer"]


def test_ask_stdin_follow_up_and_refusal(data_dir: Path) -> None:
    requests = "\n".join([json.dumps({"question": "Who wrote it?", "history": ["What is ReadAgent?"]}),
                          "What is the capital of Australia?"])
    lines = [json.loads(line) for line in cli(data_dir, "ask", stdin=requests).stdout.splitlines()]
    assert "ReadAgent" in lines[0]["rewritten_query"] or "Reading Agent" in lines[0]["rewritten_query"]
    assert "Kuang-Huei Lee" in lines[0]["answer"]
    assert lines[1]["refused"] and not lines[1]["citations"]


def test_missing_model_and_unreachable_server(data_dir: Path) -> None:
    missing = cli(data_dir, "ask", "What is ReadAgent?", "--model", "/nonexistent/model.gguf")
    assert missing.returncode != 0 and "model file not found" in missing.stderr and "Traceback" not in missing.stderr
    broken = data_dir.parent / "broken.gguf"
    broken.write_bytes(b"not a model at all")
    bad = cli(data_dir, "ask", "What is ReadAgent?", "--model", str(broken))
    assert bad.returncode != 0 and "not a GGUF" in bad.stderr
    with refused_port() as port:  # held, never listening: nothing else can answer there meanwhile
        down = cli(data_dir, "ask", "What is ReadAgent?", "--json", env={"ASSISTANT_LLM_URL": f"http://127.0.0.1:{port}/v1"})
    answer = json.loads(down.stdout)
    assert "unreachable" in answer["notice"] and answer["mode"] == "extractive"
    assert all(c["paper_id"] in {p["paper_id"] for p in answer["passages"]} for c in answer["citations"])

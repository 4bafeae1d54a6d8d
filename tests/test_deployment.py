"""Beyond one machine: two app processes sharing one Chroma server and one LLM server.

`chroma run` holds the index, llama-cpp-python's own OpenAI-compatible server
(`python -m llama_cpp.server`, run by `python -m assistant.model_server`) serves the packaged model, and two `assistant serve`
processes, each with an empty data dir of its own, answer from that one index.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from assistant.config import PROJECT_ROOT
from bench.servers import ChromaServer, ask_app, llama_server, running_app
from tests.conftest import SEEDS

pytestmark = [pytest.mark.server, pytest.mark.real]

NEW_PAPER = {"paper_id": "x-origami", "title": "Origami Transformers Fold Attention Maps",
             "authors": ["Ada Folder"],
             "abstract": "We introduce Origami Transformers, which fold attention maps along learned creases. "
                         "Folding halves the memory of attention on long sequences with no loss in perplexity."}


def ingest(chroma_url: str, data_dir: Path, *paths: Path) -> None:
    """`assistant ingest` into the shared server, from a process of its own."""
    done = subprocess.run([sys.executable, "-m", "assistant", "ingest", *map(str, paths), "--data-dir", str(data_dir),
                           "--chroma-url", chroma_url], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


def assert_from_model(answer: dict) -> None:
    """The answer was made with the model server's draft: the model wrote text, the answer is not
    a refusal, and no fallback notice (an unreachable or failing model server) was shown."""
    trace = answer["trace"]
    assert trace.get("draft", "").strip(), f"no model draft: {answer['text']}"
    assert trace.get("mode") in ("generated", "extractive"), trace.get("mode")
    assert "Note:" not in answer["text"], answer["text"]


def test_two_apps_share_one_chroma_server_and_one_llm_server(tmp_path: Path) -> None:
    chroma = ChromaServer(tmp_path / "chroma-db", tmp_path / "chroma.log").start()
    with ExitStack() as stack:
        stack.callback(chroma.stop)
        llm_url = stack.enter_context(llama_server(tmp_path / "llm.log"))
        ingest(chroma.url, tmp_path / "ingest", SEEDS)
        env = {"ASSISTANT_CHROMA_URL": chroma.url, "ASSISTANT_LLM_URL": llm_url, "ASSISTANT_REFRESH_SECONDS": "1"}
        apps = [stack.enter_context(running_app(tmp_path / f"app{n}", tmp_path / f"app{n}.log", **env))
                for n in (1, 2)]

        def model_calls() -> int:
            return (tmp_path / "llm.log").read_text().count("POST /v1/chat/completions")

        # Both answer the same question from the same index, each through the one model server:
        # every answer adds a completion request to the server's log and carries its draft.
        answers = []
        for url in apps:
            before = model_calls()
            answers.append(ask_app(url, "How does Lookahead decoding speed up LLM inference?"))
            assert model_calls() > before, "the answer did not come through the model server"
        for answer in answers:
            assert answer["cited"] and answer["cited"][0] == "33512", answer["text"]
            assert_from_model(answer)
        assert answers[0]["trace"]["passages"] == answers[1]["trace"]["passages"]
        assert not any((tmp_path / f"app{n}" / "chroma").exists() for n in (1, 2))  # no local index

        # A paper ingested by a third process is found by both running apps.
        source = tmp_path / "new.jsonl"
        source.write_text(json.dumps(NEW_PAPER) + "\n", encoding="utf-8")
        ingest(chroma.url, tmp_path / "ingest", source)
        time.sleep(1.5)  # past ASSISTANT_REFRESH_SECONDS
        for url in apps:
            answer = ask_app(url, "How do Origami Transformers fold attention maps?")
            assert answer["cited"] == ["x-origami"], answer["text"]
            assert_from_model(answer)

        # Chroma restarted mid-session: while it is down the app says so and cites nothing;
        # once it is back the same app answers again, without being restarted.
        chroma.stop()
        down = ask_app(apps[0], "How does Lookahead decoding speed up LLM inference?")
        assert "Chroma server" in down["text"] and "not reachable" in down["text"] and not down["shown"]
        chroma.start()
        again = ask_app(apps[0], "How does Lookahead decoding speed up LLM inference?")
        assert again["cited"] and again["cited"][0] == "33512", again["text"]
        assert_from_model(again)

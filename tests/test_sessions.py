"""Sessions are never mixed: concurrent sessions with different questions each get their own answer.

Answers are deterministic (temperature 0, a fixed seed), so each session's answer is first made
alone, one session at a time, as the reference; then the sessions ask again at once, each from its
own client (its own Gradio session and state), with a follow-up that only that session's history
makes sense of. Every concurrent answer must equal its own reference in full: text, every cited
paper, every paper shown.
"""

from __future__ import annotations

import re
import threading

import pytest

from assistant.ingest import parse_sources
from bench.servers import message_text
from tests.conftest import SEEDS, quiet

pytestmark = pytest.mark.real

CONVERSATIONS = [  # (first question, a word only its paper's title has, a follow-up only its history resolves)
    ("What is ReadAgent?", "Reading Agent", "What does it achieve?"),
    ("How does Lookahead decoding speed up LLM inference?", "Lookahead Decoding", "What does it achieve?"),
]


def paper_id(title_words: str) -> str:
    """The id of the one seed paper whose title contains ``title_words``."""
    found = [p.paper_id for p in parse_sources([SEEDS], quiet)[0].papers if title_words in p.title]
    assert len(found) == 1, (title_words, found)
    return found[0]


def converse(url: str, questions: list[str]) -> list[dict]:
    """Ask ``questions`` in turn in one new session; each reply's text, cited and shown paper ids."""
    from gradio_client import Client

    client, chat, replies = Client(url, verbose=False), [], []
    for question in questions:
        chat, sources, _trace, _box = client.predict(question, chat, api_name="/chat")
        sources = sources if isinstance(sources, str) else ""
        replies.append({"text": message_text(chat[-1]["content"]),
                        "cited": re.findall(r'id="src-(?:\d+-)?\d+" data-paper="([^"]*)"', sources),
                        "shown": re.findall(r'data-paper="([^"]*)"', sources)})
    return replies


def test_concurrent_sessions_get_only_their_own_answers(app_url: str) -> None:
    plans = [[first, follow] for first, _, follow in CONVERSATIONS]
    papers = [paper_id(words) for _, words, _ in CONVERSATIONS]
    reference = [converse(app_url, plan) for plan in plans]  # one session at a time
    for replies, paper in zip(reference, papers):
        assert [r["cited"][:1] for r in replies] == [[paper], [paper]], replies  # the follow-up stays on topic
    assert reference[0][1]["text"] != reference[1][1]["text"]  # same follow-up, different histories

    results: dict[int, list[dict]] = {}
    errors: list[BaseException] = []

    def run(n: int) -> None:
        try:
            results[n] = converse(app_url, plans[n % len(plans)])
        except BaseException as exc:  # reported below, with the session it came from
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(2 * len(plans))]  # two sessions per plan
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    assert not errors, errors
    assert sorted(results) == list(range(2 * len(plans)))
    for n, replies in results.items():
        own = n % len(plans)
        others = {paper for i, paper in enumerate(papers) if i != own}
        assert replies == reference[own], (n, replies, reference[own])
        assert not {pid for r in replies for pid in r["cited"]} & others, (n, replies)

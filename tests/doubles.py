"""Test doubles: stand-ins for the language model, which the product does not ship."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence

from assistant.llm import Message


class ScriptedLLM:
    """Replies with queued texts, in order; records the messages it was given (for tests)."""

    name = "scripted"

    def __init__(self, replies: Iterable[str] = ()) -> None:
        self.replies: deque[str] = deque(replies)
        self.calls: list[list[Message]] = []

    def enqueue(self, reply: str) -> None:
        """Queue the next reply."""
        self.replies.append(reply)

    def stream(self, messages: Sequence[Message], max_tokens: int) -> Iterator[str]:
        """Yield the next queued reply word by word."""
        self.calls.append(list(messages))
        reply = self.replies.popleft() if self.replies else ""
        for i, word in enumerate(reply.split(" ")):
            yield word if i == 0 else " " + word

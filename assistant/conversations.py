"""Conversations kept in the user's browser (Gradio's BrowserState): pure functions over the stored value.

The stored value is ``{"current": id or None, "chats": [{"id", "title", "chat", "turns"}, ...]}``,
most recent first. Nothing here touches the server's disk: the browser holds the only copy.
"""

from __future__ import annotations

import uuid
from typing import Any

# A short list: the browser's storage is small (about 5 MB per site) and each turn carries its sources.
KEEP = 8
TITLE_CHARS = 60
EMPTY: dict[str, Any] = {"current": None, "chats": []}


def _valid(store: Any) -> dict[str, Any]:
    """The stored value, or an empty one when it is missing or not of our shape (an older version,
    another app on the same origin)."""
    if not isinstance(store, dict) or not isinstance(store.get("chats"), list):
        return {"current": None, "chats": []}
    chats = [
        c
        for c in store["chats"]
        if isinstance(c, dict)
        and isinstance(c.get("id"), str)
        and isinstance(c.get("chat"), list)
        and isinstance(c.get("turns"), list)
    ]
    return {"current": store.get("current"), "chats": chats}


def new_id() -> str:
    """A fresh conversation id."""
    return uuid.uuid4().hex[:12]


def title(turns: list[dict[str, Any]], chat: list[dict[str, Any]]) -> str:
    """A conversation's name in the list: its first question, shortened."""
    first = (
        turns[0]["question"]
        if turns
        else next((message_text(m.get("content")) for m in chat if m.get("role") == "user"), "")
    )
    first = " ".join(str(first).split()) or "Untitled conversation"
    return first if len(first) <= TITLE_CHARS else first[: TITLE_CHARS - 1].rstrip() + "…"


def message_text(content: Any) -> str:
    """A chat message's text: Gradio sends content as a string or as a list of typed parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    if isinstance(content, dict):
        return str(content.get("text", ""))
    return ""


def save(
    store: Any, conv_id: str, chat: list[dict[str, Any]], turns: list[dict[str, Any]]
) -> tuple[dict[str, Any], str]:
    """The store with this conversation first (added or replaced) and made current; returns the store
    and the conversation's id (a new one when it had none). An empty chat is not kept."""
    store = _valid(store)
    if not chat:
        return store, conv_id
    conv_id = conv_id or new_id()
    entry = {"id": conv_id, "title": title(turns, chat), "chat": chat, "turns": turns}
    others = [c for c in store["chats"] if c["id"] != conv_id]
    return {"current": conv_id, "chats": ([entry] + others)[:KEEP]}, conv_id


def find(store: Any, conv_id: str | None) -> dict[str, Any] | None:
    """The stored conversation with this id, if any."""
    return next((c for c in _valid(store)["chats"] if c["id"] == conv_id), None)


def current(store: Any) -> dict[str, Any] | None:
    """The conversation that was open when the page was last used."""
    store = _valid(store)
    return find(store, store["current"])


def choose(store: Any, conv_id: str | None) -> dict[str, Any]:
    """The store with ``conv_id`` as the open conversation (None: a new, empty one)."""
    store = _valid(store)
    return {"current": conv_id if find(store, conv_id) else None, "chats": store["chats"]}


def choices(store: Any) -> list[tuple[str, str]]:
    """(title, id) of the kept conversations, most recent first, for the list of earlier ones."""
    return [(c.get("title") or "Untitled conversation", c["id"]) for c in _valid(store)["chats"]]

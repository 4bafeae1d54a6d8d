"""The composition root: builds a retriever or a whole assistant from settings.

``cli`` and ``ui`` both start from here, so neither imports the other.
"""

from __future__ import annotations

from assistant.answer import Assistant
from assistant.config import Settings
from assistant.embedding import load_query_embedder
from assistant.errors import UserError
from assistant.index import NO_PAPERS, Index, missing_index
from assistant.llm import load_llm
from assistant.retrieval import Retriever


def open_index(settings: Settings) -> Index:
    """The index to read; a missing one is a one-line error, not a new empty index."""
    reason = missing_index(settings)
    if reason:
        raise UserError(reason)
    return Index.open(settings)


def open_retriever(settings: Settings) -> Retriever:
    """An index holding papers plus a retriever with the configured embedder (loaded on the first
    query; numpy, not torch, so that a cold search takes about a second)."""
    index = open_index(settings)
    if not index.papers():  # else every question would be "not close enough" to anything
        raise UserError(NO_PAPERS)
    return Retriever(index, lambda: load_query_embedder(settings.embed_model), settings)


def open_assistant(settings: Settings) -> Assistant:
    """The answer pipeline over the configured index and model (the model loads on first use)."""
    return Assistant(open_retriever(settings), lambda: load_llm(settings), settings)

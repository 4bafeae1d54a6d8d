"""Turn the project's known failure types into one readable line for the user."""

from __future__ import annotations


class UserError(Exception):
    """A failure the user can fix; printed as one line, no traceback."""


def describe(exc: BaseException) -> str | None:
    """A message for a known failure, or None for a bug (which should show its traceback)."""
    from assistant.embedding import EmbedderError
    from assistant.ingest import IngestLocked
    from assistant.lexical import LexicalIndexError
    from assistant.llm import LLMError
    from assistant.prompts import PromptError
    from assistant.store import StoreError
    from assistant.ui import ServeError

    if isinstance(exc, (StoreError, EmbedderError, IngestLocked, LexicalIndexError, LLMError, PromptError, ServeError)):
        return str(exc)
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename or exc}"
    if isinstance(exc, OSError) and exc.errno == 28:
        return "no space left on the device; the existing index was not changed"
    return None

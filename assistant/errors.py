"""The project's error types share one root, and known failures become one readable line.

This module imports nothing of the project, so every module can raise these.
"""

from __future__ import annotations

import errno


class AssistantError(Exception):
    """Root of every error the project raises on purpose: its message is one line for the user."""


class UserError(AssistantError):
    """A failure the user can fix (a bad flag, an empty question); printed as one line, no traceback."""


def describe(exc: BaseException) -> str | None:
    """A message for a known failure, or None for a bug (which should show its traceback)."""
    if isinstance(exc, AssistantError):
        return str(exc)
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename or exc}"
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return "no space left on the device; the existing index was not changed"
    return None

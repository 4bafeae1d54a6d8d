"""Prompt files in ``prompts/`` (package data once installed), rendered with ``string.Template`` ($name placeholders)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from string import Template

from assistant.errors import AssistantError
from assistant.paths import resource

PROMPTS_DIR = resource("prompts")
# The placeholders each prompt may use; anything else is a typo and is rejected at load.
PLACEHOLDERS: dict[str, set[str]] = {
    "system": set(),
    "answer": {"sources", "question"},
    "source": {"key", "title", "passage"},
}


class PromptError(AssistantError, ValueError):
    """A prompt file is missing or uses an unknown placeholder."""


@cache
def load(name: str, folder: Path = PROMPTS_DIR) -> Template:
    """The template in ``<folder>/<name>.txt``, validated against its allowed placeholders."""
    path = folder / f"{name}.txt"
    try:
        template = Template(path.read_text(encoding="utf-8").strip())
    except OSError as exc:
        raise PromptError(f"prompt file {path} cannot be read: {exc}") from exc
    used = {m.group("named") or m.group("braced") for m in template.pattern.finditer(template.template)} - {None}
    unknown = used - PLACEHOLDERS.get(name, set())
    if unknown:
        raise PromptError(f"prompt {path.name} uses unknown placeholder(s): {', '.join(sorted(unknown))}")
    return template


def render(name: str, **values: str) -> str:
    """Render a prompt; every placeholder it uses must be given."""
    try:
        return load(name).substitute(**values)
    except KeyError as exc:
        raise PromptError(f"prompt {name}.txt needs a value for ${exc.args[0]}") from None

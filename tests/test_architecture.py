"""Dependencies point one way: the composition root sits below both front ends."""

from __future__ import annotations

import ast
from pathlib import Path

from assistant.config import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "assistant"


def imported(module: Path) -> set[str]:
    """Every assistant module a file imports, wherever the import statement sits."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("assistant"):
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.startswith("assistant")}
    return names


def test_front_ends_share_the_composition_root() -> None:
    assert "assistant.build.open_assistant" in imported(PACKAGE / "ui.py")
    assert "assistant.build.open_assistant" in imported(PACKAGE / "cli.py")
    assert not {"assistant.cli", "assistant.ui"} & imported(PACKAGE / "build.py")
    assert not any(name.startswith("assistant.cli") for name in imported(PACKAGE / "ui.py"))

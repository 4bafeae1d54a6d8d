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


def graph() -> dict[str, set[str]]:
    """assistant module -> the assistant modules it imports (an imported name counts as its module)."""
    modules = {f"assistant.{path.stem}" for path in PACKAGE.glob("*.py")}
    return {
        f"assistant.{path.stem}": {name for name in imported(path) if name in modules} - {f"assistant.{path.stem}"}
        for path in PACKAGE.glob("*.py")
    }


def test_no_import_cycles() -> None:
    """Dependencies point one way: no module reaches itself through the modules it imports."""
    edges = graph()
    for start in edges:
        seen, todo = set(), list(edges[start])
        while todo:
            name = todo.pop()
            assert name != start, f"{start} imports itself through {sorted(seen)}"
            if name not in seen:
                seen.add(name)
                todo.extend(edges.get(name, ()))


def top_packages(folder: Path) -> set[str]:
    """The first part of every module name imported anywhere under ``folder``."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
    return names


def test_the_product_ships_no_tests_and_bench_needs_none() -> None:
    assert not {"tests", "bench"} & top_packages(PACKAGE)
    assert "tests" not in top_packages(PROJECT_ROOT / "bench")
    assert not any("Scripted" in path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py"))


def test_papers_come_from_the_retriever_not_through_its_index() -> None:
    """``retriever.papers()``, not ``retriever.index.lexical.papers``: only the index knows its parts."""
    for path in set(PACKAGE.glob("*.py")) - {PACKAGE / "index.py"}:
        text = path.read_text(encoding="utf-8")
        assert ".index.lexical" not in text and ".lexical.papers" not in text, path.name


def test_text_helpers_have_one_home() -> None:
    """Tokens, accent folding, numbers, names and sentences are defined in ``assistant.text`` only."""
    helpers = {"tokenize", "fold", "numbers", "named_terms", "split_sentences"}
    for path in set(PACKAGE.glob("*.py")) - {PACKAGE / "text.py"}:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert not helpers & defined, (path.name, helpers & defined)
        assert "unicodedata.combining" not in path.read_text(encoding="utf-8"), path.name

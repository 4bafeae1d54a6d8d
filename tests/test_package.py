"""The installed wheel works outside the checkout: packaged prompts, seeds and seed metadata,
the user's data dir, the packaged models; ingest, ask and serve from another directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from assistant import paths
from assistant.config import PROJECT_ROOT
from bench.servers import free_port, stop, wait_http

# What a build needs from the checkout; copied so that the build leaves nothing in the work tree.
SOURCES = ["pyproject.toml", "README.md", "assistant", "prompts", "seeds"]


def test_user_data_dir_follows_platform_conventions(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert paths.user_data_dir({}, "linux", home) == home / ".local/share/icml-assistant"
    assert paths.user_data_dir({"XDG_DATA_HOME": "/x/share"}, "linux", home) == Path("/x/share/icml-assistant")
    assert paths.user_data_dir({"XDG_DATA_HOME": "relative"}, "linux", home) == home / ".local/share/icml-assistant"
    assert paths.user_data_dir({}, "darwin", home) == home / "Library/Application Support/icml-assistant"
    assert paths.user_data_dir({"LOCALAPPDATA": "/l"}, "win32", home) == Path("/l/icml-assistant")


def test_checkout_keeps_its_own_folders() -> None:
    assert paths.in_checkout()
    assert paths.default_data_dir() == PROJECT_ROOT / "data"
    assert paths.resource("prompts") == PROJECT_ROOT / "prompts"
    assert paths.resource("seeds") == PROJECT_ROOT / "seeds"
    assert paths.resource("seed_metadata.json") == PROJECT_ROOT / "assistant" / "resources" / "seed_metadata.json"
    assert not paths.in_checkout(PROJECT_ROOT / "assistant")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built offline from a copy of the checkout, installed without dependencies into a target."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    for name in SOURCES:
        src = PROJECT_ROOT / name
        if src.is_dir():
            shutil.copytree(src, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(src, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(root / "dist"),
                    str(source)], check=True, capture_output=True, text=True, timeout=300)
    (wheel,) = (root / "dist").glob("icml_assistant-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for prompt in (PROJECT_ROOT / "prompts").glob("*.txt"):
        assert f"assistant/resources/prompts/{prompt.name}" in names
    for seed in (PROJECT_ROOT / "seeds").glob("*.txt"):
        assert f"assistant/resources/seeds/{seed.name}" in names
    assert "assistant/resources/seed_metadata.json" in names
    target = root / "target"
    subprocess.run([*pip, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True, timeout=300)
    return target


def _env(target: Path, home: Path) -> dict[str, str]:
    """The installed package first, then the venv's site-packages for its dependencies; no checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    env["PYTHONPATH"] = os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]])
    env["XDG_DATA_HOME"] = str(home / "share")
    env["HOME"] = str(home)
    env["GRADIO_ANALYTICS_ENABLED"] = "False"
    return env


@pytest.mark.real
def test_installed_wheel_ingests_asks_and_serves_from_anywhere(installed: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = _env(installed, tmp_path / "home")
    script = installed / "bin" / "assistant"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(script), *args], cwd=elsewhere, env=env, capture_output=True, text=True,
                              timeout=600)

    where = subprocess.run([sys.executable, "-c", "import assistant; print(assistant.__file__)"], cwd=elsewhere,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(installed))

    ingested = run("ingest", "--json")
    assert ingested.returncode == 0, ingested.stderr
    report = json.loads(ingested.stdout)
    assert report["files"] == len(list((PROJECT_ROOT / "seeds").glob("*.txt")))
    assert report["papers"]["added"] > 0 and not report["rejected"]

    status = json.loads(run("status", "--json").stdout)
    assert status["data_dir"] == str(tmp_path / "home" / "share" / "icml-assistant")
    assert status["embedding_model"].startswith("all-MiniLM-L6-v2")

    asked = run("ask", "How does Lookahead decoding speed up LLM inference?", "--json")
    assert asked.returncode == 0, asked.stderr
    answer = json.loads(asked.stdout)
    assert answer["citations"], answer
    # Titles come from the packaged seed metadata: the seed files hold bare abstracts.
    assert any("Lookahead" in c["title"] for c in answer["citations"])
    assert not list(elsewhere.iterdir())  # nothing written where the command ran

    port = free_port()
    with open(tmp_path / "serve.log", "w", encoding="utf-8") as log:
        proc = subprocess.Popen([str(script), "serve", "--port", str(port)], cwd=elsewhere, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            wait_http(f"http://127.0.0.1:{port}/", 120, proc)
        finally:
            stop(proc)
